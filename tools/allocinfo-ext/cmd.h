/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd.h - the commands of allocinfo-ext. Each takes its own argv (argv[0]
 * is the command's name), parses its options with getopt_long() and
 * returns the exit status.
 */
#ifndef _AIE_TOOL_CMD_H
#define _AIE_TOOL_CMD_H

#include <getopt.h>
#include <stdio.h>

int cmd_top(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_group(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_ctl(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_context(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_leaks(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_ledger(int argc, char **argv);
int cmd_cgroup(int argc, char **argv);

/*
 * "Usage: allocinfo-ext NAME ..." with every synopsis of the command, from
 * the one table the top-level help also prints, and an empty line.
 */
void cmd_usage_head(FILE *f, const char *name);

/*
 * getopt_long() for command @argv[0]: the options its table declares and
 * -h, each letter with its long and old names from the one vocabulary that
 * gives each letter one meaning in every command.
 */
int cmd_getopt(int argc, char **argv);

/*
 * An option of a command, declared once, in the command's table: its
 * getopt(), the argument its synopses show, its help line and the man
 * page's are all made from it. A letter of the vocabulary (cmdtab.c) has
 * its long name and argument there: CMD_LETTER. A long-only option has
 * its getopt_long() value, name and argument (NULL: none) here: CMD_LONG.
 */
struct cmd_option {
	int val;
	const char *name;	/* a long-only option's, else NULL */
	const char *arg;	/* a long-only option's placeholder, or NULL */
	const char *what;	/* '\n' continues it on the next line */
};

#define CMD_LETTER(c, w)		{ .val = (c), .what = (w) }
#define CMD_LONG(v, n, a, w)	{ .val = (v), .name = (n), .arg = (a), .what = (w) }

/*
 * The option lines of @name's help, and an empty line: each option's words
 * from the vocabulary (a letter) or its table (a long-only option),
 * aligned. The man page's are the same ("help man").
 */
void cmd_options(FILE *f, const char *name);

/*
 * Each command's options, ended by { 0 }: cmdtab.c's command table points
 * at them, for its getopt(), its synopses, its help and the man page alike.
 */
extern const struct cmd_option annotate_options[];
extern const struct cmd_option cgroup_options[];
extern const struct cmd_option compare_options[];
extern const struct cmd_option context_options[];
extern const struct cmd_option ctl_options[];
extern const struct cmd_option diff_options[];
extern const struct cmd_option export_options[];
extern const struct cmd_option group_options[];
extern const struct cmd_option leaks_options[];
extern const struct cmd_option ledger_options[];
extern const struct cmd_option query_options[];
extern const struct cmd_option report_options[];
extern const struct cmd_option snapshot_options[];
extern const struct cmd_option top_options[];

/* "Try 'allocinfo-ext <cmd> --help'." and the usage exit status. */
int cmd_usage_error(const char *cmd);

#endif /* _AIE_TOOL_CMD_H */
