// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - the module's parameters, in one place: what each means and
 * its range, and the sizes worked out from them at load.
 *
 * Notes on locking
 * ----------------
 * None: every parameter is read-only (0444) once the module is loaded,
 * and is read as a plain variable. The functions here run at init, in
 * process context, before the hooks attach.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include <allocinfo_ext.h>

#include "aie.h"
#include "nodes.h"
#include "params.h"
#include "sites.h"
#include "slabrecs.h"

unsigned int aie_max_sites = 16384;
module_param_named(max_sites, aie_max_sites, uint, 0444);
MODULE_PARM_DESC(max_sites, "Call sites the site table holds (default 16384)");

unsigned int aie_sites_ahead_param = 1024;
module_param_named(sites_ahead, aie_sites_ahead_param, uint, 0444);
MODULE_PARM_DESC(sites_ahead,
		 "Sites whose own counters are made ahead of need (default 1024, 256..65536); a burst of more new sites at once may wait for them (sites_waiting)");

static unsigned int aie_counter_slots_param;
module_param_named(counter_slots, aie_counter_slots_param, uint, 0444);
MODULE_PARM_DESC(counter_slots,
		 "Slots of each CPU's cache of site counters, a power of two, 1..65536 (default 0: 1024, fewer from 64 possible CPUs on, 4 MiB in all; 64 bytes each): sites past that many share them");

unsigned long aie_max_objects;
module_param_named(max_objects, aie_max_objects, ulong, 0444);
MODULE_PARM_DESC(max_objects,
		 "Slots of the object map, rounded up to a power of two; 7/8 of them hold live objects (default 0: one per 16 page frames of RAM, at least 32768 with the slab map, which holds slab objects and pages, else 1048576)");

static char *aie_max_records_param = "2%";
module_param_named(max_records, aie_max_records_param, charp, 0444);
MODULE_PARM_DESC(max_records,
		 "Most records the slab map makes as slabs need them, 8 bytes each: a count, or a share of RAM ending in % (default 2%; at most 33554432)");

unsigned long aie_records_start = 65536;
module_param_named(records_start, aie_records_start, ulong, 0444);
MODULE_PARM_DESC(records_start,
		 "Records the slab map makes at load, in chunks of 16384 (default 65536); more are made ahead of need");

unsigned long aie_sample_param;
module_param_named(sample, aie_sample_param, ulong, 0444);
MODULE_PARM_DESC(sample,
		 "Track on average one allocation per this many bytes, weighted to estimate every site's figures (default 0: track all); the control word \"sample\" changes it");

unsigned int aie_max_stacks = 1024;
module_param_named(max_stacks, aie_max_stacks, uint, 0444);
MODULE_PARM_DESC(max_stacks,
		 "Distinct call stacks a capture records (default 1024); allocated at the first capture");

bool aie_slabmap_param = true;
module_param_named(slabmap, aie_slabmap_param, bool, 0444);
MODULE_PARM_DESC(slabmap,
		 "keep slab objects' records beside their slab's pages, and page blocks' in a page map, not in the object map (default 1; off with lifetimes=1)");

bool aie_lifetimes_param;
module_param_named(lifetimes, aie_lifetimes_param, bool, 0444);
MODULE_PARM_DESC(lifetimes,
		 "Per site, a log2 histogram of the lifetimes of freed objects and the age of the oldest live one, in /proc/allocinfo_ext_lifetimes (default 0: off; 1 costs 4 bytes per object map slot and 256 bytes per site per CPU up)");

char *aie_hooks_param = "slab,page,vmalloc,percpu";
module_param_named(hooks, aie_hooks_param, charp, 0444);
MODULE_PARM_DESC(hooks,
		 "Allocators to hook, comma-separated: slab (always hooked), page, vmalloc, percpu (default all)");

unsigned int aie_oom_top = 10;
module_param_named(oom_top, aie_oom_top, uint, 0444);
MODULE_PARM_DESC(oom_top,
		 "At every OOM kill, the kernel log gets this many sites of most live bytes (default 10, 0..64; 0: no report)");

char *aie_numa_param = "off";
module_param_named(numa, aie_numa_param, charp, 0444);
MODULE_PARM_DESC(numa,
		 "Live bytes per NUMA node for slab and page sites, as nodeN: keys in /proc/allocinfo_ext: off (default), on, or auto (on with more than one online node)");

bool aie_cgroups_param;
module_param_named(cgroups, aie_cgroups_param, bool, 0444);
MODULE_PARM_DESC(cgroups,
		 "Live bytes per call site and memory cgroup of accounted allocations, in /proc/allocinfo_ext_cgroups (default 0: off; \"cgroups on\" turns it on)");

unsigned int aie_cgroup_sites = 4096;
module_param_named(cgroup_sites, aie_cgroup_sites, uint, 0444);
MODULE_PARM_DESC(cgroup_sites,
		 "(Call site, memory cgroup) pairs kept, 1..32768 (default 4096); each takes a site table entry");

/**
 * aie_max_records() - Work out the records the max_records parameter allows.
 *
 * Context: Process context.
 * Return: the records of "N", or of "N%" of RAM (8 bytes each); 0 for a
 * value that is neither, or a share above 100%.
 */
