/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmalloc.h - vmalloc's hooks (vmalloc.c).
 */
#ifndef _AIE_VMALLOC_H
#define _AIE_VMALLOC_H

int aie_vmalloc_hooks_register(void);
void aie_vmalloc_hooks_unregister(void);
void aie_vmalloc_allocs_pause(void);
int aie_vmalloc_allocs_resume(void);
unsigned long aie_vmalloc_hooks_missed(void);

#endif /* _AIE_VMALLOC_H */
