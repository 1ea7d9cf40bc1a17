// SPDX-License-Identifier: GPL-2.0
/*
 * prom.c - the table in Prometheus text exposition format, as
 * node_exporter's textfile collector reads it.
 *
 * A series' labels are func, module, file, line and type (file and line
 * from a file:line location), empty labels left out; with --labels site,
 * also site, the location as the table prints it (function+0xoff/0xsize
 * changes at every kernel build: a new series each time). Sites with the
 * same labels are summed into one series, so no series appears twice
 * (node_exporter rejects the whole file then); their peaks are summed
 * too, an upper bound of the true peak. Label values escape '\\', '"' and
 * line feeds, and are valid UTF-8: a byte that is not is written as
 * U+FFFD, and sites whose names differ only there are one series.
 *
 * A fleet wants few series: --top N keeps the N series holding the most
 * live bytes (0: all, as -l 0 elsewhere), --min-bytes those holding at
 * least that many, and a sample whose value is 0 is left out unless
 * --zeros asks for it. A counter (*_total) never goes down: a negative
 * one, or a series summing one, is left out, not written for rate() to
 * take as a reset.
 * allocinfo_ext_table_bytes keeps the total of the table, series left out
 * included.
 *
 * allocinfo_ext_sites and allocinfo_ext_table_bytes carry a label source,
 * allocinfo_ext or allocinfo (the table's format), so that the exports of
 * both files can sit in one textfile directory; allocinfo_ext_info says
 * what was exported, and allocinfo_ext_export_timestamp_seconds when the
 * figures were taken (a gauge: the textfile collector refuses sample
 * timestamps).
 *
 * The node<N>: keys (format 1.4) are allocinfo_ext_node_bytes, a series'
 * labels and node="N", for the series that --top and --min-bytes keep;
 * a table without them writes no such metric.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "export.h"
#include "util.h"

/*
 * Add counter @v to *@sum; a negative counter, not one a reader of
 * counters can take, makes the sum negative for good: left out.
 */
static void prom_counter_add(long long *sum, long long v)
{
	*sum = *sum < 0 || v < 0 ? -1 : *sum + v;
}

/* A series' live bytes on one node; @has when a site summed gave them. */
struct prom_node {
	long long bytes;
	bool has;
};

struct prom_row {
	char *labels;			/* "{func=\"...\",...}", valid UTF-8 */
	struct prom_node *nodes;	/* [table's node_ids], or NULL */
	long long bytes, calls, slack, peak, total_calls, total_bytes, failed;
	long long disabled, accounted;
	bool has_accounted;		/* a site summed gave accounted: */
	bool kept;			/* not left out by --top or --min-bytes */
};

struct prom_metric {
	const char *name;
	const char *type;
	const char *help;
	size_t off;		/* in struct prom_row */
	int ext_minor;		/* allocinfo_ext's format from 1.<this> on; -1 both */
};

#define PROM_METRIC(n, t, h, f, e) { n, t, h, offsetof(struct prom_row, f), e }
#define PROM_BOTH	-1

static const struct prom_metric prom_metrics[] = {
	PROM_METRIC("allocinfo_ext_bytes", "gauge",
		    "Live bytes allocated at the call site.", bytes, PROM_BOTH),
	PROM_METRIC("allocinfo_ext_calls", "gauge",
		    "Live allocations (allocated, not yet freed) made at the call site.",
		    calls, PROM_BOTH),
	PROM_METRIC("allocinfo_ext_slack_bytes", "gauge",
		    "Live bytes allocated beyond the bytes requested.", slack, 0),
	PROM_METRIC("allocinfo_ext_peak_bytes", "gauge",
		    "Highest live bytes since the module was loaded or reset.",
		    peak, 0),
	PROM_METRIC("allocinfo_ext_allocations_total", "counter",
		    "Successful allocations since the module was loaded or reset.",
		    total_calls, 0),
	PROM_METRIC("allocinfo_ext_allocated_bytes_total", "counter",
		    "Bytes of the successful allocations since the module was loaded or reset.",
		    total_bytes, 0),
	PROM_METRIC("allocinfo_ext_failed_allocations_total", "counter",
		    "Allocations that returned NULL since the module was loaded or reset.",
		    failed, 0),
	PROM_METRIC("allocinfo_ext_disabled", "gauge",
		    "1 when the call site records no new allocations.", disabled, 0),
	PROM_METRIC("allocinfo_ext_accounted_bytes", "gauge",
		    "Live bytes charged to a memory cgroup (__GFP_ACCOUNT).",
		    accounted, 2),
};

