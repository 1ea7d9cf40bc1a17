/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - /proc/allocinfo_ext_stats (stats.c).
 */
#ifndef _AIE_IFACE_STATS_H
#define _AIE_IFACE_STATS_H

struct seq_file;

int aie_stats_show(struct seq_file *m, void *v);

#endif /* _AIE_IFACE_STATS_H */
