/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcg.h - which allocations are accounted to a memory cgroup
 * (memcg.c); the probes' tests are inline here.
 */
#ifndef _AIE_MEMCG_H
#define _AIE_MEMCG_H

#include <linux/gfp.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "aie.h"

extern int aie_cache_flags_off;
void aie_memcg_init(void);
void aie_memcg_show(struct seq_file *m);
struct kmem_cache;

/**
 * aie_gfp_accounted() - Tell whether @gfp accounts an allocation.
 * @gfp: the allocation's flags.
 *
 * Context: Any context.
 * Return: true if asked with __GFP_ACCOUNT, on a kernel that has memory
 * cgroups.
 */
static inline bool aie_gfp_accounted(gfp_t gfp)
{
	return IS_ENABLED(CONFIG_MEMCG) && (gfp & __GFP_ACCOUNT);
}

/**
 * aie_cache_accounted() - Tell whether a slab cache is accounted.
 * @s: the cache.
 *
 * Context: Any context; one load, no lock.
 * Return: true if @s was created with SLAB_ACCOUNT; false as well when
 * memcg.c did not find where struct kmem_cache keeps its flags.
 */
static inline bool aie_cache_accounted(const struct kmem_cache *s)
{
	int off = READ_ONCE(aie_cache_flags_off);

	if (off < 0)
		return false;
	return *(const slab_flags_t *)((const char *)s + off) & SLAB_ACCOUNT;
}

/**
 * aie_slab_accounted() - Tell whether an allocation from a cache is accounted.
 * @gfp: the allocation's flags.
 * @s: its cache.
 *
 * Inline: the kmem_cache probe's path then makes no call before its jump
 * to the tracking.
 *
 * Context: Any context.
 * Return: true if @gfp or @s accounts it.
 */
static inline bool aie_slab_accounted(gfp_t gfp,
				      const struct kmem_cache *s)
{
	return aie_gfp_accounted(gfp) ||
	       (IS_ENABLED(CONFIG_MEMCG) && aie_cache_accounted(s));
}

#endif /* _AIE_MEMCG_H */
