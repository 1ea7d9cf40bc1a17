// SPDX-License-Identifier: GPL-2.0
/*
 * sites.c - the site table: one entry per allocation call site.
 *
 * Notes on locking
 * ----------------
 * The table is insert-only while the module is loaded, and takes no lock.
 *
 * - aie_sites[] is a pool preallocated at init. A hook claims the next free
 *   entry with an atomic increment, fills it in, then publishes it by a
 *   cmpxchg() of its index into an empty bucket of aie_site_hash[]
 *   (open addressing, linear probing). cmpxchg() orders the fill before the
 *   publication; lookups read buckets with smp_load_acquire().
 * - Two CPUs that first see the same call site at once both fill an entry;
 *   the one whose cmpxchg() loses finds the winner in the next bucket and
 *   uses it. The loser's entry is never published and never shown.
 * - Entries are never removed before the module unloads, so a site pointer
 *   stays valid for the module's lifetime without reference counts.
 * - Counters are atomic64_t: exact under concurrent updates from any number
 *   of CPUs, readable at any time.
 *
 * Every function here runs in any context (process, softirq, hardirq) with
 * preemption disabled or enabled, and never sleeps, except init and exit.
 */

#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/vmalloc.h>

#include "aie.h"

static struct aie_site *aie_sites;
static u32 *aie_site_hash;		/* site index + 1; 0 = empty */
static unsigned int aie_site_hash_bits;
static unsigned int aie_site_cap;
static atomic_t aie_site_claimed;	/* entries of aie_sites[] handed out */

int aie_sites_init(unsigned int capacity)
{
	unsigned long buckets = roundup_pow_of_two((unsigned long)capacity * 2);

	aie_site_cap = capacity;
	aie_site_hash_bits = ilog2(buckets);
	atomic_set(&aie_site_claimed, 0);

	aie_sites = vzalloc(array_size(capacity, sizeof(*aie_sites)));
	aie_site_hash = vzalloc(array_size(buckets, sizeof(*aie_site_hash)));
	if (!aie_sites || !aie_site_hash) {
		aie_sites_exit();
		return -ENOMEM;
	}
	return 0;
}

/* Process context, after every hook is unregistered and has finished. */
void aie_sites_exit(void)
{
	u32 i, n = aie_sites_nr();

	if (aie_sites) {
		for (i = 0; i < n; i++) {
			kfree(rcu_dereference_protected(aie_sites[i].location,
							true));
			kfree(aie_sites[i].name);
		}
	}
	vfree(aie_site_hash);
	vfree(aie_sites);
	aie_site_hash = NULL;
	aie_sites = NULL;
}

u32 aie_sites_nr(void)
{
	return min_t(u32, atomic_read(&aie_site_claimed), aie_site_cap);
}

u32 aie_sites_capacity(void)
{
	return aie_site_cap;
}

size_t aie_sites_memory(void)
{
	return (size_t)aie_site_cap * sizeof(*aie_sites) +
	       (sizeof(*aie_site_hash) << aie_site_hash_bits);
}

/* The published site at @idx, or NULL. */
struct aie_site *aie_site_at(u32 idx)
{
	struct aie_site *site;

	if (idx >= aie_sites_nr())
		return NULL;
	site = &aie_sites[idx];
	return test_bit(AIE_SITE_PUBLISHED, &site->flags) ? site : NULL;
}

u32 aie_site_index(const struct aie_site *site)
{
	return site - aie_sites;
}

/*
 * Walk the probe sequence of @call_site from its home bucket. Returns the
 * site when found; otherwise NULL with *@pos at the first empty bucket, or
 * at the table size when there is none.
 */
/* A retired site no longer answers for its address: see modules.c. */
static bool aie_site_is(const struct aie_site *site, unsigned long call_site,
			enum aie_type type)
{
	return site->call_site == call_site && site->type == type &&
	       !test_bit(AIE_SITE_UNLOADED, &site->flags);
}

static struct aie_site *aie_site_probe(unsigned long call_site,
				       enum aie_type type, u32 *pos)
{
	u32 mask = (1U << aie_site_hash_bits) - 1;
	u32 home = hash_long(call_site ^ type, aie_site_hash_bits);
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
		if (aie_site_is(other, site->call_site, site->type))
			return other;	/* another CPU published it first */
	}
	return NULL;	/* cannot happen: buckets outnumber entries 2:1 */
}

