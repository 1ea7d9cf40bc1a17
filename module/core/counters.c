// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - the sites' counters: a per-CPU cache of slots in front of
 * each site's own counters.
 *
 * Each CPU has counter_slots slots (a power of two), and site @idx uses
 * slot @idx modulo that number on every CPU: per-CPU counters for every
 * site would cost 56 bytes per site per possible CPU. A CPU's slots are an
 * array made on its node when it first comes up (aie_ctr_base), so 8 CPUs
 * up of 256 possible pay for 8. A slot holds what its CPU added to one
 * site since the slot was given to it; the site's own counters (struct
 * aie_site_ctr, sites.c) hold the rest, and its figures are their sum.
 * The first counter_slots sites seen each have a slot of their own.
 *
 * Notes on locking
 * ----------------
 * No lock. Every function here runs in any context, NMI included, and never
 * sleeps, except init, exit, aie_ctrs_reset() and the CPU dead callback.
 *
 * - A hook charges its CPU's slot with local64 operations, which an
 *   interrupt on the same CPU cannot tear, with preemption disabled, when
 *   the slot holds its site (aie_site_charge() in counters.h). No other CPU
 *   writes the slot, so no cache line is written by every CPU.
 * - When the slot holds another site, aie_ctr_miss() gives it to this one
 *   with interrupts disabled: it adds the slot's deltas to the old site's
 *   own counters (atomic64_add(), any CPU may do it for any site), then
 *   refills the slot. A hook that interrupted another hook between its
 *   test of the slot and its updates would pull the slot from under it:
 *   each hook counts itself in this CPU's aie_ctr_nest around the two, and
 *   one that finds another there adds to its site's own counters instead.
 * - A reader (aie_site_sum()) reads the site's own counters, then each
 *   CPU's slot that holds the site. Each move of a slot's deltas to the
 *   site's own counters is counted in the site's @moves, as a seqcount is
 *   but with any number of CPUs moving at once: the low bits count the
 *   moves under way, the high bits those done. A reader that saw a move
 *   under way, or a different count after its read, reads again, a few
 *   times at most; a sum still not consistent says so, and raises no peak.
 *   Each figure is exact at quiescence.
 * - A reader sums only the CPUs in aie_ctr_cpus. A CPU's slots are made
 *   and its bit set before it runs (CPUHP_BP_PREPARE_DYN); the bit is
 *   cleared after it died, once its slots' deltas are moved, as a take
 *   moves them. Its empty slots stay for its return; they go at exit.
 * - The peak is raised from a sum, at most about 64 ln(n) times as a site
 *   grows to n objects, and at most 1/64 short (aie_site_new_high(),
 *   aie_peak_due(); Documentation/design.rst).
 * - "reset" (aie_ctrs_reset()) zeroes the totals of each CPU's slots in
 *   IPIs, AIE_CTR_RESET_IPI slots an IPI, then the sites' own. Counts
 *   from before the reset do not survive it: a slot is given away with
 *   interrupts off, so its totals moved before its CPU's IPI for it, and
 *   were zeroed after. Counts made during the reset may be lost: those
 *   moved to a site's own counters between its CPU's IPI for its slot and
 *   the zeroing of that site's own.
 */

#include <linux/cpu.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "aie.h"
#include "counters.h"
#include "cpus.h"
#include "sites.h"
#include "stats.h"

/* A move of a slot's deltas under way, in aie_site::moves; one done. */
#define AIE_MOVE_BEGUN		1
#define AIE_MOVE_DONE		BIT(16)
#define AIE_MOVES_BUSY		(AIE_MOVE_DONE - 1)
#define AIE_SUM_TRIES		8
/* Slots a "reset" IPI zeroes, interrupts off: a bounded section */
#define AIE_CTR_RESET_IPI	512U
/* A site's growth between two peak sums, as a shift of its live bytes. */
#define AIE_PEAK_STEP_SHIFT	6

DEFINE_PER_CPU(unsigned int, aie_ctr_nest);
DEFINE_PER_CPU(struct aie_ctr_slot *, aie_ctr_base);

