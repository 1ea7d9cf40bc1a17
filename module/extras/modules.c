// SPDX-License-Identifier: GPL-2.0
/*
 * modules.c - retire the sites of modules that unload, and of a module's
 * __init code once it is live.
 *
 * When a module goes, kallsyms forgets its symbols and its text may later
 * hold another module. Each of its sites is retired then: it keeps its
 * name (copied while kallsyms still knows it), shows as "unloaded", leaves
 * the lookup so that code loaded later at the same address gets sites of
 * its own, and keeps charging back the frees of the objects the module
 * left live. A module that leaves live allocations gets one pr_warn.
 *
 * A module's __init code goes the same way once the module is live: the
 * kernel frees it (and forgets its symbols) after MODULE_STATE_LIVE's
 * notifiers, and the space may later hold another module's code. The
 * sites there are retired then, while kallsyms still names them: each
 * keeps its name and what the init code left live, shows as "unloaded",
 * and a call at the same address later gets a site of its own.
 * within_module_init() says where that code is on every kernel built for
 * (mod->init_layout on 5.10 and 6.1, mod->mem[]'s init types from 6.4).
 * The kernel frees its own init code (free_initmem()) before it runs the
 * initramfs's /init, which loads this module at the earliest (its
 * init-top script or dracut hook): none of it runs while the module is
 * loaded, and its addresses never hold code again.
 *
 * Each module that loads, ends its init or unloads also changes the
 * ioctls' content id (core/rowset.c).
 *
 * Notes on locking
 * ----------------
 * The notifier runs in process context: for MODULE_STATE_GOING after the
 * module's exit function (or its failed init), when none of its code can
 * allocate any more; for MODULE_STATE_LIVE after its init function, when
 * none of its __init code can, but for async work its init left running
 * (see Documentation/limitations.rst). It takes the rules mutex
 * (core/rules.c) so that no control write walks the sites meanwhile; the
 * same mutex guards aie_modules_sym, the buffer the retired sites are
 * named in.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/sched.h>

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

/* Where a retired site is named: static, so that no site stays unnamed. */
static struct aie_sym aie_modules_sym;	/* under aie_rules_lock() */

/* Tell whether @addr is in @mod's code that goes: all of it, or its __init. */
static bool aie_modules_going(unsigned long addr, const struct module *mod,
			      bool init)
{
	return init ? within_module_init(addr, mod) : within_module(addr, mod);
}

/*
 * Tell whether @site is one of @mod's __init code, retired when @mod went
 * live (AIE_SITE_INIT): @mod is going (not @init), and its name, which no
 * other loaded module has, is the site's module's.
 */
static bool aie_modules_init_site(const struct aie_site *site,
				  const struct module *mod, bool init)
{
	return !init && test_bit(AIE_SITE_INIT, &site->flags) &&
	       site->name->module && !strcmp(site->name->module, mod->name);
}

/*
 * Retire the sites of @mod (aie_site_retire()), of its __init code alone
 * when @init (marked AIE_SITE_INIT until @mod goes), and sum what they
 * left live into @r, with, when @mod goes, what its __init code's sites
 * still hold. A site that cannot be named for want of memory stays as it
 * was: named while it can.
 */
static void aie_modules_retire(struct module *mod, bool init,
			       struct aie_retired *r)
{
	u32 i, n = aie_sites_nr();
	struct aie_site_sums sums;
	struct aie_site *site;

	aie_rules_lock();
	for (i = 0; i < n; i++) {
		cond_resched();
		site = aie_site_at(i);
		/* A pair goes with its site, which names its row */
		if (!site || test_bit(AIE_SITE_CGROUP, &site->flags))
			continue;
		if (aie_modules_init_site(site, mod, init))
			clear_bit(AIE_SITE_INIT, &site->flags);
		else if (test_bit(AIE_SITE_UNLOADED, &site->flags) ||
			 !aie_modules_going(site->call_site, mod, init) ||
			 !aie_site_retire(site, &aie_modules_sym))
			continue;
		else if (init)
			set_bit(AIE_SITE_INIT, &site->flags);
		r->sites++;
		aie_site_sum(i, &sums);
		r->live_calls += aie_live(sums.live_calls);
		r->live_bytes += aie_live(sums.live_bytes);
	}
	aie_site_caches_retire();
	aie_rules_unlock();
}

/*
 * Change the ioctls' content id as a module loads, ends its init or
 * unloads, and retire the sites of the code that goes.
 */
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
	case MODULE_STATE_LIVE:
		aie_rowset_begin();
		aie_modules_retire(mod, true, &r);
		aie_rowset_end();
		return NOTIFY_OK;
	case MODULE_STATE_GOING:
		aie_rowset_begin();
		aie_modules_retire(mod, false, &r);
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

/**
 * aie_modules_init() - Watch modules load, go live and unload.
 *
 * Context: Process context, module init.
 * Return: 0, or the error of register_module_notifier().
 */
int aie_modules_init(void)
{
	return register_module_notifier(&aie_module_nb);
}

/**
 * aie_modules_exit() - Stop watching modules.
 *
 * Context: Process context, module exit.
 */
void aie_modules_exit(void)
{
	unregister_module_notifier(&aie_module_nb);
}
