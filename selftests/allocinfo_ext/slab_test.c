// SPDX-License-Identifier: GPL-2.0
/*
 * slab_test - exact per-site figures for slab allocations: the helper
 * module allocates known sizes at known call sites, and every row must
 * show exactly the live calls, bytes, slack, totals and peak that follow.
 * Bytes per object are the cache's slot size, read from /sys/kernel/slab.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

#define HELPER	"aie_helper"

/* kmalloc-<bucket> serves a request of req bytes (x86_64, SLUB). */
static const struct {
	const char *kind, *func;
	long long req, bucket;
} kmallocs[] = {
	{ "kmalloc96", "aie_helper_kmalloc_96", 96, 96 },
	{ "kmalloc97", "aie_helper_kmalloc_97", 97, 128 },
	{ "kmalloc128", "aie_helper_kmalloc_128", 128, 128 },
	{ "kmalloc129", "aie_helper_kmalloc_129", 129, 192 },
	{ "kmalloc192", "aie_helper_kmalloc_192", 192, 192 },
	{ "kmalloc193", "aie_helper_kmalloc_193", 193, 256 },
	{ "kstrdup", "aie_helper_kstrdup", 41, 64 },	/* 40 chars + NUL */
	{ "kmemdup", "aie_helper_kmemdup", 100, 128 },
};

FIXTURE(slab) {
};

FIXTURE_SETUP(slab)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
}

FIXTURE_TEARDOWN(slab)
{
	aie_teardown();
}

TEST_F(slab, kmalloc_buckets)
{
	long long slot, req;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kmallocs); i++) {
		slot = aie_kmalloc_slot(kmallocs[i].bucket);
		req = kmallocs[i].req;
		ASSERT_LT(0, slot);
		TH_LOG("%s: %lld bytes in a %lld-byte slot", kmallocs[i].kind,
		       req, slot);

		ASSERT_EQ(0, aie_helper("alloc %s 5", kmallocs[i].kind));
		EXPECT_ROW(kmallocs[i].func, "slab", 5, 5 * slot, 5 * (slot - req),
			   5, 5 * slot, 5 * slot, 0);
		ASSERT_EQ(0, aie_helper("free %s 2", kmallocs[i].kind));
		EXPECT_ROW(kmallocs[i].func, "slab", 3, 3 * slot, 3 * (slot - req),
			   5, 5 * slot, 5 * slot, 0);
		ASSERT_EQ(0, aie_helper("free %s 3", kmallocs[i].kind));
		EXPECT_ROW(kmallocs[i].func, "slab", 0, 0, 0, 5, 5 * slot, 5 * slot, 0);
	}
}

TEST_F(slab, private_cache)
{
	long long slot = aie_helper_cache_bytes();
	long long size = aie_object_size("aie_helper_obj");

	ASSERT_EQ(200, size);
	ASSERT_LE(size, slot);
	ASSERT_GE(aie_slab_size("aie_helper_obj"), slot);
	if (slot == size)
		TH_LOG("debug or KASAN cache: ksize() gives the object size");
	else
		ASSERT_EQ(aie_slab_size("aie_helper_obj"), slot);
	ASSERT_EQ(0, aie_helper("alloc cache 7"));
	EXPECT_ROW("aie_helper_cache_alloc", "slab", 7, 7 * slot, 7 * (slot - size),
		   7, 7 * slot, 7 * slot, 0);
	ASSERT_EQ(0, aie_helper("free cache 7"));
	EXPECT_ROW("aie_helper_cache_alloc", "slab", 0, 0, 0, 7, 7 * slot, 7 * slot, 0);
}

/*
 * kmem_cache_alloc_bulk() and kmem_cache_free_bulk() fire no event: their
 * probes charge each object to the bulk call's caller, and take it back
 * whether it is freed in bulk or one at a time.
 */
TEST_F(slab, bulk_cache)
{
	long long slot = aie_helper_cache_bytes();
	long long size = aie_object_size("aie_helper_obj");

	ASSERT_EQ(200, size);
	ASSERT_LE(size, slot);
	ASSERT_EQ(0, aie_stat_is("bulk_alloc_hook", "present"));
	ASSERT_EQ(0, aie_helper("bulk 16"));
	ASSERT_EQ(0, aie_helper("bulk 3"));
	EXPECT_ROW("aie_helper_cache_bulk", "slab", 19, 19 * slot,
		   19 * (slot - size), 19, 19 * slot, 19 * slot, 0);
	ASSERT_EQ(0, aie_helper("bulkfree"));
	EXPECT_ROW("aie_helper_cache_bulk", "slab", 0, 0, 0, 19, 19 * slot,
		   19 * slot, 0);
	ASSERT_EQ(0, aie_helper("bulk 5"));
	EXPECT_ROW("aie_helper_cache_bulk", "slab", 5, 5 * slot,
		   5 * (slot - size), 24, 24 * slot, 19 * slot, 0);
	ASSERT_EQ(0, aie_helper("bulkfree each"));
	EXPECT_ROW("aie_helper_cache_bulk", "slab", 0, 0, 0, 24, 24 * slot,
		   19 * slot, 0);
	EXPECT_EQ(-EINVAL, aie_helper("bulk 65"));
}

