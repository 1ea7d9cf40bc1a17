// SPDX-License-Identifier: GPL-2.0
/*
 * hooks.c - what every hook shares: charging an allocation to its site,
 * charging a free back, and attaching the hooks in a safe order.
 *
 * Objects are keyed by what their free names: the object's address for
 * slab and vmalloc, the struct page for pages, the __percpu pointer for
 * percpu. These ranges never overlap, so one object map serves all.
 *
 * Contexts: aie_track_*() run in the hooks, wherever the allocators run
 * (task, softirq, hardirq; not NMI), with preemption disabled. They never
 * sleep and never allocate. Selection and registration run in process
 * context, at module init.
 */

#include <linux/tracepoint.h>

#include "aie.h"

DEFINE_PER_CPU(struct aie_stats, aie_stats);

static bool aie_page_hooked, aie_vmalloc_hooked, aie_percpu_hooked;

/* The allocators the hooks= parameter names, as BIT(enum aie_type). */
static unsigned long aie_hooks_wanted;

static const char * const aie_hook_names[] __initconst = {
	[AIE_TYPE_SLAB] = "slab",
	[AIE_TYPE_PAGE] = "page",
	[AIE_TYPE_VMALLOC] = "vmalloc",
	[AIE_TYPE_PERCPU] = "percpu",
};

/* Page and vmalloc objects are kept in pages, the others in bytes. */
static bool aie_type_in_pages(enum aie_type type)
{
	return type == AIE_TYPE_PAGE || type == AIE_TYPE_VMALLOC;
}

static u64 aie_obj_bytes(const struct aie_site *site, const struct aie_obj *obj)
{
	if (aie_type_in_pages(site->type))
		return (u64)obj->size << PAGE_SHIFT;
	return obj->size;
}

/*
 * The site an event at @call_site is charged to, or NULL when the event is
 * not recorded (table full, inside an allocator, or disabled).
 */
static struct aie_site *aie_track_site(unsigned long call_site,
				       enum aie_type type)
{
	struct aie_site *site = aie_site_get(call_site, type);

	if (unlikely(!site)) {
		aie_count(sites_full);
		return NULL;
	}
	if (unlikely(site->flags & (BIT(AIE_SITE_INTERNAL) |
				    BIT(AIE_SITE_HELPER)))) {
		if (test_bit(AIE_SITE_INTERNAL, &site->flags)) {
			aie_count(internal);
			return NULL;
		}
		site = aie_callers_resolve(site);
	}
	if (unlikely(test_bit(AIE_SITE_DISABLED, &site->flags))) {
		aie_count(disabled);
		return NULL;
	}
	return site;
}

/* An allocation of @bytes (@req asked for) at @call_site, freed by @key. */
void aie_track_alloc(unsigned long call_site, enum aie_type type,
		     const void *key, u64 bytes, u64 req)
{
	struct aie_site *site = aie_track_site(call_site, type);
	struct aie_obj obj, old;
	bool had_old;

	if (!site)
		return;
	obj.site = aie_site_index(site);
	obj.size = aie_type_in_pages(type) ? bytes >> PAGE_SHIFT : bytes;
	obj.slack = bytes > req ? bytes - req : 0;
	if (unlikely(!aie_objmap_insert(key, &obj, &old, &had_old))) {
		aie_count(untracked);
		return;
	}
	if (unlikely(had_old)) {
		/* Its free went unseen: the address is in use again. */
		struct aie_site *prev = aie_site_at(old.site);

		aie_site_uncharge(prev, aie_obj_bytes(prev, &old), old.slack);
		aie_count(replaced);
	}
	aie_site_charge(site, bytes, obj.slack);
	if (aie_capture_on())
		aie_capture_alloc(site, bytes);
}

/* An allocation at @call_site that returned nothing. */
void aie_track_failed(unsigned long call_site, enum aie_type type)
{
	struct aie_site *site = aie_track_site(call_site, type);

	if (site)
		atomic64_inc(&site->failed);
}

