// SPDX-License-Identifier: GPL-2.0
/*
 * hooks.c - what every hook shares: charging an allocation to its site,
 * charging a free back, and attaching the hooks in a safe order.
 *
 * Objects are keyed by what their free names, as a kernel address: the
 * object's address for slab and vmalloc, the struct page for pages, the
 * address of CPU 0's copy for percpu. These never overlap, so one object
 * map serves all:
 * aie_objects, whose values pack site, size and slack (AIE_OBJ_* in aie.h).
 * A sampled object's weight, when above 1, is kept in aie_weights under
 * the same key. With slabmap=1 (slabmap.c) a tracked slab object's value
 * is kept beside its slab's pages instead, when its block can have a
 * record, and a slab free looks there first.
 *
 * The cost that matters is that of the events not recorded, and of frees:
 * with "disable all" alone the allocation probes come off; under sampling,
 * a skipped allocation costs a comparison, a this-CPU add and a read
 * (aie_sample_skip(), tested first in the probes); a free of an object
 * never tracked costs a hash and one load (aie_objmap_may_hold()), or for
 * a slab object of a block that has records, its page frame's entry and
 * its record's loads (aie_slabmap_remove()).
 * An object map with neither stamps nor tags2 (lifetimes=0, 2^20 slots or
 * more, 4-level paging) costs one static branch, off, on a tracked
 * allocation and on a free that reaches __aie_track_free(); otherwise those
 * take objmap.c's calls, and lifetimes=1 (lifetimes.c) adds a
 * local_clock() and a stamp store to each, and a histogram count to a free.
 *
 * Contexts: aie_track_*() run in the hooks, wherever the allocators run
 * (task, softirq, hardirq; not NMI), with preemption disabled. They never
 * sleep and never allocate. Selection and registration run in process
 * context, at module init.
 */

#include <linux/bitfield.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>

#include "aie.h"
#include "objmap.h"
#include "pagemap.h"
#include "slabmap.h"

DEFINE_PER_CPU(struct aie_stats, aie_stats);

struct aie_objmap aie_objects, aie_weights;

/*
 * On when the inline paths below cannot serve aie_objects, made with
 * stamps (lifetimes=1) or with tags2 (objmap.c): its inserts and removes
 * then take objmap.c's calls. Set at init, before the hooks attach;
 * cleared at exit, after they are gone.
 */
static DEFINE_STATIC_KEY_FALSE(aie_track_slow_key);

static __always_inline bool aie_track_slow(void)
{
	return static_branch_unlikely(&aie_track_slow_key);
}

/*
 * The weights map holds the sampled objects of weight above 1 only: a
 * sixteenth of the object map's slots is more than sampling at any useful
 * rate keeps live.
 */
int aie_track_init(unsigned long max_objects, bool stamps)
{
	int ret = aie_objmap_init(&aie_objects, max_objects, stamps);

	if (ret)
		return ret;
	ret = aie_objmap_init(&aie_weights, max_objects / 16, false);
	if (ret) {
		aie_objmap_exit(&aie_objects);
		return ret;
	}
	if (stamps || aie_objects.tags2)
		static_branch_enable(&aie_track_slow_key);
	return 0;
}

/* Process context, after every hook is unregistered and has finished. */
void aie_track_exit(void)
{
	static_branch_disable(&aie_track_slow_key);
	aie_slabmap_exit();
	aie_objmap_exit(&aie_weights);
	aie_objmap_exit(&aie_objects);
}

static bool aie_page_hooked, aie_vmalloc_hooked, aie_percpu_hooked;

/* The allocation probes are off: "disable all" alone (rules mutex). */
static bool aie_allocs_paused;

/* The allocators the hooks= parameter names, as BIT(enum aie_type). */
static unsigned long aie_hooks_wanted;

static const char * const aie_hook_names[] __initconst = {
	[AIE_TYPE_SLAB] = "slab",
	[AIE_TYPE_PAGE] = "page",
	[AIE_TYPE_VMALLOC] = "vmalloc",
	[AIE_TYPE_PERCPU] = "percpu",
};

/*
 * An object's size as the object map keeps it: pages for page and vmalloc,
 * bytes per CPU for percpu, bytes for slab.
 */
