// SPDX-License-Identifier: GPL-2.0
/*
 * cmdtab.c - the command table and the option vocabulary (cmdtab.h): what
 * each command is and takes, read by main.c for getopt() and the help
 * texts and by man.c for the man page.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmdtab.h"
#include "util.h"

const struct letter letters[] = {
	{ 'l', "lines", "N", "rows shown, at most", { "rows" } },
	{ 'n', "count", "N", "samples, rounds or runs", { "iterations", "rounds" } },
	{ 'd', "interval", "SEC", "seconds between samples, or of a capture",
	  { "delay", "duration" } },
	{ 'j', "json", NULL, "JSON instead of the table", { NULL } },
	{ 'o', "output", "FILE", "write to FILE", { "svg" } },
	{ 'a', "all", NULL, "unchanged sites too", { NULL } },
	{ 'b', "batch", NULL, "plain text, no screen control", { NULL } },
	{ 'f', "format", "FMT", "the output format", { NULL } },
	{ 'i', "input", "FILE", "the sites from FILE", { NULL } },
	{ 'm', "module", "NAME", "only the sites of module NAME", { NULL } },
	{ 's', "sort", "KEY", "the sort key, the largest first", { NULL } },
	{ 'r', "reverse", NULL, "the order reversed, the smallest first", { NULL } },
	{ 'v', "verbose", NULL, "say more", { NULL } },
	{ 'h', "help", NULL, "the command's help", { NULL } },
};

const struct command commands[] = {
	{ "top", cmd_top, false, "[-s KEY] [-r] [-b] [-j] [-n N] [-d SEC] [-l N] [-m NAME] [FILE]",
	  "live view of the sites, refreshed like top",
	  NULL, top_option_help },
	{ "snapshot", cmd_snapshot, false, "[-o FILE] [--kernel REL] [--uptime SEC] [SOURCE]",
	  "a copy of the table with time, kernel, uptime, module version",
	  snapshot_opts, snapshot_option_help },
	{ "diff", cmd_diff, false, "[-a] [-s KEY] [-r] [-l N] [-j] [-m NAME] [--exit-code] A B",
	  "per-site change from A to B, sorted by growth",
	  diff_opts, diff_option_help },
	{ "group", cmd_group, false, "--by KEY [-s KEY] [-r] [-j] [-l N] [-m NAME] [FILE]",
	  "live figures summed per group",
	  group_opts, group_option_help },
	{ "export", cmd_export, false, "--format json|csv|prometheus [-m NAME] [-o FILE] [FILE]\n"
	  "--format prometheus [--top N] [--min-bytes B] [--zeros] [--site-label] [-m NAME] [-o FILE] [FILE]",
	  "the table for other programs",
	  export_opts, export_option_help },
	{ "ctl", cmd_ctl, true, "[--dry-run] [--proc FILE] COMMAND...",
	  "control writes to /proc/allocinfo_ext",
	  ctl_opts, ctl_option_help },
	{ "annotate", cmd_annotate, false,
	  "[--vmlinux FILE] [--module-dir DIR]... [-i FILE] [--proc FILE] [--dry-run] [--innermost] [-v]",
	  "give sites their file:line from DWARF debug info",
	  annotate_opts, annotate_option_help },
	{ "report", cmd_report, false, "-o FILE [--width W] [--height H] [SOURCE]",
	  "a treemap picture: subsystem, function, site",
	  report_opts, report_option_help },
	{ "context", cmd_context, false,
	  "[-d SEC [--depth N]] [--stacks FILE] [--calls FILE] [-j] SEL",
	  "who calls the selected sites: calls, bytes and share per caller",
	  context_opts, context_option_help },
	{ "leaks", cmd_leaks, false, "[-d SEC] [-n N] [-s KEY] [-r] [-j] [-l N] [TABLE LIFETIMES]...",
	  "sites whose live bytes keep growing and oldest objects keep aging",
	  NULL, leaks_option_help },
	{ "ledger", cmd_ledger, false, "[-j] [-l N] [--root DIR] [--log FILE]",
	  "all kernel memory per meminfo category: call sites, named, unexplained",
	  ledger_opts, ledger_option_help },
	{ "compare", cmd_compare, false, "--save-baseline FILE\n"
	  "--baseline FILE [-m NAME] [-l N] [-j] [--ours FILE] [--theirs FILE]",
	  "byte agreement with /proc/allocinfo, site by site and overall",
	  compare_opts, compare_option_help },
	{ "query", cmd_query, false,
	  "[-m NAME] [--function NAME] [--min-bytes B] [--inaccurate] [--via WAY] [-s KEY] [-r] [-l N] [-j] [-v] [SOURCE]\n"
	  "--bench [-n N] [-m NAME] [--function NAME] [--min-bytes B] [--inaccurate] [SOURCE]",
	  "the rows that match, filtered by the kernel (its ioctls) or read as text",
	  query_opts, query_option_help },
};

const size_t nr_letters = ARRAY_SIZE(letters), nr_commands = ARRAY_SIZE(commands);

const struct command *command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	}
	return NULL;
}

/* The word of @args at @w is option @opt ("-l", "--depth"). */
static bool synopsis_is(const char *args, const char *w, const char *opt)
{
	size_t n = strlen(opt);

	return (w == args || strchr(" [\n", w[-1])) && !strncmp(w, opt, n) &&
	       strchr(" ]\n", w[n]);
}

