/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie.h - the module's internal interfaces.
 *
 * hooks.c    probes on the allocator; calls into sites.c and objmap.c only
 * sites.c    the site table: call site -> counters, lock-free lookup
 * objmap.c   the object map: live pointer -> (site, bytes, slack)
 * rules.c    enable/disable selectors and the control-word parser
 * symbols.c  naming a call site through kallsyms
 * proc.c     /proc/allocinfo_ext and /proc/allocinfo_ext_stats
 * capture.c  call stacks of chosen sites, /proc/allocinfo_ext_stacks*
 */
#ifndef _AIE_H
#define _AIE_H

#include <linux/atomic.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/jump_label.h>
#include <linux/types.h>

#include <allocinfo_ext.h>

enum aie_type {
	AIE_TYPE_SLAB,
	AIE_TYPE_PAGE,
	AIE_TYPE_VMALLOC,
	AIE_TYPE_PERCPU,
};

/* Bits of aie_site.flags. */
enum {
	AIE_SITE_PUBLISHED,	/* reachable through the hash */
	AIE_SITE_DISABLED,	/* records no new allocations */
	AIE_SITE_INTERNAL,	/* inside an allocator: events ignored */
	AIE_SITE_HELPER,	/* inside a helper: charge its caller */
	AIE_SITE_UNLOADED,	/* its module is gone: named by ->name */
	AIE_SITE_CAPTURE_SEEN,	/* capture.c decided on it */
	AIE_SITE_CAPTURE,	/* capture.c records its stacks */
};

/* The name of a site whose module unloaded, copied before it went. */
struct aie_site_name {
	unsigned long offset;
	unsigned long size;
	const char *module;		/* points into func[] */
	char func[];
};

/*
 * One allocation call site. Counters are atomic: hooks on every CPU update
 * them without a lock; readers see each counter whole, not the row as one
 * snapshot.
 */
struct aie_site {
	unsigned long call_site;	/* return address of the allocation */
	unsigned long flags;		/* AIE_SITE_* bits */
	const char __rcu *location;	/* "file:line" from "locate", or NULL */
	const struct aie_site_name *name; /* set before AIE_SITE_UNLOADED */
	atomic64_t live_bytes;
	atomic64_t live_calls;
	atomic64_t live_slack;
	atomic64_t total_calls;
	atomic64_t total_bytes;
	atomic64_t peak;
	atomic64_t failed;
	u8 type;			/* enum aie_type */
};

/*
 * What the object map keeps for each live tracked object. Sizes are in
 * bytes for slab and percpu sites, in pages for page and vmalloc sites.
 */
struct aie_obj {
	u32 site;			/* index into the site table */
	u32 size;			/* allocated: slot size, or pages */
	u32 slack;			/* bytes allocated - bytes requested */
};

/* Module-wide event counts, per CPU, summed on read. */
struct aie_stats {
	unsigned long untracked;	/* object map full: allocation not tracked */
	unsigned long sites_full;	/* site table full: allocation not tracked */
	unsigned long unmatched_frees;	/* free of an object we never tracked */
	unsigned long replaced;		/* object reused before its free was seen */
	unsigned long internal;		/* events inside allocators, ignored */
	unsigned long disabled;		/* allocations at disabled sites */
	unsigned long helper_fallbacks;	/* helper's caller not found */
};

DECLARE_PER_CPU(struct aie_stats, aie_stats);

#define aie_count(field)	this_cpu_inc(aie_stats.field)

/* A call site as kallsyms names it. Pointers point into @buf. */
struct aie_sym {
	char buf[KSYM_SYMBOL_LEN];
	const char *func;		/* NUL-terminated function name */
	const char *module;		/* module name, or NULL for built-in */
	unsigned long offset;		/* call site - function start */
	unsigned long size;		/* function size */
	bool known;			/* false: no symbol covers the address */
};

/* module parameters (main.c) */
extern unsigned int aie_max_sites;
extern unsigned long aie_max_objects;
extern unsigned int aie_max_stacks;

