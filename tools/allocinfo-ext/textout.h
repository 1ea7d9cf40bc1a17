/* SPDX-License-Identifier: GPL-2.0 */
/*
 * textout.h - text for a terminal: names from a table carry whatever
 * bytes the kernel or a file gave them, and a terminal takes control
 * characters as commands (an escape sequence can retitle the window,
 * move the cursor, hide what follows). The text outputs and the messages
 * write them as \xHH instead.
 */
#ifndef _AIE_TOOL_TEXTOUT_H
#define _AIE_TOOL_TEXTOUT_H

#include <stddef.h>

/*
 * A copy of the @len bytes at @s where each control character but a line
 * feed and a tab (C0, DEL, and C1 as UTF-8 U+0080 to U+009F) and each byte
 * that is not part of UTF-8 is written "\xHH".
 */
char *text_clean(const char *s, size_t len);

/*
 * From now on, stdout's text goes through text_clean(), a line at a time:
 * for the commands' text output, not for JSON, CSV or Prometheus (their
 * writers escape what their formats must). Errors are as stdout's.
 */
void text_stdout(void);

#endif /* _AIE_TOOL_TEXTOUT_H */
