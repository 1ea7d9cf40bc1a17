// SPDX-License-Identifier: GPL-2.0
/*
 * slabmap.c - the slab map: the records of tracked slab objects kept beside
 * their slab's pages, found from the object's page frame number, instead
 * of in the object map's hash (objmap.c). track/ records
 * the slab objects of its fast path here (slabmap=1, the default); the
 * rest, and any object this map has no record for, go to the object map.
 *
 *   records             one object map value per granule of a block
 *                       (its slab's pages), 0 when empty, in arrays of a
 *                       power of two from 32 to 512 records (slabrecs.c)
 *   aie_slab_pfn[pfn]   for each page of a block that has an array: the
 *                       index of the record of the page's first granule
 *                       less that granule's number, the log2 of the
 *                       granule, and whether the block is spilt
 *                       (slabmap.h); AIE_SLAB_NONE for each page of a
 *                       slab block that has none, and for the pages of a
 *                       large kmalloc() or a KFENCE object up to that of
 *                       its first byte; AIE_SLAB_LARGE for the first page
 *                       of a large kmalloc() whose record is in its
 *                       second and third pages' entries, and those two
 *                       halves of its record; or 0
 *
 * A hook finds the record of the object at ptr with two loads, its page
 * frame's entry and the record: entry index + (ptr >> shift), in 32 bits.
 * The granule is the largest power of two not above the slot size the
 * first allocation in the block reported (kmalloc's bytes_alloc is the
 * slab's stride; ksize() of a kmem_cache object is at most its stride):
 * two objects of the slab never fall on one record, and an allocation
 * whose slot is smaller than the granule is sent to the object map. No
 * lock guards a record: between its allocation and its free an object is
 * its owner's alone, and so is its record.
 *
 * A block's array is taken from the pool (slabrecs.c) at the first
 * allocation seen in the block. A block whose granules
 * are more than 512 (or whose slot is below 8 bytes or above the block),
 * or that finds the pool spent, gets none: its pages'
 * entries say so (AIE_SLAB_NONE), and its objects go to the object map. A
 * block that has an array is marked spilt when one of its objects goes to
 * the object map all the same (its slot below the granule), before the
 * object does: frees of its objects that find no record look there. A
 * large kmalloc() (one object's block, of four pages or more) tracked at
 * full weight keeps its record in the entries of its own second and third
 * pages, which no slab's entry can be, its first page's entry saying so
 * (AIE_SLAB_LARGE): no object map, no lock, and its free takes the record
 * from there (aie_slab_large_put(), aie_slab_large_take()). The pages of
 * a KFENCE object or of any other large kmalloc() (a sampled one, whose
 * weight is in the object map, or one past the map), from the block's
 * first to that of the object's first byte, which its free names (one
 * page as a rule), are marked AIE_SLAB_NONE at its tracked allocation:
 * so the page of every tracked object's first byte has an entry, and a
 * free whose page has none, the most common free when the allocations
 * are sampled or disabled, is done without a look in the object map. A
 * large kmalloc()'s marks go at its free, once the object map's record is
 * taken (aie_slab_unmark()). The array goes back,
 * and the entries are cleared, when the page allocator frees the block:
 * the probe on mm_page_free (hooks/slab_pages.c), attached before the
 * slab hooks, calls aie_slab_block_drop(), which
 * finds the block by its first page's entry, whose record index is that
 * of its array, and the block's order beside the array (slabrecs.c). A record still
 * set then is an object whose free was not seen (kmem_cache_free_bulk()
 * without its kprobe): it is charged back (track/free.c, unseen_frees) before
 * the array goes back to the pool. Of a block marked AIE_SLAB_NONE, only
 * the object at its first byte is looked for in the object map then: all
 * of a large kmalloc() whose free was not seen; one marked AIE_SLAB_LARGE
 * has its record charged back from its pages' entries. KFENCE's pages
 * never go back.
 *
 * Why an array cannot go while a hook uses it: a hook reads a block's
 * entry for an object that is live in it (an allocation's tracepoint
 * fires after the allocation, a free's before it), and a slab's pages go
 * back to the page allocator only when none of its objects is live.
 *
 * Memory: 4 bytes per page frame for aie_slab_pfn (0.1% of memory), and
 * the records made (slabrecs.c).
 *
 * Notes on locking
 * ----------------
 * - aie_slab_lock (raw, taken with interrupts off; slabrecs.c) protects
 *   the pool of arrays, and the setting and clearing of a slab's entries.
 *   It is taken at the first allocation in a slab, at the first spill in
 *   a block, and at the free of a block that has an array (any context,
 *   preemption disabled; in an NMI only tried, core/nmi.h, and what it
 *   guards done without it or skipped, below); and by a reader of the
 *   caches file, a bounded part of its walk at a time (aie_slab_walk()).
 *   Nothing is allocated under it; it nests inside whatever the
 *   allocator's caller holds. Under it run the counters' updates of
 *   track/ (no lock) and, for a weighted record charged back at its
 *   block's free, the weight map's shard lock, innermost; the object
 *   map's shard lock is taken only after it is released
 *   (aie_track_unseen_key(), by the probe).
 * - Not taken for the pages of a large kmalloc(): one object's, which its
 *   owner alone reaches between its allocation and its free, so no other
 *   hook writes their entries meanwhile (its record among them), and they
 *   take no array. Nor for
 *   the free of a block marked AIE_SLAB_NONE: no hook runs in a block the
 *   page allocator is freeing, and the pages go to their next owner after
 *   the probe, ordered by the page allocator's hand-over as the page
 *   map's entries are (pagemap.c). A large kmalloc() thus takes no global
 *   lock. Nor for a KFENCE object's page, which never goes back to the
 *   page allocator and whose entry is never cleared: every hook that
 *   writes it stores the same AIE_SLAB_NONE, and KFENCE's own lock orders
 *   one object of the page before the next.
 * - aie_slab_pfn[] entries are set with a store-release after the array
 *   is ready, and read by the hooks with a plain load: the record they
 *   read next is at an address made from the entry, which orders the two
 *   (slabmap.h); records are read and written with no lock (above). An
 *   entry is marked spilt by the hook of the allocation that spills,
 *   before the object goes to the object map; its free comes after that
 *   hook. A slab's entry is set once, from 0 with cmpxchg(), and keeps
 *   its value (but the spilt bit, set with an atomic or) until the
 *   block's drop clears it.
 * - In an NMI that cannot have the lock: a first allocation marks the
 *   pages still without an entry AIE_SLAB_NONE, with cmpxchg() (the
 *   block's objects on them go to the object map; a maker holding the
 *   lock sets only the others); a spill sets its bits without the lock;
 *   a block's drop clears its entries and charges back its records
 *   without it, and its array is not given back (nmi_skips counts each).
 */

