// SPDX-License-Identifier: GPL-2.0
/*
 * ledger_cmd.c - `allocinfo-ext ledger`: all memory the kernel holds, as
 * /proc/meminfo counts it, per category: the part attributed to call
 * sites, the part the kernel still names (a slab cache, a vmalloc caller,
 * a boot-time hash table, a pool meminfo names), and the rest. The
 * parts of a category add up to its meminfo figure exactly: a part that
 * would pass it (files read at different moments) is cut to it, and the
 * cut is shown (over_bytes). Sources: ledger.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "json.h"
#include "ledger.h"
#include "textout.h"
#include "util.h"

enum ledger_cat_id {
	C_SRECL, C_SUNRECL, C_STACKS, C_PTABLES, C_VMALLOC, C_PERCPU, C_OTHER,
	C_NR
};

struct ledger_cat {
	const char *name;
	int mi;			/* its meminfo figure, -1 for other */
	bool present;
	long long meminfo, sites, unexplained, over;
	struct ledger_list items;
};

struct ledger {
	struct ledger_cat cat[C_NR];
	long long used, explained, overlap;
	long long unsplit;	/* /proc/allocinfo's bytes, no category; -1: none */
};

static const struct { const char *name; int mi; } ledger_cats[C_NR] = {
	{ "slab_reclaimable", MI_SRECL }, { "slab_unreclaimable", MI_SUNRECL },
	{ "kernel_stacks", MI_STACK }, { "page_tables", MI_PTABLES },
	{ "vmalloc", MI_VMALLOC }, { "percpu", MI_PERCPU }, { "other", -1 },
};

/* Page rows of these functions hold page-table pages. */
static const char *const ledger_ptable_fns[] = {
	"pte_alloc", "pmd_alloc", "pud_alloc", "p4d_alloc", "pgd_alloc",
	"pagetable_alloc", "pte_fragment_alloc",
};

/*
 * Page rows of these functions (substrings) hold user or page-cache
 * pages, which are no kernel memory: left out of other.
 */
static const char *const ledger_user_fns[] = {
	"folio", "do_anonymous_page", "wp_page_copy", "do_cow_fault",
	"do_fault", "page_cache", "pagecache", "readahead", "filemap_",
	"shmem_", "swap", "huge", "collapse", "compaction_alloc",
	"alloc_migration_target", "alloc_pages_vma",
};

static bool ledger_fn_in(const char *fn, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strstr(fn, list[i]))
			return true;
	}
	return false;
}

static void ledger_add(struct ledger_cat *c, const char *source,
		       const char *name, long long bytes)
{
	if (bytes > 0)
		ledger_list_add(&c->items, source, name, bytes);
}

/* The name vmallocinfo gives a site's caller: "func" or "func [module]". */
static void ledger_caller(const struct site *st, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", st->func, *st->module ? " [" : "",
		 st->module, *st->module ? "]" : "");
}

/* The module's rows: each charged to its category, per type. */
static void ledger_sites(struct ledger *l, struct ledger_src *s)
{
	char key[512];
	size_t i, j;

	if (!s->have_table || s->table.format != TABLE_EXT)
		return;
	for (i = 0; i < s->table.nr; i++) {
		const struct site *st = &s->table.sites[i];

		if (st->bytes <= 0)
			continue;
		if (!strcmp(st->type, "vmalloc")) {
			l->cat[C_VMALLOC].sites += st->bytes;
			ledger_caller(st, key, sizeof(key));
			for (j = 0; j < s->vmalloc.nr; j++) {
				struct ledger_item *v = &s->vmalloc.e[j];

				if (!strcmp(v->name, key))
					v->bytes -= st->bytes < v->bytes ?
						    st->bytes : v->bytes;
			}
		} else if (!strcmp(st->type, "percpu")) {
			l->cat[C_PERCPU].sites += st->bytes;
		} else if (!strcmp(st->type, "page")) {
			if (ledger_fn_in(st->func, ledger_ptable_fns,
					 ARRAY_SIZE(ledger_ptable_fns)))
				l->cat[C_PTABLES].sites += st->bytes;
			else if (strstr(st->func, "thread_stack"))
				l->cat[C_STACKS].sites += st->bytes;
			else if (!ledger_fn_in(st->func, ledger_user_fns,
					       ARRAY_SIZE(ledger_user_fns)))
				l->cat[C_OTHER].sites += st->bytes;
		}
		/* slab: per cache, from the module's export (below) */
	}
}

