/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frames.h - the common walk of frames.c, inline: the page probe walks the
 * wrappers' frames itself when every one of them is at its hash's home
 * entry, and the call site's site in the page site cache. The hash, the
 * learning of frames and the rest: see frames.c.
 */
#ifndef _AIE_FRAMES_H
#define _AIE_FRAMES_H

#include <linux/hash.h>

#include "aie.h"
#include "arch/arch.h"
#include "core/sites.h"
#include "core/stats.h"

struct aie_frames_found {
	unsigned long caller;		/* 0: not found */
	struct aie_site *site;		/* or NULL */
};

struct aie_frames_found aie_frames_caller(const unsigned long *slot);

/* More wrapper frames than any chain of the page allocator's has. */
#define AIE_FRAMES_MAX		8
/*
 * Wrapper frames the inline walk goes through: alloc_pages()'s three, one
 * for the tracepoint's iterator when another probe shares it, and one more.
 */
#define AIE_FRAMES_FAST		5

/*
 * A few dozen wrapper sites at most, in 1024 entries: a wrapper away from
 * its home entry takes the whole walk, and where its home is moves with
 * the kernel's address (KASLR) from boot to boot.
 */
#define AIE_WRAPPERS_BITS	10

/*
 * A wrapper's entry: the key of its return address (aie_arch_key32(), never
 * 0) in aie_wrapper_keys[] (0: empty), what the walk learnt of its frame
 * (aie_arch_frame_learn(): on x86-64 its size) at the same index in
 * aie_wrapper_frames[]. Two arrays, so that the walk compares the key
 * straight from memory and adds the frame straight from memory. An
 * entry is set once, the frame first, and never changes (frames.c).
 */
extern u32 aie_wrapper_keys[BIT(AIE_WRAPPERS_BITS)];
extern unsigned long aie_wrapper_frames[BIT(AIE_WRAPPERS_BITS)];

/*
 * The first frame of the walk: the probe's return address, which is the
 * same at nearly every page allocation (the tracepoint's call in
 * __alloc_pages()), and its frame size, set once, the frame first, by
 * the first walk of frames.c that goes through a wrapper from there, and
 * never changed. The common walk compares the first return address with
 * it before it hashes anything: a comparison and an add, with no hash.
 * Read as the wrapper table's entries are (see aie_wrapper_is()).
 */
extern u32 aie_walk_first_key;
extern unsigned long aie_walk_first_frame;

/**
 * aie_wrapper_is() - Tell whether entry @h is the wrapper's at @ret.
 * @h: the entry, aie_wrapper_hash() of @ret for the home entry.
 * @ret: a return address.
 *
 * For the inline walk. A plain read, which the compiler folds into the
 * comparison, as it folds the frame's into the add: neither changes once
 * set, and no acquire: the frame may be seen still 0 by a walk that sees
 * the key just set. A frame of 0 does not move the walk, which then
 * finds the same wrapper at every step and gives up after
 * AIE_FRAMES_FAST to frames.c's walk, whose reads of keys are acquires:
 * no wrong frame is ever taken.
 *
 * Context: Any context; takes no lock.
 * Return: true if the entry's key is @ret's.
 */
static inline bool aie_wrapper_is(u32 h, unsigned long ret)
{
	/* Racy by design: see above */
	return data_race(aie_wrapper_keys[h]) == aie_arch_key32(ret);
}

/**
 * aie_wrapper_frame() - Read what the walk learnt of the frame at entry @h.
 * @h: the entry.
 *
 * Read plainly, as aie_wrapper_is() reads the key.
 *
 * Return: the frame (on x86-64 its size), or 0 if not set yet.
 */
static inline unsigned long aie_wrapper_frame(u32 h)
{
	/* Racy by design: see aie_wrapper_is() */
	return data_race(aie_wrapper_frames[h]);
}

/**
 * aie_walk_first_is() - Tell whether @ret is the walk's first frame kept.
 * @ret: a return address.
 *
 * Read plainly, as aie_wrapper_is() reads a key.
 *
 * Return: true if aie_walk_first_key is @ret's.
 */
static inline bool aie_walk_first_is(unsigned long ret)
{
	/* Racy by design: see aie_wrapper_is() */
	return data_race(aie_walk_first_key) == aie_arch_key32(ret);
}

/**
 * aie_walk_first_frame_read() - Read the frame of the walk's first frame.
 *
 * Read plainly, as aie_wrapper_is() reads a frame.
 *
 * Return: aie_walk_first_frame, or 0 if not set yet.
 */
static inline unsigned long aie_walk_first_frame_read(void)
{
	/* Racy by design: see aie_wrapper_is() */
	return data_race(aie_walk_first_frame);
}

/**
 * aie_wrapper_hash() - Hash a return address to its home entry.
 * @ret: the return address.
 *
 * Return: the index of @ret's home entry in the wrapper table.
 */
static inline u32 aie_wrapper_hash(unsigned long ret)
{
	return hash_32(aie_arch_key32(ret), AIE_WRAPPERS_BITS);
}

/**
 * aie_frames_caller_fast() - Find a page allocation's call site, inline.
 * @slot: where the walk starts, as for aie_frames_caller().
 * @sitep: set to the call site's site.
 * @idx: set to its index in the site table.
 *
 * Do aie_frames_caller() without a call, for the common walk: go through
 * at most AIE_FRAMES_FAST wrappers whose frame sizes are at their hash's
 * home entry, to a return address that is no wrapper's there, the call
 * site's as a rule, whose site is in the page site cache (core/sites.h).
 * Try the first frame, as a rule the tracepoint's, against
 * aie_walk_first_key before the table. Kernel text is told by 32 bits of
 * its addresses (frames.c), which are all the walk compares: an arm64
 * return address's signature (arch/arm64.h) needs no stripping here. The
 * loop is unrolled: a frame costs its load, the hash, a comparison with
 * the key in memory and an add of the frame in memory (the figure:
 * aie_site_cache_find(), core/sites.h).
 *
 * Context: The mm_page_alloc probe's: any context, NMI included;
 * preemption disabled.
 * Return: true with *@sitep and *@idx set; the caller tests the site's
 * flags. False for anything else: the caller then takes
 * aie_frames_caller(), which walks again from @slot and fills the cache.
 */
static inline bool aie_frames_caller_fast(const unsigned long *slot,
					  struct aie_site **sitep,
					  u32 *idx)
{
	unsigned long ret;
	unsigned int i;
	u32 h;
	u64 e;

	if (likely(aie_walk_first_is(READ_ONCE(*slot))))
		slot = aie_arch_frame_up(slot, aie_walk_first_frame_read());
#pragma GCC unroll 8
	for (i = 0; i < AIE_FRAMES_FAST + 1; i++) {
		h = aie_wrapper_hash(*slot);
		if (!aie_wrapper_is(h, *slot))
			goto caller;
		slot = aie_arch_frame_up(slot, aie_wrapper_frame(h));
	}
	return false;
caller:
	/* Read again rather than kept through the walk */
	ret = READ_ONCE(*slot);
	if (unlikely(!aie_site_cache_find(aie_site_cache_page,
					  AIE_SITE_CACHE_PAGE_BITS,
					  aie_arch_key32(ret), &e))) {
		aie_count(page_site_misses);
		return false;
	}
	*idx = aie_site_cache_idx(e);
	*sitep = &aie_sites[*idx];
	return true;
}

#endif /* _AIE_FRAMES_H */