#include <linux/mmzone.h>
#include <linux/vmalloc.h>

#include "aie.h"
#include "compat.h"
#include "nmi.h"
#include "pagemap.h"
#include "slabmap.h"
#include "slabrecs.h"
#include "stats.h"
#include "value.h"

DEFINE_STATIC_KEY_FALSE(aie_slabmap_key);
u32 *aie_slab_pfn;
unsigned long aie_slab_npfn;

static unsigned int aie_slab_blocks;	/* blocks that have an array */
/* Charges back a record whose free was not seen (track/free.c). */
static aie_slab_unseen_fn aie_slab_unseen;

/*
 * The entry of the page at @addr, page @k of a block whose array is at
 * @base (slabmap.h): the index of the page's first record, less the
 * number of the page's first granule, in the top 25 bits.
 */
static u32 aie_slab_entry_make(unsigned long base, unsigned int k,
			       unsigned long addr, unsigned int shift)
{
	u32 first = base + (((unsigned long)k << PAGE_SHIFT) >> shift);

	return (first - (u32)(addr >> shift)) << AIE_SLAB_INDEX_SHIFT | shift;
}

/*
 * The first page frame and the order of the slab block holding @ptr; false
 * when @ptr is not in a slab's pages that the map covers.
 */
static bool aie_slab_block_of(const void *ptr, unsigned long *head_pfn,
			      unsigned int *order)
{
	unsigned long pfn = aie_slab_pfn_of(ptr);
	struct page *head;

	if (pfn >= aie_slab_npfn)
		return false;
	head = compound_head(pfn_to_page(pfn));
	if (!PageSlab(head))
		return false;	/* a large kmalloc()'s pages */
	*order = compound_order(head);
	*head_pfn = page_to_pfn(head);
	return *head_pfn + (1UL << *order) <= aie_slab_npfn;
}

