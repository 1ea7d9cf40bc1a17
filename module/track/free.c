// SPDX-License-Identifier: GPL-2.0
/*
 * free.c - every free: an object's site charged back with what its
 * value packs (core/value.h), the object found in the slab map, the page
 * map or the object maps (core/objects.c) as its free probe looks.
 *
 * A free of an object never tracked costs a hash and one load
 * (aie_objmap_may_hold()). An object map with neither stamps nor tags2
 * (lifetimes=0, 2^20 slots or more, 4-level paging) costs one static
 * branch, off, on a free that reaches __aie_track_free(); otherwise it
 * takes objmap.c's calls, and lifetimes=1 adds a histogram count.
 *
 * Contexts: the frees run in the hooks, wherever the allocators run
 * (task, softirq, hardirq; NMI: core/nmi.h), with preemption disabled.
 * They never sleep and never allocate. Init and exit run in process context.
 */

#include <linux/bitfield.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "aie.h"
#include "core/counters.h"
#include "core/nodes.h"
#include "core/objects.h"
#include "core/objmap.h"
#include "core/pagemap.h"
#include "core/slabmap.h"
#include "core/stats.h"
#include "core/value.h"
#include "extras/lifetimes.h"
#include "free.h"

/*
 * aie_track_slow_key: on when aie_objects is made with stamps
 * (lifetimes=1), which every insert and remove must move, and while node
 * counters are kept (core/nodes.c), whose charges and uncharges only the
 * general paths make: every allocation and free then takes them.
 * aie_objects_wide_key: on when aie_objects has tags2 (objmap.c), which
 * the inline insert and remove leave out: those of aie_objects alone
 * then take objmap.c's calls, and the slab and page maps keep their
 * fast paths. Both set at init, before the hooks attach; cleared at
 * exit, after they are gone.
 */
DEFINE_STATIC_KEY_FALSE(aie_track_slow_key);
DEFINE_STATIC_KEY_FALSE(aie_objects_wide_key);

/*
 * The object map of @max_objects slots, with @stamps (lifetimes=1); @slow
 * when node counters are kept. The weight map is made with sampling's
 * first start (aie_weights_make(), core/objects.c).
 */
int aie_track_init(unsigned long max_objects, bool stamps, bool slow)
{
	int ret = aie_objects_init(max_objects, stamps);

	if (ret)
		return ret;
	if (stamps || slow)
		static_branch_enable(&aie_track_slow_key);
	if (aie_objects.tags2)
		static_branch_enable(&aie_objects_wide_key);
	return 0;
}

/* Process context, after every hook is unregistered and has finished. */
void aie_track_exit(void)
{
	static_branch_disable(&aie_track_slow_key);
	static_branch_disable(&aie_objects_wide_key);
	aie_slabmap_exit();
	aie_objects_exit();
}

/*
 * The node counters' part of the uncharge of the object @key whose map
 * value is @val, of weight @weight: its bytes off its site's counter of
 * the node of @key, worked out again from the key as at the charge
 * (core/nodes.c). The general paths' only (aie_track_slow()).
 */
void aie_uncharge_node(unsigned long key, u64 val, u64 weight)
{
	struct aie_site *site = &aie_sites[FIELD_GET(AIE_OBJ_SITE, val)];

	if (aie_nodes_on())
		aie_node_add(site, key,
			     -(s64)(aie_units_to_size(site->type,
						     FIELD_GET(AIE_OBJ_SIZE, val)) *
				    weight));
}

/*
 * Uncharge the object @key whose map value is @val; drop its weight, and
 * return it.
 */
noinline u64 aie_uncharge(unsigned long key, u64 val)
{
	u64 weight = 1, w;

	if (unlikely(val & AIE_OBJ_WEIGHTED)) {
		if (aie_objmap_remove(&aie_weights, key, &w))
			weight = aie_weight_unpack(w);
		/* else cannot happen: inserted before the object */
	}
	aie_uncharge_node(key, val, weight);
	aie_uncharge_weighted(val, weight);
	return weight;
}

/*
 * The fast path's insertion found @key in the map already, its free
 * unseen: the old object, whose value was @old, is charged back.
 */
noinline void aie_track_replaced(unsigned long key, u64 old)
{
	aie_uncharge(key, old);
	aie_count(replaced);
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
 * The free of @key, which aie_track_free() (free.h) could not rule out: the
 * home slot in aie_objects of @hash, its hash, was taken. The fast path,
 * every call inlined: an object of weight 1, an object map without stamps
 * or tags2 (aie_track_free_slow() else).
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
	if (aie_track_slow() || aie_objects_wide()) {
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
 * turns it away inline, before any call.
 */
void aie_track_unseen_key(unsigned long key)
{
	u64 hash = aie_objmap_hash(&aie_objects, key);

	if (aie_objmap_may_hold(aie_objmap_home(&aie_objects, hash)))
		aie_track_unseen_at(key, hash);
}
