/* SPDX-License-Identifier: GPL-2.0 */
/*
 * value.h - what the maps keep for each live tracked object: one 64-bit
 * value, packed and unpacked here alone.
 *
 * The value holds the object's size (bytes for slab, bytes per CPU for
 * percpu, pages for page and vmalloc), its site's index, its slack,
 * whether it is accounted to a memory cgroup (extras/memcg.c), and
 * whether aie_weights (core/objects.c) holds a sampling weight for it. The
 * size comes first and is never 0: the object map takes a value whose
 * low 32 bits are 0 for an empty slot. The page map keeps a 32-bit
 * record made from it (pagemap.h).
 */
#ifndef _AIE_VALUE_H
#define _AIE_VALUE_H

#include <linux/bitfield.h>
#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/mm.h>

#include "aie.h"

#define AIE_OBJ_SITE_SHIFT	24
#define AIE_OBJ_SIZE		GENMASK_ULL(23, 0)
#define AIE_OBJ_SITE		GENMASK_ULL(AIE_OBJ_SITE_SHIFT + \
					    AIE_SITE_BITS - 1, \
					    AIE_OBJ_SITE_SHIFT)
#define AIE_OBJ_SLACK		GENMASK_ULL(61, 40)
#define AIE_OBJ_ACCOUNTED	BIT_ULL(62)
#define AIE_OBJ_WEIGHTED	BIT_ULL(63)

static_assert(AIE_OBJ_SITE_SHIFT + AIE_SITE_BITS == 40);

/*
 * An object's size as the value keeps it: pages for page and vmalloc,
 * bytes per CPU for percpu, bytes for slab.
 */
static inline u64 aie_size_to_units(enum aie_type type, u64 bytes)
{
	switch (type) {
	case AIE_TYPE_PAGE:
	case AIE_TYPE_VMALLOC:
		return bytes >> PAGE_SHIFT;
	case AIE_TYPE_PERCPU:
		return div_u64(bytes, num_possible_cpus());
	default:
		return bytes;
	}
}

static inline u64 aie_units_to_size(enum aie_type type, u64 units)
{
	switch (type) {
	case AIE_TYPE_PAGE:
	case AIE_TYPE_VMALLOC:
		return units << PAGE_SHIFT;
	case AIE_TYPE_PERCPU:
		return units * num_possible_cpus();
	default:
		return units;
	}
}

/* Whether @units and @slack do not fit the value's fields. */
static inline bool aie_obj_oversize(u64 units, u64 slack)
{
	return units - 1 >= FIELD_MAX(AIE_OBJ_SIZE) ||
	       slack > FIELD_MAX(AIE_OBJ_SLACK);
}

/*
 * The value of an object of site @idx, @units and @slack, all in range
 * (aie_obj_oversize() false; a site's index is by its making): shifts,
 * without FIELD_PREP()'s masks.
 */
static inline u64 aie_obj_val(u32 idx, u64 units, u64 slack, bool accounted)
{
	return (u64)idx << AIE_OBJ_SITE_SHIFT | units |
	       slack << __bf_shf(AIE_OBJ_SLACK) |
	       (u64)accounted << __bf_shf(AIE_OBJ_ACCOUNTED);
}

/*
 * A weight as aie_weights keeps it: shifted up, its low bit set, as the
 * object map asks of a value (objmap.c).
 */
static inline u64 aie_weight_pack(u64 weight)
{
	return weight << 1 | 1;
}

static inline u64 aie_weight_unpack(u64 val)
{
	return val >> 1;
}

#endif /* _AIE_VALUE_H */
