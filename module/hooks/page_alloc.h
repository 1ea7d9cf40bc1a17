/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page_alloc.h - the mm_page_alloc probe and its work (page_alloc.c): the
 * probe is written in assembly (page_entry_x86_64.S, page_entry_arm64.S),
 * in C on kernels built with kCFI. Included by both, C and assembly.
 */
#ifndef _AIE_PAGE_ALLOC_H
#define _AIE_PAGE_ALLOC_H

#include "compat.h"

#ifndef AIE_KCFI
#define AIE_PAGE_ENTRY_ASM
#endif

#ifndef __ASSEMBLER__
struct page;

/* mm_page_alloc(page, order, gfp, migratetype) */
void aie_probe_page_alloc(void *data, struct page *page, unsigned int order,
			  gfp_t gfp, int migratetype);

#ifdef AIE_PAGE_ENTRY_ASM
/* Reached by the probe's jump alone: no ENDBR (an instruction) */
#define __aie_page_entry __noendbr
#else
#define __aie_page_entry
#endif

/*
 * The probe's work; @slot: where the walk's first return address is, the
 * probe's on x86-64, its caller's (the tracepoint iterator's) on arm64
 */
__aie_page_entry void aie_page_alloc_entry(const unsigned long *slot,
					   struct page *page,
					   unsigned int order, gfp_t gfp);
#endif /* __ASSEMBLER__ */

#endif /* _AIE_PAGE_ALLOC_H */
