/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pagemap.h - the page map's record, insert and free, inline: hooks.c
 * inlines the insert into its fast path, slabmap.c's probe on
 * mm_page_free the free. The map and its locking: see pagemap.c.
 */
#ifndef _AIE_PAGEMAP_H
#define _AIE_PAGEMAP_H

#include <linux/bitfield.h>
#include <linux/jump_label.h>
#include <linux/log2.h>
#include <linux/mm.h>

#include "aie.h"

/*
 * A page frame's entry in aie_page_pfn: 0 for a block tracked nowhere;
 * for the first page of a tracked block, its record: the site's index in
 * the top 16 bits, then AIE_PAGE_OBJMAP, the sampled-weight and accounted
 * bits, and the block's size in pages, never 0. AIE_PAGE_OBJMAP alone
 * (size 0): the block is in the object map, whose value did not fit here.
 */
#define AIE_PAGE_UNITS		GENMASK(12, 0)
#define AIE_PAGE_ACCOUNTED	BIT(13)
#define AIE_PAGE_WEIGHTED	BIT(14)
#define AIE_PAGE_OBJMAP		BIT(15)
#define AIE_PAGE_SITE		GENMASK(31, 16)

extern u32 *aie_page_pfn;
extern unsigned long aie_page_npfn;
DECLARE_STATIC_KEY_FALSE(aie_pagemap_key);

static __always_inline bool aie_pagemap_on(void)
{
	return static_branch_likely(&aie_pagemap_key);
}

/*
 * The record of an object map value @val of a page block, or 0 when it
 * does not fit: more pages than AIE_PAGE_UNITS holds, or slack (a page
 * block has none). Every site index fits (AIE_MAX_SITES).
 */
static __always_inline u32 aie_page_rec_of(u64 val)
{
	u64 units = FIELD_GET(AIE_OBJ_SIZE, val);

	BUILD_BUG_ON(AIE_MAX_SITES > (AIE_PAGE_SITE >> 16) + 1);
	if (unlikely(units > AIE_PAGE_UNITS || FIELD_GET(AIE_OBJ_SLACK, val)))
		return 0;
	return FIELD_PREP(AIE_PAGE_SITE, FIELD_GET(AIE_OBJ_SITE, val)) |
	       (val & AIE_OBJ_ACCOUNTED ? AIE_PAGE_ACCOUNTED : 0) |
	       (val & AIE_OBJ_WEIGHTED ? AIE_PAGE_WEIGHTED : 0) | units;
}

/* The object map value of the record @rec. */
static __always_inline u64 aie_page_val_of(u32 rec)
{
	return FIELD_PREP(AIE_OBJ_SITE, FIELD_GET(AIE_PAGE_SITE, rec)) |
	       (rec & AIE_PAGE_ACCOUNTED ? AIE_OBJ_ACCOUNTED : 0) |
	       (rec & AIE_PAGE_WEIGHTED ? AIE_OBJ_WEIGHTED : 0) |
	       (rec & AIE_PAGE_UNITS);
}

/*
 * Record @val for the page block @page: INSERTED, or REPLACED with the
 * value of the record that was there in *@old (its free went unseen), or
 * FULL: the block goes to the object map (past the map, a value that does
 * not fit, or a block the object map may hold already), and its entry
 * says so first; a record that was there is charged back then. No lock:
 * between its allocation and its free a block is its owner's alone, and
 * so is its entry.
 */
static __always_inline enum aie_objmap_result
aie_pagemap_insert(const struct page *page, u64 val, u64 *old)
{
	unsigned long pfn = page_to_pfn(page);
	u32 rec, prev;

	if (unlikely(pfn >= aie_page_npfn))
		return AIE_OBJMAP_FULL;
	rec = aie_page_rec_of(val);
	prev = aie_page_pfn[pfn];
	if (unlikely(!rec || prev == AIE_PAGE_OBJMAP)) {
		WRITE_ONCE(aie_page_pfn[pfn], AIE_PAGE_OBJMAP);
		if (prev && prev != AIE_PAGE_OBJMAP)
			aie_track_page_replaced(page, prev);
		return AIE_OBJMAP_FULL;
	}
	WRITE_ONCE(aie_page_pfn[pfn], rec);
	if (unlikely(prev)) {
		*old = aie_page_val_of(prev);
		return AIE_OBJMAP_REPLACED;
	}
	this_cpu_inc(aie_stats.page_records);
	return AIE_OBJMAP_INSERTED;
}