void prom_label(FILE *f, const char *name, const char *val, const char **sep)
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
static char *prom_labels(const struct site *s, const struct prom_opts *o)
{
	char line[16] = "", *buf = NULL, *file;
	const char *sep = "";
	unsigned int n;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		fputs(AIE_TOOL_NAME ": out of memory\n", stderr);
		exit(AIE_EXIT_FAIL);
	}
	/* the whole file name: a cut one would merge distinct sites */
	file = site_file(s, &n);
	if (file)
		snprintf(line, sizeof(line), "%u", n);
	fputc('{', f);
	prom_label(f, "func", s->func, &sep);
	prom_label(f, "module", s->module, &sep);
	prom_label(f, "file", file ? file : "", &sep);
	free(file);
	prom_label(f, "line", line, &sep);
	prom_label(f, "type", s->type, &sep);
	if (o->site_label)
		prom_label(f, "site", s->location, &sep);
	fputc('}', f);
	fclose(f);
	return buf;
}

static int prom_labels_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct prom_row *)pa)->labels,
		      ((const struct prom_row *)pb)->labels);
}

/* Most live bytes first; the labels break ties. */
static int prom_bytes_cmp(const void *pa, const void *pb)
{
	const struct prom_row *a = *(const struct prom_row * const *)pa;
	const struct prom_row *b = *(const struct prom_row * const *)pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return strcmp(a->labels, b->labels);
}

/* The node bytes of @s, indexed by id, for a table of @node_ids. */
static struct prom_node *prom_site_nodes(const struct site *s,
					 unsigned int node_ids)
{
	struct prom_node *n;
	unsigned int k;

	if (!node_ids)
		return NULL;
	n = xcalloc(node_ids, sizeof(*n));
	for (k = 0; k < s->nr_nodes; k++) {
		n[s->nodes[k].id].bytes = s->nodes[k].bytes;
		n[s->nodes[k].id].has = true;
	}
	return n;
}

static void prom_add(struct prom_row *r, const struct prom_row *s,
		     unsigned int node_ids)
{
	unsigned int k;

	for (k = 0; k < node_ids; k++) {
		r->nodes[k].bytes += s->nodes[k].bytes;
		r->nodes[k].has |= s->nodes[k].has;
	}
	r->bytes += s->bytes;
	r->calls += s->calls;
	r->slack += s->slack;
	r->peak += s->peak;
	prom_counter_add(&r->total_calls, s->total_calls);
	prom_counter_add(&r->total_bytes, s->total_bytes);
	prom_counter_add(&r->failed, s->failed);
	r->disabled |= s->disabled;
	r->accounted += s->accounted;
	r->has_accounted |= s->has_accounted;
}

