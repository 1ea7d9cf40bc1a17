/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nmi.h - the hooks' locks, taken from any context, NMI included.
 *
 * Since 6.15 the page allocator, and since 6.18 kmalloc, can be called
 * from an NMI (alloc_pages_nolock(), kmalloc_nolock(), and their frees):
 * the hooks then run in an NMI, which local_irq_save() does not hold off.
 * A lock the hooks take with interrupts off may be held by the very code
 * the NMI interrupted, on its CPU: spinning on it there never ends.
 *
 * So in an NMI a hook only tries its lock, AIE_NMI_TRIES times: a holder
 * on another CPU keeps it for a few dozen instructions (the object map's
 * shard lock, the capture's stack lock, the slab map's pool lock at a
 * block's first allocation or its free) and lets go within the tries;
 * the interrupted holder on this CPU never does while the NMI runs. When
 * the tries run out, the hook skips what the lock guards, counts it in
 * nmi_skips and, where it knows the site, marks it inexact (each caller
 * says what it skips). Outside an NMI a hook takes its lock as usual.
 */
#ifndef _AIE_NMI_H
#define _AIE_NMI_H

#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/spinlock.h>

#include "stats.h"

/* Tries of a lock in an NMI before its event is skipped. */
#define AIE_NMI_TRIES	256

/**
 * aie_nmi_arch_trylock() - Try an arch spinlock AIE_NMI_TRIES times.
 * @lock: the lock.
 *
 * Context: NMI.
 * Return: true with @lock held; false, counted in nmi_skips, when the
 * tries ran out.
 */
static inline bool aie_nmi_arch_trylock(arch_spinlock_t *lock)
{
	unsigned int i;

	for (i = 0; i < AIE_NMI_TRIES; i++) {
		if (arch_spin_trylock(lock))
			return true;
		cpu_relax();
	}
	aie_count(nmi_skips);
	return false;
}

/**
 * aie_nmi_raw_trylock() - Try a raw spinlock AIE_NMI_TRIES times.
 * @lock: the lock.
 *
 * Context: NMI.
 * Return: true with @lock held; false, counted in nmi_skips, when the
 * tries ran out.
 */
static inline bool aie_nmi_raw_trylock(raw_spinlock_t *lock)
{
	unsigned int i;

	for (i = 0; i < AIE_NMI_TRIES; i++) {
		if (raw_spin_trylock(lock))
			return true;
		cpu_relax();
	}
	aie_count(nmi_skips);
	return false;
}

/**
 * aie_raw_lock_any() - Take a raw spinlock with interrupts off, from any
 * context.
 * @lock: the lock.
 * @flags: where to save the interrupt state, as raw_spin_lock_irqsave().
 *
 * In an NMI the lock is only tried (aie_nmi_raw_trylock()).
 *
 * Context: Any context, NMI included.
 * Return: true with @lock held and interrupts off; false, with interrupts
 * as they were, when not taken.
 */
static inline bool aie_raw_lock_any(raw_spinlock_t *lock,
				    unsigned long *flags)
{
	if (likely(!in_nmi())) {
		raw_spin_lock_irqsave(lock, *flags);
		return true;
	}
	local_irq_save(*flags);
	if (aie_nmi_raw_trylock(lock))
		return true;
	local_irq_restore(*flags);
	return false;
}

#endif /* _AIE_NMI_H */
