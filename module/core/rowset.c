// SPDX-License-Identifier: GPL-2.0
/*
 * rowset.c - the ioctls' content id (iface/ioctl.c): a count of the
 * changes made to the rows a reader walks by position, other than a row
 * that comes at the end of the table.
 *
 * A change is made between aie_rowset_begin() and aie_rowset_end(): a row
 * that appears before the last (a helper's or a wrapper's site charged
 * for the first time, core/sites.c), a row's name ("locate"), a module
 * that loads, ends its init or unloads (extras/modules.c), and "reset".
 * A new site's row needs none: the ioctls' walks end before the first
 * site claimed but not yet published (aie_site_settled(), sites.h), so
 * a row they have not shown comes after every row they have.
 *
 * The id is the count of changes made, when none is being made; while
 * one is, each read gives a new id with AIE_ROWSET_CHANGING set. A
 * reader that reads the same id before and after its walk therefore
 * walked rows that no change touched meanwhile: a change that began
 * after the first read had either ended by the second, which counts it,
 * or not, and the second is a new id. Two reads of the count that agree
 * at the second read (the finished, then the started) mean no change
 * was in flight there: finished never passes started, and neither goes
 * back.
 *
 * Notes on locking
 * ----------------
 * No lock: three atomic64_t. begin and end run in any context, NMI
 * included: the hooks, with preemption disabled, when a helper's or a
 * wrapper's site is first charged for itself (kmalloc_nolock()'s too);
 * control writes and the module notifier, in process context. They never
 * sleep; their barriers order the change after the begin and before the
 * end, and pair with the read barriers in aie_rowset_id(), process
 * context (the ioctl).
 */

#include <linux/atomic.h>

#include "rowset.h"

static atomic64_t aie_rowset_started = ATOMIC64_INIT(0);
static atomic64_t aie_rowset_finished = ATOMIC64_INIT(0);
static atomic64_t aie_rowset_busy_reads = ATOMIC64_INIT(0);

/**
 * aie_rowset_begin() - Begin a change to the rows.
 *
 * A reader of the id sees the change as being made from here; the change
 * is ordered after the count (smp_mb__after_atomic()).
 *
 * Context: Any context, NMI included; never sleeps.
 */
void aie_rowset_begin(void)
{
	atomic64_inc(&aie_rowset_started);
	/* The count, then the change: pairs with aie_rowset_id()'s rmb. */
	smp_mb__after_atomic();
}

/**
 * aie_rowset_end() - End a change to the rows: the id counts it from here.
 *
 * The change is ordered before the count (smp_mb__before_atomic()).
 *
 * Context: Any context, NMI included; never sleeps.
 */
void aie_rowset_end(void)
{
	/* The change, then the count: pairs with aie_rowset_id()'s rmb. */
	smp_mb__before_atomic();
	atomic64_inc(&aie_rowset_finished);
}

/**
 * aie_rowset_id() - Read the content id.
 *
 * A reader that reads the same id before and after its walk walked rows
 * no change touched meanwhile.
 *
 * Context: Process context (the ioctls).
 * Return: the count of changes made, or, while one is being made, a new
 * id with AIE_ROWSET_CHANGING set.
 */
u64 aie_rowset_id(void)
{
	s64 done = atomic64_read(&aie_rowset_finished);

	/* Finished before started: pairs with the barriers above. */
	smp_rmb();
	if (atomic64_read(&aie_rowset_started) == done) {
		/* The walk that follows sees every change counted. */
		smp_rmb();
		return done;
	}
	return AIE_ROWSET_CHANGING |
	       atomic64_inc_return(&aie_rowset_busy_reads);
}
