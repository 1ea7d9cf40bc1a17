// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_percpu.c - the helper's percpu allocations: a small one, the
 * largest there is, one too large, and one accounted to the memory
 * cgroup.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>

#include "aie_helper.h"

const char aie_helper_percpu_file[] = __FILE__;

/*
 * A percpu pointer kept where the tests keep every other: as a plain one.
 * Through an integer, as 7.x gives percpu pointers an address space of
 * their own (x86's %gs) that a cast cannot leave.
 */
static void *aie_pcpu_plain(void __percpu *p)
{
	return (void *)(__force unsigned long)p;
}

noinline void *aie_helper_percpu_fail(void)
{
	void __percpu *p = __alloc_percpu_gfp(AIE_HELPER_PERCPU_TOO_BIG, 8,
					      GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return aie_pcpu_plain(p);
}

/* Needs pages populated for it, which fault injection can fail. */
noinline void *aie_helper_percpu_big(void)
{
	void __percpu *p = __alloc_percpu_gfp(AIE_HELPER_PERCPU_BIG, PAGE_SIZE,
					      GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return aie_pcpu_plain(p);
}

/* Accounted to the allocating task's memory cgroup. */
AIE_HELPER_VMALLOC(percpu_acct_40, aie_pcpu_plain(__alloc_percpu_gfp(40, 8, GFP_KERNEL_ACCOUNT)))

/* percpu: 40 bytes on every possible CPU. */
noinline void *aie_helper_percpu_40(void)
{
	void __percpu *p = __alloc_percpu(40, 8);

	barrier();
	return aie_pcpu_plain(p);
}

void aie_helper_free_percpu(const void *p)
{
	free_percpu((void __percpu *)(__force unsigned long)p);
}
