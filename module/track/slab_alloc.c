// SPDX-License-Identifier: GPL-2.0
/*
 * slab_alloc.c - the fast path of a slab object's allocation with the slab map
 * on: the site from the slab site cache, the record from its page
 * frame's entry (core/slabmap.h), the charge. What it does not take goes
 * to track.c's general path.
 *
 * Notes on locking
 * ----------------
 * None taken here: the slab allocation probes (hooks/slab.c) call in
 * wherever the allocators run (task, softirq, hardirq; NMI: core/nmi.h),
 * with preemption disabled, and nothing here sleeps or allocates. A
 * record is its object's alone between allocation and free; a new block's
 * entry is made under the slab map's lock (core/slabmap.c), the object
 * map's inserts take its shards' locks (core/objmap.c).
 */

#include <linux/bitfield.h>

#include "aie.h"
#include "arch/arch.h"
#include "core/counters.h"
#include "core/objects.h"
#include "core/objmap.h"
#include "core/sites.h"
#include "core/slabmap.h"
#include "core/stats.h"
#include "core/value.h"
#include "extras/capture.h"
#include "free.h"
#include "slab_alloc.h"
#include "track.h"

/*
 * End a charge of weight 1 by aie_site_charge_last() or the functions it
 * hands over to: out of aie_ctr_nest, then the capture.
 */
static inline void aie_charge_done(struct aie_site *site, u64 bytes)
{
	this_cpu_dec(aie_ctr_nest);
	if (aie_capture_on())
		aie_capture_alloc(site, bytes, 1);
}

/*
 * Finish aie_site_charge_last() when this CPU's slot holds another site,
 * or none: aie_site_charge()'s way, then the capture. Preemption
 * disabled, inside aie_ctr_nest, which this leaves.
 */
static noinline void aie_charge_missed(struct aie_site *site, u64 bytes, u64 slack,
				       bool accounted)
{
	aie_ctr_miss(site, bytes, 1, slack, accounted ? bytes : 0, true);
	aie_charge_done(site, bytes);
}

/*
 * Finish aie_site_charge_last() when its charge of @bytes took this CPU's
 * slot above its high. As aie_charge_missed().
 */
static noinline void aie_charge_high(struct aie_site *site, u64 bytes)
{
	aie_site_new_high(site);
	aie_charge_done(site, bytes);
}

/*
 * aie_site_charge() of weight 1, then the capture: what a fast path does
 * last. Each way out is a return or a tail call: the slot held by another
 * site and a new high take functions that finish it all, so that nothing
 * of the caller's lives across a call.
 */
static inline void aie_site_charge_last(struct aie_site *site,
					u64 bytes, u64 slack,
					bool accounted)
{
	struct aie_ctr_slot *s = aie_slot_here(site);

	this_cpu_inc(aie_ctr_nest);
	if (unlikely(!aie_slot_holds(s, site))) {
		aie_charge_missed(site, bytes, slack, accounted);
		return;
	}
	aie_slot_charge(s, bytes, slack, 1, accounted);
	if (unlikely(aie_slot_above_high(s))) {
		aie_charge_high(site, bytes);
		return;
	}
	aie_charge_done(site, bytes);
}

/*
 * Charge back @old, the slab map's record of @ptr that @val replaced in
 * the page whose entry is @e: its free went unseen. Out of line, with the
 * granule's address; then the rest of aie_track_slab_record(): the
 * charge of @site with what @val packs, and the capture, so that the fast
 * path's call here is its last step, a jump.
 */
static noinline void aie_track_slab_replaced(struct aie_site *site,
					     const void *ptr, u32 e, u64 old,
					     u64 val)
{
	aie_track_replaced(aie_slab_gkey(e, ptr), old);
	aie_site_charge(site, FIELD_GET(AIE_OBJ_SIZE, val),
			FIELD_GET(AIE_OBJ_SLACK, val), 1,
			val & AIE_OBJ_ACCOUNTED);
	if (aie_capture_on())
		aie_capture_alloc(site, FIELD_GET(AIE_OBJ_SIZE, val), 1);
}

