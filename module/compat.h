/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernels allocinfo_ext builds for
 * lives here, with the kernel that made it. The core files use what this
 * file defines and test no kernel version.
 *
 * Kernels built and tested: Debian's 6.1 (6.1.0-*-amd64) and 6.12
 * (6.12.117+deb12-amd64), and the 6.12.117 test kernels of shared/kernels.
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
 * Interfaces that are the same in 6.1 and 6.12
 * ---------------------------------------------
 * These differed in older kernels; the module relies on their 6.1 form:
 *
 * - kmem tracepoints (hooks_slab.c): kmalloc(call_site, ptr, bytes_req,
 *   bytes_alloc, gfp_flags, node) and kmem_cache_alloc(call_site, ptr, s,
 *   gfp_flags, node) since Linux 6.1, which folded the kmalloc_node and
 *   kmem_cache_alloc_node events into them and gave kmem_cache_alloc the
 *   cache instead of its sizes. kmem_cache_free(call_site, ptr, s) since
 *   5.12; kfree(call_site, ptr) unchanged.
 * - mm_page_free(page, order) (hooks_page.c): the same in 6.1 and 6.12.
 * - percpu_alloc_percpu(call_site, reserved, is_atomic, size, align,
 *   base_addr, off, ptr, bytes_alloc, gfp_flags) (hooks_percpu.c): call_site,
 *   bytes_alloc and gfp_flags were added in 5.19. Until 6.10 call_site is
 *   inside the __alloc_percpu*() functions; from 6.10 those are macros
 *   around pcpu_alloc_noprof() and call_site is the caller. See
 *   AIE_FN_ALLOC_PERCPU*.
 * - percpu_free_percpu(base_addr, off, ptr): the same in 6.1 and 6.12.
 * - get_kretprobe() (5.11, replacing ri->rp) and get_kretprobe_retaddr()
 *   (5.18, with rethook); kretprobe.nmissed and .maxactive unchanged. The
 *   kretprobe instance pool moved from a freelist to an objpool in 6.7,
 *   which the module does not touch.
 * - regs_get_kernel_argument() (x86 since 4.20): arguments past the sixth
 *   are read from the stack, as __vmalloc_node_range()'s ninth (caller).
 * - __vmalloc_node_range(size, align, start, end, gfp_mask, prot, vm_flags,
 *   node, caller): the same argument order in 6.1 and 6.12.
 * - interrupt_context_level() (symbols.c): since 5.16.
 * - for_each_kernel_tracepoint() and tracepoint_probe_register(): the
 *   same; 6.12 adds for_each_module_tracepoint(), not used.
 * - kallsyms_on_each_symbol() lost its struct module argument in 6.4; the
 *   module does not use it (sprint_symbol() is unchanged).
 * - ksize() and kmem_cache_size(): the same prototypes.
 * - within_module() (modules.c): struct module's layout changed in 6.4
 *   (core_layout became mem[]); within_module() hides it in both.
 * - The inner kmalloc event of a large kmalloc: from 6.10 __kmalloc*()
 *   reaches ___kmalloc_large_node(), which fires trace_kmalloc() with a call
 *   site inside the entry point before the entry point fires it with the
 *   real caller; before 6.10 the inner function did not trace. See
 *   AIE_FN_KMALLOC_ENTRY*.
 */
#ifndef _AIE_COMPAT_H
#define _AIE_COMPAT_H

/*
 * Page allocator: callers.c marks the wrappers, which the walk of frames.c
 * goes through, and the internal callers; hooks_page.c probes the exact
 * allocators.
 */

/* The mm_page_alloc tracepoint's iterator, when several probes share it. */
#define AIE_FN_PAGE_ALLOC_TP		"__traceiter_mm_page_alloc"

/* __alloc_pages() since 5.13; __alloc_pages_noprof() since 6.10. */
#define AIE_FN_ALLOC_PAGES_CORE		"__alloc_pages_noprof", "__alloc_pages"
/* alloc_pages(); alloc_pages_noprof() since 6.10. */
#define AIE_FN_ALLOC_PAGES		"alloc_pages_noprof", "alloc_pages"
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

/* vmalloc (hooks_vmalloc.c): __vmalloc_node_range_noprof() since 6.10. */
#define AIE_FN_VMALLOC_NODE_RANGE	"__vmalloc_node_range_noprof", \
					"__vmalloc_node_range"

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
 * __kmalloc_large_node() became ___kmalloc_large_node().
 */
#define AIE_FN_KMALLOC_LARGE		"__kmalloc_large_noprof", "kmalloc_large"
#define AIE_FN_KMALLOC_LARGE_NODE	"__kmalloc_large_node_noprof", \
					"kmalloc_large_node"
#define AIE_FN_KMALLOC_LARGE_INNER	"___kmalloc_large_node", \
					"__kmalloc_large_node"

/* Helpers that hide their caller (callers.c). */

/* kvmalloc_node(); __kvmalloc_node_noprof() since 6.10. */
#define AIE_FN_KVMALLOC_NODE		"__kvmalloc_node_noprof", "kvmalloc_node"
/* kvrealloc(); kvrealloc_noprof() since 6.10. */
#define AIE_FN_KVREALLOC		"kvrealloc_noprof", "kvrealloc"
/*
 * Functions before 6.10, macros around pcpu_alloc_noprof() since: a
 * kernel from 6.10 on has none of these names.
 */
#define AIE_FN_ALLOC_PERCPU_GFP		"__alloc_percpu_gfp"
#define AIE_FN_ALLOC_PERCPU		"__alloc_percpu"
#define AIE_FN_ALLOC_RESERVED_PERCPU	"__alloc_reserved_percpu"

/*
 * The percpu allocator, all of whose entry points end in it (hooks_percpu.c
 * probes its returns for failures): pcpu_alloc(), static, before 6.10;
 * pcpu_alloc_noprof(), which the alloc_percpu*() macros call, since.
 */
#define AIE_FN_PCPU_ALLOC		"pcpu_alloc_noprof", "pcpu_alloc"

#endif /* _AIE_COMPAT_H */
