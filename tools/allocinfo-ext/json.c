// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the pieces of JSON every command's --json writes: strings,
 * always valid UTF-8, and a site's key.
 */
#include <stdlib.h>

#include "json.h"
#include "util.h"

void json_string(FILE *f, const char *str)
{
	char *clean = utf8_clean(str), *s;

	fputc('"', f);
	for (s = clean; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
	free(clean);
}

void json_key_string(FILE *f, const char *key, const char *val)
{
	fprintf(f, "\"%s\": ", key);
	if (val && *val)
		json_string(f, val);
	else
		fputs("null", f);
}

void json_site_key(FILE *f, const struct site *s)
{
	unsigned int line;
	char *file = site_file(s, &line);

	json_key_string(f, "site", s->location);
	fputs(", ", f);
	json_key_string(f, "module", s->module);
	fputs(", ", f);
	json_key_string(f, "func", s->func);
	fputs(", ", f);
	json_key_string(f, "file", file);
	if (file)
		fprintf(f, ", \"line\": %u", line);
	else
		fputs(", \"line\": null", f);
	free(file);
}
