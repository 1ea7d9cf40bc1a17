/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab.h - the slab allocator's hooks (slab.c).
 */
#ifndef _AIE_SLAB_H
#define _AIE_SLAB_H

#include <linux/types.h>

struct kmem_cache;

int aie_slab_hooks_register(void);
void aie_slab_hooks_unregister(bool allocs);
void aie_slab_allocs_pause(void);
int aie_slab_allocs_resume(void);
void aie_slab_kmalloc_seen(unsigned long call_site, const void *ptr,
			   size_t bytes_req, size_t bytes_alloc, gfp_t gfp);
void aie_slab_cache_alloc_seen(unsigned long call_site, const void *ptr,
			       struct kmem_cache *s, gfp_t gfp);
void aie_slab_kfree_seen(const void *ptr);
int aie_slab_cgroups_set(bool on);

#endif /* _AIE_SLAB_H */
