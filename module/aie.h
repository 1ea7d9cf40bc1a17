/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie.h - the module's internal interfaces.
 *
 * hooks.c    what every probe shares: charging allocations and frees
 * sample.c   byte-weighted sampling of allocations
 * sites.c    the site table: call site -> per-CPU counters, lock-free lookup
 * objmap.c   the object map: live pointer -> (site, bytes, slack)
 * rules.c    enable/disable selectors and the control-word parser
 * symbols.c  naming a call site through kallsyms
 * proc.c     /proc/allocinfo_ext and /proc/allocinfo_ext_stats
 * capture.c  call stacks of chosen sites, /proc/allocinfo_ext_stacks*
 * memcg.c    which allocations are accounted to a memory cgroup
 * lifetimes.c lifetimes of freed objects, ages of live ones
 * frames.c   the call site of a page allocation, read off the stack
 * line.c     a row of a /proc table built in place (line.h)
 * slabmap.c  the records of slab objects, beside their slab's pages
 * pagemap.c  the records of page blocks, one per page frame
 */
#ifndef _AIE_H
#define _AIE_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/bits.h>
#include <linux/gfp.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/jump_label.h>
#include <linux/sched/clock.h>
#include <linux/types.h>

#include <asm/local64.h>

#include <allocinfo_ext.h>

#include "compat.h"

/*
 * x86-64 only: the object map tells keys apart by 32 bits of their hash
 * on 48-bit kernel addresses (objmap.c), values pack into 64 bits, and
 * frames.c reads callers off x86-64 stack frames.
 */
#ifndef CONFIG_X86_64
#error "allocinfo_ext builds for x86-64 kernels only"
#endif

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
	AIE_SITE_WRAPPER,	/* inside a page allocator wrapper (frames.c) */
	AIE_SITE_UNLOADED,	/* its module is gone: named by ->name */
	AIE_SITE_CAPTURE_SEEN,	/* capture.c decided on it */
	AIE_SITE_CAPTURE,	/* capture.c records its stacks */
};

/* The name of a site whose module unloaded, copied before it went. */
struct aie_site_name {
	unsigned long offset;
	unsigned long size;
	const char *module;		/* points into func[] */
	const char *tag;		/* points into func[]: see below */
	u16 func_len;			/* strlen(func) */
	u16 module_len;			/* strlen(module), or 0 */
	u16 tag_head;			/* "func+0xoff/0xsize", or 0 */
	u16 tag_len;			/* that and " [module] func:func" */
	bool known;			/* kallsyms named it */
	char func[];			/* func, module, tag, each with a NUL */
};

/* Site flags that take an allocation off the hooks' fast paths. */
#define AIE_SITE_SLOW	(BIT(AIE_SITE_INTERNAL) | BIT(AIE_SITE_HELPER) | \
			 BIT(AIE_SITE_WRAPPER) | BIT(AIE_SITE_DISABLED) | \
			 BIT(AIE_SITE_UNLOADED))

/*
 * One allocation call site: what does not change once the site is
 * published, and the two counters that are rarely written. The hot
 * counters are in a per-CPU cache of slots (struct aie_ctr_slot,
 * counters.c), the site's own in struct aie_site_ctr. 64 bytes: in
 * aie_sites[], page-aligned, each entry is one cache line.
 */
struct aie_site {
	unsigned long call_site;	/* return address of the allocation */
	unsigned long flags;		/* AIE_SITE_* bits */
	const char __rcu *location;	/* "file:line" from "locate", or NULL */
	/* Set before AIE_SITE_UNLOADED, or by a reader (symbols.c). */
	const struct aie_site_name *name;
	atomic64_t peak;		/* see aie_site_peak() */
	atomic64_t failed;		/* allocations that returned NULL */
	/* Its slot in each CPU's cache, set before it is published. */
	struct aie_ctr_slot __percpu *slot;
	u8 type;			/* enum aie_type */
	u16 frame;			/* AIE_SITE_WRAPPER: see frames.c */
	atomic_t moves;			/* see aie_site_sum() (counters.c) */
};

static_assert(sizeof(struct aie_site) == 64);

/* A site's counters summed over the CPUs. */
struct aie_site_sums {
	s64 live_bytes;
	s64 live_calls;
	s64 live_slack;
	s64 total_calls;
	s64 total_bytes;
	s64 live_accounted;	/* live bytes accounted to a memory cgroup */
};

/*
 * What the object map keeps for each live tracked object, packed by
 * hooks.c in the 64-bit value of its slot: the size (bytes for slab, bytes
 * per CPU for percpu, pages for page and vmalloc), the site's index, the
 * slack, whether the allocation is accounted to a memory cgroup (memcg.c),
 * and whether aie_weights holds a sampling weight for it. The size comes
 * first and is never 0: the map takes a value whose low 32 bits are 0 for
 * an empty slot.
 */
