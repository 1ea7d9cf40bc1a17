// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - `allocinfo-ext diff A B`: the change of every site's live bytes
 * and calls from table A to table B, largest growth first, with the sites
 * that appeared in B and those that vanished from A.
 *
 * Sites are matched by key (location, module, function); rows of one
 * table with the same key are summed first. A site given a file:line by
 * `annotate` between A and B has a new key: annotate before the first
 * snapshot.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "order.h"
#include "table.h"
#include "textout.h"
#include "util.h"

enum diff_state { DIFF_SAME, DIFF_CHANGED, DIFF_NEW, DIFF_GONE };

static const char * const diff_state_names[] = {
	[DIFF_SAME] = "same", [DIFF_CHANGED] = "changed",
	[DIFF_NEW] = "new", [DIFF_GONE] = "gone",
};

/* One key's figures in A and B. */
struct diff_entry {
	const struct site *site;	/* B's row, else A's */
	long long bytes_a, calls_a, bytes_b, calls_b;
	enum diff_state state;
};

struct diff_opts {
	bool all;		/* list unchanged sites too */
	bool exit_code;		/* exit 1 when the tables differ, 2 on trouble */
	bool json;
	long limit;		/* rows at most, 0 for all */
	struct order order;	/* -s growth, calls or bytes; -r */
	const char *module;	/* -m: only its sites, or NULL */
};

/* With --exit-code, as diff(1): 0 same, 1 different, 2 trouble. */
#define DIFF_EXIT_DIFFERENT	1
#define DIFF_EXIT_TROUBLE	2

static int diff_key_cmp(const void *a, const void *b)
{
	return site_key_cmp(*(const struct site * const *)a,
			    *(const struct site * const *)b);
}

static const struct site **diff_sorted(const struct table *t)
{
	const struct site **v = xcalloc(t->nr, sizeof(*v));
	size_t i;

	for (i = 0; i < t->nr; i++)
		v[i] = &t->sites[i];
	qsort(v, t->nr, sizeof(*v), diff_key_cmp);
	return v;
}

/* Add the run of rows with @v[*i]'s key to @bytes and @calls. */
static void diff_take(const struct site **v, size_t n, size_t *i,
		      long long *bytes, long long *calls)
{
	const struct site *first = v[*i];

	while (*i < n && !site_key_cmp(first, v[*i])) {
		*bytes += v[*i]->bytes;
		*calls += v[*i]->calls;
		(*i)++;
	}
}

/* Merge-join the two tables sorted by key. Returns the entry count. */
static size_t diff_join(const struct table *a, const struct table *b,
			struct diff_entry *out)
{
	const struct site **va = diff_sorted(a), **vb = diff_sorted(b);
	size_t i = 0, j = 0, n = 0;
	int c;

	while (i < a->nr || j < b->nr) {
		struct diff_entry *e = &out[n++];

		memset(e, 0, sizeof(*e));
		c = i == a->nr ? 1 : j == b->nr ? -1 : site_key_cmp(va[i], vb[j]);
		e->site = c < 0 ? va[i] : vb[j];
		if (c <= 0)
			diff_take(va, a->nr, &i, &e->bytes_a, &e->calls_a);
		if (c >= 0)
			diff_take(vb, b->nr, &j, &e->bytes_b, &e->calls_b);
		e->state = c < 0 ? DIFF_GONE : c > 0 ? DIFF_NEW :
			   e->bytes_a != e->bytes_b || e->calls_a != e->calls_b ?
			   DIFF_CHANGED : DIFF_SAME;
	}
	free(va);
	free(vb);
	return n;
}

/* Growth first; then calls; then the key, so the order is total. */
static int diff_growth_cmp(const void *pa, const void *pb)
{
	const struct diff_entry *a = pa, *b = pb;
	long long da = a->bytes_b - a->bytes_a, db = b->bytes_b - b->bytes_a;
	long long ca = a->calls_b - a->calls_a, cb = b->calls_b - b->calls_a;

	if (da != db)
		return da < db ? 1 : -1;
	if (ca != cb)
		return ca < cb ? 1 : -1;
	return site_key_cmp(a->site, b->site);
}

/*
 * The keys of diff's rows, for -s: growth the change of live bytes (the
 * default), calls the change of calls, bytes the live bytes in B.
 */
