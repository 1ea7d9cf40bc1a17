/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernels allocinfo_ext builds for
 * lives here, with the kernel that made it. The core files use what this
 * file defines and test no kernel version; here AIE_KERNEL_BEFORE() does.
 * The module is written for 6.1's interfaces, and this file gives them on
 * the others.
 *
 * Kernels built and tested: Debian's 5.10, 6.1, 6.12 (and its rt and
 * cloud flavours) and 7.x (Documentation/admin-guide.rst), and the test
 * kernels of shared/kernels. The slab adapters below are macros that
 * define functions, which checkpatch takes for flow control in a macro.
 *
 * Function names
 * --------------
 * The hooks find the allocator's functions by name (kretprobes, kprobes)
 * and callers.c classifies call sites by the name of the function they lie
 * in. Linux 6.10 (memory allocation profiling, alloc_hooks()) renamed most
 * allocator entry points with a _noprof suffix, and made the old names
 * macros around them. Each AIE_FN_* below lists one function's names,
 * newest first, as comma-separated string literals: a kretprobe tries them
 * in turn, and callers.c matches any. A kernel has one of them, or none; a
 * name it lacks fails to probe and never matches, which needs no version
 * test.
 *
 * Interfaces the same from 5.10 to 7.x
 * ------------------------------------
 * The module relies on 6.1's interfaces; those that differ have a section
 * of their own below. These do not: mm_page_free(page, order) and
 * percpu_free_percpu(base_addr, off, ptr); regs_get_kernel_argument(),
 * which reads arguments past the sixth from the stack;
 * for_each_kernel_tracepoint() and tracepoint_probe_register();
 * sprint_symbol() (kallsyms_on_each_symbol() lost its module argument in
 * 6.4, unused here); ksize() and kmem_cache_size(); within_module(), which
 * hides struct module's layout (core_layout became mem[] in 6.4).
 *
 * The inner kmalloc event of a large kmalloc: from 6.10 __kmalloc*()
 * reaches ___kmalloc_large_node(), which fires trace_kmalloc() with a call
 * site inside the entry point before the entry point fires it with the
 * real caller; before 6.10 the inner function did not trace. See
 * AIE_FN_KMALLOC_ENTRY* and AIE_KVMALLOC_NODE_SITE.
 */
#ifndef _AIE_COMPAT_H
#define _AIE_COMPAT_H

/*
 * Page allocator: callers.c marks the wrappers, which the walk of frames.c
 * goes through, and the internal callers; hooks/page.c probes the exact
 * allocators.
 */

/* The mm_page_alloc tracepoint's iterator, when several probes share it. */
#define AIE_FN_PAGE_ALLOC_TP		"__traceiter_mm_page_alloc"

/*
 * __alloc_pages_nodemask(), __alloc_pages() since 5.13,
 * __alloc_pages_noprof() since 6.10: the tracepoint's function until
 * frozen pages (6.14), a wrapper around __alloc_frozen_pages_noprof()
 * since, which fires it.
 */
#define AIE_FN_ALLOC_PAGES_CORE		"__alloc_pages_noprof", "__alloc_pages", \
					"__alloc_pages_nodemask"
/*
 * alloc_pages(); alloc_pages_noprof() since 6.10; alloc_pages_current()
 * behind an inline alloc_pages() on NUMA kernels until 5.13.
 */
#define AIE_FN_ALLOC_PAGES		"alloc_pages_noprof", "alloc_pages", \
					"alloc_pages_current"
/* Frozen pages (6.14): the allocator's core, and mempolicy's entry. */
#define AIE_FN_ALLOC_FROZEN_PAGES_CORE	"__alloc_frozen_pages_noprof"
#define AIE_FN_ALLOC_FROZEN_PAGES	"alloc_frozen_pages_noprof"
/* alloc_pages_node(): inline around __alloc_pages*() until 7.x. */
#define AIE_FN_ALLOC_PAGES_NODE		"alloc_pages_node_noprof"
/* alloc_pages_mpol() since 6.7; alloc_pages_mpol_noprof() since 6.10. */
#define AIE_FN_ALLOC_PAGES_MPOL		"alloc_pages_mpol_noprof", \
					"alloc_pages_mpol"
