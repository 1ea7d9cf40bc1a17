/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modules.h - sites in modules that unload, and the count of modules
 * loaded and unloaded (modules.c).
 */
#ifndef _AIE_MODULES_H
#define _AIE_MODULES_H

#include <linux/types.h>

int aie_modules_init(void);
void aie_modules_exit(void);
u64 aie_modules_changes(void);

#endif /* _AIE_MODULES_H */
