/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sites.h - the site table (sites.c): one entry per allocation call site,
 * found by a lock-free hash and, on the hooks' fast paths, by two site
 * caches in front of it. The lookups are inline here.
 */
#ifndef _AIE_SITES_H
#define _AIE_SITES_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/module.h>
#include <linux/kernel.h>

#include "aie.h"
#include "arch/arch.h"
#include "compat.h"

struct aie_sym;

/*
 * A site's own counters (counters.c): what the CPUs' slots held for it
 * when they were given to other sites, and what hooks that found their
 * CPU's slot busy added. Any CPU adds to them, atomically; rarely.
 */
struct aie_site_ctr {
	atomic64_t live_bytes;
	atomic64_t live_calls;
	atomic64_t live_slack;
	atomic64_t total_calls;
	atomic64_t total_bytes;
	atomic64_t live_accounted;	/* memcg.c: accounted bytes */
	/* Bytes charged here since the site's last peak sum, net (counters.c) */
	atomic64_t unsummed;
};

/*
 * The sites' own counters come in chunks of AIE_SITE_CHUNK sites, each
 * made as the sites before it fill.
 */
#define AIE_SITE_CHUNK		256
#define AIE_SITE_CHUNKS		(AIE_MAX_SITES / AIE_SITE_CHUNK)

/* Where a new site's counter slot is, in every CPU's slots (counters.c). */
typedef u32 (*aie_slot_of_fn)(u32 idx);

extern struct aie_site *aie_sites;
extern u32 *aie_site_hash;
extern unsigned int aie_site_hash_bits;
extern unsigned int aie_site_hash_shift;	/* 64 - aie_site_hash_bits */
extern unsigned int aie_site_cap;
extern atomic_t aie_site_claimed;
extern struct aie_site_ctr *aie_site_chunks[AIE_SITE_CHUNKS];

int aie_sites_init(unsigned int capacity, unsigned int ahead,
		   aie_slot_of_fn slot_of);
void aie_sites_exit(void);
struct aie_site *aie_site_get(unsigned long call_site, enum aie_type type);
u32 aie_sites_capacity(void);
u32 aie_sites_ready(void);
size_t aie_sites_memory(void);
size_t aie_sites_ctrs_memory(void);
size_t aie_site_caches_memory(void);
void aie_site_missed(void);
void aie_site_charged(struct aie_site *site);
bool aie_site_retire(struct aie_site *site, struct aie_sym *sym);
void aie_site_caches_retire(void);
struct aie_site *aie_site_pair_make(const struct aie_site *parent, u16 nr);
void aie_site_pair_settle(struct aie_site *site, bool won);

/**
 * aie_sites_nr() - Count the sites in the table, published or about to be.
 *
 * Context: Any context.
 * Return: the entries claimed, at most the table's capacity.
 */
static inline u32 aie_sites_nr(void)
{
	return min_t(u32, atomic_read(&aie_site_claimed), aie_site_cap);
}

/**
 * aie_site_at() - Find the published site at an index.
 * @idx: the site's index in aie_sites[].
 *
 * Context: Any context.
 * Return: the site, or NULL when it is not published (or past the table).
 */
static inline struct aie_site *aie_site_at(u32 idx)
{
	struct aie_site *site;

	if (idx >= aie_sites_nr())
		return NULL;
	site = &aie_sites[idx];
	/*
	 * Acquire: the site's fields, set before the cmpxchg() that put it in
	 * the hash, are read after the bit set behind it (sites.c).
	 */
	return test_bit_acquire(AIE_SITE_PUBLISHED, &site->flags) ? site : NULL;
}

/**
 * aie_site_settled() - Tell whether an entry is settled.
 * @idx: the entry's index, below aie_sites_nr().
 *
 * An entry is settled once published, or void (its maker lost the race to
 * another CPU's entry for the same site). One that is neither is being
 * made by a hook, which has preemption disabled: the ioctls' walks end
 * before it (iface/ioctl.c), so that the row it gets comes after every
 * row they have shown.
 *
 * Context: Any context.
 * Return: true when the entry is published or void.
 */
static inline bool aie_site_settled(u32 idx)
{
	/* Pairs with the cmpxchg() before the bit is set (sites.c). */
	unsigned long flags = smp_load_acquire(&aie_sites[idx].flags);

	return flags & (BIT(AIE_SITE_PUBLISHED) | BIT(AIE_SITE_VOID));
}

