// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_cache.c - the helper's kmem_caches: a private cache, its twin
 * created with SLAB_ACCOUNT, and the "remade" cache that "remake" destroys
 * and creates again; what ksize() reports for their objects.
 */
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "aie_helper.h"

const char aie_helper_cache_file[] = __FILE__;

struct kmem_cache *aie_helper_cache;
struct kmem_cache *aie_helper_acct_cache;
struct kmem_cache *aie_helper_remade;
static bool aie_helper_remade_reused;

/* A constructor keeps a cache from being merged with another one. */
void aie_helper_ctor(void *obj)
{
}

noinline void *aie_helper_cache_alloc(void)
{
	void *p = kmem_cache_alloc(aie_helper_cache, GFP_KERNEL);

	barrier();
	return p;
}

/* No "remade" cache yet: the kind is not there. */
noinline void *aie_helper_remade_alloc(void)
{
	void *p;

	if (!aie_helper_remade)
		return ERR_PTR(-EOPNOTSUPP);
	p = kmem_cache_alloc(aie_helper_remade, GFP_KERNEL);
	barrier();
	return p;
}

/*
 * Accounted to the allocating task's memory cgroup: a cache created with
 * SLAB_ACCOUNT, and __GFP_ACCOUNT on one that was not.
 */
AIE_HELPER_VMALLOC(cache_acct, kmem_cache_alloc(aie_helper_acct_cache, GFP_KERNEL))
AIE_HELPER_VMALLOC(cache_gfp_acct, kmem_cache_alloc(aie_helper_cache, GFP_KERNEL_ACCOUNT))

/* What "bulk" holds, guarded by aie_helper_mutex. */
static void *aie_helper_bulk_objs[AIE_HELPER_BULK_MAX];
static size_t aie_helper_bulk_held;

/* @nr more objects of the private cache, in one kmem_cache_alloc_bulk(). */
noinline int aie_helper_cache_bulk(size_t nr)
{
	void **objs = aie_helper_bulk_objs + aie_helper_bulk_held;

	if (!nr || nr > AIE_HELPER_BULK_MAX - aie_helper_bulk_held)
		return -EINVAL;
	if (!kmem_cache_alloc_bulk(aie_helper_cache, GFP_KERNEL, nr, objs))
		return -ENOMEM;
	barrier();
	aie_helper_bulk_held += nr;
	return 0;
}

/* What "bulk" holds: in one kmem_cache_free_bulk(), or one at a time. */
void aie_helper_cache_bulk_free(bool one_by_one)
{
	size_t i;

	if (one_by_one)
		for (i = 0; i < aie_helper_bulk_held; i++)
			kmem_cache_free(aie_helper_cache,
					aie_helper_bulk_objs[i]);
	else if (aie_helper_bulk_held)
		kmem_cache_free_bulk(aie_helper_cache, aie_helper_bulk_held,
				     aie_helper_bulk_objs);
	aie_helper_bulk_held = 0;
}

void aie_helper_cache_free(const void *p)
{
	kmem_cache_free(aie_helper_cache, (void *)p);
}

void aie_helper_remade_free(const void *p)
{
	kmem_cache_free(aie_helper_remade, (void *)p);
}

void aie_helper_acct_cache_free(const void *p)
{
	kmem_cache_free(aie_helper_acct_cache, (void *)p);
}

/*
 * Destroy the "remade" cache and create it again, @size bytes, with
 * nothing of it held. Whether the new kmem_cache reuses the address of the
 * one destroyed is up to SLUB: the caller reads "reused".
 */
int aie_helper_remake(unsigned int size)
{
	struct aie_helper_kind *k = aie_helper_find("remade");
	struct kmem_cache *old = aie_helper_remade;

	if (size < 8 || size > 16384)
		return -EINVAL;
	if (k->held)
		return -EBUSY;
	kmem_cache_destroy(old);
	aie_helper_remade = kmem_cache_create("aie_helper_remade", size, 8, 0,
					      aie_helper_ctor);
	if (!aie_helper_remade)
		return -ENOMEM;
	aie_helper_remade_reused = old && aie_helper_remade == old;
	k->req = size;
	return 0;
}

static noinline void *aie_helper_cache_probe(void)
{
	void *p = kmem_cache_alloc(aie_helper_cache, GFP_KERNEL);

	barrier();
	return p;
}

int aie_helper_cache_ksize_get(void *data, u64 *val)
{
	void *p = aie_helper_cache_probe();

	if (!p)
		return -ENOMEM;
	*val = ksize(p);
	kmem_cache_free(aie_helper_cache, p);
	return 0;
}

static noinline void *aie_helper_remade_probe(void)
{
	void *p = kmem_cache_alloc(aie_helper_remade, GFP_KERNEL);

	barrier();
	return p;
}

int aie_helper_remade_show(struct seq_file *m, void *v)
{
	unsigned int size = 0;
	void *p;

	mutex_lock(&aie_helper_mutex);
	if (aie_helper_remade) {
		p = aie_helper_remade_probe();
		if (p) {
			size = ksize(p);
			kmem_cache_free(aie_helper_remade, p);
		}
	}
	seq_printf(m, "%u %d\n", size, aie_helper_remade_reused);
	mutex_unlock(&aie_helper_mutex);
	return 0;
}
