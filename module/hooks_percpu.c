// SPDX-License-Identifier: GPL-2.0
/*
 * hooks_percpu.c - the percpu allocator.
 *
 * The percpu_alloc_percpu and percpu_free_percpu tracepoints, not exported
 * to modules, are found by name. From 6.10 the allocation's call site is
 * the caller; before, it lies in the __alloc_percpu*() wrappers, which
 * callers.c lists as helpers. Bytes are the size times the possible CPUs.
 *
 * Failures: the allocation tracepoint fires only on success, and the
 * failure tracepoint (percpu_alloc_percpu_fail) carries no call site and
 * is skipped by some failures (an illegal size, a refused memcg charge).
 * A kretprobe on the allocator itself (pcpu_alloc_noprof(), pcpu_alloc()
 * before 6.10) sees every return: a NULL one is charged to the caller as
 * a failure; the others are left to the tracepoint. Percpu allocations are
 * rare and slow (a mutex, a bitmap search), so the return probe costs
 * little beside them. A kernel whose allocator cannot be probed (inlined,
 * renamed) counts percpu allocations without their failures, and the
 * stats file says percpu_fail_hook absent.
 *
 * Contexts: percpu allocations run in process context, or any context with
 * GFP_ATOMIC; frees in any context. Tracepoint probes and kretprobe
 * handlers run with preemption disabled.
 */

#include <linux/cpumask.h>
#include <linux/kprobes.h>
#include <linux/tracepoint.h>

#include "aie.h"
#include "compat.h"

static struct tracepoint *aie_percpu_alloc_tp, *aie_percpu_free_tp;

static void aie_probe_percpu_alloc(void *data, unsigned long call_site,
				   bool reserved, bool is_atomic, size_t size,
				   size_t align, void *base_addr, int off,
				   void __percpu *ptr, size_t bytes_alloc,
				   gfp_t gfp_flags)
{
	u64 bytes = (u64)size * num_possible_cpus();

	aie_track_alloc(call_site, AIE_TYPE_PERCPU, (__force const void *)ptr,
			bytes, bytes, aie_gfp_accounted(gfp_flags));
}

static void aie_probe_percpu_free(void *data, void *base_addr, int off,
				  void __percpu *ptr)
{
	aie_track_free((__force const void *)ptr);
}

static const char * const aie_pcpu_alloc_names[] = {
	AIE_FN_PCPU_ALLOC
};

static struct kretprobe aie_pcpu_fail_rp;
static bool aie_pcpu_fail_hooked;

/* A NULL return is a failure at the caller; a pointer, the tracepoint's. */
static int aie_pcpu_alloc_return(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	if (!regs_return_value(regs))
		aie_track_failed(get_kretprobe_retaddr(ri), AIE_TYPE_PERCPU);
	return 0;
}

/* Try the allocator's names in turn; a kernel has one of them, or none. */
static void aie_pcpu_fail_register(void)
{
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(aie_pcpu_alloc_names) && ret; i++) {
		memset(&aie_pcpu_fail_rp, 0, sizeof(aie_pcpu_fail_rp));
		aie_pcpu_fail_rp.kp.symbol_name = aie_pcpu_alloc_names[i];
		aie_pcpu_fail_rp.handler = aie_pcpu_alloc_return;
		/* GFP_KERNEL allocations sleep on a mutex with a call open. */
		aie_pcpu_fail_rp.maxactive = max(64U, 4 * num_possible_cpus());
		ret = register_kretprobe(&aie_pcpu_fail_rp);
	}
	aie_pcpu_fail_hooked = !ret;
	if (ret)
		pr_warn("no kretprobe on %s (%d): percpu failures are not counted\n",
			aie_pcpu_alloc_names[0], ret);
}

bool aie_percpu_fail_hooked(void)
{
	return aie_pcpu_fail_hooked;
}

unsigned long aie_percpu_hooks_missed(void)
{
	return aie_pcpu_fail_hooked ? aie_pcpu_fail_rp.nmissed : 0;
}

/* The free hook first: nothing is tracked while its free could go unseen. */
int aie_percpu_hooks_register(void)
{
	int ret;

	aie_percpu_alloc_tp = aie_tracepoint_find("percpu_alloc_percpu");
	aie_percpu_free_tp = aie_tracepoint_find("percpu_free_percpu");
	if (!aie_percpu_alloc_tp || !aie_percpu_free_tp) {
		pr_warn("no percpu tracepoints: percpu is not counted\n");
		return -ENOENT;
	}
	ret = tracepoint_probe_register(aie_percpu_free_tp,
					aie_probe_percpu_free, NULL);
	if (ret)
		goto err;
	ret = tracepoint_probe_register(aie_percpu_alloc_tp,
					aie_probe_percpu_alloc, NULL);
	if (!ret) {
		aie_pcpu_fail_register();
		return 0;
	}
	tracepoint_probe_unregister(aie_percpu_free_tp, aie_probe_percpu_free,
				    NULL);
err:
	pr_warn("cannot attach to the percpu tracepoints (%d): percpu is not counted\n",
		ret);
	return ret;
}

void aie_percpu_hooks_unregister(void)
{
	if (aie_pcpu_fail_hooked)
		unregister_kretprobe(&aie_pcpu_fail_rp);
	aie_pcpu_fail_hooked = false;
	tracepoint_probe_unregister(aie_percpu_alloc_tp, aie_probe_percpu_alloc,
				    NULL);
	tracepoint_probe_unregister(aie_percpu_free_tp, aie_probe_percpu_free,
				    NULL);
}
