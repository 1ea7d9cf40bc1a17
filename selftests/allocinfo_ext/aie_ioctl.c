// SPDX-License-Identifier: GPL-2.0
/*
 * aie_ioctl.c - the ioctls of /proc/allocinfo_ext for ioctl_test (and
 * ioctl32_test's i386 build of it): one call each, a filter, a walk.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "aie_ioctl.h"

int aie_ioc(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

unsigned long long aie_content_id(int fd)
{
	struct allocinfo_ext_content_id id = { .id = ~0ULL };

	if (aie_ioc(fd, AIE_IOC_CONTENT_ID, &id))
		return ~0ULL;
	return id.id;
}

void aie_set_str(char *dst, const char *src)
{
	memset(dst, 0, AIE_IOC_STR_SIZE);
	snprintf(dst, AIE_IOC_STR_SIZE, "%s", src);
}

struct allocinfo_ext_filter aie_helper_filter(unsigned long long mask)
{
	struct allocinfo_ext_filter f;

	memset(&f, 0, sizeof(f));
	f.mask = AIE_IOC_FILTER_MODNAME | mask;
	aie_set_str(f.fields.modname, "aie_helper");
	return f;
}

int aie_get_at(int fd, unsigned long long pos,
	       const struct allocinfo_ext_filter *f,
	       struct allocinfo_ext_tag_data *d)
{
	struct allocinfo_ext_get_at at;
	int ret;

	memset(&at, 0, sizeof(at));
	at.pos = pos;
	if (f)
		at.filter = *f;
	ret = aie_ioc(fd, AIE_IOC_GET_AT, &at);
	if (!ret && d)
		*d = at.data;
	return ret;
}

int aie_walk(int fd, const struct allocinfo_ext_filter *f,
	     struct allocinfo_ext_tag_data *rows, int max)
{
	struct allocinfo_ext_tag_data d;
	int n = 0, ret;

	ret = aie_get_at(fd, 0, f, &d);
	while (!ret) {
		if (rows && n < max)
			rows[n] = d;
		n++;
		ret = aie_ioc(fd, AIE_IOC_GET_NEXT, &d);
	}
	return ret == -ENOENT ? n : ret;
}

int aie_only_row(int fd, const struct allocinfo_ext_filter *f,
		 struct allocinfo_ext_tag_data *d)
{
	return aie_walk(fd, f, d, 1);
}
