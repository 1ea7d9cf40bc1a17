// SPDX-License-Identifier: GPL-2.0
/*
 * aie_slabmap - a prototype, for `make bench` only: full tracking of
 * kmalloc() and kfree() with each object's record kept beside its slab
 * page instead of in a hash map keyed by its address.
 *
 * allocinfo_ext keeps a live object in aie_objects, an open-addressing
 * hash map cut into shards under locks (module/objmap.c): a hash of the
 * address, a shard's lock with interrupts off, a probe of its run, a
 * backward shift on removal. The in-kernel profiler keeps its tag in the
 * slab's own vector of object extensions instead, found from the object's
 * slab. A module cannot add to that vector, but it can keep one of its own
 * per slab page, found from the object's page frame number:
 *
 *   aie_sm_pfn[pfn]   the descriptor of the block of pages at pfn, set for
 *                     every page of the block, or NULL
 *   descriptor        the block's first address, the log2 of its granule,
 *                     the number of granules, and one 64-bit record each
 *   record            (ptr - first) >> granule: the object's site, bytes
 *                     and slack, packed as allocinfo_ext packs them
 *
 * The granule is the largest power of two not above the slab's stride
 * (the tracepoint's bytes_alloc, s->size): two objects of the slab never
 * share one. No lock: between its allocation and its free an object is
 * its owner's alone, and so is its record.
 *
 * Everything else does what allocinfo_ext's full tracking does on its fast
 * path, in the same way: the sampling interval's test, "disable all", the
 * site found in its home bucket and its flags tested, the same per-CPU
 * counter slots with the nesting count and the high-water mark, the
 * capture switch; a record found already in place (its free unseen) is
 * charged back. So the difference between this module's rows and those of
 * full tracking in `make bench` is the object map's.
 *
 * What a prototype leaves out: descriptors are made from a pool filled at
 * load and never given back (a real one would drop a block's descriptor
 * when the page allocator's mm_page_free fires for it, a cost paid by
 * page frees); a block whose stride changes (a page freed and reused by
 * another cache, a KFENCE page) gets a new descriptor; a block of more
 * than AIE_SM_RECORDS granules, a site past the table's or a CPU's slot
 * held by another site is counted and not tracked; nothing is read but
 * the counts in /sys/kernel/debug/<module>/stats.
 *
 * Built four times, to tell where a pair's instructions go:
 * aie_slabmap.ko does all of the above; aie_slabmap_nosite.ko charges every
 * allocation to one site made at load, without a lookup
 * (AIE_SM_NO_SITE); aie_slabmap_noctr.ko updates no counter
 * (AIE_SM_NO_COUNTERS); aie_slabmap_recs.ko does neither, and keeps only
 * the records.
 *
 * Contexts: the probes run wherever kmalloc() and kfree() do (task,
 * softirq, hardirq), with preemption disabled. aie_sm_lock (raw,
 * interrupts off) serialises the making of sites and descriptors, out of
 * line; nothing on the fast paths takes a lock. A counter slot is taken,
 * once, with interrupts off.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <trace/events/kmem.h>

/* The builds without parts set these to 1 before including this file. */
#ifndef AIE_SM_NO_SITE
#define AIE_SM_NO_SITE		0
#endif
#ifndef AIE_SM_NO_COUNTERS
#define AIE_SM_NO_COUNTERS	0
#endif

#define AIE_SM_SITES		4096
#define AIE_SM_HASH_BITS	13
#define AIE_SM_SLOTS		1024
/* Slots per per-CPU allocation: __alloc_percpu() takes at most 32 KiB. */
#define AIE_SM_PART		(PCPU_MIN_UNIT_SIZE / sizeof(struct aie_sm_slot))
#define AIE_SM_PARTS		(AIE_SM_SLOTS / AIE_SM_PART)
#define AIE_SM_RECORDS		512	/* per descriptor: 4 KiB of records */

static unsigned int descs = 8192;
module_param(descs, uint, 0444);
MODULE_PARM_DESC(descs, "descriptors made at load, 4 KiB of records each (default 8192)");

