// SPDX-License-Identifier: GPL-2.0
/*
 * unit.c - unit tests of allocinfo-ext's parts that no command shows
 * alone: growth pairing and ordering of top, the treemap layout, site
 * subsystems and locations, number parsing and formatting.
 *
 * Prints one TAP line per test, "ok - host: unit: <name>" or "not ok - ...",
 * with "# " lines saying what differed. Exits 1 when a test failed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "textout.h"
#include "top.h"
#include "treemap.h"
#include "util.h"

struct unit {
	const char *name;
	int failed;
};

#define EXPECT(u, cond) do {						\
	if (!(cond)) {							\
		printf("# %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		(u)->failed++;						\
	}								\
} while (0)

#define EXPECT_STR(u, want, got) do {					\
	if (strcmp((want), (got))) {					\
		printf("# %s:%d: want \"%s\", got \"%s\"\n", __FILE__,	\
		       __LINE__, (want), (got));			\
		(u)->failed++;						\
	}								\
} while (0)

static void table_from(struct table *t, const char *text)
{
	char *copy = xstrdup(text);

	if (table_parse(t, "unit", copy, strlen(copy))) {
		printf("# cannot parse a test table\n");
		exit(1);
	}
}

#define ROW(b, c, loc) "  " #b " " #c " " loc " func:f type:slab slack:0 total_calls:0 total_bytes:0 peak:0 failed:0\n"
#define HEAD "allocinfo_ext - version: 1.0\n"

static const struct top_row *row_of(const struct top_row *r, size_t n,
				    const char *loc, unsigned int nth)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(r[i].site->location, loc) && !nth--)
			return &r[i];
	}
	return NULL;
}

/* Growth per second, rows of the same key paired in table order. */
static void test_top_growth(struct unit *u)
{
	struct table prev, cur;
	struct top_row *r;
	const struct top_row *x;
	size_t n;

	table_from(&prev, HEAD ROW(1000, 1, "a.c:1") ROW(5000, 5, "b.c:2")
		   ROW(100, 1, "c.c:3") ROW(10, 1, "d.c:4") ROW(20, 1, "d.c:4"));
	table_from(&cur, HEAD ROW(9000, 9, "a.c:1") ROW(100, 1, "c.c:3")
		   ROW(5000, 5, "b.c:2") ROW(30, 1, "d.c:4") ROW(60, 1, "d.c:4")
		   ROW(7, 1, "new.c:9"));
	n = top_rows(&cur, &prev, 2.0, &r);
	EXPECT(u, n == 6);
	x = row_of(r, n, "a.c:1", 0);
	EXPECT(u, x && x->has_growth && x->growth == 4000);
	x = row_of(r, n, "b.c:2", 0);
	EXPECT(u, x && x->has_growth && x->growth == 0);
	x = row_of(r, n, "d.c:4", 0);
	EXPECT(u, x && x->site->bytes == 30 && x->growth == 10);
	x = row_of(r, n, "d.c:4", 1);
	EXPECT(u, x && x->site->bytes == 60 && x->growth == 20);
	x = row_of(r, n, "new.c:9", 0);
	EXPECT(u, x && !x->has_growth);

	top_sort(r, n, &(struct order){ ORDER_GROWTH, false });
	EXPECT_STR(u, "a.c:1", r[0].site->location);
	EXPECT(u, r[1].site->bytes == 60 && r[2].site->bytes == 30);
	/* Equal growth (0): larger bytes first, so b before c and new. */
	EXPECT_STR(u, "b.c:2", r[3].site->location);
	EXPECT_STR(u, "c.c:3", r[4].site->location);
	EXPECT_STR(u, "new.c:9", r[5].site->location);
	top_sort(r, n, &(struct order){ ORDER_CALLS, false });
	EXPECT_STR(u, "a.c:1", r[0].site->location);
	EXPECT_STR(u, "b.c:2", r[1].site->location);
	free(r);

	n = top_rows(&cur, NULL, 0, &r);
	EXPECT(u, n == 6 && !row_of(r, n, "a.c:1", 0)->has_growth);
	free(r);
	table_free(&prev);
	table_free(&cur);
}

static double overlap(const struct tm_rect *a, const struct tm_rect *b)
{
	double w = fmin(a->x + a->w, b->x + b->w) - fmax(a->x, b->x);
	double h = fmin(a->y + a->h, b->y + b->h) - fmax(a->y, b->y);

	return w > 0 && h > 0 ? w * h : 0;
}

/* The example of Bruls et al.: 6,6,4,3,2,2,1 in a 6 x 4 rectangle. */
static void test_treemap(struct unit *u)
{
	static const double v[] = { 6, 6, 4, 3, 2, 2, 1 };
	struct tm_rect r[7], box = { 10, 20, 6, 4 };
	size_t i, j;

	treemap_layout(v, 7, box, r);
	for (i = 0; i < 7; i++) {
		EXPECT(u, fabs(r[i].w * r[i].h - v[i]) < 1e-9);
		EXPECT(u, r[i].x >= 10 - 1e-9 && r[i].x + r[i].w <= 16 + 1e-9);
		EXPECT(u, r[i].y >= 20 - 1e-9 && r[i].y + r[i].h <= 24 + 1e-9);
		for (j = 0; j < i; j++)
			EXPECT(u, overlap(&r[i], &r[j]) < 1e-9);
	}
	/* The paper's first row: the two 6s, a 3 x 2 column at the left. */
	EXPECT(u, fabs(r[0].w - 3) < 1e-9 && fabs(r[0].h - 2) < 1e-9);
	EXPECT(u, fabs(r[1].x - 10) < 1e-9 && fabs(r[1].y - 22) < 1e-9);

	treemap_layout((const double[]){ 0, 0 }, 2, box, r);
	EXPECT(u, r[0].w == 0 && r[1].h == 0);
}

