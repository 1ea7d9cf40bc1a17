// SPDX-License-Identifier: GPL-2.0
/*
 * rules.c - which sites record allocations, and the control writes.
 *
 * "enable <sel>" and "disable <sel>" append a rule; a site's state is the
 * action of the last rule that matches it, enabled when none does. Rules
 * apply to the sites seen so far and to every site first seen later.
 * "enable all" empties the list and "disable all" leaves only itself; a
 * rule with the selector of an older one replaces it.
 *
 * Notes on locking
 * ----------------
 * - aie_rules_mutex serialises control writes (process context). It guards
 *   the rule list's replacement, site locations and the walk that brings
 *   every site's AIE_SITE_DISABLED bit in line with the rules.
 * - The rule list is read by hooks under RCU-sched: probes run with
 *   preemption disabled. A writer publishes a new list, waits with
 *   synchronize_rcu() for every hook that may still use the old one (and so
 *   for every site such a hook created, which is then published), then
 *   walks the sites. A site is therefore never left in a stale state.
 * - Site locations are RCU-protected strings: replaced under the mutex,
 *   freed after a grace period, read by /proc under rcu_read_lock().
 */

#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "aie.h"
#include "ctl.h"

struct aie_rule {
	struct aie_sel sel;
	bool disable;
};

struct aie_rules {
	unsigned int nr;
	struct aie_rule rule[];
};

static DEFINE_MUTEX(aie_rules_mutex);

/*
 * On while the rules are "disable all" alone. The allocation probes are
 * then taken off (aie_hooks_allocs_pause()); a hook still running, and the
 * entry probes of the page allocator, skip every allocation at their
 * first test of it (aie_all_off(), a jump patched in the hooks' code, in
 * place of a load and a test). Switched under aie_rules_mutex, in process
 * context; a hook that runs on the old code follows the sites' own bits,
 * which say the same once the writer's walk is done.
 */
DEFINE_STATIC_KEY_FALSE(aie_all_disabled);
static struct aie_rules __rcu *aie_rules;	/* NULL: no rule, all enabled */

/* The rules in force, for a holder of aie_rules_mutex. */
static struct aie_rules *aie_rules_locked(void)
{
	return rcu_dereference_protected(aie_rules,
					 lockdep_is_held(&aie_rules_mutex));
}

/* For walks of the sites that must not meet a control write. */
void aie_rules_lock(void)
{
	mutex_lock(&aie_rules_mutex);
}

void aie_rules_unlock(void)
{
	mutex_unlock(&aie_rules_mutex);
}

int aie_rules_init(void)
{
	RCU_INIT_POINTER(aie_rules, NULL);
	return 0;
}

/* Process context, after every hook is unregistered and has finished. */
void aie_rules_exit(void)
{
	kfree(rcu_dereference_protected(aie_rules, true));
	RCU_INIT_POINTER(aie_rules, NULL);
}

size_t aie_rules_memory(void)
{
	struct aie_rules *rules;
	size_t bytes = 0;

	rcu_read_lock();
	rules = rcu_dereference(aie_rules);
	if (rules)
		bytes = struct_size(rules, rule, rules->nr);
	rcu_read_unlock();
	return bytes;
}

/* Whether @sel names the site @sym at @location; any context. */
bool aie_sel_match(const struct aie_sel *sel, const struct aie_sym *sym,
		   const char *location)
{
	switch (sel->kind) {
	case AIE_SEL_ALL:
		return true;
	case AIE_SEL_FUNC:
		return sym->known && !strcmp(sym->func, sel->name);
	case AIE_SEL_MODULE:
		return sym->module && !strcmp(sym->module, sel->name);
	case AIE_SEL_FUNC_OFF:
		return sym->known && sym->offset == sel->offset &&
		       !strcmp(sym->func, sel->name);
	case AIE_SEL_FILE_LINE:
		return location && !strcmp(location, sel->name);
	}
	return false;
}

/* The state @rules give a site named @sym at @location. */
static bool aie_rules_eval(const struct aie_rules *rules,
			   const struct aie_sym *sym, const char *location)
{
	int i;

	for (i = (int)rules->nr - 1; i >= 0; i--) {
		if (aie_sel_match(&rules->rule[i].sel, sym, location))
			return rules->rule[i].disable;
	}
	return false;
}

/*
 * Whether a site seen for the first time, named @sym, starts disabled.
 * Called by hooks, in any context, with preemption disabled (an RCU-sched
 * read section).
 */
bool aie_rules_site_disabled(struct aie_site *site, const struct aie_sym *sym)
{
	struct aie_rules *rules = rcu_dereference_sched(aie_rules);

	if (!rules)
		return false;
	return aie_rules_eval(rules, sym,
			      rcu_dereference_sched(site->location));
}

/* Bring one site in line with @rules. aie_rules_mutex held. */
static void aie_rules_apply_site(const struct aie_rules *rules,
				 struct aie_site *site, struct aie_sym *sym)
{
	const char *loc;