/*
 * aie_slab_block_make() in an NMI that cannot have the lock: the pages of
 * the block from @head_pfn to @end_pfn that have no entry yet are marked
 * AIE_SLAB_NONE, lock-free; the entry of @pfn, whatever set it, is
 * returned. Nothing of the pool is taken.
 */
static u32 aie_slab_block_none(unsigned long head_pfn, unsigned long end_pfn,
			       unsigned long pfn)
{
	unsigned long k;

	for (k = head_pfn; k < end_pfn; k++)
		cmpxchg(&aie_slab_pfn[k], 0, AIE_SLAB_NONE);
	return READ_ONCE(aie_slab_pfn[pfn]);
}

/*
 * The entry of the page of the slab object @ptr, whose slot is @bytes: its
 * block given an array, or marked AIE_SLAB_NONE when it can have none (see
 * the top of this file), or 0 when @ptr is past the map's page frames.
 * The pages of a block that ends past the map are marked AIE_SLAB_NONE
 * too, those the map covers, and the pages of a large kmalloc() or a
 * KFENCE object from the block's first to that of the object's first
 * byte: so a free that finds an entry of 0 knows its object is tracked
 * nowhere. Out of line: once per block.
 */
u32 aie_slab_block_make(const void *ptr, u64 bytes)
{
	unsigned long pfn = aie_slab_pfn_of(ptr);
	unsigned long head_pfn, end_pfn, flags, addr, k;
	unsigned int order, shift, nr = 0;
	struct page *head;
	long base = -1;
	u32 e;

	if (pfn >= aie_slab_npfn)
		return 0;
	head = compound_head(pfn_to_page(pfn));
	order = compound_order(head);
	head_pfn = page_to_pfn(head);
	end_pfn = min(head_pfn + (1UL << order), aie_slab_npfn);
	/*
	 * A large kmalloc()'s pages, or a KFENCE object's page: one object,
	 * @ptr's, whose owner alone reaches the block until its free. No
	 * other hook writes its entries meanwhile, and no array is taken: no
	 * lock. The pages from the block's first to that of the object's
	 * first byte, which its free names, are marked: the free finds its
	 * entry, and the block's drop, which starts from the first page and
	 * ends at the first entry of 0, clears them all. One page as a rule:
	 * a large kmalloc() starts its block, and KFENCE's are single pages.
	 */
	if (!PageSlab(head) || is_kfence_address(ptr)) {
		for (k = head_pfn; k <= pfn; k++)
			WRITE_ONCE(aie_slab_pfn[k], AIE_SLAB_NONE);
		return AIE_SLAB_NONE;
	}
	shift = ilog2(bytes | 1);
	/* Not past the map, and granules the block can have records for. */
	if (end_pfn == head_pfn + (1UL << order) &&
	    shift >= 3 && shift <= PAGE_SHIFT + order)
		nr = (PAGE_SIZE << order) >> shift;

	if (!aie_raw_lock_any(&aie_slab_lock, &flags))
		return aie_slab_block_none(head_pfn, end_pfn, pfn);
	e = aie_slab_pfn[pfn];
	if (e)
		goto unlock;	/* another CPU's first allocation made it */
	if (nr && nr <= AIE_SLAB_MAX_RECORDS)
		base = aie_slab_array_get(nr, order);
	if (base >= 0)
		aie_slab_blocks++;
	for (k = 0; head_pfn + k < end_pfn; k++) {
		addr = (unsigned long)pfn_to_kaddr(head_pfn + k);
		/*
		 * The array, then the entry (aie_slab_entry()): a release.
		 * An NMI may have marked the page meanwhile: it stays so.
		 */
		cmpxchg_release(&aie_slab_pfn[head_pfn + k], 0, base < 0 ?
				AIE_SLAB_NONE :
				aie_slab_entry_make(base, k, addr, shift));
	}
	e = aie_slab_pfn[pfn];
unlock:
	raw_spin_unlock_irqrestore(&aie_slab_lock, flags);
	return e;
}

/*
 * The slab object @ptr, whose page's entry is @e (a block that has
 * records), goes to the object map: mark its block spilt first, so that
 * its free, which will find no record, looks there. A record set at its
 * granule is an object that was there before it, whose free went unseen
 * (no two live objects start in one granule: the stride is at least the
 * granule): charged back. Out of line: spills are rare.
 */
