// SPDX-License-Identifier: GPL-2.0
/*
 * leaks.c - `allocinfo-ext leaks`: sites whose live bytes keep growing
 * and whose oldest objects keep aging, staleness leaks.
 *
 * Reads /proc/allocinfo_ext and /proc/allocinfo_ext_lifetimes (the module
 * loaded with lifetimes=1) ROUNDS times, SEC apart, or takes the rounds
 * from files. A site is listed when, from each round to the next, its
 * live bytes grew and the age of its oldest live object grew by at least
 * half the time between the rounds: its objects are kept, not replaced.
 * A site whose live bytes grow while its old objects are freed is a site
 * that grows, and is not listed; nor is one that keeps old objects at a
 * steady size.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "allocinfo_ext.h"
#include "cmd.h"
#include "json.h"
#include "order.h"
#include "table.h"
#include "textout.h"
#include "util.h"

#define LEAKS_PROC	"/proc/" AIE_LIFETIMES_PROC_NAME
#define LEAKS_KEY_LEN	1024

/* A site of one round: "<tag> type:<type>", and a figure. */
struct leaks_entry {
	char *key;
	long long val;		/* live bytes, or oldest age in ns (-1: none) */
};

struct leaks_list {
	struct leaks_entry *e;
	size_t nr, cap;
};

struct leaks_round {
	struct leaks_list bytes, oldest;
	double time;		/* seconds, on any clock common to the rounds */
};

/* A site listed: its figures at the last round. */
struct leaks_hit {
	const char *key;
	long long bytes, growth, oldest;
};

static void leaks_add(struct leaks_list *l, char *key, long long val)
{
	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->e = xrealloc_array(l->e, l->cap, sizeof(*l->e));
	}
	l->e[l->nr++] = (struct leaks_entry){ .key = key, .val = val };
}

static int leaks_entry_cmp(const void *pa, const void *pb)
{
	const struct leaks_entry *a = pa, *b = pb;

	return strcmp(a->key, b->key);
}

static const struct leaks_entry *leaks_find(const struct leaks_list *l,
					    const char *key)
{
	struct leaks_entry k = { .key = (char *)key };

	if (!l->nr)
		return NULL;
	return bsearch(&k, l->e, l->nr, sizeof(*l->e), leaks_entry_cmp);
}

static void leaks_list_free(struct leaks_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->e[i].key);
	free(l->e);
}

/* The live bytes of each site of the module's table at @path. 0 or -1. */
static int leaks_read_table(struct leaks_round *r, const char *path)
{
	char tag[LEAKS_KEY_LEN];
	struct table t;
	size_t i;

	if (table_load(&t, path)) {
		table_free(&t);	/* what a refused table holds */
		return -1;
	}
	if (t.format != TABLE_EXT) {
		aie_err("%s: not a table of the allocinfo_ext module", t.name);
		table_free(&t);
		return -1;
	}
	for (i = 0; i < t.nr; i++) {
		if (t.sites[i].unloaded)
			continue;
		site_tag(&t.sites[i], tag, sizeof(tag));
		leaks_add(&r->bytes, xasprintf("%s type:%s", tag,
					       t.sites[i].type),
			  t.sites[i].bytes);
	}
	table_free(&t);
	if (r->bytes.nr)
		qsort(r->bytes.e, r->bytes.nr, sizeof(*r->bytes.e), leaks_entry_cmp);
	return 0;
}

/*
 * One line "<tag> type:<type> oldest:<ns>|- hist:<counts>" of @path into
 * @r. 0, or -1 after a message.
 */
static int leaks_lifetimes_line(struct leaks_round *r, const char *path,
				unsigned int lineno, char *line)
{
	char *hist = strstr(line, " hist:"), *oldest;
	long long ns = -1;

	oldest = hist ? memmem(line, hist - line, " oldest:", 8) : NULL;
	if (oldest) {
		*hist = '\0';
		if (strcmp(oldest + 8, "-") &&
		    (!parse_ll(oldest + 8, &ns) || ns < 0))
			oldest = NULL;
	}
	if (!oldest || !strstr(line, " type:")) {
		aie_err("%s:%u: expected \"<tag> type:<type> oldest:<ns> hist:<counts>\"",
			path, lineno);
		return -1;
	}
	*oldest = '\0';
	leaks_add(&r->oldest, xstrdup(line), ns);
	return 0;
}

/* The header of the lifetimes file: version 1.x, lifetimes on. */
static int leaks_lifetimes_header(const char *path, unsigned int lineno,
				  const char *line)
{
	int major;

	if (lineno == 1) {
		if (sscanf(line, "allocinfo_ext_lifetimes - version: %d.", &major) != 1) {
			aie_err("%s:1: expected \"allocinfo_ext_lifetimes - version: 1.<n>\"",
				path);
			return -1;
		}
		if (major != 1) {
			aie_err("%s:1: version %d.x of the lifetimes file is not known to this tool",
				path, major);
			return -1;
		}
	} else if (strstr(line, " lifetimes:off")) {
		aie_err("%s: lifetimes are off: load allocinfo_ext with lifetimes=1",
			path);
		return -1;
	}
	return 0;
}

