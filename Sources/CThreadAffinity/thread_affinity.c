#define _GNU_SOURCE
#include "thread_affinity.h"

#include <errno.h>
#include <sched.h>
#include <unistd.h>

int fw_thread_allowed_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -errno;
    int count = 0;
    for (int cpu = 0; cpu < FW_AFFINITY_MAX_CPUS && cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        if (count < capacity) cpus[count] = cpu;
        count++;
    }
    return count;
}

int fw_thread_set_cpus(int tid, const int *cpus, int count) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < count; i++) {
        if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE) return -EINVAL;
        CPU_SET(cpus[i], &set);
    }
    return sched_setaffinity(tid, sizeof set, &set) == 0 ? 0 : -errno;
}

int fw_thread_current_cpu(void) {
    int cpu = sched_getcpu();
    return cpu >= 0 ? cpu : -errno;
}

int fw_thread_id(void) {
    return gettid();
}
