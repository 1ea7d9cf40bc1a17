/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie_helper.h - what the files of the helper module share: the table of
 * kinds (aie_helper_kinds.c), and the functions each file makes
 * allocations with, by what it allocates:
 *
 *	aie_helper_core.c	module init/exit, the control file
 *	aie_helper_kinds.c	the table of kinds
 *	aie_helper_slab.c	kmalloc() and friends
 *	aie_helper_cache.c	the private kmem_caches
 *	aie_helper_pages.c	the page allocator
 *	aie_helper_vmalloc.c	vmalloc()
 *	aie_helper_callers.c	helpers that allocate on their caller's
 *				behalf, and chains of callers into one site
 *	aie_helper_percpu.c	the percpu allocator
 *	aie_helper_sites.c	many call sites in one function
 *	aie_helper_storm.c	allocations on every CPU at once
 *	aie_helper_nodes.c	allocations on NUMA node 0 or 1
 *	aie_helper_mass.c	millions of objects from two call sites
 *	aie_helper_nmi.c	from NMI handlers: the nolock allocators
 *
 * Each allocation function is noinline, with one allocation call in it, so
 * that its call site is a row of its own named after it.
 */
#ifndef AIE_HELPER_H
#define AIE_HELPER_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "aie_helper_compat.h"

struct page;
struct seq_file;

#define AIE_HELPER_MAX_HELD	4096
#define AIE_HELPER_LARGE	(3 * PAGE_SIZE + 1)
#define AIE_HELPER_HUGE		(8UL << 20)	/* above KMALLOC_MAX_SIZE */
#define AIE_HELPER_OBJ_SIZE	200

/* Always fails, silently: larger than the largest percpu allocation. */
#define AIE_HELPER_PERCPU_TOO_BIG	(64 << 10)
/* The largest percpu allocation (PCPU_MIN_UNIT_SIZE): 8 pages per CPU. */
#define AIE_HELPER_PERCPU_BIG		(32 << 10)

/*
 * A function of one allocation, @call, named aie_helper_@name. barrier()
 * after the call keeps it from becoming a tail call, which would move the
 * call site into the caller. Each use stays on one line: annotate_test
 * finds a generated function's line by the use that generates it.
 */
#define AIE_HELPER_VMALLOC(name, call)					\
noinline void *aie_helper_##name(void)					\
{									\
	void *p = call;							\
									\
	barrier();							\
	return p;							\
}

struct aie_helper_kind {
	const char *name;
	const char *func;
	size_t req;
	void *(*alloc)(void);
	void (*free)(const void *p);
	unsigned int held;
	void *obj[AIE_HELPER_MAX_HELD];
	atomic64_t storm_allocs;	/* made by storm threads */
	atomic64_t storm_frees;
};

/* aie_helper_kinds.c */
extern struct aie_helper_kind aie_helper_kinds[];
extern const unsigned int aie_helper_nkinds;
struct aie_helper_kind *aie_helper_find(const char *name);

/* aie_helper_core.c */
extern struct mutex aie_helper_mutex;
extern const char __user *aie_helper_ubuf;
extern const char aie_helper_core_file[];

/* aie_helper_slab.c: kmalloc() */
/* 40 characters: kstrdup() asks for 41 bytes. */
#define AIE_HELPER_STR		"allocinfo_ext helper: a forty-char line."
extern const u8 aie_helper_blob[100];
void *aie_helper_kmalloc_96(void);
void *aie_helper_kmalloc_97(void);
void *aie_helper_kmalloc_128(void);
void *aie_helper_kmalloc_129(void);
void *aie_helper_kmalloc_192(void);
void *aie_helper_kmalloc_193(void);
void *aie_helper_kmalloc_large_const(void);
void *aie_helper_kmalloc_large_var(void);
void *aie_helper_kmalloc_fail(void);
void *aie_helper_kstrdup(void);
void *aie_helper_kmemdup(void);
void *aie_helper_kmalloc_acct_100(void);
void *aie_helper_kmalloc_oom(void);
void *aie_helper_unknown_site(void);
void aie_helper_unknown_free(const void *p);
/* Made-up sites in aie_helper_site(), as many as it has bytes at least */
#define AIE_HELPER_FAKE_SITES	4096
int aie_helper_fake_sites(unsigned int n);
extern const char aie_helper_slab_file[];

/* aie_helper_cache.c: kmem_cache_alloc() */
extern struct kmem_cache *aie_helper_cache;
extern struct kmem_cache *aie_helper_acct_cache;	/* SLAB_ACCOUNT */
extern struct kmem_cache *aie_helper_remade;		/* "remake" */
void aie_helper_ctor(void *obj);
void *aie_helper_cache_alloc(void);
void *aie_helper_remade_alloc(void);
void *aie_helper_cache_acct(void);
void *aie_helper_cache_gfp_acct(void);
void aie_helper_cache_free(const void *p);
/* "bulk": objects of the private cache from kmem_cache_alloc_bulk() */
#define AIE_HELPER_BULK_MAX	64
int aie_helper_cache_bulk(size_t nr);
void aie_helper_cache_bulk_free(bool one_by_one);
void aie_helper_remade_free(const void *p);
void aie_helper_acct_cache_free(const void *p);
int aie_helper_remake(unsigned int size);
int aie_helper_cache_ksize_get(void *data, u64 *val);
int aie_helper_remade_show(struct seq_file *m, void *v);
extern const char aie_helper_cache_file[];

