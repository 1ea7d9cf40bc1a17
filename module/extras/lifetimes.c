// SPDX-License-Identifier: GPL-2.0
/*
 * lifetimes.c - measure how long objects live, per site (module parameter
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
 *   with preemption disabled (aie_lifetime_record(), any context,
 *   NMI included), so no cache line is written by every CPU. Readers sum
 *   the CPUs without a lock: exact at quiescence.
 * - A CPU's array is made before it first runs with the module loaded
 *   (a CPUHP_BP_PREPARE_DYN state, process context: vzalloc()), and kept
 *   until the unload, dead or not: its counts stay counted. So a machine
 *   pays for the CPUs it has brought up, not for the possible ones. A CPU
 *   whose array could not be made counts nothing (lifetime_hist_misses).
 * - The arrays' pointers are published with smp_store_release() and read
 *   with READ_ONCE() (dependent loads) by the hooks and the readers.
 * - The oldest ages come from a scan of the object map at each open of
 *   the file (iface/lifetimes.c).
 * - aie_lifetimes_key is set at init, before the hooks attach, and never
 *   changes while they are attached.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/seq_file.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>

#include "core/cpus.h"
#include "core/stats.h"
#include "lifetimes.h"

DEFINE_STATIC_KEY_FALSE(aie_lifetimes_key);
DEFINE_PER_CPU(local64_t *, aie_lifetime_hists);
atomic_long_t aie_lifetime_misses;

static unsigned int aie_lifetime_sites;	/* sites a histogram array holds */
static atomic_t aie_lifetime_arrays;	/* arrays made */
static int aie_lifetime_hp_state;	/* our CPUHP_BP_PREPARE_DYN state */

/*
 * Make @cpu's array, unless it has one, before @cpu runs, on the CPU
 * bringing it up (process context, CPU hotplug lock held). Never fail the
 * bring-up: without an array the CPU counts nothing.
 */
static int aie_lifetimes_cpu_prepare(unsigned int cpu)
{
	local64_t *h;

	if (per_cpu(aie_lifetime_hists, cpu))
		return 0;
	h = vzalloc_node(array_size((size_t)aie_lifetime_sites *
				    AIE_LIFETIME_BUCKETS, sizeof(*h)),
			 cpu_to_node(cpu));
	if (!h) {
		pr_warn("no lifetime histograms for CPU %u\n", cpu);
		return 0;
	}
	atomic_inc(&aie_lifetime_arrays);
	/* The zeroed array before its pointer. */
	smp_store_release(&per_cpu(aie_lifetime_hists, cpu), h);
	return 0;
}

/* Show the lifetimes' lines of the stats file. */
static void aie_lifetimes_show(struct seq_file *m)
{
	seq_printf(m, "lifetimes %s\n", aie_lifetimes_on() ? "on" : "off");
	seq_printf(m, "lifetime_hist_bytes %zu\n", aie_lifetimes_memory());
	seq_printf(m, "lifetime_hist_misses %ld\n",
		   atomic_long_read(&aie_lifetime_misses));
}

/**
 * aie_lifetimes_init() - Make the histograms and turn the stamps on.
 * @on: lifetimes=1; nothing is done without it.
 * @sites: the sites an array holds.
 *
 * Make a histogram array for each CPU up now and each CPU brought up
 * later, then turn aie_lifetimes_key on. Call before the hooks attach.
 *
 * Context: Process context, module init; takes the CPU hotplug lock.
 * Return: 0, or the error of the CPU hotplug state.
 */
int aie_lifetimes_init(bool on, unsigned int sites)
{
	int ret;

	aie_stats_part_set(AIE_STATS_LIFETIMES, aie_lifetimes_show,
			   aie_lifetimes_memory);
	if (!on)
		return 0;
	aie_lifetime_sites = sites;
	ret = aie_cpus_setup("allocinfo_ext:lifetimes",
			     aie_lifetimes_cpu_prepare, NULL);
	if (ret < 0) {
		aie_lifetime_sites = 0;
		return ret;
	}
	aie_lifetime_hp_state = ret;
	static_branch_enable(&aie_lifetimes_key);
	return 0;
}

/**
 * aie_lifetimes_exit() - Free the histograms.
 *
 * Call after every hook is unregistered and has finished.
 *
 * Context: Process context, module exit.
 */
void aie_lifetimes_exit(void)
{
	int cpu;

	static_branch_disable(&aie_lifetimes_key);
	if (aie_lifetime_hp_state > 0)
		cpuhp_remove_state_nocalls(aie_lifetime_hp_state);
	aie_lifetime_hp_state = 0;
	for_each_possible_cpu(cpu) {
		vfree(per_cpu(aie_lifetime_hists, cpu));
		per_cpu(aie_lifetime_hists, cpu) = NULL;
	}
	atomic_set(&aie_lifetime_arrays, 0);
	aie_lifetime_sites = 0;
}

/**
 * aie_lifetimes_memory() - Count the histograms' memory.
 *
 * The stamps count in the object map's.
 *
 * Context: Any context.
 * Return: the bytes of the arrays made.
 */
size_t aie_lifetimes_memory(void)
{
	return (size_t)aie_lifetime_sites * AIE_LIFETIME_BUCKETS *
	       sizeof(local64_t) * atomic_read(&aie_lifetime_arrays);
}

/**
 * aie_lifetime_sum() - Sum a site's histogram over the CPUs.
 * @idx: the site's index.
 * @hist: set to the AIE_LIFETIME_BUCKETS sums.
 *
 * Context: Process context; no lock: see the notes above.
 * Return: the sum of all buckets: the site's frees counted.
 */
u64 aie_lifetime_sum(u32 idx, u64 *hist)
{
	local64_t *h;
	u64 all = 0;
	int cpu, b;

	memset(hist, 0, AIE_LIFETIME_BUCKETS * sizeof(*hist));
	for_each_possible_cpu(cpu) {
		h = READ_ONCE(per_cpu(aie_lifetime_hists, cpu));
		if (!h)
			continue;
		h += (size_t)idx * AIE_LIFETIME_BUCKETS;
		for (b = 0; b < AIE_LIFETIME_BUCKETS; b++)
			hist[b] += local64_read(&h[b]);
	}
	for (b = 0; b < AIE_LIFETIME_BUCKETS; b++)
		all += hist[b];
	return all;
}
