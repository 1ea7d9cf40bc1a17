/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch.h - the few things the module does differently per architecture,
 * one header each, the same small interface in both, every helper inline
 * (or one call where a helper is slow and rare):
 *
 *   aie_arch_init()              read the kernel's layout, once, at load
 *   aie_arch_key_bits()          bits of a kernel address that vary, less
 *                                the 2 of 4-byte alignment (objmap.c)
 *   aie_arch_lm_pfn(ptr)         the page frame of a linear-map address
 *   aie_arch_text_ok(addr)       whether 32 bits of @addr tell it apart
 *                                from any other kernel text address
 *   aie_arch_key32(addr)         those 32 bits, never 0 (0: an empty key)
 *   aie_arch_ret(raw)            a return address read off the stack, as
 *                                a plain text address (no signature)
 *   aie_arch_frame_up(slot, fr)  the slot of the next return address up
 *   aie_arch_frame_learn(slot)   what aie_arch_frame_up() needs: 0 when
 *                                it cannot be told
 *   AIE_ARCH_PROBE_SLOT()        the first slot of the page walk, in a
 *                                probe written in C (hooks/page_alloc.c)
 *   aie_arch_kernel_argument(regs, n)  argument @n of a kernel function
 *                                (the first is 0), at a kprobe on its
 *                                entry, stack arguments included
 *
 * Layer 0, as aie.h and compat.h: every layer may use it.
 */
#ifndef _AIE_ARCH_H
#define _AIE_ARCH_H

#if defined(CONFIG_X86_64)
#include "arch/x86_64.h"
#elif defined(CONFIG_ARM64)
#include "arch/arm64.h"
#else
#error "allocinfo_ext builds for x86-64 and arm64 kernels only"
#endif

#endif /* _AIE_ARCH_H */
