// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - `allocinfo-ext report --svg FILE`: where the live memory is,
 * as a treemap. Each subsystem's rectangle holds its functions', each
 * function's holds its call sites'; areas are live bytes. Every
 * rectangle has a <title> tooltip with its figures; names are written
 * inside the rectangles they fit in.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "output.h"
#include "table.h"
#include "treemap.h"
#include "util.h"

/* A subsystem, a function or (a leaf) a site. */
struct rnode {
	char *name;
	const struct site *site;	/* leaves only */
	long long bytes, calls, slack;
	size_t sites;
	struct rnode *kids;
	size_t nkids, cap;
};

struct report_opts {
	const char *svg;
	const char *source;
	int width, height;
};

/* The child of @n named @name, made if missing. */
static struct rnode *rnode_child(struct rnode *n, const char *name)
{
	size_t i;

	for (i = 0; name && i < n->nkids; i++) {
		if (!strcmp(n->kids[i].name, name))
			return &n->kids[i];
	}
	if (n->nkids == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 8;
		n->kids = xrealloc_array(n->kids, n->cap, sizeof(*n->kids));
	}
	memset(&n->kids[n->nkids], 0, sizeof(*n->kids));
	n->kids[n->nkids].name = xstrdup(name ? name : "");
	return &n->kids[n->nkids++];
}

static void rnode_add(struct rnode *n, const struct site *s)
{
	n->bytes += s->bytes;
	n->calls += s->calls;
	n->slack += s->slack;
	n->sites++;
}

static int rnode_cmp(const void *pa, const void *pb)
{
	const struct rnode *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return strcmp(a->name, b->name);
}

static void rnode_sort(struct rnode *n)
{
	size_t i;

	if (n->nkids)
		qsort(n->kids, n->nkids, sizeof(*n->kids), rnode_cmp);
	for (i = 0; i < n->nkids; i++)
		rnode_sort(&n->kids[i]);
}

static void rnode_free(struct rnode *n)
{
	size_t i;

	for (i = 0; i < n->nkids; i++)
		rnode_free(&n->kids[i]);
	free(n->kids);
	free(n->name);
}

/* Subsystem -> function -> site, for the sites holding memory. */
static void report_tree(const struct table *t, struct rnode *root)
{
	char sub[4096], *fn;
	struct rnode *a, *b, *c;
	size_t i;

	memset(root, 0, sizeof(*root));
	root->name = xstrdup("all");
	for (i = 0; i < t->nr; i++) {
		const struct site *s = &t->sites[i];

		if (s->bytes <= 0)
			continue;
		site_subsystem(s, sub, sizeof(sub));
		fn = s->module[0] ? xasprintf("%s [%s]", s->func, s->module) :
		     xstrdup(s->func);
		a = rnode_child(root, sub);
		b = rnode_child(a, fn);
		c = rnode_child(b, NULL);
		free(c->name);
		c->name = xstrdup(s->location);
		c->site = s;
		rnode_add(root, s);
		rnode_add(a, s);
		rnode_add(b, s);
		rnode_add(c, s);
		free(fn);
	}
	rnode_sort(root);
}

/* Subsystem i's hue: the golden angle apart from the one before. */
static int report_hue(size_t i)
{
	return (int)(i * 137.508 + 200) % 360;
}

/* The characters of @s: UTF-8 sequences, and bytes that are not UTF-8. */
static size_t xml_chars(const char *s)
{
	size_t n, chars = 0;

	for (; *s; s += n ? n : 1, chars++)
		n = utf8_len(s);
	return chars;
}

/*
 * @s as XML character data, at most @max characters, the last one an
 * ellipsis when cut. Control characters are left out; bytes that are not
 * UTF-8, and U+FFFE and U+FFFF, which XML refuses, are written as U+FFFD.
 */
