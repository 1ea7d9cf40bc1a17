// SPDX-License-Identifier: GPL-2.0
/*
 * textout.c - stdout's text through text_clean() (util.c), a line at a
 * time (textout.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "textout.h"
#include "util.h"

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
