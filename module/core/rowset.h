/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rowset.h - changes to the rows of the tables that a reader walking
 * them in pieces must learn of, and the ioctls' content id that tells
 * it (rowset.c).
 */
#ifndef _AIE_ROWSET_H
#define _AIE_ROWSET_H

#include <linux/bits.h>
#include <linux/types.h>

/* The top bit of a content id read while a change is being made. */
#define AIE_ROWSET_CHANGING	BIT_ULL(63)

void aie_rowset_begin(void);
void aie_rowset_end(void);
u64 aie_rowset_id(void);

#endif /* _AIE_ROWSET_H */