/* __folio_alloc(); __folio_alloc_noprof() since 6.10. */
#define AIE_FN_FOLIO_ALLOC_CORE		"__folio_alloc_noprof", "__folio_alloc"
/* folio_alloc(); folio_alloc_noprof() since 6.10. */
#define AIE_FN_FOLIO_ALLOC		"folio_alloc_noprof", "folio_alloc"
/* folio_alloc_mpol_noprof() since 6.10; its older name is not listed. */
#define AIE_FN_FOLIO_ALLOC_MPOL		"folio_alloc_mpol_noprof"
/* vma_alloc_folio(); vma_alloc_folio_noprof() since 6.10. */
#define AIE_FN_VMA_ALLOC_FOLIO		"vma_alloc_folio_noprof", "vma_alloc_folio"
/* alloc_pages_vma(), before vma_alloc_folio() (6.1). */
#define AIE_FN_ALLOC_PAGES_VMA		"alloc_pages_vma"
/* __get_free_pages(); get_free_pages_noprof() since 6.10. */
#define AIE_FN_GET_FREE_PAGES		"get_free_pages_noprof", "__get_free_pages"
/* get_zeroed_page(); get_zeroed_page_noprof() since 6.10. */
#define AIE_FN_GET_ZEROED_PAGE		"get_zeroed_page_noprof", "get_zeroed_page"
/* __alloc_pages_bulk(); alloc_pages_bulk_noprof() since 6.10. */
#define AIE_FN_ALLOC_PAGES_BULK		"alloc_pages_bulk_noprof", "__alloc_pages_bulk"
/* alloc_pages_exact(); alloc_pages_exact_noprof() since 6.10. */
#define AIE_FN_ALLOC_PAGES_EXACT	"alloc_pages_exact_noprof", "alloc_pages_exact"
/* alloc_pages_exact_nid(); alloc_pages_exact_nid_noprof() since 6.10. */
#define AIE_FN_ALLOC_PAGES_EXACT_NID	"alloc_pages_exact_nid_noprof", \
					"alloc_pages_exact_nid"

/* vmalloc (hooks/vmalloc.c): __vmalloc_node_range_noprof() since 6.10. */
#define AIE_FN_VMALLOC_NODE_RANGE	"__vmalloc_node_range_noprof", \
					"__vmalloc_node_range"
/* kmem_cache_alloc_bulk() (hooks/slab_bulk.c): _noprof since 6.10. */
#define AIE_FN_KMEM_CACHE_ALLOC_BULK	"kmem_cache_alloc_bulk_noprof", \
					"kmem_cache_alloc_bulk"

/* Slab (callers.c). */

/*
 * The kmalloc entry points whose large requests fire an inner kmalloc
 * event (6.10 and later, see above). Only the 6.10 names are listed: the
 * older __kmalloc*() fire no inner event and their call sites are not
 * internal.
 */
#define AIE_FN_KMALLOC_ENTRY		"__kmalloc_noprof"
#define AIE_FN_KMALLOC_NODE_ENTRY	"__kmalloc_node_noprof"
#define AIE_FN_KMALLOC_CALLER_ENTRY	"__kmalloc_node_track_caller_noprof"
/*
 * The functions that take pages for a large kmalloc: kmalloc_large() and
 * kmalloc_large_node() became __kmalloc_large_noprof() and
 * __kmalloc_large_node_noprof() in 6.10, and their common static helper
 * __kmalloc_large_node() became ___kmalloc_large_node(). Before 6.1 the
 * pages were taken in kmalloc_order(), below an inline kmalloc_large().
 */
#define AIE_FN_KMALLOC_LARGE		"__kmalloc_large_noprof", "kmalloc_large", \
					"kmalloc_order"