/* The largest buddy block fits a record's size (x86's 1,024 pages) */
#define AIE_PAGE_BUDDY_FITS	(MAX_ORDER_NR_PAGES <= AIE_PAGE_UNITS)

/*
 * Whether a buddy block of @order is too large for a record: never where
 * AIE_PAGE_BUDDY_FITS, and the test goes.
 */
static __always_inline bool aie_page_order_over(unsigned int order)
{
	return !AIE_PAGE_BUDDY_FITS && order > ilog2(AIE_PAGE_UNITS);
}

/*
 * The record's AIE_PAGE_ACCOUNTED for an allocation of @gfp: set when it
 * has __GFP_ACCOUNT (memcg.c). A shift and a mask of @gfp, a power of two
 * above the record's bit, where a test would take four instructions.
 */
static __always_inline u32 aie_page_gfp_acct(gfp_t gfp)
{
	u32 acct = (__force u32)__GFP_ACCOUNT;

	BUILD_BUG_ON(!is_power_of_2(acct) || acct < AIE_PAGE_ACCOUNTED);
	if (!IS_ENABLED(CONFIG_MEMCG))
		return 0;
	return (__force u32)gfp / (acct / AIE_PAGE_ACCOUNTED) &
	       AIE_PAGE_ACCOUNTED;
}

/*
 * The fast path of a page block's allocation, inline in the page probe's
 * common walk (hooks_page.c) and, through aie_pagemap_track(), in
 * aie_track_page_alloc() (hooks.c): an enabled site, @site, whose flags
 * the caller has found clear of AIE_SITE_SLOW, and the page map's entry
 * of the block's first page frame empty: the record is packed from the
 * site, @acct (AIE_PAGE_ACCOUNTED or 0) and the block's size in pages
 * (1 << @order, one bit set), and stored there, and the site charged
 * with the block's bytes, of weight 1. False for anything else, left to
 * aie_track_page_alloc()'s general path. @idx: the site's index.
 */
static __always_inline bool __aie_pagemap_track(struct aie_site *site,
						u32 idx, struct page *page,
						unsigned int order, u32 acct)
{
	unsigned long pfn = page_to_pfn(page);
	u64 bytes = PAGE_SIZE << order;
	u32 *pe;

	if (unlikely(!aie_pagemap_on() || pfn >= aie_page_npfn ||
		     aie_page_order_over(order)))
		return false;
	pe = &aie_page_pfn[pfn];
	if (unlikely(*pe))
		return false;
	WRITE_ONCE(*pe, (FIELD_PREP(AIE_PAGE_SITE, idx) | acct) | 1U << order);
	this_cpu_inc(aie_stats.page_records);
	aie_site_charge(site, bytes, 0, 1, acct);
	if (aie_capture_on())
		aie_capture_alloc(site, bytes, 1);
	return true;
}

/* __aie_pagemap_track() of a site whose flags are not tested yet. */
static __always_inline bool aie_pagemap_track(struct aie_site *site,
					      struct page *page, u64 bytes,
					      bool accounted)
{
	if (unlikely(READ_ONCE(site->flags) & AIE_SITE_SLOW))
		return false;
	/* @bytes: a buddy block's, whose order this is */
	return __aie_pagemap_track(site, aie_site_index(site), page,
				   ilog2(bytes >> PAGE_SHIFT),
				   accounted ? AIE_PAGE_ACCOUNTED : 0);
}

/*
 * The free of the page block @page whose record is @rec: its site's
 * counters, inline in the mm_page_free probe (slabmap.c), where the call
 * it saves is a sixth of the free's cost; a weighted block's, whose
 * weight is under @page in aie_weights, out of line.
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

/*
 * mm_page_free of @page, page frame @pfn, within the map (the caller
 * tests @pfn against the slab map's bound, which is the page map's: see
 * aie_slabmap_init()): its record taken, if it has one, and the free done
 * (hooks.c), or looked for in the object map.
 */
static __always_inline void aie_pagemap_free(struct page *page,
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
	this_cpu_dec(aie_stats.page_records);
	aie_page_freed(page, rec);
}

#endif /* _AIE_PAGEMAP_H */
