// SPDX-License-Identifier: GPL-2.0
/*
 * query.c - the rows that match a filter (module, function, live bytes,
 * accuracy), asked of the kernel through the ioctls of
 * /proc/allocinfo_ext, which are 7.3's /proc/allocinfo's
 * (include/allocinfo_ext_ioctl.h), when the file answers them; else read
 * from the text (a snapshot, a kernel log, a module or kernel without
 * them: -ENOTTY) and filtered here as the kernel filters. Either way the
 * same rows: the fields the ioctl gives, names cut to their last 63
 * characters as it cuts them, negative figures read as 0.
 *
 * --bench runs the query both ways, N times each, and prints the time
 * each took, and their ratio.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <allocinfo_ext_ioctl.h>

#include "cmd.h"
#include "json.h"
#include "order.h"
#include "table.h"
#include "textout.h"
#include "util.h"

enum query_via { VIA_AUTO, VIA_IOCTL, VIA_TEXT };

static const char * const via_names[] = { "auto", "ioctl", "text" };

/* A walk that saw the content id change is done again, this often. */
#define QUERY_TRIES	4

struct query_opts {
	struct allocinfo_ext_filter filter;
	enum query_via via;
	long long lines;	/* rows printed at most; 0: all */
	long long runs;		/* --bench: runs of each path */
	struct order order;	/* -s bytes or calls (default: as read); -r */
	bool bench, json, verbose;
	const char *source;
};

struct query_rows {
	struct allocinfo_ext_tag_data *d;
	size_t nr, cap;
	size_t read;		/* rows looked at (the text path: all) */
};

/* The last AIE_IOC_STR_SIZE - 1 characters of @src[0..@len), padded. */
static void query_cut(char *dst, const char *src, size_t len)
{
	if (len >= AIE_IOC_STR_SIZE) {
		src += len - (AIE_IOC_STR_SIZE - 1);
		len = AIE_IOC_STR_SIZE - 1;
	}
	memcpy(dst, src, len);
	memset(dst + len, 0, AIE_IOC_STR_SIZE - len);
}

static bool query_str_differs(const struct allocinfo_ext_filter *f,
			      __u64 bit, const char *name, const char *want)
{
	return (f->mask & bit) && strncmp(name, want, AIE_IOC_STR_SIZE);
}

/* Whether @d matches @f, as module/iface/ioctl.c decides it. */
static bool query_match(const struct allocinfo_ext_filter *f,
			const struct allocinfo_ext_tag_data *d)
{
	__u64 m = f->mask;

	if ((m & AIE_IOC_FILTER_INACCURATE) &&
	    !d->counter.accurate != !!f->inaccurate)
		return false;
	if ((m & AIE_IOC_FILTER_MIN_SIZE) && d->counter.bytes < f->min_size)
		return false;
	if ((m & AIE_IOC_FILTER_MAX_SIZE) && d->counter.bytes > f->max_size)
		return false;
	if (query_str_differs(f, AIE_IOC_FILTER_MODNAME, d->tag.modname,
			      f->fields.modname) ||
	    query_str_differs(f, AIE_IOC_FILTER_FUNCTION, d->tag.function,
			      f->fields.function) ||
	    query_str_differs(f, AIE_IOC_FILTER_FILENAME, d->tag.filename,
			      f->fields.filename))
		return false;
	return !(m & AIE_IOC_FILTER_LINENO) || d->tag.lineno == f->fields.lineno;
}

static void rows_add(struct query_rows *r, const struct allocinfo_ext_tag_data *d)
{
	if (r->nr == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->d = xrealloc_array(r->d, r->cap, sizeof(*r->d));
	}
	r->d[r->nr++] = *d;
}

/* A site of the text as the ioctl gives its row. */
static void query_site_row(const struct site *s,
			   struct allocinfo_ext_tag_data *d)
{
	char file[4096];
	unsigned int line;

	memset(d, 0, sizeof(*d));
	query_cut(d->tag.modname, s->module, strlen(s->module));
	query_cut(d->tag.function, s->func, strlen(s->func));
	if (site_file_line(s, file, sizeof(file), &line)) {
		query_cut(d->tag.filename, file, strlen(file));
		d->tag.lineno = line;
	}
	d->counter.bytes = s->bytes > 0 ? s->bytes : 0;
	d->counter.calls = s->calls > 0 ? s->calls : 0;
	d->counter.accurate = !s->inaccurate;
}

/* The text path: read and parse the whole table, filter here. 0 or -1. */
static int query_text(const char *path, const struct query_opts *o,
		      struct query_rows *r)
{
	struct allocinfo_ext_tag_data d;
	struct table t;
	size_t i;

