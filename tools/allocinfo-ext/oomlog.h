/* SPDX-License-Identifier: GPL-2.0 */
/* oomlog.h - a saved kernel log's last OOM report as a table (oomlog.c) */
#ifndef OOMLOG_H
#define OOMLOG_H

#include <stddef.h>

/*
 * The table text of the last OOM report in the kernel log @text (@len
 * bytes), malloc()ed, its length in *@out_len; NULL when the log has none.
 */
char *oomlog_table(const char *text, size_t len, size_t *out_len);

#endif
