// SPDX-License-Identifier: GPL-2.0
/*
 * promcg.c - the Prometheus families per memory cgroup (export.h,
 * prom_cgroups()), from /proc/allocinfo_ext_cgroups. A fleet's cgroups
 * are many and short-lived (a series each would grow without bound):
 * --cgroups N keeps the N with the most live bytes, and sums the others
 * under the one label value "(other)", so that the series of a type add
 * up to the live bytes of all the cgroups' rows.
 */
#include <stdlib.h>
#include <string.h>

#include "cgtable.h"
#include "export.h"
#include "util.h"

#define PROM_CG_OTHER	"(other)"

struct prom_cg {
	char *name;		/* cg_group_name(), or PROM_CG_OTHER */
	const char *type;
	long long bytes, calls;
};

static int prom_cg_name_cmp(const void *pa, const void *pb)
{
	const struct prom_cg *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : strcmp(a->type, b->type);
}

/* Most live bytes first; the names break ties. */
static int prom_cg_bytes_cmp(const void *pa, const void *pb)
{
	const struct prom_cg *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return strcmp(a->name, b->name);
}

/*
 * Sum @r's @n entries of equal name and type (equal name alone when
 * @by_name), in name order. Returns the count left.
 */
static size_t prom_cg_sum(struct prom_cg *r, size_t n, bool by_name)
{
	size_t i, k = 0;

	if (n)
		qsort(r, n, sizeof(*r), prom_cg_name_cmp);
	for (i = 0; i < n; i++) {
		if (k && !strcmp(r[k - 1].name, r[i].name) &&
		    (by_name || !strcmp(r[k - 1].type, r[i].type))) {
			r[k - 1].bytes += r[i].bytes;
			r[k - 1].calls += r[i].calls;
			free(r[i].name);
		} else {
			r[k++] = r[i];
		}
	}
	return k;
}

/* Whether cgroup @name is among the @n of @kept (sorted by name). */
static bool prom_cg_kept(const char *name, const struct prom_cg *kept,
			 size_t n)
{
	size_t lo = 0, hi = n, mid;
	int c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = strcmp(name, kept[mid].name);
		if (!c)
			return true;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

static void prom_cg_family(FILE *f, const char *name, const char *help,
			   const struct prom_cg *r, size_t n, bool calls,
			   bool zeros)
{
	const char *sep;
	long long v;
	size_t i;

	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
	for (i = 0; i < n; i++) {
		v = calls ? r[i].calls : r[i].bytes;
		if (!v && !zeros)
			continue;
		sep = "";
		fprintf(f, "%s{", name);
		prom_label(f, "cgroup", r[i].name, &sep);
		prom_label(f, "type", r[i].type, &sep);
		fprintf(f, "} %lld\n", v);
	}
}

void prom_cgroups(FILE *f, const struct table *cg, const struct prom_opts *o)
{
	struct prom_cg *r = xcalloc(cg->nr + 1, sizeof(*r));
	struct prom_cg *g = xcalloc(cg->nr + 1, sizeof(*g));
	size_t i, n, groups, kept;

	for (i = 0; i < cg->nr; i++) {
		const struct site *s = &cg->sites[i];

		r[i] = (struct prom_cg){ cg_group_name(s), s->type, s->bytes,
					 s->calls };
		g[i] = (struct prom_cg){ cg_group_name(s), "", s->bytes, 0 };
	}
	/* the cgroups, the most live bytes first; the first N kept */
	groups = prom_cg_sum(g, cg->nr, true);
	if (groups)
		qsort(g, groups, sizeof(*g), prom_cg_bytes_cmp);
	kept = o->cgroups > 0 && (unsigned long long)o->cgroups < groups ?
	       (size_t)o->cgroups : groups;
	if (kept)
		qsort(g, kept, sizeof(*g), prom_cg_name_cmp);
	for (i = 0; i < cg->nr; i++) {
		if (prom_cg_kept(r[i].name, g, kept))
			continue;
		free(r[i].name);
		r[i].name = xstrdup(PROM_CG_OTHER);
	}
	n = prom_cg_sum(r, cg->nr, false);
	prom_cg_family(f, "allocinfo_ext_cgroup_bytes",
		       "Live bytes charged to the memory cgroup, its own rows, per type (the cgroups beyond --cgroups summed as (other)).",
		       r, n, false, o->zeros);
	prom_cg_family(f, "allocinfo_ext_cgroup_calls",
		       "Live allocations charged to the memory cgroup, its own rows, per type.",
		       r, n, true, o->zeros);
	fprintf(f, "# HELP allocinfo_ext_cgroups Memory cgroups with rows in the cgroups file, those summed as (other) included.\n"
		"# TYPE allocinfo_ext_cgroups gauge\nallocinfo_ext_cgroups %zu\n",
		groups);
	for (i = 0; i < n; i++)
		free(r[i].name);
	for (i = 0; i < groups; i++)
		free(g[i].name);
	free(r);
	free(g);
}
