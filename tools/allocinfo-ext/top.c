// SPDX-License-Identifier: GPL-2.0
/*
 * top.c - rows of `allocinfo-ext top`: growth between samples, ordering,
 * rendering. The terminal and the refresh loop are in topterm.c.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "top.h"
#include "util.h"

/* By key, then by line in the input: duplicates pair up in order. */
static int top_key_cmp(const void *pa, const void *pb)
{
	const struct site *a = *(const struct site * const *)pa;
	const struct site *b = *(const struct site * const *)pb;
	int c = site_key_cmp(a, b);

	if (c)
		return c;
	return a->lineno < b->lineno ? -1 : a->lineno > b->lineno;
}

static const struct site **top_by_key(const struct table *t)
{
	const struct site **v = xcalloc(t->nr, sizeof(*v));
	size_t i;

	for (i = 0; i < t->nr; i++)
		v[i] = &t->sites[i];
	qsort(v, t->nr, sizeof(*v), top_key_cmp);
	return v;
}

size_t top_rows(const struct table *cur, const struct table *prev, double dt,
		struct top_row **rows)
{
	const struct site **vc = top_by_key(cur), **vp = NULL;
	struct top_row *r = xcalloc(cur->nr, sizeof(*r));
	size_t i, j = 0;

	if (prev && dt > 0)
		vp = top_by_key(prev);
	for (i = 0; i < cur->nr; i++) {
		r[i].site = vc[i];
		if (!vp)
			continue;
		while (j < prev->nr && site_key_cmp(vp[j], vc[i]) < 0)
			j++;
		if (j < prev->nr && !site_key_cmp(vp[j], vc[i])) {
			r[i].growth = (vc[i]->bytes - vp[j]->bytes) / dt;
			r[i].has_growth = true;
			j++;
		}
	}
	free(vc);
	free(vp);
	*rows = r;
	return cur->nr;
}

static long double top_value(const void *row, enum order_key key)
{
	const struct top_row *r = row;

	switch (key) {
	case ORDER_CALLS:
		return r->site->calls;
	case ORDER_SLACK:
		return r->site->slack;
	case ORDER_GROWTH:
		return r->growth;
	default:
		return r->site->bytes;
	}
}

static int top_tie(const void *pa, const void *pb)
{
	const struct top_row *a = pa, *b = pb;

	if (a->site->bytes != b->site->bytes)
		return a->site->bytes < b->site->bytes ? 1 : -1;
	return top_key_cmp(&a->site, &b->site);
}

void top_sort(struct top_row *rows, size_t n, const struct order *o)
{
	static const struct order_ops ops = { top_value, top_tie };

	order_rows(rows, n, sizeof(*rows), o, &ops);
}

/* "+1.5K", "-512", "0"; "-" when unknown. */
static void top_growth(char *buf, size_t len, bool known, double g)
{
	long long v = g < 0 ? (long long)(g - 0.5) : (long long)(g + 0.5);

	if (!known)
		snprintf(buf, len, "-");
	else if (!v)
		snprintf(buf, len, "0");
	else if (v > 0) {
		buf[0] = '+';
		format_size(buf + 1, len - 1, v);
	} else {
		format_size(buf, len, v);
	}
}

/*
 * The sites among @n rows: rows of one key (the kernel's table repeats
 * some) are one site, as diff counts them.
 */
static size_t top_sites(const struct top_row *rows, size_t n)
{
	const struct site **v = xcalloc(n, sizeof(*v));
	size_t i, sites = 0;

	for (i = 0; i < n; i++)
		v[i] = rows[i].site;
	if (n)
		qsort(v, n, sizeof(*v), top_key_cmp);
	for (i = 0; i < n; i++)
		sites += !i || site_key_cmp(v[i - 1], v[i]);
	free(v);
	return sites;
}

enum order_key top_sort_key(const struct table *t, enum order_key key)
{
	return key == ORDER_SLACK && t->format != TABLE_EXT ? ORDER_BYTES : key;
}

void top_render_head(FILE *f, const struct table *t,
		     const struct top_row *rows, size_t n,
		     const struct top_view *v)
{
	char live[24], slack[24] = "-", growth[24], nrows[32] = "";
	long long bytes = 0, calls = 0, sl = 0;
	size_t i, sites = top_sites(rows, n);
	double g = 0;
	bool known = false;

	for (i = 0; i < n; i++) {
		bytes += rows[i].site->bytes;
		calls += rows[i].site->calls;
		sl += rows[i].site->slack;
		g += rows[i].growth;
		known |= rows[i].has_growth;
	}
	format_size(live, sizeof(live), bytes);
	if (t->format == TABLE_EXT)
		format_size(slack, sizeof(slack), sl);
	top_growth(growth, sizeof(growth), known, g);
	fprintf(f, "allocinfo-ext top%s%s - %s - sorted by %s%s%s - every %.1fs\n",
		v->clock ? " - " : "", v->clock ? v->clock : "", v->source,
		order_key_name(top_sort_key(t, v->key)),
		top_sort_key(t, v->key) != v->key ?
		" (the kernel's table has no slack)" : "",
		v->reverse ? ", smallest first" : "", v->delay);
	if (sites != n)
		snprintf(nrows, sizeof(nrows), " (%zu rows)", n);
	fprintf(f, "Sites: %zu%s  Live: %s in %lld calls  Slack: %s  Growth: %s/s\n",
		sites, nrows, live, calls, slack, growth);
}

