/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rows.h - what the rows of the /proc tables share (rows.c).
 */
#ifndef _AIE_ROWS_H
#define _AIE_ROWS_H

#include "aie.h"

struct aie_line;
struct aie_site_sums;
struct aie_sym;

extern const char * const aie_type_names[];

bool aie_row_shown(struct aie_site *site);
bool aie_row_accurate(const struct aie_site *site);
void aie_row_tag(struct aie_line *l, struct aie_site *site,
		 struct aie_sym *sym);
void aie_row_fields(struct aie_line *l, struct aie_site *site,
		    const struct aie_site_sums *s, s64 peak);
void aie_row_nodes(struct aie_line *l, struct aie_site *site);
void aie_row_tag_named(struct aie_line *l, struct aie_site *site,
		       const struct aie_sym *sym, bool in_log);
const char *aie_row_func(const struct aie_sym *sym, const char *loc,
			 size_t *len);

#endif /* _AIE_ROWS_H */
