// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_test - control writes to /proc/allocinfo_ext: enable and disable
 * rules by every selector, applied to sites seen before and after the rule;
 * reset; locate; and malformed writes, each rejected with EINVAL and
 * changing nothing.
 */
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define HELPER	"aie_helper"

static struct aie_row row(const char *func)
{
	struct aie_row r;

	if (aie_row_get(HELPER, func, &r) != 1)
		r.calls = ~0ULL;	/* no row: fails every count check */
	return r;
}

/* "<function>+0x<off>" of the row for func:@func. */
static int site_selector(const char *func, char *buf, size_t len)
{
	struct aie_row r = row(func);
	char *slash = strchr(r.location, '/');

	if (r.calls == ~0ULL || !slash)
		return -ENOENT;
	snprintf(buf, len, "%.*s", (int)(slash - r.location), r.location);
	return 0;
}

FIXTURE(ctl) {
};

FIXTURE_SETUP(ctl)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
}

FIXTURE_TEARDOWN(ctl)
{
	aie_teardown();
}

/* A rule written before a site is first seen applies when it appears. */
TEST_F(ctl, disable_before_first_seen)
{
	ASSERT_EQ(0, aie_ctl("disable func:aie_helper_kmalloc_96\n"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 5"));
	EXPECT_EQ(0ULL, row("aie_helper_kmalloc_96").calls);
	EXPECT_EQ(0LL, row("aie_helper_kmalloc_96").total_calls);
	EXPECT_TRUE(row("aie_helper_kmalloc_96").disabled);

	ASSERT_EQ(0, aie_ctl("enable func:aie_helper_kmalloc_96"));
	EXPECT_FALSE(row("aie_helper_kmalloc_96").disabled);
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	EXPECT_EQ(3ULL, row("aie_helper_kmalloc_96").calls);
	EXPECT_EQ(3LL, row("aie_helper_kmalloc_96").total_calls);
	ASSERT_EQ(0, aie_helper("free kmalloc96 8"));
	EXPECT_EQ(0ULL, row("aie_helper_kmalloc_96").calls);
	EXPECT_EQ(0LL, row("aie_helper_kmalloc_96").bytes);
}

/*
 * Disabling a site stops new records; objects it tracked already still
 * leave the live figures when freed.
 */
TEST_F(ctl, disable_after_first_seen_by_offset)
{
	char sel[300], cmd[320];

	ASSERT_EQ(0, aie_helper("alloc kmalloc97 5"));
	ASSERT_EQ(0, site_selector("aie_helper_kmalloc_97", sel, sizeof(sel)));
	snprintf(cmd, sizeof(cmd), "disable %s", sel);
	ASSERT_EQ(0, aie_ctl(cmd)) TH_LOG("%s", cmd);
	EXPECT_TRUE(row("aie_helper_kmalloc_97").disabled);
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 4"));
	EXPECT_EQ(5ULL, row("aie_helper_kmalloc_97").calls);
	EXPECT_EQ(5LL, row("aie_helper_kmalloc_97").total_calls);
	EXPECT_EQ(5 * aie_slab_size("kmalloc-128"),
		  row("aie_helper_kmalloc_97").bytes);
	ASSERT_EQ(0, aie_helper("free kmalloc97 9"));
	EXPECT_EQ(0ULL, row("aie_helper_kmalloc_97").calls);
	EXPECT_EQ(0LL, row("aie_helper_kmalloc_97").bytes);
	EXPECT_EQ(0LL, row("aie_helper_kmalloc_97").slack);
}

TEST_F(ctl, module_selector)
{
	ASSERT_EQ(0, aie_helper("alloc kmalloc128 1"));
	ASSERT_EQ(0, aie_ctl("disable [aie_helper]"));
	EXPECT_TRUE(row("aie_helper_kmalloc_128").disabled);
	ASSERT_EQ(0, aie_helper("alloc kmalloc128 2"));
	ASSERT_EQ(0, aie_helper("alloc cache 3"));
	EXPECT_EQ(1ULL, row("aie_helper_kmalloc_128").calls);
	EXPECT_EQ(0ULL, row("aie_helper_cache_alloc").calls);
	EXPECT_TRUE(row("aie_helper_cache_alloc").disabled);

	ASSERT_EQ(0, aie_ctl("enable [aie_helper]"));
	ASSERT_EQ(0, aie_helper("alloc cache 3"));
	EXPECT_EQ(3ULL, row("aie_helper_cache_alloc").calls);
	EXPECT_FALSE(row("aie_helper_kmalloc_128").disabled);
}

/*
 * "disable all" alone takes the allocation probes off: a known site shows
 * disabled, a site first seen meanwhile gets no row, and the stats file
 * says the probes are paused until another rule comes.
 */
TEST_F(ctl, all_selector)
{
	struct aie_row r;

	ASSERT_EQ(0, aie_helper("alloc kmalloc129 1"));
	ASSERT_EQ(0, aie_helper("free kmalloc129 1"));
	ASSERT_EQ(0, aie_ctl("disable all"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc129 4"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc193 4"));
	EXPECT_EQ(0ULL, row("aie_helper_kmalloc_129").calls);
	EXPECT_TRUE(row("aie_helper_kmalloc_129").disabled);
	EXPECT_EQ(0, aie_row_get(HELPER, "aie_helper_kmalloc_193", &r));
	EXPECT_EQ(0, aie_stat_is("alloc_hooks", "paused"));
	ASSERT_EQ(0, aie_ctl("disable func:aie_helper_kmalloc_97"));
	EXPECT_EQ(0, aie_stat_is("alloc_hooks", "on"));
	ASSERT_EQ(0, aie_ctl("disable all"));
	EXPECT_EQ(0, aie_stat_is("alloc_hooks", "paused"));
	ASSERT_EQ(0, aie_ctl("enable all"));
	EXPECT_EQ(0, aie_stat_is("alloc_hooks", "on"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc129 4"));
	EXPECT_EQ(4ULL, row("aie_helper_kmalloc_129").calls);
	EXPECT_FALSE(row("aie_helper_kmalloc_129").disabled);
}

/* The last matching rule wins. */
TEST_F(ctl, rule_order)
{
	ASSERT_EQ(0, aie_ctl("disable [aie_helper]"));
	ASSERT_EQ(0, aie_ctl("enable func:aie_helper_kmalloc_192"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc192 2"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc193 2"));
	EXPECT_EQ(2ULL, row("aie_helper_kmalloc_192").calls);
	EXPECT_EQ(0ULL, row("aie_helper_kmalloc_193").calls);
	ASSERT_EQ(0, aie_ctl("disable func:aie_helper_kmalloc_192"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc192 2"));
	EXPECT_EQ(2ULL, row("aie_helper_kmalloc_192").calls);
}

TEST_F(ctl, locate_and_file_line_selector)
{
	char sel[300], cmd[400];

	ASSERT_EQ(0, aie_helper("alloc kmemdup 1"));
	ASSERT_EQ(0, site_selector("aie_helper_kmemdup", sel, sizeof(sel)));
	snprintf(cmd, sizeof(cmd), "locate %s lib/aie_test.c:42", sel);
	ASSERT_EQ(0, aie_ctl(cmd));
	EXPECT_STREQ("lib/aie_test.c:42", row("aie_helper_kmemdup").location);

	ASSERT_EQ(0, aie_ctl("disable lib/aie_test.c:42"));
	ASSERT_EQ(0, aie_helper("alloc kmemdup 2"));
	EXPECT_EQ(1ULL, row("aie_helper_kmemdup").calls);
	EXPECT_TRUE(row("aie_helper_kmemdup").disabled);
	ASSERT_EQ(0, aie_ctl("enable lib/aie_test.c:42"));
	ASSERT_EQ(0, aie_helper("alloc kmemdup 2"));
	EXPECT_EQ(3ULL, row("aie_helper_kmemdup").calls);

	EXPECT_EQ(-ENOENT, aie_ctl("locate no_such_function+0x10 a.c:1"));
}

/*
 * "locate" with a function: the one the call is written in, which the row
 * then names (as /proc/allocinfo does), and func: selectors match too.
 */
TEST_F(ctl, locate_names_the_function)
{
	char sel[300], cmd[400];

	ASSERT_EQ(0, aie_helper("alloc kmemdup 1"));
	ASSERT_EQ(0, site_selector("aie_helper_kmemdup", sel, sizeof(sel)));
	snprintf(cmd, sizeof(cmd), "locate %s lib/aie_test.c:43 aie_inlined",
		 sel);
	ASSERT_EQ(0, aie_ctl(cmd));
	EXPECT_STREQ("lib/aie_test.c:43", row("aie_inlined").location);
	EXPECT_STREQ(HELPER, row("aie_inlined").module);
	EXPECT_EQ(~0ULL, row("aie_helper_kmemdup").calls);	/* no such row */
	EXPECT_EQ(1ULL, row("aie_inlined").calls);

	ASSERT_EQ(0, aie_ctl("disable func:aie_inlined"));
	ASSERT_EQ(0, aie_helper("alloc kmemdup 2"));
	EXPECT_EQ(1ULL, row("aie_inlined").calls);
	EXPECT_TRUE(row("aie_inlined").disabled);
	ASSERT_EQ(0, aie_ctl("enable func:aie_inlined"));

	/* Located again without one: the symbol's name is back. */
	snprintf(cmd, sizeof(cmd), "locate %s lib/aie_test.c:44", sel);
	ASSERT_EQ(0, aie_ctl(cmd));
	EXPECT_STREQ("lib/aie_test.c:44", row("aie_helper_kmemdup").location);
	EXPECT_EQ(1ULL, row("aie_helper_kmemdup").calls);
}

/*
 * "locate" names every row of the call site, here the slab and the
 * vmalloc row of a kvmalloc() that fell back; their old locations are
 * freed after one grace period for the command, a second "locate" freeing
 * those of the first.
 */
TEST_F(ctl, locate_every_row_of_a_site)
{
	static const char * const types[] = { "slab", "vmalloc" };
	const char *func = "aie_helper_kvmalloc_8m";
	char sel[300], cmd[400], *slash;
	struct aie_row r;
	unsigned int i, line;

	ASSERT_EQ(0, aie_helper("alloc kvmalloc8m 1"));
	ASSERT_EQ(1, aie_row_get_type(HELPER, func, "vmalloc", &r));
	slash = strchr(r.location, '/');
	ASSERT_NE(NULL, slash);
	snprintf(sel, sizeof(sel), "%.*s", (int)(slash - r.location),
		 r.location);
	for (line = 45; line <= 46; line++) {
		snprintf(cmd, sizeof(cmd), "locate %s lib/aie_test.c:%u", sel,
			 line);
		ASSERT_EQ(0, aie_ctl(cmd));
		snprintf(cmd, sizeof(cmd), "lib/aie_test.c:%u", line);
		for (i = 0; i < ARRAY_SIZE(types); i++) {
			ASSERT_EQ(1, aie_row_get_type(HELPER, func, types[i],
						      &r));
			EXPECT_STREQ(cmd, r.location);
		}
	}
	ASSERT_EQ(0, aie_helper("free kvmalloc8m 1"));
}

TEST_F(ctl, reset)
{
	long long slot = aie_slab_size("kmalloc-96");

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 5"));
	ASSERT_EQ(0, aie_helper("free kmalloc96 3"));
	ASSERT_EQ(0, aie_helper("alloc fail 1"));
	ASSERT_EQ(0, aie_ctl("reset"));
	EXPECT_EQ(2ULL, row("aie_helper_kmalloc_96").calls);
	EXPECT_EQ(2 * slot, row("aie_helper_kmalloc_96").bytes);
	EXPECT_EQ(0LL, row("aie_helper_kmalloc_96").total_calls);
	EXPECT_EQ(0LL, row("aie_helper_kmalloc_96").total_bytes);
	EXPECT_EQ(2 * slot, row("aie_helper_kmalloc_96").peak);
	EXPECT_EQ(0LL, row("aie_helper_kmalloc_fail").failed);
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 1"));
	EXPECT_EQ(1LL, row("aie_helper_kmalloc_96").total_calls);
	EXPECT_EQ(3 * slot, row("aie_helper_kmalloc_96").peak);
}

TEST_F(ctl, rule_list_is_bounded)
{
	char cmd[64];
	int i;

	for (i = 0; i < 64; i++) {
		snprintf(cmd, sizeof(cmd), "disable func:f%d", i);
		ASSERT_EQ(0, aie_ctl(cmd)) TH_LOG("rule %d", i);
	}
	EXPECT_EQ(-ENOSPC, aie_ctl("disable func:one_too_many"));
	/* Replacing a rule with the same selector needs no room. */
	EXPECT_EQ(0, aie_ctl("enable func:f3"));
	EXPECT_EQ(0, aie_ctl("enable all"));
	EXPECT_EQ(0, aie_ctl("disable func:f64"));
}

/* Malformed writes: EINVAL, and no rule added, no counter touched. */
TEST_F(ctl, bad_writes_rejected)
{
	static const char * const bad[] = {
		"", "\n", "\n\n", "enable", "disable ", " disable all",
		"disable  all", "disable\tall", "disable all\n\n",
		"enable all extra", "frobnicate all", "DISABLE all",
		"disable func:", "disable func:9abc", "disable func:a-b",
		"disable []", "disable [bad name]", "disable [a/b]",
		"disable foo+0x", "disable foo+0xzz", "disable foo+12",
		"disable +0x10", "disable foo+0x11111111111111111",
		"disable file.c:0", "disable file.c:12x", "disable :12",
		"disable file.c:", "disable file.c:1234567890",
		"reset now", "locate foo", "locate foo+0x1",
		"locate foo+0x1 bar", "locate foo bar.c:1",
		"locate foo+0x1 bar.c:1 9f", "locate foo+0x1 bar.c:1 a-b",
		"locate foo+0x1 bar.c:1 f g", "capture all 3 4",
	};
	char big[600], bin[] = { 'd', 'i', 's', 1, 2, 0, 'a' };
	size_t i;

	ASSERT_EQ(0, aie_helper("alloc kmalloc128 2"));
	ASSERT_EQ(0, aie_ctl("reset"));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, aie_ctl_len(bad[i], strlen(bad[i])))
			TH_LOG("write \"%s\" was not rejected", bad[i]);
	EXPECT_EQ(-EINVAL, aie_ctl_len(bin, sizeof(bin)));
	memset(big, 'a', sizeof(big));
	memcpy(big, "disable func:", 13);
	EXPECT_EQ(-EINVAL, aie_ctl_len(big, sizeof(big)));

	EXPECT_FALSE(row("aie_helper_kmalloc_128").disabled);
	EXPECT_EQ(2ULL, row("aie_helper_kmalloc_128").calls);
	ASSERT_EQ(0, aie_helper("alloc kmalloc128 1"));
	EXPECT_EQ(3ULL, row("aie_helper_kmalloc_128").calls);
	EXPECT_EQ(1LL, row("aie_helper_kmalloc_128").total_calls);
}

static int drop_cap_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	int i = CAP_TO_INDEX(CAP_SYS_ADMIN);

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[i].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	data[i].permitted &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

/*
 * uid 0 without CAP_SYS_ADMIN still opens the 0400 file for writing
 * (CAP_DAC_OVERRIDE), but every control write is refused with EPERM.
 */
TEST_F(ctl, writes_need_cap_sys_admin)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (drop_cap_sys_admin())
			_exit(10);
		if (aie_ctl("disable all") != -EPERM)
			_exit(11);
		_exit(aie_ctl("reset") == -EPERM ? 0 : 12);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 2"));
	EXPECT_EQ(2ULL, row("aie_helper_kmalloc_96").calls);
	EXPECT_FALSE(row("aie_helper_kmalloc_96").disabled);
}

TEST_HARNESS_MAIN