static unsigned int aie_ctr_nr;		/* slots per CPU, a power of two */
static unsigned int aie_ctr_arrays;	/* CPUs that have slots */

/* The CPUs whose slots a sum reads (see the notes at the top). */
static struct cpumask aie_ctr_cpus;
static int aie_ctr_hp_state;		/* our CPUHP_BP_PREPARE_DYN state */

static void aie_ctr_move(struct aie_ctr_slot *s);

/* Find @cpu's slot at byte offset @off: @cpu is in aie_ctr_cpus, or dying. */
static struct aie_ctr_slot *aie_ctr_slot(int cpu, u32 off)
{
	/* Pairs with the smp_wmb() before @cpu's bit is set. */
	smp_rmb();
	return (void *)READ_ONCE(per_cpu(aie_ctr_base, cpu)) + off;
}

/*
 * Make @cpu's slots, the first time (no memory fails its bring-up), and
 * let sums read them. Before @cpu runs, or at init for the CPUs up;
 * process context, CPU hotplug lock held.
 */
static int aie_ctrs_cpu_prepare(unsigned int cpu)
{
	struct aie_ctr_slot *slots = per_cpu(aie_ctr_base, cpu);

	if (!slots) {
		slots = kvzalloc_node(array_size(aie_ctr_nr, sizeof(*slots)),
				      GFP_KERNEL, cpu_to_node(cpu));
		if (!slots)
			return -ENOMEM;
		per_cpu(aie_ctr_base, cpu) = slots;
		aie_ctr_arrays++;
	}
	/* The slots before the bit that lets readers find them. */
	smp_wmb();
	cpumask_set_cpu(cpu, &aie_ctr_cpus);
	return 0;
}

/*
 * Move dead @cpu's slots' deltas to their sites, then stop sums reading
 * them. Process context on the CPU that took it down, hotplug lock held:
 * no hook runs on @cpu, and no reset writes its slots meanwhile.
 */
static int aie_ctrs_cpu_dead(unsigned int cpu)
{
	struct aie_ctr_slot *s;
	u32 i;

	for (i = 0; i < aie_ctr_nr; i++) {
		s = aie_ctr_slot(cpu, aie_ctr_slot_of(i));
		if (s->site)
			aie_ctr_move(s);
		cond_resched();	/* a BP state's teardown: may sleep */
	}
	cpumask_clear_cpu(cpu, &aie_ctr_cpus);
	return 0;
}

/* Show the counter slots' lines of the stats file. */
static void aie_ctrs_stats_show(struct seq_file *m)
{
	seq_printf(m, "counter_slots %u\n", aie_ctr_slots());
	seq_printf(m, "counter_slot_takes %lu\n", aie_stat(ctr_takes));
	seq_printf(m, "counter_shared_updates %lu\n", aie_stat(ctr_shared));
	seq_printf(m, "peak_sums %lu\n", aie_stat(peak_sums));
}

/* Show the memory of the site table and its counters. */
static void aie_ctrs_memory_show(struct seq_file *m)
{
	size_t ctrs = aie_ctrs_memory();

	seq_printf(m, "site_table_bytes %zu\n", aie_sites_memory() + ctrs);
	seq_printf(m, "site_counter_bytes %zu\n",
		   aie_sites_ctrs_memory() + ctrs);
	seq_printf(m, "counter_slot_bytes %zu\n", ctrs);
	seq_printf(m, "site_cache_bytes %zu\n", aie_site_caches_memory());
}

/**
 * aie_ctrs_init() - Make the CPUs' slots, and keep them as CPUs come and go.
 * @slots: slots per CPU (counter_slots), a power of two.
 *
 * Context: Process context, before any hook runs and after the site table
 * is made (a dead CPU's slots move to it); may sleep.
 * Return: 0, or a negative errno.
 */
