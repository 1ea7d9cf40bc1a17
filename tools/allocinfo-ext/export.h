/* SPDX-License-Identifier: GPL-2.0 */
/* export.h - the Prometheus writer, apart from JSON and CSV in export.c. */
#ifndef _AIE_TOOL_EXPORT_H
#define _AIE_TOOL_EXPORT_H

#include <stdio.h>

#include "table.h"

/*
 * @s as a JSON string: quoted, escaped, a byte that is not UTF-8 written
 * as U+FFFD. json_key_string() writes "key": "value", or null for a NULL
 * or empty @val.
 */
void json_string(FILE *f, const char *s);
void json_key_string(FILE *f, const char *key, const char *val);

/* Text exposition format 0.0.4, one series per label set. */
void export_prometheus(FILE *f, const struct table *t);

#endif /* _AIE_TOOL_EXPORT_H */
