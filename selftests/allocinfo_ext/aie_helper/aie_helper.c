// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper - allocates known sizes at known call sites on command, for
 * the allocinfo_ext selftests.
 *
 * Each kind of allocation is made by its own noinline function, with one
 * allocation call in it, so its call site is a row of /proc/allocinfo_ext
 * named func:<that function>. Control file /sys/kernel/debug/aie_helper/ctl:
 *
 *	write "alloc <kind> <n>"	make n more objects of <kind>
 *	write "free <kind> <n>"		free the n newest objects of <kind>
 *	write "free all"		free everything held
 *	read				one line per kind:
 *					<kind> <function> <bytes requested> <held>
 *
 * Failures are reported as -errno to the writer and with the prefix
 * "aie_helper:" in the kernel log.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define AIE_HELPER_MAX_HELD	4096
#define AIE_HELPER_LARGE	(3 * PAGE_SIZE + 1)
#define AIE_HELPER_HUGE		(8UL << 20)	/* above KMALLOC_MAX_SIZE */
#define AIE_HELPER_OBJ_SIZE	200

static struct kmem_cache *aie_helper_cache;

/* Non-constant sizes: the compiler must not pick the inline kmalloc path. */
static size_t aie_helper_large_var = AIE_HELPER_LARGE;
static size_t aie_helper_huge = AIE_HELPER_HUGE;

/* 40 characters: kstrdup() asks for 41 bytes. */
static const char aie_helper_str[] = "allocinfo_ext helper: a forty-char line.";
static const u8 aie_helper_blob[100];

/*
 * barrier() after each call keeps it from becoming a tail call, which
 * would move the call site into the caller.
 */
#define AIE_HELPER_KMALLOC(n)						\
static noinline void *aie_helper_kmalloc_##n(void)			\
{									\
	void *p = kmalloc(n, GFP_KERNEL);				\
									\
	barrier();							\
	return p;							\
}

AIE_HELPER_KMALLOC(96)
AIE_HELPER_KMALLOC(97)
AIE_HELPER_KMALLOC(128)
AIE_HELPER_KMALLOC(129)
AIE_HELPER_KMALLOC(192)
AIE_HELPER_KMALLOC(193)

/* Constant size above the largest kmalloc cache: kmalloc_large. */
static noinline void *aie_helper_kmalloc_large_const(void)
{
	void *p = kmalloc(AIE_HELPER_LARGE, GFP_KERNEL);

	barrier();
	return p;
}

/* The same size through __kmalloc, which traces it twice. */
static noinline void *aie_helper_kmalloc_large_var(void)
{
	void *p = kmalloc(READ_ONCE(aie_helper_large_var), GFP_KERNEL);

	barrier();
	return p;
}

/* Always fails: larger than the page allocator's largest order. */
static noinline void *aie_helper_kmalloc_fail(void)
{
	void *p = kmalloc(READ_ONCE(aie_helper_huge), GFP_KERNEL | __GFP_NOWARN);

	barrier();
	return p;
}