int aie_ctrs_init(unsigned int slots)
{
	int ret;

	aie_stats_part_set(AIE_STATS_COUNTERS, aie_ctrs_stats_show,
			   aie_ctrs_memory);
	aie_stats_part_set(AIE_STATS_SITE_MEMORY, aie_ctrs_memory_show, NULL);
	aie_ctr_nr = slots;
	ret = aie_cpus_setup("allocinfo_ext:counters", aie_ctrs_cpu_prepare,
			     aie_ctrs_cpu_dead);
	if (ret < 0) {
		aie_ctrs_exit();
		return ret;
	}
	aie_ctr_hp_state = ret;
	return 0;
}

/**
 * aie_ctrs_exit() - Free the CPUs' slots.
 * Context: Process context, after every hook is unregistered and has
 * finished, and before the site table goes; may sleep.
 */
void aie_ctrs_exit(void)
{
	unsigned int cpu;

	if (aie_ctr_hp_state > 0)
		cpuhp_remove_state_nocalls(aie_ctr_hp_state);
	aie_ctr_hp_state = 0;
	cpumask_clear(&aie_ctr_cpus);
	for_each_possible_cpu(cpu) {
		kvfree(per_cpu(aie_ctr_base, cpu));
		per_cpu(aie_ctr_base, cpu) = NULL;
	}
	aie_ctr_arrays = 0;
	aie_ctr_nr = 0;
}

/**
 * aie_ctr_slot_of() - Find a site's slot.
 * @idx: the site's index.
 * Return: the byte offset of the site's slot in every CPU's slots.
 */
u32 aie_ctr_slot_of(u32 idx)
{
	return (idx & (aie_ctr_nr - 1)) * sizeof(struct aie_ctr_slot);
}

/**
 * aie_ctr_slots() - Tell the slots per CPU.
 * Return: counter_slots.
 */
unsigned int aie_ctr_slots(void)
{
	return aie_ctr_nr;
}

/**
 * aie_ctrs_memory() - Tell the slots' memory.
 * Return: bytes, of every CPU that came up since the load.
 */
size_t aie_ctrs_memory(void)
{
	return (size_t)aie_ctr_nr * READ_ONCE(aie_ctr_arrays) *
	       sizeof(struct aie_ctr_slot);
}

/* Tell how far a site of @live bytes may grow before its next peak sum. */
static s64 aie_peak_step(s64 live)
{
	return live > 0 ? live >> AIE_PEAK_STEP_SHIFT : 0;
}

/* Add deltas to @site's own counters. Any CPU, any context, NMI included. */
static void aie_ctr_add(const struct aie_site *site, s64 bytes, s64 calls,
			s64 slack, s64 total_calls, s64 total_bytes,
			s64 accounted)
{
	struct aie_site_ctr *c = aie_site_ctrs(aie_site_index(site));

	if (bytes)
		atomic64_add(bytes, &c->live_bytes);
	if (calls)
		atomic64_add(calls, &c->live_calls);
	if (slack)
		atomic64_add(slack, &c->live_slack);
	if (total_calls)
		atomic64_add(total_calls, &c->total_calls);
	if (total_bytes)
		atomic64_add(total_bytes, &c->total_bytes);
	if (accounted)
		atomic64_add(accounted, &c->live_accounted);
}

/**
 * aie_site_peak() - Raise a site's peak.
 * @idx: the site's index.
 * @live_bytes: its live bytes, from a sum.
 * Context: Any context, NMI included; cmpxchg(), no lock.
 * Return: the peak, @live_bytes if that was higher.
 */
s64 aie_site_peak(u32 idx, s64 live_bytes)
{
	atomic64_t *peak = &aie_sites[idx].peak;
	s64 old = atomic64_read(peak);

	while (live_bytes > old) {
		if (atomic64_try_cmpxchg(peak, &old, live_bytes))
			return live_bytes;
	}
	return old;
}

/*
 * Sum @site's figures and raise its peak to their live bytes; false when
 * moves kept the sum from being consistent. The charges that missed their
 * slot up to the sum are summed: those counted in @site's unsummed before
 * it leave it.
 */
