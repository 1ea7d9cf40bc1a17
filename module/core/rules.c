// SPDX-License-Identifier: GPL-2.0
/*
 * rules.c - the list of rules that say which sites record allocations.
 *
 * "enable <sel>" and "disable <sel>" append a rule; a site's state is the
 * action of the last rule that matches it, enabled when none does. Rules
 * apply to the sites seen so far (iface/control.c brings them in line)
 * and to every site first seen later (aie_rules_site_disabled(), at the
 * site's making). "enable all" empties the list and "disable all" leaves
 * only itself; a rule with the selector of an older one replaces it.
 *
 * Notes on locking
 * ----------------
 * - aie_rules_mutex serialises control writes (process context). It guards
 *   the rule list's replacement, site locations and the walk that brings
 *   every site's AIE_SITE_DISABLED bit in line with the rules
 *   (iface/control.c), and the retiring of a module's sites.
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
#include "lib/ctl.h"
#include "rules.h"
#include "stats.h"
#include "symbols.h"

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
 * then taken off (iface/control.c); a hook still running, and the
 * entry probes of the page allocator, skip every allocation at their
 * first test of it (aie_all_off(), a jump patched in the hooks' code, in
 * place of a load and a test). Switched under aie_rules_mutex, in process
 * context; a hook that runs on the old code follows the sites' own bits,
 * which say the same once the writer's walk is done.
 */
DEFINE_STATIC_KEY_FALSE(aie_all_disabled);
static struct aie_rules __rcu *aie_rules;	/* NULL: no rule, all enabled */

/**
 * aie_rules_locked() - Get the rules in force, for a holder of the mutex.
 *
 * Context: Process context, aie_rules_mutex held.
 * Return: the rule list, or NULL when there is no rule (all enabled).
 */
struct aie_rules *aie_rules_locked(void)
{
	return rcu_dereference_protected(aie_rules,
					 lockdep_is_held(&aie_rules_mutex));
}

/**
 * aie_rules_lock() - Take aie_rules_mutex, which serialises control writes.
 *
 * For walks of the sites that must not meet a control write.
 *
 * Context: Process context; may sleep.
 */
void aie_rules_lock(void)
{
	mutex_lock(&aie_rules_mutex);
}

/**
 * aie_rules_unlock() - Release aie_rules_mutex.
 *
 * Context: Process context, aie_rules_mutex held.
 */
void aie_rules_unlock(void)
{
	mutex_unlock(&aie_rules_mutex);
}

/**
 * aie_rules_assert_held() - Assert that aie_rules_mutex is held.
 *
 * Context: Process context; checked with lockdep on.
 */
void aie_rules_assert_held(void)
{
	lockdep_assert_held(&aie_rules_mutex);
}

/**
 * aie_rules_init() - Start with no rule: every site enabled.
 *
 * Context: Process context, before any hook runs.
 * Return: 0.
 */
int aie_rules_init(void)
{
	aie_stats_part_set(AIE_STATS_RULES, NULL, aie_rules_memory);
	RCU_INIT_POINTER(aie_rules, NULL);
	return 0;
}

/**
 * aie_rules_exit() - Free the rule list.
 *
 * Context: Process context, after every hook is unregistered and has
 * finished.
 */
void aie_rules_exit(void)
{
	kfree(rcu_dereference_protected(aie_rules, true));
	RCU_INIT_POINTER(aie_rules, NULL);
}

/**
 * aie_rules_memory() - Measure the rule list in force.
 *
 * Context: Process context (the stats file); takes rcu_read_lock().
 * Return: the bytes the list takes, 0 with no rule.
 */
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

/**
 * aie_sel_match() - Test whether a selector names a site.
 * @sel: the selector of a rule.
 * @sym: the site's name, from kallsyms or kept since its module unloaded.
 * @location: the site's location from "locate", or NULL.
 *
 * Context: Any context.
 * Return: true when @sel names the site.
 */