#define AIE_OBJ_SITE_SHIFT	24
#define AIE_OBJ_SIZE		GENMASK_ULL(23, 0)
#define AIE_OBJ_SITE		GENMASK_ULL(39, AIE_OBJ_SITE_SHIFT)
#define AIE_OBJ_SLACK		GENMASK_ULL(61, 40)
#define AIE_OBJ_ACCOUNTED	BIT_ULL(62)
#define AIE_OBJ_WEIGHTED	BIT_ULL(63)
#define AIE_MAX_SITES		((AIE_OBJ_SITE >> AIE_OBJ_SITE_SHIFT) + 1)

/*
 * A site's own counters (counters.c): what the CPUs' slots held for it
 * when they were given to other sites, and what hooks that found their
 * CPU's slot busy added. Any CPU adds to them, atomically; rarely.
 */
struct aie_site_ctr {
	atomic64_t live_bytes;
	atomic64_t live_calls;
	atomic64_t live_slack;
	atomic64_t total_calls;
	atomic64_t total_bytes;
	atomic64_t live_accounted;	/* memcg.c: accounted bytes */
};

/*
 * One slot of a CPU's cache of counters (counters.c): what this CPU added
 * to @site's counters since the slot was given to it. Only this CPU
 * writes it, with this_cpu operations, which an interrupt cannot tear;
 * readers sum the site's counters and the CPUs' slots that hold it. A
 * site's slot is the same on every CPU: its index modulo the slots.
 */
struct aie_ctr_slot {
	struct aie_site *site;		/* whose deltas these are, or NULL */
	s64 live_bytes;
	s64 live_calls;
	s64 live_slack;
	s64 total_calls;
	s64 total_bytes;
	s64 live_accounted;
	s64 high;		/* highest live_bytes here since taken or reset */
} __aligned(64);

static_assert(sizeof(struct aie_ctr_slot) == 64);

/*
 * The sites' own counters come in chunks of AIE_SITE_CHUNK sites, each
 * made as the sites before it fill (sites.c).
 */
#define AIE_SITE_CHUNK		256
#define AIE_SITE_CHUNKS		(AIE_MAX_SITES / AIE_SITE_CHUNK)

/*
 * An open-addressing hash map from a kernel address to a 64-bit value whose
 * low 32 bits are not 0, cut into shards each under its own lock
 * (objmap.c). A slot keeps the value and 32 bits of the key's hash, its
 * tag: with the slot's shard, enough to tell the key from any other when
 * the map has 2^20 slots or more and kernel addresses 48 bits. Otherwise
 * tags2, a parallel array, keeps 32 more bits of the hash.
 */
struct aie_slot {
	u32 tag;
	u32 lo;				/* value, bits 0..31; 0: empty */
	u32 hi;				/* value, bits 32..63 */
};

struct aie_objmap {
	struct aie_slot *slots;
	struct aie_shard *shards;
	u32 *tags2;			/* one per slot, or NULL (objmap.c) */
	u32 *stamps;			/* one per slot, or NULL (objmap.c) */
	u64 mult;			/* the hash's multiplier (objmap.c) */
	unsigned int bits;		/* log2 of the number of slots */
	unsigned int shift;		/* 64 - bits */
	unsigned int tshift;		/* the tag is the hash >> tshift */
};

/*
 * The hash of @key, a 4-byte aligned kernel address: a bijection of the
 * address bits that vary, to the top bits of the result (objmap.c). Its
 * top map->bits bits are the key's home slot.
 */
static __always_inline u64 aie_objmap_hash(const struct aie_objmap *map,
					   unsigned long key)
{
	return (u64)key * map->mult;
}

enum aie_objmap_result {
	AIE_OBJMAP_INSERTED,
	AIE_OBJMAP_REPLACED,		/* the key was there: its old value out */
	AIE_OBJMAP_FULL,		/* the key's shard is full: not inserted */
};

/* Module-wide event counts, per CPU, summed on read. */
struct aie_stats {
	unsigned long untracked;	/* object map full: allocation not tracked */
	unsigned long sites_full;	/* site table full: allocation not tracked */
	unsigned long sites_waiting;	/* new site's counters not made yet */
	unsigned long unmatched_frees;	/* free of an object we never tracked */
	unsigned long replaced;		/* object reused before its free was seen */
	unsigned long internal;		/* events inside allocators, ignored */
	unsigned long disabled;		/* allocations at disabled sites */
	unsigned long helper_fallbacks;	/* helper's caller not found */
	unsigned long oversize;		/* too large to pack: not tracked */
	unsigned long sampled;		/* tracked with a weight above 1 */
	unsigned long walk_stops;	/* page call site not found (frames.c) */
	unsigned long cache_misses;	/* ksize() asked (hooks_slab.c) */
	unsigned long ctr_takes;	/* counter slot given to a site */
	unsigned long ctr_shared;	/* slot busy: site's own counters */
	unsigned long slab_records;	/* slab map records set, net (slabmap.c) */
	unsigned long page_records;	/* page map records set, net (pagemap.h) */
	unsigned long unseen_frees;	/* records left when their slab went */
	unsigned long slab_site_misses;	/* slab site cache missed (hooks.c) */
	unsigned long page_site_misses;	/* page site cache missed (frames.h) */
};

