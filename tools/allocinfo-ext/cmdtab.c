// SPDX-License-Identifier: GPL-2.0
/*
 * cmdtab.c - the command table and the option vocabulary (cmdtab.h): what
 * each command is and takes, read by main.c for getopt() and the help
 * texts and by man.c for the man page.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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
	{ "top", cmd_top, false, "[-s] [-r] [-b] [-j] [-n] [-d] [-l] [-m] [--cgroup] [FILE]",
	  "live view of the sites, refreshed like top", top_options },
	{ "snapshot", cmd_snapshot, false, "[-o] [--kernel] [--uptime] [SOURCE]",
	  "a copy of the table with time, kernel, uptime, module version",
	  snapshot_options },
	{ "diff", cmd_diff, false, "[-a] [-s] [-r] [-l] [-j] [-m] [--exit-code] A B",
	  "per-site change from A to B, sorted by growth",
	  diff_options },
	{ "group", cmd_group, false, "--by [-s] [-r] [-j] [-l] [-m] [FILE]",
	  "live figures summed per group",
	  group_options },
	{ "export", cmd_export, false, "--format=json|csv|prometheus [-m] [-o] [FILE]\n"
	  "--format=prometheus [--top] [--min-bytes] [--zeros] [--site-label] "
	  "[--cgroups [--cgroups-file]] [-m] [-o] [FILE]",
	  "the table for other programs",
	  export_options },
	{ "ctl", cmd_ctl, true, "[--dry-run] [--proc] COMMAND...",
	  "control writes to /proc/allocinfo_ext",
	  ctl_options },
	{ "annotate", cmd_annotate, false,
	  "[--vmlinux] [--module-dir]... [-i] [--proc] [--dry-run] [--innermost] [-v]",
	  "give sites their file:line from DWARF debug info",
	  annotate_options },
	{ "report", cmd_report, false, "-o [--width] [--height] [SOURCE]",
	  "a treemap picture: subsystem, function, site",
	  report_options },
	{ "context", cmd_context, false,
	  "[-d [--depth]] [--stacks] [--calls] [-j] SEL",
	  "who calls the selected sites: calls, bytes and share per caller",
	  context_options },
	{ "leaks", cmd_leaks, false, "[-d] [-n] [-s] [-r] [-j] [-l] [TABLE LIFETIMES]...",
	  "sites whose live bytes keep growing and oldest objects keep aging",
	  leaks_options },
	{ "ledger", cmd_ledger, false, "[-j] [-l] [--root] [--log]",
	  "all kernel memory per meminfo category: call sites, named, unexplained",
	  ledger_options },
	{ "cgroup", cmd_cgroup, false, "[-j] [-l] [--root] PATH",
	  "a cgroup's kernel memory per memory.stat category: sites, unexplained",
	  cgroup_options },
	{ "compare", cmd_compare, false, "--save-baseline\n"
	  "--baseline [-m] [-l] [-j] [--ours] [--theirs]",
	  "byte agreement with /proc/allocinfo, site by site and overall",
	  compare_options },
	{ "query", cmd_query, false,
	  "[-m] [--function] [--min-bytes] [--inaccurate] [--via] [-s] [-r] [-l] [-j] [-v] [SOURCE]\n"
	  "--bench [-n] [-m] [--function] [--min-bytes] [--inaccurate] [SOURCE]",
	  "the rows that match, filtered by the kernel (its ioctls) or read as text",
	  query_options },
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

const struct letter *letter(int c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(letters); i++) {
		if (letters[i].c == c)
			return &letters[i];
	}
	return NULL;
}

/* The option of @cmd with getopt() value @val, or NULL. */
static const struct cmd_option *option_of(const struct command *cmd, int val)
{
	const struct cmd_option *o;

	for (o = cmd->options; o->val; o++) {
		if (o->val == val)
			return o;
	}
	return NULL;
}

