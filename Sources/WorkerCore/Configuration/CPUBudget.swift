import Foundation

/// How many CPUs this process can keep busy, and what set the number: the
/// CPUs its affinity mask allows (`taskset`, a container's cpuset, systemd's
/// `AllowedCPUs=`), capped by its cgroup's CPU quota (`cpu.max`, systemd's
/// `CPUQuota=`, a container's `--cpus`) rounded up.
///
/// The machine's CPU count says nothing of either: a worker given one CPU of
/// eight that starts eight inference threads has them take turns on that one,
/// each frame paying for the switches.
package struct CPUBudget: Sendable, Equatable {
    /// The CPUs, at least 1.
    package var cpus: Int
    /// What set `cpus`, for the start line.
    package var source: String

    /// The budget of the calling process, read from its affinity mask and
    /// from the cgroup files under `cgroupRoot`.
    package static func current(cgroupRoot: String = "/sys/fs/cgroup") -> CPUBudget {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let membership = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        return CPUBudget(affinity: affinityCount(), online: online,
                         quota: quota(membership: membership, cgroupRoot: cgroupRoot))
    }

    /// The smaller of the affinity mask's CPUs (the online CPUs when the mask
    /// cannot be read) and the quota's.
    init(affinity: Int?, online: Int, quota: (cpus: Int, source: String)?) {
        let allowed = affinity ?? online
        let mask = affinity.map { "the affinity mask (\($0) of \(online) CPUs)" } ?? "the online CPUs (\(online))"
        if let quota, quota.cpus < allowed {
            self.init(cpus: quota.cpus, source: quota.source)
        } else {
            self.init(cpus: max(1, allowed), source: mask)
        }
    }

    package init(cpus: Int, source: String) {
        self.cpus = cpus
        self.source = source
    }

    /// The CPUs this process's affinity mask allows, as the kernel reports it
    /// in `/proc/self/status` (the mask `sched_getaffinity` reads, which
    /// Swift's Glibc module does not declare); nil if it cannot be read.
    static func affinityCount(status: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) -> Int? {
        guard let line = status?.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var count = 0
        for character in line.dropFirst("Cpus_allowed:".count) where character != "," && !character.isWhitespace {
            guard let nibble = character.hexDigitValue else { return nil }
            count += nibble.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }

    /// The tightest CPU quota over the process's cgroup and its ancestors,
    /// in whole CPUs rounded up, and the file that set it; nil when none is
    /// set. `membership` is `/proc/self/cgroup`'s text: the unified (v2)
    /// hierarchy's `cpu.max` and the v1 `cpu` controller's
    /// `cpu.cfs_quota_us` / `cpu.cfs_period_us` are both read.
    static func quota(membership: String, cgroupRoot: String) -> (cpus: Int, source: String)? {
        var tightest: (cpus: Int, source: String)?
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let controllers = fields[1].split(separator: ",")
            let directory: String
            if fields[0] == "0" && controllers.isEmpty {
                directory = cgroupRoot
            } else if controllers.contains("cpu") {
                directory = "\(cgroupRoot)/\(fields[1])"
            } else {
                continue
            }
            for path in ancestors(of: String(fields[2])) {
                let found = controllers.isEmpty
                    ? read("\(directory)\(path)/cpu.max").flatMap { text in cpus(fromCPUMax: text).map { ($0, "\(directory)\(path)/cpu.max") } }
                    : v1Quota(in: "\(directory)\(path)")
                if let found, found.0 < (tightest?.cpus ?? .max) { tightest = (found.0, found.1) }
            }
        }
        return tightest
    }

    /// CPUs from a `cpu.max` line, "quota period" in microseconds, rounded
    /// up; nil for "max" (no quota) or a line that does not parse.
    package static func cpus(fromCPUMax text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]) else { return nil }
        return cpus(quota: quota, period: period)
    }

    private static func cpus(quota: Int, period: Int) -> Int? {
        guard quota > 0, period > 0 else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    private static func v1Quota(in directory: String) -> (Int, String)? {
        guard let quota = read("\(directory)/cpu.cfs_quota_us").flatMap({ Int($0) }),
              let period = read("\(directory)/cpu.cfs_period_us").flatMap({ Int($0) }),
              let cpus = cpus(quota: quota, period: period) else { return nil }
        return (cpus, "\(directory)/cpu.cfs_quota_us")
    }

    /// "/a/b" → ["/a/b", "/a", ""]: a quota on any ancestor limits its children.
    private static func ancestors(of path: String) -> [String] {
        var parts = path.split(separator: "/").map(String.init)
        var paths: [String] = []
        while !parts.isEmpty {
            paths.append("/" + parts.joined(separator: "/"))
            parts.removeLast()
        }
        return paths + [""]
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
