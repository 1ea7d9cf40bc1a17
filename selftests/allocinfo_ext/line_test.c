// SPDX-License-Identifier: GPL-2.0
/*
 * line_test - the module's row builder (module/lib/line.c, compiled in) prints
 * what printf() prints for the formats the tables use, and never writes
 * past the seq_file's buffer: a line that does not fit is not committed
 * and the buffer reads as overflowed, as the kernel's seq_file expects.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "line.h"

#define GUARD		0x5a
#define BUF_MAX		256

/* A seq_file over @buf of @size bytes, with guard bytes after it. */
static void seq_init(struct seq_file *m, char *buf, size_t size)
{
	memset(buf, GUARD, BUF_MAX);
	m->buf = buf;
	m->size = size;
	m->count = 0;
}

static unsigned long long rnd(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Every number conversion against snprintf(), for @v in all widths. */
static int check_num(struct __test_metadata *_metadata, unsigned long long v)
{
	static const unsigned int widths[] = { 0, 1, 2, 8, 12, 20, 21, 25 };
	char buf[BUF_MAX], want[BUF_MAX];
	struct seq_file m;
	struct aie_line l;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		seq_init(&m, buf, sizeof(buf) - 1);
		aie_line_start(&l, &m);
		aie_line_s64(&l, (long long)v, widths[i]);
		aie_line_char(&l, '|');
		aie_line_u64(&l, v, widths[i]);
		aie_line_char(&l, '|');
		aie_line_hex(&l, v);
		aie_line_end(&l);
		snprintf(want, sizeof(want), "%*lld|%*llu|%llx",
			 widths[i], (long long)v, widths[i], v, v);
		EXPECT_EQ(strlen(want), m.count);
		EXPECT_EQ(0, memcmp(want, buf, m.count)) {
			TH_LOG("%llu width %u: '%.*s', not '%s'", v,
			       widths[i], (int)m.count, buf, want);
			return -1;
		}
	}
	return 0;
}

TEST(numbers_edges)
{
	static const unsigned long long v[] = {
		0, 1, 9, 10, 99, 100, 101, 999, 1000, 4096, 123456789,
		LLONG_MAX, (unsigned long long)LLONG_MIN, ULLONG_MAX,
		-1ull, -9ull, -10ull, -100ull,
		10000000000000000000ull, 9999999999999999999ull,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		ASSERT_EQ(0, check_num(_metadata, v[i]));
}

TEST(numbers_random)
{
	unsigned long long s = 0x9e3779b97f4a7c15ull, v;
	unsigned int i;

	for (i = 0; i < 100000; i++) {
		v = rnd(&s);
		/* all magnitudes: shift the bits out by a random amount */
		v >>= rnd(&s) % 64;
		ASSERT_EQ(0, check_num(_metadata, v));
	}
}

/* A row as proc.c builds it, against the same row by snprintf(). */
TEST(row)
{
	char buf[BUF_MAX], want[BUF_MAX];
	struct seq_file m;
	struct aie_line l;

	seq_init(&m, buf, sizeof(buf) - 1);
	aie_line_start(&l, &m);
	aie_line_s64(&l, -4096, 12);
	aie_line_char(&l, ' ');
	aie_line_u64(&l, 3, 8);
	aie_line_char(&l, ' ');
	aie_line_str(&l, "kfunc");
	aie_line_lit(&l, "+0x");
	aie_line_hex(&l, 0x1d);
	aie_line_lit(&l, "/0x");
	aie_line_hex(&l, 0x40);
	aie_line_mem(&l, " [mod] func:kfunc", 17);
	aie_line_lit(&l, " slack:");
	aie_line_s64(&l, 0, 0);
	aie_line_char(&l, '\n');
	aie_line_end(&l);
	snprintf(want, sizeof(want), "%12lld %8llu %s+0x%llx/0x%llx%s slack:%lld\n",
		 -4096LL, 3ULL, "kfunc", 0x1dULL, 0x40ULL, " [mod] func:kfunc",
		 0LL);
	ASSERT_EQ(strlen(want), m.count);
	ASSERT_EQ(0, memcmp(want, buf, m.count));
}

/*
 * A live figure reads 0 below 0, wherever the module shows one (aie_live():
 * the table, the OOM report, the ioctls): a sum over the CPUs taken while
 * hooks run can be negative for an instant, which no test brings about at
 * will, so the rule is checked here, on the values such a sum can take.
 */
TEST(live)
{
	static const long long v[] = {
		LLONG_MIN, LLONG_MIN + 1, -4096, -2, -1, 0, 1, 4096,
		LLONG_MAX - 1, LLONG_MAX,
	};
	char buf[BUF_MAX], want[BUF_MAX];
	unsigned long long live;
	struct seq_file m;
	struct aie_line l;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		live = v[i] > 0 ? v[i] : 0;
		EXPECT_EQ(live, aie_live(v[i]));
		/* the row's first columns, as proc.c and oom.c build them */
		seq_init(&m, buf, sizeof(buf) - 1);
		aie_line_start(&l, &m);
		aie_line_live(&l, v[i], 12);
		aie_line_char(&l, ' ');
		aie_line_live(&l, v[i], 8);
		aie_line_lit(&l, " slack:");
		aie_line_live(&l, v[i], 0);
		aie_line_end(&l);
		snprintf(want, sizeof(want), "%12llu %8llu slack:%llu", live,
			 live, live);
		EXPECT_EQ(strlen(want), m.count);
		EXPECT_EQ(0, memcmp(want, buf, m.count)) {
			TH_LOG("%lld: '%.*s', not '%s'", v[i], (int)m.count,
			       buf, want);
		}
	}
}

/*
 * The same line into buffers of every size from 0 to its length and one
 * more: it is committed only where it fits, and no byte past the buffer
 * is touched; a line after a committed one goes after it.
 */
TEST(overflow)
{
	static const char first[] = "first\n";
	char buf[BUF_MAX], want[BUF_MAX];
	size_t want_len, size, i;
	struct seq_file m;
	struct aie_line l;

	want_len = snprintf(want, sizeof(want), "%12lld %8llu name func:name\n",
			    1234567LL, 89ULL);
	for (size = 0; size <= want_len + sizeof(first); size++) {
		seq_init(&m, buf, size);
		aie_line_start(&l, &m);
		aie_line_str(&l, first);
		aie_line_end(&l);
		aie_line_start(&l, &m);
		aie_line_s64(&l, 1234567, 12);
		aie_line_char(&l, ' ');
		aie_line_u64(&l, 89, 8);
		aie_line_lit(&l, " name func:");
		aie_line_mem(&l, "name", 4);
		aie_line_char(&l, '\n');
		aie_line_end(&l);
		for (i = size; i < BUF_MAX; i++)
			ASSERT_EQ(GUARD, (unsigned char)buf[i]);
		if (size < strlen(first)) {
			ASSERT_EQ(size, m.count);	/* overflowed */
			continue;
		}
		ASSERT_EQ(0, memcmp(first, buf, strlen(first)));
		if (size < strlen(first) + want_len) {
			ASSERT_EQ(size, m.count);	/* overflowed */
		} else {
			ASSERT_EQ(strlen(first) + want_len, m.count);
			ASSERT_EQ(0, memcmp(want, buf + strlen(first), want_len));
		}
	}
}

TEST_HARNESS_MAIN
