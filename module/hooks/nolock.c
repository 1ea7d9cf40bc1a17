// SPDX-License-Identifier: GPL-2.0
/*
 * nolock.c - track kmalloc_nolock() and kfree_nolock() (6.18), which fire
 * no kmem event: a kretprobe on the one, a kprobe on the other. Their names
 * are compat_nolock.h's; a kernel without them has neither probe, and
 * the stats file says "nolock_hooks absent".
 *
 * The kretprobe's entry keeps the size asked for and the gfp flags; its
 * return takes the object's slot size from ksize() (which takes no lock)
 * and hands the allocation to the slab hooks as a kmalloc event would,
 * charged to the return address: kmalloc_nolock()'s caller. The kprobe
 * hands the object of kfree_nolock() to the slab hooks' free. Pages from
 * alloc_pages_nolock() and their frees need nothing here: they pass the
 * mm_page_alloc and mm_page_free tracepoints, and its functions are
 * wrappers (core/callers.c).
 *
 * Notes on locking
 * ----------------
 * None taken here. The handlers run in any context, NMI included (BPF
 * programs, perf overflow handlers), preemption disabled: kprobe handlers.
 * What the hooks do there without a lock, or skip, is core/nmi.h's. A
 * probe hit while a kprobe handler of this CPU runs (an NMI inside one) is
 * missed, and counted in probe_missed: a missed kfree_nolock() leaves its
 * object live in its row. Registration runs in process context, at init
 * and exit, and under the rules mutex for "disable all".
 */

#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/slab.h>

#include "aie.h"
#include "arch/arch.h"
#include "compat.h"
#include "core/rules.h"
#include "nolock.h"
#include "probes.h"
#include "slab.h"

/* What the kretprobe's entry keeps for its return. */
struct aie_nolock_call {
	size_t size;
	gfp_t gfp;
};

static const char * const aie_kmalloc_nolock_names[] = {
	AIE_FN_KMALLOC_NOLOCK
};

static struct kretprobe aie_kmalloc_nolock_rp;
static bool aie_kmalloc_nolock_hooked;

/*
 * Save the size asked for and the gfp flags. Return non-zero to leave the
 * return alone: while "disable all" is the only rule.
 */
static int aie_kmalloc_nolock_entry(struct kretprobe_instance *ri,
				    struct pt_regs *regs)
{
	struct aie_nolock_call *call = (struct aie_nolock_call *)ri->data;

	if (aie_all_off())
		return 1;
	call->size = aie_arch_kernel_argument(regs, 0);
	call->gfp = (__force gfp_t)
		aie_arch_kernel_argument(regs, AIE_KMALLOC_NOLOCK_GFP_ARG);
	return 0;
}

/* Hand the object to the slab hooks, with its slot size from ksize(). */
static int aie_kmalloc_nolock_return(struct kretprobe_instance *ri,
				     struct pt_regs *regs)
{
	struct aie_nolock_call *call = (struct aie_nolock_call *)ri->data;
	void *ptr = (void *)regs_return_value(regs);

	aie_slab_kmalloc_seen(get_kretprobe_retaddr(ri), ptr, call->size,
			      ZERO_OR_NULL_PTR(ptr) ? 0 : ksize(ptr),
			      call->gfp);
	return 0;
}

/* Hand the object of kfree_nolock(const void *objp) to the slab hooks. */
static int aie_kfree_nolock_pre(struct kprobe *kp, struct pt_regs *regs)
{
	aie_slab_kfree_seen((const void *)aie_arch_kernel_argument(regs, 0));
	return 0;
}

static struct kprobe aie_kfree_nolock_kp = {
	.symbol_name = AIE_FN_KFREE_NOLOCK,
	.pre_handler = aie_kfree_nolock_pre,
};

static bool aie_kfree_nolock_hooked;

/**
 * aie_nolock_hooks_register() - Attach the probes of the nolock functions.
 *
 * Attach the free's kprobe first: no object is tracked while its free
 * could go unseen. Both or neither: a kernel without kmalloc_nolock() has
 * neither. Four kretprobe instances per CPU: task, softirq, hardirq and
 * NMI at once.
 *
 * Context: Process context, module init.
 */
void aie_nolock_hooks_register(void)
{
	aie_kfree_nolock_hooked = !register_kprobe(&aie_kfree_nolock_kp);
	if (!aie_kfree_nolock_hooked)
		return;
	aie_kmalloc_nolock_rp.entry_handler = aie_kmalloc_nolock_entry;
	aie_kmalloc_nolock_rp.handler = aie_kmalloc_nolock_return;
	aie_kmalloc_nolock_rp.data_size = sizeof(struct aie_nolock_call);
	aie_kmalloc_nolock_hooked =
		!aie_kretprobe_register_named(&aie_kmalloc_nolock_rp, 4,
					      aie_kmalloc_nolock_names,
					      ARRAY_SIZE(aie_kmalloc_nolock_names));
	if (!aie_kmalloc_nolock_hooked) {
		unregister_kprobe(&aie_kfree_nolock_kp);
		aie_kfree_nolock_hooked = false;
	}
}

/**
 * aie_nolock_hooks_unregister() - Detach the probes of the nolock functions.
 *
 * Context: Process context, module exit.
 */
void aie_nolock_hooks_unregister(void)
{
	if (aie_kmalloc_nolock_hooked)
		unregister_kretprobe(&aie_kmalloc_nolock_rp);
	if (aie_kfree_nolock_hooked)
		unregister_kprobe(&aie_kfree_nolock_kp);
	aie_kmalloc_nolock_hooked = false;
	aie_kfree_nolock_hooked = false;
}

/**
 * aie_nolock_allocs_pause() - Take the kmalloc_nolock() probe off.
 *
 * For "disable all" (hooks.c). The caller waits for running probes.
 *
 * Context: Process context, under the rules mutex.
 */
void aie_nolock_allocs_pause(void)
{
	if (aie_kmalloc_nolock_hooked)
		disable_kretprobe(&aie_kmalloc_nolock_rp);
}

/**
 * aie_nolock_allocs_resume() - Put the kmalloc_nolock() probe back.
 *
 * Context: Process context, under the rules mutex.
 * Return: 0, or the error of enable_kretprobe().
 */
int aie_nolock_allocs_resume(void)
{
	return aie_kmalloc_nolock_hooked ?
	       enable_kretprobe(&aie_kmalloc_nolock_rp) : 0;
}

/**
 * aie_nolock_hooked() - Tell whether the nolock functions are probed.
 *
 * Return: true if both probes are attached.
 */
bool aie_nolock_hooked(void)
{
	return aie_kmalloc_nolock_hooked;
}

/**
 * aie_nolock_hooks_missed() - Count the nolock calls the probes missed.
 *
 * Return: the calls missed, by both probes.
 */
unsigned long aie_nolock_hooks_missed(void)
{
	if (!aie_kmalloc_nolock_hooked)
		return 0;
	return aie_kmalloc_nolock_rp.nmissed + aie_kmalloc_nolock_rp.kp.nmissed +
	       aie_kfree_nolock_kp.nmissed;
}
