// SPDX-License-Identifier: GPL-2.0
/*
 * memcg.c - tell which allocations are accounted to a memory cgroup.
 *
 * An allocation is accounted when it is made with __GFP_ACCOUNT, or from a
 * slab cache created with SLAB_ACCOUNT: the kernel then charges it to the
 * memory cgroup of the task that makes it (none for a task in the root
 * cgroup, a kernel thread or an interrupt, which the kernel does not
 * charge). This is what the kernel's kmem tracepoints print as
 * "accounted". The hooks read the gfp flags from their arguments; the
 * cache's flags are what this file is for.
 *
 * struct kmem_cache is private to mm/, and its flags with it. They sit near
 * its start (SLUB: after the per-CPU pointer, or first with SLUB_TINY; the
 * old SLAB of 6.1: after its tunables), so at load we create two caches
 * that differ only in SLAB_ACCOUNT and look, among the first
 * AIE_CACHE_SCAN bytes, for the one slab_flags_t word in which they differ
 * by exactly that bit. Found once and unambiguously, that word is the
 * flags; otherwise (or on a kernel without CONFIG_MEMCG) accounted caches
 * are not recognised, only __GFP_ACCOUNT, and the load says so once.
 *
 * Notes on locking
 * ----------------
 * None needed: aie_cache_flags_off is written once, by aie_memcg_init() in
 * process context at load, before the hooks attach, and only read after;
 * aie_cache_accounted() and aie_slab_accounted() (memcg.h, inline) run in
 * any context, one load, no lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/seq_file.h>
#include <linux/slab.h>

#include "aie.h"
#include "core/stats.h"
#include "memcg.h"

/* Bytes of struct kmem_cache searched for the flags: all of them are in. */
#define AIE_CACHE_SCAN	64

/* The offset of the flags in struct kmem_cache, or -1: set at load. */
int aie_cache_flags_off = -1;

/* Construct nothing: a constructor keeps the two caches from merging. */
static void aie_memcg_ctor(void *obj)
{
}

/* Find the offset of the flags word in struct kmem_cache, or -1. */
static int aie_cache_flags_find(const struct kmem_cache *acct,
				const struct kmem_cache *plain)
{
	const slab_flags_t *a = (const slab_flags_t *)acct;
	const slab_flags_t *b = (const slab_flags_t *)plain;
	int i, found = -1;

	for (i = 0; i < AIE_CACHE_SCAN / sizeof(slab_flags_t); i++) {
		if ((a[i] ^ b[i]) != SLAB_ACCOUNT || !(a[i] & SLAB_ACCOUNT))
			continue;
		if (found >= 0)
			return -1;	/* ambiguous: trust neither */
		found = i * sizeof(slab_flags_t);
	}
	return found;
}

/**
 * aie_memcg_init() - Find the flags of struct kmem_cache.
 *
 * Compare two unmergeable caches (a constructor each) of the same size,
 * one accounted. Never fails the load: without the offset, accounted
 * caches go unrecognised (one warning).
 *
 * Context: Process context, module init, before the hooks attach.
 */
void aie_memcg_init(void)
{
	struct kmem_cache *acct, *plain;

	aie_stats_part_set(AIE_STATS_MEMCG, aie_memcg_show, NULL);
	if (!IS_ENABLED(CONFIG_MEMCG) || !SLAB_ACCOUNT) {
		pr_info("no memory cgroups in this kernel: accounted: stays 0\n");
		return;
	}
	acct = kmem_cache_create("aie_memcg_acct", 64, 0, SLAB_ACCOUNT,
				 aie_memcg_ctor);
	plain = kmem_cache_create("aie_memcg_plain", 64, 0, 0, aie_memcg_ctor);
	if (acct && plain)
		aie_cache_flags_off = aie_cache_flags_find(acct, plain);
	kmem_cache_destroy(plain);
	kmem_cache_destroy(acct);
	if (aie_cache_flags_off < 0)
		pr_warn("cannot find the flags of a slab cache: allocations from accounted caches count in accounted: only with __GFP_ACCOUNT\n");
}

/* Name a feature's state in the stats file. */
static const char *aie_memcg_state(bool present)
{
	return present ? "present" : "absent";
}

/**
 * aie_memcg_show() - Print the memcg lines of /proc/allocinfo_ext_stats.
 * @m: the stats file.
 *
 * Context: Process context.
 */
void aie_memcg_show(struct seq_file *m)
{
	bool memcg = IS_ENABLED(CONFIG_MEMCG) && SLAB_ACCOUNT;

	seq_printf(m, "memcg %s\n", aie_memcg_state(memcg));
	seq_printf(m, "accounted_caches %s\n",
		   aie_memcg_state(memcg && aie_cache_flags_off >= 0));
}
