// SPDX-License-Identifier: GPL-2.0
/*
 * slab.c - track kmalloc() and kmem_cache_alloc() objects, and their frees,
 * from the kmem tracepoints.
 *
 * The kmem tracepoints give every kmalloc and kmem_cache_alloc with its
 * call site, and every kfree and kmem_cache_free. The bulk functions fire
 * none: slab_bulk.c probes them and hands their objects to
 * aie_slab_cache_alloc_seen() and aie_slab_kfree_seen() here; nolock.c
 * does the same for kmalloc_nolock() and kfree_nolock().
 *
 * kmem_cache_alloc's tracepoint gives the cache, whose slot size is
 * private to mm/: cache_sizes.c keeps it, per cache.
 *
 * The allocation probes come in variants, by sampling and by whether the
 * cache table knows the cache, each out of line (noinline, __noclone) and
 * each taking the probe's own arguments in the probe's order, @data
 * first, unused: a probe's call forwards its arguments untouched, a tail
 * call, and the track/ entry point it reaches (aie_track_slab_alloc())
 * takes them in the same order. __noclone keeps GCC from making a copy
 * without the unused @data (and @node), which would take the arguments in
 * another order. One plain function per tracepoint, which calls a common
 * body with the arguments it needs, costs 23 instructions more per
 * kmalloc+kfree pair, 30 per kmem_cache pair, 23 per large kmalloc pair
 * and 22 per sampled kmalloc pair (make bench, 6.12).
 *
 * Notes on locking
 * ----------------
 * The probes take no lock of this file's. They run wherever the slab
 * allocator runs (task, softirq, hardirq; NMI through
 * aie_slab_kmalloc_seen() and aie_slab_kfree_seen(), nolock.c),
 * preemption disabled (aie_tp_guard() on kernels whose tracepoints leave
 * it enabled). A miss of the cache table tries cache_sizes.c's lock, with
 * trylock.
 *
 * aie_slab_fast_mutex serialises the updates of aie_slab_fast_key, from
 * the slab map's state and "cgroups"; process context. Registration runs
 * in process context, at init and exit, and under the rules mutex for
 * "disable all".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "aie.h"
#include "cache_sizes.h"
#include "compat.h"
#include "core/rules.h"
#include "core/sample.h"
#include "core/sites.h"
#include "core/slabmap.h"
#include "core/stats.h"
#include "extras/cgsites.h"
#include "extras/memcg.h"
#include "probes.h"
#include "slab.h"
#include "track/free.h"
#include "track/slab_alloc.h"
#include "track/track.h"

/*
 * On while the slab probes take the slab map's fast path
 * (aie_track_slab_alloc()): the map on and "cgroups" off. With cgroups on
 * every slab allocation takes the general path, which finds an
 * accounted one's pair (extras/cgsites.c). Tested where the map's own key
 * was, so that the fast path pays nothing for cgroups. Changed in process
 * context, under aie_slab_fast_mutex.
 */
static DEFINE_STATIC_KEY_FALSE(aie_slab_fast_key);
static DEFINE_MUTEX(aie_slab_fast_mutex);

/* Count a slab allocation that failed. */
static noinline __noclone void aie_slab_failed(void *data,
					       unsigned long call_site)
{
	aie_track_failed(call_site, AIE_TYPE_SLAB);
}

/*
 * Track a slab allocation whole: with sampling off, or a result sampling
 * does not see (a failure, or ZERO_SIZE_PTR), or one it takes whole.
 */
static inline void aie_slab_alloc(void *data,
				  unsigned long call_site,
				  const void *ptr, size_t bytes_req,
				  size_t bytes_alloc, bool accounted)
{
	if (unlikely(ZERO_OR_NULL_PTR(ptr))) {
		if (!ptr)
			aie_slab_failed(data, call_site);
	} else if (aie_all_off()) {
		aie_count(disabled);
	} else if (static_branch_likely(&aie_slab_fast_key)) {
		aie_track_slab_alloc(data, call_site, ptr, bytes_req,
				     bytes_alloc, accounted);
	} else {
		aie_track_slab_alloc_nomap(data, call_site, ptr, bytes_req,
					   bytes_alloc, accounted);
	}
}

/*
 * Track the allocation of @ptr at its sampling weight: sampling is on, and
 * did not skip it (neither NULL nor ZERO_SIZE_PTR) in the probe. @s is the
 * cache of a kmem_cache_alloc(), or NULL for kmalloc.
 */
