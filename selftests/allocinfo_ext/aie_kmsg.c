// SPDX-License-Identifier: GPL-2.0
/*
 * aie_kmsg.c - the tests' reader of the kernel log, /dev/kmsg, from the
 * moment it is opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "aie_kmsg.h"

int aie_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

const char *aie_kmsg_next(int fd, char *rec, size_t size)
{
	ssize_t n;
	char *text;

	/* One record per read; EAGAIN when none is left. */
	for (;;) {
		n = read(fd, rec, size - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten: read on */
		if (n <= 0)
			return NULL;
		rec[n] = '\0';
		text = strchr(rec, ';');	/* "prio,seq,usec,flags;text" */
		return text ? text + 1 : rec;
	}
}

int aie_kmsg_count(int fd, const char *text)
{
	char rec[2048];
	int count = 0;
	const char *t;

	while ((t = aie_kmsg_next(fd, rec, sizeof(rec))))
		count += !!strstr(t, text);
	return count;
}
