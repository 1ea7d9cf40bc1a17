// SPDX-License-Identifier: GPL-2.0
/*
 * sample.c - byte-weighted sampling: "sample <bytes>" tracks on average one
 * allocation per <bytes> allocated, as tcmalloc's heap profiler does, and
 * weights each so that every site's figures are unbiased estimates.
 *
 * Sample points fall on the stream of allocated bytes as a Poisson process
 * of mean spacing N = aie_sample_bytes: each CPU counts down the bytes to
 * its next point (aie_sample_pos, their negation: the position from the
 * point, which an allocation's bytes are added to) and draws the spacing
 * after it from an exponential distribution, which has no memory, so
 * which allocations are sampled does not depend on the pattern of sizes.
 * An allocation of b bytes holding k points stands for E[N k / b] = 1
 * allocation; it is charged as w = N k / b allocations, rounded down or
 * up at random so that E[w] is exactly N k / b, and as w times its bytes
 * and slack. Its free uncharges the same w (track/ keeps w in
 * aie_weights). An allocation of N bytes or more is always tracked, with
 * weight 1.
 *
 * The countdown's fast path is aie_sample_skip() in sample.h, which the
 * probes test first: a this-CPU add, atomic against interrupts on this
 * CPU, which takes the allocation's bytes off the countdown whether it
 * skips the allocation or not, and a this-CPU read of what is left. An
 * allocation that brings it to 0 or below holds the points it passed, and
 * the slow path below takes them, with interrupts off: it draws spacings
 * until the countdown is positive again, and their number is the
 * allocation's k. An interrupt on this CPU between the add and the read,
 * or between the read and the slow path's local_irq_save(), finds the
 * countdown at 0 or below too, and takes those points itself (unless its
 * allocation is of 0 bytes, which takes none): the interrupted allocation
 * then holds none and is skipped. That moves points, rarely, from one
 * allocation to the next; it neither adds nor loses any, and the bytes
 * they stand for are kept, though the count of allocations follows the
 * size of the one that takes them.
 *
 * An NMI (alloc_pages_nolock(), kmalloc_nolock()) is not kept out by the
 * slow path's local_irq_save(): it draws from a generator of its own, so
 * that the two never share a state, and an NMI between the slow path's
 * read of the countdown and its write loses its own bytes and points
 * from the countdown, which the interrupted draw overwrites (the next
 * sample point comes that much later; no lock, no wait).
 *
 * aie_sampling_key follows whether the interval is 0, so that with
 * sampling off the slab and page allocation probes reach the tracking
 * through a patched jump, with no load and no test of the interval. The
 * kretprobes (vmalloc, alloc_pages_exact(), percpu) ask aie_sample(),
 * which reads the interval.
 *
 * Each CPU also sums the spacings it drew (aie_sample_drawn), so that the
 * bytes the countdown has counted, summed over the CPUs, cost the fast
 * path nothing: aie_sample_seen().
 *
 * Notes on locking
 * ----------------
 * None: each CPU's countdown, sum and generators are its own. The hooks
 * run with preemption disabled; the fast path's this-CPU operations are
 * atomic against interrupts on this CPU, and the slow path runs with
 * interrupts off, which holds off all but an NMI (above).
 * aie_sample_set() runs in process context, under aie_rules_mutex or
 * before the hooks attach, and waits with synchronize_rcu() for the hooks
 * that may still count down at the old interval.
 */

#include <linux/hardirq.h>
#include <linux/math64.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>

#include "aie.h"
#include "sample.h"
#include "stats.h"

unsigned long aie_sample_bytes;		/* 0: track every allocation */
DEFINE_STATIC_KEY_FALSE(aie_sampling_key);
/* Minus the bytes to the next point: negative until an allocation reaches it */
DEFINE_PER_CPU(long, aie_sample_pos);
static DEFINE_PER_CPU(u64, aie_sample_drawn);
/* Each CPU's generators: [1] for NMIs, which irqs off does not hold off */
static DEFINE_PER_CPU(struct rnd_state, aie_sample_rnd[2]);

/* log2(1 + i / 64) for i = 0..64, in units of 2^-16. */
static const u32 aie_log2_table[65] = {
	0, 1466, 2909, 4331, 5732, 7112, 8473, 9814, 11136, 12440, 13727,
	14996, 16248, 17484, 18704, 19909, 21098, 22272, 23433, 24579, 25711,
	26830, 27936, 29029, 30109, 31178, 32234, 33279, 34312, 35334, 36346,
	37346, 38336, 39316, 40286, 41246, 42196, 43137, 44068, 44990, 45904,
	46809, 47705, 48593, 49472, 50344, 51207, 52063, 52911, 53751, 54584,
	55410, 56229, 57040, 57845, 58643, 59434, 60219, 60997, 61769, 62534,
	63294, 64047, 64794, 65536,
};

#define AIE_LN2_Q16	45426		/* ln(2) in units of 2^-16 */

/* Compute log2(@u) in units of 2^-16, @u > 0, within 2^-14 of the truth. */
static u32 aie_log2_q16(u32 u)
{
	u32 e = ilog2(u), frac, idx, rem, lo, hi;

	frac = (u << (31 - e)) & 0x7fffffff;	/* mantissa - 1, 31 bits */
	idx = frac >> 25;
	rem = (frac >> 9) & 0xffff;
	lo = aie_log2_table[idx];
	hi = aie_log2_table[idx + 1];
	return (e << 16) + lo + (((hi - lo) * rem) >> 16);
}

