/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctl.h - the control words written to /proc/allocinfo_ext.
 *
 * ctl.c parses them. It uses nothing but string functions, so it builds
 * unchanged in userspace for fuzzing (ctl_fuzz_test).
 */
#ifndef _AIE_CTL_H
#define _AIE_CTL_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#endif

#include <allocinfo_ext.h>

/* Longest function, module or file:line name in a control word. */
#define AIE_NAME_MAX	AIE_CTL_MAX_LEN

enum aie_verb {
	AIE_CMD_ENABLE,
	AIE_CMD_DISABLE,
	AIE_CMD_RESET,
	AIE_CMD_LOCATE,
	AIE_CMD_SAMPLE,
	AIE_CMD_CAPTURE,	/* capture <sel> [depth] */
	AIE_CMD_CAPTURE_OFF,	/* capture off */
	AIE_CMD_CGROUPS,	/* cgroups on|off: bytes 1 or 0 */
};

/* Frames a "capture" records per stack: 1..AIE_CAPTURE_DEPTH_MAX. */
#define AIE_CAPTURE_DEPTH_DEFAULT	8
#define AIE_CAPTURE_DEPTH_MAX		16

enum aie_sel_kind {
	AIE_SEL_ALL,		/* all */
	AIE_SEL_FUNC,		/* func:<name> */
	AIE_SEL_MODULE,		/* [<module>] */
	AIE_SEL_FUNC_OFF,	/* <function>+0x<off> */
	AIE_SEL_FILE_LINE,	/* <file>:<line> */
};

struct aie_sel {
	enum aie_sel_kind kind;
	unsigned long offset;		/* AIE_SEL_FUNC_OFF */
	char name[AIE_NAME_MAX];	/* function, module, or "file:line" */
};

struct aie_cmd {
	enum aie_verb verb;
	struct aie_sel sel;		/* enable, disable, capture; locate: the site */
	struct aie_sel loc;		/* locate: its file:line */
	char func[AIE_NAME_MAX];	/* locate: its function, or "" */
	unsigned long bytes;		/* sample: bytes per sample, 0 = all */
	unsigned int depth;		/* capture: frames per stack */
};

const char *aie_ctl_parse(const char *buf, size_t len, struct aie_cmd *cmd);

bool aie_sel_equal(const struct aie_sel *a, const struct aie_sel *b);

#endif /* _AIE_CTL_H */
