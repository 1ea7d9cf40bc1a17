// SPDX-License-Identifier: GPL-2.0
/*
 * counters_test - the sites' counters: each CPU's cache of counter_slots
 * slots in front of each site's own counters. Every test runs with the
 * default 1024 slots, where the helper's sites have slots of their own,
 * and with one slot, which every site shares, so that nearly every charge
 * and uncharge moves the slot's deltas to the site it leaves. The figures
 * must be exact either way: per site, across CPUs, after "reset".
 *
 * The helper's "sites <n>" makes one kmalloc(i + 1) at each of n distinct
 * call sites of aie_helper_site(), in one write.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_setaffinity() */
#endif
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

#define OWN_BYTES	56	/* struct aie_site_ctr: a site's own counters */
#define SLOT_BYTES	64	/* struct aie_ctr_slot, per slot per CPU */
#define SITES		"aie_helper_site"
#define NSITES		511

static bool helper_site(const struct aie_row *r)
{
	return !r->unloaded && !strcmp(r->module, "aie_helper") &&
	       !strcmp(r->func, SITES);
}

/*
 * A site holding its one object, @tcalls counted since the load or reset:
 * it asked bytes - slack, one of the helper's sizes, was charged that
 * size's slot, and its peak is that object.
 */
static bool site_one(const struct aie_row *r, long long tcalls)
{
	long long req = r->bytes - r->slack;

	return helper_site(r) && r->calls == 1 && req >= 1 &&
	       req <= NSITES && r->bytes == aie_kmalloc_charge(req) &&
	       r->total_calls == tcalls && r->total_bytes == tcalls * r->bytes &&
	       r->peak == r->bytes;
}

/* Each site right after the allocations: counted once. */
static long long site_one_right(const struct aie_row *r, const void *arg)
{
	(void)arg;
	return site_one(r, 1);
}

/* The same after "reset": no totals, the peak restarted at the object. */
static long long site_one_reset(const struct aie_row *r, const void *arg)
{
	(void)arg;
	return site_one(r, 0);
}

/* A site that holds nothing and counted nothing since the reset. */
static long long site_empty(const struct aie_row *r, const void *arg)
{
	(void)arg;
	return helper_site(r) && r->calls == 0 && r->bytes == 0 &&
	       r->slack == 0 && r->total_calls == 0 && r->total_bytes == 0;
}

static long long site_bytes(const struct aie_row *r, const void *arg)
{
	(void)arg;
	return helper_site(r) ? r->bytes : 0;
}

/* Run on @cpu only; 0 or -errno. */
static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

FIXTURE(counters) {
	long long takes;	/* counter_slot_takes at the start */
};

FIXTURE_VARIANT(counters) {
	const char *params;
	long long slots;
};

/* .slots 0: the default's, default_slots() */
FIXTURE_VARIANT_ADD(counters, slots_default) {
	.params = NULL,
	.slots = 0,
};

FIXTURE_VARIANT_ADD(counters, one_slot) {
	.params = "counter_slots=1",
	.slots = 1,
};

/* The most: "reset" zeroes them in 128 IPIs of 512 slots each */
FIXTURE_VARIANT_ADD(counters, most_slots) {
	.params = "counter_slots=65536",
	.slots = 65536,
};

FIXTURE_SETUP(counters)
{
	if (aie_setup_or_skip(_metadata, variant->params))
		return;
	self->takes = aie_stat("counter_slot_takes");
}

FIXTURE_TEARDOWN(counters)
{
	aie_teardown();
}

/*
 * counter_slots' default: 1024 slots, halved while the possible CPUs'
 * would take more than 4 MiB, 64 at least.
 */
static long long default_slots(long long cpus)
{
	long long slots = 1024;

	while (slots > 64 && slots * SLOT_BYTES * cpus > 4LL << 20)
		slots /= 2;
	return slots;
}

/*
 * The slots, and what they and the sites' own counters take: the slots
 * of each CPU up since the load, their number set by the possible CPUs.
 */
