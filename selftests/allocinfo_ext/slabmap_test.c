// SPDX-License-Identifier: GPL-2.0
/*
 * slabmap_test - the slab map (slabmap=1): slab objects' records kept
 * beside their slab's pages. Its memory, exactly; rows exact through it,
 * for kmalloc, a private cache and large kmalloc()s, whose records are
 * kept in the entries of their own pages; sampled objects' weights found
 * again at their frees; a block's records taken at the first allocation in a
 * slab and given back when the slab goes back to the page allocator, and
 * taken again for the next; off with lifetimes=1 and with slabmap=0.
 * The page map, which goes with it: page rows exact through it, sampled
 * blocks' weights found again; off without the page hooks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

#define CHUNK		16384LL		/* records made at a time */
#define RECORDS_START	65536LL		/* records_start's default */

#define HELPER_CACHE	"/sys/kernel/slab/aie_helper_obj/"

/* Empty slabs of the helper's cache go back to the page allocator. */
static int shrink_helper_cache(void)
{
	return aie_write_str(HELPER_CACHE "shrink", "1");
}

/*
 * slab_map_blocks counts every cache's blocks: while a test runs, the rest
 * of the system makes and drops blocks too (up to 17 between two reads in
 * CI, after the other tests). The helper's slabs must show at least this
 * far within it: all made, less the few others drop meanwhile; at least
 * half dropped.
 */
#define OTHER_BLOCKS	8

/*
 * slab_map_objects, page_map_objects and the object map's count hold the
 * rest of the system's records too, which it frees and allocates between
 * two reads: 26 in one 40 on arm64 beside another guest, 10 in the object
 * map of the debug kernel. A test of where records go allocates MANY and
 * allows a quarter of them for that; its rows stay exact.
 */
#define MANY		400
#define OTHERS		(MANY / 4)

/*
 * With kmemleak, each object the helper frees comes with kmemleak's own
 * (and debug objects' for the RCU that frees them), from caches of their
 * own: blocks are made as the helper's go, and sampled objects too.
 */
static bool blocks_follow_helper(void)
{
	return access("/sys/kernel/debug/kmemleak", F_OK);
}

/*
 * After a free of @slabs of the helper's slabs: half as many blocks
 * emptied at least, unless kmemleak's objects come and go too.
 */
static void expect_blocks_emptied(struct __test_metadata *_metadata,
				  long long slabs, long long emptied)
{
	if (!blocks_follow_helper()) {
		TH_LOG("kmemleak: blocks not checked after the free");
		return;
	}
	EXPECT_LE(slabs / 2, emptied);
}

/*
 * Stat @key once it holds still for 50 ms (at most a second): the rest of
 * the system's records drift down for a while after the module and the
 * helper load (their loaders' objects, freed after an RCU grace period)
 * and after a test that made and emptied slabs, which SLUB gives back
 * lazily: 9 or 10 in 40 on 5.10, 17 and 26 on arm64 beside another guest.
 */
static long long settled(const char *key)
{
	long long a = aie_stat(key), b = a;
	int i;

	for (i = 0; i < 20; i++) {
		usleep(50000);
		b = aie_stat(key);
		if (a == b)
			break;
		a = b;
	}
	return b;
}

/*
 * The object map's objects: tracked_objects counts the slab and page maps'
 * records too. Three reads, a little apart.
 */
static long long objmap_objects(void)
{
	return aie_stat("tracked_objects") - aie_stat("slab_map_objects") -
	       aie_stat("page_map_objects");
}

FIXTURE(slabmap) {
};

FIXTURE_SETUP(slabmap)
{
	if (aie_setup_or_skip(_metadata, "slabmap=1"))
		return;
	ASSERT_EQ(0, aie_stat_is("slab_map", "on"));
}

FIXTURE_TEARDOWN(slabmap)
{
	aie_teardown();
}

/*
 * 4 bytes per page frame; 8 bytes per record made, records_start at
 * least, in whole chunks, at most the ceiling; a byte per 32 records of
 * the ceiling (the order of the block whose array starts there); the
 * chunks' directory, 2048 pointers (scale_test checks the ceiling's
 * default and the growth). The page map, on with the page hooks: 4 bytes
 * per page frame.
 */
