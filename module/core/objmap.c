// SPDX-License-Identifier: GPL-2.0
/*
 * objmap.c - a map from live tracked pointers to 64-bit values. track/
 * keeps two: every tracked object's site, size and slack (aie_objects),
 * and the weights of sampled objects (aie_weights).
 *
 * A map is an open-addressing hash table of 12-byte slots, cut into shards
 * of AIE_SHARD_SLOTS slots. A key's hash picks its shard and its home slot
 * in the shard; collisions probe linearly, wrapping inside the shard, and
 * deletion shifts the following entries back (no tombstones), so a lookup
 * stops at the first empty slot. A shard accepts at most AIE_SHARD_FILL
 * entries, which keeps probes short and leaves an empty slot to stop at;
 * beyond that an insertion fails, never forced in.
 *
 * Backward shifting never empties a key's home slot while an entry with
 * that home is in the shard: the last entry of the run with that home can
 * always move into it. So a home slot found empty, even without the lock,
 * proves the key absent to a reader ordered after the key's insertion.
 * aie_objmap_remove() uses that to turn away, without the lock, the frees
 * of objects that were never tracked (allocated before load, skipped by
 * sampling or by a disabled site).
 *
 * Slots keep no key, but 32 bits of its hash, the tag. The keys are kernel
 * addresses, 4-byte aligned: their top bits are ones and the low 2 zeros,
 * so aie_arch_key_bits() bits vary: 45 on x86-64 with 4-level paging (17
 * top ones), 46 or 50 on arm64 as the CPU gave the kernel 48 or 52 bits
 * of address at boot. The hash multiplies them by an odd constant modulo
 * 2^bits (a bijection), the product placed in the top bits of the u64
 * (aie_objmap_hash(): one multiplication by map->mult does all that). The
 * top bits of a hash are its slot; a slot's shard is known from where it
 * lies, so what tells two keys apart is the rest of the hash:
 * AIE_SHARD_BITS of home slot in the shard, then the remainder. With 2^20
 * slots on x86-64, 45 - 20 + 7 = 32 bits: the tag, exactly. The tag also
 * gives deletion the home of each entry it moves. A map with fewer slots,
 * or addresses with more bits (x86-64's 5-level paging: 54 vary; arm64:
 * 46 + 7 - 20 = 33 at 2^20 slots already), keeps the next 32 bits of the
 * hash in a parallel array, map->tags2, and compares both. A slot is
 * empty when the low 32 bits of its value are 0: values never have them
 * so (the object map's start with the size).
 *
 * A map made with stamps keeps a u32 per slot in a parallel array,
 * map->stamps, at the slot's index: the *_stamp() variants store and
 * return it, and deletion moves it with its slot. The other variants never
 * touch the array (lifetimes.c stamps the object map with allocation
 * times).
 *
 * Notes on locking
 * ----------------
 * - shard->lock (an arch_spinlock_t, see aie_shard_lock()) protects the
 *   slots of that shard and its fill count. Hooks take it with interrupts
 *   disabled: an allocation in a hardirq may hash to the shard a task on
 *   the same CPU holds.
 * - No other lock is taken under it, and nothing under it allocates, so it
 *   nests inside whatever lock the allocating code holds.
 * - Shards are independent and each has its own cache line: CPUs contend
 *   only when their keys hash to the same shard.
 * - Insert and remove run in any context, NMI included
 *   (alloc_pages_nolock(), kmalloc_nolock()): there the lock is only
 *   tried, aie_shard_lock_nmi().
 * - aie_objmap_for_each() runs in process context and holds each shard's
 *   lock in turn, for one pass over its slots.
 */

#include <linux/log2.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>

#include "aie.h"
#include "arch/arch.h"
#include "nmi.h"
#include "objmap.h"

/**
 * aie_objmap_init() - Allocate a map of at least @capacity slots.
 * @map: the map to set up.
 * @capacity: slots wanted; rounded up to a power of two, at least one
 *            shard.
 * @stamps: keep a stamp per slot.
 *
 * Context: Process context, before any hook uses the map; may sleep.
 * Return: 0, or -ENOMEM.
 */
