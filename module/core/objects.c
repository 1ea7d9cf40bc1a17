// SPDX-License-Identifier: GPL-2.0
/*
 * objects.c - the module's two object maps (objmap.c is the map itself).
 *
 * Objects are keyed by what their free names, as a kernel address: the
 * object's address for slab and vmalloc, the struct page for pages, the
 * address of CPU 0's copy for percpu. These never overlap, so one object
 * map serves all: aie_objects. A sampled object's weight, when above 1,
 * is kept in aie_weights under the same key. With slabmap=1 a tracked
 * slab object's value is kept beside its slab's pages instead
 * (slabmap.c), and a page block's in the page map (pagemap.c), when they
 * can have a record. track/ inserts into and removes from these maps;
 * the stats file's lines of all four are here.
 *
 * Notes on locking
 * ----------------
 * None here: the maps are made before the hooks attach, or under
 * aie_rules_mutex before sampling starts (aie_weights_make()), and freed
 * after the hooks are gone. Each map's shards have their own locks
 * (objmap.c).
 */

#include <linux/minmax.h>
#include <linux/seq_file.h>

#include "objects.h"
#include "pagemap.h"
#include "slabmap.h"
#include "slabrecs.h"
#include "stats.h"

struct aie_objmap aie_objects, aie_weights;

/*
 * Show the maps' lines of the stats file: the objects tracked in each map
 * and the maps' sizes. The slab and page maps' records are counted in
 * walks of the maps: their hooks count nothing.
 */
static void aie_objects_show(struct seq_file *m)
{
	unsigned long slab_records, page_records;

	slab_records = aie_slab_records_used() + aie_stat(slab_large);
	page_records = aie_pagemap_count();
	seq_printf(m, "tracked_objects %lu\n",
		   aie_objmap_count(&aie_objects) + slab_records + page_records);
	seq_printf(m, "object_capacity %lu\n",
		   aie_objmap_capacity(&aie_objects));
	seq_printf(m, "weighted_objects %lu\n",
		   aie_objmap_count(&aie_weights));
	seq_printf(m, "weight_capacity %lu\n",
		   aie_objmap_capacity(&aie_weights));
	/* off: slabmap=0, lifetimes=1, node counters */
	seq_printf(m, "slab_map %s\n", aie_slabmap_capacity() ? "on" : "off");
	seq_printf(m, "slab_map_objects %lu\n", slab_records);
	seq_printf(m, "slab_map_capacity %lu\n", aie_slabmap_capacity());
	seq_printf(m, "slab_map_ceiling %lu\n",
		   aie_slabmap_capacity() ? aie_slab_records_ceiling() : 0);
	seq_printf(m, "slab_map_full %lu\n", aie_slab_records_full());
	seq_printf(m, "slab_map_blocks %u\n", aie_slabmap_blocks());
	seq_printf(m, "page_map %s\n", aie_pagemap_memory() ? "on" : "off");
	seq_printf(m, "page_map_objects %lu\n", page_records);
}

/* Show the memory of each map. */
static void aie_objects_memory_show(struct seq_file *m)
{
	seq_printf(m, "object_map_bytes %zu\n", aie_objmap_memory(&aie_objects));
	seq_printf(m, "weight_map_bytes %zu\n", aie_objmap_memory(&aie_weights));
	seq_printf(m, "slab_map_bytes %zu\n", aie_slabmap_memory());
	seq_printf(m, "page_map_bytes %zu\n", aie_pagemap_memory());
}

/* Sum the bytes of the four maps. */
static size_t aie_objects_memory(void)
{
	return aie_objmap_memory(&aie_objects) +
	       aie_objmap_memory(&aie_weights) + aie_slabmap_memory() +
	       aie_pagemap_memory();
}

/**
 * aie_objects_init() - Make the object map.
 * @max_objects: slots wanted (aie_objmap_init() rounds them up).
 * @stamps: keep an allocation stamp per slot (lifetimes=1).
 *
 * The weight map is made with sampling's first start (aie_weights_make()).
 *
 * Context: Process context, before the hooks attach; may sleep.
 * Return: 0, or -ENOMEM.
 */
int aie_objects_init(unsigned long max_objects, bool stamps)
{
	aie_stats_part_set(AIE_STATS_MAPS, aie_objects_show,
			   aie_objects_memory);
	aie_stats_part_set(AIE_STATS_MAP_MEMORY, aie_objects_memory_show,
			   NULL);
	return aie_objmap_init(&aie_objects, max_objects, stamps);
}

/**
 * aie_weights_make() - Make the weight map, if it is not made yet.
 *
 * It holds the sampled objects of weight above 1 only, and only sampling
 * makes them. 65536 slots, or a sixteenth of the object map's when more:
 * 57344 live weighted objects, more than sampling at 1 KiB keeps of 64 MiB
 * of 64-byte objects. Made before sampling starts (aie_sample_set() turns
 * its key on after, which every CPU sees), kept until exit: a weighted
 * object's free finds it.
 *
 * Context: Process context, under aie_rules_mutex or before the hooks
 * attach; may sleep.
 * Return: 0, or -ENOMEM.
 */
int aie_weights_make(void)
{
	unsigned long slots = (1UL << aie_objects.bits) / 16;

	if (aie_weights.slots)
		return 0;
	return aie_objmap_init(&aie_weights, max(slots, 1UL << 16), false);
}

/**
 * aie_objects_exit() - Free both maps.
 *
 * Context: Process context, after every hook is unregistered and has
 * finished.
 */
void aie_objects_exit(void)
{
	aie_objmap_exit(&aie_weights);
	aie_objmap_exit(&aie_objects);
}
