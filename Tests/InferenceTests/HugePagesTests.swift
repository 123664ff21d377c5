import Glibc
import Inference
import XCTest

/// The warm memory of large anonymous mappings moves onto 2 MB pages, and
/// memory that is mostly untouched, or not malloc's, is left alone.
final class HugePagesTests: XCTestCase {
    func testOnlyLargePrivateWritableAnonymousMappingsAreCandidatesAlignedInward() {
        let maps = """
            55d0c0000000-55d0c0a00000 r-xp 00000000 fe:00 5316726                    /usr/bin/face-worker
            55d0c1000000-55d0c1800000 rw-p 00b00000 fe:00 5316726                    /usr/bin/face-worker
            55d0c2001000-55d0c2a00000 rw-p 00000000 00:00 0                          [heap]
            7f0000000000-7f0001500000 rw-p 00000000 00:00 0 
            7f0002000000-7f0002100000 rw-p 00000000 00:00 0 
            7f0003000000-7f0003400000 r--p 00000000 00:00 0 
            7f0004000000-7f0004400000 rw-s 00000000 00:01 77                         /dev/shm/frames
            7f0005000000-7f0005400000 rw-p 00000000 00:00 0                          [stack]
            7f0006000000-7f0006400000 ---p 00000000 00:00 0 
            100000000000-100080000000 rw-p 00000000 00:00 0 
            """
        XCTAssertEqual(HugePages.candidates(inMaps: maps), [
            0x55d0_c220_0000..<0x55d0_c2a0_0000,
            0x7f00_0000_0000..<0x7f00_0140_0000,
        ])
    }

    func testTheResidentHalfOfAMappingMovesOntoHugePagesAndTheUntouchedHalfStaysUnused() throws {
        // A mapping of its own between two inaccessible ones, so the kernel merges it with no neighbour.
        let size = Int(8 * HugePages.hugePageBytes)
        let reserved = size + 4 * Int(HugePages.hugePageBytes)
        let mapped = try XCTUnwrap(mmap(nil, reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0).flatMap { $0 == MAP_FAILED ? nil : $0 },
                                   "could not reserve \(reserved) bytes of address space")
        defer { munmap(mapped, reserved) }
        let aligned = (UInt(bitPattern: mapped) + 2 * HugePages.hugePageBytes - 1) / HugePages.hugePageBytes * HugePages.hugePageBytes
        let buffer = UnsafeMutableRawPointer(bitPattern: aligned)!
        XCTAssertEqual(mprotect(buffer, size, PROT_READ | PROT_WRITE), 0)
        memset(buffer, 7, size / 2)

        let outcome = HugePages.collapseWarmMemory()

        if let problem = outcome.problem {
            let enabled = HugePages.readText(atPath: "/sys/kernel/mm/transparent_hugepage/enabled") ?? ""
            let status = HugePages.readText(atPath: "/proc/self/status") ?? ""
            XCTAssertTrue(enabled.contains("[never]") || status.contains("THP_enabled:\t0"),
                          "the kernel refused (\(problem)) though transparent huge pages are on: \(enabled)")
            return
        }
        XCTAssertGreaterThanOrEqual(outcome.collapsedBytes, size / 2)
        XCTAssertGreaterThanOrEqual(hugePageBytes(around: aligned), UInt(size / 2), "the touched half is on 2 MB pages")
        var residency = [UInt8](repeating: 0, count: size / 2 / Int(sysconf(Int32(_SC_PAGESIZE))))
        XCTAssertEqual(mincore(buffer + size / 2, size / 2, &residency), 0)
        XCTAssertEqual(residency.reduce(0) { $0 + Int($1 & 1) }, 0, "the untouched half is still not in memory")
        XCTAssertEqual(buffer.load(fromByteOffset: size / 2 - 1, as: UInt8.self), 7, "the moved memory keeps its contents")
    }

    /// The AnonHugePages of the mapping that holds `address`, in bytes.
    private func hugePageBytes(around address: UInt) -> UInt {
        let smaps = HugePages.readText(atPath: "/proc/self/smaps") ?? ""
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "AnonHugePages:", fields.count >= 2, let kilobytes = UInt(fields[1]) {
                return kilobytes << 10
            }
        }
        return 0
    }
}
