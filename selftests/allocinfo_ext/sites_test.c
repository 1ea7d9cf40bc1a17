// SPDX-License-Identifier: GPL-2.0
/*
 * sites_test - the sites' own counters, made in chunks a little ahead of
 * the sites in use rather than for the whole table at load: how many are
 * made and what they cost (with each CPU's 1024 counter slots, which
 * counters_test tests), that sites claimed past the first
 * chunks count exactly, and what a burst of new sites faster than the
 * chunks are made leaves (counted, never lost silently).
 *
 * The helper's "sites <n>" makes one kmalloc(i + 1) at each of n distinct
 * call sites of aie_helper_site(), in one write; "pagesites <n>" one page
 * at each of n call sites of aie_helper_page_site(). The site caches in
 * front of the table are tested through them.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define CHUNK		256	/* AIE_SITE_CHUNK: sites per chunk */
#define CTR_BYTES	56	/* struct aie_site_ctr, per site */
#define SLOTS_BYTES	(1024 * 64)	/* each CPU's counter slots */
#define SITE_BYTES	64	/* struct aie_site */
#define BUCKET_BYTES	4	/* a hash bucket; twice as many as sites */
/* The site caches, whatever the table: 8192 slab and 2048 page entries */
#define CACHE_BYTES	((8192 + 2048) * 8)
#define SITES		"aie_helper_site"
#define PAGE_SITES	"aie_helper_page_site"

/* Charged bytes of one object at each of the helper's first @n sites. */
static long long sites_bytes(int n)
{
	long long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += aie_kmalloc_charge(i + 1);
	return sum;
}

/* A row of the helper's function @func, the one with the many sites. */
static bool helper_site(const struct aie_row *r, const char *func)
{
	return !r->unloaded && !strcmp(r->module, "aie_helper") &&
	       !strcmp(r->func, func);
}

static long long site_row(const struct aie_row *r, const void *arg)
{
	return helper_site(r, arg);
}

static long long site_calls(const struct aie_row *r, const void *arg)
{
	return helper_site(r, arg) ? (long long)r->calls : 0;
}

static long long site_bytes(const struct aie_row *r, const void *arg)
{
	return helper_site(r, arg) ? r->bytes : 0;
}

static long long site_slack(const struct aie_row *r, const void *arg)
{
	return helper_site(r, arg) ? r->slack : 0;
}

/*
 * A site holding one object whose figures agree: it asked bytes - slack,
 * one of the helper's sizes, and was charged that size's slot.
 */
static long long site_one_right(const struct aie_row *r, const void *arg)
{
	long long req = r->bytes - r->slack;

	return helper_site(r, arg) && r->calls == 1 && req >= 1 && req <= 600 &&
	       r->bytes == aie_kmalloc_charge(req) && r->total_calls == 1;
}

/*
 * A slab site of the helper holding one object, right as site_one_right()
 * has it, made at each of *@arg rounds.
 */
static long long site_one_round(const struct aie_row *r, const void *arg)
{
	long long req = r->bytes - r->slack;

	return helper_site(r, SITES) && r->calls == 1 && req >= 1 &&
	       req <= 768 && r->bytes == aie_kmalloc_charge(req) &&
	       r->total_calls == *(const int *)arg;
}

/* A page site of the helper holding its page, made at each of *@arg rounds. */
static long long page_site_one_round(const struct aie_row *r, const void *arg)
{
	return helper_site(r, PAGE_SITES) && r->calls == 1 &&
	       r->bytes == sysconf(_SC_PAGESIZE) && r->slack == 0 &&
	       r->total_calls == *(const int *)arg;
}

/* A retired site of the helper's function @arg: its one object freed. */
static long long site_retired(const struct aie_row *r, const void *arg)
{
	return r->unloaded && !strcmp(r->module, "aie_helper") &&
	       !strcmp(r->func, arg) && r->calls == 0 && r->bytes == 0 &&
	       r->total_calls == 1;
}

/*
 * sites_ready and site_counter_bytes of one instant: read until
 * sites_ready is the same on both sides of the bytes.
 */