static inline void aie_slab_alloc_sampled(unsigned long call_site,
					  const void *ptr,
					  size_t bytes_req,
					  size_t bytes_alloc,
					  gfp_t gfp,
					  struct kmem_cache *s)
{
	aie_track_alloc_sampled(call_site, AIE_TYPE_SLAB, ptr, bytes_alloc,
				bytes_req,
				aie_sample_weight(READ_ONCE(aie_sample_bytes),
						  bytes_alloc),
				s ? aie_slab_accounted(gfp, s) :
				    aie_gfp_accounted(gfp));
}

/*
 * Track a kmalloc() sampling did not skip, out of line, so that the
 * probe's skip path stays short: no frame, no call but the tail call here.
 * (The two variants for a miss of the cache table leave out @node.)
 */
static noinline __noclone void aie_kmalloc_sampled(void *data,
						   unsigned long call_site,
						   const void *ptr,
						   size_t bytes_req,
						   size_t bytes_alloc,
						   gfp_t gfp_flags)
{
	aie_slab_alloc_sampled(call_site, ptr, bytes_req, bytes_alloc,
			       gfp_flags, NULL);
}

/*
 * Do __aie_kmem_cache_all() for a cache whose sizes are not at hand, or
 * for a NULL result, which has no size for ksize() to tell.
 */
static noinline __noclone void aie_kmem_cache_all_miss(void *data,
						       unsigned long call_site,
						       const void *ptr,
						       struct kmem_cache *s,
						       gfp_t gfp_flags)
{
	u64 sizes;

	if (unlikely(!ptr)) {
		aie_slab_failed(data, call_site);
		return;
	}
	sizes = aie_cache_sizes_miss(s, ptr);

	aie_slab_alloc(data, call_site, ptr,
		       aie_cache_req(upper_32_bits(sizes)), lower_32_bits(sizes),
		       aie_gfp_accounted(gfp_flags) ||
		       aie_cache_acct(upper_32_bits(sizes)));
}

/*
 * Track a kmem_cache_alloc() whole: sampling off, or a NULL result. A hit
 * of the cache table makes no call before the tracking's, a tail call.
 * Look the cache's sizes up first, as they do not depend on @ptr:
 * aie_slab_alloc() then tells a NULL result, with the test it makes anyway.
 */
static inline void __aie_kmem_cache_all(void *data,
					unsigned long call_site,
					const void *ptr,
					struct kmem_cache *s,
					gfp_t gfp_flags)
{
	unsigned int size, req;

	if (unlikely(!aie_cache_sizes_hit(s, &size, &req))) {
		aie_kmem_cache_all_miss(data, call_site, ptr, s, gfp_flags);
		return;
	}
	aie_slab_alloc(data, call_site, ptr, aie_cache_req(req), size,
		       aie_gfp_accounted(gfp_flags) || aie_cache_acct(req));
}

/* Do __aie_kmem_cache_all() out of line, for the probe's sampling side. */
static noinline __noclone void aie_kmem_cache_all(void *data,
						  unsigned long call_site,
						  const void *ptr,
						  struct kmem_cache *s,
						  gfp_t gfp_flags, int node)
{
	__aie_kmem_cache_all(data, call_site, ptr, s, gfp_flags);
}

/* Track a kmalloc() whole with sampling on: NULL, or the interval or more. */
static noinline __noclone void aie_kmalloc_all(void *data,
					       unsigned long call_site,
					       const void *ptr,
					       size_t bytes_req,
					       size_t bytes_alloc,
					       gfp_t gfp_flags)
{
	aie_slab_alloc(data, call_site, ptr, bytes_req, bytes_alloc,
		       aie_gfp_accounted(gfp_flags));
}

/*
 * Track a kmem_cache_alloc() sampling did not skip. @size: the cache's
 * slot size, as the cache table gave it; the object size, which the table
 * holds too, is kmem_cache_size().
 */
static noinline __noclone void aie_kmem_cache_sampled(void *data,
						      unsigned long call_site,
						      const void *ptr,
						      struct kmem_cache *s,
						      gfp_t gfp_flags,
						      unsigned int size)
{
	aie_slab_alloc_sampled(call_site, ptr, kmem_cache_size(s), size,
			       gfp_flags, s);
}

