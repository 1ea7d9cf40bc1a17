// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - checked allocation, error messages, file reads and writes,
 * number parsing and formatting.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static void *oom_check(void *p)
{
	if (!p) {
		fputs(AIE_TOOL_NAME ": out of memory\n", stderr);
		exit(AIE_EXIT_FAIL);
	}
	return p;
}

void *xmalloc(size_t size)
{
	return oom_check(malloc(size ? size : 1));
}

void *xcalloc(size_t nmemb, size_t size)
{
	return oom_check(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xrealloc_array(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		return oom_check(NULL);
	return oom_check(realloc(ptr, nmemb && size ? nmemb * size : 1));
}

char *xstrdup(const char *s)
{
	return oom_check(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return oom_check(strndup(s, n));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return oom_check(n < 0 ? NULL : s);
}

static char *err_buf;
static size_t err_len;

void aie_err_capture(char *buf, size_t len)
{
	err_buf = buf;
	err_len = len;
}

void aie_err(const char *fmt, ...)
{
	char *msg, *clean;
	va_list ap;

	if (err_buf) {
		va_start(ap, fmt);
		vsnprintf(err_buf, err_len, fmt, ap);
		va_end(ap);
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	/* a message may quote a name or a line of the input: cleaned */
	clean = msg ? text_clean(msg, strlen(msg)) : NULL;
	fprintf(stderr, "%s: %s\n", AIE_TOOL_NAME, clean ? clean : fmt);
	free(clean);
	free(msg);
}

int for_each_line(const char *path, line_fn fn, void *arg,
		  unsigned int *lines)
{
	unsigned int lineno = 0;
	char *text, *line, *next;
	size_t len;
	int ret = 0;

	text = read_whole_file(path, &len);
	if (!text) {
		if (errno == ENOENT)
			aie_err("%s does not exist: is the allocinfo_ext module loaded?",
				path);
		else
			aie_err("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	for (line = text; *line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		ret = fn(arg, path, ++lineno, line);
	}
	free(text);
	if (lines)
		*lines = lineno;
	return ret;
}

/* All of @fd into a NUL-terminated buffer; NULL with errno set. */
static char *read_fd(int fd, size_t *len)
{
	size_t size = 0, cap = 1 << 16;
	char *buf = xmalloc(cap);
	ssize_t n;

	for (;;) {
		if (cap - size < 4096) {
			cap *= 2;
			buf = xrealloc_array(buf, cap, 1);
		}
		n = read(fd, buf + size, cap - size - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size += n;
	}
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[size] = '\0';
	*len = size;
	return buf;
}

/*
 * Standard input, read once and kept: every later read of "-" gets the
 * same text ("diff - -", each sample of "top -").
 */
static char *stdin_text;
static size_t stdin_len;

static char *read_stdin(size_t *len)
{
	char *copy;

	if (!stdin_text) {
		stdin_text = read_fd(STDIN_FILENO, &stdin_len);
		if (!stdin_text)
			return NULL;
	}
	copy = xmalloc(stdin_len + 1);
	memcpy(copy, stdin_text, stdin_len + 1);
	*len = stdin_len;
	return copy;
}

char *read_whole_file(const char *path, size_t *len)
{
	int fd, saved;
	char *buf;

	if (!strcmp(path, "-"))
		return read_stdin(len);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = read_fd(fd, len);
	saved = errno;
	close(fd);
	errno = saved;
	return buf;
}

void format_size(char *buf, size_t len, long long bytes)
{
	static const char units[] = "KMGTPE";
	double v = fabs((double)bytes);
	int u = -1;

	while (v >= 1024 && u < (int)sizeof(units) - 2) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%lld", bytes);
	else
		snprintf(buf, len, "%s%.1f%c", bytes < 0 ? "-" : "", v,
			 units[u]);
}

static unsigned int note_word(const unsigned char *p)
{
	unsigned int v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Notes: namesz, descsz, type (4 bytes each), name and desc padded to 4. */
int read_build_id(const char *path, char *hex, size_t len)
{
	size_t size, off = 0, i, namesz, descsz, type;
	unsigned char *buf = (unsigned char *)read_whole_file(path, &size);
	int ret = -1;

	while (buf && off + 12 <= size) {
		namesz = note_word(buf + off);
		descsz = note_word(buf + off + 4);
		type = note_word(buf + off + 8);
		off += 12;
		if (namesz > size || descsz > size ||
		    off + ((namesz + 3) & ~3UL) + descsz > size)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + off, "GNU", 4) &&
		    descsz && 2 * descsz < len) {
			off += 4;
			for (i = 0; i < descsz; i++)
				sprintf(hex + 2 * i, "%02x", buf[off + i]);
			ret = 0;
			break;
		}
		off += ((namesz + 3) & ~3UL) + ((descsz + 3) & ~3UL);
	}
	free(buf);
	return ret;
}

bool parse_ll(const char *s, long long *val)
{
	char *end;

	if (!*s || *s == ' ')
		return false;
	errno = 0;
	*val = strtoll(s, &end, 0);
	return !errno && !*end;
}

bool parse_ull(const char *s, unsigned long long *val)
{
	char *end;

	if (!*s || *s == '-' || *s == ' ' || *s == '+')
		return false;
	errno = 0;
	*val = strtoull(s, &end, 0);
	return !errno && !*end;
}

bool parse_bytes(const char *s, long long *val)
{
	static const char units[] = "KMGTPE";
	size_t digits = strspn(s, "0123456789");
	const char *unit = s + digits, *u;
	int c = toupper((unsigned char)*unit);

	if (parse_ll(s, val))		/* no unit: as parse_ll(), 0x too */
		return *val >= 0;
	u = c ? strchr(units, c) : NULL;
	if (!digits || !u || (unit[1] && strcmp(unit + 1, "B") &&
			      strcmp(unit + 1, "iB")))
		return false;
	errno = 0;
	*val = strtoll(s, NULL, 10);
	return !errno && !__builtin_mul_overflow(*val, 1LL << (10 * (u - units + 1)), val);
}

int bytes_opt(const char *s, long long *val)
{
	if (parse_bytes(s, val))
		return 0;
	aie_err("bad byte count \"%s\": a number, 0 or more, K, M, G or T after it for 1024s",
		s);
	return -1;
}

bool parse_seconds(const char *s, double *val)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*val = strtod(s, &end);
	return !errno && !*end && *val >= 0 && *val <= 86400 && !isnan(*val);
}

size_t utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int cp, min;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* a NUL ends the loop too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

char *utf8_clean(const char *s)
{
	char *out = xmalloc(3 * strlen(s) + 1), *p = out;
	size_t n;

	while (*s) {
		n = utf8_len(s);
		if (n) {
			memcpy(p, s, n);
			p += n;
			s += n;
		} else {
			memcpy(p, UTF8_REPLACEMENT, 3);
			p += 3;
			s++;
		}
	}
	*p = '\0';
	return out;
}

bool add_ll(long long *sum, long long v)
{
	long long r;

	if (__builtin_add_overflow(*sum, v, &r))
		return false;
	*sum = r;
	return true;
}

int stdout_close(void)
{
	int ret = fflush(stdout) || ferror(stdout) ? -1 : 0;

	if (ret)
		aie_err("cannot write the output: %s", strerror(errno));
	return ret;
}

bool str_starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

bool str_ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

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
