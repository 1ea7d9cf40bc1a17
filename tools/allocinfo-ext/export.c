// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - `allocinfo-ext export`: the table as JSON, CSV, or the
 * Prometheus text exposition format (for node_exporter's textfile
 * collector).
 *
 * JSON and CSV give the rows as they are, with the same fields (CSV's
 * unloaded is 0 or 1, its accounted empty where the table has none; the
 * node<N>: keys as JSON's "nodes" object and, in a table that has any,
 * CSV columns node0, node1, ... up to the highest id, empty where a row
 * lacks one), but for bytes that are not
 * UTF-8, written as U+FFFD, so that every output is valid whatever the
 * input. Prometheus needs every series
 * once: rows with the same labels (the kernel's /proc/allocinfo repeats a
 * header's inline function's tag per module) are summed into one.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "export.h"
#include "json.h"
#include "output.h"
#include "table.h"
#include "util.h"

/* Digits, and a fraction after a point: a JSON number as it is written. */
static bool json_plain_number(const char *s)
{
	size_t n = strspn(s, "0123456789"), frac;

	if (!n)
		return false;
	if (s[n] != '.')
		return !s[n];
	frac = strspn(s + n + 1, "0123456789");
	return frac && !s[n + 1 + frac];
}

/* The snapshot's head; its uptime, seconds, a number (null if it is none). */
static void json_meta(FILE *f, const struct table_meta *m)
{
	const char *keys[] = { "time", "kernel", "uptime", "module_version", "source" };
	const char *vals[] = { m->time, m->kernel, m->uptime, m->module_version, m->source };
	const char *sep = "";
	size_t i;

	fputs("  \"snapshot\": {", f);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!vals[i])
			continue;
		fputs(sep, f);
		sep = ", ";
		if (vals[i] != m->uptime) {
			json_key_string(f, keys[i], vals[i]);
			continue;
		}
		fprintf(f, "\"uptime\": %s", json_plain_number(m->uptime) ? m->uptime : "null");
	}
	fputs("},\n", f);
}

/* , "nodes": {"<id>": <bytes>, ...} of a row that has node keys. */
static void json_nodes(FILE *f, const struct site *s)
{
	unsigned int k;

	if (!s->nr_nodes)
		return;
	fputs(", \"nodes\": {", f);
	for (k = 0; k < s->nr_nodes; k++)
		fprintf(f, "%s\"%u\": %lld", k ? ", " : "", s->nodes[k].id,
			s->nodes[k].bytes);
	fputc('}', f);
}

static void json_site(FILE *f, const struct table *t, const struct site *s)
{
	fprintf(f, "    {\"bytes\": %lld, \"calls\": %lld, ", s->bytes, s->calls);
	json_site_key(f, s);
	if (t->format == TABLE_EXT) {
		fputs(", ", f);
		json_key_string(f, "type", s->type);
		fprintf(f, ", \"slack\": %lld, \"total_calls\": %lld, \"total_bytes\": %lld, \"peak\": %lld, \"failed\": %lld, \"disabled\": %s",
			s->slack, s->total_calls, s->total_bytes, s->peak,
			s->failed, s->disabled ? "true" : "false");
		if (s->unloaded)
			fputs(", \"unloaded\": true", f);
		if (s->has_accounted)
			fprintf(f, ", \"accounted\": %lld", s->accounted);
		json_nodes(f, s);
	}
	fputc('}', f);
}

static void export_json(FILE *f, const struct table *t)
{
	size_t i;

	fputs("{\n  ", f);
	json_key_string(f, "source", t->name);
	fputs(",\n  ", f);
	json_key_string(f, "format", table_format_name(t->format));
	fprintf(f, ",\n  \"version\": \"%d.%d\",\n", t->major, t->minor);
	json_meta(f, &t->meta);
	fputs("  \"sites\": [", f);
	for (i = 0; i < t->nr; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_site(f, t, &t->sites[i]);
	}
	fputs(t->nr ? "\n  ]\n}\n" : "]\n}\n", f);
}

