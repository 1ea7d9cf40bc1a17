// SPDX-License-Identifier: GPL-2.0
/*
 * aie_bench - times allocator operations for `make bench`.
 *
 * Each operation is a loop of one allocation and its free, run once to
 * warm up (the first pass after boot runs about twice as slow), then
 * AIE_BENCH_ROUNDS times; the fastest round is kept. Under QEMU with
 * -icount shift=0 a guest nanosecond is one instruction, so the figures
 * count instructions. Control file /sys/kernel/debug/aie_bench/ctl:
 *
 *	write "run <op> <n>"	time n operations <op>; a read then gives
 *				"<op> <n> <fastest ns> <slowest ns>"
 *	write "hold <n>"	hold one 64-byte object at each of n distinct
 *				call sites (at most AIE_BENCH_ALL_SITES:
 *				the wide functions' after the others')
 *	write "acc"		allocate the accuracy sets: several call
 *				sites, each holding a known number of bytes
 *	write "release"		free what hold and acc allocated
 *
 * /sys/kernel/debug/aie_bench/acc lists the accuracy sets, one a line:
 * "<function> <sizes> <objects> <bytes>", bytes as the allocator hands
 * them out (ksize()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "sites.h"

#define AIE_BENCH_ROUNDS	3
#define AIE_BENCH_MANY		1000	/* sites of the many-sites loop */
#define AIE_BENCH_CACHE_SIZE	128

static struct kmem_cache *aie_bench_cache;
static struct dentry *aie_bench_dir;
static DEFINE_MUTEX(aie_bench_mutex);
static char aie_bench_result[128];
static unsigned long aie_bench_failed;

/* The objects "hold" keeps, one per site. */
static void **aie_bench_held;
static unsigned int aie_bench_nheld;

/*
 * A loop of n kmalloc()+kfree() pairs. Inlined into a caller per size,
 * so that the size is a constant, as at most call sites: kmalloc() then
 * picks its cache at compile time.
 */
static __always_inline void aie_bench_kmalloc_gfp(size_t size, gfp_t gfp,
						  unsigned long n)
{
	unsigned long i;
	void *p;

	for (i = 0; i < n; i++) {
		p = kmalloc(size, gfp);
		OPTIMIZER_HIDE_VAR(p);
		if (unlikely(!p))
			aie_bench_failed++;
		kfree(p);
	}
}

static __always_inline void aie_bench_kmalloc(size_t size, unsigned long n)
{
	aie_bench_kmalloc_gfp(size, GFP_KERNEL, n);
}

static void aie_bench_kmalloc_8(unsigned long n)
{
	aie_bench_kmalloc(8, n);
}

static void aie_bench_kmalloc_64(unsigned long n)
{
	aie_bench_kmalloc(64, n);
}

static void aie_bench_kmalloc_256(unsigned long n)
{
	aie_bench_kmalloc(256, n);
}

static void aie_bench_kmalloc_1000(unsigned long n)
{
	aie_bench_kmalloc(1000, n);
}

static void aie_bench_kmalloc_4096(unsigned long n)
{
	aie_bench_kmalloc(4096, n);
}

/* Accounted to the memory cgroup of the task that runs it */
static void aie_bench_kmalloc_64_acct(unsigned long n)
{
	aie_bench_kmalloc_gfp(64, GFP_KERNEL_ACCOUNT, n);
}

/* Above the largest kmalloc cache: a block of pages of its own. */
static void aie_bench_kmalloc_16384(unsigned long n)
{
	aie_bench_kmalloc(16384, n);
}

static void aie_bench_cache_pair(unsigned long n)
{
	unsigned long i;
	void *p;

	for (i = 0; i < n; i++) {
		p = kmem_cache_alloc(aie_bench_cache, GFP_KERNEL);
		OPTIMIZER_HIDE_VAR(p);
		if (unlikely(!p)) {
			aie_bench_failed++;
			continue;
		}
		kmem_cache_free(aie_bench_cache, p);
	}
}

static __always_inline void aie_bench_pages_gfp(unsigned int order,
						gfp_t gfp, unsigned long n)
{
	struct page *page;
	unsigned long i;

	for (i = 0; i < n; i++) {
		page = alloc_pages(gfp, order);
		OPTIMIZER_HIDE_VAR(page);
		if (unlikely(!page)) {
			aie_bench_failed++;
			continue;
		}
		__free_pages(page, order);
	}
}

static void aie_bench_pages_0(unsigned long n)
{
	aie_bench_pages_gfp(0, GFP_KERNEL, n);
}

static void aie_bench_pages_0_acct(unsigned long n)
{
	aie_bench_pages_gfp(0, GFP_KERNEL_ACCOUNT, n);
}

static void aie_bench_pages_3(unsigned long n)
{
	aie_bench_pages_gfp(3, GFP_KERNEL, n);
}

static void aie_bench_vmalloc(unsigned long n)
{
	unsigned long i;
	void *p;

	for (i = 0; i < n; i++) {
		p = vmalloc(PAGE_SIZE);
		OPTIMIZER_HIDE_VAR(p);
		if (unlikely(!p))
			aie_bench_failed++;
		vfree(p);
	}
}

