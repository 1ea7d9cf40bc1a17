// SPDX-License-Identifier: GPL-2.0
/*
 * proc.c - /proc/allocinfo_ext (the table, and control writes); it also
 * creates /proc/allocinfo_ext_stats (stats_proc.c),
 * /proc/allocinfo_ext_lifetimes (lifetimes_proc.c),
 * /proc/allocinfo_ext_caches (caches.c), /proc/allocinfo_ext_cgroups
 * (cgroups.c), /proc/allocinfo_ext_stacks and
 * /proc/allocinfo_ext_stacks_calls (stacks.c): every /proc file of the
 * module. A site's row sums its own counters and its pairs' with memory
 * cgroups (extras/cgsites.c).
 *
 * Writes go to control.c; they need CAP_SYS_ADMIN in the opener's
 * credentials. ioctls go to ioctl.c, on a file opened for reading (the
 * text's readers' rights), each open file with its own iterator. Each
 * row's live bytes also raise the site's peak.
 *
 * Notes on locking
 * ----------------
 * Everything here runs in process context and may sleep. Readers take no
 * lock the hooks take: a site's counters are summed over the CPUs one at
 * a time (hooks go on meanwhile: no hook waits for a reader), and a
 * site's location is read under rcu_read_lock() for one row. A reader's
 * seq_file lock (m->lock) keeps its name buffer; an open file's ioctls
 * hold its iterator's mutex (ioctl.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <allocinfo_ext.h>

#include "aie.h"
#include "caches.h"
#include "control.h"
#include "ioctl.h"
#include "core/counters.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "extras/cgsites.h"
#include "cgroups.h"
#include "lib/line.h"
#include "lifetimes_proc.h"
#include "proc.h"
#include "rows.h"
#include "stacks.h"
#include "stats_proc.h"

/* What an open file keeps: m->private. */
struct aie_proc_file {
	struct aie_sym sym;		/* names the rows read, under m->lock */
	struct aie_ioctl_file ioctl;	/* the ioctls' iterator (ioctl.c) */
};

/*
 * Find the first shown site at index >= @idx; a reschedule point at each,
 * as the sites without a row may be many.
 */
static struct aie_site *aie_proc_site_from(loff_t idx, loff_t *pos)
{
	struct aie_site *site;
	u32 n = aie_sites_nr();

	for (; idx < n; idx++) {
		cond_resched();
		site = aie_site_at(idx);
		if (site && aie_row_shown(site)) {
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
 * Show one row, built in place (line.h): "%12llu %8llu <tag> type:%s
 * slack:%llu total_calls:%lld total_bytes:%lld peak:%lld failed:%lld
 * accounted:%llu[ disabled][ unloaded][ accurate:no]", the live figures
 * as aie_live() reads them.
 */
static int allocinfo_ext_show(struct seq_file *m, void *v)
{
	struct aie_proc_file *pf = m->private;
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
	if (aie_cgsites_sum(idx, &s))
		peak = aie_site_peak(idx, s.live_bytes);
	else
		peak = atomic64_read(&site->peak);
	aie_line_start(&l, m);
	aie_line_live(&l, s.live_bytes, 12);
	aie_line_char(&l, ' ');
	aie_line_live(&l, s.live_calls, 8);
	aie_line_char(&l, ' ');
	aie_row_tag(&l, site, &pf->sym);
	aie_row_fields(&l, site, &s, peak);
	aie_row_nodes(&l, site);
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
	struct aie_proc_file *pf;
	struct seq_file *m;

	pf = __seq_open_private(file, &allocinfo_ext_seq_ops, sizeof(*pf));
	if (!pf)
		return -ENOMEM;
	aie_ioctl_open(&pf->ioctl);
	m = file->private_data;
	m->buf = kvmalloc(AIE_PROC_BUF, GFP_KERNEL_ACCOUNT);
	if (m->buf)
		m->size = AIE_PROC_BUF;
	return 0;
}

static int allocinfo_ext_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct aie_proc_file *pf = m->private;

	aie_ioctl_release(&pf->ioctl);
	return seq_release_private(inode, file);
}

/* Process context; the file's iterator is under its mutex (ioctl.c). */
static long allocinfo_ext_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	struct seq_file *m = file->private_data;
	struct aie_proc_file *pf = m->private;

	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	return aie_ioctl(&pf->ioctl, cmd, (void __user *)arg);
}

#ifdef CONFIG_COMPAT
/* Pass an ioctl on: its structures have one layout on 32 and 64 bits. */
static long allocinfo_ext_compat_ioctl(struct file *file, unsigned int cmd,
				       unsigned long arg)
{
	return allocinfo_ext_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}
#endif

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
	.proc_release = allocinfo_ext_release,
	.proc_write = allocinfo_ext_write,
	.proc_ioctl = allocinfo_ext_ioctl,
#ifdef CONFIG_COMPAT
	.proc_compat_ioctl = allocinfo_ext_compat_ioctl,
#endif
};

static struct proc_dir_entry *aie_proc_table, *aie_proc_stats,
			     *aie_proc_lifetimes, *aie_proc_caches,
			     *aie_proc_cgroups, *aie_proc_stacks,
			     *aie_proc_stacks_calls;

/**
 * aie_proc_init() - Create every /proc file of the module.
 *
 * Each unit has set its part of the stats file before (core/stats.c).
 *
 * Context: Process context, at load; may sleep.
 * Return: 0, or -ENOMEM with none of the files left.
 */
int aie_proc_init(void)
{
	aie_proc_table = proc_create(AIE_PROC_NAME, 0400, NULL,
				     &allocinfo_ext_proc_ops);
	aie_proc_stats = proc_create_single(AIE_STATS_PROC_NAME, 0400, NULL,
					    aie_stats_show);
	aie_proc_lifetimes = proc_create(AIE_LIFETIMES_PROC_NAME, 0400, NULL,
					 &aie_lifetimes_proc_ops);
	aie_caches_init();
	aie_proc_caches = proc_create_single(AIE_CACHES_PROC_NAME, 0400, NULL,
					     aie_caches_show);
	aie_proc_cgroups = proc_create(AIE_CGROUPS_PROC_NAME, 0400, NULL,
				       &aie_cgroups_proc_ops);
	aie_proc_stacks = proc_create(AIE_STACKS_PROC_NAME, 0400, NULL,
				      &aie_stacks_bytes_proc_ops);
	aie_proc_stacks_calls = proc_create(AIE_STACKS_CALLS_PROC_NAME, 0400,
					    NULL, &aie_stacks_calls_proc_ops);
	if (!aie_proc_table || !aie_proc_stats || !aie_proc_lifetimes ||
	    !aie_proc_caches || !aie_proc_cgroups || !aie_proc_stacks ||
	    !aie_proc_stacks_calls) {
		aie_proc_exit();
		return -ENOMEM;
	}
	return 0;
}

/**
 * aie_proc_exit() - Remove every /proc file of the module.
 *
 * Waits for readers and writers inside the files to leave them.
 *
 * Context: Process context; may sleep.
 */
void aie_proc_exit(void)
{
	proc_remove(aie_proc_stacks_calls);
	proc_remove(aie_proc_stacks);
	proc_remove(aie_proc_cgroups);
	proc_remove(aie_proc_caches);
	proc_remove(aie_proc_lifetimes);
	proc_remove(aie_proc_stats);
	proc_remove(aie_proc_table);
}
