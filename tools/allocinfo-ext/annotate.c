// SPDX-License-Identifier: GPL-2.0
/*
 * annotate.c - `allocinfo-ext annotate`: find the file:line of every site
 * still shown as function+0xoff/0xsize, from DWARF, and write
 * "locate <function>+0x<off> <file>:<line> [<function>]" for it to
 * /proc/allocinfo_ext, so the table shows file:line from then on, and the
 * function the call is written in where it was inlined into another.
 *
 * Debug files: built-in code from --vmlinux, else the first of
 * /usr/lib/debug/boot/vmlinux-<release>, /usr/lib/debug/lib/modules/
 * <release>/vmlinux, /boot/vmlinux-<release>; module code from
 * <name>.ko[.xz|.gz|.zst] below the --module-dir directories, then
 * /usr/lib/debug/lib/modules/<release> and /lib/modules/<release> ('-'
 * and '_' alike, as module names have them). A file whose build-id
 * differs from the loaded kernel's or module's (/sys/kernel/notes,
 * /sys/module/<name>/notes) is not used: its lines would be wrong. With
 * --input the table may come from another machine: no check then.
 */
#include <fts.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd.h"
#include "control.h"
#include "dwarf.h"
#include "table.h"
#include "util.h"

#define ANNOTATE_MAX_DIRS	8

struct annotate_opts {
	const char *input;	/* table to read; NULL: /proc/allocinfo_ext */
	const char *proc;	/* control file; NULL: /proc/allocinfo_ext */
	const char *vmlinux;
	const char *dirs[ANNOTATE_MAX_DIRS];	/* --module-dir */
	size_t ndirs;
	bool dry_run, innermost, verbose;
};

/* Debug files found below the module directories, in search order. */
struct modent {
	char *key;		/* module name, '-' made '_' */
	char *path;
};

/* The debug file of one module ("" for vmlinux), opened once. */
struct debug_file {
	char *module;
	struct dwarf_file *dw;	/* NULL: none usable */
};

struct annotate_stats {
	size_t located, no_debug, unresolved, failed, other;
};

struct annotate_ctx {
	struct annotate_opts *o;
	struct modent *mods;
	size_t nmods, capmods;
	struct debug_file *dbg;
	size_t ndbg;
	struct control ctl;
	struct annotate_stats st;
	char release[256];
	char *system_dirs[2];	/* searched after the --module-dir ones */
};

/* "foo-bar.ko.xz" -> "foo_bar"; NULL when not a module file. */
static char *annotate_module_key(const char *name)
{
	static const char * const exts[] = { ".ko", ".ko.xz", ".ko.gz", ".ko.zst" };
	char *key, *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exts); i++) {
		if (str_ends(name, exts[i]) && strlen(name) > strlen(exts[i]))
			break;
	}
	if (i == ARRAY_SIZE(exts))
		return NULL;
	key = xstrndup(name, strlen(name) - strlen(exts[i]));
	for (p = key; *p; p++) {
		if (*p == '-')
			*p = '_';
	}
	return key;
}

static void annotate_index_dir(struct annotate_ctx *c, const char *dir)
{
	char *paths[] = { (char *)dir, NULL };
	FTS *fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	FTSENT *e;
	char *key;

	while (fts && (e = fts_read(fts))) {
		if (e->fts_info != FTS_F)
			continue;
		key = annotate_module_key(e->fts_name);
		if (!key)
			continue;
		if (c->nmods == c->capmods) {
			c->capmods = c->capmods ? 2 * c->capmods : 64;
			c->mods = xrealloc_array(c->mods, c->capmods, sizeof(*c->mods));
		}
		c->mods[c->nmods++] = (struct modent){ key, xstrdup(e->fts_path) };
	}
	if (fts)
		fts_close(fts);
}

static const char *annotate_module_path(struct annotate_ctx *c,
					const char *module)
{
	char *file = xasprintf("%s.ko", module);
	char *key = annotate_module_key(file);
	const char *path = NULL;
	size_t i;

	for (i = 0; i < c->nmods && !path; i++) {
		if (!strcmp(c->mods[i].key, key))
			path = c->mods[i].path;
	}
	free(key);
	free(file);
	return path;
}

static char *annotate_vmlinux_path(struct annotate_ctx *c)
{
	const char *fmts[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/boot/vmlinux-%s",
	};
	char *path;
	size_t i;

	if (c->o->vmlinux)
		return xstrdup(c->o->vmlinux);
	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		path = xasprintf(fmts[i], c->release);
		if (!access(path, R_OK))
			return path;
		free(path);
	}
	return NULL;
}

/* False when the file is not the build of the loaded kernel or module. */
static bool annotate_same_build(struct dwarf_file *dw, const char *path,
				const char *module)
{
	char want[128], have[128], *note;
	bool same = true;

	note = module[0] ? xasprintf("/sys/module/%s/notes/.note.gnu.build-id", module) :
	       xstrdup("/sys/kernel/notes");
	if (!read_build_id(note, want, sizeof(want)) &&
	    dwarf_build_id(dw, have, sizeof(have)) && strcmp(want, have)) {
		aie_err("%s: build-id %s, but the loaded %s has %s: not used",
			path, have, module[0] ? module : "kernel", want);
		same = false;
	}
	free(note);
	return same;
}

