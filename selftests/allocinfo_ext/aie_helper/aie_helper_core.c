// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper - allocates known sizes at known call sites on command, for
 * the allocinfo_ext selftests.
 *
 * Each kind of allocation is made by its own noinline function, with one
 * allocation call in it, so its call site is a row of /proc/allocinfo_ext
 * named func:<that function>: slab, page, vmalloc and percpu allocations,
 * and every helper that allocates on its caller's behalf (kvmalloc and
 * friends), whose allocations must be charged to that function too.
 * Control file /sys/kernel/debug/aie_helper/ctl:
 *
 *	write "alloc <kind> <n>"	make n more objects of <kind>
 *	write "free <kind> <n>"		free the n newest objects of <kind>
 *	write "free all"		free everything held
 *	write "churn <kind> <n>"	n times: make one object of <kind>
 *					and free it at once
 *	write "leak <kind> <n>"		make n objects of a slab kind and
 *					drop them (kmemleak told not to mind)
 *	write "unseen <kind> <n>"	free the n newest objects of a large
 *					kmalloc kind as kfree() does, less
 *					its tracepoint: a free that
 *					allocinfo_ext cannot see
 *	write "inject <kind> <n>"	as alloc, with this task's
 *					make-it-fail flag set around each
 *					call: fault injection with
 *					task-filter fails its allocations
 *					(EOPNOTSUPP without fault injection)
 *	write "sites <n>"		one kmalloc() at each of the first n
 *					of AIE_HELPER_SITES call sites in
 *					aie_helper_site(), the i-th asking
 *					i + 1 bytes; held until "free all"
 *	write "pagesites <n>"		one page (alloc_page()) at each
 *					of the first n of
 *					AIE_HELPER_PAGE_SITES call sites in
 *					aie_helper_page_site(); held until
 *					"free all"
 *	write "fakesites <n>"		n sites in aie_helper_site(), one
 *					byte apart, with nothing allocated:
 *					a made-up kmalloc event and its
 *					kfree at each (n <= 4096)
 *	write "burst <n>"		as sites, GFP_ATOMIC, under
 *					stop_machine(): no other CPU runs,
 *					no interrupt is taken meanwhile
 *	write "remake <size>"		destroy the cache of kind "remade"
 *					(none of its objects held) and
 *					create it again, of <size> bytes
 *					(8..16384); its kmem_cache may land
 *					where the one destroyed was
 *	write "storm <n>"		on every online CPU at once, a kernel
 *					thread makes n rounds of allocations
 *					and frees of the storm kinds, then
 *					frees all it holds; returns when done
 *	write "oom <kind>"		make objects of <kind> until one
 *					fails, the table is full or the task
 *					is killed (EINTR): a memory cgroup's
 *					OOM kill ends it; held until freed
 *	write "mass <n>"		n more kmalloc(64) objects from
 *					aie_helper_mass_kmalloc64(), held
 *					until "free all" (EINTR if killed)
 *	write "masspages <n>"		n more pages from
 *					aie_helper_mass_page(), the same
 *	write "bulk <n>"		n more objects of the private cache
 *					(kind "cache") from one
 *					kmem_cache_alloc_bulk() in
 *					aie_helper_cache_bulk(), at most
 *					AIE_HELPER_BULK_MAX held
 *	write "bulkfree"		those objects freed in one
 *					kmem_cache_free_bulk()
 *	write "bulkfree each"		or one kmem_cache_free() each
 *	write "free init"		free the objects the helper's init
 *					made (init_kmalloc=); "free all"
 *					frees them too
 *	write "leak init"		drop them (kmemleak told not to mind)
 *	write "nmi <n>"			n NMIs on the online CPUs in turn,
 *					each allocating a page and a 64-byte
 *					object with the nolock allocators
 *					(aie_helper_nmi.c), held
 *	write "nmilocked <n>"		the same, each NMI raised while
 *					allocinfo_ext's capture holds its
 *					stack lock on that CPU
 *	write "nmifree"			those objects freed in NMIs, their
 *					pages here
 *	read				one line per kind:
 *					<kind> <function> <bytes requested> <held>
 *
 * Loaded with init_kmalloc=<n> (at most AIE_HELPER_INIT_MAX), the helper's
 * init makes n kmalloc(96) objects from aie_helper_init_kmalloc(), __init
 * code that the kernel frees once the helper is live, and holds them.
 *
 * /sys/kernel/debug/aie_helper/storm: per storm kind, "<kind> <allocations>
 * <frees>" made by storms since load; and
 * /sys/kernel/debug/aie_helper/cache_ksize: what ksize() reports for an
 * object of the private cache, and of its twin created with SLAB_ACCOUNT:
 * its slot size, or its object size on a cache with red zones, poisoning
 * or KASAN; /sys/kernel/debug/aie_helper/remade: "<ksize> <reused>", what
 * ksize() reports for an object of the "remade" cache, and 1 when that
 * cache's struct kmem_cache is at the address of the one the last
 * "remake" destroyed, else 0; /sys/kernel/debug/aie_helper/oom: how many
 * objects the last "oom" held when the allocation during which its task
 * was killed began, what the OOM report counted, or -1 (no kill);
 * /sys/kernel/debug/aie_helper/nmi: see aie_helper_nmi.c.
 *
 * Failures are reported as -errno to the writer and with the prefix
 * "aie_helper:" in the kernel log. The kinds are aie_helper_kinds.c's;
 * aie_helper.h lists the files that make their allocations.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kmemleak.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "aie_helper_compat.h"
