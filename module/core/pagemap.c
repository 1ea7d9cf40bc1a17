// SPDX-License-Identifier: GPL-2.0
/*
 * pagemap.c - the page map: the records of tracked page blocks, one u32 per
 * page frame, found from the block's first page frame number, instead of
 * in the object map's hash (objmap.c). track/ records there the page
 * blocks it tracks (those of the mm_page_alloc probe and of the exact
 * allocators' kretprobe) while the slab map is on, and the page hooks are
 * wanted: the map shares the slab map's probe on mm_page_free, which every
 * freed block passes (slabmap.c), and is off with it (slabmap=0,
 * lifetimes=1).
 *
 *   aie_page_pfn[pfn]   the record of the block whose first page frame is
 *                       pfn (pagemap.h), or 0
 *
 * A record holds what the object map's value would: the site's index, the
 * block's size in pages (what was charged: an exact allocation's pages,
 * not its block's), and whether it is accounted and weighted. A block's
 * free finds it from the page frame the free names, which is the block's
 * first: the one a folio's or a compound page's free names, and the first
 * of free_pages_exact()'s page-by-page frees. A block split before its
 * free (split_page()) is charged back whole at its first page's free, as
 * the object map did. A block past the map's page frames, or whose value
 * does not fit a record, goes to the object map; its entry, if it has
 * one, says so (AIE_PAGE_OBJMAP), and its free looks there.
 *
 * Memory: 4 bytes per page frame (0.1% of memory).
 *
 * Notes on locking
 * ----------------
 * No lock. An entry is written by the hook of its block's allocation and
 * read and cleared by the hook of its free, in any context the page
 * allocator runs in (not NMI), preemption disabled: between the two the
 * block is its owner's alone, and whatever hands the block from its
 * allocation to its free, and from its free to its next allocation (the
 * page allocator's own locks), orders the entry's accesses too. The
 * probes read an entry with a plain load.
 */

#include <linux/mmzone.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>

#include "aie.h"
#include "pagemap.h"
#include "stats.h"

DEFINE_STATIC_KEY_FALSE(aie_pagemap_key);
u32 *aie_page_pfn;
unsigned long aie_page_npfn;

/**
 * aie_pagemap_init() - Make the map and turn it on.
 * @npfn: the page frames it covers, from 0.
 *
 * The map stays off when it cannot be had (vzalloc() says why; the stats
 * file shows page_map off).
 *
 * Context: Process context, before the page hooks attach; sleeps.
 */
void aie_pagemap_init(unsigned long npfn)
{
	aie_page_pfn = vzalloc(array_size(npfn, sizeof(u32)));
	if (!aie_page_pfn)
		return;
	aie_page_npfn = npfn;
	static_branch_enable(&aie_pagemap_key);
}

/**
 * aie_pagemap_exit() - Turn the map off and free it.
 *
 * Context: Process context, once no hook can run; sleeps.
 */
void aie_pagemap_exit(void)
{
	static_branch_disable(&aie_pagemap_key);
	vfree(aie_page_pfn);
	aie_page_pfn = NULL;
	aie_page_npfn = 0;
}

/**
 * aie_pagemap_memory() - Measure the map.
 *
 * Return: its bytes, 0 while it is off.
 */
size_t aie_pagemap_memory(void)
{
	return aie_page_npfn * sizeof(u32);
}

/**
 * aie_pagemap_count() - Count the blocks the map holds a record of.
 *
 * Walk the map, so that the hooks count nothing: exact while no hook sets
 * or clears an entry.
 *
 * Context: Process context (the stats file); reschedules, takes no lock.
 * Return: the blocks.
 */
unsigned long aie_pagemap_count(void)
{
	unsigned long pfn, n = 0;

	for (pfn = 0; pfn < aie_page_npfn; pfn++) {
		/* Racing the hooks' writes: a count, not a record to use. */
		if (data_race(aie_page_pfn[pfn]) & AIE_PAGE_UNITS)
			n++;
		if (!((pfn + 1) % (1UL << 16)))
			cond_resched();
	}
	return n;
}