/* A record, as allocinfo_ext packs an object map's value (aie.h). */
#define AIE_SM_SIZE		GENMASK_ULL(23, 0)
#define AIE_SM_SITE		GENMASK_ULL(39, 24)
#define AIE_SM_SLACK		GENMASK_ULL(61, 40)

struct aie_sm_site {
	unsigned long call_site;
	unsigned long flags;		/* 0: tracked; else taken off the fast path */
	struct aie_sm_slot __percpu *slot;
	atomic64_t live_calls;		/* what did not go through a slot */
	atomic64_t live_bytes;
} __aligned(64);		/* as allocinfo_ext's: an index is a shift */

struct aie_sm_slot {
	struct aie_sm_site *site;
	s64 live_bytes;
	s64 live_calls;
	s64 live_slack;
	s64 total_calls;
	s64 total_bytes;
	s64 high;
} __aligned(64);

struct aie_sm_desc {
	unsigned long first;		/* the block's first address */
	unsigned int shift;		/* log2 of the granule */
	unsigned int nr;		/* granules */
	u64 *rec;			/* nr records */
};

struct aie_sm_stats {
	unsigned long untracked;	/* no descriptor or slot to be had */
	unsigned long unmatched;	/* free of an object not recorded */
	unsigned long replaced;		/* record in place: its free unseen */
	unsigned long new_high;
};

static struct aie_sm_site *aie_sm_sites;
static u16 *aie_sm_hash;		/* index + 1 of the site, or 0 */
static unsigned int aie_sm_nsites;
static struct aie_sm_slot __percpu *aie_sm_slots[AIE_SM_PARTS];
static DEFINE_PER_CPU(unsigned int, aie_sm_nest);
static DEFINE_PER_CPU(struct aie_sm_stats, aie_sm_stats);

static struct aie_sm_desc **aie_sm_pfn;
static unsigned long aie_sm_npfn;
static struct aie_sm_desc *aie_sm_descs;
static unsigned int aie_sm_ndescs;
static DEFINE_RAW_SPINLOCK(aie_sm_lock);

/* What allocinfo_ext's fast path tests too: see the top comment. */
static unsigned long aie_sm_sample_bytes;
static bool aie_sm_all_disabled;
static DEFINE_STATIC_KEY_FALSE(aie_sm_capture_key);

static struct dentry *aie_sm_dir;

/* AIE_SM_NO_SITE: every allocation's site, made at load. */
static struct aie_sm_site *aie_sm_fixed;

#define aie_sm_count(field)	this_cpu_inc(aie_sm_stats.field)

static struct aie_sm_slot __percpu *aie_sm_slot_of(unsigned int idx)
{
	idx %= AIE_SM_SLOTS;
	return aie_sm_slots[idx / AIE_SM_PART] + idx % AIE_SM_PART;
}

static __always_inline u32 aie_sm_home(unsigned long call_site)
{
	return hash_long(call_site, AIE_SM_HASH_BITS);
}

/* The site of @call_site, made if new; NULL when the table is full. */
static noinline struct aie_sm_site *aie_sm_site_get(unsigned long call_site)
{
	struct aie_sm_site *site = NULL;
	unsigned long flags;
	u32 b, i;

	raw_spin_lock_irqsave(&aie_sm_lock, flags);
	for (i = 0; i < BIT(AIE_SM_HASH_BITS); i++) {
		b = (aie_sm_home(call_site) + i) & (BIT(AIE_SM_HASH_BITS) - 1);
		if (aie_sm_hash[b]) {
			site = &aie_sm_sites[aie_sm_hash[b] - 1];
			if (site->call_site == call_site)
				break;
			site = NULL;
			continue;
		}
		if (aie_sm_nsites == AIE_SM_SITES)
			break;
		site = &aie_sm_sites[aie_sm_nsites];
		site->call_site = call_site;
		site->slot = aie_sm_slot_of(aie_sm_nsites);
		/* Pairs with the smp_load_acquire() in aie_sm_site_find(). */
		smp_store_release(&aie_sm_hash[b], ++aie_sm_nsites);
		break;
	}
	raw_spin_unlock_irqrestore(&aie_sm_lock, flags);
	return site;
}

