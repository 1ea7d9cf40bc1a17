/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie_oom_report.h - oom_test's reader of the module's OOM reports in the
 * kernel log (iface/oom.c): each report's header and first row, and the
 * lines that would print an address or name a site no symbol covers.
 */
#ifndef _AIE_OOM_REPORT_H
#define _AIE_OOM_REPORT_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "aie_util.h"

#define PREFIX		"allocinfo_ext: "

/* The report: its header's counts, and its first row. */
struct report {
	int headers;		/* reports seen */
	unsigned int top, sites;
	struct aie_row first;	/* its first row (calls 0: none) */
	int rows;		/* rows seen, every report's */
	int rows_told;		/* rows their headers announced */
	int addresses;		/* lines with what looks like an address */
	int unknown;		/* rows of a site no symbol covers */
	int unknown_by_index;	/* of them, named "unknown@site<index>" */
	bool want_row;		/* the next row is the first */
};

/*
 * Whether @text holds what %p, %pK or %px would print: a run of 16 or more
 * hex digits with a letter among them (the figures are decimal, the
 * offsets of function+0xoff/0xsize short).
 */
static bool has_address(const char *text)
{
	const char *p = text, *run;
	bool letter;

	while (*p) {
		for (run = p, letter = false; isxdigit((unsigned char)*p); p++)
			letter |= isalpha((unsigned char)*p);
		if (p - run >= 16 && letter)
			return true;
		if (p == run)
			p++;
	}
	return false;
}

/* Count @text's address and unknown site, a line of a report. */
static void check_line(const char *text, struct report *r)
{
	const char *u = strstr(text, "unknown@");

	r->addresses += has_address(text);
	if (!u)
		return;
	r->unknown++;
	u += strlen("unknown@");
	if (!strncmp(u, "site", 4) && isdigit((unsigned char)u[4]))
		r->unknown_by_index++;
}

/* Write @msg to the kernel log, as a marker check.sh reads. */
static void kmsg_mark(const char *msg)
{
	aie_write_str("/dev/kmsg", msg);
}

/*
 * Read on in the kernel log from @fd, into @r: the last report's header
 * and first row, every report's lines.
 */
static void feed_report(int fd, struct report *r)
{
	const char *text;
	char rec[2048];

	while ((text = aie_kmsg_next(fd, rec, sizeof(rec)))) {
		if (strncmp(text, PREFIX, strlen(PREFIX)))
			continue;
		text += strlen(PREFIX);
		if (sscanf(text, "oom: victim %*s (%*d): top %u of %u sites",
			   &r->top, &r->sites) == 2) {
			r->headers++;
			r->rows_told += r->top;
			check_line(text, r);
			memset(&r->first, 0, sizeof(r->first));
			r->want_row = r->top > 0;
			continue;
		}
		if (!strncmp(text, "oom:", 4))
			continue;
		if (isspace((unsigned char)*text) || isdigit((unsigned char)*text)) {
			r->rows++;
			check_line(text, r);
		}
		if (r->want_row) {
			r->want_row = false;
			if (aie_row_parse(text, &r->first))
				memset(&r->first, 0, sizeof(r->first));
		}
	}
}

/* The kernel log from @fd on: the last report's header and first row. */
static void read_report(int fd, struct report *r)
{
	memset(r, 0, sizeof(*r));
	feed_report(fd, r);
}

#endif /* _AIE_OOM_REPORT_H */
