// SPDX-License-Identifier: GPL-2.0
/*
 * cache_sizes.c - keep the slot size and object size of each slab cache in
 * use, for the kmem_cache_alloc probes (slab.c).
 *
 * kmem_cache_alloc's tracepoint gives the cache, whose slot size is
 * private to mm/: ksize() of the new object tells it, for the price of
 * finding the object's slab. The answer is the same for every object of a
 * cache, so it is kept, with kmem_cache_size(), in a small table keyed by
 * the cache's address (aie_cache_sizes). An entry is set once and emptied
 * only by a kprobe on kmem_cache_destroy(), before another cache can be
 * created at that address. Without that kprobe, the table is not used.
 *
 * Notes on locking
 * ----------------
 * Lookups and misses run wherever the slab allocator runs (task, softirq,
 * hardirq; NMI: core/nmi.h), preemption disabled. The table's writers
 * take aie_cache_sizes_lock (raw, interrupts off), which also guards
 * aie_cache_seen[]: a miss with trylock (a miss that finds it taken leaves
 * the table alone), the kmem_cache_destroy() kprobe in process context.
 * Readers take no lock: a writer fills an entry, then publishes it with
 * smp_store_release() of its cache pointer, which readers load with
 * smp_load_acquire() (aie_cache_sizes_read()). aie_cache_gen, bumped
 * before the kprobe empties an entry, keeps a miss that began earlier
 * from setting it again.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/spinlock.h>

#include "aie.h"
#include "arch/arch.h"
#include "cache_sizes.h"
#include "core/stats.h"
#include "extras/memcg.h"

/*
 * Per home entry, a miss's answer, held until a second miss of the same
 * cache confirms it: a KFENCE object's ksize() is its object size, not its
 * cache's slot size, and cannot be told from an ordinary object here.
 */
struct aie_cache_seen {
	const struct kmem_cache *cache;
	unsigned long gen;
	unsigned int size;
};

struct aie_cache_sizes aie_cache_sizes[BIT(AIE_CACHE_SIZES_BITS)];
static struct aie_cache_seen aie_cache_seen[BIT(AIE_CACHE_SIZES_BITS)];
static DEFINE_RAW_SPINLOCK(aie_cache_sizes_lock);
static atomic_long_t aie_cache_gen;	/* kmem_cache_destroy() calls */
static bool aie_cache_destroy_hooked;

/**
 * aie_cache_sizes_miss() - Find the sizes of a cache missing from its home.
 * @s: the cache, not at its home entry nor the next.
 * @ptr: an object of @s just allocated, for ksize().
 *
 * Look at the entries past the home and the next, then ask ksize(); out of
 * line, off the probes' path. The entry is set by the second of two misses
 * that agree, under aie_cache_sizes_lock, taken with trylock: a miss that
 * finds it taken leaves the table alone. A kmem_cache_destroy() since the
 * first miss, or since this one began, leaves it alone too.
 *
 * Context: Any context the slab allocator runs in; preemption disabled.
 * Return: the slot size in the low 32 bits, the object size and
 * AIE_CACHE_ACCOUNTED in the high ones: a value, not pointers, so that the
 * caller's sizes need no stack slot.
 */
u64 aie_cache_sizes_miss(struct kmem_cache *s, const void *ptr)
{
	unsigned long gen = atomic_long_read(&aie_cache_gen), flags;
	unsigned int home = hash_ptr(s, AIE_CACHE_SIZES_BITS), size, req, i;
	struct aie_cache_seen *seen = &aie_cache_seen[home];
	struct aie_cache_sizes *e, *empty = NULL;

	for (i = 2; i < AIE_CACHE_SIZES_PROBES; i++) {
		if (aie_cache_sizes_read(aie_cache_sizes_at(home, i), s, &size,
					 &req))
			goto out;
	}
	size = ksize(ptr);
	req = kmem_cache_size(s);
	if (IS_ENABLED(CONFIG_MEMCG) && aie_cache_accounted(s))
		req |= AIE_CACHE_ACCOUNTED;
	aie_count(cache_misses);
	if (!READ_ONCE(aie_cache_destroy_hooked) ||
	    !raw_spin_trylock_irqsave(&aie_cache_sizes_lock, flags))
		goto out;
	if (seen->cache != s || seen->gen != gen || seen->size != size) {
		seen->cache = s;
		seen->gen = gen;
		seen->size = size;
		goto unlock;
	}
	if (atomic_long_read(&aie_cache_gen) != gen)
		goto unlock;
	for (i = 0; i < AIE_CACHE_SIZES_PROBES; i++) {
		e = aie_cache_sizes_at(home, i);
		if (e->cache == s)
			goto unlock;	/* another CPU's miss set it */
		if (!e->cache && !empty)
			empty = e;
	}
	if (empty) {
		empty->size = size;
		empty->req = req;
		/* The sizes, then the pointer: see aie_cache_sizes_read(). */
		smp_store_release(&empty->cache, s);
	}
unlock:
	raw_spin_unlock_irqrestore(&aie_cache_sizes_lock, flags);
out:
	return (u64)req << 32 | size;
}

/*
 * Empty @s's entry at the entry of kmem_cache_destroy(s), in process
 * context, before another cache can be created at its address. Raise the
 * count first, so that a miss of @s that began before, had one been running,
 * would not set the entry again after this.
 */
static int aie_kp_cache_destroy(struct kprobe *kp, struct pt_regs *regs)
{
	struct kmem_cache *s = (void *)aie_arch_kernel_argument(regs, 0);
	unsigned int home = hash_ptr(s, AIE_CACHE_SIZES_BITS), i;
	struct aie_cache_sizes *e;
	unsigned long flags;

	atomic_long_inc(&aie_cache_gen);
	if (!s)
		return 0;
	raw_spin_lock_irqsave(&aie_cache_sizes_lock, flags);
	for (i = 0; i < AIE_CACHE_SIZES_PROBES; i++) {
		e = aie_cache_sizes_at(home, i);
		if (e->cache == s)
			WRITE_ONCE(e->cache, NULL);
	}
	raw_spin_unlock_irqrestore(&aie_cache_sizes_lock, flags);
	return 0;
}

static struct kprobe aie_cache_destroy_kp = {
	.symbol_name = "kmem_cache_destroy",
	.pre_handler = aie_kp_cache_destroy,
};

/**
 * aie_cache_sizes_register() - Attach the kmem_cache_destroy() kprobe.
 *
 * Call before any allocation probe attaches: the table is used once the
 * kprobe is on. Without the kprobe, every kmem_cache_alloc asks ksize().
 *
 * Context: Process context.
 */
void aie_cache_sizes_register(void)
{
	WRITE_ONCE(aie_cache_destroy_hooked,
		   !register_kprobe(&aie_cache_destroy_kp));
	if (!aie_cache_destroy_hooked)
		pr_info("no kprobe on kmem_cache_destroy: ksize() at every kmem_cache_alloc\n");
}

/**
 * aie_cache_sizes_unregister() - Detach the kmem_cache_destroy() kprobe.
 *
 * Call after every slab probe is detached.
 *
 * Context: Process context.
 */
void aie_cache_sizes_unregister(void)
{
	if (aie_cache_destroy_hooked)
		unregister_kprobe(&aie_cache_destroy_kp);
	aie_cache_destroy_hooked = false;
}
