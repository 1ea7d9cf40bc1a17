/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernels we build for lives here,
 * as feature tests with the kernel that changed named beside them. Core
 * files use the names defined below and test no version.
 */
#ifndef _AIE_COMPAT_H
#define _AIE_COMPAT_H

#include <linux/slab.h>

/*
 * The kmalloc entry points that hand a large request to the page allocator
 * through an inner function firing trace_kmalloc() itself, with a call site
 * inside the entry point, before the entry point fires it again with the
 * real caller. The inner event is ignored.
 *
 * Linux 6.10 (memory allocation profiling) added alloc_hooks() and renamed
 * the entry points with a _noprof suffix. Before 6.10 the inner function did
 * not trace, and the list is harmless.
 */
#ifdef alloc_hooks
#define aie_kmalloc_entry		__kmalloc_noprof
#define aie_kmalloc_node_entry		__kmalloc_node_noprof
#define aie_kmalloc_caller_entry	__kmalloc_node_track_caller_noprof
#else
#define aie_kmalloc_entry		__kmalloc
#define aie_kmalloc_node_entry		__kmalloc_node
#define aie_kmalloc_caller_entry	__kmalloc_node_track_caller
#endif

#endif /* _AIE_COMPAT_H */