static void aie_bench_percpu(unsigned long n)
{
	u64 __percpu *p;
	unsigned long i;

	for (i = 0; i < n; i++) {
		p = alloc_percpu(u64);
		OPTIMIZER_HIDE_VAR(p);
		if (unlikely(!p))
			aie_bench_failed++;
		free_percpu(p);
	}
}

/* kmalloc(64)+kfree pairs, each from the next of AIE_BENCH_MANY sites. */
static void aie_bench_many_sites(unsigned long n)
{
	unsigned long i;
	void *p;

	for (i = 0; i < n; i++) {
		aie_bench_sites[i % AIE_BENCH_MANY](&p);
		if (unlikely(!p))
			aie_bench_failed++;
		kfree(p);
	}
}

static const struct aie_bench_op {
	const char *name;
	void (*fn)(unsigned long n);
} aie_bench_ops[] = {
	{ "kmalloc-8", aie_bench_kmalloc_8 },
	{ "kmalloc-64", aie_bench_kmalloc_64 },
	{ "kmalloc-64-acct", aie_bench_kmalloc_64_acct },
	{ "kmalloc-256", aie_bench_kmalloc_256 },
	{ "kmalloc-1000", aie_bench_kmalloc_1000 },
	{ "kmalloc-4096", aie_bench_kmalloc_4096 },
	{ "kmalloc-16384", aie_bench_kmalloc_16384 },
	{ "kmem_cache", aie_bench_cache_pair },
	{ "pages-0", aie_bench_pages_0 },
	{ "pages-0-acct", aie_bench_pages_0_acct },
	{ "pages-3", aie_bench_pages_3 },
	{ "vmalloc", aie_bench_vmalloc },
	{ "percpu", aie_bench_percpu },
	{ "sites-1000", aie_bench_many_sites },
};

static u64 aie_bench_time(void (*fn)(unsigned long n), unsigned long n)
{
	u64 start = ktime_get_ns();

	fn(n);
	return ktime_get_ns() - start;
}

static int aie_bench_run(const char *name, unsigned long n)
{
	const struct aie_bench_op *op = NULL;
	u64 ns, min = U64_MAX, max = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_bench_ops); i++) {
		if (!strcmp(aie_bench_ops[i].name, name))
			op = &aie_bench_ops[i];
	}
	if (!op || !n)
		return -EINVAL;

	aie_bench_failed = 0;
	aie_bench_time(op->fn, n);
	for (i = 0; i < AIE_BENCH_ROUNDS; i++) {
		cond_resched();
		ns = aie_bench_time(op->fn, n);
		min = min(min, ns);
		max = max(max, ns);
	}
	if (aie_bench_failed) {
		pr_warn("%s: %lu allocations failed\n", name, aie_bench_failed);
		return -ENOMEM;
	}
	snprintf(aie_bench_result, sizeof(aie_bench_result),
		 "%s %lu %llu %llu\n", name, n, min, max);
	return 0;
}

/*
 * One object at each of the first n sites, held until "release": those
 * of aie_bench_sites[], then AIE_BENCH_WIDE a wide function.
 */
