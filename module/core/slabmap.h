/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabmap.h - the slab map (slabmap.c): its record and find are inline
 * here, for the tracking's fast paths (track/) and the slab free probes
 * (hooks/slab.c). The map, its blocks and its locking: see slabmap.c.
 */
#ifndef _AIE_SLABMAP_H
#define _AIE_SLABMAP_H

#include <linux/bitfield.h>
#include <linux/jump_label.h>
#include <linux/mm.h>

#include "aie.h"
#include "arch/arch.h"
#include "objmap.h"
#include "slabrecs.h"
#include "stats.h"

/*
 * A page frame's entry in aie_slab_pfn: 0 for a page the map has not
 * seen. For a page of a block that has records: in its top 25 bits
 * (from AIE_SLAB_INDEX_SHIFT), the index (slabrecs.h) of the record
 * of the page's first granule less the number of that granule in the
 * address space (the page's address >> shift), modulo 2^25; then
 * AIE_SLAB_SPILT; then the log2 of the granule (3 at least: never 0). The
 * object at @ptr has the record of that index plus @ptr >> shift, modulo
 * 2^25: a shift, and an add and a shift in 32 bits, whose wrap is the
 * modulo (aie_slab_rec()). The shift takes six bits, the width x86 takes
 * a 64-bit shift's count from, so that the mask costs nothing.
 *
 * AIE_SLAB_SPILT: an object of the block went to the object map, so a
 * free that finds no record looks there. AIE_SLAB_NONE, a block that has
 * no records (none to be had, or too many granules): every bit set, so
 * spilt, with a shift no slot passes; a kernel address shifted by 63 is
 * 1, which takes it to record 0, which stays 0. AIE_SLAB_LARGE, the first
 * page of a large kmalloc() whose record is in the entries of its second
 * and third pages, low half then high half (aie_slab_large_put()): spilt
 * too, with a shift of 62, which no slot passes either and which makes a
 * kernel address 3, and an index that 3 takes to record 0.
 */
#define AIE_SLAB_SHIFT_MASK	0x3fU
#define AIE_SLAB_SPILT		BIT(6)
#define AIE_SLAB_INDEX_SHIFT	(32 - AIE_SLAB_INDEX_BITS)
#define AIE_SLAB_NONE		U32_MAX
#define AIE_SLAB_LARGE		0xfffffefeU

extern u32 *aie_slab_pfn;
extern unsigned long aie_slab_npfn;
DECLARE_STATIC_KEY_FALSE(aie_slabmap_key);

/**
 * aie_slabmap_on() - Tell whether the slab map is on.
 *
 * Context: Any context.
 * Return: true once aie_slabmap_start() has run, until the map's exit.
 */
static inline bool aie_slabmap_on(void)
{
	return static_branch_likely(&aie_slabmap_key);
}

/**
 * aie_slab_pfn_of() - Find the page frame of a direct-map address.
 * @ptr: the address.
 *
 * Context: Any context.
 * Return: @ptr's page frame number if it is in the direct map; else a
 * number past aie_slab_npfn.
 */
static inline unsigned long aie_slab_pfn_of(const void *ptr)
{
	return aie_arch_lm_pfn(ptr);
}

/**
 * aie_slab_entry_at() - Read the entry of a page frame.
 * @pfn: the page frame, below aie_slab_npfn.
 *
 * Context: Any context, NMI included; no lock.
 * Return: the entry.
 */
static inline u32 aie_slab_entry_at(unsigned long pfn)
{
	/*
	 * Pairs with the cmpxchg_release() in aie_slab_block_make(): what
	 * the hook reads after the entry, the record, is at an address made
	 * from the entry, which orders it. A plain load, which the compiler
	 * may fold into its address: an entry that changes under a hook of a
	 * live object's changes in AIE_SLAB_SPILT alone (slabmap.c).
	 */
	return data_race(aie_slab_pfn[pfn]);
}

/**
 * aie_slab_entry() - Read the entry of the page frame holding @ptr.
 * @ptr: a kernel address; one outside the direct map falls past
 *       aie_slab_npfn.
 *
 * Context: Any context, NMI included; no lock.
 * Return: the entry, or 0 past the map.
 */
static inline u32 aie_slab_entry(const void *ptr)
{
	unsigned long pfn = aie_slab_pfn_of(ptr);

	if (unlikely(pfn >= aie_slab_npfn))
		return 0;
	return aie_slab_entry_at(pfn);
}

/**
 * aie_slab_shift() - Read the log2 of a block's granule from an entry.
 * @entry: a page frame's entry.
 *
 * Return: the shift, 3 at least in an entry not 0.
 */
static inline unsigned int aie_slab_shift(u32 entry)
{
	return entry & AIE_SLAB_SHIFT_MASK;
}

