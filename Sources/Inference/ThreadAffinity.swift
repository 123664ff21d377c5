import CThreadAffinity

/// The calling thread's CPU affinity: which CPUs the kernel may run it on.
package enum ThreadAffinity {
    /// The CPUs the calling thread may run on, in ascending order; empty if
    /// they cannot be read.
    package static func allowedCPUs() -> [Int32] {
        var cpus = [Int32](repeating: 0, count: Int(FW_AFFINITY_MAX_CPUS))
        let count = Int(fw_thread_allowed_cpus(&cpus, Int32(cpus.count)))
        guard count > 0, count <= cpus.count else { return [] }
        return Array(cpus.prefix(count))
    }

    /// Lets thread `thread` (nil: the calling thread) run on `cpus` only;
    /// false, changing nothing, if the kernel refuses (none of them allowed
    /// to the process, or the thread gone).
    @discardableResult
    package static func restrict(_ thread: Int32? = nil, to cpus: [Int32]) -> Bool {
        !cpus.isEmpty && fw_thread_set_cpus(thread ?? 0, cpus, Int32(cpus.count)) == 0
    }

    /// The calling thread's kernel thread ID, for `restrict(_:to:)` from
    /// another thread.
    package static var currentThread: Int32 { fw_thread_id() }

    /// The CPU the calling thread runs on now; nil if it cannot be read.
    package static var currentCPU: Int32? {
        let cpu = fw_thread_current_cpu()
        return cpu >= 0 ? cpu : nil
    }
}
