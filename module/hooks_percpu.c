// SPDX-License-Identifier: GPL-2.0
/*
 * hooks_percpu.c - the percpu allocator.
 *
 * The percpu_alloc_percpu and percpu_free_percpu tracepoints, not exported
 * to modules, are found by name. From 6.10 the allocation's call site is
 * the caller; before, it lies in the __alloc_percpu*() wrappers, which
 * callers.c lists as helpers. Bytes are the size times the possible CPUs.
 * An allocation that fails fires a tracepoint without a call site, and is
 * not counted.
 *
 * Contexts: percpu allocations run in process context, or any context with
 * GFP_ATOMIC; frees in any context. Tracepoint probes run with preemption
 * disabled.
 */

#include <linux/cpumask.h>
#include <linux/tracepoint.h>

#include "aie.h"

static struct tracepoint *aie_percpu_alloc_tp, *aie_percpu_free_tp;

static void aie_probe_percpu_alloc(void *data, unsigned long call_site,
				   bool reserved, bool is_atomic, size_t size,
				   size_t align, void *base_addr, int off,
				   void __percpu *ptr, size_t bytes_alloc,
				   gfp_t gfp_flags)
{
	u64 bytes = (u64)size * num_possible_cpus();

	aie_track_alloc(call_site, AIE_TYPE_PERCPU, (__force const void *)ptr,
			bytes, bytes);
}

static void aie_probe_percpu_free(void *data, void *base_addr, int off,
				  void __percpu *ptr)
{
	aie_track_free((__force const void *)ptr);
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
	if (!ret)
		return 0;
	tracepoint_probe_unregister(aie_percpu_free_tp, aie_probe_percpu_free,
				    NULL);
err:
	pr_warn("cannot attach to the percpu tracepoints (%d): percpu is not counted\n",
		ret);
	return ret;
}

/* See aie_slab_allocs_pause(). */
void aie_percpu_allocs_pause(void)
{
	tracepoint_probe_unregister(aie_percpu_alloc_tp, aie_probe_percpu_alloc,
				    NULL);
}

int aie_percpu_allocs_resume(void)
{
	return tracepoint_probe_register(aie_percpu_alloc_tp,
					 aie_probe_percpu_alloc, NULL);
}

/* @allocs: the allocation probe is attached (not paused). */
void aie_percpu_hooks_unregister(bool allocs)
{
	if (allocs)
		aie_percpu_allocs_pause();
	tracepoint_probe_unregister(aie_percpu_free_tp, aie_probe_percpu_free,
				    NULL);
}
