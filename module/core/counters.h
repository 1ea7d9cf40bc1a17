/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - the sites' counters (counters.c): a per-CPU cache of slots
 * in front of each site's own counters. The charge and the uncharge of a
 * site are inline here: every hook's fast path ends in one.
 */
#ifndef _AIE_COUNTERS_H
#define _AIE_COUNTERS_H

#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <asm/local64.h>

#include "aie.h"

/* A site's counters summed over the CPUs. */
struct aie_site_sums {
	s64 live_bytes;
	s64 live_calls;
	s64 live_slack;
	s64 total_calls;
	s64 total_bytes;
	s64 live_accounted;	/* live bytes accounted to a memory cgroup */
};

/*
 * One slot of a CPU's cache of counters: what this CPU added to @site's
 * counters since the slot was given to it. Only this CPU writes it, with
 * local64 operations, which an interrupt on this CPU cannot tear; readers
 * sum the site's counters and the CPUs' slots that hold it. A site's slot
 * is the same on every CPU: its index modulo the slots.
 */
struct aie_ctr_slot {
	struct aie_site *site;		/* whose deltas these are, or NULL */
	local64_t live_bytes;
	local64_t live_calls;
	local64_t live_slack;
	local64_t total_calls;
	local64_t total_bytes;
	local64_t live_accounted;
	local64_t high;		/* live_bytes at which the site is summed next */
} __aligned(64);

static_assert(sizeof(struct aie_ctr_slot) == 64);

DECLARE_PER_CPU(unsigned int, aie_ctr_nest);
/* This CPU's slots, made when it came up (counters.c). */
DECLARE_PER_CPU(struct aie_ctr_slot *, aie_ctr_base);

int aie_ctrs_init(unsigned int slots);
void aie_ctrs_exit(void);
u32 aie_ctr_slot_of(u32 idx);
unsigned int aie_ctr_slots(void);
size_t aie_ctrs_memory(void);
void aie_ctr_miss(struct aie_site *site, s64 bytes, s64 calls, s64 slack,
		  s64 accounted, bool charge);
void aie_site_new_high(struct aie_site *site);
bool aie_site_sum(u32 idx, struct aie_site_sums *sums);
void aie_ctr_slot_live(u32 i, u32 first, u32 end, s64 *live);
s64 aie_site_peak(u32 idx, s64 live_bytes);
void aie_ctrs_reset(void);

/**
 * aie_slot_here() - Find this CPU's slot of a site.
 * @site: the site.
 *
 * The slots are this CPU's own array, not per-CPU memory, so that only
 * the CPUs that come up have them: one load more than a this_cpu
 * operation on a slot would take.
 *
 * Context: Preemption disabled.
 * Return: the slot, whichever site it holds.
 */
static __always_inline struct aie_ctr_slot *
aie_slot_here(const struct aie_site *site)
{
	return (void *)raw_cpu_read(aie_ctr_base) + site->slot;
}

/**
 * aie_slot_holds() - Tell whether this CPU's slot holds a site.
 * @s: this CPU's slot of @site.
 * @site: the site.
 *
 * Read after this hook has counted itself in aie_ctr_nest, the answer is
 * stable: no hook that interrupts this one gives the slot to another site
 * meanwhile. The compiler barrier keeps the read after the count; the
 * read itself is a plain one (only this CPU writes the slot), so that the
 * compiler can compare in memory.
 *
 * Context: Preemption disabled, inside aie_ctr_nest.
 * Return: true when @s holds @site.
 */
static inline bool aie_slot_holds(struct aie_ctr_slot *s,
				  const struct aie_site *site)
{
	barrier();
	return s->site == site;
}

/**
 * aie_slot_charge() - Add a charge to this CPU's slot.
 * @s: this CPU's slot, which holds the site.
 * @bytes: the bytes, for @weight allocations.
 * @slack: the slack, for @weight allocations.
 * @weight: the allocations the charge stands for.
 * @accounted: add @bytes to the accounted live bytes too.
 *
 * Context: Preemption disabled, inside aie_ctr_nest; local64 operations,
 * which an interrupt on this CPU cannot tear.
 */
