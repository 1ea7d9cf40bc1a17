// SPDX-License-Identifier: GPL-2.0
/*
 * capture.c - caller context on demand: "capture <sel> [depth]" records,
 * for the sites <sel> matches, the distinct call stacks of their
 * allocations with calls and bytes per stack; "capture off" stops it.
 * /proc/allocinfo_ext_stacks gives bytes per stack, and
 * /proc/allocinfo_ext_stacks_calls calls per stack (iface/stacks.c shows
 * them), as collapsed-stack lines "f1;f2;...;fn <count>" (outermost
 * caller first), which flame-graph tools read.
 *
 * A stack starts at the site's own return address, found in the saved
 * trace: the frames of the hook and the allocator before it are dropped,
 * so its innermost frame is the allocating function. When the trace does
 * not hold the site (the unwinder lost track), the stack is the site alone
 * and stack_fallbacks counts it.
 *
 * Whether a site matches <sel> is decided by the first allocation there
 * after the capture starts, and kept in two bits of its flags.
 *
 * The table is preallocated (max_stacks entries) at the first capture and
 * kept until unload; each capture empties it, "capture off" keeps it for
 * reading. A stack that finds it full, or an NMI that cannot have its
 * lock, is counted in stack_drops.
 *
 * Notes on locking
 * ----------------
 * - aie_capture_mutex (process context: control writes, readers of the
 *   stacks files) serialises starts and stops, and keeps readers out of a
 *   table being emptied.
 * - aie_capture_key gates the hook. A start or stop turns it off, then
 *   waits with synchronize_rcu() for every hook that may still be inside
 *   (hooks run with preemption disabled); only then are the selector, the
 *   sites' capture bits and the table changed. Turning the key on patches
 *   code on every CPU with IPIs, which orders those stores before any hook
 *   that sees the key on.
 * - aie_stack_lock, a raw spinlock taken with interrupts off by the hook
 *   (any context; in an NMI only tried, core/nmi.h: the stack is then not
 *   counted, the row's figures are), guards the hash buckets and the
 *   claim of new entries. It nests
 *   inside nothing and nothing nests inside it. An entry is filled before
 *   aie_stacks_nr covers it (store-release); readers load aie_stacks_nr
 *   with acquire and read entries below it without the lock: their frames
 *   never change and their counters are atomic.
 */

#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/vmalloc.h>

#include "aie.h"
#include "capture.h"
#include "core/nmi.h"
#include "core/params.h"
#include "core/rules.h"
#include "core/sites.h"
#include "core/stats.h"
#include "core/symbols.h"
#include "lib/ctl.h"

/* Frames saved per event: the hook's and the allocator's, then the stack. */
#define AIE_CAPTURE_SAVE	(AIE_CAPTURE_DEPTH_MAX + 32)
#define AIE_CAPTURE_LEVELS	4	/* task, softirq, hardirq, NMI */

DEFINE_STATIC_KEY_FALSE(aie_capture_key);

static DEFINE_MUTEX(aie_capture_mutex);
static DEFINE_RAW_SPINLOCK(aie_stack_lock);

/* Changed only with the key off, under aie_capture_mutex. */
static struct aie_sel aie_capture_sel;
static unsigned int aie_capture_depth;
static bool aie_capture_active;		/* for the stats file */

static struct aie_stack *aie_stacks;	/* aie_max_stacks entries */
static u32 *aie_stack_hash;		/* entry index + 1; 0 = empty */
static unsigned int aie_stack_hash_bits;
static u32 aie_stacks_nr;		/* entries in use */
static atomic_long_t aie_stack_drops;	/* table full, or NMI skips */
static atomic_long_t aie_stack_fallbacks; /* site not in the trace */

/* A CPU's traces being saved, one per context level. */
struct aie_capture_bufs {
	unsigned long buf[AIE_CAPTURE_LEVELS][AIE_CAPTURE_SAVE];
};

/* Made with the table, at the first capture; set before the hook is on. */
static struct aie_capture_bufs __percpu *aie_capture_bufs;

