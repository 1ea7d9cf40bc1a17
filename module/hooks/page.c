// SPDX-License-Identifier: GPL-2.0
/*
 * page.c - attach the page allocator's hooks: the mm_page_alloc probe
 * (page_alloc.c does its work), the frees, the exact allocators.
 *
 * Every allocation the allocator gets to work on ends with the
 * mm_page_alloc tracepoint, at the end of __alloc_pages(): with its block,
 * or NULL when it failed (no memory after reclaim, __GFP_NORETRY or
 * GFP_NOWAIT giving up, a memory cgroup's charge refused). The tracepoint
 * carries no call site: frames.c reads it off the stack, above the
 * wrappers (alloc_pages -> alloc_pages_mpol -> __alloc_pages, ...). A
 * block is charged PAGE_SIZE << order; a folio is its first page's block.
 * Frees come from the mm_page_free tracepoint, which every freed block
 * passes, with its order.
 *
 * Two kinds of failure return before the tracepoint and are not counted:
 * an order above MAX_PAGE_ORDER, and the failures fail_page_alloc injects.
 *
 * alloc_pages_exact() takes a power-of-two block and frees its tail at
 * once: it is charged PAGE_ALIGN(size) by a kretprobe of its own (it is
 * rare), and the block it takes inside is internal. free_pages_exact()
 * frees page by page: the first page's free charges back the whole, the
 * rest match nothing. Its entry point is listed under its 6.10+ name and
 * its older one (compat.h).
 *
 * alloc_pages_bulk() fills arrays without the tracepoint: its pages are
 * not counted.
 *
 * Notes on locking
 * ----------------
 * The probes take no lock: they run in any context in which pages are
 * allocated or freed (task, softirq, hardirq; NMI: core/nmi.h),
 * preemption disabled in tracepoint probes (aie_tp_guard() where the
 * tracepoint leaves it enabled) and kretprobe handlers. Registration runs
 * in process context, at init and exit, and under the rules mutex for
 * "disable all", which alone writes aie_page_alloc_on after init.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "aie.h"
#include "arch/arch.h"
#include "compat.h"
#include "core/rules.h"
#include "core/sample.h"
#include "extras/memcg.h"
#include "page.h"
#include "page_alloc.h"
#include "probes.h"
#include "slab_pages.h"
#include "track/free.h"
#include "track/track.h"

/* A kretprobe on an exact allocator: alloc_pages_exact(size, gfp), ... */
struct aie_page_probe {
	const char *name[2];	/* 6.10+ name, older name */
	int size_arg;		/* argument holding the size in bytes */
	int gfp_arg;		/* argument holding the gfp flags */
	struct kretprobe rp;
	bool hooked;
};

/* _names: an AIE_FN_* of compat.h, the 6.10+ name first. */
#define AIE_PAGE_EXACT_PROBE(_names, _size, _gfp) \
	{ .name = { _names }, .size_arg = _size, .gfp_arg = _gfp }

static struct aie_page_probe aie_page_probes[] = {
	AIE_PAGE_EXACT_PROBE(AIE_FN_ALLOC_PAGES_EXACT, 0, 1),
	AIE_PAGE_EXACT_PROBE(AIE_FN_ALLOC_PAGES_EXACT_NID, 1, 2),
};

static struct tracepoint *aie_page_alloc_tp, *aie_page_free_tp;

/* The slab map's probe on mm_page_free does the frees (slab_pages.c). */
static bool aie_page_frees_shared;

/* The mm_page_alloc probe is attached: not paused by "disable all". */
static bool aie_page_alloc_on;

/* What the entry handler of an exact allocator leaves for its return. */
struct aie_page_call {
	u64 bytes;
	u64 weight;		/* from aie_sample(), at the entry */
	bool accounted;		/* __GFP_ACCOUNT: memcg.c */
};

/*
 * Take an exact allocator's size and flags at its entry. Return non-zero
 * to leave the return alone (no return handler then): while "disable all"
 * is the only rule, or when sampling skips the call.
 */
static int aie_page_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct aie_page_probe *p = container_of(get_kretprobe(ri),
						struct aie_page_probe, rp);
	struct aie_page_call *call = (struct aie_page_call *)ri->data;
	gfp_t gfp;

	if (aie_all_off())
		return 1;
	gfp = (__force gfp_t)aie_arch_kernel_argument(regs, p->gfp_arg);
	call->accounted = aie_gfp_accounted(gfp);
	call->bytes = PAGE_ALIGN(aie_arch_kernel_argument(regs, p->size_arg));
	call->weight = aie_sample(call->bytes);
	return !call->weight;
}

/* Charge an exact allocator's block, or its failure, to its caller. */
static int aie_page_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	void *addr = (void *)regs_return_value(regs);
	unsigned long caller = get_kretprobe_retaddr(ri);
	struct aie_page_call *call = (struct aie_page_call *)ri->data;

	if (!addr) {
		aie_track_failed_n(caller, AIE_TYPE_PAGE, call->weight);
		return 0;
	}
	__aie_track_alloc(caller, AIE_TYPE_PAGE, virt_to_page(addr),
			  call->bytes, call->bytes, call->weight,
			  call->accounted);
	return 0;
}

/*
 * Probe mm_page_free: untrack the block. Attached only while the slab
 * map's probe does not do these frees (slab_pages.c).
 */