/* aie_helper_pages.c: the page allocator */
void *aie_helper_pages0(void);
void *aie_helper_pages2(void);
void *aie_helper_pages5(void);
void aie_helper_free_pages0(const void *p);
void aie_helper_free_pages2(const void *p);
void aie_helper_free_pages5(const void *p);
void *aie_helper_pages_node(void);
void aie_helper_free_pages1(const void *p);
void *aie_helper_get_free_pages(void);
void aie_helper_free_pages_addr1(const void *p);
void *aie_helper_get_zeroed_page(void);
void aie_helper_free_page_addr(const void *p);
void *aie_helper_folio_alloc(void);
void aie_helper_folio_put(const void *p);
void *aie_helper_folio_node(void);
void *aie_helper_pages_exact(void);
void aie_helper_free_pages_exact(const void *p);
void *aie_helper_pages_fail(void);
void *aie_helper_pages_acct(void);
void *aie_helper_pages_oom(void);
void aie_helper_free_pages_oom(const void *p);
extern const char aie_helper_pages_file[];

/* aie_helper_vmalloc.c: vmalloc() */
void *aie_helper_vmalloc_12288(void);
void *aie_helper_vmalloc_10000(void);
void *aie_helper_vzalloc_5000(void);
void *aie_helper_vmalloc_node_4096(void);
void *aie_helper___vmalloc_6000(void);
void *aie_helper_vmalloc_nowarn(void);
void *aie_helper_vmalloc_acct_10000(void);
void aie_helper_kvfree(const void *p);
extern const char aie_helper_vmalloc_file[];

/* aie_helper_callers.c: on the caller's behalf */
void *aie_helper_kvmalloc_100(void);
void *aie_helper_kvmalloc_8m(void);
void *aie_helper_kvzalloc_300(void);
void *aie_helper_kvcalloc_10x30(void);
void *aie_helper_kvmalloc_array_7x20(void);
void *aie_helper_kvmemdup_100(void);
void *aie_helper_kmemdup_array_5x20(void);
void *aie_helper_kstrdup_const(void);
void *aie_helper_vmemdup_user_16(void);
void *aie_helper_strndup_user(void);
void *aie_helper_strndup_user_b(void);
void *aie_helper_kvrealloc_200(void);
void *aie_helper_krealloc_500(void);
void *aie_helper_kmalloc_sensitive_96(void);
void aie_helper_kfree_sensitive(const void *p);
void aie_helper_kfree_const(const void *p);
void *aie_helper_ctx_mid_a(void);
void *aie_helper_ctx_outer_a(void);
void *aie_helper_ctx_outer_b(void);
void *aie_helper_ctx_outer_c(void);
extern const char aie_helper_callers_file[];

/* aie_helper_percpu.c: the percpu allocator */
void *aie_helper_percpu_40(void);
void *aie_helper_percpu_fail(void);
void *aie_helper_percpu_big(void);
void *aie_helper_percpu_acct_40(void);
void aie_helper_free_percpu(const void *p);
extern const char aie_helper_percpu_file[];

/* aie_helper_sites.c: many call sites in one function */
int aie_helper_sites(unsigned int n, bool burst);
int aie_helper_page_sites(unsigned int n);
/* aie_helper_site() itself, the code "fakesites" makes its sites in */
const void *aie_helper_site_fn(void);
void aie_helper_sites_free_all(void);
extern const char aie_helper_sites_file[];

/* aie_helper_nodes.c: on NUMA node 0 or 1 */
void *aie_helper_kmalloc_node0(void);
void *aie_helper_kmalloc_node1(void);
void *aie_helper_large_node0(void);
void *aie_helper_large_node1(void);
void *aie_helper_cache_node0(void);
void *aie_helper_cache_node1(void);
void *aie_helper_pages_node0(void);
void *aie_helper_pages_node1(void);
extern const char aie_helper_nodes_file[];

/* aie_helper_mass.c: millions of objects, two call sites */
void *aie_helper_mass_kmalloc64(void);
struct page *aie_helper_mass_page(void);
int aie_helper_mass_alloc(unsigned long n);
int aie_helper_mass_pages_alloc(unsigned long n);
void aie_helper_mass_free(void);
extern const char aie_helper_mass_file[];

/* aie_helper_nmi.c: from NMI handlers (x86-64, 6.18 on) */
#if defined(CONFIG_X86_64) && AIE_HAVE_NOLOCK
struct page *aie_helper_nmi_page(void);
void *aie_helper_nmi_kmalloc(void);
void *aie_helper_nmi_bait(void);
int aie_helper_nmi(unsigned int n);
int aie_helper_nmi_locked(unsigned int n);
int aie_helper_nmi_free(void);
int aie_helper_nmi_show(struct seq_file *m, void *v);
extern const char aie_helper_nmi_file[];
#define AIE_HELPER_NMI_FILE	aie_helper_nmi_file,
#define AIE_HELPER_NMI_SHOW
#else
static inline int aie_helper_nmi(unsigned int n)
{
	return -EOPNOTSUPP;
}

static inline int aie_helper_nmi_locked(unsigned int n)
{
	return -EOPNOTSUPP;
}

static inline int aie_helper_nmi_free(void)
{
	return -EOPNOTSUPP;
}

#define AIE_HELPER_NMI_FILE
#endif

/* aie_helper_storm.c */
int aie_helper_storm(unsigned int rounds);
int aie_helper_storm_show(struct seq_file *m, void *v);
extern const char aie_helper_storm_file[];

#endif /* AIE_HELPER_H */
