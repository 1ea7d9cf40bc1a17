// SPDX-License-Identifier: GPL-2.0
/*
 * stats_proc.c - /proc/allocinfo_ext_stats: module-wide figures, one per
 * line, "name value". Each unit shows its own lines: it sets its part at
 * init (core/stats.c), and the parts' order is the file's.
 *
 * Notes on locking
 * ----------------
 * None here: the figures are read without a lock, in process context,
 * and may move while the file is read. A part that needs a lock takes it
 * in its own callback (extras/capture.c's mutex).
 */

#include <linux/seq_file.h>

#include "core/stats.h"
#include "stats_proc.h"

/**
 * aie_stats_show() - Show /proc/allocinfo_ext_stats.
 * @m: the file being read.
 * @v: unused (a single_open() file).
 *
 * Each unit's part in the order core/stats.h gives, then memory_bytes,
 * the sum of the memory the parts hold.
 *
 * Context: Process context; may sleep.
 * Return: 0.
 */
int aie_stats_show(struct seq_file *m, void *v)
{
	aie_stats_parts_show(m);
	seq_printf(m, "memory_bytes %zu\n", aie_stats_parts_memory());
	return 0;
}
