/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - where -o writes: standard output for "-", a regular file
 * replaced atomically, anything else (a device, a FIFO) written in place.
 */
#ifndef _AIE_TOOL_OUTPUT_H
#define _AIE_TOOL_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write all of @buf to @path: "-" is standard output; a symlink is
 * followed to what it names; a regular file, or none yet, is replaced
 * through a temporary file beside it, fsync'ed and renamed over it (its
 * mode and owner kept); anything else is written in place. 0, or -1 with
 * errno set.
 */
int write_output(const char *path, const char *buf, size_t len);

/*
 * Output to stdout (path NULL or "-"), or gathered in memory and written
 * by write_output() when output_close() succeeds: a reader never sees
 * half a file, and a refused table writes nothing.
 */
struct output {
	FILE *f;
	const char *path;
	char *buf;
	size_t len;
};

void output_open(struct output *o, const char *path);
int output_close(struct output *o);

#endif /* _AIE_TOOL_OUTPUT_H */
