// SPDX-License-Identifier: GPL-2.0
/*
 * sites.c - the site table: one entry per allocation call site, found by
 * call site and type in a lock-free hash, with two site caches in front
 * of it for the hooks' fast paths (sites.h).
 *
 * Notes on locking
 * ----------------
 * The table is insert-only while the module is loaded, and takes no lock.
 *
 * - aie_sites[] is a pool preallocated at init. A hook claims the next free
 *   entry with a cmpxchg() of aie_site_claimed (aie_site_claim()), fills
 *   it in, then publishes it by a cmpxchg() of its index into an empty
 *   bucket of aie_site_hash[] (open addressing, linear probing). cmpxchg()
 *   orders the fill before the publication; lookups read buckets with
 *   smp_load_acquire().
 * - Two CPUs that first see the same call site at once both fill an entry;
 *   the one whose cmpxchg() loses finds the winner in the next bucket and
 *   uses it. The loser's entry is never published and never shown: it is
 *   marked AIE_SITE_VOID, so that the ioctls' walks, which end at the
 *   first entry neither published nor void (aie_site_settled(), sites.h),
 *   go on past it.
 * - Entries are never removed before the module unloads, so a site pointer
 *   stays valid for the module's lifetime without reference counts.
 * - The counters hooks update on every allocation and free are in a
 *   per-CPU cache of slots in front of each site's own counters
 *   (counters.c, which has their notes), so no cache line is written by
 *   every CPU.
 * - The sites' own counters are made in chunks of AIE_SITE_CHUNK sites
 *   (aie_site_chunks[]), a little ahead of the sites claimed, not for the
 *   whole table at load. A hook cannot allocate them: a claim that leaves
 *   fewer than half of aie_sites_ahead() ready queues an irq_work, whose
 *   handler queues aie_sites_grow() on a workqueue (irq_work, because the
 *   hook may run under locks that queue_work() takes). An entry is claimed
 *   only below aie_site_ready, which the work raises with
 *   smp_store_release() once the chunk's pointer is stored; a claimer reads
 *   it with smp_load_acquire() before it publishes the site, so whoever
 *   finds the site, or an object charged to it, finds its chunk. The
 *   claimer keeps the offset of the site's slot in a CPU's slots in its
 *   entry (site->slot), where the hooks read it: they have the entry in
 *   hand already. A burst of new sites faster than the work is not tracked at
 *   the sites past the ready ones (counted as sites_waiting) until the
 *   work runs.
 * - The peak and the failure count are atomic64_t in struct aie_site:
 *   failures are rare, and the peak is raised from sums of the site's
 *   counters, not at each charge (aie_site_peak(), counters.c).
 * - The site caches take no lock either: an entry is read and written
 *   whole, filled only when empty and emptied with cmpxchg() (sites.h).
 *
 * Lookups, claims and cache fills run in any context, NMI included (the
 * hooks, preemption disabled; those of kmalloc_nolock() and
 * alloc_pages_nolock() run in an NMI), and never sleep; so do the other
 * functions here but where they say otherwise: init, exit,
 * aie_sites_grow() and the retiring of sites run in process context.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "aie.h"
#include "arch/arch.h"
#include "callers.h"
#include "rowset.h"
#include "rules.h"
#include "sites.h"
#include "stats.h"
#include "symbols.h"

struct aie_site_ctr *aie_site_chunks[AIE_SITE_CHUNKS];
static u32 aie_site_ready;		/* entries whose chunk is published */
static u32 aie_site_ahead;		/* sites_ahead: see aie_sites_ahead() */
static aie_slot_of_fn aie_site_slot_of;	/* counters.c's aie_ctr_slot_of() */

struct aie_site *aie_sites;
u32 *aie_site_hash;			/* site index + 1; 0 = empty */
unsigned int aie_site_hash_bits;
unsigned int aie_site_hash_shift;
unsigned int aie_site_cap;
atomic_t aie_site_claimed;		/* entries of aie_sites[] handed out */
u64 aie_site_cache_slab[BIT(AIE_SITE_CACHE_SLAB_BITS)];
u64 aie_site_cache_page[BIT(AIE_SITE_CACHE_PAGE_BITS)];

/*
 * Count the sites to have counters ready for beyond @claimed: the
 * sites_ahead parameter, or a quarter as many again when that is more.
 */
