// SPDX-License-Identifier: GPL-2.0
/*
 * frames.c - the call site of a page allocation, read off the stack.
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
 * AIE_SITE_WRAPPER sites. Such a return address sits at a fixed distance
 * below the wrapper's own return address: the size of the wrapper's frame
 * at that call, which the compiler fixed, since no wrapper has a frame of
 * variable size. The distance is learnt once per wrapper site from the
 * kernel's unwinder (ORC on x86) and kept in site->frame; from then on,
 * each wrapper frame costs the walk one site lookup and one load.
 *
 * Where the unwinder cannot say (no ORC unwinder), the walk stops at the
 * wrapper for good, and its blocks are charged to it (page_walk_stops in
 * the stats file). A return address that another tracer replaced with its
 * trampoline (a kretprobe or the function graph tracer on a wrapper) ends
 * the walk as well: that allocation is charged to the trampoline.
 *
 * Contexts: the mm_page_alloc probe's, any in which pages are allocated
 * (task, softirq, hardirq; not NMI), preemption disabled. The walk reads
 * only the frames below the allocator's caller, which are live while the
 * probe runs; it never sleeps and never allocates. site->frame is written
 * with WRITE_ONCE() by whichever CPU learns it first; CPUs that learn it
 * at once write the same value.
 */

#include <linux/sched.h>

#include <asm/unwind.h>

#include "aie.h"

/* More wrapper frames than any chain of the page allocator's has. */
#define AIE_FRAMES_MAX		8

/* A wrapper's frame is a few dozen bytes; anything larger is no frame. */
#define AIE_FRAME_MAX		2048

/* site->frame of a wrapper whose frame the unwinder could not tell. */
#define AIE_FRAME_STOP		U16_MAX

#ifdef CONFIG_UNWINDER_ORC
/*
 * The distance in bytes from @slot, where the current task's stack holds
 * a wrapper's return address, to the slot of the next return address
 * above it, as the unwinder sees it; 0 when it cannot be told. An ORC
 * unwinder's frame k returns to state.ip, read at state.sp - 8. Slow (a
 * walk of the whole stack), once per wrapper site.
 */
static noinline unsigned int aie_frames_learn(const unsigned long *slot)
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
static unsigned int aie_frames_learn(const unsigned long *slot)
{
	return 0;
}
#endif

/*
 * The call site of the page allocation whose probe's return address sits
 * at @slot: the first return address above it that is no wrapper's. 0
 * when the walk went further than any chain of wrappers goes.
 */
unsigned long aie_frames_caller(const unsigned long *slot)
{
	struct aie_site *site;
	unsigned long ret;
	unsigned int i, frame;

	for (i = 0; i < AIE_FRAMES_MAX; i++) {
		ret = *slot;
		site = aie_site_find(ret, AIE_TYPE_PAGE);
		if (!site || !(READ_ONCE(site->flags) & BIT(AIE_SITE_WRAPPER)))
			return ret;
		frame = READ_ONCE(site->frame);
		if (unlikely(!frame)) {
			frame = aie_frames_learn(slot) ?: AIE_FRAME_STOP;
			WRITE_ONCE(site->frame, frame);
		}
		if (unlikely(frame == AIE_FRAME_STOP)) {
			aie_count(walk_stops);
			return ret;
		}
		slot = (const unsigned long *)((const char *)slot + frame);
	}
	aie_count(walk_stops);
	return 0;
}