void top_render_columns(FILE *f)
{
	fprintf(f, "%10s %6s %9s %9s %9s  %-7s %s\n", "BYTES", "SHARE", "CALLS",
		"SLACK", "GROWTH/s", "TYPE", "SITE");
}

#define TOP_SITE_COLUMN	57

/* @bytes as a share of the table's @total live bytes: "12.5%"; "-" for none. */
static void top_share(char *buf, size_t len, long long bytes, long long total)
{
	if (total > 0)
		snprintf(buf, len, "%.1f%%", 100.0 * bytes / total);
	else
		snprintf(buf, len, "-");
}

void top_render_rows(FILE *f, const struct table *t, const struct top_row *rows,
		     size_t n, const struct top_view *v)
{
	char bytes[24], share[24], slack[24], growth[24], tag[4400];
	long long total = table_total_bytes(t);
	size_t i;

	for (i = 0; i < n && (!v->lines || (long)i < v->lines); i++) {
		const struct site *s = rows[i].site;

		format_size(bytes, sizeof(bytes), s->bytes);
		top_share(share, sizeof(share), s->bytes, total);
		if (t->format == TABLE_EXT)
			format_size(slack, sizeof(slack), s->slack);
		else
			snprintf(slack, sizeof(slack), "-");
		top_growth(growth, sizeof(growth), rows[i].has_growth,
			   rows[i].growth);
		site_tag(s, tag, sizeof(tag));
		if (v->width > TOP_SITE_COLUMN + 1 &&
		    v->width - TOP_SITE_COLUMN - 1 < (int)sizeof(tag))
			tag[v->width - TOP_SITE_COLUMN - 1] = '\0';
		fprintf(f, "%10s %6s %9lld %9s %9s  %-7.7s %s\n", bytes, share,
			s->calls, slack, growth, *s->type ? s->type : "-", tag);
	}
}

void top_render(FILE *f, const struct table *t, const struct top_row *rows,
		size_t n, const struct top_view *v)
{
	top_render_head(f, t, rows, n, v);
	top_render_columns(f);
	top_render_rows(f, t, rows, n, v);
}

/* @g, or null when @known is false. */
static void top_json_growth(FILE *f, bool known, double g)
{
	if (known)
		fprintf(f, "\"growth\": %.1f", g);
	else
		fputs("\"growth\": null", f);
}

void top_render_json(FILE *f, const struct table *t, const struct top_row *rows,
		     size_t n, const struct top_view *v)
{
	bool ext = t->format == TABLE_EXT, known = false;
	long long calls = 0, slack = 0;
	double g = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		calls += rows[i].site->calls;
		slack += rows[i].site->slack;
		g += rows[i].growth;
		known |= rows[i].has_growth;
	}
	fputs("{\"command\": \"top\", ", f);
	json_key_string(f, "source", v->source);
	fputs(", ", f);
	json_key_string(f, "time", v->utc);
	fprintf(f, ", \"sorted_by\": \"%s\", \"reverse\": %s, \"sites\": %zu, \"site_rows\": %zu, \"bytes\": %lld, \"calls\": %lld, ",
		order_key_name(top_sort_key(t, v->key)),
		v->reverse ? "true" : "false", top_sites(rows, n), n,
		table_total_bytes(t), calls);
	if (ext)
		fprintf(f, "\"slack\": %lld, ", slack);
	else
		fputs("\"slack\": null, ", f);
	top_json_growth(f, known, g);
	fputs(", \"rows\": [", f);
	for (i = 0; i < n && (!v->lines || (long)i < v->lines); i++) {
		const struct site *s = rows[i].site;

		fprintf(f, "%s{\"bytes\": %lld, \"calls\": %lld, ", i ? ", " : "",
			s->bytes, s->calls);
		if (ext)
			fprintf(f, "\"slack\": %lld, ", s->slack);
		else
			fputs("\"slack\": null, ", f);
		top_json_growth(f, rows[i].has_growth, rows[i].growth);
		fputs(", ", f);
		json_key_string(f, "type", s->type);
		fputs(", ", f);
		json_site_key(f, s);
		fputc('}', f);
	}
	fputs("]}\n", f);
}