/**
 * aie_site_index() - Find a site's index in the table.
 * @site: an entry of aie_sites[].
 *
 * Return: its index.
 */
static inline u32 aie_site_index(const struct aie_site *site)
{
	return site - aie_sites;
}

/**
 * aie_site_home() - Find the home bucket of a call site.
 * @call_site: the call site.
 * @type: its allocator's type.
 *
 * hash_long() alone, a multiplication whose top bits are kept, puts call
 * sites at a regular stride (alike functions laid out one after the
 * other) in few buckets for some strides: at 96 bytes, 352 of 1000 sites
 * found their home taken by another (the bench's sites-1000 on
 * allocprof). A shift and an xor first spread them about as random keys
 * would.
 *
 * Return: the bucket's index in aie_site_hash[].
 */
static inline unsigned long aie_site_home(unsigned long call_site,
					  enum aie_type type)
{
	unsigned long key = call_site ^ type;

	/* hash_long(), its shift count kept ready: one load, no extension */
	return (key ^ (key >> 7)) * GOLDEN_RATIO_64 >> aie_site_hash_shift;
}

/**
 * aie_site_at_home() - Look for a site in its home bucket.
 * @call_site: the call site.
 * @type: its allocator's type.
 * @unless: site flags the site must not have (AIE_SITE_UNLOADED among
 *          them).
 * @sitep: set to the site when found.
 *
 * A truth value of its own, so that a caller that needs the site and the
 * answer tests no pointer for NULL.
 *
 * Context: Any context, NMI included; no lock.
 * Return: true when the home bucket holds the site, without the flags
 * @unless.
 */
static inline bool aie_site_at_home(unsigned long call_site,
				    enum aie_type type,
				    unsigned long unless,
				    struct aie_site **sitep)
{
	/* Pairs with the cmpxchg() that published the site (sites.c). */
	u32 b = smp_load_acquire(&aie_site_hash[aie_site_home(call_site,
							      type)]);
	struct aie_site *site;

	if (unlikely(!b))
		return false;
	site = &aie_sites[b - 1];
	if (unlikely(site->call_site != call_site || site->type != type ||
		     (READ_ONCE(site->flags) & unless)))
		return false;
	*sitep = site;
	return true;
}

/*
 * The site caches (sites.c), in front of the site hash on the hooks' fast
 * paths, one for slab sites and one for page sites. An entry is a site's
 * index in its high half and its call site's key (aie_arch_key32(): 32
 * bits, never 0) in its low half, read and written whole; 0 is empty.
 * Kernel text lies in a window where those 32 bits tell its call sites
 * apart (arch/arch.h), and a cache holds sites of its type only: an entry
 * whose low half is the call site's key holds its site, with no
 * comparison of the site's call site or type. Both caches have four
 * ways: a call site's own entry, which its hash picks, and the other
 * three of its aligned group of four, looked at in the order of its own
 * entry's index xored with 1, 2 and 3.
 * A hook finds a site in its own entry with no more work than a
 * direct-mapped cache would do, and a site whose own entry another
 * holds costs a load and a comparison a way, not a look in the site
 * table. Entries are filled by the hooks' out-of-line paths, into empty
 * ones only, and emptied when their sites retire
 * (aie_site_caches_retire()).
 * One filled by a hook that found its site as it retired stays until the
 * next module's unload empties it: its call site's lookups find it and
 * take the slow path, which the site's AIE_SITE_UNLOADED sends them to,
 * and which finds the new site but does not cache it meanwhile.
 */
#define AIE_SITE_CACHE_SLAB_BITS	13
#define AIE_SITE_CACHE_PAGE_BITS	11
#define AIE_SITE_CACHE_WAYS		4

extern u64 aie_site_cache_slab[BIT(AIE_SITE_CACHE_SLAB_BITS)];
extern u64 aie_site_cache_page[BIT(AIE_SITE_CACHE_PAGE_BITS)];

/**
 * aie_site_cache_hash() - Hash a call site's key for the site caches.
 * @key: the call site's key (aie_arch_key32()).
 *
 * An xorshift before the multiplication, as aie_site_home() has and for
 * the same reason.
 *
 * Return: a 32-bit hash whose top bits index a cache.
 */
static inline u32 aie_site_cache_hash(u32 key)
{
	return (key ^ (key >> 7)) * GOLDEN_RATIO_32;
}

