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

/**
 * aie_arch_init() - Read the kernel's layout: nothing to read on x86-64.
 *
 * Context: Process context, at load.
 */
static inline void aie_arch_init(void)
{
}

/**
 * aie_arch_key_bits() - Count the bits of a kernel address that vary.
 *
 * Kernel addresses sign-extend bit __VIRTUAL_MASK_SHIFT.
 *
 * Return: those bits, less the 2 of 4-byte alignment (objmap.c).
 */
static inline unsigned int aie_arch_key_bits(void)
{
	return __VIRTUAL_MASK_SHIFT - 2;
}

/**
 * aie_arch_lm_pfn() - Find the page frame of a direct map address.
 * @ptr: the address.
 *
 * Context: Any context.
 * Return: the page frame number of @ptr, if in the direct map, else a
 * number past every page frame.
 */
static __always_inline unsigned long aie_arch_lm_pfn(const void *ptr)
{
	return ((unsigned long)ptr - PAGE_OFFSET) >> PAGE_SHIFT;
}

/**
 * aie_arch_text_ok() - Test whether 32 bits of a text address tell it apart.
 * @addr: a kernel text address.
 *
 * Context: Any context.
 * Return: true when the top 32 bits of @addr are ones, as for all kernel
 * text (the top 2 GiB: the kernel code model).
 */
static __always_inline bool aie_arch_text_ok(unsigned long addr)
{
	return upper_32_bits(addr) == U32_MAX;
}

/**
 * aie_arch_key32() - Make a text address's 32-bit key.
 * @addr: a text address aie_arch_text_ok() accepts.
 *
 * Context: Any context.
 * Return: the low 32 bits of @addr, never 0 for kernel text.
 */
static __always_inline u32 aie_arch_key32(unsigned long addr)
{
	return (u32)addr;
}

/**
 * aie_arch_ret() - Turn a return address read off the stack into a plain
 * text address.
 * @raw: the word read.
 *
 * Context: Any context.
 * Return: @raw: a pushed return address is plain.
 */
static __always_inline unsigned long aie_arch_ret(unsigned long raw)
{
	return raw;
}

/**
 * aie_arch_frame_up() - Find the slot of the next return address up.
 * @slot: the stack slot of a wrapper's return address.
 * @frame: the distance up in bytes, from aie_arch_frame_learn().
 *
 * Context: Any context, on the current task's stack.
 * Return: the slot @frame bytes above @slot.
 */
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

/**
 * aie_arch_kernel_argument() - Read an argument of a kernel function at a
 * kprobe on its entry.
 * @regs: the registers at the probe.
 * @n: the argument's number, the first 0.
 *
 * Context: A kprobe's handler.
 * Return: the argument, stack arguments included (the seventh on).
 */
static __always_inline unsigned long
aie_arch_kernel_argument(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}

#endif /* _AIE_ARCH_X86_64_H */