#include "aie_helper.h"

const char aie_helper_core_file[] = __FILE__;

DEFINE_MUTEX(aie_helper_mutex);	/* guards aie_helper_kinds[].held */
static struct dentry *aie_helper_dir;

/*
 * The user buffer of the control write being served: vmemdup_user() and
 * strndup_user() copy from it. Guarded by aie_helper_mutex.
 */
const char __user *aie_helper_ubuf;

/*
 * A failed allocation is not held, and not an error: "fail" wants it. A
 * kind this kernel lacks answers EOPNOTSUPP.
 */
static int aie_helper_alloc(struct aie_helper_kind *k, unsigned int n)
{
	void *p;

	if (n > AIE_HELPER_MAX_HELD - k->held)
		return -ENOSPC;
	while (n--) {
		p = k->alloc();
		if (p == ERR_PTR(-EOPNOTSUPP))
			return -EOPNOTSUPP;
		if (!IS_ERR_OR_NULL(p))
			k->obj[k->held++] = p;
	}
	return 0;
}

/*
 * alloc, each call under this task's make-it-fail flag, which fault
 * injection's task-filter reads: only the allocations made inside the
 * helper's call can fail, not those of the write around it, nor the
 * test's own page faults.
 */
static int aie_helper_inject(struct aie_helper_kind *k, unsigned int n)
{
#ifdef CONFIG_FAULT_INJECTION
	void *p;

	if (n > AIE_HELPER_MAX_HELD - k->held)
		return -ENOSPC;
	while (n--) {
		current->make_it_fail = 1;
		p = k->alloc();
		current->make_it_fail = 0;
		if (p == ERR_PTR(-EOPNOTSUPP))
			return -EOPNOTSUPP;
		if (!IS_ERR_OR_NULL(p))
			k->obj[k->held++] = p;
	}
	return 0;
#else
	return -EOPNOTSUPP;
#endif
}

/* Objects that live for an instant: each freed right after its allocation. */
static int aie_helper_churn(struct aie_helper_kind *k, unsigned int n)
{
	void *p;

	while (n--) {
		p = k->alloc();
		if (p == ERR_PTR(-EOPNOTSUPP))
			return -EOPNOTSUPP;
		if (!IS_ERR_OR_NULL(p))
			k->free(p);
	}
	return 0;
}

/* Allocations the module never frees: what its unload leaves live. */
static int aie_helper_leak(struct aie_helper_kind *k, unsigned int n)
{
	void *p;

	if (k->free != kfree || k->req > PAGE_SIZE)
		return -EINVAL;	/* slab objects only */
	while (n--) {
		p = k->alloc();
		if (p)
			kmemleak_not_leak(p);
	}
	return 0;
}