void aie_track_free(const void *key)
{
	struct aie_site *site;
	struct aie_obj obj;

	if (!aie_objmap_remove(key, &obj)) {
		aie_count(unmatched_frees);
		return;
	}
	site = aie_site_at(obj.site);
	if (site)
		aie_site_uncharge(site, aie_obj_bytes(site, &obj), obj.slack);
}

struct aie_tp_lookup {
	const char *name;
	struct tracepoint *tp;
};

static void aie_tp_match(struct tracepoint *tp, void *priv)
{
	struct aie_tp_lookup *l = priv;

	if (!strcmp(tp->name, l->name))
		l->tp = tp;
}

/* A tracepoint of the kernel proper that is not exported to modules. */
struct tracepoint *aie_tracepoint_find(const char *name)
{
	struct aie_tp_lookup l = { .name = name };

	for_each_kernel_tracepoint(aie_tp_match, &l);
	return l.tp;
}

/* The allocator named by the @len bytes at @word, or -1. */
static int __init aie_hook_type(const char *word, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(aie_hook_names); i++) {
		if (strlen(aie_hook_names[i]) == len &&
		    !strncmp(aie_hook_names[i], word, len))
			return i;
	}
	return -1;
}

/*
 * Take the allocators to hook from @list, the hooks= parameter: words
 * separated by commas, empty words ignored. Slab is always hooked.
 * -EINVAL for an unknown word.
 */
int __init aie_hooks_select(const char *list)
{
	const char *word = list;
	size_t len;
	int type;

	aie_hooks_wanted = BIT(AIE_TYPE_SLAB);
	while (*word) {
		len = strcspn(word, ",");
		if (len) {
			type = aie_hook_type(word, len);
			if (type < 0) {
				pr_err("hooks=: unknown allocator '%.*s' (known: slab, page, vmalloc, percpu)\n",
				       (int)len, word);
				return -EINVAL;
			}
			aie_hooks_wanted |= BIT(type);
		}
		word += len;
		if (*word)
			word++;
	}
	return 0;
}

static bool aie_hook_wanted(enum aie_type type)
{
	return aie_hooks_wanted & BIT(type);
}

/*
 * Slab hooks are required; the others are optional: without them the
 * module still counts slab allocations, says so once, and shows the hook
 * as absent in the stats file. A family hooks= leaves out is not attached
 * and shows as absent too. Each family attaches its free hooks before its
 * allocation hooks.
 */
int aie_hooks_register(void)
{
	int ret = aie_slab_hooks_register();

	if (ret)
		return ret;
	if (aie_hook_wanted(AIE_TYPE_PAGE))
		aie_page_hooked = !aie_page_hooks_register();
	if (aie_hook_wanted(AIE_TYPE_VMALLOC))
		aie_vmalloc_hooked = !aie_vmalloc_hooks_register();
	if (aie_hook_wanted(AIE_TYPE_PERCPU))
		aie_percpu_hooked = !aie_percpu_hooks_register();
	return 0;
}

/* The mirror of aie_hooks_register(); on return no hook is running. */
void aie_hooks_unregister(void)
{
	if (aie_percpu_hooked)
		aie_percpu_hooks_unregister();
	if (aie_vmalloc_hooked)
		aie_vmalloc_hooks_unregister();
	if (aie_page_hooked)
		aie_page_hooks_unregister();
	aie_slab_hooks_unregister();
	tracepoint_synchronize_unregister();
}

static const char *aie_hook_state(bool hooked)
{
	return hooked ? "present" : "absent";
}

/* The hooks' lines of /proc/allocinfo_ext_stats. */
void aie_hooks_show(struct seq_file *m)
{
	seq_printf(m, "bulk_free_hook %s\n",
		   aie_hook_state(aie_slab_bulk_hooked()));
	seq_printf(m, "page_hooks %s\n", aie_hook_state(aie_page_hooked));
	seq_printf(m, "vmalloc_hooks %s\n", aie_hook_state(aie_vmalloc_hooked));
	seq_printf(m, "percpu_hooks %s\n", aie_hook_state(aie_percpu_hooked));
	seq_printf(m, "probe_missed %lu\n",
		   (aie_page_hooked ? aie_page_hooks_missed() : 0) +
		   (aie_vmalloc_hooked ? aie_vmalloc_hooks_missed() : 0));
}