static u32 aie_sites_ahead(u32 claimed)
{
	return max(aie_site_ahead, claimed / 4);
}

/*
 * Count the sites that should have counters once @claimed are claimed: in
 * whole chunks, at most the table.
 */
static u32 aie_sites_wanted(u32 claimed)
{
	return min_t(u32, round_up(claimed + aie_sites_ahead(claimed),
				   AIE_SITE_CHUNK), aie_site_cap);
}

/*
 * Make chunks of counters until the claimed sites have as many ready as
 * they want. Process context: the workqueue (never two at once), and init
 * before any hook. The only writer of aie_site_ready and the chunks.
 */
static void aie_sites_grow(struct work_struct *work)
{
	u32 ready = aie_site_ready, n;
	struct aie_site_ctr *c;

	while (ready < aie_sites_wanted(atomic_read(&aie_site_claimed))) {
		n = min_t(u32, AIE_SITE_CHUNK, aie_site_cap - ready);
		c = kvcalloc(n, sizeof(*c), GFP_KERNEL);
		if (!c) {
			pr_warn_once("no memory for the counters of sites past %u\n",
				     ready);
			return;
		}
		aie_site_chunks[ready / AIE_SITE_CHUNK] = c;
		ready += n;
		/* The chunk, then the entries it lets be claimed. */
		smp_store_release(&aie_site_ready, ready);
	}
}

static DECLARE_WORK(aie_sites_grow_work, aie_sites_grow);

/*
 * Queue aie_sites_grow(). Hardirq context, with no lock of the hook's
 * held. High priority, on this CPU, as slabrecs.c's work: it races the
 * task that is claiming sites.
 */
static void aie_sites_grow_irq(struct irq_work *work)
{
	queue_work(system_highpri_wq, &aie_sites_grow_work);
}

static DEFINE_IRQ_WORK(aie_sites_grow_iw, aie_sites_grow_irq);

/*
 * Ask for more counters once fewer than half the sites ahead are left.
 * Any context, NMI included: irq_work_queue() does nothing while it is
 * pending.
 */
static void aie_sites_grow_kick(u32 claimed, u32 ready)
{
	if (ready < aie_site_cap &&
	    ready < claimed + aie_sites_ahead(claimed) / 2)
		irq_work_queue(&aie_sites_grow_iw);
}

/* Show the site table's lines of the stats file. */
static void aie_sites_stats_show(struct seq_file *m)
{
	seq_printf(m, "sites %u\n", aie_sites_nr());
	seq_printf(m, "site_capacity %u\n", aie_sites_capacity());
	seq_printf(m, "sites_ready %u\n", aie_sites_ready());
}

/**
 * aie_sites_init() - Make the site table.
 * @capacity: the sites it holds (max_sites).
 * @ahead: sites to have counters made for ahead of need (sites_ahead).
 * @slot_of: gives a new site its counter slot (aie_ctr_slot_of()).
 *
 * Context: Process context, before any hook; may sleep.
 * Return: 0, or -ENOMEM.
 */
int aie_sites_init(unsigned int capacity, unsigned int ahead,
		   aie_slot_of_fn slot_of)
{
	unsigned long buckets = roundup_pow_of_two((unsigned long)capacity * 2);

	aie_stats_part_set(AIE_STATS_SITES, aie_sites_stats_show,
			   aie_sites_memory);
	aie_site_cap = capacity;
	aie_site_ahead = ahead;
	aie_site_hash_bits = ilog2(buckets);
	aie_site_hash_shift = 64 - aie_site_hash_bits;
	atomic_set(&aie_site_claimed, 0);
	aie_site_ready = 0;
	aie_site_slot_of = slot_of;

	aie_sites = vzalloc(array_size(capacity, sizeof(*aie_sites)));
	aie_site_hash = vzalloc(array_size(buckets, sizeof(*aie_site_hash)));
	if (!aie_sites || !aie_site_hash)
		goto nomem;
	aie_sites_grow(NULL);
	if (aie_site_ready < aie_sites_wanted(0))
		goto nomem;
	return 0;
nomem:
	aie_sites_exit();
	return -ENOMEM;
}

/**
 * aie_sites_exit() - Free the site table, its names and its counters.
 *
 * Context: Process context, after every hook is unregistered and has
 * finished; may sleep.
 */
