/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lifetimes.h - with lifetimes=1, the object map stamps each object with
 * its allocation time in units of 2^AIE_LIFETIME_SHIFT ns (local_clock()),
 * and a free counts the object's lifetime in its site's log2 histogram
 * (lifetimes.c).
 */
#ifndef _AIE_LIFETIMES_H
#define _AIE_LIFETIMES_H

#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>

#include <asm/local64.h>

#include <allocinfo_ext.h>

#include "aie.h"

DECLARE_STATIC_KEY_FALSE(aie_lifetimes_key);
DECLARE_PER_CPU(local64_t *, aie_lifetime_hists);
extern atomic_long_t aie_lifetime_misses;

/**
 * aie_lifetimes_on() - Tell whether objects are stamped (lifetimes=1).
 *
 * Context: Any context.
 * Return: true if the histograms are made and aie_lifetimes_key is on.
 */
static inline bool aie_lifetimes_on(void)
{
	return static_branch_unlikely(&aie_lifetimes_key);
}

/**
 * aie_lifetime_now() - Read the clock in lifetime units.
 *
 * Context: Any context, NMI included.
 * Return: local_clock() in units of 2^AIE_LIFETIME_SHIFT ns; ages are
 * differences modulo 2^32.
 */
static inline u32 aie_lifetime_now(void)
{
	return local_clock() >> AIE_LIFETIME_SHIFT;
}

/**
 * aie_lifetime_bucket() - Find a lifetime's bucket.
 * @age: the lifetime, in lifetime units.
 *
 * Return: 0 for 0 and 1 unit, k for [2^k, 2^(k+1)) units, k = 1..31.
 */
static inline unsigned int aie_lifetime_bucket(u32 age)
{
	return fls(age >> 1);
}

/**
 * aie_lifetime_record() - Count a freed object's age in its site's histogram.
 * @idx: the site's index.
 * @age: the object's age at its free, in lifetime units.
 * @weight: the objects it stands for.
 *
 * Write this CPU's histogram only, if it has one (lifetimes.c); count a
 * CPU without one in aie_lifetime_misses.
 *
 * Context: Any context, NMI included; preemption disabled.
 */
static inline void aie_lifetime_record(u32 idx, u32 age, u64 weight)
{
	local64_t *h = this_cpu_read(aie_lifetime_hists);

	if (unlikely(!h)) {
		atomic_long_inc(&aie_lifetime_misses);
		return;
	}
	local64_add(weight, &h[idx * AIE_LIFETIME_BUCKETS +
			       aie_lifetime_bucket(age)]);
}

int aie_lifetimes_init(bool on, unsigned int sites);
void aie_lifetimes_exit(void);
size_t aie_lifetimes_memory(void);
u64 aie_lifetime_sum(u32 idx, u64 *hist);

#endif /* _AIE_LIFETIMES_H */
