/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie_ioctl.h - the ioctls of /proc/allocinfo_ext, called as the tests
 * call them (aie_ioctl.c).
 */
#ifndef AIE_IOCTL_H
#define AIE_IOCTL_H

#include <allocinfo_ext_ioctl.h>

/* 0, or -errno of the ioctl. */
int aie_ioc(int fd, unsigned long cmd, void *arg);
/* The content id; ~0 when the ioctl fails. */
unsigned long long aie_content_id(int fd);
/* @src into a name field of the ioctls, padded with NULs. */
void aie_set_str(char *dst, const char *src);
/* A filter on the helper's module, with the bits of @mask besides. */
struct allocinfo_ext_filter aie_helper_filter(unsigned long long mask);
/* GET_AT of @pos with @f (NULL: none), the row into @d; 0 or -errno. */
int aie_get_at(int fd, unsigned long long pos,
	       const struct allocinfo_ext_filter *f,
	       struct allocinfo_ext_tag_data *d);
/*
 * The rows matching @f, by GET_AT at 0 then GET_NEXT to the end, up to
 * @max of them into @rows (may be NULL); how many, or -errno.
 */
int aie_walk(int fd, const struct allocinfo_ext_filter *f,
	     struct allocinfo_ext_tag_data *rows, int max);
/* The one row matching @f into @d: 1; else how many matched, or -errno. */
int aie_only_row(int fd, const struct allocinfo_ext_filter *f,
		 struct allocinfo_ext_tag_data *d);

#endif /* AIE_IOCTL_H */
