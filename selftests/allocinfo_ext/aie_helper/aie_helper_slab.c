// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_slab.c - the helper's kmalloc()s: the sizes on either side of
 * a kmalloc cache's, sizes too large for any cache, one too large for the
 * page allocator, kstrdup() and kmemdup(), one accounted to the memory
 * cgroup, and a kmalloc event no symbol covers.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <trace/events/kmem.h>

#include "aie_helper_compat.h"
#include "aie_helper.h"

const char aie_helper_slab_file[] = __FILE__;

/* Non-constant sizes: the compiler must not pick the inline kmalloc path. */
static size_t aie_helper_large_var = AIE_HELPER_LARGE;
static size_t aie_helper_huge = AIE_HELPER_HUGE;

static const char aie_helper_str[] = AIE_HELPER_STR;
const u8 aie_helper_blob[100];

/*
 * barrier() after each call keeps it from becoming a tail call, which
 * would move the call site into the caller.
 */
#define AIE_HELPER_KMALLOC(n)						\
noinline void *aie_helper_kmalloc_##n(void)				\
{									\
	void *p = kmalloc(n, GFP_KERNEL);				\
									\
	barrier();							\
	return p;							\
}

AIE_HELPER_KMALLOC(96)
AIE_HELPER_KMALLOC(97)
AIE_HELPER_KMALLOC(128)
AIE_HELPER_KMALLOC(129)
AIE_HELPER_KMALLOC(192)
AIE_HELPER_KMALLOC(193)

/* Constant size above the largest kmalloc cache: kmalloc_large. */
noinline void *aie_helper_kmalloc_large_const(void)
{
	void *p = kmalloc(AIE_HELPER_LARGE, GFP_KERNEL);

	barrier();
	return p;
}

/* The same size through __kmalloc, which traces it twice. */
noinline void *aie_helper_kmalloc_large_var(void)
{
	void *p = kmalloc(READ_ONCE(aie_helper_large_var), GFP_KERNEL);

	barrier();
	return p;
}

/* Always fails: larger than the page allocator's largest order. */
noinline void *aie_helper_kmalloc_fail(void)
{
	void *p = kmalloc(READ_ONCE(aie_helper_huge), GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return p;
}

noinline void *aie_helper_kstrdup(void)
{
	void *p = kstrdup(aie_helper_str, GFP_KERNEL);

	barrier();
	return p;
}

noinline void *aie_helper_kmemdup(void)
{
	void *p = kmemdup(aie_helper_blob, sizeof(aie_helper_blob), GFP_KERNEL);

	barrier();
	return p;
}

/* Accounted to the allocating task's memory cgroup. */
AIE_HELPER_VMALLOC(kmalloc_acct_100, kmalloc(100, GFP_KERNEL_ACCOUNT))

/*
 * Accounted, silent when it fails: oom_test's memory cgroup OOM. Large
 * (order 2, which still runs the OOM killer), so that no slab's pages
 * come between this site and the report's top.
 */
AIE_HELPER_VMALLOC(kmalloc_oom, kmalloc(16384, GFP_KERNEL_ACCOUNT | __GFP_NOWARN))

/*
 * A site no symbol covers: a synthetic kmalloc event (the tracepoint is
 * exported) whose call site lies inside the private cache's kmem_cache,
 * slab memory that is no code. Each "object" is a distinct address inside
 * it too; nothing is allocated, and the matching kfree event frees it.
 */
noinline void *aie_helper_unknown_site(void)
{
	static unsigned long n;
	void *p = (char *)aie_helper_cache + 16 + n++ % 64;

	aie_trace_kmalloc((unsigned long)aie_helper_cache + 8, p, 24, 32,
			  GFP_KERNEL);
	return p;
}

void aie_helper_unknown_free(const void *p)
{
	trace_kfree(_RET_IP_, p);
}

/*
 * Sites with nothing allocated, for the walks of the table to go through:
 * at each of @n call sites inside aie_helper_site(), one byte apart, a
 * kmalloc event and its kfree, made up as unknown_site's are. Not real
 * calls: on a kernel with allocation profiling each real call site has
 * per-CPU counters, and a module's per-CPU data is at most 32 KiB.
 */
int aie_helper_fake_sites(unsigned int n)
{
	unsigned long site = (unsigned long)aie_helper_site_fn() + 1;
	void *p = (char *)aie_helper_cache + 16;
	unsigned int i;

	if (n > AIE_HELPER_FAKE_SITES)
		return -EINVAL;
	for (i = 0; i < n; i++, site++) {
		aie_trace_kmalloc(site, p, 24, 32, GFP_KERNEL);
		trace_kfree(site, p);
		cond_resched();
	}
	return 0;
}
