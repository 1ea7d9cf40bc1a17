/* SPDX-License-Identifier: GPL-2.0 */
/* export.h - the Prometheus writer, apart from JSON and CSV in export.c. */
#ifndef _AIE_TOOL_EXPORT_H
#define _AIE_TOOL_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "table.h"

struct prom_opts {
	long long top;		/* the series with the most live bytes, 0 or -1: all */
	long long min_bytes;	/* series with fewer live bytes left out */
	bool zeros;		/* write samples whose value is 0 */
	bool site_label;	/* label site: the location, function+0xoff too */
	const char *module;	/* -m: only its sites, or NULL (any format) */
};

/* Text exposition format 0.0.4, one series per label set. */
void export_prometheus(FILE *f, const struct table *t,
		       const struct prom_opts *o);

#endif /* _AIE_TOOL_EXPORT_H */
