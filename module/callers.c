// SPDX-License-Identifier: GPL-2.0
/*
 * callers.c - which function an allocation is charged to.
 *
 * An event's call site is the return address of the allocator call. Two
 * kinds of call site need more than that, and this file lists them by
 * function name, once for every kernel we build for (names with and
 * without the _noprof suffix Linux 6.10 added; a name a kernel lacks never
 * matches). A site is classified once, when it is first seen.
 *
 * - Internal: a call made inside the allocators themselves, whose event is
 *   counted elsewhere or is not an allocation of its own: the inner
 *   page-allocator wrappers (the outermost wrapper's caller is charged),
 *   the inner kmalloc event of a large kmalloc (6.10+), the pages under a
 *   large kmalloc (its kmalloc event counts them) and the pages under a
 *   vmalloc area (its vmalloc event counts them). Events there are ignored.
 * - Helper: a function that allocates on behalf of its caller without
 *   passing the caller's address down (kvmalloc and friends). The event is
 *   charged to the first caller outside every helper, found by a walk of
 *   the stack; when the walk cannot find it, to the helper itself.
 *
 * Runs in the hooks' contexts (any, preemption disabled); never sleeps.
 */

#include <linux/kernel.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#include "aie.h"

#define AIE_STACK_DEPTH	24

struct aie_fn {
	const char *name;
	unsigned long flag;	/* AIE_SITE_INTERNAL or AIE_SITE_HELPER */
};

#define INTERNAL(n)	{ n, AIE_SITE_INTERNAL }
#define HELPER(n)	{ n, AIE_SITE_HELPER }

static const struct aie_fn aie_fns[] = {
	/* kmalloc entry points: the inner event of a large kmalloc */
	INTERNAL("__kmalloc_noprof"),
	INTERNAL("__kmalloc_node_noprof"),
	INTERNAL("__kmalloc_node_track_caller_noprof"),
	/* the pages under a large kmalloc */
	INTERNAL("___kmalloc_large_node"),
	INTERNAL("__kmalloc_large_noprof"),
	INTERNAL("__kmalloc_large_node_noprof"),
	INTERNAL("__kmalloc_large_node"),
	INTERNAL("kmalloc_large"),
	INTERNAL("kmalloc_large_node"),
	/* page-allocator wrappers: the outermost one's caller is charged */
	INTERNAL("__alloc_pages_noprof"),
	INTERNAL("__alloc_pages"),
	INTERNAL("alloc_pages_noprof"),
	INTERNAL("alloc_pages"),
	INTERNAL("alloc_pages_mpol_noprof"),
	INTERNAL("alloc_pages_mpol"),
	INTERNAL("__folio_alloc_noprof"),
	INTERNAL("__folio_alloc"),
	INTERNAL("folio_alloc_noprof"),
	INTERNAL("folio_alloc"),
	INTERNAL("folio_alloc_mpol_noprof"),
	INTERNAL("vma_alloc_folio_noprof"),
	INTERNAL("vma_alloc_folio"),
	INTERNAL("get_free_pages_noprof"),
	INTERNAL("__get_free_pages"),
	INTERNAL("get_zeroed_page_noprof"),
	INTERNAL("get_zeroed_page"),
	INTERNAL("alloc_pages_bulk_noprof"),
	INTERNAL("__alloc_pages_bulk"),
	/* charged PAGE_ALIGN(size) by their own probe, see hooks_page.c */
	INTERNAL("alloc_pages_exact_noprof"),
	INTERNAL("alloc_pages_exact"),
	INTERNAL("alloc_pages_exact_nid_noprof"),
	INTERNAL("alloc_pages_exact_nid"),
	/* the pages under a vmalloc area */
	INTERNAL("__vmalloc_area_node"),
	INTERNAL("vm_area_alloc_pages"),
	/* helpers that hide their caller */
	HELPER("__kvmalloc_node_noprof"),
	HELPER("kvmalloc_node"),
	HELPER("kvmemdup"),
	HELPER("kvrealloc_noprof"),
	HELPER("kvrealloc"),
	HELPER("vmemdup_user"),
	HELPER("kmemdup_array"),
	HELPER("strndup_user"),
	HELPER("kstrdup_const"),

	HELPER("__alloc_percpu_gfp"),
	HELPER("__alloc_percpu"),
	HELPER("__alloc_reserved_percpu"),
};

/*
 * The AIE_SITE_INTERNAL or AIE_SITE_HELPER bit for a site named @sym, or
 * -1 for an ordinary call site.
 *
 * A return address lies inside its function, after the call. One that
 * ends a function exactly is no call's return address but a trampoline's:
 * when a kretprobed wrapper tail-calls another, the inner call returns to
 * the outer probe's rethook trampoline. Such events are the outer call's,
 * and are ignored here.
 */
int aie_callers_classify(const struct aie_sym *sym)
{
	unsigned int i;

	if (!sym->known)
		return -1;
	if (sym->offset == sym->size)
		return AIE_SITE_INTERNAL;
	for (i = 0; i < ARRAY_SIZE(aie_fns); i++) {
		if (!strcmp(aie_fns[i].name, sym->func))
			return aie_fns[i].flag;
	}
	return -1;
}

/*
 * The site to charge for an event at @site, a helper: the first caller
 * above it on the stack that is no helper. @site itself when the stack
 * does not show it (the unwinder lost track), or the table is full.
 */
struct aie_site *aie_callers_resolve(struct aie_site *site)
{
	unsigned long entries[AIE_STACK_DEPTH];
	struct aie_site *caller;
	unsigned int i, nr;

	nr = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < nr && entries[i] != site->call_site; i++)
		;
	while (++i < nr) {
		caller = aie_site_get(entries[i], site->type);
		if (!caller)
			break;
		if (!test_bit(AIE_SITE_HELPER, &caller->flags))
			return caller;
	}
	aie_count(helper_fallbacks);
	return site;
}