/* @cmd takes letter @c: -h, or its table declares it. */
bool takes(const struct command *cmd, char c)
{
	const struct cmd_option *o = option_of(cmd, c);

	return c == 'h' || (o && !o->name);
}

/*
 * The option of @cmd that the synopsis word @w of @n characters names
 * ("-l", "--lines", "--depth"), or NULL.
 */
static const struct cmd_option *option_named(const struct command *cmd,
					     const char *w, size_t n)
{
	const struct cmd_option *o;
	const struct letter *l;

	for (o = cmd->options; o->val; o++) {
		l = o->name ? NULL : letter(o->val);
		if (n == 2 && l && w[1] == l->c)
			return o;
		if (n > 2 && w[1] == '-' && strlen(o->name ? o->name : l->name) == n - 2 &&
		    !strncmp(w + 2, o->name ? o->name : l->name, n - 2))
			return o;
	}
	return NULL;
}

/* The argument option @o takes, or NULL. */
static const char *option_arg(const struct cmd_option *o)
{
	return o->name ? o->arg : letter(o->val)->arg;
}

/* @cmd's synopses into @buf, each option with its argument. */
static void synopses_make(const struct command *cmd, char *buf, size_t size)
{
	const struct cmd_option *o;
	const char *w = cmd->args, *arg;
	size_t len = 0, n;

	while (*w) {
		n = 1;
		if (*w == '-' && (w == cmd->args || strchr(" [\n", w[-1]))) {
			n = strcspn(w, " ]\n=");
			o = option_named(cmd, w, n);
			if (!o) {
				aie_err("%s: its synopsis names %.*s, which its table does not declare",
					cmd->name, (int)n, w);
				exit(AIE_EXIT_FAIL);
			}
			arg = option_arg(o);
			if (w[n] == '=') {	/* the words given instead */
				len += snprintf(buf + len, size - len, "%.*s ", (int)n, w);
				w += n + 1;
				n = strcspn(w, " ]\n");
			} else if (arg) {
				len += snprintf(buf + len, size - len, "%.*s %s",
						(int)n, w, arg);
				w += n;
				continue;
			}
		}
		len += snprintf(buf + len, size - len, "%.*s", (int)n, w);
		w += n;
		if (len >= size) {
			aie_err("%s: its synopses are too long", cmd->name);
			exit(AIE_EXIT_FAIL);
		}
	}
}

const char *synopses(const struct command *cmd)
{
	static char made[ARRAY_SIZE(commands)][512];
	char *buf = made[cmd - commands];

	if (!buf[0])
		synopses_make(cmd, buf, sizeof(made[0]));
	return buf;
}

/*
 * An option's words for its help line: "-l, --lines N" from the
 * vocabulary, or "    --depth N" from the command's table.
 */
void option_spec(const struct command *cmd, int val, char *spec, size_t size)
{
	const struct cmd_option *o = option_of(cmd, val);
	const struct letter *l = o && !o->name ? letter(val) : NULL;

	if (l) {
		snprintf(spec, size, "-%c, --%s%s%s", l->c, l->name,
			 l->arg ? " " : "", l->arg ? l->arg : "");
		return;
	}
	snprintf(spec, size, "    --%s%s%s", o ? o->name : "?",
		 o && o->arg ? " " : "", o && o->arg ? o->arg : "");
}

/*
 * The commands taking letter @c, or the long-only option @opt when @c is
 * 0 ("every command" when all do), in @buf.
 */
const char *users(char c, const char *opt, char *buf, size_t size)
{
	size_t i, n = 0, len = 0;
	const struct cmd_option *o;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		o = c ? NULL : option_named(&commands[i], opt, strlen(opt));
		if (c ? !takes(&commands[i], c) : !o || !o->name)
			continue;
		n++;
		len += snprintf(buf + len, len < size ? size - len : 0, "%s%s",
				len ? " " : "", commands[i].name);
	}
	if (n == ARRAY_SIZE(commands))
		snprintf(buf, size, "every command");
	return buf;
}
