// SPDX-License-Identifier: GPL-2.0
/*
 * allocinfo-ext - read, compare, group, export and picture the kernel's
 * per-call-site memory figures of /proc/allocinfo_ext (the allocinfo_ext
 * module) or /proc/allocinfo (CONFIG_MEM_ALLOC_PROFILING), and give sites
 * their file:line from DWARF debug info.
 *
 * main.c: the command table and the top-level help.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "util.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *letters;	/* its getopt() letters, from letters[] */
	const char *args;	/* its synopses, one a line: the one source */
	const char *what;
};

/*
 * The option vocabulary: a letter means one thing in every command that
 * takes it, with one long name. "help options" prints it with the commands
 * taking each letter; the man page's OPTION LETTERS is that text, and the
 * host tests check every command's help and getopt() against it.
 */
struct letter {
	char c;
	const char *name;
	const char *arg;	/* NULL: it takes none */
	const char *what;
};

static const struct letter letters[] = {
	{ 'l', "lines", "N", "rows shown, at most" },
	{ 'n', "count", "N", "samples, rounds or runs" },
	{ 'd', "interval", "SEC", "seconds between samples, or of a capture" },
	{ 'j', "json", NULL, "JSON instead of the table" },
	{ 'o', "output", "FILE", "write to FILE" },
	{ 'a', "all", NULL, "unchanged sites too" },
	{ 'b', "batch", NULL, "plain text, no screen control" },
	{ 'f', "format", "FMT", "the output format" },
	{ 'i', "input", "FILE", "the sites from FILE" },
	{ 'm', "module", "NAME", "only the sites of module NAME" },
	{ 's', "sort", "KEY", "the sort key" },
	{ 'v', "verbose", NULL, "say more" },
	{ 'h', "help", NULL, "the command's help" },
};

static const struct command commands[] = {
	{ "top", cmd_top, "s:bjn:d:l:h", "[-s KEY] [-b] [-j] [-n N] [-d SEC] [-l N] [FILE]",
	  "live view of the sites, refreshed like top" },
	{ "snapshot", cmd_snapshot, "o:h", "[-o FILE] [--kernel REL] [--uptime SEC] [SOURCE]",
	  "a copy of the table with time, kernel, uptime, module version" },
	{ "diff", cmd_diff, "al:jh", "[-a] [-l N] [-j] [--exit-code] A B",
	  "per-site change from A to B, sorted by growth" },
	{ "group", cmd_group, "jh", "--by module|subsystem|function|file [-j] [FILE]",
	  "live figures summed per group" },
	{ "export", cmd_export, "f:o:h", "--format json|csv|prometheus [-o FILE] [FILE]\n"
	  "--format prometheus [--top N] [--min-bytes B] [--zeros] [--site-label] [-o FILE] [FILE]",
	  "the table for other programs" },
	{ "ctl", cmd_ctl, "+h", "[--dry-run] [--proc FILE] COMMAND...",
	  "control writes to /proc/allocinfo_ext" },
	{ "annotate", cmd_annotate, "i:vh",
	  "[--vmlinux FILE] [--module-dir DIR]... [-i FILE] [--proc FILE] [--dry-run] [--innermost] [-v]",
	  "give sites their file:line from DWARF debug info" },
	{ "report", cmd_report, "o:h", "-o FILE [--width W] [--height H] [SOURCE]",
	  "a treemap picture: subsystem, function, site" },
	{ "context", cmd_context, "d:jh", "[-d SEC [--depth N]] [--stacks FILE] [--calls FILE] [-j] SEL",
	  "who calls the selected sites: calls, bytes and share per caller" },
	{ "leaks", cmd_leaks, "d:n:jh", "[-d SEC] [-n N] [-j] [TABLE LIFETIMES]...",
	  "sites whose live bytes keep growing and oldest objects keep aging" },
	{ "ledger", cmd_ledger, "l:jh", "[-j] [-l N] [--root DIR] [--log FILE]",
	  "all kernel memory per meminfo category: call sites, named, unexplained" },
	{ "compare", cmd_compare, "m:l:jh", "--save-baseline FILE\n"
	  "--baseline FILE [-m NAME] [-l N] [-j] [--ours FILE] [--theirs FILE]",
	  "byte agreement with /proc/allocinfo, site by site and overall" },
	{ "query", cmd_query, "m:l:n:jvh",
	  "[-m NAME] [--function NAME] [--min-bytes B] [--inaccurate] [--via WAY] [-l N] [-j] [-v] [SOURCE]\n"
	  "--bench [-n N] [-m NAME] [--function NAME] [--min-bytes B] [--inaccurate] [SOURCE]",
	  "the rows that match, filtered by the kernel (its ioctls) or read as text" },
};

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

