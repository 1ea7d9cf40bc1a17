/* SPDX-License-Identifier: GPL-2.0 */
/* json.h - what the JSON writers of the commands share. */
#ifndef _AIE_TOOL_JSON_H
#define _AIE_TOOL_JSON_H

#include <stdio.h>

#include "table.h"

/*
 * @s as a JSON string: quoted, escaped, a byte that is not UTF-8 written
 * as U+FFFD. json_key_string() writes "key": "value", or null for a NULL
 * or empty @val.
 */
void json_string(FILE *f, const char *s);
void json_key_string(FILE *f, const char *key, const char *val);

/*
 * A site as every command's JSON rows name it (Documentation/format.rst,
 * "JSON rows"): "site": its location, "module": ... or null, "func": ...,
 * "file" and "line" of a file:line location, else null.
 */
void json_site_key(FILE *f, const struct site *s);

#endif /* _AIE_TOOL_JSON_H */