/* Hash the stack @ip[0..@depth) of site index @site. */
static u32 aie_stack_hash_of(u32 site, const unsigned long *ip,
			     unsigned int depth)
{
	return jhash2((const u32 *)ip, depth * sizeof(*ip) / sizeof(u32),
		      site ^ depth);
}

/* Tell whether @st is the stack @ip[0..@depth) of site index @site. */
static bool aie_stack_is(const struct aie_stack *st, u32 site,
			 const unsigned long *ip, unsigned int depth)
{
	return st->site == site && st->depth == depth &&
	       !memcmp(st->ip, ip, depth * sizeof(*ip));
}

/*
 * Find the entry of the stack @ip[0..@depth) at site index @site, claimed
 * on first sight; NULL when the table is full, or in an NMI that cannot
 * have the lock (core/nmi.h). Any context.
 */
static struct aie_stack *aie_stack_get(u32 site, const unsigned long *ip,
				       unsigned int depth)
{
	u32 mask = (1U << aie_stack_hash_bits) - 1;
	u32 home = aie_stack_hash_of(site, ip, depth);
	struct aie_stack *st = NULL;
	unsigned long flags;
	u32 i, b, *bucket;

	if (!aie_raw_lock_any(&aie_stack_lock, &flags))
		return NULL;	/* an NMI: counted in nmi_skips */
	for (i = 0; i <= mask; i++) {
		bucket = &aie_stack_hash[(home + i) & mask];
		b = *bucket;
		if (!b)
			break;
		if (aie_stack_is(&aie_stacks[b - 1], site, ip, depth)) {
			st = &aie_stacks[b - 1];
			goto out;
		}
	}
	/* Buckets outnumber entries 2:1: a free one is found while any is. */
	if (i > mask || aie_stacks_nr == aie_max_stacks)
		goto out;
	st = &aie_stacks[aie_stacks_nr];
	st->site = site;
	st->depth = depth;
	memcpy(st->ip, ip, depth * sizeof(*ip));
	*bucket = aie_stacks_nr + 1;
	/* Pairs with the smp_load_acquire() of readers. */
	smp_store_release(&aie_stacks_nr, aie_stacks_nr + 1);
out:
	raw_spin_unlock_irqrestore(&aie_stack_lock, flags);
	return st;
}

/*
 * Tell whether the capture records @site's stacks, decided at its first
 * event. Both bits live in one word, set in order: a hook that sees SEEN
 * sees CAPTURE as it was decided. Two hooks deciding at once decide alike.
 */
static bool aie_capture_matches(struct aie_site *site)
{
	unsigned long flags = READ_ONCE(site->flags);
	struct aie_sym *sym;

	if (likely(flags & BIT(AIE_SITE_CAPTURE_SEEN)))
		return flags & BIT(AIE_SITE_CAPTURE);
	sym = aie_sym_scratch();
	aie_site_name(site, sym);
	if (aie_sel_match(&aie_capture_sel, sym,
			  rcu_dereference_sched(site->location)))
		set_bit(AIE_SITE_CAPTURE, &site->flags);
	set_bit(AIE_SITE_CAPTURE_SEEN, &site->flags);
	return test_bit(AIE_SITE_CAPTURE, &site->flags);
}

/**
 * aie_capture_alloc() - Count an allocation in its call stack's entry.
 * @site: the site the allocation is charged to.
 * @bytes: its size.
 * @weight: the allocations it stands for (above 1 under sampling).
 *
 * Call only with the capture on (aie_capture_on()). Does nothing for a
 * site the selector does not match.
 *
 * Context: The hooks' (any context, NMI included), preemption disabled.
 * Never sleeps, never allocates.
 */