unsigned long aie_max_records(void)
{
	size_t len = strlen(aie_max_records_param);
	unsigned long n;
	char buf[24];

	if (!len || len >= sizeof(buf))
		return 0;
	strscpy(buf, aie_max_records_param, sizeof(buf));
	if (buf[len - 1] != '%')
		return kstrtoul(buf, 0, &n) ? 0 : n;
	buf[len - 1] = '\0';
	if (kstrtoul(buf, 10, &n) || n > 100)
		return 0;
	return (totalram_pages() << PAGE_SHIFT) / 100 * n / sizeof(u64);
}

/**
 * aie_slabmap_wanted() - Decide whether the slab and page maps are used.
 *
 * Their records have no room for stamps (lifetimes=1), and node counters
 * are charged by the general paths alone, which the maps' fast paths
 * skip: either turns the maps off.
 *
 * Context: Process context, after aie_nodes_init().
 * Return: true when slab objects and page blocks are to be kept in the
 * slab and page maps.
 */
bool aie_slabmap_wanted(void)
{
	return aie_slabmap_param && !aie_lifetimes_param && !aie_nodes_on();
}

/**
 * aie_objects_wanted() - Work out the object map's slots.
 *
 * max_objects, or by default one per 16 page frames of RAM, at least 2^15
 * with the slab map (which holds slab objects and page blocks; the object
 * map, vmalloc areas, percpu chunks, kmallocs of two and three pages and
 * what the slab map spills) and 2^20 without.
 *
 * Context: Process context, after aie_nodes_init().
 * Return: the slots, before the object map rounds them up to a power of
 * two.
 */
unsigned long aie_objects_wanted(void)
{
	unsigned long by_ram = roundup_pow_of_two(totalram_pages() / 16);

	if (aie_max_objects)
		return aie_max_objects;
	return max(by_ram, aie_slabmap_wanted() ? 1UL << 15 : 1UL << 20);
}

/**
 * aie_counter_slots() - Work out the slots of each CPU's counter cache.
 *
 * counter_slots, or 1024, halved while the possible CPUs' would take more
 * than 4 MiB (64 from 1024 possible CPUs on): each CPU gets them when it
 * first comes up, and every possible CPU may.
 *
 * Context: Process context.
 * Return: the slots, a power of two.
 */
unsigned int aie_counter_slots(void)
{
	unsigned int slots = 1024;

	if (aie_counter_slots_param)
		return aie_counter_slots_param;
	while (slots > 64 && (size_t)slots * 64 * num_possible_cpus() > SZ_4M)
		slots /= 2;
	return slots;
}

/**
 * aie_params_check() - Check every parameter's range.
 *
 * Log one line saying the ranges for a parameter out of range.
 *
 * Context: Process context, at init, before anything is made.
 * Return: 0, or -EINVAL.
 */
int aie_params_check(void)
{
	if (!aie_max_sites || aie_max_sites > AIE_MAX_SITES ||
	    aie_sites_ahead_param < AIE_SITE_CHUNK ||
	    aie_sites_ahead_param > AIE_MAX_SITES ||
	    aie_max_objects > (1UL << 30) ||
	    aie_sample_param > AIE_SAMPLE_MAX_BYTES || !aie_max_stacks ||
	    aie_max_stacks > (1U << 20)) {
		pr_warn("max_sites must be 1..%lu, sites_ahead %u..%lu, max_objects 0..%lu, sample 0..%lu and max_stacks 1..%u\n",
			AIE_MAX_SITES, AIE_SITE_CHUNK, AIE_MAX_SITES, 1UL << 30,
			AIE_SAMPLE_MAX_BYTES, 1U << 20);
		return -EINVAL;
	}
	if (aie_counter_slots_param && (!is_power_of_2(aie_counter_slots_param) ||
					aie_counter_slots_param > 65536)) {
		pr_warn("counter_slots must be 0 or a power of two, 1..65536\n");
		return -EINVAL;
	}
	/* A count is bounded by the records' index; a share is clamped. */
	if (!aie_max_records() || !aie_records_start ||
	    aie_records_start > AIE_SLAB_MAX_POOL ||
	    (!strchr(aie_max_records_param, '%') &&
	     aie_max_records() > AIE_SLAB_MAX_POOL)) {
		pr_warn("max_records must be 1..%lu or a share of RAM, 1%%..100%%, and records_start 1..%lu\n",
			AIE_SLAB_MAX_POOL, AIE_SLAB_MAX_POOL);
		return -EINVAL;
	}
	if (aie_oom_top > AIE_OOM_TOP_MAX) {
		pr_warn("oom_top must be 0..%u\n", AIE_OOM_TOP_MAX);
		return -EINVAL;
	}
	if (!aie_cgroup_sites || aie_cgroup_sites > AIE_CGROUP_SITES_MAX) {
		pr_warn("cgroup_sites must be 1..%u\n", AIE_CGROUP_SITES_MAX);
		return -EINVAL;
	}
	if (!aie_nodes_mode_valid(aie_numa_param)) {
		pr_warn("numa must be auto, on or off\n");
		return -EINVAL;
	}
	return 0;
}