	if (table_load(&t, path)) {
		table_free(&t);
		return -1;
	}
	for (i = 0; i < t.nr; i++) {
		query_site_row(&t.sites[i], &d);
		if (query_match(&o->filter, &d))
			rows_add(r, &d);
	}
	r->read = t.nr;
	table_free(&t);
	return 0;
}

static int query_ioc(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

/*
 * The ioctl path: GET_AT 0 with the filter, GET_NEXT to -ENOENT, again
 * when the content id changed meanwhile. 0, or -errno (-ENOTTY: the file
 * has no such ioctls).
 */
static int query_ioctl(int fd, const struct query_opts *o,
		       struct query_rows *r)
{
	struct allocinfo_ext_content_id id0, id1;
	struct allocinfo_ext_get_at at;
	int ret, tries = 0;

	do {
		r->nr = 0;
		ret = query_ioc(fd, AIE_IOC_CONTENT_ID, &id0);
		if (ret)
			return ret;
		memset(&at, 0, sizeof(at));
		at.filter = o->filter;
		ret = query_ioc(fd, AIE_IOC_GET_AT, &at);
		if (!ret)
			rows_add(r, &at.data);
		while (!ret) {
			ret = query_ioc(fd, AIE_IOC_GET_NEXT, &at.data);
			if (!ret)
				rows_add(r, &at.data);
		}
		if (ret != -ENOENT)
			return ret;
		ret = query_ioc(fd, AIE_IOC_CONTENT_ID, &id1);
		if (ret)
			return ret;
	} while (id0.id != id1.id && ++tries < QUERY_TRIES);
	r->read = r->nr;
	return 0;
}

/*
 * The rows of @path (already resolved) by @via; *@used says which path
 * read them. 0, or -1 after a message.
 */
static int query_read(const char *path, enum query_via via,
		      const struct query_opts *o, struct query_rows *r,
		      enum query_via *used)
{
	int fd = -1, ret;

	r->nr = r->read = 0;
	*used = VIA_TEXT;
	if (!strcmp(path, "-") && via == VIA_IOCTL) {
		aie_err("standard input has no ioctls: --via ioctl needs the /proc file");
		return -1;
	}
	if (via != VIA_TEXT && strcmp(path, "-"))
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ret = query_ioctl(fd, o, r);
		close(fd);
		if (!ret) {
			*used = VIA_IOCTL;
			return 0;
		}
		if (ret != -ENOTTY || via == VIA_IOCTL) {
			aie_err("%s: ioctl: %s%s", path, strerror(-ret),
				ret == -ENOTTY ? " (a file, or a kernel or module without the ioctls)" : "");
			return -1;
		}
	} else if (via == VIA_IOCTL) {
		aie_err("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	return query_text(path, o, r);
}

/*
 * A row's site as every command's JSON names it (json_site_key()): the
 * ioctl gives file:line, or no location at all.
 */
static void query_json_site(const struct allocinfo_ext_tag_data *d)
{
	char *site = d->tag.filename[0] ?
		     xasprintf("%s:%llu", d->tag.filename,
			       (unsigned long long)d->tag.lineno) : NULL;

	json_key_string(stdout, "site", site);
	printf(", ");
	json_key_string(stdout, "module", d->tag.modname);
	printf(", ");
	json_key_string(stdout, "func", d->tag.function);
	printf(", ");
	json_key_string(stdout, "file", d->tag.filename);
	if (d->tag.filename[0])
		printf(", \"line\": %llu", (unsigned long long)d->tag.lineno);
	else
		printf(", \"line\": null");
	free(site);
}

/* The keys of query's rows, for -s. */
#define QUERY_KEYS	(ORDER_BIT(ORDER_BYTES) | ORDER_BIT(ORDER_CALLS))

static long double query_value(const void *row, enum order_key key)
{
	const struct allocinfo_ext_tag_data *d = row;

	return key == ORDER_CALLS ? d->counter.calls : d->counter.bytes;
}

/* Ties: by bytes, then module, function, file and line. */
static int query_tie(const void *pa, const void *pb)
{
	const struct allocinfo_ext_tag_data *a = pa, *b = pb;
	int c;

	if (a->counter.bytes != b->counter.bytes)
		return a->counter.bytes < b->counter.bytes ? 1 : -1;
	c = strncmp(a->tag.modname, b->tag.modname, AIE_IOC_STR_SIZE);
	if (!c)
		c = strncmp(a->tag.function, b->tag.function, AIE_IOC_STR_SIZE);
	if (!c)
		c = strncmp(a->tag.filename, b->tag.filename, AIE_IOC_STR_SIZE);
	if (!c && a->tag.lineno != b->tag.lineno)
		c = a->tag.lineno < b->tag.lineno ? -1 : 1;
	return c;
}

static void query_print(const char *path, struct query_rows *r,
			const struct query_opts *o)
{
	static const struct order_ops ops = { query_value, query_tie };

	const struct allocinfo_ext_tag_data *d;
	size_t i, n = r->nr;

	order_rows(r->d, r->nr, sizeof(*r->d), &o->order, &ops);
	if (o->lines > 0 && (size_t)o->lines < n)
		n = o->lines;
	if (!o->json)
		text_stdout();
	if (o->json) {
		printf("{\"command\": \"query\", ");
		json_key_string(stdout, "source", path);
		printf(", \"rows\": [");
	}
	for (i = 0; i < n; i++) {
		d = &r->d[i];
		if (o->json) {
			printf("%s\n {\"bytes\": %llu, \"calls\": %llu, ",
			       i ? "," : "", (unsigned long long)d->counter.bytes,
			       (unsigned long long)d->counter.calls);
			query_json_site(d);
			printf(", \"accurate\": %s}", d->counter.accurate ? "true" : "false");
			continue;
		}
		printf("%12llu %8llu ", (unsigned long long)d->counter.bytes,
		       (unsigned long long)d->counter.calls);
		if (d->tag.filename[0])
			printf("%s:%llu", d->tag.filename, (unsigned long long)d->tag.lineno);
		else
			printf("-");
		if (d->tag.modname[0])
			printf(" [%s]", d->tag.modname);
		printf(" func:%s%s\n", d->tag.function,
		       d->counter.accurate ? "" : " accurate:no");
	}
	if (o->json)
		printf("%s]}\n", n ? "\n" : "");
}

static double query_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* User and system time of this process, in seconds. */
static double query_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/*
 * --bench: each path @o->runs times, one after the other, on the same
 * source, after one run not measured; ms per query, wall clock and CPU
 * (user + system), and the ratio text / ioctl.
 */
static int query_bench(const char *path, const struct query_opts *o)
{
	static const enum query_via order[] = { VIA_TEXT, VIA_IOCTL };
	struct query_rows r = { 0 };
	double wall[2], cpu[2], t0, c0;
	size_t nr[2], read[2];
	enum query_via used;
	long long i;
	int p;

	for (p = 0; p < 2; p++) {
		/* One run unmeasured: the caches warm, as for the others. */
		if (query_read(path, order[p], o, &r, &used)) {
			free(r.d);
			return AIE_EXIT_FAIL;
		}
		t0 = query_now();
		c0 = query_cpu();
		for (i = 0; i < o->runs; i++) {
			if (query_read(path, order[p], o, &r, &used)) {
				free(r.d);
				return AIE_EXIT_FAIL;
			}
		}
		wall[p] = (query_now() - t0) * 1e3 / o->runs;
		cpu[p] = (query_cpu() - c0) * 1e3 / o->runs;
		nr[p] = r.nr;
		read[p] = r.read;
	}
	free(r.d);
	printf("# allocinfo-ext query --bench: %s, %lld runs each after one unmeasured\n"
	       "# path   rows read  rows matched  ms/query wall  ms/query cpu\n",
	       path, o->runs);
	for (p = 0; p < 2; p++)
		printf("%-6s %10zu %13zu %14.3f %13.3f\n", via_names[order[p]],
		       read[p], nr[p], wall[p], cpu[p]);
	printf("ratio text/ioctl: %.1f wall, %.1f cpu\n",
	       wall[1] > 0 ? wall[0] / wall[1] : 0,
	       cpu[1] > 0 ? cpu[0] / cpu[1] : 0);
	return stdout_close() ? AIE_EXIT_FAIL : 0;
}

enum { OPT_FUNCTION = 256, OPT_MIN_BYTES, OPT_INACCURATE, OPT_VIA, OPT_BENCH };

const struct cmd_option query_options[] = {
	CMD_LETTER('m', "only the sites of module NAME"),
	CMD_LONG(OPT_FUNCTION, "function", "NAME",
		 "only the sites in function NAME"),
	CMD_LONG(OPT_MIN_BYTES, "min-bytes", "B",
		 "only the sites with at least B live bytes\n"
		 "(K, M, G, T after it: 1024s)"),
	CMD_LONG(OPT_INACCURATE, "inaccurate", NULL,
		 "only the rows that say accurate:no"),
	CMD_LONG(OPT_VIA, "via", "WAY",
		 "auto (default), ioctl (or fail) or text"),
	CMD_LETTER('s', "bytes or calls, the largest first (default: as read)"),
	CMD_LETTER('r', "the order reversed"),
	CMD_LETTER('l', "at most N rows (0, the default: all)"),
	CMD_LETTER('j', "the rows as JSON"),
	CMD_LETTER('v', "say on stderr which way the rows were read"),
	CMD_LONG(OPT_BENCH, "bench", NULL,
		 "run the query N times as text, then N times\n"
		 "through the ioctl; print ms per query, ratio"),
	CMD_LETTER('n', "--bench's runs of each (default 10)"),
	{ 0 },
};

static void query_usage(FILE *f)
{
	cmd_usage_head(f, "query");
	fprintf(f, "The rows of SOURCE (default: /proc/allocinfo_ext, else /proc/allocinfo)\n"
		"that match every filter given: live bytes, calls, file:line (- for a\n"
		"site not located), module, function, accurate:no. The kernel filters\n"
		"them, through the ioctls of 7.3's /proc/allocinfo, which\n"
		"/proc/allocinfo_ext answers too; a file or a kernel without them is\n"
		"read as text and filtered here, to the same rows (names keep their last\n"
		"63 characters).\n\n");
	cmd_options(f, "query");
	fprintf(f, "Examples:\n"
		"  allocinfo-ext query -m nf_conntrack --min-bytes 1048576\n"
		"  allocinfo-ext query --bench -n 20 --min-bytes 1048576\n");
}

static int query_str_opt(char *dst, const char *s, const char *what)
{
	if (*s && strlen(s) < AIE_IOC_STR_SIZE) {
		query_cut(dst, s, strlen(s));
		return 0;
	}
	aie_err("bad %s \"%s\": 1 to %d characters", what, s,
		AIE_IOC_STR_SIZE - 1);
	return -1;
}


static int query_option(int c, struct query_opts *o)
{
	struct allocinfo_ext_filter *f = &o->filter;
	long long n;
	size_t i;

	switch (c) {
	case 'm':
		f->mask |= AIE_IOC_FILTER_MODNAME;
		return query_str_opt(f->fields.modname, optarg, "module");
	case OPT_FUNCTION:
		f->mask |= AIE_IOC_FILTER_FUNCTION;
		return query_str_opt(f->fields.function, optarg, "function");
	case OPT_MIN_BYTES:
		f->mask |= AIE_IOC_FILTER_MIN_SIZE;
		if (bytes_opt(optarg, &n))
			return -1;
		f->min_size = n;
		return 0;
	case OPT_INACCURATE:
		f->mask |= AIE_IOC_FILTER_INACCURATE;
		f->inaccurate = 1;
		return 0;
	case OPT_VIA:
		for (i = 0; i < ARRAY_SIZE(via_names); i++) {
			if (!strcmp(optarg, via_names[i])) {
				o->via = i;
				return 0;
			}
		}
		aie_err("bad way \"%s\": expected auto, ioctl or text", optarg);
		return -1;
	case OPT_BENCH:
		o->bench = true;
		return 0;
	case 'l':
	case 'n':
		if (parse_ll(optarg, &n) && n >= (c == 'n')) {
			*(c == 'l' ? &o->lines : &o->runs) = n;
			return 0;
		}
		aie_err("bad count \"%s\"", optarg);
		return -1;
	case 's':
		return order_parse(optarg, QUERY_KEYS, &o->order.key);
	case 'r':
		o->order.reverse = true;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	}
	return -1;
}

int cmd_query(int argc, char **argv)
{
	struct query_opts o = {
		.via = VIA_AUTO, .runs = 10, .order = { .key = ORDER_INPUT },
	};
	struct query_rows r = { 0 };
	enum query_via used;
	const char *path;
	int c, ret = AIE_EXIT_FAIL;

	while ((c = cmd_getopt(argc, argv)) != -1) {
		if (c == 'h') {
			query_usage(stdout);
			return 0;
		}
		if (query_option(c, &o))
			return cmd_usage_error(argv[0]);
	}
	if (argc - optind > 1) {
		aie_err("query reads one table");
		return cmd_usage_error(argv[0]);
	}
	path = argv[optind] ? argv[optind] : table_default_source();
	if (!path)
		return AIE_EXIT_FAIL;
	if (o.bench)
		return query_bench(path, &o);
	if (!query_read(path, o.via, &o, &r, &used)) {
		if (o.verbose)
			fprintf(stderr, "%s: %s: %zu of %zu rows, through %s\n",
				AIE_TOOL_NAME, path, r.nr, r.read,
				used == VIA_IOCTL ? "the ioctl" : "the text");
		query_print(path, &r, &o);
		ret = stdout_close() ? AIE_EXIT_FAIL : 0;
	}
	free(r.d);
	return ret;
}