static void ledger_slab(struct ledger *l, struct ledger_src *s)
{
	size_t i;

	for (i = 0; i < s->caches.nr; i++) {
		const struct ledger_item *c = &s->caches.e[i];
		struct ledger_cat *cat = &l->cat[c->reclaimable ? C_SRECL :
						 C_SUNRECL];
		long long t = c->tracked < c->bytes ? c->tracked : c->bytes;

		cat->sites += c->tracked;
		ledger_add(cat, "slabinfo", c->name, c->bytes - t);
	}
	/* large kmallocs, and caches slabinfo does not list */
	l->cat[C_SUNRECL].sites += s->cache_export_other;
}

static void ledger_vmalloc(struct ledger *l, struct ledger_src *s)
{
	struct ledger_item *hash = NULL;
	long long take;
	size_t i;

	for (i = 0; i < s->vmalloc.nr; i++) {
		if (!strcmp(s->vmalloc.e[i].name, "alloc_large_system_hash"))
			hash = &s->vmalloc.e[i];
	}
	for (i = 0; i < s->log.nr; i++) {
		const struct ledger_item *h = &s->log.e[i];

		if (!h->cat) {
			ledger_add(&l->cat[C_OTHER], h->source, h->name, h->bytes);
			continue;
		}
		/* a vmalloc hash table: its area, named by its table */
		take = hash && hash->bytes < h->bytes ? hash->bytes : h->bytes;
		if (hash)
			hash->bytes -= take;
		ledger_add(&l->cat[C_VMALLOC], h->source, h->name, take);
	}
	for (i = 0; i < s->vmalloc.nr; i++)
		ledger_add(&l->cat[C_VMALLOC], s->vmalloc.e[i].source,
			   s->vmalloc.e[i].name, s->vmalloc.e[i].bytes);
}

static int ledger_item_cmp(const void *pa, const void *pb)
{
	const struct ledger_item *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return strcmp(a->name, b->name);
}

/*
 * Cut the parts of @c to its figure: the named ones first, largest first,
 * as the kernel names them for certain; then the call sites, whose page
 * rows are told from user pages by their functions' names alone.
 */
static void ledger_fit(struct ledger_cat *c)
{
	long long avail = c->meminfo;
	size_t i, n = 0;

	if (c->items.nr)	/* qsort(NULL, 0) is undefined */
		qsort(c->items.e, c->items.nr, sizeof(*c->items.e), ledger_item_cmp);
	for (i = 0; i < c->items.nr; i++) {
		struct ledger_item *it = &c->items.e[i];

		if (it->bytes > avail) {
			c->over += it->bytes - avail;
			it->bytes = avail;
		}
		avail -= it->bytes;
		if (it->bytes) {
			c->items.e[n++] = *it;
		} else {
			free(it->source);
			free(it->name);
		}
	}
	c->items.nr = n;
	if (c->sites > avail) {
		c->over += c->sites - avail;
		c->sites = avail;
	}
	c->unexplained = avail - c->sites;
}

