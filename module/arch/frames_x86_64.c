// SPDX-License-Identifier: GPL-2.0
/*
 * frames_x86_64.c - the size of a page allocator wrapper's frame, learnt
 * from the ORC unwinder, for the page walk (hooks/frames.c). Once per
 * wrapper site: the walk keeps the size and adds it from then on.
 *
 * Notes on locking
 * ----------------
 * None. It runs in the mm_page_alloc probe's contexts (any, NMI included,
 * preemption disabled), walks the current task's stack only, from its own
 * frame up, takes no lock, never sleeps and never allocates.
 */

#include <linux/sched.h>

#include <asm/unwind.h>

#include "arch/arch.h"

/* A wrapper's frame is a few dozen bytes; anything larger is no frame. */
#define AIE_FRAME_MAX		2048

#ifdef CONFIG_UNWINDER_ORC
/**
 * aie_arch_frame_learn() - Learn the distance to the next return address up.
 * @slot: where the current task's stack holds a wrapper's return address.
 *
 * Ask the ORC unwinder: its frame k returns to state.ip, read at
 * state.sp - 8. Slow (a walk of the whole stack), once per wrapper site:
 * out of line, so that its struct unwind_state is on the stack only while
 * it runs, not in the frame of every page allocation's walk.
 *
 * Context: The mm_page_alloc probe: any context, NMI included, preemption
 * disabled.
 * Return: the distance in bytes from @slot to the slot of the next return
 * address above it, as the unwinder sees it; 0 when it cannot be told.
 */
noinline unsigned int aie_arch_frame_learn(const unsigned long *slot)
{
	struct unwind_state state;
	const unsigned long *next;
	bool found = false;

	for (unwind_start(&state, current, NULL, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		if (state.regs)
			break;	/* an interrupt frame: another stack's */
		next = (const unsigned long *)state.sp - 1;
		if (found) {
			/* *next may be a tracer's trampoline: the size holds */
			if (next <= slot ||
			    (next - slot) * sizeof(long) > AIE_FRAME_MAX)
				break;
			return (next - slot) * sizeof(long);
		}
		found = next == slot;
	}
	return 0;
}
#else
/**
 * aie_arch_frame_learn() - Learn the distance to the next return address up.
 * @slot: where the current task's stack holds a wrapper's return address.
 *
 * No ORC unwinder (frame pointers): the walk stops at the wrapper.
 *
 * Return: 0: it cannot be told.
 */
unsigned int aie_arch_frame_learn(const unsigned long *slot)
{
	return 0;
}
#endif
