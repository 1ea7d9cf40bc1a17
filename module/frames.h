/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frames.h - the common walk of frames.c, inline: the page probe walks the
 * wrappers' frames itself when every one of them is at its hash's home
 * entry, and the call site's site in its home bucket. The hash, the
 * learning of frames and the rest: see frames.c.
 */
#ifndef _AIE_FRAMES_H
#define _AIE_FRAMES_H

#include <linux/hash.h>

#include "aie.h"

/* More wrapper frames than any chain of the page allocator's has. */
#define AIE_FRAMES_MAX		8
/*
 * Wrapper frames the inline walk goes through: alloc_pages()'s three, one
 * for the tracepoint's iterator when another probe shares it, and one more.
 */
#define AIE_FRAMES_FAST		5

#define AIE_WRAPPERS_BITS	8

/*
 * frame size << 32 | (u32)return address; 0: empty. The return address
 * low, so that a 32-bit comparison with the entry tells it; the frame
 * size high, so that a shift gives it.
 */
extern u64 aie_wrappers[BIT(AIE_WRAPPERS_BITS)];

static __always_inline unsigned int aie_wrapper_frame(u64 e)
{
	return e >> 32;
}

static __always_inline u32 aie_wrapper_hash(unsigned long ret)
{
	return hash_32((u32)ret, AIE_WRAPPERS_BITS);
}

/* The slot of the return address @frame bytes above the one at @slot. */
static __always_inline const unsigned long *
aie_frame_up(const unsigned long *slot, unsigned int frame)
{
	return (const unsigned long *)((const char *)slot + frame);
}

/*
 * aie_frames_caller() without a call, and so without a saved register,
 * for the common walk: at most AIE_FRAMES_FAST wrappers whose frame sizes
 * are at their hash's home entry, then a return address whose home entry
 * is empty, the call site's as a rule, whose site is in its home bucket
 * and is no wrapper's. True with *@f filled; false for anything else: the
 * caller then takes aie_frames_caller(), which walks again from @slot.
 * The loop is unrolled: a frame costs its load, the hash, the entry's
 * load, a comparison and an add.
 */
static __always_inline bool aie_frames_caller_fast(const unsigned long *slot,
						   struct aie_frames_found *f)
{
	unsigned int i;
	u64 e;

#pragma GCC unroll 8
	for (i = 0; i < AIE_FRAMES_FAST + 1; i++) {
		f->caller = *slot;
		e = READ_ONCE(aie_wrappers[aie_wrapper_hash(f->caller)]);
		if ((u32)e != (u32)f->caller) {
			if (e)
				return false;
			return aie_site_at_home(f->caller, AIE_TYPE_PAGE,
						BIT(AIE_SITE_UNLOADED) |
						BIT(AIE_SITE_WRAPPER),
						&f->site);
		}
		slot = aie_frame_up(slot, aie_wrapper_frame(e));
	}
	return false;
}

#endif /* _AIE_FRAMES_H */
