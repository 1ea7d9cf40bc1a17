// SPDX-License-Identifier: GPL-2.0
/*
 * helpers.c - an allocation made inside a helper (a function such as
 * kstrdup() or kmemdup(), which allocates for its caller) is charged to
 * the helper's caller, found on the stack.
 *
 * Context: the hooks, with preemption disabled, any context, NMI included.
 * stack_trace_save() neither sleeps nor allocates.
 */

#include <linux/stacktrace.h>

#include <allocinfo_ext.h>

#include "aie.h"
#include "core/sites.h"
#include "core/stats.h"
#include "helpers.h"

/* Frames a walk looks at for a helper's caller. */
#define AIE_STACK_DEPTH	24

/*
 * The site to charge for an event at @site, a helper (core/callers.c):
 * the first caller above it on the stack that is no helper. @site itself when the stack
 * does not show it (the unwinder lost track), or the table is full.
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
