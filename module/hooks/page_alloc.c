// SPDX-License-Identifier: GPL-2.0
/*
 * page_alloc.c - do the work of the mm_page_alloc probe (page.c attaches
 * it): read the call site off the stack above the page allocator's
 * wrappers (frames.c), then take the page map's fast path or the general
 * one (track/).
 *
 * The probe itself is page_entry_x86_64.S or page_entry_arm64.S, which
 * jump here; in C below on kernels built with kCFI (page_alloc.h).
 *
 * What the common walk does not take is out of line (noinline), here and
 * in the free probe (slab_pages.c): inlined where GCC would, it costs 9
 * instructions more per page pair and per large kmalloc pair (make
 * bench, 6.12).
 *
 * Notes on locking
 * ----------------
 * None taken here. Everything runs in the probe, in any context in which
 * pages are allocated (task, softirq, hardirq; NMI: core/nmi.h),
 * preemption disabled: a tracepoint probe (aie_tp_guard() where the
 * tracepoint leaves it enabled). The wrapper table's lock is frames.c's.
 */

#include <linux/mm.h>

#include "aie.h"
#include "arch/arch.h"
#include "core/rules.h"
#include "core/sample.h"
#include "core/sites.h"
#include "core/stats.h"
#include "extras/cgsites.h"
#include "extras/memcg.h"
#include "frames.h"
#include "page_alloc.h"
#include "track/track.h"

/*
 * Do the rest of the probe's work (aie_page_alloc_entry()): @slot is where
 * the walk starts; @every, sampling's interval then (0: off).
 */
static noinline void aie_page_alloc_rest(const unsigned long *slot,
					 struct page *page, unsigned int order,
					 gfp_t gfp, unsigned long every)
{
	u64 bytes = PAGE_SIZE << order, weight = 1;
	struct aie_frames_found f;

	if (aie_all_off())
		return;
	if (likely(page)) {
		weight = aie_sample_weight(every, bytes);
		if (!weight)
			return;
	}
	f = aie_frames_caller(slot);
	if (unlikely(!f.caller))
		return;
	if (unlikely(!page))
		aie_track_failed(f.caller, AIE_TYPE_PAGE);
	else
		aie_track_page_alloc(f.site, f.caller, page, bytes, weight,
				     aie_gfp_accounted(gfp));
}

/*
 * Let sampling decide first, before the walk; a failure is always
 * counted, and exactly. Out of line, off the common path's.
 */
static noinline void aie_page_alloc_sampled(const unsigned long *slot,
					    struct page *page,
					    unsigned int order, gfp_t gfp)
{
	unsigned long every = READ_ONCE(aie_sample_bytes);

	if (likely(page) && aie_sample_skip(every, PAGE_SIZE << order))
		return;
	aie_page_alloc_rest(slot, page, order, gfp, every);
}

/**
 * aie_page_alloc_entry() - Do the mm_page_alloc probe's work.
 * @slot: where the walk of frames.c starts, the probe's return address on
 *	x86-64, its caller's on arm64 (the probe passes it:
 *	page_entry_x86_64.S, page_entry_arm64.S).
 * @page: the block allocated, or NULL when the allocation failed.
 * @order: the block's order.
 * @gfp: the allocation's flags.
 *
 * Sampling off and a block allocated: the common walk (frames.h) and the
 * page map's fast path (pagemap.h), inline, with no call on the way. The
 * site's flags are read once: a site with none of AIE_SITE_SLOW's takes
 * the fast path; an allocator's internal site is counted and left at
 * once; what the fast path does not take, and a site with other flags
 * than a wrapper's or a retired site's (a disabled one), goes to
 * aie_track_page_alloc()'s general path; the rest of the probe's work,
 * aie_page_alloc_rest(), does anything else.
 *
 * Context: The probe's: any context, NMI included; preemption disabled
 * (by the tracepoint, or here by aie_tp_guard()).
 */
__aie_page_entry void aie_page_alloc_entry(const unsigned long *slot,
					   struct page *page,
					   unsigned int order, gfp_t gfp)
{
	struct aie_site *site;
	unsigned long flags;
	u32 idx;

	aie_tp_guard();
	if (aie_sampling_on()) {
		aie_page_alloc_sampled(slot, page, order, gfp);
		return;
	}
	if (unlikely(!page) || aie_all_off() ||
	    unlikely(!aie_frames_caller_fast(slot, &site, &idx)))
		goto rest;
	flags = READ_ONCE(site->flags);
	if (likely(!(flags & AIE_SITE_SLOW)) &&
	    !aie_cgsites_take(aie_gfp_accounted(gfp)) &&
	    likely(__aie_pagemap_track(site, idx, page, order,
				       aie_page_gfp_acct(gfp))))
		return;
	if (unlikely(flags & (BIT(AIE_SITE_UNLOADED) | BIT(AIE_SITE_WRAPPER))))
		goto rest;
	/* The pages under a large kmalloc(): its own event counts them */
	if (flags & BIT(AIE_SITE_INTERNAL)) {
		aie_count(internal);
		return;
	}
	aie_track_page_alloc_general(site, site->call_site, page,
				     PAGE_SIZE << order, 1,
				     aie_gfp_accounted(gfp));
	return;
rest:
	aie_page_alloc_rest(slot, page, order, gfp, 0);
}

#ifndef AIE_PAGE_ENTRY_ASM
/**
 * aie_probe_page_alloc() - Probe mm_page_alloc, in C.
 * @data: the probe's data, unused.
 * @page: the block allocated, or NULL.
 * @order: the block's order.
 * @gfp: the allocation's flags.
 * @migratetype: unused.
 *
 * Keep a frame pointer, through which the architecture finds the walk's
 * first slot (AIE_ARCH_PROBE_SLOT(): the probe's return address on x86-64,
 * its caller's in the caller's frame record on arm64). Built on kernels
 * with kCFI only; elsewhere the probe is page_entry_x86_64.S or
 * page_entry_arm64.S.
 *
 * Context: Any context pages are allocated in, NMI included.
 */
void aie_probe_page_alloc(void *data, struct page *page,
			  unsigned int order, gfp_t gfp, int migratetype)
{
	aie_page_alloc_entry(AIE_ARCH_PROBE_SLOT(), page, order, gfp);
}
#endif
