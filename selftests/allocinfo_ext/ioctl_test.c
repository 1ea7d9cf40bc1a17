// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_test - the ioctls of /proc/allocinfo_ext, those of 7.3's
 * /proc/allocinfo (include/allocinfo_ext_ioctl.h): the content id, GET_AT,
 * GET_NEXT and their filters, against the text rows of the helper's
 * sites, and their errors. Built for i386 too (ioctl32_test, -DAIE_I386),
 * through the module's compat entry on x86_64 kernels, with the same
 * expectations.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <allocinfo_ext_ioctl.h>

#include "kselftest_harness.h"
#include "aie_util.h"

#define KM96	"aie_helper_kmalloc_96"
#define MAX_ROWS	256	/* the helper's rows, at most */

/* 0, or -errno of the ioctl. */
static int ioc(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

static unsigned long long content_id(int fd)
{
	struct allocinfo_ext_content_id id = { .id = ~0ULL };

	if (ioc(fd, AIE_IOC_CONTENT_ID, &id))
		return ~0ULL;
	return id.id;
}

static void set_str(char *dst, const char *src)
{
	memset(dst, 0, AIE_IOC_STR_SIZE);
	snprintf(dst, AIE_IOC_STR_SIZE, "%s", src);
}

/* A filter on the helper's module, with the bits of @mask besides. */
static struct allocinfo_ext_filter helper_filter(unsigned long long mask)
{
	struct allocinfo_ext_filter f;

	memset(&f, 0, sizeof(f));
	f.mask = AIE_IOC_FILTER_MODNAME | mask;
	set_str(f.fields.modname, "aie_helper");
	return f;
}

static int get_at(int fd, unsigned long long pos,
		  const struct allocinfo_ext_filter *f,
		  struct allocinfo_ext_tag_data *d)
{
	struct allocinfo_ext_get_at at;
	int ret;

	memset(&at, 0, sizeof(at));
	at.pos = pos;
	if (f)
		at.filter = *f;
	ret = ioc(fd, AIE_IOC_GET_AT, &at);
	if (!ret && d)
		*d = at.data;
	return ret;
}

/*
 * The rows matching @f, by GET_AT at 0 then GET_NEXT to the end, up to
 * @max of them into @rows (may be NULL); how many, or -errno.
 */
static int walk(int fd, const struct allocinfo_ext_filter *f,
		struct allocinfo_ext_tag_data *rows, int max)
{
	struct allocinfo_ext_tag_data d;
	int n = 0, ret;

	ret = get_at(fd, 0, f, &d);
	while (!ret) {
		if (rows && n < max)
			rows[n] = d;
		n++;
		ret = ioc(fd, AIE_IOC_GET_NEXT, &d);
	}
	return ret == -ENOENT ? n : ret;
}

/* The one row matching @f into @d: 1; else how many matched, or -errno. */
static int only_row(int fd, const struct allocinfo_ext_filter *f,
		    struct allocinfo_ext_tag_data *d)
{
	return walk(fd, f, d, 1);
}

static long long one(const struct aie_row *row, const void *arg)
{
	(void)row;
	(void)arg;
	return 1;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The function names of the loaded helper's text rows, sorted; how many. */
static int text_helper_funcs(char (*names)[AIE_IOC_STR_SIZE], int max)
{
	char *buf = aie_read_file(AIE_PROC), *line, *save;
	struct aie_row r;
	const char *fn;
	size_t len;
	int n = 0;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (aie_row_parse(line, &r) || strcmp(r.module, "aie_helper") ||
		    r.unloaded || n >= max)
			continue;
		/* The ioctl keeps a name's last 63 characters. */
		len = strlen(r.func);
		fn = r.func;
		if (len >= AIE_IOC_STR_SIZE)
			fn += len - (AIE_IOC_STR_SIZE - 1);
		snprintf(names[n++], AIE_IOC_STR_SIZE, "%.63s", fn);
	}
	free(buf);
	qsort(names, n, AIE_IOC_STR_SIZE, cmp_name);
	return n;
}

FIXTURE(ioctl) {
	int fd;
	long long km96;		/* bytes of one kmalloc(96) */
};

FIXTURE_SETUP(ioctl)
{
	self->fd = -1;
	if (geteuid())
		SKIP(return, "must be root");
	ASSERT_EQ(0, aie_setup(NULL));
	self->km96 = aie_kmalloc_charge(96);
	ASSERT_LT(0, self->km96);
	self->fd = open(AIE_PROC, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(ioctl)
{
	if (self->fd >= 0)
		close(self->fd);
	aie_teardown();
}

/*
 * The layouts and numbers of 7.3's ioctls whatever the ABI: i386's __u64,
 * 4-byte aligned, gives the same sizes and offsets. GET_AT works into a
 * buffer on the stack, which an i386 program on an x86_64 kernel has just
 * under 4 GiB (a pointer that compat_ptr() must not sign-extend), and
 * into one of the program's data, low.
 */
TEST_F(ioctl, layouts)
{
	static struct allocinfo_ext_get_at low;
	struct allocinfo_ext_get_at high;

	EXPECT_EQ(8U, sizeof(struct allocinfo_ext_content_id));
	EXPECT_EQ(200U, sizeof(struct allocinfo_ext_tag));
	EXPECT_EQ(192U, offsetof(struct allocinfo_ext_tag, lineno));
	EXPECT_EQ(24U, sizeof(struct allocinfo_ext_counter));
	EXPECT_EQ(8U, offsetof(struct allocinfo_ext_counter, calls));
	EXPECT_EQ(16U, offsetof(struct allocinfo_ext_counter, accurate));
	EXPECT_EQ(224U, sizeof(struct allocinfo_ext_tag_data));
	EXPECT_EQ(200U, offsetof(struct allocinfo_ext_tag_data, counter));
	EXPECT_EQ(232U, sizeof(struct allocinfo_ext_filter));
	EXPECT_EQ(8U, offsetof(struct allocinfo_ext_filter, fields));
	EXPECT_EQ(208U, offsetof(struct allocinfo_ext_filter, min_size));
	EXPECT_EQ(216U, offsetof(struct allocinfo_ext_filter, max_size));
	EXPECT_EQ(224U, offsetof(struct allocinfo_ext_filter, inaccurate));
	EXPECT_EQ(464U, sizeof(struct allocinfo_ext_get_at));
	EXPECT_EQ(8U, offsetof(struct allocinfo_ext_get_at, filter));
	EXPECT_EQ(240U, offsetof(struct allocinfo_ext_get_at, data));
	EXPECT_EQ(0x8008a600U, AIE_IOC_CONTENT_ID);
	EXPECT_EQ(0xc1d0a601U, AIE_IOC_GET_AT);
	EXPECT_EQ(0x80e0a602U, AIE_IOC_GET_NEXT);
#ifdef AIE_I386
	ASSERT_EQ(4U, sizeof(void *));
	EXPECT_LE(0x80000000UL, (unsigned long)&high);
#else
	ASSERT_EQ(8U, sizeof(void *));
#endif

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	memset(&high, 0, sizeof(high));
	high.filter = helper_filter(AIE_IOC_FILTER_FUNCTION);
	set_str(high.filter.fields.function, KM96);
	low = high;
	ASSERT_EQ(0, ioc(self->fd, AIE_IOC_GET_AT, &high));
	EXPECT_STREQ(KM96, high.data.tag.function);
	EXPECT_EQ(3ULL, high.data.counter.calls);
	EXPECT_EQ(3ULL * self->km96, high.data.counter.bytes);
	ASSERT_EQ(0, ioc(self->fd, AIE_IOC_GET_AT, &low));
	EXPECT_EQ(0, memcmp(&high.data, &low.data, sizeof(high.data)));
}

/*
 * The id stays while nothing happens (the helper's allocations add no
 * row it defines), and changes at a reset, and at each module unload and
 * load.
 */
TEST_F(ioctl, content_id)
{
	unsigned long long id = content_id(self->fd), id2;

	ASSERT_NE(~0ULL, id);
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	EXPECT_EQ(id, content_id(self->fd));
	EXPECT_EQ(id, content_id(self->fd));

	ASSERT_EQ(0, aie_ctl("reset"));
	id2 = content_id(self->fd);
	EXPECT_NE(id, id2);
	EXPECT_EQ(id2, content_id(self->fd));

	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(0, aie_unload("aie_helper"));
	id = content_id(self->fd);
	EXPECT_NE(id2, id);
	ASSERT_EQ(0, aie_load(AIE_HELPER_KO, NULL));
	id2 = content_id(self->fd);
	EXPECT_NE(id, id2);
	EXPECT_EQ(id2, content_id(self->fd));
}

/* GET_AT 0 is the first row, GET_NEXT's first; past the last: ENOENT. */
TEST_F(ioctl, get_at_bounds)
{
	struct allocinfo_ext_filter f = helper_filter(0);
	struct allocinfo_ext_tag_data first, d;
	int fd2 = open(AIE_PROC, O_RDONLY | O_CLOEXEC), n;

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, get_at(self->fd, 0, NULL, &first));
	EXPECT_NE('\0', first.tag.function[0]);
	/* A new file's GET_NEXT starts at row 0, with no filter. */
	ASSERT_EQ(0, ioc(fd2, AIE_IOC_GET_NEXT, &d));
	EXPECT_STREQ(first.tag.function, d.tag.function);
	EXPECT_STREQ(first.tag.modname, d.tag.modname);
	close(fd2);

	n = walk(self->fd, NULL, NULL, 0);
	ASSERT_LT(0, n);
	EXPECT_EQ(-ENOENT, get_at(self->fd, n + 1000000, NULL, &d));
	EXPECT_EQ(-ENOENT, get_at(self->fd, ~0ULL, NULL, &d));

	/* The helper's rows: n of them, and GET_AT n is past them. */
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	n = walk(self->fd, &f, NULL, 0);
	ASSERT_EQ(aie_count_rows("aie_helper"), n);
	EXPECT_EQ(0, get_at(self->fd, n - 1, &f, &d));
	EXPECT_STREQ("aie_helper", d.tag.modname);
	EXPECT_EQ(-ENOENT, get_at(self->fd, n, &f, &d));
}

/*
 * GET_NEXT walks every row once: as many as the text has (kernel sites
 * appear meanwhile: between the counts before and after), the helper's
 * exactly those of the text, with the text's figures; after the ENOENT
 * that ended the walk, row 0 again.
 */
TEST_F(ioctl, get_next_walks_the_rows)
{
	static struct allocinfo_ext_tag_data rows[MAX_ROWS];
	static char text[MAX_ROWS][AIE_IOC_STR_SIZE];
	static char got[MAX_ROWS][AIE_IOC_STR_SIZE];
	struct allocinfo_ext_filter f = helper_filter(0);
	struct allocinfo_ext_tag_data d, first;
	long long before, after;
	struct aie_row r;
	int n, nt, i, all;

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc192 1"));
	before = aie_sum_rows(one, NULL);
	all = walk(self->fd, NULL, NULL, 0);
	after = aie_sum_rows(one, NULL);
	EXPECT_LE(before, all);
	EXPECT_GE(after, all);
	ASSERT_EQ(0, ioc(self->fd, AIE_IOC_GET_NEXT, &d));
	ASSERT_EQ(0, get_at(self->fd, 0, NULL, &first));
	EXPECT_STREQ(first.tag.function, d.tag.function);

	n = walk(self->fd, &f, rows, MAX_ROWS);
	nt = text_helper_funcs(text, MAX_ROWS);
	ASSERT_EQ(nt, n);
	ASSERT_GE(MAX_ROWS, n);
	for (i = 0; i < n; i++) {
		EXPECT_STREQ("aie_helper", rows[i].tag.modname);
		memcpy(got[i], rows[i].tag.function, AIE_IOC_STR_SIZE);
	}
	qsort(got, n, AIE_IOC_STR_SIZE, cmp_name);
	for (i = 0; i < n; i++)
		EXPECT_STREQ(text[i], got[i]);

	for (i = 0; i < n && strcmp(rows[i].tag.function, KM96); i++)
		;
	ASSERT_GT(n, i);
	ASSERT_EQ(1, aie_row_get("aie_helper", KM96, &r));
	EXPECT_EQ(3ULL, rows[i].counter.calls);
	EXPECT_EQ(3ULL * self->km96, rows[i].counter.bytes);
	EXPECT_EQ(r.calls, rows[i].counter.calls);
	EXPECT_EQ((unsigned long long)r.bytes, rows[i].counter.bytes);
	EXPECT_EQ(1, rows[i].counter.accurate);
	EXPECT_FALSE(r.inaccurate);
	EXPECT_STREQ("", rows[i].tag.filename);
	EXPECT_EQ(0ULL, rows[i].tag.lineno);
}

/* Each filter alone, then together. */
TEST_F(ioctl, filters)
{
	struct allocinfo_ext_filter f;
	struct allocinfo_ext_tag_data d;
	char sel[300], cmd[400], *slash;
	struct aie_row r;
	int n, i;

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc192 1"));

	/* Function alone: the one row, whatever the module. */
	memset(&f, 0, sizeof(f));
	f.mask = AIE_IOC_FILTER_FUNCTION;
	set_str(f.fields.function, KM96);
	ASSERT_EQ(1, only_row(self->fd, &f, &d));
	EXPECT_STREQ(KM96, d.tag.function);
	EXPECT_STREQ("aie_helper", d.tag.modname);
	EXPECT_EQ(3ULL, d.counter.calls);

	/* Module alone: only the helper's rows. */
	f = helper_filter(0);
	n = walk(self->fd, &f, NULL, 0);
	EXPECT_EQ(aie_count_rows("aie_helper"), n);
	/* Built-in code: module "". */
	set_str(f.fields.modname, "");
	ASSERT_EQ(0, get_at(self->fd, 0, &f, &d));
	EXPECT_STREQ("", d.tag.modname);
	for (i = 0; i < 50 && !ioc(self->fd, AIE_IOC_GET_NEXT, &d); i++)
		EXPECT_STREQ("", d.tag.modname);

	/* Size: min and max alone, then both. */
	f = helper_filter(AIE_IOC_FILTER_MIN_SIZE);
	f.min_size = 3 * self->km96;
	n = walk(self->fd, &f, NULL, 0);
	EXPECT_LE(1, n);
	f = helper_filter(AIE_IOC_FILTER_FUNCTION | AIE_IOC_FILTER_MIN_SIZE);
	set_str(f.fields.function, KM96);
	f.min_size = 3 * self->km96 + 1;
	EXPECT_EQ(0, only_row(self->fd, &f, &d));
	f = helper_filter(AIE_IOC_FILTER_FUNCTION | AIE_IOC_FILTER_MAX_SIZE);
	set_str(f.fields.function, KM96);
	f.max_size = 3 * self->km96 - 1;
	EXPECT_EQ(0, only_row(self->fd, &f, &d));
	f.max_size = 3 * self->km96;
	EXPECT_EQ(1, only_row(self->fd, &f, &d));
	f = helper_filter(AIE_IOC_FILTER_MIN_SIZE | AIE_IOC_FILTER_MAX_SIZE);
	f.min_size = 3 * self->km96;
	f.max_size = 3 * self->km96;
	n = walk(self->fd, &f, NULL, 0);
	EXPECT_LE(1, n);
	ASSERT_EQ(0, get_at(self->fd, 0, &f, &d));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(3ULL * self->km96, d.counter.bytes);
		if (i + 1 < n)
			ASSERT_EQ(0, ioc(self->fd, AIE_IOC_GET_NEXT, &d));
	}
	/* Rows of 0 bytes and rows of 1 or more: every row, once. */
	f.min_size = 0;
	f.max_size = 0;
	n = walk(self->fd, &f, NULL, 0);
	f = helper_filter(AIE_IOC_FILTER_MIN_SIZE);
	f.min_size = 1;
	EXPECT_EQ(aie_count_rows("aie_helper"),
		  n + walk(self->fd, &f, NULL, 0));

	/* Accuracy: every helper row is exact here. */
	f = helper_filter(AIE_IOC_FILTER_INACCURATE);
	f.inaccurate = 1;
	EXPECT_EQ(0, walk(self->fd, &f, NULL, 0));
	f.inaccurate = 0;
	EXPECT_EQ(aie_count_rows("aie_helper"), walk(self->fd, &f, NULL, 0));

	/* File and line, once the site is located. */
	ASSERT_EQ(1, aie_row_get("aie_helper", KM96, &r));
	slash = strchr(r.location, '/');
	ASSERT_NE(NULL, slash);
	snprintf(sel, sizeof(sel), "%.*s", (int)(slash - r.location),
		 r.location);
	snprintf(cmd, sizeof(cmd), "locate %s lib/aie_ioctl_test.c:4242", sel);
	ASSERT_EQ(0, aie_ctl(cmd));
	memset(&f, 0, sizeof(f));
	f.mask = AIE_IOC_FILTER_FILENAME;
	set_str(f.fields.filename, "lib/aie_ioctl_test.c");
	ASSERT_EQ(1, only_row(self->fd, &f, &d));
	EXPECT_STREQ(KM96, d.tag.function);
	EXPECT_EQ(4242ULL, d.tag.lineno);
	f.mask = AIE_IOC_FILTER_LINENO;
	f.fields.lineno = 4242;
	ASSERT_EQ(1, only_row(self->fd, &f, &d));
	EXPECT_STREQ(KM96, d.tag.function);
	EXPECT_STREQ("lib/aie_ioctl_test.c", d.tag.filename);

	/* All together. */
	f = helper_filter(AIE_IOC_FILTER_FUNCTION | AIE_IOC_FILTER_FILENAME |
			  AIE_IOC_FILTER_LINENO | AIE_IOC_FILTER_INACCURATE |
			  AIE_IOC_FILTER_MIN_SIZE | AIE_IOC_FILTER_MAX_SIZE);
	set_str(f.fields.function, KM96);
	set_str(f.fields.filename, "lib/aie_ioctl_test.c");
	f.fields.lineno = 4242;
	f.min_size = 3 * self->km96;
	f.max_size = 3 * self->km96;
	ASSERT_EQ(1, only_row(self->fd, &f, &d));
	EXPECT_EQ(3ULL, d.counter.calls);
	f.fields.lineno = 4243;
	EXPECT_EQ(0, only_row(self->fd, &f, &d));
	f.fields.lineno = 4242;
	set_str(f.fields.modname, "aie_helpe");
	EXPECT_EQ(0, only_row(self->fd, &f, &d));
}

/* Rows of the loaded helper whose accurate:no is @arg (a bool). */
static long long helper_inaccurate(const struct aie_row *row, const void *arg)
{
	return !strcmp(row->module, "aie_helper") && !row->unloaded &&
	       row->inaccurate == *(const bool *)arg;
}

/*
 * A full object map (other allocations fill it at once; the slab map
 * off, which would take the slab objects): the site that lost
 * allocations says accurate:no in the text and accurate 0 in the ioctl,
 * the inaccurate filter finds it, and the text and the filter agree on
 * every row of the helper's. Sites that lost nothing stay exact
 * (the other tests: every helper row exact with a map that has room).
 */
TEST_F(ioctl, inaccurate)
{
	struct allocinfo_ext_filter f;
	struct allocinfo_ext_tag_data d;
	bool yes = true, no = false;
	struct aie_row r;

	close(self->fd);
	aie_teardown();
	ASSERT_EQ(0, aie_setup("max_objects=256 slabmap=0"));
	self->fd = open(AIE_PROC, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, aie_helper("alloc kmalloc192 1"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 1000"));
	ASSERT_LT(0, aie_stat("untracked"));
	ASSERT_EQ(1, aie_row_get("aie_helper", KM96, &r));
	EXPECT_TRUE(r.inaccurate);
	EXPECT_GE(224ULL, r.calls);

	f = helper_filter(AIE_IOC_FILTER_FUNCTION);
	set_str(f.fields.function, KM96);
	ASSERT_EQ(1, only_row(self->fd, &f, &d));
	EXPECT_EQ(0, d.counter.accurate);
	EXPECT_EQ(r.calls, d.counter.calls);
	f.mask |= AIE_IOC_FILTER_INACCURATE;
	f.inaccurate = 1;
	EXPECT_EQ(1, only_row(self->fd, &f, &d));
	f.inaccurate = 0;
	EXPECT_EQ(0, only_row(self->fd, &f, &d));

	f = helper_filter(AIE_IOC_FILTER_INACCURATE);
	f.inaccurate = 1;
	EXPECT_EQ(aie_sum_rows(helper_inaccurate, &yes),
		  walk(self->fd, &f, NULL, 0));
	f.inaccurate = 0;
	EXPECT_EQ(aie_sum_rows(helper_inaccurate, &no),
		  walk(self->fd, &f, NULL, 0));
	EXPECT_EQ(aie_count_rows("aie_helper"),
		  aie_sum_rows(helper_inaccurate, &yes) +
		  aie_sum_rows(helper_inaccurate, &no));

	/* Still inexact after a reset: the lost objects may be live. */
	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(0, aie_ctl("reset"));
	ASSERT_EQ(1, aie_row_get("aie_helper", KM96, &r));
	EXPECT_TRUE(r.inaccurate);
}

/*
 * Bad arguments: -EINVAL, -EFAULT, -ENOTTY, and the iterator survives; a
 * file not opened for reading: -EBADF.
 */
TEST_F(ioctl, errors)
{
	struct allocinfo_ext_filter f;
	struct allocinfo_ext_tag_data d;
	void *bad = (void *)8;
	int wfd;

	memset(&f, 0, sizeof(f));
	f.mask = AIE_IOC_FILTER_MASKS + 1;
	EXPECT_EQ(-EINVAL, get_at(self->fd, 0, &f, &d));
	f.mask = 1ULL << 63;
	EXPECT_EQ(-EINVAL, get_at(self->fd, 0, &f, &d));
	f.mask = AIE_IOC_FILTER_MIN_SIZE | AIE_IOC_FILTER_MAX_SIZE;
	f.min_size = 2;
	f.max_size = 1;
	EXPECT_EQ(-EINVAL, get_at(self->fd, 0, &f, &d));

	EXPECT_EQ(-EFAULT, ioc(self->fd, AIE_IOC_CONTENT_ID, bad));
	EXPECT_EQ(-EFAULT, ioc(self->fd, AIE_IOC_GET_AT, bad));
	EXPECT_EQ(-EFAULT, ioc(self->fd, AIE_IOC_GET_NEXT, bad));
	EXPECT_EQ(-EFAULT, ioc(self->fd, AIE_IOC_GET_AT, NULL));
	EXPECT_EQ(-ENOTTY, ioc(self->fd, _IOR(AIE_IOC_BASE, 3, __u64), &d));
	EXPECT_EQ(-ENOTTY, ioc(self->fd, _IOR('x', 0, __u64), &d));

	/* None of that moved the iterator off a working state. */
	f = helper_filter(0);
	EXPECT_EQ(aie_count_rows("aie_helper"), walk(self->fd, &f, NULL, 0));

	wfd = open(AIE_PROC, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, wfd);
	EXPECT_EQ(-EBADF, ioc(wfd, AIE_IOC_GET_NEXT, &d));
	close(wfd);
}

TEST_HARNESS_MAIN