void aie_slab_spill(const void *ptr, u32 e)
{
	unsigned long head_pfn, flags;
	unsigned int order, k;
	u32 *pe, old_e;
	u64 *rec, old;
	bool locked;

	if (!aie_slab_block_of(ptr, &head_pfn, &order))
		return;		/* cannot happen: it has an entry */
	rec = aie_slab_rec(e, ptr);
	old = *rec;
	if (old) {
		WRITE_ONCE(*rec, 0);
		aie_slab_unseen(aie_slab_gkey(e, ptr), old);
	}
	if (e & AIE_SLAB_SPILT)
		return;
	locked = aie_raw_lock_any(&aie_slab_lock, &flags);
	for (k = 0; k < (1U << order); k++) {
		pe = &aie_slab_pfn[head_pfn + k];
		old_e = READ_ONCE(*pe);
		/* Not 0: an entry is set from 0 alone, by cmpxchg(). */
		while (old_e && !(old_e & AIE_SLAB_SPILT) &&
		       !try_cmpxchg(pe, &old_e, old_e | AIE_SLAB_SPILT))
			;
	}
	if (locked)
		raw_spin_unlock_irqrestore(&aie_slab_lock, flags);
}

/*
 * A large kmalloc() at @ptr, tracked at full weight, whose page frame has
 * no entry: if its block is of four pages or more, @ptr its first byte,
 * and the map holds its first three pages, its record @val goes in the
 * entries of its second and third pages, low half then high half, and
 * its first page's entry says so (AIE_SLAB_LARGE). Those entries are no
 * other block's, and a large kmalloc()'s second and third pages have no
 * entry of their own otherwise: its marks go to the page of its first
 * byte at most. A value's low half holds its size, never 0. No lock: the
 * block's owner alone reaches it until its free (see above). False for
 * anything else, which goes its usual way: a slab's object (a KFENCE
 * object's page is a slab's too, and a single page), a block too small
 * or past the map.
 */
bool aie_slab_large_put(const void *ptr, u64 val)
{
	unsigned long pfn = aie_slab_pfn_of(ptr);
	struct page *head;
	u32 *pe;

	/* A kernel address >> 62 is 3, which takes the entry to record 0 */
	BUILD_BUG_ON(aie_slab_shift(AIE_SLAB_LARGE) != 62 ||
		     !(AIE_SLAB_LARGE & AIE_SLAB_SPILT) ||
		     aie_slab_index_g(AIE_SLAB_LARGE, 3));
	if (!PAGE_ALIGNED(ptr) || pfn + 2 >= aie_slab_npfn)
		return false;
	head = compound_head(pfn_to_page(pfn));
	if (PageSlab(head) || compound_order(head) < 2 ||
	    page_to_pfn(head) != pfn)
		return false;
	pe = &aie_slab_pfn[pfn];
	WRITE_ONCE(pe[1], lower_32_bits(val));
	WRITE_ONCE(pe[2], upper_32_bits(val));
	WRITE_ONCE(pe[0], AIE_SLAB_LARGE);
	this_cpu_inc(aie_stats.slab_large);
	return true;
}

/*
 * The free of @ptr, in a block marked AIE_SLAB_NONE, was seen, and the
 * object map's record of it taken: if the block is a large kmalloc()'s,
 * the only object it holds is gone, and its marks go now, from its first
 * page to that of @ptr, as aie_slab_block_drop() would clear them at the
 * pages' free, which then finds no mark and no object to look for. A
 * slab's marks stay (its other objects are in the object map), and so do
 * a KFENCE page's, which are never cleared. No lock, as at the marking:
 * the block's owner alone reaches it until the page allocator has it
 * back, after this hook.
 */
void aie_slab_unmark(const void *ptr)
{
	unsigned long pfn = aie_slab_pfn_of(ptr), k;
	struct page *head;

	if (pfn >= aie_slab_npfn)
		return;
	head = compound_head(pfn_to_page(pfn));
	if (PageSlab(head) || is_kfence_address(ptr))
		return;
	for (k = page_to_pfn(head); k <= pfn; k++)
		WRITE_ONCE(aie_slab_pfn[k], 0);
}

