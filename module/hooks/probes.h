/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - a tracepoint not exported to modules, a kretprobe under
 * one of several names (probes.c).
 */
#ifndef _AIE_PROBES_H
#define _AIE_PROBES_H

struct kretprobe;
struct tracepoint;

struct tracepoint *aie_tracepoint_find(const char *name);
int aie_kretprobe_register_named(struct kretprobe *rp, unsigned int per_cpu,
				 const char * const *names, unsigned int nr);

#endif /* _AIE_PROBES_H */
