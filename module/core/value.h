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

/**
 * aie_size_to_units() - Convert an object's bytes to the value's units.
 * @type: the object's allocator.
 * @bytes: its size in bytes (for percpu, over every possible CPU).
 *
 * Context: Any context.
 * Return: pages for page and vmalloc, bytes per CPU for percpu, bytes for
 * slab.
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

/**
 * aie_units_to_size() - Convert the value's units back to bytes.
 * @type: the object's allocator.
 * @units: its size as the value keeps it (aie_size_to_units()).
 *
 * Context: Any context.
 * Return: the size in bytes (for percpu, over every possible CPU).
 */
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

/**
 * aie_obj_oversize() - Test whether a size and a slack do not fit a value.
 * @units: the size in the value's units.
 * @slack: the slack in bytes.
 *
 * Context: Any context.
 * Return: true when either does not fit its field, or @units is 0.
 */
static inline bool aie_obj_oversize(u64 units, u64 slack)
{
	return units - 1 >= FIELD_MAX(AIE_OBJ_SIZE) ||
	       slack > FIELD_MAX(AIE_OBJ_SLACK);
}

/**
 * aie_obj_val() - Pack an object's value.
 * @idx: its site's index, in range by the site's making.
 * @units: its size in the value's units, in range (aie_obj_oversize()).
 * @slack: its slack, in range too.
 * @accounted: whether it is accounted to a memory cgroup.
 *
 * Shifts, without FIELD_PREP()'s masks: every field is in range.
 *
 * Context: Any context.
 * Return: the value, AIE_OBJ_WEIGHTED clear.
 */
static inline u64 aie_obj_val(u32 idx, u64 units, u64 slack, bool accounted)
{
	return (u64)idx << AIE_OBJ_SITE_SHIFT | units |
	       slack << __bf_shf(AIE_OBJ_SLACK) |
	       (u64)accounted << __bf_shf(AIE_OBJ_ACCOUNTED);
}

/**
 * aie_weight_pack() - Pack a sampling weight as aie_weights keeps it.
 * @weight: the weight.
 *
 * Context: Any context.
 * Return: @weight shifted up, its low bit set, as the object map asks of
 * a value (objmap.c).
 */
static inline u64 aie_weight_pack(u64 weight)
{
	return weight << 1 | 1;
}

/**
 * aie_weight_unpack() - Unpack a sampling weight aie_weight_pack() packed.
 * @val: the packed weight.
 *
 * Context: Any context.
 * Return: the weight.
 */
static inline u64 aie_weight_unpack(u64 val)
{
	return val >> 1;
}

#endif /* _AIE_VALUE_H */
