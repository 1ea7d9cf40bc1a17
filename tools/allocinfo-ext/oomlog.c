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
 * then those rows, which parse.c reads as any table's, each line with the
 * log's line number for its messages. <comm> is any 15 bytes, spaces
 * (Firefox's "Web Content") and parentheses too: the header is read from
 * its end.
 */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocinfo_ext.h"
#include "oomlog.h"
#include "util.h"

#define LOG_PREFIX	"allocinfo_ext: "
#define OOM_HEADER	"oom: victim "
#define OOM_TOP		"): top "

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

/*
 * The line at @line, up to @text_end: its newline (or @text_end) in *@nl;
 * returned, the end of its text, less a '\r' (a serial console's CRLF).
 */
static const char *line_end(const char *line, const char *text_end,
			    const char **nl)
{
	*nl = memchr(line, '\n', text_end - line);
	if (!*nl)
		*nl = text_end;
	return *nl > line && (*nl)[-1] == '\r' ? *nl - 1 : *nl;
}

/*
 * The <n> of the header @msg (up to @end), "oom: victim <comm> (<pid>):
 * top <n> of ...": the last "): top " ends the pid, whatever <comm> holds.
 */
static bool header_top(const char *msg, const char *end, unsigned int *top)
{
	char *h = xstrndup(msg, end - msg), *p = NULL, *q, *e;
	size_t head = strlen(OOM_HEADER);
	unsigned long n = 0;
	bool ok = false;

	for (q = strstr(h, OOM_TOP); q; q = strstr(q + 1, OOM_TOP))
		p = q;
	if (p) {
		for (q = p; q > h + head && isdigit((unsigned char)q[-1]); q--)
			;
		q -= 2;		/* " (" before the pid */
		if (q >= h + head && q < p - 2 && !memcmp(q, " (", 2)) {
			n = strtoul(p + strlen(OOM_TOP), &e, 10);
			ok = isdigit((unsigned char)p[strlen(OOM_TOP)]) &&
			     str_starts(e, " of ") && n <= UINT_MAX;
		}
	}
	free(h);
	*top = n;
	return ok;
}

/*
 * Whether the line at @s (up to @end) starts as dmesg -x writes a record,
 * its facility and level first: "kern  :info  : ".
 */
static bool dmesg_x_prefix(const char *s, const char *end)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (s == end || !islower((unsigned char)*s))
			return false;
		while (s < end && islower((unsigned char)*s))
			s++;
		while (s < end && *s == ' ')
			s++;
		if (s == end || *s++ != ':')
			return false;
	}
	return s < end && *s == ' ';
}

/* Whether the line at @s (up to @end) starts as dmesg -r writes: "<6>". */
static bool dmesg_r_prefix(const char *s, const char *end)
{
	if (s == end || *s++ != '<' || s == end || !isdigit((unsigned char)*s))
		return false;
	while (s < end && isdigit((unsigned char)*s))
		s++;
	return s < end && *s == '>';
}

bool oomlog_is_log(const char *text, size_t len)
{
	const char *line, *nl, *end, *first = NULL, *first_end = NULL;
	static const char boot[] = "Linux version ";

	for (line = text; line < text + len; line = nl + 1) {
		end = line_end(line, text + len, &nl);
		if (after_prefix(line, end))
			return true;
		/* a boot's log without prefixes: dmesg -t, journalctl -o cat */
		if ((size_t)(end - line) >= sizeof(boot) - 1 &&
		    !memcmp(line, boot, sizeof(boot) - 1))
			return true;
		if (!first && end > line) {
			first = line;
			first_end = end;
		}
	}
	if (!first)
		return false;
	return *first == '[' || !strncmp(first, "-- ", 3) ||
	       memmem(first, first_end - first, " kernel: ", 9) ||
	       dmesg_x_prefix(first, first_end) ||
	       dmesg_r_prefix(first, first_end);
}

/* Append @n bytes at @s and a newline to @o's table, from line @lineno. */
static void append(struct oom_table *o, size_t *cap, const char *s, size_t n,
		   unsigned int lineno)
{
	if (o->len + n + 2 > *cap) {
		*cap = (o->len + n + 2) * 2;
		o->text = xrealloc_array(o->text, *cap, 1);
	}
	memcpy(o->text + o->len, s, n);
	o->len += n;
	o->text[o->len++] = '\n';
	o->text[o->len] = '\0';
	o->lineno = xrealloc_array(o->lineno, o->lines + 1, sizeof(*o->lineno));
	o->lineno[o->lines++] = lineno;
}

static int oom_fail(struct oom_table *o, unsigned int lineno,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fail at line @lineno of the log, saying why; nothing left to free. */
static int oom_fail(struct oom_table *o, unsigned int lineno,
		    const char *fmt, ...)
{
	va_list ap;

	free(o->text);
	free(o->lineno);
	o->text = NULL;
	o->lineno = NULL;
	o->err_line = lineno;
	va_start(ap, fmt);
	vsnprintf(o->msg, sizeof(o->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int oomlog_table(const char *text, size_t len, struct oom_table *o)
{
	const char *line, *nl, *end, *msg, *last = NULL;
	unsigned int lineno = 0, head = 0, top, rows = 0;
	size_t cap = 0;
	char *comment;

	memset(o, 0, sizeof(*o));
	/* The last report's header */
	for (line = text; line < text + len; line = nl + 1) {
		end = line_end(line, text + len, &nl);
		lineno++;
		msg = after_prefix(line, end);
		if (msg && !strncmp(msg, OOM_HEADER, strlen(OOM_HEADER))) {
			last = line;
			head = lineno;
		}
	}
	if (!last)
		return 0;
	end = line_end(last, text + len, &nl);
	msg = after_prefix(last, end);
	if (!header_top(msg, end, &top))
		return oom_fail(o, head, "expected \"oom: victim <comm> (<pid>): top <n> of ...\"");
	append(o, &cap, AIE_HEADER_LINE1, strlen(AIE_HEADER_LINE1), head);
	comment = xasprintf("# oom report: %.*s", (int)(end - msg), msg);
	append(o, &cap, comment, strlen(comment), head);
	free(comment);
	for (lineno = head, line = nl + 1; rows < top && line < text + len; line = nl + 1) {
		end = line_end(line, text + len, &nl);
		lineno++;
		msg = after_prefix(line, end);
		if (!msg)
			continue;	/* another subsystem's line between */
		append(o, &cap, msg, end - msg, lineno);
		rows++;
	}
	o->head = head;
	o->rows = rows;
	o->top = top;
	return 1;
}
