// SPDX-License-Identifier: GPL-2.0
/*
 * capture_test - "capture <sel> [depth]" and "capture off": the helper
 * allocates into one site, aie_helper_ctx_site, through distinct caller
 * chains (ctx_a: outer_a -> mid_a -> site; ctx_b: outer_b -> site; ctx_c:
 * outer_c -> site). The stacks files must hold exactly one line per chain
 * with its calls and bytes, `allocinfo-ext context` the exact shares;
 * depth 1 merges the chains, depth 16 and the default 8 are honoured;
 * "capture off" freezes the table; malformed words fail with EINVAL and
 * one warning each; a full table counts its drops.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "allocinfo_ext.h"

#define TOOL		"./allocinfo-ext"
#define STACKS		"/proc/" AIE_STACKS_PROC_NAME
#define STACKS_CALLS	"/proc/" AIE_STACKS_CALLS_PROC_NAME
#define SITE		"aie_helper_ctx_site [aie_helper]"
#define MID_A		"aie_helper_ctx_mid_a [aie_helper]"
#define OUTER_A		"aie_helper_ctx_outer_a [aie_helper]"
#define OUTER_B		"aie_helper_ctx_outer_b [aie_helper]"
#define OUTER_C		"aie_helper_ctx_outer_c [aie_helper]"

/* Whether the file at @path reads exactly @want. */
static bool file_is(const char *path, const char *want)
{
	char *got = aie_read_file(path);
	bool same = got && !strcmp(got, want);

	if (!same)
		fprintf(stderr, "# %s reads:\n%s# expected:\n%s", path,
			got ? got : "(unreadable)\n", want);
	free(got);
	return same;
}