/**
 * aie_slab_index_g() - Find the index of a granule's record.
 * @entry: the entry of the granule's page.
 * @g: the granule's number in the address space (its address >> shift).
 *
 * Return: the record's index, modulo 2^25.
 */
static inline u32 aie_slab_index_g(u32 entry, u32 g)
{
	return (entry + (g << AIE_SLAB_INDEX_SHIFT)) >> AIE_SLAB_INDEX_SHIFT;
}

/**
 * aie_slab_index() - Find the index of an object's record.
 * @entry: the entry of the object's page.
 * @ptr: the object's address.
 *
 * Return: its granule's number plus the entry's index, in 32 bits.
 */
static inline u32 aie_slab_index(u32 entry, unsigned long ptr)
{
	return aie_slab_index_g(entry, ptr >> aie_slab_shift(entry));
}

/**
 * aie_slab_rec() - Find an object's record.
 * @entry: the entry of the object's page, not 0.
 * @ptr: the object's address.
 *
 * Return: the record's address.
 */
static inline u64 *aie_slab_rec(u32 entry, const void *ptr)
{
	return aie_slab_record(aie_slab_index(entry, (unsigned long)ptr));
}

/**
 * aie_slab_gkey() - Find the address of the granule @ptr falls in.
 * @entry: the entry of @ptr's page.
 * @ptr: the object's address.
 *
 * A block is aligned to its size, so to its granule.
 *
 * Return: the granule's address: the key of the object's weight in
 * aie_weights.
 */
static inline unsigned long aie_slab_gkey(u32 entry, const void *ptr)
{
	unsigned int shift = aie_slab_shift(entry);

	return (unsigned long)ptr >> shift << shift;
}

/* Charges back the record @val, at @gkey, whose free was not seen. */
typedef void (*aie_slab_unseen_fn)(unsigned long gkey, u64 val);

int aie_slabmap_init(unsigned long start, unsigned long ceiling, bool pages,
		     aie_slab_unseen_fn unseen);
void aie_slabmap_start(void);
void aie_slabmap_exit(void);
unsigned long aie_slabmap_capacity(void);
unsigned int aie_slabmap_blocks(void);
size_t aie_slabmap_memory(void);
bool aie_slab_block_drop(unsigned long pfn, unsigned int order, u32 e);
u32 aie_slab_block_make(const void *ptr, u64 bytes);
bool aie_slab_large_put(const void *ptr, u64 val);

/**
 * aie_slab_large_take() - Take a large kmalloc()'s record from its entries.
 * @ptr: the object, whose first page's entry is AIE_SLAB_LARGE.
 * @val: set to the record.
 *
 * Clear its entries too: at its free, or at its block's
 * (aie_slab_block_drop()) if that went unseen.
 *
 * Context: Any context, NMI included. No lock, as at the put
 * (aie_slab_large_put()).
 * Return: false if there was none (cannot happen: the entry says there
 * is).
 */
static inline bool aie_slab_large_take(const void *ptr, u64 *val)
{
	u32 *pe = &aie_slab_pfn[aie_slab_pfn_of(ptr)];

	*val = (u64)pe[2] << 32 | pe[1];
	WRITE_ONCE(pe[1], 0);
	WRITE_ONCE(pe[2], 0);
	WRITE_ONCE(pe[0], 0);
	if (!*val)
		return false;
	this_cpu_dec(aie_stats.slab_large);
	return true;
}

/*
 * Take what aie_slab_walk() calls for each block with records: its first
 * page (NULL for a large kmalloc()), and its live records' count and
 * bytes; return its work, in records read (aie_slab_walk()'s budget).
 */
typedef unsigned int (*aie_slab_walk_fn)(void *arg, struct page *head,
					 u64 objects, u64 bytes);
unsigned long aie_slab_walk(unsigned long pfn, unsigned long budget,
			    aie_slab_walk_fn fn, void *arg);

void aie_slab_spill(const void *ptr, u32 entry);
void aie_slab_unmark(const void *ptr);

/**
 * aie_slabmap_slot() - Find the record for a new slab object.
 * @ptr: the object.
 * @bytes: its slot size.
 * @gkey: set to the address of its granule.
 *
 * Make its block's entries at the block's first allocation
 * (aie_slab_block_make()). An object that can have no record goes to the
 * object map: its block has no records (see slabmap.c), or a granule
 * above the slot, which a record keyed by granule cannot vouch for (the
 * slot the first allocation in the block reported was larger: the
 * block's stride is the larger). Its block is then marked spilt first,
 * so that its free looks there too (aie_slab_spill()).
 *
 * Context: Any context, NMI included (the hooks, preemption disabled).
 * Return: the record's address, or NULL when it can have none.
 */
