/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgtable.h - what the commands reading /proc/allocinfo_ext_cgroups share
 * (cgtable.c): a cgroup's path checked, its subtree's rows, a group name.
 */
#ifndef _AIE_TOOL_CGTABLE_H
#define _AIE_TOOL_CGTABLE_H

#include <stdbool.h>

#include "table.h"

/*
 * @path names a cgroup as the cgroups file does: "/" or "/a/b", no empty,
 * "." or ".." part, no trailing '/'. 0, or -1 after saying what it takes.
 */
int cg_path_check(const char *path);

/* Cgroup @cg is @path or below it. */
bool cg_under(const char *cg, const char *path);

/*
 * Keep the rows of cgroup @path and of its descendants, removed ones
 * included (memory.stat counts a removed child's charges in its parent
 * while they live); the removed rows of @path itself, an earlier cgroup
 * of that name, are left out. Rows of one site and type are summed into
 * one: @t reads as a table of that subtree.
 */
void cg_select(struct table *t, const char *path);

/* A row's group: its cgroup, "<path> (removed)" for a removed one. */
char *cg_group_name(const struct site *s);

#endif /* _AIE_TOOL_CGTABLE_H */
