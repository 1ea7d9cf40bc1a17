// SPDX-License-Identifier: GPL-2.0
/*
 * symbols.c - naming call sites through kallsyms.
 *
 * A call site is a return address. It is looked up one byte back, so that
 * a call that ends its function is not named after the next function, and
 * the offset is then given for the return address itself, as %pB does.
 * An address no symbol covers is never printed: it could reveal the
 * kernel's layout. A site in a module keeps a copy of its name
 * (struct aie_site_name): made at its first read, or when the module
 * unloads.
 *
 * Notes on locking
 * ----------------
 * - sprint_symbol() takes no lock a hook could hold and may run in any
 *   context.
 * - aie_sym_scratch() hands out a per-CPU buffer per context level (task,
 *   softirq, hardirq, NMI), so a hook interrupted by a hook on the same
 *   CPU keeps its own; the caller runs with preemption disabled.
 * - A CPU's buffers are made, on its node, before it first runs after the
 *   load (a CPU hotplug state's prepare callback, in process context with
 *   the hotplug lock held, which also serialises aie_sym_cpus), not for
 *   every possible CPU; they go at exit.
 * - A site's ->name is set once, by cmpxchg() from NULL: by a reader of
 *   the table or by the retirement of its module's sites, whichever comes
 *   first; the loser frees its copy. Retirement sets AIE_SITE_UNLOADED
 *   after ->name, with smp_wmb(), paired with the smp_rmb() in
 *   aie_site_name().
 */

#include <linux/cpuhotplug.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "aie.h"
#include "compat.h"
#include "cpus.h"
#include "stats.h"
#include "symbols.h"

#define AIE_SYM_LEVELS	4

/* Each CPU's AIE_SYM_LEVELS buffers, made when it first comes up. */
static DEFINE_PER_CPU(struct aie_sym *, aie_sym_bufs);
static unsigned int aie_sym_cpus;	/* CPUs that have buffers */
static int aie_sym_hp_state;		/* our CPUHP_BP_PREPARE_DYN state */

/*
 * Make @cpu's buffers before it runs. Process context, CPU hotplug lock
 * held.
 */
static int aie_syms_cpu_prepare(unsigned int cpu)
{
	struct aie_sym *bufs;

	if (per_cpu(aie_sym_bufs, cpu))
		return 0;
	bufs = kcalloc_node(AIE_SYM_LEVELS, sizeof(*bufs), GFP_KERNEL,
			    cpu_to_node(cpu));
	if (!bufs)
		return -ENOMEM;
	per_cpu(aie_sym_bufs, cpu) = bufs;
	WRITE_ONCE(aie_sym_cpus, aie_sym_cpus + 1);
	return 0;
}

/**
 * aie_syms_init() - Make the scratch buffers of each CPU up, and of each
 * CPU that comes up later (cpus.c).
 *
 * Context: Process context, before any hook runs.
 * Return: 0, or a negative error (-ENOMEM), with nothing left made.
 */
int aie_syms_init(void)
{
	int ret = aie_cpus_setup("allocinfo_ext:symbols",
				 aie_syms_cpu_prepare, NULL);

	aie_stats_part_set(AIE_STATS_SYMBOLS, NULL, aie_syms_memory);
	if (ret < 0) {
		aie_syms_exit();
		return ret;
	}
	aie_sym_hp_state = ret;
	return 0;
}

/**
 * aie_syms_exit() - Remove the CPU hotplug state and free every buffer.
 *
 * Context: Process context, once no hook runs.
 */
void aie_syms_exit(void)
{
	unsigned int cpu;

	if (aie_sym_hp_state > 0)
		cpuhp_remove_state_nocalls(aie_sym_hp_state);
	aie_sym_hp_state = 0;
	for_each_possible_cpu(cpu) {
		kfree(per_cpu(aie_sym_bufs, cpu));
		per_cpu(aie_sym_bufs, cpu) = NULL;
	}
	aie_sym_cpus = 0;
}

/**
 * aie_syms_memory() - Measure the scratch buffers.
 *
 * Return: the bytes of the buffers of every CPU that came up since the
 * load.
 */
size_t aie_syms_memory(void)
{
	return (size_t)READ_ONCE(aie_sym_cpus) * AIE_SYM_LEVELS *
	       sizeof(struct aie_sym);
}

/* Parse "func+0xoff/0xsize [module]" as sprint_symbol() writes it. */
static void aie_sym_parse(struct aie_sym *sym)
{
	char *plus, *slash, *mod;

	sym->known = false;
	sym->func = sym->buf;
	sym->module = NULL;
	sym->module_len = 0;
	sym->tag = NULL;
	sym->offset = 0;
	sym->size = 0;

	mod = strchr(sym->buf, ' ');
	if (mod) {
		*mod++ = '\0';
		if (*mod == '[') {
			mod++;
			sym->module_len = strcspn(mod, "] ");
			mod[sym->module_len] = '\0';
			sym->module = mod;
		}
	}
	plus = strrchr(sym->buf, '+');
	slash = plus ? strchr(plus, '/') : NULL;
	if (!plus || !slash || plus == sym->buf) {
		sym->func_len = strlen(sym->buf);
		return;
	}
	sym->func_len = plus - sym->buf;
	*plus++ = '\0';
	*slash++ = '\0';
	if (kstrtoul(plus, 16, &sym->offset) || kstrtoul(slash, 16, &sym->size))
		return;
	sym->known = true;
}

/**
 * aie_sym_resolve() - Name a call site through kallsyms.
 * @call_site: the return address of the call.
 * @sym: where to put the name; its pointers point into its own buffer.
 *
 * Look the address up one byte back, and give the offset of @call_site
 * itself, as %pB does.
 *
 * Context: Any context (sprint_symbol() takes no lock a hook could hold).
 */