TEST_F(slabmap, memory)
{
	long long pfns = aie_end_pfn(), made, ceiling;

	ASSERT_LT(0, pfns);
	made = aie_stat("slab_map_capacity");
	ceiling = aie_stat("slab_map_ceiling");
	EXPECT_LE(RECORDS_START, made);
	EXPECT_EQ(0, made % CHUNK);
	EXPECT_LE(made, ceiling);
	EXPECT_EQ(pfns * 4 + made * 8 + ceiling / 32 + 2048 * 8,
		  aie_stat("slab_map_bytes"));
	EXPECT_EQ(0, aie_stat_is("page_map", "on"));
	EXPECT_EQ(pfns * 4, aie_stat("page_map_bytes"));
	EXPECT_LE(aie_stat("object_map_bytes") + aie_stat("weight_map_bytes") +
		  aie_stat("slab_map_bytes") + aie_stat("page_map_bytes"),
		  aie_stat("memory_bytes"));
}

/*
 * Page blocks have their records in the page map, at their first page
 * frame: rows exact, orders 0 and 5, a folio, and alloc_pages_exact()'s
 * 3 pages (freed page by page: the first page's free takes the record).
 */
TEST_F(slabmap, pages_in_page_map)
{
	static const struct {
		const char *kind, *func;
		long long pages;
	} k[] = {
		{ "pages0", "aie_helper_pages0", 1 },
		{ "pages5", "aie_helper_pages5", 32 },
		{ "folio", "aie_helper_folio_alloc", 4 },
		{ "pages_exact", "aie_helper_pages_exact", 3 },
	};
	long long page = sysconf(_SC_PAGESIZE), b, before, n = MANY;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(k); i++) {
		b = k[i].pages * page;
		before = settled("page_map_objects");
		ret = aie_helper("alloc %s %lld", k[i].kind, n);
		if (ret == -EOPNOTSUPP) {	/* folios: 5.16 */
			TH_LOG("%s: not in this kernel", k[i].kind);
			continue;
		}
		ASSERT_EQ(0, ret);
		EXPECT_LE(before + n - OTHERS, aie_stat("page_map_objects"))
			TH_LOG("%s", k[i].kind);
		EXPECT_ROW(k[i].func, "page", n, n * b, 0, n, n * b, n * b, 0);
		ASSERT_EQ(0, aie_helper("free %s %lld", k[i].kind, n / 4));
		EXPECT_ROW(k[i].func, "page", n - n / 4, (n - n / 4) * b, 0, n,
			   n * b, n * b, 0);
		ASSERT_EQ(0, aie_helper("free %s %lld", k[i].kind, n - n / 4));
		EXPECT_ROW(k[i].func, "page", 0, 0, 0, n, n * b, n * b, 0);
	}
	EXPECT_EQ(0, aie_stat("unseen_frees"));
}

/*
 * Sampled page blocks (4 KiB under "sample 65536", weight above 1): each
 * free finds its weight, under the block's page, from its record's flag,
 * and the site goes back to exactly nothing held.
 */
TEST_F(slabmap, sampled_pages)
{
	long long sampled;
	struct aie_row r;

	ASSERT_EQ(0, aie_ctl("sample 65536"));
	sampled = aie_stat("sampled");
	ASSERT_EQ(0, aie_helper("alloc pages0 2000"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_pages0",
				      "page", &r));
	TH_LOG("2000 pages, sampled every 65536 bytes: %llu estimated",
	       r.calls);
	EXPECT_LT(sampled, aie_stat("sampled"));
	EXPECT_LT(0ULL, r.calls);
	ASSERT_EQ(0, aie_helper("free pages0 2000"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_pages0",
				      "page", &r));
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(0LL, r.bytes);
}

/*
 * 400 kmalloc() objects have their records in the slab map: counted there,
 * and not in the object map, whatever the rest of the system's records do
 * meanwhile (a quarter of them allowed for); rows exact.
 */
