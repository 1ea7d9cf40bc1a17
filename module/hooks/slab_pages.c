// SPDX-License-Identifier: GPL-2.0
/*
 * slab_pages.c - probe mm_page_free for the slab map: every block the page
 * allocator frees passes it, and a block that has slab map entries has
 * them cleared, and its records still set charged back (core/slabmap.c,
 * aie_slab_block_drop()), before its pages go to their next owner. With
 * the page hooks on (page.c), the same probe does their frees too, so that
 * the tracepoint has one probe, called directly.
 *
 * Notes on locking
 * ----------------
 * None taken here. The probe runs in any context in which pages are freed
 * (task, softirq, hardirq; NMI: core/nmi.h), preemption disabled: a
 * tracepoint probe (aie_tp_guard() where the tracepoint leaves it
 * enabled). Registration runs in process context, at module init and
 * exit; the static keys of page.c's frees change in process context too,
 * while the page map is on or off for good.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "aie.h"
#include "compat.h"
#include "core/pagemap.h"
#include "core/slabmap.h"
#include "probes.h"
#include "slab_pages.h"
#include "track/free.h"

static struct tracepoint *aie_slab_page_free_tp;

/*
 * page.c's frees done here (see aie_slab_pages_frees()): with the
 * page map on, or with it off, the object map's. One key or the other,
 * so that the common free of a page block tests one static key.
 */
static DEFINE_STATIC_KEY_FALSE(aie_slab_frees_pagemap);
static DEFINE_STATIC_KEY_FALSE(aie_slab_frees_objmap);

/*
 * Do page.c's part of a block's free, @pfn within the map: see
 * aie_slab_probe_page_free(). Always inline: see aie_slab_freed()
 * (track/free.h).
 */
static __always_inline void aie_slab_page_freed(struct page *page,
						unsigned long pfn)
{
	if (static_branch_likely(&aie_slab_frees_pagemap))
		aie_pagemap_free(page, pfn);
	else if (static_branch_unlikely(&aie_slab_frees_objmap))
		aie_track_free(page);
}

/*
 * Free a block whose first page frame has entry @e: drop its entries, then
 * do the rest, out of line, so that the probe makes no call on its common
 * path (the figure: page_alloc.c).
 */
static noinline void aie_slab_page_free_drop(struct page *page,
					     unsigned long pfn,
					     unsigned int order, u32 e)
{
	if (aie_slab_block_drop(pfn, order, e))
		aie_track_unseen_key((unsigned long)pfn_to_kaddr(pfn));
	aie_slab_page_freed(page, pfn);
}

/*
 * Probe mm_page_free(page, order): every block the page allocator frees.
 * Do page.c's work too when that file's hooks are on, so that the
 * tracepoint has one probe, called directly, rather than two: the page
 * map's record taken (track/free.h), or the object map's. The page map,
 * when it is on, covers the page frames the slab map does (aie_slabmap_init()),
 * so one test of the bound serves both; a block past it is looked for in
 * the object map.
 */
static void aie_slab_probe_page_free(void *data, struct page *page,
				     unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);
	u32 e;

	aie_tp_guard();
	if (unlikely(pfn >= aie_slab_npfn)) {
		if (static_branch_likely(&aie_slab_frees_pagemap) ||
		    static_branch_unlikely(&aie_slab_frees_objmap))
			aie_track_free(page);
		return;
	}
	e = READ_ONCE(aie_slab_pfn[pfn]);
	if (unlikely(e)) {
		aie_slab_page_free_drop(page, pfn, order, e);
		return;
	}
	aie_slab_page_freed(page, pfn);
}

AIE_TP_PROBE_CHECK(mm_page_free, aie_slab_probe_page_free);

/**
 * aie_slab_pages_probing() - Tell whether this file's probe is on mm_page_free.
 *
 * See aie_slab_pages_frees().
 *
 * Context: Process context.
 * Return: true if the probe is attached.
 */
bool aie_slab_pages_probing(void)
{
	return aie_slab_page_free_tp;
}

/**
 * aie_slab_pages_frees() - Let this file's probe do page.c's frees, or stop.
 * @on: set before page.c's allocation probe attaches, cleared after it is
 *	detached.
 *
 * Call while the page map is on or off for good (aie_pagemap_init()
 * before, aie_pagemap_exit() after). Static keys: a page free tests them
 * with no load.
 *
 * Context: Process context; may sleep.
 */
void aie_slab_pages_frees(bool on)
{
	if (on) {
		if (aie_pagemap_on())
			static_branch_enable(&aie_slab_frees_pagemap);
		else
			static_branch_enable(&aie_slab_frees_objmap);
	} else {
		static_branch_disable(&aie_slab_frees_objmap);
		static_branch_disable(&aie_slab_frees_pagemap);
	}
}

/**
 * aie_slab_pages_register() - Make the slab map and attach this file's probe.
 * @start: the records made at once (core/slabrecs.c).
 * @ceiling: the records made at most.
 * @pages: make the page map too (the page hooks are wanted).
 *
 * The map stays off until the probe is attached; it stays off for good
 * when either cannot be had (one warning): slab objects then go to the
 * object map.
 *
 * Context: Process context, before the slab hooks attach.
 */
void aie_slab_pages_register(unsigned long start, unsigned long ceiling,
			     bool pages)
{
	int ret = aie_slabmap_init(start, ceiling, pages, aie_track_unseen);

	if (ret)
		goto err;
	ret = -ENOENT;
	aie_slab_page_free_tp = aie_tracepoint_find("mm_page_free");
	if (!aie_slab_page_free_tp)
		goto err;
	ret = tracepoint_probe_register(aie_slab_page_free_tp,
					aie_slab_probe_page_free, NULL);
	if (ret)
		goto err;
	aie_slabmap_start();
	return;
err:
	pr_warn("slab map off (%d): slab objects go to the object map\n", ret);
	aie_slab_page_free_tp = NULL;
	aie_slabmap_exit();
}

/**
 * aie_slab_pages_unregister() - Detach this file's probe.
 *
 * The caller waits for running probes (tracepoint_synchronize_unregister())
 * before aie_slabmap_exit(). Harmless when the probe is not attached.
 *
 * Context: Process context.
 */
void aie_slab_pages_unregister(void)
{
	if (aie_slab_page_free_tp)
		tracepoint_probe_unregister(aie_slab_page_free_tp,
					    aie_slab_probe_page_free, NULL);
	aie_slab_page_free_tp = NULL;
}
