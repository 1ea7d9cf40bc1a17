// SPDX-License-Identifier: GPL-2.0
/*
 * accounted_test - accounted:<bytes>, the live bytes of each site that
 * are accounted to a memory cgroup: every allocator asked with
 * __GFP_ACCOUNT, and a cache created with SLAB_ACCOUNT, count all their
 * bytes; the same allocations without either count none.
 *
 * Accounted means what the kernel's kmem tracepoints call "accounted":
 * the kernel charges such an allocation to the allocating task's memory
 * cgroup, and charges none for a task of the root cgroup. The figure does
 * not depend on the cgroup; this test runs in whatever cgroup it is given.
 * On a kernel without memory cgroups (the allocprof and debug test
 * kernels) nothing is accounted, and every figure must be 0.
 */
#include <stdlib.h>
#include <sys/mount.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

/*
 * Live calls, bytes and accounted bytes of one [aie_helper] row; accounted
 * bytes are 0 on a kernel without memory cgroups.
 */
#define EXPECT_ACCOUNTED(_func, _type, _calls, _bytes, _accounted)	\
	do {								\
		const char *func = (_func);				\
		struct aie_row r;					\
									\
		ASSERT_EQ(1, aie_row_get_type("aie_helper", func, _type, \
					      &r)) TH_LOG("%s", func);	\
		EXPECT_EQ((unsigned long long)(_calls), r.calls)	\
			TH_LOG("%s", func);				\
		EXPECT_EQ((long long)(_bytes), r.bytes) TH_LOG("%s", func); \
		EXPECT_EQ(self->memcg ? (long long)(_accounted) : 0LL,	\
			  r.accounted)					\
			TH_LOG("%s", func);				\
	} while (0)

FIXTURE(accounted) {
	long long page, cpus, cache;
	bool memcg;
};

/* Whether @buf has a line (or word) starting with @word and @sep. */
static bool has_word(char *buf, const char *word, const char *sep)
{
	char *tok, *save;
	size_t n = strlen(word);

	for (tok = buf ? strtok_r(buf, sep, &save) : NULL; tok;
	     tok = strtok_r(NULL, sep, &save))
		if (!strncmp(tok, word, n) && (!tok[n] || tok[n] == '\t'))
			return true;
	return false;
}

/*
 * Whether the kernel has the memory controller (CONFIG_MEMCG): /proc/cgroups
 * lists it, or, since it lists only the controllers cgroup v1 can bind
 * (6.16), the root of a cgroup2 mount offers it.
 */
static bool kernel_has_memcg(void)
{
	char dir[] = "/tmp/aie_cgroup2.XXXXXX", path[64];
	char *buf = aie_read_file("/proc/cgroups");
	bool found = has_word(buf, "memory", "\n");

	free(buf);
	if (found || !mkdtemp(dir))
		return found;
	if (!mount("none", dir, "cgroup2", 0, NULL)) {
		snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
		buf = aie_read_file(path);
		found = has_word(buf, "memory", "\n ");
		free(buf);
		umount(dir);
	}
	rmdir(dir);
	return found;
}

FIXTURE_SETUP(accounted)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
	self->page = sysconf(_SC_PAGESIZE);
	self->cpus = aie_possible_cpus();
	ASSERT_LT(0, self->cpus);
	self->cache = aie_helper_cache_bytes();
	ASSERT_LT(0, self->cache);
	self->memcg = kernel_has_memcg();
}

FIXTURE_TEARDOWN(accounted)
{
	aie_teardown();
}

/*
 * The module says memory cgroups are there exactly when the kernel lists
 * them; with them, it recognises accounted caches on every kernel tested.
 */
TEST_F(accounted, memcg_in_stats)
{
	EXPECT_EQ(self->memcg, aie_stat_present("memcg"));
	EXPECT_EQ(self->memcg, aie_stat_present("accounted_caches"));
	TH_LOG("memory cgroups %s", self->memcg ? "present" : "absent");
}

