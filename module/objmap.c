// SPDX-License-Identifier: GPL-2.0
/*
 * objmap.c - the object map: live tracked pointer -> (site, bytes, slack),
 * so that a free is charged back to the site that made the allocation.
 *
 * The map is an open-addressing hash table cut into shards of
 * AIE_SHARD_SLOTS slots. A pointer's hash picks its shard and its home slot
 * in the shard; collisions probe linearly, wrapping inside the shard, and
 * deletion shifts the following entries back (no tombstones), so a lookup
 * stops at the first empty slot. A shard accepts at most AIE_SHARD_FILL
 * entries, which keeps probes short and leaves an empty slot to stop at;
 * beyond that an allocation is counted as untracked, never forced in.
 *
 * Notes on locking
 * ----------------
 * - aie_shards[i].lock (raw spinlock) protects the slots of shard i and its
 *   fill count. Hooks take it with interrupts disabled: an allocation in a
 *   hardirq may hash to the shard a task on the same CPU holds.
 * - No other lock is taken under it, and nothing under it allocates, so it
 *   nests inside whatever lock the allocating code holds.
 * - Shards are independent: CPUs contend only when their pointers hash to
 *   the same shard.
 * Insert and remove run in any context except NMI (the slab allocator does
 * not run there either).
 */

#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "aie.h"

#define AIE_SHARD_BITS	8
#define AIE_SHARD_SLOTS	BIT(AIE_SHARD_BITS)
#define AIE_SHARD_MASK	(AIE_SHARD_SLOTS - 1)
#define AIE_SHARD_FILL	(AIE_SHARD_SLOTS - AIE_SHARD_SLOTS / 8)

struct aie_slot {
	unsigned long ptr;		/* 0: empty */
	struct aie_obj obj;
};

struct aie_shard {
	raw_spinlock_t lock;
	u32 used;
};

static struct aie_slot *aie_slots;
static struct aie_shard *aie_shards;
static unsigned int aie_objmap_bits;	/* log2 of the number of slots */

int aie_objmap_init(unsigned long capacity)
{
	unsigned long slots, i;

	slots = roundup_pow_of_two(max_t(unsigned long, capacity,
					 AIE_SHARD_SLOTS));
	aie_objmap_bits = ilog2(slots);
	aie_slots = vzalloc(array_size(slots, sizeof(*aie_slots)));
	aie_shards = vzalloc(array_size(slots >> AIE_SHARD_BITS,
					sizeof(*aie_shards)));
	if (!aie_slots || !aie_shards) {
		aie_objmap_exit();
		return -ENOMEM;
	}
	for (i = 0; i < slots >> AIE_SHARD_BITS; i++)
		raw_spin_lock_init(&aie_shards[i].lock);
	return 0;
}

/* Process context, after every hook is unregistered and has finished. */
void aie_objmap_exit(void)
{
	vfree(aie_shards);
	vfree(aie_slots);
	aie_shards = NULL;
	aie_slots = NULL;
}

static unsigned long aie_objmap_nr_shards(void)
{
	return 1UL << (aie_objmap_bits - AIE_SHARD_BITS);
}

unsigned long aie_objmap_capacity(void)
{
	return aie_objmap_nr_shards() * AIE_SHARD_FILL;
}

size_t aie_objmap_memory(void)
{
	return (sizeof(*aie_slots) << aie_objmap_bits) +
	       aie_objmap_nr_shards() * sizeof(*aie_shards);
}

/* Objects tracked now; shards are read one by one, without their locks. */
unsigned long aie_objmap_count(void)
{
	unsigned long i, n = 0;

	for (i = 0; i < aie_objmap_nr_shards(); i++)
		n += READ_ONCE(aie_shards[i].used);
	return n;
}

static u32 aie_objmap_home(unsigned long ptr)
{
	return hash_long(ptr, aie_objmap_bits) & AIE_SHARD_MASK;
}

static struct aie_shard *aie_objmap_shard(unsigned long ptr,
					  struct aie_slot **base)
{
	unsigned long shard = hash_long(ptr, aie_objmap_bits) >> AIE_SHARD_BITS;

	*base = &aie_slots[shard << AIE_SHARD_BITS];
	return &aie_shards[shard];
}

/* The slot holding @ptr, or the empty slot that ends its probe sequence. */
static u32 aie_objmap_find(struct aie_slot *base, unsigned long ptr)
{
	u32 i = aie_objmap_home(ptr);

	while (base[i].ptr && base[i].ptr != ptr)
		i = (i + 1) & AIE_SHARD_MASK;
	return i;
}

/*
 * Track @ptr as @obj. When @ptr is tracked already (its free went unseen),
 * the old entry is returned in *@old, *@had_old is set, and @obj replaces
 * it. Returns false when the shard is full and @ptr is not tracked.
 */
bool aie_objmap_insert(const void *ptr, const struct aie_obj *obj,
		       struct aie_obj *old, bool *had_old)
{
	unsigned long key = (unsigned long)ptr;
	struct aie_shard *shard;
	struct aie_slot *base;
	unsigned long flags;
	bool ok = true;
	u32 i;

	shard = aie_objmap_shard(key, &base);
	raw_spin_lock_irqsave(&shard->lock, flags);
	i = aie_objmap_find(base, key);
	*had_old = base[i].ptr == key;
	if (*had_old) {
		*old = base[i].obj;
		base[i].obj = *obj;
	} else if (shard->used < AIE_SHARD_FILL) {
		base[i].obj = *obj;
		base[i].ptr = key;
		shard->used++;
	} else {
		ok = false;
	}
	raw_spin_unlock_irqrestore(&shard->lock, flags);
	return ok;
}

/*
 * Empty slot @i, then move back each following entry of the run that may
 * sit there, so that no probe sequence crosses an empty slot.
 */
static void aie_objmap_delete_at(struct aie_slot *base, u32 i)
{
	u32 j = i, home;

	for (;;) {
		j = (j + 1) & AIE_SHARD_MASK;
		if (!base[j].ptr)
			break;
		home = aie_objmap_home(base[j].ptr);
		/* The entry at j stays if its home lies cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		base[i] = base[j];
		i = j;
	}
	base[i].ptr = 0;
}

/* Stop tracking @ptr. Returns false when it was not tracked. */
bool aie_objmap_remove(const void *ptr, struct aie_obj *out)
{
	unsigned long key = (unsigned long)ptr;
	struct aie_shard *shard;
	struct aie_slot *base;
	unsigned long flags;
	bool found;
	u32 i;

	shard = aie_objmap_shard(key, &base);
	raw_spin_lock_irqsave(&shard->lock, flags);
	i = aie_objmap_find(base, key);
	found = base[i].ptr == key;
	if (found) {
		*out = base[i].obj;
		aie_objmap_delete_at(base, i);
		shard->used--;
	}
	raw_spin_unlock_irqrestore(&shard->lock, flags);
	return found;
}