static void aie_probe_page_free(void *data, struct page *page,
				unsigned int order)
{
	aie_tp_guard();
	aie_track_free(page);
}

AIE_TP_PROBE_CHECK(mm_page_alloc, aie_probe_page_alloc);
AIE_TP_PROBE_CHECK(mm_page_free, aie_probe_page_free);

/*
 * Try the probe's names in turn; a kernel has one of them, or neither.
 * GFP_KERNEL allocations sleep in reclaim with a call open.
 */
static void aie_page_probe_register(struct aie_page_probe *p)
{
	p->rp.entry_handler = aie_page_entry;
	p->rp.handler = aie_page_return;
	p->rp.data_size = sizeof(struct aie_page_call);
	p->hooked = !aie_kretprobe_register_named(&p->rp, 8, p->name,
						  ARRAY_SIZE(p->name));
}

/**
 * aie_page_allocs_pause() - Take the page allocation probes off.
 *
 * As aie_slab_allocs_pause(), for "disable all". The caller waits for
 * running probes.
 *
 * Context: Process context, under the rules mutex.
 */
void aie_page_allocs_pause(void)
{
	unsigned int i;

	if (aie_page_alloc_on)
		tracepoint_probe_unregister(aie_page_alloc_tp,
					    aie_probe_page_alloc, NULL);
	aie_page_alloc_on = false;
	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++) {
		if (aie_page_probes[i].hooked)
			disable_kretprobe(&aie_page_probes[i].rp);
	}
}

/**
 * aie_page_allocs_resume() - Put the page allocation probes back.
 *
 * On failure they all stay off.
 *
 * Context: Process context, under the rules mutex.
 * Return: 0, or the error of the probe that could not be attached.
 */
int aie_page_allocs_resume(void)
{
	unsigned int i;
	int ret;

	ret = tracepoint_probe_register(aie_page_alloc_tp,
					aie_probe_page_alloc, NULL);
	aie_page_alloc_on = !ret;
	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++) {
		if (aie_page_probes[i].hooked && !ret)
			ret = enable_kretprobe(&aie_page_probes[i].rp);
	}
	if (ret)
		aie_page_allocs_pause();
	return ret;
}

/**
 * aie_page_hooks_missed() - Count the exact allocators' missed calls.
 *
 * Context: Process context.
 * Return: the calls their kretprobes missed, for want of a free instance
 * or as they fired inside another probe.
 */
unsigned long aie_page_hooks_missed(void)
{
	unsigned long missed = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++) {
		if (aie_page_probes[i].hooked)
			missed += aie_page_probes[i].rp.nmissed +
				  aie_page_probes[i].rp.kp.nmissed;
	}
	return missed;
}

/* Detach the free probe, or stop the slab map's probe doing the frees. */
static void aie_page_frees_unregister(void)
{
	if (aie_page_frees_shared)
		aie_slab_pages_frees(false);
	else
		tracepoint_probe_unregister(aie_page_free_tp,
					    aie_probe_page_free, NULL);
}

/**
 * aie_page_hooks_register() - Attach the page allocator's hooks.
 *
 * Attach the free hook first: no block is tracked while its free could go
 * unseen. With the slab map, its probe on mm_page_free does the frees too.
 * The exact allocators' kretprobes are optional.
 *
 * Context: Process context, module init.
 * Return: 0, or an error (with one warning) and nothing left attached.
 */
int aie_page_hooks_register(void)
{
	unsigned int i;
	int ret;

	aie_page_alloc_tp = aie_tracepoint_find("mm_page_alloc");
	aie_page_free_tp = aie_tracepoint_find("mm_page_free");
	if (!aie_page_alloc_tp || !aie_page_free_tp) {
		pr_warn("no mm_page_alloc or mm_page_free tracepoint: pages are not counted\n");
		return -ENOENT;
	}
	aie_page_frees_shared = aie_slab_pages_probing();
	if (aie_page_frees_shared) {
		aie_slab_pages_frees(true);
	} else {
		ret = tracepoint_probe_register(aie_page_free_tp,
						aie_probe_page_free, NULL);
		if (ret) {
			pr_warn("cannot attach to mm_page_free (%d): pages are not counted\n",
				ret);
			return ret;
		}
	}
	ret = tracepoint_probe_register(aie_page_alloc_tp, aie_probe_page_alloc,
					NULL);
	if (ret) {
		pr_warn("cannot attach to mm_page_alloc (%d): pages are not counted\n",
			ret);
		aie_page_frees_unregister();
		return ret;
	}
	aie_page_alloc_on = true;
	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++)
		aie_page_probe_register(&aie_page_probes[i]);
	return 0;
}

/**
 * aie_page_hooks_unregister() - Detach the page allocator's hooks.
 *
 * The caller waits for running probes: tracepoint_synchronize_unregister().
 *
 * Context: Process context, module exit.
 */
void aie_page_hooks_unregister(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_page_probes); i++) {
		if (aie_page_probes[i].hooked)
			unregister_kretprobe(&aie_page_probes[i].rp);
		aie_page_probes[i].hooked = false;
	}
	if (aie_page_alloc_on)
		tracepoint_probe_unregister(aie_page_alloc_tp,
					    aie_probe_page_alloc, NULL);
	aie_page_alloc_on = false;
	aie_page_frees_unregister();
}
