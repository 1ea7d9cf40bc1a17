/* SPDX-License-Identifier: GPL-2.0 */
/*
 * objmap.h - the object map (objmap.c): its insert and remove are inline
 * here, for the tracking's fast paths (track/) and objmap.c's out-of-line
 * entry points. The map, its shards and its locking: see objmap.c.
 */
#ifndef _AIE_OBJMAP_H
#define _AIE_OBJMAP_H

#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>

#include "aie.h"

/*
 * An open-addressing hash map from a kernel address to a 64-bit value whose
 * low 32 bits are not 0, cut into shards each under its own lock
 * (objmap.c). A slot keeps the value and 32 bits of the key's hash, its
 * tag: with the slot's shard, enough to tell the key from any other when
 * the map has 2^20 slots or more and kernel addresses 48 bits, the upper
 * half's (x86-64). Otherwise tags2, a parallel array, keeps 32 more bits
 * of the hash.
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

/**
 * aie_objmap_hash() - Hash a key.
 * @map: the map.
 * @key: a 4-byte aligned kernel address.
 *
 * A bijection of the address bits that vary, to the top bits of the
 * result (objmap.c).
 *
 * Return: the hash, whose top map->bits bits are the key's home slot.
 */
static inline u64 aie_objmap_hash(const struct aie_objmap *map,
				  unsigned long key)
{
	return (u64)key * map->mult;
}

enum aie_objmap_result {
	AIE_OBJMAP_INSERTED,
	AIE_OBJMAP_REPLACED,		/* the key was there: its old value out */
	AIE_OBJMAP_FULL,		/* the key's shard is full: not inserted */
};

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

/**
 * aie_objmap_home() - Find a key's home slot.
 * @map: the map.
 * @hash: the key's hash.
 *
 * Return: the slot.
 */
static inline struct aie_slot *
aie_objmap_home(const struct aie_objmap *map, u64 hash)
{
	return &map->slots[hash >> map->shift];
}

/**
 * aie_objmap_may_hold() - Tell whether a map may hold a key.
 * @home: the key's home slot.
 *
 * Context: Any context; no lock.
 * Return: false when @home is empty, which proves the key absent without
 * the lock (objmap.c).
 */
static inline bool aie_objmap_may_hold(const struct aie_slot *home)
{
	return READ_ONCE(home->lo);
}

#define AIE_SHARD_BITS	7
#define AIE_SHARD_SLOTS	BIT(AIE_SHARD_BITS)
#define AIE_SHARD_MASK	(AIE_SHARD_SLOTS - 1)
#define AIE_SHARD_FILL	(AIE_SHARD_SLOTS - AIE_SHARD_SLOTS / 8)

struct aie_shard {
	arch_spinlock_t lock;
	u32 used;
} ____cacheline_aligned_in_smp;

bool aie_shard_lock_nmi(struct aie_shard *shard, unsigned long flags);

/**
 * aie_shard_lock() - Take a shard's lock, interrupts off.
 * @shard: the shard.
 * @flags: set to the interrupt state to restore.
 *
 * The shard lock is an arch_spinlock_t, taken with interrupts disabled:
 * the plain spinlock API would add two calls and a preemption count to
 * every allocation and free, for lockdep and preemption accounting that
 * an innermost lock, held for a few dozen instructions by code that
 * already runs with preemption disabled, does not need.
 *
 * The lock, the insert and the removes are always inline: out of line,
 * GCC's choice, they cost 53 instructions more per kmalloc+kfree pair
 * with slabmap=0, 58 per page pair (make bench, 6.12).
 *
 * In an NMI (alloc_pages_nolock(), kmalloc_nolock()) the lock is only
 * tried (core/nmi.h). An insert then fails as into a full shard
 * (untracked, the site marked inexact); a remove finds nothing, and the
 * object stays live in its row.
 *
 * Context: Any context, NMI included.
 * Return: true when the lock is held; false, with interrupts as they
 * were, in an NMI that cannot have it.
 */
static __always_inline bool aie_shard_lock(struct aie_shard *shard,
					   unsigned long *flags)
{
	local_irq_save(*flags);
	if (unlikely(in_nmi()))
		return aie_shard_lock_nmi(shard, *flags);
	arch_spin_lock(&shard->lock);
	return true;
}

/**
 * aie_shard_unlock() - Release a shard's lock, and restore interrupts.
 * @shard: the shard, its lock held (aie_shard_lock()).
 * @flags: the interrupt state aie_shard_lock() saved.
 */
static __always_inline void aie_shard_unlock(struct aie_shard *shard,
					     unsigned long flags)
{
	arch_spin_unlock(&shard->lock);
	local_irq_restore(flags);
}

/*
 * What a slot keeps of a hash to tell its key (objmap.c): the 32 bits below
 * the shard's, whose top AIE_SHARD_BITS are the home slot in the shard, and
 * in a map with tags2 the 32 after them.
 */
struct aie_tag {
	u32 tag;
	u32 tag2;
};