/* Work out what aie_site_charge() counts as slack: @bytes less @req, or 0. */
static inline u64 aie_slab_slack(u64 bytes, u64 req)
{
	return bytes > req ? bytes - req : 0;
}

/*
 * aie_track_slab_record() of an object whose page frame has no entry
 * yet, or whose block has no records: a large kmalloc(), a KFENCE object,
 * a slab of too many granules. A large kmalloc() of four pages or more
 * keeps its record in its pages' entries (aie_slab_large_put()); else its
 * block's entry is made if it has none, and the object goes to the
 * object map with the site already found, or, for anything else (a
 * record to be had after all, a spill), through __aie_track_alloc(). Out
 * of line: once per slab, once per large kmalloc().
 */
static noinline void aie_track_slab_unmapped(struct aie_site *site,
					     const void *ptr, u64 bytes,
					     u64 slack, bool accounted)
{
	u64 val = aie_obj_val(aie_site_index(site), bytes, slack, accounted);
	enum aie_objmap_result res;
	u32 e = aie_slab_entry(ptr);
	u64 old;

	if (!e) {
		if (aie_slab_large_put(ptr, val)) {
			aie_site_charge(site, bytes, slack, 1, accounted);
			goto capture;
		}
		e = aie_slab_block_make(ptr, bytes);
	}
	if (e != AIE_SLAB_NONE) {
		/* bytes - slack: a request that gives @slack */
		__aie_track_alloc(site->call_site, AIE_TYPE_SLAB, ptr, bytes,
				  bytes - slack, 1, accounted);
		return;
	}
	res = aie_objects_insert((unsigned long)ptr, val, &old);
	if (unlikely(res == AIE_OBJMAP_FULL)) {
		aie_track_untracked(site);
	} else {
		if (unlikely(res == AIE_OBJMAP_REPLACED))
			aie_track_replaced((unsigned long)ptr, old);
		aie_site_charge(site, bytes, slack, 1, accounted);
	}
capture:
	if (aie_capture_on())
		aie_capture_alloc(site, bytes, 1);
}

/*
 * The rest of aie_track_slab_alloc(), with @site, of index @idx, found
 * and its flags clear: the record from the page frame's entry, the value
 * packed, the charge. @slack: @bytes less the request, or 0. Every way
 * out is a return or a jump (aie_site_charge_last()), and the rare ones
 * take the call site from @site: aie_track_slab_alloc() keeps neither
 * the call site nor the request past its site lookup. Always inline: see
 * aie_track_alloc_record() (track.c).
 */
static __always_inline void
aie_track_slab_record(struct aie_site *site, u32 idx, const void *ptr,
		      u64 bytes, u64 slack, bool accounted)
{
	u32 e = aie_slab_entry(ptr), g;
	unsigned int shift;
	u64 val, old, *rec;

	if (unlikely(!e))
		goto none;
	shift = aie_slab_shift(e);
	g = (unsigned long)ptr >> shift;
	if (unlikely(!(bytes >> shift)))
		goto none;
	rec = aie_slab_record(aie_slab_index_g(e, g));
	val = aie_obj_val(idx, bytes, slack, accounted);
	old = *rec;
	WRITE_ONCE(*rec, val);
	if (unlikely(old)) {
		aie_track_slab_replaced(site, ptr, e, old, val);
		return;
	}
	aie_site_charge_last(site, bytes, slack, accounted);
	return;
none:
	aie_track_slab_unmapped(site, ptr, bytes, slack, accounted);
}

/*
 * Tell whether a slab object's value may not pack its size or slack: one
 * test, as the slack is less than the size (a request is a byte at least),
 * and the slack's field the narrower. An object of 4 MiB or more takes
 * __aie_track_alloc(), which tests both fields.
 */
static inline bool aie_slab_oversize(u64 bytes)
{
	BUILD_BUG_ON(FIELD_MAX(AIE_OBJ_SLACK) > FIELD_MAX(AIE_OBJ_SIZE));
	return bytes - 1 >= FIELD_MAX(AIE_OBJ_SLACK);
}

