// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl32_test - ioctl_test built for i386 (ioctl32_test.i386, beside this
 * program), so that its ioctls go through the module's compat entry on an
 * x86_64 kernel: the same cases and figures as the 64-bit build's. This
 * program runs it, and skips when the kernel runs no i386 program (no
 * CONFIG_IA32_EMULATION, or ia32_emulation=0 on its command line).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"

#define SUFFIX	".i386"

int main(int argc, char **argv)
{
	char path[PATH_MAX];
	ssize_t n;

	(void)argc;
	n = readlink("/proc/self/exe", path, sizeof(path) - sizeof(SUFFIX));
	if (n < 0)
		ksft_exit_fail_msg("readlink /proc/self/exe: %s\n",
				   strerror(errno));
	memcpy(path + n, SUFFIX, sizeof(SUFFIX));
	ksft_print_msg("running %s\n", path);
	fflush(stdout);
	execv(path, argv);
	if (errno == ENOEXEC)
		ksft_exit_skip("%s: %s (CONFIG_IA32_EMULATION, ia32_emulation=)\n",
			       path, "the kernel runs no i386 program");
	ksft_exit_fail_msg("execv %s: %s\n", path, strerror(errno));
}
