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
 *
 * Notes on locking
 * ----------------
 * The notifier runs in process context, after the module's exit function,
 * when none of its code can allocate any more. It takes aie_rules_mutex
 * (through aie_sites_retire()) so that no control write walks the sites
 * meanwhile.
 */

#include <linux/module.h>
#include <linux/notifier.h>

#include "aie.h"

static int aie_module_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct module *mod = data;
	struct aie_retired r = { };

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	aie_sites_retire(mod, &r);
	if (r.live_calls)
		pr_warn("module %s unloaded with %lld allocations (%lld bytes) live at %u sites\n",
			mod->name, r.live_calls, r.live_bytes, r.sites);
	return NOTIFY_OK;
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