/*
 * aie_track_slab_alloc() of a site that has flags (or none to be had): an
 * allocator's internal one (the inner kmalloc event of a large kmalloc,
 * which the outer counts) is counted and left at once; the rest goes to
 * __aie_track_alloc().
 */
static noinline void aie_track_slab_alloc_handover(struct aie_site *site,
						   unsigned long call_site,
						   const void *ptr, u64 bytes,
						   u64 req, bool accounted)
{
	if (aie_track_internal(site))
		return;
	__aie_track_alloc(call_site, AIE_TYPE_SLAB, ptr, bytes, req, 1,
			  accounted);
}

/*
 * aie_track_slab_alloc() of a call site not in the slab site cache: its
 * entry is empty (the site is new, or the cache has not seen it yet), or
 * another site holds it. Out of line, off the common case: the home
 * bucket, then aie_site_get().
 * A site found fills an empty entry.
 */
static noinline void aie_track_slab_site_lookup(unsigned long call_site,
						const void *ptr, u64 bytes,
						u64 req, bool accounted)
{
	struct aie_site *site = aie_site_find(call_site, AIE_TYPE_SLAB);

	aie_count(slab_site_misses);
	if (site)
		aie_site_cache_fill(aie_site_cache_slab,
				    AIE_SITE_CACHE_SLAB_BITS, site);
	if (unlikely(!site || (READ_ONCE(site->flags) & AIE_SITE_SLOW))) {
		aie_track_slab_alloc_handover(site, call_site, ptr, bytes, req,
					      accounted);
		return;
	}
	aie_track_slab_record(site, aie_site_index(site), ptr, bytes,
			      aie_slab_slack(bytes, req), accounted);
}

/**
 * aie_track_slab_alloc() - Track a slab object with the slab map on.
 * @unused: the slab probes' own first argument, so that they forward
 *          theirs untouched (hooks/slab.c).
 * @call_site: the allocation's return address.
 * @ptr: the object.
 * @req: the bytes asked for.
 * @bytes: the bytes allocated.
 * @accounted: accounted to a memory cgroup.
 *
 * __aie_track_alloc() of a slab object of weight 1: the site from the
 * slab site cache (or, not there, through aie_track_slab_site_lookup()), the
 * record from the page frame's entry, the charge. What it does not take:
 * an allocator's internal site is counted and left
 * (aie_track_slab_alloc_handover()); a page with no entry or marked
 * AIE_SLAB_NONE goes to aie_track_slab_unmapped(), with the site found:
 * a large kmalloc() puts its record in its pages' entries, a new slab has
 * its block made, and an object that can have no record (a KFENCE
 * object's, a slab's of too many granules) goes to the object map; a site
 * with other flags or none to be had, a granule above the slot, or a value
 * that does not pack, goes to __aie_track_alloc(), which does it all again
 * its way.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_slab_alloc(void *unused, unsigned long call_site,
			  const void *ptr, u64 req, u64 bytes, bool accounted)
{
	u64 slack = aie_slab_slack(bytes, req);
	struct aie_site *site;
	u64 e;

	if (unlikely(aie_slab_oversize(bytes)))
		goto slow;
	if (unlikely(!aie_site_cache_find(aie_site_cache_slab,
					  AIE_SITE_CACHE_SLAB_BITS,
					  aie_arch_key32(call_site), &e))) {
		aie_track_slab_site_lookup(call_site, ptr, bytes, req,
					   accounted);
		return;
	}
	site = &aie_sites[aie_site_cache_idx(e)];
	/* One test of the flags, in memory: a plain read serves */
	if (unlikely(data_race(site->flags) & AIE_SITE_SLOW)) {
		aie_track_slab_alloc_handover(site, call_site, ptr, bytes, req,
					      accounted);
		return;
	}
	aie_track_slab_record(site, aie_site_cache_idx(e), ptr, bytes, slack,
			      accounted);
	return;
slow:
	__aie_track_alloc(call_site, AIE_TYPE_SLAB, ptr, bytes, req, 1,
			  accounted);
}