static u64 aie_size_to_units(enum aie_type type, u64 bytes)
{
	switch (type) {
	case AIE_TYPE_PAGE:
	case AIE_TYPE_VMALLOC:
		return bytes >> PAGE_SHIFT;
	case AIE_TYPE_PERCPU:
		return div_u64(bytes, num_possible_cpus());
	default:
		return bytes;
	}
}

static u64 aie_units_to_size(enum aie_type type, u64 units)
{
	switch (type) {
	case AIE_TYPE_PAGE:
	case AIE_TYPE_VMALLOC:
		return units << PAGE_SHIFT;
	case AIE_TYPE_PERCPU:
		return units * num_possible_cpus();
	default:
		return units;
	}
}

/*
 * Uncharge the object whose map value is @val and weight @weight. The map
 * holds the indexes of published sites only: no aie_site_at() needed.
 */
static __always_inline void aie_uncharge_weighted(u64 val, u64 weight)
{
	struct aie_site *site = &aie_sites[FIELD_GET(AIE_OBJ_SITE, val)];
	u64 units = FIELD_GET(AIE_OBJ_SIZE, val), bytes;

	bytes = likely(site->type == AIE_TYPE_SLAB) ? units :
		aie_units_to_size(site->type, units);
	aie_site_uncharge(site, bytes, FIELD_GET(AIE_OBJ_SLACK, val), weight,
			  val & AIE_OBJ_ACCOUNTED);
}

/*
 * A weight as aie_weights keeps it: shifted up, its low bit set, as the
 * map asks of a value (objmap.c).
 */
static u64 aie_weight_pack(u64 weight)
{
	return weight << 1 | 1;
}

static u64 aie_weight_unpack(u64 val)
{
	return val >> 1;
}

/*
 * Uncharge the object @key whose map value is @val; drop its weight, and
 * return it.
 */
static noinline u64 aie_uncharge(unsigned long key, u64 val)
{
	u64 weight = 1, w;

	if (unlikely(val & AIE_OBJ_WEIGHTED)) {
		if (aie_objmap_remove(&aie_weights, key, &w))
			weight = aie_weight_unpack(w);
		/* else cannot happen: inserted before the object */
	}
	aie_uncharge_weighted(val, weight);
	return weight;
}

/*
 * The site an event at @call_site is charged to, or NULL when the event is
 * not recorded (no site to be had, inside an allocator, or disabled).
 */
static __always_inline struct aie_site *
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
		site = aie_callers_resolve(site);
	}
	if (unlikely(test_bit(AIE_SITE_DISABLED, &site->flags))) {
		aie_count(disabled);
		return NULL;
	}
	return site;
}

/* Into aie_objects, stamped when lifetimes are on. */
static enum aie_objmap_result aie_objects_insert(unsigned long key, u64 val,
						 u64 *old)
{
	if (aie_lifetimes_on())
		return aie_objmap_insert_stamp(&aie_objects, key, val,
					       aie_lifetime_now(), old);
	return aie_objmap_insert(&aie_objects, key, val, old);
}

/*
 * Track @key, an allocation at @call_site of @bytes (@req asked for),
 * standing for @weight allocations, in the slab map (a slab object with a
 * record to be had), the page map (a page block with a record to be had)
 * or the object map; false when it cannot be tracked. A
 * sampled object's weight goes to aie_weights first, so that whoever frees
 * the object finds it, under @key or, in the slab map, its record's
 * granule.
 */