/* Mark the rows --top and --min-bytes keep. */
static void prom_keep(struct prom_row *r, size_t n, const struct prom_opts *o)
{
	struct prom_row **v = xcalloc(n, sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = &r[i];
	if (n)
		qsort(v, n, sizeof(*v), prom_bytes_cmp);
	for (i = 0; i < n; i++)
		v[i]->kept = (o->top <= 0 || (long long)i < o->top) &&
			     v[i]->bytes >= o->min_bytes;
	free(v);
}

/*
 * One row per label set, in the order of the labels, sites with equal
 * labels summed. Returns the row count.
 */
static size_t prom_rows(const struct table *t, const struct prom_opts *o,
			struct prom_row **rows)
{
	struct prom_row *r = xcalloc(t->nr, sizeof(*r));
	size_t i, n = 0;

	for (i = 0; i < t->nr; i++) {
		const struct site *s = &t->sites[i];

		r[i] = (struct prom_row){
			.labels = prom_labels(s, o), .bytes = s->bytes,
			.calls = s->calls, .slack = s->slack, .peak = s->peak,
			.total_calls = s->total_calls,
			.total_bytes = s->total_bytes, .failed = s->failed,
			.disabled = s->disabled, .accounted = s->accounted,
			.has_accounted = s->has_accounted,
			.nodes = prom_site_nodes(s, t->node_ids),
		};
	}
	if (t->nr)
		qsort(r, t->nr, sizeof(*r), prom_labels_cmp);
	for (i = 0; i < t->nr; i++) {
		if (n && !strcmp(r[n - 1].labels, r[i].labels)) {
			prom_add(&r[n - 1], &r[i], t->node_ids);
			free(r[i].labels);
			free(r[i].nodes);
		} else {
			r[n++] = r[i];
		}
	}
	prom_keep(r, n, o);
	*rows = r;
	return n;
}

/* allocinfo_ext_node_bytes: each kept series' bytes on each node. */
static void prom_nodes(FILE *f, const struct table *t,
		       const struct prom_row *rows, size_t n,
		       const struct prom_opts *o)
{
	const struct prom_node *nd;
	size_t j, len;
	unsigned int k;

	if (!t->node_ids)
		return;
	fputs("# HELP allocinfo_ext_node_bytes Live bytes allocated at the call site on the NUMA node.\n"
	      "# TYPE allocinfo_ext_node_bytes gauge\n", f);
	for (j = 0; j < n; j++) {
		len = strlen(rows[j].labels) - 1;	/* without the '}' */
		for (k = 0; k < t->node_ids; k++) {
			nd = &rows[j].nodes[k];
			if (!rows[j].kept || !nd->has || (!nd->bytes && !o->zeros))
				continue;
			fprintf(f, "allocinfo_ext_node_bytes%.*s%snode=\"%u\"} %lld\n",
				(int)len, rows[j].labels, len > 1 ? "," : "",
				k, nd->bytes);
		}
	}
}

/* @t is a /proc file read now: this machine's figures, at this moment. */
static bool prom_live(const struct table *t)
{
	return !t->meta.time && (!strcmp(t->name, AIE_PROC_EXT) ||
				 !strcmp(t->name, AIE_PROC_KERNEL));
}

/*
 * allocinfo_ext_export_timestamp_seconds: when the figures were taken,
 * Unix seconds: a snapshot's head's time, or now for a /proc file read
 * now; left out when unknown (a file without a head, standard input).
 */
static void prom_timestamp(FILE *f, const struct table *t)
{
	struct tm tm = { 0 };
	const char *end;
	time_t when;

	if (prom_live(t)) {
		when = time(NULL);
	} else {
		end = t->meta.time ? strptime(t->meta.time, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
		if (!end || *end)
			return;
		when = timegm(&tm);
	}
	fputs("# HELP allocinfo_ext_export_timestamp_seconds When the figures were taken, in seconds since the epoch.\n"
	      "# TYPE allocinfo_ext_export_timestamp_seconds gauge\n", f);
	fprintf(f, "allocinfo_ext_export_timestamp_seconds{source=\"%s\"} %lld\n",
		table_format_name(t->format), (long long)when);
}

/*
 * allocinfo_ext_info, 1: the table's source (its format), format version,
 * and the kernel release and module version: a snapshot's head's, or,
 * for a /proc file read now, this machine's; else left out.
 */
static void prom_info(FILE *f, const struct table *t)
{
	bool live = prom_live(t);
	char version[16], module[256] = "";
	const char *sep = "", *kernel = t->meta.kernel;
	struct utsname u;

	snprintf(version, sizeof(version), "%d.%d", t->major, t->minor);
	if (live) {
		kernel = uname(&u) ? NULL : u.release;
		table_module_version(t, module, sizeof(module));
	} else if (t->meta.module_version) {
		snprintf(module, sizeof(module), "%s", t->meta.module_version);
	}
	fputs("# HELP allocinfo_ext_info The table exported: source, format version, kernel release, module version.\n"
	      "# TYPE allocinfo_ext_info gauge\nallocinfo_ext_info{", f);
	prom_label(f, "source", table_format_name(t->format), &sep);
	prom_label(f, "version", version, &sep);
	prom_label(f, "kernel", kernel ? kernel : "", &sep);
	prom_label(f, "module_version", module, &sep);
	fputs("} 1\n", f);
}

void export_prometheus(FILE *f, const struct table *t, const struct table *cg,
		       const struct prom_opts *o)
{
	const struct prom_metric *m;
	struct prom_row *rows;
	size_t i, j, n = prom_rows(t, o, &rows);
	long long v;

	for (i = 0; i < ARRAY_SIZE(prom_metrics); i++) {
		m = &prom_metrics[i];
		if (m->ext_minor != PROM_BOTH &&
		    (t->format != TABLE_EXT || t->minor < m->ext_minor))
			continue;
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", m->name, m->help,
			m->name, m->type);
		for (j = 0; j < n; j++) {
			v = *(long long *)((char *)&rows[j] + m->off);
			if (!rows[j].kept || (!v && !o->zeros) ||
			    (v < 0 && !strcmp(m->type, "counter")) ||
			    (m->off == offsetof(struct prom_row, accounted) &&
			     !rows[j].has_accounted))
				continue;
			fprintf(f, "%s%s %lld\n", m->name, rows[j].labels, v);
		}
	}
	prom_nodes(f, t, rows, n, o);
	fputs("# HELP allocinfo_ext_sites Call sites in the table.\n"
	      "# TYPE allocinfo_ext_sites gauge\n", f);
	fprintf(f, "allocinfo_ext_sites{source=\"%s\"} %zu\n",
		table_format_name(t->format), t->nr);
	fputs("# HELP allocinfo_ext_table_bytes Live bytes of all call sites, those of series left out included.\n"
	      "# TYPE allocinfo_ext_table_bytes gauge\n", f);
	fprintf(f, "allocinfo_ext_table_bytes{source=\"%s\"} %lld\n",
		table_format_name(t->format), table_total_bytes(t));
	prom_info(f, t);
	prom_timestamp(f, t);
	if (cg)
		prom_cgroups(f, cg, o);
	for (j = 0; j < n; j++) {
		free(rows[j].labels);
		free(rows[j].nodes);
	}
	free(rows);
}
