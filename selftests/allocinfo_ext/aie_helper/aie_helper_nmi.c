// SPDX-License-Identifier: GPL-2.0
/*
 * aie_helper_nmi.c - allocations from NMI handlers (x86-64, kernels with
 * kmalloc_nolock(): 6.18 on, compat_nolock.h): "nmi <n>" raises n NMIs,
 * one at a time, on the online CPUs in turn, each with this helper's
 * NMI_LOCAL handler taking one page from alloc_pages_nolock() and one
 * 64-byte object from kmalloc_nolock(), held; "nmifree" frees the objects
 * with kfree_nolock(), each in an NMI on the CPU that made it, and the
 * pages here, in task context (free_pages_nolock() is not exported).
 * Built on x86-64 only; on kernels without those allocators, and on
 * arm64 (no NMI a module can raise), aie_helper.h's stubs fail both with
 * EOPNOTSUPP.
 *
 * An NMI is sent to its CPU with the APIC's send_IPI_mask() and
 * NMI_VECTOR, which the APIC drivers turn into an NMI delivery; the
 * handler acts only on a request this file made for its CPU (any other
 * NMI passes through it, NMI_DONE). A request is a per-CPU word the
 * handler clears when done, which the sender waits for, a second at most.
 *
 * "nmilocked <n>" does what "nmi <n>" does, but each NMI is raised on a
 * CPU while allocinfo_ext's capture holds its stack lock there (below).
 *
 * /sys/kernel/debug/aie_helper/nmi: "<pages> <objects> <page failures>
 * <object failures> <object bytes> <forced> <baits>", held now and failed
 * since load: a nolock allocator may fail where another would wait (a
 * lock it cannot have); the bytes are the held objects' ksize(), as
 * kmalloc_nolock() takes the next kmalloc bucket when it cannot have its
 * own's lock; the last "nmilocked"'s NMIs that ran with the stack lock
 * held, and the allocations it made at aie_helper_nmi_bait().
 */
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/nmi.h>

#include "aie_helper_compat.h"
#include "aie_helper.h"

#if AIE_HAVE_NOLOCK
const char aie_helper_nmi_file[] = __FILE__;

#define AIE_HELPER_NMI_MAX	4096
#define AIE_HELPER_NMI_SIZE	64

enum { AIE_NMI_NONE, AIE_NMI_ALLOC, AIE_NMI_FREE };

struct aie_helper_nmi_req {
	int op;			/* AIE_NMI_*, cleared by the handler */
	unsigned int slot;	/* the held entry it works on */
};

static DEFINE_PER_CPU(struct aie_helper_nmi_req, aie_helper_nmi_reqs);

/* Under aie_helper_mutex, but for the handler's writes to its slot. */
static struct page *aie_helper_nmi_pages[AIE_HELPER_NMI_MAX];
static void *aie_helper_nmi_objs[AIE_HELPER_NMI_MAX];
static int aie_helper_nmi_cpu[AIE_HELPER_NMI_MAX];
static unsigned int aie_helper_nmi_held;
static atomic_t aie_helper_nmi_page_fails, aie_helper_nmi_obj_fails;

noinline struct page *aie_helper_nmi_page(void)
{
	struct page *p = alloc_pages_nolock(0, NUMA_NO_NODE, 0);

	barrier();
	return p;
}

noinline void *aie_helper_nmi_kmalloc(void)
{
	void *p = kmalloc_nolock(AIE_HELPER_NMI_SIZE, 0, NUMA_NO_NODE);

	barrier();
	return p;
}

