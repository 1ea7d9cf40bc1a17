// SPDX-License-Identifier: GPL-2.0
/*
 * control.c - what a write to /proc/allocinfo_ext does: the control words
 * (lib/ctl.c parses them) and their effects on the rules, the sites,
 * the counters, sampling, the captures and the hooks.
 *
 * Notes on locking
 * ----------------
 * Writes run in process context and may sleep. Each but "capture" and
 * "cgroups" (extras/cgsites.c's mutex) holds the rules mutex
 * (core/rules.c) throughout: one control write at a time, and none while
 * a module's sites retire (extras/modules.c). A site's
 * location is replaced under it, and freed after synchronize_rcu(), one
 * for all the sites a "locate" names: readers read it under
 * rcu_read_lock().
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <allocinfo_ext.h>

#include "aie.h"
#include "core/counters.h"
#include "core/objects.h"
#include "core/rowset.h"
#include "core/rules.h"
#include "core/sample.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "extras/capture.h"
#include "hooks/hooks.h"
#include "iface/control.h"
#include "lib/ctl.h"

/* Bring one site in line with @rules. The rules mutex held. */
static void aie_control_apply_site(const struct aie_rules *rules,
				   struct aie_site *site, struct aie_sym *sym)
{
	const char *loc;

	aie_rules_assert_held();
	if (!rules) {
		clear_bit(AIE_SITE_DISABLED, &site->flags);
		return;
	}
	/* Replaced under the rules mutex alone, which is held */
	loc = rcu_dereference_protected(site->location, true);
	aie_sym_resolve(site->call_site, sym);
	if (aie_rules_eval(rules, sym, loc))
		set_bit(AIE_SITE_DISABLED, &site->flags);
	else
		clear_bit(AIE_SITE_DISABLED, &site->flags);
}

static void aie_control_apply_all(const struct aie_rules *rules,
				  struct aie_sym *sym)
{
	u32 i, n = aie_sites_nr();
	struct aie_site *site;

	for (i = 0; i < n; i++) {
		site = aie_site_at(i);
		if (site && !test_bit(AIE_SITE_UNLOADED, &site->flags))
			aie_control_apply_site(rules, site, sym);
		cond_resched();
	}
}

/*
 * "enable <sel>", "disable <sel>": the new list in force, then every site
 * brought in line with it. "disable all" alone takes the allocation
 * probes off; any other list puts them back first. The rules mutex held.
 */
static int aie_control_update(const struct aie_cmd *cmd, struct aie_sym *sym)
{
	struct aie_rules *new;
	bool all_off;
	int ret;

	new = aie_rules_add(&cmd->sel, cmd->verb == AIE_CMD_DISABLE);
	if (IS_ERR(new))
		return PTR_ERR(new);
	all_off = aie_rules_all_off(new);
	if (!all_off) {
		/* The sites' own bits decide again: the probes must be on. */
		ret = aie_hooks_allocs_resume();
		if (ret) {
			aie_rules_free(new);
			return ret;
		}
		/* Here only: "disable all" again leaves the key on, unpatched. */
		aie_rules_set_all_off(false);
	}
	aie_rules_replace(new);
	aie_control_apply_all(new, sym);
	if (all_off) {
		aie_rules_set_all_off(true);
		aie_hooks_allocs_pause();
	}
	return 0;
}

/* Make a site's location: "<file>:<line>\0<function>" (aie_location_func()). */
static const char *aie_control_location(const struct aie_cmd *cmd)
{
	size_t n = strlen(cmd->loc.name) + 1, f = strlen(cmd->func) + 1;
	char *loc = kmalloc(n + f, GFP_KERNEL);

	if (loc) {
		memcpy(loc, cmd->loc.name, n);
		memcpy(loc + n, cmd->func, f);
	}
	return loc;
}

/*
 * The locations "locate" replaced, freed after one grace period for the
 * whole command rather than one per site: @nr of them in @old, room for
 * @max.
 */
struct aie_locate_old {
	const char **old;
	unsigned int nr, max;
};

/* Free the replaced locations, once no reader can be reading them. */
static void aie_locate_old_free(struct aie_locate_old *o)
{
	unsigned int i;

	if (!o->nr)
		return;
	synchronize_rcu();
	for (i = 0; i < o->nr; i++)
		kfree(o->old[i]);
	o->nr = 0;
}

/*
 * Keep @old for aie_locate_old_free(). Should the list not grow, those
 * kept so far are freed now (a grace period), and @old with them when
 * there is no list at all.
 */
