// SPDX-License-Identifier: GPL-2.0
/*
 * allocinfo-ext - read, compare, group, export and picture the kernel's
 * per-call-site memory figures of /proc/allocinfo_ext (the allocinfo_ext
 * module) or /proc/allocinfo (CONFIG_MEM_ALLOC_PROFILING), and give sites
 * their file:line from DWARF debug info.
 *
 * main.c: getopt(), the usages and help texts, made from the command
 * table and the option vocabulary (cmdtab.c); man.c makes the man page's
 * sections of them.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmdtab.h"
#include "util.h"

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

/* getopt_long()'s has_arg for an option whose argument is @arg. */
static int has(const char *arg)
{
	return arg ? required_argument : no_argument;
}

/*
 * getopt_long() with what @argv[0]'s table declares: its letters, with
 * their long and old names, and its long-only options; and -h.
 */
int cmd_getopt(int argc, char **argv)
{
	static struct option opts[64];
	static char spec[2 * 52 + 2];	/* each letter, a ':', '+' */
	const struct command *cmd = command(argv[0]);
	const struct cmd_option *o;
	const struct letter *l;
	size_t n = 0, k = 0, i;

	if (spec[0])
		return getopt_long(argc, argv, spec, opts, NULL);
	if (cmd->in_order)
		spec[k++] = '+';
	for (l = letters; l < letters + nr_letters; l++) {
		if (!takes(cmd, l->c))
			continue;
		spec[k++] = l->c;
		if (l->arg)
			spec[k++] = ':';
		opts[n++] = (struct option){ l->name, has(l->arg), NULL, l->c };
		for (i = 0; i < ARRAY_SIZE(l->old) && l->old[i]; i++)
			opts[n++] = (struct option){ l->old[i], has(l->arg), NULL, l->c };
	}
	for (o = cmd->options; o->val && n < ARRAY_SIZE(opts) - 1; o++) {
		if (o->name)
			opts[n++] = (struct option){ o->name, has(o->arg), NULL, o->val };
	}
	return getopt_long(argc, argv, spec, opts, NULL);
}

void cmd_options(FILE *f, const char *name)
{
	const struct command *cmd = command(name);
	const struct cmd_option *o = cmd->options, *p;
	const char *what, *nl;
	char spec[96];
	int width = 0;

	for (p = o; p->val; p++) {
		option_spec(cmd, p->val, spec, sizeof(spec));
		if ((int)strlen(spec) > width)
			width = strlen(spec);
	}
	for (p = o; p->val; p++) {
		option_spec(cmd, p->val, spec, sizeof(spec));
		fprintf(f, "  %-*s  ", width, spec);
		for (what = p->what; (nl = strchr(what, '\n')); what = nl + 1)
			fprintf(f, "%.*s\n%*s", (int)(nl - what), what, width + 4, "");
		fprintf(f, "%s\n", what);
	}
	fputc('\n', f);
}

/* The vocabulary, each letter with the commands whose getopt() takes it. */
static void letters_usage(FILE *f)
{
	const struct letter *l;
	char spec[32], buf[160];
	size_t i;

	fprintf(f, "Options: a letter means one thing in every command taking it.\n");
	for (l = letters; l < letters + nr_letters; l++) {
		snprintf(spec, sizeof(spec), "-%c, --%s%s%s", l->c, l->name,
			 l->arg ? " " : "", l->arg ? l->arg : "");
		fprintf(f, "  %-20s %s: %s\n", spec, l->what,
			users(l->c, NULL, buf, sizeof(buf)));
	}
	fprintf(f, "      %-16s %s: %s\n", DRY_RUN, DRY_RUN_WHAT,
		users(0, DRY_RUN, buf, sizeof(buf)));
	fprintf(f, "\nOld names, still taken:");
	for (l = letters; l < letters + nr_letters; l++) {
		for (i = 0; i < ARRAY_SIZE(l->old) && l->old[i]; i++)
			fprintf(f, " --%s (-%c)", l->old[i], l->c);
	}
	fputc('\n', f);
}

void cmd_usage_head(FILE *f, const char *name)
{
	synopsis(f, "Usage: ", name, synopses(command(name)));
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
	for (i = 0; i < nr_commands; i++) {
		synopsis(f, "  ", commands[i].name, synopses(&commands[i]));
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
