// SPDX-License-Identifier: GPL-2.0
/*
 * cgsites.c - count live kernel memory per call site and memory cgroup.
 *
 * An allocation accounted to a memory cgroup (memcg.c) made while the
 * feature is on (the cgroups parameter, or "cgroups on") by a task whose
 * memory cgroup is not the root is charged to a pair entry of the site
 * table: a site flagged AIE_SITE_CGROUP, made for (its site, that
 * cgroup) on first sight, whose index the object's value or record
 * keeps. Its free finds that index and uncharges the pair: frees need
 * nothing new. The pair has counters of its own and no hash bucket: no
 * lookup of a call site finds it, and /proc/allocinfo_ext shows no row
 * for it. A site's row there is its own counters plus its pairs', summed
 * at read (aie_cgsites_sum()), so the hooks charge one entry, not two;
 * a site's peak counts its pairs' bytes when a reader sums them only.
 *
 * The cgroup is the one the kernel charges: current->active_memcg when
 * set, else the task's memory cgroup. An allocation in an interrupt, an
 * NMI, or by a task in the root cgroup is charged to its site alone (the
 * kernel charges no cgroup then, or one this module does not see: an
 * interrupt's active memcg is private to mm/memcontrol.c). A pair is
 * keyed by its site's index and the cgroup's id (cgroup_id(), never
 * reused), and holds a reference to the cgroup's memory css from its
 * making until a reader finds the cgroup removed and the pair's objects
 * freed: its path is read from it in process context, and kept.
 *
 * Notes on locking and context
 * ----------------------------
 * - aie_cgsite_pick() runs in the hooks (any context, preemption
 *   disabled) and returns at once outside a task. It reads the task's css
 *   under rcu_read_lock(), takes no lock and never allocates: pairs
 *   (aie_cgsites[]) and the hash of their numbers are made when the
 *   feature is first turned on. A pair is made as a site is (sites.c): a
 *   number claimed by a cmpxchg() of aie_cgsites_nr, an entry of the site
 *   table claimed, the pair filled, then published by a cmpxchg() of its
 *   number into an empty bucket; the loser of a race for one key puts
 *   its reference, marks its entry void and takes the winner's. The
 *   winner then pushes its pair on its site's list (aie_cgsite_heads[],
 *   cmpxchg()), which readers walk with acquire loads. A css_tryget()
 *   and, after a lost race, a css_put() are the only calls into the
 *   cgroup code: percpu reference operations, any context.
 * - A new pair is named soon after its making, while its cgroup lives: the
 *   hook queues an irq_work (any context), whose handler queues
 *   aie_cgsites_name_work, which reads the path of every pair not named
 *   yet. A reader names one the work has not reached.
 * - aie_cgsites_mutex serialises turning the feature on and off, and the
 *   naming of pairs (path, removal, the reference put); process context.
 *   Pairs, hash and lists are freed at unload only, after the hooks are
 *   gone.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/log2.h>
#include <linux/memcontrol.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "aie.h"
#include "cgsites.h"
#include "core/counters.h"
#include "core/sites.h"
#include "core/stats.h"

/* The longest cgroup path kept; a longer one is cut. */
#define AIE_CGROUP_PATH_MAX	256

/* One (site, memory cgroup) pair. */
struct aie_cgsite {
	u64 cgid;			/* cgroup_id() of the cgroup */
	/* Held from the making; put by a reader (aie_cgsite_name()). */
	struct cgroup_subsys_state *css;
	u32 site;			/* its entry in aie_sites[] */
	u32 parent;			/* its site's index */
	u32 next;			/* next pair of the site: number + 1 */
	/* Readers', under aie_cgsites_mutex; never freed before unload */
	const char *path;
	bool removed;
};

DEFINE_STATIC_KEY_FALSE(aie_cgsites_key);
static DEFINE_MUTEX(aie_cgsites_mutex);

static struct aie_cgsite *aie_cgsites;
static u32 *aie_cgsite_hash;		/* pair number + 1; 0 = empty */
static u32 *aie_cgsite_heads;		/* per site: its first pair + 1 */
static unsigned int aie_cgsite_hash_bits;
static unsigned int aie_cgsites_cap;	/* the cgroup_sites parameter */
static atomic_t aie_cgsites_nr;		/* pair numbers handed out */
static atomic_long_t aie_cgsites_full;	/* charged to the site: no pair */

static void aie_cgsites_name_all(struct work_struct *work);
static DECLARE_WORK(aie_cgsites_name_work, aie_cgsites_name_all);

/* Queue the naming work, in hardirq context, no lock of the hook's held. */
static void aie_cgsites_name_irq(struct irq_work *work)
{
	queue_work(system_wq, &aie_cgsites_name_work);
}

