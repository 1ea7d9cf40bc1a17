/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmdtab.h - the command table and the option vocabulary (cmdtab.c), for
 * main.c's getopt() and help texts and man.c's man page.
 */
#ifndef _AIE_TOOL_CMDTAB_H
#define _AIE_TOOL_CMDTAB_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	bool in_order;		/* options end at the first word (ctl's words) */
	/*
	 * Its synopses, one a line, naming its options without their
	 * argument: synopses() adds it from the vocabulary or the table;
	 * "--format=json|csv" shows those words as its argument instead.
	 */
	const char *args;
	const char *what;
	const struct cmd_option *options;	/* its options, declared once */
};

/*
 * The option vocabulary: a letter means one thing in every command that
 * takes it, with one long name (and old names, still taken). A command
 * takes -h and the letters and long-only options its table declares
 * (cmd.h's struct cmd_option). Its getopt() (cmd_getopt()), its synopses
 * (synopses()), its option lines (cmd_options()), "help options" and the
 * man page's SYNOPSIS and each command's options ("help man", man.c) are
 * all made from this table and the commands'.
 */
struct letter {
	char c;
	const char *name;
	const char *arg;	/* NULL: it takes none */
	const char *what;
	const char *old[2];	/* earlier long names, still taken */
};

/* The one long-only option of more than one command (ctl, annotate). */
#define DRY_RUN		"--dry-run"
#define DRY_RUN_WHAT	"check and print, write nothing"

extern const struct letter letters[];
extern const struct command commands[];
extern const size_t nr_letters, nr_commands;

const struct command *command(const char *name);
const struct letter *letter(int c);

/* @cmd takes letter @c: -h, or its table declares it. */
bool takes(const struct command *cmd, char c);

/*
 * The synopses of @cmd, one a line, each option with its argument; a
 * synopsis that names an option its table does not declare stops the
 * program (a bug of the tables, which the tests catch).
 */
const char *synopses(const struct command *cmd);

/*
 * The commands taking letter @c, or the long-only option @opt ("--dry-run")
 * when @c is 0 ("every command" when all do), in @buf.
 */
const char *users(char c, const char *opt, char *buf, size_t size);

/*
 * An option's words for its help line: "-l, --lines N" from the
 * vocabulary, or "    --depth N" from the command's table.
 */
void option_spec(const struct command *cmd, int val, char *spec, size_t size);

/* "help man": the man page from standard input, its sections made anew. */
int man_page(void);

#endif /* _AIE_TOOL_CMDTAB_H */