/* Where the synopses of @cmd name option @opt, or NULL. */
static const char *synopsis_find(const struct command *cmd, const char *opt)
{
	const char *w;

	for (w = strstr(cmd->args, opt); w; w = strstr(w + 1, opt)) {
		if (synopsis_is(cmd->args, w, opt))
			return w;
	}
	return NULL;
}

const struct letter *letter(int c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(letters); i++) {
		if (letters[i].c == c)
			return &letters[i];
	}
	return NULL;
}

/* @cmd takes letter @c: -h, or its synopses name it, short or long. */
bool takes(const struct command *cmd, char c)
{
	char opt[32];

	snprintf(opt, sizeof(opt), "-%c", c);
	if (c == 'h' || synopsis_find(cmd, opt))
		return true;
	snprintf(opt, sizeof(opt), "--%s", letter(c)->name);
	return synopsis_find(cmd, opt);
}

/*
 * The argument the synopses give long option @opt ("--depth" -> "N"), in
 * @arg: the next word when it is a placeholder (capitals), else "".
 */
static void synopsis_arg(const struct command *cmd, const char *opt,
			 char *arg, size_t size)
{
	const char *w = synopsis_find(cmd, opt);
	size_t n = 0;

	if (w && w[strlen(opt)] == ' ') {
		w += strlen(opt) + 1;
		while (w[n] >= 'A' && w[n] <= 'Z')
			n++;
	}
	snprintf(arg, size, "%.*s", (int)n, w ? w : "");
}

/*
 * An option's words for its help line: "-l, --lines N" from the
 * vocabulary, or "    --depth N" from @own and the synopses.
 */
void option_spec(const struct command *cmd, const struct option *own,
		 int val, char *spec, size_t size)
{
	const struct letter *l = letter(val);
	char opt[64], arg[32];

	if (l && takes(cmd, l->c)) {
		snprintf(spec, size, "-%c, --%s%s%s", l->c, l->name,
			 l->arg ? " " : "", l->arg ? l->arg : "");
		return;
	}
	while (own && own->name && own->val != val)
		own++;
	snprintf(opt, sizeof(opt), "--%s", own && own->name ? own->name : "?");
	synopsis_arg(cmd, opt, arg, sizeof(arg));
	snprintf(spec, size, "    %s%s%s", opt, *arg ? " " : "", arg);
}

/*
 * The commands taking letter @c, or the long-only option @opt when @c is
 * 0 ("every command" when all do), in @buf.
 */
const char *users(char c, const char *opt, char *buf, size_t size)
{
	size_t i, n = 0, len = 0;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (c ? !takes(&commands[i], c) : !synopsis_find(&commands[i], opt))
			continue;
		n++;
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				len ? " " : "", commands[i].name);
	}
	if (n == ARRAY_SIZE(commands))
		snprintf(buf, size, "every command");
	return buf;
}
