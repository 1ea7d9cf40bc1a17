/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_entry_arm64.S - the mm_page_alloc probe's entry, on arm64.
 *
 * arm64 kernels have no static calls: __alloc_pages() calls the
 * tracepoint's iterator, __traceiter_mm_page_alloc(), which calls each
 * probe with a BLR. When the probe starts, the link register holds its
 * return address into the iterator, and the frame pointer (x29) still
 * points at the iterator's frame record: the iterator's caller's frame
 * pointer, then the iterator's return address into __alloc_pages(),
 * signed under pac-ret. The page walk (frames.h) starts at that second
 * word, the slot of the first wrapper's return address (arch/arm64.h).
 *
 * This entry passes that slot, x29 + 8, in place of its first argument
 * (the tracepoint's data, unused), and branches: aie_page_alloc_entry()
 * (page_alloc.c) runs with the link register and stack pointer the
 * iterator called the probe with, so it signs and authenticates its
 * return address as if called directly, and returns to the iterator.
 * Three instructions (BTI C, an add, a branch), where a C probe builds a
 * frame record, signs and authenticates its link register and calls.
 *
 * Called with the tracepoint's arguments (data, page, order, gfp,
 * migratetype) in x0-x4, in any context the page allocator runs in (NMI
 * included), preemption disabled up to 6.x (from 7.0 aie_page_alloc_entry()
 * disables it: compat.h's aie_tp_guard()); it writes x0 alone and reads
 * x29 alone.
 * SYM_TYPED_FUNC_START() begins it with BTI C, the landing pad of an
 * indirect call's target (a hint, which does nothing where BTI is off;
 * the B to aie_page_alloc_entry() needs none). A kernel built with kCFI
 * checks the type of an indirect call's target, which this file does not
 * declare: there page_alloc.c keeps its probe in C (AIE_PAGE_ENTRY_ASM).
 */

#include <linux/linkage.h>

#include "page_alloc.h"

#ifdef AIE_PAGE_ENTRY_ASM
	.text
SYM_TYPED_FUNC_START(aie_probe_page_alloc)
	add	x0, x29, #8
	b	aie_page_alloc_entry
SYM_FUNC_END(aie_probe_page_alloc)
#endif
