// SPDX-License-Identifier: GPL-2.0
/*
 * slab_bulk.c - track kmem_cache_alloc_bulk() and kmem_cache_free_bulk(),
 * which fire no kmem event: a kretprobe on the one, a kprobe on the other.
 *
 * The kretprobe's entry keeps the cache, the gfp flags, the count and the
 * array; its return, when the call succeeded, hands each object of the
 * array to the slab hooks as a kmem_cache_alloc event would, charged to
 * the return address: kmem_cache_alloc_bulk()'s caller (the maple tree,
 * the network stack's skb cache, io_uring). A call succeeds whole or not
 * at all: it returns the count asked for (a bool since 7.0), or 0. The
 * kprobe hands each object of kmem_cache_free_bulk() (and so of
 * kfree_bulk() and of the kfree_rcu() batches) to the slab hooks' free
 * before the objects are freed. Without it, objects freed that way would
 * stay live until their address is reused.
 *
 * Notes on locking
 * ----------------
 * None taken here. The handlers run wherever the bulk functions run
 * (task, softirq, hardirq), preemption disabled: kprobe handlers. A probe
 * hit while a kprobe handler of this CPU runs is missed and counted in
 * probe_missed: a missed allocation leaves its objects untracked, a missed
 * free leaves them live in their row. Registration runs in process
 * context, at init and exit, and under the rules mutex for "disable all".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/slab.h>

#include "arch/arch.h"
#include "compat.h"
#include "core/rules.h"
#include "probes.h"
#include "slab.h"
#include "slab_bulk.h"

/* What the kretprobe's entry keeps for its return. */
struct aie_bulk_call {
	struct kmem_cache *s;
	void **objs;
	size_t nr;
	gfp_t gfp;
};

static const char * const aie_alloc_bulk_names[] = {
	AIE_FN_KMEM_CACHE_ALLOC_BULK
};

static struct kretprobe aie_alloc_bulk_rp;
static bool aie_alloc_bulk_hooked;
static bool aie_free_bulk_hooked;

/*
 * Save the arguments of kmem_cache_alloc_bulk(s, flags, size, p). Return
 * non-zero to leave the return alone: while "disable all" is the only rule.
 */
static int aie_alloc_bulk_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct aie_bulk_call *call = (struct aie_bulk_call *)ri->data;

	if (aie_all_off())
		return 1;
	call->s = (struct kmem_cache *)aie_arch_kernel_argument(regs, 0);
	call->gfp = (__force gfp_t)aie_arch_kernel_argument(regs, 1);
	call->nr = aie_arch_kernel_argument(regs, 2);
	call->objs = (void **)aie_arch_kernel_argument(regs, 3);
	return 0;
}

/* Hand each object of a call that succeeded to the slab hooks. */
static int aie_alloc_bulk_return(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct aie_bulk_call *call = (struct aie_bulk_call *)ri->data;
	unsigned long call_site = (unsigned long)get_kretprobe_retaddr(ri);
	size_t i;

	if (!regs_return_value(regs))
		return 0;
	for (i = 0; i < call->nr; i++)
		aie_slab_cache_alloc_seen(call_site, call->objs[i], call->s,
					  call->gfp);
	return 0;
}

/*
 * Hand each object of kmem_cache_free_bulk(struct kmem_cache *s, size_t
 * size, void **p) to the slab hooks' free, before the objects are freed.
 */
static int aie_free_bulk_pre(struct kprobe *kp, struct pt_regs *regs)
{
	size_t i, nr = aie_arch_kernel_argument(regs, 1);
	void **objs = (void **)aie_arch_kernel_argument(regs, 2);

	for (i = 0; i < nr; i++)
		aie_slab_kfree_seen(objs[i]);
	return 0;
}

static struct kprobe aie_free_bulk_kp = {
	.symbol_name = "kmem_cache_free_bulk",
	.pre_handler = aie_free_bulk_pre,
};

/**
 * aie_slab_bulk_register() - Attach the probes of the bulk functions.
 *
 * Call after the slab hooks (the cache table is theirs). Attach the free's
 * kprobe first: no object is tracked while its free could go unseen. Two
 * kretprobe instances per CPU: task and softirq, or an interrupt inside
 * either. Either probe missing costs a warning, not the module.
 *
 * Context: Process context, module init.
 */
void aie_slab_bulk_register(void)
{
	aie_free_bulk_hooked = !register_kprobe(&aie_free_bulk_kp);
	if (!aie_free_bulk_hooked) {
		pr_warn("no kprobe on kmem_cache_free_bulk: objects freed in bulk stay live\n");
		return;
	}
	aie_alloc_bulk_rp.entry_handler = aie_alloc_bulk_entry;
	aie_alloc_bulk_rp.handler = aie_alloc_bulk_return;
	aie_alloc_bulk_rp.data_size = sizeof(struct aie_bulk_call);
	aie_alloc_bulk_hooked =
		!aie_kretprobe_register_named(&aie_alloc_bulk_rp, 2,
					      aie_alloc_bulk_names,
					      ARRAY_SIZE(aie_alloc_bulk_names));
	if (!aie_alloc_bulk_hooked)
		pr_warn("no kretprobe on kmem_cache_alloc_bulk: its objects go untracked\n");
}

/**
 * aie_slab_bulk_unregister() - Detach the probes of the bulk functions.
 *
 * Call before the slab hooks are detached: the return handler reads their
 * cache table.
 *
 * Context: Process context, module exit.
 */
void aie_slab_bulk_unregister(void)
{
	if (aie_alloc_bulk_hooked)
		unregister_kretprobe(&aie_alloc_bulk_rp);
	if (aie_free_bulk_hooked)
		unregister_kprobe(&aie_free_bulk_kp);
	aie_alloc_bulk_hooked = false;
	aie_free_bulk_hooked = false;
}

/**
 * aie_slab_bulk_allocs_pause() - Take the bulk allocation probe off.
 *
 * For "disable all" (hooks.c). The caller waits for running probes.
 *
 * Context: Process context, under the rules mutex.
 */
void aie_slab_bulk_allocs_pause(void)
{
	if (aie_alloc_bulk_hooked)
		disable_kretprobe(&aie_alloc_bulk_rp);
}

/**
 * aie_slab_bulk_allocs_resume() - Put the bulk allocation probe back.
 *
 * Context: Process context, under the rules mutex.
 * Return: 0, or the error of enable_kretprobe().
 */
int aie_slab_bulk_allocs_resume(void)
{
	return aie_alloc_bulk_hooked ? enable_kretprobe(&aie_alloc_bulk_rp) : 0;
}

/**
 * aie_slab_bulk_alloc_hooked() - Tell whether bulk allocations are probed.
 *
 * Return: true if its kretprobe is attached.
 */
bool aie_slab_bulk_alloc_hooked(void)
{
	return aie_alloc_bulk_hooked;
}

/**
 * aie_slab_bulk_free_hooked() - Tell whether bulk frees are probed.
 *
 * Return: true if its kprobe is attached.
 */
bool aie_slab_bulk_free_hooked(void)
{
	return aie_free_bulk_hooked;
}

/**
 * aie_slab_bulk_missed() - Count the bulk functions' calls the probes missed.
 *
 * Return: the calls missed, by both probes.
 */
unsigned long aie_slab_bulk_missed(void)
{
	unsigned long missed = 0;

	if (aie_alloc_bulk_hooked)
		missed += aie_alloc_bulk_rp.nmissed + aie_alloc_bulk_rp.kp.nmissed;
	if (aie_free_bulk_hooked)
		missed += aie_free_bulk_kp.nmissed;
	return missed;
}
