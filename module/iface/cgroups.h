/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroups.h - /proc/allocinfo_ext_cgroups (cgroups.c).
 */
#ifndef _AIE_IFACE_CGROUPS_H
#define _AIE_IFACE_CGROUPS_H

#include <linux/proc_fs.h>

extern const struct proc_ops aie_cgroups_proc_ops;

#endif /* _AIE_IFACE_CGROUPS_H */
