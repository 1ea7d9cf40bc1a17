/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ioctl.h - the ioctls of /proc/allocinfo_ext, those of 7.3's
 * /proc/allocinfo (ioctl.c).
 */
#ifndef _AIE_IOCTL_H
#define _AIE_IOCTL_H

#include <linux/mutex.h>
#include <linux/types.h>

#include <allocinfo_ext_ioctl.h>

#include "core/symbols.h"

/* One open file's iterator (proc.c keeps it with the file). */
struct aie_ioctl_file {
	struct mutex lock;		/* the rest, for one ioctl at a time */
	struct allocinfo_ext_filter filter;	/* GET_AT's, for GET_NEXT */
	u32 next;			/* the site GET_NEXT looks at first */
	bool positioned;		/* false: GET_NEXT starts at row 0 */
	struct aie_sym sym;		/* names the rows */
};

void aie_ioctl_open(struct aie_ioctl_file *f);
void aie_ioctl_release(struct aie_ioctl_file *f);
long aie_ioctl(struct aie_ioctl_file *f, unsigned int cmd, void __user *arg);

#endif /* _AIE_IOCTL_H */