static DEFINE_IRQ_WORK(aie_cgsites_name_iw, aie_cgsites_name_irq);

/* Find the memory css the kernel charges the current task's allocation to. */
static struct cgroup_subsys_state *aie_cgsite_css(void)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg = READ_ONCE(current->active_memcg);

	if (memcg)
		return &memcg->css;
	return task_css(current, memory_cgrp_id);
#else
	return NULL;
#endif
}

/* Hash the key (site index @parent, cgroup id @cgid) to its home bucket. */
static u32 aie_cgsite_home(u32 parent, u64 cgid)
{
	return hash_64(cgid ^ ((u64)parent << 32), aie_cgsite_hash_bits);
}

/* Tell whether pair @p is that of site @parent in the cgroup @cgid. */
static bool aie_cgsite_is(const struct aie_cgsite *p, u32 parent, u64 cgid)
{
	return p->parent == parent && p->cgid == cgid;
}

/*
 * Publish pair @nr at the first empty bucket from @pos: its entry, or the
 * entry of the pair another CPU published for the same key first.
 */
static struct aie_site *aie_cgsite_publish(u32 nr, u32 pos)
{
	u32 mask = BIT(aie_cgsite_hash_bits) - 1, b, next;
	struct aie_cgsite *p = &aie_cgsites[nr];
	struct aie_site *site = &aie_sites[p->site];

	/* At most cap pairs in 2 * cap buckets or more: one is empty. */
	for (; pos <= mask * 2; pos++) {
		b = cmpxchg(&aie_cgsite_hash[pos & mask], 0, nr + 1);
		if (!b)
			break;
		if (aie_cgsite_is(&aie_cgsites[b - 1], p->parent, p->cgid)) {
			aie_site_pair_settle(site, false);
			css_put(p->css);
			p->css = NULL;
			return &aie_sites[aie_cgsites[b - 1].site];
		}
	}
	aie_site_pair_settle(site, true);
	do {
		next = READ_ONCE(aie_cgsite_heads[p->parent]);
		WRITE_ONCE(p->next, next);
	} while (cmpxchg(&aie_cgsite_heads[p->parent], next, nr + 1) != next);
	irq_work_queue(&aie_cgsites_name_iw);
	return site;
}

/*
 * Make a new pair of @parent in the cgroup of @css, whose id is @cgid, to
 * be published from bucket @pos; return @parent itself when none can be
 * made.
 */
static struct aie_site *aie_cgsite_make(struct aie_site *parent,
					struct cgroup_subsys_state *css,
					u64 cgid, u32 pos)
{
	int nr = atomic_read(&aie_cgsites_nr);
	struct aie_cgsite *p;
	struct aie_site *site;

	do {
		if (nr >= aie_cgsites_cap)
			goto full;
	} while (!atomic_try_cmpxchg(&aie_cgsites_nr, &nr, nr + 1));
	if (!css_tryget(css))
		goto full;	/* going: its number is lost */
	site = aie_site_pair_make(parent, nr);
	if (!site) {
		css_put(css);
		goto full;
	}
	p = &aie_cgsites[nr];
	p->cgid = cgid;
	p->css = css;
	p->site = aie_site_index(site);
	p->parent = aie_site_index(parent);
	return aie_cgsite_publish(nr, pos);
full:
	atomic_long_inc(&aie_cgsites_full);
	return parent;
}

/* Find the pair of @parent in the cgroup of @css, made on first sight. */
static struct aie_site *aie_cgsite_get(struct aie_site *parent,
				       struct cgroup_subsys_state *css)
{
	u32 mask = BIT(aie_cgsite_hash_bits) - 1, idx = aie_site_index(parent);
	u64 cgid = cgroup_id(css->cgroup);
	u32 home = aie_cgsite_home(idx, cgid), i, b;
	struct aie_cgsite *p;

	for (i = 0; i <= mask; i++) {
		/* Pairs with the cmpxchg() that published the pair. */
		b = smp_load_acquire(&aie_cgsite_hash[(home + i) & mask]);
		if (!b)
			return aie_cgsite_make(parent, css, cgid, home + i);
		p = &aie_cgsites[b - 1];
		if (aie_cgsite_is(p, idx, cgid))
			return &aie_sites[p->site];
	}
	atomic_long_inc(&aie_cgsites_full);
	return parent;
}

/**
 * aie_cgsite_pick() - Find the entry an accounted allocation is charged to.
 * @site: the allocation's site, found and enabled.
 *
 * Context: The hooks': any context, preemption disabled. Never sleeps,
 * never allocates.
 * Return: the pair of @site and the current task's memory cgroup, made on
 * first sight, or @site itself: outside a task, in the root cgroup, or
 * when no pair can be made.
 */
struct aie_site *aie_cgsite_pick(struct aie_site *site)
{
	struct cgroup_subsys_state *css;
	struct aie_site *pair = site;

