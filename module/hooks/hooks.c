// SPDX-License-Identifier: GPL-2.0
/*
 * hooks.c - attach and detach the hooks of every allocator family.
 *
 * Attach each family's free hooks before its allocation hooks, so that no
 * object is tracked whose free could go unseen; detach them in the mirror
 * order. Take the allocation hooks off and put them back for "disable
 * all"; parse the hooks= parameter; print the hooks' lines of the stats
 * file.
 *
 * Notes on locking
 * ----------------
 * None of its own. Everything here runs in process context: module init
 * and exit, control writes, reads of the stats file. aie_allocs_paused is
 * written under the rules mutex (core/rules.c), held by the control write
 * that pauses or resumes; the aie_*_hooked flags are written at init only.
 * After taking probes off, wait for those running with
 * tracepoint_synchronize_unregister() before anything they use goes.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "aie.h"
#include "core/pagemap.h"
#include "core/params.h"
#include "core/slabmap.h"
#include "core/stats.h"
#include "hooks.h"
#include "nolock.h"
#include "page.h"
#include "percpu.h"
#include "slab.h"
#include "slab_bulk.h"
#include "slab_pages.h"
#include "track/free.h"
#include "vmalloc.h"

static bool aie_page_hooked, aie_vmalloc_hooked, aie_percpu_hooked;

/* The allocation probes are off: "disable all" alone (rules mutex). */
static bool aie_allocs_paused;

/* The allocators the hooks= parameter names, as BIT(enum aie_type). */
static unsigned long aie_hooks_wanted;

static const char * const aie_hook_names[] __initconst = {
	[AIE_TYPE_SLAB] = "slab",
	[AIE_TYPE_PAGE] = "page",
	[AIE_TYPE_VMALLOC] = "vmalloc",
	[AIE_TYPE_PERCPU] = "percpu",
};

/* Find the allocator named by the @len bytes at @word; -1 if none. */
static int __init aie_hook_type(const char *word, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_hook_names); i++) {
		if (strlen(aie_hook_names[i]) == len &&
		    !strncmp(aie_hook_names[i], word, len))
			return i;
	}
	return -1;
}

/**
 * aie_hooks_select() - Take the allocators to hook from the hooks= parameter.
 * @list: words separated by commas; empty words are ignored.
 *
 * Slab is always hooked, whatever @list says.
 *
 * Context: Process context, module init.
 * Return: 0, or -EINVAL for an unknown word.
 */
int __init aie_hooks_select(const char *list)
{
	const char *word = list;
	size_t len;
	int type;

	aie_hooks_wanted = BIT(AIE_TYPE_SLAB);
	while (*word) {
		len = strcspn(word, ",");
		if (len) {
			type = aie_hook_type(word, len);
			if (type < 0) {
				pr_err("hooks=: unknown allocator '%.*s' (known: slab, page, vmalloc, percpu)\n",
				       (int)len, word);
				return -EINVAL;
			}
			aie_hooks_wanted |= BIT(type);
		}
		word += len;
		if (*word)
			word++;
	}
	return 0;
}

/* Tell whether hooks= asks for the allocator family @type. */
static bool aie_hook_wanted(enum aie_type type)
{
	return aie_hooks_wanted & BIT(type);
}

/**
 * aie_hooks_register() - Attach the hooks of every family hooks= wants.
 *
 * Slab hooks are required; the others are optional: without them the
 * module still counts slab allocations, says so once, and shows the hook
 * as absent in the stats file. A family hooks= leaves out is not attached
 * and shows as absent too. Each family attaches its free hooks before its
 * allocation hooks; the slab and page maps come first, when
 * aie_slabmap_wanted() (core/params.c).
 *
 * Context: Process context, module init.
 * Return: 0, or the error of the slab hooks, with nothing left attached.
 */
int aie_hooks_register(void)
{
	int ret;

	aie_stats_part_set(AIE_STATS_HOOKS, aie_hooks_show, NULL);
	if (aie_slabmap_wanted())
		aie_slab_pages_register(aie_records_start, aie_max_records(),
					aie_hook_wanted(AIE_TYPE_PAGE));
	ret = aie_slab_hooks_register();
	if (ret) {
		aie_slab_pages_unregister();
		tracepoint_synchronize_unregister();
		return ret;
	}
	aie_slab_bulk_register();
	aie_nolock_hooks_register();
	if (aie_hook_wanted(AIE_TYPE_PAGE)) {
		aie_page_hooked = !aie_page_hooks_register();
		if (!aie_page_hooked) {
			/* No page map without the page hooks: wait out their frees. */
			tracepoint_synchronize_unregister();
			aie_pagemap_exit();
		}
	}
	if (aie_hook_wanted(AIE_TYPE_VMALLOC))
		aie_vmalloc_hooked = !aie_vmalloc_hooks_register();
	if (aie_hook_wanted(AIE_TYPE_PERCPU))
		aie_percpu_hooked = !aie_percpu_hooks_register();
	return 0;
}

/**
 * aie_hooks_unregister() - Detach every hook aie_hooks_register() attached.
 *
 * Detach in the mirror order of aie_hooks_register(); on return no hook is
 * running.
 *
 * Context: Process context, module init's unwinding or exit.
 */
