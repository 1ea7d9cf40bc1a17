// SPDX-License-Identifier: GPL-2.0
/*
 * percpu.c - track the percpu allocator's allocations, failures and frees.
 *
 * Every percpu allocation ends in one function, pcpu_alloc_noprof() since
 * 6.10 (the alloc_percpu*() macros call it from the caller), pcpu_alloc()
 * before (reached through the __alloc_percpu*() wrappers, which callers.c
 * lists as helpers). A kretprobe on it sees every allocation with its
 * caller, and every failure: the allocation tracepoint fires only on
 * success, and the failure tracepoint carries no call site and is not
 * reached by every failure (an illegal size, a refused memcg charge). The
 * entry handler saves the size and the gfp flags; the return handler
 * charges the pointer returned, or a failure when it is NULL.
 *
 * The kretprobe also replaces the allocator's return address while a call
 * runs, so the allocation tracepoint's call site (the allocator's
 * _RET_IP_) would name the kretprobe trampoline: with the kretprobe, that
 * tracepoint is not used. On a kernel whose allocator cannot be probed
 * (inlined, renamed) the module falls back to it: allocations are counted,
 * failures are not, and the stats file says percpu_fail_hook absent. Frees
 * come from the percpu_free_percpu tracepoint either way. Both tracepoints
 * are not exported to modules and are found by name.
 *
 * The object map's key for an allocation is the address of CPU 0's copy
 * (aie_pcpu_key()): the map takes kernel addresses, and a __percpu pointer
 * is an offset, which on x86-64 lies in the lower half.
 *
 * Bytes are the size, aligned as the allocator aligns it
 * (PCPU_MIN_ALLOC_SIZE), times the possible CPUs. Percpu allocations are
 * rare and slow (a mutex, a bitmap search), so a kretprobe costs little
 * beside them.
 *
 * Notes on locking
 * ----------------
 * None taken here. Percpu allocations run in process context, or any
 * context with GFP_ATOMIC; frees in any context. Tracepoint probes and
 * kretprobe handlers run with preemption disabled (aie_tp_guard() where
 * the tracepoint leaves it enabled). Registration runs in process context,
 * at init and exit, and under the rules mutex for "disable all".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/tracepoint.h>
#include <trace/events/percpu.h>

#include "aie.h"
#include "arch/arch.h"
#include "compat.h"
#include "core/rules.h"
#include "core/sample.h"
#include "extras/memcg.h"
#include "percpu.h"
#include "probes.h"
#include "track/free.h"
#include "track/track.h"

/* pcpu_alloc_noprof(size, align, reserved, gfp), and pcpu_alloc() alike */
#define AIE_PCPU_ARG_SIZE	0
#define AIE_PCPU_ARG_GFP	3

struct aie_pcpu_call {
	u64 bytes;
	bool accounted;		/* __GFP_ACCOUNT: memcg.c */
};

static struct tracepoint *aie_percpu_alloc_tp, *aie_percpu_free_tp;
static bool aie_pcpu_rp_hooked;

static const char * const aie_pcpu_alloc_names[] = {
	AIE_FN_PCPU_ALLOC
};

/* Find the object map's key for the percpu allocation @ptr: CPU 0's copy. */
static inline const void *aie_pcpu_key(void __percpu *ptr)
{
	return per_cpu_ptr(ptr, 0);
}

/* Save the allocation's size, as the allocator aligns it, and its flags. */
static int aie_pcpu_alloc_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct aie_pcpu_call *call = (struct aie_pcpu_call *)ri->data;
	size_t size = aie_arch_kernel_argument(regs, AIE_PCPU_ARG_SIZE);
	gfp_t gfp;

	gfp = (__force gfp_t)aie_arch_kernel_argument(regs, AIE_PCPU_ARG_GFP);
	call->accounted = aie_gfp_accounted(gfp);
	call->bytes = (u64)ALIGN(size, PCPU_MIN_ALLOC_SIZE) *
		      num_possible_cpus();
	return 0;
}

/* Charge the pointer returned to the caller, or a failure when NULL. */
static int aie_pcpu_alloc_return(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct aie_pcpu_call *call = (struct aie_pcpu_call *)ri->data;
	void __percpu *ptr = (void __percpu *)regs_return_value(regs);
	unsigned long caller = get_kretprobe_retaddr(ri);

	if (!ptr)
		aie_track_failed(caller, AIE_TYPE_PERCPU);
	else
		aie_track_alloc(caller, AIE_TYPE_PERCPU, aie_pcpu_key(ptr),
				call->bytes, call->bytes, call->accounted);
	return 0;
}

/* Track an allocation from its tracepoint, the fallback: successes only. */
static void aie_probe_percpu_alloc(void *data, unsigned long call_site,
				   bool reserved, bool is_atomic, size_t size,
				   size_t align, void *base_addr, int off,
				   void __percpu *ptr, size_t bytes_alloc,
				   gfp_t gfp_flags)
{
	u64 bytes = (u64)size * num_possible_cpus();

	aie_tp_guard();
	aie_track_alloc(call_site, AIE_TYPE_PERCPU, aie_pcpu_key(ptr),
			bytes, bytes, aie_gfp_accounted(gfp_flags));
}

