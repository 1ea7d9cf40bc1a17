/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat_nolock.h - the allocators callable from any context, NMI
 * included (compat.h includes this file; see its notes on names).
 *
 * alloc_pages_nolock() (6.15) and kmalloc_nolock() with kfree_nolock()
 * (6.18): BPF's allocators, callable from any context, NMI included.
 * alloc_pages_nolock() fires mm_page_alloc from inside
 * alloc_pages_nolock_noprof() -> alloc_frozen_pages_nolock_noprof() (7.x)
 * -> __alloc_frozen_pages_noprof(): wrappers, as alloc_pages() is.
 * kmalloc_nolock() and kfree_nolock() fire no kmem event: a kretprobe on
 * the one and a kprobe on the other see them (hooks/nolock.c). Before
 * 6.18 the names are absent, the probes fail to register and the stats
 * file says "nolock_hooks absent". free_pages_nolock() frees through
 * mm_page_free, as every page free does.
 */
#ifndef _AIE_COMPAT_NOLOCK_H
#define _AIE_COMPAT_NOLOCK_H

#define AIE_FN_ALLOC_PAGES_NOLOCK	"alloc_pages_nolock_noprof"
#define AIE_FN_ALLOC_FROZEN_PAGES_NOLOCK "alloc_frozen_pages_nolock_noprof"
/* kmalloc_nolock_noprof() in 6.18; _kmalloc_nolock_noprof() with tokens. */
#define AIE_FN_KMALLOC_NOLOCK		"_kmalloc_nolock_noprof", \
					"kmalloc_nolock_noprof"
#define AIE_FN_KFREE_NOLOCK		"kfree_nolock"

/*
 * The kretprobe's arguments: (size, gfp, node), or with
 * CONFIG_KMALLOC_PARTITION_CACHES (7.x) (size, token, gfp, node), the
 * token a one-word struct passed in a register.
 */
#ifdef CONFIG_KMALLOC_PARTITION_CACHES
#define AIE_KMALLOC_NOLOCK_GFP_ARG	2
#else
#define AIE_KMALLOC_NOLOCK_GFP_ARG	1
#endif

#endif /* _AIE_COMPAT_NOLOCK_H */