/* In an NMI: this CPU's request, if any. */
static int aie_helper_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct aie_helper_nmi_req *req = this_cpu_ptr(&aie_helper_nmi_reqs);
	/* Pairs with the sender's release: the slot before the request. */
	int op = smp_load_acquire(&req->op);
	unsigned int i = req->slot;

	if (op == AIE_NMI_NONE)
		return NMI_DONE;
	if (op == AIE_NMI_ALLOC) {
		aie_helper_nmi_pages[i] = aie_helper_nmi_page();
		if (!aie_helper_nmi_pages[i])
			atomic_inc(&aie_helper_nmi_page_fails);
		aie_helper_nmi_objs[i] = aie_helper_nmi_kmalloc();
		if (!aie_helper_nmi_objs[i])
			atomic_inc(&aie_helper_nmi_obj_fails);
	} else {
		kfree_nolock(aie_helper_nmi_objs[i]);
		aie_helper_nmi_objs[i] = NULL;
	}
	/* The held entry written before the sender sees the request done. */
	smp_store_release(&req->op, AIE_NMI_NONE);
	return NMI_HANDLED;
}

/* Have @cpu's handler do @op on entry @slot, in an NMI; wait for it. */
static int aie_helper_nmi_raise(int cpu, int op, unsigned int slot)
{
	struct aie_helper_nmi_req *req = per_cpu_ptr(&aie_helper_nmi_reqs, cpu);
	unsigned long end = jiffies + HZ;

	req->slot = slot;
	/* Pairs with the handler's acquire. */
	smp_store_release(&req->op, op);
	preempt_disable();
	__apic_send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
	preempt_enable();
	/* Pairs with the handler's release: its entry is seen after. */
	while (smp_load_acquire(&req->op) != AIE_NMI_NONE) {
		if (time_after(jiffies, end)) {
			pr_err("no NMI on CPU %d within a second\n", cpu);
			return -ETIMEDOUT;
		}
		cond_resched();
		cpu_relax();
	}
	return 0;
}

static int aie_helper_nmi_run(unsigned int n, int op)
{
	int cpu = -1, ret = 0;
	unsigned int i;

	if (op == AIE_NMI_ALLOC && n > AIE_HELPER_NMI_MAX - aie_helper_nmi_held)
		return -EINVAL;
	ret = register_nmi_handler(NMI_LOCAL, aie_helper_nmi_handler, 0,
				   "aie_helper");
	if (ret)
		return ret;
	for (i = 0; i < n && !ret; i++) {
		if (op == AIE_NMI_ALLOC) {
			cpu = cpumask_next(cpu, cpu_online_mask);
			if (cpu >= nr_cpu_ids)
				cpu = cpumask_first(cpu_online_mask);
			aie_helper_nmi_cpu[aie_helper_nmi_held] = cpu;
			ret = aie_helper_nmi_raise(cpu, op,
						   aie_helper_nmi_held);
			if (!ret)
				aie_helper_nmi_held++;
		} else if (aie_helper_nmi_objs[i]) {
			ret = aie_helper_nmi_raise(aie_helper_nmi_cpu[i], op, i);
		}
	}
	/* Waits for handlers under way. */
	unregister_nmi_handler(NMI_LOCAL, "aie_helper");
	return ret;
}

int aie_helper_nmi(unsigned int n)
{
	return aie_helper_nmi_run(n, AIE_NMI_ALLOC);
}

/* The objects freed in NMIs, then the pages here; nothing held after. */
int aie_helper_nmi_free(void)
{
	unsigned int i;
	int ret;

	ret = aie_helper_nmi_run(aie_helper_nmi_held, AIE_NMI_FREE);
	if (ret)
		return ret;
	for (i = 0; i < aie_helper_nmi_held; i++) {
		if (aie_helper_nmi_pages[i])
			__free_page(aie_helper_nmi_pages[i]);
		aie_helper_nmi_pages[i] = NULL;
	}
	aie_helper_nmi_held = 0;
	return 0;
}

