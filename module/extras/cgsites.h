/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgsites.h - live kernel memory per call site and memory cgroup
 * (cgsites.c): the hooks' test is inline here.
 */
#ifndef _AIE_CGSITES_H
#define _AIE_CGSITES_H

#include <linux/jump_label.h>
#include <linux/seq_file.h>
#include <linux/types.h>

#include "aie.h"

struct aie_site_sums;

DECLARE_STATIC_KEY_FALSE(aie_cgsites_key);

/**
 * aie_cgsites_take() - Tell whether an allocation goes to its cgroup pair.
 * @accounted: the allocation is accounted to a memory cgroup.
 *
 * A jump over nothing while the feature is off.
 *
 * Context: Any context.
 * Return: true if @accounted and the feature is on.
 */
static inline bool aie_cgsites_take(bool accounted)
{
	return static_branch_unlikely(&aie_cgsites_key) && accounted;
}

int aie_cgsites_init(bool on, unsigned int max_pairs);
void aie_cgsites_exit(void);
int aie_cgsites_set(bool on);
bool aie_cgsites_on(void);
struct aie_site *aie_cgsite_pick(struct aie_site *site);
bool aie_cgsites_sum(u32 idx, struct aie_site_sums *s);
struct aie_site *aie_cgsite_parent(const struct aie_site *site);
const char *aie_cgsite_name(const struct aie_site *site, s64 live_calls,
			    bool *removed);
void aie_cgsites_show(struct seq_file *m);

#endif /* _AIE_CGSITES_H */