TEST_F(counters, memory)
{
	long long cpus = aie_possible_cpus(), ready, slots = variant->slots;
	long long up = sysconf(_SC_NPROCESSORS_ONLN);

	ASSERT_LT(0, cpus);
	if (!slots)
		slots = default_slots(cpus);
	EXPECT_EQ(slots, aie_stat("counter_slots"));
	ready = aie_stat("sites_ready");
	EXPECT_LT(0, ready);
	EXPECT_EQ(slots * up * SLOT_BYTES, aie_stat("counter_slot_bytes"));
	EXPECT_EQ(ready * OWN_BYTES + slots * up * SLOT_BYTES,
		  aie_stat("site_counter_bytes"));
}

/*
 * 511 sites, each exact; after "reset", each exact again; after their
 * frees, each empty. With one slot, each of the 511 allocations and each
 * of the 511 frees takes the slot from the site before it. Each of the
 * three reads of the table names every site: past the harness's default
 * 30 s on the debug kernel beside another guest.
 */
TEST_F_TIMEOUT(counters, many_sites_exact, 300)
{
	long long want = 0, takes;
	int i;

	for (i = 0; i < NSITES; i++)
		want += aie_kmalloc_charge(i + 1);
	ASSERT_EQ(0, aie_helper("sites %d", NSITES));
	EXPECT_EQ(NSITES, aie_sum_rows(site_one_right, NULL));
	EXPECT_EQ(want, aie_sum_rows(site_bytes, NULL));

	ASSERT_EQ(0, aie_ctl("reset"));
	EXPECT_EQ(NSITES, aie_sum_rows(site_one_reset, NULL));

	ASSERT_EQ(0, aie_helper("free all"));
	EXPECT_EQ(NSITES, aie_sum_rows(site_empty, NULL));
	EXPECT_EQ(0, aie_stat("untracked"));

	takes = aie_stat("counter_slot_takes") - self->takes;
	TH_LOG("%lld slot takes", takes);
	/* every new site takes its slot at its first allocation */
	EXPECT_LE(NSITES, takes);
	if (variant->slots == 1)
		EXPECT_LE(2 * NSITES, takes);
}

/*
 * One site's objects allocated on one CPU and freed on the other, and
 * allocated there too: each CPU's slot holds a part, negative on the CPU
 * that frees more than it allocates; the sum is exact, and the peak is
 * seen when an allocation on either CPU raises it.
 */
TEST_F(counters, across_cpus)
{
	long long slot = aie_kmalloc_slot(96), s = slot - 96;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU online");
	ASSERT_LT(0, slot);
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 10"));
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, aie_helper("free kmalloc96 6"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 2"));
	EXPECT_ROW("aie_helper_kmalloc_96", "slab", 6, 6 * slot, 6 * s,
		   12, 12 * slot, 10 * slot, 0);
	/* CPU 0's part climbs past its high: the peak follows the sum */
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 5"));
	EXPECT_ROW("aie_helper_kmalloc_96", "slab", 11, 11 * slot, 11 * s,
		   17, 17 * slot, 11 * slot, 0);
	/* CPU 1's part too, from below zero to past its high of 0 */
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 9"));
	EXPECT_ROW("aie_helper_kmalloc_96", "slab", 20, 20 * slot, 20 * s,
		   26, 26 * slot, 20 * slot, 0);
	ASSERT_EQ(0, aie_ctl("reset"));
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, aie_helper("free kmalloc96 20"));
	EXPECT_ROW("aie_helper_kmalloc_96", "slab", 0, 0, 0, 0, 0,
		   20 * slot, 0);
}

/*
 * A site that grows on one CPU is summed for its peak at each charge up
 * to 64 objects, then each time it has grown by 1/64 more (counters.c):
 * about 330 sums for 4,096 objects, not 4,096 (389 to 565 counted with
 * the other sites', KASAN's kernel the most). Its peak is then at most
 * 1/64 short of the live bytes it reached, which no reader saw: the
 * objects are freed on the other CPU before the row is read.
 */