static const struct command *command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	}
	return NULL;
}

const char *cmd_letters(const char *name)
{
	return command(name)->letters;
}

/*
 * The vocabulary, each letter with the commands whose getopt() takes it.
 * Long-only options are each one command's own, but --dry-run (ctl,
 * annotate), which no letter abbreviates.
 */
static void letters_usage(FILE *f)
{
	const struct letter *l;
	char spec[32];
	size_t i, n;

	fprintf(f, "Options: a letter means one thing in every command taking it.\n");
	for (l = letters; l < letters + ARRAY_SIZE(letters); l++) {
		snprintf(spec, sizeof(spec), "-%c, --%s%s%s", l->c, l->name,
			 l->arg ? " " : "", l->arg ? l->arg : "");
		fprintf(f, "  %-20s %s:", spec, l->what);
		for (i = 0, n = 0; i < ARRAY_SIZE(commands); i++)
			n += !!strchr(commands[i].letters, l->c);
		for (i = 0; n < ARRAY_SIZE(commands) && i < ARRAY_SIZE(commands); i++) {
			if (strchr(commands[i].letters, l->c))
				fprintf(f, " %s", commands[i].name);
		}
		fprintf(f, "%s\n", n == ARRAY_SIZE(commands) ? " every command" : "");
	}
	fprintf(f, "      %-16s %s: ctl annotate\n", "--dry-run",
		"check and print, write nothing");
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
		"FILE and SOURCE default to /proc/allocinfo_ext, else /proc/allocinfo.\n\n"
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
		"  allocinfo-ext export --format prometheus -o /var/lib/prometheus/node-exporter/allocinfo.prom\n"
		"  allocinfo-ext ctl disable '[nf_conntrack]'\n"
		"  allocinfo-ext annotate                 file:line from linux-image-$(uname -r)-dbg\n"
		"  allocinfo-ext report -o memory.svg\n"
		"  allocinfo-ext context -d 10 func:xas_alloc   who calls xas_alloc\n"
		"  allocinfo-ext compare --baseline base.txt    side by side with /proc/allocinfo\n"
		"  allocinfo-ext leaks -d 60 -n 5         staleness leaks (lifetimes=1)\n"
		"  allocinfo-ext ledger                   who holds all kernel memory\n"
		"  allocinfo-ext query -m nf_conntrack --min-bytes 1048576\n\n"
		"'%s COMMAND --help' tells more; '%s help options' lists the\n"
		"option letters; man allocinfo-ext tells all.\n",
		AIE_TOOL_NAME, AIE_TOOL_NAME);
}

int cmd_usage_error(const char *cmd)
{
	fprintf(stderr, "Try '%s %s --help'.\n", AIE_TOOL_NAME, cmd);
	return AIE_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return AIE_EXIT_USAGE;
	}
	if (argc == 3 && !strcmp(argv[1], "help") &&
	    !strcmp(argv[2], "options")) {
		letters_usage(stdout);
		return stdout_close() ? AIE_EXIT_FAIL : 0;
	}
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