int aie_objmap_init(struct aie_objmap *map, unsigned long capacity,
		    bool stamps)
{
	unsigned int kbits = aie_arch_key_bits();
	unsigned long slots, i;
	bool tags2;

	slots = roundup_pow_of_two(max_t(unsigned long, capacity,
					 AIE_SHARD_SLOTS));
	map->bits = ilog2(slots);
	map->shift = 64 - map->bits;
	map->tshift = 32 + AIE_SHARD_BITS - map->bits;
	/* key * mult == (key >> 2) * GOLDEN_RATIO_64 << (64 - kbits) */
	map->mult = GOLDEN_RATIO_64 << (BITS_PER_LONG - 2 - kbits);
	/* The tag holds the hash's bits below the shard's: are they all? */
	tags2 = kbits + AIE_SHARD_BITS - map->bits > 32;
	map->slots = vzalloc(array_size(slots, sizeof(*map->slots)));
	map->shards = vzalloc(array_size(slots >> AIE_SHARD_BITS,
					 sizeof(*map->shards)));
	map->tags2 = tags2 ? vzalloc(array_size(slots, sizeof(u32))) : NULL;
	map->stamps = stamps ? vzalloc(array_size(slots, sizeof(u32))) : NULL;
	if (!map->slots || !map->shards || (tags2 && !map->tags2) ||
	    (stamps && !map->stamps)) {
		aie_objmap_exit(map);
		return -ENOMEM;
	}
	for (i = 0; i < slots >> AIE_SHARD_BITS; i++)
		map->shards[i].lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	return 0;
}

/**
 * aie_objmap_exit() - Free a map.
 * @map: the map; one that init left half made, too.
 *
 * Context: Process context, after every hook is unregistered and has
 * finished; may sleep.
 */
void aie_objmap_exit(struct aie_objmap *map)
{
	vfree(map->stamps);
	vfree(map->tags2);
	vfree(map->shards);
	vfree(map->slots);
	map->stamps = NULL;
	map->tags2 = NULL;
	map->shards = NULL;
	map->slots = NULL;
}

/* Count the map's shards: none before aie_objmap_init() or after its exit. */
static unsigned long aie_objmap_nr_shards(const struct aie_objmap *map)
{
	return map->slots ? 1UL << (map->bits - AIE_SHARD_BITS) : 0;
}

/**
 * aie_objmap_capacity() - Tell the entries a map can hold.
 * @map: the map.
 * Return: AIE_SHARD_FILL entries per shard.
 */
unsigned long aie_objmap_capacity(const struct aie_objmap *map)
{
	return aie_objmap_nr_shards(map) * AIE_SHARD_FILL;
}

/**
 * aie_objmap_memory() - Tell a map's memory.
 * @map: the map.
 * Return: bytes: slots, tags2 and stamps if any, shards.
 */
size_t aie_objmap_memory(const struct aie_objmap *map)
{
	if (!map->slots)
		return 0;
	return ((sizeof(*map->slots) + (map->tags2 ? sizeof(u32) : 0) +
		 (map->stamps ? sizeof(u32) : 0)) << map->bits) +
	       aie_objmap_nr_shards(map) * sizeof(*map->shards);
}

/**
 * aie_objmap_count() - Count a map's entries.
 * @map: the map.
 *
 * Read the shards' fill counts one by one, without their locks.
 *
 * Context: Any context.
 * Return: the entries now.
 */
unsigned long aie_objmap_count(const struct aie_objmap *map)
{
	unsigned long i, n = 0;

	for (i = 0; i < aie_objmap_nr_shards(map); i++) {
		n += READ_ONCE(map->shards[i].used);
		cond_resched();	/* the stats file's reader: process context */
	}
	return n;
}

/**
 * aie_objmap_insert() - Map a key to a value.
 * @map: the map.
 * @key: a kernel address, 4-byte aligned.
 * @val: the value; its low 32 bits not 0.
 * @old: set to the value that was there, on AIE_OBJMAP_REPLACED.
 *
 * Context: Any context, NMI included (there the shard lock is only
 * tried); takes the key's shard lock, interrupts off.
 * Return: AIE_OBJMAP_INSERTED; AIE_OBJMAP_REPLACED when the key was there
 * (its free went unseen); AIE_OBJMAP_FULL when its shard is full, or in an
 * NMI that cannot have the lock: not inserted.
 */
