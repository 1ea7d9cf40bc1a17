/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nodes.h - live bytes per site per NUMA node (nodes.c), behind the
 * static key aie_nodes_key, tested on track/'s general paths only.
 */
#ifndef _AIE_NODES_H
#define _AIE_NODES_H

#include <linux/jump_label.h>
#include <linux/types.h>

#include "aie.h"

DECLARE_STATIC_KEY_FALSE(aie_nodes_key);

/**
 * aie_nodes_on() - Test whether node counters are kept.
 *
 * Context: Any context.
 * Return: true while aie_nodes_key is on.
 */
static inline bool aie_nodes_on(void)
{
	return static_branch_unlikely(&aie_nodes_key);
}

int aie_nodes_init(const char *mode, unsigned int max_sites);
void aie_nodes_exit(void);
bool aie_nodes_mode_valid(const char *mode);
bool aie_nodes_kept(const struct aie_site *site);
void aie_node_add(const struct aie_site *site, unsigned long key, s64 bytes);
s64 aie_node_live(u32 idx, int nid);
size_t aie_nodes_memory(void);

#endif /* _AIE_NODES_H */
