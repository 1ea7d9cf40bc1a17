/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - the module's parameters, all in params.c: read-only once
 * the module is loaded (0444), checked by aie_params_check() at init.
 */
#ifndef _AIE_PARAMS_H
#define _AIE_PARAMS_H

#include <linux/types.h>

extern unsigned int aie_max_sites;
extern unsigned int aie_sites_ahead_param;
extern unsigned long aie_max_objects;
extern unsigned long aie_records_start;
extern unsigned long aie_sample_param;
extern unsigned int aie_max_stacks;
extern bool aie_slabmap_param;
extern bool aie_lifetimes_param;
extern char *aie_hooks_param;
extern unsigned int aie_oom_top;
extern char *aie_numa_param;
extern bool aie_cgroups_param;
extern unsigned int aie_cgroup_sites;

/* The most (site, cgroup) pairs: a pair's number is 16 bits (cgsites.c). */
#define AIE_CGROUP_SITES_MAX	32768

/* The most rows an OOM report prints (iface/oom.c). */
#define AIE_OOM_TOP_MAX		64

int aie_params_check(void);
unsigned long aie_max_records(void);
unsigned int aie_counter_slots(void);
bool aie_slabmap_wanted(void);
unsigned long aie_objects_wanted(void);

#endif /* _AIE_PARAMS_H */