#define AIE_FN_KMALLOC_LARGE_NODE	"__kmalloc_large_node_noprof", \
					"kmalloc_large_node"
#define AIE_FN_KMALLOC_LARGE_INNER	"___kmalloc_large_node", \
					"__kmalloc_large_node"

/* Helpers that hide their caller (callers.c). */

/* kvmalloc_node(); __kvmalloc_node_noprof() since 6.10. */
#define AIE_FN_KVMALLOC_NODE		"__kvmalloc_node_noprof", "kvmalloc_node"
/*
 * kvrealloc(); kvrealloc_noprof() since 6.10; kvrealloc_node_align_noprof()
 * since 6.17.
 */
#define AIE_FN_KVREALLOC		"kvrealloc_node_align_noprof", \
					"kvrealloc_noprof", "kvrealloc"
/*
 * Functions before 6.10, macros around pcpu_alloc_noprof() since: a
 * kernel from 6.10 on has none of these names.
 */
#define AIE_FN_ALLOC_PERCPU_GFP		"__alloc_percpu_gfp"
#define AIE_FN_ALLOC_PERCPU		"__alloc_percpu"
#define AIE_FN_ALLOC_RESERVED_PERCPU	"__alloc_reserved_percpu"

/*
 * The percpu allocator, all of whose entry points end in it (hooks/percpu.c
 * probes its returns for failures): pcpu_alloc(), static, before 6.10;
 * pcpu_alloc_noprof(), which the alloc_percpu*() macros call, since.
 */
#define AIE_FN_PCPU_ALLOC		"pcpu_alloc_noprof", "pcpu_alloc"

#include <linux/linkage.h>
#include <linux/version.h>

/* Whether this kernel is older than release @a.@b.@c: the tree's one test. */
#define AIE_KERNEL_BEFORE(a, b, c)	(LINUX_VERSION_CODE < KERNEL_VERSION(a, b, c))

/*
 * Control-flow integrity (hooks/page_alloc.h): kCFI checks the type of an
 * indirect call's target; CONFIG_CFI_CLANG, CONFIG_CFI since 6.18.
 */
#if defined(CONFIG_CFI_CLANG) || defined(CONFIG_CFI)
#define AIE_KCFI
#endif

#ifdef __ASSEMBLER__
/*
 * The start of an assembly function called indirectly, with the ENDBR of
 * an IBT kernel (5.18): SYM_TYPED_FUNC_START() since 6.1, which
 * SYM_FUNC_START() also began with until 6.16 or so. 5.10 has neither the
 * macro nor IBT.
 */
#if !AIE_KERNEL_BEFORE(6, 1, 0)
#include <linux/cfi_types.h>
#else
#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)
#endif

#else /* !__ASSEMBLER__ */

#include <linux/bitops.h>
#include <linux/mm.h>

/*
 * __noendbr (asm/ibt.h, x86, 5.18): a function reached by a jump alone
 * needs no ENDBR. Before 5.18 no kernel has one, nor any arm64 kernel.
 */
#if defined(CONFIG_X86) && !AIE_KERNEL_BEFORE(5, 18, 0)
#include <asm/ibt.h>
#endif
#ifndef __noendbr
#define __noendbr
#endif

/*
 * An arm64 kernel return address with its pointer authentication code
 * stripped (none without pac-ret): ptrauth_strip_kernel_insn_pac() since
 * 6.4, ptrauth_strip_insn_pac() (asm/pointer_auth.h) before.
 */
#ifdef CONFIG_ARM64
#if !AIE_KERNEL_BEFORE(6, 4, 0)
#include <asm/compiler.h>
#define aie_ptrauth_strip(ptr)	ptrauth_strip_kernel_insn_pac(ptr)
#else
#include <asm/pointer_auth.h>
#define aie_ptrauth_strip(ptr)	ptrauth_strip_insn_pac(ptr)
#endif
#endif

