/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dwarf.h - file:line of a call site, from the DWARF of a vmlinux or a
 * module (.ko), through elfutils' libdw and libdwfl.
 */
#ifndef _AIE_TOOL_DWARF_H
#define _AIE_TOOL_DWARF_H

#include <stdbool.h>
#include <stddef.h>

struct dwarf_file;

enum dwarf_result {
	DWARF_OK,
	DWARF_NO_SYMBOL,	/* no function of that name */
	DWARF_AMBIGUOUS,	/* several, and the size tells none apart */
	DWARF_OUT_OF_RANGE,	/* the offset lies outside the function */
	DWARF_NO_LINE,		/* no line information for the address */
};

/* Open @path (vmlinux or a .ko, maybe compressed). NULL after a message. */
struct dwarf_file *dwarf_open(const char *path);
void dwarf_close(struct dwarf_file *f);

/* Its GNU build-id as hex; false when it has none. */
bool dwarf_build_id(struct dwarf_file *f, char *hex, size_t len);

/*
 * The source line of the call whose return address is @func + @off, in a
 * function kallsyms sized @size (the distance to the next symbol; 0 if
 * unknown). The line is that of the innermost inlined scope that is not
 * in a header (allocation wrappers such as kmalloc() are inline functions
 * in headers; the line wanted is where they were called), or the very
 * innermost with @innermost. File names are relative to the compilation
 * directory, and to the kernel's source tree (that of init/main.c), when
 * they lie below them, as the kernel's own tags are.
 * @src_func gets the function that line is written in ("" if the DWARF
 * names none): the kernel's tags name it, where kallsyms names the
 * function it was inlined into.
 */
enum dwarf_result dwarf_resolve(struct dwarf_file *f, const char *func,
				unsigned long off, unsigned long size,
				bool innermost, char *file, size_t len,
				unsigned int *line, char *src_func,
				size_t src_func_len);

const char *dwarf_result_name(enum dwarf_result r);

#endif /* _AIE_TOOL_DWARF_H */
