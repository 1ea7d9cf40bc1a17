// SPDX-License-Identifier: GPL-2.0
/*
 * mm_test - exact per-site figures for page, vmalloc and percpu
 * allocations made by the helper module, and the two rules that keep the
 * page figures honest: pages under a slab show at the slab-page site, not
 * at the function whose object sits in them; pages under a large kmalloc
 * count once, at the kmalloc caller.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

FIXTURE(mm) {
	long long page;
};

FIXTURE_SETUP(mm)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
	self->page = sysconf(_SC_PAGESIZE);
}

FIXTURE_TEARDOWN(mm)
{
	aie_teardown();
}

/* Every page-allocator entry point, orders 0, 1, 2 and 5. */
TEST_F(mm, pages)
{
	static const struct {
		const char *kind, *func;
		int order;
	} k[] = {
		{ "pages0", "aie_helper_pages0", 0 },
		{ "pages2", "aie_helper_pages2", 2 },
		{ "pages5", "aie_helper_pages5", 5 },
		{ "pages_node", "aie_helper_pages_node", 1 },
		{ "get_free_pages", "aie_helper_get_free_pages", 1 },
		{ "get_zeroed_page", "aie_helper_get_zeroed_page", 0 },
		{ "folio", "aie_helper_folio_alloc", 2 },
		{ "folio_node", "aie_helper_folio_node", 1 },
	};
	long long b;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(k); i++) {
		b = self->page << k[i].order;
		ret = aie_helper("alloc %s 3", k[i].kind);
		if (ret == -EOPNOTSUPP) {	/* folios: 5.16 */
			TH_LOG("%s: not in this kernel", k[i].kind);
			continue;
		}
		ASSERT_EQ(0, ret);
		EXPECT_ROW(k[i].func, "page", 3, 3 * b, 0, 3, 3 * b, 3 * b, 0);
		ASSERT_EQ(0, aie_helper("free %s 1", k[i].kind));
		EXPECT_ROW(k[i].func, "page", 2, 2 * b, 0, 3, 3 * b, 3 * b, 0);
		ASSERT_EQ(0, aie_helper("free %s 2", k[i].kind));
		EXPECT_ROW(k[i].func, "page", 0, 0, 0, 3, 3 * b, 3 * b, 0);
	}
}

/*
 * Turn the kmem:mm_page_alloc trace event on or off: a second probe on
 * the tracepoint, which then calls its probes through its iterator.
 * Mounts tracefs where it is not. False if there is no such event.
 */
static bool page_alloc_event(bool on)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[128];
	size_t i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/events/kmem/mm_page_alloc/enable",
			 dirs[i]);
		if (access(path, W_OK) && i == 0)
			mount("nodev", dirs[i], "tracefs", 0, NULL);
		f = fopen(path, "w");
		if (!f)
			continue;
		fputs(on ? "1" : "0", f);
		return !fclose(f);
	}
	return false;
}

/*
 * With another probe on mm_page_alloc, the probe returns into the
 * tracepoint's iterator, not into __alloc_pages(): the walk's first
 * frame is not the one it keeps (frames.h), and it goes the wrapper
 * table's way through the iterator's frame. The figures are exact all
 * the same, before, during and after, and no walk stops.
 */
TEST_F(mm, pages_with_another_probe)
{
	long long b = self->page << 2, stops = aie_stat("page_walk_stops");
	int round;

	for (round = 0; round < 3; round++) {
		if (round == 1 && !page_alloc_event(true))
			SKIP(return, "no kmem:mm_page_alloc trace event");
		TH_LOG("round %d: the event %s", round, round == 1 ? "on" : "off");
		ASSERT_EQ(0, aie_helper("alloc pages2 3"));
		EXPECT_ROW("aie_helper_pages2", "page", 3, 3 * b, 0,
			   3 * round + 3, (3 * round + 3) * b, 3 * b, 0);
		ASSERT_EQ(0, aie_helper("free pages2 3"));
		EXPECT_ROW("aie_helper_pages2", "page", 0, 0, 0, 3 * round + 3,
			   (3 * round + 3) * b, 3 * b, 0);
		if (round == 1)
			ASSERT_TRUE(page_alloc_event(false));
	}
	EXPECT_EQ(stops, aie_stat("page_walk_stops"));
}

/* alloc_pages_exact: the pages kept, not the power-of-two block taken. */
TEST_F(mm, pages_exact)
{
	long long b = 3 * self->page;

	ASSERT_EQ(0, aie_helper("alloc pages_exact 2"));
	EXPECT_ROW("aie_helper_pages_exact", "page", 2, 2 * b, 0, 2, 2 * b,
		   2 * b, 0);
	ASSERT_EQ(0, aie_helper("free pages_exact 2"));
	EXPECT_ROW("aie_helper_pages_exact", "page", 0, 0, 0, 2, 2 * b, 2 * b, 0);
}

TEST_F(mm, pages_failed)
{
	ASSERT_EQ(0, aie_helper("alloc pages_fail 2"));
	EXPECT_ROW("aie_helper_pages_fail", "page", 0, 0, 0, 0, 0, 0, 2);
}

/*
 * A percpu allocation that fails (larger than the largest the allocator
 * serves) counts in failed:, at its caller, when the kernel's percpu
 * allocator can be probed for its returns.
 */
