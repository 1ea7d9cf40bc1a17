/* SPDX-License-Identifier: GPL-2.0 */
/* export.h - the Prometheus writer, apart from JSON and CSV in export.c. */
#ifndef _AIE_TOOL_EXPORT_H
#define _AIE_TOOL_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "table.h"

struct prom_opts {
	long long top;		/* the series with the most live bytes, 0 or -1: all */
	long long min_bytes;	/* series with fewer live bytes left out */
	bool zeros;		/* write samples whose value is 0 */
	bool site_label;	/* label site: the location, function+0xoff too */
	const char *module;	/* -m: only its sites, or NULL (any format) */
	long long cgroups;	/* --cgroups: the N cgroups kept, 0 all; -1 none */
	const char *cgroups_file;	/* --cgroups-file, or NULL: the /proc one */
};

/*
 * Text exposition format 0.0.4, one series per label set; with @cg, the
 * cgroups file, its per-cgroup families too (prom_cgroups()).
 */
void export_prometheus(FILE *f, const struct table *t, const struct table *cg,
		       const struct prom_opts *o);

/*
 * allocinfo_ext_cgroup_bytes and _calls, labelled cgroup and type: each
 * cgroup's own rows of @cg (the cgroups file) summed per type, for the
 * o->cgroups cgroups with the most live bytes (0: all); the others' summed
 * as cgroup="(other)". allocinfo_ext_cgroups counts the cgroups.
 */
void prom_cgroups(FILE *f, const struct table *cg, const struct prom_opts *o);

/* name="val" after *@sep (then ","), escaped; nothing for an empty @val. */
void prom_label(FILE *f, const char *name, const char *val, const char **sep);

#endif /* _AIE_TOOL_EXPORT_H */