TEST_F(slabmap, kmalloc_rows_exact)
{
	long long slot = aie_kmalloc_slot(128), n = MANY, before, objs;

	ASSERT_LT(0, slot);
	before = settled("slab_map_objects");
	objs = objmap_objects();
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 %lld", n));
	EXPECT_LE(before + n - OTHERS, aie_stat("slab_map_objects"));
	EXPECT_GT(objs + OTHERS, objmap_objects());
	EXPECT_ROW("aie_helper_kmalloc_97", "slab", n, n * slot,
		   n * (slot - 97), n, n * slot, n * slot, 0);
	ASSERT_EQ(0, aie_helper("free kmalloc97 %lld", n));
	EXPECT_ROW("aie_helper_kmalloc_97", "slab", 0, 0, 0, n, n * slot,
		   n * slot, 0);
	EXPECT_EQ(0, aie_stat("unseen_frees"));
}

/*
 * The helper's cache (a constructor: never merged) starts empty. Filling
 * its slabs gives each an array of records (sysfs counts the slabs);
 * freeing every object and shrinking the cache gives its slabs back to
 * the page allocator, and their arrays back to the pool; the next
 * allocations take arrays again, and every row stays exact.
 */
TEST_F(slabmap, blocks_made_and_dropped)
{
	long long per = aie_read_long(HELPER_CACHE "objs_per_slab");
	long long slot = aie_helper_cache_bytes();
	long long size = aie_object_size("aie_helper_obj");
	long long before, full, empty, n, start, slabs, left;
	int round;

	ASSERT_LT(0, per);
	n = 4096 / per * per;		/* whole slabs the helper can hold */
	ASSERT_LE(4 * per, n);
	for (round = 1; round <= 2; round++) {
		start = aie_read_long(HELPER_CACHE "slabs");
		ASSERT_LE(0, start);
		before = aie_stat("slab_map_blocks");
		ASSERT_EQ(0, aie_helper("alloc cache %lld", n));
		full = aie_stat("slab_map_blocks");
		slabs = aie_read_long(HELPER_CACHE "slabs") - start;
		EXPECT_ROW("aie_helper_cache_alloc", "slab", n, n * slot,
			   n * (slot - size), round * n, round * n * slot,
			   n * slot, 0);
		ASSERT_EQ(0, aie_helper("free cache %lld", n));
		ASSERT_EQ(0, shrink_helper_cache());
		empty = aie_stat("slab_map_blocks");
		left = aie_read_long(HELPER_CACHE "slabs");
		TH_LOG("round %d: %lld objects, %lld a slab", round, n, per);
		TH_LOG("slabs %lld -> +%lld -> %lld; blocks %lld -> %lld -> %lld",
		       start, slabs, left, before, full, empty);
		EXPECT_LE(n / per - 1, slabs);
		EXPECT_GE(start, left);
		EXPECT_LE(slabs - OTHER_BLOCKS, full - before);
		expect_blocks_emptied(_metadata, slabs + start - left,
				      full - empty);
		EXPECT_ROW("aie_helper_cache_alloc", "slab", 0, 0, 0, round * n,
			   round * n * slot, n * slot, 0);
	}
	EXPECT_EQ(0, aie_stat("unseen_frees"));
}

/*
 * Sampled objects of weight above 1 are recorded in the slab map, their
 * weights kept under their records' granules: each free must find its
 * weight, so that the site goes back to exactly nothing held, and the
 * weight map to what it held before.
 *
 * Not the weight map under kmemleak: each of the helper's frees makes
 * kmemleak free its metadata in an RCU callback, whose rcu_head debug
 * objects tracks with an object of its pool, which grows and shrinks
 * through the slab allocator: 26 to 45 more weighted objects a round of
 * 4000, after an rcu_barrier() too.
 */
TEST_F(slabmap, sampled_weights)
{
	long long weighted, sampled;
	struct aie_row r;

	ASSERT_EQ(0, aie_ctl("sample 4096"));
	weighted = aie_stat("weighted_objects");
	sampled = aie_stat("sampled");
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 4000"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_97",
				      "slab", &r));
	TH_LOG("4000 objects of 128 bytes, sampled every 4096: %llu estimated, %lld weighted",
	       r.calls, aie_stat("weighted_objects") - weighted);
	EXPECT_LT(weighted, aie_stat("weighted_objects"));
	EXPECT_LT(sampled, aie_stat("sampled"));
	ASSERT_EQ(0, aie_helper("free kmalloc97 4000"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_97",
				      "slab", &r));
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(0LL, r.bytes);
	EXPECT_EQ(0LL, r.slack);
	if (blocks_follow_helper()) {
		/* the rest of the system's sampled objects come and go */
		EXPECT_GE(weighted + 10, aie_stat("weighted_objects"));
	} else {
		TH_LOG("kmemleak: %lld weighted objects before, %lld after: not checked",
		       weighted, aie_stat("weighted_objects"));
	}
	EXPECT_EQ(0, aie_stat("unseen_frees"));
}

