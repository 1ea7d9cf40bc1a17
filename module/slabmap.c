// SPDX-License-Identifier: GPL-2.0
/*
 * slabmap.c - the slab map: the records of tracked slab objects kept beside
 * their slab's pages, found from the object's page frame number, instead
 * of in the object map's hash (objmap.c). hooks.c records
 * the slab objects of its fast path here (slabmap=1, the default); the
 * rest, and any object this map has no record for, go to the object map.
 *
 *   aie_slab_pfn[pfn]   1 + the index of the descriptor of the block of
 *                       pages at pfn, set for each of its pages; or 0
 *   aie_slab_descs[]    struct aie_slabdesc: the block's first address,
 *                       the log2 of its granule, its array of records
 *   a record            one object map value per granule, 0 when empty:
 *                       the object at ptr has (ptr - first) >> shift
 *
 * The granule is the largest power of two not above the slot size the
 * first allocation in the block reported (kmalloc's bytes_alloc is the
 * slab's stride; ksize() of a kmem_cache object is at most its stride):
 * two objects of the slab never fall on one record, and an allocation
 * whose slot is smaller than the granule is sent to the object map. No
 * lock guards a record: between its allocation and its free an object is
 * its owner's alone, and so is its record.
 *
 * A descriptor is made at the first allocation seen in its block, from
 * arrays of records made at load (a power of two from 32 to 512 records,
 * AIE_SLAB_CLASSES sizes); a block whose granules are more than 512, a
 * KFENCE object, a page that is not a slab's, or a spent pool, gets none.
 * It is dropped when the page allocator frees the block: this file's probe
 * on mm_page_free, attached before the slab hooks, finds the block's
 * descriptor. A record still set then is an object whose free was not
 * seen (kmem_cache_free_bulk() without its kprobe): it is charged back
 * (hooks.c, unseen_frees) before the arrays go back to the pool.
 *
 * Why a descriptor cannot go while a hook uses it: a hook reads a block's
 * descriptor for an object that is live in it (an allocation's tracepoint
 * fires after the allocation, a free's before it), and a slab's pages go
 * back to the page allocator only when none of its objects is live.
 *
 * Memory: 4 bytes per page frame for aie_slab_pfn (0.1% of memory), and
 * the pool: max_objects records of 8 bytes, and a descriptor per 32.
 *
 * Notes on locking
 * ----------------
 * - aie_slab_lock (raw, taken with interrupts off) protects the pool (the
 *   arrays' free lists, the bump, the free descriptors) and the making and
 *   dropping of descriptors. It is taken at the first allocation in a block
 *   (any context but NMI, preemption disabled) and at the free of a block
 *   that has a descriptor (the same). Nothing is allocated under it; it
 *   nests inside whatever the allocator's caller holds, and only the
 *   counters' updates of hooks.c (no lock) run under it.
 * - aie_slab_pfn[] entries are set with a store-release after the
 *   descriptor is filled, and read with a load-acquire; records are read
 *   and written with no lock (above).
 */

#include <linux/kfence.h>
#include <linux/mmzone.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "aie.h"
#include "slabmap.h"

#define AIE_SLAB_MIN_RECORDS	32
#define AIE_SLAB_CLASSES	5	/* 32, 64, 128, 256, 512 records */
#define AIE_SLAB_MAX_RECORDS	(AIE_SLAB_MIN_RECORDS << (AIE_SLAB_CLASSES - 1))

DEFINE_STATIC_KEY_FALSE(aie_slabmap_key);
u32 *aie_slab_pfn;
unsigned long aie_slab_npfn;
struct aie_slabdesc *aie_slab_descs;
bool aie_slab_spilled;

static DEFINE_RAW_SPINLOCK(aie_slab_lock);
static u64 *aie_slab_pool;		/* the records' arrays */
static unsigned long aie_slab_pool_nr;	/* records in the pool */
static unsigned long aie_slab_bump;	/* records never handed out from here */
static unsigned long aie_slab_free_head[AIE_SLAB_CLASSES]; /* 1 + index */
static u32 *aie_slab_desc_free;		/* stack of free descriptors */
static u32 aie_slab_ndescs, aie_slab_desc_top;
static unsigned int aie_slab_descs_used;
static struct tracepoint *aie_slab_page_free_tp;
static bool aie_slab_page_frees;	/* hooks_page.c's frees done here */

/*
 * A slab object went to the object map for want of a record in a block
 * that has, or will have, a descriptor (a spent pool, a granule above its
 * slot): from now on a free that finds no record looks there too.
 */
void aie_slabmap_spill(void)
{
	if (!READ_ONCE(aie_slab_spilled))
		WRITE_ONCE(aie_slab_spilled, true);
}

