// SPDX-License-Identifier: GPL-2.0
/*
 * track.c - an allocation charged to its site: the general path, which
 * takes any site, weight, size and type, its fast path for an enabled
 * site and weight 1, and the page allocator's entry to both.
 *
 * The cost that matters is that of the events not recorded: with
 * "disable all" alone the allocation probes come off; under sampling, a
 * skipped allocation costs a comparison, a this-CPU add and a read
 * (aie_sample_skip(), tested first in the probes). An object map with
 * neither stamps nor tags2 costs one static branch, off, on a tracked
 * allocation; otherwise it takes objmap.c's calls, and lifetimes=1 a
 * local_clock() and a stamp store.
 *
 * Notes on locking
 * ----------------
 * None taken here: every function runs in the hooks, wherever the
 * allocators run (task, softirq, hardirq; NMI: core/nmi.h), with
 * preemption disabled, and none sleeps or allocates. The object map's
 * inserts take its shards' locks (core/objmap.c); a slab or page map
 * record is its object's alone between allocation and free.
 */

#include <linux/bitfield.h>
#include <linux/mm.h>

#include "aie.h"
#include "core/counters.h"
#include "core/nodes.h"
#include "core/objects.h"
#include "core/objmap.h"
#include "core/pagemap.h"
#include "core/rules.h"
#include "core/sites.h"
#include "core/slabmap.h"
#include "core/stats.h"
#include "core/value.h"
#include "extras/capture.h"
#include "extras/cgsites.h"
#include "free.h"
#include "helpers.h"
#include "track.h"

/*
 * Find the site an event at @call_site is charged to, or NULL when the
 * event is not recorded (no site to be had, inside an allocator, or
 * disabled). Every event of a helper's or wrapper's site that is charged
 * to that site (its caller not found) comes here: the slow paths' only way
 * to a site.
 */
static inline struct aie_site *
aie_track_site(unsigned long call_site, enum aie_type type)
{
	struct aie_site *site = aie_site_find(call_site, type);

	if (unlikely(!site)) {
		aie_site_missed();
		return NULL;
	}
	if (unlikely(site->flags & (BIT(AIE_SITE_INTERNAL) |
				    BIT(AIE_SITE_HELPER)))) {
		if (test_bit(AIE_SITE_INTERNAL, &site->flags)) {
			aie_count(internal);
			return NULL;
		}
		site = aie_helper_caller(site);
	}
	if (unlikely(test_bit(AIE_SITE_DISABLED, &site->flags))) {
		aie_count(disabled);
		return NULL;
	}
	/* A helper's or wrapper's own first event: its row appears. */
	if (unlikely((site->flags & (BIT(AIE_SITE_HELPER) |
				     BIT(AIE_SITE_WRAPPER))) &&
		     !test_bit(AIE_SITE_CHARGED, &site->flags)))
		aie_site_charged(site);
	return site;
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
static inline enum aie_objmap_result
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
	return AIE_OBJMAP_INSERTED;
}

/**
 * aie_track_untracked() - Count an allocation a site lost.
 * @site: the site whose object could not be tracked (stats' "untracked").
 *
 * The object is in neither the site's live nor its total counts. Its row
 * says "accurate:no" from then on, until its module unloads and a new site
 * takes the address: "reset" restarts the totals but the lost object may
 * still be live. The test first keeps a site that keeps losing events from
 * writing its cache line each time. Out of line and cold: inline in the
 * fast paths' full-map branch, it cost a kmem_cache pair 11 instructions
 * (make bench, 6.12).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
noinline __cold void aie_track_untracked(struct aie_site *site)
{
	aie_count(untracked);
	if (!test_bit(AIE_SITE_INEXACT, &site->flags))
		set_bit(AIE_SITE_INEXACT, &site->flags);
}

/*
 * Track @key, an allocation at @site of @bytes with @slack, standing for
 * @weight allocations, in the slab map (a slab object with a record to be
 * had), the page map (a page block with a record to be had) or the object
 * map; false when it cannot be tracked. A sampled object's weight goes to
 * aie_weights first, so that whoever frees the object finds it, under @key
 * or, in the slab map, its record's granule. Takes @site, not its index:
 * aie_site_at() is NULL until the site's maker sets AIE_SITE_PUBLISHED,
 * after the cmpxchg() that put it in the hash, where this hook may have
 * found it already.
 */
