// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - reading /proc/allocinfo_ext, /proc/allocinfo and snapshots.
 *
 * A table is an optional snapshot head ("# key: value" lines), a version
 * line, then rows; other lines starting with '#' are comments, empty
 * lines are skipped. A row is
 *
 *	<bytes> <calls> <location> [[<module>]] func:<name> [fields]
 *
 * (lines may end in CRLF, as a serial console's copy does), where the
 * fields are, for allocinfo_ext 1.0, exactly type, slack,
 * total_calls, total_bytes, peak, failed and an optional "disabled"
 * (and from 1.1 an optional "unloaded", from 1.2 accounted, from 1.4
 * node<id>:<bytes> for each NUMA node, id below AIE_MAX_NODES, once);
 * later 1.x versions may append key:value fields, which are skipped. The
 * kernel's format has no fields in 1.0; key:value fields that later
 * kernels append are skipped as well, in 1.x and in 2.0 (7.3), which
 * marks a row whose counts are inexact with "accurate:no". Anything else
 * is an error naming the input and its line.
 *
 * A table whose figures of one kind (live bytes, calls, slack, ...) add up,
 * in absolute value, to more than AIE_SUM_MAX is refused too: no memory is
 * that large, and below it every sum and difference the commands make, of
 * one table or of two, fits a long long.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "allocinfo_ext.h"
#include "oomlog.h"
#include "table.h"
#include "util.h"

#define EXT_VERSION_PREFIX	"allocinfo_ext - version: "
#define KERNEL_VERSION_PREFIX	"allocinfo - version: "
#define CG_VERSION_PREFIX	AIE_CGROUPS_PROC_NAME " - version: "

/* The figures of a row summed over the table, and their names. */
#define SUM_FIELD(name, what) { offsetof(struct site, name), what }

static const struct { size_t off; const char *what; } sum_fields[] = {
	SUM_FIELD(bytes, "live bytes"), SUM_FIELD(calls, "live calls"),
	SUM_FIELD(slack, "slack"), SUM_FIELD(total_calls, "total_calls"),
	SUM_FIELD(total_bytes, "total_bytes"), SUM_FIELD(peak, "peak"),
	SUM_FIELD(failed, "failed"), SUM_FIELD(accounted, "accounted"),
};

struct parse_ctx {
	struct table *t;
	bool cgroups;		/* the cgroups file is wanted, and only it */
	unsigned int lineno;
	unsigned long long sums[ARRAY_SIZE(sum_fields)];
	unsigned long long node_sum;	/* of every node<id>: of the table */
	char msg[320];
};

static int perr(struct parse_ctx *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parse_ctx *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* At most 60 bytes of @s, for quoting in a message. */
static const char *quote(const char *s, char *buf, size_t len)
{
	snprintf(buf, len, "%.60s%s", s, strlen(s) > 60 ? "..." : "");
	return buf;
}

/*
 * The decimal number at *@s, digits only, up to INT_MAX, in *@val; *@s
 * moves past it. 0, -1 when there is no digit, -2 when it is too large.
 */
static int version_number(const char **s, int *val)
{
	long long v = 0;

	if (**s < '0' || **s > '9')
		return -1;
	for (; **s >= '0' && **s <= '9'; (*s)++) {
		v = v * 10 + (**s - '0');
		if (v > INT_MAX)
			return -2;
	}
	*val = v;
	return 0;
}

static int parse_version(struct parse_ctx *p, const char *line)
{
	const char *ver, *end;
	int major, minor, ret;

	if (str_starts(line, CG_VERSION_PREFIX) != p->cgroups)
		return p->cgroups ?
		       perr(p, "expected \"" CG_VERSION_PREFIX "1.0\": not the cgroups file") :
		       perr(p, "the table per call site and cgroup (/proc/" AIE_CGROUPS_PROC_NAME "): cgroup, group --by cgroup, top --cgroup and export --cgroups read it");
	if (p->cgroups) {
		p->t->format = TABLE_EXT;
		p->t->cgroups = true;
		ver = line + strlen(CG_VERSION_PREFIX);
	} else if (str_starts(line, EXT_VERSION_PREFIX)) {
		p->t->format = TABLE_EXT;
		ver = line + strlen(EXT_VERSION_PREFIX);
	} else {
		p->t->format = TABLE_KERNEL;
		ver = line + strlen(KERNEL_VERSION_PREFIX);
	}
	end = ver;
	ret = version_number(&end, &major);
	if (!ret && *end++ == '.')
		ret = version_number(&end, &minor);
	else if (!ret)
		ret = -1;
	if (ret == -2)
		return perr(p, "bad version \"%s\": a number past %d", ver, INT_MAX);
	if (ret || *end)
		return perr(p, "bad version \"%s\": expected <major>.<minor>", ver);
	/* The kernel's 2.0 (7.3) adds " accurate:no", a key:value field */
	if (major != 1 && !(p->t->format == TABLE_KERNEL && major == 2))
		return perr(p, "format version %d.%d is not supported (this tool reads 1.x)",
			    major, minor);
	p->t->major = major;
	p->t->minor = minor;
	return 0;
}

static bool is_version_line(const char *line)
{
	return str_starts(line, EXT_VERSION_PREFIX) ||
	       str_starts(line, KERNEL_VERSION_PREFIX) ||
	       str_starts(line, CG_VERSION_PREFIX);
}

/* "# key: value" of a snapshot head; other comments are ignored. */
static void parse_meta(struct table_meta *m, const char *line)
{
	static const struct { const char *key; size_t off; } keys[] = {
		{ "# time: ", offsetof(struct table_meta, time) },
		{ "# kernel: ", offsetof(struct table_meta, kernel) },
		{ "# uptime: ", offsetof(struct table_meta, uptime) },
		{ "# module_version: ", offsetof(struct table_meta, module_version) },
		{ "# source: ", offsetof(struct table_meta, source) },
	};
	char **field;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!str_starts(line, keys[i].key))
			continue;
		field = (char **)((char *)m + keys[i].off);
		free(*field);
		*field = xstrdup(line + strlen(keys[i].key));
	}
}

