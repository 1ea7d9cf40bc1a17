/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - what every part of allocinfo-ext uses: checked allocation,
 * error messages, whole-file reads, number formatting.
 *
 * The x*() allocators never return NULL: on failure they print
 * "allocinfo-ext: out of memory" and exit(1), as a tool that cannot
 * allocate a few bytes has nothing better to do.
 */
#ifndef _AIE_TOOL_UTIL_H
#define _AIE_TOOL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define AIE_TOOL_NAME	"allocinfo-ext"
#define AIE_TOOL_VERSION	"1.0"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Exit statuses: 0 success, 1 failure, 2 bad command line. */
#define AIE_EXIT_FAIL	1
#define AIE_EXIT_USAGE	2

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc_array(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "allocinfo-ext: <message>" on stderr. */
void aie_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * While @buf is not NULL, aie_err() keeps its last message in @buf (@len
 * bytes) instead of writing it: for a screen that stderr would garble.
 */
void aie_err_capture(char *buf, size_t len);

/*
 * Read all of @path (a /proc file reports size 0: read until EOF) into a
 * NUL-terminated buffer; "-" is standard input, read once and kept for
 * later reads of "-". Returns NULL with errno set on failure.
 */
char *read_whole_file(const char *path, size_t *len);

/*
 * Call @fn on each line of the file at @path (newline removed), with its
 * number from 1, until @fn returns non-zero; that, or 0, is returned, -1
 * when the file cannot be read (said on stderr). *@lines, unless NULL,
 * gets the number of lines seen.
 */
typedef int (*line_fn)(void *arg, const char *path, unsigned int lineno,
		       char *line);
int for_each_line(const char *path, line_fn fn, void *arg,
		  unsigned int *lines);

/* 1536 -> "1.5K"; below 1024 the plain number. Binary units. */
void format_size(char *buf, size_t len, long long bytes);

/* Parse a decimal or "0x" number; the whole string must be one. */
bool parse_ll(const char *s, long long *val);
bool parse_ull(const char *s, unsigned long long *val);
bool parse_seconds(const char *s, double *val);

/*
 * A byte count, 0 or more: decimal digits, then K, M, G, T, P or E (1024
 * to 1024^6, either case, "B" or "iB" after it allowed) or nothing.
 */
bool parse_bytes(const char *s, long long *val);

/* parse_bytes() for an option: 0, or -1 after saying what it takes. */
int bytes_opt(const char *s, long long *val);

/*
 * The GNU build-id in an ELF note file such as
 * /sys/module/<name>/notes/.note.gnu.build-id, as hex. 0, or -1.
 */
int read_build_id(const char *path, char *hex, size_t len);

/*
 * The length, 1 to 4, of the UTF-8 sequence at @s, or 0 when the bytes
 * there are not UTF-8: a stray continuation byte, an overlong form, a
 * surrogate, a code point beyond U+10FFFF, a sequence cut short. A NUL
 * is a sequence of 1.
 */
size_t utf8_len(const char *s);

/*
 * For a terminal: a copy of the @len bytes at @s where each control
 * character but a line feed and a tab (C0, DEL, and C1 as UTF-8 U+0080 to
 * U+009F) and each byte that is not part of UTF-8 is written "\xHH"
 * (textout.h has why).
 */
char *text_clean(const char *s, size_t len);

/* U+FFFD, what the writers of JSON, CSV, Prometheus and SVG put for a byte
 * that is not UTF-8. */
#define UTF8_REPLACEMENT	"\xef\xbf\xbd"

/* A copy of @s with each byte that is not UTF-8 replaced by U+FFFD. */
char *utf8_clean(const char *s);

/*
 * Add @v to *@sum; false, leaving *@sum as it was, when the sum would not
 * fit a long long.
 */
bool add_ll(long long *sum, long long v);

/*
 * Flush stdout: 0, or -1 after "cannot write the output: <why>" when a
 * write failed (a full disk, a closed pipe).
 */
int stdout_close(void);

bool str_starts(const char *s, const char *prefix);
bool str_ends(const char *s, const char *suffix);

#endif /* _AIE_TOOL_UTIL_H */