static bool aie_site_raise_peak(const struct aie_site *site, s64 *live)
{
	u32 idx = aie_site_index(site);
	atomic64_t *unsummed = &aie_site_ctrs(idx)->unsummed;
	s64 before = atomic64_read(unsummed);
	struct aie_site_sums sums;

	aie_count(peak_sums);
	if (!aie_site_sum(idx, &sums))
		return false;
	aie_site_peak(idx, sums.live_bytes);
	atomic64_sub(before, unsummed);
	*live = sums.live_bytes;
	return true;
}

/**
 * aie_site_new_high() - Raise a site's peak, its slot past its high.
 * @site: the site, whose slot on this CPU holds more live bytes of it
 *        than the slot's high.
 *
 * Sum the site, raise its peak, and move the slot's high 1/64 of the
 * site's live bytes past what the slot holds (see the notes at the top).
 *
 * Context: The hooks, any context, NMI included; preemption disabled,
 * inside aie_ctr_nest: the slot is still @site's.
 */
void aie_site_new_high(struct aie_site *site)
{
	struct aie_ctr_slot *s = aie_slot_here(site);
	s64 live = local64_read(&s->live_bytes), sum;

	if (aie_site_raise_peak(site, &sum))
		live += aie_peak_step(sum);
	local64_set(&s->high, live);
}

/*
 * Count a charge (@bytes above 0) or an uncharge (below) that missed its
 * slot in @site's unsummed: whether it was a charge, and the misses since
 * the site's last sum have grown it by 1/64 of its peak, so that a sum is
 * due.
 */
static bool aie_peak_due(const struct aie_site *site, s64 bytes)
{
	atomic64_t *unsummed = &aie_site_ctrs(aie_site_index(site))->unsummed;
	s64 grown = atomic64_add_return(bytes, unsummed);

	return bytes > 0 && grown > aie_peak_step(atomic64_read(&site->peak));
}

/*
 * Move slot @s's deltas into its site's own counters, and empty it,
 * inside a move of the site's @moves (see aie_site_sum()). With nothing
 * else writing the slot: its CPU with interrupts off, or the CPU that
 * took it down.
 */
static void aie_ctr_move(struct aie_ctr_slot *s)
{
	struct aie_site *old = s->site;

	atomic_add(AIE_MOVE_BEGUN, &old->moves);
	/* The move begun before any of it is seen. */
	smp_mb__after_atomic();
	WRITE_ONCE(s->site, NULL);
	aie_ctr_add(old, local64_read(&s->live_bytes),
		    local64_read(&s->live_calls), local64_read(&s->live_slack),
		    local64_read(&s->total_calls), local64_read(&s->total_bytes),
		    local64_read(&s->live_accounted));
	/* All of it seen before the move is done. */
	smp_mb__before_atomic();
	atomic_add(AIE_MOVE_DONE - AIE_MOVE_BEGUN, &old->moves);
}

/*
 * Give this CPU's slot @s to @site, holding the deltas given: move those
 * of its site before into that site's own counters (aie_ctr_move()).
 * Interrupts disabled, so that neither a hook nor the reset's IPI on this
 * CPU comes between. The slot is filled last, ordered by smp_wmb()
 * against aie_site_read()'s smp_rmb().
 */
static void aie_ctr_take(struct aie_ctr_slot *s, struct aie_site *site,
			 s64 bytes, s64 calls, s64 slack, s64 accounted,
			 bool charge)
{
	if (s->site)
		aie_ctr_move(s);
	local64_set(&s->live_bytes, bytes);
	local64_set(&s->live_calls, calls);
	local64_set(&s->live_slack, slack);
	local64_set(&s->total_calls, charge ? calls : 0);
	local64_set(&s->total_bytes, charge ? bytes : 0);
	local64_set(&s->live_accounted, accounted);
	local64_set(&s->high, max_t(s64, bytes, 0));
	/* The deltas before the site they belong to. */
	smp_wmb();
	WRITE_ONCE(s->site, site);
}

