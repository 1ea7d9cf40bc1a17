// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - `allocinfo-ext compare`: our live bytes per site beside the
 * in-kernel profiler's (/proc/allocinfo), over the same interval.
 *
 * Ours count what was allocated since the module loaded and is still
 * live. Theirs count everything live, so the tool takes their change
 * since a baseline copy of /proc/allocinfo made when our module loaded
 * (--save-baseline, then --baseline). Each of our sites is a key: its
 * file:line and module when it has one (annotate), else its function and
 * module; rows of both types of one site are summed. A row of theirs is
 * matched by file:line (equal, or one a path suffix of the other) and
 * module, else by function and module; a row matched by neither is
 * "theirs only"; rows of allocinfo_ext itself are left out (AIE_SELF).
 * For each key, with o ours and t their change:
 *
 *	agreement = 1 - |o - t| / max(|o|, |t|)   (clamped to 0; 1 when both 0)
 *
 * and overall, byte-weighted: 1 - sum |o - t| / sum max(|o|, |t|).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "output.h"
#include "table.h"
#include "textout.h"
#include "util.h"

/*
 * The module itself: its tables are allocated at load, before its hooks
 * attach, so it never counts them. Its rows of /proc/allocinfo are left
 * out unless --module names it.
 */
#define AIE_SELF	"allocinfo_ext"

enum match { MATCH_LINE, MATCH_FUNC, MATCH_THEIRS };

static const char * const match_names[] = {
	[MATCH_LINE] = "line", [MATCH_FUNC] = "func", [MATCH_THEIRS] = "theirs",
};

struct pair {
	enum match how;
	char *label;		/* file:line or func:NAME, then [module] */
	const char *file_line;	/* MATCH_LINE, MATCH_THEIRS: the location */
	const char *func;	/* the function (by line: of its first site) */
	const char *module;
	long long ours, theirs;
};

struct compare {
	struct pair *p;
	size_t nr, cap;
};

static struct pair *compare_add(struct compare *c, enum match how,
				const char *what, const char *module)
{
	struct pair *p;

	if (c->nr == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->p = xrealloc_array(c->p, c->cap, sizeof(*c->p));
	}
	p = &c->p[c->nr++];
	*p = (struct pair){ .how = how, .module = module };
	if (module[0])
		p->label = xasprintf("%s%s [%s]", how == MATCH_FUNC ? "func:" : "",
				     what, module);
	else
		p->label = xasprintf("%s%s", how == MATCH_FUNC ? "func:" : "", what);
	return p;
}

/* Whether file:line @a and @b name one place: equal, or a path suffix. */
static bool compare_same_line(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la < lb)
		return compare_same_line(b, a);
	return !strcmp(a + la - lb, b) && (la == lb || a[la - lb - 1] == '/');
}

static struct pair *compare_find(struct compare *c, enum match how,
				 const char *what, const char *module)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		struct pair *p = &c->p[i];

		if (p->how != how || strcmp(p->module, module))
			continue;
		if (how == MATCH_LINE ? compare_same_line(p->file_line, what) :
		    !strcmp(p->func, what))
			return p;
	}
	return NULL;
}

/* Our sites, one key each, both types summed. */
static void compare_ours(struct compare *c, const struct table *t,
			 const char *module)
{
	struct pair *p;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct site *s = &t->sites[i];
		bool line = site_file_line(s, NULL, 0, NULL);
		enum match how = line ? MATCH_LINE : MATCH_FUNC;
		const char *what = line ? s->location : s->func;

		if (module && strcmp(s->module, module))
			continue;
		p = compare_find(c, how, what, s->module);
		if (!p) {
			p = compare_add(c, how, what, s->module);
			p->file_line = line ? s->location : NULL;
			p->func = s->func;	/* by line: the first one's */
		}
		p->ours += s->bytes;
	}
}

static bool compare_same_tag(const struct site *a, const struct site *b)
{
	return !strcmp(a->location, b->location) &&
	       !strcmp(a->module, b->module) && !strcmp(a->func, b->func);
}

/*
 * Live bytes of the row with @s's tag in @base. Both tables list the tags
 * in the kernel's order: the search starts after the last row found.
 */
static long long compare_base(const struct table *base, const struct site *s,
			      size_t *cursor)
{
	size_t i, j;

	for (i = 0; i < base->nr; i++) {
		j = (*cursor + i) % base->nr;
		if (compare_same_tag(&base->sites[j], s)) {
			*cursor = j + 1;
			return base->sites[j].bytes;
		}
	}
	return 0;
}