static void aie_locate_old_keep(struct aie_locate_old *o, const char *old)
{
	const char **p;

	if (!old)
		return;
	if (o->nr == o->max) {
		p = krealloc(o->old, (o->max * 2 + 8) * sizeof(*p),
			     GFP_KERNEL | __GFP_NOWARN);
		if (p) {
			o->old = p;
			o->max = o->max * 2 + 8;
		} else {
			aie_locate_old_free(o);
		}
	}
	if (o->nr < o->max) {
		o->old[o->nr++] = old;
		return;
	}
	synchronize_rcu();
	kfree(old);
}

/*
 * "locate": give the site at <function>+0x<off> its file:line, and the
 * function the call is written in when named. Every site is named to be
 * matched, a reschedule point each.
 */
static int aie_control_locate(const struct aie_cmd *cmd, struct aie_sym *sym)
{
	u32 i, n = aie_sites_nr();
	struct aie_locate_old o = { };
	struct aie_site *site;
	const char *loc;
	int found = 0, ret = 0;

	for (i = 0; i < n; i++) {
		cond_resched();
		site = aie_site_at(i);
		if (!site || test_bit(AIE_SITE_UNLOADED, &site->flags))
			continue;
		aie_sym_resolve(site->call_site, sym);
		if (!aie_sel_match(&cmd->sel, sym, NULL))
			continue;
		loc = aie_control_location(cmd);
		if (!loc) {
			ret = -ENOMEM;
			break;
		}
		/* Replaced under the rules mutex alone, which is held */
		aie_rowset_begin();	/* its row's name changes */
		loc = rcu_replace_pointer(site->location, loc, true);
		aie_rowset_end();
		aie_locate_old_keep(&o, loc);
		aie_control_apply_site(aie_rules_locked(), site, sym);
		found++;
	}
	aie_locate_old_free(&o);
	kfree(o.old);
	if (ret)
		return ret;
	return found ? 0 : -ENOENT;
}

/**
 * aie_ctl_write() - Carry out a write to /proc/allocinfo_ext.
 * @buf: the words written, not NUL-terminated.
 * @len: their length, below AIE_CTL_MAX_LEN (proc.c checks).
 *
 * Context: Process context; may sleep. Takes the rules mutex, or the
 * capture's or the memory cgroup pairs' own.
 * Return: 0, -EINVAL (one pr_warn) for words that do not parse, -ENOSPC
 * for a full rule list, -ENOENT for a "locate" that named no site,
 * -ENOMEM, or another error of the change.
 */
int aie_ctl_write(const char *buf, size_t len)
{
	struct aie_cmd *cmd;
	struct aie_sym *sym;
	const char *why;
	int ret = 0;

	cmd = kmalloc(sizeof(*cmd), GFP_KERNEL);
	sym = kmalloc(sizeof(*sym), GFP_KERNEL);
	if (!cmd || !sym) {
		ret = -ENOMEM;
		goto out;
	}
	why = aie_ctl_parse(buf, len, cmd);
	if (why) {
		pr_warn_ratelimited("rejected control write \"%*pE\": %s\n",
				    (int)min_t(size_t, len, 64), buf, why);
		ret = -EINVAL;
		goto out;
	}
	if (cmd->verb == AIE_CMD_CAPTURE) {
		ret = aie_capture_start(&cmd->sel, cmd->depth);
		goto out;
	}
	if (cmd->verb == AIE_CMD_CAPTURE_OFF) {
		aie_capture_stop();
		goto out;
	}
	if (cmd->verb == AIE_CMD_CGROUPS) {
		ret = aie_hooks_cgroups_set(cmd->bytes);
		goto out;
	}

	aie_rules_lock();
	switch (cmd->verb) {
	case AIE_CMD_RESET:
		aie_rowset_begin();
		aie_ctrs_reset();
		aie_rowset_end();
		break;
	case AIE_CMD_ENABLE:
	case AIE_CMD_DISABLE:
		ret = aie_control_update(cmd, sym);
		break;
	case AIE_CMD_LOCATE:
		ret = aie_control_locate(cmd, sym);
		break;
	case AIE_CMD_SAMPLE:
		ret = cmd->bytes ? aie_weights_make() : 0;
		if (!ret)
			aie_sample_set(cmd->bytes);
		break;
	default:	/* capture, cgroups: above */
		break;
	}
	aie_rules_unlock();
	if (ret == -ENOSPC)
		pr_warn_ratelimited("rule list full (%d rules)\n", AIE_MAX_RULES);
	else if (ret == -ENOENT)
		pr_warn_ratelimited("locate: no site at %s+0x%lx\n",
				    cmd->sel.name, cmd->sel.offset);
out:
	kfree(sym);
	kfree(cmd);
	return ret;
}