void aie_sym_resolve(unsigned long call_site, struct aie_sym *sym)
{
	sprint_symbol(sym->buf, call_site - 1);
	aie_sym_parse(sym);
	if (sym->known)
		sym->offset++;
}

/* Fill @sym from a kept copy of a site's name. */
static void aie_site_name_from(const struct aie_site_name *name,
			       struct aie_sym *sym)
{
	sym->func = name->func;
	sym->module = name->module;
	sym->func_len = name->func_len;
	sym->module_len = name->module_len;
	sym->tag = name->tag;
	sym->tag_head = name->tag_head;
	sym->tag_len = name->tag_len;
	sym->offset = name->offset;
	sym->size = name->size;
	sym->known = name->known;
}

/**
 * aie_site_name() - Name a site: from kallsyms, or as copied when its
 * module unloaded.
 * @site: the site.
 * @sym: where to put the name.
 *
 * Context: Process context, or any with a buffer of the caller's own
 * (aie_sym_scratch()).
 */
void aie_site_name(const struct aie_site *site, struct aie_sym *sym)
{
	const struct aie_site_name *name;

	if (!test_bit(AIE_SITE_UNLOADED, &site->flags)) {
		aie_sym_resolve(site->call_site, sym);
		return;
	}
	/* Pairs with the set_bit() after ->name in aie_site_retire(). */
	smp_rmb();
	name = site->name;
	aie_site_name_from(name, sym);
}

/**
 * aie_site_name_read() - Name a site for a reader of the table.
 * @site: the site.
 * @sym: where to put the name.
 *
 * kallsyms finds a module's symbol by walking all of that module's
 * symbols, so copy the name of a site in a module the first time it is
 * read and keep it with the site (its code cannot change under the name
 * while the module is loaded, and the copy is the one its unload keeps).
 * Look sites in the kernel proper up each time: kallsyms bisects those.
 *
 * Context: Process context; may sleep (allocates).
 */
void aie_site_name_read(struct aie_site *site, struct aie_sym *sym)
{
	const struct aie_site_name *name = READ_ONCE(site->name);
	struct aie_site_name *copy;

	if (name) {
		aie_site_name_from(name, sym);
		return;
	}
	aie_sym_resolve(site->call_site, sym);
	if (!sym->known || !sym->module ||
	    test_bit(AIE_SITE_UNLOADED, &site->flags))
		return;
	copy = aie_site_name_copy(sym);
	/* Another reader, or the module's retirement, may have named it. */
	if (copy && cmpxchg(&site->name, NULL, copy))
		kfree(copy);
}

/*
 * Print the end of a site's tag in its row (iface/proc.c): " [module]
 * func:func", or " func:unknown" for an address no symbol covers.
 */
static int aie_sym_tag_tail(char *buf, size_t size, const struct aie_sym *sym)
{
	return snprintf(buf, size, "%s%s%s func:%s",
			sym->module ? " [" : "", sym->module ?: "",
			sym->module ? "]" : "", sym->known ? sym->func : "unknown");
}

/**
 * aie_site_name_copy() - Copy a site's name so that it outlives kallsyms'.
 * @sym: the name.
 *
 * Render once the tag the site's row shows, but for the "unknown@%pK" of
 * an address no symbol covers, which depends on the reader.
 *
 * Context: Process context; may sleep (GFP_KERNEL).
 * Return: the copy, to free with kfree(), or NULL when out of memory.
 */
struct aie_site_name *aie_site_name_copy(const struct aie_sym *sym)
{
	size_t flen = sym->func_len + 1;
	size_t mlen = sym->module ? sym->module_len + 1 : 0;
	struct aie_site_name *name;
	int head = 0, tail;
	char *tag;

	if (sym->known)
		head = snprintf(NULL, 0, "%s+0x%lx/0x%lx", sym->func,
				sym->offset, sym->size);
	tail = aie_sym_tag_tail(NULL, 0, sym);
	name = kmalloc(struct_size(name, func, flen + mlen + head + tail + 1),
		       GFP_KERNEL);
	if (!name)
		return NULL;
	name->offset = sym->offset;
	name->size = sym->size;
	name->known = sym->known;
	name->func_len = sym->func_len;
	name->module_len = sym->module_len;
	memcpy(name->func, sym->func, flen);
	name->module = NULL;
	if (mlen) {
		memcpy(name->func + flen, sym->module, mlen);
		name->module = name->func + flen;
	}
	tag = name->func + flen + mlen;
	if (sym->known)
		snprintf(tag, head + 1, "%s+0x%lx/0x%lx", sym->func,
			 sym->offset, sym->size);
	aie_sym_tag_tail(tag + head, tail + 1, sym);
	name->tag = tag;
	name->tag_head = head;
	name->tag_len = head + tail;
	return name;
}

/**
 * aie_sym_scratch() - Get this CPU's name buffer for the current context.
 *
 * One buffer per context level (task, softirq, hardirq, NMI), so a hook
 * interrupted by a hook on the same CPU keeps its own.
 *
 * Context: Hooks, any context, preemption disabled, as every hook runs
 * (compat.h's aie_tp_guard()): checked here, once for each new site, off
 * the hot paths, on any kernel with a preemption count (every one of
 * Debian's), lockdep or not.
 * Return: the buffer, valid until preemption is enabled again.
 */
struct aie_sym *aie_sym_scratch(void)
{
	WARN_ON_ONCE(preemptible());
	return this_cpu_read(aie_sym_bufs) + interrupt_context_level();
}
