/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control.h - a write to /proc/allocinfo_ext: the control words' effects
 * (control.c).
 */
#ifndef _AIE_CONTROL_H
#define _AIE_CONTROL_H

#include <linux/types.h>

int aie_ctl_write(const char *buf, size_t len);

#endif /* _AIE_CONTROL_H */
