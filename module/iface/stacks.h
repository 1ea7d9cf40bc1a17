/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacks.h - /proc/allocinfo_ext_stacks and /proc/allocinfo_ext_stacks_calls
 * (stacks.c).
 */
#ifndef _AIE_STACKS_H
#define _AIE_STACKS_H

#include <linux/proc_fs.h>

extern const struct proc_ops aie_stacks_bytes_proc_ops;
extern const struct proc_ops aie_stacks_calls_proc_ops;

#endif /* _AIE_STACKS_H */
