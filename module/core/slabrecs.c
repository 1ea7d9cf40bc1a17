// SPDX-License-Identifier: GPL-2.0
/*
 * slabrecs.c - the slab map's records: the pool that gives each slab block
 * an array of records (slabmap.c), made a chunk at a time as the blocks
 * need them, up to a ceiling.
 *
 *   aie_slab_chunks[]   the records, AIE_SLAB_CHUNK to a chunk: record i
 *                       is entry i % AIE_SLAB_CHUNK of chunk
 *                       i / AIE_SLAB_CHUNK (aie_slab_record(), whose
 *                       header says how the chunk's address is kept)
 *   aie_slab_order[]    per AIE_SLAB_MIN_RECORDS records: 1 + the order of
 *                       the block whose array starts there and the
 *                       array's class (AIE_SLAB_ORD_*), or 0
 *
 * Arrays are of AIE_SLAB_CLASSES sizes, 32 to 512 records, each aligned to
 * its size; a freed array goes on its class's free list (linked through
 * its first record) and is handed out again before any new one. New ones
 * come from the bump, below the records made. Record 0 is never handed
 * out: the index of every special entry of the slab map (slabmap.h).
 *
 * The chunks are made ahead of need by a work item (aie_slab_grow()), as
 * the site counters are (sites.c). A hook cannot allocate: an
 * array_get() that leaves fewer than half aie_slab_ahead() records past
 * the bump queues an irq_work (the hook may hold locks queue_work()
 * takes), whose handler queues the work for a high-priority worker of the
 * same CPU, and the work makes chunks until aie_slab_ahead() are past the
 * bump again, or the ceiling is reached.
 * A block that finds the records spent gets none meanwhile, and its
 * objects go to the object map (slabmap.c); at the ceiling that is
 * counted (slab_map_full) and said once in the kernel log.
 *
 * Memory: 8 bytes a record made, and a byte of aie_slab_order per 32
 * records of the ceiling (made at load: the slow paths alone read it).
 *
 * Notes on locking
 * ----------------
 * - aie_slab_lock (raw, interrupts off) guards the free lists, the bump,
 *   aie_slab_order and the full count; slabmap.c takes it around every
 *   call here but init, exit, the readers of the figures and, in an NMI
 *   that cannot have it, aie_slab_array_order() at a block's drop, and
 *   holds it while it sets or clears a block's entries. Any context, NMI
 *   included (there only tried: core/nmi.h).
 * - aie_slab_made and the chunks are written by the work alone (never two
 *   at once; init before any hook): each chunk's pointer, then the count
 *   with smp_store_release(), which array_get() reads with
 *   smp_load_acquire(). A hook finds a chunk through an entry that
 *   slabmap.c stored with release after it was handed an array of it: the
 *   chunk's pointer is an address dependency of the entry.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "slabrecs.h"

unsigned long aie_slab_chunks[AIE_SLAB_CHUNKS];
DEFINE_RAW_SPINLOCK(aie_slab_lock);

/* An aie_slab_order[] byte: 1 + the block's order, and its array's class. */
#define AIE_SLAB_ORD_ORDER	GENMASK(3, 0)
#define AIE_SLAB_ORD_CLASS	GENMASK(7, 4)

static u8 *aie_slab_order;		/* per AIE_SLAB_MIN_RECORDS records */
static unsigned long aie_slab_made;	/* records in chunks made */
static unsigned long aie_slab_ceiling;	/* records that may be made */
static unsigned long aie_slab_bump;	/* records never handed out from here */
static unsigned long aie_slab_free_head[AIE_SLAB_CLASSES]; /* 1 + index */
static unsigned long aie_slab_full;	/* arrays refused at the ceiling */

/* Find the smallest class whose arrays hold @nr records. */
static unsigned int aie_slab_class(unsigned int nr)
{
	unsigned int c = 0;

	while ((AIE_SLAB_MIN_RECORDS << c) < nr)
		c++;
	return c;
}

/* Count the records to keep made past @bump: two chunks, or 1/32 more. */
static unsigned long aie_slab_ahead(unsigned long bump)
{
	return max(2 * AIE_SLAB_CHUNK, bump / 32);
}

/*
 * Make chunks until @want records are made, or the ceiling is. Process
 * context: the work, and init before any hook. The only writer of
 * aie_slab_made and the chunks.
 */
static void aie_slab_grow_to(unsigned long want)
{
	unsigned long made = aie_slab_made;
	u64 *chunk;

	while (made < aie_slab_ceiling && made < want) {
		chunk = kvcalloc(AIE_SLAB_CHUNK, sizeof(u64),
				 GFP_KERNEL | __GFP_NOWARN);
		if (!chunk) {
			pr_warn_once("no memory for slab map records past %lu\n",
				     made);
			return;
		}
		aie_slab_chunks[made / AIE_SLAB_CHUNK] =
			(unsigned long)chunk - made * sizeof(u64);
		made += AIE_SLAB_CHUNK;
		/* The chunk, then the count that lets it be handed out. */
		smp_store_release(&aie_slab_made, made);
	}
}

