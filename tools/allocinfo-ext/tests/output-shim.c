// SPDX-License-Identifier: GPL-2.0
/*
 * output-shim.c - an LD_PRELOAD library for output-tests.sh. Each fsync()
 * the tool makes is logged to $AIE_SHIM_LOG as the path of its file; with
 * $AIE_SHIM_SIGNAL set to a signal number, each fsync() sends the tool
 * that signal first: it comes while the temporary file of -o exists.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int (*fsync_fn)(int fd);

int fsync(int fd)
{
	fsync_fn real_fsync = (fsync_fn)dlsym(RTLD_NEXT, "fsync");
	const char *log = getenv("AIE_SHIM_LOG");
	const char *sig = getenv("AIE_SHIM_SIGNAL");
	char link[64], path[4096];
	ssize_t n;
	FILE *f;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	path[n < 0 ? 0 : n] = '\0';
	f = log ? fopen(log, "a") : NULL;
	if (f) {
		fprintf(f, "%s\n", path);
		fclose(f);
	}
	if (sig)
		kill(getpid(), atoi(sig));
	return real_fsync(fd);
}