static bool aie_track_object(unsigned long key, enum aie_type type,
			     struct aie_site *site, u64 bytes, u64 slack,
			     u64 weight, bool accounted)
{
	u32 idx = aie_site_index(site);
	u64 units = aie_size_to_units(type, bytes), val, old, old_weight = 1;
	enum aie_objmap_result res;
	unsigned long wkey = key;
	u64 *rec = NULL;

	if (unlikely(aie_obj_oversize(units, slack))) {
		aie_count(oversize);
		return false;
	}
	val = aie_obj_val(idx, units, slack, accounted);
	if (type == AIE_TYPE_SLAB && aie_slabmap_on())
		rec = aie_slabmap_slot((void *)key, bytes, &wkey);
	if (unlikely(weight > 1)) {
		res = aie_objmap_insert(&aie_weights, wkey,
					aie_weight_pack(weight), &old_weight);
		if (res == AIE_OBJMAP_FULL) {
			aie_track_untracked(site);
			return false;
		}
		if (res == AIE_OBJMAP_REPLACED)
			old_weight = aie_weight_unpack(old_weight);
		val |= AIE_OBJ_WEIGHTED;
	}
	res = AIE_OBJMAP_FULL;
	if (rec) {
		old = *rec;
		WRITE_ONCE(*rec, val);
		res = old ? AIE_OBJMAP_REPLACED : AIE_OBJMAP_INSERTED;
	} else if (type == AIE_TYPE_PAGE && aie_pagemap_on()) {
		res = aie_pagemap_insert((void *)key, val, &old);
	}
	if (res == AIE_OBJMAP_FULL)
		res = aie_objects_insert(key, val, &old);
	if (likely(res == AIE_OBJMAP_INSERTED))
		return true;
	if (res == AIE_OBJMAP_FULL) {
		/* @key was not in aie_objects, so had no weight before ours. */
		if (weight > 1)
			aie_objmap_remove(&aie_weights, wkey, &old_weight);
		aie_track_untracked(site);
		return false;
	}
	/*
	 * Its free went unseen: the address is in use again. The old object's
	 * weight, if it had one, was replaced by ours above, or is still in
	 * aie_weights.
	 */
	if (!(old & AIE_OBJ_WEIGHTED)) {
		aie_uncharge_node(wkey, old, 1);
		aie_uncharge_weighted(old, 1);
	} else if (weight > 1) {
		aie_uncharge_node(wkey, old, old_weight);
		aie_uncharge_weighted(old, old_weight);
	} else {
		aie_uncharge(wkey, old);
	}
	aie_count(replaced);
	return true;
}

/*
 * Track an allocation in the general case of __aie_track_alloc(): any
 * site, weight, size and type, lifetimes on or off; an accounted
 * allocation charged to its site's pair with its memory cgroup, when that
 * is on (cgsites.c).
 */
static noinline void aie_track_alloc_general(unsigned long call_site,
					     enum aie_type type,
					     unsigned long key, u64 bytes,
					     u64 slack, u64 weight,
					     bool accounted)
{
	struct aie_site *site, *into;

	site = aie_track_site(call_site, type);
	if (!site)
		return;
	/* The object records the entry it is charged to: its free finds it */
	into = aie_cgsites_take(accounted) ? aie_cgsite_pick(site) : site;
	if (aie_track_object(key, type, into, bytes, slack, weight,
			     accounted)) {
		aie_site_charge(into, bytes, slack, weight, accounted);
		if (aie_nodes_on())
			aie_node_add(into, key, bytes * weight);
	}
	if (aie_capture_on())
		aie_capture_alloc(site, bytes, weight);
}

/*
 * Track an allocation of @bytes (@req asked for) at @call_site, freed by
 * @key, standing for @weight allocations; @accounted when it is accounted
 * to a memory cgroup (memcg.c). @site is @call_site's site when the caller
 * has looked it up already, else NULL. The probes and
 * aie_track_alloc_sampled() (track.h) turned away what they could.
 *
 * The fast path, every call inlined but that to find a site away from its
 * home bucket: an enabled site, an object of weight 1 that fits the map's
 * value, an object map without stamps (with tags2, its insert is
 * objmap.c's). The rest takes aie_track_alloc_general().
 *
 * This and aie_track_slab_record() (slab_alloc.c) are always inline:
 * left to GCC, a kmalloc+kfree pair costs 8 instructions more, a
 * kmem_cache pair 8, a page pair with slabmap=0 37 (make bench, 6.12).
 */
static __always_inline void aie_track_alloc_record(struct aie_site *site,
						   unsigned long call_site,
						   enum aie_type type,
						   const void *key, u64 bytes,
						   u64 req, u64 weight,
						   bool accounted)
{
	u64 slack = bytes > req ? bytes - req : 0, units, val, old;
	enum aie_objmap_result res;
	unsigned long wkey;

	units = likely(type == AIE_TYPE_SLAB) ? bytes :
						aie_size_to_units(type, bytes);
	if (unlikely(weight != 1 || aie_track_slow() ||
		     aie_cgsites_take(accounted) ||
		     aie_obj_oversize(units, slack)))
		goto slow;
	/*
	 * The site, in its home bucket as a rule, its flags read once; a site
	 * another one displaced from it, a new one, or a retired one there
	 * that had the same address, costs a call (sites.c).
	 */
	if (!site) {
		if (!aie_site_at_home(call_site, type, AIE_SITE_SLOW, &site)) {
			site = aie_site_get(call_site, type);
			if (unlikely(!site ||
				     (READ_ONCE(site->flags) & AIE_SITE_SLOW)))
				goto slow;
		}
	} else if (unlikely(READ_ONCE(site->flags) & AIE_SITE_SLOW)) {
		goto slow;
	}
	val = aie_obj_val(aie_site_index(site), units, slack, accounted);
	res = AIE_OBJMAP_FULL;
	wkey = (unsigned long)key;
	if (type == AIE_TYPE_SLAB && aie_slabmap_on())
		res = aie_slabmap_insert(key, bytes, val, &old, &wkey);
	else if (type == AIE_TYPE_PAGE && aie_pagemap_on())
		res = aie_pagemap_insert(key, val, &old);
	if (res == AIE_OBJMAP_FULL && aie_objects_wide())
		res = aie_objects_insert((unsigned long)key, val, &old);
	else if (res == AIE_OBJMAP_FULL)
		res = __aie_objmap_insert(&aie_objects,
					  aie_objmap_hash(&aie_objects,
							  (unsigned long)key),
					  val, NULL, &old, false);
	if (unlikely(res != AIE_OBJMAP_INSERTED)) {
		if (res == AIE_OBJMAP_FULL) {
			aie_track_untracked(site);
			goto capture;
		}
		aie_track_replaced(wkey, old);
	}
	aie_site_charge(site, bytes, slack, 1, accounted);
capture:
	if (aie_capture_on())
		aie_capture_alloc(site, bytes, 1);
	return;
slow:
	aie_track_alloc_general(call_site, type, (unsigned long)key, bytes,
				slack, weight, accounted);
}