/* sites.c */
int aie_sites_init(unsigned int capacity);
void aie_sites_exit(void);
struct aie_site *aie_site_get(unsigned long call_site, enum aie_type type);
struct aie_site *aie_site_lookup(unsigned long call_site, enum aie_type type);
struct aie_site *aie_site_at(u32 idx);
u32 aie_site_index(const struct aie_site *site);
u32 aie_sites_nr(void);
u32 aie_sites_capacity(void);
size_t aie_sites_memory(void);
void aie_site_charge(struct aie_site *site, u64 bytes, u32 slack);
void aie_site_uncharge(struct aie_site *site, u64 bytes, u32 slack);
void aie_sites_reset(void);

/* What aie_sites_retire() found: the sites of a module that unloads. */
struct aie_retired {
	unsigned int sites;
	s64 live_calls;
	s64 live_bytes;
};

void aie_sites_retire(struct module *mod, struct aie_retired *r);

/* objmap.c */
int aie_objmap_init(unsigned long capacity);
void aie_objmap_exit(void);
bool aie_objmap_insert(const void *ptr, const struct aie_obj *obj,
		       struct aie_obj *old, bool *had_old);
bool aie_objmap_remove(const void *ptr, struct aie_obj *out);
unsigned long aie_objmap_count(void);
unsigned long aie_objmap_capacity(void);
size_t aie_objmap_memory(void);

/* modules.c */
int aie_modules_init(void);
void aie_modules_exit(void);

/* rules.c */
struct aie_sel;
bool aie_sel_match(const struct aie_sel *sel, const struct aie_sym *sym,
		   const char *location);
void aie_rules_lock(void);
void aie_rules_unlock(void);
int aie_rules_init(void);
void aie_rules_exit(void);
bool aie_rules_site_disabled(struct aie_site *site, const struct aie_sym *sym);
int aie_ctl_write(const char *buf, size_t len);
size_t aie_rules_memory(void);

/* symbols.c */
void aie_sym_resolve(unsigned long call_site, struct aie_sym *sym);
void aie_site_name(const struct aie_site *site, struct aie_sym *sym);
struct aie_site_name *aie_site_name_copy(const struct aie_sym *sym);
struct aie_sym *aie_sym_scratch(void);

/* callers.c */
int aie_callers_classify(const struct aie_sym *sym);
struct aie_site *aie_callers_resolve(struct aie_site *site);

/* hooks.c: what every hook shares */
void aie_track_alloc(unsigned long call_site, enum aie_type type,
		     const void *key, u64 bytes, u64 req);
void aie_track_failed(unsigned long call_site, enum aie_type type);
void aie_track_free(const void *key);
struct tracepoint *aie_tracepoint_find(const char *name);
int aie_hooks_select(const char *list);
int aie_hooks_register(void);
void aie_hooks_unregister(void);
void aie_hooks_show(struct seq_file *m);

/* hooks_slab.c, hooks_page.c, hooks_vmalloc.c, hooks_percpu.c */
int aie_slab_hooks_register(void);
void aie_slab_hooks_unregister(void);
bool aie_slab_bulk_hooked(void);
int aie_page_hooks_register(void);
void aie_page_hooks_unregister(void);
unsigned long aie_page_hooks_missed(void);
int aie_vmalloc_hooks_register(void);
void aie_vmalloc_hooks_unregister(void);
unsigned long aie_vmalloc_hooks_missed(void);
int aie_percpu_hooks_register(void);
void aie_percpu_hooks_unregister(void);

/* capture.c: aie_capture_alloc() only when aie_capture_on() */
DECLARE_STATIC_KEY_FALSE(aie_capture_key);

static inline bool aie_capture_on(void)
{
	return static_branch_unlikely(&aie_capture_key);
}

void aie_capture_alloc(struct aie_site *site, u64 bytes);
int aie_capture_start(const struct aie_sel *sel, unsigned int depth);
void aie_capture_stop(void);
void aie_capture_show(struct seq_file *m);
size_t aie_capture_memory(void);
int aie_capture_init(void);
void aie_capture_exit(void);

/* proc.c */
int aie_proc_init(void);
void aie_proc_exit(void);

#endif /* _AIE_H */
