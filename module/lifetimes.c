// SPDX-License-Identifier: GPL-2.0
/*
 * lifetimes.c - how long objects live, per site (module parameter
 * lifetimes=1): a log2 histogram of the lifetimes of freed objects, and
 * the age of the oldest live object, in /proc/allocinfo_ext_lifetimes.
 *
 * The object map (aie_objects) then keeps, beside each slot, the object's
 * allocation time: local_clock() in units of 2^AIE_LIFETIME_SHIFT ns, a
 * u32 that wraps after 2^32 units (78 hours); ages are differences modulo
 * 2^32. A free counts the object's age in its site's histogram; a reader
 * finds each site's oldest live object by scanning the object map.
 *
 * With lifetimes=0 nothing here is allocated, aie_lifetimes_key stays off
 * and the hooks take the branches that never stamp (hooks.c); the file
 * shows its header only.
 *
 * Notes on locking
 * ----------------
 * - The histograms are per CPU: each CPU has its own array of
 *   AIE_LIFETIME_BUCKETS local64_t per site, written only by that CPU
 *   with preemption disabled (aie_lifetime_record(), any context but
 *   NMI), so no cache line is written by every CPU. Readers sum the CPUs
 *   without a lock: exact at quiescence.
 * - The oldest ages come from aie_objmap_for_each(), which holds each
 *   shard's lock in turn (interrupts off, one pass over 256 slots); the
 *   reader runs in process context and may sleep between shards. The scan
 *   is done once per open of the file, into a buffer of one u32 per site.
 * - aie_lifetimes_key is set at init, before the hooks attach, and never
 *   changes while they are attached.
 */

#include <linux/bitfield.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>

#include "aie.h"
#include "line.h"

DEFINE_STATIC_KEY_FALSE(aie_lifetimes_key);
DEFINE_PER_CPU(local64_t *, aie_lifetime_hists);

/*
 * A stamp less than this many units (68 s) after the scan's start is an
 * object allocated during the scan: age 0. So an age of 2^32 - 2^20 units
 * or more, modulo 2^32, reads as 0.
 */
#define AIE_LIFETIME_AHEAD	BIT(20)

static unsigned int aie_lifetime_sites;	/* sites a histogram array holds */

/*
 * With @on, a histogram array per possible CPU for @sites sites, then the
 * key on. Process context, before the hooks attach.
 */
int aie_lifetimes_init(bool on, unsigned int sites)
{
	local64_t *h;
	int cpu;

	if (!on)
		return 0;
	for_each_possible_cpu(cpu) {
		h = vzalloc_node(array_size((size_t)sites * AIE_LIFETIME_BUCKETS,
					    sizeof(*h)), cpu_to_node(cpu));
		if (!h) {
			aie_lifetimes_exit();
			return -ENOMEM;
		}
		per_cpu(aie_lifetime_hists, cpu) = h;
	}
	aie_lifetime_sites = sites;
	static_branch_enable(&aie_lifetimes_key);
	return 0;
}

/* Process context, after every hook is unregistered and has finished. */
void aie_lifetimes_exit(void)
{
	int cpu;

	static_branch_disable(&aie_lifetimes_key);
	for_each_possible_cpu(cpu) {
		vfree(per_cpu(aie_lifetime_hists, cpu));
		per_cpu(aie_lifetime_hists, cpu) = NULL;
	}
	aie_lifetime_sites = 0;
}

/* The histograms' memory; the stamps count in the object map's. */
size_t aie_lifetimes_memory(void)
{
	return (size_t)aie_lifetime_sites * AIE_LIFETIME_BUCKETS *
	       sizeof(local64_t) * num_possible_cpus();
}

/* Site @idx's histogram summed over the CPUs; returns the sum of all. */
static u64 aie_lifetime_sum(u32 idx, u64 *hist)
{
	local64_t *h;
	u64 all = 0;
	int cpu, b;

	memset(hist, 0, AIE_LIFETIME_BUCKETS * sizeof(*hist));
	for_each_possible_cpu(cpu) {
		h = per_cpu(aie_lifetime_hists, cpu) +
		    (size_t)idx * AIE_LIFETIME_BUCKETS;
		for (b = 0; b < AIE_LIFETIME_BUCKETS; b++)
			hist[b] += local64_read(&h[b]);
	}
	for (b = 0; b < AIE_LIFETIME_BUCKETS; b++)
		all += hist[b];
	return all;
}

/* What an open lifetimes file keeps. */
struct aie_lifetimes_file {
	struct aie_sym sym;
	u32 now;		/* when the object map was scanned */
	u32 nr;			/* sites when it was scanned */
	u32 *oldest;		/* per site: oldest age + 1; 0 when none live */
	u64 hist[AIE_LIFETIME_BUCKETS];
};

