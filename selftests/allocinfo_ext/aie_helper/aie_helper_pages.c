// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_pages.c - the helper's page allocations: every entry point
 * of the page allocator, folios, one accounted to the memory cgroup, and
 * one the allocator fails.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/nodemask.h>

#include "aie_helper_compat.h"
#include "aie_helper.h"

const char aie_helper_pages_file[] = __FILE__;

/* An allocation of order @o, and its free. */
#define AIE_HELPER_PAGES(o)						\
noinline void *aie_helper_pages##o(void)				\
{									\
	void *p = alloc_pages(GFP_KERNEL, o);				\
									\
	barrier();							\
	return p;							\
}

#define AIE_HELPER_FREE_PAGES(o)					\
void aie_helper_free_pages##o(const void *p)				\
{									\
	__free_pages((struct page *)p, o);				\
}

AIE_HELPER_PAGES(0)
AIE_HELPER_FREE_PAGES(0)
AIE_HELPER_PAGES(2)
AIE_HELPER_FREE_PAGES(2)
AIE_HELPER_PAGES(5)
AIE_HELPER_FREE_PAGES(5)

/* Inline down to __alloc_pages() itself: no exported wrapper between. */
noinline void *aie_helper_pages_node(void)
{
	void *p = alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL, 1);

	barrier();
	return p;
}

AIE_HELPER_FREE_PAGES(1)

noinline void *aie_helper_get_free_pages(void)
{
	void *p = (void *)__get_free_pages(GFP_KERNEL, 1);

	barrier();
	return p;
}

void aie_helper_free_pages_addr1(const void *p)
{
	free_pages((unsigned long)p, 1);
}

noinline void *aie_helper_get_zeroed_page(void)
{
	void *p = (void *)get_zeroed_page(GFP_KERNEL);

	barrier();
	return p;
}

void aie_helper_free_page_addr(const void *p)
{
	free_page((unsigned long)p);
}

noinline void *aie_helper_folio_alloc(void)
{
	void *p = aie_folio_alloc(GFP_KERNEL, 2);

	barrier();
	return p;
}

void aie_helper_folio_put(const void *p)
{
	aie_folio_put(p);
}

noinline void *aie_helper_folio_node(void)
{
	void *p = aie_folio_alloc_node(GFP_KERNEL, 1, numa_node_id());

	barrier();
	return p;
}

/* Three pages: an order-2 block whose fourth page is freed at once. */
noinline void *aie_helper_pages_exact(void)
{
	void *p = alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL);

	barrier();
	return p;
}

void aie_helper_free_pages_exact(const void *p)
{
	free_pages_exact((void *)p, 3 * PAGE_SIZE);
}

/*
 * Always fails, inside the allocator: no node is allowed, so no zone can
 * serve it, and __alloc_pages() gives up (through its tracepoint, as for
 * a block it cannot find after reclaim).
 */
noinline void *aie_helper_pages_fail(void)
{
	nodemask_t none = NODE_MASK_NONE;
	void *p = aie_alloc_pages_mask(GFP_KERNEL | __GFP_NOWARN, 2,
				       numa_node_id(), &none);

	barrier();
	return p;
}

/* Accounted to the allocating task's memory cgroup. */
AIE_HELPER_VMALLOC(pages_acct, alloc_pages(GFP_KERNEL_ACCOUNT, 1))

/*
 * A megabyte of pages that gives up at once, silently, when memory runs
 * short (no reclaim retries, no OOM kill): oom_test fills the guest's
 * memory with these before its own task runs the OOM killer.
 */
#define AIE_HELPER_OOM_ORDER	(20 - PAGE_SHIFT)

noinline void *aie_helper_pages_oom(void)
{
	void *p = alloc_pages(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN,
			      AIE_HELPER_OOM_ORDER);

	barrier();
	return p;
}

void aie_helper_free_pages_oom(const void *p)
{
	__free_pages((struct page *)p, AIE_HELPER_OOM_ORDER);
}
