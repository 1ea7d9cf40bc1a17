/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slabrecs.h - the slab map's records (slabrecs.c): a pool of arrays of
 * object map values, one array per slab block, made in chunks as the
 * blocks need them. The lookup of a record by its index is inline here,
 * for the hooks' fast paths (slabmap.h, track/slab_alloc.c).
 */
#ifndef _AIE_SLABRECS_H
#define _AIE_SLABRECS_H

#include <linux/bits.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#define AIE_SLAB_MIN_RECORDS	32
#define AIE_SLAB_CLASSES	5	/* 32, 64, 128, 256, 512 records */
#define AIE_SLAB_MAX_RECORDS	(AIE_SLAB_MIN_RECORDS << (AIE_SLAB_CLASSES - 1))
/* A record's index has 25 bits, the top of a slab map entry (slabmap.h). */
#define AIE_SLAB_INDEX_BITS	25
#define AIE_SLAB_MAX_POOL	BIT(AIE_SLAB_INDEX_BITS)
/* Records are made this many at a time: 128 KiB, a chunk. */
#define AIE_SLAB_CHUNK_SHIFT	14
#define AIE_SLAB_CHUNK		BIT(AIE_SLAB_CHUNK_SHIFT)
#define AIE_SLAB_CHUNKS		(AIE_SLAB_MAX_POOL / AIE_SLAB_CHUNK)

/*
 * Chunk c's address less that of its first record's place in a flat
 * array, c * AIE_SLAB_CHUNK records: record i is at this entry of its
 * chunk plus i * 8, with no mask. A kmalloc pair, which looks a record up
 * twice, costs 2 instructions less than with the chunk's address and
 * i % AIE_SLAB_CHUNK (make bench, 6.12).
 */
extern unsigned long aie_slab_chunks[AIE_SLAB_CHUNKS];
extern raw_spinlock_t aie_slab_lock;

/**
 * aie_slab_record() - Find the record of index @i.
 * @i: a record of an array handed out (so its chunk is made), or record 0
 *     (always made, always 0).
 *
 * An array lies in one chunk: it is aligned to its size, which divides
 * the chunk's.
 *
 * Context: Any context, NMI included; no lock.
 * Return: the record's address.
 */
static inline u64 *aie_slab_record(u32 i)
{
	return (u64 *)(aie_slab_chunks[i >> AIE_SLAB_CHUNK_SHIFT] +
		       (unsigned long)i * sizeof(u64));
}

int aie_slab_records_init(unsigned long start, unsigned long ceiling);
void aie_slab_records_exit(void);
long aie_slab_array_get(unsigned int nr, unsigned int order);
void aie_slab_array_put(unsigned long base, unsigned int nr);
unsigned int aie_slab_array_order(unsigned long base);
unsigned long aie_slab_records_made(void);
unsigned long aie_slab_records_used(void);
unsigned long aie_slab_records_ceiling(void);
unsigned long aie_slab_records_full(void);
size_t aie_slab_records_memory(void);

#endif /* _AIE_SLABRECS_H */
