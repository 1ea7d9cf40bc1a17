// SPDX-License-Identifier: GPL-2.0
/*
 * modules.c - sites in modules that unload.
 *
 * When a module goes, kallsyms forgets its symbols and its text may later
 * hold another module. Each of its sites is retired then: it keeps its
 * name (copied while kallsyms still knows it), shows as "unloaded", leaves
 * the lookup so that code loaded later at the same address gets sites of
 * its own, and keeps charging back the frees of the objects the module
 * left live. A module that leaves live allocations gets one pr_warn.
 * Each module that loads or unloads also changes the ioctls' content id
 * (core/rowset.c).
 *
 * Notes on locking
 * ----------------
 * The notifier runs in process context, after the module's exit function,
 * when none of its code can allocate any more. It takes the rules mutex
 * (core/rules.c) so that no control write walks the sites meanwhile.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "aie.h"
#include "core/counters.h"
#include "core/rowset.h"
#include "core/rules.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "lib/line.h"
#include "modules.h"

/* What aie_modules_retire() found: the sites of a module that unloads. */
struct aie_retired {
	unsigned int sites;
	u64 live_calls;		/* aie_live(), lib/line.h */
	u64 live_bytes;
};

/*
 * Retire the sites of @mod (aie_site_retire()), and sum what it left live
 * into @r. A site that cannot be named for want of memory stays as it
 * was: named while it can.
 */
static void aie_modules_retire(struct module *mod, struct aie_retired *r)
{
	u32 i, n = aie_sites_nr();
	struct aie_site_sums sums;
	struct aie_site *site;
	struct aie_sym *sym;

	sym = kmalloc(sizeof(*sym), GFP_KERNEL);
	if (!sym)
		return;
	aie_rules_lock();
	for (i = 0; i < n; i++) {
		cond_resched();
		site = aie_site_at(i);
		if (!site || test_bit(AIE_SITE_UNLOADED, &site->flags) ||
		    !within_module(site->call_site, mod))
			continue;
		if (!aie_site_retire(site, sym))
			continue;
		r->sites++;
		aie_site_sum(i, &sums);
		r->live_calls += aie_live(sums.live_calls);
		r->live_bytes += aie_live(sums.live_bytes);
	}
	aie_site_caches_retire();
	aie_rules_unlock();
	kfree(sym);
}

static int aie_module_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct module *mod = data;
	struct aie_retired r = { };

	switch (action) {
	case MODULE_STATE_COMING:
		aie_rowset_begin();
		aie_rowset_end();
		return NOTIFY_OK;
	case MODULE_STATE_GOING:
		aie_rowset_begin();
		aie_modules_retire(mod, &r);
		aie_rowset_end();
		if (r.live_calls)
			pr_warn("module %s unloaded with %llu allocations (%llu bytes) live at %u sites\n",
				mod->name, r.live_calls, r.live_bytes, r.sites);
		return NOTIFY_OK;
	default:
		return NOTIFY_DONE;
	}
}

static struct notifier_block aie_module_nb = {
	.notifier_call = aie_module_notify,
};

int aie_modules_init(void)
{
	return register_module_notifier(&aie_module_nb);
}

void aie_modules_exit(void)
{
	unregister_module_notifier(&aie_module_nb);
}