DECLARE_PER_CPU(struct aie_stats, aie_stats);

#define aie_count(field)	this_cpu_inc(aie_stats.field)

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

/* module parameters (main.c) */
extern unsigned int aie_max_sites;
extern unsigned int aie_sites_ahead_param;
extern unsigned long aie_max_objects;
extern unsigned int aie_max_stacks;

/* sites.c */
extern struct aie_site *aie_sites;
extern u32 *aie_site_hash;
extern unsigned int aie_site_hash_bits;
extern unsigned int aie_site_hash_shift;	/* 64 - aie_site_hash_bits */
extern unsigned int aie_site_cap;
extern atomic_t aie_site_claimed;
extern struct aie_site_ctr *aie_site_chunks[AIE_SITE_CHUNKS];
int aie_sites_init(unsigned int capacity, unsigned int ahead,
		   unsigned int slots);
void aie_sites_exit(void);
struct aie_site *aie_site_get(unsigned long call_site, enum aie_type type);
u32 aie_sites_capacity(void);
u32 aie_sites_ready(void);
size_t aie_sites_memory(void);
size_t aie_sites_ctrs_memory(void);
size_t aie_site_caches_memory(void);
void aie_site_missed(void);
s64 aie_site_peak(u32 idx, s64 live_bytes);
void aie_sites_reset(void);

/* counters.c */
DECLARE_PER_CPU(unsigned int, aie_ctr_nest);
int aie_ctrs_init(unsigned int slots);
void aie_ctrs_exit(void);
struct aie_ctr_slot __percpu *aie_ctr_slot_of(u32 idx);
unsigned int aie_ctr_slots(void);
size_t aie_ctrs_memory(void);
void aie_ctr_miss(struct aie_site *site, s64 bytes, s64 calls, s64 slack,
		  s64 accounted, bool charge);
void aie_charge_missed(struct aie_site *site, u64 bytes, u64 slack,
		       bool accounted);
void aie_charge_high(struct aie_site *site, u64 bytes);
void aie_site_new_high(struct aie_site *site);
bool aie_site_sum(u32 idx, struct aie_site_sums *sums);
void aie_ctrs_reset(void);

/* What aie_sites_retire() found: the sites of a module that unloads. */
struct aie_retired {
	unsigned int sites;
	s64 live_calls;
	s64 live_bytes;
};

void aie_sites_retire(struct module *mod, struct aie_retired *r);

/* objmap.c */
int aie_objmap_init(struct aie_objmap *map, unsigned long capacity,
		    bool stamps);
void aie_objmap_exit(struct aie_objmap *map);
enum aie_objmap_result aie_objmap_insert(struct aie_objmap *map,
					 unsigned long key, u64 val, u64 *old);
enum aie_objmap_result aie_objmap_insert_stamp(struct aie_objmap *map,
					       unsigned long key, u64 val,
					       u32 stamp, u64 *old);
bool aie_objmap_remove(struct aie_objmap *map, unsigned long key, u64 *val);
bool aie_objmap_remove_stamp(struct aie_objmap *map, unsigned long key,
			     u64 *val, u32 *stamp);
void aie_objmap_for_each(struct aie_objmap *map,
			 void (*fn)(u64 val, u32 stamp, void *arg), void *arg);
unsigned long aie_objmap_count(const struct aie_objmap *map);
unsigned long aie_objmap_capacity(const struct aie_objmap *map);
size_t aie_objmap_memory(const struct aie_objmap *map);

/* slabmap.c */
extern bool aie_slabmap_param;
int aie_slabmap_init(unsigned long records, bool pages);
void aie_slabmap_unregister(void);
bool aie_slabmap_probing(void);
void aie_slabmap_page_frees(bool on);
void aie_slabmap_exit(void);
unsigned long aie_slabmap_capacity(void);
unsigned int aie_slabmap_blocks(void);
size_t aie_slabmap_memory(void);

/* pagemap.c */
void aie_pagemap_init(unsigned long npfn);
void aie_pagemap_exit(void);
size_t aie_pagemap_memory(void);

/* frames.c */
struct aie_frames_found {
	unsigned long caller;		/* 0: not found */
	struct aie_site *site;		/* or NULL */
};

struct aie_frames_found aie_frames_caller(const unsigned long *slot);

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
DECLARE_STATIC_KEY_FALSE(aie_all_disabled);

/* Whether the rules are "disable all" alone (rules.c). */
static __always_inline bool aie_all_off(void)
{
	return static_branch_unlikely(&aie_all_disabled);
}

bool aie_rules_site_disabled(struct aie_site *site, const struct aie_sym *sym);
int aie_ctl_write(const char *buf, size_t len);
size_t aie_rules_memory(void);

/* symbols.c */
void aie_sym_resolve(unsigned long call_site, struct aie_sym *sym);
void aie_site_name(const struct aie_site *site, struct aie_sym *sym);
void aie_site_name_read(struct aie_site *site, struct aie_sym *sym);
struct aie_site_name *aie_site_name_copy(const struct aie_sym *sym);
struct aie_sym *aie_sym_scratch(void);

