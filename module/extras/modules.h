/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modules.h - sites in modules that unload, and in a module's __init code
 * once it is live (modules.c).
 */
#ifndef _AIE_MODULES_H
#define _AIE_MODULES_H

#include <linux/types.h>

int aie_modules_init(void);
void aie_modules_exit(void);

#endif /* _AIE_MODULES_H */
