// SPDX-License-Identifier: GPL-2.0
/*
 * annotate_test - `allocinfo-ext annotate` in the guest, with the helper
 * module's own .ko (built with -g) as its debug info: every helper
 * allocation site must then read back as the exact file:line of its
 * allocation call.
 *
 * The expected lines come from the helper's sources (aie_helper_*.c beside
 * the test): the line of the kmalloc/kmem_cache_alloc/kstrdup/kmemdup call
 * in each function, and for the functions that AIE_HELPER_KMALLOC(n)
 * generates, the line of that macro's use, to which the compiler assigns
 * the code it expands to; in the one file of them that has it. The file
 * is the one the DWARF names, the name the build gave the compiler, which
 * the helper reports for each of its files (helper_srcs()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define TOOL		"./allocinfo-ext"
#define HELPER_SOURCES	"/sys/kernel/debug/aie_helper/source"
#define MAX_SOURCES	16

/* The calls that allocate, as the helper's source writes them. */
static const char * const alloc_calls[] = {
	"kmalloc(", "kmem_cache_alloc(", "kstrdup(", "kmemdup(", "krealloc(",
	"alloc_pages(", "alloc_pages_node(", "__get_free_pages(",
	"get_zeroed_page(", "folio_alloc(", "folio_alloc_node(",
	"alloc_pages_mask(",
	"alloc_pages_exact(", "__alloc_percpu(", "__alloc_percpu_gfp(",
	"memdup_user_nul(", "kmalloc_node(", "kmem_cache_alloc_node(",
};

/* The macros that generate helper functions, and the prefix they give. */
static const struct {
	const char *use, *prefix;
} generators[] = {
	{ "AIE_HELPER_KMALLOC(", "aie_helper_kmalloc_" },
	{ "AIE_HELPER_PAGES(", "aie_helper_pages" },
	{ "AIE_HELPER_VMALLOC(", "aie_helper_" },
	{ "AIE_HELPER_ON_NODE(", "aie_helper_" },
};

static bool has_alloc_call(const char *line)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(alloc_calls); i++) {
		if (strstr(line, alloc_calls[i]))
			return true;
	}
	return false;
}

/*
 * Whether @line, at its start, uses a macro that generates @func: the
 * compiler gives the code a macro expands to the line of its use.
 */
static bool generates(const char *line, const char *func)
{
	size_t i, n, p;

	for (i = 0; i < ARRAY_SIZE(generators); i++) {
		n = strlen(generators[i].use);
		p = strlen(generators[i].prefix);
		if (strncmp(line, generators[i].use, n) ||
		    strncmp(func, generators[i].prefix, p))
			continue;
		if (!strncmp(line + n, func + p, strlen(func + p)) &&
		    strchr(",)", line[n + strlen(func + p)]))
			return true;
	}
	return false;
}

/*
 * Whether @line opens the definition of function @func: static, or
 * noinline and called from the helper's other files.
 */
static bool defines(const char *line, const char *func)
{
	char name[160];

	snprintf(name, sizeof(name), "%s(", func);
	return (!strncmp(line, "static ", 7) ||
		!strncmp(line, "noinline ", 9)) && strstr(line, name) &&
	       (strstr(line, name)[-1] == ' ' || strstr(line, name)[-1] == '*');
}

/*
 * The line of @func's allocation call in the helper's source file @path,
 * or -1: the use of the macro that generates @func, or the allocation call
 * in its body.
 */
static int alloc_line(const char *path, const char *func)
{
	FILE *f = fopen(path, "r");
	int n = 0, found = -1;
	bool in_func = false;
	char line[512];

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		n++;
		if (generates(line, func))
			found = n;
		else if (defines(line, func))
			in_func = true;
		else if (in_func && !strcmp(line, "}\n"))
			in_func = false;
		else if (in_func && has_alloc_call(line))
			found = n;
	}
	fclose(f);
	return found;
}

/* The helper's source files as its build named them; how many. */
static char helper_src[MAX_SOURCES][256];
static int helper_nsrc;

static int helper_srcs(void)
{
	char *buf, *line, *save;

	if (helper_nsrc)
		return helper_nsrc;
	buf = aie_read_file(HELPER_SOURCES);
	if (!buf)
		return 0;
	for (line = strtok_r(buf, "\n", &save);
	     line && helper_nsrc < MAX_SOURCES;
	     line = strtok_r(NULL, "\n", &save))
		snprintf(helper_src[helper_nsrc++], sizeof(helper_src[0]), "%s",
			 line);
	free(buf);
	return helper_nsrc;
}