/* Their change since @base, row by row, onto our keys. */
static void compare_theirs(struct compare *c, const struct table *now,
			   const struct table *base, const char *module)
{
	size_t i, cursor = 0;
	struct pair *p;
	long long delta;

	for (i = 0; i < now->nr; i++) {
		const struct site *s = &now->sites[i];

		if (module ? strcmp(s->module, module) :
		    !strcmp(s->module, AIE_SELF))
			continue;
		delta = s->bytes - compare_base(base, s, &cursor);
		p = compare_find(c, MATCH_LINE, s->location, s->module);
		if (!p)
			p = compare_find(c, MATCH_FUNC, s->func, s->module);
		if (!p && !delta)
			continue;
		if (!p) {
			char *what = xasprintf("%s func:%s", s->location, s->func);

			p = compare_add(c, MATCH_THEIRS, what, s->module);
			p->file_line = s->location;
			p->func = s->func;
			free(what);
		}
		p->theirs += delta;
	}
}

static long long llabs_max(long long a, long long b)
{
	a = a < 0 ? -a : a;
	b = b < 0 ? -b : b;
	return a > b ? a : b;
}

static long long llabs_diff(long long a, long long b)
{
	return a > b ? a - b : b - a;
}

/* 1 - |o - t| / max(|o|, |t|), clamped to [0, 1]; 1 when both are 0. */
static double compare_agreement(long long o, long long t)
{
	long long m = llabs_max(o, t);
	double a = m ? 1.0 - (double)llabs_diff(o, t) / m : 1.0;

	return a < 0 ? 0 : a;
}

static int compare_pair_cmp(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;
	long long ma = llabs_max(a->ours, a->theirs);
	long long mb = llabs_max(b->ours, b->theirs);

	if (ma != mb)
		return ma < mb ? 1 : -1;
	return strcmp(a->label, b->label);
}

/* The figures of compare's last line. */
struct compare_sums {
	long long diff, weight, ours, theirs;
	size_t n[3];		/* keys per match */
};

static void compare_sum(const struct compare *c, struct compare_sums *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < c->nr; i++) {
		const struct pair *p = &c->p[i];

		s->diff += llabs_diff(p->ours, p->theirs);
		s->weight += llabs_max(p->ours, p->theirs);
		s->ours += p->ours;
		s->theirs += p->theirs;
		s->n[p->how]++;
	}
}

/*
 * A pair's site as every command's JSON names it (json_site_key()): one
 * matched by function has no location; one by line names the function of
 * its first site.
 */
static void compare_json_site(const struct pair *p)
{
	struct site s = {
		.location = p->file_line ? p->file_line : "",
		.module = p->module, .func = p->func ? p->func : "",
	};

	json_site_key(stdout, &s);
}

static void compare_json(const struct compare *c, const char *ours_name,
			 const char *theirs_name, const char *base,
			 long long rows)
{
	struct compare_sums s;
	size_t i;

	compare_sum(c, &s);
	fputs("{\"command\": \"compare\", ", stdout);
	json_key_string(stdout, "ours", ours_name);
	fputs(", ", stdout);
	json_key_string(stdout, "theirs", theirs_name);
	fputs(", ", stdout);
	json_key_string(stdout, "baseline", base);
	printf(",\n \"agreement\": %.6f, \"sites\": %zu, \"ours_bytes\": %lld, \"theirs_bytes\": %lld, \"matched_by_line\": %zu, \"matched_by_function\": %zu, \"theirs_only\": %zu,\n \"rows\": [",
	       s.weight ? 1.0 - (double)s.diff / s.weight : 1.0, c->nr, s.ours,
	       s.theirs, s.n[MATCH_LINE], s.n[MATCH_FUNC], s.n[MATCH_THEIRS]);
	for (i = 0; i < c->nr && (rows < 0 || (long long)i < rows); i++) {
		const struct pair *p = &c->p[i];

		printf("%s\n  {\"ours\": %lld, \"theirs\": %lld, \"agreement\": %.6f, \"match\": \"%s\", ",
		       i ? "," : "", p->ours, p->theirs,
		       compare_agreement(p->ours, p->theirs), match_names[p->how]);
		compare_json_site(p);
		putchar('}');
	}
	fputs(i ? "\n ]}\n" : "]}\n", stdout);
}

static void compare_print(struct compare *c, const char *ours_name,
			  const char *theirs_name, const char *base,
			  long long rows, bool json)
{
	long long diff = 0, weight = 0, ours = 0, theirs = 0;
	size_t i, n[3] = { 0 };

	if (c->nr)
		qsort(c->p, c->nr, sizeof(*c->p), compare_pair_cmp);
	if (json) {
		compare_json(c, ours_name, theirs_name, base, rows);
		return;
	}
	text_stdout();
	printf("# allocinfo-ext compare: %s beside the change in %s since %s\n",
	       ours_name, theirs_name, base);
	printf("#%13s %15s %9s %-6s %s\n", "ours", "theirs", "agreement",
	       "match", "site");
	for (i = 0; i < c->nr; i++) {
		struct pair *p = &c->p[i];

		diff += llabs_diff(p->ours, p->theirs);
		weight += llabs_max(p->ours, p->theirs);
		ours += p->ours;
		theirs += p->theirs;
		n[p->how]++;
		if (rows >= 0 && (long long)i >= rows)
			continue;
		printf("%14lld %15lld %8.2f%% %-6s %s\n", p->ours, p->theirs,
		       100 * compare_agreement(p->ours, p->theirs),
		       match_names[p->how], p->label);
	}
	printf("# overall: %.2f%% byte agreement over %zu sites (ours %lld bytes, theirs %lld bytes; matched by line %zu, by function %zu, theirs only %zu)\n",
	       100 * (weight ? 1.0 - (double)diff / weight : 1.0), c->nr, ours,
	       theirs, n[MATCH_LINE], n[MATCH_FUNC], n[MATCH_THEIRS]);
}