/*
 * Objects of 10000 bytes: granules of 8 KiB, two pages, and objects that
 * start inside a page (the second at the stride, 10000 and the cache's
 * free pointer, in the third page). A record's index comes from the
 * object's address and its page's entry (slabmap.h): a wrong one would
 * put two objects on one record or free the wrong one, and no row would
 * come out exact. The slabs hold 3 of them each: 48 objects take 16 slabs,
 * or more, and 48 records, which the cache's line of
 * /proc/allocinfo_ext_caches counts (nothing else uses the cache).
 */
TEST_F(slabmap, objects_across_pages)
{
	long long slot, objects, unseen = aie_stat("unseen_frees");
	int reused;

	ASSERT_EQ(0, aie_helper("remake 10000"));
	ASSERT_EQ(0, aie_helper_remade(&slot, &reused));
	ASSERT_LE(10000, slot);
	ASSERT_EQ(0, aie_helper("alloc remade 48"));
	EXPECT_EQ(48 * slot, aie_cache_line("aie_helper_remade", &objects));
	EXPECT_EQ(48, objects);
	EXPECT_ROW("aie_helper_remade_alloc", "slab", 48, 48 * slot,
		   48 * (slot - 10000), 48, 48 * slot, 48 * slot, 0);
	ASSERT_EQ(0, aie_helper("free remade 29"));
	EXPECT_EQ(19 * slot, aie_cache_line("aie_helper_remade", &objects));
	EXPECT_EQ(19, objects);
	EXPECT_ROW("aie_helper_remade_alloc", "slab", 19, 19 * slot,
		   19 * (slot - 10000), 48, 48 * slot, 48 * slot, 0);
	ASSERT_EQ(0, aie_helper("free remade 19"));
	EXPECT_EQ(-1, aie_cache_line("aie_helper_remade", &objects));
	EXPECT_ROW("aie_helper_remade_alloc", "slab", 0, 0, 0, 48, 48 * slot,
		   48 * slot, 0);
	EXPECT_EQ(unseen, aie_stat("unseen_frees"));
}

/*
 * A read of /proc/allocinfo_ext_caches walks the slab map in holds of its
 * lock, interrupts off, of about 1024 records' reads each
 * (iface/caches.c), a block read whole in the hold that reaches its first
 * page. 4096 objects of 16 bytes of the helper's "remade" cache (a
 * constructor: not merged) take 16 slabs or more, granules of 16 bytes or
 * more: over 4096 records, four holds' worth at least, so holds end
 * between its blocks. The cache's line stays exact, each block counted
 * once with all its records: with all of them live, with half, and none.
 */
TEST_F(slabmap, caches_exact_across_holds)
{
	long long slot, objects, unseen = aie_stat("unseen_frees");
	int reused;

	ASSERT_EQ(0, aie_helper("remake 16"));
	ASSERT_EQ(0, aie_helper_remade(&slot, &reused));
	ASSERT_LE(16, slot);
	ASSERT_EQ(0, aie_helper("alloc remade 4096"));
	EXPECT_EQ(4096 * slot, aie_cache_line("aie_helper_remade", &objects));
	EXPECT_EQ(4096, objects);
	ASSERT_EQ(0, aie_helper("free remade 2048"));
	EXPECT_EQ(2048 * slot, aie_cache_line("aie_helper_remade", &objects));
	EXPECT_EQ(2048, objects);
	ASSERT_EQ(0, aie_helper("free remade 2048"));
	EXPECT_EQ(-1, aie_cache_line("aie_helper_remade", &objects));
	EXPECT_EQ(unseen, aie_stat("unseen_frees"));
}

