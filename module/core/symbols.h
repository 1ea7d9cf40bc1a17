/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbols.h - naming a call site through kallsyms (symbols.c).
 */
#ifndef _AIE_SYMBOLS_H
#define _AIE_SYMBOLS_H

#include <linux/kallsyms.h>
#include <linux/types.h>

#include "aie.h"

/* A call site as kallsyms names it. Pointers point into @buf. */
struct aie_sym {
	char buf[KSYM_SYMBOL_LEN];
	const char *func;		/* NUL-terminated function name */
	const char *module;		/* module name, or NULL for built-in */
	size_t func_len;		/* their lengths */
	size_t module_len;
	const char *tag;		/* a kept name's rendered tag, or NULL */
	unsigned int tag_head, tag_len;	/* see struct aie_site_name */
	unsigned long offset;		/* call site - function start */
	unsigned long size;		/* function size */
	bool known;			/* false: no symbol covers the address */
};

void aie_sym_resolve(unsigned long call_site, struct aie_sym *sym);
void aie_site_name(const struct aie_site *site, struct aie_sym *sym);
void aie_site_name_read(struct aie_site *site, struct aie_sym *sym);
struct aie_site_name *aie_site_name_copy(const struct aie_sym *sym);
int aie_syms_init(void);
void aie_syms_exit(void);
size_t aie_syms_memory(void);
struct aie_sym *aie_sym_scratch(void);

#endif /* _AIE_SYMBOLS_H */
