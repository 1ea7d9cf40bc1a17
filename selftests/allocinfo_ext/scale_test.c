// SPDX-License-Identifier: GPL-2.0
/*
 * scale_test - the slab map's records grow with what is live. Loaded with
 * one chunk of records (records_start=16384), the module tracks ten times
 * as many kmalloc() objects exactly, all in the slab map, nothing
 * untracked. With a ceiling (max_records) and a small object map, what
 * lies past both is lost as documented: one kernel log line, slab_map_full
 * and untracked in the stats, accurate:no on the row; and the row's live
 * counts are exact again once the objects are freed.
 */
#include <stdio.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

#define CHUNK		16384LL		/* records made at a time */
#define MASS_FUNC	"aie_helper_mass_kmalloc64"
#define FULL_LINE	"slab map full at 16384 records"

/* max_records' default, 2% of RAM in 8-byte records, whole chunks. */
static long long default_ceiling(void)
{
	long long kb = -1, n;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
			break;
	fclose(f);
	if (kb < 0)
		return -1;
	n = kb * 1024 / 100 * 2 / 8;
	n = (n + CHUNK - 1) / CHUNK * CHUNK;
	return n > (1LL << 25) ? 1LL << 25 : n;
}

/*
 * Each test loads the module with its own parameters; the teardown unloads
 * it, also after a failed assertion. Up to 10 minutes: 163840 objects
 * take about 2 minutes on the KASAN kernel under TCG.
 */
FIXTURE(scale) {
};

FIXTURE_SETUP(scale)
{
	if (aie_skip_missing(_metadata))
		return;
}

FIXTURE_TEARDOWN(scale)
{
	aie_teardown();
}

/*
 * A chunk at load; ten chunks' worth of objects from one site: exact, in
 * the slab map, nothing untracked or refused. The memory is the page
 * frames' entries, the records made, a byte per 32 records of the
 * ceiling and the chunks' directory (2048 pointers).
 */
TEST_F_TIMEOUT(scale, records_grow, 600)
{
	long long slot = aie_kmalloc_slot(64), n = 10 * CHUNK, made, pfns;

	ASSERT_LT(0, slot);
	pfns = aie_end_pfn();
	ASSERT_LT(0, pfns);
	ASSERT_EQ(0, aie_setup("records_start=16384"));
	ASSERT_EQ(0, aie_stat_is("slab_map", "on"));
	EXPECT_EQ(default_ceiling(), aie_stat("slab_map_ceiling"));
	EXPECT_GT(n, aie_stat("slab_map_capacity"));
	ASSERT_EQ(0, aie_helper("mass %lld", n));
	EXPECT_ROW(MASS_FUNC, "slab", n, n * slot, n * (slot - 64), n,
		   n * slot, n * slot, 0);
	EXPECT_LE(n, aie_stat("slab_map_objects"));
	made = aie_stat("slab_map_capacity");
	EXPECT_LE(n, made);
	EXPECT_EQ(0, made % CHUNK);
	EXPECT_EQ(pfns * 4 + made * 8 + default_ceiling() / 32 + 2048 * 8,
		  aie_stat("slab_map_bytes"));
	EXPECT_EQ(0, aie_stat("untracked"));
	EXPECT_EQ(0, aie_stat("slab_map_full"));
	ASSERT_EQ(0, aie_helper("free all"));
	EXPECT_ROW(MASS_FUNC, "slab", 0, 0, 0, n, n * slot, n * slot, 0);
}

/*
 * One chunk, no more (max_records=16384), and an object map of 4096
 * slots: of four chunks' worth of objects, those past both are lost.
 */
TEST_F_TIMEOUT(scale, records_ceiling, 600)
{
	long long slot = aie_kmalloc_slot(64), n = 4 * CHUNK;
	struct aie_row r;
	int fd, lines = 0, i;

	ASSERT_LT(0, slot);
	fd = aie_kmsg_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, aie_setup("records_start=16384 max_records=16384 max_objects=4096"));
	EXPECT_EQ(CHUNK, aie_stat("slab_map_capacity"));
	EXPECT_EQ(CHUNK, aie_stat("slab_map_ceiling"));
	ASSERT_EQ(0, aie_helper("mass %lld", n));
	EXPECT_LT(0, aie_stat("slab_map_full"));
	EXPECT_LT(0, aie_stat("untracked"));
	EXPECT_EQ(CHUNK, aie_stat("slab_map_capacity"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", MASS_FUNC, "slab", &r));
	EXPECT_TRUE(r.inaccurate);
	EXPECT_LT(0ULL, r.calls);
	EXPECT_GT((unsigned long long)n, r.calls);
	EXPECT_EQ((long long)r.calls * slot, r.bytes);
	/* The work that finds the ceiling says so, once. */
	for (i = 0; i < 40 && !lines; i++) {
		lines += aie_kmsg_count(fd, FULL_LINE);
		if (!lines)
			usleep(50000);
	}
	EXPECT_EQ(1, lines);
	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", MASS_FUNC, "slab", &r));
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(0LL, r.bytes);
	EXPECT_EQ(0LL, r.slack);
	EXPECT_TRUE(r.inaccurate);
	EXPECT_EQ(0, aie_kmsg_count(fd, FULL_LINE));
	close(fd);
}

TEST_HARNESS_MAIN
