// SPDX-License-Identifier: GPL-2.0
/*
 * proc.c - /proc/allocinfo_ext (the table, and control writes) and
 * /proc/allocinfo_ext_stats (module-wide figures); it also creates
 * /proc/allocinfo_ext_lifetimes, which lifetimes.c serves.
 *
 * Readers take no lock the hooks take: a site's counters are summed over
 * the CPUs one at a time (hooks go on meanwhile: no hook waits for a
 * reader), and a site's location is read under rcu_read_lock() for one
 * row. Each row's live bytes also raise the site's peak.
 * Writes go to rules.c under its mutex; they need CAP_SYS_ADMIN in the
 * opener's credentials.
 */

#include <linux/capability.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "aie.h"
#include "line.h"

const char * const aie_type_names[] = {
	[AIE_TYPE_SLAB] = "slab",
	[AIE_TYPE_PAGE] = "page",
	[AIE_TYPE_VMALLOC] = "vmalloc",
	[AIE_TYPE_PERCPU] = "percpu",
};

/*
 * Rows show every site but those inside allocators, whose events are
 * ignored, and those inside helpers and page allocator wrappers that never
 * held anything (their events go to the caller above them).
 */
bool aie_proc_shown(struct aie_site *site)
{
	struct aie_site_sums sums;

	if (test_bit(AIE_SITE_INTERNAL, &site->flags))
		return false;
	if (!(site->flags & (BIT(AIE_SITE_HELPER) | BIT(AIE_SITE_WRAPPER))) ||
	    atomic64_read(&site->failed))
		return true;
	aie_site_sum(aie_site_index(site), &sums);
	return sums.total_calls || sums.live_calls;
}

/* The first shown site at index >= @idx. */
static struct aie_site *aie_proc_site_from(loff_t idx, loff_t *pos)
{
	struct aie_site *site;
	u32 n = aie_sites_nr();

	for (; idx < n; idx++) {
		site = aie_site_at(idx);
		if (site && aie_proc_shown(site)) {
			*pos = idx + 1;
			return site;
		}
	}
	*pos = n + 1;
	return NULL;
}

/* *pos 0 is the header; *pos i + 1 is site i. */
static void *allocinfo_ext_start(struct seq_file *m, loff_t *pos)
{
	if (!*pos)
		return SEQ_START_TOKEN;
	return aie_proc_site_from(*pos - 1, pos);
}

static void *allocinfo_ext_next(struct seq_file *m, void *v, loff_t *pos)
{
	return aie_proc_site_from(*pos, pos);
}

static void allocinfo_ext_stop(struct seq_file *m, void *v)
{
}

/*
 * A site's tag, as its row shows it; lifetimes.c shows it alike. The
 * address of a site no symbol covers is printed with %pK, as the kernel
 * prints a pointer to a reader who may or may not see it.
 */
void aie_proc_line_tag(struct aie_line *l, struct aie_site *site,
		       struct aie_sym *sym)
{
	const char *loc;
	char unknown[32];

	aie_site_name_read(site, sym);
	rcu_read_lock();
	loc = rcu_dereference(site->location);
	if (sym->tag && sym->known && !loc) {
		rcu_read_unlock();
		aie_line_mem(l, sym->tag, sym->tag_len);	/* kept whole */
		return;
	}
	if (loc) {
		aie_line_str(l, loc);
	} else if (sym->known) {
		aie_line_mem(l, sym->func, sym->func_len);
		aie_line_lit(l, "+0x");
		aie_line_hex(l, sym->offset);
		aie_line_lit(l, "/0x");
		aie_line_hex(l, sym->size);
	} else {
		aie_line_mem(l, unknown,
			     scnprintf(unknown, sizeof(unknown), "unknown@%pK",
				       (void *)site->call_site));
	}
	rcu_read_unlock();
	if (sym->tag) {
		aie_line_mem(l, sym->tag + sym->tag_head,
			     sym->tag_len - sym->tag_head);
		return;
	}
	if (sym->module) {
		aie_line_lit(l, " [");
		aie_line_mem(l, sym->module, sym->module_len);
		aie_line_char(l, ']');
	}
	aie_line_lit(l, " func:");
	if (sym->known)
		aie_line_mem(l, sym->func, sym->func_len);
	else
		aie_line_lit(l, "unknown");
}

/*
 * One row, built in place (line.h): "%12lld %8llu <tag> type:%s
 * slack:%lld total_calls:%lld total_bytes:%lld peak:%lld failed:%lld
 * accounted:%lld[ disabled][ unloaded]".
 */
