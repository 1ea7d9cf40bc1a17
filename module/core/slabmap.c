// SPDX-License-Identifier: GPL-2.0
/*
 * slabmap.c - the slab map: the records of tracked slab objects, an array
 * of them per slab block (slabrecs.c), found from the object's page frame
 * with no hash and no lock. track/ records its fast path's slab objects
 * here (slabmap=1, the default); an object this map has no record for
 * goes to the object map (objmap.c).
 *
 * A hook finds the record of the object at ptr with two loads: its page's
 * entry in aie_slab_pfn[] (slabmap.h), then record index + (ptr >> shift),
 * in 32 bits. The granule, 1 << shift, is the largest power of two not
 * above the slot size the block's first allocation reported (kmalloc's
 * bytes_alloc is the slab's stride; ksize() of a kmem_cache object is at
 * most its stride): no two objects of the slab share a record. An object
 * whose slot is below the granule goes to the object map, its block
 * marked spilt first, so that a free that finds no record looks there.
 *
 * A block takes its array at its first tracked allocation; one that can
 * have none is marked AIE_SLAB_NONE, and so are a KFENCE object's or a
 * large kmalloc()'s pages up to that of its first byte, but for a large
 * kmalloc() whose record fits in its own pages' entries (AIE_SLAB_LARGE):
 * a free whose page has no entry needs no look in the object map
 * (aie_slab_block_make()). The mm_page_free probe (hooks/slab_pages.c),
 * attached before the slab hooks, drops a block as the page allocator
 * takes it back. No block goes from under a hook: a hook reads the entry
 * of a live object (an allocation's tracepoint fires after it, a free's
 * before it), and a slab's pages go back only when none of its objects
 * is live. Memory: admin-guide.rst.
 *
 * Notes on locking
 * ----------------
 * - aie_slab_lock (raw, interrupts off; slabrecs.c) protects the pool of
 *   arrays and the setting and clearing of a slab's entries: taken at a
 *   slab's first allocation, a block's first spill and the drop of a
 *   block that has an array (any context, preemption disabled; in an NMI
 *   only tried, core/nmi.h), and for a bounded part of the caches file's
 *   walk (aie_slab_walk()). Nothing allocates under it: it nests inside
 *   whatever the allocator's caller holds. Under it run track/'s counter
 *   updates (no lock) and, for a weighted record charged back at a drop,
 *   the weight map's shard lock, innermost; the object map's shard lock
 *   comes only after it is released (aie_track_unseen_key(), by the probe).
 * - No lock for a record: between its allocation and its free an object
 *   is its owner's alone, and so is its record. Nor for a large
 *   kmalloc()'s pages, whose entries no other hook writes while it lives
 *   and which take no array. Nor for the drop of a block marked
 *   AIE_SLAB_NONE: no hook runs in a block the page allocator is freeing,
 *   and the pages go to their next owner after the probe, ordered by the
 *   page allocator's hand-over as the page map's entries are (pagemap.c).
 *   Nor for a KFENCE object's page, never given back, its entry never
 *   cleared: every hook that writes it stores the same AIE_SLAB_NONE, and
 *   KFENCE's own lock orders one object of the page before the next.
 * - A slab's entry is set once, from 0, with cmpxchg_release() after its
 *   array is ready, and read by the hooks with a plain load: the record
 *   read next is at an address made from the entry, which orders the two
 *   (slabmap.h). It keeps its value until the drop clears it, but for
 *   AIE_SLAB_SPILT, set with try_cmpxchg() by the hook of the allocation
 *   that spills, before the object goes to the object map: its free comes
 *   after that hook.
 * - In an NMI that cannot have the lock: a first allocation marks the
 *   pages still without an entry AIE_SLAB_NONE, with cmpxchg() (a maker
 *   holding the lock sets only the others); a spill sets its bits without
 *   it; a drop clears the entries and charges back the records without it,
 *   and keeps the array taken (nmi_skips counts each).
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
 * Make the entry of the page at @addr, page @k of a block whose array is
 * at @base, for granules of 1 << @shift bytes (slabmap.h): the index of
 * the page's first record, less the number of the page's first granule,
 * in the top 25 bits.
 */
static u32 aie_slab_entry_make(unsigned long base, unsigned int k,
			       unsigned long addr, unsigned int shift)
{
	u32 first = base + (((unsigned long)k << PAGE_SHIFT) >> shift);

	return (first - (u32)(addr >> shift)) << AIE_SLAB_INDEX_SHIFT | shift;
}

