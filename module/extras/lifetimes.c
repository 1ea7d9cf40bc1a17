// SPDX-License-Identifier: GPL-2.0
/*
 * lifetimes.c - how long objects live, per site (module parameter
 * lifetimes=1): a log2 histogram of the lifetimes of freed objects, and
 * the age of the oldest live object, in /proc/allocinfo_ext_lifetimes
 * (iface/lifetimes.c).
 *
 * The object map (aie_objects) then keeps, beside each slot, the object's
 * allocation time: local_clock() in units of 2^AIE_LIFETIME_SHIFT ns, a
 * u32 that wraps after 2^32 units (78 hours); ages are differences modulo
 * 2^32. A free counts the object's age in its site's histogram; a reader
 * finds each site's oldest live object by scanning the object map.
 *
 * With lifetimes=0 nothing here is allocated, aie_lifetimes_key stays off
 * and the hooks take the branches that never stamp (track/); the file
 * shows its header only.
 *
 * Notes on locking
 * ----------------
 * - The histograms are per CPU: each CPU has its own array of
 *   AIE_LIFETIME_BUCKETS local64_t per site, written only by that CPU
 *   with preemption disabled (aie_lifetime_record(), any context but
 *   NMI), so no cache line is written by every CPU. Readers sum the CPUs
 *   without a lock: exact at quiescence.
 * - The oldest ages come from a scan of the object map at each open of
 *   the file (iface/lifetimes.c).
 * - aie_lifetimes_key is set at init, before the hooks attach, and never
 *   changes while they are attached.
 */

#include <linux/topology.h>
#include <linux/vmalloc.h>

#include "lifetimes.h"

DEFINE_STATIC_KEY_FALSE(aie_lifetimes_key);
DEFINE_PER_CPU(local64_t *, aie_lifetime_hists);

static unsigned int aie_lifetime_sites;	/* sites a histogram array holds */

/*
 * With @on, a histogram array per possible CPU for @sites sites, then the
 * key on. Process context, before the hooks attach.
 */
int aie_lifetimes_init(bool on, unsigned int sites)
{
	local64_t *h;
	int cpu;

	if (!on)
		return 0;
	for_each_possible_cpu(cpu) {
		h = vzalloc_node(array_size((size_t)sites * AIE_LIFETIME_BUCKETS,
					    sizeof(*h)), cpu_to_node(cpu));
		if (!h) {
			aie_lifetimes_exit();
			return -ENOMEM;
		}
		per_cpu(aie_lifetime_hists, cpu) = h;
	}
	aie_lifetime_sites = sites;
	static_branch_enable(&aie_lifetimes_key);
	return 0;
}

/* Process context, after every hook is unregistered and has finished. */
void aie_lifetimes_exit(void)
{
	int cpu;

	static_branch_disable(&aie_lifetimes_key);
	for_each_possible_cpu(cpu) {
		vfree(per_cpu(aie_lifetime_hists, cpu));
		per_cpu(aie_lifetime_hists, cpu) = NULL;
	}
	aie_lifetime_sites = 0;
}

/* The histograms' memory; the stamps count in the object map's. */
size_t aie_lifetimes_memory(void)
{
	return (size_t)aie_lifetime_sites * AIE_LIFETIME_BUCKETS *
	       sizeof(local64_t) * num_possible_cpus();
}

/*
 * Site @idx's histogram summed over the CPUs; returns the sum of all.
 * Process context, no lock: see the notes above.
 */
u64 aie_lifetime_sum(u32 idx, u64 *hist)
{
	local64_t *h;
	u64 all = 0;
	int cpu, b;

	memset(hist, 0, AIE_LIFETIME_BUCKETS * sizeof(*hist));
	for_each_possible_cpu(cpu) {
		h = per_cpu(aie_lifetime_hists, cpu) +
		    (size_t)idx * AIE_LIFETIME_BUCKETS;
		for (b = 0; b < AIE_LIFETIME_BUCKETS; b++)
			hist[b] += local64_read(&h[b]);
	}
	for (b = 0; b < AIE_LIFETIME_BUCKETS; b++)
		all += hist[b];
	return all;
}
