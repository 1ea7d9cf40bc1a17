/* SPDX-License-Identifier: GPL-2.0 */
/*
 * page.h - the page allocator's hooks (page.c).
 */
#ifndef _AIE_PAGE_H
#define _AIE_PAGE_H

int aie_page_hooks_register(void);
void aie_page_hooks_unregister(void);
void aie_page_allocs_pause(void);
int aie_page_allocs_resume(void);
unsigned long aie_page_hooks_missed(void);

#endif /* _AIE_PAGE_H */
