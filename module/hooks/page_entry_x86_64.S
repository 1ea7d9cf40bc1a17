/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_entry_x86_64.S - the mm_page_alloc probe's entry, on x86-64.
 *
 * The page walk (frames.h) starts at the slot of the probe's return
 * address. A probe written in C finds that slot through a frame pointer
 * of its own, and calls the function that does the work: a push, two
 * moves, a pop and a jump on every page allocation, before any work.
 * This one passes its stack pointer as it came in, which points at that
 * slot, in place of its first argument (the tracepoint's data, unused),
 * and jumps: aie_page_alloc_entry() (page_alloc.c) runs on the
 * tracepoint's own frame and returns to it.
 *
 * Called with the tracepoint's arguments (data, page, order, gfp,
 * migratetype), in any context the page allocator runs in (NMI included),
 * preemption disabled up to 6.x (from 7.0 aie_page_alloc_entry() disables
 * it: compat.h's aie_tp_guard()); it touches nothing but %rdi.
 * SYM_TYPED_FUNC_START() gives it the ENDBR of an indirect call's target
 * and the padding of a kernel function. A kernel built with kCFI checks
 * the type of an indirect call's target, which this file does not
 * declare: there page_alloc.c keeps its probe in C (AIE_PAGE_ENTRY_ASM).
 */

#include <linux/linkage.h>

#include "page_alloc.h"

#ifdef AIE_PAGE_ENTRY_ASM
	.text
SYM_TYPED_FUNC_START(aie_probe_page_alloc)
	movq	%rsp, %rdi
	jmp	aie_page_alloc_entry
SYM_FUNC_END(aie_probe_page_alloc)
#endif
