/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lifetimes_proc.h - /proc/allocinfo_ext_lifetimes (lifetimes_proc.c).
 */
#ifndef _AIE_LIFETIMES_PROC_H
#define _AIE_LIFETIMES_PROC_H

#include <linux/proc_fs.h>

extern const struct proc_ops aie_lifetimes_proc_ops;

#endif /* _AIE_LIFETIMES_PROC_H */