/*
 * Make aie_slab_ahead() records past the bump, or up to the ceiling, and
 * warn once when the ceiling refused an array. The work: process context.
 */
static void aie_slab_grow(struct work_struct *work)
{
	unsigned long bump = READ_ONCE(aie_slab_bump);

	aie_slab_grow_to(bump + aie_slab_ahead(bump));
	if (aie_slab_made >= aie_slab_ceiling && READ_ONCE(aie_slab_full))
		pr_warn_once("slab map full at %lu records (max_records): objects of new slabs go to the object map (slab_map_full)\n",
			     aie_slab_made);
}

static DECLARE_WORK(aie_slab_grow_work, aie_slab_grow);

/*
 * Queue the work that makes chunks. Hardirq context, with no lock of the
 * hook's held. The work runs on this CPU at high priority: it races the
 * allocations of the task that asked, which it preempts at that task's
 * next reschedule point, where an unbound worker would wait for whatever
 * CPU time the scheduler gives it.
 */
static void aie_slab_grow_irq(struct irq_work *work)
{
	queue_work(system_highpri_wq, &aie_slab_grow_work);
}

static DEFINE_IRQ_WORK(aie_slab_grow_iw, aie_slab_grow_irq);

/**
 * aie_slab_array_get() - Take an array of records for a slab block.
 * @nr: records the block needs, at most AIE_SLAB_MAX_RECORDS.
 * @order: the block's order, kept beside the array.
 *
 * Take it from its class's free list, else from the bump. Ask for more
 * chunks once fewer than half aie_slab_ahead() are left past the bump
 * (irq_work_queue() does nothing while it is pending), and once the
 * ceiling refuses an array, for the work's warning. Arrays come back
 * zeroed (aie_slab_block_drop()).
 *
 * Context: Any context, NMI included; aie_slab_lock held, interrupts off.
 * Return: the index of the array's first record, or -1 when none can be
 * had.
 */
long aie_slab_array_get(unsigned int nr, unsigned int order)
{
	unsigned int c = aie_slab_class(nr);
	unsigned long n = AIE_SLAB_MIN_RECORDS << c, i;
	/* Pairs with aie_slab_grow_to()'s release: the chunks below are made. */
	unsigned long made = smp_load_acquire(&aie_slab_made);

	lockdep_assert_held(&aie_slab_lock);
	if (aie_slab_free_head[c]) {
		i = aie_slab_free_head[c] - 1;
		aie_slab_free_head[c] = *aie_slab_record(i);
		*aie_slab_record(i) = 0;
		goto found;
	}
	i = ALIGN(aie_slab_bump, n);
	if (made < aie_slab_ceiling && made < i + n + aie_slab_ahead(i) / 2)
		irq_work_queue(&aie_slab_grow_iw);
	if (i + n > made) {
		if (made >= aie_slab_ceiling && !aie_slab_full++)
			irq_work_queue(&aie_slab_grow_iw);
		return -1;
	}
	WRITE_ONCE(aie_slab_bump, i + n);
found:
	aie_slab_order[i / AIE_SLAB_MIN_RECORDS] =
		FIELD_PREP(AIE_SLAB_ORD_CLASS, c) |
		FIELD_PREP(AIE_SLAB_ORD_ORDER, order + 1);
	return i;
}

/**
 * aie_slab_array_put() - Give an array back to the pool.
 * @base: the index of its first record.
 * @nr: the records it was taken for; all of them 0.
 *
 * Context: Any context, NMI included; aie_slab_lock held, interrupts off.
 */
void aie_slab_array_put(unsigned long base, unsigned int nr)
{
	unsigned int c = aie_slab_class(nr);

	lockdep_assert_held(&aie_slab_lock);
	aie_slab_order[base / AIE_SLAB_MIN_RECORDS] = 0;
	*aie_slab_record(base) = aie_slab_free_head[c];
	aie_slab_free_head[c] = base + 1;
}

/**
 * aie_slab_array_order() - Look up the block an array was taken for.
 * @base: a record index.
 *
 * Context: Any context, NMI included; aie_slab_lock held, or by the drop
 * of the block whose array starts at @base, in an NMI that cannot have
 * the lock: no one else writes that array's byte then.
 * Return: 1 + the order of the block whose array starts at @base, or 0
 * when no array handed out starts there.
 */
unsigned int aie_slab_array_order(unsigned long base)
{
	if (base >= aie_slab_made || base % AIE_SLAB_MIN_RECORDS)
		return 0;
	return FIELD_GET(AIE_SLAB_ORD_ORDER,
			 aie_slab_order[base / AIE_SLAB_MIN_RECORDS]);
}