/* An integer that must fit: bytes are signed, calls are not. */
static int parse_count(struct parse_ctx *p, char **s, long long *val,
		       bool is_signed, const char *what)
{
	char *end;

	while (**s == ' ' || **s == '\t')
		(*s)++;
	if (!(**s >= '0' && **s <= '9') && !(is_signed && **s == '-'))
		return perr(p, "expected %s, a number, at the start of the row", what);
	errno = 0;
	*val = strtoll(*s, &end, 10);
	if (errno == ERANGE)
		return perr(p, "%s out of range", what);
	if (end == *s || (*end != ' ' && *end != '\t'))
		return perr(p, "expected %s, a number, followed by a space", what);
	*s = end;
	return 0;
}

/* "node<id>:<bytes>" (1.4), @tok past "node"; the id given once. */
static int parse_node(struct parse_ctx *p, struct site *s, const char *tok)
{
	unsigned long long v;
	unsigned long id;
	long long bytes;
	char *end, buf[80];
	unsigned int i;

	errno = 0;
	id = strtoul(tok, &end, 10);
	if (end == tok || *end != ':' || errno || id >= AIE_MAX_NODES ||
	    !parse_ll(end + 1, &bytes))
		return perr(p, "bad node field \"node%s\"", quote(tok, buf, sizeof(buf)));
	for (i = 0; i < s->nr_nodes; i++) {
		if (s->nodes[i].id == id)
			return perr(p, "field \"node%lu:\" given twice", id);
	}
	v = bytes < 0 ? -(unsigned long long)bytes : (unsigned long long)bytes;
	if (v > AIE_SUM_MAX || p->node_sum + v > AIE_SUM_MAX)
		return perr(p, "node bytes add up to more than 2^61 (in absolute value) by this row: refused, as sums of them would overflow");
	p->node_sum += v;
	s->nodes = xrealloc_array(s->nodes, s->nr_nodes + 1, sizeof(*s->nodes));
	s->nodes[s->nr_nodes++] = (struct site_node){ .id = id, .bytes = bytes };
	if (id >= p->t->node_ids)
		p->t->node_ids = id + 1;
	return 0;
}