static void ready_and_bytes(long long *ready, long long *bytes)
{
	long long again;

	*ready = aie_stat("sites_ready");
	for (;;) {
		*bytes = aie_stat("site_counter_bytes");
		again = aie_stat("sites_ready");
		if (again == *ready)
			return;
		*ready = again;
	}
}

/*
 * Wait, at most 10 s, until the counters made reach @ahead beyond the
 * sites claimed: the work that makes them has run since the last claim
 * that asked for it. Returns sites_ready.
 */
static long long wait_ready(long long ahead)
{
	int tries;

	for (tries = 0; tries < 200; tries++) {
		if (aie_stat("sites_ready") >= aie_stat("sites") + ahead)
			break;
		usleep(50000);
	}
	return aie_stat("sites_ready");
}

TEST(counters_made_ahead)
{
	long long cpus = aie_possible_cpus(), sites, ready, bytes, want;

	ASSERT_LT(0, cpus);
	if (aie_setup_or_skip(_metadata, "max_sites=4000"))
		return;
	sites = aie_stat("sites");
	ASSERT_GT(512, sites) TH_LOG("%lld sites at load: this test wants fewer than 512", sites);

	/* At load: sites_ahead (1024) of the 4000, in four chunks. */
	ready_and_bytes(&ready, &bytes);
	EXPECT_EQ(1024, ready);
	EXPECT_EQ(ready * CTR_BYTES + cpus * SLOTS_BYTES, bytes);
	/* 4000 entries and 8192 buckets, whole from the load. */
	EXPECT_EQ(CACHE_BYTES, aie_stat("site_cache_bytes"));
	EXPECT_EQ(4000LL * SITE_BYTES + 8192 * BUCKET_BYTES + CACHE_BYTES +
		  bytes, aie_stat("site_table_bytes"));

	/*
	 * 511 new sites at once, within the 512 or more ready: every one
	 * counted, exactly.
	 */
	ASSERT_EQ(0, aie_helper("sites 511"));
	want = sites_bytes(511);
	EXPECT_EQ(511, aie_sum_rows(site_row, SITES));
	EXPECT_EQ(511, aie_sum_rows(site_calls, SITES));
	EXPECT_EQ(want, aie_sum_rows(site_bytes, SITES));
	EXPECT_EQ(want - 511 * 512 / 2, aie_sum_rows(site_slack, SITES));
	EXPECT_EQ(0, aie_stat("sites_waiting"));
	EXPECT_EQ(0, aie_stat("sites_full"));

	/*
	 * They left fewer than half of sites_ahead ready: more chunks are
	 * made, in whole chunks, never past the table.
	 */
	wait_ready(512);
	ready_and_bytes(&ready, &bytes);
	sites = aie_stat("sites");
	EXPECT_LE(sites + 512, ready);
	EXPECT_LT(1024, ready);
	EXPECT_GE(4000, ready);
	EXPECT_EQ(0, ready % CHUNK);
	EXPECT_EQ(ready * CTR_BYTES + cpus * SLOTS_BYTES, bytes);

	ASSERT_EQ(0, aie_helper("free all"));
	EXPECT_EQ(511, aie_sum_rows(site_row, SITES));
	EXPECT_EQ(0, aie_sum_rows(site_calls, SITES));
	EXPECT_EQ(0, aie_sum_rows(site_bytes, SITES));
	aie_teardown();
}

/*
 * sites_ahead=256: 600 new sites at once, more than the counters ready.
 * The work that makes counters runs as soon as the writer yields, or on
 * another CPU: the helper's "burst" allocates under stop_machine(), so
 * that it cannot. The allocations at the sites with counters are charged
 * to them, those past them counted as sites_waiting, and their frees
 * unmatched. Once the work has run, the same sites count exactly.
 */
