// SPDX-License-Identifier: GPL-2.0
/*
 * layout_arm64.c - where this boot of an arm64 kernel put its linear map
 * and its text, read once at load for the inline helpers of
 * arch/arm64.h.
 *
 * Notes on locking
 * ----------------
 * None: both are fixed at boot (KASLR, memblock), written once at init,
 * before any hook is attached, and read-only once the module is loaded
 * (__ro_after_init).
 */

#include <linux/cache.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#include <asm/memory.h>

#include "arch/arch.h"

unsigned long aie_arch_lm_base __ro_after_init;
unsigned long aie_arch_text_base __ro_after_init;

/**
 * aie_arch_init() - Read where this boot put the linear map and the text.
 *
 * Context: Process context, at init, before any hook is attached.
 */
void aie_arch_init(void)
{
	aie_arch_lm_base = PAGE_OFFSET - PHYS_OFFSET;
	/* kfree() is in the kernel image: the window is within 2 GiB of it */
	aie_arch_text_base = (unsigned long)kfree - SZ_2G;
}