#define SITE_FIELD(name) { #name ":", offsetof(struct site, name) }

/* The bit of "cgroup:" among a row's fields seen. */
#define SEEN_CGROUP	(1u << 6)

/*
 * "cgroup:<path>" of the cgroups file, @tok past "cgroup:": the path
 * unescaped in place (the module writes a space, a backslash and a byte
 * that does not print as "\ooo").
 */
static int parse_cgroup(struct parse_ctx *p, struct site *s, char *tok,
			unsigned int *seen)
{
	char *r = tok, *w = tok, buf[80];
	int c;

	if (*seen & SEEN_CGROUP)
		return perr(p, "field \"cgroup:\" given twice");
	*seen |= SEEN_CGROUP;
	for (; *r; r++, w++) {
		if (*r != '\\') {
			*w = *r;
			continue;
		}
		if (r[1] < '0' || r[1] > '3' || r[2] < '0' || r[2] > '7' ||
		    r[3] < '0' || r[3] > '7')
			return perr(p, "bad escape in cgroup path \"%s\"",
				    quote(tok, buf, sizeof(buf)));
		c = (r[1] - '0') << 6 | (r[2] - '0') << 3 | (r[3] - '0');
		if (!c)
			return perr(p, "a NUL byte in cgroup path \"%s\"",
				    quote(tok, buf, sizeof(buf)));
		*w = c;
		r += 3;
	}
	*w = '\0';
	if (tok[0] != '/')
		return perr(p, "cgroup path \"%s\" does not start with /",
			    quote(tok, buf, sizeof(buf)));
	s->cgroup = tok;
	return 0;
}

static int parse_field(struct parse_ctx *p, struct site *s, char *tok,
		       unsigned int *seen)
{
	static const struct { const char *key; size_t off; } keys[] = {
		SITE_FIELD(slack), SITE_FIELD(total_calls),
		SITE_FIELD(total_bytes), SITE_FIELD(peak), SITE_FIELD(failed),
	};
	char buf[80];
	size_t i;

	if (p->t->cgroups && str_starts(tok, "cgroup:"))
		return parse_cgroup(p, s, tok + strlen("cgroup:"), seen);
	if (p->t->cgroups && !strcmp(tok, "removed") && s->cgroup &&
	    !s->removed) {
		s->removed = true;
		return 0;
	}
	if (!strcmp(tok, "disabled")) {
		s->disabled = true;
		return 0;
	}
	if (!strcmp(tok, "unloaded") && p->t->minor >= 1) {
		s->unloaded = true;
		return 0;
	}
	if (!strcmp(tok, "accurate:no") && p->t->minor >= 3) {
		s->inaccurate = true;
		return 0;
	}
	if (str_starts(tok, "accounted:") && p->t->minor >= 2) {
		if (s->has_accounted)
			return perr(p, "field \"accounted:\" given twice");
		s->has_accounted = true;
		if (!parse_ll(tok + strlen("accounted:"), &s->accounted))
			return perr(p, "bad value in \"%s\"", quote(tok, buf, sizeof(buf)));
		return 0;
	}
	if (str_starts(tok, "node") && tok[4] >= '0' && tok[4] <= '9' &&
	    p->t->minor >= 4)
		return parse_node(p, s, tok + 4);
	if (str_starts(tok, "type:") && tok[5]) {
		s->type = tok + 5;
		*seen |= 1u << ARRAY_SIZE(keys);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!str_starts(tok, keys[i].key))
			continue;
		if (*seen & (1u << i))
			return perr(p, "field \"%s\" given twice", keys[i].key);
		*seen |= 1u << i;
		if (!parse_ll(tok + strlen(keys[i].key),
			      (long long *)((char *)s + keys[i].off)))
			return perr(p, "bad value in \"%s\"", quote(tok, buf, sizeof(buf)));
		return 0;
	}
	if (p->t->minor > 0 && strchr(tok, ':') && tok[0] != ':')
		return 0;	/* a field added by a later minor version */
	return perr(p, "unknown field \"%s\"", quote(tok, buf, sizeof(buf)));
}

