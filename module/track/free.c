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
 * Notes on locking
 * ----------------
 * None taken here. The frees run in the hooks, wherever the allocators
 * run (task, softirq, hardirq; NMI: core/nmi.h), with preemption
 * disabled; they never sleep and never allocate. The maps' removes take
 * their shards' locks (core/objmap.c); a slab or page map record is its
 * object's alone between allocation and free. Init and exit run in
 * process context, before the hooks attach and after they are gone.
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

/**
 * aie_track_init() - Make the object map and set the static keys.
 * @max_objects: the object map's slots.
 * @stamps: stamp each object (lifetimes=1).
 * @slow: node counters are kept: every event to the general paths.
 *
 * The weight map is made with sampling's first start (aie_weights_make(),
 * core/objects.c).
 *
 * Context: Process context, before the hooks attach; may sleep.
 * Return: 0, or -ENOMEM.
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

/**
 * aie_track_exit() - Clear the static keys and free the maps.
 *
 * Context: Process context, after every hook is unregistered and has
 * finished; may sleep.
 */
void aie_track_exit(void)
{
	static_branch_disable(&aie_track_slow_key);
	static_branch_disable(&aie_objects_wide_key);
	aie_slabmap_exit();
	aie_objects_exit();
}

/**
 * aie_uncharge_node() - Uncharge an object from its site's node counter.
 * @key: the object's key, whose node is worked out again as at the charge
 *       (core/nodes.c).
 * @val: its map value.
 * @weight: the allocations it stands for.
 *
 * The general paths' only (aie_track_slow()).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
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

/**
 * aie_uncharge() - Uncharge an object and drop its weight.
 * @key: the object's key, under which aie_weights keeps its weight.
 * @val: its map value.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 * Return: the object's weight (1 when it had none).
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

/**
 * aie_track_replaced() - Charge back an object whose free went unseen.
 * @key: the key a fast path's insert found in the map already.
 * @old: the old object's value, which the insert replaced.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
noinline void aie_track_replaced(unsigned long key, u64 old)
{
	aie_uncharge(key, old);
	aie_count(replaced);
}

/*
 * Free @key as __aie_track_free() does, when aie_objects has stamps or
 * tags2; with lifetimes=1, count the object's lifetime.
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

/**
 * __aie_track_free() - Free an object aie_track_free() could not rule out.
 * @key: what the free names (free.h).
 * @hash: the hash of @key, whose home slot in aie_objects was taken.
 *
 * The fast path, every call inlined: an object of weight 1, an object map
 * without stamps or tags2 (aie_track_free_slow() else).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
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

/**
 * aie_track_slab_weighted_freed() - Free a weighted slab object.
 * @ptr: the object, whose record the slab map gave.
 * @entry: the entry of its page, from which its granule, the key of its
 *         weight, is worked out.
 * @val: the record, taken.
 *
 * Out of line, off the free probes' path (aie_slab_freed(), free.h).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_slab_weighted_freed(const void *ptr, u32 entry, u64 val)
{
	aie_uncharge(aie_slab_gkey(entry, ptr), val);
}

/**
 * aie_track_unseen() - Charge back an object whose free was not seen.
 * @gkey: the object's key (its granule's address, for a slab map record).
 * @val: its record, still set when its pages went back to the page
 *       allocator (core/slabmap.c).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_unseen(unsigned long gkey, u64 val)
{
	aie_uncharge(gkey, val);
	aie_count(unseen_frees);
}

/**
 * aie_track_page_weighted_freed() - Free a weighted page block.
 * @page: the block, under which aie_weights keeps its weight.
 * @rec: its record, which the page map gave.
 *
 * Out of line, off the page free probe's path (aie_page_freed(), free.h).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_page_weighted_freed(const struct page *page, u32 rec)
{
	aie_uncharge((unsigned long)page, aie_page_val_of(rec));
}

/**
 * aie_track_page_replaced() - Charge back a page map record left behind.
 * @page: the block, allocated again and going to the object map.
 * @rec: the record its unseen free left in the page map.
 *
 * Charged back as the object map's insert would (track.c).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_page_replaced(const struct page *page, u32 rec)
{
	aie_page_freed(page, rec);
	aie_count(replaced);
}

/* Charge back @key, of @hash, whose home slot is taken, if it is there. */
static noinline void aie_track_unseen_at(unsigned long key, u64 hash)
{
	u64 val;

	if (__aie_objmap_remove_at(&aie_objects, hash, &val, NULL, true))
		aie_track_unseen(key, val);
}

/**
 * aie_track_unseen_key() - Charge back an object at pages being freed.
 * @key: the first byte of pages going back to the page allocator
 *       (core/slabmap.c).
 *
 * An object the object map holds at @key was freed unseen: nothing can
 * live there any more. Its home slot empty, as a rule, turns it away
 * inline, before any call.
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 */
void aie_track_unseen_key(unsigned long key)
{
	u64 hash = aie_objmap_hash(&aie_objects, key);

	if (aie_objmap_may_hold(aie_objmap_home(&aie_objects, hash)))
		aie_track_unseen_at(key, hash);
}
