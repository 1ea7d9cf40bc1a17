// SPDX-License-Identifier: GPL-2.0
/*
 * load_test - loading and unloading leave no trace; bad parameters are
 * refused at load.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"

FIXTURE(load) {
};

FIXTURE_SETUP(load)
{
	if (geteuid())
		SKIP(return, "must be root");
	aie_teardown();
}

FIXTURE_TEARDOWN(load)
{
	aie_teardown();
}

TEST_F(load, twenty_cycles)
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

TEST_F(load, bad_parameters_refused)
{
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_sites=0"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_objects=0"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "max_sites=99999999"));
	EXPECT_FALSE(aie_module_loaded("allocinfo_ext"));
}

TEST_HARNESS_MAIN