static struct dwarf_file *annotate_open(struct annotate_ctx *c,
					const char *module)
{
	char *path = module[0] ? NULL : annotate_vmlinux_path(c);
	const char *p = module[0] ? annotate_module_path(c, module) : path;
	struct dwarf_file *dw = NULL;

	if (!p) {
		if (module[0])
			aie_err("no debug file for module %s (looked for %s.ko below the module directories)",
				module, module);
		else
			aie_err("no vmlinux with debug info: install linux-image-%s-dbg or give --vmlinux",
				c->release);
	} else {
		dw = dwarf_open(p);
		if (dw && !c->o->input && !annotate_same_build(dw, p, module)) {
			dwarf_close(dw);
			dw = NULL;
		}
		if (dw && c->o->verbose)
			fprintf(stderr, "%s: %s\n", module[0] ? module : "vmlinux", p);
	}
	free(path);
	return dw;
}

/* The debug file for @module, opened on first use. */
static struct dwarf_file *annotate_debug(struct annotate_ctx *c,
					 const char *module)
{
	size_t i;

	for (i = 0; i < c->ndbg; i++) {
		if (!strcmp(c->dbg[i].module, module))
			return c->dbg[i].dw;
	}
	c->dbg = xrealloc_array(c->dbg, c->ndbg + 1, sizeof(*c->dbg));
	c->dbg[c->ndbg].module = xstrdup(module);
	c->dbg[c->ndbg].dw = annotate_open(c, module);
	return c->dbg[c->ndbg++].dw;
}

/* "func+0x1f/0x30" -> "func", 0x1f, 0x30, and the selector "func+0x1f". */
static bool annotate_parse_site(const char *loc, char *func, size_t len,
				unsigned long *off, unsigned long *size,
				char *sel, size_t sel_len)
{
	const char *plus = strrchr(loc, '+'), *slash;
	char *end;

	if (!plus || plus == loc || strncmp(plus, "+0x", 3))
		return false;
	*off = strtoul(plus + 3, &end, 16);
	slash = end;
	if (slash == plus + 3 || strncmp(slash, "/0x", 3))
		return false;
	*size = strtoul(slash + 3, &end, 16);
	if (end == slash + 3 || *end || (size_t)(plus - loc) >= len ||
	    (size_t)(slash - loc) >= sel_len)
		return false;
	snprintf(func, len, "%.*s", (int)(plus - loc), loc);
	snprintf(sel, sel_len, "%.*s", (int)(slash - loc), loc);
	return true;
}

static void annotate_emit(struct annotate_ctx *c, const char *word)
{
	if (c->o->dry_run) {
		printf("%s\n", word);
		c->st.located++;
	} else if (control_write(&c->ctl, word)) {
		c->st.failed++;
	} else {
		c->st.located++;
	}
}

static void annotate_site(struct annotate_ctx *c, const struct site *s)
{
	char func[512], sel[600], file[4096], src_func[512], *word = NULL;
	unsigned long off, size;
	unsigned int line;
	struct dwarf_file *dw;
	enum dwarf_result r;

	if (!annotate_parse_site(s->location, func, sizeof(func), &off, &size,
				 sel, sizeof(sel))) {
		c->st.other++;	/* located already, or unknown@ */
		return;
	}
	dw = annotate_debug(c, s->module);
	if (!dw) {
		c->st.no_debug++;
		return;
	}
	r = dwarf_resolve(dw, func, off, size, c->o->innermost, file,
			  sizeof(file), &line, src_func, sizeof(src_func));
	/* The function the call is written in, where kallsyms names another */
	if (r == DWARF_OK && (!src_func[0] || !strcmp(src_func, func)))
		word = xasprintf("locate %s %s:%u", sel, file, line);
	else if (r == DWARF_OK)
		word = xasprintf("locate %s %s:%u %s", sel, file, line, src_func);
	if (r == DWARF_OK && control_check(word)) {
		aie_err("%s: %s:%u cannot be written as a control word", sel,
			file, line);
		r = DWARF_NO_LINE;
	}
	if (r == DWARF_OK) {
		annotate_emit(c, word);
	} else {
		c->st.unresolved++;
		if (c->o->verbose)
			fprintf(stderr, "%s%s%s%s: %s\n", s->location,
				s->module[0] ? " [" : "", s->module,
				s->module[0] ? "]" : "", dwarf_result_name(r));
	}
	free(word);
}

static void annotate_summary(const struct annotate_ctx *c)
{
	fprintf(stderr, "annotate: %zu site%s %s, %zu without debug info, %zu unresolved, %zu failed; %zu had no function+offset\n",
		c->st.located, c->st.located == 1 ? "" : "s",
		c->o->dry_run ? "resolved" : "located", c->st.no_debug,
		c->st.unresolved, c->st.failed, c->st.other);
}

