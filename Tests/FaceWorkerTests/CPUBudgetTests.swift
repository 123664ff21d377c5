@testable import WorkerCore
import Foundation
import XCTest

/// The default inference thread count is the CPUs the worker may keep busy:
/// its affinity mask, capped by a cgroup CPU quota, so a worker under
/// `taskset`, a cpuset or a `CPUQuota=` does not start more threads than it
/// can run.
final class CPUBudgetTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = try WorkerProcess.makeTemporaryDirectory()
        addTeardownBlock { [root] in try? FileManager.default.removeItem(atPath: root) }
    }

    private func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: "\(root)/\(path)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func testACPUMaxLineIsItsQuotaInWholeCPUsRoundedUp() {
        XCTAssertEqual(CPUBudget.cpus(fromCPUMax: "150000 100000\n"), 2)
        XCTAssertEqual(CPUBudget.cpus(fromCPUMax: "100000 100000"), 1)
        XCTAssertEqual(CPUBudget.cpus(fromCPUMax: "5000 100000"), 1, "a sliver of a CPU is still one thread")
        XCTAssertNil(CPUBudget.cpus(fromCPUMax: "max 100000"), "no quota")
        XCTAssertNil(CPUBudget.cpus(fromCPUMax: "garbage"))
    }

    func testTheTightestQuotaOfTheCgroupAndItsAncestorsCounts() throws {
        try write("max 100000\n", to: "service/worker/cpu.max")
        try write("250000 100000\n", to: "service/cpu.max")
        let quota = try XCTUnwrap(CPUBudget.quota(membership: "0::/service/worker\n", cgroupRoot: root))
        XCTAssertEqual(quota.cpus, 3)
        XCTAssertTrue(quota.source.hasSuffix("service/cpu.max"), quota.source)

        try write("120000 100000\n", to: "service/worker/cpu.max")
        XCTAssertEqual(CPUBudget.quota(membership: "0::/service/worker\n", cgroupRoot: root)?.cpus, 2)
        XCTAssertNil(CPUBudget.quota(membership: "0::/elsewhere\n", cgroupRoot: root), "no cpu.max on the way up: no quota")
    }

    func testAVersionOneCPUControllersQuotaCountsToo() throws {
        try write("50000\n", to: "cpu,cpuacct/box/cpu.cfs_quota_us")
        try write("100000\n", to: "cpu,cpuacct/box/cpu.cfs_period_us")
        let membership = "4:memory:/box\n3:cpu,cpuacct:/box\n0::/\n"
        XCTAssertEqual(CPUBudget.quota(membership: membership, cgroupRoot: root)?.cpus, 1)
        try write("-1\n", to: "cpu,cpuacct/box/cpu.cfs_quota_us")
        XCTAssertNil(CPUBudget.quota(membership: membership, cgroupRoot: root), "-1 is no quota")
    }

    func testTheAffinityMaskIsCountedFromTheKernelsHexMask() {
        XCTAssertEqual(CPUBudget.affinityCount(status: "Name:\tface-worker\nCpus_allowed:\tff,00000005\nCpus_allowed_list:\t0,2,32-39\n"), 10)
        XCTAssertEqual(CPUBudget.affinityCount(status: "Cpus_allowed:\t1\n"), 1)
        XCTAssertNil(CPUBudget.affinityCount(status: "Name:\tface-worker\n"), "no mask line")
        XCTAssertNil(CPUBudget.affinityCount(status: "Cpus_allowed:\txyz\n"))
    }

    func testTheBudgetIsTheSmallerOfTheMaskAndTheQuota() {
        XCTAssertEqual(CPUBudget(affinity: 4, online: 8, quota: (2, "q")).cpus, 2)
        XCTAssertEqual(CPUBudget(affinity: 4, online: 8, quota: (2, "q")).source, "q")
        XCTAssertEqual(CPUBudget(affinity: 1, online: 8, quota: (2, "q")).cpus, 1)
        XCTAssertEqual(CPUBudget(affinity: 1, online: 8, quota: nil).source, "the affinity mask (1 of 8 CPUs)")
        XCTAssertEqual(CPUBudget(affinity: nil, online: 8, quota: nil).cpus, 8)
    }

    func testAWorkerUnderTasksetStartsOneThreadAndSaysWhy() async throws {
        let pinned = try await startWorker(["--log-format", "json"], launcher: ["/usr/bin/taskset", "-c", "0"])
        let started = try await startLine(of: pinned)
        XCTAssertEqual(started["inference_threads"] as? String, "1", "\(started)")
        XCTAssertTrue((started["inference_threads_from"] as? String)?.hasPrefix("the affinity mask (1 of") == true, "\(started)")

        let told = try await startWorker(["--log-format", "json", "--threads", "2"], launcher: ["/usr/bin/taskset", "-c", "0"])
        let toldLine = try await startLine(of: told)
        XCTAssertEqual(toldLine["inference_threads"] as? String, "2", "--threads still overrides: \(toldLine)")
        XCTAssertEqual(toldLine["inference_threads_from"] as? String, "--threads")
    }

    private func startLine(of worker: WorkerProcess) async throws -> [String: Any] {
        let logged = await worker.waitForLog("worker started", timeout: .seconds(60))
        XCTAssertTrue(logged, worker.log)
        let records = try worker.log.split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        return try XCTUnwrap(records.first { $0["message"] as? String == "worker started" }, worker.log)
    }
}