TEST_F(mm, percpu_failed)
{
	ASSERT_TRUE(aie_stat_present("percpu_hooks"));
	if (!aie_stat_present("percpu_fail_hook"))
		SKIP(return, "percpu failures are not hooked on this kernel");
	ASSERT_EQ(0, aie_helper("alloc percpu_fail 3"));
	EXPECT_ROW("aie_helper_percpu_fail", "percpu", 0, 0, 0, 0, 0, 0, 3);
	ASSERT_EQ(0, aie_helper("alloc percpu_fail 1"));
	EXPECT_ROW("aie_helper_percpu_fail", "percpu", 0, 0, 0, 0, 0, 0, 4);
}

/* Bytes are the pages mapped; slack what the request left of them. */
TEST_F(mm, vmalloc)
{
	static const struct {
		const char *kind, *func;
		long long req, pages;
	} k[] = {
		{ "vmalloc12288", "aie_helper_vmalloc_12288", 12288, 3 },
		{ "vmalloc10000", "aie_helper_vmalloc_10000", 10000, 3 },
		{ "vzalloc5000", "aie_helper_vzalloc_5000", 5000, 2 },
		{ "vmalloc_node4096", "aie_helper_vmalloc_node_4096", 4096, 1 },
		{ "__vmalloc6000", "aie_helper___vmalloc_6000", 6000, 2 },
	};
	long long b;
	size_t i;

	ASSERT_EQ(4096, self->page);
	for (i = 0; i < ARRAY_SIZE(k); i++) {
		b = k[i].pages * self->page;
		ASSERT_EQ(0, aie_helper("alloc %s 2", k[i].kind));
		EXPECT_ROW(k[i].func, "vmalloc", 2, 2 * b, 2 * (b - k[i].req),
			   2, 2 * b, 2 * b, 0);
		ASSERT_EQ(0, aie_helper("free %s 2", k[i].kind));
		EXPECT_ROW(k[i].func, "vmalloc", 0, 0, 0, 2, 2 * b, 2 * b, 0);
	}
}

TEST_F(mm, percpu)
{
	long long b = 40LL * aie_possible_cpus();

	ASSERT_LT(0, aie_possible_cpus());
	ASSERT_EQ(0, aie_helper("alloc percpu40 5"));
	EXPECT_ROW("aie_helper_percpu_40", "percpu", 5, 5 * b, 0, 5, 5 * b,
		   5 * b, 0);
	ASSERT_EQ(0, aie_helper("free percpu40 5"));
	EXPECT_ROW("aie_helper_percpu_40", "percpu", 0, 0, 0, 5, 5 * b, 5 * b, 0);
}

/* Functions whose pages are counted elsewhere never show as page sites. */
static const char * const hidden[] = {
	"___kmalloc_large_node", "__kmalloc_large_noprof",
	"__kmalloc_large_node_noprof", "__kmalloc_noprof",
	"__kmalloc_node_noprof", "alloc_pages_noprof", "alloc_pages_mpol_noprof",
	"__alloc_pages_noprof", "vm_area_alloc_pages", "__vmalloc_area_node",
};

/*
 * A large kmalloc takes pages: they count once, as the kmalloc. Their page
 * events, at a site inside the allocator, are counted as internal events
 * (and so, since 6.10, is the inner kmalloc event of large_var's): 8 at
 * least, whatever else the system did meanwhile.
 */
TEST_F(mm, large_kmalloc_not_counted_as_pages)
{
	long long internal = aie_stat("internal_events");
	struct aie_row r;
	size_t i;

	ASSERT_LE(0, internal);
	ASSERT_EQ(0, aie_helper("alloc large_const 4"));
	ASSERT_EQ(0, aie_helper("alloc large_var 4"));
	EXPECT_LE(internal + 8, aie_stat("internal_events"));
	EXPECT_EQ(0, aie_row_get_type("aie_helper", "aie_helper_kmalloc_large_const",
				      "page", &r));
	EXPECT_EQ(0, aie_row_get_type("aie_helper", "aie_helper_kmalloc_large_var",
				      "page", &r));
	EXPECT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_large_var",
				      "slab", &r));
	EXPECT_EQ(4ULL, r.calls);
	for (i = 0; i < ARRAY_SIZE(hidden); i++)
		EXPECT_EQ(0, aie_row_get_type(NULL, hidden[i], "page", &r))
			TH_LOG("page row for %s", hidden[i]);
}

/*
 * The helper's private cache takes slabs of 2^order pages: they show under
 * the slab allocator's own page site, never under the helper.
 */
TEST_F(mm, slab_pages_at_slab_site)
{
	long long slabs, order, slab_bytes, obj;
	char *buf;

	ASSERT_EQ(0, aie_helper("alloc cache 2000"));
	buf = aie_read_file("/sys/kernel/slab/aie_helper_obj/slabs");
	ASSERT_NE(NULL, buf);
	slabs = atoll(buf);
	free(buf);
	order = aie_read_long("/sys/kernel/slab/aie_helper_obj/order");
	ASSERT_LT(0, slabs);
	ASSERT_LE(0, order);
	slab_bytes = aie_bytes_of("allocate_slab", "page") +
		     aie_bytes_of("alloc_slab_page", "page") +
		     aie_bytes_of("new_slab", "page");
	EXPECT_LE(slabs * (self->page << order), slab_bytes);
	EXPECT_EQ(0, aie_bytes_of("aie_helper_cache_alloc", "page"));
	obj = aie_helper_cache_bytes();
	ASSERT_LE(200, obj);
	EXPECT_ROW("aie_helper_cache_alloc", "slab", 2000, 2000 * obj,
		   2000 * (obj - 200), 2000, 2000 * obj, 2000 * obj, 0);
}

TEST_HARNESS_MAIN
