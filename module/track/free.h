/* SPDX-License-Identifier: GPL-2.0 */
/*
 * free.h - every free (free.c): the frees' fast paths are inline here, in
 * the free probes (hooks/).
 */
#ifndef _AIE_FREE_H
#define _AIE_FREE_H

#include <linux/bitfield.h>
#include <linux/jump_label.h>
#include <linux/mm.h>

#include "aie.h"
#include "core/counters.h"
#include "core/objects.h"
#include "core/objmap.h"
#include "core/pagemap.h"
#include "core/sites.h"
#include "core/stats.h"
#include "core/value.h"
#include "extras/lifetimes.h"

DECLARE_STATIC_KEY_FALSE(aie_track_slow_key);
DECLARE_STATIC_KEY_FALSE(aie_objects_wide_key);

/**
 * aie_track_slow() - Tell whether every event takes the general paths.
 *
 * On with stamps (lifetimes=1) or node counters (free.c).
 *
 * Context: Any context, NMI included.
 * Return: true when the fast paths are off.
 */
static inline bool aie_track_slow(void)
{
	return static_branch_unlikely(&aie_track_slow_key);
}

/**
 * aie_objects_wide() - Tell whether aie_objects takes objmap.c's calls.
 *
 * On when aie_objects has tags2, which the inline insert and remove leave
 * out (free.c).
 *
 * Context: Any context, NMI included.
 * Return: true when aie_objects' inserts and removes are out of line.
 */
static inline bool aie_objects_wide(void)
{
	return static_branch_unlikely(&aie_objects_wide_key);
}

int aie_track_init(unsigned long max_objects, bool stamps, bool slow);
void aie_track_exit(void);
void aie_uncharge_node(unsigned long key, u64 val, u64 weight);
u64 aie_uncharge(unsigned long key, u64 val);
void aie_track_replaced(unsigned long key, u64 old);
void __aie_track_free(const void *key, u64 hash);
void aie_track_slab_weighted_freed(const void *ptr, u32 entry, u64 val);
void aie_track_unseen(unsigned long gkey, u64 val);
void aie_track_unseen_key(unsigned long key);
void aie_track_page_weighted_freed(const struct page *page, u32 rec);
void aie_track_page_replaced(const struct page *page, u32 rec);

/**
 * aie_uncharge_weighted() - Uncharge an object from its site's counters.
 * @val: the object's map value.
 * @weight: the allocations it stands for.
 *
 * The map holds the indexes of published sites only: no aie_site_at()
 * needed.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
static inline void aie_uncharge_weighted(u64 val, u64 weight)
{
	struct aie_site *site = &aie_sites[FIELD_GET(AIE_OBJ_SITE, val)];
	u64 units = FIELD_GET(AIE_OBJ_SIZE, val), bytes;

	bytes = likely(site->type == AIE_TYPE_SLAB) ? units :
		aie_units_to_size(site->type, units);
	aie_site_uncharge(site, bytes, FIELD_GET(AIE_OBJ_SLACK, val), weight,
			  val & AIE_OBJ_ACCOUNTED);
}

/**
 * aie_objects_insert() - Insert an object into aie_objects.
 * @key: what its free will name.
 * @val: its map value.
 * @old: the value replaced, on AIE_OBJMAP_REPLACED.
 *
 * Stamped with the time when lifetimes are on.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 * Return: as aie_objmap_insert().
 */
static inline enum aie_objmap_result
aie_objects_insert(unsigned long key, u64 val, u64 *old)
{
	if (aie_lifetimes_on())
		return aie_objmap_insert_stamp(&aie_objects, key, val,
					       aie_lifetime_now(), old);
	return aie_objmap_insert(&aie_objects, key, val, old);
}

/**
 * aie_track_free() - Free an object the object map may hold.
 * @key: what the free names: the object's address, its struct page, or
 *       CPU 0's copy's address.
 *
 * An empty home slot turns the free away inline; else __aie_track_free().
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
static inline void aie_track_free(const void *key)
{
	u64 hash = aie_objmap_hash(&aie_objects, (unsigned long)key);

	if (!aie_objmap_may_hold(aie_objmap_home(&aie_objects, hash))) {
		aie_count(unmatched_frees);
		return;
	}
	__aie_track_free(key, hash);
}

/**
 * aie_slab_freed() - Uncharge a freed slab object whose record was taken.
 * @ptr: the object.
 * @entry: the entry of its page, in the slab map.
 * @val: its record, taken from the slab map.
 *
 * Its site's counters inline, in the free probes (hooks/slab.c); a
 * weighted object's, whose granule is the key of its weight, out of line.
 *
 * This, aie_page_freed() and the free probes' bodies that call them
 * (aie_slab_free(), aie_slab_page_freed()) are always inline: left to
 * GCC, a large kmalloc+kfree pair costs 3 instructions more (make bench,
 * 6.12).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
static __always_inline void aie_slab_freed(const void *ptr, u32 entry,
					   u64 val)
{
	if (unlikely(val & AIE_OBJ_WEIGHTED)) {
		aie_track_slab_weighted_freed(ptr, entry, val);
		return;
	}
	/* aie_uncharge_weighted() of a slab object: its size is in bytes. */
	aie_site_uncharge(&aie_sites[FIELD_GET(AIE_OBJ_SITE, val)],
			  FIELD_GET(AIE_OBJ_SIZE, val),
			  FIELD_GET(AIE_OBJ_SLACK, val), 1,
			  val & AIE_OBJ_ACCOUNTED);
}

/**
 * aie_page_freed() - Uncharge a freed page block whose record was taken.
 * @page: the block.
 * @rec: its record, taken from the page map.
 *
 * Its site's counters inline in the mm_page_free probe (slabmap.c), where
 * the call it saves is a sixth of the free's cost; a weighted block's,
 * whose weight is under @page in aie_weights, out of line.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
static __always_inline void aie_page_freed(const struct page *page, u32 rec)
{
	if (unlikely(rec & AIE_PAGE_WEIGHTED)) {
		aie_track_page_weighted_freed(page, rec);
		return;
	}
	aie_site_uncharge(&aie_sites[FIELD_GET(AIE_PAGE_SITE, rec)],
			  (u64)(rec & AIE_PAGE_UNITS) << PAGE_SHIFT, 0, 1,
			  rec & AIE_PAGE_ACCOUNTED);
}

/**
 * aie_pagemap_free() - Free a page block through the page map.
 * @page: the block mm_page_free names.
 * @pfn: its page frame, within the map (the caller tests it against the
 *       slab map's bound, which is the page map's: aie_slabmap_init()).
 *
 * Its record is taken, if it has one, and the free done, or the block
 * looked for in the object map.
 *
 * Context: The mm_page_free probe: any context, NMI included, preemption
 * disabled.
 */
static inline void aie_pagemap_free(struct page *page,
				    unsigned long pfn)
{
	u32 rec;

	/* Ordered by the block's hand-over from its allocation (pagemap.c). */
	rec = data_race(aie_page_pfn[pfn]);
	if (likely(!rec)) {
		aie_count(unmatched_frees);
		return;
	}
	WRITE_ONCE(aie_page_pfn[pfn], 0);
	if (rec == AIE_PAGE_OBJMAP) {
		aie_track_free(page);
		return;
	}
	aie_page_freed(page, rec);
}

#endif /* _AIE_FREE_H */
