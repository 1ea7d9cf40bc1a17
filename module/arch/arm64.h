/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64.h - the architecture interface (arch.h) on arm64.
 *
 * Kernel addresses: the top 64 - vabits_actual bits are ones, where
 * vabits_actual is 48 or, on a kernel built for 52-bit addresses and a
 * CPU with FEAT_LPA2 (or LVA), 52: picked at boot, read from TCR_EL1.
 *
 * The linear map: PAGE_OFFSET maps PHYS_OFFSET (memstart_addr), the start
 * of RAM, which is not 0 on most machines (1 GiB on QEMU's virt): a page
 * frame number is (va - (PAGE_OFFSET - PHYS_OFFSET)) >> PAGE_SHIFT, the
 * difference read once at load (aie_arch_init()), so that the hooks pay
 * the same load and subtraction as on x86-64.
 *
 * Kernel text: the kernel image and every module lie in one 2 GiB window
 * (the kernel's arch/arm64/kernel/module.c places modules so), which KASLR
 * puts anywhere in the vmalloc area. A text address within 2 GiB of
 * kfree() either way, a 4 GiB span, is told apart by its low 32 bits.
 * Instructions are 4-byte aligned: with bit 0 set, those 32 bits make a
 * key that is never 0 and still tells every return address apart. Kprobe
 * slots and BPF programs may lie outside the window: they are filtered
 * out.
 *
 * Frames: arm64 kernels keep frame pointers. A function's frame record
 * is two words, its caller's frame pointer (x29) then its own return
 * address (x30 on entry), and x29 points at the record. A slot of the
 * page walk is the second word of a record, so the next slot up is the
 * second word of the record the first word points at: nothing to learn
 * per wrapper site. With pointer authentication (pac-ret) the return
 * address in a record is signed in its top bits: the low 32 bits, all
 * the keys use, are the address's own; a call site is stripped before it
 * is looked up or kept.
 */
#ifndef _AIE_ARCH_ARM64_H
#define _AIE_ARCH_ARM64_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/sizes.h>

#include <asm/memory.h>

#include "compat.h"

/* PAGE_OFFSET - PHYS_OFFSET, and the low end of the text window */
extern unsigned long aie_arch_lm_base;
extern unsigned long aie_arch_text_base;

void aie_arch_init(void);

/**
 * aie_arch_key_bits() - Count the bits of a kernel address that vary.
 *
 * Return: vabits_actual, less the 2 of 4-byte alignment (objmap.c).
 */
static inline unsigned int aie_arch_key_bits(void)
{
	return vabits_actual - 2;
}

/**
 * aie_arch_lm_pfn() - Find the page frame of a linear map address.
 * @ptr: the address.
 *
 * Context: Any context, after aie_arch_init().
 * Return: the page frame number of @ptr, if in the linear map, else a
 * number past every page frame.
 */
static __always_inline unsigned long aie_arch_lm_pfn(const void *ptr)
{
	return ((unsigned long)ptr - aie_arch_lm_base) >> PAGE_SHIFT;
}

/**
 * aie_arch_text_ok() - Test whether 32 bits of a text address tell it apart.
 * @addr: a kernel text address.
 *
 * Context: Any context, after aie_arch_init().
 * Return: true when @addr lies within 2 GiB of kfree(), either way.
 */
static __always_inline bool aie_arch_text_ok(unsigned long addr)
{
	return addr - aie_arch_text_base < SZ_4G;
}

/**
 * aie_arch_key32() - Make a text address's 32-bit key.
 * @addr: a text address aie_arch_text_ok() accepts.
 *
 * Context: Any context.
 * Return: the low 32 bits of @addr with bit 0 set: never 0.
 */
static __always_inline u32 aie_arch_key32(unsigned long addr)
{
	return (u32)addr | 1;
}

/**
 * aie_arch_ret() - Turn a return address read off the stack into a plain
 * text address.
 * @raw: a return address saved in a frame record.
 *
 * Context: Any context.
 * Return: @raw, its pointer authentication signature stripped.
 */
static __always_inline unsigned long aie_arch_ret(unsigned long raw)
{
	return aie_ptrauth_strip(raw);
}

/**
 * aie_arch_frame_up() - Find the slot of the next return address up.
 * @slot: the stack slot of a return address: a frame record's second word.
 * @frame: not needed here.
 *
 * Context: Any context, on the current task's stack.
 * Return: the second word of the caller's frame record, which the word
 * below @slot points at.
 */
static __always_inline const unsigned long *
aie_arch_frame_up(const unsigned long *slot, unsigned long frame)
{
	return (const unsigned long *)READ_ONCE(slot[-1]) + 1;
}

/*
 * What a wrapper site keeps: not 0 (not learnt) and no frame size, only
 * "follow the record", the same at every site.
 */
#define AIE_ARCH_FRAME_RECORD	(2 * sizeof(long))

/**
 * aie_arch_frame_learn() - Learn what aie_arch_frame_up() needs at a
 * wrapper site.
 * @slot: the stack slot of the wrapper's return address: unused.
 *
 * Context: Any context.
 * Return: AIE_ARCH_FRAME_RECORD, not 0 and the same at every site.
 */
static inline unsigned int aie_arch_frame_learn(const unsigned long *slot)
{
	return AIE_ARCH_FRAME_RECORD;
}

/*
 * In a probe: the slot of its caller's return address, in the caller's
 * record, which the first word of the probe's own record points at. The
 * probe's own return address is in the link register and on no stack
 * the probe's tail call leaves.
 */
#define AIE_ARCH_PROBE_SLOT()						\
	((const unsigned long *)					\
	 READ_ONCE(*(const unsigned long *)__builtin_frame_address(0)) + 1)

/**
 * aie_arch_kernel_argument() - Read an argument of a kernel function at a
 * kprobe on its entry.
 * @regs: the registers at the probe.
 * @n: the argument's number, the first 0.
 *
 * The first eight are in x0-x7; any more (__vmalloc_node_range()'s
 * caller, the ninth) on the stack from [sp] at the function's entry, a
 * word each, in the caller's frame. regs_get_kernel_argument() gives 0
 * for those, and regs_get_kernel_stack_nth() is not exported.
 *
 * Context: A kprobe's handler.
 * Return: the argument.
 */
static __always_inline unsigned long
aie_arch_kernel_argument(struct pt_regs *regs, unsigned int n)
{
	const unsigned long *sp;

	if (n < 8)
		return regs->regs[n];
	sp = (const unsigned long *)kernel_stack_pointer(regs);
	return READ_ONCE(sp[n - 8]);
}

#endif /* _AIE_ARCH_ARM64_H */