/* The fields after func:<name>; @save continues the strtok_r(). */
static int parse_fields(struct parse_ctx *p, struct site *s, char **save)
{
	/* the cgroups file's rows: type, slack, the totals, cgroup */
	unsigned int seen = 0, all = p->t->cgroups ? 0x7u | 1u << 5 | SEEN_CGROUP :
				     (1u << 6) - 1;
	char *tok, buf[80];

	while ((tok = strtok_r(NULL, " \t", save))) {
		if (p->t->format == TABLE_EXT) {
			if (parse_field(p, s, tok, &seen))
				return -1;
		} else if (!strchr(tok, ':') || tok[0] == ':') {
			return perr(p, "unexpected \"%s\" after func:%s",
				    quote(tok, buf, sizeof(buf)), s->func);
		} else if (!strcmp(tok, "accurate:no")) {
			s->inaccurate = true;
		}
	}
	if (p->t->cgroups && (seen & all) != all)
		return perr(p, "missing fields: a row of the cgroups file has type, slack, total_calls, total_bytes and cgroup");
	if (p->t->format == TABLE_EXT && (seen & all) != all)
		return perr(p, "missing fields: a row has type, slack, total_calls, total_bytes, peak and failed");
	return 0;
}

/* "<location> [[<module>]] func:<name> ..." */
static int parse_tag(struct parse_ctx *p, struct site *s)
{
	char *save, *tok, buf[80];

	tok = strtok_r(s->text, " \t", &save);
	if (!tok || tok[0] == '[' || str_starts(tok, "func:"))
		return perr(p, "expected a location (file:line or function+offset) after the calls");
	s->location = tok;
	s->module = "";
	s->type = "";
	tok = strtok_r(NULL, " \t", &save);
	if (tok && tok[0] == '[') {
		if (strlen(tok) < 3 || tok[strlen(tok) - 1] != ']')
			return perr(p, "bad module name \"%s\"", quote(tok, buf, sizeof(buf)));
		tok[strlen(tok) - 1] = '\0';
		s->module = tok + 1;
		tok = strtok_r(NULL, " \t", &save);
	}
	if (!tok || !str_starts(tok, "func:") || !tok[5])
		return perr(p, "expected \"func:<name>\" after the location");
	s->func = tok + 5;
	return parse_fields(p, s, &save);
}

/* Add the row's figures to the table's sums; -1 past AIE_SUM_MAX. */
static int parse_sums(struct parse_ctx *p, const struct site *s)
{
	unsigned long long v;
	long long f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sum_fields); i++) {
		f = *(const long long *)((const char *)s + sum_fields[i].off);
		v = f < 0 ? -(unsigned long long)f : (unsigned long long)f;
		if (v > AIE_SUM_MAX || p->sums[i] + v > AIE_SUM_MAX)
			return perr(p, "%s add up to more than 2^61 (in absolute value) by this row: refused, as sums of them would overflow",
				    sum_fields[i].what);
		p->sums[i] += v;
	}
	return 0;
}

static int parse_row(struct parse_ctx *p, const char *line, size_t len)
{
	struct table *t = p->t;
	struct site s = { .lineno = p->lineno };
	char *rest;

	s.text = xstrndup(line, len);
	rest = s.text;
	if (parse_count(p, &rest, &s.bytes, true, "live bytes") ||
	    parse_count(p, &rest, &s.calls, false, "live calls"))
		goto err;
	while (*rest == ' ' || *rest == '\t')
		rest++;
	memmove(s.text, rest, strlen(rest) + 1);
	if (parse_tag(p, &s) || parse_sums(p, &s))
		goto err;
	if (t->nr == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->sites = xrealloc_array(t->sites, t->cap, sizeof(*t->sites));
	}
	t->sites[t->nr++] = s;
	return 0;
err:
	free(s.text);
	free(s.nodes);
	return -1;
}

