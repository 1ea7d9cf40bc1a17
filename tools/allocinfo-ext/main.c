// SPDX-License-Identifier: GPL-2.0
/*
 * allocinfo-ext - read, compare, group, export and picture the kernel's
 * per-call-site memory figures of /proc/allocinfo_ext (the allocinfo_ext
 * module) or /proc/allocinfo (CONFIG_MEM_ALLOC_PROFILING), and give sites
 * their file:line from DWARF debug info.
 *
 * main.c: the command table, the option vocabulary, the top-level help;
 * man.c makes the man page's sections of them.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
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

#define SYNOPSIS_WIDTH	79

/* The end of the word at @w: a space outside brackets, or @end. */
static const char *synopsis_word(const char *w, const char *end)
{
	int depth = 0;

	for (; w < end && (*w != ' ' || depth); w++)
		depth += *w == '[' ? 1 : *w == ']' ? -1 : 0;
	return w;
}

/*
 * "<lead>allocinfo-ext NAME" and each synopsis of @args, the first after
 * @lead, the others below it, wrapped at SYNOPSIS_WIDTH under their start.
 */
static void synopsis(FILE *f, const char *lead, const char *name,
		     const char *args)
{
	int indent = (int)strlen(lead) + (int)strlen(AIE_TOOL_NAME) +
		     (int)strlen(name) + 2;
	const char *line = args, *end, *word, *next;
	int col;

	while (*line) {
		end = line + strcspn(line, "\n");
		fprintf(f, "%*s%s %s", (int)strlen(lead),
			line == args ? lead : "", AIE_TOOL_NAME, name);
		col = indent - 1;
		for (word = line; word < end; word = next) {
			next = synopsis_word(word, end);
			if (col + 1 + (next - word) > SYNOPSIS_WIDTH &&
			    col > indent)
				col = fprintf(f, "\n%*s", indent - 1, "") - 1;
			col += fprintf(f, " %.*s", (int)(next - word), word);
			while (*next == ' ')
				next++;
		}
		fputc('\n', f);
		line = *end ? end + 1 : end;
	}
}

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

static const struct letter *letter(int c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(letters); i++) {
		if (letters[i].c == c)
			return &letters[i];
	}
	return NULL;
}

/* @cmd takes letter @c: -h, or its synopses name it, short or long. */
static bool takes(const struct command *cmd, char c)
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

static int has(const struct letter *l)
{
	return l->arg ? required_argument : no_argument;
}

/*
 * getopt_long() with the letters @argv[0]'s synopses name, their long and
 * old names, and the command's long-only options.
 */
