// SPDX-License-Identifier: GPL-2.0
/*
 * cgtable.c - the rows of /proc/allocinfo_ext_cgroups (parse.c reads
 * them) as the commands take them: a cgroup's subtree summed per site,
 * for cgroup and top --cgroup; a group per cgroup, for group --by cgroup
 * and export --cgroups.
 */
#include <stdlib.h>
#include <string.h>

#include "cgtable.h"
#include "util.h"

int cg_path_check(const char *path)
{
	const char *p = path;
	size_t n;

	if (!strcmp(path, "/"))
		return 0;
	if (*p != '/')
		goto bad;
	while (*p == '/') {
		n = strcspn(++p, "/");
		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			goto bad;
		p += n;
	}
	return 0;
bad:
	aie_err("bad cgroup \"%s\": a path in the cgroup hierarchy, as %s names it (/ or /a/b; no ., .., // or trailing /)",
		path, AIE_PROC_CGROUPS);
	return -1;
}

bool cg_under(const char *cg, const char *path)
{
	size_t n = strlen(path);

	if (!strcmp(path, "/"))
		return true;
	return !strncmp(cg, path, n) && (!cg[n] || cg[n] == '/');
}

static int cg_site_cmp(const void *pa, const void *pb)
{
	const struct site *a = pa, *b = pb;
	int c = site_key_cmp(a, b);

	return c ? c : strcmp(a->type, b->type);
}

/* Add @s's figures to @into's: one site's rows of several cgroups. */
static void cg_site_add(struct site *into, const struct site *s)
{
	into->bytes += s->bytes;
	into->calls += s->calls;
	into->slack += s->slack;
	into->total_calls += s->total_calls;
	into->total_bytes += s->total_bytes;
}

void cg_select(struct table *t, const char *path)
{
	struct site *s;
	size_t i, n = 0;

	for (i = 0; i < t->nr; i++) {
		s = &t->sites[i];
		if (cg_under(s->cgroup, path) &&
		    !(s->removed && !strcmp(s->cgroup, path))) {
			t->sites[n++] = *s;
			continue;
		}
		free(s->text);
	}
	t->nr = n;
	if (n)
		qsort(t->sites, n, sizeof(*t->sites), cg_site_cmp);
	for (i = 0, n = 0; i < t->nr; i++) {
		s = &t->sites[i];
		if (n && !cg_site_cmp(&t->sites[n - 1], s)) {
			cg_site_add(&t->sites[n - 1], s);
			free(s->text);
			continue;
		}
		t->sites[n++] = *s;
	}
	t->nr = n;
}

char *cg_group_name(const struct site *s)
{
	return s->removed ? xasprintf("%s (removed)", s->cgroup) :
	       xstrdup(s->cgroup);
}