/* test_bit_acquire() since 6.0: before it, the same load, written out. */
#ifndef test_bit_acquire
static __always_inline bool test_bit_acquire(unsigned long nr,
					     const unsigned long *addr)
{
	/* pairs with the release that set the bit */
	return smp_load_acquire(&addr[BIT_WORD(nr)]) & BIT_MASK(nr);
}
#endif

/*
 * interrupt_context_level() (symbols.c) since 5.16: 0 in a task, 1 in a
 * softirq, 2 in a hardirq, 3 in an NMI; the same count before it.
 */
#if AIE_KERNEL_BEFORE(5, 16, 0)
#include <linux/preempt.h>

static __always_inline unsigned char interrupt_context_level(void)
{
	unsigned long pc = preempt_count();

	return !!(pc & NMI_MASK) + !!(pc & (NMI_MASK | HARDIRQ_MASK)) +
	       !!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
}
#endif

/* KFENCE (linux/kfence.h) since 5.12: before it, no object is one of its. */
#if !AIE_KERNEL_BEFORE(5, 12, 0)
#include <linux/kfence.h>
#else
#define is_kfence_address(addr)		((void)(addr), false)
#endif

/*
 * Tracepoints call their probes with preemption disabled until 7.0, under
 * SRCU-fast alone since (preemptible on Debian's 7.x, PREEMPT_LAZY). The
 * hooks must stay on one CPU and be sched-RCU readers: aie_tp_guard(),
 * after a tracepoint probe's declarations, disables preemption until the
 * probe returns where the tracepoint does not. (Kprobes always do.)
 */
#if AIE_KERNEL_BEFORE(7, 0, 0)
#define aie_tp_guard()	do { } while (0)
#else
#include <linux/preempt.h>
#define aie_tp_guard()	guard(preempt_notrace)()
#endif

/*
 * percpu_alloc_percpu carries call_site, bytes_alloc and gfp_flags since
 * 5.19: hooks/percpu.c falls back to it, when its kretprobe cannot attach,
 * only where it has them.
 */
#define AIE_PERCPU_TP_HAS_CALLER	(!AIE_KERNEL_BEFORE(5, 19, 0))

/*
 * The kmalloc events inside kvmalloc_node() (callers.c): those of the
 * __kmalloc_node*() it called, charged to its caller (a helper). Since
 * 6.19 it inlines the kmalloc, whose event names its caller, and the only
 * event inside it is a large kmalloc's inner one: internal.
 */
#if AIE_KERNEL_BEFORE(6, 19, 0)
#define AIE_KVMALLOC_NODE_SITE		AIE_SITE_HELPER
#else
#define AIE_KVMALLOC_NODE_SITE		AIE_SITE_INTERNAL
#endif

/*
 * vmalloc (hooks/vmalloc.c): a return probe on the function every vmalloc
 * reaches, AIE_FN_VMALLOC_ENTRY, with the numbers of its size, gfp and
 * caller arguments, and of its flags where it serves more than vmalloc
 * (-1 where not); aie_vmalloc_addr() takes the area's address from what
 * it returns. A probe on AIE_FN_VFREE, which every free reaches, the
 * address its first argument.
 *
 * From 6.1 that is __vmalloc_node_range() and vfree(). 5.10 inlines a copy
 * of __vmalloc_node_range() into vmalloc(), __vmalloc(), vzalloc() and
 * their siblings, which then reach only __get_vm_area_node(size, align,
 * flags, start, end, node, gfp, caller), also the path of vmap() and
 * ioremap() (its VM_ALLOC areas are vmalloc's); and its vfree_atomic()
 * (thread stacks) frees through __vunmap() alone. There a vmalloc whose
 * pages cannot be had after its area was taken is uncharged, not counted
 * as failed. (Debian ships no kernel between 5.10 and 6.1.)
 */
#if AIE_KERNEL_BEFORE(6, 1, 0)
#include <linux/vmalloc.h>

