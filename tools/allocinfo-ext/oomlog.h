/* SPDX-License-Identifier: GPL-2.0 */
/* oomlog.h - a saved kernel log's last OOM report as a table (oomlog.c) */
#ifndef OOMLOG_H
#define OOMLOG_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The table made of a log's last OOM report: its text, malloc()ed, and
 * for each of its lines, from 1, the line of the log it comes from
 * (lineno[0] for line 1), so that a message names the log's line.
 */
struct oom_table {
	char *text;
	size_t len;
	unsigned int *lineno;
	unsigned int lines;
	unsigned int head;	/* the log's line of the report's header */
	unsigned int rows;	/* its rows in the log: top, unless the log is cut */
	unsigned int top;	/* its rows, as the header says */
	unsigned int err_line;	/* the log's line a failure is about */
	char msg[160];		/* and what it is */
};

/*
 * Make @o from the last OOM report of the kernel log @text (@len bytes):
 * 1 when there is one (fewer rows than its header says when the log is
 * cut short), 0 when there is none, -1 (@o's err_line and msg set, nothing
 * to free) when its header does not read.
 */
int oomlog_table(const char *text, size_t len, struct oom_table *o);

/*
 * Whether @text reads as a kernel log: a line of the module's, a line
 * "Linux version ..." that starts a boot's log (dmesg -t, journalctl -o
 * cat), or a first line as dmesg ("[   52.3] ...", -x "kern  :info  : ...",
 * -r "<6>..."), journalctl -k or syslog ("... kernel: ...") write them.
 */
bool oomlog_is_log(const char *text, size_t len);

#endif