static noinline void *aie_helper_cache_alloc(void)
{
	void *p = kmem_cache_alloc(aie_helper_cache, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_helper_kstrdup(void)
{
	void *p = kstrdup(aie_helper_str, GFP_KERNEL);

	barrier();
	return p;
}

static noinline void *aie_helper_kmemdup(void)
{
	void *p = kmemdup(aie_helper_blob, sizeof(aie_helper_blob), GFP_KERNEL);

	barrier();
	return p;
}

static void aie_helper_cache_free(const void *p)
{
	kmem_cache_free(aie_helper_cache, (void *)p);
}

struct aie_helper_kind {
	const char *name;
	const char *func;
	size_t req;
	void *(*alloc)(void);
	void (*free)(const void *p);
	unsigned int held;
	void *obj[AIE_HELPER_MAX_HELD];
};

#define AIE_HELPER_KIND(_name, _fn, _req, _free)			\
	{ .name = _name, .func = #_fn, .req = _req, .alloc = _fn,	\
	  .free = _free }

static struct aie_helper_kind aie_helper_kinds[] = {
	AIE_HELPER_KIND("kmalloc96", aie_helper_kmalloc_96, 96, kfree),
	AIE_HELPER_KIND("kmalloc97", aie_helper_kmalloc_97, 97, kfree),
	AIE_HELPER_KIND("kmalloc128", aie_helper_kmalloc_128, 128, kfree),
	AIE_HELPER_KIND("kmalloc129", aie_helper_kmalloc_129, 129, kfree),
	AIE_HELPER_KIND("kmalloc192", aie_helper_kmalloc_192, 192, kfree),
	AIE_HELPER_KIND("kmalloc193", aie_helper_kmalloc_193, 193, kfree),
	AIE_HELPER_KIND("large_const", aie_helper_kmalloc_large_const,
			AIE_HELPER_LARGE, kfree),
	AIE_HELPER_KIND("large_var", aie_helper_kmalloc_large_var,
			AIE_HELPER_LARGE, kfree),
	AIE_HELPER_KIND("fail", aie_helper_kmalloc_fail, AIE_HELPER_HUGE,
			kfree),
	AIE_HELPER_KIND("cache", aie_helper_cache_alloc, AIE_HELPER_OBJ_SIZE,
			aie_helper_cache_free),
	AIE_HELPER_KIND("kstrdup", aie_helper_kstrdup,
			sizeof(aie_helper_str), kfree),
	AIE_HELPER_KIND("kmemdup", aie_helper_kmemdup,
			sizeof(aie_helper_blob), kfree),
};

static DEFINE_MUTEX(aie_helper_mutex);	/* guards aie_helper_kinds[].held */
static struct dentry *aie_helper_dir;

static struct aie_helper_kind *aie_helper_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_helper_kinds); i++) {
		if (!strcmp(aie_helper_kinds[i].name, name))
			return &aie_helper_kinds[i];
	}
	return NULL;
}

/* A failed allocation is not held, and not an error: "fail" wants it. */
static int aie_helper_alloc(struct aie_helper_kind *k, unsigned int n)
{
	void *p;

	if (n > AIE_HELPER_MAX_HELD - k->held)
		return -ENOSPC;
	while (n--) {
		p = k->alloc();
		if (p)
			k->obj[k->held++] = p;
	}
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

static void aie_helper_free_all(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_helper_kinds); i++)
		aie_helper_free(&aie_helper_kinds[i], aie_helper_kinds[i].held);
}

static int aie_helper_command(char *cmd)
{
	char *verb = strsep(&cmd, " "), *kind = strsep(&cmd, " ");
	struct aie_helper_kind *k;
	unsigned int n;

	if (verb && kind && !cmd && !strcmp(verb, "free") &&
	    !strcmp(kind, "all")) {
		aie_helper_free_all();
		return 0;
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
	ret = aie_helper_command(buf);
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
	for (i = 0; i < ARRAY_SIZE(aie_helper_kinds); i++) {
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

/* A constructor keeps the cache from being merged with another one. */
static void aie_helper_ctor(void *obj)
{
}

static int __init aie_helper_init(void)
{
	aie_helper_cache = kmem_cache_create("aie_helper_obj",
					     AIE_HELPER_OBJ_SIZE, 8, 0,
					     aie_helper_ctor);
	if (!aie_helper_cache)
		return -ENOMEM;
	aie_helper_dir = debugfs_create_dir("aie_helper", NULL);
	debugfs_create_file("ctl", 0600, aie_helper_dir, NULL,
			    &aie_helper_fops);
	return 0;
}

static void __exit aie_helper_exit(void)
{
	debugfs_remove_recursive(aie_helper_dir);
	aie_helper_free_all();
	kmem_cache_destroy(aie_helper_cache);
}

module_init(aie_helper_init);
module_exit(aie_helper_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Allocates known sizes at known call sites for the allocinfo_ext selftests");
