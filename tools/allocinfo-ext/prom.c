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
 * peak. Label values escape '\', '"' and line feeds, and are valid UTF-8:
 * a byte that is not is written as U+FFFD, and sites whose names differ
 * only there are summed into one series.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

struct prom_row {
	const struct site *site;	/* the first of the rows summed */
	char *labels;			/* "{func=\"...\",...}", valid UTF-8 */
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

static void prom_label(FILE *f, const char *name, const char *val,
		       const char **sep)
{
	char *clean, *v;

	if (!*val)
		return;
	clean = utf8_clean(val);
	fprintf(f, "%s%s=\"", *sep, name);
	for (v = clean; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
	free(clean);
	*sep = ",";
}

/* The labels of @s, as written after a metric's name. */
static char *prom_labels(const struct site *s)
{
	char file[4096] = "", line[16] = "", *buf = NULL;
	const char *sep = "";
	unsigned int n;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		fputs(AIE_TOOL_NAME ": out of memory\n", stderr);
		exit(AIE_EXIT_FAIL);
	}
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
	fclose(f);
	return buf;
}

/* A site's key as the labels give it: bytes that are not UTF-8 replaced. */
struct prom_key {
	const struct site *site;
	char *key[4];		/* location, module, func, type */
};

static int prom_key_cmp(const void *pa, const void *pb)
{
	const struct prom_key *a = pa, *b = pb;
	size_t i;
	int c = 0;

	for (i = 0; i < ARRAY_SIZE(a->key) && !c; i++)
		c = strcmp(a->key[i], b->key[i]);
	return c;
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

/*
 * Sites sorted by labels, equal labels summed: two sites whose names
 * differ only in bytes that are not UTF-8 are one series. Returns the row
 * count.
 */
static size_t prom_rows(const struct table *t, struct prom_row **rows)
{
	struct prom_key *k = xcalloc(t->nr, sizeof(*k));
	struct prom_row *r = xcalloc(t->nr, sizeof(*r));
	size_t i, j, n = 0;

	for (i = 0; i < t->nr; i++) {
		const struct site *s = &t->sites[i];

		k[i].site = s;
		k[i].key[0] = utf8_clean(s->location);
		k[i].key[1] = utf8_clean(s->module);
		k[i].key[2] = utf8_clean(s->func);
		k[i].key[3] = utf8_clean(s->type);
	}
	if (t->nr)
		qsort(k, t->nr, sizeof(*k), prom_key_cmp);
	for (i = 0; i < t->nr; i++) {
		if (!n || prom_key_cmp(&k[i - 1], &k[i])) {
			r[n].site = k[i].site;
			r[n++].labels = prom_labels(k[i].site);
		}
		prom_add(&r[n - 1], k[i].site);
	}
	for (i = 0; i < t->nr; i++) {
		for (j = 0; j < ARRAY_SIZE(k[i].key); j++)
			free(k[i].key[j]);
	}
	free(k);
	*rows = r;
	return n;
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
			fprintf(f, "%s%s %lld\n", m->name, rows[j].labels,
				*(long long *)((char *)&rows[j] + m->off));
		}
	}
	fputs("# HELP allocinfo_ext_sites Call sites in the table.\n"
	      "# TYPE allocinfo_ext_sites gauge\n", f);
	fprintf(f, "allocinfo_ext_sites %zu\n", t->nr);
	for (j = 0; j < n; j++)
		free(rows[j].labels);
	free(rows);
}
