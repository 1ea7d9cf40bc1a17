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
#include <unistd.h>

#include <allocinfo_ext_ioctl.h>

#include "kselftest_harness.h"
#include "aie_ioctl.h"
#include "aie_util.h"
#include "aie_setup.h"

#define KM96	"aie_helper_kmalloc_96"
#define MAX_ROWS	256	/* the helper's rows, at most */

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
	if (aie_setup_or_skip(_metadata, NULL))
		return;
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
	high.filter = aie_helper_filter(AIE_IOC_FILTER_FUNCTION);
	aie_set_str(high.filter.fields.function, KM96);
	low = high;
	ASSERT_EQ(0, aie_ioc(self->fd, AIE_IOC_GET_AT, &high));
	EXPECT_STREQ(KM96, high.data.tag.function);
	EXPECT_EQ(3ULL, high.data.counter.calls);
	EXPECT_EQ(3ULL * self->km96, high.data.counter.bytes);
	ASSERT_EQ(0, aie_ioc(self->fd, AIE_IOC_GET_AT, &low));
	EXPECT_EQ(0, memcmp(&high.data, &low.data, sizeof(high.data)));
}

/*
 * The id stays while nothing happens (the helper's allocations add no
 * row it defines), and changes at a reset, and at each module unload and
 * load.
 */
TEST_F(ioctl, content_id)
{
	unsigned long long id = aie_content_id(self->fd), id2;

	ASSERT_NE(~0ULL, id);
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	EXPECT_EQ(id, aie_content_id(self->fd));
	EXPECT_EQ(id, aie_content_id(self->fd));

	ASSERT_EQ(0, aie_ctl("reset"));
	id2 = aie_content_id(self->fd);
	EXPECT_NE(id, id2);
	EXPECT_EQ(id2, aie_content_id(self->fd));

	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(0, aie_unload("aie_helper"));
	id = aie_content_id(self->fd);
	EXPECT_NE(id2, id);
	ASSERT_EQ(0, aie_load(AIE_HELPER_KO, NULL));
	id2 = aie_content_id(self->fd);
	EXPECT_NE(id, id2);
	EXPECT_EQ(id2, aie_content_id(self->fd));
}

/* "alloc <kind> 1", with the NUL strndup_user() stops at. */
static int helper_alloc1(const char *kind)
{
	char cmd[64];
	int len = snprintf(cmd, sizeof(cmd), "alloc %s 1", kind);

	return aie_helper_raw(cmd, len + 1);
}

/* The "<function>+0x<offset>" of a row's location, for "locate". */
static void row_sel(const struct aie_row *r, char *sel, size_t size)
{
	const char *slash = strchr(r->location, '/');

	snprintf(sel, size, "%.*s",
		 (int)(slash ? slash - r->location : 0), r->location);
}

/*
 * Rows that change between two walks change the id: a helper's site
 * charged for the first time, its row appearing before others, and a
 * row's name given by "locate". The table is made just large enough for
 * the sites of a fresh load and the helper's, then filled by 768 more
 * (the helper's "sites"): strndup_user()'s site, found through
 * aie_helper_strndup_user(), is there; its second caller,
 * aie_helper_strndup_user_b(), can get no site, so the allocation is
 * charged to strndup_user() itself (helper_fallbacks). The id stays the
 * same across a walk with no change.
 */
