// SPDX-License-Identifier: GPL-2.0
/*
 * vmalloc.c - track vmalloc and its family: areas, failures and frees.
 *
 * Every vmalloc-family call (vmalloc, vzalloc, vmalloc_node, __vmalloc,
 * the kvmalloc fallback, module and BPF memory) reaches
 * __vmalloc_node_range(), which takes the caller's address as its last
 * argument. A kretprobe saves the size and the caller at entry and charges
 * the returned area at return; a kprobe on vfree() (which kvfree() and the
 * deferred vfree_atomic() reach) charges it back. 5.10 has other functions
 * there (compat.h, AIE_FN_VMALLOC_ENTRY).
 *
 * Bytes are the pages mapped for the request, PAGE_ALIGN(size). An area
 * the kernel maps with huge pages may take more (up to the next huge-page
 * boundary); that difference is not seen.
 *
 * The function probed and its arguments' numbers are compat.h's.
 *
 * Notes on locking
 * ----------------
 * None taken here. vmalloc runs in process context; vfree in any context.
 * The handlers run with preemption disabled. Registration runs in process
 * context, at init and exit, and under the rules mutex for "disable all".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/vmalloc.h>

#include "aie.h"
#include "arch/arch.h"
#include "compat.h"
#include "core/rules.h"
#include "core/sample.h"
#include "extras/memcg.h"
#include "probes.h"
#include "track/free.h"
#include "track/track.h"
#include "vmalloc.h"

struct aie_vmalloc_call {
	unsigned long size;
	unsigned long caller;
	u64 weight;		/* from aie_sample(), at the entry */
	bool accounted;		/* __GFP_ACCOUNT: memcg.c */
};

static const char * const aie_vmalloc_names[] = {
	AIE_FN_VMALLOC_ENTRY
};

/*
 * Save the size, the caller and the flags at the entry. Return non-zero to
 * leave the return alone: while "disable all" is the only rule, for a
 * mapping that is no vmalloc, or when sampling skips the call.
 */
static int aie_vmalloc_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct aie_vmalloc_call *call = (struct aie_vmalloc_call *)ri->data;
	gfp_t gfp;

	if (aie_all_off())
		return 1;
	/* A function that serves vmap() and ioremap() too: theirs are not */
	if (AIE_VMALLOC_ARG_FLAGS >= 0 &&
	    !(aie_arch_kernel_argument(regs, AIE_VMALLOC_ARG_FLAGS) &
	      VM_ALLOC))
		return 1;
	call->size = aie_arch_kernel_argument(regs, AIE_VMALLOC_ARG_SIZE);
	/* The ninth argument on 6.x: on the stack, on either architecture */
	call->caller = aie_arch_kernel_argument(regs, AIE_VMALLOC_ARG_CALLER);
	gfp = (__force gfp_t)aie_arch_kernel_argument(regs,
						      AIE_VMALLOC_ARG_GFP);
	call->accounted = aie_gfp_accounted(gfp);
	/* As for pages: a call sampling skips costs no return probe. */
	call->weight = aie_sample(PAGE_ALIGN(call->size));
	return !call->weight;
}

/* Charge the area returned, or a failure, to the caller saved. */
static int aie_vmalloc_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct aie_vmalloc_call *call = (struct aie_vmalloc_call *)ri->data;
	void *addr = aie_vmalloc_addr(regs_return_value(regs));
	unsigned long caller = call->caller ?: get_kretprobe_retaddr(ri);

	if (!addr)
		aie_track_failed_n(caller, AIE_TYPE_VMALLOC, call->weight);
	else
		__aie_track_alloc(caller, AIE_TYPE_VMALLOC, addr,
				  PAGE_ALIGN(call->size), call->size,
				  call->weight, call->accounted);
	return 0;
}

static struct kretprobe aie_vmalloc_rp = {
	.entry_handler = aie_vmalloc_entry,
	.handler = aie_vmalloc_return,
	.data_size = sizeof(struct aie_vmalloc_call),
};

/* Untrack the area vfree() is given. */
static int aie_kp_vfree(struct kprobe *kp, struct pt_regs *regs)
{
	const void *addr = (const void *)aie_arch_kernel_argument(regs, 0);

	if (addr)
		aie_track_free(addr);
	return 0;
}

static struct kprobe aie_vfree_kp = {
	.symbol_name = AIE_FN_VFREE,
	.pre_handler = aie_kp_vfree,
};

/**
 * aie_vmalloc_hooks_missed() - Count the vmalloc and vfree calls missed.
 *
 * Return: the calls the probes missed: the kretprobe's for want of a free
 * instance, and those a probe skipped as it fired inside another probe.
 */
unsigned long aie_vmalloc_hooks_missed(void)
{
	return aie_vmalloc_rp.nmissed + aie_vmalloc_rp.kp.nmissed +
	       aie_vfree_kp.nmissed;
}

/* Try the names of the function probed in turn; a kernel has one. */
static int aie_vmalloc_rp_register(void)
{
	return aie_kretprobe_register_named(&aie_vmalloc_rp, 4,
					    aie_vmalloc_names,
					    ARRAY_SIZE(aie_vmalloc_names));
}

/**
 * aie_vmalloc_hooks_register() - Attach vmalloc's hooks.
 *
 * Attach the free hook first: no area is tracked while its free could go
 * unseen.
 *
 * Context: Process context, module init.
 * Return: 0, or an error (with a warning) and nothing left attached.
 */
int aie_vmalloc_hooks_register(void)
{
	int ret = register_kprobe(&aie_vfree_kp);

	if (ret) {
		pr_warn("no kprobe on %s (%d): vmalloc is not counted\n",
			AIE_FN_VFREE, ret);
		return ret;
	}
	ret = aie_vmalloc_rp_register();
	if (ret) {
		pr_warn("no kretprobe on %s (%d): vmalloc is not counted\n",
			aie_vmalloc_names[0], ret);
		unregister_kprobe(&aie_vfree_kp);
	}
	return ret;
}

/**
 * aie_vmalloc_allocs_pause() - Take vmalloc's allocation probe off.
 *
 * As aie_slab_allocs_pause(). The caller waits for running probes.
 *
 * Context: Process context, under the rules mutex.
 */
void aie_vmalloc_allocs_pause(void)
{
	disable_kretprobe(&aie_vmalloc_rp);
}

/**
 * aie_vmalloc_allocs_resume() - Put vmalloc's allocation probe back.
 *
 * Context: Process context, under the rules mutex.
 * Return: 0, or the error of enable_kretprobe().
 */
int aie_vmalloc_allocs_resume(void)
{
	return enable_kretprobe(&aie_vmalloc_rp);
}

/**
 * aie_vmalloc_hooks_unregister() - Detach vmalloc's hooks.
 *
 * Context: Process context, module exit.
 */
void aie_vmalloc_hooks_unregister(void)
{
	unregister_kretprobe(&aie_vmalloc_rp);
	unregister_kprobe(&aie_vfree_kp);
}