static int parse_line(struct parse_ctx *p, const char *line, size_t len,
		      bool *have_version)
{
	char *copy, buf[80];
	int ret = 0;

	if (!len)
		return 0;
	copy = xstrndup(line, len);
	if (copy[0] == '#') {
		if (!*have_version)
			parse_meta(&p->t->meta, copy);
	} else if (is_version_line(copy)) {
		ret = *have_version ?
		      perr(p, "a second version line: two tables in one input?") :
		      parse_version(p, copy);
		*have_version = true;
	} else if (!*have_version) {
		ret = perr(p, "expected \"allocinfo_ext - version: 1.0\" or \"allocinfo - version: 1.0\", found \"%s\"",
			   quote(copy, buf, sizeof(buf)));
	} else {
		ret = parse_row(p, line, len);
	}
	free(copy);
	return ret;
}

/* Whether @text's first line that is neither empty nor '#' is a version. */
static bool starts_as_table(const char *text, size_t len)
{
	const char *line = text, *nl;
	char *copy;
	bool yes;

	for (; line < text + len; line = nl + 1) {
		nl = memchr(line, '\n', text + len - line);
		if (!nl)
			nl = text + len;
		if (nl == line || line[0] == '#' || line[0] == '\r')
			continue;
		copy = xstrndup(line, nl - line);
		copy[strcspn(copy, "\r")] = '\0';
		yes = is_version_line(copy);
		free(copy);
		return yes;
	}
	return false;
}

int table_parse(struct table *t, const char *name, char *text, size_t len)
{
	return table_parse_as(t, name, text, len, false);
}

int table_parse_as(struct table *t, const char *name, char *text, size_t len,
		   bool cgroups)
{
	struct parse_ctx p = { .t = t, .lineno = 0, .cgroups = cgroups };
	unsigned int *log_line = NULL, n = 0;
	bool have_version = false, from_log = false;
	const char *line, *nl, *end;
	struct oom_table oom;
	int ret;

	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	/* A saved kernel log: its last OOM report (oomlog.c) */
	if (!starts_as_table(text, len)) {
		ret = oomlog_table(text, len, &oom);
		if (ret < 0 || (!ret && oomlog_is_log(text, len))) {
			if (ret < 0)
				aie_err("%s:%u: %s", name, oom.err_line, oom.msg);
			else
				aie_err("%s: a kernel log without an OOM report of allocinfo_ext (no \"allocinfo_ext: oom: victim\" line)",
					name);
			free(text);
			return -1;
		}
		if (ret) {
			free(text);
			text = oom.text;
			len = oom.len;
			log_line = oom.lineno;
			from_log = true;
		}
	}
	line = text;
	t->raw = text;
	t->raw_len = len;
	while (line < text + len) {
		nl = memchr(line, '\n', text + len - line);
		if (!nl)
			nl = text + len;
		end = nl > line && nl[-1] == '\r' ? nl - 1 : nl;	/* CRLF */
		/* the line of the log a report's row comes from */
		p.lineno = log_line ? log_line[n++] : p.lineno + 1;
		if (memchr(line, '\0', end - line))
			ret = perr(&p, "binary data (a NUL byte): not a text table");
		else
			ret = parse_line(&p, line, end - line, &have_version);
		if (ret) {
			aie_err("%s:%u: %s", name, p.lineno, p.msg);
			free(log_line);
			return -1;
		}
		line = nl + 1;
	}
	free(log_line);
	if (from_log && oom.rows < oom.top) {
		aie_err("%s:%u: the OOM report has %u of its %u rows: the log ends before the rest",
			name, oom.head, oom.rows, oom.top);
		return -1;
	}
	if (!have_version) {
		aie_err("%s: no version line: not /proc/allocinfo_ext, /proc/allocinfo or a snapshot of either",
			name);
		return -1;
	}
	return 0;
}