/* callers.c */
int aie_callers_classify(const struct aie_sym *sym);
struct aie_site *aie_callers_resolve(struct aie_site *site);

/* hooks.c: what every hook shares; the inline parts at the end */
extern struct aie_objmap aie_objects, aie_weights;
int aie_track_init(unsigned long max_objects, bool stamps);
void aie_track_exit(void);
void __aie_track_alloc(unsigned long call_site, enum aie_type type,
		       const void *key, u64 bytes, u64 req, u64 weight,
		       bool accounted);
void aie_track_slab_alloc(void *unused, unsigned long call_site,
			  const void *ptr, u64 req, u64 bytes, bool accounted);
void aie_track_slab_alloc_objmap(void *unused, unsigned long call_site,
				 const void *ptr, u64 req, u64 bytes,
				 bool accounted);
void aie_track_page_alloc(struct aie_site *site, unsigned long call_site,
			  struct page *page, u64 bytes, u64 weight,
			  bool accounted);
void aie_track_page_alloc_slow(struct aie_site *site, unsigned long call_site,
			       struct page *page, u64 bytes, u64 weight,
			       bool accounted);
void aie_track_failed(unsigned long call_site, enum aie_type type);
void aie_track_failed_n(unsigned long call_site, enum aie_type type,
			u64 weight);
void __aie_track_free(const void *key, u64 hash);
void aie_track_slab_weighted_freed(const void *ptr, u32 entry, u64 val);
void aie_track_unseen(unsigned long gkey, u64 val);
void aie_track_unseen_key(unsigned long key);
void aie_track_page_weighted_freed(const struct page *page, u32 rec);
void aie_track_page_replaced(const struct page *page, u32 rec);
struct tracepoint *aie_tracepoint_find(const char *name);
struct kretprobe;
int aie_kretprobe_register_named(struct kretprobe *rp, unsigned int per_cpu,
				 const char * const *names, unsigned int nr);
int aie_hooks_select(const char *list);
int aie_hooks_register(void);
void aie_hooks_unregister(void);
void aie_hooks_show(struct seq_file *m);
void aie_hooks_allocs_pause(void);
int aie_hooks_allocs_resume(void);

/* sample.c */
#define AIE_SAMPLE_MAX		AIE_SAMPLE_MAX_BYTES
extern unsigned long aie_sample_bytes;
DECLARE_PER_CPU(long, aie_sample_pos);
DECLARE_STATIC_KEY_FALSE(aie_sampling_key);
u64 aie_sample_slow(unsigned long every, u64 bytes);
u64 aie_sample_seen(void);
void aie_sample_set(unsigned long every);
void aie_sample_init(unsigned long every);

/*
 * Whether sampling is on (aie_sample_bytes not 0): a jump patched into the
 * slab and page allocation probes, which with sampling off go straight to
 * the tracking (the kretprobes ask aie_sample(), which reads the
 * interval). It follows aie_sample_bytes (aie_sample_set()): on while the
 * interval is not 0, and a probe on the sampling side that sees it at 0,
 * as it changes, tracks the allocation with weight 1.
 */
static __always_inline bool aie_sampling_on(void)
{
	return static_branch_unlikely(&aie_sampling_key);
}

/*
 * Whether the countdown skips an allocation of @bytes. This CPU's
 * aie_sample_pos is the position in its stream of allocated bytes from
 * the next sample point: negative before it. @bytes are added to it, and
 * the allocation is skipped unless that brought it to 0 or above. A
 * this-CPU add, then a this-CPU read (an add, where taking bytes off a
 * count of those left would be a negation and an add): an interrupt on
 * this CPU in between whose allocation reaches the point takes the points
 * that this one passed too, as in aie_sample_slow(), and this one is then
 * skipped. The position keeps the bytes of an allocation it does not
 * skip: aie_sample_slow() takes its points from there. Preemption
 * disabled.
 */
static __always_inline bool aie_sample_countdown(u64 bytes)
{
	this_cpu_add(aie_sample_pos, bytes);
	return likely(this_cpu_read(aie_sample_pos) < 0);
}

/*
 * Whether sampling, with interval @every (0: off), skips an allocation of
 * @bytes. One comparison tells both that sampling is on and that the
 * allocation is smaller than the interval (one of the interval or more,
 * and every one with sampling off, is tracked with weight 1); then the
 * countdown.
 */
static __always_inline bool aie_sample_skip(unsigned long every, u64 bytes)
{
	return bytes < every && aie_sample_countdown(bytes);
}

/*
 * How many allocations one of @bytes that aie_sample_skip(@every, @bytes)
 * did not skip stands for: 1 with sampling off, or when @bytes reaches the
 * interval; else its weight, or 0 when it holds no point after all: an
 * interrupt on this CPU took it in between (sample.c).
 */
static __always_inline u64 aie_sample_weight(unsigned long every, u64 bytes)
{
	if (bytes >= every)
		return 1;
	return aie_sample_slow(every, bytes);
}

