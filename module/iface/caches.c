// SPDX-License-Identifier: GPL-2.0
/*
 * caches.c - /proc/allocinfo_ext_caches: per slab cache, the live objects
 * the slab map holds records of, and their bytes, computed at each read
 * (Documentation/format.rst). Nothing is kept on the allocation and free
 * paths: a read walks the slab map's blocks (core/slabmap.c) and finds
 * each block's cache in its first page's struct slab.
 *
 * struct slab and struct kmem_cache are private to mm/, and their layouts
 * differ between kernels and configurations. At load, one unmergeable
 * cache (a constructor) of a known name gives one object: the word of its
 * slab's first struct page that holds the cache's address is the cache's
 * (one word of the first eight; found twice or never, the file says
 * "# off"), and the first word of the cache that points at a copy of its
 * name is the name's: SLUB's kobject, further on, has a copy too, which
 * for a merged cache is its sysfs name, not the one /proc/slabinfo
 * gives. Both are read with copy_from_kernel_nofault().
 *
 * Notes on locking
 * ----------------
 * A read walks the map in holds of the slab map's raw lock, interrupts
 * off (aie_slab_walk()), which hold off the drop of any block: the cache
 * of a block seen is alive while its name is read. Each hold does about
 * AIE_CACHES_HOLD records' reads, this file's work counted in them too
 * (aie_caches_add()); between holds the reader takes interrupts, lets
 * the hooks that wait for the lock in, and may sleep. So a hold is
 * bounded whatever the map holds: AIE_CACHES_HOLD, plus one block's
 * records (512 at most) and one cache's first sight (a name of 64
 * bytes, its hash probes). Documentation/benchmarks.rst gives the
 * longest section with interrupts off that a read makes.
 *
 * The figures are exact when no object of the cache comes or goes during
 * the read; meanwhile each block counts once at most, with its records
 * as they were when the walk reached its first page (aie_slab_walk()).
 * A cache is named at its first block seen: one destroyed between two
 * holds, and another made at its address, would count under the first
 * one's name for the rest of that read.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <allocinfo_ext.h>

#include "aie.h"
#include "caches.h"
#include "core/slabmap.h"

#define AIE_CACHES_ENTRIES	1024	/* caches per read; the rest: "other" */
#define AIE_CACHES_NAME		64
#define AIE_CACHES_HOLD		1024	/* records' reads per hold of the lock */
#define AIE_CACHES_BYTE_COST	16	/* a name's byte read, in records' reads */
#define AIE_CACHES_SCAN		256	/* bytes of struct kmem_cache searched */
#define AIE_CACHES_PROBE	"aie_caches_probe"

/* Offsets found at load: the cache in struct page, the name in the cache */
static int aie_page_cache_off = -1, aie_cache_name_off = -1;

struct aie_cache_sum {
	const void *cache;	/* NULL: a free entry */
	u64 objects, bytes;
	char name[AIE_CACHES_NAME];
};

struct aie_caches_walk {
	struct aie_cache_sum *e;
	struct aie_cache_sum large, other;
};

static void aie_caches_ctor(void *obj)
{
}

/* Read the word at @addr, or 0 when it cannot be read. */
static unsigned long aie_caches_word(const void *addr)
{
	unsigned long w;

	if (copy_from_kernel_nofault(&w, addr, sizeof(w)))
		return 0;
	return w;
}

/*
 * Copy the string at @addr into @buf (@len bytes, NUL-terminated); return
 * its length.
 */
static int aie_caches_str(const char *addr, char *buf, int len)
{
	int i;

	for (i = 0; i < len - 1; i++) {
		if (copy_from_kernel_nofault(&buf[i], addr + i, 1) || !buf[i])
			break;
	}
	buf[i] = 0;
	return i;
}

/*
 * Find the offset of the word in @base's first @bytes that @match takes:
 * the only one, or with @first the first one; -1 if none (or not one).
 */
static int aie_caches_find(const void *base, int bytes, bool first,
			   bool (*match)(unsigned long w, const void *arg),
			   const void *arg)
{
	int off, found = -1;

	for (off = 0; off < bytes; off += sizeof(long)) {
		if (!match(aie_caches_word(base + off), arg))
			continue;
		if (found >= 0)
			return -1;
		found = off;
		if (first)
			break;
	}
	return found;
}

static bool aie_caches_is(unsigned long w, const void *arg)
{
	return w == (unsigned long)arg;
}

static bool aie_caches_named(unsigned long w, const void *arg)
{
	char buf[sizeof(AIE_CACHES_PROBE) + 1];

	if (w < PAGE_OFFSET)
		return false;
	aie_caches_str((const char *)w, buf, sizeof(buf));
	return !strcmp(buf, arg);
}