static int allocinfo_ext_show(struct seq_file *m, void *v)
{
	struct aie_site *site = v;
	struct aie_site_sums s;
	struct aie_line l;
	s64 peak;
	u32 idx;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, AIE_HEADER_LINE1 "\n" AIE_HEADER_LINE2 "\n");
		return 0;
	}
	idx = aie_site_index(site);
	/* A sum a move came in the way of raises no peak (counters.c). */
	if (aie_site_sum(idx, &s))
		peak = aie_site_peak(idx, s.live_bytes);
	else
		peak = atomic64_read(&site->peak);
	aie_line_start(&l, m);
	aie_line_s64(&l, s.live_bytes, 12);
	aie_line_char(&l, ' ');
	aie_line_u64(&l, s.live_calls, 8);
	aie_line_char(&l, ' ');
	aie_proc_line_tag(&l, site, m->private);
	aie_line_lit(&l, " type:");
	aie_line_str(&l, aie_type_names[site->type]);
	aie_line_lit(&l, " slack:");
	aie_line_s64(&l, s.live_slack, 0);
	aie_line_lit(&l, " total_calls:");
	aie_line_s64(&l, s.total_calls, 0);
	aie_line_lit(&l, " total_bytes:");
	aie_line_s64(&l, s.total_bytes, 0);
	aie_line_lit(&l, " peak:");
	aie_line_s64(&l, peak, 0);
	aie_line_lit(&l, " failed:");
	aie_line_s64(&l, atomic64_read(&site->failed), 0);
	aie_line_lit(&l, " accounted:");
	aie_line_s64(&l, s.live_accounted, 0);
	if (test_bit(AIE_SITE_DISABLED, &site->flags))
		aie_line_lit(&l, " disabled");
	if (test_bit(AIE_SITE_UNLOADED, &site->flags))
		aie_line_lit(&l, " unloaded");
	aie_line_char(&l, '\n');
	aie_line_end(&l);
	return 0;
}

static const struct seq_operations allocinfo_ext_seq_ops = {
	.start = allocinfo_ext_start,
	.next = allocinfo_ext_next,
	.stop = allocinfo_ext_stop,
	.show = allocinfo_ext_show,
};

/*
 * The seq_file's buffer is AIE_PROC_BUF from the open, not the page
 * seq_read_iter() allocates when there is none: a read() of that size then
 * gets as many rows (with one page, each read() returns at most a page,
 * and the row that did not fit is shown again by the next one).
 * seq_release() frees it (kvfree()). Without it, the page is used.
 */
#define AIE_PROC_BUF	SZ_64K

static int allocinfo_ext_open(struct inode *inode, struct file *file)
{
	struct seq_file *m;

	if (seq_open_private(file, &allocinfo_ext_seq_ops,
			     sizeof(struct aie_sym)))
		return -ENOMEM;
	m = file->private_data;
	m->buf = kvmalloc(AIE_PROC_BUF, GFP_KERNEL_ACCOUNT);
	if (m->buf)
		m->size = AIE_PROC_BUF;
	return 0;
}

static ssize_t allocinfo_ext_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	char *buf;
	int ret;

	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (len >= AIE_CTL_MAX_LEN) {
		pr_warn_ratelimited("rejected control write: %zu bytes, at most %d\n",
				    len, AIE_CTL_MAX_LEN - 1);
		return -EINVAL;
	}
	buf = memdup_user(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = aie_ctl_write(buf, len);
	kfree(buf);
	return ret ? ret : len;
}

static const struct proc_ops allocinfo_ext_proc_ops = {
	.proc_open = allocinfo_ext_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = seq_release_private,
	.proc_write = allocinfo_ext_write,
};

static unsigned long aie_stats_sum(size_t offset)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(unsigned long *)((char *)per_cpu_ptr(&aie_stats, cpu) +
					  offset);
	return sum;
}

#define aie_stat_show(m, name, field) \
	seq_printf(m, name " %lu\n", \
		   aie_stats_sum(offsetof(struct aie_stats, field)))