#define AIE_FN_VMALLOC_ENTRY		"__get_vm_area_node"
#define AIE_VMALLOC_ARG_FLAGS		2
#define AIE_VMALLOC_ARG_GFP		6
#define AIE_VMALLOC_ARG_CALLER		7
#define AIE_FN_VFREE			"__vunmap"

static inline void *aie_vmalloc_addr(unsigned long ret)
{
	return ret ? ((struct vm_struct *)ret)->addr : NULL;
}
#else
#define AIE_FN_VMALLOC_ENTRY		AIE_FN_VMALLOC_NODE_RANGE
#define AIE_VMALLOC_ARG_FLAGS		(-1)
#define AIE_VMALLOC_ARG_GFP		4
#define AIE_VMALLOC_ARG_CALLER		8
#define AIE_FN_VFREE			"vfree"

static inline void *aie_vmalloc_addr(unsigned long ret)
{
	return (void *)ret;
}
#endif
#define AIE_VMALLOC_ARG_SIZE		0

/* pde_data() since 5.17, PDE_DATA() before. */
#if AIE_KERNEL_BEFORE(5, 17, 0)
#include <linux/proc_fs.h>
#define pde_data(inode)		PDE_DATA(inode)
#endif

/* 7.3: /proc/allocinfo's ioctls, which iface/ioctl.c's must equal. */
#define AIE_HAVE_ALLOCINFO_UAPI		(!AIE_KERNEL_BEFORE(7, 3, 0))

/*
 * Return probes: get_kretprobe() since 5.11 (ri->rp before), and
 * get_kretprobe_retaddr() since 5.18 (ri->ret_addr before).
 */
#if AIE_KERNEL_BEFORE(5, 18, 0)
#include <linux/kprobes.h>

#if AIE_KERNEL_BEFORE(5, 11, 0)
static inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return ri->rp;
}
#endif

static inline unsigned long
get_kretprobe_retaddr(struct kretprobe_instance *ri)
{
	return (unsigned long)ri->ret_addr;
}
#endif

/*
 * The slab allocator's tracepoints
 * --------------------------------
 * hooks/slab.c writes its probes in the form of 6.1 and later:
 * kmalloc(call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node),
 * kmem_cache_alloc(call_site, ptr, s, gfp_flags, node) and
 * kmem_cache_free(call_site, ptr, s). AIE_SLAB_TP_ALLOCS(km, kc) and
 * AIE_SLAB_TP_CACHE_FREE(kf), expanded once after them, define the
 * functions that attach them to this kernel's events:
 *
 *   aie_slab_tp_allocs_register()    km and kc
 *   aie_slab_tp_allocs_unregister()
 *   aie_slab_tp_cache_free_register()    kf
 *   aie_slab_tp_cache_free_unregister()
 *
 * Before 6.1 kmalloc and kmem_cache_alloc carry no node, and the
 * kmalloc_node and kmem_cache_alloc_node events, which do, fire for the
 * _node allocations instead; kmem_cache_alloc's events carry the object's
 * and slot's sizes where 6.1 has the cache: the cache is read from the
 * object's page (page->slab_cache, which SLUB and SLAB set), NULL for a
 * failure, which the probe counts without it. Before 5.12
 * kmem_cache_free carries no cache; the probe does not read it. Each
 * adapter is one more call on those kernels only.
 */
/* (hooks/slab.c includes trace/events/kmem.h, where these expand) */

