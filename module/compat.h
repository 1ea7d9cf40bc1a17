/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernels we build for lives here.
 * Core files use the names defined below and contain no version checks.
 */
#ifndef _AIE_COMPAT_H
#define _AIE_COMPAT_H

#include <linux/slab.h>
#include <linux/version.h>

/*
 * The kmalloc entry points that hand a large request to the page
 * allocator through an inner function which fires trace_kmalloc() itself,
 * with a call site inside the entry point, before the entry point fires
 * it again with the real caller. The inner event is ignored.
 * Linux 6.10 renamed them with a _noprof suffix (memory allocation
 * profiling); before 6.10 the inner function did not trace, and the list
 * is harmless.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define AIE_KMALLOC_ENTRY_POINTS		\
	(unsigned long)__kmalloc_noprof,	\
	(unsigned long)__kmalloc_node_noprof,	\
	(unsigned long)__kmalloc_node_track_caller_noprof
#else
#define AIE_KMALLOC_ENTRY_POINTS		\
	(unsigned long)__kmalloc,		\
	(unsigned long)__kmalloc_node,		\
	(unsigned long)__kmalloc_node_track_caller
#endif

#endif /* _AIE_COMPAT_H */