/**
 * aie_caches_init() - Find the offsets of a slab's cache and a cache's name.
 *
 * Never fails the load: without them, the caches file says "# off".
 *
 * Context: Process context, at load; may sleep.
 */
void aie_caches_init(void)
{
	struct kmem_cache *c;
	struct page *head;
	void *obj = NULL;

	c = kmem_cache_create(AIE_CACHES_PROBE, 64, 0, 0, aie_caches_ctor);
	if (c)
		obj = kmem_cache_alloc(c, GFP_KERNEL);
	if (obj) {
		head = virt_to_head_page(obj);
		/* word 0 is the page's flags */
		aie_page_cache_off = aie_caches_find(head, 8 * sizeof(long),
						     false, aie_caches_is, c);
		aie_cache_name_off = aie_caches_find(c, AIE_CACHES_SCAN, true,
						     aie_caches_named,
						     AIE_CACHES_PROBE);
		kmem_cache_free(c, obj);
	}
	kmem_cache_destroy(c);
	if (aie_page_cache_off <= 0 || aie_cache_name_off < 0) {
		aie_page_cache_off = -1;
		pr_warn("cannot find a slab's cache and its name: no per-cache figures in /proc/allocinfo_ext_caches\n");
	}
}

/*
 * Add a block's records to its cache's sum. Under the slab map's lock,
 * interrupts off. Returns the work done, in records' reads: a hash
 * probe counts one, a byte of a name read AIE_CACHES_BYTE_COST.
 */
static unsigned int aie_caches_add(void *arg, struct page *head,
				   u64 objects, u64 bytes)
{
	struct aie_caches_walk *w = arg;
	struct aie_cache_sum *s = &w->other;
	unsigned int i = 0, h, len = 0;
	const void *cache;

	if (!head) {
		s = &w->large;
	} else {
		cache = (const void *)aie_caches_word((void *)head +
						      aie_page_cache_off);
		h = hash_ptr(cache, ilog2(AIE_CACHES_ENTRIES));
		for (i = 0; cache && i < AIE_CACHES_ENTRIES; i++) {
			s = &w->e[(h + i) % AIE_CACHES_ENTRIES];
			if (s->cache == cache)
				break;
			if (s->cache)
				continue;
			s->cache = cache;
			/* alive: a block of it is held */
			len = aie_caches_str((const char *)aie_caches_word(cache +
					     aie_cache_name_off), s->name,
					     sizeof(s->name));
			break;
		}
		if (!cache || i == AIE_CACHES_ENTRIES || !s->name[0])
			s = &w->other;
	}
	s->objects += objects;
	s->bytes += bytes;
	return i + len * AIE_CACHES_BYTE_COST;
}

static void aie_caches_line(struct seq_file *m, const char *name,
			    const struct aie_cache_sum *s)
{
	if (s->objects)
		seq_printf(m, "%s %llu %llu\n", name, s->objects, s->bytes);
}

/**
 * aie_caches_show() - Show /proc/allocinfo_ext_caches.
 * @m: the file being read.
 * @v: unused (a single_open() file).
 *
 * Context: Process context; may sleep between the walk's holds of the
 * slab map's lock.
 * Return: 0, or -ENOMEM.
 */
int aie_caches_show(struct seq_file *m, void *v)
{
	struct aie_caches_walk w = { };
	unsigned long pfn = 0;
	unsigned int i;

	seq_puts(m, AIE_CACHES_PROC_NAME " - version: " AIE_CACHES_VERSION "\n");
	if (!aie_slabmap_on() || aie_page_cache_off < 0) {
		seq_puts(m, "# off: no slab map, or no cache found for its blocks\n");
		return 0;
	}
	w.e = kvcalloc(AIE_CACHES_ENTRIES, sizeof(*w.e), GFP_KERNEL);
	if (!w.e)
		return -ENOMEM;
	while (pfn < aie_slab_npfn) {
		pfn = aie_slab_walk(pfn, AIE_CACHES_HOLD, aie_caches_add, &w);
		cond_resched();
	}
	seq_puts(m, "# <cache> <objects> <bytes>\n");
	for (i = 0; i < AIE_CACHES_ENTRIES; i++) {
		if (w.e[i].cache)
			aie_caches_line(m, w.e[i].name, &w.e[i]);
	}
	aie_caches_line(m, "large_kmalloc", &w.large);
	aie_caches_line(m, "other", &w.other);
	kvfree(w.e);
	return 0;
}
