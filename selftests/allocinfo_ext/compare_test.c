// SPDX-License-Identifier: GPL-2.0
/*
 * compare_test - on a kernel with the in-kernel allocation profiler
 * (CONFIG_MEM_ALLOC_PROFILING, /proc/allocinfo), `allocinfo-ext compare`
 * must find the helper module's sites in both tables and their bytes
 * must agree to at least 99% overall: slab (kmalloc buckets, a private
 * cache), pages, vmalloc, percpu, a kvmalloc caller and a site reached by
 * a caller chain. Elsewhere: skipped, with the reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define TOOL		"./allocinfo-ext"
#define BASELINE	"/tmp/aie-compare-baseline.txt"

/* The kinds made, and how many of each. */
static const struct {
	const char *kind;
	int n;
} kinds[] = {
	{ "kmalloc96", 3 }, { "kmalloc193", 2 }, { "cache", 4 },
	{ "pages0", 2 }, { "pages2", 1 }, { "vmalloc12288", 2 },
	{ "vzalloc5000", 1 }, { "percpu40", 2 }, { "kvmalloc100", 3 },
	{ "ctx_a", 2 },
};

FIXTURE(compare) {
};

FIXTURE_SETUP(compare)
{
	if (aie_skip_missing(_metadata))
		return;
	if (access("/proc/allocinfo", R_OK))
		SKIP(return, "no /proc/allocinfo: kernel without CONFIG_MEM_ALLOC_PROFILING");
	if (aie_read_long("/proc/sys/vm/mem_profiling") != 1)
		SKIP(return, "the in-kernel profiler is off (vm.mem_profiling)");
	if (aie_module_loaded("aie_helper"))
		aie_unload("aie_helper");
	if (aie_module_loaded("allocinfo_ext"))
		aie_unload("allocinfo_ext");
	ASSERT_EQ(0, system(TOOL " compare --save-baseline " BASELINE));
	ASSERT_EQ(0, aie_setup(NULL));
}

FIXTURE_TEARDOWN(compare)
{
	aie_teardown();
	unlink(BASELINE);
}

TEST_F(compare, helper_sites_agree)
{
	char line[512], *overall = NULL;
	double agreement = -1;
	size_t i;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		ASSERT_EQ(0, aie_helper("alloc %s %d", kinds[i].kind,
					kinds[i].n));
	f = popen(TOOL " compare --baseline " BASELINE " --module aie_helper",
		  "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		TH_LOG("%s", strtok(line, "\n"));
		if (sscanf(line, "# overall: %lf%%", &agreement) == 1)
			overall = line;
	}
	ASSERT_EQ(0, pclose(f));
	ASSERT_NE(NULL, overall);
	EXPECT_LE(99.0, agreement);
	ASSERT_EQ(0, aie_helper("free all"));
}

TEST_HARNESS_MAIN