/*
 * What kfree() does with a large kmalloc()'s pages (free_large_kmalloc()),
 * without its kfree event: only the page allocator's free is traced. The
 * pages' NR_SLAB_UNRECLAIMABLE_B and kmemleak's object go as they would.
 */
static void aie_helper_free_unseen(void *p)
{
	struct page *page = virt_to_head_page(p);
	unsigned int order = compound_order(page);

	kmemleak_free(p);
	aie_mod_slab_pages(page, -(PAGE_SIZE << order));
	aie_free_large_kmalloc_pages(page, order);
}

static int aie_helper_unseen(struct aie_helper_kind *k, unsigned int n)
{
	if (k->free != kfree || k->req <= KMALLOC_MAX_CACHE_SIZE)
		return -EINVAL;	/* large kmalloc()s only */
	if (n > k->held)
		return -ERANGE;
	while (n--)
		aie_helper_free_unseen(k->obj[--k->held]);
	return 0;
}

/*
 * Allocate until killed: the kill comes from inside an allocation, whose
 * charge to the memory cgroup ran its OOM killer, which reported the
 * objects held before it. That allocation may still succeed (the victim
 * is let through) or fail; either way the loop ends.
 */
static long long aie_helper_oom_before = -1;

static int aie_helper_oom(struct aie_helper_kind *k)
{
	unsigned int before;
	void *p;

	aie_helper_oom_before = -1;
	while (k->held < AIE_HELPER_MAX_HELD) {
		before = k->held;
		p = k->alloc();
		if (!IS_ERR_OR_NULL(p))
			k->obj[k->held++] = p;
		if (fatal_signal_pending(current)) {
			aie_helper_oom_before = before;
			return -EINTR;
		}
		if (IS_ERR_OR_NULL(p))
			return p ? PTR_ERR(p) : -ENOMEM;
	}
	return -ENOSPC;
}

static int aie_helper_oom_get(void *data, u64 *val)
{
	*val = aie_helper_oom_before;
	return 0;
}

static int aie_helper_free(struct aie_helper_kind *k, unsigned int n)
{
	if (n > k->held)
		return -ERANGE;
	while (n--)
		k->free(k->obj[--k->held]);
	return 0;
}

#define AIE_HELPER_INIT_MAX	64

static unsigned int init_kmalloc;
module_param(init_kmalloc, uint, 0400);
MODULE_PARM_DESC(init_kmalloc, "kmalloc(96) objects the init makes and holds");

static void *aie_helper_init_objs[AIE_HELPER_INIT_MAX];
static unsigned int aie_helper_init_held;

/* The one call site of the helper's __init code: freed once it is live. */
static noinline void *__init aie_helper_init_kmalloc(void)
{
	void *p = kmalloc(96, GFP_KERNEL);

	barrier();
	return p;
}

static int __init aie_helper_init_alloc(void)
{
	void *p;

	if (init_kmalloc > AIE_HELPER_INIT_MAX)
		return -EINVAL;
	while (aie_helper_init_held < init_kmalloc) {
		p = aie_helper_init_kmalloc();
		if (!p)
			return -ENOMEM;
		aie_helper_init_objs[aie_helper_init_held++] = p;
	}
	return 0;
}

static void aie_helper_init_free(void)
{
	while (aie_helper_init_held)
		kfree(aie_helper_init_objs[--aie_helper_init_held]);
}

static void aie_helper_init_leak(void)
{
	while (aie_helper_init_held)
		kmemleak_not_leak(aie_helper_init_objs[--aie_helper_init_held]);
}

static void aie_helper_free_all(void)
{
	unsigned int i;

	aie_helper_init_free();
	for (i = 0; i < aie_helper_nkinds; i++)
		aie_helper_free(&aie_helper_kinds[i], aie_helper_kinds[i].held);
	aie_helper_sites_free_all();
	aie_helper_cache_bulk_free(false);
	aie_helper_mass_free();
	aie_helper_nmi_free();	/* EOPNOTSUPP where there are none */
}

