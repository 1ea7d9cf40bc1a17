// SPDX-License-Identifier: GPL-2.0
/*
 * nodes.c - live bytes per site per NUMA node, for slab objects and page
 * blocks, with numa=on, or numa=auto on a machine with more than one
 * online node at load (off by default: see the cost below).
 *
 * Every charge and uncharge adds its bytes (times its weight) to the
 * counter of its site and of the node of its memory: page_to_nid() of its
 * page, whichever CPU allocated it. The free works the node out again
 * from its own key in the maps (track/free.c), which lies in the same
 * slab or block as the charge's: the uncharge finds the counter the
 * charge added to, as a page's node does not change while it is
 * allocated. vmalloc areas and percpu chunks have no node counters: an
 * area's pages, and a chunk's CPUs' copies, may be on several nodes.
 *
 * Cost: the page's flags read and an atomic_long_add() on a line that
 * every CPU charging that site on that node shares. Only track/'s general
 * paths call aie_node_add(): with the key on, the slab and page maps are
 * off and aie_track_slow_key sends every allocation and free there (the
 * cost of slabmap=0 and a call more, make bench), so that the fast paths
 * carry no test of it. Off (one node, numa=off), nothing here runs and
 * the fast paths are as without it.
 *
 * Notes on locking
 * ----------------
 * None: the counters are atomic_long_t. aie_node_add() runs in the hooks,
 * wherever the allocators run (task, softirq, hardirq; NMI: core/nmi.h),
 * with preemption disabled: no lock, no sleep, no allocation. The array
 * is made at load, before the hooks attach, and freed at exit, after they
 * are gone (process context); readers (iface/rows.c) take no lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "aie.h"
#include "nodes.h"
#include "sites.h"
#include "stats.h"

DEFINE_STATIC_KEY_FALSE(aie_nodes_key);

/* [site index * nr_node_ids + node]: live bytes, made when the key is on */
static atomic_long_t *aie_node_bytes;
static size_t aie_node_count;

/**
 * aie_nodes_mode_valid() - Check a value of the numa parameter (params.c).
 * @mode: the value.
 *
 * Return: true for "auto", "on" or "off".
 */
bool aie_nodes_mode_valid(const char *mode)
{
	return !strcmp(mode, "auto") || !strcmp(mode, "on") ||
	       !strcmp(mode, "off");
}

/* Show the node counters' lines of the stats file. */
static void aie_nodes_show(struct seq_file *m)
{
	seq_printf(m, "numa %s\n", aie_nodes_on() ? "on" : "off");
	seq_printf(m, "numa_bytes %zu\n", aie_nodes_memory());
}

/**
 * aie_nodes_init() - Make the node counters and turn the key on, as the
 * numa parameter says.
 * @mode: the numa parameter, valid (aie_nodes_mode_valid()).
 * @max_sites: the sites to make counters for, each for every possible node.
 *
 * Context: Process context, before the hooks attach.
 * Return: 0, or -ENOMEM.
 */
int aie_nodes_init(const char *mode, unsigned int max_sites)
{
	aie_stats_part_set(AIE_STATS_NUMA, aie_nodes_show, aie_nodes_memory);
	if (!strcmp(mode, "off") ||
	    (!strcmp(mode, "auto") && num_online_nodes() < 2))
		return 0;
	aie_node_count = (size_t)max_sites * nr_node_ids;
	aie_node_bytes = kvcalloc(aie_node_count, sizeof(*aie_node_bytes),
				  GFP_KERNEL);
	if (!aie_node_bytes)
		return -ENOMEM;
	static_branch_enable(&aie_nodes_key);
	return 0;
}

/**
 * aie_nodes_exit() - Turn the key off and free the node counters.
 *
 * Context: Process context, after every hook is unregistered and has
 * finished.
 */
void aie_nodes_exit(void)
{
	static_branch_disable(&aie_nodes_key);
	kvfree(aie_node_bytes);
	aie_node_bytes = NULL;
	aie_node_count = 0;
}

/**
 * aie_nodes_kept() - Test whether a site has node counters.
 * @site: the site.
 *
 * Context: Any context.
 * Return: true with the key on, for a slab or page site.
 */
bool aie_nodes_kept(const struct aie_site *site)
{
	return aie_nodes_on() &&
	       (site->type == AIE_TYPE_SLAB || site->type == AIE_TYPE_PAGE);
}

/**
 * aie_node_add() - Add to the counter of a site and of its object's node.
 * @site: the site.
 * @key: the object's key in the maps (track/free.c): for slab an address
 *       in the object (its start, or its granule's), for pages the
 *       block's first struct page.
 * @bytes: the bytes to add, negative at an uncharge.
 *
 * Sites of other types keep no node counter: nothing is added.
 *
 * Context: Hooks, with the key on: any context, NMI included, preemption
 * disabled; no lock, no sleep, no allocation.
 */
void aie_node_add(const struct aie_site *site, unsigned long key, s64 bytes)
{
	int nid;

	if (site->type == AIE_TYPE_SLAB)
		nid = page_to_nid(virt_to_page((const void *)key));
	else if (site->type == AIE_TYPE_PAGE)
		nid = page_to_nid((const struct page *)key);
	else
		return;
	atomic_long_add(bytes, &aie_node_bytes[(size_t)aie_site_index(site) *
					       nr_node_ids + nid]);
}

/**
 * aie_node_live() - Read the live bytes of a site on a node, with the key on.
 * @idx: the site's index.
 * @nid: the node.
 *
 * Context: Any context; takes no lock.
 * Return: the bytes, signed, as a live figure's sum (aie_live()).
 */
s64 aie_node_live(u32 idx, int nid)
{
	return atomic_long_read(&aie_node_bytes[(size_t)idx * nr_node_ids +
						nid]);
}

/**
 * aie_nodes_memory() - Measure the node counters.
 *
 * Return: their bytes, 0 with the key off.
 */
size_t aie_nodes_memory(void)
{
	return aie_node_count * sizeof(*aie_node_bytes);
}