/**
 * __aie_track_alloc() - Track an allocation the probe did not turn away.
 * @call_site: the allocation's return address.
 * @type: its allocator's family.
 * @key: what its free will name.
 * @bytes: the bytes allocated.
 * @req: the bytes asked for.
 * @weight: the allocations it stands for, 1 or more.
 * @accounted: accounted to a memory cgroup.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void __aie_track_alloc(unsigned long call_site, enum aie_type type,
		       const void *key, u64 bytes, u64 req, u64 weight,
		       bool accounted)
{
	aie_track_alloc_record(NULL, call_site, type, key, bytes, req, weight,
			       accounted);
}

/**
 * aie_track_slab_alloc_nomap() - Track a slab object with the slab map off.
 * @unused: the slab probes' own first argument.
 * @call_site: the allocation's return address.
 * @ptr: the object.
 * @req: the bytes asked for.
 * @bytes: the bytes allocated.
 * @accounted: accounted to a memory cgroup.
 *
 * __aie_track_alloc() in a function of aie_track_slab_alloc()'s arguments,
 * so that the probes reach either with theirs untouched (hooks/slab.c).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_slab_alloc_nomap(void *unused, unsigned long call_site,
				const void *ptr, u64 req, u64 bytes,
				bool accounted)
{
	__aie_track_alloc(call_site, AIE_TYPE_SLAB, ptr, bytes, req, 1,
			  accounted);
}

/**
 * aie_track_page_alloc_general() - Track a page block in the general case.
 * @site: the site the walk found, or NULL.
 * @call_site: the allocation's return address.
 * @page: the block's first page.
 * @bytes: the block's bytes.
 * @weight: the allocations it stands for.
 * @accounted: accounted to a memory cgroup.
 *
 * What aie_pagemap_track() does not take, from aie_track_page_alloc() or
 * from the page probe's common walk (hooks/page_alloc.c): the general
 * path; but an event at an allocator's internal site (the pages under a
 * large kmalloc, which its kmalloc event counts) is counted and left at
 * once.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
noinline void aie_track_page_alloc_general(struct aie_site *site,
					   unsigned long call_site,
					   struct page *page, u64 bytes,
					   u64 weight, bool accounted)
{
	if (aie_track_internal(site))
		return;
	aie_track_alloc_record(site, call_site, AIE_TYPE_PAGE, page, bytes,
			       bytes, weight, accounted);
}

/**
 * aie_track_page_alloc() - Track a page block's allocation.
 * @site: the site the walk found, or NULL.
 * @call_site: the allocation's return address.
 * @page: the block's first page.
 * @bytes: the block's bytes.
 * @weight: the allocations it stands for.
 * @accounted: accounted to a memory cgroup.
 *
 * The page map's fast path (aie_pagemap_track()) for a site and weight 1,
 * else the general one.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_page_alloc(struct aie_site *site, unsigned long call_site,
			  struct page *page, u64 bytes, u64 weight,
			  bool accounted)
{
	if (likely(weight == 1 && site && !aie_cgsites_take(accounted) &&
		   aie_pagemap_track(site, page, bytes, accounted)))
		return;
	aie_track_page_alloc_general(site, call_site, page, bytes, weight,
				     accounted);
}

/**
 * aie_track_failed() - Count an allocation that returned nothing.
 * @call_site: the allocation's return address.
 * @type: its allocator's family.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_failed(unsigned long call_site, enum aie_type type)
{
	aie_track_failed_n(call_site, type, 1);
}

/**
 * aie_track_failed_n() - Count failed allocations.
 * @call_site: the allocations' return address.
 * @type: their allocator's family.
 * @weight: how many: a failed page or vmalloc allocation that sampling
 *          selected at the allocator's entry stands for its weight.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_failed_n(unsigned long call_site, enum aie_type type,
			u64 weight)
{
	struct aie_site *site;

	if (aie_all_off())
		return;
	site = aie_track_site(call_site, type);
	if (site)
		atomic64_add(weight, &site->failed);
}
