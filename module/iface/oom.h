/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oom.h - the top sites in the kernel log at every OOM kill (oom.c).
 */
#ifndef _AIE_OOM_H
#define _AIE_OOM_H

void aie_oom_init(void);
void aie_oom_exit(void);

#endif /* _AIE_OOM_H */
