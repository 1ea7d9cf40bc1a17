// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup.c - `allocinfo-ext cgroup PATH`: one memory cgroup's kernel
 * memory as its memory.stat counts it, per category, split by call site
 * (/proc/allocinfo_ext_cgroups, the rows of PATH and of its descendants,
 * as memory.stat is hierarchical), and the rest, unexplained.
 *
 * A row's category is told by its type, and for kernel stacks and page
 * tables by its function (cg_category()); Documentation/admin-guide.rst,
 * "Memory cgroups", says what each category's unexplained rest holds.
 * Sites passing their category's figure (the files are read at two
 * moments, and memory.stat lags) leave unexplained 0 and are shown by
 * how much they pass it (over_bytes): never a negative figure.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "allocinfo_ext.h"
#include "cgtable.h"
#include "cmd.h"
#include "json.h"
#include "textout.h"
#include "util.h"

#define CG_MOUNT	"/sys/fs/cgroup"

enum cg_cat_id {
	CG_SLAB, CG_STACK, CG_PTABLES, CG_PERCPU, CG_SOCK, CG_VMALLOC,
	CG_OTHER, CG_NR
};

/* Each category's name, as memory.stat's key; other has none. */
static const char *const cg_cat_names[CG_NR] = {
	"slab", "kernel_stack", "pagetables", "percpu", "sock", "vmalloc",
	"other",
};

struct cg_cat {
	long long stat;		/* memory.stat's bytes, -1: it has none */
	long long sites, unexplained, over;
	struct site **rows;	/* the subtree's rows of it, most bytes first */
	size_t nr;
};

/*
 * Page rows of these functions hold page-table pages that memory.stat
 * counts in pagetables (pte to p4d: their constructors count them). A
 * pgd's pages are charged but counted there only where pgd_alloc() has
 * a constructor too: left in other.
 */
static const char *const cg_ptable_fns[] = {
	"pte_alloc", "pmd_alloc", "pud_alloc", "p4d_alloc",
	"pte_fragment_alloc", "preallocate_pmds",
};

static enum cg_cat_id cg_category(const struct site *s)
{
	size_t i;

	/* non-VMAP stacks: accounted pages (or a slab) at this function */
	if (strstr(s->func, "thread_stack"))
		return CG_STACK;
	if (!strcmp(s->type, "slab"))
		return CG_SLAB;
	if (!strcmp(s->type, "vmalloc"))
		return CG_VMALLOC;
	if (!strcmp(s->type, "percpu"))
		return CG_PERCPU;
	for (i = 0; !strcmp(s->type, "page") && i < ARRAY_SIZE(cg_ptable_fns); i++) {
		if (strstr(s->func, cg_ptable_fns[i]))
			return CG_PTABLES;
	}
	return CG_OTHER;
}

/*
 * memory.stat of @dir, its figures (bytes in cgroup v2) in @c's stat, -1
 * for a key it lacks; slab is slab_reclaimable + slab_unreclaimable on a
 * kernel without its sum. 0, or -1 when it cannot be read.
 */
static int cg_memory_stat(const char *dir, struct cg_cat *c)
{
	char *path = xasprintf("%s/memory.stat", dir), *text, *line, *save;
	long long v, recl = -1, unrecl = -1;
	char key[64];
	size_t len;
	int i;

	text = read_whole_file(path, &len);
	free(path);
	if (!text)
		return -1;
	for (i = 0; i < CG_NR; i++)
		c[i].stat = -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %lld", key, &v) != 2 || v < 0)
			continue;
		if (!strcmp(key, "slab_reclaimable"))
			recl = v;
		if (!strcmp(key, "slab_unreclaimable"))
			unrecl = v;
		for (i = 0; i < CG_OTHER; i++) {
			if (!strcmp(key, cg_cat_names[i]))
				c[i].stat = v;
		}
	}
	free(text);
	if (c[CG_SLAB].stat < 0 && recl >= 0 && unrecl >= 0)
		c[CG_SLAB].stat = recl + unrecl;
	return 0;
}

static int cg_row_cmp(const void *pa, const void *pb)
{
	const struct site *a = *(const struct site * const *)pa;
	const struct site *b = *(const struct site * const *)pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return site_key_cmp(a, b);
}