/* RFC 4180: quote a field holding a comma, a quote or a line break. */
static void csv_field(FILE *f, const char *str)
{
	char *clean = utf8_clean(str), *s;

	if (!strpbrk(clean, ",\"\r\n")) {
		fputs(clean, f);
		free(clean);
		return;
	}
	fputc('"', f);
	for (s = clean; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
	free(clean);
}

/* ,<bytes> per node id of the table, empty where @s has none. */
static void csv_nodes(FILE *f, const struct table *t, const struct site *s)
{
	unsigned int id, k;

	for (id = 0; id < t->node_ids; id++) {
		fputc(',', f);
		for (k = 0; k < s->nr_nodes; k++) {
			if (s->nodes[k].id == id)
				fprintf(f, "%lld", s->nodes[k].bytes);
		}
	}
}

static void export_csv(FILE *f, const struct table *t)
{
	unsigned int line, id;
	char *file;
	size_t i;

	fputs("bytes,calls,site,file,line,module,func,type,slack,total_calls,total_bytes,peak,failed,disabled,unloaded,accounted", f);
	for (id = 0; id < t->node_ids; id++)
		fprintf(f, ",node%u", id);
	fputc('\n', f);
	for (i = 0; i < t->nr; i++) {
		const struct site *s = &t->sites[i];

		file = site_file(s, &line);
		fprintf(f, "%lld,%lld,", s->bytes, s->calls);
		csv_field(f, s->location);
		fputc(',', f);
		csv_field(f, file ? file : "");
		if (file)
			fprintf(f, ",%u,", line);
		else
			fputs(",,", f);
		free(file);
		csv_field(f, s->module);
		fputc(',', f);
		csv_field(f, s->func);
		fputc(',', f);
		csv_field(f, s->type);
		if (t->format != TABLE_EXT) {
			fputs(",,,,,,,,\n", f);
			continue;
		}
		fprintf(f, ",%lld,%lld,%lld,%lld,%lld,%d,%d,", s->slack,
			s->total_calls, s->total_bytes, s->peak, s->failed,
			s->disabled, s->unloaded);
		if (s->has_accounted)
			fprintf(f, "%lld", s->accounted);
		csv_nodes(f, t, s);
		fputc('\n', f);
	}
}

enum export_format { EXPORT_JSON, EXPORT_CSV, EXPORT_PROMETHEUS };

static int export_parse_format(const char *s, int *fmt)
{
	static const char * const names[] = {
		[EXPORT_JSON] = "json", [EXPORT_CSV] = "csv",
		[EXPORT_PROMETHEUS] = "prometheus",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			*fmt = i;
			return 0;
		}
	}
	aie_err("unknown format \"%s\": expected json, csv or prometheus", s);
	return -1;
}

const struct cmd_option export_options[] = {
	CMD_LETTER('f', "json, csv or prometheus"),
	CMD_LETTER('o', "write there instead of stdout"),
	CMD_LETTER('m', "only the sites of module NAME (vmlinux: built-in)"),
	CMD_LONG('T', "top", "N",
		 "prometheus: the N series with the most live bytes\n"
		 "(0: all)"),
	CMD_LONG('M', "min-bytes", "B",
		 "prometheus: the series with at least B live bytes\n"
		 "(K, M, G, T after it: 1024s)"),
	CMD_LONG('Z', "zeros", NULL,
		 "prometheus: write samples whose value is 0 too"),
	CMD_LONG('S', "site-label", NULL,
		 "prometheus: label site, the location as the table\n"
		 "prints it (function+0xoff: new series each build)"),
	CMD_LONG('C', "cgroups", "N",
		 "prometheus: bytes, calls per cgroup: the N largest\n"
		 "(0: all), the rest as \"(other)\""),
	CMD_LONG('F', "cgroups-file", "FILE",
		 "prometheus: the cgroups file to read"),
	{ 0 },
};

