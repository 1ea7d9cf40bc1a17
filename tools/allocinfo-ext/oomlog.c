// SPDX-License-Identifier: GPL-2.0
/*
 * oomlog.c - a saved kernel log read as a table: the last OOM report the
 * module logged (Documentation/format.rst, "The OOM report").
 *
 * A log line is whatever dmesg, journalctl -k, a serial console or
 * /dev/kmsg made of a record: the report's text starts after the first
 * "allocinfo_ext: " in it. The header "oom: victim <comm> (<pid>): top <n>
 * of ..." is followed by its <n> rows, each a row of the table; the
 * table made is the module's version line, a comment naming the report,
 * then those rows, which parse.c reads as any table's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocinfo_ext.h"
#include "oomlog.h"
#include "util.h"

#define LOG_PREFIX	"allocinfo_ext: "
#define OOM_HEADER	"oom: victim "

/* The text after the prefix in the line at @line (up to @end), or NULL. */
static const char *after_prefix(const char *line, const char *end)
{
	size_t n = strlen(LOG_PREFIX);
	const char *p;

	for (p = line; p + n <= end; p++)
		if (!memcmp(p, LOG_PREFIX, n))
			return p + n;
	return NULL;
}

/* Append @n bytes at @s and a newline to the growing @buf. */
static void append(char **buf, size_t *len, size_t *cap, const char *s,
		   size_t n)
{
	if (*len + n + 2 > *cap) {
		*cap = (*len + n + 2) * 2;
		*buf = xrealloc_array(*buf, *cap, 1);
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[(*len)++] = '\n';
	(*buf)[*len] = '\0';
}

char *oomlog_table(const char *text, size_t len, size_t *out_len)
{
	const char *line = text, *nl, *end, *msg, *last = NULL;
	char *buf = NULL;
	size_t blen = 0, cap = 0;
	unsigned int want = 0, top;

	/* The last report's header */
	for (; line < text + len; line = nl + 1) {
		nl = memchr(line, '\n', text + len - line);
		if (!nl)
			nl = text + len;
		msg = after_prefix(line, nl);
		if (msg && !strncmp(msg, OOM_HEADER, strlen(OOM_HEADER)))
			last = line;
	}
	if (!last)
		return NULL;
	append(&buf, &blen, &cap, AIE_HEADER_LINE1, strlen(AIE_HEADER_LINE1));
	for (line = last; line < text + len; line = nl + 1) {
		nl = memchr(line, '\n', text + len - line);
		if (!nl)
			nl = text + len;
		end = nl > line && nl[-1] == '\r' ? nl - 1 : nl;
		msg = after_prefix(line, end);
		if (!msg)
			continue;	/* another subsystem's line between */
		if (line == last) {
			if (sscanf(msg, OOM_HEADER "%*s (%*d): top %u of", &top) != 1)
				break;
			want = top;
			append(&buf, &blen, &cap, "# oom report: ", 14);
			blen--;		/* the header after it */
			append(&buf, &blen, &cap, msg, end - msg);
			continue;
		}
		if (!want--)
			break;
		append(&buf, &blen, &cap, msg, end - msg);
	}
	*out_len = blen;
	return buf;
}
