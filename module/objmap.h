/* SPDX-License-Identifier: GPL-2.0 */
/*
 * objmap.h - the object map's insert and remove, inline: hooks.c inlines
 * them into its fast paths, objmap.c into the out-of-line entry points of
 * aie.h. The map, its shards and its locking: see objmap.c.
 */
#ifndef _AIE_OBJMAP_H
#define _AIE_OBJMAP_H

#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/spinlock.h>

#include "aie.h"

#define AIE_SHARD_BITS	8
#define AIE_SHARD_SLOTS	BIT(AIE_SHARD_BITS)
#define AIE_SHARD_MASK	(AIE_SHARD_SLOTS - 1)
#define AIE_SHARD_FILL	(AIE_SHARD_SLOTS - AIE_SHARD_SLOTS / 8)

struct aie_shard {
	arch_spinlock_t lock;
	u32 used;
} ____cacheline_aligned_in_smp;

/*
 * The shard lock is an arch_spinlock_t, taken with interrupts disabled:
 * the plain spinlock API would add two calls and a preemption count to
 * every allocation and free, for lockdep and preemption accounting that
 * an innermost lock, held for a few dozen instructions by code that
 * already runs with preemption disabled, does not need.
 */
static __always_inline void aie_shard_lock(struct aie_shard *shard,
					   unsigned long *flags)
{
	local_irq_save(*flags);
	arch_spin_lock(&shard->lock);
}

static __always_inline void aie_shard_unlock(struct aie_shard *shard,
					     unsigned long flags)
{
	arch_spin_unlock(&shard->lock);
	local_irq_restore(flags);
}

/*
 * The shard of the key whose home slot is @h, with *@base at its first
 * slot; *@home the home slot's index in it.
 */
static __always_inline struct aie_shard *
aie_objmap_shard_at(const struct aie_objmap *map, unsigned long h,
		    struct aie_slot **base, u32 *home)
{
	*home = h & AIE_SHARD_MASK;
	*base = &map->slots[h & ~(unsigned long)AIE_SHARD_MASK];
	return &map->shards[h >> AIE_SHARD_BITS];
}

static __always_inline struct aie_shard *
aie_objmap_shard(const struct aie_objmap *map, unsigned long key,
		 struct aie_slot **base, u32 *home)
{
	return aie_objmap_shard_at(map, aie_objmap_hash(map, key), base, home);
}

/* The slot holding @key, or the empty slot that ends its probe sequence. */
static __always_inline u32 aie_objmap_find(struct aie_slot *base, u32 i,
					   unsigned long key)
{
	while (base[i].key && base[i].key != key)
		i = (i + 1) & AIE_SHARD_MASK;
	return i;
}

/* The stamp of the slot at @slot, in a map made with stamps. */
static __always_inline u32 *aie_objmap_stamp_at(const struct aie_objmap *map,
						const struct aie_slot *slot)
{
	return &map->stamps[slot - map->slots];
}

/*
 * Map @key (non-zero) to @val, and to *@stamp when @stamp is not NULL (a
 * map made with stamps). When @key is there already (its free went
 * unseen), its old value goes to *@old and @val replaces it. @stamp is a
 * constant NULL or not where this is inlined.
 */
static __always_inline enum aie_objmap_result
__aie_objmap_insert(struct aie_objmap *map, unsigned long key, u64 val,
		    const u32 *stamp, u64 *old)
{
	enum aie_objmap_result ret = AIE_OBJMAP_INSERTED;
	struct aie_shard *shard;
	struct aie_slot *base;
	unsigned long flags;
	u32 i;

	shard = aie_objmap_shard(map, key, &base, &i);
	aie_shard_lock(shard, &flags);
	i = aie_objmap_find(base, i, key);
	if (base[i].key == key) {
		*old = base[i].val;
		base[i].val = val;
		ret = AIE_OBJMAP_REPLACED;
	} else if (shard->used < AIE_SHARD_FILL) {
		base[i].val = val;
		WRITE_ONCE(base[i].key, key);
		shard->used++;
	} else {
		ret = AIE_OBJMAP_FULL;
	}
	if (stamp && ret != AIE_OBJMAP_FULL)
		*aie_objmap_stamp_at(map, &base[i]) = *stamp;
	aie_shard_unlock(shard, flags);
	return ret;
}

/*
 * Empty slot @i, then move back each following entry of the run that may
 * sit there, so that no probe sequence crosses an empty slot. @stamps, the
 * shard's first stamp or NULL, moves the stamps alike.
 */
static __always_inline void aie_objmap_delete_at(const struct aie_objmap *map,
						 struct aie_slot *base,
						 u32 *stamps, u32 i)
{
	u32 j = i, home;

	for (;;) {
		j = (j + 1) & AIE_SHARD_MASK;
		if (!base[j].key)
			break;
		home = aie_objmap_hash(map, base[j].key) & AIE_SHARD_MASK;
		/* The entry at j stays if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		base[i].val = base[j].val;
		WRITE_ONCE(base[i].key, base[j].key);
		if (stamps)
			stamps[i] = stamps[j];
		i = j;
	}
	WRITE_ONCE(base[i].key, 0);
}

/*
 * Remove @key, whose home slot is @h, its value to *@val and, when @stamp
 * is not NULL (a map made with stamps), its stamp to *@stamp. Returns false
 * when it was not there.
 */
static __always_inline bool __aie_objmap_remove_at(struct aie_objmap *map,
						   unsigned long key,
						   unsigned long h, u64 *val,
						   u32 *stamp)
{
	struct aie_shard *shard;
	struct aie_slot *base;
	unsigned long flags;
	u32 *stamps = NULL;
	bool found;
	u32 i;

	shard = aie_objmap_shard_at(map, h, &base, &i);
	if (stamp)
		stamps = aie_objmap_stamp_at(map, base);
	aie_shard_lock(shard, &flags);
	i = aie_objmap_find(base, i, key);
	found = base[i].key == key;
	if (found) {
		*val = base[i].val;
		if (stamp)
			*stamp = stamps[i];
		aie_objmap_delete_at(map, base, stamps, i);
		shard->used--;
	}
	aie_shard_unlock(shard, flags);
	return found;
}

/* The same, for a key whose home slot is not known. */
static __always_inline bool __aie_objmap_remove(struct aie_objmap *map,
						unsigned long key, u64 *val,
						u32 *stamp)
{
	unsigned long h = aie_objmap_hash(map, key);

	if (!READ_ONCE(map->slots[h].key))
		return false;	/* empty home: see the comment at the top */
	return __aie_objmap_remove_at(map, key, h, val, stamp);
}

#endif /* _AIE_OBJMAP_H */