static void export_usage(FILE *f)
{
	cmd_usage_head(f, "export");
	fprintf(f, "Write the table read from FILE (default: /proc/allocinfo_ext, else\n"
		"/proc/allocinfo) as JSON, CSV, or Prometheus text exposition format.\n"
		"-o replaces a regular FILE atomically, as node_exporter's textfile collector\n"
		"wants; a device or a FIFO is written in place, a symlink followed.\n"
		"Prometheus series are labelled by func, module, file, line and type;\n"
		"sites that share them are summed. Live bytes per NUMA node (format 1.4's\n"
		"node<N>: keys) are allocinfo_ext_node_bytes, with a label node. --cgroups\n"
		"adds allocinfo_ext_cgroup_bytes and _calls, labelled cgroup and type, from\n"
		"%s: each cgroup's own rows, children apart.\n\n",
		AIE_PROC_CGROUPS);
	cmd_options(f, "export");
	fprintf(f, "Example:\n"
		"  allocinfo-ext export -f prometheus --top 500 -o /var/lib/prometheus/node-exporter/allocinfo_ext.prom\n");
}

static int export_run(const char *path, int fmt, const char *out_path,
		      const struct prom_opts *po)
{
	struct output out;
	struct table t, cg = { 0 };
	int ret = AIE_EXIT_FAIL;

	if (po->cgroups >= 0) {
		if (table_load_cgroups(&cg, po->cgroups_file)) {
			table_free(&cg);
			return AIE_EXIT_FAIL;
		}
		table_keep_module(&cg, po->module);
	}
	if (!table_load_module(&t, path, po->module)) {
		output_open(&out, out_path);
		if (fmt == EXPORT_JSON)
			export_json(out.f, &t);
		else if (fmt == EXPORT_CSV)
			export_csv(out.f, &t);
		else
			export_prometheus(out.f, &t, po->cgroups >= 0 ? &cg : NULL,
					  po);
		ret = output_close(&out) ? AIE_EXIT_FAIL : 0;
	}
	table_free(&t);
	table_free(&cg);
	return ret;
}

/* --top N: a count, 0 or more. */
static int export_count_opt(const char *s, long long *val, const char *what)
{
	if (parse_ll(s, val) && *val >= 0)
		return 0;
	aie_err("bad %s \"%s\": a number, 0 or more", what, s);
	return -1;
}

int cmd_export(int argc, char **argv)
{
	struct prom_opts po = { .top = -1, .min_bytes = LLONG_MIN, .cgroups = -1 };
	const char *out_path = NULL;
	bool prom_only = false;
	int c, fmt = -1, bad = 0;

	while ((c = cmd_getopt(argc, argv)) != -1) {
		switch (c) {
		case 'h':
			export_usage(stdout);
			return 0;
		case 'f':
			bad = export_parse_format(optarg, &fmt);
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'm':
			po.module = optarg;
			break;
		case 'T':
			bad = export_count_opt(optarg, &po.top, "series count");
			break;
		case 'M':
			bad = bytes_opt(optarg, &po.min_bytes);
			break;
		case 'Z':
			po.zeros = true;
			break;
		case 'S':
			po.site_label = true;
			break;
		case 'C':
			bad = export_count_opt(optarg, &po.cgroups, "cgroup count");
			break;
		case 'F':
			po.cgroups_file = optarg;
			break;
		default:
			bad = -1;
		}
		if (bad)
			return cmd_usage_error(argv[0]);
		prom_only |= c == 'T' || c == 'M' || c == 'Z' || c == 'S' ||
			     c == 'C' || c == 'F';
	}
	if (fmt < 0 || argc - optind > 1 ||
	    (prom_only && fmt != EXPORT_PROMETHEUS) ||
	    (po.cgroups_file && po.cgroups < 0)) {
		aie_err(fmt < 0 ? "export needs --format" :
			argc - optind > 1 ? "export reads one table" :
			po.cgroups_file && po.cgroups < 0 ?
			"--cgroups-file needs --cgroups" :
			"--top, --min-bytes, --zeros, --site-label and --cgroups are for --format prometheus");
		return cmd_usage_error(argv[0]);
	}
	return export_run(argv[optind], fmt, out_path, &po);
}
