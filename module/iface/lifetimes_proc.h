/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lifetimes.h - /proc/allocinfo_ext_lifetimes (lifetimes.c).
 */
#ifndef _AIE_IFACE_LIFETIMES_H
#define _AIE_IFACE_LIFETIMES_H

#include <linux/proc_fs.h>

extern const struct proc_ops aie_lifetimes_proc_ops;

#endif /* _AIE_IFACE_LIFETIMES_H */
