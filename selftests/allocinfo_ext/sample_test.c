// SPDX-License-Identifier: GPL-2.0
/*
 * sample_test - "sample <bytes>": the control word and the module
 * parameter, allocations at least the interval tracked exactly, smaller
 * ones weighted so that their estimates come out within bounds far
 * outside the sampling noise, and every weight taken back exactly on free.
 */
#include <errno.h>
#include <math.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

#define HELPER	"aie_helper"
#define K96	"aie_helper_kmalloc_96"

FIXTURE(sample) {
};

FIXTURE_SETUP(sample)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
}

FIXTURE_TEARDOWN(sample)
{
	aie_teardown();
}

static struct aie_row row(const char *func)
{
	struct aie_row r = { 0 };

	aie_row_get(HELPER, func, &r);
	return r;
}

TEST_F(sample, control_word)
{
	EXPECT_EQ(0LL, aie_stat("sample"));
	/* Nothing counted down with every allocation tracked. */
	EXPECT_EQ(0LL, aie_stat("sample_seen_bytes"));
	EXPECT_EQ(0, aie_ctl("sample 1024"));
	EXPECT_EQ(1024LL, aie_stat("sample"));
	EXPECT_EQ(0, aie_ctl("sample 1073741824\n"));
	EXPECT_EQ(1073741824LL, aie_stat("sample"));
	EXPECT_EQ(-EINVAL, aie_ctl("sample 1073741825"));
	EXPECT_EQ(-EINVAL, aie_ctl("sample"));
	EXPECT_EQ(-EINVAL, aie_ctl("sample -1"));
	EXPECT_EQ(-EINVAL, aie_ctl("sample 01"));
	EXPECT_EQ(-EINVAL, aie_ctl("sample 1k"));
	EXPECT_EQ(-EINVAL, aie_ctl("sample 1 2"));
	EXPECT_EQ(1073741824LL, aie_stat("sample"));
	EXPECT_EQ(0, aie_ctl("sample 0"));
	EXPECT_EQ(0LL, aie_stat("sample"));
}

/* An allocation of at least the interval is always tracked, weight 1. */
TEST_F(sample, large_allocations_exact)
{
	long long slot = aie_kmalloc_slot(96);

	ASSERT_EQ(0, aie_ctl("sample 96"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 300"));
	/* the peak, which a read raises to what it reads (counters.c) */
	EXPECT_ROW(K96, "slab", 300, 300 * slot, 300 * (slot - 96), 300,
		   300 * slot, 300 * slot, 0);
	ASSERT_EQ(0, aie_helper("free kmalloc96 100"));
	EXPECT_ROW(K96, "slab", 200, 200 * slot, 200 * (slot - 96), 300,
		   300 * slot, 300 * slot, 0);
}

/*
 * 96-byte objects sampled once per 1 KiB: 6 rounds of 4,000 allocations
 * and frees put about 2,250 sample points in the total. The estimate of
 * the total has a relative standard deviation of about 2.1%; the test
 * allows 10%, 4.7 of them. The live estimate after one round of 4,000 (about 375 points,
 * deviation about 5%) is allowed 35%. Every free takes back exactly what
 * its allocation charged: nothing is left at the end. (Other sites of
 * the kernel are sampled meanwhile too: weighted_objects need not come
 * back to 0.)
 */
/* Slow under KASAN and kmemleak: more than the harness's default 30 s. */
TEST_F_TIMEOUT(sample, estimates_and_exact_uncharge, 300)
{
	long long slot = aie_kmalloc_slot(96), n = 4000, rounds = 6, i;
	struct aie_row r;
	double err;

	ASSERT_EQ(0, aie_ctl("sample 1024"));
	for (i = 0; i < rounds; i++) {
		ASSERT_EQ(0, aie_helper("alloc kmalloc96 %lld", n));
		if (i == rounds - 1)
			break;
		ASSERT_EQ(0, aie_helper("free kmalloc96 %lld", n));
	}
	r = row(K96);
	err = fabs((double)r.bytes / (n * slot) - 1);
	TH_LOG("live: %lld calls, %lld bytes for %lld, %lld: error %.1f%%",
	       (long long)r.calls, r.bytes, n, n * slot, 100 * err);
	EXPECT_LT(err, 0.35);
	EXPECT_EQ(r.bytes, (long long)r.calls * slot);
	err = fabs((double)r.total_calls / (n * rounds) - 1);
	TH_LOG("total: %lld calls for %lld: error %.1f%%", r.total_calls,
	       n * rounds, 100 * err);
	EXPECT_LT(err, 0.10);
	EXPECT_LT(0LL, aie_stat("sampled"));
	/* The countdown counted at least the helper's bytes. */
	EXPECT_LE(n * rounds * slot, aie_stat("sample_seen_bytes"));
	EXPECT_LT(0LL, aie_stat("weighted_objects"));

	/* A new interval leaves the old weights with their objects. */
	ASSERT_EQ(0, aie_ctl("sample 0"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 10"));
	ASSERT_EQ(0, aie_helper("free kmalloc96 %lld", n + 10));
	r = row(K96);
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(0LL, r.bytes);
	EXPECT_EQ(0LL, r.slack);
}

/* Slack is weighted as bytes are: a 97-byte request in a 128-byte slot. */
TEST_F(sample, slack_follows_weight)
{
	long long slot = aie_kmalloc_slot(128);
	struct aie_row r;

	ASSERT_EQ(0, aie_ctl("sample 512"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 4096"));
	r = row("aie_helper_kmalloc_97");
	EXPECT_LT(0ULL, r.calls);
	EXPECT_EQ(r.bytes, (long long)r.calls * slot);
	EXPECT_EQ(r.slack, (long long)r.calls * (slot - 97));
	ASSERT_EQ(0, aie_helper("free kmalloc97 4096"));
	r = row("aie_helper_kmalloc_97");
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(0LL, r.bytes);
	EXPECT_EQ(0LL, r.slack);
}

/* The module parameter sets the interval at load. */
TEST(sample_parameter)
{
	if (aie_setup_or_skip(_metadata, "sample=4096"))
		return;
	EXPECT_EQ(4096LL, aie_stat("sample"));
	aie_teardown();
	EXPECT_NE(0, aie_load(AIE_MODULE_KO, "sample=1073741825"));
	EXPECT_FALSE(aie_module_loaded("allocinfo_ext"));
}

TEST_HARNESS_MAIN