TEST(burst_past_the_counters)
{
	long long sites, waiting, calls;
	int round;

	if (aie_setup_or_skip(_metadata, "max_sites=4000 sites_ahead=256"))
		return;
	sites = aie_stat("sites");
	ASSERT_GT(1024, sites) TH_LOG("%lld sites at load: this test wants fewer than 1024", sites);
	EXPECT_EQ(0, aie_stat("sites_ready") % CHUNK);
	waiting = aie_stat("sites_waiting");

	/*
	 * With fewer than 1024 sites claimed, at most 256 + 255 are ready
	 * beyond them: the first of the 600 up to those are charged, the
	 * rest counted as waiting.
	 */
	ASSERT_EQ(0, aie_helper("burst 600"));
	calls = aie_sum_rows(site_calls, SITES);
	TH_LOG("the burst: %lld of 600 charged to their sites, %lld waiting",
	       calls, aie_stat("sites_waiting") - waiting);
	EXPECT_GE(511, calls);
	/* or more: what else the burst allocates (slab pages) may wait too */
	EXPECT_LE(600 - calls, aie_stat("sites_waiting") - waiting);
	EXPECT_EQ(calls, aie_sum_rows(site_one_right, SITES));
	EXPECT_EQ(calls, aie_sum_rows(site_row, SITES));
	EXPECT_EQ(sites_bytes(calls), aie_sum_rows(site_bytes, SITES));
	EXPECT_EQ(0, aie_stat("sites_full"));
	ASSERT_EQ(0, aie_helper("free all"));
	EXPECT_EQ(0, aie_sum_rows(site_calls, SITES));
	EXPECT_EQ(0, aie_sum_rows(site_bytes, SITES));

	/* Each round after the work has run claims more of them. */
	for (round = 0; round < 8; round++) {
		wait_ready(128);
		ASSERT_EQ(0, aie_helper("sites 600"));
		if (aie_sum_rows(site_row, SITES) == 600)
			break;
		ASSERT_EQ(0, aie_helper("free all"));
	}
	EXPECT_EQ(600, aie_sum_rows(site_row, SITES));
	EXPECT_EQ(600, aie_sum_rows(site_calls, SITES));
	EXPECT_EQ(sites_bytes(600), aie_sum_rows(site_bytes, SITES));
	EXPECT_EQ(sites_bytes(600) - 600 * 601 / 2,
		  aie_sum_rows(site_slack, SITES));
	ASSERT_EQ(0, aie_helper("free all"));
	EXPECT_EQ(0, aie_sum_rows(site_calls, SITES));
	aie_teardown();
}

/* A table smaller than sites_ahead: all of it at load, the last chunk short. */
TEST(small_table_whole)
{
	long long cpus = aie_possible_cpus(), ready, bytes, full;

	if (aie_setup_or_skip(_metadata, "max_sites=300"))
		return;
	ready_and_bytes(&ready, &bytes);
	EXPECT_EQ(300, ready);
	EXPECT_EQ(300 * CTR_BYTES + cpus * SLOTS_BYTES, bytes);
	EXPECT_EQ(CACHE_BYTES, aie_stat("site_cache_bytes"));
	EXPECT_EQ(300LL * SITE_BYTES + 1024 * BUCKET_BYTES + CACHE_BYTES +
		  bytes, aie_stat("site_table_bytes"));

	/* Past the 300, sites are full, not waiting. */
	full = aie_stat("sites_full");
	ASSERT_EQ(0, aie_helper("sites 511"));
	EXPECT_GE(300, aie_stat("sites"));
	EXPECT_LE(full + 511 - 300, aie_stat("sites_full"));
	EXPECT_EQ(0, aie_stat("sites_waiting"));
	EXPECT_EQ(sites_bytes(aie_sum_rows(site_calls, SITES)),
		  aie_sum_rows(site_bytes, SITES));
	ASSERT_EQ(0, aie_helper("free all"));
	aie_teardown();
}

