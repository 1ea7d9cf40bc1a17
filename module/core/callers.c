// SPDX-License-Identifier: GPL-2.0
/*
 * callers.c - which function an allocation is charged to.
 *
 * An event's call site is the return address of the allocator call. Two
 * kinds of call site need more than that, and this file lists them by
 * function name, once for every kernel we build for (compat.h has the
 * names that differ between kernels, with and without the _noprof suffix
 * Linux 6.10 added; a name a kernel lacks never matches). A site is
 * classified once, when it is first seen.
 *
 * - Internal: a call made inside the allocators themselves, whose event is
 *   counted elsewhere or is not an allocation of its own: the inner
 *   kmalloc event of a large kmalloc (6.10+), the pages under a
 *   large kmalloc (its kmalloc event counts them) and the pages under a
 *   vmalloc area (its vmalloc event counts them). Events there are ignored.
 * - Wrapper: a page-allocator wrapper, which the page allocation passes on
 *   its way out to the caller that is charged (frames.c). Wrappers are
 *   built in: a module's function of the same name is none.
 * - Helper: a function that allocates on behalf of its caller without
 *   passing the caller's address down (kvmalloc and friends). The event is
 *   charged to the first caller outside every helper, found by a walk of
 *   the stack (track/helpers.c); when the walk cannot find it, to the
 *   helper itself.
 *
 * Notes on locking
 * ----------------
 * None: the list is constant. aie_callers_classify() runs in the hooks'
 * contexts (any, preemption disabled) and never sleeps.
 */

#include <linux/kernel.h>
#include <linux/string.h>

#include "aie.h"
#include "callers.h"
#include "compat.h"
#include "symbols.h"

struct aie_fn {
	const char *name[3];	/* one name, or its names, the newest first */
	unsigned long flag;	/* AIE_SITE_INTERNAL, _WRAPPER or _HELPER */
	unsigned int types;	/* BIT()s of enum aie_type; 0: every type */
};

/* One name, or an AIE_FN_* of compat.h (one to three names). */
#define INTERNAL(...)	{ { __VA_ARGS__ }, AIE_SITE_INTERNAL }
#define INTERNAL_PAGES(...) \
	{ { __VA_ARGS__ }, AIE_SITE_INTERNAL, BIT(AIE_TYPE_PAGE) }
#define HELPER(...)	{ { __VA_ARGS__ }, AIE_SITE_HELPER }
#define WRAPPER(...)	{ { __VA_ARGS__ }, AIE_SITE_WRAPPER }

static const struct aie_fn aie_fns[] = {
	/* kmalloc entry points: the inner event of a large kmalloc */
	INTERNAL(AIE_FN_KMALLOC_ENTRY),
	INTERNAL(AIE_FN_KMALLOC_NODE_ENTRY),
	INTERNAL(AIE_FN_KMALLOC_CALLER_ENTRY),
	/* the pages under a large kmalloc */
	INTERNAL(AIE_FN_KMALLOC_LARGE_INNER),
	INTERNAL(AIE_FN_KMALLOC_LARGE),
	INTERNAL(AIE_FN_KMALLOC_LARGE_NODE),
	/*
	 * page-allocator wrappers, and the tracepoint's iterator: the walk
	 * of frames.c goes through them to the outermost one's caller
	 */
	WRAPPER(AIE_FN_PAGE_ALLOC_TP),
	WRAPPER(AIE_FN_ALLOC_FROZEN_PAGES_CORE),
	WRAPPER(AIE_FN_ALLOC_PAGES_CORE),
	WRAPPER(AIE_FN_ALLOC_FROZEN_PAGES),
	WRAPPER(AIE_FN_ALLOC_PAGES),
	WRAPPER(AIE_FN_ALLOC_PAGES_NODE),
	WRAPPER(AIE_FN_ALLOC_PAGES_MPOL),
	WRAPPER("alloc_pages_preferred_many"),
	WRAPPER("alloc_page_interleave"),
	WRAPPER(AIE_FN_FOLIO_ALLOC_CORE),
	WRAPPER(AIE_FN_FOLIO_ALLOC),
	WRAPPER(AIE_FN_FOLIO_ALLOC_MPOL),
	WRAPPER(AIE_FN_VMA_ALLOC_FOLIO),
	WRAPPER(AIE_FN_ALLOC_PAGES_VMA),
	WRAPPER(AIE_FN_GET_FREE_PAGES),
	WRAPPER(AIE_FN_GET_ZEROED_PAGE),
	/* from any context, NMI included (compat_nolock.h) */
	WRAPPER(AIE_FN_ALLOC_FROZEN_PAGES_NOLOCK),
	WRAPPER(AIE_FN_ALLOC_PAGES_NOLOCK),
	/* its fallback page: the array is filled without the tracepoint */
	INTERNAL(AIE_FN_ALLOC_PAGES_BULK),
	/* charged PAGE_ALIGN(size) by their own probe, see hooks/page.c */
	INTERNAL(AIE_FN_ALLOC_PAGES_EXACT),
	INTERNAL(AIE_FN_ALLOC_PAGES_EXACT_NID),
	/* the pages under a vmalloc area */
	INTERNAL("__vmalloc_area_node"),
	INTERNAL("vm_area_alloc_pages"),
	/*
	 * ... where those two are inlined: an accounted area's pages come one
	 * at a time (the bulk allocator takes no __GFP_ACCOUNT), from here
	 */
	INTERNAL_PAGES(AIE_FN_VMALLOC_NODE_RANGE),
	/* helpers that hide their caller */
	{ { AIE_FN_KVMALLOC_NODE }, AIE_KVMALLOC_NODE_SITE },
	HELPER("kvmemdup"),
	HELPER(AIE_FN_KVREALLOC),
	HELPER("vmemdup_user"),
	HELPER("kmemdup_array"),
	HELPER("strndup_user"),
	HELPER("kstrdup_const"),

	HELPER(AIE_FN_ALLOC_PERCPU_GFP),
	HELPER(AIE_FN_ALLOC_PERCPU),
	HELPER(AIE_FN_ALLOC_RESERVED_PERCPU),
};

/* Test whether @func is one of @fn's names. */
static bool aie_fn_named(const struct aie_fn *fn, const char *func)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fn->name) && fn->name[i]; i++) {
		if (!strcmp(fn->name[i], func))
			return true;
	}
	return false;
}

/**
 * aie_callers_classify() - Classify a new call site by its function's name.
 * @sym: the site's name.
 * @type: the site's type.
 *
 * A return address lies inside its function, after the call. One that
 * ends a function exactly is no call's return address but a trampoline's:
 * when a kretprobed wrapper tail-calls another, the inner call returns to
 * the outer probe's rethook trampoline. Such events are the outer call's:
 * classify the site internal, so that they are ignored.
 *
 * Context: Hooks, any context, preemption disabled; never sleeps.
 * Return: the AIE_SITE_INTERNAL, AIE_SITE_WRAPPER or AIE_SITE_HELPER bit
 * number, or -1 for an ordinary call site.
 */
int aie_callers_classify(const struct aie_sym *sym, enum aie_type type)
{
	unsigned int i;

	if (!sym->known)
		return -1;
	if (sym->offset == sym->size)
		return AIE_SITE_INTERNAL;
	for (i = 0; i < ARRAY_SIZE(aie_fns); i++) {
		if (aie_fns[i].types && !(aie_fns[i].types & BIT(type)))
			continue;
		if (aie_fn_named(&aie_fns[i], sym->func) &&
		    !(aie_fns[i].flag == AIE_SITE_WRAPPER && sym->module))
			return aie_fns[i].flag;
	}
	return -1;
}