static void annotate_free(struct annotate_ctx *c)
{
	size_t i;

	for (i = 0; i < c->ndbg; i++) {
		dwarf_close(c->dbg[i].dw);
		free(c->dbg[i].module);
	}
	for (i = 0; i < c->nmods; i++) {
		free(c->mods[i].key);
		free(c->mods[i].path);
	}
	free(c->dbg);
	free(c->mods);
	free(c->system_dirs[0]);
	free(c->system_dirs[1]);
}

static int annotate_run(struct annotate_opts *o)
{
	struct annotate_ctx c = { .o = o, .ctl = { .fd = -1 } };
	struct utsname u;
	struct table t;
	size_t i;
	int ret = AIE_EXIT_FAIL;

	snprintf(c.release, sizeof(c.release), "%s", uname(&u) ? "unknown" : u.release);
	c.system_dirs[0] = xasprintf("/usr/lib/debug/lib/modules/%s", c.release);
	c.system_dirs[1] = xasprintf("/lib/modules/%s", c.release);
	if (table_load(&t, o->input ? o->input : AIE_PROC_EXT))
		goto out;
	if (t.format != TABLE_EXT) {
		aie_err("%s: the kernel's own table has file:line already", t.name);
		goto out;
	}
	if (!o->dry_run && control_open(&c.ctl, o->proc))
		goto out;
	for (i = 0; i < o->ndirs; i++)
		annotate_index_dir(&c, o->dirs[i]);
	for (i = 0; i < ARRAY_SIZE(c.system_dirs); i++)
		annotate_index_dir(&c, c.system_dirs[i]);
	for (i = 0; i < t.nr; i++)
		annotate_site(&c, &t.sites[i]);
	annotate_summary(&c);
	ret = c.st.failed ? AIE_EXIT_FAIL : 0;
	if (o->dry_run && stdout_close())
		ret = AIE_EXIT_FAIL;
out:
	control_close(&c.ctl);
	table_free(&t);
	annotate_free(&c);
	return ret;
}

enum { OPT_VMLINUX = 256, OPT_MODULE_DIR, OPT_PROC, OPT_DRY_RUN, OPT_INNERMOST };

const struct cmd_option annotate_options[] = {
	CMD_LONG(OPT_VMLINUX, "vmlinux", "FILE",
		 "vmlinux with DWARF (default: /usr/lib/debug/boot/\n"
		 "vmlinux-$(uname -r), from linux-image-*-dbg)"),
	CMD_LONG(OPT_MODULE_DIR, "module-dir", "DIR",
		 "look for <module>.ko below DIR first (repeatable)"),
	CMD_LETTER('i', "read the sites from FILE, not /proc/allocinfo_ext"),
	CMD_LONG(OPT_PROC, "proc", "FILE",
		 "write the control words to FILE"),
	CMD_LONG(OPT_DRY_RUN, "dry-run", NULL,
		 "print the control words, write nothing"),
	CMD_LONG(OPT_INNERMOST, "innermost", NULL,
		 "the innermost line, even in a header"),
	CMD_LETTER('v', "say which debug files are used, and why sites fail"),
	{ 0 },
};

static void annotate_usage(FILE *f)
{
	cmd_usage_head(f, "annotate");
	fprintf(f, "Give every site shown as function+0xoff/0xsize its file:line, from the\n"
		"DWARF of vmlinux and of the modules, by writing \"locate\" control words\n"
		"to /proc/allocinfo_ext (root only). Sites without debug info keep\n"
		"function+offset. The line is that of the call in the innermost function\n"
		"that is not in a header: for an inlined kmalloc(), its caller's line.\n"
		"The row's func: then names that function, as /proc/allocinfo does.\n\n");
	cmd_options(f, "annotate");
	fprintf(f, "Examples:\n"
		"  apt-get install linux-image-$(uname -r)-dbg && allocinfo-ext annotate\n"
		"  allocinfo-ext annotate --module-dir ~/src/mydriver --dry-run\n");
}


static int annotate_option(int c, struct annotate_opts *o)
{
	switch (c) {
	case OPT_VMLINUX:
		o->vmlinux = optarg;
		return 0;
	case OPT_MODULE_DIR:
		if (o->ndirs == ANNOTATE_MAX_DIRS) {
			aie_err("at most %d --module-dir", ANNOTATE_MAX_DIRS);
			return -1;
		}
		o->dirs[o->ndirs++] = optarg;
		return 0;
	case 'i':
		o->input = optarg;
		return 0;
	case OPT_PROC:
		o->proc = optarg;
		return 0;
	case OPT_DRY_RUN:
		o->dry_run = true;
		return 0;
	case OPT_INNERMOST:
		o->innermost = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	}
	return -1;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o;
	int c;

	memset(&o, 0, sizeof(o));
	while ((c = cmd_getopt(argc, argv)) != -1) {
		if (c == 'h') {
			annotate_usage(stdout);
			return 0;
		}
		if (annotate_option(c, &o))
			return cmd_usage_error(argv[0]);
	}
	if (optind != argc) {
		aie_err("annotate takes no arguments, only options");
		return cmd_usage_error(argv[0]);
	}
	return annotate_run(&o);
}