/**
 * aie_objmap_tag() - Make a key's tag from its hash.
 * @map: the map.
 * @hash: the key's hash.
 * @tags2: the shard's first in map->tags2, or NULL: make no second tag.
 *
 * Return: the tag, and the second tag when @tags2.
 */
static inline struct aie_tag aie_objmap_tag(const struct aie_objmap *map,
					    u64 hash, u32 *tags2)
{
	struct aie_tag t = { .tag = hash >> map->tshift };

	if (tags2)
		t.tag2 = hash << (32 - map->tshift);
	return t;
}

/**
 * aie_tag_home() - Find the home slot of an entry in its shard.
 * @tag: the entry's tag.
 *
 * Return: the home slot's index in the shard.
 */
static inline u32 aie_tag_home(u32 tag)
{
	return tag >> (32 - AIE_SHARD_BITS);
}

/**
 * aie_slot_val() - Read a slot's value.
 * @slot: the slot, under its shard's lock.
 *
 * Return: the value, 0 for an empty slot.
 */
static inline u64 aie_slot_val(const struct aie_slot *slot)
{
	return (u64)slot->hi << 32 | slot->lo;
}

/**
 * aie_objmap_shard() - Find a key's shard and home slot.
 * @map: the map.
 * @hash: the key's hash.
 * @base: set to the shard's first slot.
 * @home: set to the home slot's index in the shard.
 *
 * The hash >> tshift holds the tag in its low 32 bits, and the slot's
 * index from bit 32 - AIE_SHARD_BITS up (the home slot's bits are the
 * tag's top ones): one variable shift gives both.
 *
 * Return: the shard.
 */
static inline struct aie_shard *
aie_objmap_shard(const struct aie_objmap *map, u64 hash,
		 struct aie_slot **base, u32 *home)
{
	unsigned long h = (hash >> map->tshift) >> (32 - AIE_SHARD_BITS);

	*home = h & AIE_SHARD_MASK;
	*base = &map->slots[h & ~(unsigned long)AIE_SHARD_MASK];
	return &map->shards[h >> AIE_SHARD_BITS];
}

/**
 * aie_objmap_at() - Find a slot's entry in a parallel array.
 * @map: the map.
 * @arr: map->tags2 or map->stamps, or NULL.
 * @slot: the slot.
 *
 * Return: the entry, or NULL when @arr is NULL.
 */
static inline u32 *aie_objmap_at(const struct aie_objmap *map,
				 u32 *arr,
				 const struct aie_slot *slot)
{
	return arr ? &arr[slot - map->slots] : NULL;
}

/**
 * aie_objmap_find() - Find a key's slot in its shard.
 * @base: the shard's first slot.
 * @tags2: the shard's first in map->tags2, or NULL.
 * @i: the key's home slot in the shard.
 * @t: the key's tag.
 *
 * Context: The shard's lock held.
 * Return: the index of the slot holding the key, or of the empty slot
 * that ends its probe sequence.
 */
static inline u32 aie_objmap_find(struct aie_slot *base,
				  const u32 *tags2, u32 i,
				  struct aie_tag t)
{
	if (likely(!tags2)) {
		while (base[i].lo && base[i].tag != t.tag)
			i = (i + 1) & AIE_SHARD_MASK;
		return i;
	}
	while (base[i].lo && (base[i].tag != t.tag || tags2[i] != t.tag2))
		i = (i + 1) & AIE_SHARD_MASK;
	return i;
}

/**
 * aie_objmap_tags2() - Find a shard's first entry in map->tags2.
 * @map: the map.
 * @base: the shard's first slot.
 * @wide: the map may have tags2.
 *
 * @wide is a constant where this is inlined: false, from a caller that
 * knows the map has none, leaves no code for them.
 *
 * Return: the entry when @wide and the map has tags2, else NULL.
 */
static inline u32 *aie_objmap_tags2(const struct aie_objmap *map,
				    const struct aie_slot *base,
				    bool wide)
{
	return wide ? aie_objmap_at(map, map->tags2, base) : NULL;
}

/**
 * __aie_objmap_insert() - Map a key, by its hash, to a value.
 * @map: the map.
 * @hash: the key's hash.
 * @val: the value; its low 32 bits not 0.
 * @stamp: the stamp for the key's slot, or NULL (a constant where this is
 *         inlined); not NULL only in a map made with stamps.
 * @old: set to the value that was there, on AIE_OBJMAP_REPLACED.
 * @wide: see aie_objmap_tags2().
 *
 * When the key is there already (its free went unseen), @val replaces its
 * old value. Always inline: see aie_shard_lock().
 *
 * Context: Any context, NMI included; takes the shard's lock (only tried
 * in an NMI), interrupts off.
 * Return: AIE_OBJMAP_INSERTED, AIE_OBJMAP_REPLACED, or AIE_OBJMAP_FULL:
 * the shard full, or its lock not had in an NMI.
 */
