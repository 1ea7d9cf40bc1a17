/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cache_sizes.h - the slot and object sizes of the slab caches in use, in
 * a small table keyed by the cache's address (cache_sizes.c): the
 * kmem_cache_alloc probes (slab.c) read it inline.
 */
#ifndef _AIE_CACHE_SIZES_H
#define _AIE_CACHE_SIZES_H

#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/slab.h>

/* A few dozen caches in use: about 1 in 30 not at its home entry. */
#define AIE_CACHE_SIZES_BITS	10
#define AIE_CACHE_SIZES_MASK	(BIT(AIE_CACHE_SIZES_BITS) - 1)
#define AIE_CACHE_SIZES_PROBES	4

/*
 * The sizes of @cache's objects, and whether it is accounted. A cache's
 * entry is one of the AIE_CACHE_SIZES_PROBES from its home, hash_ptr() of
 * its address. Neither changes in a cache's life: SLAB_ACCOUNT is given
 * at its creation (aie_cache_accounted(), memcg.c), so the entry keeps it
 * beside the object size, and the probe tests one bit it has loaded
 * already instead of loading the cache's flags.
 */
struct aie_cache_sizes {
	const struct kmem_cache *cache;	/* NULL: empty */
	unsigned int size;		/* ksize() of an object */
	unsigned int req;		/* kmem_cache_size(), AIE_CACHE_ACCOUNTED */
};

/* In aie_cache_sizes.req: the cache is accounted. An object is < 2 GiB. */
#define AIE_CACHE_ACCOUNTED	BIT(31)

extern struct aie_cache_sizes aie_cache_sizes[BIT(AIE_CACHE_SIZES_BITS)];

u64 aie_cache_sizes_miss(struct kmem_cache *s, const void *ptr);
void aie_cache_sizes_register(void);
void aie_cache_sizes_unregister(void);

/**
 * aie_cache_sizes_at() - Find the entry @i places past a home entry.
 * @home: the home entry, hash_ptr() of a cache's address.
 * @i: the place past it, below AIE_CACHE_SIZES_PROBES.
 *
 * Return: the entry, the table wrapping around.
 */
static inline struct aie_cache_sizes *
aie_cache_sizes_at(unsigned int home, unsigned int i)
{
	return &aie_cache_sizes[(home + i) & AIE_CACHE_SIZES_MASK];
}

/**
 * aie_cache_sizes_read() - Read @s's sizes from @e, if @e is @s's entry.
 * @e: the entry.
 * @s: the cache.
 * @size: set to the slot size.
 * @req: set to the object size with AIE_CACHE_ACCOUNTED (aie_cache_req()
 *	and aie_cache_acct() part them); may be NULL.
 *
 * An entry is filled while empty and then published by the store-release
 * of its cache pointer; it is emptied only when that cache is destroyed,
 * and no allocation from a cache runs once its destruction has begun. So
 * an entry read with @s's pointer holds @s's sizes: one load to tell, no
 * second look.
 *
 * Context: Any context; takes no lock.
 * Return: true if @e is @s's entry and the sizes are set.
 */
static inline bool aie_cache_sizes_read(const struct aie_cache_sizes *e,
					const struct kmem_cache *s,
					unsigned int *size,
					unsigned int *req)
{
	/* Pairs with the smp_store_release() in aie_cache_sizes_miss(). */
	if (smp_load_acquire(&e->cache) != s)
		return false;
	*size = e->size;
	if (req)
		*req = e->req;
	return true;
}

/**
 * aie_cache_req() - Take the object size out of an entry's req.
 * @req: an entry's req, or that of aie_cache_sizes_miss()'s answer.
 *
 * Without CONFIG_MEMCG no cache is accounted, and the bit is never set.
 *
 * Return: the object size.
 */
static inline unsigned int aie_cache_req(unsigned int req)
{
	return IS_ENABLED(CONFIG_MEMCG) ? req & ~AIE_CACHE_ACCOUNTED : req;
}

/**
 * aie_cache_acct() - Tell whether an entry's req says its cache is accounted.
 * @req: an entry's req.
 *
 * Return: true if AIE_CACHE_ACCOUNTED is set (never without CONFIG_MEMCG).
 */
static inline bool aie_cache_acct(unsigned int req)
{
	return IS_ENABLED(CONFIG_MEMCG) && (req & AIE_CACHE_ACCOUNTED);
}

/**
 * aie_cache_sizes_hit() - Read @s's sizes from its home entry or the next.
 * @s: the cache.
 * @size: set to the slot size.
 * @req: set to the object size with AIE_CACHE_ACCOUNTED; may be NULL.
 *
 * Look at the next entry too: a cache whose home another took first (about
 * one in 30, with a few dozen caches in use) would otherwise pay the call
 * of aie_cache_sizes_miss() on every allocation.
 *
 * Context: Any context; takes no lock.
 * Return: true if found.
 */
static inline bool aie_cache_sizes_hit(struct kmem_cache *s,
				       unsigned int *size,
				       unsigned int *req)
{
	unsigned int home = hash_ptr(s, AIE_CACHE_SIZES_BITS);

	return aie_cache_sizes_read(aie_cache_sizes_at(home, 0), s, size,
				    req) ||
	       aie_cache_sizes_read(aie_cache_sizes_at(home, 1), s, size,
				    req);
}

/**
 * aie_cache_sizes_get() - Find the sizes of @s, whose object @ptr is new.
 * @s: the cache.
 * @ptr: the object, for ksize() on a miss.
 * @size: set to the slot size.
 * @req: set to the object size, with AIE_CACHE_ACCOUNTED.
 *
 * Read them inline from @s's home entry or the next, or else from
 * aie_cache_sizes_miss().
 *
 * Context: Any context the slab allocator runs in; preemption disabled.
 */
static inline void aie_cache_sizes_get(struct kmem_cache *s,
				       const void *ptr,
				       unsigned int *size,
				       unsigned int *req)
{
	u64 sizes;

	if (likely(aie_cache_sizes_hit(s, size, req)))
		return;
	sizes = aie_cache_sizes_miss(s, ptr);
	*size = lower_32_bits(sizes);
	*req = upper_32_bits(sizes);
}

#endif /* _AIE_CACHE_SIZES_H */
