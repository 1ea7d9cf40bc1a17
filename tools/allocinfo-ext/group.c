// SPDX-License-Identifier: GPL-2.0
/*
 * group.c - `allocinfo-ext group --by module|subsystem|function|file|node`:
 * live bytes, calls and slack summed per group, largest first.
 *
 *	module		the site's module, "vmlinux" for built-in code
 *	subsystem	first directory of its file (mm, net, fs,
 *			drivers/<x>, ...), else its module, else "vmlinux"
 *	function	its function, with [module] for module code
 *	file		its source file, "(unknown)" until it has a file:line
 *	node		the NUMA node of its live bytes, from the row's
 *			node<id>: keys (format 1.4), "(none)" for a row
 *			without them (vmalloc, percpu, one node): bytes only,
 *			no calls or slack, and a site counts in each node
 *			that it has a key for
 *	cgroup		the memory cgroup, from /proc/allocinfo_ext_cgroups
 *			(the FILE read): each cgroup's own rows, not its
 *			descendants', "<path> (removed)" for a removed one
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cgtable.h"
#include "cmd.h"
#include "json.h"
#include "order.h"
#include "table.h"
#include "textout.h"
#include "util.h"

enum group_by {
	GROUP_MODULE, GROUP_SUBSYSTEM, GROUP_FUNCTION, GROUP_FILE, GROUP_NODE,
	GROUP_CGROUP,
};

static const char * const group_by_names[] = {
	[GROUP_MODULE] = "module", [GROUP_SUBSYSTEM] = "subsystem",
	[GROUP_FUNCTION] = "function", [GROUP_FILE] = "file",
	[GROUP_NODE] = "node", [GROUP_CGROUP] = "cgroup",
};

struct group {
	char *name;
	long long bytes, calls, slack;
	size_t sites;
};

static char *group_key(const struct site *s, enum group_by by)
{
	char buf[4096], *key;

	switch (by) {
	case GROUP_MODULE:
		return xstrdup(s->module[0] ? s->module : "vmlinux");
	case GROUP_SUBSYSTEM:
		site_subsystem(s, buf, sizeof(buf));
		return xstrdup(buf);
	case GROUP_FUNCTION:
		return s->module[0] ? xasprintf("%s [%s]", s->func, s->module) :
		       xstrdup(s->func);
	case GROUP_FILE:
		key = site_file(s, NULL);
		return key ? key : xstrdup("(unknown)");
	case GROUP_CGROUP:
		return cg_group_name(s);
	case GROUP_NODE:	/* group_nodes() */
		break;
	}
	return xstrdup("?");
}

static int group_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct group *)a)->name,
		      ((const struct group *)b)->name);
}

/* The keys of the groups, for -s: sites is the count of sites summed. */
#define GROUP_KEYS	(ORDER_BIT(ORDER_BYTES) | ORDER_BIT(ORDER_CALLS) | \
			 ORDER_BIT(ORDER_SLACK) | ORDER_BIT(ORDER_SITES))

static long double group_value(const void *row, enum order_key key)
{
	const struct group *g = row;

	switch (key) {
	case ORDER_CALLS:
		return g->calls;
	case ORDER_SLACK:
		return g->slack;
	case ORDER_SITES:
		return g->sites;
	default:
		return g->bytes;
	}
}

/* Ties: by bytes, then calls, then name. */
static int group_tie(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	if (a->calls != b->calls)
		return a->calls < b->calls ? 1 : -1;
	return strcmp(a->name, b->name);
}

/*
 * --by node: a group per node id that a row names, then "(none)" for the
 * rows that name none. Returns the group count.
 */
