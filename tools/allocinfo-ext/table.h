/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - a table of allocation sites as read from /proc/allocinfo_ext,
 * /proc/allocinfo, or a snapshot of either.
 *
 * A site is known by its key: location, module and function. Strings of
 * a site point into its own copy of the row's tag (site->text).
 */
#ifndef _AIE_TOOL_TABLE_H
#define _AIE_TOOL_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#define AIE_PROC_EXT	"/proc/allocinfo_ext"
#define AIE_PROC_KERNEL	"/proc/allocinfo"
#define AIE_PROC_CGROUPS	"/proc/allocinfo_ext_cgroups"

/*
 * The largest sum, in absolute value, of one figure over the rows of a
 * table (2 EiB of live bytes): a larger table is refused when parsed, so
 * that sums and differences of figures of up to three tables fit.
 */
#define AIE_SUM_MAX	(1ULL << 61)

enum table_format {
	TABLE_EXT,	/* allocinfo_ext - version: 1.x */
	TABLE_KERNEL,	/* allocinfo - version: 1.x */
};

/* Node ids a table may name (MAX_NUMNODES is at most 1024). */
#define AIE_MAX_NODES	1024

/* Format 1.4: node<id>:<bytes>, live bytes on NUMA node id. */
struct site_node {
	unsigned int id;
	long long bytes;
};

struct site {
	long long bytes;	/* live bytes */
	long long calls;	/* live calls */
	const char *location;	/* file:line, function+0xoff/0xsize, ... */
	const char *module;	/* "" for built-in code */
	const char *func;
	const char *type;	/* "" in the kernel's format */
	long long slack, total_calls, total_bytes, peak, failed;
	bool disabled;
	bool unloaded;		/* format 1.1: its module is gone */
	bool inaccurate;	/* "accurate:no": ext 1.3, the kernel's 2.0 */
	bool has_accounted;	/* format 1.2: accounted is given */
	long long accounted;	/* live bytes accounted to a memory cgroup */
	struct site_node *nodes;	/* as the row gives them, or NULL */
	unsigned int nr_nodes;
	const char *cgroup;	/* the cgroups file's: its path, unescaped */
	bool removed;		/* the cgroups file's: that cgroup is gone */
	unsigned int lineno;	/* line of the input it came from */
	char *text;		/* owns the strings above */
};

/* "# key: value" lines at the head of a snapshot. */
struct table_meta {
	char *time;
	char *kernel;
	char *uptime;
	char *module_version;
	char *source;
};

struct table {
	char *name;		/* where it was read from, for messages */
	enum table_format format;
	int major, minor;
	struct table_meta meta;
	struct site *sites;
	size_t nr, cap;
	unsigned int node_ids;	/* highest node id of any row + 1; 0: none */
	bool cgroups;		/* /proc/allocinfo_ext_cgroups: a row per pair */
	char *raw;		/* the text read, NUL-terminated */
	size_t raw_len;
};

/*
 * Parse @text (NUL-terminated, @len bytes; the table keeps it). Returns 0,
 * or -1 after printing "<name>:<line>: <what is wrong>".
 */
int table_parse(struct table *t, const char *name, char *text, size_t len);

/*
 * table_parse(), of the cgroups file (@cgroups) or of a table: each
 * refuses the other, naming the commands that read it.
 */
int table_parse_as(struct table *t, const char *name, char *text, size_t len,
		   bool cgroups);

/* Read @path (NULL: the default source) and parse it. 0 or -1. */
int table_load(struct table *t, const char *path);

/*
 * The running module's version for a table of @t's format: its
 * MODULE_VERSION, else its build-id, else "unknown"; for the kernel's
 * format, "none (in-kernel profiler)".
 */
void table_module_version(const struct table *t, char *buf, size_t len);

/*
 * table_load(), then, unless @module is NULL, only the sites of module
 * @module kept ("vmlinux": those of built-in code), as if the table had
 * no others.
 */
int table_load_module(struct table *t, const char *path, const char *module);

/* The cgroups file at @path (NULL: AIE_PROC_CGROUPS), loaded. 0 or -1. */
int table_load_cgroups(struct table *t, const char *path);

/* Only the sites of module @module kept ("vmlinux": built-in); NULL: all. */
void table_keep_module(struct table *t, const char *module);

void table_free(struct table *t);

/* The source read when none is given, or NULL (with a message). */
const char *table_default_source(void);

const char *table_format_name(enum table_format f);

/* Order by key: location, module, function. */
int site_key_cmp(const struct site *a, const struct site *b);

/*
 * The source file and line of a site located at "file:line"; false for a
 * function+offset or unknown location. @file gets the file name.
 */
bool site_file_line(const struct site *s, char *file, size_t len,
		    unsigned int *line);

/*
 * The file of @s's file:line location, a new string, whatever its length,
 * and its line in *@line; NULL when the location is no file:line.
 */
char *site_file(const struct site *s, unsigned int *line);

/*
 * The subsystem: the first directory of the site's file in the kernel
 * tree (drivers/<x> and arch/<x> keep two), or else its module, or
 * "vmlinux".
 */
void site_subsystem(const struct site *s, char *buf, size_t len);

/* "<location> [<module>] func:<name>", as the table prints the tag. */
void site_tag(const struct site *s, char *buf, size_t len);

/* Sum of live bytes of all sites. */
long long table_total_bytes(const struct table *t);

#endif /* _AIE_TOOL_TABLE_H */
