// SPDX-License-Identifier: GPL-2.0
/*
 * hooks_page.c - the page allocator.
 *
 * The mm_page_alloc tracepoint carries no call site, so allocations are
 * seen through kretprobes on the page allocator's entry points: the entry
 * handler saves the order, the return handler has the page and the return
 * address. Wrappers call one another (alloc_pages -> alloc_pages_mpol ->
 * __alloc_pages); the inner returns land inside a wrapper, a site that
 * callers.c marks internal, so only the outermost call is charged, to its
 * caller. Frees come from the mm_page_free tracepoint, which every freed
 * block passes, with its order.
 *
 * alloc_pages_exact() takes a power-of-two block and frees its tail at
 * once: it is charged PAGE_ALIGN(size) by a probe of its own, and the
 * block it takes inside is internal. free_pages_exact() frees page by
 * page: the first page's free charges back the whole, the rest match
 * nothing.
 *
 * The entry handler skips the return probe of every inner call, once the
 * wrapper it returns into is known to be internal: one return probe per
 * allocation, the outermost.
 *
 * Each entry point is listed under its 6.10+ name and its older one
 * (compat.h).
 * alloc_pages_bulk() fills arrays without the tracepoint or the wrappers:
 * its pages are not counted.
 *
 * Contexts: any in which pages are allocated (task, softirq, hardirq; not
 * NMI). kretprobe handlers run with preemption disabled.
 */

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/tracepoint.h>

#include "aie.h"
#include "compat.h"

enum aie_page_ret {
	AIE_RET_PAGE,	/* struct page *, or a struct folio * over it */
	AIE_RET_ADDR,	/* the block's kernel address */
};

struct aie_page_probe {
	const char *name[2];	/* 6.10+ name, older name */
	int order_arg;		/* argument holding the order, or -1 for 0 */
	int size_arg;		/* argument holding a size in bytes, or -1 */
	int gfp_arg;		/* argument holding the gfp flags */
	enum aie_page_ret ret;
	struct kretprobe rp;
	bool hooked;
};

/*
 * _names: an AIE_FN_* of compat.h, the 6.10+ name first. The gfp flags
 * come first, but in the exact allocators after the size.
 */
#define AIE_PAGE_PROBE(_names, _order, _ret) \
	{ .name = { _names }, .order_arg = _order, .size_arg = -1, \
	  .gfp_arg = 0, .ret = _ret }
#define AIE_PAGE_EXACT_PROBE(_names, _size, _gfp) \
	{ .name = { _names }, .order_arg = -1, .size_arg = _size, \
	  .gfp_arg = _gfp, .ret = AIE_RET_ADDR }

/* The first is the heart of the allocator: without it, no page hooks. */
static struct aie_page_probe aie_page_probes[] = {
	AIE_PAGE_PROBE(AIE_FN_ALLOC_PAGES_CORE, 1, AIE_RET_PAGE),
	AIE_PAGE_PROBE(AIE_FN_ALLOC_PAGES, 1, AIE_RET_PAGE),
	AIE_PAGE_PROBE(AIE_FN_ALLOC_PAGES_MPOL_NOPROF, 1, AIE_RET_PAGE),
	AIE_PAGE_PROBE(AIE_FN_FOLIO_ALLOC_CORE, 1, AIE_RET_PAGE),
	AIE_PAGE_PROBE(AIE_FN_FOLIO_ALLOC, 1, AIE_RET_PAGE),
	AIE_PAGE_PROBE(AIE_FN_FOLIO_ALLOC_MPOL, 1, AIE_RET_PAGE),
	AIE_PAGE_PROBE(AIE_FN_VMA_ALLOC_FOLIO, 1, AIE_RET_PAGE),
	AIE_PAGE_PROBE(AIE_FN_GET_FREE_PAGES, 1, AIE_RET_ADDR),
	AIE_PAGE_PROBE(AIE_FN_GET_ZEROED_PAGE, -1, AIE_RET_ADDR),
	AIE_PAGE_EXACT_PROBE(AIE_FN_ALLOC_PAGES_EXACT, 0, 1),
	AIE_PAGE_EXACT_PROBE(AIE_FN_ALLOC_PAGES_EXACT_NID, 1, 2),
};

static struct tracepoint *aie_page_free_tp;

/* What an entry handler leaves for the return handler. */
struct aie_page_call {
	u64 bytes;
	u64 weight;		/* from aie_sample(), at the entry */
	bool accounted;		/* __GFP_ACCOUNT: memcg.c */
};

/*
 * Whether the return of this call can be left alone: a call from inside
 * another entry point (alloc_pages -> alloc_pages_mpol -> __alloc_pages),
 * whose event would be ignored as internal, or any call while "disable
 * all" is the only rule. Installing the return probe is most of a
 * kretprobe's cost, and only the outermost call needs it. A caller not
 * yet in the site table is let through: its first return classifies it.
 */
