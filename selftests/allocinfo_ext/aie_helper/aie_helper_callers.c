// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_callers.c - allocations made through helpers that allocate
 * on their caller's behalf (kvmalloc() and friends), whose allocations
 * must be charged to that caller; and chains of callers into one site,
 * for the capture of call stacks.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "aie_helper_compat.h"
#include "aie_helper.h"

const char aie_helper_callers_file[] = __FILE__;

/* Writable, so kstrdup_const() must copy it (it shares only .rodata). */
static char aie_helper_wstr[] = AIE_HELPER_STR;

/* kstrdup_const()'s copy, kept as every other object is. */
static void *aie_helper_unconst(const char *p)
{
	return (void *)p;
}

/*
 * The helpers' calls as this kernel spells them (aie_helper_compat.h). One
 * a kernel lacks answers EOPNOTSUPP, and the test skips it.
 */
#define AIE_KVMEMDUP(len)	aie_kvmemdup(aie_helper_blob, len)
#define AIE_KMEMDUP_ARRAY(n, size)	aie_kmemdup_array(aie_helper_blob, n, size)
#define AIE_KVREALLOC(size)	aie_kvrealloc(size)
#define AIE_KSTRDUP_CONST()	aie_helper_unconst(kstrdup_const(aie_helper_wstr, GFP_KERNEL))

AIE_HELPER_VMALLOC(kvmalloc_100, kvmalloc(100, GFP_KERNEL))
AIE_HELPER_VMALLOC(kvmalloc_8m, kvmalloc(AIE_HELPER_HUGE, GFP_KERNEL))
AIE_HELPER_VMALLOC(kvzalloc_300, kvzalloc(300, GFP_KERNEL))
AIE_HELPER_VMALLOC(kvcalloc_10x30, kvcalloc(10, 30, GFP_KERNEL))
AIE_HELPER_VMALLOC(kvmalloc_array_7x20, kvmalloc_array(7, 20, GFP_KERNEL))
AIE_HELPER_VMALLOC(kvmemdup_100, AIE_KVMEMDUP(100))
AIE_HELPER_VMALLOC(kmemdup_array_5x20, AIE_KMEMDUP_ARRAY(5, 20))
AIE_HELPER_VMALLOC(kstrdup_const, AIE_KSTRDUP_CONST())
AIE_HELPER_VMALLOC(vmemdup_user_16, vmemdup_user(aie_helper_ubuf, 16))
AIE_HELPER_VMALLOC(strndup_user, strndup_user(aie_helper_ubuf, 64))
/* A second caller of strndup_user(): its site, found by the first. */
AIE_HELPER_VMALLOC(strndup_user_b, strndup_user(aie_helper_ubuf, 64))
AIE_HELPER_VMALLOC(kvrealloc_200, AIE_KVREALLOC(200))

/* krealloc() frees the first object by pointer, at its own call site. */
static noinline void *aie_helper_krealloc_src(void)
{
	void *p = kmalloc(64, GFP_KERNEL);

	barrier();
	return p;
}

noinline void *aie_helper_krealloc_500(void)
{
	void *p = aie_helper_krealloc_src();

	p = p ? krealloc(p, 500, GFP_KERNEL) : NULL;
	barrier();
	return p;
}

AIE_HELPER_VMALLOC(kmalloc_sensitive_96, kmalloc(96, GFP_KERNEL))

void aie_helper_kfree_sensitive(const void *p)
{
	kfree_sensitive(p);
}

void aie_helper_kfree_const(const void *p)
{
	kfree_const(p);
}

/*
 * Caller chains into one site, for the capture of call stacks: ctx_a
 * allocates through aie_helper_ctx_outer_a -> aie_helper_ctx_mid_a ->
 * aie_helper_ctx_site, ctx_b and ctx_c through their outer function
 * straight into it. Each chain function counts its calls in a counter of
 * its own, so that no two are identical code the compiler could fold.
 */
static unsigned long aie_helper_ctx_hits[4];

static noinline void *aie_helper_ctx_site(void)
{
	void *p = kmalloc(64, GFP_KERNEL);

	barrier();
	return p;
}

#define AIE_HELPER_CTX_CHAIN(name, hit, callee)				\
noinline void *aie_helper_ctx_##name(void)				\
{									\
	unsigned long *hits = &aie_helper_ctx_hits[hit];		\
	void *p;							\
									\
	WRITE_ONCE(*hits, *hits + 1);					\
	p = aie_helper_ctx_##callee();					\
	barrier();							\
	return p;							\
}

AIE_HELPER_CTX_CHAIN(mid_a, 0, site)
AIE_HELPER_CTX_CHAIN(outer_a, 1, mid_a)
AIE_HELPER_CTX_CHAIN(outer_b, 2, site)
AIE_HELPER_CTX_CHAIN(outer_c, 3, site)
