// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - module-wide event counts, summed over the CPUs for
 * /proc/allocinfo_ext_stats.
 *
 * Notes on locking
 * ----------------
 * None: each CPU counts its own events with this_cpu_inc() (aie_count(),
 * any context, NMI included), which neither an interrupt nor an NMI
 * tears; a reader sums the CPUs' counts, which may move meanwhile: a
 * figure is as of some moment of the read.
 */

#include <linux/cpumask.h>

#include "stats.h"

DEFINE_PER_CPU(struct aie_stats, aie_stats);

/**
 * aie_stats_sum() - Sum one field of struct aie_stats over the CPUs.
 * @offset: the field's offset, as aie_stat() gives it.
 *
 * Context: Any context; racy against the counting, as said above.
 * Return: the sum.
 */
unsigned long aie_stats_sum(size_t offset)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(unsigned long *)((char *)per_cpu_ptr(&aie_stats, cpu) +
					  offset);
	return sum;
}
