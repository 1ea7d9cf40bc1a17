// SPDX-License-Identifier: GPL-2.0
/*
 * callers_test - allocations made through helpers that hide their caller
 * (kvmalloc and friends) are charged to the function that called the
 * helper, as /proc/allocinfo does with alloc_hooks(): one variant per
 * helper, each with the exact slot size its request takes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

FIXTURE(callers) {
};

/* @kind of the helper module, its function, bytes asked, kmalloc bucket. */
FIXTURE_VARIANT(callers) {
	const char *kind, *func;
	long long req, bucket;
};

FIXTURE_VARIANT_ADD(callers, kvmalloc) {
	.kind = "kvmalloc100",
	.func = "aie_helper_kvmalloc_100",
	.req = 100,
	.bucket = 128,
};

FIXTURE_VARIANT_ADD(callers, kvzalloc) {
	.kind = "kvzalloc300",
	.func = "aie_helper_kvzalloc_300",
	.req = 300,
	.bucket = 512,
};

FIXTURE_VARIANT_ADD(callers, kvcalloc) {
	.kind = "kvcalloc300",
	.func = "aie_helper_kvcalloc_10x30",
	.req = 300,
	.bucket = 512,
};

FIXTURE_VARIANT_ADD(callers, kvmalloc_array) {
	.kind = "kvmalloc_array140",
	.func = "aie_helper_kvmalloc_array_7x20",
	.req = 140,
	.bucket = 192,
};

FIXTURE_VARIANT_ADD(callers, kvmemdup) {
	.kind = "kvmemdup100",
	.func = "aie_helper_kvmemdup_100",
	.req = 100,
	.bucket = 128,
};

FIXTURE_VARIANT_ADD(callers, kvrealloc) {
	.kind = "kvrealloc200",
	.func = "aie_helper_kvrealloc_200",
	.req = 200,
	.bucket = 256,
};

FIXTURE_VARIANT_ADD(callers, vmemdup_user) {
	.kind = "vmemdup_user16",
	.func = "aie_helper_vmemdup_user_16",
	.req = 16,
	.bucket = 16,
};

FIXTURE_VARIANT_ADD(callers, kmemdup_array) {
	.kind = "kmemdup_array100",
	.func = "aie_helper_kmemdup_array_5x20",
	.req = 100,
	.bucket = 128,
};

FIXTURE_VARIANT_ADD(callers, kstrdup_const) {
	.kind = "kstrdup_const",
	.func = "aie_helper_kstrdup_const",
	.req = 41,
	.bucket = 64,
};

/* strndup_user copies "alloc strndup_user 3" and its NUL: 21 bytes */
FIXTURE_VARIANT_ADD(callers, strndup_user) {
	.kind = "strndup_user",
	.func = "aie_helper_strndup_user",
	.req = 21,
	.bucket = 32,
};

FIXTURE_SETUP(callers)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
}

FIXTURE_TEARDOWN(callers)
{
	aie_teardown();
}

/* "alloc <kind> 3", with the NUL strndup_user() stops at. */
static int helper_alloc3(const char *kind)
{
	char cmd[64];
	int len = snprintf(cmd, sizeof(cmd), "alloc %s 3", kind);

	return aie_helper_raw(cmd, len + 1);
}

TEST_F(callers, charged_to_caller)
{
	long long fallbacks = aie_stat("helper_fallbacks");
	long long slot;
	int ret;

	slot = aie_kmalloc_slot(variant->bucket);
	ASSERT_LT(0, slot);
	ret = helper_alloc3(variant->kind);
	if (ret == -EOPNOTSUPP)
		SKIP(return, "%s: not in this kernel", variant->kind);
	ASSERT_EQ(0, ret);
	EXPECT_ROW(variant->func, "slab", 3, 3 * slot, 3 * (slot - variant->req),
		   3, 3 * slot, 3 * slot, 0);
	EXPECT_EQ(fallbacks, aie_stat("helper_fallbacks"));
	ASSERT_EQ(0, aie_helper("free %s 3", variant->kind));
	EXPECT_ROW(variant->func, "slab", 0, 0, 0, 3, 3 * slot, 3 * slot, 0);
}

/*
 * kvmalloc() of 8 MiB: its kmalloc attempt fails (above the largest
 * order) and it falls back to vmalloc. Both are charged to the caller:
 * one failure on its slab row, the area on its vmalloc row. The area's
 * array of 2048 page pointers (16 KiB, more than a page) is vmalloc()ed
 * by __vmalloc_area_node() with the area's caller, so it is the caller's
 * too, as the in-kernel profiler has it: two vmalloc calls per kvmalloc.
 */
FIXTURE(kvmalloc_fallback) {
};

FIXTURE_SETUP(kvmalloc_fallback)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
}

FIXTURE_TEARDOWN(kvmalloc_fallback)
{
	aie_teardown();
}

TEST_F(kvmalloc_fallback, both_rows_at_caller)
{
	long long page = sysconf(_SC_PAGESIZE);
	long long area = 8LL << 20, array = area / page * sizeof(void *);
	long long b = area + array;

	ASSERT_LT(page, array);
	ASSERT_EQ(0, aie_helper("alloc kvmalloc8m 2"));
	EXPECT_ROW("aie_helper_kvmalloc_8m", "vmalloc", 4, 2 * b, 0, 4, 2 * b,
		   2 * b, 0);
	EXPECT_ROW("aie_helper_kvmalloc_8m", "slab", 0, 0, 0, 0, 0, 0, 2);
	ASSERT_EQ(0, aie_helper("free kvmalloc8m 2"));
	EXPECT_ROW("aie_helper_kvmalloc_8m", "vmalloc", 0, 0, 0, 4, 2 * b,
		   2 * b, 0);
}

/*
 * Frees through krealloc() and kfree_sensitive() match by pointer: the
 * object krealloc() replaces leaves its own site's live figures, the new
 * one is charged to krealloc()'s caller.
 */
TEST_F(kvmalloc_fallback, krealloc_and_kfree_sensitive)
{
	long long s64 = aie_kmalloc_slot(64);
	long long s96 = aie_kmalloc_slot(96);
	long long s512 = aie_kmalloc_slot(512);

	ASSERT_EQ(0, aie_helper("alloc krealloc500 3"));
	/* each source object is freed at once: one held at a time */
	EXPECT_ROW("aie_helper_krealloc_src", "slab", 0, 0, 0, 3, 3 * s64, s64,
		   0);
	EXPECT_ROW("aie_helper_krealloc_500", "slab", 3, 3 * s512,
		   3 * (s512 - 500), 3, 3 * s512, 3 * s512, 0);
	ASSERT_EQ(0, aie_helper("free krealloc500 3"));
	EXPECT_ROW("aie_helper_krealloc_500", "slab", 0, 0, 0, 3, 3 * s512,
		   3 * s512, 0);

	ASSERT_EQ(0, aie_helper("alloc kfree_sensitive96 4"));
	ASSERT_EQ(0, aie_helper("free kfree_sensitive96 4"));
	EXPECT_ROW("aie_helper_kmalloc_sensitive_96", "slab", 0, 0, 0, 4,
		   4 * s96, 4 * s96, 0);
}

TEST_HARNESS_MAIN
