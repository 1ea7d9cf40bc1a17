// SPDX-License-Identifier: GPL-2.0
/*
 * kernel_ioctl_test - Linux's own test of the allocinfo ioctls
 * (tools/testing/selftests/alloc_tag/allocinfo_ioctl_test.c, from
 * Debian's linux-source-7.x, built with its file name changed to
 * /proc/allocinfo_ext and nothing else: tools/vm/kernel-test.sh) against
 * this module, on every kernel Debian has a -dbg package for.
 *
 * That test reads only rows of built-in code with a file:line: the kernel's
 * DWARF (its vmlinux from linux-image-<release>-dbg, which the test boot
 * puts where the package does) gives them, through `allocinfo-ext
 * annotate`. Its four cases filter by file (mm/memory.c), by function
 * (dup_mm, which the kernel inlines, so that the row must name the
 * function the call is written in), by size (the row of do_init_module,
 * which the helper's load creates) and by line. Each must pass: a case it
 * skips fails here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define TOOL		"./allocinfo-ext"
#define KERNEL_TEST	"./alloc_tag/allocinfo_ioctl_test"
#define OUT		"/tmp/allocinfo_ioctl_test.out"

static const char * const cases[] = {
	"test_filename_filter", "test_function_filter", "test_size_filter",
	"test_lineno_filter",
};

/* Run @argv with its output into @out; its exit status, or -1. */
static int run(char *const argv[], const char *out)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		if (out && !freopen(out, "w", stdout))
			_exit(126);
		if (out)
			dup2(1, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The number of rows of built-in code located at a file:line with @key. */
static int located_rows(const char *key)
{
	char *buf = aie_read_file("/proc/allocinfo_ext"), *line, *save;
	unsigned long long bytes, calls, lineno;
	char file[256];
	int n = 0, end;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		end = 0;
		if (sscanf(line, "%llu %llu %255[^:]:%llu func:%n", &bytes,
			   &calls, file, &lineno, &end) == 4 && end &&
		    strstr(line, key))
			n++;
	}
	free(buf);
	return n;
}

FIXTURE(kernel) {
};

FIXTURE_SETUP(kernel)
{
	char vmlinux[300];
	struct utsname u;

	if (aie_skip_missing(_metadata))
		return;
	ASSERT_EQ(0, uname(&u));
	snprintf(vmlinux, sizeof(vmlinux), "/usr/lib/debug/boot/vmlinux-%s",
		 u.release);
	if (access(vmlinux, R_OK))
		SKIP(return, "no %s (check.sh's boot with the -dbg vmlinux)",
		     vmlinux);
	ASSERT_EQ(0, access(KERNEL_TEST, X_OK));
	/* the module, then the helper: do_init_module allocates for it */
	ASSERT_EQ(0, aie_setup(NULL));
}

FIXTURE_TEARDOWN(kernel)
{
	aie_teardown();
}

TEST_F_TIMEOUT(kernel, allocinfo_ioctl_test, 300)
{
	char *const annotate[] = { TOOL, "annotate", NULL };
	char *const test[] = { KERNEL_TEST, NULL };
	char want[64], *out, *line, *save;
	int status, passed = 0;
	size_t i;

	ASSERT_EQ(0, run(annotate, NULL));
	/* what its cases read, so that a miss says which */
	EXPECT_LT(0, located_rows(" mm/memory.c:"));
	EXPECT_LT(0, located_rows(" func:dup_mm "));
	EXPECT_LT(0, located_rows(" func:do_init_module "));

	status = run(test, OUT);
	out = aie_read_file(OUT);
	ASSERT_NE(NULL, out);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		fprintf(stderr, "# %s\n", line);
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			snprintf(want, sizeof(want), "ok %zu %s", i + 1,
				 cases[i]);
			passed += !strcmp(line, want);
		}
	}
	free(out);
	EXPECT_EQ(0, status);
	EXPECT_EQ((int)ARRAY_SIZE(cases), passed);
}

TEST_HARNESS_MAIN