enum aie_objmap_result aie_objmap_insert(struct aie_objmap *map,
					 unsigned long key, u64 val, u64 *old)
{
	return __aie_objmap_insert(map, aie_objmap_hash(map, key), val, NULL,
				   old, true);
}

/**
 * aie_objmap_insert_stamp() - Map a key to a value and a stamp.
 * @map: the map, made with stamps.
 * @key: a kernel address, 4-byte aligned.
 * @val: the value; its low 32 bits not 0.
 * @stamp: the stamp for the key's slot.
 * @old: set to the value that was there, on AIE_OBJMAP_REPLACED.
 *
 * Context: As aie_objmap_insert().
 * Return: As aie_objmap_insert().
 */
enum aie_objmap_result aie_objmap_insert_stamp(struct aie_objmap *map,
					       unsigned long key, u64 val,
					       u32 stamp, u64 *old)
{
	return __aie_objmap_insert(map, aie_objmap_hash(map, key), val,
				   &stamp, old, true);
}

/**
 * aie_objmap_remove() - Remove a key, and give its value.
 * @map: the map.
 * @key: a kernel address, 4-byte aligned.
 * @val: set to the key's value.
 *
 * A key whose home slot is empty is turned away without the lock (see the
 * top of this file).
 *
 * Context: Any context, NMI included (there the shard lock is only
 * tried); takes the key's shard lock, interrupts off.
 * Return: true when the key was there; false when it was not, or in an
 * NMI that cannot have the lock.
 */
bool aie_objmap_remove(struct aie_objmap *map, unsigned long key, u64 *val)
{
	return __aie_objmap_remove(map, key, val, NULL);
}

/**
 * aie_objmap_remove_stamp() - Remove a key, and give its value and stamp.
 * @map: the map, made with stamps.
 * @key: a kernel address, 4-byte aligned.
 * @val: set to the key's value.
 * @stamp: set to the key's stamp.
 *
 * Context: As aie_objmap_remove().
 * Return: As aie_objmap_remove().
 */
bool aie_objmap_remove_stamp(struct aie_objmap *map, unsigned long key,
			     u64 *val, u32 *stamp)
{
	return __aie_objmap_remove(map, key, val, stamp);
}

/**
 * aie_shard_lock_nmi() - Try a shard lock in an NMI.
 * @shard: the shard.
 * @flags: the interrupt state before aie_shard_lock() disabled them.
 *
 * Try the lock (nmi.h); restore interrupts when it is not had. Out of
 * line: only NMIs come here.
 *
 * Context: NMI, interrupts off (aie_shard_lock()).
 * Return: true when the lock is held.
 */
noinline bool aie_shard_lock_nmi(struct aie_shard *shard, unsigned long flags)
{
	if (aie_nmi_arch_trylock(&shard->lock))
		return true;
	local_irq_restore(flags);
	return false;
}

/**
 * aie_objmap_for_each() - Call a function on every entry of a map.
 * @map: the map, made with stamps.
 * @fn: called with each entry's value and stamp, and @arg.
 * @arg: passed to @fn.
 *
 * Go shard by shard, each under its lock with interrupts off, so @fn must
 * be brief and must not sleep or take a lock.
 *
 * Context: Process context: may sleep between shards.
 */
void aie_objmap_for_each(struct aie_objmap *map,
			 void (*fn)(u64 val, u32 stamp, void *arg), void *arg)
{
	unsigned long s, flags;
	struct aie_slot *base;
	u32 *stamps, i;

	for (s = 0; s < aie_objmap_nr_shards(map); s++) {
		base = &map->slots[s << AIE_SHARD_BITS];
		stamps = aie_objmap_at(map, map->stamps, base);
		if (!aie_shard_lock(&map->shards[s], &flags))
			continue;	/* not in an NMI: cannot happen */
		for (i = 0; i < AIE_SHARD_SLOTS; i++) {
			if (base[i].lo)
				fn(aie_slot_val(&base[i]), stamps[i], arg);
		}
		aie_shard_unlock(&map->shards[s], flags);
		cond_resched();
	}
}