/*
 * Find the first page frame and the order of the slab block holding @ptr;
 * false when @ptr is not in a slab's pages that the map covers.
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
 * Do aie_slab_block_make()'s work in an NMI that cannot have the lock:
 * mark AIE_SLAB_NONE, lock-free, the pages of the block from @head_pfn to
 * @end_pfn that have no entry yet, and return the entry of @pfn, whatever
 * set it. Take nothing of the pool.
 */
static u32 aie_slab_block_none(unsigned long head_pfn, unsigned long end_pfn,
			       unsigned long pfn)
{
	unsigned long k;

	for (k = head_pfn; k < end_pfn; k++)
		cmpxchg(&aie_slab_pfn[k], 0, AIE_SLAB_NONE);
	return READ_ONCE(aie_slab_pfn[pfn]);
}

/**
 * aie_slab_block_make() - Give a slab object's block its entries.
 * @ptr: the object, whose page has no entry yet.
 * @bytes: its slot size, which sets the block's granule.
 *
 * Give the block an array of records, or mark its pages AIE_SLAB_NONE
 * when it can have none (over 512 granules, a slot below 8 bytes or above
 * the block, the pool spent), and so the pages the map covers of a block
 * that ends past the map, and the pages of a large kmalloc() or a KFENCE
 * object from the block's first to that of the object's first byte: a
 * free that finds an entry of 0 knows its object is tracked nowhere. Out
 * of line: once per block.
 *
 * Context: Any context, NMI included (the hooks, preemption disabled);
 * takes aie_slab_lock for a slab's block, in an NMI only tried.
 * Return: the entry of @ptr's page, or 0 past the map's page frames.
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
	 * A large kmalloc()'s pages, or a KFENCE object's page: one object's,
	 * whose owner alone reaches the block until its free: no other hook
	 * writes its entries, no array, no lock. Mark the pages from the
	 * block's first to that of the object's first byte, which its free
	 * names; the drop, from the first page to the first entry of 0,
	 * clears them all. One page as a rule: a large kmalloc() starts its
	 * block, and KFENCE's are single pages.
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

/**
 * aie_slab_spill() - Mark a slab object's block spilt.
 * @ptr: the slab object, whose slot is below its block's granule.
 * @e: its page's entry, of a block that has records.
 *
 * Mark the block spilt before the object goes to the object map, so that
 * its free, which will find no record, looks there. Charge back a record
 * set at the object's granule: an object that was there before it, whose
 * free went unseen (no two live objects start in one granule: the stride
 * is at least the granule). Out of line: spills are rare.
 *
 * Context: Any context, NMI included (the hooks); takes aie_slab_lock,
 * in an NMI only tried: without it, sets the bits all the same.
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

/**
 * aie_slab_large_put() - Keep a large kmalloc()'s record in its entries.
 * @ptr: the object, tracked at full weight, whose page frame has no entry.
 * @val: its record; its low half holds its size, never 0.
 *
 * If its block is of four pages or more, @ptr its first byte, and the map
 * holds its first three pages, put @val in the entries of its second and
 * third pages, low half then high half, and say so in its first page's
 * (AIE_SLAB_LARGE). Those entries are no other block's, and a large
 * kmalloc()'s second and third pages have no entry of their own
 * otherwise: its marks go to the page of its first byte at most. Its free
 * takes the record back (aie_slab_large_take()).
 *
 * Context: Any context, NMI included; no lock: the block's owner alone
 * reaches it until its free.
 * Return: true if put; false for anything else, which goes its usual way:
 * a slab's object (a KFENCE object's page is a slab's too, and a single
 * page), a block too small or past the map.
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

/**
 * aie_slab_unmark() - Clear a large kmalloc()'s marks at its free.
 * @ptr: the object, in a block marked AIE_SLAB_NONE, whose free was seen
 *       and whose record the object map gave up.
 *
 * If the block is a large kmalloc()'s, the only object it holds is gone:
 * clear its marks now, from its first page to that of @ptr, as
 * aie_slab_block_drop() would at the pages' free, which then finds no
 * mark and no object to look for. Leave a slab's marks (its other objects
 * are in the object map) and a KFENCE page's, which are never cleared.
 *
 * Context: Any context, NMI included; no lock, as at the marking: the
 * block's owner alone reaches it until the page allocator has it back.
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

/**
 * aie_slab_block_drop() - Drop a block the page allocator takes back.
 * @pfn: the block's first page frame, below aie_slab_npfn.
 * @order: the block's order, as the page allocator frees it.
 * @e: @pfn's entry, not 0.
 *
 * Clear the block's entries, charge back its records still set (frees
 * not seen: kmem_cache_free_bulk() without its kprobe; unseen_frees), and
 * give its array back to the pool: the one whose first record the first
 * page's entry gives, the block's order kept beside it (slabrecs.c). A
 * large kmalloc()'s record in its pages' entries is charged back too.
 *
 * Context: The mm_page_free probe (hooks/slab_pages.c), any context, NMI
 * included; takes aie_slab_lock for a block that has an array, in an NMI
 * only tried: without it, clears and charges back all the same, and
 * leaves the array taken.
 * Return: true for a block marked AIE_SLAB_NONE, whose objects are in the
 * object map: the caller charges back the one at its first byte, a large
 * kmalloc() or a slab's first object, if it is there (its free went
 * unseen).
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
	 * No array: nothing to give back, and no lock (no hook runs in a
	 * block the page allocator frees; its next owner comes after this).
	 * The first entry of 0 ends the marks: a slab's cover its pages, a
	 * large kmalloc()'s those up to its first byte's.
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
 * Sum the records of the block whose first page frame is @pfn, with entry
 * @e (neither 0 nor AIE_SLAB_NONE), into *@objects and *@bytes (a weighted
 * record counts once); return the records read, 0 if @pfn is not a
 * block's first page. Under aie_slab_lock.
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

/**
 * aie_slab_walk() - Sum the map's blocks, a bounded stretch at a time.
 * @pfn: the page frame to start from.
 * @budget: about the records' reads to do in this hold of the lock.
 * @fn: called on each block that has live records, at its first page
 *      (whose record index starts an array), with their count and bytes,
 *      and on each large kmalloc() whose record is in its pages' entries
 *      (its page NULL); returns what it did, in records read.
 * @arg: passed to @fn.
 *
 * Hold aie_slab_lock, interrupts off, for about @budget reads: a page
 * frame looked at counts one, a block its records, @fn what it returns.
 * The lock holds off every block's drop: @fn may read the block's struct
 * page, and must not sleep. A block is read whole in the hold that
 * reaches its first page, so a hold goes past @budget by one block
 * (AIE_SLAB_MAX_RECORDS) and one call of @fn at most. A walk in holds
 * sees each block once at most, with its records as they were in that
 * hold; a block made or dropped between holds is seen or not as its
 * first page is ahead of the walk or behind it, as an object allocated or
 * freed during the walk is; at quiescence the walk is exact.
 *
 * Context: Process context (a reader of the caches file); the caller may
 * sleep between calls.
 * Return: the page frame to go on from, in a later call; aie_slab_npfn at
 * the end.
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

/* Find the highest page frame number of any online node, plus one. */
static unsigned long aie_slab_pfn_end(void)
{
	unsigned long end = 0;
	int nid;

	for_each_online_node(nid)
		end = max(end, node_end_pfn(nid));
	return end;
}

