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
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "aie.h"

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
 * @prefix, then @num in @base, right-aligned in @width columns: what
 * seq_printf() would print for "%*llu" or "%llx", at a fraction of the
 * cost (seq_put_decimal_ull() has no width, and its hex form is not
 * exported to modules).
 */
static void aie_proc_put_num(struct seq_file *m, const char *prefix,
			     unsigned long long num, unsigned int base,
			     unsigned int width)
{
	char buf[24];
	int i = sizeof(buf);

	do {
		buf[--i] = hex_asc[num % base];
		num /= base;
	} while (num);
	while (i > 0 && sizeof(buf) - i < width)
		buf[--i] = ' ';
	seq_puts(m, prefix);
	seq_write(m, buf + i, sizeof(buf) - i);
}

/* A site's tag, as its row shows it; lifetimes.c shows it alike. */
void aie_proc_show_tag(struct seq_file *m, struct aie_site *site,
		       struct aie_sym *sym)
{
	const char *loc;

	aie_site_name_read(site, sym);
	rcu_read_lock();
	loc = rcu_dereference(site->location);
	if (loc) {
		seq_puts(m, loc);
	} else if (sym->known) {
		seq_puts(m, sym->func);
		aie_proc_put_num(m, "+0x", sym->offset, 16, 0);
		aie_proc_put_num(m, "/0x", sym->size, 16, 0);
	} else {
		seq_printf(m, "unknown@%pK", (void *)site->call_site);
	}
	rcu_read_unlock();
	if (sym->module) {
		seq_puts(m, " [");
		seq_puts(m, sym->module);
		seq_putc(m, ']');
	}
	seq_puts(m, " func:");
	seq_puts(m, sym->known ? sym->func : "unknown");
}

/* "%12lli" for the live bytes; seq_printf() only for the rare negative. */
static void aie_proc_show_bytes(struct seq_file *m, s64 bytes)
{
	if (bytes >= 0)
		aie_proc_put_num(m, "", bytes, 10, 12);
	else
		seq_printf(m, "%12lli", (long long)bytes);
}

static int allocinfo_ext_show(struct seq_file *m, void *v)
{
	struct aie_site *site = v;
	struct aie_site_sums s;
	s64 peak;
	u32 idx;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, AIE_HEADER_LINE1 "\n" AIE_HEADER_LINE2 "\n");
		return 0;
	}
	idx = aie_site_index(site);
	aie_site_sum(idx, &s);
	peak = aie_site_peak(idx, s.live_bytes);
	/* The seq_put_*() helpers: a tenth of seq_printf()'s cost a field. */
	aie_proc_show_bytes(m, s.live_bytes);
	aie_proc_put_num(m, " ", s.live_calls, 10, 8);
	seq_putc(m, ' ');
	aie_proc_show_tag(m, site, m->private);
	seq_puts(m, " type:");
	seq_puts(m, aie_type_names[site->type]);
	seq_put_decimal_ll(m, " slack:", s.live_slack);
	seq_put_decimal_ll(m, " total_calls:", s.total_calls);
	seq_put_decimal_ll(m, " total_bytes:", s.total_bytes);
	seq_put_decimal_ll(m, " peak:", peak);
	seq_put_decimal_ll(m, " failed:", atomic64_read(&site->failed));
	seq_put_decimal_ll(m, " accounted:", s.live_accounted);
	if (test_bit(AIE_SITE_DISABLED, &site->flags))
		seq_puts(m, " disabled");
	if (test_bit(AIE_SITE_UNLOADED, &site->flags))
		seq_puts(m, " unloaded");
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations allocinfo_ext_seq_ops = {
	.start = allocinfo_ext_start,
	.next = allocinfo_ext_next,
	.stop = allocinfo_ext_stop,
	.show = allocinfo_ext_show,
};

static int allocinfo_ext_open(struct inode *inode, struct file *file)
{
	if (!seq_open_private(file, &allocinfo_ext_seq_ops,
			      sizeof(struct aie_sym)))
		return 0;
	return -ENOMEM;
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
	size_t memory = aie_sites_memory() + objects + weights +
			aie_rules_memory() + aie_capture_memory() +
			aie_lifetimes_memory() +
			num_possible_cpus() * (sizeof(struct aie_stats) +
					       4 * sizeof(struct aie_sym));

	seq_printf(m, "sites %u\n", aie_sites_nr());
	seq_printf(m, "site_capacity %u\n", aie_sites_capacity());
	seq_printf(m, "tracked_objects %lu\n", aie_objmap_count(&aie_objects));
	seq_printf(m, "object_capacity %lu\n",
		   aie_objmap_capacity(&aie_objects));
	seq_printf(m, "weighted_objects %lu\n",
		   aie_objmap_count(&aie_weights));
	seq_printf(m, "weight_capacity %lu\n",
		   aie_objmap_capacity(&aie_weights));
	seq_printf(m, "sample %lu\n", READ_ONCE(aie_sample_bytes));
	aie_stat_show(m, "untracked", untracked);
	aie_stat_show(m, "sites_full", sites_full);
	aie_stat_show(m, "unmatched_frees", unmatched_frees);
	aie_stat_show(m, "replaced", replaced);
	aie_stat_show(m, "internal_events", internal);
	aie_stat_show(m, "disabled_allocs", disabled);
	aie_stat_show(m, "helper_fallbacks", helper_fallbacks);
	aie_stat_show(m, "page_walk_stops", walk_stops);
	aie_stat_show(m, "cache_size_misses", cache_misses);
	aie_stat_show(m, "oversize", oversize);
	aie_stat_show(m, "sampled_out", sampled_out);
	aie_stat_show(m, "sampled", sampled);
	aie_hooks_show(m);
	aie_memcg_show(m);
	aie_capture_show(m);
	seq_printf(m, "lifetimes %s\n", aie_lifetimes_on() ? "on" : "off");
	seq_printf(m, "lifetime_hist_bytes %zu\n", aie_lifetimes_memory());
	seq_printf(m, "site_table_bytes %zu\n", aie_sites_memory());
	seq_printf(m, "object_map_bytes %zu\n", objects);
	seq_printf(m, "weight_map_bytes %zu\n", weights);
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