static __always_inline struct aie_sm_site *aie_sm_site_find(unsigned long cs)
{
	struct aie_sm_site *site;
	u16 b;

	/* Pairs with the smp_store_release() in aie_sm_site_get(). */
	b = smp_load_acquire(&aie_sm_hash[aie_sm_home(cs)]);
	if (likely(b)) {
		site = &aie_sm_sites[b - 1];
		if (likely(site->call_site == cs))
			return site;
	}
	return aie_sm_site_get(cs);
}

/*
 * This CPU's slot for @site: taken when free, with interrupts off; a slot
 * held by another site leaves the event to the site's own counters.
 */
static noinline bool aie_sm_slot_miss(struct aie_sm_site *site, s64 bytes,
				      s64 calls)
{
	struct aie_sm_slot __percpu *s = site->slot;
	unsigned long flags;
	bool taken = false;

	local_irq_save(flags);
	if (!this_cpu_read(s->site) && this_cpu_read(aie_sm_nest) == 1) {
		this_cpu_write(s->site, site);
		taken = true;
	}
	local_irq_restore(flags);
	if (!taken) {
		atomic64_add(calls, &site->live_calls);
		atomic64_add(bytes, &site->live_bytes);
	}
	return taken;
}

static noinline void aie_sm_new_high(struct aie_sm_slot __percpu *s, s64 live)
{
	this_cpu_write(s->high, live);
	aie_sm_count(new_high);
}

/* As allocinfo_ext's aie_site_charge(), weight 1, nothing accounted. */
static __always_inline void aie_sm_charge(struct aie_sm_site *site,
					  u64 bytes, u64 slack)
{
	struct aie_sm_slot __percpu *s = site->slot;
	s64 live;

	if (AIE_SM_NO_COUNTERS)
		return;
	this_cpu_inc(aie_sm_nest);
	if (likely(this_cpu_read(s->site) == site) ||
	    aie_sm_slot_miss(site, bytes, 1)) {
		live = this_cpu_add_return(s->live_bytes, bytes);
		this_cpu_add(s->live_calls, 1);
		this_cpu_add(s->live_slack, slack);
		this_cpu_add(s->total_calls, 1);
		this_cpu_add(s->total_bytes, bytes);
		if (unlikely(live > this_cpu_read(s->high)))
			aie_sm_new_high(s, live);
	}
	this_cpu_dec(aie_sm_nest);
}

static __always_inline void aie_sm_uncharge(u64 rec)
{
	struct aie_sm_site *site = &aie_sm_sites[FIELD_GET(AIE_SM_SITE, rec)];
	struct aie_sm_slot __percpu *s = site->slot;
	u64 bytes = FIELD_GET(AIE_SM_SIZE, rec);

	if (AIE_SM_NO_COUNTERS)
		return;
	this_cpu_inc(aie_sm_nest);
	if (likely(this_cpu_read(s->site) == site) ||
	    aie_sm_slot_miss(site, -(s64)bytes, -1)) {
		this_cpu_sub(s->live_bytes, bytes);
		this_cpu_sub(s->live_calls, 1);
		this_cpu_sub(s->live_slack, FIELD_GET(AIE_SM_SLACK, rec));
	}
	this_cpu_dec(aie_sm_nest);
}

static noinline void aie_sm_replaced(u64 old)
{
	aie_sm_uncharge(old);
	aie_sm_count(replaced);
}

/*
 * A descriptor for the block of pages holding @ptr, whose slab's stride is
 * @bytes, set in aie_sm_pfn[] for each of its pages; NULL when the pool is
 * spent or the block has too many granules.
 */
static noinline struct aie_sm_desc *aie_sm_desc_make(const void *ptr,
						     size_t bytes)
{
	struct page *head = virt_to_head_page(ptr);
	unsigned int order = compound_order(head), shift = ilog2(bytes);
	unsigned long pfn = page_to_pfn(head), flags, i;
	struct aie_sm_desc *d = NULL;

	if (pfn + (1UL << order) > aie_sm_npfn ||
	    (PAGE_SIZE << order) >> shift > AIE_SM_RECORDS)
		return NULL;
	raw_spin_lock_irqsave(&aie_sm_lock, flags);
	if (aie_sm_ndescs < descs) {
		d = &aie_sm_descs[aie_sm_ndescs++];
		d->first = (unsigned long)page_address(head);
		d->shift = shift;
		d->nr = (PAGE_SIZE << order) >> shift;
		memset(d->rec, 0, d->nr * sizeof(*d->rec));
		for (i = 0; i < (1UL << order); i++) {
			/* The descriptor, then its pointer: aie_sm_desc_of(). */
			smp_store_release(&aie_sm_pfn[pfn + i], d);
		}
	}
	raw_spin_unlock_irqrestore(&aie_sm_lock, flags);
	return d;
}

