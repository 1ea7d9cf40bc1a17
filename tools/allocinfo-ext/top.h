/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top.h - the parts of `allocinfo-ext top` that are not the terminal:
 * growth between two samples, ordering, and the rendered screen.
 */
#ifndef _AIE_TOOL_TOP_H
#define _AIE_TOOL_TOP_H

#include <stdbool.h>
#include <stdio.h>

#include "order.h"
#include "table.h"

struct top_row {
	const struct site *site;
	double growth;		/* live bytes per second since the last sample */
	bool has_growth;	/* false on the first sample, and for new sites */
};

struct top_view {
	const char *source;
	enum order_key key;	/* bytes, calls, slack or growth */
	bool reverse;		/* -r: the smallest first */
	double delay;
	long lines;		/* rows at most, 0 for all */
	int width;		/* columns to cut the site at, 0 for none */
	const char *clock;	/* "HH:MM:SS", or NULL */
	const char *utc;	/* "YYYY-MM-DDTHH:MM:SSZ", for JSON */
};

/*
 * One row per site of @cur, with its growth over the @dt seconds since
 * @prev (NULL: none). Rows with the same key pair up in table order.
 */
size_t top_rows(const struct table *cur, const struct table *prev, double dt,
		struct top_row **rows);

/*
 * Largest first by o->key; ties by bytes, then by site key; all turned
 * over with o->reverse.
 */
void top_sort(struct top_row *rows, size_t n, const struct order *o);

void top_render(FILE *f, const struct table *t, const struct top_row *rows,
		size_t n, const struct top_view *v);

/*
 * top_render() in parts: the title and the totals of @rows (two lines),
 * the column heads, and the rows (v->lines at most; each site cut at
 * v->width).
 */
void top_render_head(FILE *f, const struct table *t,
		     const struct top_row *rows, size_t n,
		     const struct top_view *v);
void top_render_columns(FILE *f);
void top_render_rows(FILE *f, const struct table *t, const struct top_row *rows,
		     size_t n, const struct top_view *v);

/* The key rows are sorted by: bytes for slack in the kernel's table. */
enum order_key top_sort_key(const struct table *t, enum order_key key);

/*
 * The same as one line of JSON: the header's figures (slack null for the
 * kernel's table, growth null on a first sample) and the rows shown.
 */
void top_render_json(FILE *f, const struct table *t, const struct top_row *rows,
		     size_t n, const struct top_view *v);

/* The keys of top's rows, for order_parse(). */
#define TOP_KEYS	(ORDER_BIT(ORDER_BYTES) | ORDER_BIT(ORDER_CALLS) | \
			 ORDER_BIT(ORDER_SLACK) | ORDER_BIT(ORDER_GROWTH))

#endif /* _AIE_TOOL_TOP_H */
