// SPDX-License-Identifier: GPL-2.0
/*
 * frames.c - find the call site of a page allocation on the stack.
 *
 * The mm_page_alloc tracepoint fires at the end of __alloc_pages(), with
 * the block (or NULL) but no call site. The call site is on the stack,
 * above the probe: the probe returns into __alloc_pages() (or into the
 * tracepoint's iterator, when several probes share it), which returns
 * into its caller, and so on out through the allocator's wrappers
 * (alloc_pages -> alloc_pages_mpol -> __alloc_pages, __get_free_pages ->
 * alloc_pages, ...) to the first return address outside them: the call
 * site, the address a kretprobe on the outermost wrapper would report.
 *
 * callers.c marks the return addresses inside the wrappers as
 * AIE_SITE_WRAPPER sites. From such a return address the walk goes up to
 * the wrapper's own with what the architecture learns once per wrapper
 * site and keeps in site->frame (arch/arch.h): on x86-64 the wrapper's
 * frame size at that call, which the compiler fixed (no wrapper has a
 * frame of variable size), told by the ORC unwinder; on arm64 nothing to
 * learn, as every frame keeps a record of its caller's.
 *
 * From then on the walk finds it in the wrapper table (frames.h), a small
 * hash of the wrapper sites' return addresses and what was learnt, filled
 * as they are learnt and never emptied: each wrapper frame costs a hash, a
 * comparison of the key in memory and a step up, and only the call site
 * itself is looked up, in the page site cache (core/sites.h) or the site
 * table. A key is 32 bits of a return address (aie_arch_key32()): kernel
 * text, the kernel's and the modules', lies in a window where they tell
 * its return addresses apart. Wrappers are built-in functions
 * (callers.c), whose text never goes away: no entry ever goes stale.
 *
 * Where the architecture cannot say (x86-64 without the ORC unwinder),
 * the walk stops at the wrapper for good, and its blocks are charged to
 * it (page_walk_stops in the stats file). A return address that another
 * tracer replaced with its trampoline (a kretprobe or the function graph
 * tracer on a wrapper) ends the walk as well: that allocation is charged
 * to the trampoline.
 *
 * Notes on locking
 * ----------------
 * The walk runs in the mm_page_alloc probe's contexts, any in which pages
 * are allocated (task, softirq, hardirq; NMI: core/nmi.h), preemption
 * disabled. It reads only the frames below the allocator's caller, which
 * are live while the probe runs; it never sleeps and never allocates.
 *
 * site->frame is written with WRITE_ONCE() by whichever CPU learns it
 * first; CPUs that learn it at once write the same value. An entry of the
 * wrapper table, and the walk's first frame (aie_walk_first_key,
 * frames.h), are set under aie_wrappers_lock (raw, interrupts off, taken
 * with trylock: a CPU that finds it taken leaves the wrapper to a later
 * walk), the frame before the key, the key with a release; once set, they
 * never change. Readers take no lock: this file's walk reads keys with
 * acquires, the inline walk of frames.h plainly (see aie_wrapper_is()).
 */

#include <linux/hash.h>
#include <linux/sched.h>

#include "aie.h"
#include "arch/arch.h"
#include "core/sites.h"
#include "core/stats.h"
#include "frames.h"

/* site->frame of a wrapper whose frame the unwinder could not tell. */
#define AIE_FRAME_STOP		U16_MAX

/*
 * The wrapper table (frames.h): room for several times the wrapper sites
 * of any kernel (a few dozen). A return address is looked for in the
 * entries from its hash onwards, up to the first empty one and at most
 * AIE_WRAPPERS_PROBE; a wrapper that finds no empty entry there is walked
 * through the site table, as before it is learnt.
 */
#define AIE_WRAPPERS_MASK	(BIT(AIE_WRAPPERS_BITS) - 1)
#define AIE_WRAPPERS_PROBE	4

u32 aie_wrapper_keys[BIT(AIE_WRAPPERS_BITS)];
unsigned long aie_wrapper_frames[BIT(AIE_WRAPPERS_BITS)];
u32 aie_walk_first_key;
unsigned long aie_walk_first_frame;
static DEFINE_RAW_SPINLOCK(aie_wrappers_lock);

/*
 * Do aie_wrapper_is() for this file's walk, which takes no second chance:
 * the acquire, paired with the key's release, makes the frame read after
 * it the one set before it.
 */
static bool aie_wrapper_is_acquire(u32 h, unsigned long ret)
{
	/* Pairs with the smp_store_release() in aie_wrapper_keep() */
	return smp_load_acquire(&aie_wrapper_keys[h]) == aie_arch_key32(ret);
}

/*
 * Find the frame size of the wrapper whose return address is @ret, or 0,
 * in the entries after its first, @h, which held another.
 */