static int leaks_lifetimes_any(void *arg, const char *path,
			       unsigned int lineno, char *line)
{
	if (lineno == 1 || line[0] == '#')
		return leaks_lifetimes_header(path, lineno, line);
	return leaks_lifetimes_line(arg, path, lineno, line);
}

static int leaks_read_lifetimes(struct leaks_round *r, const char *path)
{
	unsigned int lines = 0;
	int ret;

	ret = for_each_line(path, leaks_lifetimes_any, r, &lines);
	if (!ret && !lines) {
		aie_err("%s: empty", path);
		ret = -1;
	}
	if (r->oldest.nr)
		qsort(r->oldest.e, r->oldest.nr, sizeof(*r->oldest.e),
		      leaks_entry_cmp);
	return ret;
}

static double leaks_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until leaks_now() reaches @t. */
static void leaks_wait_until(double t)
{
	double d = t - leaks_now();
	struct timespec ts;

	if (d <= 0)
		return;
	ts.tv_sec = (time_t)d;
	ts.tv_nsec = (long)((d - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Whether @key leaks over @n rounds; its figures into @hit. */
static bool leaks_site(const struct leaks_round *r, int n, const char *key,
		       struct leaks_hit *hit)
{
	const struct leaks_entry *b, *o, *pb = NULL, *po = NULL;
	int i;

	for (i = 0; i < n; i++) {
		b = leaks_find(&r[i].bytes, key);
		o = leaks_find(&r[i].oldest, key);
		if (!b || !o || o->val < 0)
			return false;
		if (i && (b->val <= pb->val ||
			  o->val - po->val < (r[i].time - r[i - 1].time) * 5e8))
			return false;
		pb = b;
		po = o;
	}
	hit->key = key;
	hit->bytes = pb->val;
	hit->growth = pb->val - leaks_find(&r[0].bytes, key)->val;
	hit->oldest = po->val;
	return true;
}

static int leaks_hit_cmp(const void *pa, const void *pb)
{
	const struct leaks_hit *a = pa, *b = pb;

	if (a->growth != b->growth)
		return a->growth < b->growth ? 1 : -1;
	return strcmp(a->key, b->key);
}

/* The keys of leaks' rows, for -s: growth the default. */
#define LEAKS_KEYS	(ORDER_BIT(ORDER_GROWTH) | ORDER_BIT(ORDER_BYTES) | \
			 ORDER_BIT(ORDER_OLDEST))

static long double leaks_value(const void *row, enum order_key key)
{
	const struct leaks_hit *h = row;

	return key == ORDER_BYTES ? h->bytes : key == ORDER_OLDEST ?
	       h->oldest : h->growth;
}

/*
 * A key, "<location>[ [<module>]] func:<func> type:<type>", as a row's
 * site in every command's JSON (json_site_key()), and its type.
 */
static void leaks_json_site(const char *key)
{
	struct site s = { .module = "", .func = "", .type = "" };
	char *k = xstrdup(key), *func = strstr(k, " func:"), *type, *mod;
	size_t len;

	s.location = k;
	if (func) {
		*func = '\0';
		s.func = func + strlen(" func:");
		type = strstr(s.func, " type:");
		if (type) {
			*type = '\0';
			s.type = type + strlen(" type:");
		}
	}
	len = strlen(k);
	mod = strstr(k, " [");
	if (mod && len && k[len - 1] == ']') {
		k[len - 1] = '\0';
		*mod = '\0';
		s.module = mod + 2;
	}
	json_site_key(stdout, &s);
	fputs(", ", stdout);
	json_key_string(stdout, "type", s.type);
	free(k);
}

static void leaks_json(const struct leaks_hit *hits, size_t nr, int n,
		       double interval, size_t sites)
{
	size_t i;

	printf("{\"command\": \"leaks\", \"rounds\": %d, \"interval\": %g, \"sites\": %zu,\n \"leaks\": [",
	       n, interval, sites);
	for (i = 0; i < nr; i++) {
		printf("%s\n  {\"bytes\": %lld, \"growth\": %lld, \"oldest_ns\": %lld, ",
		       i ? "," : "", hits[i].bytes, hits[i].growth,
		       hits[i].oldest);
		leaks_json_site(hits[i].key);
		putchar('}');
	}
	fputs(nr ? "\n ]}\n" : "]}\n", stdout);
}

/* The sites that leak in order @o, the @lines first (0: all), as text or JSON. */
static void leaks_report(const struct leaks_round *r, int n, double interval,
			 bool json, long long lines, const struct order *o)
{
	static const struct order_ops ops = { leaks_value, leaks_hit_cmp };
	struct leaks_hit *hits = xcalloc(r[0].bytes.nr + 1, sizeof(*hits));
	size_t i, nr = 0, shown;

	for (i = 0; i < r[0].bytes.nr; i++)
		nr += leaks_site(r, n, r[0].bytes.e[i].key, &hits[nr]);
	order_rows(hits, nr, sizeof(*hits), o, &ops);
	shown = lines > 0 && (unsigned long long)lines < nr ? (size_t)lines : nr;
	if (json) {
		leaks_json(hits, shown, n, interval, r[0].bytes.nr);
		free(hits);
		return;
	}
	text_stdout();
	printf("# allocinfo-ext leaks: %d rounds, %g s apart: %zu of %zu sites\n",
	       n, interval, nr, r[0].bytes.nr);
	printf("#%11s %12s %10s %s\n", "bytes", "growth", "oldest_s",
	       "<tag info> type:<type>");
	for (i = 0; i < shown; i++)
		printf("%12lld %12lld %10.1f %s\n", hits[i].bytes,
		       hits[i].growth, hits[i].oldest / 1e9, hits[i].key);
	free(hits);
}

const struct cmd_option leaks_options[] = {
	CMD_LETTER('d', "seconds between rounds (default 10)"),
	CMD_LETTER('n', "rounds read, at least 2 (default 3)"),
	CMD_LETTER('s', "growth (default), bytes or oldest (the age of the\n"
			"oldest object)"),
	CMD_LETTER('r', "the smallest first (the order reversed)"),
	CMD_LETTER('j', "the sites listed as JSON"),
	CMD_LETTER('l', "the N first sites (0, the default: all)"),
	{ 0 },
};

static void leaks_usage(FILE *f)
{
	cmd_usage_head(f, "leaks");
	fprintf(f, "Sites whose live bytes grew every round and whose oldest live object\n"
		"aged by at least half the interval every round: objects kept, never\n"
		"freed. Reads %s and %s\n"
		"(the module loaded with lifetimes=1) N times, SEC apart; or takes\n"
		"each round from a TABLE and LIFETIMES pair of files, SEC apart.\n\n",
		AIE_PROC_EXT, LEAKS_PROC);
	cmd_options(f, "leaks");
	fprintf(f, "Examples:\n"
		"  allocinfo-ext leaks\n"
		"  allocinfo-ext leaks -d 60 -n 5\n");
}

/* The rounds: from /proc, SEC apart, or from the pairs of files. */
static int leaks_read(struct leaks_round *r, int n, double interval,
		      char **files)
{
	int i;

	for (i = 0; i < n; i++) {
		if (i && !files)
			leaks_wait_until(r[i - 1].time + interval);
		r[i].time = files ? i * interval : leaks_now();
		if (leaks_read_table(&r[i], files ? files[2 * i] : AIE_PROC_EXT) ||
		    leaks_read_lifetimes(&r[i], files ? files[2 * i + 1] : LEAKS_PROC))
			return -1;
	}
	return 0;
}

int cmd_leaks(int argc, char **argv)
{
	struct order order = { .key = ORDER_GROWTH };
	long long rounds = 3, lines = 0;
	double interval = 10;
	bool json = false;
	struct leaks_round *r;
	int opt, i, ret = AIE_EXIT_FAIL;

	while ((opt = cmd_getopt(argc, argv)) != -1) {
		if (opt == 'd' && parse_seconds(optarg, &interval) && interval > 0) {
			continue;
		} else if (opt == 'n' && parse_ll(optarg, &rounds) && rounds >= 2 &&
			   rounds <= 1000) {
			continue;
		} else if (opt == 'j') {
			json = true;
			continue;
		} else if (opt == 'r') {
			order.reverse = true;
			continue;
		} else if (opt == 's' && !order_parse(optarg, LEAKS_KEYS, &order.key)) {
			continue;
		} else if (opt == 'l' && parse_ll(optarg, &lines) && lines >= 0) {
			continue;
		} else if (opt == 'h') {
			leaks_usage(stdout);
			return 0;
		}
		if (opt == 'd' || opt == 'n' || opt == 'l')
			aie_err("bad %s \"%s\"", opt == 'd' ? "interval" :
				opt == 'n' ? "rounds" : "row count", optarg);
		return cmd_usage_error(argv[0]);
	}
	if (argc > optind) {
		if ((argc - optind) % 2 || argc - optind < 4) {
			aie_err("leaks takes pairs of files TABLE LIFETIMES, at least two");
			return cmd_usage_error(argv[0]);
		}
		rounds = (argc - optind) / 2;
	}
	r = xcalloc(rounds, sizeof(*r));
	if (!leaks_read(r, rounds, interval, argc > optind ? argv + optind : NULL)) {
		leaks_report(r, rounds, interval, json, lines, &order);
		ret = stdout_close() ? AIE_EXIT_FAIL : 0;
	}
	for (i = 0; i < rounds; i++) {
		leaks_list_free(&r[i].bytes);
		leaks_list_free(&r[i].oldest);
	}
	free(r);
	return ret;
}