/* aie_objmap_for_each()'s callback: keep the site's oldest age. */
static void aie_lifetimes_scan_one(u64 val, u32 stamp, void *arg)
{
	struct aie_lifetimes_file *f = arg;
	u32 idx = FIELD_GET(AIE_OBJ_SITE, val);
	u32 age = f->now - stamp;

	/* Allocated since the scan began (or a CPU's clock ahead): age 0. */
	if (stamp - f->now < AIE_LIFETIME_AHEAD)
		age = 0;
	if (idx < f->nr && age >= f->oldest[idx])
		f->oldest[idx] = age == U32_MAX ? U32_MAX : age + 1;
}

static void *aie_lifetimes_next_site(struct aie_lifetimes_file *f,
				     loff_t *pos)
{
	struct aie_site *site;

	for (; *pos <= f->nr; ++*pos) {
		site = aie_site_at(*pos - 1);
		if (site && aie_proc_shown(site))
			return site;
	}
	return NULL;
}

/* *pos 0 is the header; *pos i + 1 is site i. */
static void *aie_lifetimes_start(struct seq_file *m, loff_t *pos)
{
	if (!*pos)
		return SEQ_START_TOKEN;
	return aie_lifetimes_next_site(m->private, pos);
}

static void *aie_lifetimes_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return aie_lifetimes_next_site(m->private, pos);
}

static void aie_lifetimes_stop(struct seq_file *m, void *v)
{
}

static int aie_lifetimes_show(struct seq_file *m, void *v)
{
	struct aie_lifetimes_file *f = m->private;
	struct aie_site *site = v;
	struct aie_line l;
	u32 idx, oldest;
	int b;

	if (v == SEQ_START_TOKEN) {
		seq_printf(m, AIE_LIFETIMES_LINE1 "\n# lifetimes:%s unit_ns:%lu buckets:%d\n"
			   AIE_LIFETIMES_LINE3 "\n",
			   aie_lifetimes_on() ? "on" : "off",
			   1UL << AIE_LIFETIME_SHIFT, AIE_LIFETIME_BUCKETS);
		return 0;
	}
	idx = aie_site_index(site);
	oldest = f->oldest[idx];
	if (!aie_lifetime_sum(idx, f->hist) && !oldest)
		return 0;
	aie_line_start(&l, m);
	aie_proc_line_tag(&l, site, &f->sym);
	aie_line_lit(&l, " type:");
	aie_line_str(&l, aie_type_names[site->type]);
	aie_line_lit(&l, " oldest:");
	if (oldest)
		aie_line_u64(&l, (u64)(oldest - 1) << AIE_LIFETIME_SHIFT, 0);
	else
		aie_line_char(&l, '-');
	aie_line_lit(&l, " hist:");
	for (b = 0; b < AIE_LIFETIME_BUCKETS; b++) {
		if (b)
			aie_line_char(&l, ',');
		aie_line_u64(&l, f->hist[b], 0);
	}
	aie_line_char(&l, '\n');
	aie_line_end(&l);
	return 0;
}

static const struct seq_operations aie_lifetimes_seq_ops = {
	.start = aie_lifetimes_start,
	.next = aie_lifetimes_next,
	.stop = aie_lifetimes_stop,
	.show = aie_lifetimes_show,
};

/* Scan the object map once per open: the oldest age of every site. */
static int aie_lifetimes_open(struct inode *inode, struct file *file)
{
	struct aie_lifetimes_file *f;

	f = __seq_open_private(file, &aie_lifetimes_seq_ops, sizeof(*f));
	if (!f)
		return -ENOMEM;
	if (!aie_lifetimes_on())
		return 0;	/* nr 0: the header alone */
	f->nr = aie_sites_nr();
	f->oldest = vzalloc(array_size(max(f->nr, 1U), sizeof(*f->oldest)));
	if (!f->oldest) {
		seq_release_private(inode, file);
		return -ENOMEM;
	}
	f->now = aie_lifetime_now();
	aie_objmap_for_each(&aie_objects, aie_lifetimes_scan_one, f);
	return 0;
}

static int aie_lifetimes_release(struct inode *inode, struct file *file)
{
	struct aie_lifetimes_file *f = ((struct seq_file *)
					file->private_data)->private;

	vfree(f->oldest);
	return seq_release_private(inode, file);
}

const struct proc_ops aie_lifetimes_proc_ops = {
	.proc_open = aie_lifetimes_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = aie_lifetimes_release,
};
