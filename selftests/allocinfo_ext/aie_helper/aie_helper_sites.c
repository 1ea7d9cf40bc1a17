// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_sites.c - many call sites in one function: AIE_HELPER_SITES
 * kmalloc() call sites in aie_helper_site(), AIE_HELPER_PAGE_SITES
 * alloc_page() call sites in aie_helper_page_site(). Their cases are
 * written out at build time (aie_helper_cases.sh, from the two defines
 * below), one call each: a macro that repeats a case must use its
 * arguments more than once, and cannot be a statement.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/stop_machine.h>

#include "aie_helper.h"

const char aie_helper_sites_file[] = __FILE__;

#define AIE_HELPER_SITES	768
#define AIE_HELPER_PAGE_SITES	512

/*
 * Case i allocates i + 1 bytes, so that no two cases compile to the same
 * code and merge. The result goes through @p, so that no call is a tail
 * call, whose call site would be aie_helper_site()'s caller.
 */
static noinline void aie_helper_site(unsigned int i, void **p, gfp_t gfp)
{
	switch (i) {
#include "aie_helper_site_cases.h"
	}
}

const void *aie_helper_site_fn(void)
{
	return aie_helper_site;
}

static void *aie_helper_site_objs[AIE_HELPER_SITES];
static unsigned int aie_helper_site_held;

static unsigned int aie_helper_sites_fill(unsigned int n, gfp_t gfp)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		aie_helper_site(i, &aie_helper_site_objs[i], gfp);
		if (!aie_helper_site_objs[i])
			break;
	}
	return i;
}

static int aie_helper_burst_fn(void *n)
{
	aie_helper_site_held = aie_helper_sites_fill(*(unsigned int *)n,
						     GFP_ATOMIC);
	return 0;
}

/*
 * One object at each of the first @n sites, none held from before; in
 * @burst, all while no other CPU runs and interrupts are off, so that
 * nothing the allocations start (allocinfo_ext's irq_work and workqueue)
 * can run until all are made.
 */
int aie_helper_sites(unsigned int n, bool burst)
{
	int ret;

	if (n > AIE_HELPER_SITES || aie_helper_site_held)
		return -EINVAL;
	if (burst) {
		ret = stop_machine(aie_helper_burst_fn, &n, NULL);
		if (ret)
			return ret;
	} else {
		aie_helper_site_held = aie_helper_sites_fill(n, GFP_KERNEL);
	}
	return aie_helper_site_held == n ? 0 : -ENOMEM;
}

/*
 * The page calls are alike: an empty asm statement with a distinct
 * operand after each keeps the compiler from making one of them.
 */
static noinline void aie_helper_page_site(unsigned int i, struct page **p)
{
	switch (i) {
#include "aie_helper_page_site_cases.h"
	}
}

static struct page *aie_helper_page_objs[AIE_HELPER_PAGE_SITES];
static unsigned int aie_helper_page_held;

/* One page at each of the first @n page sites, none held from before. */
int aie_helper_page_sites(unsigned int n)
{
	if (n > AIE_HELPER_PAGE_SITES || aie_helper_page_held)
		return -EINVAL;
	for (; aie_helper_page_held < n; aie_helper_page_held++) {
		aie_helper_page_site(aie_helper_page_held,
				     &aie_helper_page_objs[aie_helper_page_held]);
		if (!aie_helper_page_objs[aie_helper_page_held])
			return -ENOMEM;
	}
	return 0;
}

/* Free what "sites", "burst" and "pagesites" hold ("free all"). */
void aie_helper_sites_free_all(void)
{
	while (aie_helper_site_held)
		kfree(aie_helper_site_objs[--aie_helper_site_held]);
	while (aie_helper_page_held)
		__free_page(aie_helper_page_objs[--aie_helper_page_held]);
}
