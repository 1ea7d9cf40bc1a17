/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie.h - what every layer of the module shares: the allocators it
 * tells apart, and the allocation call site, its flags and its name.
 *
 * The module's files call one way, each layer into those below it only:
 *
 *   lib/     the control words and the rows, pure code (host-built too)
 *   core/    the data structures: sites, counters, the maps, sampling,
 *            symbols, the rules' list, the parameters, the statistics
 *   extras/  what some sites or objects carry more: call stacks,
 *            lifetimes, memory cgroups, unloading modules
 *   track/   charging an allocation or a free to its site
 *   hooks/   the probes, each turning an event into a track/ call
 *   iface/   the /proc files and the control words' effects
 *   main.c   init and exit
 *
 * Every other header is the interface of its own .c file.
 */
#ifndef _AIE_H
#define _AIE_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/percpu.h>
#include <linux/types.h>

/*
 * The architectures of arch/arch.h, which holds what differs between
 * them: kernel address layout, text keys, frames, arguments.
 */
#if !defined(CONFIG_X86_64) && !defined(CONFIG_ARM64)
#error "allocinfo_ext builds for x86-64 and arm64 kernels only"
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
	AIE_SITE_INEXACT,	/* lost an event: "accurate:no" (track.h) */
	AIE_SITE_VOID,		/* lost the race to publish: never a row */
	AIE_SITE_CHARGED,	/* helper or wrapper charged: a row (rows.c) */
	AIE_SITE_INIT,		/* __init code's, retired: its module is live */
	AIE_SITE_CGROUP,	/* a (site, memory cgroup) pair: cgsites.c */
};

/* Site flags that take an allocation off the hooks' fast paths. */
#define AIE_SITE_SLOW	(BIT(AIE_SITE_INTERNAL) | BIT(AIE_SITE_HELPER) | \
			 BIT(AIE_SITE_WRAPPER) | BIT(AIE_SITE_DISABLED) | \
			 BIT(AIE_SITE_UNLOADED))

/* A site's index has 16 bits, in an object's value (core/value.h). */
#define AIE_SITE_BITS		16
#define AIE_MAX_SITES		BIT(AIE_SITE_BITS)

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

struct aie_ctr_slot;

/*
 * One allocation call site: what does not change once the site is
 * published, and the two counters that are rarely written. The hot
 * counters are in a per-CPU cache of slots (struct aie_ctr_slot,
 * core/counters.c), the site's own in struct aie_site_ctr
 * (core/sites.h). 64 bytes: in aie_sites[], page-aligned, each entry is
 * one cache line.
 */
struct aie_site {
	unsigned long call_site;	/* return address of the allocation */
	unsigned long flags;		/* AIE_SITE_* bits */
	/* From "locate": "<file>:<line>\0<function>", or NULL. */
	const char __rcu *location;
	/* Set before AIE_SITE_UNLOADED, or by a reader (symbols.c). */
	const struct aie_site_name *name;
	atomic64_t peak;		/* see aie_site_peak() (counters.c) */
	atomic64_t failed;		/* allocations that returned NULL */
	/*
	 * Its slot in each CPU's cache: the byte offset in a CPU's array
	 * (core/counters.c), set before it is published.
	 */
	u32 slot;
	u8 type;			/* enum aie_type */
	/* AIE_SITE_WRAPPER: see frames.c; AIE_SITE_CGROUP: its pair's number */
	u16 frame;
	atomic_t moves;			/* see aie_site_sum() (counters.c) */
};

static_assert(sizeof(struct aie_site) == 64);

/**
 * aie_location_func() - Find the function in a located site's location.
 * @loc: the site's location, "<file>:<line>\0<function>", read under the
 *       lock or RCU that keeps it.
 *
 * Context: Any context, with @loc kept.
 * Return: the function the call is written in, as "locate" named it; ""
 * when it named none (the row then names the symbol).
 */
static inline const char *aie_location_func(const char *loc)
{
	return loc + strlen(loc) + 1;
}

#endif /* _AIE_H */
