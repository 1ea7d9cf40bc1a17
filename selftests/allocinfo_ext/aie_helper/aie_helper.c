// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper - allocates known sizes at known call sites on command, for
 * the allocinfo_ext selftests.
 *
 * Each kind of allocation is made by its own noinline function, with one
 * allocation call in it, so its call site is a row of /proc/allocinfo_ext
 * named func:<that function>: slab, page, vmalloc and percpu allocations,
 * and every helper that allocates on its caller's behalf (kvmalloc and
 * friends), whose allocations must be charged to that function too.
 * Control file /sys/kernel/debug/aie_helper/ctl:
 *
 *	write "alloc <kind> <n>"	make n more objects of <kind>
 *	write "free <kind> <n>"		free the n newest objects of <kind>
 *	write "free all"		free everything held
 *	write "churn <kind> <n>"	n times: make one object of <kind>
 *					and free it at once
 *	write "leak <kind> <n>"		make n objects of a slab kind and
 *					drop them (kmemleak told not to mind)
 *	write "unseen <kind> <n>"	free the n newest objects of a large
 *					kmalloc kind as kfree() does, less
 *					its tracepoint: a free that
 *					allocinfo_ext cannot see
 *	write "inject <kind> <n>"	as alloc, with this task's
 *					make-it-fail flag set around each
 *					call: fault injection with
 *					task-filter fails its allocations
 *					(EOPNOTSUPP without fault injection)
 *	write "sites <n>"		one kmalloc() at each of the first n
 *					of AIE_HELPER_SITES call sites in
 *					aie_helper_site(), the i-th asking
 *					i + 1 bytes; held until "free all"
 *	write "pagesites <n>"		one page (alloc_page()) at each
 *					of the first n of
 *					AIE_HELPER_PAGE_SITES call sites in
 *					aie_helper_page_site(); held until
 *					"free all"
 *	write "burst <n>"		as sites, GFP_ATOMIC, under
 *					stop_machine(): no other CPU runs,
 *					no interrupt is taken meanwhile
 *	write "remake <size>"		destroy the cache of kind "remade"
 *					(none of its objects held) and
 *					create it again, of <size> bytes
 *					(8..16384); its kmem_cache may land
 *					where the one destroyed was
 *	write "storm <n>"		on every online CPU at once, a kernel
 *					thread makes n rounds of allocations
 *					and frees of the storm kinds, then
 *					frees all it holds; returns when done
 *	read				one line per kind:
 *					<kind> <function> <bytes requested> <held>
 *
 * /sys/kernel/debug/aie_helper/storm: per storm kind, "<kind> <allocations>
 * <frees>" made by storms since load; and
 * /sys/kernel/debug/aie_helper/cache_ksize: what ksize() reports for an
 * object of the private cache, and of its twin created with SLAB_ACCOUNT:
 * its slot size, or its object size on a cache with red zones, poisoning
 * or KASAN; /sys/kernel/debug/aie_helper/remade: "<ksize> <reused>", what
 * ksize() reports for an object of the "remade" cache, and 1 when that
 * cache's struct kmem_cache is at the address of the one the last
 * "remake" destroyed, else 0.
 *
 * Failures are reported as -errno to the writer and with the prefix
 * "aie_helper:" in the kernel log.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/gfp.h>
#include <linux/kmemleak.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stop_machine.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <trace/events/kmem.h>

#include "compat.h"

#define AIE_HELPER_MAX_HELD	4096
#define AIE_HELPER_LARGE	(3 * PAGE_SIZE + 1)
#define AIE_HELPER_HUGE		(8UL << 20)	/* above KMALLOC_MAX_SIZE */
#define AIE_HELPER_OBJ_SIZE	200

static struct kmem_cache *aie_helper_cache;
static struct kmem_cache *aie_helper_acct_cache;	/* SLAB_ACCOUNT */
static struct kmem_cache *aie_helper_remade;		/* "remake" */
static bool aie_helper_remade_reused;

/* Non-constant sizes: the compiler must not pick the inline kmalloc path. */
static size_t aie_helper_large_var = AIE_HELPER_LARGE;
static size_t aie_helper_huge = AIE_HELPER_HUGE;

/*
 * The user buffer of the control write being served: vmemdup_user() and
 * strndup_user() copy from it. Guarded by aie_helper_mutex.
 */
static const char __user *aie_helper_ubuf;

/* Writable, so kstrdup_const() must copy it (it shares only .rodata). */
static char aie_helper_wstr[] = "allocinfo_ext helper: a forty-char line.";

/* 40 characters: kstrdup() asks for 41 bytes. */
static const char aie_helper_str[] = "allocinfo_ext helper: a forty-char line.";
static const u8 aie_helper_blob[100];

/*
 * barrier() after each call keeps it from becoming a tail call, which
 * would move the call site into the caller.
 */
#define AIE_HELPER_KMALLOC(n)						\
static noinline void *aie_helper_kmalloc_##n(void)			\
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
static noinline void *aie_helper_kmalloc_large_const(void)
{
	void *p = kmalloc(AIE_HELPER_LARGE, GFP_KERNEL);

	barrier();
	return p;
}

/* The same size through __kmalloc, which traces it twice. */
static noinline void *aie_helper_kmalloc_large_var(void)
{
	void *p = kmalloc(READ_ONCE(aie_helper_large_var), GFP_KERNEL);

	barrier();
	return p;
}

