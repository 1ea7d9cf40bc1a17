/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64.h - the architecture interface (arch.h) on x86-64.
 *
 * Kernel text, the kernel's and the modules', lies in the top 2 GiB of
 * the address space (the kernel code model), so the low 32 bits of a text
 * address tell it apart and are never 0. The direct map starts at
 * PAGE_OFFSET (page_offset_base with KASLR) and maps physical address 0
 * there. A call pushes its return address, unsigned, and a function's
 * frame has a size its compiler fixed: the walk adds it (frames.c), as
 * the ORC unwinder tells it once per return address (frames_x86_64.c).
 */
#ifndef _AIE_ARCH_X86_64_H
#define _AIE_ARCH_X86_64_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>

#include <asm/page.h>

static inline void aie_arch_init(void)
{
}

/* Kernel addresses sign-extend bit __VIRTUAL_MASK_SHIFT. */
static inline unsigned int aie_arch_key_bits(void)
{
	return __VIRTUAL_MASK_SHIFT - 2;
}

/* The page frame of @ptr, if in the direct map (else past every one). */
static __always_inline unsigned long aie_arch_lm_pfn(const void *ptr)
{
	return ((unsigned long)ptr - PAGE_OFFSET) >> PAGE_SHIFT;
}

static __always_inline bool aie_arch_text_ok(unsigned long addr)
{
	return upper_32_bits(addr) == U32_MAX;
}

static __always_inline u32 aie_arch_key32(unsigned long addr)
{
	return (u32)addr;
}

/* A pushed return address is plain. */
static __always_inline unsigned long aie_arch_ret(unsigned long raw)
{
	return raw;
}

/* The slot of the return address @frame bytes above the one at @slot. */
static __always_inline const unsigned long *
aie_arch_frame_up(const unsigned long *slot, unsigned long frame)
{
	return (const unsigned long *)((const char *)slot + frame);
}

unsigned int aie_arch_frame_learn(const unsigned long *slot);

/*
 * In a probe: the slot of its own return address, just above the frame
 * pointer it keeps.
 */
#define AIE_ARCH_PROBE_SLOT()	\
	((const unsigned long *)__builtin_frame_address(0) + 1)

/* Stack arguments included (the seventh on). */
static __always_inline unsigned long
aie_arch_kernel_argument(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}

#endif /* _AIE_ARCH_X86_64_H */