/**
 * aie_ctr_miss() - Count for a site whose slot on this CPU holds another.
 * @site: the site.
 * @bytes: live bytes to add (negative for an uncharge).
 * @calls: live calls to add (negative for an uncharge).
 * @slack: live slack to add (negative for an uncharge).
 * @accounted: accounted live bytes to add (negative for an uncharge).
 * @charge: a charge: add @calls and @bytes to the totals too.
 *
 * Take this CPU's slot of @site, which holds another site or none, with
 * the deltas given; or, when this hook interrupted another between its
 * test of the slot and its updates, add them to @site's own counters.
 * Sum the site when its missed charges are due (see the notes at the top).
 *
 * Context: The hooks, any context, NMI included; preemption disabled,
 * inside aie_ctr_nest. Disables interrupts to take the slot.
 */
void aie_ctr_miss(struct aie_site *site, s64 bytes, s64 calls, s64 slack,
		  s64 accounted, bool charge)
{
	unsigned long flags;
	s64 sum;

	lockdep_assert_preemption_disabled();
	if (this_cpu_read(aie_ctr_nest) > 1) {
		aie_count(ctr_shared);
		aie_ctr_add(site, bytes, calls, slack, charge ? calls : 0,
			    charge ? bytes : 0, accounted);
	} else {
		aie_count(ctr_takes);
		local_irq_save(flags);
		aie_ctr_take(aie_slot_here(site), site, bytes, calls,
			     slack, accounted, charge);
		local_irq_restore(flags);
	}
	if (aie_peak_due(site, bytes))
		aie_site_raise_peak(site, &sum);
}

/* Read @site's own counters and the CPUs' slots that hold it, once. */
static void aie_site_read(const struct aie_site *site,
			  struct aie_site_sums *sums)
{
	struct aie_site_ctr *c = aie_site_ctrs(aie_site_index(site));
	struct aie_ctr_slot *s;
	int cpu;

	sums->live_bytes = atomic64_read(&c->live_bytes);
	sums->live_calls = atomic64_read(&c->live_calls);
	sums->live_slack = atomic64_read(&c->live_slack);
	sums->total_calls = atomic64_read(&c->total_calls);
	sums->total_bytes = atomic64_read(&c->total_bytes);
	sums->live_accounted = atomic64_read(&c->live_accounted);
	for_each_cpu(cpu, &aie_ctr_cpus) {
		s = aie_ctr_slot(cpu, site->slot);
		if (READ_ONCE(s->site) != site)
			continue;
		/* Pairs with the smp_wmb() before a slot is filled. */
		smp_rmb();
		sums->live_bytes += local64_read(&s->live_bytes);
		sums->live_calls += local64_read(&s->live_calls);
		sums->live_slack += local64_read(&s->live_slack);
		sums->total_calls += local64_read(&s->total_calls);
		sums->total_bytes += local64_read(&s->total_bytes);
		sums->live_accounted += local64_read(&s->live_accounted);
	}
}

/**
 * aie_ctr_slot_live() - Add up the live bytes the CPUs' slot @i holds.
 * @i: the slot.
 * @first: the first site to count, one of slot @i's.
 * @end: the sites to count are below it.
 * @live: @live[k] gets the live bytes held for site
 *        @first + k * aie_ctr_slots().
 *
 * One read of each CPU up's slot, without a lock, for a reader that ranks
 * many sites at once (the OOM report). A slot that changes hands
 * meanwhile may be missed or counted twice: aie_site_sum() is what says a
 * site's figures.
 *
 * Context: Any context.
 */
void aie_ctr_slot_live(u32 i, u32 first, u32 end, s64 *live)
{
	u32 off = aie_ctr_slot_of(i);
	const struct aie_site *owner;
	struct aie_ctr_slot *s;
	int cpu;
	u32 j;

	for_each_cpu(cpu, &aie_ctr_cpus) {
		s = aie_ctr_slot(cpu, off);
		owner = READ_ONCE(s->site);
		if (!owner)
			continue;
		/* Pairs with the smp_wmb() before a slot is filled. */
		smp_rmb();
		j = aie_site_index(owner);
		if (j >= first && j < end)
			live[(j - first) / aie_ctr_nr] +=
				local64_read(&s->live_bytes);
	}
}

