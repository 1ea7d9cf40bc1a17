/* SPDX-License-Identifier: GPL-2.0 */
/*
 * textout.h - text for a terminal: names from a table carry whatever
 * bytes the kernel or a file gave them, and a terminal takes control
 * characters as commands (an escape sequence can retitle the window,
 * move the cursor, hide what follows). The text outputs and the messages
 * write them as \xHH instead (text_clean(), util.h).
 */
#ifndef _AIE_TOOL_TEXTOUT_H
#define _AIE_TOOL_TEXTOUT_H

/*
 * From now on, stdout's text goes through text_clean(), a line at a time:
 * for the commands' text output, not for JSON, CSV or Prometheus (their
 * writers escape what their formats must). Errors are as stdout's.
 */
void text_stdout(void);

#endif /* _AIE_TOOL_TEXTOUT_H */
