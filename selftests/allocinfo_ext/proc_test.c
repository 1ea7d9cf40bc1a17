// SPDX-License-Identifier: GPL-2.0
/*
 * proc_test - /proc/allocinfo_ext and /proc/allocinfo_ext_stats: modes,
 * header, row format, and the stats file's figures.
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "allocinfo_ext.h"

FIXTURE(proc) {
};

FIXTURE_SETUP(proc)
{
	if (aie_setup_or_skip(_metadata, "max_sites=4000 max_objects=65536"))
		return;
}

FIXTURE_TEARDOWN(proc)
{
	aie_teardown();
}

TEST_F(proc, modes)
{
	struct stat st;

	ASSERT_EQ(0, stat(AIE_PROC, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(0400, st.st_mode & 07777);
	EXPECT_EQ(0u, st.st_uid);
	ASSERT_EQ(0, stat(AIE_STATS, &st));
	EXPECT_EQ(0400, st.st_mode & 07777);
	EXPECT_EQ(0u, st.st_uid);
}

/* An unprivileged user can neither read nor write either file. */
TEST_F(proc, unprivileged_refused)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (open(AIE_PROC, O_RDONLY) >= 0 || errno != EACCES)
			_exit(11);
		if (open(AIE_PROC, O_WRONLY) >= 0 || errno != EACCES)
			_exit(12);
		if (open(AIE_STATS, O_RDONLY) >= 0 || errno != EACCES)
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * A call site no symbol covers (the helper's synthetic event) prints as
 * unknown@<pointer>, the pointer as %pK prints it: hashed under
 * kptr_restrict=0, zeros under 2, never the raw address.
 */
TEST_F(proc, unknown_site_follows_kptr_restrict)
{
	static const char * const modes[] = { "0", "2" };
	const char *kptr = "/proc/sys/kernel/kptr_restrict";
	long long old = aie_read_long(kptr);
	char *buf, *p, restore[24];
	size_t i;

	ASSERT_LE(0, old);
	ASSERT_EQ(0, aie_helper("alloc unknown_site 3"));
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		ASSERT_EQ(0, aie_write_str(kptr, modes[i]));
		buf = aie_read_file(AIE_PROC);
		ASSERT_NE(NULL, buf);
		p = strstr(buf, "       3 unknown@");
		ASSERT_NE(NULL, p) TH_LOG("no unknown site holding 3 objects");
		p += strlen("       3 unknown@");
		EXPECT_EQ(16, strspn(p, "0123456789abcdef")) TH_LOG("%.40s", p);
		EXPECT_NE(0, strncmp(p, "ffff", 4)) TH_LOG("raw: %.40s", p);
		EXPECT_EQ(0, strncmp(p + 16, " func:unknown type:slab", 23))
			TH_LOG("%.60s", p);
		if (modes[i][0] == '2')
			EXPECT_EQ(0, strncmp(p, "0000000000000000", 16))
				TH_LOG("%.40s", p);
		free(buf);
	}
	snprintf(restore, sizeof(restore), "%lld", old);
	ASSERT_EQ(0, aie_write_str(kptr, restore));
	ASSERT_EQ(0, aie_helper("free unknown_site 3"));
}

TEST_F(proc, header)
{
	char *buf = aie_read_file(AIE_PROC);

	ASSERT_NE(NULL, buf);
	EXPECT_EQ(0, strncmp(buf, AIE_HEADER_LINE1 "\n" AIE_HEADER_LINE2 "\n",
			     strlen(AIE_HEADER_LINE1 AIE_HEADER_LINE2) + 2))
		TH_LOG("header: %.120s", buf);
	EXPECT_STREQ("allocinfo_ext - version: 1.4", AIE_HEADER_LINE1);
	EXPECT_STREQ("#     <size>  <calls> <tag info> [key:value ...]",
		     AIE_HEADER_LINE2);
	free(buf);
}