bool aie_sel_match(const struct aie_sel *sel, const struct aie_sym *sym,
		   const char *location)
{
	switch (sel->kind) {
	case AIE_SEL_ALL:
		return true;
	case AIE_SEL_FUNC:
		return (sym->known && !strcmp(sym->func, sel->name)) ||
		       (location && !strcmp(aie_location_func(location),
					    sel->name));
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

/**
 * aie_rules_eval() - Work out the state a rule list gives a site.
 * @rules: the rule list, or NULL for none.
 * @sym: the site's name.
 * @location: the site's location from "locate", or NULL.
 *
 * The last rule that matches decides; a site no rule matches is enabled.
 *
 * Context: Any context.
 * Return: true when the site is to be disabled.
 */
bool aie_rules_eval(const struct aie_rules *rules,
		    const struct aie_sym *sym, const char *location)
{
	int i;

	if (!rules)
		return false;
	for (i = (int)rules->nr - 1; i >= 0; i--) {
		if (aie_sel_match(&rules->rule[i].sel, sym, location))
			return rules->rule[i].disable;
	}
	return false;
}

/**
 * aie_rules_site_disabled() - Decide whether a new site starts disabled.
 * @site: the site, seen for the first time and not yet published.
 * @sym: its name.
 *
 * Context: Hooks, any context, preemption disabled (an RCU-sched read
 * section).
 * Return: true when the rules in force disable the site.
 */
bool aie_rules_site_disabled(struct aie_site *site, const struct aie_sym *sym)
{
	struct aie_rules *rules = rcu_dereference_sched(aie_rules);

	return aie_rules_eval(rules, sym,
			      rcu_dereference_sched(site->location));
}

/**
 * aie_rules_add() - Make the list the rules in force give with one rule more.
 * @sel: the rule's selector.
 * @disable: "disable @sel" if true, else "enable @sel".
 *
 * The list in force stays until aie_rules_replace(); a list not put in
 * force goes back with aie_rules_free().
 *
 * Context: Process context, aie_rules_mutex held; may sleep.
 * Return: the new list; NULL for no rule at all ("enable all"); or an
 * ERR_PTR(): -ENOMEM, or -ENOSPC past AIE_MAX_RULES.
 */
struct aie_rules *aie_rules_add(const struct aie_sel *sel, bool disable)
{
	const struct aie_rule r = { .sel = *sel, .disable = disable };
	const struct aie_rule *rule = &r;
	const struct aie_rules *old = aie_rules_locked();
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

/**
 * aie_rules_all_off() - Test whether a rule list is "disable all" alone.
 * @rules: the rule list, or NULL.
 *
 * Return: true for "disable all" alone.
 */
bool aie_rules_all_off(const struct aie_rules *rules)
{
	return rules && rules->nr == 1 &&
	       rules->rule[0].sel.kind == AIE_SEL_ALL && rules->rule[0].disable;
}

/**
 * aie_rules_free() - Free a list aie_rules_add() made that is not in force.
 * @rules: the list, or NULL.
 */
void aie_rules_free(struct aie_rules *rules)
{
	kfree(rules);
}

/**
 * aie_rules_replace() - Put a rule list in force and free the old one.
 * @rules: a list from aie_rules_add(), or NULL for no rule.
 *
 * Publish @rules, then wait with synchronize_rcu() for every hook that may
 * still use the old list (and so for every site such a hook created, which
 * is then published), and free the old list.
 *
 * Context: Process context, aie_rules_mutex held; sleeps.
 */
void aie_rules_replace(struct aie_rules *rules)
{
	struct aie_rules *old = aie_rules_locked();

	rcu_assign_pointer(aie_rules, rules);
	synchronize_rcu();
	kfree(old);
}

/**
 * aie_rules_set_all_off() - Switch aie_all_disabled, the "disable all" key.
 * @on: true while the rules are "disable all" alone.
 *
 * Context: Process context, aie_rules_mutex held; may sleep.
 */
void aie_rules_set_all_off(bool on)
{
	lockdep_assert_held(&aie_rules_mutex);
	if (on)
		static_branch_enable(&aie_all_disabled);
	else
		static_branch_disable(&aie_all_disabled);
}
