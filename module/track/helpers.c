// SPDX-License-Identifier: GPL-2.0
/*
 * helpers.c - an allocation made inside a helper (a function such as
 * kstrdup() or kmemdup(), which allocates for its caller) is charged to
 * the helper's caller, found on the stack.
 *
 * Notes on locking
 * ----------------
 * None: the hooks call this with preemption disabled, in any context, NMI
 * included. stack_trace_save() neither sleeps nor allocates, and the
 * caller's site comes from aie_site_get(), lock-free (core/sites.c).
 */

#include <linux/stacktrace.h>

#include <allocinfo_ext.h>

#include "aie.h"
#include "core/sites.h"
#include "core/stats.h"
#include "helpers.h"

/* Frames a walk looks at for a helper's caller. */
#define AIE_STACK_DEPTH	24

/**
 * aie_helper_caller() - Find the site to charge for an event at a helper.
 * @site: the helper's site (core/callers.c).
 *
 * Context: The hooks: any context, NMI included, preemption disabled.
 * Return: the site of the first caller above @site on the stack that is
 * no helper; @site itself when the stack does not show it (the unwinder
 * lost track), or the site table is full (counted in helper_fallbacks).
 */
struct aie_site *aie_helper_caller(struct aie_site *site)
{
	unsigned long entries[AIE_STACK_DEPTH];
	struct aie_site *caller;
	unsigned int i, nr;

	nr = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < nr && entries[i] != site->call_site; i++)
		;
	while (++i < nr) {
		caller = aie_site_get(entries[i], site->type);
		if (!caller)
			break;
		if (!test_bit(AIE_SITE_HELPER, &caller->flags))
			return caller;
	}
	aie_count(helper_fallbacks);
	return site;
}
