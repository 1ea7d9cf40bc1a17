/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_proc.h - /proc/allocinfo_ext_stats (stats_proc.c).
 */
#ifndef _AIE_STATS_PROC_H
#define _AIE_STATS_PROC_H

struct seq_file;

int aie_stats_show(struct seq_file *m, void *v);

#endif /* _AIE_STATS_PROC_H */
