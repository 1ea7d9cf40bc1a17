/* SPDX-License-Identifier: GPL-2.0 */
/*
 * track.h - an allocation charged to its site (track.c). The
 * probes' entry points, and the page map's fast path, are inline here:
 * what they turn away costs a few instructions in the probe.
 *
 * What is rare in track/ is out of line (noinline): inlined where GCC
 * would, it costs 12 instructions more per kmalloc+kfree pair, 12 per
 * kmem_cache pair and 13 per large kmalloc pair (make bench, 6.12).
 */
#ifndef _AIE_TRACK_H
#define _AIE_TRACK_H

#include <linux/bitfield.h>
#include <linux/log2.h>
#include <linux/mm.h>

#include "aie.h"
#include "core/counters.h"
#include "core/pagemap.h"
#include "core/rules.h"
#include "core/sample.h"
#include "core/sites.h"
#include "core/stats.h"
#include "extras/capture.h"

void aie_track_untracked(struct aie_site *site);

void __aie_track_alloc(unsigned long call_site, enum aie_type type,
		       const void *key, u64 bytes, u64 req, u64 weight,
		       bool accounted);
void aie_track_slab_alloc_nomap(void *unused, unsigned long call_site,
				const void *ptr, u64 req, u64 bytes,
				bool accounted);
void aie_track_page_alloc(struct aie_site *site, unsigned long call_site,
			  struct page *page, u64 bytes, u64 weight,
			  bool accounted);
void aie_track_page_alloc_general(struct aie_site *site,
				  unsigned long call_site, struct page *page,
				  u64 bytes, u64 weight, bool accounted);
void aie_track_failed(unsigned long call_site, enum aie_type type);
void aie_track_failed_n(unsigned long call_site, enum aie_type type,
			u64 weight);

/**
 * aie_track_internal() - Count an event at an allocator's internal site.
 * @site: the event's site, or NULL.
 *
 * An internal site (core/callers.c) is one whose event another counts.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 * Return: true when @site is internal: the event is counted as such, to
 * be left.
 */
static inline bool aie_track_internal(struct aie_site *site)
{
	if (!site || !test_bit(AIE_SITE_INTERNAL, &site->flags))
		return false;
	aie_count(internal);
	return true;
}

/**
 * __aie_pagemap_track() - Record a page block in the page map and charge it.
 * @site: an enabled site, whose flags the caller found clear of
 *        AIE_SITE_SLOW.
 * @idx: the site's index.
 * @page: the block's first page.
 * @order: the block's order.
 * @acct: AIE_PAGE_ACCOUNTED or 0.
 *
 * The fast path of a page block's allocation, inline in the page probe's
 * common walk (hooks/page_alloc.c) and, through aie_pagemap_track(), in
 * aie_track_page_alloc() (track.c). With the page map's entry of the
 * block's first page frame empty, the record is packed from the site,
 * @acct and the block's size in pages (1 << @order, one bit set), and
 * stored there, and the site charged with the block's bytes, of weight 1.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 * Return: true when done; false for anything else, left to
 * aie_track_page_alloc()'s general path.
 */
static inline bool __aie_pagemap_track(struct aie_site *site,
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
	aie_site_charge(site, bytes, 0, 1, acct);
	if (aie_capture_on())
		aie_capture_alloc(site, bytes, 1);
	return true;
}

/**
 * aie_pagemap_track() - Record a page block, its site's flags not tested.
 * @site: the block's site.
 * @page: the block's first page.
 * @bytes: the block's bytes, a power of two pages.
 * @accounted: accounted to a memory cgroup.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 * Return: as __aie_pagemap_track(); false also for a site with flags.
 */
static inline bool aie_pagemap_track(struct aie_site *site,
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

/**
 * aie_track_alloc_sampled() - Track an allocation whose probe asked sampling.
 * @call_site: the allocation's return address.
 * @type: its allocator's family.
 * @key: what its free will name.
 * @bytes: the bytes allocated.
 * @req: the bytes asked for.
 * @weight: 1 with sampling off, else from aie_sample_weight(); 0: skipped.
 * @accounted: accounted to a memory cgroup.
 *
 * One of the hooks' entry points, inlined into the probe: what it turns
 * away (an allocation that sampling skips, or while "disable all" is the
 * only rule) costs a few instructions. The rest goes to track.c.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
static inline void aie_track_alloc_sampled(unsigned long call_site,
					   enum aie_type type,
					   const void *key, u64 bytes,
					   u64 req, u64 weight,
					   bool accounted)
{
	if (aie_all_off()) {
		aie_count(disabled);
		return;
	}
	if (weight)
		__aie_track_alloc(call_site, type, key, bytes, req, weight,
				  accounted);
}

/**
 * aie_track_alloc() - Track an allocation, sampled here.
 * @call_site: the allocation's return address.
 * @type: its allocator's family.
 * @key: what its free will name.
 * @bytes: the bytes allocated.
 * @req: the bytes asked for.
 * @accounted: accounted to a memory cgroup.
 *
 * aie_track_alloc_sampled() with the weight sampling gives @bytes.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
static inline void aie_track_alloc(unsigned long call_site,
				   enum aie_type type,
				   const void *key, u64 bytes,
				   u64 req, bool accounted)
{
	aie_track_alloc_sampled(call_site, type, key, bytes, req,
				aie_sample(bytes), accounted);
}

#endif /* _AIE_TRACK_H */
