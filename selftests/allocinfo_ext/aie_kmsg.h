/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie_kmsg.h - the tests' reader of the kernel log (aie_kmsg.c).
 */
#ifndef _AIE_KMSG_H
#define _AIE_KMSG_H

#include <stddef.h>

/* A descriptor of /dev/kmsg read from now on; -errno on error. */
int aie_kmsg_open(void);

/*
 * The text of the next kernel log record from @fd, read into @rec; NULL
 * when none is left.
 */
const char *aie_kmsg_next(int fd, char *rec, size_t size);

/* How many kernel log lines since aie_kmsg_open() contain @text. */
int aie_kmsg_count(int fd, const char *text);

#endif /* _AIE_KMSG_H */