void aie_capture_alloc(struct aie_site *site, u64 bytes, u64 weight)
{
	unsigned long *buf;
	struct aie_stack *st;
	unsigned int nr, i;

	if (!aie_capture_matches(site))
		return;
	buf = this_cpu_ptr(aie_capture_bufs)->buf[interrupt_context_level()];
	nr = stack_trace_save(buf, AIE_CAPTURE_SAVE, 0);
	for (i = 0; i < nr && buf[i] != site->call_site; i++)
		;
	if (i == nr) {
		atomic_long_inc(&aie_stack_fallbacks);
		buf[0] = site->call_site;
		i = 0;
		nr = 1;
	}
	st = aie_stack_get(aie_site_index(site), buf + i,
			   min(nr - i, aie_capture_depth));
	if (!st) {
		atomic_long_inc(&aie_stack_drops);
		return;
	}
	atomic64_add(weight, &st->calls);
	atomic64_add(bytes * weight, &st->bytes);
}

/*
 * Count the entries readers may read: each is filled before
 * aie_stack_get() counts it.
 */
static u32 aie_stacks_count(void)
{
	/* Pairs with the smp_store_release() in aie_stack_get(). */
	return smp_load_acquire(&aie_stacks_nr);
}

/*
 * Allocate the table and the CPUs' trace buffers, at the first capture.
 * aie_capture_mutex held.
 */
static int aie_capture_table_alloc(void)
{
	unsigned long buckets = roundup_pow_of_two(2UL * aie_max_stacks);

	lockdep_assert_held(&aie_capture_mutex);
	if (aie_stacks)
		return 0;
	aie_stack_hash = vzalloc(array_size(buckets, sizeof(*aie_stack_hash)));
	aie_stacks = vzalloc(array_size(aie_max_stacks, sizeof(*aie_stacks)));
	aie_capture_bufs = alloc_percpu(struct aie_capture_bufs);
	if (!aie_stacks || !aie_stack_hash || !aie_capture_bufs) {
		vfree(aie_stack_hash);
		vfree(aie_stacks);
		free_percpu(aie_capture_bufs);
		aie_stack_hash = NULL;
		aie_stacks = NULL;
		aie_capture_bufs = NULL;
		return -ENOMEM;
	}
	aie_stack_hash_bits = ilog2(buckets);
	return 0;
}

/* Turn the hook off and wait for every hook inside to leave. */
static void aie_capture_quiesce(void)
{
	lockdep_assert_held(&aie_capture_mutex);
	static_branch_disable(&aie_capture_key);
	synchronize_rcu();
	aie_capture_active = false;
}

/* Forget which sites matched the last selector. */
static void aie_capture_clear_sites(void)
{
	u32 i, n = aie_sites_nr();
	struct aie_site *site;

	for (i = 0; i < n; i++) {
		site = aie_site_at(i);
		if (!site)
			continue;
		clear_bit(AIE_SITE_CAPTURE, &site->flags);
		clear_bit(AIE_SITE_CAPTURE_SEEN, &site->flags);
		cond_resched();
	}
}

/**
 * aie_capture_start() - Start recording the stacks of the sites @sel matches.
 * @sel: the selector of "capture <sel> <depth>".
 * @depth: the frames kept per stack.
 *
 * Empty the table (allocated at the first capture), then record.
 *
 * Context: Process context; takes aie_capture_mutex, may sleep.
 * Return: 0, or -ENOMEM when the table cannot be had.
 */
int aie_capture_start(const struct aie_sel *sel, unsigned int depth)
{
	int ret;

	mutex_lock(&aie_capture_mutex);
	ret = aie_capture_table_alloc();
	if (ret)
		goto out;
	aie_capture_quiesce();
	aie_capture_clear_sites();
	memset(aie_stack_hash, 0,
	       sizeof(*aie_stack_hash) << aie_stack_hash_bits);
	memset(aie_stacks, 0, array_size(aie_max_stacks, sizeof(*aie_stacks)));
	aie_stacks_nr = 0;
	atomic_long_set(&aie_stack_drops, 0);
	atomic_long_set(&aie_stack_fallbacks, 0);
	aie_capture_sel = *sel;
	aie_capture_depth = depth;
	aie_capture_active = true;
	static_branch_enable(&aie_capture_key);
out:
	mutex_unlock(&aie_capture_mutex);
	return ret;
}

