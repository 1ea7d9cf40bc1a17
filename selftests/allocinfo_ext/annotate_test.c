// SPDX-License-Identifier: GPL-2.0
/*
 * annotate_test - `allocinfo-ext annotate` in the guest, with the helper
 * module's own .ko (built with -g) as its debug info: every helper
 * allocation site must then read back as the exact file:line of its
 * allocation call.
 *
 * The expected lines come from the helper's source (aie_helper.c beside
 * the test): the line of the kmalloc/kmem_cache_alloc/kstrdup/kmemdup call
 * in each function, and for the functions that AIE_HELPER_KMALLOC(n)
 * generates, the line of that macro's use, to which the compiler assigns
 * the code it expands to. The file is the one the DWARF names: the
 * source's absolute path at build time (AIE_HELPER_SRC).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"

#define TOOL		"./allocinfo-ext"
#define HELPER_SOURCE	"./aie_helper.c"

static const struct {
	const char *kind;	/* the helper's name for it */
	const char *func;
} kinds[] = {
	{ "kmalloc96", "aie_helper_kmalloc_96" },
	{ "kmalloc97", "aie_helper_kmalloc_97" },
	{ "kmalloc128", "aie_helper_kmalloc_128" },
	{ "kmalloc129", "aie_helper_kmalloc_129" },
	{ "kmalloc192", "aie_helper_kmalloc_192" },
	{ "kmalloc193", "aie_helper_kmalloc_193" },
	{ "large_const", "aie_helper_kmalloc_large_const" },
	{ "large_var", "aie_helper_kmalloc_large_var" },
	{ "fail", "aie_helper_kmalloc_fail" },
	{ "cache", "aie_helper_cache_alloc" },
	{ "kstrdup", "aie_helper_kstrdup" },
	{ "kmemdup", "aie_helper_kmemdup" },
};

static bool has_alloc_call(const char *line)
{
	return strstr(line, "kmalloc(") || strstr(line, "kmem_cache_alloc(") ||
	       strstr(line, "kstrdup(") || strstr(line, "kmemdup(");
}

/* The line of @func's allocation call in the helper's source, or -1. */
static int alloc_line(const char *func)
{
	char line[512], def[160], macro[64];
	int n = 0, found = -1;
	bool in_func = false;
	FILE *f = fopen(HELPER_SOURCE, "r");
	unsigned int size;

	if (!f)
		return -1;
	snprintf(def, sizeof(def), " *%s(void)", func);
	macro[0] = '\0';
	if (sscanf(func, "aie_helper_kmalloc_%u", &size) == 1)
		snprintf(macro, sizeof(macro), "AIE_HELPER_KMALLOC(%u)\n", size);
	while (found < 0 && fgets(line, sizeof(line), f)) {
		n++;
		if (macro[0] && !strcmp(line, macro))
			found = n;
		else if (strstr(line, def))
			in_func = true;
		else if (in_func && has_alloc_call(line))
			found = n;
	}
	fclose(f);
	return found;
}

/* Run the tool with @args; its exit status, or -1. */
static int run_tool(char *const args[])
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		execv(TOOL, args);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

FIXTURE(annotate) {
};

FIXTURE_SETUP(annotate)
{
	unsigned int i;

	if (geteuid())
		SKIP(return, "must be root");
	ASSERT_EQ(0, access(TOOL, X_OK));
	ASSERT_EQ(0, aie_setup(NULL));
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		ASSERT_EQ(0, aie_helper("alloc %s 1", kinds[i].kind));
}

FIXTURE_TEARDOWN(annotate)
{
	aie_teardown();
}

/* Before: function+offset. After: the exact file:line of the call. */
TEST_F(annotate, helper_sites_get_their_file_line)
{
	char *const args[] = { TOOL, "annotate", "--module-dir", "./aie_helper",
			       NULL };
	char want[512];
	struct aie_row r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		ASSERT_EQ(1, aie_row_get("aie_helper", kinds[i].func, &r));
		ASSERT_NE(NULL, strstr(r.location, "+0x")) TH_LOG("%s", r.location);
	}
	ASSERT_EQ(0, run_tool(args));
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		ASSERT_LT(0, alloc_line(kinds[i].func)) TH_LOG("%s", kinds[i].func);
		snprintf(want, sizeof(want), "%s:%d", AIE_HELPER_SRC,
			 alloc_line(kinds[i].func));
		ASSERT_EQ(1, aie_row_get("aie_helper", kinds[i].func, &r));
		EXPECT_STREQ(want, r.location) TH_LOG("%s", kinds[i].func);
	}
}

/* A dry run prints the words and writes none. */
TEST_F(annotate, dry_run_changes_nothing)
{
	char *const args[] = { TOOL, "annotate", "-n", "--module-dir",
			       "./aie_helper", NULL };
	struct aie_row r;

	ASSERT_EQ(0, run_tool(args));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kstrdup", &r));
	EXPECT_NE(NULL, strstr(r.location, "aie_helper_kstrdup+0x"))
		TH_LOG("%s", r.location);
}

/* The located site is selected by its file:line and keeps counting. */
TEST_F(annotate, located_site_selected_by_file_line)
{
	char *const args[] = { TOOL, "annotate", "--module-dir", "./aie_helper",
			       NULL };
	char sel[512];
	char *const disable[] = { TOOL, "ctl", "disable", sel, NULL };
	struct aie_row r;

	ASSERT_EQ(0, run_tool(args));
	snprintf(sel, sizeof(sel), "%s:%d", AIE_HELPER_SRC,
		 alloc_line("aie_helper_kstrdup"));
	ASSERT_EQ(0, run_tool(disable));
	ASSERT_EQ(0, aie_helper("alloc kstrdup 2"));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kstrdup", &r));
	EXPECT_TRUE(r.disabled);
	EXPECT_EQ(1ULL, r.calls);
	EXPECT_STREQ(sel, r.location);
}

/* A .ko of another build (its build-id differs) is not used. */
TEST_F(annotate, other_build_is_not_used)
{
	char *const args[] = { TOOL, "annotate", "--module-dir", "/tmp/aie-other",
			       NULL };
	struct aie_row r;

	ASSERT_EQ(0, system("mkdir -p /tmp/aie-other && cp ./allocinfo_ext.ko /tmp/aie-other/aie_helper.ko"));
	ASSERT_EQ(0, run_tool(args));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kstrdup", &r));
	EXPECT_NE(NULL, strstr(r.location, "aie_helper_kstrdup+0x"))
		TH_LOG("%s", r.location);
}

TEST_HARNESS_MAIN
