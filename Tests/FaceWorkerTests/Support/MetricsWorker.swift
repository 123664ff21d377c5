import Foundation
import XCTest

extension XCTestCase {
    /// Starts a worker serving metrics on a Unix socket in its directory, or,
    /// with `tcp`, on a free loopback port, which it names in its log; returns
    /// it with the endpoint's address.
    func startMetricsWorker(tcp: Bool = false, _ arguments: [String] = []) async throws -> (WorkerProcess, HTTPConnection.Address) {
        let directory = try WorkerProcess.makeTemporaryDirectory()
        let path = "\(directory)/metrics.sock"
        let worker = try await startWorker(["--metrics-listen", tcp ? "0" : path] + arguments, directory: directory)
        guard tcp else { return (worker, .unix(path)) }
        let logged = "metrics_address=127.0.0.1:"
        guard await worker.waitForLog(logged), let start = worker.log.range(of: logged),
              let port = UInt16(worker.log[start.upperBound...].prefix { $0.isNumber })
        else {
            throw WorkerExited(status: -1, log: "no metrics port in the log:\n\(worker.log)")
        }
        return (worker, .tcp(port: port))
    }
}