/* Every row parses; a helper row reads exactly as specified. */
TEST_F(proc, row_format)
{
	char *buf, *line, *save, want[512];
	struct aie_row r;
	int rows = 0, seen = 0;
	long long slot = aie_slab_size("kmalloc-96");

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	buf = aie_read_file(AIE_PROC);
	ASSERT_NE(NULL, buf);
	line = strtok_r(buf, "\n", &save);
	line = strtok_r(NULL, "\n", &save);
	for (line = strtok_r(NULL, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		rows++;
		ASSERT_EQ(0, aie_row_parse(line, &r)) TH_LOG("row: %s", line);
		EXPECT_EQ(NULL, strstr(line, "0xffff")) TH_LOG("raw address: %s", line);
		if (strcmp(r.func, "aie_helper_kmalloc_96"))
			continue;
		seen++;
		snprintf(want, sizeof(want),
			 "%12lld %8llu %s [aie_helper] func:aie_helper_kmalloc_96 type:slab slack:%lld total_calls:3 total_bytes:%lld peak:%lld failed:0 accounted:0",
			 3 * slot, 3ULL, r.location, 3 * (slot - 96), 3 * slot,
			 3 * slot);
		EXPECT_STREQ(want, line);
		EXPECT_EQ(0, strncmp(r.location, "aie_helper_kmalloc_96+0x", 24));
	}
	free(buf);
	EXPECT_EQ(1, seen);
	EXPECT_LT(10, rows) TH_LOG("a running kernel allocates from many sites");
}

TEST_F(proc, stats)
{
	static const char * const keys[] = {
		"sites", "site_capacity", "tracked_objects", "object_capacity",
		"untracked", "sites_full", "unmatched_frees", "replaced",
		"internal_events", "disabled_allocs", "memory_bytes",
	};
	long long before, mem, maps;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		EXPECT_LE(0, aie_stat(keys[i])) TH_LOG("stat %zu missing", i);
	EXPECT_EQ(4000, aie_stat("site_capacity"));
	/* 65536 slots, 7/8 of each 256-slot shard usable */
	EXPECT_EQ(57344, aie_stat("object_capacity"));
	EXPECT_NE(NULL, strstr(aie_read_file(AIE_STATS), "bulk_free_hook present\n"));

	before = aie_stat("disabled_allocs");
	ASSERT_EQ(0, aie_ctl("disable func:aie_helper_kmalloc_128"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc128 9"));
	EXPECT_EQ(before + 9, aie_stat("disabled_allocs"));

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 500"));
	EXPECT_LE(500, aie_stat("tracked_objects"));
	EXPECT_GE(aie_stat("object_capacity"), aie_stat("tracked_objects"));
	EXPECT_LE(1, aie_stat("unmatched_frees"))
		TH_LOG("objects allocated before the load are freed unmatched");

	/*
	 * Module memory: the object map's slots, 16 to 32 bytes each, and
	 * the slab and page maps.
	 */
	maps = aie_stat("slab_map_bytes") + aie_stat("page_map_bytes");
	mem = aie_stat("memory_bytes");
	EXPECT_LE(65536LL * 16 + maps, mem);
	EXPECT_GE(65536LL * 32 + maps + 4000LL * 128 + (1 << 20), mem);
}

/*
 * A full object map (the slab map off, which would take the slab
 * objects): new allocations count as untracked, nothing is corrupted,
 * and the helper's sites end at exactly zero.
 */
TEST_F(proc, full_object_map)
{
	long long untracked;
	struct aie_row r;

	aie_teardown();
	ASSERT_EQ(0, aie_setup("max_objects=256 slabmap=0"));
	EXPECT_EQ(224, aie_stat("object_capacity"));
	untracked = aie_stat("untracked");
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 1000"));
	EXPECT_LE(untracked + 1000 - 224, aie_stat("untracked"));
	EXPECT_GE(224, aie_stat("tracked_objects"));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kmalloc_96", &r));
	EXPECT_GE(224ULL, r.calls);
	EXPECT_EQ((long long)r.calls * aie_slab_size("kmalloc-96"), r.bytes);
	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kmalloc_96", &r));
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(0LL, r.bytes);
}

TEST_HARNESS_MAIN
