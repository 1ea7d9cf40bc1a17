// SPDX-License-Identifier: GPL-2.0
/*
 * line.c - the numbers of a /proc table's line (line.h), converted as
 * seq_printf() would print them for "%*llu", "%*lld" and "%llx".
 *
 * Digits are produced from the right, a division by 10 each (which the
 * compiler turns into a multiplication), in a buffer on the stack, then
 * copied to the line with the padding.
 *
 * Notes on locking
 * ----------------
 * None: a line and its buffer are their builder's own (a seq_file's
 * buffer in a ->show() method, under the seq_file's mutex, or the OOM
 * report's, in process context); nothing here is shared.
 */

#include "line.h"

static const char aie_hex_digits[] = "0123456789abcdef";

/* Enough for 2^64 - 1 in decimal, and a sign. */
#define AIE_NUM_MAX	21

/* Write @num's digits, ending at @end; return where they start. */
static char *aie_num_dec(char *end, u64 num)
{
	do {
		*--end = '0' + num % 10;
		num /= 10;
	} while (num);
	return end;
}

/*
 * Append the characters from @p to @end, right-aligned with spaces in
 * @width columns, written straight into the line when they fit.
 */
static void aie_line_num(struct aie_line *l, const char *p, const char *end,
			 unsigned int width)
{
	size_t n = end - p, pad = width > n ? width - n : 0;
	char *dst;

	if (likely(pad + n <= l->size && l->len <= l->size - pad - n)) {
		dst = l->buf + l->len;
		l->len += pad + n;
		while (pad--)
			*dst++ = ' ';
		while (p < end)
			*dst++ = *p++;
		return;
	}
	l->len += pad + n;
}

/**
 * aie_line_u64() - Append a number as "%*llu".
 * @l: the line.
 * @num: the number.
 * @width: the columns to right-align it in.
 *
 * Context: Process context; @l is the caller's own.
 */
void aie_line_u64(struct aie_line *l, u64 num, unsigned int width)
{
	char buf[AIE_NUM_MAX], *end = buf + sizeof(buf);

	aie_line_num(l, aie_num_dec(end, num), end, width);
}

/**
 * aie_line_s64() - Append a number as "%*lld".
 * @l: the line.
 * @num: the number.
 * @width: the columns to right-align it in.
 *
 * Context: Process context; @l is the caller's own.
 */
void aie_line_s64(struct aie_line *l, s64 num, unsigned int width)
{
	char buf[AIE_NUM_MAX], *end = buf + sizeof(buf), *p;

	if (num >= 0) {
		p = aie_num_dec(end, num);
	} else {
		/* The negation of S64_MIN, as an unsigned number, is itself. */
		p = aie_num_dec(end, -(u64)num);
		*--p = '-';
	}
	aie_line_num(l, p, end, width);
}

/**
 * aie_line_hex() - Append a number as "%llx".
 * @l: the line.
 * @num: the number.
 *
 * Context: Process context; @l is the caller's own.
 */
void aie_line_hex(struct aie_line *l, u64 num)
{
	char buf[AIE_NUM_MAX], *end = buf + sizeof(buf), *p = end;

	do {
		*--p = aie_hex_digits[num & 0xf];
		num >>= 4;
	} while (num);
	aie_line_mem(l, p, end - p);
}