static void xml_text(FILE *f, const char *s, size_t max)
{
	size_t left = xml_chars(s), n;

	for (; *s && max; s += n, max--, left--) {
		n = utf8_len(s);
		if (max == 1 && left > 1) {
			fputs("\u2026", f);
			break;
		}
		if (!n) {
			fputs(UTF8_REPLACEMENT, f);
			n = 1;
		} else if (*s == '&') {
			fputs("&amp;", f);
		} else if (*s == '<') {
			fputs("&lt;", f);
		} else if (*s == '>') {
			fputs("&gt;", f);
		} else if (*s == '"') {
			fputs("&quot;", f);
		} else if (n == 3 && !memcmp(s, "\xef\xbf", 2) &&
			   (unsigned char)s[2] >= 0xbe) {
			fputs(UTF8_REPLACEMENT, f);
		} else if ((unsigned char)*s >= 0x20) {
			fwrite(s, 1, n, f);
		}
	}
}

static void report_title(FILE *f, const struct rnode *n, const char *what,
			 long long total, bool ext)
{
	char tag[4400];

	fputs("<title>", f);
	if (n->site) {
		site_tag(n->site, tag, sizeof(tag));
		xml_text(f, tag, sizeof(tag));
	} else {
		fprintf(f, "%s ", what);
		xml_text(f, n->name, 4096);
	}
	fprintf(f, "\n%lld bytes (%.1f%%) in %lld calls", n->bytes,
		total ? 100.0 * n->bytes / total : 0, n->calls);
	if (!n->site)
		fprintf(f, ", %zu site%s", n->sites, n->sites == 1 ? "" : "s");
	if (ext)
		fprintf(f, "\nslack %lld bytes", n->slack);
	fputs("</title>", f);
}

/* A name in the rectangle's top left corner, cut to fit; 11px text. */
static void report_label(FILE *f, const struct tm_rect *r, const char *text,
			 const char *fill, bool bold)
{
	int chars = (int)((r->w - 6) / 6.6);

	if (chars < 3 || r->h < 14)
		return;
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\"%s>", r->x + 3,
		r->y + 11.5, fill, bold ? " font-weight=\"bold\"" : "");
	xml_text(f, text, chars);
	fputs("</text>\n", f);
}

struct report_ctx {
	FILE *f;
	long long total;
	bool ext;
};

static const char * const report_level[] = { "all", "subsystem", "function", "site" };

static void report_draw(struct report_ctx *c, const struct rnode *n,
			struct tm_rect r, int depth, int hue, int light);

/* Lay the children of @n out in @r and draw them. */
static void report_kids(struct report_ctx *c, const struct rnode *n,
			struct tm_rect r, int depth, int hue, int light)
{
	struct tm_rect *rects = xcalloc(n->nkids, sizeof(*rects));
	double *vals = xcalloc(n->nkids, sizeof(*vals));
	size_t i;

	for (i = 0; i < n->nkids; i++)
		vals[i] = n->kids[i].bytes;
	treemap_layout(vals, n->nkids, r, rects);
	for (i = 0; i < n->nkids; i++) {
		int h = depth ? hue : report_hue(i);
		int l = depth == 0 ? 34 : depth == 1 ? 48 + 8 * (i % 3) :
			light + 10 + 4 * (i % 2);

		report_draw(c, &n->kids[i], rects[i], depth + 1, h, l);
	}
	free(vals);
	free(rects);
}

static void report_draw(struct report_ctx *c, const struct rnode *n,
			struct tm_rect r, int depth, int hue, int light)
{
	double band = depth == 1 ? 16 : 14, pad = depth == 1 ? 2 : 1;
	char size[24], label[4200];

	if (r.w < 1 || r.h < 1)
		return;
	fprintf(c->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"hsl(%d,50%%,%d%%)\" stroke=\"#fff\" stroke-width=\"%s\">",
		r.x, r.y, r.w, r.h, hue, light, depth == 1 ? "2" : depth == 2 ? "1" : "0.5");
	report_title(c->f, n, report_level[depth], c->total, c->ext);
	fputs("</rect>\n", c->f);
	format_size(size, sizeof(size), n->bytes);
	if (depth == 1)
		snprintf(label, sizeof(label), "%s %s", n->name, size);
	else if (depth == 3 && site_file_line(n->site, NULL, 0, NULL) &&
		 strrchr(n->name, '/'))	/* the directory is in the tooltip */
		snprintf(label, sizeof(label), "%s", strrchr(n->name, '/') + 1);
	else
		snprintf(label, sizeof(label), "%s", n->name);
	report_label(c->f, &r, label, depth == 1 ? "#fff" : "#111", depth == 1);
	if (depth == 3 || !n->nkids)
		return;
	if (r.h < 2 * band || r.w < 30)
		band = 0;
	r = (struct tm_rect){ r.x + pad, r.y + band, r.w - 2 * pad,
			      r.h - band - pad };
	if (r.w >= 1 && r.h >= 1)
		report_kids(c, n, r, depth, hue, light);
}

