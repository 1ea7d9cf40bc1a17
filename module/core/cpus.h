/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpus.h - per-CPU parts made as CPUs come up (cpus.c).
 */
#ifndef _AIE_CPUS_H
#define _AIE_CPUS_H

int aie_cpus_setup(const char *name, int (*prepare)(unsigned int cpu),
		   int (*dead)(unsigned int cpu));

#endif /* _AIE_CPUS_H */