/*
 * A large kmalloc() of four pages or more, tracked at full weight, has its
 * record in the slab map, in the entries of its own second and third
 * pages (slabmap.c): counted in slab_map_objects, not in the object map
 * (objmap_objects()), which the old way took one object each; rows exact
 * at its allocation and its free, for a size known at build time and
 * one that is not; the records gone at the frees. 3 pages + 1 byte: an
 * order-2 block.
 */
TEST_F(slabmap, large_kmalloc_in_its_pages)
{
	long long page = sysconf(_SC_PAGESIZE), req = 3 * page + 1;
	long long block = 4 * page, recs, mid, objs, unseen, n = MANY;
	static const char * const kind[] = { "large_const", "large_var" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kind); i++) {
		char func[64];

		snprintf(func, sizeof(func), "aie_helper_kmalloc_%s", kind[i]);
		recs = settled("slab_map_objects");
		objs = objmap_objects();
		unseen = aie_stat("unseen_frees");
		ASSERT_EQ(0, aie_helper("alloc %s %lld", kind[i], n));
		mid = aie_stat("slab_map_objects");
		EXPECT_ROW(func, "slab", n, n * block, n * (block - req), n,
			   n * block, n * block, 0);
		EXPECT_LE(recs + n - OTHERS, mid) TH_LOG("%s", kind[i]);
		EXPECT_GT(objs + OTHERS, objmap_objects()) TH_LOG("%s", kind[i]);
		ASSERT_EQ(0, aie_helper("free %s %lld", kind[i], n));
		EXPECT_ROW(func, "slab", 0, 0, 0, n, n * block, n * block, 0);
		EXPECT_GT(mid - n + OTHERS, aie_stat("slab_map_objects"))
			TH_LOG("%s", kind[i]);
		EXPECT_EQ(unseen, aie_stat("unseen_frees"));
	}
}

/*
 * A large kmalloc() whose kfree() goes unseen ("unseen": its pages freed
 * as kfree() frees them, less the event) is charged back when its pages
 * go back to the page allocator, from its record in the entries of its
 * pages, counted in unseen_frees; it does not stay live. 3 pages + 1
 * byte: an order-2 block.
 */
TEST_F(slabmap, large_kmalloc_unseen_free)
{
	long long page = sysconf(_SC_PAGESIZE), req = 3 * page + 1;
	long long block = 4 * page, unseen = aie_stat("unseen_frees");

	ASSERT_EQ(0, aie_helper("alloc large_const 5"));
	EXPECT_ROW("aie_helper_kmalloc_large_const", "slab", 5, 5 * block,
		   5 * (block - req), 5, 5 * block, 5 * block, 0);
	ASSERT_EQ(0, aie_helper("unseen large_const 3"));
	EXPECT_EQ(unseen + 3, aie_stat("unseen_frees"));
	EXPECT_ROW("aie_helper_kmalloc_large_const", "slab", 2, 2 * block,
		   2 * (block - req), 5, 5 * block, 5 * block, 0);
	ASSERT_EQ(0, aie_helper("free large_const 2"));
	EXPECT_ROW("aie_helper_kmalloc_large_const", "slab", 0, 0, 0, 5,
		   5 * block, 5 * block, 0);
	EXPECT_EQ(unseen + 3, aie_stat("unseen_frees"));
	/* Not a large kmalloc: refused. */
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 1"));
	EXPECT_EQ(-EINVAL, aie_helper("unseen kmalloc97 1"));
	EXPECT_EQ(-ERANGE, aie_helper("unseen large_const 1"));
}

/* lifetimes=1 stamps objects in the object map: no slab or page map then. */
TEST(slabmap_off_with_lifetimes)
{
	if (aie_setup_or_skip(_metadata, "slabmap=1 lifetimes=1"))
		return;
	EXPECT_EQ(0, aie_stat_is("slab_map", "off"));
	EXPECT_EQ(0, aie_stat("slab_map_bytes"));
	EXPECT_EQ(0, aie_stat("slab_map_capacity"));
	EXPECT_EQ(0, aie_stat_is("page_map", "off"));
	EXPECT_EQ(0, aie_stat("page_map_bytes"));
	aie_teardown();
}

