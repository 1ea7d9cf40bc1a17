/* SPDX-License-Identifier: GPL-2.0 */
/* export.h - the Prometheus writer, apart from JSON and CSV in export.c. */
#ifndef _AIE_TOOL_EXPORT_H
#define _AIE_TOOL_EXPORT_H

#include <stdio.h>

#include "table.h"

/* Text exposition format 0.0.4, one series per label set. */
void export_prometheus(FILE *f, const struct table *t);

#endif /* _AIE_TOOL_EXPORT_H */
