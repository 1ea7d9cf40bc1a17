// SPDX-License-Identifier: GPL-2.0
/*
 * man.c - `allocinfo-ext help man`: the man page's SYNOPSIS and each
 * command's option lines, written in troff from cmdtab.c's tables, the ones
 * its usages and help texts are made of. The letters' vocabulary is left
 * to "help options": each command's own list says what its letters do.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmdtab.h"
#include "util.h"

/* @s for troff: '-' as "\-", '\' as "\e". */
static void troff_puts(FILE *f, const char *s, size_t n)
{
	for (; n && *s; s++, n--) {
		if (*s == '-' || *s == '\\')
			fputs(*s == '-' ? "\\-" : "\\e", f);
		else
			fputc(*s, f);
	}
}

/*
 * The bracket at @w, when it holds one option and its argument, if any
 * ("[-s KEY]", "[--zeros]", not "[-d SEC [--depth N]]" or "[--x DIR]..."):
 * its length, else 0.
 */
static size_t simple_option(const char *w, const char *end)
{
	const char *close = memchr(w, ']', end - w);
	size_t n;

	if (!close || w[1] != '-' || (close + 1 < end && close[1] != ' '))
		return 0;
	n = strcspn(w + 1, " [");
	if (w + 1 + n < close && (w[1 + n] == '[' ||
				  memchr(w + 2 + n, ' ', close - w - 2 - n) ||
				  memchr(w + 2 + n, '[', close - w - 2 - n)))
		return 0;
	return close + 1 - w;
}

/*
 * One synopsis line in troff: an optional option and its argument as .OP,
 * the rest as text: options and literal words bold, placeholders (capitals)
 * italic, spaces inside brackets unbreakable.
 */
static void troff_synopsis(FILE *f, const char *name, const char *line,
			   const char *end)
{
	bool text = false, space = false;	/* in a text line; a space due */
	const char *w;
	int depth = 0;
	size_t n;

	fprintf(f, ".SY \"%s %s\"\n", AIE_TOOL_NAME, name);
	for (w = line; w < end; w += n) {
		n = *w == '[' && !depth ? simple_option(w, end) : 0;
		if (n) {
			if (text)
				fputc('\n', f);
			text = space = false;
			fputs(".OP ", f);
			troff_puts(f, w + 1, n - 2);
			fputc('\n', f);
			continue;
		}
		n = strcspn(w, " []|.\n");
		if (w + n > end)
			n = end - w;
		if (*w == ' ' && !depth) {
			space = text;	/* written before the next word */
			n = 1;
			continue;
		}
		if (space)
			fputc(' ', f);
		text = true;
		space = false;
		if (!n) {
			n = *w == '.' ? strspn(w, ".") : 1;
			if (*w == ' ')
				fputs(depth ? "\\ " : " ", f);
			else
				fprintf(f, "%.*s", (int)n, w);
			depth += *w == '[' ? 1 : *w == ']' ? -1 : 0;
			continue;
		}
		fputs(*w >= 'A' && *w <= 'Z' ? "\\fI" : "\\fB", f);
		troff_puts(f, w, n);
		fputs("\\fR", f);
	}
	fputs(text ? "\n.YS\n" : ".YS\n", f);
}

/*
 * The option lines of @cmd's help in troff, one .TP each: options bold
 * (.B), a placeholder italic (.BI), what they do as one line.
 */
static void troff_options(FILE *f, const struct command *cmd)
{
	const struct cmd_option *p;
	const char *w, *arg, *what, *nl;
	char spec[96];

	for (p = cmd->options; p->val; p++) {
		option_spec(cmd, p->val, spec, sizeof(spec));
		w = spec + strspn(spec, " ");
		arg = strrchr(w, ' ');
		arg = arg && arg[1] >= 'A' && arg[1] <= 'Z' ? arg + 1 : NULL;
		fputs(arg ? ".TP\n.BI \"" : ".TP\n.B \"", f);
		troff_puts(f, w, arg ? (size_t)(arg - w) : strlen(w));
		fputc('"', f);
		if (arg)
			fprintf(f, " %s", arg);
		fputc('\n', f);
		for (what = p->what; (nl = strchr(what, '\n')); what = nl + 1) {
			troff_puts(f, what, nl - what);
			fputc(' ', f);
		}
		troff_puts(f, what, strlen(what));
		fputc('\n', f);
	}
}

static void troff_section(FILE *f, const char *section)
{
	const char *line, *end;
	size_t i;

	if (!strncmp(section, "OPTIONS ", 8)) {
		troff_options(f, command(section + 8));
		return;
	}
	for (i = 0; i < nr_commands; i++) {
		for (line = synopses(&commands[i]); *line;
		     line = *end ? end + 1 : end) {
			end = line + strcspn(line, "\n");
			troff_synopsis(f, commands[i].name, line, end);
		}
	}
}

/*
 * The man page from standard input, with what follows each line
 * '.\" generated: SECTION' up to '.\" end generated' made anew: SECTION
 * is SYNOPSIS, or OPTIONS and a command (its help's option lines).
 */
int man_page(void)
{
	static const char begin[] = ".\\\" generated: ", end[] = ".\\\" end generated\n";
	char line[1024];
	bool skip = false;

	while (fgets(line, sizeof(line), stdin)) {
		if (skip) {
			skip = strcmp(line, end);
			continue;
		}
		fputs(line, stdout);
		skip = !strncmp(line, begin, strlen(begin));
		if (!skip)
			continue;
		line[strcspn(line, "\n")] = 0;
		if (strcmp(line + strlen(begin), "SYNOPSIS") &&
		    (strncmp(line + strlen(begin), "OPTIONS ", 8) ||
		     !command(line + strlen(begin) + 8))) {
			aie_err("unknown generated section \"%s\"", line + strlen(begin));
			return AIE_EXIT_FAIL;
		}
		troff_section(stdout, line + strlen(begin));
		fputs(end, stdout);
	}
	if (skip) {
		aie_err("no '.\\\" end generated' line");
		return AIE_EXIT_FAIL;
	}
	return stdout_close() ? AIE_EXIT_FAIL : 0;
}