void aie_sites_exit(void)
{
	u32 i, n = aie_sites_nr();

	/* A kick's irq_work may queue the work: the irq_work first. */
	irq_work_sync(&aie_sites_grow_iw);
	cancel_work_sync(&aie_sites_grow_work);
	for (i = 0; i < DIV_ROUND_UP(aie_site_ready, AIE_SITE_CHUNK); i++) {
		kvfree(aie_site_chunks[i]);
		aie_site_chunks[i] = NULL;
	}
	aie_site_ready = 0;
	if (aie_sites) {
		/* Two frees a site, 65,536 sites: a reschedule point each */
		for (i = 0; i < n; i++) {
			kfree(rcu_dereference_protected(aie_sites[i].location,
							true));
			kfree(aie_sites[i].name);
			cond_resched();
		}
	}
	vfree(aie_site_hash);
	vfree(aie_sites);
	aie_site_hash = NULL;
	aie_sites = NULL;
}

/**
 * aie_sites_capacity() - Tell the sites the table holds.
 * Return: the table's capacity, max_sites.
 */
u32 aie_sites_capacity(void)
{
	return aie_site_cap;
}

/**
 * aie_sites_ready() - Count the sites whose counters are made.
 * Return: the entries that may be claimed.
 */
u32 aie_sites_ready(void)
{
	return READ_ONCE(aie_site_ready);
}

/**
 * aie_sites_ctrs_memory() - Tell the memory of the sites' own counters.
 * Return: bytes, for the sites that have them.
 */
size_t aie_sites_ctrs_memory(void)
{
	return (size_t)aie_sites_ready() * sizeof(struct aie_site_ctr);
}

/**
 * aie_site_caches_memory() - Tell the site caches' memory.
 * Return: bytes, whatever the table's capacity.
 */
size_t aie_site_caches_memory(void)
{
	return sizeof(aie_site_cache_slab) + sizeof(aie_site_cache_page);
}

/**
 * aie_sites_memory() - Tell the table's memory.
 * Return: bytes: entries, hash buckets, the site caches and the sites'
 * own counters made.
 */
size_t aie_sites_memory(void)
{
	return (size_t)aie_site_cap * sizeof(*aie_sites) +
	       (sizeof(*aie_site_hash) << aie_site_hash_bits) +
	       aie_site_caches_memory() + aie_sites_ctrs_memory();
}

/**
 * aie_site_cache_fill() - Put a site in a site cache.
 * @cache: aie_site_cache_slab or aie_site_cache_page, of @site's type.
 * @bits: the log2 of @cache's entries.
 * @site: a site a hook found.
 *
 * Put @site in the first empty way of its call site's group (in
 * aie_site_cache_find()'s order), unless one holds its call site already
 * (its site, or a retired one's: see sites.h). The first sites to come
 * keep their entries, so that busy sites that share a group do not take
 * entries from each other on every call, and a site takes one way at
 * most. A site whose call site is no kernel text address cannot be told
 * by its low half, and stays out.
 *
 * Context: Any context, NMI included; no lock: two hooks that fill one
 * entry at once each leave a whole entry of a site of the cache's type,
 * and the last stays.
 */
void aie_site_cache_fill(u64 *cache, unsigned int bits,
			 const struct aie_site *site)
{
	u32 key = aie_arch_key32(site->call_site);
	u32 i = aie_site_cache_index(key, bits);
	u64 *empty = NULL, e;
	unsigned int w;

	if (!aie_arch_text_ok(site->call_site))
		return;
	for (w = 0; w < AIE_SITE_CACHE_WAYS; w++) {
		e = READ_ONCE(cache[i ^ w]);
		if (aie_site_cache_is(e, key))
			return;
		if (!e && !empty)
			empty = &cache[i ^ w];
	}
	if (empty)
		WRITE_ONCE(*empty, (u64)aie_site_index(site) << 32 | key);
}

/* Empty @cache's entries of retired sites. Process context. */
static void aie_site_cache_retire(u64 *cache, unsigned int n)
{
	unsigned int i;
	u64 e;

	for (i = 0; i < n; i++) {
		e = READ_ONCE(cache[i]);
		if (e && test_bit(AIE_SITE_UNLOADED,
				  &aie_sites[aie_site_cache_idx(e)].flags))
			cmpxchg(&cache[i], e, 0);
	}
}

/**
 * aie_site_missed() - Count why an event found no site.
 *
 * A site refused while counters were being made is "waiting"
 * (sites_waiting); once the table is whole, "full" (sites_full).
 *
 * Context: Any context, NMI included.
 */
