// SPDX-License-Identifier: GPL-2.0
/*
 * probes.c - find a tracepoint that is not exported to modules, and
 * attach a kretprobe to a function whose name changed across versions:
 * what the hooks need of the kernel's probe interfaces.
 *
 * Notes on locking
 * ----------------
 * None taken here: process context, at module init and exit and under the
 * rules mutex; for_each_kernel_tracepoint() and register_kretprobe() take
 * the kernel's own.
 */

#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "probes.h"

/**
 * aie_kretprobe_register_named() - Register a kretprobe under one of names.
 * @rp: the kretprobe; its handlers and data size are kept, the rest is
 *	reset for each try, so that @rp may be one registered before.
 * @per_cpu: instances per possible CPU; maxactive is at least 64.
 * @names: the same function under its names across versions (compat.h).
 * @nr: the number of @names; a NULL name ends them earlier.
 *
 * Register @rp on the first of @names the kernel has.
 *
 * Context: Process context.
 * Return: register_kretprobe()'s last answer, or -ENOENT with no name.
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

/* Keep @tp if it has the name looked for. */
static void aie_tp_match(struct tracepoint *tp, void *priv)
{
	struct aie_tp_lookup *l = priv;

	if (!strcmp(tp->name, l->name))
		l->tp = tp;
}

/**
 * aie_tracepoint_find() - Find a tracepoint of the kernel proper by name.
 * @name: the tracepoint's name, e.g. "mm_page_alloc".
 *
 * For tracepoints that are not exported to modules.
 *
 * Context: Process context.
 * Return: the tracepoint, or NULL if the kernel has none of that name.
 */
struct tracepoint *aie_tracepoint_find(const char *name)
{
	struct aie_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(aie_tp_match, &l);
	return l.tp;
}