/* Untrack a percpu allocation freed. */
static void aie_probe_percpu_free(void *data, void *base_addr, int off,
				  void __percpu *ptr)
{
	aie_tp_guard();
	aie_track_free(aie_pcpu_key(ptr));
}

/* The fallback is attached only where the event has its arguments. */
#if AIE_PERCPU_TP_HAS_CALLER
AIE_TP_PROBE_CHECK(percpu_alloc_percpu, aie_probe_percpu_alloc);
#endif
AIE_TP_PROBE_CHECK(percpu_free_percpu, aie_probe_percpu_free);

static struct kretprobe aie_pcpu_rp = {
	.entry_handler = aie_pcpu_alloc_entry,
	.handler = aie_pcpu_alloc_return,
	.data_size = sizeof(struct aie_pcpu_call),
};

/*
 * Try the allocator's names in turn; a kernel has one of them, or none.
 * GFP_KERNEL allocations sleep on a mutex with a call open.
 */
static int aie_pcpu_rp_register(void)
{
	return aie_kretprobe_register_named(&aie_pcpu_rp, 4,
					    aie_pcpu_alloc_names,
					    ARRAY_SIZE(aie_pcpu_alloc_names));
}

/**
 * aie_percpu_fail_hooked() - Tell whether percpu failures are counted.
 *
 * Return: true with the kretprobe on the allocator, false with the
 * tracepoint fallback or no hooks.
 */
bool aie_percpu_fail_hooked(void)
{
	return aie_pcpu_rp_hooked;
}

/**
 * aie_percpu_hooks_missed() - Count the allocator's missed calls.
 *
 * Return: the calls the kretprobe missed, for want of a free instance or
 * as it fired inside another probe; 0 without it.
 */
unsigned long aie_percpu_hooks_missed(void)
{
	if (!aie_pcpu_rp_hooked)
		return 0;
	return aie_pcpu_rp.nmissed + aie_pcpu_rp.kp.nmissed;
}

/**
 * aie_percpu_hooks_register() - Attach the percpu allocator's hooks.
 *
 * Attach the free hook first: nothing is tracked while its free could go
 * unseen. Then the kretprobe, or else the allocation tracepoint.
 *
 * Context: Process context, module init.
 * Return: 0, or an error (with a warning) and nothing left attached.
 */
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
	aie_pcpu_rp_hooked = !aie_pcpu_rp_register();
	if (aie_pcpu_rp_hooked)
		return 0;
	if (!AIE_PERCPU_TP_HAS_CALLER) {
		ret = -ENOENT;
		pr_warn("no kretprobe on %s, and no call site in percpu_alloc_percpu: percpu is not counted\n",
			aie_pcpu_alloc_names[0]);
		goto err_free;
	}
	pr_warn("no kretprobe on %s: percpu failures are not counted\n",
		aie_pcpu_alloc_names[0]);
	ret = tracepoint_probe_register(aie_percpu_alloc_tp,
					aie_probe_percpu_alloc, NULL);
	if (!ret)
		return 0;
err_free:
	tracepoint_probe_unregister(aie_percpu_free_tp, aie_probe_percpu_free,
				    NULL);
err:
	pr_warn("cannot attach to the percpu tracepoints (%d): percpu is not counted\n",
		ret);
	return ret;
}

/**
 * aie_percpu_allocs_pause() - Take the percpu allocation probe off.
 *
 * As aie_slab_allocs_pause(): the kretprobe off, or the fallback's probe.
 * The caller waits for running probes.
 *
 * Context: Process context, under the rules mutex.
 */
void aie_percpu_allocs_pause(void)
{
	if (aie_pcpu_rp_hooked)
		disable_kretprobe(&aie_pcpu_rp);
	else
		tracepoint_probe_unregister(aie_percpu_alloc_tp,
					    aie_probe_percpu_alloc, NULL);
}

/**
 * aie_percpu_allocs_resume() - Put the percpu allocation probe back.
 *
 * Context: Process context, under the rules mutex.
 * Return: 0, or the error of the probe.
 */
int aie_percpu_allocs_resume(void)
{
	if (aie_pcpu_rp_hooked)
		return enable_kretprobe(&aie_pcpu_rp);
	return tracepoint_probe_register(aie_percpu_alloc_tp,
					 aie_probe_percpu_alloc, NULL);
}

/**
 * aie_percpu_hooks_unregister() - Detach the percpu allocator's hooks.
 * @allocs: the allocation probes are attached (not paused).
 *
 * The caller waits for running probes: tracepoint_synchronize_unregister().
 *
 * Context: Process context, module exit.
 */
void aie_percpu_hooks_unregister(bool allocs)
{
	if (aie_pcpu_rp_hooked)
		unregister_kretprobe(&aie_pcpu_rp);
	else if (allocs)
		tracepoint_probe_unregister(aie_percpu_alloc_tp,
					    aie_probe_percpu_alloc, NULL);
	aie_pcpu_rp_hooked = false;
	tracepoint_probe_unregister(aie_percpu_free_tp, aie_probe_percpu_free,
				    NULL);
}