int cmd_getopt(int argc, char **argv)
{
	static struct option opts[64];
	static char spec[2 * ARRAY_SIZE(letters) + 2];
	const struct command *cmd = command(argv[0]);
	const struct option *own = cmd->own;
	const struct letter *l;
	size_t n = 0, k = 0, i;

	if (spec[0])
		return getopt_long(argc, argv, spec, opts, NULL);
	if (cmd->in_order)
		spec[k++] = '+';
	for (l = letters; l < letters + ARRAY_SIZE(letters); l++) {
		if (!takes(cmd, l->c))
			continue;
		spec[k++] = l->c;
		if (l->arg)
			spec[k++] = ':';
		opts[n++] = (struct option){ l->name, has(l), NULL, l->c };
		for (i = 0; i < ARRAY_SIZE(l->old) && l->old[i]; i++)
			opts[n++] = (struct option){ l->old[i], has(l), NULL, l->c };
	}
	for (; own && own->name && n < ARRAY_SIZE(opts) - 1; own++)
		opts[n++] = *own;
	return getopt_long(argc, argv, spec, opts, NULL);
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

void cmd_options(FILE *f, const char *name)
{
	const struct command *cmd = command(name);
	const struct option *own = cmd->own;
	const struct cmd_option *o = cmd->options, *p;
	const char *what, *nl;
	char spec[96];
	int width = 0;

	for (p = o; p->val; p++) {
		option_spec(cmd, own, p->val, spec, sizeof(spec));
		if ((int)strlen(spec) > width)
			width = strlen(spec);
	}
	for (p = o; p->val; p++) {
		option_spec(cmd, own, p->val, spec, sizeof(spec));
		fprintf(f, "  %-*s  ", width, spec);
		for (what = p->what; (nl = strchr(what, '\n')); what = nl + 1)
			fprintf(f, "%.*s\n%*s", (int)(nl - what), what, width + 4, "");
		fprintf(f, "%s\n", what);
	}
	fputc('\n', f);
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

/* The vocabulary, each letter with the commands whose getopt() takes it. */
static void letters_usage(FILE *f)
{
	const struct letter *l;
	char spec[32], buf[160];
	size_t i;

	fprintf(f, "Options: a letter means one thing in every command taking it.\n");
	for (l = letters; l < letters + ARRAY_SIZE(letters); l++) {
		snprintf(spec, sizeof(spec), "-%c, --%s%s%s", l->c, l->name,
			 l->arg ? " " : "", l->arg ? l->arg : "");
		fprintf(f, "  %-20s %s: %s\n", spec, l->what,
			users(l->c, NULL, buf, sizeof(buf)));
	}
	fprintf(f, "      %-16s %s: %s\n", DRY_RUN, DRY_RUN_WHAT,
		users(0, DRY_RUN, buf, sizeof(buf)));
	fprintf(f, "\nOld names, still taken:");
	for (l = letters; l < letters + ARRAY_SIZE(letters); l++) {
		for (i = 0; i < ARRAY_SIZE(l->old) && l->old[i]; i++)
			fprintf(f, " --%s (-%c)", l->old[i], l->c);
	}
	fputc('\n', f);
}

void cmd_usage_head(FILE *f, const char *name)
{
	synopsis(f, "Usage: ", name, command(name)->args);
	fputc('\n', f);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: %s COMMAND [OPTIONS] [ARGS]\n\n"
		"Per-call-site kernel memory, from /proc/allocinfo_ext (the allocinfo_ext\n"
		"module), /proc/allocinfo (CONFIG_MEM_ALLOC_PROFILING), a snapshot file or\n"
		"a saved kernel log (its last OOM report).\n"
		"FILE and SOURCE default to /proc/allocinfo_ext, else /proc/allocinfo;\n"
		"- is standard input.\n\n"
		"Commands:\n", AIE_TOOL_NAME);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		synopsis(f, "  ", commands[i].name, commands[i].args);
		fprintf(f, "      %s\n", commands[i].what);
	}
	fprintf(f, "\nExamples:\n"
		"  allocinfo-ext top -s growth            sites whose memory grows fastest\n"
		"  allocinfo-ext top -b -n 3 -d 5         three samples, for a log\n"
		"  allocinfo-ext snapshot -o before.snap; ...; allocinfo-ext snapshot -o after.snap\n"
		"  allocinfo-ext diff before.snap after.snap | head\n"
		"  allocinfo-ext group --by subsystem\n"
		"  allocinfo-ext export --format prometheus -o /var/lib/prometheus/node-exporter/allocinfo_ext.prom\n"
		"  allocinfo-ext ctl disable '[nf_conntrack]'\n"
		"  allocinfo-ext annotate                 file:line from linux-image-$(uname -r)-dbg\n"
		"  allocinfo-ext report -o memory.svg\n"
		"  allocinfo-ext context -d 10 func:xas_alloc   who calls xas_alloc\n"
		"  allocinfo-ext compare --baseline base.txt    side by side with /proc/allocinfo\n"
		"  allocinfo-ext leaks -d 60 -n 5         staleness leaks (lifetimes=1)\n"
		"  allocinfo-ext ledger                   who holds all kernel memory\n"
		"  allocinfo-ext query -m nf_conntrack --min-bytes 1048576\n\n"
		"'%s help COMMAND' or '%s COMMAND --help' tells more;\n"
		"'%s help options' lists the option letters; man %s\n"
		"tells all.\n",
		AIE_TOOL_NAME, AIE_TOOL_NAME, AIE_TOOL_NAME, AIE_TOOL_NAME);
}

int cmd_usage_error(const char *cmd)
{
	fprintf(stderr, "Try '%s %s --help'.\n", AIE_TOOL_NAME, cmd);
	return AIE_EXIT_USAGE;
}

/* "help WORD": a command's help, as "COMMAND --help", or the letters. */
static int help(int argc, char **argv)
{
	char *args[] = { argv[0], "--help", NULL };

	if (argc > 1) {
		aie_err("help takes one word: a command, or options");
		fprintf(stderr, "Try '%s --help'.\n", AIE_TOOL_NAME);
		return AIE_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "options")) {
		letters_usage(stdout);
		return stdout_close() ? AIE_EXIT_FAIL : 0;
	}
	/* Not in the usage: make man runs it on Documentation/allocinfo-ext.1 */
	if (!strcmp(argv[0], "man"))
		return man_page();
	if (command(argv[0]))
		return command(argv[0])->run(2, args);
	aie_err("unknown command \"%s\": help knows the commands and options", argv[0]);
	fprintf(stderr, "Try '%s --help'.\n", AIE_TOOL_NAME);
	return AIE_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return AIE_EXIT_USAGE;
	}
	if (argc > 2 && !strcmp(argv[1], "help"))
		return help(argc - 2, argv + 2);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("%s %s\n", AIE_TOOL_NAME, AIE_TOOL_VERSION);
		return 0;
	}
	if (command(argv[1]))
		return command(argv[1])->run(argc - 1, argv + 1);
	aie_err("unknown command \"%s\"", argv[1]);
	fprintf(stderr, "Try '%s --help'.\n", AIE_TOOL_NAME);
	return AIE_EXIT_USAGE;
}