/**
 * aie_capture_stop() - Stop recording, for "capture off".
 *
 * The table stays, for reading.
 *
 * Context: Process context; takes aie_capture_mutex, may sleep.
 */
void aie_capture_stop(void)
{
	mutex_lock(&aie_capture_mutex);
	aie_capture_quiesce();
	mutex_unlock(&aie_capture_mutex);
}

/**
 * aie_capture_memory() - Count the memory the capture's table takes.
 *
 * Context: Process context; takes aie_capture_mutex.
 * Return: the bytes of the table, its hash and the CPUs' trace buffers; 0
 * before the first capture.
 */
size_t aie_capture_memory(void)
{
	size_t bytes = 0;

	mutex_lock(&aie_capture_mutex);
	if (aie_stacks)
		bytes = array_size(aie_max_stacks, sizeof(*aie_stacks)) +
			(sizeof(*aie_stack_hash) << aie_stack_hash_bits) +
			num_possible_cpus() * sizeof(struct aie_capture_bufs);
	mutex_unlock(&aie_capture_mutex);
	return bytes;
}

/**
 * aie_capture_show() - Show the capture's lines of the stats file.
 * @m: the stats file.
 *
 * Context: Process context; takes aie_capture_mutex.
 */
void aie_capture_show(struct seq_file *m)
{
	mutex_lock(&aie_capture_mutex);
	seq_printf(m, "capture %s\n", aie_capture_active ? "on" : "off");
	seq_printf(m, "capture_depth %u\n", aie_capture_depth);
	seq_printf(m, "stacks %u\n", aie_stacks_count());
	seq_printf(m, "stack_capacity %u\n", aie_max_stacks);
	seq_printf(m, "stack_drops %ld\n", atomic_long_read(&aie_stack_drops));
	seq_printf(m, "stack_fallbacks %ld\n",
		   atomic_long_read(&aie_stack_fallbacks));
	seq_puts(m, "stacks_version " AIE_STACKS_VERSION "\n");
	mutex_unlock(&aie_capture_mutex);
}

/**
 * aie_capture_read_lock() - Keep the stack table as it is while it is read.
 *
 * The stacks files' readers (iface/stacks.c) hold aie_capture_mutex from
 * their start to their stop: no capture empties the table meanwhile.
 *
 * Context: Process context; may sleep.
 */
void aie_capture_read_lock(void)
{
	mutex_lock(&aie_capture_mutex);
}

/**
 * aie_capture_read_unlock() - End aie_capture_read_lock().
 *
 * Context: Process context.
 */
void aie_capture_read_unlock(void)
{
	mutex_unlock(&aie_capture_mutex);
}

/**
 * aie_capture_stack() - Find the captured stack at a position.
 * @pos: the stack's index in the table.
 *
 * Context: Under aie_capture_read_lock().
 * Return: the stack, whose frames never change and whose counts are
 * atomic, or NULL past the last.
 */
const struct aie_stack *aie_capture_stack(loff_t pos)
{
	if (!aie_stacks || pos >= aie_stacks_count())
		return NULL;
	return &aie_stacks[pos];
}

/**
 * aie_capture_init() - Set the capture's part of the stats file.
 *
 * The table and the buffers are made at the first capture, not here.
 *
 * Context: Process context, at module init.
 */
void aie_capture_init(void)
{
	aie_stats_part_set(AIE_STATS_CAPTURE, aie_capture_show,
			   aie_capture_memory);
}

/**
 * aie_capture_exit() - Free the stack table and the capture's buffers.
 *
 * Context: Process context, after every hook is unregistered and has
 * finished, and the stacks files are removed (iface/proc.c).
 */
void aie_capture_exit(void)
{
	static_branch_disable(&aie_capture_key);
	vfree(aie_stack_hash);
	vfree(aie_stacks);
	free_percpu(aie_capture_bufs);
	aie_stack_hash = NULL;
	aie_stacks = NULL;
	aie_capture_bufs = NULL;
}