	/* Acquire: the hash and the pairs were made before the heads. */
	if (!in_task() || !smp_load_acquire(&aie_cgsite_heads))
		return site;
	rcu_read_lock();
	css = aie_cgsite_css();
	if (css && css->parent)
		pair = aie_cgsite_get(site, css);
	rcu_read_unlock();
	return pair;
}

/**
 * aie_cgsites_sum() - Sum a site's counters and its pairs'.
 * @idx: the site's index.
 * @s: set to the sums: the site's row's figures.
 *
 * Context: Process context.
 * Return: true, or false when a sum met a move (aie_site_sum()).
 */
bool aie_cgsites_sum(u32 idx, struct aie_site_sums *s)
{
	bool exact = aie_site_sum(idx, s);
	struct aie_site_sums ps;
	u32 *heads, b;

	/* Pairs with the smp_store_release() in aie_cgsites_make() */
	heads = smp_load_acquire(&aie_cgsite_heads);
	if (!heads)
		return exact;
	/* Pairs with the cmpxchg() that pushed the pair. */
	for (b = smp_load_acquire(&heads[idx]); b;
	     b = READ_ONCE(aie_cgsites[b - 1].next)) {
		exact &= aie_site_sum(aie_cgsites[b - 1].site, &ps);
		s->live_bytes += ps.live_bytes;
		s->live_calls += ps.live_calls;
		s->live_slack += ps.live_slack;
		s->total_calls += ps.total_calls;
		s->total_bytes += ps.total_bytes;
		s->live_accounted += ps.live_accounted;
	}
	return exact;
}

/**
 * aie_cgsite_parent() - Find the site a pair belongs to.
 * @site: the pair (AIE_SITE_CGROUP set, published).
 *
 * Context: Any context.
 * Return: the site whose pair @site is.
 */
struct aie_site *aie_cgsite_parent(const struct aie_site *site)
{
	return &aie_sites[aie_cgsites[site->frame].parent];
}

/* Read the path of pair @p's cgroup, once. aie_cgsites_mutex held. */
static void aie_cgsite_name_one(struct aie_cgsite *p)
{
	char *buf;

	lockdep_assert_held(&aie_cgsites_mutex);
	if (!p->css || p->path)
		return;
	buf = kmalloc(AIE_CGROUP_PATH_MAX, GFP_KERNEL);
	if (buf && cgroup_path(p->css->cgroup, buf, AIE_CGROUP_PATH_MAX) < 0)
		buf[0] = '\0';
	p->path = buf;
}

/* Name the published pairs not named yet. Process context (workqueue). */
static void aie_cgsites_name_all(struct work_struct *work)
{
	u32 i, n = min_t(u32, atomic_read(&aie_cgsites_nr), aie_cgsites_cap);
	struct aie_cgsite *p;

	mutex_lock(&aie_cgsites_mutex);
	for (i = 0; i < n; i++) {
		p = &aie_cgsites[i];
		/* Pairs with the barrier before the bit (sites.c) */
		if (test_bit_acquire(AIE_SITE_PUBLISHED,
				     &aie_sites[READ_ONCE(p->site)].flags) &&
		    test_bit(AIE_SITE_CGROUP, &aie_sites[p->site].flags))
			aie_cgsite_name_one(p);
	}
	mutex_unlock(&aie_cgsites_mutex);
}

/**
 * aie_cgsite_name() - Name the cgroup of a pair, for its row.
 * @site: the pair (AIE_SITE_CGROUP set, published).
 * @live_calls: the pair's live objects, as its row sums them.
 * @removed: set to whether the cgroup is gone.
 *
 * Read the path once. When the cgroup is removed and the pair's objects
 * freed (@live_calls 0), put the pair's reference.
 *
 * Context: Process context; takes aie_cgsites_mutex.
 * Return: the cgroup's path ("?" when it could not be read), or NULL when
 * the row is not to be shown: the cgroup removed and the pair's objects
 * freed.
 */
const char *aie_cgsite_name(const struct aie_site *site, s64 live_calls,
			    bool *removed)
{
	struct aie_cgsite *p = &aie_cgsites[site->frame];
	const char *path;

	mutex_lock(&aie_cgsites_mutex);
	aie_cgsite_name_one(p);
	if (p->css && css_is_dying(p->css))
		p->removed = true;
	if (p->css && p->removed && live_calls <= 0) {
		css_put(p->css);
		p->css = NULL;
	}
	*removed = p->removed;
	path = p->removed && live_calls <= 0 ? NULL : p->path ?: "?";
	mutex_unlock(&aie_cgsites_mutex);
	return path;
}

