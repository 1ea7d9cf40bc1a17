// SPDX-License-Identifier: GPL-2.0
/*
 * file_fuzz - libFuzzer harness for the tool's readers of the module's
 * other files, through the commands that read them, compiled unchanged
 * (main.c's main() renamed): built with -DFUZZ_LEAKS, the input is a
 * lifetimes file (/proc/allocinfo_ext_lifetimes) read by "leaks -j" in
 * both of its rounds beside two fixture tables; with -DFUZZ_CONTEXT, it
 * is the stacks and the calls file (/proc/allocinfo_ext_stacks, _calls)
 * of "context -j". The input reaches the command as /proc/self/fd/N of a
 * memfd; the tables are $AIE_FUZZ_FIXTURES's (run.sh: the tool's test
 * fixtures). Under ASan (leaks too) and UBSan, a command reads the input
 * or refuses it with a message, exit 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd.h"
#include "util.h"

static char msg[512];	/* the last message, kept from stderr */

/* @data in a memfd, named by a path any open() takes. */
static int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char t1[4096], t2[4096];
	char path[64], *argv[16];
	const char *fixtures;
	int fd, argc = 0, ret;

	if (!t1[0]) {
		/* the tables beside the lifetimes: the tool's test fixtures */
		fixtures = getenv("AIE_FUZZ_FIXTURES");
		if (!fixtures)
			fixtures = "../allocinfo-ext/tests/fixtures";
		snprintf(t1, sizeof(t1), "%s/leaks-t1.txt", fixtures);
		snprintf(t2, sizeof(t2), "%s/leaks-t2.txt", fixtures);
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	fd = fuzz_file(data, size, path, sizeof(path));
#ifdef FUZZ_LEAKS
	argv[argc++] = "leaks";
	argv[argc++] = "-j";
	argv[argc++] = t1;
	argv[argc++] = path;
	argv[argc++] = t2;
	argv[argc++] = path;
#else
	argv[argc++] = "context";
	argv[argc++] = "-j";
	argv[argc++] = "--stacks";
	argv[argc++] = path;
	argv[argc++] = "--calls";
	argv[argc++] = path;
	argv[argc++] = "all";
#endif
	argv[argc] = NULL;
	optind = 0;		/* getopt() anew for each input */
	msg[0] = '\0';
	aie_err_capture(msg, sizeof(msg));
#ifdef FUZZ_LEAKS
	ret = cmd_leaks(argc, argv);
#else
	ret = cmd_context(argc, argv);
#endif
	close(fd);
	if (ret && (ret != AIE_EXIT_FAIL || !msg[0]))
		abort();	/* refused without a word, or a bad status */
	return 0;
}
