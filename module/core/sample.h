/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sample.h - byte-weighted sampling of allocations (sample.c); the
 * probes' tests of it are inline here.
 */
#ifndef _AIE_SAMPLE_H
#define _AIE_SAMPLE_H

#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include <allocinfo_ext.h>

#define AIE_SAMPLE_MAX		AIE_SAMPLE_MAX_BYTES
extern unsigned long aie_sample_bytes;
DECLARE_PER_CPU(long, aie_sample_pos);
DECLARE_STATIC_KEY_FALSE(aie_sampling_key);
u64 aie_sample_slow(unsigned long every, u64 bytes);
u64 aie_sample_seen(void);
void aie_sample_set(unsigned long every);
void aie_sample_init(unsigned long every);

/**
 * aie_sampling_on() - Test whether sampling is on (aie_sample_bytes not 0).
 *
 * A jump patched into the slab and page allocation probes, which with
 * sampling off go straight to the tracking (the kretprobes ask
 * aie_sample(), which reads the interval). The key follows
 * aie_sample_bytes (aie_sample_set()): on while the interval is not 0; a
 * probe on the sampling side that sees the interval at 0, as it changes,
 * tracks the allocation with weight 1.
 *
 * Context: Any context, NMI included.
 * Return: true while aie_sampling_key is on.
 */
static inline bool aie_sampling_on(void)
{
	return static_branch_unlikely(&aie_sampling_key);
}

/**
 * aie_sample_countdown() - Count an allocation down; test whether to skip it.
 * @bytes: the allocation's bytes.
 *
 * This CPU's aie_sample_pos is the position in its stream of allocated
 * bytes from the next sample point: negative before it. Add @bytes to it;
 * skip the allocation unless that brought it to 0 or above. A this-CPU
 * add, then a this-CPU read (an add, where taking bytes off a count of
 * those left would be a negation and an add): an interrupt on this CPU in
 * between whose allocation reaches the point takes the points that this
 * one passed too, as in aie_sample_slow(), and this one is then skipped.
 * The position keeps the bytes of an allocation not skipped:
 * aie_sample_slow() takes its points from there.
 *
 * Context: Hooks, any context, preemption disabled.
 * Return: true when the allocation is skipped.
 */
static inline bool aie_sample_countdown(u64 bytes)
{
	this_cpu_add(aie_sample_pos, bytes);
	return likely(this_cpu_read(aie_sample_pos) < 0);
}

/**
 * aie_sample_skip() - Test whether sampling skips an allocation.
 * @every: the interval, 0 with sampling off.
 * @bytes: the allocation's bytes.
 *
 * One comparison tells both that sampling is on and that the allocation
 * is smaller than the interval (one of the interval or more, and every
 * one with sampling off, is tracked with weight 1); then the countdown.
 *
 * Context: Hooks, any context, preemption disabled.
 * Return: true when the allocation is skipped.
 */
static inline bool aie_sample_skip(unsigned long every, u64 bytes)
{
	return bytes < every && aie_sample_countdown(bytes);
}

/**
 * aie_sample_weight() - Weigh an allocation aie_sample_skip() did not skip.
 * @every: the interval aie_sample_skip() was given.
 * @bytes: the allocation's bytes.
 *
 * Context: Hooks, any context, preemption disabled.
 * Return: how many allocations it stands for: 1 with sampling off, or
 * when @bytes reaches the interval; else its weight, or 0 when it holds
 * no point after all: an interrupt on this CPU took it in between
 * (sample.c).
 */
static inline u64 aie_sample_weight(unsigned long every, u64 bytes)
{
	if (bytes >= every)
		return 1;
	return aie_sample_slow(every, bytes);
}

/**
 * aie_sample() - Sample an allocation at the interval in force.
 * @bytes: the allocation's bytes.
 *
 * aie_sample_skip() then aie_sample_weight(), for the kretprobes, which
 * read the interval rather than test aie_sampling_key.
 *
 * Context: Hooks, any context, preemption disabled.
 * Return: 0 when sampling skips the allocation, else its weight.
 */
static inline u64 aie_sample(u64 bytes)
{
	unsigned long every = READ_ONCE(aie_sample_bytes);

	if (aie_sample_skip(every, bytes))
		return 0;
	return aie_sample_weight(every, bytes);
}

#endif /* _AIE_SAMPLE_H */
