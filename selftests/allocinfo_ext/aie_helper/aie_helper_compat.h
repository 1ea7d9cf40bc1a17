/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie_helper_compat.h - the kernel differences only the test helper meets:
 * the calls it makes at its known call sites, where the module itself
 * calls nothing of the kind. Those the module meets too are
 * module/compat.h's, included here (AIE_KERNEL_BEFORE() among them).
 */
#ifndef _AIE_HELPER_COMPAT_H
#define _AIE_HELPER_COMPAT_H

#include "compat.h"

/*
 * A page allocation from a node mask, for the test helper's allocation
 * that no node can serve: __alloc_pages_nodemask() until 5.13, then
 * __alloc_pages() (a macro around __alloc_pages_noprof() from 6.10), which
 * 7.x no longer offers to modules; __folio_alloc() (5.16) then.
 */
#if AIE_KERNEL_BEFORE(5, 13, 0)
#define aie_alloc_pages_mask(gfp, order, nid, mask)			\
	__alloc_pages_nodemask(gfp, order, nid, mask)
#elif AIE_KERNEL_BEFORE(6, 10, 0) || defined(__alloc_pages)
#define aie_alloc_pages_mask(gfp, order, nid, mask)			\
	__alloc_pages(gfp, order, nid, mask)
#else
#define aie_alloc_pages_mask(gfp, order, nid, mask)			\
	((struct page *)__folio_alloc(gfp, order, nid, mask))
#endif

/*
 * The test helper's folio allocations: folios since 5.16; before, the
 * helper answers EOPNOTSUPP and the tests leave those kinds out.
 */
#if !AIE_KERNEL_BEFORE(5, 16, 0)
#define aie_folio_alloc(gfp, order)	((void *)folio_alloc(gfp, order))
#define aie_folio_alloc_node(gfp, order, nid)				\
	((void *)__folio_alloc_node(gfp, order, nid))
#define aie_folio_put(p)		folio_put((struct folio *)(p))
#else
static inline void *aie_folio_alloc(gfp_t gfp, unsigned int order)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void *aie_folio_alloc_node(gfp_t gfp, unsigned int order,
					 int nid)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void aie_folio_put(const void *p)
{
}
#endif

/*
 * A large kmalloc's pages count in NR_SLAB_UNRECLAIMABLE_B of their
 * lruvec (mod_lruvec_page_state()) since 5.11, of their node before; the
 * test helper takes them out of it as kfree() would.
 */
#if AIE_KERNEL_BEFORE(5, 11, 0)
#define aie_mod_slab_pages(page, bytes)					\
	mod_node_page_state(page_pgdat(page), NR_SLAB_UNRECLAIMABLE_B, bytes)
#else
#define aie_mod_slab_pages(page, bytes)					\
	mod_lruvec_page_state(page, NR_SLAB_UNRECLAIMABLE_B, bytes)
#endif

/*
 * The test helper's free of a large kmalloc's pages without kfree(): 7.x
 * takes them frozen (a count of zero) and typed LargeKmalloc, and frees
 * them as such; the page allocator's exported free wants the type gone
 * and a count of one. (The release that changed it is not checked here:
 * 6.12 has neither, 7.3 both.)
 */
static inline void aie_free_large_kmalloc_pages(struct page *page,
						unsigned int order)
{
#if !AIE_KERNEL_BEFORE(6, 19, 0)
	__ClearPageLargeKmalloc(page);
	set_page_count(page, 1);
#endif
	__free_pages(page, order);
}

/*
 * The test helper's calls that some kernels lack (kvmemdup() since 6.2,
 * kmemdup_array() since 6.9), which then answer EOPNOTSUPP and the tests
 * leave out; kvrealloc() without the old size since 6.11. The calls are
 * macros, so that their call sites stay the helper's.
 */
#if !AIE_KERNEL_BEFORE(6, 2, 0)
#define aie_kvmemdup(src, len)		kvmemdup(src, len, GFP_KERNEL)
#else
static inline void *aie_kvmemdup(const void *src, size_t len)
{
	return ERR_PTR(-EOPNOTSUPP);
}
#endif
#if !AIE_KERNEL_BEFORE(6, 9, 0)
#define aie_kmemdup_array(src, n, size)	kmemdup_array(src, n, size, GFP_KERNEL)
#else
static inline void *aie_kmemdup_array(const void *src, size_t n, size_t size)
{
	return ERR_PTR(-EOPNOTSUPP);
}
#endif
#if !AIE_KERNEL_BEFORE(6, 11, 0)
#define aie_kvrealloc(size)		kvrealloc(NULL, size, GFP_KERNEL)
#else
#define aie_kvrealloc(size)		kvrealloc(NULL, 0, size, GFP_KERNEL)
#endif

/* trace_kmalloc() as the test helper fires it: with a node since 6.1. */
#if AIE_KERNEL_BEFORE(6, 1, 0)
#define aie_trace_kmalloc(call_site, ptr, req, alloc, gfp)		\
	trace_kmalloc(call_site, ptr, req, alloc, gfp)
#else
#define aie_trace_kmalloc(call_site, ptr, req, alloc, gfp)		\
	trace_kmalloc(call_site, ptr, req, alloc, gfp, NUMA_NO_NODE)
#endif

/* Whether the helper can call kmalloc_nolock() and alloc_pages_nolock(). */
#define AIE_HAVE_NOLOCK			(!AIE_KERNEL_BEFORE(6, 18, 0))

#endif /* _AIE_HELPER_COMPAT_H */
