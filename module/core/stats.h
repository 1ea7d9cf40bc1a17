/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - module-wide event counts, per CPU, summed on read
 * (/proc/allocinfo_ext_stats, iface/stats_proc.c).
 */
#ifndef _AIE_STATS_H
#define _AIE_STATS_H

#include <linux/percpu.h>
#include <linux/stddef.h>

struct seq_file;

struct aie_stats {
	unsigned long untracked;	/* object map full: allocation not tracked */
	unsigned long sites_full;	/* site table full: allocation not tracked */
	unsigned long sites_waiting;	/* new site's counters not made yet */
	unsigned long unmatched_frees;	/* free of an object we never tracked */
	unsigned long replaced;		/* object reused before its free was seen */
	unsigned long internal;		/* events inside allocators, ignored */
	unsigned long disabled;		/* allocations at disabled sites */
	unsigned long helper_fallbacks;	/* helper's caller not found */
	unsigned long oversize;		/* too large to pack: not tracked */
	unsigned long sampled;		/* tracked with a weight above 1 */
	unsigned long walk_stops;	/* page call site not found (frames.c) */
	unsigned long cache_misses;	/* ksize() asked (hooks/slab.c) */
	unsigned long ctr_takes;	/* counter slot given to a site */
	unsigned long ctr_shared;	/* slot busy: site's own counters */
	unsigned long peak_sums;	/* sums of a site to raise its peak */
	unsigned long slab_large;	/* large kmallocs in page entries, net */
	unsigned long unseen_frees;	/* records left when their slab went */
	unsigned long slab_site_misses;	/* slab site cache missed (track/slab_alloc.c) */
	unsigned long page_site_misses;	/* page site cache missed (frames.h) */
	unsigned long nmi_skips;	/* lock not had in an NMI (nmi.h) */
};

DECLARE_PER_CPU(struct aie_stats, aie_stats);

/* Any context: neither an interrupt nor an NMI tears a this-CPU increment. */
#define aie_count(field)	this_cpu_inc(aie_stats.field)

unsigned long aie_stats_sum(size_t offset);

/* The sum over the CPUs of one field of struct aie_stats. */
#define aie_stat(field)		aie_stats_sum(offsetof(struct aie_stats, field))

/*
 * The parts of /proc/allocinfo_ext_stats, in the order of its lines
 * (Documentation/format.rst): each unit sets its own part at its init,
 * its lines and its memory, and the file shows the parts in this order,
 * then the sum of their memory.
 */
enum aie_stats_part {
	AIE_STATS_SITES,	/* core/sites.c */
	AIE_STATS_MAPS,		/* core/objects.c */
	AIE_STATS_SAMPLE,	/* core/sample.c */
	AIE_STATS_EVENTS,	/* core/stats.c: struct aie_stats */
	AIE_STATS_COUNTERS,	/* core/counters.c */
	AIE_STATS_SAMPLED,	/* core/sample.c */
	AIE_STATS_HOOKS,	/* hooks/hooks.c */
	AIE_STATS_OOM,		/* iface/oom.c */
	AIE_STATS_MEMCG,	/* extras/memcg.c */
	AIE_STATS_CGSITES,	/* extras/cgsites.c */
	AIE_STATS_CAPTURE,	/* extras/capture.c */
	AIE_STATS_LIFETIMES,	/* extras/lifetimes.c */
	AIE_STATS_NUMA,		/* core/nodes.c */
	AIE_STATS_SITE_MEMORY,	/* core/counters.c */
	AIE_STATS_MAP_MEMORY,	/* core/objects.c */
	AIE_STATS_RULES,	/* core/rules.c: memory, no lines */
	AIE_STATS_SYMBOLS,	/* core/symbols.c: memory, no lines */
	AIE_STATS_PARTS
};

typedef void (*aie_stats_show_fn)(struct seq_file *m);
typedef size_t (*aie_stats_memory_fn)(void);

void aie_stats_part_set(enum aie_stats_part part, aie_stats_show_fn show,
			aie_stats_memory_fn memory);
void aie_stats_parts_show(struct seq_file *m);
size_t aie_stats_parts_memory(void);

#endif /* _AIE_STATS_H */