/* Always fails: larger than the page allocator's largest order. */
static noinline void *aie_helper_kmalloc_fail(void)
{
	void *p = kmalloc(READ_ONCE(aie_helper_huge), GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return p;
}

static noinline void *aie_helper_cache_alloc(void)
{
	void *p = kmem_cache_alloc(aie_helper_cache, GFP_KERNEL);

	barrier();
	return p;
}

/* No "remade" cache yet: the kind is not there. */
static noinline void *aie_helper_remade_alloc(void)
{
	void *p;

	if (!aie_helper_remade)
		return ERR_PTR(-EOPNOTSUPP);
	p = kmem_cache_alloc(aie_helper_remade, GFP_KERNEL);
	barrier();
	return p;
}

static noinline void *aie_helper_kstrdup(void)
{
	void *p = kstrdup(aie_helper_str, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_helper_kmemdup(void)
{
	void *p = kmemdup(aie_helper_blob, sizeof(aie_helper_blob), GFP_KERNEL);

	barrier();
	return p;
}

/* Pages: every entry point of the page allocator. */
#define AIE_HELPER_PAGES(o)						\
static noinline void *aie_helper_pages##o(void)			\
{									\
	void *p = alloc_pages(GFP_KERNEL, o);				\
									\
	barrier();							\
	return p;							\
}									\
static void aie_helper_free_pages##o(const void *p)			\
{									\
	__free_pages((struct page *)p, o);				\
}

AIE_HELPER_PAGES(0)
AIE_HELPER_PAGES(2)
AIE_HELPER_PAGES(5)

/* Inline down to __alloc_pages() itself: no exported wrapper between. */
static noinline void *aie_helper_pages_node(void)
{
	void *p = alloc_pages_node(NUMA_NO_NODE, GFP_KERNEL, 1);

	barrier();
	return p;
}

static void aie_helper_free_pages1(const void *p)
{
	__free_pages((struct page *)p, 1);
}

static noinline void *aie_helper_get_free_pages(void)
{
	void *p = (void *)__get_free_pages(GFP_KERNEL, 1);

	barrier();
	return p;
}

static void aie_helper_free_pages_addr1(const void *p)
{
	free_pages((unsigned long)p, 1);
}

static noinline void *aie_helper_get_zeroed_page(void)
{
	void *p = (void *)get_zeroed_page(GFP_KERNEL);

	barrier();
	return p;
}

static void aie_helper_free_page_addr(const void *p)
{
	free_page((unsigned long)p);
}

static noinline void *aie_helper_folio_alloc(void)
{
	void *p = aie_folio_alloc(GFP_KERNEL, 2);

	barrier();
	return p;
}

static void aie_helper_folio_put(const void *p)
{
	aie_folio_put(p);
}

static noinline void *aie_helper_folio_node(void)
{
	void *p = aie_folio_alloc_node(GFP_KERNEL, 1, numa_node_id());

	barrier();
	return p;
}

/* Three pages: an order-2 block whose fourth page is freed at once. */
static noinline void *aie_helper_pages_exact(void)
{
	void *p = alloc_pages_exact(3 * PAGE_SIZE, GFP_KERNEL);

	barrier();
	return p;
}

static void aie_helper_free_pages_exact(const void *p)
{
	free_pages_exact((void *)p, 3 * PAGE_SIZE);
}

/*
 * Always fails, inside the allocator: no node is allowed, so no zone can
 * serve it, and __alloc_pages() gives up (through its tracepoint, as for
 * a block it cannot find after reclaim).
 */
static noinline void *aie_helper_pages_fail(void)
{
	nodemask_t none = NODE_MASK_NONE;
	void *p = aie_alloc_pages_mask(GFP_KERNEL | __GFP_NOWARN, 2,
				       numa_node_id(), &none);

	barrier();
	return p;
}

/* vmalloc: sizes that are and are not page multiples. */
#define AIE_HELPER_VMALLOC(name, call)					\
static noinline void *aie_helper_##name(void)				\
{									\
	void *p = call;							\
									\
	barrier();							\
	return p;							\
}

AIE_HELPER_VMALLOC(vmalloc_12288, vmalloc(3 * PAGE_SIZE))
AIE_HELPER_VMALLOC(vmalloc_10000, vmalloc(10000))
AIE_HELPER_VMALLOC(vzalloc_5000, vzalloc(5000))
AIE_HELPER_VMALLOC(vmalloc_node_4096, vmalloc_node(4096, NUMA_NO_NODE))
AIE_HELPER_VMALLOC(__vmalloc_6000, __vmalloc(6000, GFP_KERNEL))

/*
 * The helpers' calls as this kernel spells them (compat.h). One a kernel
 * lacks answers EOPNOTSUPP, and the test skips it. (Each use of the macros above
 * stays on one line: annotate_test finds a generated function's line by
 * the use that generates it.)
 */
#define AIE_KVMEMDUP(len)	aie_kvmemdup(aie_helper_blob, len)
#define AIE_KMEMDUP_ARRAY(n, size)	aie_kmemdup_array(aie_helper_blob, n, size)
#define AIE_KVREALLOC(size)	aie_kvrealloc(size)
#define AIE_KSTRDUP_CONST()	((void *)kstrdup_const(aie_helper_wstr, GFP_KERNEL))

/* Helpers that allocate on their caller's behalf. */
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
AIE_HELPER_VMALLOC(kvrealloc_200, AIE_KVREALLOC(200))

/* krealloc() frees the first object by pointer, at its own call site. */
static noinline void *aie_helper_krealloc_src(void)
{
	void *p = kmalloc(64, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_helper_krealloc_500(void)
{
	void *p = aie_helper_krealloc_src();

	p = p ? krealloc(p, 500, GFP_KERNEL) : NULL;
	barrier();
	return p;
}

AIE_HELPER_VMALLOC(kmalloc_sensitive_96, kmalloc(96, GFP_KERNEL))

static void aie_helper_kfree_sensitive(const void *p)
{
	kfree_sensitive(p);
}

static void aie_helper_kvfree(const void *p)
{
	kvfree(p);
}

static void aie_helper_kfree_const(const void *p)
{
	kfree_const(p);
}

/*
 * vmalloc that says nothing when it fails (fault_test makes it fail): a
 * vmalloc failure without __GFP_NOWARN logs a stack trace.
 */
AIE_HELPER_VMALLOC(vmalloc_nowarn, __vmalloc(3 * PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN))

/* Always fails, silently: larger than the largest percpu allocation. */
#define AIE_HELPER_PERCPU_TOO_BIG	(64 << 10)
/* The largest percpu allocation (PCPU_MIN_UNIT_SIZE): 8 pages per CPU. */
#define AIE_HELPER_PERCPU_BIG		(32 << 10)

/*
 * A percpu pointer kept where the tests keep every other: as a plain one.
 * Through an integer, as 7.x gives percpu pointers an address space of
 * their own (x86's %gs) that a cast cannot leave.
 */
static void *aie_pcpu_plain(void __percpu *p)
{
	return (void *)(__force unsigned long)p;
}

static noinline void *aie_helper_percpu_fail(void)
{
	void __percpu *p = __alloc_percpu_gfp(AIE_HELPER_PERCPU_TOO_BIG, 8,
					      GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return aie_pcpu_plain(p);
}

/* Needs pages populated for it, which fault injection can fail. */
static noinline void *aie_helper_percpu_big(void)
{
	void __percpu *p = __alloc_percpu_gfp(AIE_HELPER_PERCPU_BIG, PAGE_SIZE,
					      GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return aie_pcpu_plain(p);
}

/*
 * Accounted to the allocating task's memory cgroup: __GFP_ACCOUNT on
 * every allocator, and a cache created with SLAB_ACCOUNT.
 */
AIE_HELPER_VMALLOC(kmalloc_acct_100, kmalloc(100, GFP_KERNEL_ACCOUNT))
AIE_HELPER_VMALLOC(cache_acct, kmem_cache_alloc(aie_helper_acct_cache, GFP_KERNEL))
AIE_HELPER_VMALLOC(cache_gfp_acct, kmem_cache_alloc(aie_helper_cache, GFP_KERNEL_ACCOUNT))
AIE_HELPER_VMALLOC(pages_acct, alloc_pages(GFP_KERNEL_ACCOUNT, 1))
AIE_HELPER_VMALLOC(vmalloc_acct_10000, __vmalloc(10000, GFP_KERNEL_ACCOUNT))
AIE_HELPER_VMALLOC(percpu_acct_40, aie_pcpu_plain(__alloc_percpu_gfp(40, 8, GFP_KERNEL_ACCOUNT)))

static void aie_helper_acct_cache_free(const void *p)
{
	kmem_cache_free(aie_helper_acct_cache, (void *)p);
}

/* percpu: 40 bytes on every possible CPU. */
static noinline void *aie_helper_percpu_40(void)
{
	void __percpu *p = __alloc_percpu(40, 8);

	barrier();
	return aie_pcpu_plain(p);
}

static void aie_helper_free_percpu(const void *p)
{
	free_percpu((void __percpu *)(__force unsigned long)p);
}

/*
 * A site no symbol covers: a synthetic kmalloc event (the tracepoint is
 * exported) whose call site lies inside the private cache's kmem_cache,
 * slab memory that is no code. Each "object" is a distinct address inside
 * it too; nothing is allocated, and the matching kfree event frees it.
 */
static noinline void *aie_helper_unknown_site(void)
{
	static unsigned long n;
	void *p = (char *)aie_helper_cache + 16 + n++ % 64;

	aie_trace_kmalloc((unsigned long)aie_helper_cache + 8, p, 24, 32,
			  GFP_KERNEL);
	return p;
}

static void aie_helper_unknown_free(const void *p)
{
	trace_kfree(_RET_IP_, p);
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
static noinline void *aie_helper_ctx_##name(void)			\
{									\
	void *p;							\
									\
	WRITE_ONCE(aie_helper_ctx_hits[hit], aie_helper_ctx_hits[hit] + 1); \
	p = aie_helper_ctx_##callee();					\
	barrier();							\
	return p;							\
}

AIE_HELPER_CTX_CHAIN(mid_a, 0, site)
AIE_HELPER_CTX_CHAIN(outer_a, 1, mid_a)
AIE_HELPER_CTX_CHAIN(outer_b, 2, site)
AIE_HELPER_CTX_CHAIN(outer_c, 3, site)

static void aie_helper_cache_free(const void *p)
{
	kmem_cache_free(aie_helper_cache, (void *)p);
}

static void aie_helper_remade_free(const void *p)
{
	kmem_cache_free(aie_helper_remade, (void *)p);
}

struct aie_helper_kind {
	const char *name;
	const char *func;
	size_t req;
	void *(*alloc)(void);
	void (*free)(const void *p);
	unsigned int held;
	void *obj[AIE_HELPER_MAX_HELD];
	atomic64_t storm_allocs;	/* made by storm threads */
	atomic64_t storm_frees;
};

#define AIE_HELPER_KIND(_name, _fn, _req, _free)			\
	{ .name = _name, .func = #_fn, .req = _req, .alloc = _fn,	\
	  .free = _free }

static struct aie_helper_kind aie_helper_kinds[] = {
	AIE_HELPER_KIND("kmalloc96", aie_helper_kmalloc_96, 96, kfree),
	AIE_HELPER_KIND("kmalloc97", aie_helper_kmalloc_97, 97, kfree),
	AIE_HELPER_KIND("kmalloc128", aie_helper_kmalloc_128, 128, kfree),
	AIE_HELPER_KIND("kmalloc129", aie_helper_kmalloc_129, 129, kfree),
	AIE_HELPER_KIND("kmalloc192", aie_helper_kmalloc_192, 192, kfree),
	AIE_HELPER_KIND("kmalloc193", aie_helper_kmalloc_193, 193, kfree),
	AIE_HELPER_KIND("large_const", aie_helper_kmalloc_large_const,
			AIE_HELPER_LARGE, kfree),
	AIE_HELPER_KIND("large_var", aie_helper_kmalloc_large_var,
			AIE_HELPER_LARGE, kfree),
	AIE_HELPER_KIND("fail", aie_helper_kmalloc_fail, AIE_HELPER_HUGE,
			kfree),
	AIE_HELPER_KIND("cache", aie_helper_cache_alloc, AIE_HELPER_OBJ_SIZE,
			aie_helper_cache_free),
	AIE_HELPER_KIND("remade", aie_helper_remade_alloc, 0,
			aie_helper_remade_free),
	AIE_HELPER_KIND("kstrdup", aie_helper_kstrdup,
			sizeof(aie_helper_str), kfree),
	AIE_HELPER_KIND("kmemdup", aie_helper_kmemdup,
			sizeof(aie_helper_blob), kfree),
	AIE_HELPER_KIND("pages0", aie_helper_pages0, PAGE_SIZE,
			aie_helper_free_pages0),
	AIE_HELPER_KIND("pages2", aie_helper_pages2, PAGE_SIZE << 2,
			aie_helper_free_pages2),
	AIE_HELPER_KIND("pages5", aie_helper_pages5, PAGE_SIZE << 5,
			aie_helper_free_pages5),
	AIE_HELPER_KIND("pages_node", aie_helper_pages_node, PAGE_SIZE << 1,
			aie_helper_free_pages1),
	AIE_HELPER_KIND("get_free_pages", aie_helper_get_free_pages,
			PAGE_SIZE << 1, aie_helper_free_pages_addr1),
	AIE_HELPER_KIND("get_zeroed_page", aie_helper_get_zeroed_page,
			PAGE_SIZE, aie_helper_free_page_addr),
	AIE_HELPER_KIND("folio", aie_helper_folio_alloc, PAGE_SIZE << 2,
			aie_helper_folio_put),
	AIE_HELPER_KIND("folio_node", aie_helper_folio_node, PAGE_SIZE << 1,
			aie_helper_folio_put),
	AIE_HELPER_KIND("pages_exact", aie_helper_pages_exact, 3 * PAGE_SIZE,
			aie_helper_free_pages_exact),
	AIE_HELPER_KIND("pages_fail", aie_helper_pages_fail, 0, kfree),
	AIE_HELPER_KIND("vmalloc12288", aie_helper_vmalloc_12288,
			3 * PAGE_SIZE, aie_helper_kvfree),
	AIE_HELPER_KIND("vmalloc10000", aie_helper_vmalloc_10000, 10000,
			aie_helper_kvfree),
	AIE_HELPER_KIND("vzalloc5000", aie_helper_vzalloc_5000, 5000,
			aie_helper_kvfree),
	AIE_HELPER_KIND("vmalloc_node4096", aie_helper_vmalloc_node_4096, 4096,
			aie_helper_kvfree),
	AIE_HELPER_KIND("__vmalloc6000", aie_helper___vmalloc_6000, 6000,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvmalloc100", aie_helper_kvmalloc_100, 100,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvmalloc8m", aie_helper_kvmalloc_8m, AIE_HELPER_HUGE,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvzalloc300", aie_helper_kvzalloc_300, 300,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvcalloc300", aie_helper_kvcalloc_10x30, 300,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kvmalloc_array140", aie_helper_kvmalloc_array_7x20,
			140, aie_helper_kvfree),
	AIE_HELPER_KIND("kvmemdup100", aie_helper_kvmemdup_100, 100,
			aie_helper_kvfree),
	AIE_HELPER_KIND("kmemdup_array100", aie_helper_kmemdup_array_5x20, 100,
			kfree),
	AIE_HELPER_KIND("kstrdup_const", aie_helper_kstrdup_const,
			sizeof(aie_helper_wstr), aie_helper_kfree_const),
	AIE_HELPER_KIND("vmemdup_user16", aie_helper_vmemdup_user_16, 16,
			aie_helper_kvfree),
	AIE_HELPER_KIND("strndup_user", aie_helper_strndup_user, 0, kfree),
	AIE_HELPER_KIND("kvrealloc200", aie_helper_kvrealloc_200, 200,
			aie_helper_kvfree),
	AIE_HELPER_KIND("percpu40", aie_helper_percpu_40, 40,
			aie_helper_free_percpu),
	AIE_HELPER_KIND("kmalloc_acct100", aie_helper_kmalloc_acct_100, 100,
			kfree),
	AIE_HELPER_KIND("cache_acct", aie_helper_cache_acct,
			AIE_HELPER_OBJ_SIZE, aie_helper_acct_cache_free),
	AIE_HELPER_KIND("cache_gfp_acct", aie_helper_cache_gfp_acct,
			AIE_HELPER_OBJ_SIZE, aie_helper_cache_free),
	AIE_HELPER_KIND("pages_acct", aie_helper_pages_acct, PAGE_SIZE << 1,
			aie_helper_free_pages1),
	AIE_HELPER_KIND("vmalloc_acct10000", aie_helper_vmalloc_acct_10000,
			10000, aie_helper_kvfree),
	AIE_HELPER_KIND("percpu_acct40", aie_helper_percpu_acct_40, 40,
			aie_helper_free_percpu),
	AIE_HELPER_KIND("percpu_fail", aie_helper_percpu_fail,
			AIE_HELPER_PERCPU_TOO_BIG, aie_helper_free_percpu),
	AIE_HELPER_KIND("percpu_big", aie_helper_percpu_big,
			AIE_HELPER_PERCPU_BIG, aie_helper_free_percpu),
	AIE_HELPER_KIND("vmalloc_nowarn", aie_helper_vmalloc_nowarn,
			3 * PAGE_SIZE, aie_helper_kvfree),
	AIE_HELPER_KIND("krealloc500", aie_helper_krealloc_500, 500, kfree),
	AIE_HELPER_KIND("unknown_site", aie_helper_unknown_site, 24,
			aie_helper_unknown_free),
	AIE_HELPER_KIND("kfree_sensitive96", aie_helper_kmalloc_sensitive_96, 96,
			aie_helper_kfree_sensitive),
	AIE_HELPER_KIND("ctx_a", aie_helper_ctx_outer_a, 64, kfree),
	AIE_HELPER_KIND("ctx_b", aie_helper_ctx_outer_b, 64, kfree),
	AIE_HELPER_KIND("ctx_c", aie_helper_ctx_outer_c, 64, kfree),
};

/*
 * Storm kinds: every allocator, a helper that hides its caller, and a
 * large kmalloc(), whose pages' slab map entries are set and cleared with
 * no lock.
 */
static const char * const aie_storm_kinds[] = {
	"kmalloc96", "kmalloc193", "cache", "pages0", "pages2",
	"vmalloc10000", "percpu40", "kvmalloc100", "large_const",
};

#define AIE_STORM_RING	16	/* objects a thread holds per kind */

struct aie_storm {
	unsigned int rounds;
	atomic_t running;
	struct completion done;
};

static struct aie_helper_kind *aie_helper_find(const char *name);

/*
 * One storm thread: @rounds times, per kind, allocate one object and free
 * the oldest of a ring of AIE_STORM_RING, then free the rest. Process
 * context: every kind may sleep.
 */
static int aie_storm_thread(void *arg)
{
	void *slots[ARRAY_SIZE(aie_storm_kinds)][AIE_STORM_RING] = { };
	struct aie_storm *st = arg;
	struct aie_helper_kind *k;
	unsigned int r, i, j;
	void *p;

	for (r = 0; r < st->rounds; r++) {
		for (i = 0; i < ARRAY_SIZE(aie_storm_kinds); i++) {
			k = aie_helper_find(aie_storm_kinds[i]);
			j = r % AIE_STORM_RING;
			if (slots[i][j]) {
				k->free(slots[i][j]);
				atomic64_inc(&k->storm_frees);
			}
			p = k->alloc();
			slots[i][j] = IS_ERR(p) ? NULL : p;
			if (slots[i][j])
				atomic64_inc(&k->storm_allocs);
		}
		cond_resched();
	}
	for (i = 0; i < ARRAY_SIZE(aie_storm_kinds); i++) {
		k = aie_helper_find(aie_storm_kinds[i]);
		for (j = 0; j < AIE_STORM_RING; j++) {
			if (slots[i][j]) {
				k->free(slots[i][j]);
				atomic64_inc(&k->storm_frees);
			}
		}
	}
	if (atomic_dec_and_test(&st->running))
		complete(&st->done);
	return 0;
}

/* A storm thread bound to every online CPU; returns when all are done. */
static int aie_helper_storm(unsigned int rounds)
{
	struct aie_storm st = { .rounds = rounds };
	struct task_struct *t;
	int cpu, ret = 0;

	init_completion(&st.done);
	atomic_set(&st.running, 1);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		/* kthread_create_on_cpu() is not exported on 5.10 */
		t = kthread_create_on_node(aie_storm_thread, &st,
					   cpu_to_node(cpu), "aie_storm/%u",
					   cpu);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			break;
		}
		kthread_bind(t, cpu);
		atomic_inc(&st.running);
		wake_up_process(t);
	}
	cpus_read_unlock();
	if (!atomic_dec_and_test(&st.running))
		wait_for_completion(&st.done);
	return ret;
}

static DEFINE_MUTEX(aie_helper_mutex);	/* guards aie_helper_kinds[].held */
static struct dentry *aie_helper_dir;

static struct aie_helper_kind *aie_helper_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_helper_kinds); i++) {
		if (!strcmp(aie_helper_kinds[i].name, name))
			return &aie_helper_kinds[i];
	}
	return NULL;
}

/*
 * A failed allocation is not held, and not an error: "fail" wants it. A
 * kind this kernel lacks answers EOPNOTSUPP.
 */
static int aie_helper_alloc(struct aie_helper_kind *k, unsigned int n)
{
	void *p;

	if (n > AIE_HELPER_MAX_HELD - k->held)
		return -ENOSPC;
	while (n--) {
		p = k->alloc();
		if (p == ERR_PTR(-EOPNOTSUPP))
			return -EOPNOTSUPP;
		if (!IS_ERR_OR_NULL(p))
			k->obj[k->held++] = p;
	}
	return 0;
}

/*
 * alloc, each call under this task's make-it-fail flag, which fault
 * injection's task-filter reads: only the allocations made inside the
 * helper's call can fail, not those of the write around it, nor the
 * test's own page faults.
 */
static int aie_helper_inject(struct aie_helper_kind *k, unsigned int n)
{
#ifdef CONFIG_FAULT_INJECTION
	void *p;

	if (n > AIE_HELPER_MAX_HELD - k->held)
		return -ENOSPC;
	while (n--) {
		current->make_it_fail = 1;
		p = k->alloc();
		current->make_it_fail = 0;
		if (p == ERR_PTR(-EOPNOTSUPP))
			return -EOPNOTSUPP;
		if (!IS_ERR_OR_NULL(p))
			k->obj[k->held++] = p;
	}
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

/* Objects that live for an instant: each freed right after its allocation. */
static int aie_helper_churn(struct aie_helper_kind *k, unsigned int n)
{
	void *p;

	while (n--) {
		p = k->alloc();
		if (p == ERR_PTR(-EOPNOTSUPP))
			return -EOPNOTSUPP;
		if (!IS_ERR_OR_NULL(p))
			k->free(p);
	}
	return 0;
}

/* Allocations the module never frees: what its unload leaves live. */
static int aie_helper_leak(struct aie_helper_kind *k, unsigned int n)
{
	void *p;

	if (k->free != kfree || k->req > PAGE_SIZE)
		return -EINVAL;	/* slab objects only */
	while (n--) {
		p = k->alloc();
		if (p)
			kmemleak_not_leak(p);
	}
	return 0;
}

/*
 * What kfree() does with a large kmalloc()'s pages (free_large_kmalloc()),
 * without its kfree event: only the page allocator's free is traced. The
 * pages' NR_SLAB_UNRECLAIMABLE_B and kmemleak's object go as they would.
 */
static void aie_helper_free_unseen(void *p)
{
	struct page *page = virt_to_head_page(p);
	unsigned int order = compound_order(page);

	kmemleak_free(p);
	aie_mod_slab_pages(page, -(PAGE_SIZE << order));
	aie_free_large_kmalloc_pages(page, order);
}

static int aie_helper_unseen(struct aie_helper_kind *k, unsigned int n)
{
	if (k->free != kfree || k->req <= KMALLOC_MAX_CACHE_SIZE)
		return -EINVAL;	/* large kmalloc()s only */
	if (n > k->held)
		return -ERANGE;
	while (n--)
		aie_helper_free_unseen(k->obj[--k->held]);
	return 0;
}

static int aie_helper_free(struct aie_helper_kind *k, unsigned int n)
{
	if (n > k->held)
		return -ERANGE;
	while (n--)
		k->free(k->obj[--k->held]);
	return 0;
}

/*
 * AIE_HELPER_SITES call sites in one function: case i allocates i + 1
 * bytes, so that no two cases compile to the same code and merge. The
 * result goes through @p, so that no call is a tail call, whose call site
 * would be aie_helper_site()'s caller. The macros expand to case labels,
 * which no parentheses or do-while can hold (checkpatch's COMPLEX_MACRO).
 */
#define AIE_HELPER_SITES	768
#define AIE_SITE_1(i)	case (i): *p = kmalloc((i) + 1, gfp); break;
/* 4, 16, 64 and 256 cases of @one from @i on */
#define AIE_CASES_4(one, i)	one(i) one((i) + 1) one((i) + 2) one((i) + 3)
#define AIE_CASES_16(one, i)	AIE_CASES_4(one, i) AIE_CASES_4(one, (i) + 4) \
				AIE_CASES_4(one, (i) + 8) \
				AIE_CASES_4(one, (i) + 12)
#define AIE_CASES_64(one, i)	AIE_CASES_16(one, i) \
				AIE_CASES_16(one, (i) + 16) \
				AIE_CASES_16(one, (i) + 32) \
				AIE_CASES_16(one, (i) + 48)
#define AIE_CASES_256(one, i)	AIE_CASES_64(one, i) \
				AIE_CASES_64(one, (i) + 64) \
				AIE_CASES_64(one, (i) + 128) \
				AIE_CASES_64(one, (i) + 192)

static noinline void aie_helper_site(unsigned int i, void **p, gfp_t gfp)
{
	switch (i) {
	AIE_CASES_256(AIE_SITE_1, 0)
	AIE_CASES_256(AIE_SITE_1, 256)
	AIE_CASES_256(AIE_SITE_1, 512)
	}
}

static void *aie_helper_site_objs[AIE_HELPER_SITES];
static unsigned int aie_helper_site_held;

static unsigned int aie_helper_sites_fill(unsigned int n, gfp_t gfp)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		aie_helper_site(i, &aie_helper_site_objs[i], gfp);
		if (!aie_helper_site_objs[i])
			break;
	}
	return i;
}

static int aie_helper_burst_fn(void *n)
{
	aie_helper_site_held = aie_helper_sites_fill(*(unsigned int *)n,
						     GFP_ATOMIC);
	return 0;
}

/*
 * One object at each of the first @n sites, none held from before; in
 * @burst, all while no other CPU runs and interrupts are off, so that
 * nothing the allocations start (allocinfo_ext's irq_work and workqueue)
 * can run until all are made.
 */
static int aie_helper_sites(unsigned int n, bool burst)
{
	int ret;

	if (n > AIE_HELPER_SITES || aie_helper_site_held)
		return -EINVAL;
	if (burst) {
		ret = stop_machine(aie_helper_burst_fn, &n, NULL);
		if (ret)
			return ret;
	} else {
		aie_helper_site_held = aie_helper_sites_fill(n, GFP_KERNEL);
	}
	return aie_helper_site_held == n ? 0 : -ENOMEM;
}

/*
 * AIE_HELPER_PAGE_SITES page allocation call sites in one function. The
 * calls are alike: an empty asm statement with a distinct operand after
 * each keeps the compiler from making one of them.
 */
#define AIE_HELPER_PAGE_SITES	512
#define AIE_PAGE_SITE_1(i)	case (i): *p = alloc_page(GFP_KERNEL); \
				asm volatile("" : : "i" (i)); break;

static noinline void aie_helper_page_site(unsigned int i, struct page **p)
{
	switch (i) {
	AIE_CASES_256(AIE_PAGE_SITE_1, 0)
	AIE_CASES_256(AIE_PAGE_SITE_1, 256)
	}
}

static struct page *aie_helper_page_objs[AIE_HELPER_PAGE_SITES];
static unsigned int aie_helper_page_held;

/* One page at each of the first @n page sites, none held from before. */
static int aie_helper_page_sites(unsigned int n)
{
	if (n > AIE_HELPER_PAGE_SITES || aie_helper_page_held)
		return -EINVAL;
	for (; aie_helper_page_held < n; aie_helper_page_held++) {
		aie_helper_page_site(aie_helper_page_held,
				     &aie_helper_page_objs[aie_helper_page_held]);
		if (!aie_helper_page_objs[aie_helper_page_held])
			return -ENOMEM;
	}
	return 0;
}

/* A constructor keeps a cache from being merged with another one. */
static void aie_helper_ctor(void *obj)
{
}

/*
 * Destroy the "remade" cache and create it again, @size bytes, with
 * nothing of it held. Whether the new kmem_cache reuses the address of the
 * one destroyed is up to SLUB: the caller reads "reused".
 */
static int aie_helper_remake(unsigned int size)
{
	struct aie_helper_kind *k = aie_helper_find("remade");
	struct kmem_cache *old = aie_helper_remade;

	if (size < 8 || size > 16384)
		return -EINVAL;
	if (k->held)
		return -EBUSY;
	kmem_cache_destroy(old);
	aie_helper_remade = kmem_cache_create("aie_helper_remade", size, 8, 0,
					      aie_helper_ctor);
	if (!aie_helper_remade)
		return -ENOMEM;
	aie_helper_remade_reused = old && aie_helper_remade == old;
	k->req = size;
	return 0;
}

static void aie_helper_free_all(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_helper_kinds); i++)
		aie_helper_free(&aie_helper_kinds[i], aie_helper_kinds[i].held);
	while (aie_helper_site_held)
		kfree(aie_helper_site_objs[--aie_helper_site_held]);
	while (aie_helper_page_held)
		__free_page(aie_helper_page_objs[--aie_helper_page_held]);
}