void aie_site_missed(void)
{
	if (aie_sites_ready() < aie_site_cap)
		aie_count(sites_waiting);
	else
		aie_count(sites_full);
}

/*
 * Tell whether @site is the one of @type at @call_site. A retired site no
 * longer answers for its address (extras/modules.c).
 */
static bool aie_site_is(const struct aie_site *site, unsigned long call_site,
			enum aie_type type)
{
	return site->call_site == call_site && site->type == type &&
	       !test_bit(AIE_SITE_UNLOADED, &site->flags);
}

/*
 * Walk the probe sequence of @call_site from its home bucket. Return the
 * site when found; otherwise NULL with *@pos at the first empty bucket, or
 * at the table size when there is none.
 */
static struct aie_site *aie_site_probe(unsigned long call_site,
				       enum aie_type type, u32 *pos)
{
	u32 mask = (1U << aie_site_hash_bits) - 1;
	u32 home = aie_site_home(call_site, type);
	u32 i, b;

	for (i = 0; i <= mask; i++) {
		/* Pairs with the cmpxchg() that published the site. */
		b = smp_load_acquire(&aie_site_hash[(home + i) & mask]);
		if (!b) {
			*pos = (home + i) & mask;
			return NULL;
		}
		if (aie_site_is(&aie_sites[b - 1], call_site, type))
			return &aie_sites[b - 1];
	}
	*pos = mask + 1;
	return NULL;
}

/*
 * Publish @site, filled in, with a cmpxchg() into the first empty bucket
 * from @pos on, which orders the fill before it. Return @site, or the
 * site of its call site that another CPU published first, @site then
 * marked void; NULL when no bucket is left (cannot happen).
 */
static struct aie_site *aie_site_publish(struct aie_site *site, u32 pos)
{
	u32 mask = (1U << aie_site_hash_bits) - 1;
	u32 idx = aie_site_index(site) + 1;
	struct aie_site *other;
	u32 b;

	for (; pos <= mask * 2; pos++) {
		b = cmpxchg(&aie_site_hash[pos & mask], 0, idx);
		if (!b) {
			set_bit(AIE_SITE_PUBLISHED, &site->flags);
			return site;
		}
		other = &aie_sites[b - 1];
		if (aie_site_is(other, site->call_site, site->type)) {
			/* Another CPU published it first: ours is no row. */
			set_bit(AIE_SITE_VOID, &site->flags);
			return other;
		}
	}
	set_bit(AIE_SITE_VOID, &site->flags);
	return NULL;	/* cannot happen: buckets outnumber entries 2:1 */
}

/*
 * Claim the next free entry of aie_sites[]: return its index, or -ENOSPC
 * when the entries with counters are all claimed (the table full, or a
 * chunk not made yet). Any context, NMI included.
 */
static int aie_site_claim(void)
{
	int idx = atomic_read(&aie_site_claimed);
	u32 ready;

	do {
		/* Pairs with the smp_store_release() in aie_sites_grow(). */
		ready = smp_load_acquire(&aie_site_ready);
		if (idx >= ready) {
			aie_sites_grow_kick(idx, ready);
			return -ENOSPC;
		}
	} while (!atomic_try_cmpxchg(&aie_site_claimed, &idx, idx + 1));
	aie_sites_grow_kick(idx + 1, ready);
	return idx;
}

/**
 * aie_site_get() - Find the site of a call site, or make it.
 * @call_site: the allocation's return address.
 * @type: the allocator's type.
 *
 * A new site is named once, to learn whether it lies inside an allocator
 * or a helper (callers.c), and takes its enabled state from the rules in
 * force.
 *
 * Context: Any context, NMI included; preemption disabled (the name is
 * made in aie_sym_scratch()'s per-CPU buffer).
 * Return: the site, or NULL when no entry can be claimed
 * (aie_site_claim()).
 */
struct aie_site *aie_site_get(unsigned long call_site, enum aie_type type)
{
	struct aie_site *site;
	struct aie_sym *sym;
	int class, idx;
	u32 pos;

	site = aie_site_probe(call_site, type, &pos);
	if (likely(site))
		return site;

	idx = aie_site_claim();
	if (idx < 0)
		return NULL;

