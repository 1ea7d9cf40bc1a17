/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nolock.h - the probes of kmalloc_nolock() and kfree_nolock() (nolock.c).
 */
#ifndef _AIE_NOLOCK_H
#define _AIE_NOLOCK_H

#include <linux/types.h>

void aie_nolock_hooks_register(void);
void aie_nolock_hooks_unregister(void);
void aie_nolock_allocs_pause(void);
int aie_nolock_allocs_resume(void);
bool aie_nolock_hooked(void);
unsigned long aie_nolock_hooks_missed(void);

#endif /* _AIE_NOLOCK_H */
