// SPDX-License-Identifier: GPL-2.0
/*
 * topsample.c - the samples of `allocinfo-ext top`'s table, for batch
 * mode (topcmd.c) and the screen (topterm.c) alike.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgtable.h"
#include "topsample.h"
#include "util.h"

volatile sig_atomic_t top_stop;

double top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void top_clock(char *buf, size_t len, bool utc)
{
	time_t now = time(NULL);
	struct tm tm;

	if (utc ? !gmtime_r(&now, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) :
	    !localtime_r(&now, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
}

int top_sample(struct top_samples *s, const struct top_opts *o)
{
	struct table t;

	if (o->cgroup ? table_load_cgroups(&t, o->path) :
	    table_load(&t, o->path)) {
		table_free(&t);
		return -1;
	}
	if (o->cgroup)
		cg_select(&t, o->cgroup);
	table_keep_module(&t, o->module);
	if (s->have_older)
		table_free(&s->older);
	s->older = s->cur;
	s->t_older = s->t_cur;
	s->have_older = s->have_cur;
	s->cur = t;
	s->t_cur = top_now();
	s->have_cur = true;
	return 0;
}

void top_samples_free(struct top_samples *s)
{
	if (s->have_older)
		table_free(&s->older);
	if (s->have_cur)
		table_free(&s->cur);
}

size_t top_sorted_rows(struct top_samples *s, struct top_opts *o,
		       struct top_row **rows)
{
	struct order order = {
		.key = top_sort_key(&s->cur, o->view.key),
		.reverse = o->view.reverse,
	};
	size_t n = top_rows(&s->cur, s->have_older ? &s->older : NULL,
			    s->t_cur - s->t_older, rows);

	top_sort(*rows, n, &order);
	return n;
}
