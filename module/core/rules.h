/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rules.h - the list of rules that say which sites record allocations
 * (rules.c), and the "disable all" key the hooks test.
 */
#ifndef _AIE_RULES_H
#define _AIE_RULES_H

#include <linux/jump_label.h>

#include "aie.h"

struct aie_rules;
struct aie_sel;
struct aie_sym;

DECLARE_STATIC_KEY_FALSE(aie_all_disabled);

/**
 * aie_all_off() - Test whether the rules are "disable all" alone.
 *
 * A jump patched in the hooks' code (aie_all_disabled, rules.c), in place
 * of a load and a test.
 *
 * Context: Any context, NMI included.
 * Return: true while the rules are "disable all" alone.
 */
static inline bool aie_all_off(void)
{
	return static_branch_unlikely(&aie_all_disabled);
}

int aie_rules_init(void);
void aie_rules_exit(void);
size_t aie_rules_memory(void);
void aie_rules_lock(void);
void aie_rules_unlock(void);
void aie_rules_assert_held(void);
bool aie_sel_match(const struct aie_sel *sel, const struct aie_sym *sym,
		   const char *location);
bool aie_rules_site_disabled(struct aie_site *site, const struct aie_sym *sym);
struct aie_rules *aie_rules_locked(void);
bool aie_rules_eval(const struct aie_rules *rules, const struct aie_sym *sym,
		    const char *location);
struct aie_rules *aie_rules_add(const struct aie_sel *sel, bool disable);
bool aie_rules_all_off(const struct aie_rules *rules);
void aie_rules_free(struct aie_rules *rules);
void aie_rules_replace(struct aie_rules *rules);
void aie_rules_set_all_off(bool on);

#endif /* _AIE_RULES_H */
