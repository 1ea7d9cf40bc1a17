/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_bulk.h - the probes of kmem_cache_alloc_bulk() and
 * kmem_cache_free_bulk() (slab_bulk.c).
 */
#ifndef _AIE_SLAB_BULK_H
#define _AIE_SLAB_BULK_H

#include <linux/types.h>

void aie_slab_bulk_register(void);
void aie_slab_bulk_unregister(void);
void aie_slab_bulk_allocs_pause(void);
int aie_slab_bulk_allocs_resume(void);
bool aie_slab_bulk_alloc_hooked(void);
bool aie_slab_bulk_free_hooked(void);
unsigned long aie_slab_bulk_missed(void);

#endif /* _AIE_SLAB_BULK_H */
