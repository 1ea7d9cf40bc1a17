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

/*
 * Whether an allocation with @gfp is accounted to a memory cgroup: asked
 * with __GFP_ACCOUNT, on a kernel that has memory cgroups.
 */
static inline bool aie_gfp_accounted(gfp_t gfp)
{
	return IS_ENABLED(CONFIG_MEMCG) && (gfp & __GFP_ACCOUNT);
}

/*
 * Whether the slab cache @s was created with SLAB_ACCOUNT, if memcg.c
 * found where struct kmem_cache keeps its flags.
 */
static inline bool aie_cache_accounted(const struct kmem_cache *s)
{
	int off = READ_ONCE(aie_cache_flags_off);

	if (off < 0)
		return false;
	return *(const slab_flags_t *)((const char *)s + off) & SLAB_ACCOUNT;
}

/*
 * Whether an allocation with @gfp from cache @s is accounted.
 * Inline: the kmem_cache probe's path then makes no call before its jump
 * to the tracking.
 */
static inline bool aie_slab_accounted(gfp_t gfp,
				      const struct kmem_cache *s)
{
	return aie_gfp_accounted(gfp) ||
	       (IS_ENABLED(CONFIG_MEMCG) && aie_cache_accounted(s));
}

#endif /* _AIE_MEMCG_H */