static inline void aie_slot_charge(struct aie_ctr_slot *s,
				   u64 bytes, u64 slack, u64 weight,
				   bool accounted)
{
	local64_add(bytes, &s->live_bytes);
	local64_add(weight, &s->live_calls);
	/* No add of a slack known to be 0 (pages, vmalloc) */
	if (!__builtin_constant_p(slack) || slack)
		local64_add(slack, &s->live_slack);
	local64_add(weight, &s->total_calls);
	local64_add(bytes, &s->total_bytes);
	if (accounted)
		local64_add(bytes, &s->live_accounted);
}

/**
 * aie_slot_above_high() - Tell whether a slot's live bytes passed its high.
 * @s: this CPU's slot, which holds the site, after a charge.
 *
 * A load and a comparison in memory, where an add that returned the sum
 * would take three instructions, and the high's read one more. An
 * interrupt's charge or free of the site between the add and the read is
 * in what is read: the slot's live bytes as they are then, which is what
 * the high follows.
 *
 * Context: Preemption disabled, inside aie_ctr_nest.
 * Return: true when the slot holds more live bytes than its high.
 */
static inline bool aie_slot_above_high(struct aie_ctr_slot *s)
{
	return local64_read(&s->live_bytes) > local64_read(&s->high);
}

/**
 * aie_site_charge() - Account a new live object to its site.
 * @site: the site.
 * @bytes: the object's bytes.
 * @slack: its slack.
 * @weight: the allocations it stands for (sampling).
 * @accounted: all of its bytes are accounted to a memory cgroup (memcg.c).
 *
 * When this CPU's slot holds @site, the counts go there (the common
 * case); else aie_ctr_miss() takes the slot, or adds to the site's own
 * counters. aie_ctr_nest tells a hook that interrupts this one between
 * its test of the slot and its updates not to give the slot to another
 * site (counters.c).
 *
 * This and aie_site_uncharge() are always inline: left to GCC, a large
 * kmalloc+kfree pair costs 5 instructions more (make bench, 6.12).
 *
 * Context: Any context, NMI included; preemption disabled, which a lockdep
 * kernel checks: every hook runs so (compat.h's aie_tp_guard()).
 */
static __always_inline void aie_site_charge(struct aie_site *site,
					    u64 bytes, u64 slack, u64 weight,
					    bool accounted)
{
	struct aie_ctr_slot *s = aie_slot_here(site);

	lockdep_assert_preemption_disabled();
	bytes *= weight;
	slack *= weight;
	this_cpu_inc(aie_ctr_nest);
	if (likely(aie_slot_holds(s, site))) {
		aie_slot_charge(s, bytes, slack, weight, accounted);
		if (unlikely(aie_slot_above_high(s)))
			aie_site_new_high(site);
	} else {
		aie_ctr_miss(site, bytes, weight, slack, accounted ? bytes : 0,
			     true);
	}
	this_cpu_dec(aie_ctr_nest);
}

/**
 * aie_site_uncharge() - Account the free of a charged object.
 * @site: the site it was charged to.
 * @bytes: its bytes, as charged.
 * @slack: its slack, as charged.
 * @weight: its weight, as charged.
 * @accounted: as charged.
 *
 * Context: Any context, NMI included; preemption disabled, as
 * aie_site_charge().
 */
static __always_inline void aie_site_uncharge(struct aie_site *site,
					      u64 bytes, u64 slack, u64 weight,
					      bool accounted)
{
	struct aie_ctr_slot *s = aie_slot_here(site);

	lockdep_assert_preemption_disabled();
	bytes *= weight;
	slack *= weight;
	this_cpu_inc(aie_ctr_nest);
	if (likely(aie_slot_holds(s, site))) {
		local64_sub(bytes, &s->live_bytes);
		local64_sub(weight, &s->live_calls);
		if (!__builtin_constant_p(slack) || slack)
			local64_sub(slack, &s->live_slack);
		if (accounted)
			local64_sub(bytes, &s->live_accounted);
	} else {
		aie_ctr_miss(site, -(s64)bytes, -(s64)weight, -(s64)slack,
			     accounted ? -(s64)bytes : 0, false);
	}
	this_cpu_dec(aie_ctr_nest);
}

#endif /* _AIE_COUNTERS_H */