/**
 * aie_slabmap_init() - Make the slab map.
 * @start: records to make now (slabrecs.c).
 * @ceiling: records the pool may grow to.
 * @pages: make the page map too (pagemap.c): the page hooks are wanted.
 * @unseen: charges back a record whose free was not seen.
 *
 * The map stays off until aie_slabmap_start(): its probe on mm_page_free
 * must be attached first (hooks/slab_pages.c).
 *
 * Context: Process context, before the slab hooks attach; may sleep.
 * Return: 0, or -ENOMEM.
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

/**
 * aie_slabmap_start() - Turn the map on, once its probe is attached.
 * Context: Process context; may sleep.
 */
void aie_slabmap_start(void)
{
	static_branch_enable(&aie_slabmap_key);
}

/**
 * aie_slabmap_exit() - Free the slab map, and the page map with it.
 * Context: Process context, once no hook can run; may sleep.
 */
void aie_slabmap_exit(void)
{
	aie_pagemap_exit();
	static_branch_disable(&aie_slabmap_key);
	aie_slab_records_exit();
	vfree(aie_slab_pfn);
	aie_slab_pfn = NULL;
	aie_slab_npfn = 0;
}

/**
 * aie_slabmap_capacity() - Count the records made.
 * Return: the records made, 0 with the map off.
 */
unsigned long aie_slabmap_capacity(void)
{
	return aie_slab_pfn ? aie_slab_records_made() : 0;
}

/**
 * aie_slabmap_blocks() - Count the blocks that have an array.
 * Return: the blocks, read without the lock.
 */
unsigned int aie_slabmap_blocks(void)
{
	return READ_ONCE(aie_slab_blocks);
}

/**
 * aie_slabmap_memory() - Tell the map's memory.
 * Return: bytes of the entries and the records, 0 with the map off.
 */
size_t aie_slabmap_memory(void)
{
	if (!aie_slab_pfn)
		return 0;
	return aie_slab_npfn * sizeof(u32) + aie_slab_records_memory();
}
