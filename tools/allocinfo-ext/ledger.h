/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ledger.h - `allocinfo-ext ledger`: what the kernel's own files say
 * (ledger.c reads them), and the ledger made of it (ledger_cmd.c).
 */
#ifndef _AIE_TOOL_LEDGER_H
#define _AIE_TOOL_LEDGER_H

#include <stdbool.h>
#include <stddef.h>

#include "allocinfo_ext.h"
#include "table.h"

/* Per-cache figures of the module: live objects and bytes it tracks. */
#define LEDGER_CACHES_PROC	"/proc/" AIE_CACHES_PROC_NAME

/* A named part of memory: a slab cache, a vmalloc caller, a hash table. */
struct ledger_item {
	char *source;		/* "slabinfo", "vmallocinfo", "kernel log", ... */
	char *name;
	long long bytes;
	bool reclaimable;	/* a slab cache's SLAB_RECLAIM_ACCOUNT */
	long long tracked;	/* of it, what the module tracks (caches) */
	int cat;		/* enum ledger_cat_id, for the log's items */
};

struct ledger_list {
	struct ledger_item *e;
	size_t nr, cap;
};

enum ledger_mi {
	MI_TOTAL, MI_FREE, MI_ANON, MI_BUFFERS, MI_CACHED, MI_SWAPCACHED,
	MI_SRECL, MI_SUNRECL, MI_STACK, MI_PTABLES, MI_SECPTABLES,
	MI_VMALLOC, MI_PERCPU, MI_HUGETLB, MI_ZSWAP, MI_NR
};

/* What ledger.c read; absent figures are -1. */
struct ledger_src {
	const char *root;	/* prefix of /proc and /sys paths, "" */
	long page_size;
	long long mi[MI_NR];		/* bytes */
	struct ledger_list caches;	/* slabinfo, with the module's part */
	bool have_slabinfo, have_reclaim, have_cache_export;
	struct ledger_list vmalloc;	/* per caller */
	bool have_vmallocinfo, vmap_stack;
	struct ledger_list log;		/* hash tables after "Memory:" */
	struct table table;		/* /proc/allocinfo_ext or allocinfo */
	bool have_table;
	long long cache_export_other;	/* export's caches slabinfo lacks */
};

void ledger_list_add(struct ledger_list *l, const char *source,
		     const char *name, long long bytes);
void ledger_list_free(struct ledger_list *l);

/*
 * Read every source under @root ("" for the running system) and @log (a
 * saved kernel log, or NULL for the kernel's ring buffer). What cannot be
 * read or makes no sense is said on stderr, and left out. 0, or -1 when
 * /proc/meminfo does not give used memory, or /proc/slabinfo names caches
 * and /sys/kernel/slab is missing (whether each is reclaimable unknown).
 */
int ledger_read(struct ledger_src *s, const char *root, const char *log,
		bool log_given);
void ledger_src_free(struct ledger_src *s);

#endif /* _AIE_TOOL_LEDGER_H */
