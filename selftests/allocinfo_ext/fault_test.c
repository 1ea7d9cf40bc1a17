// SPDX-License-Identifier: GPL-2.0
/*
 * fault_test - allocations that fault injection makes fail land in
 * failed:, never in the live figures (kernels with CONFIG_FAILSLAB and
 * CONFIG_FAIL_PAGE_ALLOC; skipped elsewhere).
 *
 * Failures are aimed at this task alone (task-filter, make-it-fail), and
 * for slab at one cache (cache-filter), for pages at orders of 2 and more,
 * so that every injected failure is one of the helper's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_expect.h"

#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define FAIL_PAGE	"/sys/kernel/debug/fail_page_alloc/"

static int put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

/* Fail every call from this task, @times at most (-1: no limit). */
static int arm(const char *dir, const char *times)
{
	static const char * const knobs[][2] = {
		{ "probability", "100" }, { "interval", "1" },
		{ "verbose", "0" }, { "task-filter", "Y" },
		{ "ignore-gfp-wait", "N" },
	};
	char path[128];
	size_t i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(knobs) && !ret; i++) {
		snprintf(path, sizeof(path), "%s%s", dir, knobs[i][0]);
		ret = put(path, knobs[i][1]);
	}
	snprintf(path, sizeof(path), "%stimes", dir);
	return ret ?: put(path, times);
}

static void disarm(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%sprobability", dir);
	put(path, "0");
	put("/proc/self/make-it-fail", "0");
}

FIXTURE(fault) {
};

FIXTURE_SETUP(fault)
{
	if (geteuid())
		SKIP(return, "must be root");
	if (access(FAILSLAB, F_OK) || access(FAIL_PAGE, F_OK))
		SKIP(return, "no failslab or fail_page_alloc in this kernel");
	ASSERT_EQ(0, aie_setup(NULL));
}

FIXTURE_TEARDOWN(fault)
{
	if (!access(FAILSLAB, F_OK)) {
		disarm(FAILSLAB);
		disarm(FAIL_PAGE);
		put(FAILSLAB "cache-filter", "N");
		put("/sys/kernel/slab/aie_helper_obj/failslab", "0");
	}
	aie_teardown();
}

TEST_F(fault, failslab_counts_as_failed)
{
	long long slot = aie_helper_cache_bytes();

	ASSERT_LT(0, slot);
	ASSERT_EQ(0, put(FAILSLAB "cache-filter", "Y"));
	ASSERT_EQ(0, put("/sys/kernel/slab/aie_helper_obj/failslab", "1"));
	ASSERT_EQ(0, arm(FAILSLAB, "-1"));
	ASSERT_EQ(0, put("/proc/self/make-it-fail", "1"));
	ASSERT_EQ(0, aie_helper("alloc cache 6"));
	disarm(FAILSLAB);

	EXPECT_ROW("aie_helper_cache_alloc", "slab", 0, 0, 0, 0, 0, 0, 6);
	ASSERT_EQ(0, aie_helper("alloc cache 2"));
	EXPECT_ROW("aie_helper_cache_alloc", "slab", 2, 2 * slot,
		   2 * (slot - 200), 2, 2 * slot, 2 * slot, 6);
}

TEST_F(fault, fail_page_alloc_counts_as_failed)
{
	long long block = sysconf(_SC_PAGESIZE) << 5;

	ASSERT_EQ(0, put(FAIL_PAGE "min-order", "2"));
	ASSERT_EQ(0, arm(FAIL_PAGE, "-1"));
	ASSERT_EQ(0, put("/proc/self/make-it-fail", "1"));
	ASSERT_EQ(0, aie_helper("alloc pages5 3"));
	disarm(FAIL_PAGE);

	EXPECT_ROW("aie_helper_pages5", "page", 0, 0, 0, 0, 0, 0, 3);
	ASSERT_EQ(0, aie_helper("alloc pages5 1"));
	EXPECT_ROW("aie_helper_pages5", "page", 1, block, 0, 1, block, block, 3);
}

TEST_HARNESS_MAIN