	site = &aie_sites[idx];
	site->call_site = call_site;
	site->type = type;
	site->slot = aie_site_slot_of(idx);
	sym = aie_sym_scratch();
	aie_sym_resolve(call_site, sym);
	class = aie_callers_classify(sym, type);
	if (class >= 0)
		set_bit(class, &site->flags);
	if (aie_rules_site_disabled(site, sym))
		set_bit(AIE_SITE_DISABLED, &site->flags);
	return aie_site_publish(site, pos);
}

/**
 * aie_site_pair_make() - Make an entry for a (site, memory cgroup) pair.
 * @parent: the site.
 * @nr: the pair's number (extras/cgsites.c).
 *
 * The entry has @parent's call site and type, a slot and counters of its
 * own, and AIE_SITE_CGROUP; it is in no hash bucket, so that no lookup of
 * the call site finds it. Not published yet: aie_site_pair_settle() does
 * it.
 *
 * Context: Any context but NMI; preemption disabled.
 * Return: the entry, or NULL when none can be claimed (aie_site_claim()).
 */
struct aie_site *aie_site_pair_make(const struct aie_site *parent, u16 nr)
{
	struct aie_site *site;
	int idx = aie_site_claim();

	if (idx < 0)
		return NULL;
	site = &aie_sites[idx];
	site->call_site = parent->call_site;
	site->type = parent->type;
	site->frame = nr;
	site->slot = aie_site_slot_of(idx);
	site->flags = BIT(AIE_SITE_CGROUP);
	return site;
}

/**
 * aie_site_pair_settle() - Publish a pair entry, or mark it void.
 * @site: the entry, made by aie_site_pair_make().
 * @won: false when its maker lost the race to another CPU's: mark it void.
 *
 * The fill comes before the bit, which readers test with acquire.
 *
 * Context: Any context but NMI; preemption disabled.
 */
void aie_site_pair_settle(struct aie_site *site, bool won)
{
	/* The fill before the bit: pairs with aie_site_at()'s acquire */
	smp_mb__before_atomic();
	set_bit(won ? AIE_SITE_PUBLISHED : AIE_SITE_VOID, &site->flags);
}

/**
 * aie_site_charged() - Give a helper's or wrapper's site a row of its own.
 * @site: a helper's or a page allocator wrapper's site, charged for an
 *        event of its own (its caller not found).
 *
 * From now on @site has a row (iface/rows.c), which may come before
 * others, so change the content id (rowset.c). Called while the site is
 * not marked yet, so once or a few times at most.
 *
 * Context: Any context: a hook's slow path, NMI included (a nolock
 * allocation's wrapper); atomic operations only.
 */
void aie_site_charged(struct aie_site *site)
{
	aie_rowset_begin();
	set_bit(AIE_SITE_CHARGED, &site->flags);
	aie_rowset_end();
}

/**
 * aie_site_retire() - Retire a site whose code is going.
 * @site: the site.
 * @sym: scratch space for its name.
 *
 * Name @site from kallsyms while it still can, then mark it unloaded. Its
 * bucket keeps pointing at it, so probes walk past it; a lookup of its
 * address no longer matches it and a new site takes the address.
 *
 * Context: Process context (extras/modules.c), holding the rules mutex
 * against control writes; may sleep.
 * Return: true; false when it cannot be named (no memory): it stays as it
 * was.
 */
bool aie_site_retire(struct aie_site *site, struct aie_sym *sym)
{
	struct aie_site_name *name;

	if (!READ_ONCE(site->name)) {
		aie_sym_resolve(site->call_site, sym);
		name = aie_site_name_copy(sym);
		if (!name)
			return false;
		/* A reader may have cached the same name meanwhile. */
		if (cmpxchg(&site->name, NULL, name))
			kfree(name);
	}
	/* Pairs with the smp_rmb() in aie_site_name(). */
	smp_wmb();
	set_bit(AIE_SITE_UNLOADED, &site->flags);
	return true;
}

/**
 * aie_site_caches_retire() - Empty the site caches' entries of retired sites.
 *
 * Call it after aie_site_retire().
 *
 * Context: Process context (extras/modules.c), holding the rules mutex.
 */
void aie_site_caches_retire(void)
{
	aie_site_cache_retire(aie_site_cache_slab,
			      ARRAY_SIZE(aie_site_cache_slab));
	aie_site_cache_retire(aie_site_cache_page,
			      ARRAY_SIZE(aie_site_cache_page));
}