static bool aie_track_object(unsigned long key, enum aie_type type, u32 idx,
			     u64 bytes, u64 slack, u64 weight, bool accounted)
{
	u64 units = aie_size_to_units(type, bytes), val, old, old_weight = 1;
	enum aie_objmap_result res;
	unsigned long wkey = key;
	u64 *rec = NULL;

	if (unlikely(units - 1 >= FIELD_MAX(AIE_OBJ_SIZE) ||
		     slack > FIELD_MAX(AIE_OBJ_SLACK))) {
		aie_count(oversize);
		return false;
	}
	val = FIELD_PREP(AIE_OBJ_SITE, idx) | FIELD_PREP(AIE_OBJ_SIZE, units) |
	      FIELD_PREP(AIE_OBJ_SLACK, slack);
	if (accounted)
		val |= AIE_OBJ_ACCOUNTED;
	if (type == AIE_TYPE_SLAB && aie_slabmap_on())
		rec = aie_slabmap_slot((void *)key, bytes, &wkey);
	if (unlikely(weight > 1)) {
		res = aie_objmap_insert(&aie_weights, wkey,
					aie_weight_pack(weight), &old_weight);
		if (res == AIE_OBJMAP_FULL) {
			aie_count(untracked);
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
		if (!old)
			this_cpu_inc(aie_stats.slab_records);
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
		aie_count(untracked);
		return false;
	}
	/*
	 * Its free went unseen: the address is in use again. The old object's
	 * weight, if it had one, was replaced by ours above, or is still in
	 * aie_weights.
	 */
	if (!(old & AIE_OBJ_WEIGHTED))
		aie_uncharge_weighted(old, 1);
	else if (weight > 1)
		aie_uncharge_weighted(old, old_weight);
	else
		aie_uncharge(wkey, old);
	aie_count(replaced);
	return true;
}

/*
 * The general case of __aie_track_alloc(): any site, weight, size and
 * type, lifetimes on or off.
 */
static noinline void aie_track_alloc_slow(unsigned long call_site,
					  enum aie_type type,
					  unsigned long key, u64 bytes,
					  u64 slack, u64 weight,
					  bool accounted)
{
	struct aie_site *site;
	u32 idx;

	site = aie_track_site(call_site, type);
	if (!site)
		return;
	idx = aie_site_index(site);
	if (aie_track_object(key, type, idx, bytes, slack, weight,
			     accounted)) {
		aie_site_charge(site, bytes, slack, weight, accounted);
	}
	if (aie_capture_on())
		aie_capture_alloc(site, bytes, weight);
}

/*
 * The fast path's insertion found @key in the map already, its free
 * unseen: the old object, whose value was @old, is charged back.
 */
static noinline void aie_track_replaced(unsigned long key, u64 old)
{
	aie_uncharge(key, old);
	aie_count(replaced);
}

/*
 * An allocation of @bytes (@req asked for) at @call_site, freed by @key,
 * standing for @weight allocations; @accounted when it is accounted to a
 * memory cgroup (memcg.c). @site is @call_site's site when the caller has
 * looked it up already, else NULL. The probes and aie_track_alloc_weight()
 * (aie.h) turned away what they could.
 *
 * The fast path, every call inlined but that to find a site away from its
 * home bucket: an enabled site, an object of weight 1 that fits the map's
 * value, an object map without stamps or tags2. The rest takes
 * aie_track_alloc_slow().
 */
static __always_inline void aie_track_alloc_at(struct aie_site *site,
					       unsigned long call_site,
					       enum aie_type type,
					       const void *key, u64 bytes,
					       u64 req, u64 weight,
					       bool accounted)
{
	u64 slack = bytes > req ? bytes - req : 0, units, val, old;
	enum aie_objmap_result res;
	unsigned long wkey;
	u32 b;

	units = likely(type == AIE_TYPE_SLAB) ? bytes :
						aie_size_to_units(type, bytes);
	if (unlikely(weight != 1 || aie_track_slow() ||
		     units - 1 >= FIELD_MAX(AIE_OBJ_SIZE) ||
		     slack > FIELD_MAX(AIE_OBJ_SLACK)))
		goto slow;
	/*
	 * The site, in its home bucket as a rule, its index from there and
	 * its flags read once; a site another one displaced from it, a new
	 * one, or a retired one there that had the same address, costs a
	 * call (sites.c).
	 */
	if (!site) {
		/* Pairs with the cmpxchg() that published the site (sites.c). */
		b = smp_load_acquire(&aie_site_hash[aie_site_home(call_site,
								  type)]);
		if (likely(b)) {
			site = &aie_sites[--b];
			if (likely(site->call_site == call_site &&
				   site->type == type &&
				   !(READ_ONCE(site->flags) & AIE_SITE_SLOW)))
				goto found;
		}
		site = aie_site_get(call_site, type);
		if (unlikely(!site))
			goto slow;
	}
	if (unlikely(READ_ONCE(site->flags) & AIE_SITE_SLOW))
		goto slow;
	b = aie_site_index(site);
found:

	val = FIELD_PREP(AIE_OBJ_SITE, b) | FIELD_PREP(AIE_OBJ_SIZE, units) |
	      FIELD_PREP(AIE_OBJ_SLACK, slack);
	if (accounted)
		val |= AIE_OBJ_ACCOUNTED;
	res = AIE_OBJMAP_FULL;
	wkey = (unsigned long)key;
	if (type == AIE_TYPE_SLAB && aie_slabmap_on())
		res = aie_slabmap_insert(key, bytes, val, &old, &wkey);
	else if (type == AIE_TYPE_PAGE && aie_pagemap_on())
		res = aie_pagemap_insert(key, val, &old);
	if (res == AIE_OBJMAP_FULL)
		res = __aie_objmap_insert(&aie_objects,
					  aie_objmap_hash(&aie_objects,
							  (unsigned long)key),
					  val, NULL, &old, false);
	if (unlikely(res != AIE_OBJMAP_INSERTED)) {
		if (res == AIE_OBJMAP_FULL) {
			aie_count(untracked);
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
	aie_track_alloc_slow(call_site, type, (unsigned long)key, bytes, slack,
			     weight, accounted);
}

void __aie_track_alloc(unsigned long call_site, enum aie_type type,
		       const void *key, u64 bytes, u64 req, u64 weight,
		       bool accounted)
{
	aie_track_alloc_at(NULL, call_site, type, key, bytes, req, weight,
			   accounted);
}

/*
 * The slab map's record of @ptr, in the page whose entry is @e, held @old:
 * its free went unseen. Out of line, with the granule's address; then the
 * rest of aie_track_slab_alloc_at(): the charge of @site with what the
 * new record @val packs, and the capture, so that the fast path's call
 * here is its last step, a jump.
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

/* What aie_site_charge() counts as slack: @bytes less @req, or 0. */
static __always_inline u64 aie_slab_slack(u64 bytes, u64 req)
{
	return bytes > req ? bytes - req : 0;
}

/*
 * The object map's value of a slab object. Each field tested in range by
 * the caller, or in range by its making (a site's index): shifts, without
 * FIELD_PREP()'s masks.
 */
static __always_inline u64 aie_slab_val(u32 idx, u64 bytes, u64 slack,
					bool accounted)
{
	return (u64)idx << AIE_OBJ_SITE_SHIFT | bytes |
	       slack << __bf_shf(AIE_OBJ_SLACK) |
	       (u64)accounted << __bf_shf(AIE_OBJ_ACCOUNTED);
}

/*
 * aie_track_slab_alloc_at() of an object whose page frame has no entry
 * yet, or whose block has no records: a large kmalloc(), a KFENCE object,
 * a slab of too many granules. A large kmalloc() of four pages or more
 * keeps its record in its pages' entries (aie_slab_large_put()); else its
 * block's entry is made if it has none, and the object goes to the
 * object map with the site already found, or, for anything else (a
 * record to be had after all, a spill), through __aie_track_alloc(). Out
 * of line: once per slab, once per large kmalloc().
 */
static noinline void aie_track_slab_alloc_none(struct aie_site *site,
					       const void *ptr, u64 bytes,
					       u64 slack, bool accounted)
{
	u64 val = aie_slab_val(aie_site_index(site), bytes, slack, accounted);
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
		aie_count(untracked);
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
 * the call site nor the request past its site lookup, and saves two
 * registers where it saved four.
 */
static __always_inline void
aie_track_slab_alloc_at(struct aie_site *site, u32 idx, const void *ptr,
			u64 bytes, u64 slack, bool accounted)
{
	u32 e = aie_slab_entry(ptr), g;
	unsigned int shift;
	u64 val, old, *rec;

	if (unlikely(!e))
		goto none;
	/* Both shifts by the count of one register */
	shift = aie_slab_shift(e);
	g = (unsigned long)ptr >> shift;
	if (unlikely(!(bytes >> shift)))
		goto none;
	rec = &aie_slab_recs[aie_slab_index_g(e, g)];
	val = aie_slab_val(idx, bytes, slack, accounted);
	old = *rec;
	WRITE_ONCE(*rec, val);
	if (unlikely(old)) {
		aie_track_slab_replaced(site, ptr, e, old, val);
		return;
	}
	this_cpu_inc(aie_stats.slab_records);
	aie_site_charge_last(site, bytes, slack, accounted);
	return;
none:
	aie_track_slab_alloc_none(site, ptr, bytes, slack, accounted);
}

/*
 * The slab object's value may not pack its size or slack: one test, as
 * the slack is less than the size (a request is a byte at least), and
 * the slack's field the narrower. An object of 4 MiB or more takes
 * __aie_track_alloc(), which tests both fields.
 */
static __always_inline bool aie_slab_oversize(u64 bytes)
{
	BUILD_BUG_ON(FIELD_MAX(AIE_OBJ_SLACK) > FIELD_MAX(AIE_OBJ_SIZE));
	return bytes - 1 >= FIELD_MAX(AIE_OBJ_SLACK);
}

/*
 * Whether @site is an allocator's internal one (callers.c), whose event
 * another counts: counted as such, to be left.
 */
static __always_inline bool aie_track_internal(struct aie_site *site)
{
	if (!site || !test_bit(AIE_SITE_INTERNAL, &site->flags))
		return false;
	aie_count(internal);
	return true;
}

/*
 * aie_track_slab_alloc() of a site that has flags (or none to be had): an
 * allocator's internal one (the inner kmalloc event of a large kmalloc,
 * which the outer counts) is counted and left at once; the rest goes to
 * __aie_track_alloc().
 */
static noinline void aie_track_slab_alloc_flagged(struct aie_site *site,
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
 * another site holds it. Out of line, so that the lookups do not make the
 * common case save more registers: the home bucket, then aie_site_get().
 * A site found fills an empty entry.
 */
static noinline void aie_track_slab_alloc_get(unsigned long call_site,
					      const void *ptr, u64 bytes,
					      u64 req, bool accounted)
{
	struct aie_site *site = aie_site_find(call_site, AIE_TYPE_SLAB);

	aie_count(slab_site_misses);
	if (site)
		aie_site_cache_fill(aie_site_cache_slab,
				    AIE_SITE_CACHE_SLAB_BITS, site);
	if (unlikely(!site || (READ_ONCE(site->flags) & AIE_SITE_SLOW))) {
		aie_track_slab_alloc_flagged(site, call_site, ptr, bytes, req,
					     accounted);
		return;
	}
	aie_track_slab_alloc_at(site, aie_site_index(site), ptr, bytes,
				aie_slab_slack(bytes, req), accounted);
}

/*
 * __aie_track_alloc() of a slab object of weight 1 with the slab map on,
 * its own function so that its registers are its own: the site from the
 * slab site cache (or, not there, through aie_track_slab_alloc_get()),
 * the record from the page frame's entry, the charge. What it does not
 * take: an allocator's internal site is counted and left
 * (aie_track_slab_alloc_flagged()); a page with no entry or marked
 * AIE_SLAB_NONE goes to aie_track_slab_alloc_none(), with the site
 * found: a large kmalloc() puts its record in its pages' entries, a new
 * slab has its block made, and an object that can have no record (a
 * KFENCE object's, a slab's of too many granules) goes to the object
 * map; a site with other flags or none to be had, a granule above the
 * slot, or a value that does not pack, goes to __aie_track_alloc(),
 * which does it all again its way. Six arguments in registers: @unused
 * is the slab probes' own first argument, so that they pass theirs on in
 * the registers they came in (hooks_slab.c).
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
					  AIE_SITE_CACHE_SLAB_BITS, call_site,
					  &e))) {
		aie_track_slab_alloc_get(call_site, ptr, bytes, req, accounted);
		return;
	}
	site = &aie_sites[aie_site_cache_idx(e)];
	/* One test of the flags, in memory: a plain read serves */
	if (unlikely(data_race(site->flags) & AIE_SITE_SLOW)) {
		aie_track_slab_alloc_flagged(site, call_site, ptr, bytes, req,
					     accounted);
		return;
	}
	aie_track_slab_alloc_at(site, aie_site_cache_idx(e), ptr, bytes, slack,
				accounted);
	return;
slow:
	__aie_track_alloc(call_site, AIE_TYPE_SLAB, ptr, bytes, req, 1,
			  accounted);
}

/*
 * aie_track_slab_alloc() with the slab map off: __aie_track_alloc(). Its
 * own function, of the same arguments, so that the probes' functions
 * reach either with the registers they came in.
 */
void aie_track_slab_alloc_objmap(void *unused, unsigned long call_site,
				 const void *ptr, u64 req, u64 bytes,
				 bool accounted)
{
	__aie_track_alloc(call_site, AIE_TYPE_SLAB, ptr, bytes, req, 1,
			  accounted);
}

/*
 * What the page map's fast path (aie_pagemap_track()) does not take, from
 * aie_track_page_alloc() or from the page probe's common walk
 * (hooks_page.c): the general path; but an event at an allocator's
 * internal site (the pages under a large kmalloc, which its kmalloc event
 * counts) is counted and left at once.
 */
noinline void aie_track_page_alloc_slow(struct aie_site *site,
					unsigned long call_site,
					struct page *page, u64 bytes,
					u64 weight, bool accounted)
{
	if (aie_track_internal(site))
		return;
	aie_track_alloc_at(site, call_site, AIE_TYPE_PAGE, page, bytes, bytes,
			   weight, accounted);
}

/*
 * A page block of @bytes at @call_site, whose site the walk found (@site,
 * or NULL), standing for @weight: the page map's fast path
 * (aie_pagemap_track()) for a site and weight 1, else the general one.
 */
void aie_track_page_alloc(struct aie_site *site, unsigned long call_site,
			  struct page *page, u64 bytes, u64 weight,
			  bool accounted)
{
	if (likely(weight == 1 && site &&
		   aie_pagemap_track(site, page, bytes, accounted)))
		return;
	aie_track_page_alloc_slow(site, call_site, page, bytes, weight,
				  accounted);
}

/* An allocation at @call_site that returned nothing. */
void aie_track_failed(unsigned long call_site, enum aie_type type)
{
	aie_track_failed_n(call_site, type, 1);
}

/*
 * @weight failures at @call_site: a failed page or vmalloc allocation that
 * sampling selected at the allocator's entry stands for its weight.
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

/*
 * __aie_track_free() when aie_objects has stamps or tags2; with lifetimes=1,
 * count the object's lifetime.
 */
static noinline void aie_track_free_slow(unsigned long key)
{
	u64 val, weight;
	u32 stamp;

	if (!aie_lifetimes_on()) {
		if (aie_objmap_remove(&aie_objects, key, &val))
			aie_uncharge(key, val);
		else
			aie_count(unmatched_frees);
		return;
	}

	if (!aie_objmap_remove_stamp(&aie_objects, key, &val, &stamp)) {
		aie_count(unmatched_frees);
		return;
	}
	weight = aie_uncharge(key, val);
	aie_lifetime_record(FIELD_GET(AIE_OBJ_SITE, val),
			    aie_lifetime_now() - stamp, weight);
}

/*
 * The free of @key, which aie_track_free() (aie.h) could not rule out: the
 * home slot in aie_objects of @hash, its hash, was taken. The fast path,
 * every call inlined: an object of weight 1, an object map without stamps
 * or tags2.
 */
void __aie_track_free(const void *key, u64 hash)
{
	u64 val;

	/*
	 * kfree(NULL) and kfree(ZERO_SIZE_PTR): never in the map, and their
	 * hashes are those of addresses at the bottom of the kernel's half,
	 * which no allocator hands out.
	 */
	if (unlikely(ZERO_OR_NULL_PTR(key))) {
		aie_count(unmatched_frees);
		return;
	}
	if (aie_track_slow()) {
		aie_track_free_slow((unsigned long)key);
		return;
	}
	if (!__aie_objmap_remove_at(&aie_objects, hash, &val, NULL, false)) {
		aie_count(unmatched_frees);
		return;
	}
	if (unlikely(val & AIE_OBJ_WEIGHTED)) {
		aie_uncharge((unsigned long)key, val);
		return;
	}
	aie_uncharge_weighted(val, 1);
}

/*
 * The free of a weighted slab object @ptr whose record the slab map gave:
 * @val, taken from the page whose entry is @entry, from where its
 * granule, the key of its weight, is worked out. Out of line, off the
 * free probes' path (aie_slab_freed(), slabmap.h).
 */
void aie_track_slab_weighted_freed(const void *ptr, u32 entry, u64 val)
{
	aie_uncharge(aie_slab_gkey(entry, ptr), val);
}

/*
 * A slab map record still set when its slab's pages went back to the page
 * allocator (slabmap.c): the object's free was not seen.
 */
void aie_track_unseen(unsigned long gkey, u64 val)
{
	aie_uncharge(gkey, val);
	aie_count(unseen_frees);
}

/*
 * The free of a weighted page block @page whose record the page map gave,
 * @rec: its weight is under @page in aie_weights. Out of line, off the
 * page free probe's path (aie_page_freed(), pagemap.h).
 */
void aie_track_page_weighted_freed(const struct page *page, u32 rec)
{
	aie_uncharge((unsigned long)page, aie_page_val_of(rec));
}

/*
 * The page map's record @rec of the block @page, left by a free that was
 * not seen, found by a new allocation of the block that goes to the
 * object map (pagemap.h): charged back, as the object map's insert
 * would.
 */
void aie_track_page_replaced(const struct page *page, u32 rec)
{
	this_cpu_dec(aie_stats.page_records);
	aie_page_freed(page, rec);
	aie_count(replaced);
}

/* aie_track_unseen_key() of a @key, of @hash, whose home slot is taken. */
static noinline void aie_track_unseen_at(unsigned long key, u64 hash)
{
	u64 val;

	if (__aie_objmap_remove_at(&aie_objects, hash, &val, NULL, true))
		aie_track_unseen(key, val);
}

/*
 * The object map's object at @key, the first byte of pages going back to
 * the page allocator (slabmap.c): if one is there, its free was not seen,
 * as nothing can live there any more. Its home slot empty, as a rule,
 * turns it away before any register is saved.
 */
void aie_track_unseen_key(unsigned long key)
{
	u64 hash = aie_objmap_hash(&aie_objects, key);

	if (aie_objmap_may_hold(aie_objmap_home(&aie_objects, hash)))
		aie_track_unseen_at(key, hash);
}

/*
 * Register @rp on the first of @names (nr of them) the kernel has: the
 * same function under its names across versions (compat.h). @rp's
 * handlers and data size are kept, its maxactive set to @per_cpu per
 * possible CPU and at least 64; the rest is reset for each try, so that
 * @rp may be one that was registered before. Returns register_kretprobe()'s
 * last answer. Process context.
 */
int aie_kretprobe_register_named(struct kretprobe *rp, unsigned int per_cpu,
				 const char * const *names, unsigned int nr)
{
	const struct kretprobe tmpl = {
		.entry_handler = rp->entry_handler,
		.handler = rp->handler,
		.data_size = rp->data_size,
		.maxactive = max(64U, per_cpu * num_possible_cpus()),
	};
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < nr && names[i] && ret; i++) {
		*rp = tmpl;
		rp->kp.symbol_name = names[i];
		ret = register_kretprobe(rp);
	}
	return ret;
}

struct aie_tp_lookup {
	const char *name;
	struct tracepoint *tp;
};

static void aie_tp_match(struct tracepoint *tp, void *priv)
{
	struct aie_tp_lookup *l = priv;

	if (!strcmp(tp->name, l->name))
		l->tp = tp;
}

/* A tracepoint of the kernel proper that is not exported to modules. */
struct tracepoint *aie_tracepoint_find(const char *name)
{
	struct aie_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(aie_tp_match, &l);
	return l.tp;
}

/* The allocator named by the @len bytes at @word, or -1. */
static int __init aie_hook_type(const char *word, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_hook_names); i++) {
		if (strlen(aie_hook_names[i]) == len &&
		    !strncmp(aie_hook_names[i], word, len))
			return i;
	}
	return -1;
}

/*
 * Take the allocators to hook from @list, the hooks= parameter: words
 * separated by commas, empty words ignored. Slab is always hooked.
 * -EINVAL for an unknown word.
 */
int __init aie_hooks_select(const char *list)
{
	const char *word = list;
	size_t len;
	int type;

	aie_hooks_wanted = BIT(AIE_TYPE_SLAB);
	while (*word) {
		len = strcspn(word, ",");
		if (len) {
			type = aie_hook_type(word, len);
			if (type < 0) {
				pr_err("hooks=: unknown allocator '%.*s' (known: slab, page, vmalloc, percpu)\n",
				       (int)len, word);
				return -EINVAL;
			}
			aie_hooks_wanted |= BIT(type);
		}
		word += len;
		if (*word)
			word++;
	}
	return 0;
}

static bool aie_hook_wanted(enum aie_type type)
{
	return aie_hooks_wanted & BIT(type);
}

/*
 * Slab hooks are required; the others are optional: without them the
 * module still counts slab allocations, says so once, and shows the hook
 * as absent in the stats file. A family hooks= leaves out is not attached
 * and shows as absent too. Each family attaches its free hooks before its
 * allocation hooks.
 */
int aie_hooks_register(void)
{
	int ret;

	if (aie_slabmap_param && !aie_track_slow())
		aie_slabmap_init(aie_max_objects,
				 aie_hook_wanted(AIE_TYPE_PAGE));
	ret = aie_slab_hooks_register();
	if (ret) {
		aie_slabmap_unregister();
		tracepoint_synchronize_unregister();
		return ret;
	}
	if (aie_hook_wanted(AIE_TYPE_PAGE)) {
		aie_page_hooked = !aie_page_hooks_register();
		if (!aie_page_hooked) {
			/* No page map without the page hooks: wait out their frees. */
			tracepoint_synchronize_unregister();
			aie_pagemap_exit();
		}
	}
	if (aie_hook_wanted(AIE_TYPE_VMALLOC))
		aie_vmalloc_hooked = !aie_vmalloc_hooks_register();
	if (aie_hook_wanted(AIE_TYPE_PERCPU))
		aie_percpu_hooked = !aie_percpu_hooks_register();
	return 0;
}

/* The mirror of aie_hooks_register(); on return no hook is running. */
void aie_hooks_unregister(void)
{
	if (aie_percpu_hooked)
		aie_percpu_hooks_unregister(!aie_allocs_paused);
	if (aie_vmalloc_hooked)
		aie_vmalloc_hooks_unregister();
	if (aie_page_hooked)
		aie_page_hooks_unregister();
	aie_slab_hooks_unregister(!aie_allocs_paused);
	aie_slabmap_unregister();
	tracepoint_synchronize_unregister();
}

/*
 * "disable all" alone: take every allocation probe off (frees stay hooked,
 * so what is tracked leaves as it is freed). Process context, under the
 * rules mutex. Idempotent.
 */
void aie_hooks_allocs_pause(void)
{
	if (aie_allocs_paused)
		return;
	aie_slab_allocs_pause();
	if (aie_page_hooked)
		aie_page_allocs_pause();
	if (aie_vmalloc_hooked)
		aie_vmalloc_allocs_pause();
	if (aie_percpu_hooked)
		aie_percpu_allocs_pause();
	tracepoint_synchronize_unregister();
	aie_allocs_paused = true;
}

/*
 * Put the allocation probes back; on failure (a tracepoint's probe array
 * is allocated) they stay off and the error is returned. Process context,
 * under the rules mutex.
 */
int aie_hooks_allocs_resume(void)
{
	int ret;

	if (!aie_allocs_paused)
		return 0;
	ret = aie_slab_allocs_resume();
	if (ret)
		return ret;
	if (aie_page_hooked) {
		ret = aie_page_allocs_resume();
		if (ret)
			goto err_page;
	}
	if (aie_vmalloc_hooked) {
		ret = aie_vmalloc_allocs_resume();
		if (ret)
			goto err_vmalloc;
	}
	if (aie_percpu_hooked) {
		ret = aie_percpu_allocs_resume();
		if (ret)
			goto err_percpu;
	}
	aie_allocs_paused = false;
	return 0;

err_percpu:
	if (aie_vmalloc_hooked)
		aie_vmalloc_allocs_pause();
err_vmalloc:
	if (aie_page_hooked)
		aie_page_allocs_pause();
err_page:
	aie_slab_allocs_pause();
	tracepoint_synchronize_unregister();
	return ret;
}

static const char *aie_hook_state(bool hooked)
{
	return hooked ? "present" : "absent";
}

/* The hooks' lines of /proc/allocinfo_ext_stats. */
void aie_hooks_show(struct seq_file *m)
{
	seq_printf(m, "bulk_free_hook %s\n",
		   aie_hook_state(aie_slab_bulk_hooked()));
	seq_printf(m, "page_hooks %s\n", aie_hook_state(aie_page_hooked));
	seq_printf(m, "vmalloc_hooks %s\n", aie_hook_state(aie_vmalloc_hooked));
	seq_printf(m, "percpu_hooks %s\n", aie_hook_state(aie_percpu_hooked));
	seq_printf(m, "percpu_fail_hook %s\n",
		   aie_hook_state(aie_percpu_hooked && aie_percpu_fail_hooked()));
	seq_printf(m, "alloc_hooks %s\n", aie_allocs_paused ? "paused" : "on");
	seq_printf(m, "probe_missed %lu\n",
		   (aie_page_hooked ? aie_page_hooks_missed() : 0) +
		   (aie_vmalloc_hooked ? aie_vmalloc_hooks_missed() : 0) +
		   (aie_percpu_hooked ? aie_percpu_hooks_missed() : 0));
}