/*
 * A cache destroyed, and another of another size created where its
 * kmem_cache was: the module keeps each cache's sizes by that address,
 * and must charge the new cache's objects its own. SLUB gives the freed
 * kmem_cache to the next creation on the same CPU as a rule; a few tries
 * find that case, which KASAN's quarantine of freed objects prevents.
 */
TEST_F(slab, cache_remade_at_its_address)
{
	long long slot_a, slot_b;
	struct aie_row before;
	int tries, reused = 0;

	for (tries = 0; tries < 8 && !reused; tries++) {
		ASSERT_EQ(0, aie_helper("remake 200"));
		/* Two misses that agree set the entry; hits follow. */
		ASSERT_EQ(0, aie_helper_remade(&slot_a, &reused));
		ASSERT_EQ(0, aie_helper("churn remade 4"));
		ASSERT_EQ(0, aie_helper("remake 1000"));
		ASSERT_EQ(0, aie_helper_remade(&slot_b, &reused));
	}
	if (!reused)
		SKIP(return, "no kmem_cache created where one was destroyed");
	TH_LOG("after %d tries: %lld-byte slots, then %lld-byte ones", tries,
	       slot_a, slot_b);
	ASSERT_LE(200, slot_a);
	ASSERT_LE(1000, slot_b);
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_remade_alloc",
				      "slab", &before));
	ASSERT_EQ(4 * tries, before.total_calls);
	ASSERT_EQ(4 * tries * slot_a, before.total_bytes);
	ASSERT_EQ(0, before.calls);
	ASSERT_EQ(0, aie_helper("alloc remade 5"));
	EXPECT_ROW("aie_helper_remade_alloc", "slab", 5, 5 * slot_b,
		   5 * (slot_b - 1000), before.total_calls + 5,
		   before.total_bytes + 5 * slot_b, 5 * slot_b, 0);
	ASSERT_EQ(0, aie_helper("free remade 5"));
	EXPECT_ROW("aie_helper_remade_alloc", "slab", 0, 0, 0,
		   before.total_calls + 5, before.total_bytes + 5 * slot_b, 5 * slot_b, 0);
}

/*
 * Above the largest kmalloc cache the page allocator serves the request:
 * 3 pages + 1 byte take an order-2 block. From 6.10 on, __kmalloc fires
 * the kmalloc event twice for it (the inner one from inside __kmalloc);
 * it must count once, at the caller.
 */
TEST_F(slab, large_kmalloc_counted_once)
{
	long long page = sysconf(_SC_PAGESIZE), req = 3 * page + 1;
	long long block = 4 * page;

	ASSERT_EQ(0, aie_helper("alloc large_const 3"));
	ASSERT_EQ(0, aie_helper("alloc large_var 3"));
	EXPECT_ROW("aie_helper_kmalloc_large_const", "slab", 3, 3 * block,
		   3 * (block - req), 3, 3 * block, 3 * block, 0);
	EXPECT_ROW("aie_helper_kmalloc_large_var", "slab", 3, 3 * block,
		   3 * (block - req), 3, 3 * block, 3 * block, 0);
	ASSERT_EQ(0, aie_helper("free all"));
	EXPECT_ROW("aie_helper_kmalloc_large_const", "slab", 0, 0, 0, 3, 3 * block,
		   3 * block, 0);
	EXPECT_ROW("aie_helper_kmalloc_large_var", "slab", 0, 0, 0, 3, 3 * block,
		   3 * block, 0);
}

TEST_F(slab, failed_allocations)
{
	ASSERT_EQ(0, aie_helper("alloc fail 4"));
	EXPECT_ROW("aie_helper_kmalloc_fail", "slab", 0, 0, 0, 0, 0, 0, 4);
}

TEST_F(slab, peak_and_totals)
{
	long long slot = aie_kmalloc_slot(96);

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 10"));
	ASSERT_EQ(0, aie_helper("free kmalloc96 6"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 2"));
	EXPECT_ROW("aie_helper_kmalloc_96", "slab", 6, 6 * slot, 6 * (slot - 96),
		   12, 12 * slot, 10 * slot, 0);
}

/*
 * After the helper frees everything, none of its sites holds anything: the
 * five kinds allocated here, and the control write's own buffer
 * (memdup_user_nul() in aie_helper_write()).
 */
TEST_F(slab, all_sites_zero_after_free)
{
	char *buf, *line, *save;
	struct aie_row r;
	int rows = 0;

	ASSERT_EQ(0, aie_helper("alloc kmalloc97 11"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc193 13"));
	ASSERT_EQ(0, aie_helper("alloc cache 17"));
	ASSERT_EQ(0, aie_helper("alloc kstrdup 19"));
	ASSERT_EQ(0, aie_helper("alloc large_var 2"));
	ASSERT_EQ(0, aie_helper("free all"));

	buf = aie_read_file(AIE_PROC);
	ASSERT_NE(NULL, buf);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (aie_row_parse(line, &r) || strcmp(r.module, HELPER))
			continue;
		rows++;
		EXPECT_EQ(0ULL, r.calls) TH_LOG("%s", line);
		EXPECT_EQ(0LL, r.bytes) TH_LOG("%s", line);
		EXPECT_EQ(0LL, r.slack) TH_LOG("%s", line);
	}
	free(buf);
	EXPECT_EQ(6, rows);
}

TEST_HARNESS_MAIN