/* Sample a kmem_cache_alloc() whose cache's sizes are not at hand. */
static noinline __noclone void aie_kmem_cache_miss(void *data,
						   unsigned long call_site,
						   const void *ptr,
						   struct kmem_cache *s,
						   gfp_t gfp_flags)
{
	unsigned int size, req;

	aie_cache_sizes_get(s, ptr, &size, &req);
	if (aie_sample_skip(READ_ONCE(aie_sample_bytes), size))
		return;
	aie_slab_alloc_sampled(call_site, ptr, aie_cache_req(req), size,
			       gfp_flags, s);
}

/*
 * Untrack the free of an object of a block marked AIE_SLAB_NONE: a large
 * kmalloc()'s (its marks go with it), a KFENCE object's, or one of a slab
 * that has no records. Out of line, off the free probes' path.
 */
static noinline void aie_slab_free_marked(const void *ptr)
{
	aie_track_free(ptr);
	aie_slab_unmark(ptr);
}

/*
 * Untrack the free of a large kmalloc() recorded in its pages' entries
 * (core/slabmap.c): take its record, charge its site back. Out of line,
 * off the free probes' path.
 */
static noinline void aie_slab_free_large(const void *ptr)
{
	u64 val;

	if (aie_slab_large_take(ptr, &val))
		aie_slab_freed(ptr, AIE_SLAB_LARGE, val);
}

/*
 * Untrack a freed slab object. Look in the slab map first
 * (core/slabmap.c), then in the object map, which holds the
 * slab objects the slab map has no record for (large kmalloc(), KFENCE's,
 * and those of spilt blocks). No static branch: with the slab map off,
 * aie_slab_npfn is 0 and every pointer falls past it. kfree(NULL) and
 * kfree(ZERO_SIZE_PTR) are not tested for here: they lie below the direct
 * map, past the slab map's page frames; their home slots are as likely
 * empty as any other's, and __aie_track_free() turns them away when they
 * are not. Always inline: see aie_slab_freed() (track/free.h).
 */
static __always_inline void aie_slab_free(const void *ptr)
{
	u64 val;
	u32 e;

	switch (aie_slabmap_remove(ptr, &val, &e)) {
	case AIE_SLAB_FOUND:
		aie_slab_freed(ptr, e, val);
		return;
	case AIE_SLAB_ABSENT:
		aie_count(unmatched_frees);
		return;
	case AIE_SLAB_MARKED:
		aie_slab_free_marked(ptr);
		return;
	case AIE_SLAB_LARGE_FOUND:
		aie_slab_free_large(ptr);
		return;
	case AIE_SLAB_ELSEWHERE:
		break;
	}
	aie_track_free(ptr);
}

/*
 * Take a kmalloc event. With sampling off, a patched jump takes the probe
 * straight to the tracking, which turns away a NULL or ZERO_SIZE_PTR
 * result. With it on, one comparison sends allocations of the interval or
 * more (and every one while the interval is 0, as it is set) to
 * aie_kmalloc_all(), with weight 1; then the countdown: a skipped
 * allocation costs these few instructions. A NULL result is not sampled:
 * failures are counted exactly whatever sampling does. A ZERO_SIZE_PTR one
 * (0 bytes) takes nothing off the countdown. Always inline: the kmalloc
 * probe keeps the body it had as one function, and aie_slab_kmalloc_seen()
 * gets its own.
 */
static __always_inline void __aie_probe_kmalloc(void *data,
						unsigned long call_site,
						const void *ptr,
						size_t bytes_req,
						size_t bytes_alloc,
						gfp_t gfp_flags)
{
	if (!aie_sampling_on()) {
		aie_slab_alloc(data, call_site, ptr, bytes_req, bytes_alloc,
			       aie_gfp_accounted(gfp_flags));
		return;
	}
	/*
	 * data_race(), not READ_ONCE(): read once all the same, and the
	 * comparison can take it from memory. An interval that changes
	 * meanwhile sends this one allocation one way or the other.
	 */
	if (unlikely(!ptr) || bytes_alloc >= data_race(aie_sample_bytes)) {
		aie_kmalloc_all(data, call_site, ptr, bytes_req, bytes_alloc,
				gfp_flags);
		return;
	}
	if (aie_sample_countdown(bytes_alloc))
		return;
	aie_kmalloc_sampled(data, call_site, ptr, bytes_req, bytes_alloc,
			    gfp_flags);
}