static int aie_helper_command(char *cmd)
{
	char *verb = strsep(&cmd, " "), *kind = strsep(&cmd, " ");
	struct aie_helper_kind *k;
	unsigned int n;

	if (verb && kind && !cmd && !strcmp(verb, "free") &&
	    !strcmp(kind, "all")) {
		aie_helper_free_all();
		return 0;
	}
	if (verb && kind && !cmd && !strcmp(verb, "storm"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_storm(n);
	if (verb && kind && !cmd && !strcmp(verb, "remake"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_remake(n);
	if (verb && kind && !cmd && !strcmp(verb, "sites"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_sites(n, false);
	if (verb && kind && !cmd && !strcmp(verb, "pagesites"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_page_sites(n);
	if (verb && kind && !cmd && !strcmp(verb, "burst"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_sites(n, true);
	if (!verb || !kind || !cmd || kstrtouint(cmd, 10, &n))
		return -EINVAL;
	k = aie_helper_find(kind);
	if (!k)
		return -EINVAL;
	if (!strcmp(verb, "alloc"))
		return aie_helper_alloc(k, n);
	if (!strcmp(verb, "free"))
		return aie_helper_free(k, n);
	if (!strcmp(verb, "leak"))
		return aie_helper_leak(k, n);
	if (!strcmp(verb, "unseen"))
		return aie_helper_unseen(k, n);
	if (!strcmp(verb, "churn"))
		return aie_helper_churn(k, n);
	if (!strcmp(verb, "inject"))
		return aie_helper_inject(k, n);
	return -EINVAL;
}

static ssize_t aie_helper_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	char *buf;
	int ret;

	if (len > 64)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	strim(buf);
	mutex_lock(&aie_helper_mutex);
	aie_helper_ubuf = ubuf;
	ret = aie_helper_command(buf);
	aie_helper_ubuf = NULL;
	mutex_unlock(&aie_helper_mutex);
	if (ret)
		pr_err("command \"%s\" failed: %d\n", buf, ret);
	kfree(buf);
	return ret ? ret : len;
}

static int aie_helper_show(struct seq_file *m, void *v)
{
	struct aie_helper_kind *k;
	unsigned int i;

	mutex_lock(&aie_helper_mutex);
	for (i = 0; i < ARRAY_SIZE(aie_helper_kinds); i++) {
		k = &aie_helper_kinds[i];
		seq_printf(m, "%s %s %zu %u\n", k->name, k->func, k->req,
			   k->held);
	}
	mutex_unlock(&aie_helper_mutex);
	return 0;
}

static int aie_helper_open(struct inode *inode, struct file *file)
{
	return single_open(file, aie_helper_show, NULL);
}

static const struct file_operations aie_helper_fops = {
	.owner = THIS_MODULE,
	.open = aie_helper_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = aie_helper_write,
};

static noinline void *aie_helper_cache_probe(void)
{
	void *p = kmem_cache_alloc(aie_helper_cache, GFP_KERNEL);

	barrier();
	return p;
}

static int aie_helper_storm_show(struct seq_file *m, void *v)
{
	struct aie_helper_kind *k;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_storm_kinds); i++) {
		k = aie_helper_find(aie_storm_kinds[i]);
		seq_printf(m, "%s %lld %lld\n", k->name,
			   (long long)atomic64_read(&k->storm_allocs),
			   (long long)atomic64_read(&k->storm_frees));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(aie_helper_storm);

static int aie_helper_cache_ksize_get(void *data, u64 *val)
{
	void *p = aie_helper_cache_probe();

	if (!p)
		return -ENOMEM;
	*val = ksize(p);
	kmem_cache_free(aie_helper_cache, p);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(aie_helper_cache_ksize_fops,
			 aie_helper_cache_ksize_get, NULL, "%llu\n");

static noinline void *aie_helper_remade_probe(void)
{
	void *p = kmem_cache_alloc(aie_helper_remade, GFP_KERNEL);

	barrier();
	return p;
}

static int aie_helper_remade_show(struct seq_file *m, void *v)
{
	unsigned int size = 0;
	void *p;

	mutex_lock(&aie_helper_mutex);
	if (aie_helper_remade) {
		p = aie_helper_remade_probe();
		if (p) {
			size = ksize(p);
			kmem_cache_free(aie_helper_remade, p);
		}
	}
	seq_printf(m, "%u %d\n", size, aie_helper_remade_reused);
	mutex_unlock(&aie_helper_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(aie_helper_remade);

/*
 * The helper's source file as its build named it to the compiler, which
 * its debug information names too (annotate_test): an absolute path, or
 * one relative to the module's directory (7.x builds M= with those).
 */
static int aie_helper_source_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", __FILE__);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(aie_helper_source);

static int __init aie_helper_init(void)
{
	aie_helper_cache = kmem_cache_create("aie_helper_obj",
					     AIE_HELPER_OBJ_SIZE, 8, 0,
					     aie_helper_ctor);
	if (!aie_helper_cache)
		return -ENOMEM;
	aie_helper_acct_cache = kmem_cache_create("aie_helper_acct",
						  AIE_HELPER_OBJ_SIZE, 8,
						  SLAB_ACCOUNT, aie_helper_ctor);
	if (!aie_helper_acct_cache) {
		kmem_cache_destroy(aie_helper_cache);
		return -ENOMEM;
	}
	aie_helper_dir = debugfs_create_dir("aie_helper", NULL);
	debugfs_create_file("ctl", 0600, aie_helper_dir, NULL,
			    &aie_helper_fops);
	debugfs_create_file_unsafe("cache_ksize", 0400, aie_helper_dir, NULL,
				   &aie_helper_cache_ksize_fops);
	debugfs_create_file("storm", 0400, aie_helper_dir, NULL,
			    &aie_helper_storm_fops);
	debugfs_create_file("remade", 0400, aie_helper_dir, NULL,
			    &aie_helper_remade_fops);
	debugfs_create_file("source", 0400, aie_helper_dir, NULL,
			    &aie_helper_source_fops);
	return 0;
}

static void __exit aie_helper_exit(void)
{
	debugfs_remove_recursive(aie_helper_dir);
	aie_helper_free_all();
	kmem_cache_destroy(aie_helper_remade);
	kmem_cache_destroy(aie_helper_acct_cache);
	kmem_cache_destroy(aie_helper_cache);
}

module_init(aie_helper_init);
module_exit(aie_helper_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Allocates known sizes at known call sites for the allocinfo_ext selftests");
