// SPDX-License-Identifier: GPL-2.0
/*
 * prom.c - the table in Prometheus text exposition format, as
 * node_exporter's textfile collector reads it.
 *
 * Each site is one series with the labels func, module, file, line, type
 * and site (its location as the table prints it: file:line or
 * function+0xoff/0xsize), empty labels left out. Rows with the same labels
 * are summed, so no series appears twice (node_exporter rejects the whole
 * file then); their peaks are summed too, an upper bound of the true
 * peak. Label values escape '\', '"' and line feeds.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

struct prom_row {
	const struct site *site;	/* the first of the rows summed */
	long long bytes, calls, slack, peak, total_calls, total_bytes, failed;
	long long disabled;
};

struct prom_metric {
	const char *name;
	const char *type;
	const char *help;
	size_t off;		/* in struct prom_row */
	bool ext_only;		/* allocinfo_ext's fields, not the kernel's */
};

#define PROM_METRIC(n, t, h, f, e) { n, t, h, offsetof(struct prom_row, f), e }

static const struct prom_metric prom_metrics[] = {
	PROM_METRIC("allocinfo_ext_bytes", "gauge",
		    "Live bytes allocated at the call site.", bytes, false),
	PROM_METRIC("allocinfo_ext_calls", "gauge",
		    "Live allocations (allocated, not yet freed) made at the call site.",
		    calls, false),
	PROM_METRIC("allocinfo_ext_slack_bytes", "gauge",
		    "Live bytes allocated beyond the bytes requested.", slack, true),
	PROM_METRIC("allocinfo_ext_peak_bytes", "gauge",
		    "Highest live bytes since the module was loaded or reset.",
		    peak, true),
	PROM_METRIC("allocinfo_ext_allocations_total", "counter",
		    "Successful allocations since the module was loaded or reset.",
		    total_calls, true),
	PROM_METRIC("allocinfo_ext_allocated_bytes_total", "counter",
		    "Bytes of the successful allocations since the module was loaded or reset.",
		    total_bytes, true),
	PROM_METRIC("allocinfo_ext_failed_allocations_total", "counter",
		    "Allocations that returned NULL since the module was loaded or reset.",
		    failed, true),
	PROM_METRIC("allocinfo_ext_disabled", "gauge",
		    "1 when the call site records no new allocations.", disabled, true),
};

static int prom_label_cmp(const struct site *a, const struct site *b)
{
	int c = site_key_cmp(a, b);

	return c ? c : strcmp(a->type, b->type);
}

static int prom_sort_cmp(const void *a, const void *b)
{
	return prom_label_cmp(*(const struct site * const *)a,
			      *(const struct site * const *)b);
}

static void prom_add(struct prom_row *r, const struct site *s)
{
	r->bytes += s->bytes;
	r->calls += s->calls;
	r->slack += s->slack;
	r->peak += s->peak;
	r->total_calls += s->total_calls;
	r->total_bytes += s->total_bytes;
	r->failed += s->failed;
	r->disabled |= s->disabled;
}

/* Sites sorted by labels, equal labels summed. Returns the row count. */
static size_t prom_rows(const struct table *t, struct prom_row **rows)
{
	const struct site **sorted = xcalloc(t->nr, sizeof(*sorted));
	struct prom_row *r = xcalloc(t->nr, sizeof(*r));
	size_t i, n = 0;

	for (i = 0; i < t->nr; i++)
		sorted[i] = &t->sites[i];
	qsort(sorted, t->nr, sizeof(*sorted), prom_sort_cmp);
	for (i = 0; i < t->nr; i++) {
		if (!n || prom_label_cmp(r[n - 1].site, sorted[i]))
			r[n++].site = sorted[i];
		prom_add(&r[n - 1], sorted[i]);
	}
	free(sorted);
	*rows = r;
	return n;
}

static void prom_label(FILE *f, const char *name, const char *val,
		       const char **sep)
{
	if (!*val)
		return;
	fprintf(f, "%s%s=\"", *sep, name);
	for (; *val; val++) {
		if (*val == '\\' || *val == '"')
			fprintf(f, "\\%c", *val);
		else if (*val == '\n')
			fputs("\\n", f);
		else
			fputc(*val, f);
	}
	fputc('"', f);
	*sep = ",";
}

static void prom_labels(FILE *f, const struct site *s)
{
	char file[4096] = "", line[16] = "";
	unsigned int n;
	const char *sep = "";

	if (site_file_line(s, file, sizeof(file), &n))
		snprintf(line, sizeof(line), "%u", n);
	fputc('{', f);
	prom_label(f, "func", s->func, &sep);
	prom_label(f, "module", s->module, &sep);
	prom_label(f, "file", file, &sep);
	prom_label(f, "line", line, &sep);
	prom_label(f, "type", s->type, &sep);
	prom_label(f, "site", s->location, &sep);
	fputc('}', f);
}

void export_prometheus(FILE *f, const struct table *t)
{
	const struct prom_metric *m;
	struct prom_row *rows;
	size_t i, j, n = prom_rows(t, &rows);

	for (i = 0; i < ARRAY_SIZE(prom_metrics); i++) {
		m = &prom_metrics[i];
		if (m->ext_only && t->format != TABLE_EXT)
			continue;
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", m->name, m->help,
			m->name, m->type);
		for (j = 0; j < n; j++) {
			fputs(m->name, f);
			prom_labels(f, rows[j].site);
			fprintf(f, " %lld\n",
				*(long long *)((char *)&rows[j] + m->off));
		}
	}
	fputs("# HELP allocinfo_ext_sites Call sites in the table.\n"
	      "# TYPE allocinfo_ext_sites gauge\n", f);
	fprintf(f, "allocinfo_ext_sites %zu\n", t->nr);
	free(rows);
}