TEST_F(counters, peak_of_a_growing_site)
{
	long long slot = aie_kmalloc_slot(96), n = 4096, top = n * slot;
	long long sums = aie_stat("peak_sums");
	struct aie_row r;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU online");
	ASSERT_LT(0, slot);
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 4096"));
	sums = aie_stat("peak_sums") - sums;
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, aie_helper("free kmalloc96 4096"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_96",
				      "slab", &r));
	TH_LOG("%lld sums; peak %lld of %lld", sums, r.peak, top);
	EXPECT_EQ(0, r.calls);
	EXPECT_EQ(n, r.total_calls);
	EXPECT_GE(top, r.peak);
	EXPECT_LE(top - (top >> 6), r.peak);
	/* peak_sums counts every site's: room for the others' meanwhile */
	EXPECT_LT(64, sums);
	EXPECT_GT(n / 4, sums);
}

/* The module loaded while CPU 1 is offline; the teardown brings it back. */
FIXTURE(hotplug) {
};

FIXTURE_SETUP(hotplug)
{
	if (aie_skip_missing(_metadata))
		return;
	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "no second CPU to take offline");
	aie_teardown();
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, aie_cpu_online(1, 0));
	ASSERT_EQ(0, aie_setup(NULL));
}

FIXTURE_TEARDOWN(hotplug)
{
	aie_cpu_online(1, 1);
	aie_teardown();
}

/*
 * A CPU's slots are made when it first comes up after the load, not for
 * every possible CPU: one CPU's at the load, two once CPU 1 comes up. The
 * counts made on CPU 1 stay exact after it goes down (its slots' deltas
 * moved to the site's own counters), and its slots stay for its return.
 */
TEST_F(hotplug, slots_for_the_cpus_up)
{
	long long slot = aie_kmalloc_slot(96), s = slot - 96;
	long long slots = aie_stat("counter_slots");

	ASSERT_LT(0, slot);
	ASSERT_LT(0, slots);
	EXPECT_EQ(slots * SLOT_BYTES, aie_stat("counter_slot_bytes"));
	ASSERT_EQ(0, aie_cpu_online(1, 1));
	EXPECT_EQ(2 * slots * SLOT_BYTES, aie_stat("counter_slot_bytes"));
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 7"));
	EXPECT_ROW("aie_helper_kmalloc_96", "slab", 7, 7 * slot, 7 * s,
		   7, 7 * slot, 7 * slot, 0);
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, aie_cpu_online(1, 0));
	EXPECT_ROW("aie_helper_kmalloc_96", "slab", 7, 7 * slot, 7 * s,
		   7, 7 * slot, 7 * slot, 0);
	ASSERT_EQ(0, aie_helper("free kmalloc96 3"));
	ASSERT_EQ(0, aie_cpu_online(1, 1));
	EXPECT_EQ(2 * slots * SLOT_BYTES, aie_stat("counter_slot_bytes"));
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, aie_helper("free kmalloc96 4"));
	EXPECT_ROW("aie_helper_kmalloc_96", "slab", 0, 0, 0, 7, 7 * slot,
		   7 * slot, 0);
}

/* counter_slots must be a power of two, 1..65536, or 0: the default. */
TEST(counter_slots_bounds)
{
	long long cpus = aie_possible_cpus();
	long long up = sysconf(_SC_NPROCESSORS_ONLN);

	if (aie_skip_missing(_metadata))
		return;
	aie_teardown();
	ASSERT_EQ(0, aie_load(AIE_MODULE_KO, "counter_slots=0"));
	EXPECT_EQ(default_slots(cpus), aie_stat("counter_slots"));
	EXPECT_EQ(0, aie_unload("allocinfo_ext"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "counter_slots=3"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "counter_slots=131072"));
	EXPECT_FALSE(aie_module_loaded("allocinfo_ext"));
	ASSERT_EQ(0, aie_load(AIE_MODULE_KO, "counter_slots=65536"));
	EXPECT_EQ(65536, aie_stat("counter_slots"));
	EXPECT_EQ(65536LL * up * SLOT_BYTES, aie_stat("counter_slot_bytes"));
	EXPECT_EQ(0, aie_unload("allocinfo_ext"));
}

TEST_HARNESS_MAIN