/* Probe kmalloc, preemption disabled (aie_tp_guard()). */
static void aie_probe_kmalloc(void *data, unsigned long call_site,
			      const void *ptr, size_t bytes_req,
			      size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	aie_tp_guard();
	__aie_probe_kmalloc(data, call_site, ptr, bytes_req, bytes_alloc,
			    gfp_flags);
}

/**
 * aie_slab_kmalloc_seen() - Track a kmalloc() that fires no kmem event.
 * @call_site: the caller's return address.
 * @ptr: the object, NULL when the allocation failed, or ZERO_SIZE_PTR.
 * @bytes_req: the size asked for.
 * @bytes_alloc: the object's slot size.
 * @gfp: the allocation's flags.
 *
 * Take kmalloc_nolock()'s objects (nolock.c) as the kmalloc probe takes
 * those of its event.
 *
 * Context: Any context, NMI included; preemption disabled.
 */
void aie_slab_kmalloc_seen(unsigned long call_site, const void *ptr,
			   size_t bytes_req, size_t bytes_alloc, gfp_t gfp)
{
	__aie_probe_kmalloc(NULL, call_site, ptr, bytes_req, bytes_alloc, gfp);
}

/**
 * aie_slab_kfree_seen() - Untrack a kfree() that fires no kmem event.
 * @ptr: the object freed.
 *
 * Take the objects of kfree_nolock() (nolock.c) and of
 * kmem_cache_free_bulk() (slab_bulk.c) as the free probes take theirs.
 *
 * Context: Any context, NMI included; preemption disabled.
 */
void aie_slab_kfree_seen(const void *ptr)
{
	aie_slab_free(ptr);
}

/*
 * Take a kmem_cache_alloc event. The cache's slot size is private to
 * mm/; ksize() reports it for a live object (the object size on caches
 * with red zones, poisoning or KASAN), and aie_cache_sizes_get() keeps it
 * per cache. Whether the cache is accounted is private too: memcg.c
 * knows, and the table keeps it. With sampling on, the slot size is what
 * the countdown counts, so look it up before the skip.
 */
static __always_inline void __aie_probe_kmem_cache_alloc(void *data,
							 unsigned long call_site,
							 const void *ptr,
							 struct kmem_cache *s,
							 gfp_t gfp_flags,
							 int node)
{
	unsigned long every;
	unsigned int size;

	if (!aie_sampling_on()) {
		__aie_kmem_cache_all(data, call_site, ptr, s, gfp_flags);
		return;
	}
	every = READ_ONCE(aie_sample_bytes);
	if (unlikely(!every || !ptr)) {
		aie_kmem_cache_all(data, call_site, ptr, s, gfp_flags, node);
		return;
	}
	if (unlikely(!aie_cache_sizes_hit(s, &size, NULL))) {
		aie_kmem_cache_miss(data, call_site, ptr, s, gfp_flags);
		return;
	}
	if (likely(aie_sample_skip(every, size)))
		return;
	aie_kmem_cache_sampled(data, call_site, ptr, s, gfp_flags, size);
}

/* Probe kmem_cache_alloc, preemption disabled (aie_tp_guard()). */
static void aie_probe_kmem_cache_alloc(void *data, unsigned long call_site,
				       const void *ptr, struct kmem_cache *s,
				       gfp_t gfp_flags, int node)
{
	aie_tp_guard();
	__aie_probe_kmem_cache_alloc(data, call_site, ptr, s, gfp_flags, node);
}

/**
 * aie_slab_cache_alloc_seen() - Track a kmem_cache_alloc() that fires no event.
 * @call_site: the caller's return address.
 * @ptr: the object.
 * @s: its cache.
 * @gfp: the allocation's flags.
 *
 * Take the objects of kmem_cache_alloc_bulk() (slab_bulk.c) as the
 * kmem_cache_alloc probe takes that of its event.
 *
 * Context: Task, softirq or hardirq context; preemption disabled.
 */
void aie_slab_cache_alloc_seen(unsigned long call_site, const void *ptr,
			       struct kmem_cache *s, gfp_t gfp)
{
	__aie_probe_kmem_cache_alloc(NULL, call_site, ptr, s, gfp,
				     NUMA_NO_NODE);
}

