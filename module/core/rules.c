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

/* The rules in force, for a holder of aie_rules_mutex. */
struct aie_rules *aie_rules_locked(void)
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

void aie_rules_assert_held(void)
{
	lockdep_assert_held(&aie_rules_mutex);
}

int aie_rules_init(void)
{
	aie_stats_part_set(AIE_STATS_RULES, NULL, aie_rules_memory);
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

/* The state @rules (NULL: none) give a site named @sym at @location. */
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

/*
 * Whether a site seen for the first time, named @sym, starts disabled.
 * Called by hooks, in any context, with preemption disabled (an RCU-sched
 * read section).
 */
bool aie_rules_site_disabled(struct aie_site *site, const struct aie_sym *sym)
{
	struct aie_rules *rules = rcu_dereference_sched(aie_rules);

	return aie_rules_eval(rules, sym,
			      rcu_dereference_sched(site->location));
}

/*
 * The rule list that results from adding the rule "disable @sel" (or
 * "enable @sel") to the list in force: NULL for no rule at all, or an
 * ERR_PTR() (-ENOMEM, -ENOSPC past AIE_MAX_RULES). aie_rules_mutex held;
 * the list in force stays until aie_rules_replace().
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

/* Whether @rules are "disable all" alone. */
bool aie_rules_all_off(const struct aie_rules *rules)
{
	return rules && rules->nr == 1 &&
	       rules->rule[0].sel.kind == AIE_SEL_ALL && rules->rule[0].disable;
}

/* Free a list aie_rules_add() made that is not put in force. */
void aie_rules_free(struct aie_rules *rules)
{
	kfree(rules);
}

/*
 * Put @rules in force, then wait with synchronize_rcu() for every hook
 * that may still use the list before (and so for every site such a hook
 * created, which is then published), and free it. aie_rules_mutex held.
 */
void aie_rules_replace(struct aie_rules *rules)
{
	struct aie_rules *old = aie_rules_locked();

	rcu_assign_pointer(aie_rules, rules);
	synchronize_rcu();
	kfree(old);
}

/*
 * Switch aie_all_disabled, the "disable all" alone key. Process context,
 * aie_rules_mutex held.
 */
void aie_rules_set_all_off(bool on)
{
	lockdep_assert_held(&aie_rules_mutex);
	if (on)
		static_branch_enable(&aie_all_disabled);
	else
		static_branch_disable(&aie_all_disabled);
}
