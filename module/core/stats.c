// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - module-wide event counts, summed over the CPUs, and the parts
 * of /proc/allocinfo_ext_stats (iface/stats_proc.c): each unit's show and
 * memory callbacks, in the file's order.
 *
 * Notes on locking
 * ----------------
 * None: each CPU counts its own events with this_cpu_inc() (aie_count(),
 * any context, NMI included), which neither an interrupt nor an NMI
 * tears; a reader sums the CPUs' counts, which may move meanwhile: a
 * figure is as of some moment of the read. The parts are set once at
 * init, before the file is created, and read without a lock after.
 */

#include <linux/cpumask.h>
#include <linux/seq_file.h>

#include "stats.h"

DEFINE_PER_CPU(struct aie_stats, aie_stats);

/* The event counts' lines: a name, its field. */
static const struct {
	const char *name;
	size_t offset;
} aie_stats_events[] = {
#define AIE_STATS_EVENT(name, field) { name, offsetof(struct aie_stats, field) }
	AIE_STATS_EVENT("untracked", untracked),
	AIE_STATS_EVENT("sites_full", sites_full),
	AIE_STATS_EVENT("sites_waiting", sites_waiting),
	AIE_STATS_EVENT("unmatched_frees", unmatched_frees),
	AIE_STATS_EVENT("replaced", replaced),
	AIE_STATS_EVENT("unseen_frees", unseen_frees),
	AIE_STATS_EVENT("internal_events", internal),
	AIE_STATS_EVENT("disabled_allocs", disabled),
	AIE_STATS_EVENT("helper_fallbacks", helper_fallbacks),
	AIE_STATS_EVENT("page_walk_stops", walk_stops),
	AIE_STATS_EVENT("cache_size_misses", cache_misses),
	AIE_STATS_EVENT("slab_site_cache_misses", slab_site_misses),
	AIE_STATS_EVENT("page_site_cache_misses", page_site_misses),
	AIE_STATS_EVENT("oversize", oversize),
	AIE_STATS_EVENT("nmi_skips", nmi_skips),
#undef AIE_STATS_EVENT
};

/* Show the event counts, each summed over the CPUs. */
static void aie_stats_events_show(struct seq_file *m)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(aie_stats_events); i++)
		seq_printf(m, "%s %lu\n", aie_stats_events[i].name,
			   aie_stats_sum(aie_stats_events[i].offset));
}

static size_t aie_stats_memory(void)
{
	return num_possible_cpus() * sizeof(struct aie_stats);
}

static struct {
	aie_stats_show_fn show;
	aie_stats_memory_fn memory;
} aie_stats_parts[AIE_STATS_PARTS] = {
	[AIE_STATS_EVENTS] = { aie_stats_events_show, aie_stats_memory },
};

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

/**
 * aie_stats_part_set() - Set a unit's part of the stats file.
 * @part: the part, which fixes where its lines go.
 * @show: prints the part's lines, "name value\n" each, or NULL for none.
 * @memory: the bytes the unit holds, for memory_bytes, or NULL.
 *
 * Context: Process context, at the unit's init, before the stats file is
 * created (iface/proc.c).
 */
void aie_stats_part_set(enum aie_stats_part part, aie_stats_show_fn show,
			aie_stats_memory_fn memory)
{
	aie_stats_parts[part].show = show;
	aie_stats_parts[part].memory = memory;
}

/**
 * aie_stats_parts_show() - Show every part's lines, in the parts' order.
 * @m: the stats file being read.
 *
 * Context: Process context; the parts' callbacks may sleep.
 */
void aie_stats_parts_show(struct seq_file *m)
{
	int i;

	for (i = 0; i < AIE_STATS_PARTS; i++)
		if (aie_stats_parts[i].show)
			aie_stats_parts[i].show(m);
}

/**
 * aie_stats_parts_memory() - Sum the memory every part holds.
 *
 * Context: Process context; the parts' callbacks may sleep.
 * Return: the bytes.
 */
size_t aie_stats_parts_memory(void)
{
	size_t bytes = 0;
	int i;

	for (i = 0; i < AIE_STATS_PARTS; i++)
		if (aie_stats_parts[i].memory)
			bytes += aie_stats_parts[i].memory();
	return bytes;
}