/* Both: 0 when sampling skips an allocation of @bytes, else its weight. */
static __always_inline u64 aie_sample(u64 bytes)
{
	unsigned long every = READ_ONCE(aie_sample_bytes);

	if (aie_sample_skip(every, bytes))
		return 0;
	return aie_sample_weight(every, bytes);
}

/* hooks_slab.c, hooks_page.c, hooks_vmalloc.c, hooks_percpu.c */
int aie_slab_hooks_register(void);
void aie_slab_allocs_pause(void);
int aie_slab_allocs_resume(void);
void aie_page_allocs_pause(void);
int aie_page_allocs_resume(void);
void aie_vmalloc_allocs_pause(void);
int aie_vmalloc_allocs_resume(void);
void aie_percpu_allocs_pause(void);
int aie_percpu_allocs_resume(void);
void aie_slab_hooks_unregister(bool allocs);
bool aie_slab_bulk_hooked(void);
int aie_page_hooks_register(void);
void aie_page_hooks_unregister(void);
unsigned long aie_page_hooks_missed(void);
int aie_vmalloc_hooks_register(void);
void aie_vmalloc_hooks_unregister(void);
unsigned long aie_vmalloc_hooks_missed(void);
int aie_percpu_hooks_register(void);
void aie_percpu_hooks_unregister(bool allocs);
bool aie_percpu_fail_hooked(void);
unsigned long aie_percpu_hooks_missed(void);

/* capture.c: aie_capture_alloc() only when aie_capture_on() */
DECLARE_STATIC_KEY_FALSE(aie_capture_key);

static inline bool aie_capture_on(void)
{
	return static_branch_unlikely(&aie_capture_key);
}

void aie_capture_alloc(struct aie_site *site, u64 bytes, u64 weight);
int aie_capture_start(const struct aie_sel *sel, unsigned int depth);
void aie_capture_stop(void);
void aie_capture_show(struct seq_file *m);
size_t aie_capture_memory(void);
int aie_capture_init(void);
void aie_capture_exit(void);

/* memcg.c */
extern int aie_cache_flags_off;
void aie_memcg_init(void);
void aie_memcg_show(struct seq_file *m);
struct kmem_cache;

/*
 * Whether an allocation with @gfp is accounted to a memory cgroup: asked
 * with __GFP_ACCOUNT, on a kernel that has memory cgroups.
 */
static inline bool aie_gfp_accounted(gfp_t gfp)
{
	return IS_ENABLED(CONFIG_MEMCG) && (gfp & __GFP_ACCOUNT);
}

/*
 * Whether the slab cache @s was created with SLAB_ACCOUNT, if memcg.c
 * found where struct kmem_cache keeps its flags.
 */
static __always_inline bool aie_cache_accounted(const struct kmem_cache *s)
{
	int off = READ_ONCE(aie_cache_flags_off);

	if (off < 0)
		return false;
	return *(const slab_flags_t *)((const char *)s + off) & SLAB_ACCOUNT;
}

/*
 * Whether an allocation with @gfp from cache @s is accounted.
 * Inline: the kmem_cache probe's path then makes no call before its jump
 * to the tracking.
 */
static __always_inline bool aie_slab_accounted(gfp_t gfp,
					       const struct kmem_cache *s)
{
	return aie_gfp_accounted(gfp) ||
	       (IS_ENABLED(CONFIG_MEMCG) && aie_cache_accounted(s));
}

/* proc.c */
int aie_proc_init(void);
void aie_proc_exit(void);
bool aie_proc_shown(struct aie_site *site);
struct aie_line;
void aie_proc_line_tag(struct aie_line *l, struct aie_site *site,
		       struct aie_sym *sym);
extern const char * const aie_type_names[];

/*
 * lifetimes.c: with lifetimes=1, the object map stamps each object with
 * its allocation time in units of 2^AIE_LIFETIME_SHIFT ns (local_clock()),
 * and a free counts the object's lifetime in its site's log2 histogram.
 */
DECLARE_STATIC_KEY_FALSE(aie_lifetimes_key);
DECLARE_PER_CPU(local64_t *, aie_lifetime_hists);

static inline bool aie_lifetimes_on(void)
{
	return static_branch_unlikely(&aie_lifetimes_key);
}

/* Now, in lifetime units; ages are differences modulo 2^32. */
static __always_inline u32 aie_lifetime_now(void)
{
	return local_clock() >> AIE_LIFETIME_SHIFT;
}

/*
 * A lifetime's bucket: 0 for 0 and 1 unit, k for [2^k, 2^(k+1)) units,
 * k = 1..31.
 */
static __always_inline unsigned int aie_lifetime_bucket(u32 age)
{
	return fls(age >> 1);
}

/*
 * An object of site @idx, standing for @weight objects, freed at age
 * @age: this CPU's histogram only. Preemption disabled, any context but
 * NMI.
 */
static __always_inline void aie_lifetime_record(u32 idx, u32 age, u64 weight)
{
	local64_t *h = this_cpu_read(aie_lifetime_hists);

	local64_add(weight, &h[idx * AIE_LIFETIME_BUCKETS +
			       aie_lifetime_bucket(age)]);
}

