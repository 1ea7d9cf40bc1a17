// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - what the hooks need of the kernel's probe interfaces: a
 * tracepoint that is not exported to modules, and a kretprobe on a
 * function whose name changed across versions. Process context.
 */

#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "probes.h"

/*
 * Register @rp on the first of @names (nr of them) the kernel has: the
 * same function under its names across versions (compat.h). @rp's
 * handlers and data size are kept, its maxactive set to @per_cpu per
 * possible CPU and at least 64; the rest is reset for each try, so that
 * @rp may be one that was registered before. Returns register_kretprobe()'s
 * last answer. Process context.
 */
int aie_kretprobe_register_named(struct kretprobe *rp, unsigned int per_cpu,
				 const char * const *names, unsigned int nr)
{
	const struct kretprobe tmpl = {
		.entry_handler = rp->entry_handler,
		.handler = rp->handler,
		.data_size = rp->data_size,
		.maxactive = max(64U, per_cpu * num_possible_cpus()),
	};
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < nr && names[i] && ret; i++) {
		*rp = tmpl;
		rp->kp.symbol_name = names[i];
		ret = register_kretprobe(rp);
	}
	return ret;
}

struct aie_tp_lookup {
	const char *name;
	struct tracepoint *tp;
};

static void aie_tp_match(struct tracepoint *tp, void *priv)
{
	struct aie_tp_lookup *l = priv;

	if (!strcmp(tp->name, l->name))
		l->tp = tp;
}

/* A tracepoint of the kernel proper that is not exported to modules. */
struct tracepoint *aie_tracepoint_find(const char *name)
{
	struct aie_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(aie_tp_match, &l);
	return l.tp;
}