/*
 * "nmilocked <n>": the NMI lands on code that holds a lock the module's
 * hooks need. The capture's stack lock (allocinfo_ext's extras/capture.c)
 * is held around a memcmp() of a stack with one already in the table,
 * called from aie_capture_alloc() with interrupts off; no other call of
 * memcmp() from the module has them off (lib/ctl.c's parse control
 * writes). A kprobe on memcmp() (not ftrace: lib/ is built without it)
 * turns such a call, n times, to aie_helper_nmi_detour(), which raises
 * the NMI on its CPU and waits for it, the lock held, before it compares.
 * The detour runs out of the probe (its pre-handler changes the ip and
 * returns 1), so that the kretprobe allocinfo_ext puts on
 * kmalloc_nolock() fires in the NMI: a probe hit in a probe's handler is
 * missed. Only the calls made in this task, out of interrupts, are turned:
 * those of the allocations at aie_helper_nmi_bait() in a loop here, whose
 * stack the capture has from the first; so the allocation the NMI
 * interrupts is one of a known site, on whatever CPU the task runs.
 *
 * A request still pending after a second (no NMI came) is withdrawn and
 * not counted in aie_helper_nmi_forced.
 */
static unsigned int aie_helper_nmi_base, aie_helper_nmi_want;
static atomic_t aie_helper_nmi_claimed, aie_helper_nmi_done;
static atomic_t aie_helper_nmi_forced;
static unsigned long aie_helper_nmi_baits;
static struct task_struct *aie_helper_nmi_task;
static DEFINE_PER_CPU(unsigned int, aie_helper_nmi_detour_slot);

noinline void *aie_helper_nmi_bait(void)
{
	void *p = kmalloc(AIE_HELPER_NMI_SIZE, GFP_KERNEL);

	barrier();
	return p;
}

/*
 * memcmp()'s stand-in, entered from the probe with its caller's arguments
 * and return address: interrupts off, the stack lock held.
 */
static noinline int aie_helper_nmi_detour(const void *a, const void *b,
					  size_t n)
{
	struct aie_helper_nmi_req *req = this_cpu_ptr(&aie_helper_nmi_reqs);
	unsigned int slot = __this_cpu_read(aie_helper_nmi_detour_slot);
	const unsigned char *x = a, *y = b;
	int cpu = smp_processor_id();
	u64 end = local_clock() + NSEC_PER_SEC;

	aie_helper_nmi_cpu[slot] = cpu;
	req->slot = slot;
	/* Pairs with the handler's acquire. */
	smp_store_release(&req->op, AIE_NMI_ALLOC);
	__apic_send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
	/* Pairs with the handler's release. */
	while (smp_load_acquire(&req->op) != AIE_NMI_NONE) {
		if (local_clock() > end &&
		    cmpxchg(&req->op, AIE_NMI_ALLOC, AIE_NMI_NONE) ==
		    AIE_NMI_ALLOC)
			goto compare;	/* withdrawn: no NMI */
		cpu_relax();
	}
	atomic_inc(&aie_helper_nmi_forced);
compare:
	atomic_inc(&aie_helper_nmi_done);
	for (; n; n--, x++, y++) {
		if (*x != *y)
			return *x < *y ? -1 : 1;
	}
	return 0;
}

/* memcmp()'s callers: does this one hold the stack lock? */
static bool aie_helper_nmi_under_lock(struct pt_regs *regs)
{
	unsigned long ret = *(unsigned long *)regs->sp;
	char name[KSYM_SYMBOL_LEN];

	/* int3 enters as an NMI does: task context below it, nothing else */
	if (current != READ_ONCE(aie_helper_nmi_task) ||
	    (preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK)) !=
	    NMI_OFFSET + HARDIRQ_OFFSET ||
	    !regs_irqs_disabled(regs) || ret < MODULES_VADDR ||
	    ret >= MODULES_END)
		return false;
	sprint_symbol_no_offset(name, ret);
	return (strstarts(name, "aie_capture_alloc ") ||
		strstarts(name, "aie_stack_get ")) &&
	       strstr(name, " [allocinfo_ext]");
}

/* The probe on memcmp(): in int3's context, on the call's CPU. */
static int aie_helper_nmi_probe(struct kprobe *kp, struct pt_regs *regs)
{
	int i;

	/* In our NMI, or in a detour: left alone. */
	if (__this_cpu_read(aie_helper_nmi_reqs.op) != AIE_NMI_NONE ||
	    !aie_helper_nmi_under_lock(regs))
		return 0;
	i = atomic_fetch_add_unless(&aie_helper_nmi_claimed, 1,
				    READ_ONCE(aie_helper_nmi_want));
	if (i == READ_ONCE(aie_helper_nmi_want))
		return 0;
	__this_cpu_write(aie_helper_nmi_detour_slot, aie_helper_nmi_base + i);
	instruction_pointer_set(regs, (unsigned long)aie_helper_nmi_detour);
	return 1;	/* no single step: on to the detour */
}