int aie_lifetimes_init(bool on, unsigned int sites);
void aie_lifetimes_exit(void);
size_t aie_lifetimes_memory(void);
extern const struct proc_ops aie_lifetimes_proc_ops;

/* Sites in the table, published or about to be. */
static inline u32 aie_sites_nr(void)
{
	return min_t(u32, atomic_read(&aie_site_claimed), aie_site_cap);
}

/* The published site at @idx, or NULL. */
static inline struct aie_site *aie_site_at(u32 idx)
{
	struct aie_site *site;

	if (idx >= aie_sites_nr())
		return NULL;
	site = &aie_sites[idx];
	/*
	 * Acquire: the site's fields, set before the cmpxchg() that put it in
	 * the hash, are read after the bit set behind it (sites.c).
	 */
	return test_bit_acquire(AIE_SITE_PUBLISHED, &site->flags) ? site : NULL;
}

static inline u32 aie_site_index(const struct aie_site *site)
{
	return site - aie_sites;
}

/*
 * The bucket where the probe sequence of a call site starts. hash_long()
 * alone, a multiplication whose top bits are kept, puts call sites at a
 * regular stride (alike functions laid out one after the other) in few
 * buckets for some strides: at 96 bytes, 352 of 1000 sites found their
 * home taken by another (the bench's sites-1000 on allocprof). A shift
 * and an xor first spread them about as random keys would.
 */
static __always_inline unsigned long aie_site_home(unsigned long call_site,
						   enum aie_type type)
{
	unsigned long key = call_site ^ type;

	/* hash_long(), its shift count kept ready: one load, no extension */
	return (key ^ (key >> 7)) * GOLDEN_RATIO_64 >> aie_site_hash_shift;
}

/*
 * Whether (@call_site, @type)'s home bucket holds its site, and the site
 * has none of the site flags @unless (AIE_SITE_UNLOADED among them): if so,
 * the site in *@sitep. A truth value of its own, so that a caller that
 * needs the site and the answer tests no pointer for NULL.
 */
static __always_inline bool aie_site_at_home(unsigned long call_site,
					     enum aie_type type,
					     unsigned long unless,
					     struct aie_site **sitep)
{
	/* Pairs with the cmpxchg() that published the site (sites.c). */
	u32 b = smp_load_acquire(&aie_site_hash[aie_site_home(call_site,
							      type)]);
	struct aie_site *site;

	if (unlikely(!b))
		return false;
	site = &aie_sites[b - 1];
	if (unlikely(site->call_site != call_site || site->type != type ||
		     (READ_ONCE(site->flags) & unless)))
		return false;
	*sitep = site;
	return true;
}

/*
 * The site caches (sites.c), in front of the site hash on the hooks' fast
 * paths, one for slab sites and one for page sites. An entry is a site's
 * index in its high half and the low 32 bits of its call site in its low
 * half, read and written whole; 0 is empty. Kernel text lies in the top 2
 * GiB of the address space, so those 32 bits tell its call sites apart,
 * and a cache holds sites of its type only: an entry whose low half is
 * the call site's holds its site, with no comparison of the site's call
 * site or type. Both caches have four ways: a call site's own entry,
 * which its hash picks, and the other three of its aligned group of four,
 * looked at in the order of its own entry's index xored with 1, 2 and 3.
 * A hook finds a site in its own entry with no more work than a
 * direct-mapped cache would do, and a site whose own entry another
 * holds costs a load and a comparison a way, not a look in the site
 * table. Entries are filled by the hooks' out-of-line paths, into empty
 * ones only, and emptied when their sites retire (aie_sites_retire()).
 * One filled by a hook that found its site as it retired stays until the
 * next module's unload empties it: its call site's lookups find it and
 * take the slow path, which the site's AIE_SITE_UNLOADED sends them to,
 * and which finds the new site but does not cache it meanwhile.
 */
#define AIE_SITE_CACHE_SLAB_BITS	13
#define AIE_SITE_CACHE_PAGE_BITS	11
#define AIE_SITE_CACHE_WAYS		4

extern u64 aie_site_cache_slab[BIT(AIE_SITE_CACHE_SLAB_BITS)];
extern u64 aie_site_cache_page[BIT(AIE_SITE_CACHE_PAGE_BITS)];

/*
 * The 32-bit hash of a call site whose top bits index a cache: an
 * xorshift before the multiplication, as aie_site_home() has and for the
 * same reason.
 */
static __always_inline u32 aie_site_cache_hash(u32 key)
{
	return (key ^ (key >> 7)) * GOLDEN_RATIO_32;
}

/* The index of @call_site's own entry in a cache of 2^@bits entries. */
static __always_inline u32 aie_site_cache_index(unsigned long call_site,
						unsigned int bits)
{
	return aie_site_cache_hash(call_site) >> (32 - bits);
}

/* Whether the cache entry @e is @call_site's. */
static __always_inline bool aie_site_cache_is(u64 e, unsigned long call_site)
{
	return (u32)e == (u32)call_site;
}