static void ledger_make(struct ledger *l, struct ledger_src *s)
{
	const long long *mi = s->mi;
	long long sum = 0, used;
	int i;

	/* the kernel's table, no allocator per row: its total alone */
	l->unsplit = s->have_table && s->table.format == TABLE_KERNEL ?
		     table_total_bytes(&s->table) : -1;
	for (i = 0; i < C_NR; i++) {
		struct ledger_cat *c = &l->cat[i];

		c->name = ledger_cats[i].name;
		c->mi = ledger_cats[i].mi;
		if (c->mi < 0)
			continue;
		c->meminfo = mi[c->mi];
		if (c->mi == MI_PTABLES && mi[MI_SECPTABLES] > 0)
			c->meminfo += mi[MI_SECPTABLES];
		c->present = c->meminfo >= 0;
		if (c->present)
			sum += c->meminfo;
		else
			aie_err("ledger: /proc/meminfo gives no %s (cut short?): %s counted in other",
				c->name, c->name);
	}
	used = mi[MI_TOTAL] - mi[MI_FREE] - mi[MI_ANON] - mi[MI_BUFFERS] -
	       mi[MI_CACHED] - mi[MI_SWAPCACHED];
	/* vmalloc'd kernel stacks are in both KernelStack and VmallocUsed */
	if (s->vmap_stack && l->cat[C_STACKS].present &&
	    l->cat[C_VMALLOC].present) {
		l->overlap = l->cat[C_STACKS].meminfo;
		ledger_add(&l->cat[C_STACKS], "vmalloc",
			   "vmalloc areas, counted in vmalloc", l->overlap);
	}
	l->cat[C_OTHER].present = true;
	l->cat[C_OTHER].meminfo = used - sum + l->overlap;
	if (l->cat[C_OTHER].meminfo < 0) {
		aie_err("ledger: /proc/meminfo's kernel categories pass its used memory by %lld bytes: other is 0",
			-l->cat[C_OTHER].meminfo);
		l->cat[C_OTHER].meminfo = 0;
	}
	ledger_sites(l, s);
	ledger_slab(l, s);
	ledger_vmalloc(l, s);
	if (mi[MI_HUGETLB] > 0)
		ledger_add(&l->cat[C_OTHER], "meminfo", "Hugetlb", mi[MI_HUGETLB]);
	if (mi[MI_ZSWAP] > 0)
		ledger_add(&l->cat[C_OTHER], "meminfo", "Zswap", mi[MI_ZSWAP]);
	for (i = 0; i < C_NR; i++) {
		struct ledger_cat *c = &l->cat[i];

		if (!c->present)
			continue;
		ledger_fit(c);
		l->used += c->meminfo;
		l->explained += c->meminfo - c->unexplained;
	}
	/* the stacks' explanation is vmalloc's: counted once */
	l->used -= l->overlap;
	l->explained -= l->cat[C_STACKS].present ? l->overlap : 0;
}

static void ledger_print(const struct ledger *l, long long top)
{
	char a[32], b[32], c[32], d[32];
	long long k, named;
	size_t j;
	int i;

	format_size(a, sizeof(a), l->used);
	format_size(b, sizeof(b), l->explained);
	if (l->used > 0)
		printf("kernel memory: %s used, %s explained (%.1f%%)\n", a, b,
		       100.0 * l->explained / l->used);
	else
		printf("kernel memory: %s used, %s explained\n", a, b);
	if (l->unsplit >= 0) {
		format_size(a, sizeof(a), l->unsplit);
		printf("call sites: %s in %s, not split into categories\n", a,
		       AIE_PROC_KERNEL);
	}
	printf("%-20s %10s %10s %10s %12s\n", "category", "meminfo", "sites",
	       "named", "unexplained");
	for (i = 0; i < C_NR; i++) {
		const struct ledger_cat *cat = &l->cat[i];

		if (!cat->present)
			continue;
		named = cat->meminfo - cat->sites - cat->unexplained;
		format_size(a, sizeof(a), cat->meminfo);
		format_size(b, sizeof(b), cat->sites);
		format_size(c, sizeof(c), named);
		format_size(d, sizeof(d), cat->unexplained);
		printf("%-20s %10s %10s %10s %12s\n", cat->name, a, b, c, d);
		for (j = 0, k = 0; j < cat->items.nr && (!top || k < top); j++, k++) {
			format_size(a, sizeof(a), cat->items.e[j].bytes);
			printf("  %10s  %-12s %s\n", a, cat->items.e[j].source,
			       cat->items.e[j].name);
		}
		if (j < cat->items.nr)
			printf("  %10s  %zu more\n", "", cat->items.nr - j);
		if (cat->over) {
			format_size(a, sizeof(a), cat->over);
			printf("  %10s  parts cut to meminfo's figure by %s\n", "", a);
		}
	}
}