/* @t, cg_select()ed, into the categories, each with its rest. */
static void cg_make(struct cg_cat *c, struct table *t)
{
	enum cg_cat_id id;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		id = cg_category(&t->sites[i]);
		c[id].rows = xrealloc_array(c[id].rows, c[id].nr + 1,
					    sizeof(*c[id].rows));
		c[id].rows[c[id].nr++] = &t->sites[i];
		c[id].sites += t->sites[i].bytes;
	}
	for (i = 0; i < CG_NR; i++) {
		if (c[i].nr)
			qsort(c[i].rows, c[i].nr, sizeof(*c[i].rows), cg_row_cmp);
		if (c[i].stat < 0)
			continue;
		c[i].unexplained = c[i].stat > c[i].sites ? c[i].stat - c[i].sites : 0;
		c[i].over = c[i].sites > c[i].stat ? c[i].sites - c[i].stat : 0;
	}
}

/* A figure, or "-" for one memory.stat does not give. */
static const char *cg_fig(char *buf, size_t len, long long v, bool has)
{
	if (has)
		snprintf(buf, len, "%lld", v);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void cg_text(const struct cg_cat *c, const char *path, long long top)
{
	char a[24], b[24], d[24], tag[4096];
	size_t i, j;

	text_stdout();
	printf("# allocinfo-ext cgroup %s: memory.stat's kernel memory by call site, descendants included\n",
	       path);
	printf("%-14s %14s %14s %14s\n", "category", "memory.stat", "sites",
	       "unexplained");
	for (i = 0; i < CG_NR; i++) {
		printf("%-14s %14s %14lld %14s\n", cg_cat_names[i],
		       cg_fig(a, sizeof(a), c[i].stat, c[i].stat >= 0),
		       c[i].sites,
		       cg_fig(b, sizeof(b), c[i].unexplained, c[i].stat >= 0));
		for (j = 0; j < c[i].nr && (!top || (long long)j < top); j++) {
			site_tag(c[i].rows[j], tag, sizeof(tag));
			printf("  %14lld %8lld %s\n", c[i].rows[j]->bytes,
			       c[i].rows[j]->calls, tag);
		}
		if (j < c[i].nr)
			printf("  %14s %8s %zu more\n", "", "", c[i].nr - j);
		if (c[i].over)
			printf("  sites pass memory.stat by %s bytes (read at another moment): unexplained 0\n",
			       cg_fig(d, sizeof(d), c[i].over, true));
	}
}

/* A figure, or null. */
static void cg_json_fig(const char *key, long long v, bool has)
{
	if (has)
		printf(", \"%s\": %lld", key, v);
	else
		printf(", \"%s\": null", key);
}

static void cg_json(const struct cg_cat *c, const char *path,
		    const char *source)
{
	size_t i, j;

	printf("{\"command\": \"cgroup\", ");
	json_key_string(stdout, "source", source);
	printf(", ");
	json_key_string(stdout, "cgroup", path);
	printf(",\n \"categories\": [");
	for (i = 0; i < CG_NR; i++) {
		printf("%s\n  {\"name\": \"%s\"", i ? "," : "", cg_cat_names[i]);
		cg_json_fig("memory_stat_bytes", c[i].stat, c[i].stat >= 0);
		printf(", \"sites_bytes\": %lld", c[i].sites);
		cg_json_fig("unexplained_bytes", c[i].unexplained, c[i].stat >= 0);
		cg_json_fig("over_bytes", c[i].over, c[i].stat >= 0);
		printf(",\n   \"sites\": [");
		for (j = 0; j < c[i].nr; j++) {
			printf("%s\n    {", j ? "," : "");
			json_site_key(stdout, c[i].rows[j]);
			printf(", \"bytes\": %lld, \"calls\": %lld}",
			       c[i].rows[j]->bytes, c[i].rows[j]->calls);
		}
		printf("%s]}", c[i].nr ? "\n   " : "");
	}
	printf("\n ]}\n");
}

const struct cmd_option cgroup_options[] = {
	CMD_LETTER('l', "sites shown per category (default 10, 0: all)"),
	CMD_LETTER('j', "the categories as JSON, every site"),
	CMD_LONG('R', "root", "DIR",
		 "read DIR/proc/... and DIR/sys/fs/cgroup/... instead"),
	{ 0 },
};

static void cgroup_usage(FILE *f)
{
	cmd_usage_head(f, "cgroup");
	fprintf(f, "The kernel memory of memory cgroup PATH (cgroup v2, as\n"
		"%s names it: /system.slice/foo.service)\n"
		"as its memory.stat counts it: slab, kernel_stack, pagetables, percpu, sock\n"
		"and vmalloc, each split by call site (the rows of PATH and its descendants,\n"
		"since \"cgroups on\"), and the rest, unexplained: charged before, or in a\n"
		"way the module does not see. other: accounted pages of no memory.stat\n"
		"category. Sites past their figure: unexplained 0, the excess said.\n"
		"Run as root.\n\n",
		AIE_PROC_CGROUPS);
	cmd_options(f, "cgroup");
	fprintf(f, "Examples:\n"
		"  allocinfo-ext ctl cgroups on; ...; allocinfo-ext cgroup /system.slice\n"
		"  allocinfo-ext cgroup -j /user.slice/user-1000.slice\n");
}

/* Say what the stats tell of the pairs: off, or some full. */
static void cg_stats_note(const char *root)
{
	char *path = xasprintf("%s/proc/%s", root, AIE_STATS_PROC_NAME);
	char *text, *line, *save, key[64], val[32];
	size_t len;

	text = read_whole_file(path, &len);
	free(path);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %31s", key, val) != 2)
			continue;
		if (!strcmp(key, "cgroups") && !strcmp(val, "off"))
			aie_err("cgroup: cgroups is off: allocations since are unexplained (allocinfo-ext ctl cgroups on)");
		if (!strcmp(key, "cgroup_sites_full") && strcmp(val, "0"))
			aie_err("cgroup: %s allocations found no pair (cgroup_sites_full): unexplained (raise cgroup_sites)",
				val);
	}
	free(text);
}