static size_t group_nodes(const struct table *t, struct group **out)
{
	struct group *g = xcalloc(t->node_ids + 1, sizeof(*g));
	const struct site *s;
	size_t i, n = 0;
	unsigned int k;

	for (i = 0; i < t->nr; i++) {
		s = &t->sites[i];
		if (!s->nr_nodes) {
			g[t->node_ids].bytes += s->bytes;
			g[t->node_ids].sites++;
		}
		for (k = 0; k < s->nr_nodes; k++) {
			g[s->nodes[k].id].bytes += s->nodes[k].bytes;
			g[s->nodes[k].id].sites++;
		}
	}
	for (k = 0; k <= t->node_ids; k++) {
		if (!g[k].sites)
			continue;
		g[n] = g[k];
		g[n++].name = k < t->node_ids ? xasprintf("node%u", k) :
					       xstrdup("(none)");
	}
	*out = g;
	return n;
}

/* One group per distinct key, in name order. Returns the group count. */
static size_t group_table(const struct table *t, enum group_by by,
			  struct group **out)
{
	struct group *g;
	size_t i, n = 0;

	if (by == GROUP_NODE)
		return group_nodes(t, out);
	g = xcalloc(t->nr, sizeof(*g));
	for (i = 0; i < t->nr; i++) {
		g[i].name = group_key(&t->sites[i], by);
		g[i].bytes = t->sites[i].bytes;
		g[i].calls = t->sites[i].calls;
		g[i].slack = t->sites[i].slack;
		g[i].sites = 1;
	}
	qsort(g, t->nr, sizeof(*g), group_name_cmp);
	for (i = 0; i < t->nr; i++) {
		if (n && !strcmp(g[n - 1].name, g[i].name)) {
			g[n - 1].bytes += g[i].bytes;
			g[n - 1].calls += g[i].calls;
			g[n - 1].slack += g[i].slack;
			g[n - 1].sites++;
			free(g[i].name);
		} else {
			g[n++] = g[i];
		}
	}
	*out = g;
	return n;
}

static void group_json(const struct table *t, enum group_by by,
		       const struct group *g, size_t n)
{
	size_t i;

	fputs("{\"command\": \"group\", ", stdout);
	json_key_string(stdout, "source", t->name);
	printf(", \"by\": \"%s\", \"sites\": %zu, \"bytes\": %lld,\n \"groups\": [",
	       group_by_names[by], t->nr, table_total_bytes(t));
	for (i = 0; i < n; i++) {
		printf("%s\n  {", i ? "," : "");
		json_key_string(stdout, "name", g[i].name);
		printf(", \"bytes\": %lld, ", g[i].bytes);
		if (by == GROUP_NODE)
			fputs("\"calls\": null, ", stdout);
		else
			printf("\"calls\": %lld, ", g[i].calls);
		if (t->format == TABLE_EXT && by != GROUP_NODE)
			printf("\"slack\": %lld", g[i].slack);
		else
			fputs("\"slack\": null", stdout);
		printf(", \"sites\": %zu}", g[i].sites);
	}
	fputs(n ? "\n ]}\n" : "]}\n", stdout);
}

static void group_text(const struct table *t, enum group_by by,
		       const struct group *g, size_t n)
{
	char slack[24], calls[24];
	size_t i;

	text_stdout();
	printf("# allocinfo-ext group --by %s: %s, %zu sites, %lld live bytes\n",
	       group_by_names[by], t->name, t->nr, table_total_bytes(t));
	printf("#        bytes      calls      slack  sites %s\n",
	       group_by_names[by]);
	for (i = 0; i < n; i++) {
		if (t->format == TABLE_EXT && by != GROUP_NODE)
			snprintf(slack, sizeof(slack), "%lld", g[i].slack);
		else
			snprintf(slack, sizeof(slack), "-");
		if (by != GROUP_NODE)
			snprintf(calls, sizeof(calls), "%lld", g[i].calls);
		else
			snprintf(calls, sizeof(calls), "-");
		printf("%14lld %10s %10s %6zu %s\n", g[i].bytes, calls,
		       slack, g[i].sites, g[i].name);
	}
}