/*
 * The block whose first page frame is @pfn, of @order as the page allocator
 * frees it, with entry @e, goes back to the page allocator: clear its
 * entries, charge back its records still set, and give its array back to
 * the pool. A block marked AIE_SLAB_NONE has its objects in the object
 * map: true then, and the caller charges back the one at its first byte,
 * a large kmalloc() or a slab's first object, if it is there (its free
 * went unseen). Called from the mm_page_free probe (hooks/slab_pages.c).
 */
bool aie_slab_block_drop(unsigned long pfn, unsigned int order, u32 e)
{
	unsigned long first = (unsigned long)pfn_to_kaddr(pfn), base, flags;
	unsigned int shift = aie_slab_shift(e), nr, k;
	bool locked;
	u64 *rec;

	/*
	 * A large kmalloc() whose free went unseen: its record is charged
	 * back, its entries cleared. No lock, as at its allocation.
	 */
	if (e == AIE_SLAB_LARGE) {
		u64 val;

		if (aie_slab_large_take((void *)first, &val))
			aie_slab_unseen(first, val);
		return false;
	}
	/*
	 * A block that has no array: nothing of the pool's to give back.
	 * No hook runs in a block while the page allocator frees it, and
	 * the pages go to their next owner after this: no lock. A slab's
	 * pages are all marked, a large kmalloc()'s from the first to that of
	 * the object's first byte: the first entry of 0 ends the block's
	 * marks.
	 */
	if (e == AIE_SLAB_NONE) {
		for (k = 0; k < (1U << order) && pfn + k < aie_slab_npfn &&
		     aie_slab_pfn[pfn + k]; k++)
			WRITE_ONCE(aie_slab_pfn[pfn + k], 0);
		return true;
	}
	locked = aie_raw_lock_any(&aie_slab_lock, &flags);
	if (aie_slab_pfn[pfn] != e)
		goto unlock;	/* cannot happen: one free per block */
	/*
	 * Cannot happen either: the block's first page has the index of its
	 * array's start, and its order beside it. Should it, the entries the
	 * page allocator frees go, so that no later block finds them; the
	 * records, which cannot be told, stay taken.
	 */
	base = aie_slab_index(e, first);
	order = aie_slab_array_order(base);
	if (WARN_ONCE(!order,
		      "allocinfo_ext: page frame %lu's slab map entry %#x is not a block's first\n",
		      pfn, e))
		goto clear;
	order--;
	nr = (PAGE_SIZE << order) >> shift;
	rec = aie_slab_record(base);
	for (k = 0; k < (1U << order); k++)
		WRITE_ONCE(aie_slab_pfn[pfn + k], 0);
	for (k = 0; k < nr; k++) {
		if (rec[k]) {
			aie_slab_unseen(first + ((unsigned long)k << shift),
					rec[k]);
			rec[k] = 0;
		}
	}
	/* In an NMI without the lock: the array stays taken (nmi.h). */
	if (locked) {
		aie_slab_array_put(base, nr);
		aie_slab_blocks--;
	}
	goto unlock;
clear:
	for (k = 0; k < (1U << order) && pfn + k < aie_slab_npfn; k++)
		WRITE_ONCE(aie_slab_pfn[pfn + k], 0);
unlock:
	if (locked)
		raw_spin_unlock_irqrestore(&aie_slab_lock, flags);
	return false;
}

/*
 * The records of the block whose first page frame is @pfn, with entry @e
 * (neither 0 nor AIE_SLAB_NONE), into *@objects and *@bytes (a weighted
 * record counts once); the records read, 0 if @pfn is not a block's
 * first page. Under aie_slab_lock.
 */
static unsigned int aie_slab_block_sum(unsigned long pfn, u32 e,
				       u64 *objects, u64 *bytes)
{
	unsigned long base = aie_slab_index(e, (unsigned long)pfn_to_kaddr(pfn));
	unsigned int order = aie_slab_array_order(base), n, k;
	u64 v, *rec;

	if (!order)
		return 0;	/* not a block's first page */
	n = (PAGE_SIZE << (order - 1)) >> aie_slab_shift(e);
	rec = aie_slab_record(base);
	*objects = 0;
	*bytes = 0;
	for (k = 0; k < n; k++) {
		v = READ_ONCE(rec[k]);
		if (v) {
			++*objects;
			*bytes += FIELD_GET(AIE_OBJ_SIZE, v);
		}
	}
	return n;
}

