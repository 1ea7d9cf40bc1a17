// SPDX-License-Identifier: GPL-2.0
/*
 * lifetimes_proc.c - /proc/allocinfo_ext_lifetimes: per site, the log2
 * histogram of freed objects' lifetimes (extras/lifetimes.c) and the age
 * of its oldest live object.
 *
 * Notes on locking
 * ----------------
 * The oldest ages come from aie_objmap_for_each(), which holds each
 * shard's lock in turn (interrupts off, one pass over 128 slots); the
 * reader runs in process context and may sleep between shards. The scan
 * is done once per open of the file, into a buffer of one u32 per site.
 */

#include <linux/bitfield.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>

#include <allocinfo_ext.h>

#include "aie.h"
#include "core/objects.h"
#include "core/objmap.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "core/value.h"
#include "extras/lifetimes.h"
#include "iface/lifetimes_proc.h"
#include "iface/rows.h"
#include "lib/line.h"

/*
 * A stamp less than this many units (68 s) after the scan's start is an
 * object allocated during the scan: age 0. So an age of 2^32 - 2^20 units
 * or more, modulo 2^32, reads as 0.
 */
#define AIE_LIFETIME_AHEAD	BIT(20)

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
		cond_resched();		/* the sites without a row: any number */
		site = aie_site_at(*pos - 1);
		if (site && aie_row_shown(site))
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
	aie_row_tag(&l, site, &f->sym);
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
