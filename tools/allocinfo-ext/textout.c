// SPDX-License-Identifier: GPL-2.0
/*
 * textout.c - control characters and stray bytes written as \xHH in text
 * meant for a terminal (textout.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "textout.h"
#include "util.h"

/* How many bytes at @p text_clean() keeps as they are; 0: escape one. */
static size_t text_safe(const unsigned char *p)
{
	size_t n;

	if (*p == '\n' || *p == '\t')
		return 1;
	if (*p < 0x20 || *p == 0x7f)
		return 0;
	if (*p < 0x80)
		return 1;
	n = utf8_len((const char *)p);
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)	/* C1: U+0080..U+009F */
		return 0;
	return n;
}

char *text_clean(const char *s, size_t len)
{
	char *out = xmalloc(4 * len + 1), *o = out, *copy = xmalloc(len + 1);
	const unsigned char *p = (const unsigned char *)copy;
	const unsigned char *end = p + len;
	size_t n;

	memcpy(copy, s, len);	/* NULs too */
	copy[len] = '\0';
	/* the copy ends in a NUL: utf8_len() stops there, not past @len */
	while (p < end) {
		n = *p ? text_safe(p) : 0;
		if (n) {
			memcpy(o, p, n);
			o += n;
			p += n;
		} else {
			o += sprintf(o, "\\x%02x", *p++);
		}
	}
	*o = '\0';
	free(copy);
	return out;
}

/* What stdout was given after its last line feed, kept for the next write. */
struct text_stream {
	char *buf;
	size_t len;
};

static int text_write_all(const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(STDOUT_FILENO, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		s += n;
		len -= n;
	}
	return 0;
}

/* Clean and write the first @len bytes of @ts's buffer, keep the rest. */
static int text_flush(struct text_stream *ts, size_t len)
{
	char *clean;
	int ret;

	if (!len)
		return 0;
	clean = text_clean(ts->buf, len);
	ret = text_write_all(clean, strlen(clean));
	free(clean);
	memmove(ts->buf, ts->buf + len, ts->len - len);
	ts->len -= len;
	return ret;
}

/* Whole lines are cleaned: a UTF-8 sequence is never cut in two. */
static ssize_t text_stream_write(void *cookie, const char *buf, size_t size)
{
	struct text_stream *ts = cookie;
	const char *nl;

	ts->buf = xrealloc_array(ts->buf, ts->len + size, 1);
	memcpy(ts->buf + ts->len, buf, size);
	ts->len += size;
	nl = memrchr(ts->buf, '\n', ts->len);
	if (nl && text_flush(ts, nl - ts->buf + 1))
		return -1;
	return size;
}

static int text_stream_close(void *cookie)
{
	struct text_stream *ts = cookie;
	int ret = text_flush(ts, ts->len);

	free(ts->buf);
	free(ts);
	return ret;
}

/* At exit: the last line, if it has no line feed, written too. */
static FILE *text_stream;

static void text_stdout_end(void)
{
	if (stdout == text_stream)
		fclose(text_stream);
}

void text_stdout(void)
{
	static const cookie_io_functions_t io = {
		.write = text_stream_write,
		.close = text_stream_close,
	};
	struct text_stream *ts = xcalloc(1, sizeof(*ts));
	FILE *f = fopencookie(ts, "w", io);

	if (!f) {
		fputs(AIE_TOOL_NAME ": out of memory\n", stderr);
		exit(AIE_EXIT_FAIL);
	}
	fflush(stdout);
	stdout = f;	/* glibc's stdout is a variable, made to be set */
	text_stream = f;
	atexit(text_stdout_end);
}