/**
 * aie_site_cache_index() - Find a call site's own entry in a site cache.
 * @key: the call site's key (aie_arch_key32()).
 * @bits: the log2 of the cache's entries.
 *
 * Return: the entry's index.
 */
static inline u32 aie_site_cache_index(u32 key, unsigned int bits)
{
	return aie_site_cache_hash(key) >> (32 - bits);
}

/**
 * aie_site_cache_is() - Tell whether a cache entry is a call site's.
 * @e: the entry.
 * @key: the call site's key (aie_arch_key32()).
 *
 * Return: true when @e holds the site of that call site.
 */
static inline bool aie_site_cache_is(u64 e, u32 key)
{
	return (u32)e == key;
}

/**
 * aie_site_cache_idx() - Find the index of a cache entry's site.
 * @e: the entry, read with READ_ONCE().
 *
 * The site's address depends on the entry, which orders the reads of the
 * site's fields after it, as the acquire of a bucket does.
 *
 * Return: the site's index in aie_sites[].
 */
static inline u32 aie_site_cache_idx(u64 e)
{
	return upper_32_bits(e);
}

/**
 * aie_site_cache_find() - Look for a call site's site in a site cache.
 * @cache: the cache.
 * @bits: the log2 of its entries.
 * @key: the call site's key (aie_arch_key32()).
 * @e: set to the entry that holds it.
 *
 * Look at the call site's own entry first; then at the other ways of its
 * group, each a load and a comparison, out of the way of a hit in the
 * first. Their index is made again from the key, hidden from the
 * compiler, so that nothing of the first one's is kept through a hit; the
 * loop is unrolled. These two, with the unrolled walk of
 * aie_frames_caller_fast() (hooks/frames.h), save 3 instructions per
 * kmalloc+kfree or kmem_cache pair, 5 per page pair and 7 per large
 * kmalloc pair (make bench, 6.12).
 *
 * Context: Any context, NMI included; no lock.
 * Return: true when a way of the group holds the call site.
 */
static inline bool aie_site_cache_find(const u64 *cache,
				       unsigned int bits, u32 key,
				       u64 *e)
{
	unsigned int w;
	u32 i;

	*e = READ_ONCE(cache[aie_site_cache_index(key, bits)]);
	if (likely(aie_site_cache_is(*e, key)))
		return true;
	OPTIMIZER_HIDE_VAR(key);
	i = aie_site_cache_index(key, bits);
#pragma GCC unroll 4
	for (w = 1; w < AIE_SITE_CACHE_WAYS; w++) {
		*e = READ_ONCE(cache[i ^ w]);
		if (aie_site_cache_is(*e, key))
			return true;
	}
	return false;
}

void aie_site_cache_fill(u64 *cache, unsigned int bits,
			 const struct aie_site *site);

/**
 * aie_site_find_home() - Find a site in its home bucket.
 * @call_site: the call site.
 * @type: its allocator's type.
 *
 * Context: Any context, NMI included; no lock.
 * Return: the site in (@call_site, @type)'s home bucket if it is its and
 * not retired; or NULL.
 */
static inline struct aie_site *
aie_site_find_home(unsigned long call_site, enum aie_type type)
{
	struct aie_site *site;

	if (aie_site_at_home(call_site, type, BIT(AIE_SITE_UNLOADED), &site))
		return site;
	return NULL;
}

/**
 * aie_site_find() - Find or make a call site's site, for the hooks.
 * @call_site: the call site.
 * @type: its allocator's type.
 *
 * Find a site in its home bucket, as most are (the hash has twice as many
 * buckets as sites), without a call.
 *
 * Context: Any context, NMI included; preemption disabled.
 * Return: the site, or NULL when none can be had (aie_site_get()).
 */
static inline struct aie_site *aie_site_find(unsigned long call_site,
					     enum aie_type type)
{
	return aie_site_find_home(call_site, type) ?:
	       aie_site_get(call_site, type);
}

/**
 * aie_site_ctrs() - Find a site's own counters.
 * @idx: the site's index.
 *
 * A site reached through the hash, or through an object's value, was
 * claimed after its chunk was published (sites.c), so the chunk is there.
 *
 * Context: Any context, NMI included.
 * Return: the site's own counters.
 */
static inline struct aie_site_ctr *aie_site_ctrs(u32 idx)
{
	return aie_site_chunks[idx / AIE_SITE_CHUNK] + idx % AIE_SITE_CHUNK;
}

#endif /* _AIE_SITES_H */
