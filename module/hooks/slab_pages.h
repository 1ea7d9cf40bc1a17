/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slab_pages.h - the probe on mm_page_free of the slab map and the page
 * hooks (slab_pages.c).
 */
#ifndef _AIE_SLAB_PAGES_H
#define _AIE_SLAB_PAGES_H

#include <linux/types.h>

void aie_slab_pages_register(unsigned long start, unsigned long ceiling,
			     bool pages);
void aie_slab_pages_unregister(void);
bool aie_slab_pages_probing(void);
void aie_slab_pages_frees(bool on);

#endif /* _AIE_SLAB_PAGES_H */
