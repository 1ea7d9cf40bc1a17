/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hooks_page_entry.h - where the mm_page_alloc probe is written: in
 * assembly on x86-64 (hooks_page_entry.S), in C elsewhere and on kernels
 * built with kCFI (hooks_page.c). Included by both, C and assembly.
 */
#ifndef _AIE_HOOKS_PAGE_ENTRY_H
#define _AIE_HOOKS_PAGE_ENTRY_H

#include "compat.h"

#if defined(CONFIG_X86_64) && !defined(AIE_KCFI)
#define AIE_PAGE_ENTRY_ASM
#endif

#ifndef __ASSEMBLER__
struct page;

#ifdef AIE_PAGE_ENTRY_ASM
/* mm_page_alloc(page, order, gfp, migratetype), hooks_page_entry.S */
void aie_probe_page_alloc(void *data, struct page *page, unsigned int order,
			  gfp_t gfp, int migratetype);

/* Reached by the probe's jump alone: no ENDBR (an instruction) */
#define __aie_page_entry __noendbr
#else
#define __aie_page_entry
#endif

/* The probe's work, hooks_page.c; @slot: where the probe's return address is */
__aie_page_entry void aie_page_alloc_entry(const unsigned long *slot,
					   struct page *page,
					   unsigned int order, gfp_t gfp);
#endif /* __ASSEMBLER__ */

#endif /* _AIE_HOOKS_PAGE_ENTRY_H */