	lockdep_assert_held(&aie_rules_mutex);
	if (!rules) {
		clear_bit(AIE_SITE_DISABLED, &site->flags);
		return;
	}
	loc = rcu_dereference_protected(site->location,
					lockdep_is_held(&aie_rules_mutex));
	aie_sym_resolve(site->call_site, sym);
	if (aie_rules_eval(rules, sym, loc))
		set_bit(AIE_SITE_DISABLED, &site->flags);
	else
		clear_bit(AIE_SITE_DISABLED, &site->flags);
}

static void aie_rules_apply_all(const struct aie_rules *rules,
				struct aie_sym *sym)
{
	u32 i, n = aie_sites_nr();
	struct aie_site *site;

	for (i = 0; i < n; i++) {
		site = aie_site_at(i);
		if (site && !test_bit(AIE_SITE_UNLOADED, &site->flags))
			aie_rules_apply_site(rules, site, sym);
		cond_resched();
	}
}

/* The rule list that results from adding @rule to @old. */
static struct aie_rules *aie_rules_add(const struct aie_rules *old,
				       const struct aie_rule *rule)
{
	unsigned int i, nr = old ? old->nr : 0;
	struct aie_rules *new;

	if (rule->sel.kind == AIE_SEL_ALL) {
		if (!rule->disable)
			return NULL;
		nr = 0;
	}
	new = kmalloc(struct_size(new, rule, nr + 1), GFP_KERNEL);
	if (!new)
		return ERR_PTR(-ENOMEM);
	new->nr = 0;
	for (i = 0; i < nr; i++) {
		if (!aie_sel_equal(&old->rule[i].sel, &rule->sel))
			new->rule[new->nr++] = old->rule[i];
	}
	if (new->nr == AIE_MAX_RULES) {
		kfree(new);
		return ERR_PTR(-ENOSPC);
	}
	new->rule[new->nr++] = *rule;
	return new;
}

static int aie_rules_update(const struct aie_cmd *cmd, struct aie_sym *sym)
{
	struct aie_rule rule = {
		.sel = cmd->sel,
		.disable = cmd->verb == AIE_CMD_DISABLE,
	};
	struct aie_rules *old, *new;
	bool all_off;
	int ret;

	old = aie_rules_locked();
	new = aie_rules_add(old, &rule);
	if (IS_ERR(new))
		return PTR_ERR(new);
	all_off = new && new->nr == 1 && new->rule[0].sel.kind == AIE_SEL_ALL &&
		  new->rule[0].disable;
	if (!all_off) {
		/* The sites' own bits decide again: the probes must be on. */
		ret = aie_hooks_allocs_resume();
		if (ret) {
			kfree(new);
			return ret;
		}
		/* Here only: "disable all" again leaves the key on, unpatched. */
		static_branch_disable(&aie_all_disabled);
	}
	rcu_assign_pointer(aie_rules, new);
	synchronize_rcu();
	kfree(old);
	aie_rules_apply_all(new, sym);
	if (all_off) {
		static_branch_enable(&aie_all_disabled);
		aie_hooks_allocs_pause();
	}
	return 0;
}

/* "locate": give the site at <function>+0x<off> its file:line. */
static int aie_rules_locate(const struct aie_cmd *cmd, struct aie_sym *sym)
{
	u32 i, n = aie_sites_nr();
	struct aie_site *site;
	const char *old, *loc;
	int found = 0;

	for (i = 0; i < n; i++) {
		site = aie_site_at(i);
		if (!site || test_bit(AIE_SITE_UNLOADED, &site->flags))
			continue;
		aie_sym_resolve(site->call_site, sym);
		if (!aie_sel_match(&cmd->sel, sym, NULL))
			continue;
		loc = kstrdup(cmd->loc.name, GFP_KERNEL);
		if (!loc)
			return -ENOMEM;
		old = rcu_replace_pointer(site->location, loc,
					  lockdep_is_held(&aie_rules_mutex));
		synchronize_rcu();
		kfree(old);
		aie_rules_apply_site(aie_rules_locked(), site, sym);
		found++;
	}
	return found ? 0 : -ENOENT;
}

/* A write to /proc/allocinfo_ext. Process context; may sleep. */
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

	mutex_lock(&aie_rules_mutex);
	switch (cmd->verb) {
	case AIE_CMD_RESET:
		aie_sites_reset();
		break;
	case AIE_CMD_ENABLE:
	case AIE_CMD_DISABLE:
		ret = aie_rules_update(cmd, sym);
		break;
	case AIE_CMD_LOCATE:
		ret = aie_rules_locate(cmd, sym);
		break;
	case AIE_CMD_SAMPLE:
		aie_sample_set(cmd->bytes);
		break;
	default:	/* capture: above */
		break;
	}
	mutex_unlock(&aie_rules_mutex);
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