/**
 * aie_site_sum() - Sum a site's figures.
 * @idx: the site's index.
 * @sums: set to its own counters plus the CPUs' slots that hold it.
 * Context: Any context.
 * Return: true; false when a move of a slot's deltas to the own counters
 * came in the way of every try (see the notes at the top): @sums may then
 * miss or double a slot's deltas.
 */
bool aie_site_sum(u32 idx, struct aie_site_sums *sums)
{
	const struct aie_site *site = &aie_sites[idx];
	int tries, moves;

	for (tries = 1; ; tries++) {
		moves = atomic_read(&site->moves);
		/* Pairs with the barriers around a move (aie_ctr_move()). */
		smp_rmb();
		aie_site_read(site, sums);
		/* The reading, then whether a move came in its way. */
		smp_rmb();
		if (!(moves & AIE_MOVES_BUSY) &&
		    atomic_read(&site->moves) == moves)
			return true;
		if (tries == AIE_SUM_TRIES)
			return false;
		cpu_relax();
	}
}

/*
 * Reset @cpu's slots from @from, AIE_CTR_RESET_IPI of them at most: zero
 * their totals and restart their highs at their live bytes. On @cpu with
 * interrupts off, or while @cpu is offline.
 */
static void aie_ctrs_reset_slots(int cpu, u32 from)
{
	u32 i, end = min(from + AIE_CTR_RESET_IPI, aie_ctr_nr);
	struct aie_ctr_slot *s;

	for (i = from; i < end; i++) {
		s = aie_ctr_slot(cpu, aie_ctr_slot_of(i));
		local64_set(&s->total_calls, 0);
		local64_set(&s->total_bytes, 0);
		local64_set(&s->high, local64_read(&s->live_bytes));
	}
}

/*
 * Reset this CPU's AIE_CTR_RESET_IPI slots from *@from. In an IPI with
 * interrupts off: only this CPU writes its slots, and it gives a slot to
 * another site with interrupts off, so nothing is lost; a hook the IPI
 * interrupts between two counters blurs the reset instant by one event.
 */
static void aie_ctrs_reset_cpu(void *from)
{
	aie_ctrs_reset_slots(smp_processor_id(), *(u32 *)from);
}

/**
 * aie_ctrs_reset() - Zero the cumulative counters ("reset").
 *
 * Zero the CPUs' slots' totals, then the sites' own; restart the peak at
 * the live figure, and the failures at 0 (see the notes at the top).
 *
 * Context: Process context: waits for the IPIs, and holds the CPU hotplug
 * lock so that an offline CPU, reset from here, stays offline meanwhile.
 * The caller holds the rules mutex: no other control write meanwhile.
 */
void aie_ctrs_reset(void)
{
	u32 i, n = aie_sites_nr();
	struct aie_site_sums sums;
	struct aie_site_ctr *c;
	struct aie_site *site;
	int cpu;

	cpus_read_lock();
	for (i = 0; i < aie_ctr_nr; i += AIE_CTR_RESET_IPI) {
		on_each_cpu(aie_ctrs_reset_cpu, &i, 1);
		for_each_cpu(cpu, &aie_ctr_cpus) {
			if (!cpu_online(cpu))
				aie_ctrs_reset_slots(cpu, i);
		}
		cond_resched();
	}
	cpus_read_unlock();
	for (i = 0; i < n; i++) {
		cond_resched();		/* each sum reads every CPU up */
		site = aie_site_at(i);
		if (!site)
			continue;
		c = aie_site_ctrs(i);
		atomic64_set(&c->total_calls, 0);
		atomic64_set(&c->total_bytes, 0);
		atomic64_set(&site->failed, 0);
		/*
		 * The peak restarts from 0 when moves kept the sum from being
		 * consistent: the next new high or read raises it.
		 */
		atomic64_set(&site->peak,
			     aie_site_sum(i, &sums) ? sums.live_bytes : 0);
	}
}