#if AIE_KERNEL_BEFORE(6, 1, 0)
#define AIE_SLAB_TP_ALLOCS(km, kc)					\
static void km##_nonode(void *data, unsigned long call_site,		\
			const void *ptr, size_t bytes_req,		\
			size_t bytes_alloc, gfp_t gfp_flags)		\
{									\
	km(data, call_site, ptr, bytes_req, bytes_alloc, gfp_flags,	\
	   NUMA_NO_NODE);						\
}									\
static void kc##_sizes_node(void *data, unsigned long call_site,	\
			    const void *ptr, size_t bytes_req,		\
			    size_t bytes_alloc, gfp_t gfp_flags,	\
			    int node)					\
{									\
	kc(data, call_site, ptr,					\
	   ptr ? virt_to_head_page(ptr)->slab_cache : NULL, gfp_flags,	\
	   node);							\
}									\
static void kc##_sizes(void *data, unsigned long call_site,		\
		       const void *ptr, size_t bytes_req,		\
		       size_t bytes_alloc, gfp_t gfp_flags)		\
{									\
	kc##_sizes_node(data, call_site, ptr, bytes_req, bytes_alloc,	\
			gfp_flags, NUMA_NO_NODE);			\
}									\
static void aie_slab_tp_allocs_unregister(void)			\
{									\
	unregister_trace_kmem_cache_alloc_node(kc##_sizes_node, NULL);	\
	unregister_trace_kmem_cache_alloc(kc##_sizes, NULL);		\
	unregister_trace_kmalloc_node(km, NULL);			\
	unregister_trace_kmalloc(km##_nonode, NULL);			\
}									\
static int aie_slab_tp_allocs_register(void)				\
{									\
	int ret = register_trace_kmalloc(km##_nonode, NULL);		\
									\
	if (!ret)							\
		ret = register_trace_kmalloc_node(km, NULL);		\
	if (!ret)							\
		ret = register_trace_kmem_cache_alloc(kc##_sizes, NULL);	\
	if (!ret)							\
		ret = register_trace_kmem_cache_alloc_node(kc##_sizes_node, \
							   NULL);	\
	if (ret)							\
		aie_slab_tp_allocs_unregister();			\
	return ret;							\
}
#else
#define AIE_SLAB_TP_ALLOCS(km, kc)					\
static void aie_slab_tp_allocs_unregister(void)			\
{									\
	unregister_trace_kmem_cache_alloc(kc, NULL);			\
	unregister_trace_kmalloc(km, NULL);				\
}									\
static int aie_slab_tp_allocs_register(void)				\
{									\
	int ret = register_trace_kmalloc(km, NULL);			\
									\
	if (ret)							\
		return ret;						\
	ret = register_trace_kmem_cache_alloc(kc, NULL);		\
	if (ret)							\
		unregister_trace_kmalloc(km, NULL);			\
	return ret;							\
}
#endif

#if AIE_KERNEL_BEFORE(5, 12, 0)
#define AIE_SLAB_TP_CACHE_FREE(kf)					\
static void kf##_nocache(void *data, unsigned long call_site,		\
			 const void *ptr)				\
{									\
	kf(data, call_site, ptr, NULL);					\
}									\
static int aie_slab_tp_cache_free_register(void)			\
{									\
	return register_trace_kmem_cache_free(kf##_nocache, NULL);	\
}									\
static void aie_slab_tp_cache_free_unregister(void)			\
{									\
	unregister_trace_kmem_cache_free(kf##_nocache, NULL);		\
}
#else
#define AIE_SLAB_TP_CACHE_FREE(kf)					\
static int aie_slab_tp_cache_free_register(void)			\
{									\
	return register_trace_kmem_cache_free(kf, NULL);		\
}									\
static void aie_slab_tp_cache_free_unregister(void)			\
{									\
	unregister_trace_kmem_cache_free(kf, NULL);			\
}
#endif

/*
 * The kmalloc event's arguments after the probe's data, for a probe written
 * once for every kernel (the benchmark's floor, tools/bench/aie_floor): the
 * node since 6.1.
 */
#if AIE_KERNEL_BEFORE(6, 1, 0)
#define AIE_TP_KMALLOC_PROTO	unsigned long call_site, const void *ptr,	\
				size_t bytes_req, size_t bytes_alloc,		\
				gfp_t gfp_flags
#else
#define AIE_TP_KMALLOC_PROTO	unsigned long call_site, const void *ptr,	\
				size_t bytes_req, size_t bytes_alloc,		\
				gfp_t gfp_flags, int node
#endif

#include "compat_nolock.h"
#endif /* __ASSEMBLER__ */

#endif /* _AIE_COMPAT_H */
