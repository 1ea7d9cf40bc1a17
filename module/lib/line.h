/* SPDX-License-Identifier: GPL-2.0 */
/*
 * line.h - one line of a /proc table, built in place in the seq_file's
 * buffer (seq_get_buf()) and committed once (seq_commit()).
 *
 * The tables print a few fixed formats for thousands of rows. Built here
 * with lengths known up front and numbers converted by line.c, a row costs
 * a fraction of the seq_printf() and seq_put_*() calls it replaces, each
 * of which checks the buffer, measures its string and converts its number
 * on its own. A line that does not fit is not committed: the seq_file is
 * told it overflowed and shows the record again with a larger buffer, as
 * after any seq_*() call that did not fit.
 *
 * Runs in the reader's context (process: a ->show() method, or the OOM
 * report with a seq_file of its own). Without __KERNEL__, line.c builds
 * in user space for its test (line_test).
 */
#ifndef _AIE_LINE_H
#define _AIE_LINE_H

#ifdef __KERNEL__
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/types.h>
#else
/* What line.c needs of the kernel, for its test in user space (line_test). */
#include <linux/types.h>
#include <stddef.h>
#include <string.h>

typedef __u64 u64;
typedef __s64 s64;
#define likely(x)	__builtin_expect(!!(x), 1)

struct seq_file {
	char *buf;
	size_t size;
	size_t count;
};

/**
 * seq_get_buf() - Get the free part of the buffer, as the kernel's does.
 * @m: the seq_file.
 * @bufp: where to put the free part's start, NULL when the buffer is full.
 *
 * Return: the free part's size.
 */
static inline size_t seq_get_buf(struct seq_file *m, char **bufp)
{
	*bufp = m->count < m->size ? m->buf + m->count : NULL;
	return m->size - m->count;
}

/**
 * seq_commit() - Commit what was written in the free part, as the
 * kernel's does.
 * @m: the seq_file.
 * @num: the bytes written, or below 0 for an overflow: the buffer is
 *       then full.
 */
static inline void seq_commit(struct seq_file *m, int num)
{
	if (num < 0)
		m->count = m->size;
	else
		m->count += num;
}
#endif

struct aie_line {
	struct seq_file *m;
	char *buf;		/* the free part of m's buffer, or NULL */
	size_t size;		/* its size */
	size_t len;		/* the line's length so far, even past size */
};

/**
 * aie_line_start() - Start a line in the free part of a seq_file's buffer.
 * @l: the line.
 * @m: the seq_file.
 *
 * Context: Process context: a ->show() method, or the OOM report.
 */
static inline void aie_line_start(struct aie_line *l, struct seq_file *m)
{
	l->m = m;
	l->size = seq_get_buf(m, &l->buf);
	l->len = 0;
}

/**
 * aie_line_end() - Commit the line, or report its overflow to the seq_file.
 * @l: the line.
 *
 * Context: Process context; @l is the caller's own.
 */
static inline void aie_line_end(struct aie_line *l)
{
	seq_commit(l->m, l->len <= l->size ? (int)l->len : -1);
}

/**
 * aie_line_mem() - Append bytes to a line.
 * @l: the line.
 * @s: the bytes.
 * @n: how many.
 *
 * Bytes past the buffer are counted, not written.
 *
 * Context: Process context; @l is the caller's own.
 */
static inline void aie_line_mem(struct aie_line *l, const char *s, size_t n)
{
	if (likely(n <= l->size && l->len <= l->size - n))
		memcpy(l->buf + l->len, s, n);
	l->len += n;
}

/**
 * aie_line_char() - Append a character to a line.
 * @l: the line.
 * @c: the character.
 *
 * Context: Process context; @l is the caller's own.
 */
static inline void aie_line_char(struct aie_line *l, char c)
{
	if (likely(l->len < l->size))
		l->buf[l->len] = c;
	l->len++;
}

/* A string literal, its length known at compile time. */
#define aie_line_lit(l, s)	aie_line_mem(l, "" s, sizeof(s) - 1)

/**
 * aie_line_str() - Append a string to a line.
 * @l: the line.
 * @s: the string, NUL-terminated.
 *
 * Context: Process context; @l is the caller's own.
 */
static inline void aie_line_str(struct aie_line *l, const char *s)
{
	aie_line_mem(l, s, strlen(s));
}

/* "%*llu", "%*lld" and "%llx" (line.c) */
void aie_line_u64(struct aie_line *l, u64 num, unsigned int width);
void aie_line_s64(struct aie_line *l, s64 num, unsigned int width);
void aie_line_hex(struct aie_line *l, u64 num);

/**
 * aie_live() - Clamp a live figure's sum at 0, as every interface shows it.
 * @sum: the sum of a live figure (bytes, calls, slack, accounted, a
 *       node's bytes).
 *
 * Every interface shows live figures so: the table, the OOM report, the
 * ioctls and the unload warning. A site's counters are summed while hooks
 * run on other CPUs, and the sum can come out below 0 (an allocation
 * counted on a CPU already read, its free on one read after): what is
 * live is never less than nothing, and such a sum reads 0, as it would
 * an instant later. The kernel's /proc/allocinfo, whose counters are
 * unsigned, shows no sign either.
 *
 * Context: Any context.
 * Return: @sum, or 0 when it is below 0.
 */
static inline u64 aie_live(s64 sum)
{
	return sum > 0 ? sum : 0;
}

/**
 * aie_line_live() - Append a live figure as "%*llu" (see aie_live()).
 * @l: the line.
 * @sum: the figure's sum.
 * @width: the columns to right-align it in.
 *
 * Context: Process context; @l is the caller's own.
 */
static inline void aie_line_live(struct aie_line *l, s64 sum,
				 unsigned int width)
{
	aie_line_u64(l, aie_live(sum), width);
}

#endif /* _AIE_LINE_H */
