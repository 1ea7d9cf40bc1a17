// SPDX-License-Identifier: GPL-2.0
/*
 * load_test - loading and unloading leave no trace; bad parameters are
 * refused at load.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define MEM_PROFILING	"/proc/sys/vm/mem_profiling"

/* 1 for a row of the helper's __init code: all are retired. */
static long long init_rows(const struct aie_row *row, const void *arg)
{
	(void)arg;
	return !strcmp(row->module, "aie_helper") &&
	       !strcmp(row->func, "aie_helper_init_kmalloc") && row->unloaded;
}

FIXTURE(load) {
};

FIXTURE_SETUP(load)
{
	if (aie_skip_missing(_metadata))
		return;
	aie_teardown();
}

FIXTURE_TEARDOWN(load)
{
	aie_teardown();
}

/* Slow on a debug kernel under TCG: every cycle attaches every probe. */
TEST_F_TIMEOUT(load, twenty_cycles, 300)
{
	struct stat st;
	char *buf;
	int i;

	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, aie_load(AIE_MODULE_KO, NULL)) TH_LOG("cycle %d", i);
		ASSERT_EQ(0, stat(AIE_PROC, &st));
		buf = aie_read_file(AIE_PROC);
		ASSERT_NE(NULL, buf);
		free(buf);
		ASSERT_EQ(0, aie_unload("allocinfo_ext")) TH_LOG("cycle %d", i);
		ASSERT_EQ(-1, stat(AIE_PROC, &st));
		ASSERT_EQ(ENOENT, errno);
		ASSERT_EQ(-1, stat(AIE_STATS, &st));
		ASSERT_FALSE(aie_module_loaded("allocinfo_ext"));
	}
}

/* Unload while the helper holds tracked objects, then free them. */
TEST_F(load, unload_with_live_objects)
{
	ASSERT_EQ(0, aie_setup(NULL));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 100"));
	ASSERT_EQ(0, aie_helper("alloc cache 100"));
	ASSERT_EQ(0, aie_unload("allocinfo_ext"));
	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(0, aie_load(AIE_MODULE_KO, NULL));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 1"));
	ASSERT_EQ(0, aie_helper("free all"));
}

/*
 * A module that unloads keeps its sites' names, marked unloaded, with what
 * it left live; one warning says so; code loaded later at the same place
 * gets sites of its own.
 */
TEST_F(load, unloaded_module_keeps_its_sites)
{
	long long s128 = aie_kmalloc_slot(128), profiling;
	char warn[160];
	struct aie_row r;
	int kmsg, sites;

	ASSERT_EQ(0, aie_setup(NULL));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	/*
	 * The in-kernel profiler (CONFIG_MEM_ALLOC_PROFILING) WARNs when a
	 * module unloads with allocations of its own live: keep it off for
	 * the deliberate leak.
	 */
	profiling = aie_read_long(MEM_PROFILING);
	if (profiling > 0)
		ASSERT_EQ(0, aie_write_str(MEM_PROFILING, "0"));
	ASSERT_EQ(0, aie_helper("leak kmalloc97 4"));
	if (profiling > 0)
		ASSERT_EQ(0, aie_write_str(MEM_PROFILING, "1"));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kmalloc_97", &r));
	ASSERT_EQ(4ULL, r.calls);
	sites = aie_count_rows("aie_helper");
	ASSERT_LT(2, sites);

	kmsg = aie_kmsg_open();
	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, aie_unload("aie_helper"));
	snprintf(warn, sizeof(warn),
		 "allocinfo_ext: module aie_helper unloaded with 4 allocations (%lld bytes) live at %d sites",
		 4 * s128, sites);
	EXPECT_EQ(1, aie_kmsg_count(kmsg, warn)) TH_LOG("%s", warn);
	close(kmsg);

	ASSERT_EQ(1, aie_row_get_unloaded("aie_helper", "aie_helper_kmalloc_97",
					  &r));
	EXPECT_EQ(4ULL, r.calls);
	EXPECT_EQ(4 * s128, r.bytes);
	EXPECT_EQ(0, strncmp(r.location, "aie_helper_kmalloc_97+0x", 24));
	ASSERT_EQ(1, aie_row_get_unloaded("aie_helper", "aie_helper_kmalloc_96",
					  &r));
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(3LL, r.total_calls);
	EXPECT_EQ(0, aie_count_rows("aie_helper"));

	/* Loaded again, perhaps at the same address: sites of its own. */
	ASSERT_EQ(0, aie_load(AIE_HELPER_KO, NULL));
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 2"));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kmalloc_97", &r));
	EXPECT_EQ(2ULL, r.calls);
	EXPECT_EQ(2LL, r.total_calls);
	ASSERT_EQ(1, aie_row_get_unloaded("aie_helper", "aie_helper_kmalloc_97",
					  &r));
	EXPECT_EQ(4ULL, r.calls);
}

