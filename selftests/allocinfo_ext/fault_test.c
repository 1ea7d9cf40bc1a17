// SPDX-License-Identifier: GPL-2.0
/*
 * fault_test - allocations that fault injection makes fail land in
 * failed:, never in the live figures (kernels with CONFIG_FAILSLAB and
 * CONFIG_FAIL_PAGE_ALLOC; skipped elsewhere): slab, vmalloc and percpu.
 * Pages failed that way are not seen at all.
 *
 * Failures are aimed at this task alone (task-filter, make-it-fail), and
 * for slab at one cache (cache-filter), for pages at orders of 2 and more,
 * so that every injected failure is one of the helper's. vmalloc and
 * percpu take order-0 pages (with __GFP_HIGHMEM, which fail_page_alloc
 * spares by default): there the helper sets make-it-fail around its own
 * call only ("inject"), so that neither the write that carries the command
 * nor this program's page faults can fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
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

/* Fail order-0 and highmem page allocations too (vmalloc, percpu). */
static int arm_all_pages(void)
{
	return put(FAIL_PAGE "min-order", "0") ?:
	       put(FAIL_PAGE "ignore-gfp-highmem", "N") ?:
	       arm(FAIL_PAGE, "-1");
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
	if (aie_skip_missing(_metadata))
		return;
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
		put(FAIL_PAGE "ignore-gfp-highmem", "Y");
		put(FAIL_PAGE "min-order", "1");
		put("/sys/kernel/slab/aie_helper_obj/failslab", "0");
	}
	aie_teardown();
}

/* "alloc cache <n>" with every allocation from the helper's cache failed. */
static int fail_cache_allocs(int n)
{
	int ret;

	ret = put(FAILSLAB "cache-filter", "Y") ?:
	      put("/sys/kernel/slab/aie_helper_obj/failslab", "1") ?:
	      arm(FAILSLAB, "-1") ?:
	      put("/proc/self/make-it-fail", "1") ?:
	      aie_helper("alloc cache %d", n);
	disarm(FAILSLAB);
	return ret;
}

TEST_F(fault, failslab_counts_as_failed)
{
	long long slot = aie_helper_cache_bytes();

	ASSERT_LT(0, slot);
	ASSERT_EQ(0, fail_cache_allocs(6));

	EXPECT_ROW("aie_helper_cache_alloc", "slab", 0, 0, 0, 0, 0, 0, 6);
	ASSERT_EQ(0, aie_helper("alloc cache 2"));
	EXPECT_ROW("aie_helper_cache_alloc", "slab", 2, 2 * slot,
		   2 * (slot - 200), 2, 2 * slot, 2 * slot, 6);
}

/*
 * Sampling does not sample failures: with one sample per 1 KiB, six failed
 * allocations of a 200-byte object are six in failed:, exactly.
 */
TEST_F(fault, failslab_counts_exactly_under_sampling)
{
	struct aie_row r = { 0 };

	ASSERT_EQ(0, aie_ctl("sample 1024"));
	ASSERT_EQ(0, fail_cache_allocs(6));

	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_cache_alloc", &r));
	EXPECT_EQ(6LL, r.failed);
	EXPECT_EQ(0ULL, r.calls);
}

/*
 * fail_page_alloc fails a block before __alloc_pages() starts its work,
 * and so before the tracepoint the page hooks read: those failures are not
 * seen (Documentation/limitations.rst), and leave nothing behind. The
 * site's next block counts as any other. mm_test's pages_failed covers the
 * failures the allocator itself reports.
 */
TEST_F(fault, fail_page_alloc_unseen)
{
	long long block = sysconf(_SC_PAGESIZE) << 5;

	ASSERT_EQ(0, put(FAIL_PAGE "min-order", "2"));
	ASSERT_EQ(0, arm(FAIL_PAGE, "-1"));
	ASSERT_EQ(0, put("/proc/self/make-it-fail", "1"));
	ASSERT_EQ(0, aie_helper("alloc pages5 3"));
	disarm(FAIL_PAGE);

	ASSERT_EQ(0, aie_helper("alloc pages5 1"));
	EXPECT_ROW("aie_helper_pages5", "page", 1, block, 0, 1, block, block, 0);
}

/* vmalloc's pages cannot be had: every call fails, counted at its caller. */
TEST_F(fault, vmalloc_failure_counts_as_failed)
{
	long long b = 3 * sysconf(_SC_PAGESIZE);

	ASSERT_EQ(0, arm_all_pages());
	ASSERT_EQ(0, aie_helper("inject vmalloc_nowarn 3"));
	disarm(FAIL_PAGE);
	ASSERT_EQ(0, aie_helper_held("vmalloc_nowarn"));

	EXPECT_ROW("aie_helper_vmalloc_nowarn", "vmalloc", 0, 0, 0, 0, 0, 0, 3);
	ASSERT_EQ(0, aie_helper("alloc vmalloc_nowarn 1"));
	EXPECT_ROW("aie_helper_vmalloc_nowarn", "vmalloc", 1, b, 0, 1, b, b, 3);
}

/*
 * 32 KiB per CPU, the largest percpu allocation: one that needs pages
 * populated fails, one that finds them populated succeeds. Four need 32
 * pages per CPU, more than the allocator keeps populated ahead (4), so
 * some fail; every one that fails is counted, and no other.
 */
TEST_F(fault, percpu_failure_counts_as_failed)
{
	long long cpus = aie_possible_cpus(), b = 32768 * cpus, held;

	if (!aie_stat_present("percpu_fail_hook"))
		SKIP(return, "percpu failures are not hooked on this kernel");
	ASSERT_LT(0, cpus);
	ASSERT_EQ(0, arm_all_pages());
	ASSERT_EQ(0, aie_helper("inject percpu_big 4"));
	disarm(FAIL_PAGE);
	held = aie_helper_held("percpu_big");
	ASSERT_LE(0, held);
	ASSERT_GT(4, held) TH_LOG("no percpu allocation failed");

	EXPECT_ROW("aie_helper_percpu_big", "percpu", held, held * b, 0, held,
		   held * b, held * b, 4 - held);
	ASSERT_EQ(0, aie_helper("free percpu_big %lld", held));
	EXPECT_ROW("aie_helper_percpu_big", "percpu", 0, 0, 0, held, held * b,
		   held * b, 4 - held);
}

TEST_HARNESS_MAIN