/*
 * The index of the site of the cache entry @e. The entry was read with
 * READ_ONCE(): the site's address depends on it, which orders the reads
 * of the site's fields after it, as the acquire of a bucket does.
 */
static __always_inline u32 aie_site_cache_idx(u64 e)
{
	return upper_32_bits(e);
}

/*
 * Whether a way of the group of the call site whose low 32 bits are @key,
 * in @cache of 2^@bits entries, holds it: that entry in *@e. The call
 * site's own entry first; then the others, each a load and a comparison,
 * out of the way of a hit in the first. Their index is made again from
 * the key, hidden from the compiler, so that no register keeps the first
 * one's through a hit: that would cost a hit two moves.
 */
static __always_inline bool aie_site_cache_find(const u64 *cache,
						unsigned int bits, u32 key,
						u64 *e)
{
	unsigned int w;
	u32 i;

	*e = READ_ONCE(cache[aie_site_cache_index(key, bits)]);
	if (likely(aie_site_cache_is(*e, key)))
		return true;
	OPTIMIZER_HIDE_VAR(key);
	i = aie_site_cache_index(key, bits);
#pragma GCC unroll 4
	for (w = 1; w < AIE_SITE_CACHE_WAYS; w++) {
		*e = READ_ONCE(cache[i ^ w]);
		if (aie_site_cache_is(*e, key))
			return true;
	}
	return false;
}

void aie_site_cache_fill(u64 *cache, unsigned int bits,
			 const struct aie_site *site);

/* The site in (@call_site, @type)'s home bucket, if it is its; or NULL. */
static __always_inline struct aie_site *
aie_site_find_home(unsigned long call_site, enum aie_type type)
{
	struct aie_site *site;

	if (aie_site_at_home(call_site, type, BIT(AIE_SITE_UNLOADED), &site))
		return site;
	return NULL;
}

/*
 * aie_site_get() for the hooks: a site found in its home bucket, as most
 * are (the hash has twice as many buckets as sites), without a call.
 */
static __always_inline struct aie_site *aie_site_find(unsigned long call_site,
						      enum aie_type type)
{
	return aie_site_find_home(call_site, type) ?:
	       aie_site_get(call_site, type);
}

/*
 * Site @idx's own counters: a site reached through the hash, or through
 * an object's value, was claimed after its chunk was published (sites.c),
 * so the chunk is there.
 */
static __always_inline struct aie_site_ctr *aie_site_ctrs(u32 idx)
{
	return aie_site_chunks[idx / AIE_SITE_CHUNK] + idx % AIE_SITE_CHUNK;
}

/*
 * Account one new live object of @bytes with @slack at @site, standing
 * for @weight allocations, all of its bytes accounted to a memory cgroup
 * when @accounted (memcg.c). Preemption disabled.
 *
 * When this CPU's slot holds @site, the counts go there (the common
 * case); else aie_ctr_miss() takes the slot, or adds to the site's own
 * counters. aie_ctr_nest tells a hook that interrupts this one between
 * its test of the slot and its updates not to give the slot to another
 * site (counters.c).
 */
/*
 * Whether this CPU's slot @s holds @site, read after this hook has counted
 * itself in aie_ctr_nest, and so stable: no hook that interrupts this one
 * gives the slot to another site meanwhile. The compiler barrier keeps
 * the read after the count; the read itself is a plain one (preemption
 * is disabled), so that the compiler can compare in memory, where
 * this_cpu_read() needs a load first.
 */
static __always_inline bool aie_slot_holds(struct aie_ctr_slot __percpu *s,
					   const struct aie_site *site)
{
	barrier();
	return raw_cpu_read(s->site) == site;
}

/*
 * The charge's adds to this CPU's slot @s, which holds the site: @bytes
 * and @slack for @weight allocations, already multiplied.
 */
static __always_inline void aie_slot_charge(struct aie_ctr_slot __percpu *s,
					    u64 bytes, u64 slack, u64 weight,
					    bool accounted)
{
	this_cpu_add(s->live_bytes, bytes);
	this_cpu_add(s->live_calls, weight);
	/* No add of a slack known to be 0 (pages, vmalloc) */
	if (!__builtin_constant_p(slack) || slack)
		this_cpu_add(s->live_slack, slack);
	this_cpu_add(s->total_calls, weight);
	this_cpu_add(s->total_bytes, bytes);
	if (accounted)
		this_cpu_add(s->live_accounted, bytes);
}

/*
 * Whether this CPU's slot @s, which holds the site, holds more live bytes
 * than its high, after a charge: a load and a comparison in memory, where
 * an add that returned the sum would take three instructions, and the
 * high's read one more. Plain reads (preemption is disabled), after the
 * adds' asm, which tells the compiler the sum changed. An interrupt's
 * charge or free of the site between the add and the read is in what
 * is read: the slot's live bytes as they are then, which is what the
 * high follows.
 */