static int compare_save(const char *from, const char *to)
{
	size_t len;
	char *text = read_whole_file(from, &len);
	int ret;

	if (!text) {
		aie_err("cannot read %s: %m (is this kernel built with CONFIG_MEM_ALLOC_PROFILING?)",
			from);
		return AIE_EXIT_FAIL;
	}
	ret = write_output(to, text, len);
	if (ret)
		aie_err("cannot write %s: %m", to);
	free(text);
	return ret ? AIE_EXIT_FAIL : 0;
}

const struct cmd_option compare_options[] = {
	CMD_LONG('S', "save-baseline", "FILE",
		 "copy /proc/allocinfo to FILE and stop"),
	CMD_LONG('B', "baseline", "FILE",
		 "/proc/allocinfo as it was at load"),
	CMD_LETTER('m', "only the sites of module NAME"),
	CMD_LETTER('l', "the N largest sites (0, the default: all)"),
	CMD_LETTER('j', "the sites and the overall figures as JSON"),
	CMD_LONG('O', "ours", "FILE",
		 "instead of /proc/allocinfo_ext"),
	CMD_LONG('T', "theirs", "FILE",
		 "instead of /proc/allocinfo"),
	{ 0 },
};

static void compare_usage(FILE *f)
{
	cmd_usage_head(f, "compare");
	fprintf(f, "Our live bytes per site beside the in-kernel profiler's change since FILE,\n"
		"a copy of /proc/allocinfo taken when allocinfo_ext loaded. Sites match by\n"
		"file:line (see annotate), else by function. Per site and overall:\n"
		"  agreement = 1 - |ours - theirs| / max(|ours|, |theirs|)\n"
		"overall weighted by max(|ours|, |theirs|).\n\n");
	cmd_options(f, "compare");
	fprintf(f, "Example:\n"
		"  allocinfo-ext compare --save-baseline /run/base.txt && insmod allocinfo_ext.ko\n"
		"  ... later: allocinfo-ext compare --baseline /run/base.txt -l 20\n");
}

static int compare_load(struct table *t, const char *path,
			enum table_format want)
{
	if (table_load(t, path))
		return -1;
	if (t->format == want)
		return 0;
	aie_err("%s: expected the %s format", t->name, table_format_name(want));
	return -1;
}

int cmd_compare(int argc, char **argv)
{
	const char *save = NULL, *base = NULL, *module = NULL;
	const char *ours = AIE_PROC_EXT, *theirs = AIE_PROC_KERNEL;
	struct table to = { 0 }, tt = { 0 }, tb = { 0 };
	struct compare c = { 0 };
	long long rows = -1;
	bool json = false;
	int opt, ret = AIE_EXIT_FAIL;
	size_t i;

	while ((opt = cmd_getopt(argc, argv)) != -1) {
		switch (opt) {
		case 'S': save = optarg; break;
		case 'B': base = optarg; break;
		case 'm': module = optarg; break;
		case 'O': ours = optarg; break;
		case 'T': theirs = optarg; break;
		case 'j': json = true; break;
		case 'l':
			/* 0: all, as in top, diff and query */
			if (parse_ll(optarg, &rows) && rows >= 0) {
				rows = rows ? rows : -1;
				break;
			}
			aie_err("bad row count \"%s\"", optarg);
			return cmd_usage_error(argv[0]);
		case 'h':
			compare_usage(stdout);
			return 0;
		default:
			return cmd_usage_error(argv[0]);
		}
	}
	if (optind != argc || !save == !base) {
		aie_err("compare takes --save-baseline FILE, or --baseline FILE");
		return cmd_usage_error(argv[0]);
	}
	if (save)
		return compare_save(theirs, save);
	if (!compare_load(&to, ours, TABLE_EXT) &&
	    !compare_load(&tt, theirs, TABLE_KERNEL) &&
	    !compare_load(&tb, base, TABLE_KERNEL)) {
		compare_ours(&c, &to, module);
		compare_theirs(&c, &tt, &tb, module);
		compare_print(&c, to.name, tt.name, tb.name, rows, json);
		ret = stdout_close() ? AIE_EXIT_FAIL : 0;
	}
	for (i = 0; i < c.nr; i++)
		free(c.p[i].label);
	free(c.p);
	table_free(&tb);
	table_free(&tt);
	table_free(&to);
	return ret;
}
