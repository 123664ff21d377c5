import Glibc

/// Moves the memory a warm worker reads on every frame onto 2 MB pages.
///
/// A frame that comes after an idle spell, a camera's at 30 fps or a
/// session's first, reads the packed weights and activations while the
/// CPU's address translations are cold, and with 4 KB pages each of those
/// reads may first walk the page tables: reading 4 MB right after a 29 ms
/// sleep took 0.36 ms on 4 KB pages and 0.25 ms on 2 MB pages, against
/// 0.14 ms either way back to back. XNNPACK's packed weights and workspaces
/// and the pipelines' buffers live in malloc's arenas, large private
/// anonymous mappings that are nearly all resident once every model has run.
///
/// `collapseWarmMemory()` asks the kernel (`MADV_COLLAPSE`, Linux 6.1) to
/// move each 2 MB-aligned stretch of those mappings that is at least half
/// resident onto one 2 MB page. A stretch mostly unused stays as it is, so
/// the worker's memory grows by no more than it already uses, and in
/// practice not at all; so do mappings over 1 GiB, which are reservations (a
/// sanitizer's shadow memory), not memory in use.
package enum HugePages {
    /// What `collapseWarmMemory()` did.
    package struct Outcome: Sendable, Equatable {
        /// Bytes moved onto 2 MB pages (or already on them).
        package var collapsedBytes = 0
        /// Bytes of stretches the kernel would not move, for want of free
        /// 2 MB pages, say.
        package var refusedBytes = 0
        /// Why nothing was moved, when the kernel or the process could not.
        package var problem: String?
    }

    /// The size of a huge page on x86-64 and of the stretches collapsed.
    package static let hugePageBytes: UInt = 2 << 20
    /// The largest mapping taken for memory in use rather than a reservation.
    static let largestMapping: UInt = 1 << 30
    /// Linux 6.1's `MADV_COLLAPSE`, which the C library's headers here do not name yet.
    private static let madviseCollapse: Int32 = 25

    /// Collapses the resident stretches of the process's large anonymous
    /// mappings into 2 MB pages; call it once the models have run, so that
    /// what they read is resident.
    package static func collapseWarmMemory() -> Outcome {
        guard let maps = readText(atPath: "/proc/self/maps") else {
            return Outcome(problem: "/proc/self/maps cannot be read")
        }
        var outcome = Outcome()
        let smallPage = UInt(sysconf(Int32(_SC_PAGESIZE)))
        var residency = [UInt8](repeating: 0, count: Int(hugePageBytes / smallPage))
        for stretch in candidates(inMaps: maps) {
            for start in stride(from: stretch.lowerBound, to: stretch.upperBound, by: Int(hugePageBytes)) {
                guard let address = UnsafeMutableRawPointer(bitPattern: start),
                      mincore(address, Int(hugePageBytes), &residency) == 0,
                      residency.reduce(0, { $0 + Int($1 & 1) }) * 2 >= residency.count
                else { continue }
                if madvise(address, Int(hugePageBytes), madviseCollapse) == 0 {
                    outcome.collapsedBytes += Int(hugePageBytes)
                } else if errno == EINVAL, outcome == Outcome() {
                    // Refused at the first stretch: the kernel cannot do it here at all.
                    return Outcome(problem: "the kernel does not collapse memory into 2 MB pages (that needs Linux 6.1 or later, and "
                                   + "transparent huge pages allowed to the system and to this process)")
                } else {
                    outcome.refusedBytes += Int(hugePageBytes)
                }
            }
        }
        return outcome
    }

    /// The 2 MB-aligned parts of the private, writable, anonymous mappings
    /// (malloc's heap and arenas) of 2 MB to 1 GiB in `maps`, the text of
    /// `/proc/self/maps`.
    package static func candidates(inMaps maps: String) -> [Range<UInt>] {
        maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[1] == "rw-p", fields[4] == "0",
                  fields.count == 5 || (fields.count == 6 && fields[5] == "[heap]")
            else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let low = UInt(bounds[0], radix: 16), let high = UInt(bounds[1], radix: 16),
                  high > low, high - low <= largestMapping
            else { return nil }
            let start = (low + hugePageBytes - 1) / hugePageBytes * hugePageBytes
            let end = high / hugePageBytes * hugePageBytes
            return end > start ? start..<end : nil
        }
    }

    /// The whole of a text file the kernel makes up as it is read, which
    /// reports no size beforehand.
    package static func readText(atPath path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }
}