static int allocinfo_ext_stats_show(struct seq_file *m, void *v)
{
	size_t objects = aie_objmap_memory(&aie_objects);
	size_t weights = aie_objmap_memory(&aie_weights);
	size_t slabs = aie_slabmap_memory();
	size_t pages = aie_pagemap_memory();
	size_t memory = aie_sites_memory() + objects + weights + slabs + pages +
			aie_rules_memory() + aie_capture_memory() +
			aie_lifetimes_memory() +
			num_possible_cpus() * (sizeof(struct aie_stats) +
					       4 * sizeof(struct aie_sym));

	seq_printf(m, "sites %u\n", aie_sites_nr());
	seq_printf(m, "site_capacity %u\n", aie_sites_capacity());
	seq_printf(m, "sites_ready %u\n", aie_sites_ready());
	seq_printf(m, "tracked_objects %lu\n",
		   aie_objmap_count(&aie_objects) +
		   aie_stats_sum(offsetof(struct aie_stats, slab_records)) +
		   aie_stats_sum(offsetof(struct aie_stats, page_records)));
	seq_printf(m, "object_capacity %lu\n",
		   aie_objmap_capacity(&aie_objects));
	seq_printf(m, "weighted_objects %lu\n",
		   aie_objmap_count(&aie_weights));
	seq_printf(m, "weight_capacity %lu\n",
		   aie_objmap_capacity(&aie_weights));
	seq_printf(m, "slab_map %s\n", aie_slabmap_capacity() ? "on" : "off");
	aie_stat_show(m, "slab_map_objects", slab_records);
	seq_printf(m, "slab_map_capacity %lu\n", aie_slabmap_capacity());
	seq_printf(m, "slab_map_blocks %u\n", aie_slabmap_blocks());
	seq_printf(m, "page_map %s\n", pages ? "on" : "off");
	aie_stat_show(m, "page_map_objects", page_records);
	seq_printf(m, "sample %lu\n", READ_ONCE(aie_sample_bytes));
	aie_stat_show(m, "untracked", untracked);
	aie_stat_show(m, "sites_full", sites_full);
	aie_stat_show(m, "sites_waiting", sites_waiting);
	aie_stat_show(m, "unmatched_frees", unmatched_frees);
	aie_stat_show(m, "replaced", replaced);
	aie_stat_show(m, "unseen_frees", unseen_frees);
	aie_stat_show(m, "internal_events", internal);
	aie_stat_show(m, "disabled_allocs", disabled);
	aie_stat_show(m, "helper_fallbacks", helper_fallbacks);
	aie_stat_show(m, "page_walk_stops", walk_stops);
	aie_stat_show(m, "cache_size_misses", cache_misses);
	aie_stat_show(m, "slab_site_cache_misses", slab_site_misses);
	aie_stat_show(m, "page_site_cache_misses", page_site_misses);
	aie_stat_show(m, "oversize", oversize);
	seq_printf(m, "counter_slots %u\n", aie_ctr_slots());
	aie_stat_show(m, "counter_slot_takes", ctr_takes);
	aie_stat_show(m, "counter_shared_updates", ctr_shared);
	seq_printf(m, "sample_seen_bytes %llu\n", aie_sample_seen());
	aie_stat_show(m, "sampled", sampled);
	aie_hooks_show(m);
	aie_memcg_show(m);
	aie_capture_show(m);
	seq_printf(m, "lifetimes %s\n", aie_lifetimes_on() ? "on" : "off");
	seq_printf(m, "lifetime_hist_bytes %zu\n", aie_lifetimes_memory());
	seq_printf(m, "site_table_bytes %zu\n", aie_sites_memory());
	seq_printf(m, "site_counter_bytes %zu\n", aie_sites_ctrs_memory());
	seq_printf(m, "counter_slot_bytes %zu\n", aie_ctrs_memory());
	seq_printf(m, "site_cache_bytes %zu\n", aie_site_caches_memory());
	seq_printf(m, "object_map_bytes %zu\n", objects);
	seq_printf(m, "weight_map_bytes %zu\n", weights);
	seq_printf(m, "slab_map_bytes %zu\n", slabs);
	seq_printf(m, "page_map_bytes %zu\n", pages);
	seq_printf(m, "memory_bytes %zu\n", memory);
	return 0;
}

static struct proc_dir_entry *aie_proc_table, *aie_proc_stats,
			     *aie_proc_lifetimes;

int aie_proc_init(void)
{
	aie_proc_table = proc_create(AIE_PROC_NAME, 0400, NULL,
				     &allocinfo_ext_proc_ops);
	aie_proc_stats = proc_create_single(AIE_STATS_PROC_NAME, 0400, NULL,
					    allocinfo_ext_stats_show);
	aie_proc_lifetimes = proc_create(AIE_LIFETIMES_PROC_NAME, 0400, NULL,
					 &aie_lifetimes_proc_ops);
	if (!aie_proc_table || !aie_proc_stats || !aie_proc_lifetimes) {
		aie_proc_exit();
		return -ENOMEM;
	}
	return 0;
}

/* Waits for readers and writers inside the files to leave them. */
void aie_proc_exit(void)
{
	proc_remove(aie_proc_lifetimes);
	proc_remove(aie_proc_stats);
	proc_remove(aie_proc_table);
}
