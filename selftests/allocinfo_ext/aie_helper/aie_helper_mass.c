// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_mass.c - millions of objects from two call sites, for the
 * tests and benchmarks of scale: kmalloc(64) objects linked through their
 * own first word, and order-0 pages linked through their lru, so that
 * holding them costs nothing beside them. Under aie_helper_mutex.
 */

#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "aie_helper.h"

const char aie_helper_mass_file[] = __FILE__;

static void *aie_helper_mass_objs;	/* the newest; each holds the next */
static unsigned long aie_helper_mass_nobjs;
static LIST_HEAD(aie_helper_mass_pages);
static unsigned long aie_helper_mass_npages;

/* barrier(): no tail call, which would make the caller the call site. */
noinline void *aie_helper_mass_kmalloc64(void)
{
	void *p = kmalloc(64, GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return p;
}

noinline struct page *aie_helper_mass_page(void)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return page;
}

/* The wait between two batches: a reschedule point, and a way out. */
static int aie_helper_mass_pause(unsigned long i)
{
	if (i % 1024)
		return 0;
	cond_resched();
	return fatal_signal_pending(current) ? -EINTR : 0;
}

/* @n more kmalloc(64) objects; -ENOMEM at the first that fails. */
int aie_helper_mass_alloc(unsigned long n)
{
	unsigned long i;
	void **p;
	int ret;

	for (i = 1; i <= n; i++) {
		p = aie_helper_mass_kmalloc64();
		if (!p)
			return -ENOMEM;
		*p = aie_helper_mass_objs;
		aie_helper_mass_objs = p;
		aie_helper_mass_nobjs++;
		ret = aie_helper_mass_pause(i);
		if (ret)
			return ret;
	}
	return 0;
}

/* @n more pages; -ENOMEM at the first that fails. */
int aie_helper_mass_pages_alloc(unsigned long n)
{
	struct page *page;
	unsigned long i;
	int ret;

	for (i = 1; i <= n; i++) {
		page = aie_helper_mass_page();
		if (!page)
			return -ENOMEM;
		list_add(&page->lru, &aie_helper_mass_pages);
		aie_helper_mass_npages++;
		ret = aie_helper_mass_pause(i);
		if (ret)
			return ret;
	}
	return 0;
}

/* Free every object and page held. */
void aie_helper_mass_free(void)
{
	struct page *page, *next;
	unsigned long i = 0;
	void **p;

	while (aie_helper_mass_objs) {
		p = aie_helper_mass_objs;
		aie_helper_mass_objs = *p;
		kfree(p);
		if (!(++i % 1024))
			cond_resched();
	}
	aie_helper_mass_nobjs = 0;
	list_for_each_entry_safe(page, next, &aie_helper_mass_pages, lru) {
		list_del(&page->lru);
		__free_page(page);
		if (!(++i % 1024))
			cond_resched();
	}
	aie_helper_mass_npages = 0;
}
