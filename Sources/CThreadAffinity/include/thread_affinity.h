#ifndef FACEWORKER_THREAD_AFFINITY_H
#define FACEWORKER_THREAD_AFFINITY_H

// The calling thread's CPU affinity, which Swift's Glibc module leaves out (sched_setaffinity and
// the cpu_set_t macros are GNU extensions). CPUs are numbered as the kernel numbers them; a set
// holds CPUs 0 to FW_AFFINITY_MAX_CPUS - 1.

#define FW_AFFINITY_MAX_CPUS 1024

/// Writes the CPUs the calling thread may run on, in ascending order, into `cpus` (room for
/// `capacity`). Returns how many it may run on (which can exceed `capacity`), or -errno.
int fw_thread_allowed_cpus(int *cpus, int capacity);

/// Lets thread `tid` (0: the calling thread) run on the `count` CPUs of `cpus` only. Returns 0,
/// or -errno (and the thread's affinity is unchanged): -EINVAL when none of them is allowed to the
/// process, -ESRCH when no such thread exists.
int fw_thread_set_cpus(int tid, const int *cpus, int count);

/// The calling thread's kernel thread ID, which `fw_thread_set_cpus` takes.
int fw_thread_id(void);

/// The CPU the calling thread runs on now, or -errno.
int fw_thread_current_cpu(void);

#endif