static int aie_helper_command(char *cmd)
{
	char *verb = strsep(&cmd, " "), *kind = strsep(&cmd, " ");
	struct aie_helper_kind *k;
	unsigned long many;
	unsigned int n;

	if (verb && kind && !cmd && !strcmp(verb, "mass"))
		return kstrtoul(kind, 10, &many) ?: aie_helper_mass_alloc(many);
	if (verb && kind && !cmd && !strcmp(verb, "masspages"))
		return kstrtoul(kind, 10, &many) ?:
		       aie_helper_mass_pages_alloc(many);
	if (verb && kind && !cmd && !strcmp(verb, "free") &&
	    !strcmp(kind, "all")) {
		aie_helper_free_all();
		return 0;
	}
	if (verb && kind && !cmd && !strcmp(verb, "free") &&
	    !strcmp(kind, "init")) {
		aie_helper_init_free();
		return 0;
	}
	if (verb && kind && !cmd && !strcmp(verb, "leak") &&
	    !strcmp(kind, "init")) {
		aie_helper_init_leak();
		return 0;
	}
	if (verb && kind && !cmd && !strcmp(verb, "bulk"))
		return kstrtoul(kind, 10, &many) ?: aie_helper_cache_bulk(many);
	if (verb && !kind && !strcmp(verb, "bulkfree")) {
		aie_helper_cache_bulk_free(false);
		return 0;
	}
	if (verb && kind && !cmd && !strcmp(verb, "bulkfree") &&
	    !strcmp(kind, "each")) {
		aie_helper_cache_bulk_free(true);
		return 0;
	}
	if (verb && !kind && !strcmp(verb, "nmifree"))
		return aie_helper_nmi_free();
	if (verb && kind && !cmd && !strcmp(verb, "nmi"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_nmi(n);
	if (verb && kind && !cmd && !strcmp(verb, "nmilocked"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_nmi_locked(n);
	if (verb && kind && !cmd && !strcmp(verb, "storm"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_storm(n);
	if (verb && kind && !cmd && !strcmp(verb, "remake"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_remake(n);
	if (verb && kind && !cmd && !strcmp(verb, "sites"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_sites(n, false);
	if (verb && kind && !cmd && !strcmp(verb, "fakesites"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_fake_sites(n);
	if (verb && kind && !cmd && !strcmp(verb, "pagesites"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_page_sites(n);
	if (verb && kind && !cmd && !strcmp(verb, "burst"))
		return kstrtouint(kind, 10, &n) ?: aie_helper_sites(n, true);
	if (verb && kind && !cmd && !strcmp(verb, "oom")) {
		k = aie_helper_find(kind);
		return k ? aie_helper_oom(k) : -EINVAL;
	}
	if (!verb || !kind || !cmd || kstrtouint(cmd, 10, &n))
		return -EINVAL;
	k = aie_helper_find(kind);
	if (!k)
		return -EINVAL;
	if (!strcmp(verb, "alloc"))
		return aie_helper_alloc(k, n);
	if (!strcmp(verb, "free"))
		return aie_helper_free(k, n);
	if (!strcmp(verb, "leak"))
		return aie_helper_leak(k, n);
	if (!strcmp(verb, "unseen"))
		return aie_helper_unseen(k, n);
	if (!strcmp(verb, "churn"))
		return aie_helper_churn(k, n);
	if (!strcmp(verb, "inject"))
		return aie_helper_inject(k, n);
	return -EINVAL;
}

static ssize_t aie_helper_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	char *buf;
	int ret;

	if (len > 64)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	strim(buf);
	mutex_lock(&aie_helper_mutex);
	aie_helper_ubuf = ubuf;
	ret = aie_helper_command(buf);
	aie_helper_ubuf = NULL;
	mutex_unlock(&aie_helper_mutex);
	if (ret)
		pr_err("command \"%s\" failed: %d\n", buf, ret);
	kfree(buf);
	return ret ? ret : len;
}

static int aie_helper_show(struct seq_file *m, void *v)
{
	struct aie_helper_kind *k;
	unsigned int i;

	mutex_lock(&aie_helper_mutex);
	for (i = 0; i < aie_helper_nkinds; i++) {
		k = &aie_helper_kinds[i];
		seq_printf(m, "%s %s %zu %u\n", k->name, k->func, k->req,
			   k->held);
	}
	mutex_unlock(&aie_helper_mutex);
	return 0;
}

static int aie_helper_open(struct inode *inode, struct file *file)
{
	return single_open(file, aie_helper_show, NULL);
}

static const struct file_operations aie_helper_fops = {
	.owner = THIS_MODULE,
	.open = aie_helper_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = aie_helper_write,
};

DEFINE_SHOW_ATTRIBUTE(aie_helper_storm);
DEFINE_DEBUGFS_ATTRIBUTE(aie_helper_cache_ksize_fops,
			 aie_helper_cache_ksize_get, NULL, "%llu\n");
DEFINE_DEBUGFS_ATTRIBUTE(aie_helper_oom_fops, aie_helper_oom_get, NULL,
			 "%lld\n");
DEFINE_SHOW_ATTRIBUTE(aie_helper_remade);
#ifdef AIE_HELPER_NMI_SHOW
DEFINE_SHOW_ATTRIBUTE(aie_helper_nmi);
#endif

/*
 * The helper's source files as its build named them to the compiler,
 * one a line, which its debug information names too (annotate_test): an
 * absolute path, or one relative to the module's directory (7.x builds M=
 * with those).
 */
static const char * const aie_helper_files[] = {
	aie_helper_core_file, aie_helper_slab_file, aie_helper_cache_file,
	aie_helper_pages_file, aie_helper_vmalloc_file,
	aie_helper_callers_file, aie_helper_percpu_file,
	aie_helper_sites_file, aie_helper_storm_file, aie_helper_nodes_file,
	aie_helper_mass_file, AIE_HELPER_NMI_FILE
};

static int aie_helper_source_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_helper_files); i++)
		seq_printf(m, "%s\n", aie_helper_files[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(aie_helper_source);

static int __init aie_helper_init(void)
{
	int ret = aie_helper_init_alloc();

	if (ret) {
		aie_helper_init_free();
		return ret;
	}
	aie_helper_cache = kmem_cache_create("aie_helper_obj",
					     AIE_HELPER_OBJ_SIZE, 8, 0,
					     aie_helper_ctor);
	if (!aie_helper_cache) {
		aie_helper_init_free();
		return -ENOMEM;
	}
	aie_helper_acct_cache = kmem_cache_create("aie_helper_acct",
						  AIE_HELPER_OBJ_SIZE, 8,
						  SLAB_ACCOUNT, aie_helper_ctor);
	if (!aie_helper_acct_cache) {
		kmem_cache_destroy(aie_helper_cache);
		aie_helper_init_free();
		return -ENOMEM;
	}
	aie_helper_dir = debugfs_create_dir("aie_helper", NULL);
	debugfs_create_file("ctl", 0600, aie_helper_dir, NULL,
			    &aie_helper_fops);
	debugfs_create_file_unsafe("cache_ksize", 0400, aie_helper_dir, NULL,
				   &aie_helper_cache_ksize_fops);
	debugfs_create_file("storm", 0400, aie_helper_dir, NULL,
			    &aie_helper_storm_fops);
	debugfs_create_file("remade", 0400, aie_helper_dir, NULL,
			    &aie_helper_remade_fops);
	debugfs_create_file("source", 0400, aie_helper_dir, NULL,
			    &aie_helper_source_fops);
	debugfs_create_file_unsafe("oom", 0400, aie_helper_dir, NULL,
				   &aie_helper_oom_fops);
#ifdef AIE_HELPER_NMI_SHOW
	debugfs_create_file("nmi", 0400, aie_helper_dir, NULL,
			    &aie_helper_nmi_fops);
#endif
	return 0;
}

static void __exit aie_helper_exit(void)
{
	debugfs_remove_recursive(aie_helper_dir);
	aie_helper_free_all();
	kmem_cache_destroy(aie_helper_remade);
	kmem_cache_destroy(aie_helper_acct_cache);
	kmem_cache_destroy(aie_helper_cache);
}

module_init(aie_helper_init);
module_exit(aie_helper_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Allocates known sizes at known call sites for the allocinfo_ext selftests");
