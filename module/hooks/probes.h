/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - a tracepoint not exported to modules, a kretprobe under
 * one of several names (probes.c).
 */
#ifndef _AIE_PROBES_H
#define _AIE_PROBES_H

#include <linux/build_bug.h>
#include <linux/compiler.h>

/*
 * AIE_TP_PROBE_CHECK(name, probe): the build fails unless @probe has the
 * type the tracepoint @name calls its probes with on the kernel built for.
 * tracepoint_probe_register(), which attaches the probes of tracepoints
 * found by name, takes any pointer: a tracepoint whose arguments changed
 * (oom:mark_victim gained the task and lost the pid) would call a probe
 * with arguments it does not expect. The reference is the kernel's own
 * declaration, register_trace_<name>(void (*probe)(data_proto), void *),
 * which every tracepoint's header defines (an inline, never called
 * here): the file using it includes that trace/events header. Function
 * types compare exactly, parameter for parameter (gfp_t is unsigned int
 * to the compiler: sparse sees the rest). Probes attached with
 * register_trace_<name>() itself (slab.c, compat.h) are checked by the
 * call, -Werror=incompatible-pointer-types being in every kernel's flags.
 */
#define AIE_TP_PROBE_CHECK(name, probe)					\
	static_assert(__same_type(&register_trace_##name,		\
				  int (*)(typeof(probe) *, void *)),	\
		      #probe " is not a " #name " probe")

struct kretprobe;
struct tracepoint;

struct tracepoint *aie_tracepoint_find(const char *name);
int aie_kretprobe_register_named(struct kretprobe *rp, unsigned int per_cpu,
				 const char * const *names, unsigned int nr);

#endif /* _AIE_PROBES_H */