/*
 * The site caches (see design.rst): 768 slab sites and 512 page sites,
 * each counted exactly, the first time (the sites new: each misses the
 * cache, which the site table fills) and the second (found in the caches,
 * but for those whose entries other sites hold, looked up in the table
 * again; the page cache's groups of four overflow at some of the 512,
 * beside the kernel's own sites). The slab cache's hash spreads the
 * helper's regular layout, and a site finds any of the four ways of its
 * group: the second time, fewer than 8 of the 768 miss (none as a rule,
 * as five sites in one of 2048 groups are rare; a direct-mapped cache of
 * as many entries, where a site whose one entry another took misses
 * every time, had 33 miss here). A page walk whose wrapper the wrapper
 * table holds away from its home entry looks that wrapper up in the
 * page cache, and misses, on every allocation: where the table holds the
 * wrappers moves with the kernel's address from boot to boot, so the
 * page cache's misses are bounded the first time only, from below (make
 * bench measures the page pair). Counters enough for all at load: none
 * waits.
 */
TEST(site_caches_every_site_exact)
{
	long long slab_misses, page_misses, misses;
	int round;

	if (aie_setup_or_skip(_metadata, "sites_ahead=4096"))
		return;
	for (round = 1; round <= 2; round++) {
		slab_misses = aie_stat("slab_site_cache_misses");
		page_misses = aie_stat("page_site_cache_misses");
		ASSERT_EQ(0, aie_helper("sites 768"));
		ASSERT_EQ(0, aie_helper("pagesites 512"));
		misses = aie_stat("slab_site_cache_misses") - slab_misses;
		if (round == 1) {
			EXPECT_LE(768, misses);
			/* New sites, or a wrapper looked up as one: misses */
			EXPECT_LE(512, aie_stat("page_site_cache_misses") -
				       page_misses);
		} else {
			EXPECT_GT(8, misses);
			TH_LOG("second round: %lld slab site cache misses",
			       misses);
		}
		EXPECT_EQ(768, aie_sum_rows(site_one_round, &round))
			TH_LOG("round %d", round);
		EXPECT_EQ(768, aie_sum_rows(site_row, SITES));
		EXPECT_EQ(512, aie_sum_rows(page_site_one_round, &round))
			TH_LOG("round %d", round);
		EXPECT_EQ(512, aie_sum_rows(site_row, PAGE_SITES));
		ASSERT_EQ(0, aie_helper("free all"));
		EXPECT_EQ(0, aie_sum_rows(site_calls, SITES));
		EXPECT_EQ(0, aie_sum_rows(site_calls, PAGE_SITES));
	}
	EXPECT_EQ(0, aie_stat("sites_waiting"));
	aie_teardown();
}

/*
 * Page sites of a module that unloads and loads again, perhaps at the
 * same address: the unload empties the page cache's entries of its
 * retired sites, and the new sites are counted, the old ones kept, as
 * load_test has it for slab sites.
 */
TEST(page_sites_after_reload)
{
	int once = 1;

	if (aie_setup_or_skip(_metadata, NULL))
		return;
	ASSERT_EQ(0, aie_helper("pagesites 4"));
	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(0, aie_unload("aie_helper"));
	ASSERT_EQ(0, aie_load(AIE_HELPER_KO, NULL));
	ASSERT_EQ(0, aie_helper("pagesites 4"));
	EXPECT_EQ(4, aie_sum_rows(page_site_one_round, &once));
	EXPECT_EQ(4, aie_sum_rows(site_row, PAGE_SITES));
	EXPECT_EQ(4, aie_sum_rows(site_retired, PAGE_SITES));
	ASSERT_EQ(0, aie_helper("free all"));
	aie_teardown();
}

TEST(sites_ahead_bounds)
{
	if (aie_skip_missing(_metadata))
		return;
	aie_teardown();
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "sites_ahead=255"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "sites_ahead=65537"));
	EXPECT_FALSE(aie_module_loaded("allocinfo_ext"));
	ASSERT_EQ(0, aie_load(AIE_MODULE_KO, "sites_ahead=65536 max_sites=2000"));
	EXPECT_EQ(2000, aie_stat("sites_ready"));
	EXPECT_EQ(0, aie_unload("allocinfo_ext"));
}

TEST_HARNESS_MAIN
