// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - module-wide event counts. Each CPU counts its own events with
 * this_cpu_inc() (any context, NMI included); a reader sums the CPUs' counts,
 * which may move meanwhile: a figure is as of some moment of the read.
 */

#include <linux/cpumask.h>

#include "stats.h"

DEFINE_PER_CPU(struct aie_stats, aie_stats);

/* The field at @offset of struct aie_stats, summed over the CPUs. */
unsigned long aie_stats_sum(size_t offset)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(unsigned long *)((char *)per_cpu_ptr(&aie_stats, cpu) +
					  offset);
	return sum;
}
