/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * allocinfo_ext_ioctl.h - the ioctls of /proc/allocinfo_ext: those Linux
 * 7.3 gives /proc/allocinfo (include/uapi/linux/alloc_tag.h), with the
 * same numbers and layouts under names of their own, so that this header
 * builds on kernels without that one and beside it on those with it.
 * Plain C: it builds in the kernel and in userspace alike. The module
 * checks both agree where the kernel has the UAPI header
 * (module/iface/ioctl.c); Documentation/format.rst says what each returns.
 */
#ifndef _ALLOCINFO_EXT_IOCTL_H
#define _ALLOCINFO_EXT_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Names longer than this, NUL included, keep their last characters. */
#define AIE_IOC_STR_SIZE	64

struct allocinfo_ext_content_id {
	__u64 id;
};

struct allocinfo_ext_tag {
	char modname[AIE_IOC_STR_SIZE];		/* "" for built-in code */
	char function[AIE_IOC_STR_SIZE];
	char filename[AIE_IOC_STR_SIZE];	/* "" for a site not located */
	__u64 lineno;				/* 0 for a site not located */
};

/* 8-byte aligned on 32-bit ABIs too, as the kernel's. */
struct allocinfo_ext_counter {
	__aligned_u64 bytes;	/* live bytes */
	__u64 calls;		/* live calls */
	__u8 accurate;		/* 0: the row is "accurate:no" */
	__u8 pad[7];
};

struct allocinfo_ext_tag_data {
	struct allocinfo_ext_tag tag;
	struct allocinfo_ext_counter counter;
};

/* Bits of allocinfo_ext_filter.mask, each a field that must match. */
#define AIE_IOC_FILTER_MODNAME		0x01
#define AIE_IOC_FILTER_FUNCTION		0x02
#define AIE_IOC_FILTER_FILENAME		0x04
#define AIE_IOC_FILTER_LINENO		0x08
#define AIE_IOC_FILTER_INACCURATE	0x10
#define AIE_IOC_FILTER_MIN_SIZE		0x20
#define AIE_IOC_FILTER_MAX_SIZE		0x40
#define AIE_IOC_FILTER_MASKS		0x7f	/* all of them */

struct allocinfo_ext_filter {
	__u64 mask;
	struct allocinfo_ext_tag fields;
	__u64 min_size;		/* live bytes at least */
	__u64 max_size;		/* live bytes at most */
	__u64 inaccurate;	/* nonzero: "accurate:no" rows only, else none */
};

struct allocinfo_ext_get_at {
	__u64 pos;				/* in: among the matching rows */
	struct allocinfo_ext_filter filter;	/* in */
	struct allocinfo_ext_tag_data data;	/* out */
};

#define AIE_IOC_BASE		0xA6
#define AIE_IOC_CONTENT_ID	_IOR(AIE_IOC_BASE, 0, struct allocinfo_ext_content_id)
#define AIE_IOC_GET_AT		_IOWR(AIE_IOC_BASE, 1, struct allocinfo_ext_get_at)
#define AIE_IOC_GET_NEXT	_IOR(AIE_IOC_BASE, 2, struct allocinfo_ext_tag_data)

#endif /* _ALLOCINFO_EXT_IOCTL_H */
