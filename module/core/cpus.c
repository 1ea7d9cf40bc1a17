// SPDX-License-Identifier: GPL-2.0
/*
 * cpus.c - per-CPU parts made as CPUs come up, not for every possible
 * CPU: a CPU hotplug state whose prepare callback makes a CPU's part
 * before the CPU first runs (CPUHP_BP_PREPARE_DYN, on the CPU that brings
 * it up, in process context), and, where a unit asks, whose dead callback
 * drains it after the CPU died.
 *
 * Before 5.12, setting up such a state never calls its startup for the
 * CPUs already up: aie_cpus_setup() calls it for each of them by hand.
 *
 * Notes on locking
 * ----------------
 * aie_cpus_setup() holds the CPU hotplug lock (cpus_read_lock()) while it
 * sets the state up and calls @prepare for the CPUs up: it keeps them up,
 * and keeps a CPU from coming up between the two. The hotplug core calls
 * @prepare and @dead with the same lock held, in process context, so a
 * unit's callbacks never run at once.
 */

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>

#include "cpus.h"

/**
 * aie_cpus_setup() - Set up a CPU hotplug state for a unit's per-CPU parts.
 * @name: the state's name, "allocinfo_ext:<unit>".
 * @prepare: makes a CPU's part before it runs; an error keeps it down.
 * @dead: drains a CPU's part after it died, or NULL.
 *
 * Call @prepare for each CPU up now. On an error the state is gone and
 * the caller frees the parts @prepare made.
 *
 * Context: Process context, before any hook reads the parts; takes the
 * CPU hotplug lock.
 * Return: the state, for cpuhp_remove_state_nocalls(), or a negative
 * error.
 */
int aie_cpus_setup(const char *name, int (*prepare)(unsigned int cpu),
		   int (*dead)(unsigned int cpu))
{
	unsigned int cpu;
	int state, ret = 0;

	cpus_read_lock();
	state = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_BP_PREPARE_DYN,
						     name, prepare, dead);
	if (state >= 0) {
		for_each_online_cpu(cpu) {
			ret = prepare(cpu);
			if (ret)
				break;
		}
		if (ret)
			cpuhp_remove_state_nocalls_cpuslocked(state);
	}
	cpus_read_unlock();
	return ret ?: state;
}