#define INIT_FN	"aie_helper_init_kmalloc"

/*
 * A module's __init code goes once the module is live: its sites are
 * retired then, as an unloaded module's are, named, marked unloaded,
 * with what the init code left live, while the module stays. Their
 * objects' frees charge them back exactly; they collect nothing else.
 * Objects they still hold at the module's unload count in its warning.
 */
TEST_F(load, init_sites_retire_when_live)
{
	long long km96 = aie_kmalloc_charge(96), profiling;
	char warn[160];
	struct aie_row r;
	int kmsg;

	ASSERT_LT(0, km96);
	ASSERT_EQ(0, aie_load(AIE_MODULE_KO, NULL));
	ASSERT_EQ(0, aie_load(AIE_HELPER_KO, "init_kmalloc=5"));
	ASSERT_TRUE(aie_module_loaded("aie_helper"));
	EXPECT_EQ(0, aie_row_get("aie_helper", INIT_FN, &r));
	ASSERT_EQ(1, aie_row_get_unloaded("aie_helper", INIT_FN, &r));
	EXPECT_EQ(5ULL, r.calls);
	EXPECT_EQ(5 * km96, r.bytes);
	EXPECT_EQ(5LL, r.total_calls);
	EXPECT_EQ(0, strncmp(r.location, INIT_FN "+0x", strlen(INIT_FN) + 3))
		TH_LOG("%s", r.location);

	/* The helper's other sites are its own, live. */
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 2"));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kmalloc_96", &r));
	EXPECT_EQ(2ULL, r.calls);
	ASSERT_EQ(1, aie_row_get_unloaded("aie_helper", INIT_FN, &r));
	EXPECT_EQ(5ULL, r.calls);
	EXPECT_EQ(5LL, r.total_calls);

	ASSERT_EQ(0, aie_helper("free init"));
	ASSERT_EQ(1, aie_row_get_unloaded("aie_helper", INIT_FN, &r));
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(0LL, r.bytes);
	EXPECT_EQ(5LL, r.total_calls);

	/* No warning: the init code's objects are freed, the rest too. */
	kmsg = aie_kmsg_open();
	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(0, aie_unload("aie_helper"));
	EXPECT_EQ(0, aie_kmsg_count(kmsg, "module aie_helper unloaded with"));
	close(kmsg);
	ASSERT_EQ(1, aie_row_get_unloaded("aie_helper", INIT_FN, &r));
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(5LL, r.total_calls);

	/*
	 * Loaded again: its init code's site is a new one, retired in turn,
	 * whose objects, left live, the unload's warning counts.
	 */
	/* the in-kernel profiler off from before the allocations: as above */
	profiling = aie_read_long(MEM_PROFILING);
	if (profiling > 0)
		ASSERT_EQ(0, aie_write_str(MEM_PROFILING, "0"));
	ASSERT_EQ(0, aie_load(AIE_HELPER_KO, "init_kmalloc=3"));
	EXPECT_EQ(0, aie_row_get("aie_helper", INIT_FN, &r));
	ASSERT_EQ(0, aie_helper("leak init"));
	kmsg = aie_kmsg_open();
	ASSERT_LE(0, kmsg);
	ASSERT_EQ(0, aie_unload("aie_helper"));
	if (profiling > 0)
		ASSERT_EQ(0, aie_write_str(MEM_PROFILING, "1"));
	snprintf(warn, sizeof(warn),
		 "allocinfo_ext: module aie_helper unloaded with 3 allocations (%lld bytes) live at ",
		 3 * km96);
	EXPECT_EQ(1, aie_kmsg_count(kmsg, warn)) TH_LOG("%s", warn);
	close(kmsg);
	EXPECT_EQ(2, aie_sum_rows(init_rows, NULL));
}

TEST_F(load, bad_parameters_refused)
{
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_sites=0"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_objects=2000000000"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_sites=99999999"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_records=0"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_records=101%"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_records=2x"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_records=33554433"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "records_start=0"));
	EXPECT_FALSE(aie_module_loaded("allocinfo_ext"));
}

TEST_HARNESS_MAIN