TEST(slabmap_off)
{
	long long slot = aie_kmalloc_slot(128), page = sysconf(_SC_PAGESIZE);

	if (aie_setup_or_skip(_metadata, "slabmap=0"))
		return;
	EXPECT_EQ(0, aie_stat_is("slab_map", "off"));
	EXPECT_EQ(0, aie_stat("slab_map_bytes"));
	EXPECT_EQ(0, aie_stat_is("page_map", "off"));
	EXPECT_EQ(0, aie_stat("page_map_bytes"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 5"));
	ASSERT_EQ(0, aie_helper("alloc pages2 3"));
	EXPECT_EQ(0, aie_stat("slab_map_objects"));
	EXPECT_EQ(0, aie_stat("page_map_objects"));
	EXPECT_ROW("aie_helper_kmalloc_97", "slab", 5, 5 * slot,
		   5 * (slot - 97), 5, 5 * slot, 5 * slot, 0);
	EXPECT_ROW("aie_helper_pages2", "page", 3, 3 * 4 * page, 0, 3,
		   3 * 4 * page, 3 * 4 * page, 0);
	ASSERT_EQ(0, aie_helper("free pages2 3"));
	EXPECT_ROW("aie_helper_pages2", "page", 0, 0, 0, 3, 3 * 4 * page,
		   3 * 4 * page, 0);
	aie_teardown();
}

/*
 * An object map of fewer than 2^20 slots (65536 here; the default is
 * 32768) keeps long tags (tags2), as on arm64, which only objmap.c's
 * calls serve: the slab and page maps do not depend on them. Slab
 * objects and page blocks have their records there, not in the object
 * map; vmalloc areas go to the object map; rows exact at the
 * allocations and the frees.
 */
TEST(slabmap_with_long_tags)
{
	long long slot = aie_kmalloc_slot(128), page = sysconf(_SC_PAGESIZE);
	long long recs, precs, objs, v = 3 * page, n = MANY;

	if (aie_setup_or_skip(_metadata, "slabmap=1 max_objects=65536"))
		return;
	EXPECT_EQ(0, aie_stat_is("slab_map", "on"));
	EXPECT_EQ(0, aie_stat_is("page_map", "on"));
	recs = settled("slab_map_objects");
	precs = settled("page_map_objects");
	objs = objmap_objects();
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 %lld", n));
	ASSERT_EQ(0, aie_helper("alloc pages0 %lld", n));
	EXPECT_LE(recs + n - OTHERS, aie_stat("slab_map_objects"));
	EXPECT_LE(precs + n - OTHERS, aie_stat("page_map_objects"));
	EXPECT_GT(objs + OTHERS, objmap_objects());
	objs = objmap_objects();
	ASSERT_EQ(0, aie_helper("alloc vmalloc10000 %lld", n));
	EXPECT_LE(objs + n - OTHERS, objmap_objects());
	EXPECT_ROW("aie_helper_kmalloc_97", "slab", n, n * slot,
		   n * (slot - 97), n, n * slot, n * slot, 0);
	EXPECT_ROW("aie_helper_pages0", "page", n, n * page, 0, n, n * page,
		   n * page, 0);
	EXPECT_ROW("aie_helper_vmalloc_10000", "vmalloc", n, n * v,
		   n * (v - 10000), n, n * v, n * v, 0);
	ASSERT_EQ(0, aie_helper("free kmalloc97 %lld", n));
	ASSERT_EQ(0, aie_helper("free pages0 %lld", n));
	ASSERT_EQ(0, aie_helper("free vmalloc10000 %lld", n));
	EXPECT_ROW("aie_helper_kmalloc_97", "slab", 0, 0, 0, n, n * slot,
		   n * slot, 0);
	EXPECT_ROW("aie_helper_pages0", "page", 0, 0, 0, n, n * page,
		   n * page, 0);
	EXPECT_ROW("aie_helper_vmalloc_10000", "vmalloc", 0, 0, 0, n, n * v,
		   n * v, 0);
	aie_teardown();
}

/* Without the page hooks, no page map. */
TEST(page_map_off_without_page_hooks)
{
	if (aie_setup_or_skip(_metadata, "hooks=slab"))
		return;
	EXPECT_EQ(0, aie_stat_is("slab_map", "on"));
	EXPECT_EQ(0, aie_stat_is("page_map", "off"));
	EXPECT_EQ(0, aie_stat("page_map_bytes"));
	aie_teardown();
}

TEST_HARNESS_MAIN
