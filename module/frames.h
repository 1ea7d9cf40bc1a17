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

#define AIE_WRAPPERS_BITS	8

/* (u32)return address << 32 | frame size; 0: empty */
extern u64 aie_wrappers[BIT(AIE_WRAPPERS_BITS)];

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
 * for the common walk: wrappers whose frame sizes are at their hash's
 * home entry, then a return address whose home entry is empty, the call
 * site's as a rule, whose site is in its home bucket and is no wrapper's.
 * True with *@f filled; false for anything else: the caller then takes
 * aie_frames_caller(), which walks again from @slot.
 */
static __always_inline bool aie_frames_caller_fast(const unsigned long *slot,
						   struct aie_frames_found *f)
{
	unsigned int i;
	u64 e;

	for (i = 0; i < AIE_FRAMES_MAX; i++) {
		f->caller = *slot;
		e = READ_ONCE(aie_wrappers[aie_wrapper_hash(f->caller)]);
		if ((u32)(e >> 32) != (u32)f->caller)
			break;
		slot = aie_frame_up(slot, (u16)e);
	}
	if (i == AIE_FRAMES_MAX || e)
		return false;
	f->site = aie_site_find_home(f->caller, AIE_TYPE_PAGE);
	return f->site &&
	       !(READ_ONCE(f->site->flags) & BIT(AIE_SITE_WRAPPER));
}

#endif /* _AIE_FRAMES_H */
