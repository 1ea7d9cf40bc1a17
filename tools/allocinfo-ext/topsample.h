/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topsample.h - what `allocinfo-ext top`'s command (topcmd.c: options,
 * batch mode) and its terminal screen (topterm.c) share: the options, and
 * the samples (topsample.c).
 */
#ifndef _AIE_TOOL_TOPSAMPLE_H
#define _AIE_TOOL_TOPSAMPLE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "top.h"

#define TOP_DELAY_MIN	0.1
#define TOP_DELAY_MAX	86400

struct top_opts {
	struct top_view view;
	const char *path;	/* NULL: the default source */
	const char *module;	/* -m: only its sites, or NULL */
	const char *cgroup;	/* --cgroup: its subtree's rows, or NULL */
	bool batch;
	bool json;		/* one line of JSON per sample; batch mode */
	long iterations;	/* 0: until stopped */
	long lines;		/* -l, -1 when not given */
};

/* The latest sample and the one before, for growth and for redraws. */
struct top_samples {
	struct table cur, older;
	bool have_cur, have_older;
	double t_cur, t_older;
};

/* Set by SIGINT and SIGTERM: the loops stop. */
extern volatile sig_atomic_t top_stop;

double top_now(void);
/* Now as "HH:MM:SS" (local), or as "YYYY-MM-DDTHH:MM:SSZ" when @utc. */
void top_clock(char *buf, size_t len, bool utc);
/* A new sample of @o's table, the one before kept. 0, or -1 (said). */
int top_sample(struct top_samples *s, const struct top_opts *o);
void top_samples_free(struct top_samples *s);
/* The rows of the latest sample, sorted. */
size_t top_sorted_rows(struct top_samples *s, struct top_opts *o,
		       struct top_row **rows);

#endif /* _AIE_TOOL_TOPSAMPLE_H */
