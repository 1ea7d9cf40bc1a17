// SPDX-License-Identifier: GPL-2.0
/*
 * cgroups.c - /proc/allocinfo_ext_cgroups: one row per call site and
 * memory cgroup, from the site table's pair entries (extras/cgsites.c).
 *
 * A removed cgroup's row stays, marked, while its objects live.
 *
 * Notes on locking
 * ----------------
 * A reader, in process context, walks the table as proc.c does, taking no
 * lock the hooks take; a pair's cgroup is named under cgsites.c's mutex.
 */

#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

#include <allocinfo_ext.h>

#include "aie.h"
#include "cgroups.h"
#include "core/counters.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "extras/cgsites.h"
#include "lib/line.h"
#include "rows.h"

/* Find the first pair entry at index >= @idx; *pos past it. */
static struct aie_site *aie_cgroups_from(loff_t idx, loff_t *pos)
{
	struct aie_site *site;
	u32 n = aie_sites_nr();

	for (; idx < n; idx++) {
		cond_resched();
		site = aie_site_at(idx);
		if (site && test_bit(AIE_SITE_CGROUP, &site->flags)) {
			*pos = idx + 1;
			return site;
		}
	}
	*pos = n + 1;
	return NULL;
}

/* *pos 0 is the header; *pos i + 1 is site i. */
static void *aie_cgroups_start(struct seq_file *m, loff_t *pos)
{
	if (!*pos)
		return SEQ_START_TOKEN;
	return aie_cgroups_from(*pos - 1, pos);
}

static void *aie_cgroups_next(struct seq_file *m, void *v, loff_t *pos)
{
	return aie_cgroups_from(*pos, pos);
}

static void aie_cgroups_stop(struct seq_file *m, void *v)
{
}

/*
 * Add a cgroup's path as a row shows it: a space, a backslash or a byte
 * that does not print as "\ooo", so that a row splits on spaces.
 */
static void aie_cgroups_path(struct aie_line *l, const char *path)
{
	unsigned char c;

	for (; (c = *path); path++) {
		if (c > ' ' && c < 0x7f && c != '\\') {
			aie_line_char(l, c);
			continue;
		}
		aie_line_char(l, '\\');
		aie_line_char(l, '0' + (c >> 6));
		aie_line_char(l, '0' + ((c >> 3) & 7));
		aie_line_char(l, '0' + (c & 7));
	}
}

/*
 * "%12llu %8llu <tag> type:%s slack:%llu total_calls:%lld
 * total_bytes:%lld cgroup:<path>[ removed]": the tag is the pair's site's.
 */
static int aie_cgroups_show(struct seq_file *m, void *v)
{
	struct aie_sym *sym = m->private;
	struct aie_site *site = v;
	struct aie_site_sums s;
	const char *path;
	struct aie_line l;
	bool removed;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, AIE_CGROUPS_LINE1 "\n" AIE_CGROUPS_LINE2 "\n");
		return 0;
	}
	aie_site_sum(aie_site_index(site), &s);
	path = aie_cgsite_name(site, s.live_calls, &removed);
	if (!path)
		return 0;
	aie_line_start(&l, m);
	aie_line_live(&l, s.live_bytes, 12);
	aie_line_char(&l, ' ');
	aie_line_live(&l, s.live_calls, 8);
	aie_line_char(&l, ' ');
	/* The tag of its site's row */
	aie_row_tag(&l, aie_cgsite_parent(site), sym);
	aie_line_lit(&l, " type:");
	aie_line_str(&l, aie_type_names[site->type]);
	aie_line_lit(&l, " slack:");
	aie_line_live(&l, s.live_slack, 0);
	aie_line_lit(&l, " total_calls:");
	aie_line_s64(&l, s.total_calls, 0);
	aie_line_lit(&l, " total_bytes:");
	aie_line_s64(&l, s.total_bytes, 0);
	aie_line_lit(&l, " cgroup:");
	aie_cgroups_path(&l, path);
	if (removed)
		aie_line_lit(&l, " removed");
	aie_line_char(&l, '\n');
	aie_line_end(&l);
	return 0;
}

static const struct seq_operations aie_cgroups_seq_ops = {
	.start = aie_cgroups_start,
	.next = aie_cgroups_next,
	.stop = aie_cgroups_stop,
	.show = aie_cgroups_show,
};

static int aie_cgroups_open(struct inode *inode, struct file *file)
{
	return __seq_open_private(file, &aie_cgroups_seq_ops,
				  sizeof(struct aie_sym)) ? 0 : -ENOMEM;
}

const struct proc_ops aie_cgroups_proc_ops = {
	.proc_open = aie_cgroups_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = seq_release_private,
};
