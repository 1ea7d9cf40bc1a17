/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control.h - control words written to /proc/allocinfo_ext, checked first
 * by the module's own parser (module/lib/ctl.c) so a rejection says why.
 */
#ifndef _AIE_TOOL_CONTROL_H
#define _AIE_TOOL_CONTROL_H

struct control {
	const char *path;
	int fd;
};

/* Open @path (NULL: /proc/allocinfo_ext) for control writes. 0 or -1. */
int control_open(struct control *c, const char *path);
void control_close(struct control *c);

/* Check @word as the module would. NULL when good, else the reason. */
const char *control_check(const char *word);

/* Check, then write one command. 0, or -1 after a message. */
int control_write(struct control *c, const char *word);

#endif /* _AIE_TOOL_CONTROL_H */