/* The smallest class whose arrays hold @nr records. */
static unsigned int aie_slab_class(unsigned int nr)
{
	unsigned int c = 0;

	while ((AIE_SLAB_MIN_RECORDS << c) < nr)
		c++;
	return c;
}

/*
 * An array of class @c from its free list (linked through the first
 * record) or from the bump; NULL when the pool is spent. Under
 * aie_slab_lock. Arrays come back zeroed (aie_slabdesc_drop()).
 */
static u64 *aie_slab_array_get(unsigned int c)
{
	unsigned long n = AIE_SLAB_MIN_RECORDS << c, i;
	u64 *a;

	lockdep_assert_held(&aie_slab_lock);
	if (aie_slab_free_head[c]) {
		a = &aie_slab_pool[aie_slab_free_head[c] - 1];
		aie_slab_free_head[c] = a[0];
		a[0] = 0;
		return a;
	}
	i = ALIGN(aie_slab_bump, n);
	if (i + n > aie_slab_pool_nr)
		return NULL;
	aie_slab_bump = i + n;
	return &aie_slab_pool[i];
}

static void aie_slab_array_put(u64 *a, unsigned int c)
{
	lockdep_assert_held(&aie_slab_lock);
	a[0] = aie_slab_free_head[c];
	aie_slab_free_head[c] = a - aie_slab_pool + 1;
}

/*
 * The descriptor of the block that holds the slab object @ptr, whose slot
 * is at least @bytes, made for it when it has none; NULL when it can have
 * none (see the top of this file). Out of line: once per block.
 */
struct aie_slabdesc *aie_slabdesc_make(const void *ptr, u64 bytes)
{
	unsigned long pfn = ((unsigned long)ptr - PAGE_OFFSET) >> PAGE_SHIFT;
	unsigned int order, shift, nr, c, i;
	struct aie_slabdesc *d = NULL;
	unsigned long flags;
	struct page *head;
	u64 *rec;

	if (pfn >= aie_slab_npfn || is_kfence_address(ptr))
		return NULL;
	head = compound_head(pfn_to_page(pfn));
	if (!PageSlab(head))
		return NULL;	/* a large kmalloc()'s pages */
	order = compound_order(head);
	pfn = page_to_pfn(head);
	shift = ilog2(bytes);
	nr = (PAGE_SIZE << order) >> shift;
	if (pfn + (1UL << order) > aie_slab_npfn ||
	    nr > AIE_SLAB_MAX_RECORDS)
		return NULL;
	c = aie_slab_class(nr);

	raw_spin_lock_irqsave(&aie_slab_lock, flags);
	if (aie_slab_pfn[pfn]) {
		/* another CPU's first allocation in the block made it */
		d = &aie_slab_descs[aie_slab_pfn[pfn] - 1];
		goto unlock;
	}
	rec = aie_slab_desc_top ? aie_slab_array_get(c) : NULL;
	if (!rec) {
		aie_slabmap_spill();
		goto unlock;
	}
	i = aie_slab_desc_free[--aie_slab_desc_top];
	d = &aie_slab_descs[i];
	d->first = (unsigned long)page_address(head);
	d->rec = rec;
	d->nr = nr;
	d->shift = shift;
	d->order = order;
	d->class = c;
	aie_slab_descs_used++;
	for (nr = 0; nr < (1U << order); nr++) {
		/* The descriptor, then its index: aie_slabdesc_of(). */
		smp_store_release(&aie_slab_pfn[pfn + nr], i + 1);
	}
unlock:
	raw_spin_unlock_irqrestore(&aie_slab_lock, flags);
	return d;
}

/*
 * The block whose first page frame is @pfn, with descriptor @i, goes back
 * to the page allocator: charge back its records still set, and give the
 * descriptor and its array back to the pool.
 */
static noinline void aie_slabdesc_drop(unsigned long pfn, u32 i)
{
	struct aie_slabdesc *d = &aie_slab_descs[i];
	unsigned long flags;
	unsigned int k;

	raw_spin_lock_irqsave(&aie_slab_lock, flags);
	if (aie_slab_pfn[pfn] != i + 1)
		goto unlock;	/* cannot happen: one free per block */
	pfn = ((unsigned long)d->first - PAGE_OFFSET) >> PAGE_SHIFT;
	for (k = 0; k < (1U << d->order); k++)
		WRITE_ONCE(aie_slab_pfn[pfn + k], 0);
	for (k = 0; k < d->nr; k++) {
		if (d->rec[k]) {
			aie_track_unseen(aie_slab_gkey(d, k), d->rec[k]);
			d->rec[k] = 0;
			this_cpu_dec(aie_stats.slab_records);
		}
	}
	aie_slab_array_put(d->rec, d->class);
	aie_slab_desc_free[aie_slab_desc_top++] = i;
	aie_slab_descs_used--;
unlock:
	raw_spin_unlock_irqrestore(&aie_slab_lock, flags);
}