#define DIFF_KEYS	(ORDER_BIT(ORDER_GROWTH) | ORDER_BIT(ORDER_CALLS) | \
			 ORDER_BIT(ORDER_BYTES))

static long double diff_value(const void *row, enum order_key key)
{
	const struct diff_entry *e = row;

	switch (key) {
	case ORDER_CALLS:
		return (long double)e->calls_b - e->calls_a;
	case ORDER_BYTES:
		return e->bytes_b;
	default:
		return (long double)e->bytes_b - e->bytes_a;
	}
}

static void diff_summary(const struct table *a, const struct table *b,
			 const struct diff_entry *e, size_t n)
{
	size_t i, in_a, in_b, count[4] = { 0 };
	long long ta = table_total_bytes(a), tb = table_total_bytes(b);

	for (i = 0; i < n; i++)
		count[e[i].state]++;
	printf("# allocinfo-ext diff: %s -> %s\n", a->name, b->name);
	in_a = count[DIFF_GONE] + count[DIFF_CHANGED] + count[DIFF_SAME];
	in_b = count[DIFF_NEW] + count[DIFF_CHANGED] + count[DIFF_SAME];
	printf("# sites: %zu in A, %zu in B: %zu new, %zu gone, %zu changed, %zu same",
	       in_a, in_b, count[DIFF_NEW], count[DIFF_GONE],
	       count[DIFF_CHANGED], count[DIFF_SAME]);
	if (in_a != a->nr || in_b != b->nr)
		printf(" (rows: %zu in A, %zu in B; rows of one site summed)",
		       a->nr, b->nr);
	putchar('\n');
	printf("# live bytes: %lld -> %lld (%+lld)\n", ta, tb, tb - ta);
	printf("#  delta_bytes delta_calls      bytes_a      bytes_b state   site\n");
}

/* Whether an entry is listed: with -a all are, else those not the same. */
static bool diff_listed(const struct diff_entry *e, const struct diff_opts *o)
{
	return e->state != DIFF_SAME || o->all;
}

static void diff_print(const struct diff_entry *e, size_t n,
		       const struct diff_opts *o)
{
	char tag[4400];
	size_t i;
	long shown = 0;

	for (i = 0; i < n && (!o->limit || shown < o->limit); i++) {
		if (!diff_listed(&e[i], o))
			continue;
		site_tag(e[i].site, tag, sizeof(tag));
		printf("%+14lld %+11lld %12lld %12lld %-7s %s\n",
		       e[i].bytes_b - e[i].bytes_a, e[i].calls_b - e[i].calls_a,
		       e[i].bytes_a, e[i].bytes_b, diff_state_names[e[i].state],
		       tag);
		shown++;
	}
}

static void diff_json(const struct table *a, const struct table *b,
		      const struct diff_entry *e, size_t n,
		      const struct diff_opts *o)
{
	size_t i, count[4] = { 0 };
	long shown = 0;

	for (i = 0; i < n; i++)
		count[e[i].state]++;
	fputs("{\"command\": \"diff\", ", stdout);
	json_key_string(stdout, "a", a->name);
	fputs(", ", stdout);
	json_key_string(stdout, "b", b->name);
	printf(",\n \"sites_a\": %zu, \"sites_b\": %zu, \"rows_a\": %zu, \"rows_b\": %zu, \"new\": %zu, \"gone\": %zu, \"changed\": %zu, \"same\": %zu,\n",
	       count[DIFF_GONE] + count[DIFF_CHANGED] + count[DIFF_SAME],
	       count[DIFF_NEW] + count[DIFF_CHANGED] + count[DIFF_SAME],
	       a->nr, b->nr, count[DIFF_NEW], count[DIFF_GONE],
	       count[DIFF_CHANGED], count[DIFF_SAME]);
	printf(" \"bytes_a\": %lld, \"bytes_b\": %lld,\n \"sites\": [",
	       table_total_bytes(a), table_total_bytes(b));
	for (i = 0; i < n && (!o->limit || shown < o->limit); i++) {
		if (!diff_listed(&e[i], o))
			continue;
		printf("%s\n  {\"delta_bytes\": %lld, \"delta_calls\": %lld, \"bytes_a\": %lld, \"bytes_b\": %lld, \"calls_a\": %lld, \"calls_b\": %lld, \"state\": \"%s\", ",
		       shown ? "," : "", e[i].bytes_b - e[i].bytes_a,
		       e[i].calls_b - e[i].calls_a, e[i].bytes_a, e[i].bytes_b,
		       e[i].calls_a, e[i].calls_b, diff_state_names[e[i].state]);
		json_site_key(stdout, e[i].site);
		putchar('}');
		shown++;
	}
	fputs(shown ? "\n ]}\n" : "]}\n", stdout);
}

