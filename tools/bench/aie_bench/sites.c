// SPDX-License-Identifier: GPL-2.0
/*
 * sites.c - AIE_BENCH_SITES distinct kmalloc call sites.
 *
 * sites_d2.h, sites_d1.h and sites_d0.h count the hundreds, tens and
 * units of the current thousand, AIE_D3 here; sites_d0.h applies AIE_SITE
 * to each four-digit number. Run once with AIE_SITE defining a noinline
 * function aie_bench_site_NNNN(slot) with one kmalloc(64) call of its own
 * (the object goes to *slot), then once listing those functions in a
 * table. The module is built with -fno-ipa-icf, so that GCC keeps the
 * identical bodies apart: each function is its own call site, with its
 * own return address. The wide functions (sites.h) are made the same way,
 * from the same headers, with AIE_BENCH_WIDE calls each.
 */

#include <linux/compiler.h>
#include <linux/slab.h>

#include "sites.h"

/*
 * With CONFIG_MEM_ALLOC_PROFILING, each kmalloc() call site has a tag
 * whose counters take 16 bytes of the modules' per-CPU reserve (64 KiB
 * for all of them): 10,000 tags would not fit, and the module would not
 * load. The first thousand sites, those of the many-sites loop, call
 * kmalloc(); the others call kmalloc_noprof(), a call site the in-kernel
 * profiler does not account (these only hold objects for the reading
 * benchmark). Kernels without the profiler have no kmalloc_noprof().
 */
#ifdef CONFIG_MEM_ALLOC_PROFILING
#define AIE_KMALLOC_UNTAGGED	kmalloc_noprof
#else
#define AIE_KMALLOC_UNTAGGED	kmalloc
#endif

/* The store after the call keeps it a call, never a tail jump. */
#define AIE_SITE_FN(alloc, a, b, c, d) \
	static noinline void aie_bench_site_##a##b##c##d(void **slot) \
	{ \
		*slot = alloc(64, GFP_KERNEL); \
	}
#define AIE_SITE_ENTRY(a, b, c, d)	aie_bench_site_##a##b##c##d,

/* Each call a call site of its own; none of them the profiler's. */
#define AIE_WIDE_CALL(k) \
	do { \
		if (n > (k)) \
			slot[k] = AIE_KMALLOC_UNTAGGED(64, GFP_KERNEL); \
	} while (0)
#define AIE_WIDE_FN(a, b, c, d) \
	static noinline void aie_bench_wide_##a##b##c##d(void **slot, \
							unsigned int n) \
	{ \
		AIE_WIDE_CALL(0); \
		AIE_WIDE_CALL(1); \
		AIE_WIDE_CALL(2); \
		AIE_WIDE_CALL(3); \
		AIE_WIDE_CALL(4); \
		AIE_WIDE_CALL(5); \
		barrier(); \
	}
#define AIE_WIDE_ENTRY(a, b, c, d)	aie_bench_wide_##a##b##c##d,

/* AIE_SITE expands AIE_D3..AIE_D1 before the names are pasted. */
#define AIE_SITE(a, b, c, d)	AIE_SITE_FN(AIE_SITE_ALLOC, a, b, c, d)
#define AIE_SITE_ALLOC		kmalloc
#define AIE_D3 0
#include "sites_d2.h"
#undef AIE_D3
#undef AIE_SITE_ALLOC
#define AIE_SITE_ALLOC		AIE_KMALLOC_UNTAGGED
#include "sites_d3.h"
#undef AIE_SITE_ALLOC
#undef AIE_SITE

#define AIE_SITE(a, b, c, d)	AIE_SITE_ENTRY(a, b, c, d)
void (*const aie_bench_sites[AIE_BENCH_SITES])(void **slot) = {
#define AIE_D3 0
#include "sites_d2.h"
#undef AIE_D3
#include "sites_d3.h"
};

#undef AIE_SITE

#define AIE_SITE(a, b, c, d)	AIE_WIDE_FN(a, b, c, d)
#define AIE_D3 0
#include "sites_d2.h"
#undef AIE_D3
#include "sites_d3.h"
#undef AIE_SITE

#define AIE_SITE(a, b, c, d)	AIE_WIDE_ENTRY(a, b, c, d)
void (*const aie_bench_wides[AIE_BENCH_SITES])(void **slot, unsigned int n) = {
#define AIE_D3 0
#include "sites_d2.h"
#undef AIE_D3
#include "sites_d3.h"
};
#undef AIE_SITE
