// SPDX-License-Identifier: GPL-2.0
/*
 * table_fuzz - libFuzzer harness for the tool's table reader,
 * tools/allocinfo-ext/parse.c, compiled unchanged: both formats, snapshot
 * heads, saved kernel logs read as their last OOM report (oomlog.c).
 * Under ASan and UBSan an input is refused, with a message, or read; a
 * table read keeps the parser's promise (the live bytes of its sites add
 * up to at most 2^61 in absolute value), and goes through the Prometheus
 * writer (prom.c) and the terminal cleaner (textout.c) without a fault.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "table.h"
#include "textout.h"
#include "util.h"

static FILE *devnull;
static char msg[512];	/* the last message, kept from stderr */

static void clean(const char *s)
{
	free(text_clean(s, strlen(s)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prom_opts po = { .top = -1, .min_bytes = LLONG_MIN, .zeros = true };
	char *text = malloc(size + 1);
	unsigned long long sum = 0;
	struct table t;
	size_t i;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	memcpy(text, data, size);
	text[size] = '\0';
	msg[0] = '\0';
	aie_err_capture(msg, sizeof(msg));
	if (table_parse(&t, "fuzz", text, size)) {
		if (!msg[0])
			abort();	/* refused without a word */
		table_free(&t);
		return 0;
	}
	for (i = 0; i < t.nr; i++) {
		sum += t.sites[i].bytes < 0 ? -(unsigned long long)t.sites[i].bytes :
		       (unsigned long long)t.sites[i].bytes;
		if (sum > AIE_SUM_MAX)
			abort();
		clean(t.sites[i].location);
		clean(t.sites[i].func);
		clean(t.sites[i].module);
	}
	po.site_label = size & 1;
	export_prometheus(devnull, &t, &po);
	table_free(&t);
	return 0;
}
