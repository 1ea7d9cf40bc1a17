/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pagemap.h - the page map (pagemap.c): a page block's record, packed and
 * unpacked inline here; track/ inlines its insert and its free. The map
 * and its locking: see pagemap.c.
 */
#ifndef _AIE_PAGEMAP_H
#define _AIE_PAGEMAP_H

#include <linux/bitfield.h>
#include <linux/jump_label.h>
#include <linux/log2.h>
#include <linux/mm.h>

#include "aie.h"
#include "value.h"

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

void aie_pagemap_init(unsigned long npfn);
void aie_pagemap_exit(void);
size_t aie_pagemap_memory(void);
unsigned long aie_pagemap_count(void);

/**
 * aie_pagemap_on() - Test whether the page map is on.
 *
 * Context: Any context.
 * Return: true while aie_pagemap_key is on.
 */
static inline bool aie_pagemap_on(void)
{
	return static_branch_likely(&aie_pagemap_key);
}

/**
 * aie_page_rec_of() - Pack a page block's object map value as a record.
 * @val: the value.
 *
 * Every site index fits (AIE_MAX_SITES).
 *
 * Context: Any context.
 * Return: the record, or 0 when the value does not fit one: more pages
 * than AIE_PAGE_UNITS holds, or slack (a page block has none).
 */
static inline u32 aie_page_rec_of(u64 val)
{
	u64 units = FIELD_GET(AIE_OBJ_SIZE, val);

	BUILD_BUG_ON(AIE_MAX_SITES > (AIE_PAGE_SITE >> 16) + 1);
	if (unlikely(units > AIE_PAGE_UNITS || FIELD_GET(AIE_OBJ_SLACK, val)))
		return 0;
	return FIELD_PREP(AIE_PAGE_SITE, FIELD_GET(AIE_OBJ_SITE, val)) |
	       (val & AIE_OBJ_ACCOUNTED ? AIE_PAGE_ACCOUNTED : 0) |
	       (val & AIE_OBJ_WEIGHTED ? AIE_PAGE_WEIGHTED : 0) | units;
}

/**
 * aie_page_val_of() - Unpack a record into an object map value.
 * @rec: the record, from aie_page_rec_of().
 *
 * Context: Any context.
 * Return: the value.
 */
static inline u64 aie_page_val_of(u32 rec)
{
	return FIELD_PREP(AIE_OBJ_SITE, FIELD_GET(AIE_PAGE_SITE, rec)) |
	       (rec & AIE_PAGE_ACCOUNTED ? AIE_OBJ_ACCOUNTED : 0) |
	       (rec & AIE_PAGE_WEIGHTED ? AIE_OBJ_WEIGHTED : 0) |
	       (rec & AIE_PAGE_UNITS);
}

/* The largest buddy block fits a record's size (x86's 1,024 pages) */
#define AIE_PAGE_BUDDY_FITS	(MAX_ORDER_NR_PAGES <= AIE_PAGE_UNITS)

/**
 * aie_page_order_over() - Test whether a buddy block is too large for a
 * record.
 * @order: the block's order.
 *
 * Never where AIE_PAGE_BUDDY_FITS, and the test goes.
 *
 * Context: Any context.
 * Return: true when a block of @order does not fit a record.
 */
static inline bool aie_page_order_over(unsigned int order)
{
	return !AIE_PAGE_BUDDY_FITS && order > ilog2(AIE_PAGE_UNITS);
}

/**
 * aie_page_gfp_acct() - Work out a record's AIE_PAGE_ACCOUNTED bit.
 * @gfp: the allocation's flags.
 *
 * A shift and a mask of @gfp, __GFP_ACCOUNT being a power of two above
 * the record's bit, where a test would take four instructions.
 *
 * Context: Any context.
 * Return: AIE_PAGE_ACCOUNTED when @gfp has __GFP_ACCOUNT (memcg.c), else
 * 0; always 0 without CONFIG_MEMCG.
 */
static inline u32 aie_page_gfp_acct(gfp_t gfp)
{
	u32 acct = (__force u32)__GFP_ACCOUNT;

	BUILD_BUG_ON(!is_power_of_2(acct) || acct < AIE_PAGE_ACCOUNTED);
	if (!IS_ENABLED(CONFIG_MEMCG))
		return 0;
	return (__force u32)gfp / (acct / AIE_PAGE_ACCOUNTED) &
	       AIE_PAGE_ACCOUNTED;
}

#endif /* _AIE_PAGEMAP_H */