/* The copy beside the test of the helper's source file @src; 0 or -1. */
static int local_copy(const char *src, char *path, size_t size)
{
	const char *base = strrchr(src, '/');
	int n = snprintf(path, size, "./%s", base ? base + 1 : src);

	return n > 0 && (size_t)n < size ? 0 : -1;
}

/*
 * Where @func allocates, as "file:line" in @want (@size bytes), the file
 * as the helper's build named it: its line, or -1 when none of the
 * helper's files, or more than one, has it.
 */
static int alloc_site(const char *func, char *want, size_t size)
{
	int i, n, line = -1;
	char path[300];

	for (i = 0; i < helper_srcs(); i++) {
		if (local_copy(helper_src[i], path, sizeof(path)))
			return -1;
		n = alloc_line(path, func);
		if (n < 0)
			continue;
		if (line >= 0)
			return -1;
		line = n;
		if (snprintf(want, size, "%s:%d", helper_src[i], n) >= (int)size)
			return -1;
	}
	return line;
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

/* One object of every kind the helper has (read back from its file). */
static int alloc_every_kind(void)
{
	char *buf = aie_read_file(AIE_HELPER_CTL), *line, *save, kind[64];
	char cmd[96];
	int ret = 0, len;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s", kind) != 1)
			continue;
		/* with the NUL strndup_user() stops at */
		len = snprintf(cmd, sizeof(cmd), "alloc %s 1", kind);
		ret = aie_helper_raw(cmd, len + 1);
		if (ret == -EOPNOTSUPP)
			ret = 0;
	}
	free(buf);
	return ret;
}

FIXTURE_SETUP(annotate)
{
	char path[300];
	int i;

	if (aie_setup_or_skip(_metadata, NULL))
		return;
	ASSERT_EQ(0, access(TOOL, X_OK));
	ASSERT_EQ(0, alloc_every_kind());
	ASSERT_LT(0, helper_srcs());
	for (i = 0; i < helper_srcs(); i++) {
		ASSERT_NE(0, strlen(helper_src[i]));
		ASSERT_EQ(0, local_copy(helper_src[i], path, sizeof(path)));
		ASSERT_EQ(0, access(path, R_OK)) TH_LOG("%s", path);
	}
}

FIXTURE_TEARDOWN(annotate)
{
	aie_teardown();
}

/* Every row of [aie_helper]; -1 on error. */
static int helper_rows(struct aie_row *rows, int max)
{
	char *buf = aie_read_file(AIE_PROC), *line, *save;
	int n = 0;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!aie_row_parse(line, &rows[n]) &&
		    !strcmp(rows[n].module, "aie_helper"))
			n++;
	}
	free(buf);
	return n;
}

/*
 * Before: function+offset. After: the exact file:line of the call, for
 * every site of the helper, of every type (slab, page, vmalloc, percpu).
 */
TEST_F(annotate, helper_sites_get_their_file_line)
{
	char *const args[] = { TOOL, "annotate", "--module-dir", "./aie_helper",
			       NULL };
	static struct aie_row rows[128];
	char want[512];
	int i, n;

	n = helper_rows(rows, ARRAY_SIZE(rows));
	ASSERT_LT(40, n) TH_LOG("a site for every kind");
	for (i = 0; i < n; i++)
		ASSERT_NE(NULL, strstr(rows[i].location, "+0x"))
			TH_LOG("%s", rows[i].location);
	ASSERT_EQ(0, run_tool(args));
	ASSERT_EQ(n, helper_rows(rows, ARRAY_SIZE(rows)));
	for (i = 0; i < n; i++) {
		ASSERT_LT(0, alloc_site(rows[i].func, want, sizeof(want)))
			TH_LOG("%s", rows[i].func);
		EXPECT_STREQ(want, rows[i].location)
			TH_LOG("%s %s", rows[i].func, rows[i].type);
	}
}

/* A dry run prints the words and writes none. */
TEST_F(annotate, dry_run_changes_nothing)
{
	char *const args[] = { TOOL, "annotate", "--dry-run", "--module-dir",
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
	ASSERT_LT(0, alloc_site("aie_helper_kstrdup", sel, sizeof(sel)));
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

	ASSERT_EQ(0, system("mkdir -p /tmp/aie-other"));
	ASSERT_EQ(0, system("cp ./allocinfo_ext.ko /tmp/aie-other/aie_helper.ko"));
	ASSERT_EQ(0, run_tool(args));
	ASSERT_EQ(1, aie_row_get("aie_helper", "aie_helper_kstrdup", &r));
	EXPECT_NE(NULL, strstr(r.location, "aie_helper_kstrdup+0x"))
		TH_LOG("%s", r.location);
}

TEST_HARNESS_MAIN