/*
 * Draw a spacing from the exponential distribution of mean @every, by
 * inversion of @u, uniform over the u32s: at least 1.
 */
static long aie_sample_interval(unsigned long every, u32 u)
{
	u32 neg_log2 = (32 << 16) - aie_log2_q16(u ? u : 1);
	u64 neg_ln = ((u64)neg_log2 * AIE_LN2_Q16) >> 16;

	return ((every * neg_ln) >> 16) + 1;
}

/**
 * aie_sample_slow() - Weigh an allocation the countdown did not skip.
 * @every: the interval, not 0, above @bytes.
 * @bytes: the allocation's bytes, which brought the countdown to 0 or
 *         below.
 *
 * Take the points the countdown passed, drawing the spacings after them,
 * and weigh the allocation as N k / b, rounded down or up at random.
 *
 * Context: Hooks, any context, preemption disabled; interrupts are
 * disabled here (an NMI draws from a generator of its own).
 * Return: the weight, or 0 when an interrupt on this CPU took the points
 * first, or @bytes is 0.
 */
u64 aie_sample_slow(unsigned long every, u64 bytes)
{
	struct rnd_state *rnd;
	unsigned long flags;
	u64 k = 0, q, w;
	long left, step;

	if (!bytes)
		return 0;	/* kmalloc(0), not tracked: the points stay */
	local_irq_save(flags);
	rnd = this_cpu_ptr(&aie_sample_rnd[!!in_nmi()]);
	left = -this_cpu_read(aie_sample_pos);
	for (; left <= 0; k++) {
		step = aie_sample_interval(every, prandom_u32_state(rnd));
		this_cpu_add(aie_sample_drawn, step);
		left += step;
	}
	this_cpu_write(aie_sample_pos, -left);
	if (!k) {
		/* An interrupt took the points. */
		local_irq_restore(flags);
		return 0;
	}
	/* w = every * k / bytes, rounded up with the probability of its rest. */
	q = (u64)every * k;
	w = div64_u64(q, bytes);
	if ((u64)prandom_u32_state(rnd) * bytes < (q - w * bytes) << 32)
		w++;
	local_irq_restore(flags);
	aie_count(sampled);
	return w;
}

/**
 * aie_sample_seen() - Sum the bytes the countdowns have counted since
 * sampling was last set.
 *
 * What each CPU drew less what it has left. Racy against the hooks, as
 * any sum of per-CPU counts read while they run.
 *
 * Context: Process context.
 * Return: the bytes.
 */
u64 aie_sample_seen(void)
{
	u64 seen = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		seen += READ_ONCE(per_cpu(aie_sample_drawn, cpu)) +
			READ_ONCE(per_cpu(aie_sample_pos, cpu));
	return seen;
}

/**
 * aie_sample_set() - Set the sampling interval.
 * @every: sample one allocation per @every bytes; 0 tracks all of them.
 *
 * Each CPU's countdown restarts at a fresh spacing. Turn sampling off
 * first, key and interval, and wait with synchronize_rcu() for every hook
 * that could still count down at the old interval (they run with
 * preemption disabled): at interval 0 no hook touches the countdowns,
 * which then start over at spacings of the new interval before it is set
 * and the key turned on. Meanwhile allocations are tracked with weight 1,
 * as with sampling off.
 *
 * Context: Process context, under aie_rules_mutex or before the hooks
 * attach; sleeps.
 */
void aie_sample_set(unsigned long every)
{
	long left;
	int cpu;

	static_branch_disable(&aie_sampling_key);
	WRITE_ONCE(aie_sample_bytes, 0);
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		left = every ? aie_sample_interval(every, get_random_u32()) : 0;
		per_cpu(aie_sample_pos, cpu) = -left;
		per_cpu(aie_sample_drawn, cpu) = left;
	}
	if (!every)
		return;
	WRITE_ONCE(aie_sample_bytes, every);
	static_branch_enable(&aie_sampling_key);
}

/* Show the sampling rate's line of the stats file. */
static void aie_sample_show(struct seq_file *m)
{
	seq_printf(m, "sample %lu\n", READ_ONCE(aie_sample_bytes));
}

/* Show what sampling saw and kept. */
static void aie_sample_seen_show(struct seq_file *m)
{
	seq_printf(m, "sample_seen_bytes %llu\n", aie_sample_seen());
	seq_printf(m, "sampled %lu\n", aie_stat(sampled));
}

/**
 * aie_sample_init() - Seed the generators and set the sampling interval.
 * @every: the interval, as for aie_sample_set().
 *
 * Context: Process context, before the hooks attach; sleeps.
 */
void aie_sample_init(unsigned long every)
{
	int cpu;

	aie_stats_part_set(AIE_STATS_SAMPLE, aie_sample_show, NULL);
	aie_stats_part_set(AIE_STATS_SAMPLED, aie_sample_seen_show, NULL);
	for_each_possible_cpu(cpu) {
		prandom_seed_state(per_cpu_ptr(&aie_sample_rnd[0], cpu),
				   get_random_u64());
		prandom_seed_state(per_cpu_ptr(&aie_sample_rnd[1], cpu),
				   get_random_u64());
	}
	aie_sample_set(every);
}
