// SPDX-License-Identifier: GPL-2.0
/*
 * treemap.c - the squarified layout. Values are scaled to areas; rows
 * are laid along the shorter side of what is left, and a row takes one
 * more item only while that does not worsen its worst aspect ratio.
 */
#include <math.h>

#include <stdlib.h>

#include "treemap.h"
#include "util.h"

/* Worst aspect ratio of a row of areas summing @sum, between @min and @max. */
static double treemap_worst(double sum, double min, double max, double side)
{
	double s2 = sum * sum, w2 = side * side;
	double a = w2 * max / s2, b = s2 / (w2 * min);

	return a > b ? a : b;
}

/* Place areas[from..to) as one row along the short side of @r. */
static void treemap_row(const double *areas, size_t from, size_t to,
			double sum, struct tm_rect *r, struct tm_rect *out)
{
	int wide = r->w >= r->h;
	double side = wide ? r->h : r->w, thick = sum / side, pos = 0;
	size_t i;

	for (i = from; i < to; i++) {
		double len = areas[i] / thick;

		if (wide)
			out[i] = (struct tm_rect){ r->x, r->y + pos, thick, len };
		else
			out[i] = (struct tm_rect){ r->x + pos, r->y, len, thick };
		pos += len;
	}
	if (wide) {
		r->x += thick;
		r->w = fmax(r->w - thick, 0);
	} else {
		r->y += thick;
		r->h = fmax(r->h - thick, 0);
	}
}

static void treemap_squarify(const double *areas, size_t n, struct tm_rect r,
			     struct tm_rect *out)
{
	size_t from = 0, to;
	double sum, min, max, side;

	while (from < n) {
		side = fmin(r.w, r.h);
		sum = min = max = areas[from];
		for (to = from + 1; to < n && areas[to] > 0; to++) {
			double a = areas[to];

			if (treemap_worst(sum + a, fmin(min, a), fmax(max, a), side) >
			    treemap_worst(sum, min, max, side))
				break;
			sum += a;
			min = fmin(min, a);
			max = fmax(max, a);
		}
		if (sum <= 0) {		/* zeros at the end: empty rectangles */
			for (; from < n; from++)
				out[from] = (struct tm_rect){ r.x, r.y, 0, 0 };
			return;
		}
		treemap_row(areas, from, to, sum, &r, out);
		from = to;
	}
}

void treemap_layout(const double *values, size_t n, struct tm_rect r,
		    struct tm_rect *out)
{
	double total = 0, *areas;
	size_t i;

	for (i = 0; i < n; i++)
		total += values[i] > 0 ? values[i] : 0;
	if (total <= 0 || r.w <= 0 || r.h <= 0) {
		for (i = 0; i < n; i++)
			out[i] = (struct tm_rect){ r.x, r.y, 0, 0 };
		return;
	}
	areas = xcalloc(n, sizeof(*areas));
	for (i = 0; i < n; i++)
		areas[i] = (values[i] > 0 ? values[i] : 0) * r.w * r.h / total;
	treemap_squarify(areas, n, r, out);
	free(areas);
}
