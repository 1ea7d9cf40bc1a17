// SPDX-License-Identifier: GPL-2.0
/*
 * stats_proc.c - /proc/allocinfo_ext_stats: module-wide figures, one per line,
 * "name value". Process context; the figures are read without a lock
 * and may move while the file is read.
 */

#include <linux/cpumask.h>
#include <linux/seq_file.h>

#include "aie.h"
#include "core/counters.h"
#include "core/nodes.h"
#include "core/objects.h"
#include "core/objmap.h"
#include "core/pagemap.h"
#include "core/rules.h"
#include "core/sample.h"
#include "core/sites.h"
#include "core/slabmap.h"
#include "core/slabrecs.h"
#include "core/stats.h"
#include "core/symbols.h"
#include "extras/capture.h"
#include "extras/lifetimes.h"
#include "extras/cgsites.h"
#include "extras/memcg.h"
#include "hooks/hooks.h"
#include "oom.h"
#include "stats_proc.h"

#define aie_stat_show(m, name, field) \
	seq_printf(m, name " %lu\n", aie_stat(field))

int aie_stats_show(struct seq_file *m, void *v)
{
	size_t objects = aie_objmap_memory(&aie_objects);
	size_t weights = aie_objmap_memory(&aie_weights);
	size_t slabs = aie_slabmap_memory();
	size_t pages = aie_pagemap_memory();
	size_t memory = aie_sites_memory() + aie_ctrs_memory() + objects + weights + slabs + pages +
			aie_rules_memory() + aie_capture_memory() +
			aie_lifetimes_memory() + aie_nodes_memory() +
			aie_syms_memory() +
			num_possible_cpus() * sizeof(struct aie_stats);
	unsigned long slab_records, page_records;

	/* Counted in walks of the maps: their hooks count nothing. */
	slab_records = aie_slab_records_used() + aie_stat(slab_large);
	page_records = aie_pagemap_count();

	seq_printf(m, "sites %u\n", aie_sites_nr());
	seq_printf(m, "site_capacity %u\n", aie_sites_capacity());
	seq_printf(m, "sites_ready %u\n", aie_sites_ready());
	seq_printf(m, "tracked_objects %lu\n",
		   aie_objmap_count(&aie_objects) + slab_records + page_records);
	seq_printf(m, "object_capacity %lu\n",
		   aie_objmap_capacity(&aie_objects));
	seq_printf(m, "weighted_objects %lu\n",
		   aie_objmap_count(&aie_weights));
	seq_printf(m, "weight_capacity %lu\n",
		   aie_objmap_capacity(&aie_weights));
	seq_printf(m, "slab_map %s\n", aie_hooks_slabmap_state());
	seq_printf(m, "slab_map_objects %lu\n", slab_records);
	seq_printf(m, "slab_map_capacity %lu\n", aie_slabmap_capacity());
	seq_printf(m, "slab_map_ceiling %lu\n",
		   aie_slabmap_capacity() ? aie_slab_records_ceiling() : 0);
	seq_printf(m, "slab_map_full %lu\n", aie_slab_records_full());
	seq_printf(m, "slab_map_blocks %u\n", aie_slabmap_blocks());
	seq_printf(m, "page_map %s\n", pages ? "on" : "off");
	seq_printf(m, "page_map_objects %lu\n", page_records);
	seq_printf(m, "sample %lu\n", READ_ONCE(aie_sample_bytes));
	aie_stat_show(m, "untracked", untracked);
	aie_stat_show(m, "sites_full", sites_full);
	aie_stat_show(m, "sites_waiting", sites_waiting);
	aie_stat_show(m, "unmatched_frees", unmatched_frees);
	aie_stat_show(m, "replaced", replaced);
	aie_stat_show(m, "unseen_frees", unseen_frees);
	aie_stat_show(m, "internal_events", internal);
	aie_stat_show(m, "disabled_allocs", disabled);
	aie_stat_show(m, "helper_fallbacks", helper_fallbacks);
	aie_stat_show(m, "page_walk_stops", walk_stops);
	aie_stat_show(m, "cache_size_misses", cache_misses);
	aie_stat_show(m, "slab_site_cache_misses", slab_site_misses);
	aie_stat_show(m, "page_site_cache_misses", page_site_misses);
	aie_stat_show(m, "oversize", oversize);
	aie_stat_show(m, "nmi_skips", nmi_skips);
	seq_printf(m, "counter_slots %u\n", aie_ctr_slots());
	aie_stat_show(m, "counter_slot_takes", ctr_takes);
	aie_stat_show(m, "counter_shared_updates", ctr_shared);
	aie_stat_show(m, "peak_sums", peak_sums);
	seq_printf(m, "sample_seen_bytes %llu\n", aie_sample_seen());
	aie_stat_show(m, "sampled", sampled);
	aie_hooks_show(m);
	seq_printf(m, "oom_report %s\n", aie_oom_state());
	seq_printf(m, "oom_reports %lu\n", aie_oom_reported());
	seq_printf(m, "oom_reports_suppressed %lu\n", aie_oom_suppressed_nr());
	aie_memcg_show(m);
	aie_cgsites_show(m);
	aie_capture_show(m);
	seq_printf(m, "lifetimes %s\n", aie_lifetimes_on() ? "on" : "off");
	seq_printf(m, "lifetime_hist_bytes %zu\n", aie_lifetimes_memory());
	seq_printf(m, "lifetime_hist_misses %ld\n",
		   atomic_long_read(&aie_lifetime_misses));
	seq_printf(m, "numa %s\n", aie_nodes_on() ? "on" : "off");
	seq_printf(m, "numa_bytes %zu\n", aie_nodes_memory());
	seq_printf(m, "site_table_bytes %zu\n",
		   aie_sites_memory() + aie_ctrs_memory());
	seq_printf(m, "site_counter_bytes %zu\n",
		   aie_sites_ctrs_memory() + aie_ctrs_memory());
	seq_printf(m, "counter_slot_bytes %zu\n", aie_ctrs_memory());
	seq_printf(m, "site_cache_bytes %zu\n", aie_site_caches_memory());
	seq_printf(m, "object_map_bytes %zu\n", objects);
	seq_printf(m, "weight_map_bytes %zu\n", weights);
	seq_printf(m, "slab_map_bytes %zu\n", slabs);
	seq_printf(m, "page_map_bytes %zu\n", pages);
	seq_printf(m, "memory_bytes %zu\n", memory);
	return 0;
}
