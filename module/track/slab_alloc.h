/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_alloc.h - a slab object's allocation with the slab map on
 * (slab_alloc.c): the slab allocation probes' entry (hooks/slab.c).
 */
#ifndef _AIE_SLAB_ALLOC_H
#define _AIE_SLAB_ALLOC_H

#include <linux/types.h>

void aie_track_slab_alloc(void *unused, unsigned long call_site,
			  const void *ptr, u64 req, u64 bytes, bool accounted);

#endif /* _AIE_SLAB_ALLOC_H */