static void report_svg(FILE *f, const struct table *t, const struct rnode *root,
		       const struct report_opts *o)
{
	struct report_ctx c = { f, root->bytes, t->format == TABLE_EXT };
	struct tm_rect area = { 0, 48, o->width, o->height - 48 };
	char size[24];

	format_size(size, sizeof(size), root->bytes);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Liberation Sans, Arial, sans-serif\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
		"<text x=\"8\" y=\"20\" font-size=\"16\" font-weight=\"bold\">Live kernel memory by subsystem, function and call site</text>\n",
		o->width, o->height, o->width, o->height);
	fprintf(f, "<text x=\"8\" y=\"38\" font-size=\"12\" fill=\"#444\">%s bytes in %zu sites holding memory \u00b7 ",
		size, root->sites);
	xml_text(f, t->name, 200);
	if (t->meta.kernel) {
		fputs(" \u00b7 kernel ", f);
		xml_text(f, t->meta.kernel, 100);
	}
	if (t->meta.time) {
		fputs(" \u00b7 ", f);
		xml_text(f, t->meta.time, 40);
	}
	fputs(" \u00b7 area: live bytes; hover for figures</text>\n", f);
	if (!root->bytes)
		fputs("<text x=\"8\" y=\"80\" font-size=\"14\">No live memory in the table.</text>\n", f);
	report_kids(&c, root, area, 0, 0, 0);
	fputs("</svg>\n", f);
}

const struct cmd_option report_options[] = {
	CMD_LETTER('o', "where to write the picture (-: stdout)"),
	CMD_LONG('W', "width", "W",
		 "pixels (default 1200)"),
	CMD_LONG('H', "height", "H",
		 "pixels (default 800)"),
	{ 0 },
};

static void report_usage(FILE *f)
{
	cmd_usage_head(f, "report");
	fprintf(f, "Draw where the live memory of SOURCE (default: /proc/allocinfo_ext, else\n"
		"/proc/allocinfo) is, as an SVG treemap: a rectangle per subsystem, in it\n"
		"one per function, in that one per call site; areas are live bytes.\n"
		"Hovering a rectangle shows its figures. Open FILE in a web browser.\n\n");
	cmd_options(f, "report");
	fprintf(f, "Example:\n"
		"  allocinfo-ext annotate; allocinfo-ext report -o memory.svg\n");
}

static int report_size_opt(const char *s, int *val)
{
	long long n;

	if (parse_ll(s, &n) && n >= 200 && n <= 20000) {
		*val = n;
		return 0;
	}
	aie_err("bad size \"%s\": 200 to 20000 pixels", s);
	return -1;
}

static int report_run(const struct report_opts *o)
{
	struct output out;
	struct rnode root;
	struct table t;
	int ret = AIE_EXIT_FAIL;

	if (!table_load(&t, o->source)) {
		report_tree(&t, &root);
		output_open(&out, o->svg);
		report_svg(out.f, &t, &root, o);
		ret = output_close(&out) ? AIE_EXIT_FAIL : 0;
		rnode_free(&root);
	}
	table_free(&t);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { .width = 1200, .height = 800 };
	int c, bad = 0;

	while ((c = cmd_getopt(argc, argv)) != -1) {
		if (c == 'o')
			o.svg = optarg;
		else if (c == 'W')
			bad = report_size_opt(optarg, &o.width);
		else if (c == 'H')
			bad = report_size_opt(optarg, &o.height);
		else if (c == 'h')
			break;
		else
			bad = -1;
		if (bad)
			return cmd_usage_error(argv[0]);
	}
	if (c == 'h') {
		report_usage(stdout);
		return 0;
	}
	if (!o.svg || argc - optind > 1) {
		aie_err(o.svg ? "report reads one table" : "report needs -o FILE");
		return cmd_usage_error(argv[0]);
	}
	o.source = argv[optind];
	return report_run(&o);
}
