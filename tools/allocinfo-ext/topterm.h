/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topterm.h - `allocinfo-ext top` in a terminal (topterm.c).
 */
#ifndef _AIE_TOOL_TOPTERM_H
#define _AIE_TOOL_TOPTERM_H

#include "topsample.h"

/* The terminal: samples every delay, keys between them. */
int top_screen(struct top_opts *o);

#endif /* _AIE_TOOL_TOPTERM_H */
