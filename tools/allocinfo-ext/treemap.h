/* SPDX-License-Identifier: GPL-2.0 */
/*
 * treemap.h - squarified treemap layout (Bruls, Huizing, van Wijk, 2000):
 * rectangles with areas in proportion to values, as close to squares as
 * a greedy row-by-row layout gets them.
 */
#ifndef _AIE_TOOL_TREEMAP_H
#define _AIE_TOOL_TREEMAP_H

#include <stddef.h>

struct tm_rect {
	double x, y, w, h;
};

/*
 * Lay @n values, largest first and none negative, out in @r: @out[i] is
 * value i's rectangle. With a zero total every rectangle is empty.
 */
void treemap_layout(const double *values, size_t n, struct tm_rect r,
		    struct tm_rect *out);

#endif /* _AIE_TOOL_TREEMAP_H */