static void ledger_json(const struct ledger *l, const char *root)
{
	char *src = xasprintf("%s/proc", root);

	size_t j;
	int i, n = 0;

	printf("{\"command\": \"ledger\", \"source\": ");
	json_string(stdout, src);
	printf(", \"used_bytes\": %lld, \"explained_bytes\": %lld, ",
	       l->used, l->explained);
	if (l->unsplit >= 0)
		printf("\"unsplit_sites_bytes\": %lld,\n \"categories\": [", l->unsplit);
	else
		printf("\"unsplit_sites_bytes\": null,\n \"categories\": [");
	free(src);
	for (i = 0; i < C_NR; i++) {
		const struct ledger_cat *c = &l->cat[i];

		if (!c->present)
			continue;
		printf("%s\n  {\"name\": \"%s\", \"meminfo_bytes\": %lld, \"sites_bytes\": %lld, \"unexplained_bytes\": %lld, \"over_bytes\": %lld,\n   \"before_load\": [",
		       n++ ? "," : "", c->name, c->meminfo, c->sites,
		       c->unexplained, c->over);
		for (j = 0; j < c->items.nr; j++) {
			printf("%s\n    {\"source\": ", j ? "," : "");
			json_string(stdout, c->items.e[j].source);
			printf(", \"name\": ");
			json_string(stdout, c->items.e[j].name);
			printf(", \"bytes\": %lld}", c->items.e[j].bytes);
		}
		printf("%s]}", c->items.nr ? "\n   " : "");
	}
	printf("\n ]}\n");
}

const struct cmd_option ledger_options[] = {
	CMD_LETTER('l', "named parts shown per category (default 5, 0: all)"),
	CMD_LETTER('j', "the ledger as JSON, every part"),
	CMD_LONG('R', "root", "DIR",
		 "read DIR/proc/... and DIR/sys/kernel/slab/...\n"
		 "instead (a copy; both, when it has /proc/slabinfo)"),
	CMD_LONG('L', "log", "FILE",
		 "the kernel log from FILE (default: the kernel's,\n"
		 "or DIR/dmesg with --root)"),
	{ 0 },
};

static void ledger_usage(FILE *f)
{
	cmd_usage_head(f, "ledger");
	fprintf(f, "All memory the kernel holds, as /proc/meminfo counts it, per category:\n"
		"the part call sites hold (%s, since its load),\n"
		"the part the kernel names (a slab cache in /proc/slabinfo, a vmalloc caller\n"
		"in /proc/vmallocinfo, a boot-time hash table in the kernel log), and the\n"
		"rest, unexplained. Run as root: the kernel's files are for root.\n\n", AIE_PROC_EXT);
	cmd_options(f, "ledger");
	fprintf(f, "Examples:\n"
		"  allocinfo-ext ledger\n"
		"  allocinfo-ext ledger -j -l 0\n");
}

static void ledger_free(struct ledger *l)
{
	int i;

	for (i = 0; i < C_NR; i++)
		ledger_list_free(&l->cat[i].items);
}

/* --root names a directory: else say so, not that /proc/meminfo is missing. */
static int ledger_root_check(const char *root)
{
	struct stat st;
	int err;

	if (!*root)
		return 0;
	err = stat(root, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (err)
		aie_err("ledger: --root %s: %s", root, strerror(err));
	return err ? -1 : 0;
}

int cmd_ledger(int argc, char **argv)
{
	const char *root = "", *log = NULL;
	struct ledger_src s;
	struct ledger l = { 0 };
	long long top = 5;
	char *root_log = NULL;
	bool json = false;
	int opt, ret = AIE_EXIT_FAIL;

	while ((opt = cmd_getopt(argc, argv)) != -1) {
		if (opt == 'l' && parse_ll(optarg, &top) && top >= 0) {
			continue;
		} else if (opt == 'j') {
			json = true;
			continue;
		} else if (opt == 'R') {
			root = optarg;
			continue;
		} else if (opt == 'L') {
			log = optarg;
			continue;
		} else if (opt == 'h') {
			ledger_usage(stdout);
			return 0;
		}
		if (opt == 'l')
			aie_err("bad count \"%s\"", optarg);
		return cmd_usage_error(argv[0]);
	}
	if (argc > optind) {
		aie_err("ledger takes no arguments");
		return cmd_usage_error(argv[0]);
	}
	if (ledger_root_check(root))
		return AIE_EXIT_FAIL;
	if (*root && !log)
		log = root_log = xasprintf("%s/dmesg", root);
	if (!ledger_read(&s, root, log, log && !root_log)) {
		ledger_make(&l, &s);
		if (json) {
			ledger_json(&l, root);
		} else {
			text_stdout();
			ledger_print(&l, top);
		}
		ret = stdout_close() ? AIE_EXIT_FAIL : 0;
	}
	ledger_free(&l);
	ledger_src_free(&s);
	free(root_log);
	return ret;
}