/**
 * aie_slab_records_used() - Count the records set in the arrays handed out.
 *
 * Walk aie_slab_order[] and those arrays, so that the hooks count
 * nothing: exact while no hook sets or clears a record.
 *
 * Context: Process context (the stats file); reschedules, without the
 * lock: the arrays below the records made stay readable, whoever holds
 * them.
 * Return: the records set.
 */
unsigned long aie_slab_records_used(void)
{
	/* Pairs with aie_slab_grow_to()'s release: the chunks below are made. */
	unsigned long made = smp_load_acquire(&aie_slab_made);
	unsigned long i = 0, end = min(READ_ONCE(aie_slab_bump), made), n = 0;
	unsigned long len, k;
	u8 ord;

	while (i < end) {
		ord = READ_ONCE(aie_slab_order[i / AIE_SLAB_MIN_RECORDS]);
		len = AIE_SLAB_MIN_RECORDS;
		if (ord) {
			len <<= FIELD_GET(AIE_SLAB_ORD_CLASS, ord);
			for (k = 0; k < len; k++) {
				/* Racing the hooks: a count, not a record. */
				n += !!data_race(*aie_slab_record(i + k));
			}
		}
		i += len;
		if (!(i % AIE_SLAB_CHUNK))
			cond_resched();
	}
	return n;
}

/**
 * aie_slab_records_init() - Make the pool of records.
 * @start: records to make now: whole chunks, at least one.
 * @ceiling: records the pool may grow to, at most AIE_SLAB_MAX_POOL.
 *
 * Context: Process context, before any hook; may sleep.
 * Return: 0, or -ENOMEM.
 */
int aie_slab_records_init(unsigned long start, unsigned long ceiling)
{
	aie_slab_ceiling = clamp_t(unsigned long,
				   round_up(ceiling, AIE_SLAB_CHUNK),
				   AIE_SLAB_CHUNK, AIE_SLAB_MAX_POOL);
	start = clamp_t(unsigned long, round_up(start, AIE_SLAB_CHUNK),
			AIE_SLAB_CHUNK, aie_slab_ceiling);
	aie_slab_made = 0;
	aie_slab_full = 0;
	memset(aie_slab_free_head, 0, sizeof(aie_slab_free_head));
	aie_slab_order = vzalloc(aie_slab_ceiling / AIE_SLAB_MIN_RECORDS);
	if (!aie_slab_order)
		return -ENOMEM;
	aie_slab_bump = AIE_SLAB_MIN_RECORDS;	/* record 0: the entries' */
	aie_slab_grow_to(start);
	if (aie_slab_made < start) {
		aie_slab_records_exit();
		return -ENOMEM;
	}
	return 0;
}

/**
 * aie_slab_records_exit() - Free the records and stop the work.
 *
 * Context: Process context, once no hook can run; may sleep.
 */
void aie_slab_records_exit(void)
{
	unsigned long i;

	/* A kick's irq_work may queue the work: the irq_work first. */
	irq_work_sync(&aie_slab_grow_iw);
	cancel_work_sync(&aie_slab_grow_work);
	for (i = 0; i < aie_slab_made / AIE_SLAB_CHUNK; i++) {
		kvfree(aie_slab_record(i * AIE_SLAB_CHUNK));
		aie_slab_chunks[i] = 0;
	}
	aie_slab_made = 0;
	vfree(aie_slab_order);
	aie_slab_order = NULL;
}

/**
 * aie_slab_records_made() - Count the records made.
 *
 * Context: Any context.
 * Return: the records in the chunks made.
 */
unsigned long aie_slab_records_made(void)
{
	return READ_ONCE(aie_slab_made);
}

/**
 * aie_slab_records_ceiling() - Tell the records the pool may grow to.
 *
 * Context: Any context.
 * Return: the ceiling, in records.
 */
unsigned long aie_slab_records_ceiling(void)
{
	return aie_slab_ceiling;
}

/**
 * aie_slab_records_full() - Count the arrays refused at the ceiling.
 *
 * Context: Any context.
 * Return: the arrays refused.
 */
unsigned long aie_slab_records_full(void)
{
	return READ_ONCE(aie_slab_full);
}

/**
 * aie_slab_records_memory() - Tell the pool's memory.
 *
 * Context: Any context.
 * Return: bytes: the chunks' table, the records made and aie_slab_order.
 */
size_t aie_slab_records_memory(void)
{
	if (!aie_slab_order)
		return 0;
	return sizeof(aie_slab_chunks) +
	       aie_slab_records_made() * sizeof(u64) +
	       aie_slab_ceiling / AIE_SLAB_MIN_RECORDS;
}
