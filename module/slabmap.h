/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabmap.h - the slab map's record and find, inline: hooks.c inlines them
 * into its fast paths. The map, its descriptors and its locking: see
 * slabmap.c.
 */
#ifndef _AIE_SLABMAP_H
#define _AIE_SLABMAP_H

#include <linux/jump_label.h>
#include <linux/log2.h>
#include <linux/mm.h>

#include "aie.h"

/*
 * A block of pages that holds slab objects: its first address, its
 * records (one 64-bit object map value per granule of 2^shift bytes, 0
 * when empty) and how many. 32 bytes: an index is a shift.
 */
struct aie_slabdesc {
	unsigned long first;
	u64 *rec;
	u32 nr;
	u8 shift;
	u8 order;		/* of the block */
	u8 class;		/* of the records' array (slabmap.c) */
} __aligned(32);

extern u32 *aie_slab_pfn;
extern unsigned long aie_slab_npfn;
extern struct aie_slabdesc *aie_slab_descs;
extern bool aie_slab_spilled;
DECLARE_STATIC_KEY_FALSE(aie_slabmap_key);

static __always_inline bool aie_slabmap_on(void)
{
	return static_branch_likely(&aie_slabmap_key);
}

/*
 * 1 + the index of the descriptor of the block holding @ptr, or 0. A
 * pointer outside the direct map falls past aie_slab_npfn.
 */
static __always_inline u32 aie_slabdesc_of(const void *ptr)
{
	unsigned long pfn = ((unsigned long)ptr - PAGE_OFFSET) >> PAGE_SHIFT;

	if (unlikely(pfn >= aie_slab_npfn))
		return 0;
	/* Pairs with the smp_store_release() in aie_slabdesc_make(). */
	return smp_load_acquire(&aie_slab_pfn[pfn]);
}

struct aie_slabdesc *aie_slabdesc_make(const void *ptr, u64 bytes);
void aie_slabmap_spill(void);

/* The address of record @i's granule: the key of its weight in aie_weights. */
static __always_inline unsigned long aie_slab_gkey(const struct aie_slabdesc *d,
						   unsigned long i)
{
	return d->first + (i << d->shift);
}

/*
 * The record of the slab object @ptr, whose slot is at least @bytes, with
 * the address of its granule in *@gkey; NULL when it can have none: no
 * descriptor to be had (see slabmap.c), or a block of a granule above the
 * slot, where two objects could fall on one record (the object map then
 * holds it, and frees look there too: aie_slabmap_spill()).
 */
static __always_inline u64 *aie_slabmap_slot(const void *ptr, u64 bytes,
					     unsigned long *gkey)
{
	u32 di = aie_slabdesc_of(ptr);
	struct aie_slabdesc *d;
	unsigned long i;

	if (likely(di)) {
		d = &aie_slab_descs[di - 1];
	} else {
		d = aie_slabdesc_make(ptr, bytes);
		if (!d)
			return NULL;
	}
	i = ((unsigned long)ptr - d->first) >> d->shift;
	if (unlikely(d->shift > ilog2(bytes) || i >= d->nr)) {
		aie_slabmap_spill();
		return NULL;
	}
	*gkey = aie_slab_gkey(d, i);
	return &d->rec[i];
}

/*
 * Record @val for the slab object @ptr, whose slot is at least @bytes:
 * INSERTED, or REPLACED with the record that was there in *@old (its free
 * went unseen; its weight, if any, under *@gkey), or FULL: no record to be
 * had, the object goes to the object map.
 */
static __always_inline enum aie_objmap_result
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
	this_cpu_inc(aie_stats.slab_records);
	return AIE_OBJMAP_INSERTED;
}

enum aie_slab_found {
	AIE_SLAB_FOUND,		/* its record, taken */
	AIE_SLAB_ABSENT,	/* tracked nowhere */
	AIE_SLAB_ELSEWHERE,	/* not here: look in the object map */
};

/*
 * Take the record of the slab object @ptr into *@val, the address of its
 * granule into *@gkey. An object of a block that has a descriptor is
 * recorded here or nowhere, unless an object was ever put in the object
 * map for want of a record (aie_slab_spilled).
 */
static __always_inline enum aie_slab_found
aie_slabmap_remove(const void *ptr, u64 *val, unsigned long *gkey)
{
	u32 di = aie_slabdesc_of(ptr);
	struct aie_slabdesc *d;
	unsigned long i;

	if (!di)
		return AIE_SLAB_ELSEWHERE;
	d = &aie_slab_descs[di - 1];
	i = ((unsigned long)ptr - d->first) >> d->shift;
	if (likely(i < d->nr)) {
		*val = d->rec[i];
		if (likely(*val)) {
			WRITE_ONCE(d->rec[i], 0);
			this_cpu_dec(aie_stats.slab_records);
			*gkey = aie_slab_gkey(d, i);
			return AIE_SLAB_FOUND;
		}
	}
	return likely(!READ_ONCE(aie_slab_spilled)) ? AIE_SLAB_ABSENT :
						      AIE_SLAB_ELSEWHERE;
}

#endif /* _AIE_SLABMAP_H */