/* Never called (the probe changes the ip), but keeps it an int3 probe. */
static void aie_helper_nmi_post(struct kprobe *kp, struct pt_regs *regs,
				unsigned long flags)
{
}

static struct kprobe aie_helper_nmi_kp;

int aie_helper_nmi_locked(unsigned int n)
{
	unsigned long end = jiffies + 10 * HZ;
	unsigned int claimed;
	int ret;

	if (n > AIE_HELPER_NMI_MAX - aie_helper_nmi_held)
		return -EINVAL;
	aie_helper_nmi_base = aie_helper_nmi_held;
	WRITE_ONCE(aie_helper_nmi_want, n);
	atomic_set(&aie_helper_nmi_claimed, 0);
	atomic_set(&aie_helper_nmi_done, 0);
	atomic_set(&aie_helper_nmi_forced, 0);
	aie_helper_nmi_baits = 0;
	ret = register_nmi_handler(NMI_LOCAL, aie_helper_nmi_handler, 0,
				   "aie_helper");
	if (ret)
		return ret;
	memset(&aie_helper_nmi_kp, 0, sizeof(aie_helper_nmi_kp));
	aie_helper_nmi_kp.symbol_name = "memcmp";
	aie_helper_nmi_kp.pre_handler = aie_helper_nmi_probe;
	aie_helper_nmi_kp.post_handler = aie_helper_nmi_post;
	WRITE_ONCE(aie_helper_nmi_task, current);
	ret = register_kprobe(&aie_helper_nmi_kp);
	if (ret) {
		WRITE_ONCE(aie_helper_nmi_task, NULL);
		unregister_nmi_handler(NMI_LOCAL, "aie_helper");
		return ret;
	}
	while (atomic_read(&aie_helper_nmi_claimed) < n &&
	       time_before(jiffies, end)) {
		kfree(aie_helper_nmi_bait());
		aie_helper_nmi_baits++;
		cond_resched();
	}
	unregister_kprobe(&aie_helper_nmi_kp);
	WRITE_ONCE(aie_helper_nmi_task, NULL);
	/* No claim after the probe is gone: wait for the detours under way. */
	claimed = atomic_read(&aie_helper_nmi_claimed);
	while (atomic_read(&aie_helper_nmi_done) < claimed)
		cond_resched();
	unregister_nmi_handler(NMI_LOCAL, "aie_helper");
	aie_helper_nmi_held += claimed;
	if (atomic_read(&aie_helper_nmi_forced) != n) {
		pr_err("%d of %u NMIs under the stack lock\n",
		       atomic_read(&aie_helper_nmi_forced), n);
		return -ETIMEDOUT;
	}
	return 0;
}

int aie_helper_nmi_show(struct seq_file *m, void *v)
{
	unsigned int i, pages = 0, objs = 0;
	size_t bytes = 0;

	mutex_lock(&aie_helper_mutex);
	for (i = 0; i < aie_helper_nmi_held; i++) {
		pages += !!aie_helper_nmi_pages[i];
		if (aie_helper_nmi_objs[i]) {
			objs++;
			bytes += ksize(aie_helper_nmi_objs[i]);
		}
	}
	mutex_unlock(&aie_helper_mutex);
	seq_printf(m, "%u %u %d %d %zu %d %lu\n", pages, objs,
		   atomic_read(&aie_helper_nmi_page_fails),
		   atomic_read(&aie_helper_nmi_obj_fails), bytes,
		   atomic_read(&aie_helper_nmi_forced), aie_helper_nmi_baits);
	return 0;
}
#endif /* AIE_HAVE_NOLOCK */