/*
 * mm_page_free(page, order): every block the page allocator frees. It also
 * does hooks_page.c's work when that file's hooks are on, so that the
 * tracepoint has one probe, called directly, rather than two.
 */
static void aie_slab_probe_page_free(void *data, struct page *page,
				     unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);
	u32 i;

	if (likely(pfn < aie_slab_npfn)) {
		i = READ_ONCE(aie_slab_pfn[pfn]);
		if (unlikely(i))
			aie_slabdesc_drop(pfn, i - 1);
	}
	if (READ_ONCE(aie_slab_page_frees))
		aie_track_free(page);
}

/* Whether this file's probe is on mm_page_free: see aie_slabmap_page_frees(). */
bool aie_slabmap_probing(void)
{
	return aie_slab_page_free_tp;
}

/*
 * hooks_page.c's frees, done by this file's probe while @on: set before
 * its allocation probe attaches, cleared after it is detached (process
 * context).
 */
void aie_slabmap_page_frees(bool on)
{
	WRITE_ONCE(aie_slab_page_frees, on);
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
 * Make the map for @records records (a multiple of the largest array),
 * and attach its probe; the map stays off when it cannot be had (one
 * warning). Process context, before the slab hooks attach.
 */
int aie_slabmap_init(unsigned long records)
{
	int ret = -ENOMEM;
	u32 i;

	records = max_t(unsigned long, round_up(records, AIE_SLAB_MAX_RECORDS),
			AIE_SLAB_MAX_RECORDS);
	aie_slab_npfn = aie_slab_pfn_end();
	aie_slab_ndescs = records / AIE_SLAB_MIN_RECORDS;
	aie_slab_pool_nr = records;
	aie_slab_pfn = vzalloc(array_size(aie_slab_npfn, sizeof(u32)));
	aie_slab_descs = vzalloc(array_size(aie_slab_ndescs,
					    sizeof(*aie_slab_descs)));
	aie_slab_desc_free = vmalloc(array_size(aie_slab_ndescs, sizeof(u32)));
	aie_slab_pool = vzalloc(array_size(records, sizeof(u64)));
	if (!aie_slab_pfn || !aie_slab_descs || !aie_slab_desc_free ||
	    !aie_slab_pool)
		goto err;
	for (i = 0; i < aie_slab_ndescs; i++)
		aie_slab_desc_free[i] = aie_slab_ndescs - 1 - i;
	aie_slab_desc_top = aie_slab_ndescs;

	ret = -ENOENT;
	aie_slab_page_free_tp = aie_tracepoint_find("mm_page_free");
	if (!aie_slab_page_free_tp)
		goto err;
	ret = tracepoint_probe_register(aie_slab_page_free_tp,
					aie_slab_probe_page_free, NULL);
	if (ret)
		goto err;
	static_branch_enable(&aie_slabmap_key);
	return 0;
err:
	pr_warn("slab map off (%d): slab objects go to the object map\n", ret);
	aie_slab_page_free_tp = NULL;
	aie_slabmap_exit();
	return ret;
}

/*
 * Detach the probe; the caller waits for running probes
 * (tracepoint_synchronize_unregister()) before aie_slabmap_exit().
 */
void aie_slabmap_unregister(void)
{
	if (aie_slab_page_free_tp)
		tracepoint_probe_unregister(aie_slab_page_free_tp,
					    aie_slab_probe_page_free, NULL);
	aie_slab_page_free_tp = NULL;
}

/* Process context, once no hook can run. */
void aie_slabmap_exit(void)
{
	static_branch_disable(&aie_slabmap_key);
	vfree(aie_slab_pool);
	vfree(aie_slab_desc_free);
	vfree(aie_slab_descs);
	vfree(aie_slab_pfn);
	aie_slab_spilled = false;
	aie_slab_pool = NULL;
	aie_slab_desc_free = NULL;
	aie_slab_descs = NULL;
	aie_slab_pfn = NULL;
	aie_slab_npfn = 0;
}

/* Live records: the CPUs' counts summed. */
unsigned long aie_slabmap_count(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(aie_stats, cpu).slab_records;
	return sum;
}

unsigned long aie_slabmap_capacity(void)
{
	return aie_slab_descs ? aie_slab_pool_nr : 0;
}

unsigned int aie_slabmap_descs(void)
{
	return READ_ONCE(aie_slab_descs_used);
}

size_t aie_slabmap_memory(void)
{
	if (!aie_slab_descs)
		return 0;
	return aie_slab_npfn * sizeof(u32) +
	       aie_slab_ndescs * (sizeof(*aie_slab_descs) + sizeof(u32)) +
	       aie_slab_pool_nr * sizeof(u64);
}
