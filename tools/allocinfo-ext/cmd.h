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

/*
 * "Usage: allocinfo-ext NAME ..." with every synopsis of the command, from
 * the one table the top-level help also prints, and an empty line.
 */
void cmd_usage_head(FILE *f, const char *name);

/*
 * getopt_long() for command @argv[0]: the letters its synopses name and -h,
 * with their long names from the one vocabulary that gives each letter one
 * meaning in every command, and its long-only options.
 */
int cmd_getopt(int argc, char **argv);

/* A line of a command's help: an option's getopt() value and what it does. */
struct cmd_option {
	int val;
	const char *what;	/* '\n' continues it on the next line */
};

/*
 * The option lines of @name's help, and an empty line: each option's words
 * come from the vocabulary (a letter) or from its long-only options and
 * the synopses (a long-only option), aligned. The man page's are the same
 * ("help man").
 */
void cmd_options(FILE *f, const char *name);

/*
 * Each command's long-only options (getopt_long()'s, ended by { NULL })
 * and its option lines (ended by { 0 }): cmdtab.c's command table points at
 * them, for its getopt(), its help and the man page alike.
 */
extern const struct option annotate_opts[];
extern const struct cmd_option annotate_option_help[];
extern const struct option compare_opts[];
extern const struct cmd_option compare_option_help[];
extern const struct option context_opts[];
extern const struct cmd_option context_option_help[];
extern const struct option ctl_opts[];
extern const struct cmd_option ctl_option_help[];
extern const struct option diff_opts[];
extern const struct cmd_option diff_option_help[];
extern const struct option export_opts[];
extern const struct cmd_option export_option_help[];
extern const struct option group_opts[];
extern const struct cmd_option group_option_help[];
extern const struct cmd_option leaks_option_help[];
extern const struct option ledger_opts[];
extern const struct cmd_option ledger_option_help[];
extern const struct option query_opts[];
extern const struct cmd_option query_option_help[];
extern const struct option report_opts[];
extern const struct cmd_option report_option_help[];
extern const struct option snapshot_opts[];
extern const struct cmd_option snapshot_option_help[];
extern const struct cmd_option top_option_help[];

/* "Try 'allocinfo-ext <cmd> --help'." and the usage exit status. */
int cmd_usage_error(const char *cmd);

#endif /* _AIE_TOOL_CMD_H */