/*
 * For the page frames from @pfn on, call @fn on each block that has
 * records, at its first page (whose record index starts an array), with
 * its live records' count and bytes, and on each large kmalloc() whose
 * record is in its pages' entries. Under aie_slab_lock, interrupts off,
 * which holds off every block's drop: @fn may read the block's struct
 * page, and must not sleep; it returns what it did, in records read.
 *
 * One hold does about @budget records' reads: a page frame looked at
 * counts one, a block its records, @fn what it returns. A block is read
 * whole in the hold that reaches its first page, so a hold goes past
 * @budget by one block (AIE_SLAB_MAX_RECORDS) and one call of @fn at
 * most. Returns the page frame to go on from, in a later hold; the
 * caller may sleep between holds. aie_slab_npfn at the end.
 *
 * What a walk in holds sees: each block once at most, at its first page,
 * with its records as they were in that hold. A block made or dropped
 * between holds is seen or not as its first page is ahead of the walk or
 * behind it, as an object allocated or freed during the walk is; at
 * quiescence the walk is exact. Process context (a reader of the caches
 * file).
 */
unsigned long aie_slab_walk(unsigned long pfn, unsigned long budget,
			    aie_slab_walk_fn fn, void *arg)
{
	unsigned long flags, spent = 0;
	u64 objects, bytes, v;
	unsigned int n;
	u32 e;

	raw_spin_lock_irqsave(&aie_slab_lock, flags);
	for (; pfn < aie_slab_npfn && spent < budget; pfn++) {
		spent++;
		e = READ_ONCE(aie_slab_pfn[pfn]);
		if (e == AIE_SLAB_LARGE && pfn + 2 < aie_slab_npfn) {
			v = (u64)READ_ONCE(aie_slab_pfn[pfn + 2]) << 32 |
			    READ_ONCE(aie_slab_pfn[pfn + 1]);
			if (v)
				spent += fn(arg, NULL, 1,
					    FIELD_GET(AIE_OBJ_SIZE, v));
			continue;
		}
		if (!e || e == AIE_SLAB_NONE)
			continue;
		n = aie_slab_block_sum(pfn, e, &objects, &bytes);
		spent += n;
		if (n && objects)
			spent += fn(arg, pfn_to_page(pfn), objects, bytes);
	}
	raw_spin_unlock_irqrestore(&aie_slab_lock, flags);
	return pfn;
}

/* The highest page frame number of any online node, plus one. */
static unsigned long aie_slab_pfn_end(void)
{
	unsigned long end = 0;
	int nid;

	for_each_online_node(nid)
		end = max(end, node_end_pfn(nid));
	return end;
}

/*
 * Make the map, with @start records made and room for @ceiling
 * (slabrecs.c); @unseen charges back a record whose free was not seen.
 * With @pages (the page hooks wanted), the page map too (pagemap.c). The
 * map is off until aie_slabmap_start(): its probe on mm_page_free must be
 * attached first (hooks/slab_pages.c). Process context, before the slab
 * hooks attach.
 */
int aie_slabmap_init(unsigned long start, unsigned long ceiling, bool pages,
		     aie_slab_unseen_fn unseen)
{
	aie_slab_npfn = aie_slab_pfn_end();
	aie_slab_pfn = vzalloc(array_size(aie_slab_npfn, sizeof(u32)));
	if (!aie_slab_pfn || aie_slab_records_init(start, ceiling)) {
		aie_slabmap_exit();
		return -ENOMEM;
	}
	aie_slab_unseen = unseen;
	if (pages)
		aie_pagemap_init(aie_slab_npfn);
	return 0;
}

/* The map on, once its probe is attached. Process context. */
void aie_slabmap_start(void)
{
	static_branch_enable(&aie_slabmap_key);
}

/* Process context, once no hook can run. */
void aie_slabmap_exit(void)
{
	aie_pagemap_exit();
	static_branch_disable(&aie_slabmap_key);
	aie_slab_records_exit();
	vfree(aie_slab_pfn);
	aie_slab_pfn = NULL;
	aie_slab_npfn = 0;
}

unsigned long aie_slabmap_capacity(void)
{
	return aie_slab_pfn ? aie_slab_records_made() : 0;
}

unsigned int aie_slabmap_blocks(void)
{
	return READ_ONCE(aie_slab_blocks);
}

size_t aie_slabmap_memory(void)
{
	if (!aie_slab_pfn)
		return 0;
	return aie_slab_npfn * sizeof(u32) + aie_slab_records_memory();
}