TEST(content_id_rows_change)
{
	struct allocinfo_ext_filter f;
	struct allocinfo_ext_tag_data d;
	unsigned long long id, id2;
	long long sites, full, fallbacks, bytes;
	char params[40], sel[300], cmd[400];
	struct aie_row r;
	int fd, n, n2;

	if (aie_skip_missing(_metadata))
		return;
	/* "alloc strndup_user_b 1" and its NUL: 23 bytes */
	bytes = aie_kmalloc_charge(23);
	ASSERT_LT(0, bytes);
	ASSERT_EQ(0, aie_setup(NULL));
	ASSERT_EQ(0, helper_alloc1("strndup_user"));
	sites = aie_stat("sites");
	ASSERT_LT(0, sites);
	aie_teardown();
	snprintf(params, sizeof(params), "max_sites=%lld", sites + 200);
	ASSERT_EQ(0, aie_setup(params));
	ASSERT_EQ(0, helper_alloc1("strndup_user"));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_strndup_user", &r));
	EXPECT_EQ(1ULL, r.calls);
	ASSERT_EQ(0, aie_row_get("", "strndup_user", &r));
	full = aie_stat("sites_full");
	ASSERT_EQ(0, aie_helper("sites 768"));
	ASSERT_LT(full, aie_stat("sites_full"));

	fd = open(AIE_PROC, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	id = aie_content_id(fd);
	ASSERT_EQ(0ULL, id >> 63);
	n = aie_walk(fd, NULL, NULL, 0);
	ASSERT_LT(0, n);
	EXPECT_EQ(id, aie_content_id(fd));

	fallbacks = aie_stat("helper_fallbacks");
	ASSERT_EQ(0, helper_alloc1("strndup_user_b"));
	EXPECT_EQ(fallbacks + 1, aie_stat("helper_fallbacks"));
	EXPECT_EQ(0, aie_row_get("aie_helper", "aie_helper_strndup_user_b",
				 &r));
	ASSERT_EQ(1, aie_row_get("", "strndup_user", &r));
	EXPECT_EQ(1ULL, r.calls);
	EXPECT_EQ(bytes, r.bytes);
	n2 = aie_walk(fd, NULL, NULL, 0);
	EXPECT_EQ(n + 1, n2);
	/* Its one row came before others: the last is not it. */
	memset(&f, 0, sizeof(f));
	f.mask = AIE_IOC_FILTER_FUNCTION | AIE_IOC_FILTER_MODNAME;
	aie_set_str(f.fields.function, "strndup_user");
	EXPECT_EQ(1, aie_walk(fd, &f, NULL, 0));
	ASSERT_EQ(0, aie_get_at(fd, n2 - 1, NULL, &d));
	EXPECT_STRNE("strndup_user", d.tag.function);
	id2 = aie_content_id(fd);
	EXPECT_NE(id, id2);
	ASSERT_EQ(0ULL, id2 >> 63);
	EXPECT_EQ(id2, aie_content_id(fd));

	/* A name given between two walks: the same rows, a new id. */
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_strndup_user", &r));
	row_sel(&r, sel, sizeof(sel));
	snprintf(cmd, sizeof(cmd), "locate %s lib/aie_content_id.c:77", sel);
	ASSERT_EQ(0, aie_ctl(cmd));
	EXPECT_EQ(n2, aie_walk(fd, NULL, NULL, 0));
	id = aie_content_id(fd);
	EXPECT_NE(id2, id);
	ASSERT_EQ(0ULL, id >> 63);
	EXPECT_EQ(id, aie_content_id(fd));
	memset(&f, 0, sizeof(f));
	f.mask = AIE_IOC_FILTER_FILENAME;
	aie_set_str(f.fields.filename, "lib/aie_content_id.c");
	EXPECT_EQ(1, aie_walk(fd, &f, NULL, 0));

	close(fd);
	ASSERT_EQ(0, aie_helper("free all"));
	aie_teardown();
}

/* GET_AT 0 is the first row, GET_NEXT's first; past the last: ENOENT. */
TEST_F(ioctl, get_at_bounds)
{
	struct allocinfo_ext_filter f = aie_helper_filter(0);
	struct allocinfo_ext_tag_data first, d;
	int fd2 = open(AIE_PROC, O_RDONLY | O_CLOEXEC), n;

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, aie_get_at(self->fd, 0, NULL, &first));
	EXPECT_NE('\0', first.tag.function[0]);
	/* A new file's GET_NEXT starts at row 0, with no filter. */
	ASSERT_EQ(0, aie_ioc(fd2, AIE_IOC_GET_NEXT, &d));
	EXPECT_STREQ(first.tag.function, d.tag.function);
	EXPECT_STREQ(first.tag.modname, d.tag.modname);
	close(fd2);

	n = aie_walk(self->fd, NULL, NULL, 0);
	ASSERT_LT(0, n);
	EXPECT_EQ(-ENOENT, aie_get_at(self->fd, n + 1000000, NULL, &d));
	EXPECT_EQ(-ENOENT, aie_get_at(self->fd, ~0ULL, NULL, &d));

	/* The helper's rows: n of them, and GET_AT n is past them. */
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	n = aie_walk(self->fd, &f, NULL, 0);
	ASSERT_EQ(aie_count_rows("aie_helper"), n);
	EXPECT_EQ(0, aie_get_at(self->fd, n - 1, &f, &d));
	EXPECT_STREQ("aie_helper", d.tag.modname);
	EXPECT_EQ(-ENOENT, aie_get_at(self->fd, n, &f, &d));
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
	struct allocinfo_ext_filter f = aie_helper_filter(0);
	struct allocinfo_ext_tag_data d, first;
	long long before, after;
	struct aie_row r;
	int n, nt, i, all;

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc192 1"));
	before = aie_sum_rows(one, NULL);
	all = aie_walk(self->fd, NULL, NULL, 0);
	after = aie_sum_rows(one, NULL);
	EXPECT_LE(before, all);
	EXPECT_GE(after, all);
	ASSERT_EQ(0, aie_ioc(self->fd, AIE_IOC_GET_NEXT, &d));
	ASSERT_EQ(0, aie_get_at(self->fd, 0, NULL, &first));
	EXPECT_STREQ(first.tag.function, d.tag.function);

	n = aie_walk(self->fd, &f, rows, MAX_ROWS);
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
	aie_set_str(f.fields.function, KM96);
	ASSERT_EQ(1, aie_only_row(self->fd, &f, &d));
	EXPECT_STREQ(KM96, d.tag.function);
	EXPECT_STREQ("aie_helper", d.tag.modname);
	EXPECT_EQ(3ULL, d.counter.calls);

	/* Module alone: only the helper's rows. */
	f = aie_helper_filter(0);
	n = aie_walk(self->fd, &f, NULL, 0);
	EXPECT_EQ(aie_count_rows("aie_helper"), n);
	/* Built-in code: module "". */
	aie_set_str(f.fields.modname, "");
	ASSERT_EQ(0, aie_get_at(self->fd, 0, &f, &d));
	EXPECT_STREQ("", d.tag.modname);
	for (i = 0; i < 50 && !aie_ioc(self->fd, AIE_IOC_GET_NEXT, &d); i++)
		EXPECT_STREQ("", d.tag.modname);

	/* Size: min and max alone, then both. */
	f = aie_helper_filter(AIE_IOC_FILTER_MIN_SIZE);
	f.min_size = 3 * self->km96;
	n = aie_walk(self->fd, &f, NULL, 0);
	EXPECT_LE(1, n);
	f = aie_helper_filter(AIE_IOC_FILTER_FUNCTION | AIE_IOC_FILTER_MIN_SIZE);
	aie_set_str(f.fields.function, KM96);
	f.min_size = 3 * self->km96 + 1;
	EXPECT_EQ(0, aie_only_row(self->fd, &f, &d));
	f = aie_helper_filter(AIE_IOC_FILTER_FUNCTION | AIE_IOC_FILTER_MAX_SIZE);
	aie_set_str(f.fields.function, KM96);
	f.max_size = 3 * self->km96 - 1;
	EXPECT_EQ(0, aie_only_row(self->fd, &f, &d));
	f.max_size = 3 * self->km96;
	EXPECT_EQ(1, aie_only_row(self->fd, &f, &d));
	f = aie_helper_filter(AIE_IOC_FILTER_MIN_SIZE | AIE_IOC_FILTER_MAX_SIZE);
	f.min_size = 3 * self->km96;
	f.max_size = 3 * self->km96;
	n = aie_walk(self->fd, &f, NULL, 0);
	EXPECT_LE(1, n);
	ASSERT_EQ(0, aie_get_at(self->fd, 0, &f, &d));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(3ULL * self->km96, d.counter.bytes);
		if (i + 1 < n)
			ASSERT_EQ(0, aie_ioc(self->fd, AIE_IOC_GET_NEXT, &d));
	}
	/* Rows of 0 bytes and rows of 1 or more: every row, once. */
	f.min_size = 0;
	f.max_size = 0;
	n = aie_walk(self->fd, &f, NULL, 0);
	f = aie_helper_filter(AIE_IOC_FILTER_MIN_SIZE);
	f.min_size = 1;
	EXPECT_EQ(aie_count_rows("aie_helper"),
		  n + aie_walk(self->fd, &f, NULL, 0));

	/* Accuracy: every helper row is exact here. */
	f = aie_helper_filter(AIE_IOC_FILTER_INACCURATE);
	f.inaccurate = 1;
	EXPECT_EQ(0, aie_walk(self->fd, &f, NULL, 0));
	f.inaccurate = 0;
	EXPECT_EQ(aie_count_rows("aie_helper"), aie_walk(self->fd, &f, NULL, 0));

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
	aie_set_str(f.fields.filename, "lib/aie_ioctl_test.c");
	ASSERT_EQ(1, aie_only_row(self->fd, &f, &d));
	EXPECT_STREQ(KM96, d.tag.function);
	EXPECT_EQ(4242ULL, d.tag.lineno);
	f.mask = AIE_IOC_FILTER_LINENO;
	f.fields.lineno = 4242;
	ASSERT_EQ(1, aie_only_row(self->fd, &f, &d));
	EXPECT_STREQ(KM96, d.tag.function);
	EXPECT_STREQ("lib/aie_ioctl_test.c", d.tag.filename);

	/* All together. */
	f = aie_helper_filter(AIE_IOC_FILTER_FUNCTION | AIE_IOC_FILTER_FILENAME |
			  AIE_IOC_FILTER_LINENO | AIE_IOC_FILTER_INACCURATE |
			  AIE_IOC_FILTER_MIN_SIZE | AIE_IOC_FILTER_MAX_SIZE);
	aie_set_str(f.fields.function, KM96);
	aie_set_str(f.fields.filename, "lib/aie_ioctl_test.c");
	f.fields.lineno = 4242;
	f.min_size = 3 * self->km96;
	f.max_size = 3 * self->km96;
	ASSERT_EQ(1, aie_only_row(self->fd, &f, &d));
	EXPECT_EQ(3ULL, d.counter.calls);
	f.fields.lineno = 4243;
	EXPECT_EQ(0, aie_only_row(self->fd, &f, &d));
	f.fields.lineno = 4242;
	aie_set_str(f.fields.modname, "aie_helpe");
	EXPECT_EQ(0, aie_only_row(self->fd, &f, &d));
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

	f = aie_helper_filter(AIE_IOC_FILTER_FUNCTION);
	aie_set_str(f.fields.function, KM96);
	ASSERT_EQ(1, aie_only_row(self->fd, &f, &d));
	EXPECT_EQ(0, d.counter.accurate);
	EXPECT_EQ(r.calls, d.counter.calls);
	f.mask |= AIE_IOC_FILTER_INACCURATE;
	f.inaccurate = 1;
	EXPECT_EQ(1, aie_only_row(self->fd, &f, &d));
	f.inaccurate = 0;
	EXPECT_EQ(0, aie_only_row(self->fd, &f, &d));

	f = aie_helper_filter(AIE_IOC_FILTER_INACCURATE);
	f.inaccurate = 1;
	EXPECT_EQ(aie_sum_rows(helper_inaccurate, &yes),
		  aie_walk(self->fd, &f, NULL, 0));
	f.inaccurate = 0;
	EXPECT_EQ(aie_sum_rows(helper_inaccurate, &no),
		  aie_walk(self->fd, &f, NULL, 0));
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
	EXPECT_EQ(-EINVAL, aie_get_at(self->fd, 0, &f, &d));
	f.mask = 1ULL << 63;
	EXPECT_EQ(-EINVAL, aie_get_at(self->fd, 0, &f, &d));
	f.mask = AIE_IOC_FILTER_MIN_SIZE | AIE_IOC_FILTER_MAX_SIZE;
	f.min_size = 2;
	f.max_size = 1;
	EXPECT_EQ(-EINVAL, aie_get_at(self->fd, 0, &f, &d));

	EXPECT_EQ(-EFAULT, aie_ioc(self->fd, AIE_IOC_CONTENT_ID, bad));
	EXPECT_EQ(-EFAULT, aie_ioc(self->fd, AIE_IOC_GET_AT, bad));
	EXPECT_EQ(-EFAULT, aie_ioc(self->fd, AIE_IOC_GET_NEXT, bad));
	EXPECT_EQ(-EFAULT, aie_ioc(self->fd, AIE_IOC_GET_AT, NULL));
	EXPECT_EQ(-ENOTTY, aie_ioc(self->fd, _IOR(AIE_IOC_BASE, 3, __u64), &d));
	EXPECT_EQ(-ENOTTY, aie_ioc(self->fd, _IOR('x', 0, __u64), &d));

	/* None of that moved the iterator off a working state. */
	f = aie_helper_filter(0);
	EXPECT_EQ(aie_count_rows("aie_helper"), aie_walk(self->fd, &f, NULL, 0));

	wfd = open(AIE_PROC, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, wfd);
	EXPECT_EQ(-EBADF, aie_ioc(wfd, AIE_IOC_GET_NEXT, &d));
	close(wfd);
}

TEST_HARNESS_MAIN