static inline u64 *aie_slabmap_slot(const void *ptr, u64 bytes,
				    unsigned long *gkey)
{
	u32 e = aie_slab_entry(ptr);

	if (unlikely(!e)) {
		e = aie_slab_block_make(ptr, bytes);
		if (!e)
			return NULL;
	}
	if (unlikely(!(bytes >> aie_slab_shift(e)))) {
		if (e != AIE_SLAB_NONE)
			aie_slab_spill(ptr, e);
		return NULL;
	}
	*gkey = aie_slab_gkey(e, ptr);
	return aie_slab_rec(e, ptr);
}

/**
 * aie_slabmap_insert() - Record a new slab object.
 * @ptr: the object.
 * @bytes: its slot size.
 * @val: its record (core/value.h), not 0.
 * @old: set to the record that was there, on AIE_OBJMAP_REPLACED.
 * @gkey: set to the address of its granule, the key of its weight.
 *
 * Context: Any context, NMI included (the hooks, preemption disabled);
 * no lock: between its allocation and its free the record is the
 * object's owner's alone.
 * Return: AIE_OBJMAP_INSERTED; AIE_OBJMAP_REPLACED when a record was
 * there (its free went unseen; its weight, if any, under *@gkey); or
 * AIE_OBJMAP_FULL: no record to be had, the object goes to the object
 * map.
 */
static inline enum aie_objmap_result
aie_slabmap_insert(const void *ptr, u64 bytes, u64 val, u64 *old,
		   unsigned long *gkey)
{
	u64 *rec = aie_slabmap_slot(ptr, bytes, gkey);

	if (!rec)
		return AIE_OBJMAP_FULL;
	*old = *rec;
	WRITE_ONCE(*rec, val);
	if (unlikely(*old))
		return AIE_OBJMAP_REPLACED;
	return AIE_OBJMAP_INSERTED;
}

enum aie_slab_found {
	AIE_SLAB_FOUND,		/* its record, taken */
	AIE_SLAB_ABSENT,	/* tracked nowhere */
	AIE_SLAB_ELSEWHERE,	/* not here: look in the object map */
	AIE_SLAB_MARKED,	/* the object map, then aie_slab_unmark() */
	AIE_SLAB_LARGE_FOUND,	/* in its pages' entries: aie_slab_large_take() */
};

/**
 * aie_slabmap_remove() - Take the record of a slab object at its free.
 * @ptr: the object.
 * @val: set to its record, on AIE_SLAB_FOUND.
 * @entry: set to its page frame's entry, on AIE_SLAB_FOUND
 *         (aie_slab_gkey() gives its granule from there).
 *
 * An object of a block that has records is recorded there or nowhere,
 * unless the block is spilt: an object of it went to the object map. An
 * object whose page has no entry is tracked nowhere: the page of every
 * tracked object's first byte, which its free names, has one, where the
 * map covers it (aie_slab_block_make()).
 *
 * Context: Any context, NMI included (the hooks, preemption disabled);
 * no lock (see slabmap.c).
 * Return: AIE_SLAB_FOUND, the record taken; AIE_SLAB_ABSENT, tracked
 * nowhere; AIE_SLAB_ELSEWHERE for a pointer past the map, every pointer
 * with the map off (aie_slab_npfn 0) and an object of a spilt block: look
 * in the object map; AIE_SLAB_MARKED for one of a block marked
 * AIE_SLAB_NONE: look there, then aie_slab_unmark(); AIE_SLAB_LARGE_FOUND
 * for a large kmalloc() whose record is in its pages' entries:
 * aie_slab_large_take().
 */
static inline enum aie_slab_found
aie_slabmap_remove(const void *ptr, u64 *val, u32 *entry)
{
	unsigned long pfn = aie_slab_pfn_of(ptr);
	u64 *rec;
	u32 e;

	if (unlikely(pfn >= aie_slab_npfn))
		return AIE_SLAB_ELSEWHERE;
	e = aie_slab_entry_at(pfn);
	if (!e)
		return AIE_SLAB_ABSENT;
	rec = aie_slab_rec(e, ptr);
	*val = *rec;
	if (likely(*val)) {
		WRITE_ONCE(*rec, 0);
		*entry = e;
		return AIE_SLAB_FOUND;
	}
	if (likely(!(e & AIE_SLAB_SPILT)))
		return AIE_SLAB_ABSENT;
	if (e == AIE_SLAB_LARGE)
		return AIE_SLAB_LARGE_FOUND;
	return e == AIE_SLAB_NONE ? AIE_SLAB_MARKED : AIE_SLAB_ELSEWHERE;
}

#endif /* _AIE_SLABMAP_H */