static int aie_bench_hold(unsigned int n)
{
	unsigned int i, k, w;

	if (aie_bench_held || n > AIE_BENCH_ALL_SITES)
		return -EINVAL;
	aie_bench_held = kvcalloc(n, sizeof(*aie_bench_held), GFP_KERNEL);
	if (!aie_bench_held)
		return -ENOMEM;
	for (i = 0; i < n && i < AIE_BENCH_SITES; i++)
		aie_bench_sites[i](&aie_bench_held[i]);
	for (; i < n; i += k) {
		w = (i - AIE_BENCH_SITES) / AIE_BENCH_WIDE;
		k = min_t(unsigned int, n - i, AIE_BENCH_WIDE);
		aie_bench_wides[w](&aie_bench_held[i], k);
	}
	/* kfree(NULL) is nothing: release frees all n whatever failed */
	aie_bench_nheld = n;
	for (i = 0; i < n; i++) {
		if (!aie_bench_held[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * The accuracy sets: each allocates from a call site of its own, one size
 * or sizes spread over 64 B..64 KiB, until it holds its bytes.
 */
struct aie_bench_acc {
	void *(*alloc)(size_t size);
	size_t size;		/* 0: mixed sizes */
	size_t hold;
	void **objs;
	unsigned long nr;
	size_t bytes;
};

static noinline void *aie_bench_acc_0(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_bench_acc_1(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_bench_acc_2(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_bench_acc_3(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_bench_acc_4(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_bench_acc_5(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	barrier();
	return p;
}

static struct aie_bench_acc aie_bench_accs[] = {
	{ aie_bench_acc_0, 64, SZ_4M },
	{ aie_bench_acc_1, 1000, SZ_4M },
	{ aie_bench_acc_2, 4096, SZ_4M },
	{ aie_bench_acc_3, SZ_64K, SZ_4M },
	{ aie_bench_acc_4, 0, SZ_1M },
	{ aie_bench_acc_5, 0, SZ_16M },
};

/* Sizes for the mixed sets: within (s/2, s] for s a power of two 64..64K. */
static size_t aie_bench_mixed_size(u32 *seed)
{
	size_t s;

	*seed = *seed * 1664525 + 1013904223;
	s = 64UL << ((*seed >> 8) % 11);
	return s - (*seed >> 16) % (s / 2);
}

static void aie_bench_acc_free(struct aie_bench_acc *a)
{
	while (a->nr)
		kfree(a->objs[--a->nr]);
	kvfree(a->objs);
	a->objs = NULL;
	a->bytes = 0;
}

static int aie_bench_acc_alloc(struct aie_bench_acc *a, u32 seed)
{
	size_t size, max = a->hold / 32 + 1;
	void *p;

	a->objs = kvcalloc(max, sizeof(*a->objs), GFP_KERNEL);
	if (!a->objs)
		return -ENOMEM;
	while (a->bytes < a->hold && a->nr < max) {
		size = a->size ? a->size : aie_bench_mixed_size(&seed);
		p = a->alloc(size);
		if (!p)
			return -ENOMEM;
		a->objs[a->nr++] = p;
		a->bytes += ksize(p);
	}
	return 0;
}

static void aie_bench_release(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_bench_accs); i++)
		aie_bench_acc_free(&aie_bench_accs[i]);
	while (aie_bench_nheld)
		kfree(aie_bench_held[--aie_bench_nheld]);
	kvfree(aie_bench_held);
	aie_bench_held = NULL;
}

static int aie_bench_acc(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(aie_bench_accs); i++) {
		if (aie_bench_accs[i].objs)
			return -EBUSY;
	}
	for (i = 0; i < ARRAY_SIZE(aie_bench_accs); i++) {
		ret = aie_bench_acc_alloc(&aie_bench_accs[i], i + 1);
		if (ret)
			return ret;
	}
	return 0;
}

static int aie_bench_command(char *buf)
{
	char *word = strsep(&buf, " ");
	char *arg = strsep(&buf, " ");
	unsigned long n;

	if (!strcmp(word, "run") && arg && buf && !kstrtoul(buf, 0, &n))
		return aie_bench_run(arg, n);
	if (!strcmp(word, "hold") && arg && !buf && !kstrtoul(arg, 0, &n))
		return aie_bench_hold(n);
	if (!strcmp(word, "acc") && !arg)
		return aie_bench_acc();
	if (!strcmp(word, "release") && !arg) {
		aie_bench_release();
		return 0;
	}
	return -EINVAL;
}

static ssize_t aie_bench_ctl_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	char buf[64];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);

	mutex_lock(&aie_bench_mutex);
	aie_bench_result[0] = '\0';
	ret = aie_bench_command(strim(buf));
	mutex_unlock(&aie_bench_mutex);
	return ret ? ret : len;
}

static ssize_t aie_bench_ctl_read(struct file *file, char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	char buf[sizeof(aie_bench_result)];

	mutex_lock(&aie_bench_mutex);
	strscpy(buf, aie_bench_result, sizeof(buf));
	mutex_unlock(&aie_bench_mutex);
	return simple_read_from_buffer(ubuf, len, ppos, buf, strlen(buf));
}

static const struct file_operations aie_bench_ctl_fops = {
	.owner = THIS_MODULE,
	.read = aie_bench_ctl_read,
	.write = aie_bench_ctl_write,
	.llseek = default_llseek,
};

static int aie_bench_acc_show(struct seq_file *m, void *v)
{
	struct aie_bench_acc *a;
	unsigned int i;

	mutex_lock(&aie_bench_mutex);
	for (i = 0; i < ARRAY_SIZE(aie_bench_accs); i++) {
		a = &aie_bench_accs[i];
		seq_printf(m, "aie_bench_acc_%u ", i);
		if (a->size)
			seq_printf(m, "%zu", a->size);
		else
			seq_puts(m, "64..65536");
		seq_printf(m, " %lu %zu\n", a->nr, a->bytes);
	}
	mutex_unlock(&aie_bench_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(aie_bench_acc);

static int __init aie_bench_init(void)
{
	aie_bench_cache = kmem_cache_create("aie_bench", AIE_BENCH_CACHE_SIZE,
					    0, 0, NULL);
	if (!aie_bench_cache)
		return -ENOMEM;
	aie_bench_dir = debugfs_create_dir("aie_bench", NULL);
	debugfs_create_file("ctl", 0600, aie_bench_dir, NULL,
			    &aie_bench_ctl_fops);
	debugfs_create_file("acc", 0400, aie_bench_dir, NULL,
			    &aie_bench_acc_fops);
	return 0;
}

static void __exit aie_bench_exit(void)
{
	debugfs_remove_recursive(aie_bench_dir);
	aie_bench_release();
	kmem_cache_destroy(aie_bench_cache);
}

module_init(aie_bench_init);
module_exit(aie_bench_exit);

MODULE_DESCRIPTION("allocinfo-ext benchmark: per-operation cost of the allocators");
MODULE_LICENSE("GPL");
