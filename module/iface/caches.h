/* SPDX-License-Identifier: GPL-2.0 */
/*
 * caches.h - /proc/allocinfo_ext_caches (caches.c): the live objects and
 * bytes the module tracks per slab cache.
 */
#ifndef _AIE_IFACE_CACHES_H
#define _AIE_IFACE_CACHES_H

struct seq_file;

void aie_caches_init(void);
int aie_caches_show(struct seq_file *m, void *v);

#endif /* _AIE_IFACE_CACHES_H */