/* The published site of @type at @call_site, or NULL. */
struct aie_site *aie_site_lookup(unsigned long call_site, enum aie_type type)
{
	u32 pos;

	return aie_site_probe(call_site, type, &pos);
}

/*
 * The site of @type at @call_site, created on first sight; NULL when the
 * table is full. A new site is named once, to learn whether it lies inside
 * an allocator or a helper (callers.c), and takes its enabled state from
 * the rules in force. Preemption disabled.
 */
struct aie_site *aie_site_get(unsigned long call_site, enum aie_type type)
{
	struct aie_site *site;
	struct aie_sym *sym;
	u32 pos, idx;
	int class;

	site = aie_site_probe(call_site, type, &pos);
	if (likely(site))
		return site;

	idx = atomic_fetch_add_unless(&aie_site_claimed, 1, aie_site_cap);
	if (idx >= aie_site_cap)
		return NULL;

	site = &aie_sites[idx];
	site->call_site = call_site;
	site->type = type;
	sym = aie_sym_scratch();
	aie_sym_resolve(call_site, sym);
	class = aie_callers_classify(sym);
	if (class >= 0)
		set_bit(class, &site->flags);
	if (aie_rules_site_disabled(site, sym))
		set_bit(AIE_SITE_DISABLED, &site->flags);
	return aie_site_publish(site, pos);
}

static void aie_site_raise_peak(struct aie_site *site, s64 live)
{
	s64 peak = atomic64_read(&site->peak);

	while (live > peak) {
		if (atomic64_try_cmpxchg(&site->peak, &peak, live))
			break;
	}
}

/* Account one new live object of @bytes with @slack at @site. */
void aie_site_charge(struct aie_site *site, u64 bytes, u32 slack)
{
	s64 live = atomic64_add_return(bytes, &site->live_bytes);

	atomic64_inc(&site->live_calls);
	atomic64_add(slack, &site->live_slack);
	atomic64_inc(&site->total_calls);
	atomic64_add(bytes, &site->total_bytes);
	aie_site_raise_peak(site, live);
}

/* Account the free of one object charged earlier by aie_site_charge(). */
void aie_site_uncharge(struct aie_site *site, u64 bytes, u32 slack)
{
	atomic64_sub(bytes, &site->live_bytes);
	atomic64_dec(&site->live_calls);
	atomic64_sub(slack, &site->live_slack);
}

/*
 * Retire the sites of @mod, which is going: name each from kallsyms while
 * it still can, then mark it unloaded. Its bucket keeps pointing at it, so
 * probes walk past it; a lookup of its address no longer matches it and a
 * new site takes the address. Sums what the module left live into @r.
 * Process context, holding the rules mutex against control writes.
 */
void aie_sites_retire(struct module *mod, struct aie_retired *r)
{
	u32 i, n = aie_sites_nr();
	struct aie_site *site;
	struct aie_sym *sym;

	sym = kmalloc(sizeof(*sym), GFP_KERNEL);
	if (!sym)
		return;
	aie_rules_lock();
	for (i = 0; i < n; i++) {
		site = aie_site_at(i);
		if (!site || test_bit(AIE_SITE_UNLOADED, &site->flags) ||
		    !within_module(site->call_site, mod))
			continue;
		aie_sym_resolve(site->call_site, sym);
		site->name = aie_site_name_copy(sym);
		if (!site->name)
			continue;	/* stays as it was: named while it can */
		/* Pairs with the smp_rmb() in aie_site_name(). */
		smp_wmb();
		set_bit(AIE_SITE_UNLOADED, &site->flags);
		r->sites++;
		r->live_calls += atomic64_read(&site->live_calls);
		r->live_bytes += atomic64_read(&site->live_bytes);
	}
	aie_rules_unlock();
	kfree(sym);
}

/*
 * "reset": zero the cumulative counters; the peak restarts at the live
 * figure. Process context; races with hooks only blur the reset instant.
 */
void aie_sites_reset(void)
{
	u32 i, n = aie_sites_nr();
	struct aie_site *site;

	for (i = 0; i < n; i++) {
		site = aie_site_at(i);
		if (!site)
			continue;
		atomic64_set(&site->total_calls, 0);
		atomic64_set(&site->total_bytes, 0);
		atomic64_set(&site->failed, 0);
		atomic64_set(&site->peak, atomic64_read(&site->live_bytes));
	}
}