const struct cmd_option diff_options[] = {
	CMD_LETTER('a', "list unchanged sites too"),
	CMD_LETTER('s', "growth (default: the change of live bytes), calls\n"
			"(the change of calls) or bytes (live bytes in B)"),
	CMD_LETTER('r', "the smallest first (the order reversed)"),
	CMD_LETTER('l', "at most N rows (0, the default: all)"),
	CMD_LETTER('j', "the header's figures and the rows as JSON"),
	CMD_LETTER('m', "only the sites of module NAME (vmlinux: built-in)"),
	CMD_LONG('E', "exit-code", NULL,
		 "exit as diff(1) does: 0 when no site is new, gone or\n"
		 "changed, 1 when one is, 2 on trouble"),
	{ 0 },
};

static void diff_usage(FILE *f)
{
	cmd_usage_head(f, "diff");
	fprintf(f, "The change of each site's live bytes and calls from table A to table B\n"
		"(snapshots, or a /proc file), largest growth first. State \"new\": the\n"
		"site is in B only; \"gone\": in A only. Rows of one site in a table are\n"
		"summed: the header counts sites, and rows when they differ.\n\n");
	cmd_options(f, "diff");
	fprintf(f, "Example:\n"
		"  allocinfo-ext snapshot -o a.snap; sleep 60; allocinfo-ext diff a.snap /proc/allocinfo_ext\n");
}

/* Whether a site is new, gone or changed. */
static bool diff_differ(const struct diff_entry *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (e[i].state != DIFF_SAME)
			return true;
	}
	return false;
}

static int diff_run(const char *pa, const char *pb, const struct diff_opts *o)
{
	static const struct order_ops ops = { diff_value, diff_growth_cmp };
	int trouble = o->exit_code ? DIFF_EXIT_TROUBLE : AIE_EXIT_FAIL;
	struct table a, b;
	struct diff_entry *e;
	size_t n;
	int ret = trouble;

	if (table_load_module(&a, pa, o->module))
		goto out_a;
	if (table_load_module(&b, pb, o->module))
		goto out_b;
	e = xcalloc(a.nr + b.nr, sizeof(*e));
	n = diff_join(&a, &b, e);
	order_rows(e, n, sizeof(*e), &o->order, &ops);
	if (o->json) {
		diff_json(&a, &b, e, n, o);
	} else {
		text_stdout();
		diff_summary(&a, &b, e, n);
		diff_print(e, n, o);
	}
	if (stdout_close())
		ret = trouble;
	else if (o->exit_code && diff_differ(e, n))
		ret = DIFF_EXIT_DIFFERENT;
	else
		ret = 0;
	free(e);
out_b:
	table_free(&b);
out_a:
	table_free(&a);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .order = { .key = ORDER_GROWTH } };
	long long n;
	int c;

	while ((c = cmd_getopt(argc, argv)) != -1) {
		if (c == 'a') {
			o.all = true;
		} else if (c == 'E') {
			o.exit_code = true;
		} else if (c == 'j') {
			o.json = true;
		} else if (c == 'r') {
			o.order.reverse = true;
		} else if (c == 's' && !order_parse(optarg, DIFF_KEYS, &o.order.key)) {
			continue;
		} else if (c == 'm') {
			o.module = optarg;
		} else if (c == 'l' && parse_ll(optarg, &n) && n >= 0) {
			o.limit = n;
		} else if (c == 'h') {
			diff_usage(stdout);
			return 0;
		} else {
			if (c == 'l')
				aie_err("bad row count \"%s\"", optarg);
			return cmd_usage_error(argv[0]);
		}
	}
	if (argc - optind != 2) {
		aie_err("diff takes two tables, A and B");
		return cmd_usage_error(argv[0]);
	}
	return diff_run(argv[optind], argv[optind + 1], &o);
}