static __always_inline enum aie_objmap_result
__aie_objmap_insert(struct aie_objmap *map, u64 hash, u64 val,
		    const u32 *stamp, u64 *old, bool wide)
{
	enum aie_objmap_result ret = AIE_OBJMAP_INSERTED;
	struct aie_shard *shard;
	struct aie_slot *base;
	unsigned long flags;
	struct aie_tag t;
	u32 *tags2, i;

	shard = aie_objmap_shard(map, hash, &base, &i);
	tags2 = aie_objmap_tags2(map, base, wide);
	t = aie_objmap_tag(map, hash, tags2);
	if (unlikely(!aie_shard_lock(shard, &flags)))
		return AIE_OBJMAP_FULL;
	i = aie_objmap_find(base, tags2, i, t);
	if (base[i].lo) {
		*old = aie_slot_val(&base[i]);
		ret = AIE_OBJMAP_REPLACED;
	} else if (shard->used < AIE_SHARD_FILL) {
		base[i].tag = t.tag;
		if (tags2)
			tags2[i] = t.tag2;
		shard->used++;
	} else {
		ret = AIE_OBJMAP_FULL;
	}
	if (ret != AIE_OBJMAP_FULL) {
		base[i].hi = val >> 32;
		WRITE_ONCE(base[i].lo, (u32)val);
		if (stamp)
			*aie_objmap_at(map, map->stamps, &base[i]) = *stamp;
	}
	aie_shard_unlock(shard, flags);
	return ret;
}

/**
 * aie_objmap_delete_at() - Empty a slot, shifting its run back.
 * @base: the shard's first slot.
 * @tags2: the shard's first in map->tags2, or NULL.
 * @stamps: the shard's first in map->stamps, or NULL.
 * @i: the slot to empty.
 *
 * Move back each following entry of the run that may sit at @i, so that
 * no probe sequence crosses an empty slot; @tags2 and @stamps move alike.
 *
 * Context: The shard's lock held.
 */
static inline void aie_objmap_delete_at(struct aie_slot *base,
					u32 *tags2, u32 *stamps,
					u32 i)
{
	u32 j = i, home;

	for (;;) {
		j = (j + 1) & AIE_SHARD_MASK;
		if (!base[j].lo)
			break;
		home = aie_tag_home(base[j].tag);
		/* The entry at j stays if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		base[i].tag = base[j].tag;
		base[i].hi = base[j].hi;
		WRITE_ONCE(base[i].lo, base[j].lo);
		if (tags2)
			tags2[i] = tags2[j];
		if (stamps)
			stamps[i] = stamps[j];
		i = j;
	}
	WRITE_ONCE(base[i].lo, 0);
}

/**
 * __aie_objmap_remove_at() - Remove a key, by its hash.
 * @map: the map.
 * @hash: the key's hash.
 * @val: set to the key's value.
 * @stamp: set to the key's stamp, unless NULL; not NULL only in a map made
 *         with stamps.
 * @wide: see aie_objmap_tags2().
 *
 * Always inline: see aie_shard_lock().
 *
 * Context: Any context, NMI included; takes the shard's lock (only tried
 * in an NMI), interrupts off.
 * Return: true when the key was there; false when not, or when its lock
 * was not had in an NMI.
 */
static __always_inline bool __aie_objmap_remove_at(struct aie_objmap *map,
						   u64 hash, u64 *val,
						   u32 *stamp, bool wide)
{
	struct aie_shard *shard;
	struct aie_slot *base;
	u32 *tags2, *stamps;
	unsigned long flags;
	struct aie_tag t;
	bool found;
	u32 i;

	shard = aie_objmap_shard(map, hash, &base, &i);
	tags2 = aie_objmap_tags2(map, base, wide);
	t = aie_objmap_tag(map, hash, tags2);
	stamps = stamp ? aie_objmap_at(map, map->stamps, base) : NULL;
	if (unlikely(!aie_shard_lock(shard, &flags)))
		return false;
	i = aie_objmap_find(base, tags2, i, t);
	found = base[i].lo;
	if (found) {
		*val = aie_slot_val(&base[i]);
		if (stamp)
			*stamp = stamps[i];
		aie_objmap_delete_at(base, tags2, stamps, i);
		shard->used--;
	}
	aie_shard_unlock(shard, flags);
	return found;
}

/**
 * __aie_objmap_remove() - Remove a key, turned away if its home is empty.
 * @map: the map.
 * @key: a kernel address, 4-byte aligned, whose home slot has not been
 *       looked at.
 * @val: set to the key's value.
 * @stamp: set to the key's stamp, unless NULL (as __aie_objmap_remove_at()).
 *
 * Context: As __aie_objmap_remove_at().
 * Return: As __aie_objmap_remove_at().
 */
static __always_inline bool __aie_objmap_remove(struct aie_objmap *map,
						unsigned long key, u64 *val,
						u32 *stamp)
{
	u64 hash = aie_objmap_hash(map, key);

	if (!aie_objmap_may_hold(aie_objmap_home(map, hash)))
		return false;	/* empty home: see the top of objmap.c */
	return __aie_objmap_remove_at(map, hash, val, stamp, true);
}

#endif /* _AIE_OBJMAP_H */
