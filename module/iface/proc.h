/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.h - the /proc files (proc.c).
 */
#ifndef _AIE_PROC_H
#define _AIE_PROC_H

int aie_proc_init(void);
void aie_proc_exit(void);

#endif /* _AIE_PROC_H */