/* Make the pairs' tables. Process context, aie_cgsites_mutex held. */
static int aie_cgsites_make(void)
{
	unsigned int buckets = roundup_pow_of_two(aie_cgsites_cap * 2);
	u32 *heads;

	lockdep_assert_held(&aie_cgsites_mutex);
	if (aie_cgsite_heads)
		return 0;
	aie_cgsites = vzalloc(array_size(aie_cgsites_cap,
					 sizeof(*aie_cgsites)));
	aie_cgsite_hash = vzalloc(array_size(buckets, sizeof(u32)));
	heads = vzalloc(array_size(aie_sites_capacity(), sizeof(u32)));
	if (!aie_cgsites || !aie_cgsite_hash || !heads) {
		vfree(heads);
		vfree(aie_cgsite_hash);
		vfree(aie_cgsites);
		aie_cgsite_hash = NULL;
		aie_cgsites = NULL;
		return -ENOMEM;
	}
	aie_cgsite_hash_bits = ilog2(buckets);
	/* The tables, then the pointer: pairs with aie_cgsite_pick()'s acquire */
	smp_store_release(&aie_cgsite_heads, heads);
	return 0;
}

/**
 * aie_cgsites_set() - Turn the feature on or off.
 * @on: the new state.
 *
 * Make the tables the first time it is turned on. Pairs made stay when it
 * is turned off: their objects' frees find them.
 *
 * Context: Process context; takes aie_cgsites_mutex.
 * Return: 0, or -ENOMEM when the tables cannot be made (the feature stays
 * off).
 */
int aie_cgsites_set(bool on)
{
	int ret = 0;

	mutex_lock(&aie_cgsites_mutex);
	if (on)
		ret = aie_cgsites_make();
	if (!ret && on)
		static_branch_enable(&aie_cgsites_key);
	else if (!on)
		static_branch_disable(&aie_cgsites_key);
	mutex_unlock(&aie_cgsites_mutex);
	return ret;
}

/**
 * aie_cgsites_on() - Tell whether the feature is on.
 *
 * Context: Any context.
 * Return: true between "cgroups on" (or cgroups=1) and "cgroups off".
 */
bool aie_cgsites_on(void)
{
	return static_key_enabled(&aie_cgsites_key);
}

/**
 * aie_cgsites_init() - Set the feature up at load.
 * @on: turn it on now.
 * @max_pairs: the pairs made at most (the cgroup_sites parameter).
 *
 * Call after the site table is made and before the hooks.
 *
 * Context: Process context, module init.
 * Return: 0, or -ENOMEM.
 */
int aie_cgsites_init(bool on, unsigned int max_pairs)
{
	aie_stats_part_set(AIE_STATS_CGSITES, aie_cgsites_show, NULL);
	aie_cgsites_cap = max_pairs;
	atomic_set(&aie_cgsites_nr, 0);
	atomic_long_set(&aie_cgsites_full, 0);
	return on ? aie_cgsites_set(true) : 0;
}

/**
 * aie_cgsites_exit() - Put the pairs' references and free all, at unload.
 *
 * Call after the hooks are gone.
 *
 * Context: Process context, module exit.
 */
void aie_cgsites_exit(void)
{
	u32 i, n;

	static_branch_disable(&aie_cgsites_key);
	/* The irq_work may queue the work: the irq_work first */
	irq_work_sync(&aie_cgsites_name_iw);
	cancel_work_sync(&aie_cgsites_name_work);
	if (!aie_cgsite_heads)
		return;
	n = min_t(u32, atomic_read(&aie_cgsites_nr), aie_cgsites_cap);
	for (i = 0; i < n; i++) {
		/* A number whose making failed has no reference: no css */
		if (aie_cgsites[i].css &&
		    test_bit(AIE_SITE_PUBLISHED,
			     &aie_sites[aie_cgsites[i].site].flags))
			css_put(aie_cgsites[i].css);
		kfree(aie_cgsites[i].path);
	}
	vfree(aie_cgsite_heads);
	vfree(aie_cgsite_hash);
	vfree(aie_cgsites);
	aie_cgsite_heads = NULL;
	aie_cgsite_hash = NULL;
	aie_cgsites = NULL;
}

/**
 * aie_cgsites_show() - Print the cgroups lines of /proc/allocinfo_ext_stats.
 * @m: the stats file.
 *
 * Context: Process context.
 */
void aie_cgsites_show(struct seq_file *m)
{
	seq_printf(m, "cgroups %s\n", aie_cgsites_on() ? "on" : "off");
	seq_printf(m, "cgroup_sites %u\n",
		   min_t(u32, atomic_read(&aie_cgsites_nr), aie_cgsites_cap));
	seq_printf(m, "cgroup_sites_capacity %u\n", aie_cgsites_cap);
	seq_printf(m, "cgroup_sites_full %ld\n",
		   atomic_long_read(&aie_cgsites_full));
}