TEST_F(accounted, kmalloc)
{
	long long slot = aie_kmalloc_slot(128);

	ASSERT_LT(0, slot);
	ASSERT_EQ(0, aie_helper("alloc kmalloc_acct100 3"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc128 2"));
	EXPECT_ACCOUNTED("aie_helper_kmalloc_acct_100", "slab", 3, 3 * slot,
			 3 * slot);
	EXPECT_ACCOUNTED("aie_helper_kmalloc_128", "slab", 2, 2 * slot, 0);
	ASSERT_EQ(0, aie_helper("free kmalloc_acct100 2"));
	EXPECT_ACCOUNTED("aie_helper_kmalloc_acct_100", "slab", 1, slot, slot);
	ASSERT_EQ(0, aie_helper("free kmalloc_acct100 1"));
	EXPECT_ACCOUNTED("aie_helper_kmalloc_acct_100", "slab", 0, 0, 0);
}

/* A SLAB_ACCOUNT cache, a plain one asked with __GFP_ACCOUNT, and neither. */
TEST_F(accounted, caches)
{
	long long b = self->cache;

	ASSERT_EQ(0, aie_helper("alloc cache_acct 4"));
	ASSERT_EQ(0, aie_helper("alloc cache_gfp_acct 2"));
	ASSERT_EQ(0, aie_helper("alloc cache 3"));
	EXPECT_ACCOUNTED("aie_helper_cache_acct", "slab", 4, 4 * b, 4 * b);
	EXPECT_ACCOUNTED("aie_helper_cache_gfp_acct", "slab", 2, 2 * b, 2 * b);
	EXPECT_ACCOUNTED("aie_helper_cache_alloc", "slab", 3, 3 * b, 0);
	ASSERT_EQ(0, aie_helper("free cache_acct 3"));
	EXPECT_ACCOUNTED("aie_helper_cache_acct", "slab", 1, b, b);
}

TEST_F(accounted, pages)
{
	long long b = self->page << 1;

	ASSERT_EQ(0, aie_helper("alloc pages_acct 3"));
	ASSERT_EQ(0, aie_helper("alloc pages2 1"));
	EXPECT_ACCOUNTED("aie_helper_pages_acct", "page", 3, 3 * b, 3 * b);
	EXPECT_ACCOUNTED("aie_helper_pages2", "page", 1, self->page << 2, 0);
	ASSERT_EQ(0, aie_helper("free pages_acct 1"));
	EXPECT_ACCOUNTED("aie_helper_pages_acct", "page", 2, 2 * b, 2 * b);
}

TEST_F(accounted, vmalloc)
{
	long long b = 3 * self->page;

	ASSERT_EQ(4096, self->page);
	ASSERT_EQ(0, aie_helper("alloc vmalloc_acct10000 2"));
	ASSERT_EQ(0, aie_helper("alloc vmalloc10000 1"));
	EXPECT_ACCOUNTED("aie_helper_vmalloc_acct_10000", "vmalloc", 2, 2 * b,
			 2 * b);
	EXPECT_ACCOUNTED("aie_helper_vmalloc_10000", "vmalloc", 1, b, 0);
	ASSERT_EQ(0, aie_helper("free vmalloc_acct10000 2"));
	EXPECT_ACCOUNTED("aie_helper_vmalloc_acct_10000", "vmalloc", 0, 0, 0);
}

TEST_F(accounted, percpu)
{
	long long b = 40 * self->cpus;

	ASSERT_EQ(0, aie_helper("alloc percpu_acct40 3"));
	ASSERT_EQ(0, aie_helper("alloc percpu40 2"));
	EXPECT_ACCOUNTED("aie_helper_percpu_acct_40", "percpu", 3, 3 * b, 3 * b);
	EXPECT_ACCOUNTED("aie_helper_percpu_40", "percpu", 2, 2 * b, 0);
	ASSERT_EQ(0, aie_helper("free percpu_acct40 1"));
	EXPECT_ACCOUNTED("aie_helper_percpu_acct_40", "percpu", 2, 2 * b, 2 * b);
}

TEST_HARNESS_MAIN