static unsigned long aie_wrapper_frame_far(unsigned long ret, u32 h)
{
	unsigned int i;
	u32 k;

	for (i = 1; i < AIE_WRAPPERS_PROBE; i++) {
		k = (h + i) & AIE_WRAPPERS_MASK;
		if (!READ_ONCE(aie_wrapper_keys[k]))
			break;
		if (aie_wrapper_is_acquire(k, ret))
			return aie_wrapper_frame(k);
	}
	return 0;
}

/*
 * Keep @frame, the frame size of the wrapper at @ret, for the walks. Any
 * context, NMI included: the probe's.
 */
static void aie_wrapper_keep(unsigned long ret, unsigned int frame)
{
	u32 h = aie_wrapper_hash(ret), key = aie_arch_key32(ret), k;
	unsigned long flags;
	unsigned int i;

	if (!aie_arch_text_ok(ret))
		return;		/* cannot be told by its key */
	if (!raw_spin_trylock_irqsave(&aie_wrappers_lock, flags))
		return;
	for (i = 0; i < AIE_WRAPPERS_PROBE; i++) {
		k = (h + i) & AIE_WRAPPERS_MASK;
		if (aie_wrapper_keys[k] == key)
			break;
		if (!aie_wrapper_keys[k]) {
			WRITE_ONCE(aie_wrapper_frames[k], frame);
			/* Pairs with aie_wrapper_is_acquire() */
			smp_store_release(&aie_wrapper_keys[k], key);
			break;
		}
	}
	raw_spin_unlock_irqrestore(&aie_wrappers_lock, flags);
}

/*
 * Keep @ret, a wrapper's return address found at the first frame of a
 * walk, whose frame is @frame, as the first frame of the common walk
 * (frames.h), if none is kept yet. As aie_wrapper_keep(), under
 * aie_wrappers_lock.
 */
static void aie_walk_first_keep(unsigned long ret, unsigned int frame)
{
	unsigned long flags;

	if (likely(READ_ONCE(aie_walk_first_key)) || !aie_arch_text_ok(ret))
		return;
	if (!raw_spin_trylock_irqsave(&aie_wrappers_lock, flags))
		return;
	if (!aie_walk_first_key) {
		WRITE_ONCE(aie_walk_first_frame, frame);
		/* The frame, then the key: see aie_wrapper_is() */
		smp_store_release(&aie_walk_first_key, aie_arch_key32(ret));
	}
	raw_spin_unlock_irqrestore(&aie_wrappers_lock, flags);
}

/**
 * aie_frames_caller() - Find the call site of a page allocation.
 * @slot: where the walk starts: the probe's return address, or on arm64
 *	its caller's (page_alloc.h).
 *
 * Walk up to the first return address that is no wrapper's, learning the
 * wrappers' frames on the way. The page probe tries
 * aie_frames_caller_fast() (frames.h) first.
 *
 * Context: The mm_page_alloc probe's: any context, NMI included;
 * preemption disabled. Never sleeps, never allocates.
 * Return: by value, so that the caller keeps no stack slot for it (and so
 * no stack canary): .caller, the call site, its signature stripped
 * (arch/arm64.h), or 0 when the walk went further than any chain of
 * wrappers goes; .site, the call site's site, or that of the wrapper
 * where the walk had to stop, or NULL when the site table has none.
 */
struct aie_frames_found aie_frames_caller(const unsigned long *slot)
{
	struct aie_frames_found f = { 0, NULL };
	unsigned int i, frame;
	unsigned long ret;
	u32 h;

	for (i = 0; i < AIE_FRAMES_MAX; i++) {
		ret = aie_arch_ret(*slot);
		h = aie_wrapper_hash(ret);
		/* No key is 0: an empty entry is none */
		if (likely(aie_wrapper_is_acquire(h, ret))) {
			frame = aie_wrapper_frame(h);
			goto up;
		}
		if (unlikely(READ_ONCE(aie_wrapper_keys[h]))) {
			frame = aie_wrapper_frame_far(ret, h);
			if (frame)
				goto up;
		}
		/* The call site, or a wrapper not kept in the table */
		f.caller = ret;
		f.site = aie_site_find(ret, AIE_TYPE_PAGE);
		if (!f.site)
			return f;
		if (!(READ_ONCE(f.site->flags) & BIT(AIE_SITE_WRAPPER))) {
			aie_site_cache_fill(aie_site_cache_page,
					    AIE_SITE_CACHE_PAGE_BITS, f.site);
			return f;
		}
		frame = READ_ONCE(f.site->frame);
		if (unlikely(!frame)) {
			frame = aie_arch_frame_learn(slot) ?: AIE_FRAME_STOP;
			WRITE_ONCE(f.site->frame, frame);
		}
		if (unlikely(frame == AIE_FRAME_STOP)) {
			aie_count(walk_stops);
			return f;
		}
		aie_wrapper_keep(ret, frame);
up:
		if (!i)
			aie_walk_first_keep(ret, frame);
		slot = aie_arch_frame_up(slot, frame);
	}
	aie_count(walk_stops);
	f.caller = 0;
	f.site = NULL;
	return f;
}
