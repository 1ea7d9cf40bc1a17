// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_vmalloc.c - the helper's vmalloc()s: sizes that are and are
 * not page multiples, one that says nothing when it fails, and one
 * accounted to the memory cgroup.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "aie_helper.h"

const char aie_helper_vmalloc_file[] = __FILE__;

AIE_HELPER_VMALLOC(vmalloc_12288, vmalloc(3 * PAGE_SIZE))
AIE_HELPER_VMALLOC(vmalloc_10000, vmalloc(10000))
AIE_HELPER_VMALLOC(vzalloc_5000, vzalloc(5000))
AIE_HELPER_VMALLOC(vmalloc_node_4096, vmalloc_node(4096, NUMA_NO_NODE))
AIE_HELPER_VMALLOC(__vmalloc_6000, __vmalloc(6000, GFP_KERNEL))

/*
 * vmalloc that says nothing when it fails (fault_test makes it fail): a
 * vmalloc failure without __GFP_NOWARN logs a stack trace.
 */
AIE_HELPER_VMALLOC(vmalloc_nowarn, __vmalloc(3 * PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN))

/* Accounted to the allocating task's memory cgroup. */
AIE_HELPER_VMALLOC(vmalloc_acct_10000, __vmalloc(10000, GFP_KERNEL_ACCOUNT))

/* Frees a vmalloc() or a kmalloc(): the kv*() kinds are either. */
void aie_helper_kvfree(const void *p)
{
	kvfree(p);
}
