/* SPDX-License-Identifier: GPL-2.0 */
/*
 * percpu.h - the percpu allocator's hooks (percpu.c).
 */
#ifndef _AIE_PERCPU_H
#define _AIE_PERCPU_H

#include <linux/types.h>

int aie_percpu_hooks_register(void);
void aie_percpu_hooks_unregister(bool allocs);
void aie_percpu_allocs_pause(void);
int aie_percpu_allocs_resume(void);
bool aie_percpu_fail_hooked(void);
unsigned long aie_percpu_hooks_missed(void);

#endif /* _AIE_PERCPU_H */
