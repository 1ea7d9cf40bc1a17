// SPDX-License-Identifier: GPL-2.0
/*
 * table_fuzz - libFuzzer harness for the tool's table reader,
 * tools/allocinfo-ext/parse.c, compiled unchanged: both formats, snapshot
 * heads, saved kernel logs read as their last OOM report (oomlog.c), and
 * the cgroups file (its rows through promcg.c and cgtable.c too).
 * Under ASan and UBSan an input is refused, with a message, or read; a
 * table read keeps the parser's promise (the live bytes of its sites add
 * up to at most 2^61 in absolute value), and goes through the Prometheus
 * writer (prom.c), the terminal cleaner and the order of -s and -r
 * (order.c: its rows come out in order) without a fault; the input's first
 * line is also a -s word for order.c's parser.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgtable.h"
#include "export.h"
#include "order.h"
#include "table.h"
#include "textout.h"
#include "util.h"

static FILE *devnull;
static char msg[512];	/* the last message, kept from stderr */

static void clean(const char *s)
{
	free(text_clean(s, strlen(s)));
}

static long double site_value(const void *row, enum order_key key)
{
	const struct site *s = row;

	return key == ORDER_CALLS ? s->calls : key == ORDER_SLACK ? s->slack :
	       s->bytes;
}

static int site_tie(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

/*
 * -s and -r on the sites: each row's figure at most the one before it;
 * the input's first line (@data, table_parse() has the copy) as -s's word.
 */
static void sorted(struct table *t, const uint8_t *data, size_t size)
{
	static const struct order_ops ops = { site_value, site_tie };
	struct order o = { .key = size % 3, .reverse = size & 2 };
	char word[64];
	size_t i;

	for (i = 0; i < size && i < sizeof(word) - 1 && data[i] != '\n'; i++)
		word[i] = data[i] ? data[i] : ' ';
	word[i] = '\0';
	if (!order_parse(word, ~0u, &o.key) && o.key > ORDER_SLACK)
		o.key = ORDER_BYTES;
	order_rows(t->sites, t->nr, sizeof(*t->sites), &o, &ops);
	for (i = 1; i < t->nr; i++) {
		long double a = site_value(&t->sites[i - 1], o.key);
		long double b = site_value(&t->sites[i], o.key);

		if (o.reverse ? a > b : a < b)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prom_opts po = { .top = -1, .min_bytes = LLONG_MIN, .zeros = true };
	char *text = malloc(size + 1);
	unsigned long long sum = 0;
	struct table t;
	size_t i;
	bool cg;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	memcpy(text, data, size);
	text[size] = '\0';
	msg[0] = '\0';
	aie_err_capture(msg, sizeof(msg));
	/* The cgroups file's reader for an input naming it, else a table's */
	cg = strstr(text, "allocinfo_ext_cgroups - ") != NULL;
	if (table_parse_as(&t, "fuzz", text, size, cg)) {
		if (!msg[0])
			abort();	/* refused without a word */
		table_free(&t);
		return 0;
	}
	for (i = 0; i < t.nr; i++) {
		sum += t.sites[i].bytes < 0 ? -(unsigned long long)t.sites[i].bytes :
		       (unsigned long long)t.sites[i].bytes;
		if (sum > AIE_SUM_MAX)
			abort();
		clean(t.sites[i].location);
		clean(t.sites[i].func);
		clean(t.sites[i].module);
		if (cg)
			clean(t.sites[i].cgroup);
	}
	po.site_label = size & 1;
	po.cgroups = cg ? (long long)(size % 3) : -1;
	export_prometheus(devnull, &t, cg ? &t : NULL, &po);
	sorted(&t, data, size);
	if (cg)
		cg_select(&t, size & 1 ? "/" : "/a");
	table_free(&t);
	return 0;
}
