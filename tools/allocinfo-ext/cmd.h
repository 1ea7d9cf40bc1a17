/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd.h - the commands of allocinfo-ext. Each takes its own argv (argv[0]
 * is the command's name), parses its options with getopt_long() and
 * returns the exit status.
 */
#ifndef _AIE_TOOL_CMD_H
#define _AIE_TOOL_CMD_H

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
 * The command's getopt() option letters, from the one table whose
 * vocabulary gives each letter one meaning in every command.
 */
const char *cmd_letters(const char *name);

/* "Try 'allocinfo-ext <cmd> --help'." and the usage exit status. */
int cmd_usage_error(const char *cmd);

#endif /* _AIE_TOOL_CMD_H */