/*
 * The report of cgroup @path under @root: 0, or AIE_EXIT_FAIL when its
 * memory.stat or the cgroups file cannot be read.
 */
static int cg_report(const char *root, const char *path, bool json,
		     long long top)
{
	char *dir = xasprintf("%s%s%s", root, CG_MOUNT,
			      strcmp(path, "/") ? path : "");
	char *source = xasprintf("%s%s", root, AIE_PROC_CGROUPS);
	struct cg_cat c[CG_NR] = { 0 };
	struct table t;
	int i, ret = AIE_EXIT_FAIL;

	if (cg_memory_stat(dir, c)) {
		aie_err("cgroup %s: no such memory cgroup: cannot read %s/memory.stat: %s",
			path, dir, strerror(errno));
		goto out;
	}
	if (table_load_cgroups(&t, source))
		goto out_table;
	cg_stats_note(root);
	cg_select(&t, path);
	cg_make(c, &t);
	if (json)
		cg_json(c, path, source);
	else
		cg_text(c, path, top);
	ret = stdout_close() ? AIE_EXIT_FAIL : 0;
out_table:
	table_free(&t);
out:
	for (i = 0; i < CG_NR; i++)
		free(c[i].rows);
	free(source);
	free(dir);
	return ret;
}

int cmd_cgroup(int argc, char **argv)
{
	const char *root = "";
	long long top = 10;
	bool json = false;
	int opt;

	while ((opt = cmd_getopt(argc, argv)) != -1) {
		if (opt == 'l' && parse_ll(optarg, &top) && top >= 0) {
			continue;
		} else if (opt == 'j') {
			json = true;
			continue;
		} else if (opt == 'R') {
			root = optarg;
			continue;
		} else if (opt == 'h') {
			cgroup_usage(stdout);
			return 0;
		}
		if (opt == 'l')
			aie_err("bad count \"%s\"", optarg);
		return cmd_usage_error(argv[0]);
	}
	if (argc - optind != 1) {
		aie_err(argc == optind ? "cgroup needs a PATH" :
			"cgroup takes one PATH");
		return cmd_usage_error(argv[0]);
	}
	if (cg_path_check(argv[optind]))
		return cmd_usage_error(argv[0]);
	return cg_report(root, argv[optind], json, top);
}