/* The output of a shell command line, malloc()ed; NULL on error. */
static char *run(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	size_t len = 0, n;
	char *out = calloc(1, 65536);

	if (!f || !out) {
		free(out);
		return NULL;
	}
	while (len < 65535 && (n = fread(out + len, 1, 65535 - len, f)) > 0)
		len += n;
	if (pclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

/* Frames in the first line of @text that holds @needle; -1 if none. */
static int frames_of(const char *text, const char *needle)
{
	const char *line = text, *end, *hit;
	int n;

	for (; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			return -1;
		hit = strstr(line, needle);
		if (!hit || hit > end)
			continue;
		for (n = 1; line < end; line++)
			n += *line == ';';
		return n;
	}
	return -1;
}

FIXTURE(capture) {
	long long slot;		/* bytes of one kmalloc(64) */
};

FIXTURE_SETUP(capture)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
	self->slot = aie_kmalloc_slot(64);
	ASSERT_LT(0, self->slot);
}

FIXTURE_TEARDOWN(capture)
{
	aie_teardown();
}

/* Two chains, 5 and 3 calls: one line each, and the context shares. */
TEST_F(capture, two_chains_exact)
{
	long long s = self->slot;
	char want[1024], *out;

	ASSERT_EQ(0, aie_ctl("capture func:aie_helper_ctx_site 2\n"));
	EXPECT_EQ(2, aie_stat("capture_depth"));
	ASSERT_EQ(0, aie_helper("alloc ctx_a 5"));
	ASSERT_EQ(0, aie_helper("alloc ctx_b 3"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 4"));	/* not selected */
	snprintf(want, sizeof(want), MID_A ";" SITE " %lld\n"
		 OUTER_B ";" SITE " %lld\n", 5 * s, 3 * s);
	EXPECT_TRUE(file_is(STACKS, want));
	EXPECT_TRUE(file_is(STACKS_CALLS, MID_A ";" SITE " 5\n"
			    OUTER_B ";" SITE " 3\n"));
	EXPECT_EQ(2, aie_stat("stacks"));
	EXPECT_EQ(0, aie_stat("stack_drops"));
	EXPECT_EQ(0, aie_stat("stack_fallbacks"));

	/* frees do not change what was allocated */
	ASSERT_EQ(0, aie_helper("free ctx_a 5"));
	EXPECT_TRUE(file_is(STACKS, want));

	out = run(TOOL " context func:aie_helper_ctx_site");
	ASSERT_NE(NULL, out);
	snprintf(want, sizeof(want),
		 "# allocinfo-ext context func:aie_helper_ctx_site: 2 stacks, 2 callers, 8 calls, %lld bytes\n"
		 "#        calls  calls%%           bytes  bytes%% caller\n"
		 "%14d %6.2f%% %15lld %6.2f%% %s\n"
		 "%14d %6.2f%% %15lld %6.2f%% %s\n",
		 8 * s, 5, 62.5, 5 * s, 62.5, MID_A, 3, 37.5, 3 * s, 37.5,
		 OUTER_B);
	EXPECT_STREQ(want, out);
	free(out);
}

/* Depth 3 reaches outer_a; depth 1 merges both chains into the site. */
TEST_F(capture, depth_one_and_three)
{
	long long s = self->slot;
	char want[512];

	ASSERT_EQ(0, aie_ctl("capture func:aie_helper_ctx_site 3"));
	ASSERT_EQ(0, aie_helper("alloc ctx_a 2"));
	snprintf(want, sizeof(want), OUTER_A ";" MID_A ";" SITE " %lld\n",
		 2 * s);
	EXPECT_TRUE(file_is(STACKS, want));

	/* a new capture starts from an empty table */
	ASSERT_EQ(0, aie_ctl("capture func:aie_helper_ctx_site 1"));
	EXPECT_TRUE(file_is(STACKS, ""));
	ASSERT_EQ(0, aie_helper("alloc ctx_a 5"));
	ASSERT_EQ(0, aie_helper("alloc ctx_b 3"));
	snprintf(want, sizeof(want), SITE " %lld\n", 8 * s);
	EXPECT_TRUE(file_is(STACKS, want));
	EXPECT_TRUE(file_is(STACKS_CALLS, SITE " 8\n"));
}

/*
 * Depth 16 and the default, 8: a write() into debugfs is deeper than 8
 * frames below the syscall entry and shallower than 16 (about 11), so
 * the default keeps exactly 8 and 16 keeps them all.
 */
TEST_F(capture, depth_sixteen_and_default)
{
	char *text;
	int n;

	ASSERT_EQ(0, aie_ctl("capture [aie_helper] 16"));
	ASSERT_EQ(0, aie_helper("alloc ctx_a 1"));
	text = aie_read_file(STACKS);
	ASSERT_NE(NULL, text);
	n = frames_of(text, ";" OUTER_A ";" MID_A ";" SITE " ");
	free(text);
	EXPECT_LT(8, n);
	EXPECT_GE(16, n);

	ASSERT_EQ(0, aie_ctl("capture [aie_helper]"));
	EXPECT_EQ(8, aie_stat("capture_depth"));
	ASSERT_EQ(0, aie_helper("alloc ctx_a 1"));
	text = aie_read_file(STACKS_CALLS);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(8, frames_of(text, ";" OUTER_A ";" MID_A ";" SITE " 1\n"))
		TH_LOG("%s", text);
	free(text);
}

/* "capture off" freezes the table; it stays readable. */
TEST_F(capture, off_keeps_table)
{
	long long s = self->slot;
	char want[512];

	EXPECT_EQ(0, aie_ctl("capture off"));	/* already off: fine */
	ASSERT_EQ(0, aie_ctl("capture func:aie_helper_ctx_site 2"));
	ASSERT_EQ(0, aie_helper("alloc ctx_b 2"));
	ASSERT_EQ(0, aie_ctl("capture off\n"));
	ASSERT_EQ(0, aie_helper("alloc ctx_b 4"));
	ASSERT_EQ(0, aie_helper("alloc ctx_a 4"));
	snprintf(want, sizeof(want), OUTER_B ";" SITE " %lld\n", 2 * s);
	EXPECT_TRUE(file_is(STACKS, want));
	EXPECT_TRUE(file_is(STACKS_CALLS, OUTER_B ";" SITE " 2\n"));
	EXPECT_EQ(2, aie_stat("capture_depth"));
	EXPECT_EQ(1, aie_stat("stacks"));
}

/* Malformed capture words: EINVAL, one warning each, nothing changed. */
TEST_F(capture, bad_input)
{
	static const char * const bad[] = {
		"capture", "capture func:aie_helper_ctx_site 0",
		"capture func:aie_helper_ctx_site 17",
		"capture func:aie_helper_ctx_site 08",
		"capture func:aie_helper_ctx_site x", "capture off 2",
		"capture bogus", "capture  off", "capture all 4 4",
	};
	long long s = self->slot;
	char want[256];
	size_t i;
	int fd;

	ASSERT_EQ(0, aie_ctl("capture func:aie_helper_ctx_site 2"));
	ASSERT_EQ(0, aie_helper("alloc ctx_b 1"));
	/* the warnings are rate-limited to 10 in 5 s: start a new window */
	sleep(6);
	fd = aie_kmsg_open();
	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, aie_ctl(bad[i])) TH_LOG("\"%s\"", bad[i]);
		EXPECT_EQ(1, aie_kmsg_count(fd, "allocinfo_ext: rejected control write"))
			TH_LOG("\"%s\"", bad[i]);
	}
	close(fd);
	/* the capture in force is untouched */
	EXPECT_EQ(2, aie_stat("capture_depth"));
	ASSERT_EQ(0, aie_helper("alloc ctx_b 1"));
	snprintf(want, sizeof(want), OUTER_B ";" SITE " %lld\n", 2 * s);
	EXPECT_TRUE(file_is(STACKS, want));
}

/* Files: 0400, and empty before the first capture. */
TEST_F(capture, files_before_capture)
{
	struct stat st;

	ASSERT_EQ(0, stat(STACKS, &st));
	EXPECT_EQ(0100400, st.st_mode);
	ASSERT_EQ(0, stat(STACKS_CALLS, &st));
	EXPECT_EQ(0100400, st.st_mode);
	EXPECT_TRUE(file_is(STACKS, ""));
	EXPECT_TRUE(file_is(STACKS_CALLS, ""));
	EXPECT_EQ(0, aie_stat("stacks"));
	EXPECT_EQ(1024, aie_stat("stack_capacity"));
}

/* A table of two stacks: the third chain's allocations are drops. */
FIXTURE(capture_full) {
};

FIXTURE_SETUP(capture_full)
{
	if (aie_setup_or_skip(_metadata, "max_stacks=2"))
		return;
}

FIXTURE_TEARDOWN(capture_full)
{
	aie_teardown();
}

TEST_F(capture_full, drops_counted)
{
	long long s = aie_kmalloc_slot(64);
	struct aie_row r;
	char want[512];

	ASSERT_EQ(2, aie_stat("stack_capacity"));
	ASSERT_EQ(0, aie_ctl("capture func:aie_helper_ctx_site 2"));
	ASSERT_EQ(0, aie_helper("alloc ctx_a 2"));
	ASSERT_EQ(0, aie_helper("alloc ctx_b 3"));
	ASSERT_EQ(0, aie_helper("alloc ctx_c 4"));
	ASSERT_EQ(0, aie_helper("alloc ctx_a 1"));	/* known: still counted */
	snprintf(want, sizeof(want), MID_A ";" SITE " %lld\n"
		 OUTER_B ";" SITE " %lld\n", 3 * s, 3 * s);
	EXPECT_TRUE(file_is(STACKS, want));
	EXPECT_EQ(2, aie_stat("stacks"));
	EXPECT_EQ(4, aie_stat("stack_drops"));
	/* the site's own row misses nothing */
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_ctx_site", &r));
	EXPECT_EQ(10ULL, r.calls);
}

TEST_HARNESS_MAIN