static __always_inline bool aie_slot_above_high(struct aie_ctr_slot __percpu *s)
{
	return raw_cpu_read(s->live_bytes) > raw_cpu_read(s->high);
}

static __always_inline void aie_site_charge(struct aie_site *site,
					    u64 bytes, u64 slack, u64 weight,
					    bool accounted)
{
	struct aie_ctr_slot __percpu *s = site->slot;

	bytes *= weight;
	slack *= weight;
	this_cpu_inc(aie_ctr_nest);
	if (likely(aie_slot_holds(s, site))) {
		aie_slot_charge(s, bytes, slack, weight, accounted);
		if (unlikely(aie_slot_above_high(s)))
			aie_site_new_high(site);
	} else {
		aie_ctr_miss(site, bytes, weight, slack, accounted ? bytes : 0,
			     true);
	}
	this_cpu_dec(aie_ctr_nest);
}

/*
 * The end of a charge of weight 1 by aie_site_charge_last() or the
 * functions it hands over to: out of aie_ctr_nest, then the capture.
 */
static __always_inline void aie_charge_done(struct aie_site *site, u64 bytes)
{
	this_cpu_dec(aie_ctr_nest);
	if (aie_capture_on())
		aie_capture_alloc(site, bytes, 1);
}

/*
 * aie_site_charge() of weight 1, then the capture: what a fast path does
 * last. Each way out is a return or a jump: the slot held by another site
 * and a new high take functions that finish it all (counters.c), so that
 * nothing of the caller's lives across a call, and it has fewer registers
 * to save.
 */
static __always_inline void aie_site_charge_last(struct aie_site *site,
						 u64 bytes, u64 slack,
						 bool accounted)
{
	struct aie_ctr_slot __percpu *s = site->slot;

	this_cpu_inc(aie_ctr_nest);
	if (unlikely(!aie_slot_holds(s, site))) {
		aie_charge_missed(site, bytes, slack, accounted);
		return;
	}
	aie_slot_charge(s, bytes, slack, 1, accounted);
	if (unlikely(aie_slot_above_high(s))) {
		aie_charge_high(site, bytes);
		return;
	}
	aie_charge_done(site, bytes);
}

/* Account the free of an object charged by aie_site_charge(). */
static __always_inline void aie_site_uncharge(struct aie_site *site,
					      u64 bytes, u64 slack, u64 weight,
					      bool accounted)
{
	struct aie_ctr_slot __percpu *s = site->slot;

	bytes *= weight;
	slack *= weight;
	this_cpu_inc(aie_ctr_nest);
	if (likely(aie_slot_holds(s, site))) {
		this_cpu_sub(s->live_bytes, bytes);
		this_cpu_sub(s->live_calls, weight);
		if (!__builtin_constant_p(slack) || slack)
			this_cpu_sub(s->live_slack, slack);
		if (accounted)
			this_cpu_sub(s->live_accounted, bytes);
	} else {
		aie_ctr_miss(site, -(s64)bytes, -(s64)weight, -(s64)slack,
			     accounted ? -(s64)bytes : 0, false);
	}
	this_cpu_dec(aie_ctr_nest);
}

/* The home slot in @map of the key whose hash is @hash. */
static __always_inline struct aie_slot *
aie_objmap_home(const struct aie_objmap *map, u64 hash)
{
	return &map->slots[hash >> map->shift];
}

/*
 * Whether @map may hold the key whose home slot is @home: false when that
 * slot is empty, which proves the key absent without the lock (objmap.c).
 */
static __always_inline bool aie_objmap_may_hold(const struct aie_slot *home)
{
	return READ_ONCE(home->lo);
}

/*
 * The hooks' entry points. What they turn away costs a few instructions
 * here, inlined into the probe: an allocation that sampling skips or while
 * "disable all" is the only rule, a free of an object never tracked. The
 * rest goes to hooks.c. Preemption disabled, any context but NMI.
 *
 * aie_track_alloc_weight() is for a probe that asked sampling itself
 * (@weight 1 with sampling off, else from aie_sample_weight(); 0: skipped).
 */
static __always_inline void aie_track_alloc_weight(unsigned long call_site,
						   enum aie_type type,
						   const void *key, u64 bytes,
						   u64 req, u64 weight,
						   bool accounted)
{
	if (aie_all_off()) {
		aie_count(disabled);
		return;
	}
	if (weight)
		__aie_track_alloc(call_site, type, key, bytes, req, weight,
				  accounted);
}

static __always_inline void aie_track_alloc(unsigned long call_site,
					    enum aie_type type,
					    const void *key, u64 bytes,
					    u64 req, bool accounted)
{
	aie_track_alloc_weight(call_site, type, key, bytes, req,
			       aie_sample(bytes), accounted);
}

static __always_inline void aie_track_free(const void *key)
{
	u64 hash = aie_objmap_hash(&aie_objects, (unsigned long)key);

	if (!aie_objmap_may_hold(aie_objmap_home(&aie_objects, hash))) {
		aie_count(unmatched_frees);
		return;
	}
	__aie_track_free(key, hash);
}

#endif /* _AIE_H */
