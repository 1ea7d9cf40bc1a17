// SPDX-License-Identifier: GPL-2.0
/*
 * file_fuzz - libFuzzer harness for the tool's readers of the module's
 * other inputs, through the commands that read them, compiled unchanged
 * (main.c's main() renamed). Built with
 *
 *   -DFUZZ_LEAKS    the input is a lifetimes file
 *                   (/proc/allocinfo_ext_lifetimes), both rounds' of
 *                   "leaks -j" beside two fixture tables;
 *   -DFUZZ_CONTEXT  it is the stacks and the calls file
 *                   (/proc/allocinfo_ext_stacks, _calls) of "context -j";
 *   -DFUZZ_COMPARE  it is the baseline of "compare -j" beside the
 *                   fixtures' tables, matched site by site;
 *   -DFUZZ_LEDGER   its first byte picks a file "ledger -j --root" reads
 *                   in a copy of the fixtures' root (meminfo, slabinfo,
 *                   vmallocinfo, the module's table, the kernel log), the
 *                   rest is that file.
 *
 * leaks, context and compare get the input as /proc/self/fd/N of a memfd.
 * The fixtures are $AIE_FUZZ_FIXTURES's (run.sh: the tool's test
 * fixtures). Under ASan (leaks too) and UBSan, a command reads the input,
 * or refuses it with a message and status 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd.h"
#include "util.h"

static char msg[512];		/* the last message, kept from stderr */
static const char *fixtures;
static char t1[4096], t2[4096];

/* @data in a memfd, named by a path any open() takes. */
static int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Run the command of @argv; abort when it fails without a word. */
static void fuzz_run(int (*cmd)(int, char **), int argc, char **argv)
{
	int ret;

	argv[argc] = NULL;
	optind = 0;		/* getopt() anew for each input */
	msg[0] = '\0';
	aie_err_capture(msg, sizeof(msg));
	ret = cmd(argc, argv);
	if (ret && (ret != AIE_EXIT_FAIL || !msg[0]))
		abort();
}

#ifdef FUZZ_LEDGER
/* The files of a ledger root the input may be, in a copy of the root. */
static const char * const ledger_files[] = {
	"proc/meminfo", "proc/slabinfo", "proc/vmallocinfo",
	"proc/allocinfo_ext", "dmesg",
};

static char root[4096];

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
}

/* The fixtures' ledger root copied to $TMPDIR, once. */
static void ledger_root(void)
{
	char cmd[8400];

	snprintf(root, sizeof(root), "%s/aie-ledger-fuzz.%d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -r '%s/ledger' '%s'",
		 root, fixtures, root);
	if (system(cmd))
		abort();
}

/* File @i of the root as the fixtures have it, after an input. */
static void ledger_restore(size_t i)
{
	char from[8400], to[8400], *text;
	size_t len;

	snprintf(from, sizeof(from), "%s/ledger/%s", fixtures, ledger_files[i]);
	snprintf(to, sizeof(to), "%s/%s", root, ledger_files[i]);
	text = read_whole_file(from, &len);
	if (!text)
		abort();
	write_file(to, text, len);
	free(text);
}

static void fuzz_ledger(const uint8_t *data, size_t size)
{
	char *argv[] = { "ledger", "-j", "-l", "0", "--root", root, NULL };
	char file[8400];
	size_t i;

	if (!root[0])
		ledger_root();
	if (!size)
		return;
	i = data[0] % ARRAY_SIZE(ledger_files);
	snprintf(file, sizeof(file), "%s/%s", root, ledger_files[i]);
	write_file(file, data + 1, size - 1);
	fuzz_run(cmd_ledger, ARRAY_SIZE(argv) - 1, argv);
	ledger_restore(i);
}
#else
/* leaks, compare or context, the input as a file of their own. */
static void fuzz_memfd(const uint8_t *data, size_t size)
{
	char path[64], *argv[16];
	int fd, argc = 0;

	fd = fuzz_file(data, size, path, sizeof(path));
#if defined(FUZZ_LEAKS)
	snprintf(t1, sizeof(t1), "%s/leaks-t1.txt", fixtures);
	snprintf(t2, sizeof(t2), "%s/leaks-t2.txt", fixtures);
	argv[argc++] = "leaks";
	argv[argc++] = "-j";
	argv[argc++] = t1;
	argv[argc++] = path;
	argv[argc++] = t2;
	argv[argc++] = path;
	fuzz_run(cmd_leaks, argc, argv);
#elif defined(FUZZ_COMPARE)
	snprintf(t1, sizeof(t1), "%s/cmp-ours.txt", fixtures);
	snprintf(t2, sizeof(t2), "%s/cmp-theirs.txt", fixtures);
	argv[argc++] = "compare";
	argv[argc++] = "-j";
	argv[argc++] = "--ours";
	argv[argc++] = t1;
	argv[argc++] = "--theirs";
	argv[argc++] = t2;
	argv[argc++] = "--baseline";
	argv[argc++] = path;
	fuzz_run(cmd_compare, argc, argv);
#else
	argv[argc++] = "context";
	argv[argc++] = "-j";
	argv[argc++] = "--stacks";
	argv[argc++] = path;
	argv[argc++] = "--calls";
	argv[argc++] = path;
	argv[argc++] = "all";
	fuzz_run(cmd_context, argc, argv);
#endif
	close(fd);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fixtures) {
		fixtures = getenv("AIE_FUZZ_FIXTURES");
		if (!fixtures)
			fixtures = "../allocinfo-ext/tests/fixtures";
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
#ifdef FUZZ_LEDGER
	fuzz_ledger(data, size);
#else
	fuzz_memfd(data, size);
#endif
	return 0;
}