/* The groups in order @o, the @lines first (0: all), as text or JSON. */
static void group_print(const struct table *t, enum group_by by, bool json,
			long long lines, const struct order *o)
{
	static const struct order_ops ops = { group_value, group_tie };
	struct group *g;
	size_t i, all = group_table(t, by, &g), n = all;

	order_rows(g, all, sizeof(*g), o, &ops);

	if (lines > 0 && (unsigned long long)lines < n)
		n = lines;
	if (json)
		group_json(t, by, g, n);
	else
		group_text(t, by, g, n);
	for (i = 0; i < all; i++)
		free(g[i].name);
	free(g);
}

const struct cmd_option group_options[] = {
	CMD_LONG('B', "by", "KEY",
		 "module, subsystem, function, file, node or cgroup"),
	CMD_LETTER('s', "bytes (default), calls, slack or sites (the sites\n"
			"summed)"),
	CMD_LETTER('r', "the smallest first (the order reversed)"),
	CMD_LETTER('j', "the groups as JSON (slack null for the kernel's table)"),
	CMD_LETTER('l', "the N largest groups (0, the default: all)"),
	CMD_LETTER('m', "only the sites of module NAME (vmlinux: built-in)"),
	{ 0 },
};

static void group_usage(FILE *f)
{
	cmd_usage_head(f, "group");
	fprintf(f, "Live bytes, calls and slack summed per group, largest first.\n"
		"subsystem is the first directory of a site's file:line (mm, net, fs,\n"
		"drivers/<x>, arch/<x>, ...) when the site has one, else its module,\n"
		"else \"vmlinux\"; file is \"(unknown)\" for sites without file:line\n"
		"(see annotate). node sums the rows' node<N>: keys, live bytes per NUMA\n"
		"node (no calls or slack), \"(none)\" for rows without them. cgroup reads\n"
		"FILE as %s (its default): each memory cgroup's own\n"
		"rows, children apart, \"<path> (removed)\" for a removed one.\n\n",
		AIE_PROC_CGROUPS);
	cmd_options(f, "group");
	fprintf(f, "Example:\n"
		"  allocinfo-ext group --by module | head\n");
}

static int group_parse_by(const char *s, enum group_by *by)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(group_by_names); i++) {
		if (!strcmp(s, group_by_names[i])) {
			*by = i;
			return 0;
		}
	}
	aie_err("cannot group by \"%s\": expected module, subsystem, function, file, node or cgroup", s);
	return -1;
}

int cmd_group(int argc, char **argv)
{
	struct order order = { .key = ORDER_BYTES };
	enum group_by by = GROUP_MODULE;
	bool have_by = false, json = false;
	const char *module = NULL;
	long long lines = 0;
	struct table t;
	int c, ret = AIE_EXIT_FAIL;

	while ((c = cmd_getopt(argc, argv)) != -1) {
		if (c == 'B' && !group_parse_by(optarg, &by)) {
			have_by = true;
		} else if (c == 'j') {
			json = true;
		} else if (c == 'r') {
			order.reverse = true;
		} else if (c == 's' && !order_parse(optarg, GROUP_KEYS, &order.key)) {
			continue;
		} else if (c == 'm') {
			module = optarg;
		} else if (c == 'l' && parse_ll(optarg, &lines) && lines >= 0) {
			continue;
		} else if (c == 'h') {
			group_usage(stdout);
			return 0;
		} else {
			if (c == 'l')
				aie_err("bad row count \"%s\"", optarg);
			return cmd_usage_error(argv[0]);
		}
	}
	if (!have_by || argc - optind > 1) {
		aie_err(have_by ? "group reads one table" : "group needs --by");
		return cmd_usage_error(argv[0]);
	}
	if (by == GROUP_CGROUP ? !table_load_cgroups(&t, argv[optind]) :
	    !table_load(&t, argv[optind])) {
		table_keep_module(&t, module);
		group_print(&t, by, json, lines, &order);
		ret = stdout_close() ? AIE_EXIT_FAIL : 0;
	}
	table_free(&t);
	return ret;
}