/* Probe kfree: untrack the object. */
static void aie_probe_kfree(void *data, unsigned long call_site,
			    const void *ptr)
{
	aie_tp_guard();
	aie_slab_free(ptr);
}

/* Probe kmem_cache_free: untrack the object. */
static void aie_probe_kmem_cache_free(void *data, unsigned long call_site,
				      const void *ptr,
				      const struct kmem_cache *s)
{
	aie_tp_guard();
	aie_slab_free(ptr);
}

/* Define the functions that attach the probes to the events (compat.h). */
AIE_SLAB_TP_ALLOCS(aie_probe_kmalloc, aie_probe_kmem_cache_alloc)
AIE_SLAB_TP_CACHE_FREE(aie_probe_kmem_cache_free)

/* Set the fast path's key from the slab map's state and cgroups'. */
static void aie_slab_fast_update(void)
{
	lockdep_assert_held(&aie_slab_fast_mutex);
	if (aie_slabmap_on() && !aie_cgsites_on())
		static_branch_enable(&aie_slab_fast_key);
	else
		static_branch_disable(&aie_slab_fast_key);
}

/**
 * aie_slab_hooks_register() - Attach the slab probes.
 *
 * Attach the free probes first: no object is tracked while its free could
 * go unseen. Set the fast path's key from the slab map, which is on by now
 * if it is to be (hooks.c), and start the cache table.
 *
 * Context: Process context, module init.
 * Return: 0, or the tracepoints' error, with nothing left attached.
 */
int aie_slab_hooks_register(void)
{
	int ret;

	/* The slab map is on by now if it is to be (hooks.c) */
	mutex_lock(&aie_slab_fast_mutex);
	aie_slab_fast_update();
	mutex_unlock(&aie_slab_fast_mutex);
	aie_cache_sizes_register();

	ret = register_trace_kfree(aie_probe_kfree, NULL);
	if (ret)
		goto err_kfree;
	ret = aie_slab_tp_cache_free_register();
	if (ret)
		goto err_cache_free;
	ret = aie_slab_tp_allocs_register();
	if (ret)
		goto err_allocs;
	return 0;

err_allocs:
	aie_slab_tp_cache_free_unregister();
err_cache_free:
	unregister_trace_kfree(aie_probe_kfree, NULL);
err_kfree:
	tracepoint_synchronize_unregister();
	aie_cache_sizes_unregister();
	pr_err("cannot attach to the kmem tracepoints: %d\n", ret);
	return ret;
}

/**
 * aie_slab_allocs_pause() - Take the slab allocation probes off.
 *
 * While "disable all" is the only rule, an allocation then costs nothing
 * at all, a free what the free probe costs. The caller waits for running
 * probes.
 *
 * Context: Process context, under the rules mutex.
 */
void aie_slab_allocs_pause(void)
{
	aie_slab_tp_allocs_unregister();
}

/**
 * aie_slab_allocs_resume() - Put the slab allocation probes back.
 *
 * Context: Process context, under the rules mutex.
 * Return: 0, or the tracepoints' error.
 */
int aie_slab_allocs_resume(void)
{
	return aie_slab_tp_allocs_register();
}

/**
 * aie_slab_hooks_unregister() - Detach the slab probes.
 * @allocs: the allocation probes are attached (not paused).
 *
 * The caller waits for running probes: tracepoint_synchronize_unregister().
 *
 * Context: Process context, module exit.
 */
void aie_slab_hooks_unregister(bool allocs)
{
	if (allocs)
		aie_slab_allocs_pause();
	aie_slab_tp_cache_free_unregister();
	unregister_trace_kfree(aie_probe_kfree, NULL);
	aie_cache_sizes_unregister();
}

/**
 * aie_slab_cgroups_set() - Turn "cgroups" on or off.
 * @on: the new state (extras/cgsites.c).
 *
 * Turn the slab probes' fast path off or on with it, under
 * aie_slab_fast_mutex.
 *
 * Context: Process context; may sleep.
 * Return: 0, or the error of aie_cgsites_set().
 */
int aie_slab_cgroups_set(bool on)
{
	int ret;

	mutex_lock(&aie_slab_fast_mutex);
	ret = aie_cgsites_set(on);
	aie_slab_fast_update();
	mutex_unlock(&aie_slab_fast_mutex);
	return ret;
}