static void subsystem_of(struct unit *u, const char *loc, const char *module,
			 const char *want)
{
	struct site s = { .location = loc, .module = module, .func = "f" };
	char buf[256];

	site_subsystem(&s, buf, sizeof(buf));
	EXPECT_STR(u, want, buf);
}

static void test_subsystem(struct unit *u)
{
	subsystem_of(u, "mm/util.c:62", "", "mm");
	subsystem_of(u, "./net/core/skbuff.c:600", "", "net");
	subsystem_of(u, "drivers/net/virtio_net.c:900", "virtio_net", "drivers/net");
	subsystem_of(u, "drivers/base.c:5", "", "drivers");
	subsystem_of(u, "arch/x86/kernel/process.c:3", "", "arch/x86");
	subsystem_of(u, "fs/ext4/super.c:5402", "ext4", "fs");
	subsystem_of(u, "/home/dev/drv/mydrv.c:77", "mydrv", "mydrv");
	subsystem_of(u, "mydrv.c:77", "mydrv", "mydrv");
	subsystem_of(u, "alloc_pipe_info+0x1a2/0x1f0", "", "vmlinux");
	subsystem_of(u, "nf_ct_ext_add+0x8c/0x150", "nf_conntrack", "nf_conntrack");
}

static void test_file_line(struct unit *u)
{
	struct site s = { .module = "", .func = "f" };
	char file[64];
	unsigned int line = 0;

	s.location = "a:b.c:12";
	EXPECT(u, site_file_line(&s, file, sizeof(file), &line));
	EXPECT_STR(u, "a:b.c", file);
	EXPECT(u, line == 12);
	s.location = "x.c:";
	EXPECT(u, !site_file_line(&s, file, sizeof(file), &line));
	s.location = "x.c:1a";
	EXPECT(u, !site_file_line(&s, file, sizeof(file), &line));
	s.location = ":7";
	EXPECT(u, !site_file_line(&s, file, sizeof(file), &line));
	s.location = "f+0x1/0x2";
	EXPECT(u, !site_file_line(&s, file, sizeof(file), &line));
}

static void test_numbers(struct unit *u)
{
	static const struct { long long v; const char *s; } sizes[] = {
		{ 0, "0" }, { 1023, "1023" }, { 1024, "1.0K" }, { 1536, "1.5K" },
		{ -2048, "-2.0K" }, { 1LL << 30, "1.0G" }, { 5LL << 40, "5.0T" },
	};
	unsigned long long ull;
	long long ll;
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		format_size(buf, sizeof(buf), sizes[i].v);
		EXPECT_STR(u, sizes[i].s, buf);
	}
	EXPECT(u, parse_ll("-42", &ll) && ll == -42);
	EXPECT(u, parse_ll("0x10", &ll) && ll == 16);
	EXPECT(u, !parse_ll("9223372036854775808", &ll));
	EXPECT(u, !parse_ll("12abc", &ll) && !parse_ll("", &ll));
	EXPECT(u, parse_ull("18446744073709551615", &ull) && ull == ~0ULL);
	EXPECT(u, !parse_ull("-1", &ull));
}

static void test_byte_counts(struct unit *u)
{
	static const struct { const char *s; long long v; } good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "0x1000", 4096 }, { "4K", 4096 },
		{ "4k", 4096 }, { "4KiB", 4096 }, { "4KB", 4096 },
		{ "1M", 1 << 20 }, { "3G", 3LL << 30 }, { "1E", 1LL << 60 },
	};
	static const char * const bad[] = {
		"", "-1", "1.5M", "5X", "5 ", "K", "8E", "1Mb", "1KiBB",
		"9223372036854775808",
	};
	long long v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		EXPECT(u, parse_bytes(good[i].s, &v) && v == good[i].v);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (parse_bytes(bad[i], &v)) {
			printf("# \"%s\" taken as %lld\n", bad[i], v);
			u->failed++;
		}
	}
}

static void test_text_clean(struct unit *u)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain\tline\n", "plain\tline\n" },
		{ "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac" },
		{ "a\x1b]0;t\x07" "b", "a\\x1b]0;t\\x07b" },
		{ "del\x7f", "del\\x7f" },
		{ "nel\xc2\x85", "nel\\xc2\\x85" },	/* C1 as UTF-8 */
		{ "csi\x9b", "csi\\x9b" },		/* C1 as a byte */
		{ "bad\xff\xc3", "bad\\xff\\xc3" },	/* not UTF-8, cut */
	};
	char *got;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = text_clean(cases[i].in, strlen(cases[i].in));
		EXPECT_STR(u, cases[i].out, got);
		free(got);
	}
	got = text_clean("a\0b", 3);	/* a NUL is a control character too */
	EXPECT_STR(u, "a\\x00b", got);
	free(got);
}

int main(void)
{
	static const struct { const char *name; void (*fn)(struct unit *); } tests[] = {
		{ "top growth and order", test_top_growth },
		{ "treemap layout", test_treemap },
		{ "subsystem of a site", test_subsystem },
		{ "file and line of a location", test_file_line },
		{ "numbers parsed and formatted", test_numbers },
		{ "byte counts with K, M, G suffixes", test_byte_counts },
		{ "control characters in text as \\xHH", test_text_clean },
	};
	int failed = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		struct unit u = { tests[i].name, 0 };

		tests[i].fn(&u);
		printf("%sok - host: unit: %s\n", u.failed ? "not " : "", u.name);
		failed += !!u.failed;
	}
	return failed ? 1 : 0;
}
