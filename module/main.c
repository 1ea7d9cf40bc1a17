// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - init and exit of allocinfo_ext, per-call-site kernel memory
 * attribution for kernels built without CONFIG_MEM_ALLOC_PROFILING (see
 * Documentation/allocinfo_ext.rst).
 *
 * Init makes each layer's structures from the bottom up (aie.h), attaches
 * the hooks once what they use is made, then the module notifier, the
 * /proc files and the OOM report; an error unwinds what was made, in
 * reverse. Exit takes those and the hooks away first, then frees from the
 * top down.
 *
 * Notes on locking
 * ----------------
 * None here: init and exit run in process context, alone (the module
 * loader serialises them), and take the units' locks through their calls.
 * Every structure the allocation hooks use is made before
 * aie_hooks_register() and freed after aie_hooks_unregister(), which
 * waits for every hook still running.
 */

#include <linux/module.h>

#include "aie.h"
#include "arch/arch.h"
#include "core/counters.h"
#include "core/nodes.h"
#include "core/objects.h"
#include "core/params.h"
#include "core/rules.h"
#include "core/sample.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "extras/capture.h"
#include "extras/cgsites.h"
#include "extras/lifetimes.h"
#include "extras/memcg.h"
#include "extras/modules.h"
#include "hooks/hooks.h"
#include "iface/oom.h"
#include "iface/proc.h"
#include "track/free.h"

/* Check the parameters and make everything, from the bottom layer up. */
static int __init allocinfo_ext_init(void)
{
	int ret;

	ret = aie_params_check();
	if (ret)
		return ret;
	aie_arch_init();
	ret = aie_hooks_select(aie_hooks_param);
	if (ret)
		return ret;
	ret = aie_rules_init();
	if (ret)
		return ret;
	ret = aie_syms_init();
	if (ret)
		goto err_syms;
	ret = aie_sites_init(aie_max_sites, aie_sites_ahead_param,
			     aie_ctr_slot_of);
	if (ret)
		goto err_sites;
	ret = aie_ctrs_init(aie_counter_slots());
	if (ret)
		goto err_ctrs;
	ret = aie_nodes_init(aie_numa_param, aie_max_sites);
	if (ret)
		goto err_nodes;
	ret = aie_track_init(aie_objects_wanted(), aie_lifetimes_param,
			     aie_nodes_on());
	if (ret)
		goto err_objmap;
	ret = aie_lifetimes_init(aie_lifetimes_param, aie_max_sites);
	if (ret)
		goto err_lifetimes;
	ret = aie_sample_param ? aie_weights_make() : 0;
	if (ret)
		goto err_hooks;
	aie_sample_init(aie_sample_param);
	aie_memcg_init();
	aie_capture_init();
	ret = aie_cgsites_init(aie_cgroups_param, aie_cgroup_sites);
	if (ret)
		goto err_hooks;
	ret = aie_hooks_register();
	if (ret)
		goto err_register;
	ret = aie_modules_init();
	if (ret)
		goto err_modules;
	aie_oom_init();
	ret = aie_proc_init();
	if (ret)
		goto err_proc;
	return 0;

err_proc:
	aie_oom_exit();
	aie_modules_exit();
err_modules:
	aie_hooks_unregister();
err_register:
	aie_cgsites_exit();
err_hooks:
	aie_lifetimes_exit();
err_lifetimes:
	aie_track_exit();
err_objmap:
	aie_nodes_exit();
err_nodes:
	aie_ctrs_exit();
err_ctrs:
	aie_sites_exit();
err_sites:
	aie_syms_exit();
err_syms:
	aie_rules_exit();
	return ret;
}

/* Take the interfaces and the hooks away, then free everything, top down. */
static void __exit allocinfo_ext_exit(void)
{
	aie_oom_exit();		/* aie_hooks_unregister() waits for its probe */
	aie_proc_exit();
	aie_modules_exit();
	aie_hooks_unregister();
	aie_cgsites_exit();
	aie_capture_exit();
	aie_lifetimes_exit();
	aie_track_exit();
	aie_nodes_exit();
	aie_ctrs_exit();	/* its CPU hotplug callback moves to sites */
	aie_sites_exit();
	aie_syms_exit();
	aie_rules_exit();
}

module_init(allocinfo_ext_init);
module_exit(allocinfo_ext_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Per-call-site kernel memory attribution (/proc/allocinfo_ext)");
MODULE_AUTHOR("allocinfo-ext developers");