/* The descriptor of the block holding @ptr, or NULL. */
static __always_inline struct aie_sm_desc *aie_sm_desc_of(const void *ptr)
{
	unsigned long pfn = ((unsigned long)ptr - PAGE_OFFSET) >> PAGE_SHIFT;

	if (unlikely(pfn >= aie_sm_npfn))
		return NULL;
	/* Pairs with the smp_store_release() in aie_sm_desc_make(). */
	return smp_load_acquire(&aie_sm_pfn[pfn]);
}

static void aie_sm_kmalloc(void *data, unsigned long call_site,
			   const void *ptr, size_t bytes_req,
			   size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	struct aie_sm_site *site;
	struct aie_sm_desc *d;
	unsigned long idx;
	u64 slack, rec, old;

	if (bytes_alloc < READ_ONCE(aie_sm_sample_bytes))
		return;		/* sampling: not in this prototype */
	if (unlikely(ZERO_OR_NULL_PTR(ptr)) ||
	    unlikely(READ_ONCE(aie_sm_all_disabled)))
		return;
	if (AIE_SM_NO_SITE)
		site = aie_sm_fixed;
	else
		site = aie_sm_site_find(call_site);
	if (unlikely(!site || READ_ONCE(site->flags)))
		goto untracked;
	d = aie_sm_desc_of(ptr);
	if (unlikely(!d || d->shift != ilog2(bytes_alloc))) {
		d = aie_sm_desc_make(ptr, bytes_alloc);
		if (!d)
			goto untracked;
	}
	idx = ((unsigned long)ptr - d->first) >> d->shift;
	if (unlikely(idx >= d->nr))
		goto untracked;
	slack = bytes_alloc - bytes_req;
	rec = FIELD_PREP(AIE_SM_SITE, site - aie_sm_sites) |
	      FIELD_PREP(AIE_SM_SIZE, bytes_alloc) |
	      FIELD_PREP(AIE_SM_SLACK, slack);
	old = d->rec[idx];
	WRITE_ONCE(d->rec[idx], rec);
	if (unlikely(old))
		aie_sm_replaced(old);
	aie_sm_charge(site, bytes_alloc, slack);
	if (static_branch_unlikely(&aie_sm_capture_key))
		pr_info_ratelimited("capture\n");
	return;
untracked:
	aie_sm_count(untracked);
}

static void aie_sm_kfree(void *data, unsigned long call_site,
			 const void *ptr)
{
	struct aie_sm_desc *d = aie_sm_desc_of(ptr);
	unsigned long idx;
	u64 rec;

	if (!d)
		goto unmatched;
	idx = ((unsigned long)ptr - d->first) >> d->shift;
	if (unlikely(idx >= d->nr))
		goto unmatched;
	rec = d->rec[idx];
	if (!rec)
		goto unmatched;
	WRITE_ONCE(d->rec[idx], 0);
	aie_sm_uncharge(rec);
	return;
unmatched:
	aie_sm_count(unmatched);
}

