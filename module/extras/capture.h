/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture.h - call stacks of chosen sites (capture.c): aie_capture_alloc()
 * only when aie_capture_on().
 */
#ifndef _AIE_CAPTURE_H
#define _AIE_CAPTURE_H

#include <linux/jump_label.h>
#include <linux/seq_file.h>

#include "aie.h"
#include "lib/ctl.h"

struct aie_sel;

/* One call stack of a captured site, with its allocations' counts. */
struct aie_stack {
	u32 site;			/* index of the site */
	u32 depth;			/* frames in ip[], innermost first */
	atomic64_t calls;
	atomic64_t bytes;
	unsigned long ip[AIE_CAPTURE_DEPTH_MAX];
};

DECLARE_STATIC_KEY_FALSE(aie_capture_key);

/**
 * aie_capture_on() - Tell whether a capture is recording.
 *
 * Context: Any context.
 * Return: true between "capture <sel>" and "capture off".
 */
static inline bool aie_capture_on(void)
{
	return static_branch_unlikely(&aie_capture_key);
}

void aie_capture_alloc(struct aie_site *site, u64 bytes, u64 weight);
int aie_capture_start(const struct aie_sel *sel, unsigned int depth);
void aie_capture_stop(void);
void aie_capture_show(struct seq_file *m);
size_t aie_capture_memory(void);
void aie_capture_read_lock(void);
void aie_capture_read_unlock(void);
const struct aie_stack *aie_capture_stack(loff_t pos);
void aie_capture_init(void);
void aie_capture_exit(void);

#endif /* _AIE_CAPTURE_H */
