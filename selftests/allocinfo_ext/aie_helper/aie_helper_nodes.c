// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_nodes.c - allocations on a given NUMA node, 0 or 1, with
 * __GFP_THISNODE, so that the memory is on that node or the allocation
 * fails: kmalloc_node() in a cache and above the caches,
 * kmem_cache_alloc_node(), alloc_pages_node(). A node that is not
 * online gives EOPNOTSUPP (numa_test).
 */
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/slab.h>

#include "aie_helper.h"

const char aie_helper_nodes_file[] = __FILE__;

#define AIE_NODE_GFP	(GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN)

/*
 * A function of one allocation, @call, on node @n, named aie_helper_@name.
 * Each use stays on one line, as AIE_HELPER_VMALLOC()'s (annotate_test).
 */
#define AIE_HELPER_ON_NODE(name, n, call)				\
noinline void *aie_helper_##name(void)					\
{									\
	void *p;							\
									\
	if (!node_online(n))						\
		return ERR_PTR(-EOPNOTSUPP);				\
	p = call;							\
	barrier();							\
	return p;							\
}

AIE_HELPER_ON_NODE(kmalloc_node0, 0, kmalloc_node(AIE_HELPER_OBJ_SIZE, AIE_NODE_GFP, 0))
AIE_HELPER_ON_NODE(kmalloc_node1, 1, kmalloc_node(AIE_HELPER_OBJ_SIZE, AIE_NODE_GFP, 1))
AIE_HELPER_ON_NODE(large_node0, 0, kmalloc_node(AIE_HELPER_LARGE, AIE_NODE_GFP, 0))
AIE_HELPER_ON_NODE(large_node1, 1, kmalloc_node(AIE_HELPER_LARGE, AIE_NODE_GFP, 1))
AIE_HELPER_ON_NODE(cache_node0, 0, kmem_cache_alloc_node(aie_helper_cache, AIE_NODE_GFP, 0))
AIE_HELPER_ON_NODE(cache_node1, 1, kmem_cache_alloc_node(aie_helper_cache, AIE_NODE_GFP, 1))
AIE_HELPER_ON_NODE(pages_node0, 0, alloc_pages_node(0, AIE_NODE_GFP, 1))
AIE_HELPER_ON_NODE(pages_node1, 1, alloc_pages_node(1, AIE_NODE_GFP, 1))