void aie_hooks_unregister(void)
{
	if (aie_percpu_hooked)
		aie_percpu_hooks_unregister(!aie_allocs_paused);
	if (aie_vmalloc_hooked)
		aie_vmalloc_hooks_unregister();
	if (aie_page_hooked)
		aie_page_hooks_unregister();
	aie_nolock_hooks_unregister();
	aie_slab_bulk_unregister();
	aie_slab_hooks_unregister(!aie_allocs_paused);
	aie_slab_pages_unregister();
	tracepoint_synchronize_unregister();
}

/**
 * aie_hooks_allocs_pause() - Take every allocation probe off.
 *
 * For "disable all" alone. The frees stay hooked, so what is tracked
 * leaves as it is freed. Idempotent; on return no allocation probe is
 * running.
 *
 * Context: Process context, under the rules mutex.
 */
void aie_hooks_allocs_pause(void)
{
	if (aie_allocs_paused)
		return;
	aie_slab_allocs_pause();
	aie_slab_bulk_allocs_pause();
	aie_nolock_allocs_pause();
	if (aie_page_hooked)
		aie_page_allocs_pause();
	if (aie_vmalloc_hooked)
		aie_vmalloc_allocs_pause();
	if (aie_percpu_hooked)
		aie_percpu_allocs_pause();
	tracepoint_synchronize_unregister();
	aie_allocs_paused = true;
}

/**
 * aie_hooks_allocs_resume() - Put the allocation probes back.
 *
 * On failure (a tracepoint's probe array is allocated) they all stay off.
 *
 * Context: Process context, under the rules mutex.
 * Return: 0, or the error of the probe that could not be attached.
 */
int aie_hooks_allocs_resume(void)
{
	int ret;

	if (!aie_allocs_paused)
		return 0;
	ret = aie_slab_allocs_resume();
	if (ret)
		return ret;
	ret = aie_slab_bulk_allocs_resume();
	if (ret)
		goto err_bulk;
	ret = aie_nolock_allocs_resume();
	if (ret)
		goto err_nolock;
	if (aie_page_hooked) {
		ret = aie_page_allocs_resume();
		if (ret)
			goto err_page;
	}
	if (aie_vmalloc_hooked) {
		ret = aie_vmalloc_allocs_resume();
		if (ret)
			goto err_vmalloc;
	}
	if (aie_percpu_hooked) {
		ret = aie_percpu_allocs_resume();
		if (ret)
			goto err_percpu;
	}
	aie_allocs_paused = false;
	return 0;

err_percpu:
	if (aie_vmalloc_hooked)
		aie_vmalloc_allocs_pause();
err_vmalloc:
	if (aie_page_hooked)
		aie_page_allocs_pause();
err_page:
	aie_nolock_allocs_pause();
err_nolock:
	aie_slab_bulk_allocs_pause();
err_bulk:
	aie_slab_allocs_pause();
	tracepoint_synchronize_unregister();
	return ret;
}

/* Name a hook's state in the stats file. */
static const char *aie_hook_state(bool hooked)
{
	return hooked ? "present" : "absent";
}

/**
 * aie_hooks_show() - Print the hooks' lines of /proc/allocinfo_ext_stats.
 * @m: the stats file.
 *
 * Context: Process context.
 */
void aie_hooks_show(struct seq_file *m)
{
	seq_printf(m, "bulk_free_hook %s\n",
		   aie_hook_state(aie_slab_bulk_free_hooked()));
	seq_printf(m, "bulk_alloc_hook %s\n",
		   aie_hook_state(aie_slab_bulk_alloc_hooked()));
	seq_printf(m, "page_hooks %s\n", aie_hook_state(aie_page_hooked));
	seq_printf(m, "vmalloc_hooks %s\n", aie_hook_state(aie_vmalloc_hooked));
	seq_printf(m, "percpu_hooks %s\n", aie_hook_state(aie_percpu_hooked));
	seq_printf(m, "percpu_fail_hook %s\n",
		   aie_hook_state(aie_percpu_hooked && aie_percpu_fail_hooked()));
	seq_printf(m, "alloc_hooks %s\n", aie_allocs_paused ? "paused" : "on");
	seq_printf(m, "nolock_hooks %s\n", aie_hook_state(aie_nolock_hooked()));
	seq_printf(m, "probe_missed %lu\n",
		   aie_nolock_hooks_missed() + aie_slab_bulk_missed() +
		   (aie_page_hooked ? aie_page_hooks_missed() : 0) +
		   (aie_vmalloc_hooked ? aie_vmalloc_hooks_missed() : 0) +
		   (aie_percpu_hooked ? aie_percpu_hooks_missed() : 0));
}

/**
 * aie_hooks_cgroups_set() - Turn "cgroups" on or off.
 * @on: charge accounted allocations to their memory cgroup's pairs
 *	(extras/cgsites.c), which the slab probes' fast path leaves to the
 *	general path.
 *
 * Context: Process context.
 * Return: what aie_slab_cgroups_set() returns.
 */
int aie_hooks_cgroups_set(bool on)
{
	return aie_slab_cgroups_set(on);
}