static bool aie_page_skip_return(struct pt_regs *regs)
{
	unsigned long caller = aie_entry_ret_addr(regs);
	struct aie_site *site;

	if (READ_ONCE(aie_all_disabled))
		return true;
	site = caller ? aie_site_lookup(caller, AIE_TYPE_PAGE) : NULL;
	return site && test_bit(AIE_SITE_INTERNAL, &site->flags);
}

/*
 * Returns non-zero to leave the return alone (no return handler then).
 * The size is known here, so sampling decides here too: a call sampling
 * skips costs no return probe (nor, should it fail, a failure count).
 */
static int aie_page_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct aie_page_probe *p = container_of(get_kretprobe(ri),
						struct aie_page_probe, rp);
	struct aie_page_call *call = (struct aie_page_call *)ri->data;
	unsigned int order = 0;
	gfp_t gfp;

	if (aie_page_skip_return(regs))
		return 1;
	gfp = (__force gfp_t)regs_get_kernel_argument(regs, p->gfp_arg);
	call->accounted = aie_gfp_accounted(gfp);
	if (p->size_arg >= 0) {
		call->bytes = PAGE_ALIGN(regs_get_kernel_argument(regs,
								  p->size_arg));
	} else {
		if (p->order_arg >= 0)
			order = regs_get_kernel_argument(regs, p->order_arg);
		call->bytes = PAGE_SIZE << order;
	}
	call->weight = aie_sample(call->bytes);
	return !call->weight;
}

static int aie_page_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct aie_page_probe *p = container_of(get_kretprobe(ri),
						struct aie_page_probe, rp);
	unsigned long ret = regs_return_value(regs);
	unsigned long caller = get_kretprobe_retaddr(ri);
	struct aie_page_call *call = (struct aie_page_call *)ri->data;
	struct page *page;

	if (!ret) {
		aie_track_failed_n(caller, AIE_TYPE_PAGE, call->weight);
		return 0;
	}
	page = p->ret == AIE_RET_ADDR ? virt_to_page((void *)ret) :
					(struct page *)ret;
	__aie_track_alloc(caller, AIE_TYPE_PAGE, page, call->bytes,
			  call->bytes, call->weight, call->accounted);
	return 0;
}

static void aie_probe_page_free(void *data, struct page *page,
				unsigned int order)
{
	aie_track_free(page);
}

/* Try the probe's names in turn; a kernel has one of them, or neither. */
static void aie_page_probe_register(struct aie_page_probe *p)
{
	memset(&p->rp, 0, sizeof(p->rp));
	p->rp.entry_handler = aie_page_entry;
	p->rp.handler = aie_page_return;
	p->rp.data_size = sizeof(struct aie_page_call);
	/* GFP_KERNEL allocations sleep in reclaim with a call open. */
	p->rp.maxactive = max(64U, 8 * num_possible_cpus());
	p->hooked = !aie_kretprobe_register_named(&p->rp, p->name,
						  ARRAY_SIZE(p->name));
}

/* See aie_slab_allocs_pause(): the entry points' probes off, and on. */
void aie_page_allocs_pause(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++) {
		if (aie_page_probes[i].hooked)
			disable_kretprobe(&aie_page_probes[i].rp);
	}
}

int aie_page_allocs_resume(void)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++) {
		if (aie_page_probes[i].hooked && !ret)
			ret = enable_kretprobe(&aie_page_probes[i].rp);
	}
	if (ret)
		aie_page_allocs_pause();
	return ret;
}

unsigned long aie_page_hooks_missed(void)
{
	unsigned long missed = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++) {
		if (aie_page_probes[i].hooked)
			missed += aie_page_probes[i].rp.nmissed;
	}
	return missed;
}

/* The free hook first: no block is tracked while its free could go unseen. */
int aie_page_hooks_register(void)
{
	unsigned int i;
	int ret;

	aie_page_free_tp = aie_tracepoint_find("mm_page_free");
	if (!aie_page_free_tp) {
		pr_warn("no mm_page_free tracepoint: pages are not counted\n");
		return -ENOENT;
	}
	ret = tracepoint_probe_register(aie_page_free_tp, aie_probe_page_free,
					NULL);
	if (ret) {
		pr_warn("cannot attach to mm_page_free (%d): pages are not counted\n",
			ret);
		return ret;
	}
	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++)
		aie_page_probe_register(&aie_page_probes[i]);
	if (!aie_page_probes[0].hooked) {
		pr_warn("no kretprobe on %s: pages are not counted\n",
			aie_page_probes[0].name[0]);
		aie_page_hooks_unregister();
		return -ENOENT;
	}
	return 0;
}

/* The caller waits for running probes: tracepoint_synchronize_unregister(). */
void aie_page_hooks_unregister(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++) {
		if (aie_page_probes[i].hooked)
			unregister_kretprobe(&aie_page_probes[i].rp);
		aie_page_probes[i].hooked = false;
	}
	tracepoint_probe_unregister(aie_page_free_tp, aie_probe_page_free, NULL);
}
