/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hooks.h - the hooks as a whole (hooks.c).
 */
#ifndef _AIE_HOOKS_H
#define _AIE_HOOKS_H

#include <linux/init.h>

struct seq_file;

int aie_hooks_select(const char *list);
int aie_hooks_register(void);
void aie_hooks_unregister(void);
void aie_hooks_show(struct seq_file *m);
void aie_hooks_allocs_pause(void);
int aie_hooks_allocs_resume(void);
int aie_hooks_cgroups_set(bool on);

#endif /* _AIE_HOOKS_H */