static int aie_sm_stats_show(struct seq_file *m, void *v)
{
	s64 live_calls = 0, live_bytes = 0, total_calls = 0;
	unsigned long unmatched = 0, untracked = 0, replaced = 0;
	unsigned int i, n = READ_ONCE(aie_sm_nsites);
	struct aie_sm_slot *s;
	int cpu;

	for_each_possible_cpu(cpu) {
		unmatched += per_cpu(aie_sm_stats, cpu).unmatched;
		untracked += per_cpu(aie_sm_stats, cpu).untracked;
		replaced += per_cpu(aie_sm_stats, cpu).replaced;
		for (i = 0; i < AIE_SM_SLOTS; i++) {
			s = per_cpu_ptr(aie_sm_slot_of(i), cpu);
			live_calls += READ_ONCE(s->live_calls);
			live_bytes += READ_ONCE(s->live_bytes);
			total_calls += READ_ONCE(s->total_calls);
		}
	}
	for (i = 0; i < n; i++) {
		live_calls += atomic64_read(&aie_sm_sites[i].live_calls);
		live_bytes += atomic64_read(&aie_sm_sites[i].live_bytes);
	}
	seq_printf(m, "sites %u\ndescriptors %u\nlive_calls %lld\nlive_bytes %lld\ntotal_calls %lld\nuntracked %lu\nunmatched %lu\nreplaced %lu\n",
		   n, READ_ONCE(aie_sm_ndescs), live_calls, live_bytes,
		   total_calls, untracked, unmatched, replaced);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(aie_sm_stats);

/* The highest page frame number of any node, plus one. */
static unsigned long aie_sm_pfn_end(void)
{
	unsigned long end = 0;
	int nid;

	for_each_online_node(nid)
		end = max(end, node_end_pfn(nid));
	return end;
}

static void aie_sm_free(void)
{
	unsigned int i;

	if (aie_sm_descs)
		for (i = 0; i < descs; i++)
			kfree(aie_sm_descs[i].rec);
	vfree(aie_sm_descs);
	vfree(aie_sm_pfn);
	for (i = 0; i < AIE_SM_PARTS; i++)
		free_percpu(aie_sm_slots[i]);
	vfree(aie_sm_hash);
	vfree(aie_sm_sites);
}

static int __init aie_sm_init(void)
{
	unsigned int i;
	int ret;

	aie_sm_npfn = aie_sm_pfn_end();
	aie_sm_sites = vzalloc(AIE_SM_SITES * sizeof(*aie_sm_sites));
	aie_sm_hash = vzalloc(BIT(AIE_SM_HASH_BITS) * sizeof(*aie_sm_hash));
	for (i = 0; i < AIE_SM_PARTS; i++)
		aie_sm_slots[i] = __alloc_percpu(AIE_SM_PART *
						 sizeof(struct aie_sm_slot),
						 __alignof__(struct aie_sm_slot));
	aie_sm_pfn = vzalloc(aie_sm_npfn * sizeof(*aie_sm_pfn));
	aie_sm_descs = vzalloc(descs * sizeof(*aie_sm_descs));
	ret = -ENOMEM;
	if (!aie_sm_sites || !aie_sm_hash || !aie_sm_pfn || !aie_sm_descs)
		goto err;
	for (i = 0; i < AIE_SM_PARTS; i++)
		if (!aie_sm_slots[i])
			goto err;
	for (i = 0; i < descs; i++) {
		aie_sm_descs[i].rec = kmalloc_array(AIE_SM_RECORDS, sizeof(u64),
						    GFP_KERNEL);
		if (!aie_sm_descs[i].rec)
			goto err;
	}
	aie_sm_fixed = aie_sm_site_get(0);
	ret = register_trace_kfree(aie_sm_kfree, NULL);
	if (ret)
		goto err;
	ret = register_trace_kmalloc(aie_sm_kmalloc, NULL);
	if (ret) {
		unregister_trace_kfree(aie_sm_kfree, NULL);
		tracepoint_synchronize_unregister();
		goto err;
	}
	aie_sm_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0400, aie_sm_dir, NULL,
			    &aie_sm_stats_fops);
	return 0;
err:
	aie_sm_free();
	pr_err("cannot load: %d\n", ret);
	return ret;
}

static void __exit aie_sm_exit(void)
{
	debugfs_remove_recursive(aie_sm_dir);
	unregister_trace_kmalloc(aie_sm_kmalloc, NULL);
	unregister_trace_kfree(aie_sm_kfree, NULL);
	tracepoint_synchronize_unregister();
	aie_sm_free();
}

module_init(aie_sm_init);
module_exit(aie_sm_exit);

MODULE_DESCRIPTION("allocinfo-ext benchmark: full tracking with records beside the slab pages (prototype)");
MODULE_LICENSE("GPL");
