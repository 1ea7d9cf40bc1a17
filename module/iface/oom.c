// SPDX-License-Identifier: GPL-2.0
/*
 * oom.c - the call sites holding the most live bytes, in the kernel log at
 * every OOM kill, global or in a memory cgroup: what a kernel built with
 * CONFIG_MEM_ALLOC_PROFILING adds to its OOM report (show_mem(), global
 * OOMs only), as rows of /proc/allocinfo_ext:
 *
 *   allocinfo_ext: oom: victim <comm> (<pid>): top <n> of <sites> sites, <bytes> live bytes:
 *   allocinfo_ext: <row>
 *
 * The report hangs on the oom:mark_victim tracepoint, which fires once for
 * each task an OOM marks as its victim (mark_oom_victim()), from the
 * global and the memory cgroup OOM killers alike, with the victim's
 * task_lock held: atomic context, preemption disabled (aie_tp_guard()).
 * Reports are rate-limited as the OOM killer's own (ten in five seconds);
 * oom_top=0 (params.c) attaches nothing.
 *
 * The OOM path is reached from inside an allocation, by a task that may
 * hold any lock an allocation can be made under. The report allocates
 * nothing: the top sites go in a static array, each row is built in a
 * static buffer, and each site is named in the per-CPU symbol scratch
 * from kallsyms (sprint_symbol(), which takes no lock) or from the name
 * its module left at unload. Its only lock is aie_oom_lock, its own, taken
 * with trylock: a report that finds another under way is skipped, never
 * waits. The sums read the per-CPU counters without a lock (counters.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/tracepoint.h>
#include <trace/events/oom.h>

#include "aie.h"
#include "compat.h"
#include "core/counters.h"
#include "core/params.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "hooks/probes.h"
#include "lib/line.h"
#include "oom.h"
#include "rows.h"

struct aie_oom_row {
	u32 idx;
	bool exact;	/* aie_site_sum() met no move: may raise the peak */
	struct aie_site_sums s;
};

static struct tracepoint *aie_oom_tp;
static DEFINE_RAW_SPINLOCK(aie_oom_lock);	/* the rows and the buffer */
static struct aie_oom_row aie_oom_rows[AIE_OOM_TOP_MAX];
static char aie_oom_buf[KSYM_SYMBOL_LEN + 256];
static DEFINE_RATELIMIT_STATE(aie_oom_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);
static atomic_long_t aie_oom_reports;

/*
 * Keep @r among the @top rows of most live bytes, *@n of them so far,
 * sorted, largest first: an insertion, at most AIE_OOM_TOP_MAX moves.
 */
static void aie_oom_keep(const struct aie_oom_row *r, unsigned int top,
			 unsigned int *n)
{
	unsigned int i = *n;

	if (i == top) {
		if (r->s.live_bytes <= aie_oom_rows[top - 1].s.live_bytes)
			return;
		i--;
	} else {
		(*n)++;
	}
	for (; i && aie_oom_rows[i - 1].s.live_bytes < r->s.live_bytes; i--)
		aie_oom_rows[i] = aie_oom_rows[i - 1];
	aie_oom_rows[i] = *r;
}

/*
 * One row, built in aie_oom_buf as /proc/allocinfo_ext builds it, the
 * site's peak raised to its live bytes as a read of the table does.
 */
static void aie_oom_row_print(const struct aie_oom_row *r)
{
	struct seq_file m = {
		.buf = aie_oom_buf,
		.size = sizeof(aie_oom_buf) - 1,	/* room for the NUL */
	};
	struct aie_site *site = aie_site_at(r->idx);
	struct aie_sym *sym = aie_sym_scratch();
	struct aie_line l;

	aie_site_name(site, sym);
	aie_line_start(&l, &m);
	aie_line_live(&l, r->s.live_bytes, 12);
	aie_line_char(&l, ' ');
	aie_line_live(&l, r->s.live_calls, 8);
	aie_line_char(&l, ' ');
	aie_row_tag_named(&l, site, sym);
	/* A sum a move came in the way of raises no peak (counters.c). */
	aie_row_fields(&l, site, &r->s,
		       r->exact ? aie_site_peak(r->idx, r->s.live_bytes) :
				  atomic64_read(&site->peak));
	/* A row too long for the buffer (a long file name) is cut short. */
	aie_oom_buf[min(l.len, l.size)] = '\0';
	pr_notice("%s\n", aie_oom_buf);
}

static void aie_oom_report(struct task_struct *victim)
{
	unsigned int top = min_t(unsigned int, aie_oom_top, AIE_OOM_TOP_MAX);
	unsigned int i, n = 0, shown = 0;
	u32 idx, nr = aie_sites_nr();
	struct aie_oom_row r;
	struct aie_site *site;
	u64 live = 0;

	for (idx = 0; idx < nr; idx++) {
		site = aie_site_at(idx);
		if (!site || !aie_row_shown(site))
			continue;
		r.exact = aie_site_sum(idx, &r.s);
		shown++;
		live += aie_live(r.s.live_bytes);
		if (r.s.live_bytes <= 0)
			continue;
		r.idx = idx;
		aie_oom_keep(&r, top, &n);
	}
	pr_notice("oom: victim %s (%d): top %u of %u sites, %llu live bytes:\n",
		  victim->comm, task_pid_nr(victim), n, shown, live);
	for (i = 0; i < n; i++)
		aie_oom_row_print(&aie_oom_rows[i]);
}

/* oom:mark_victim(task, uid), from either OOM killer, task_lock held */
static void aie_oom_mark_victim(void *data, struct task_struct *task,
				uid_t uid)
{
	aie_tp_guard();
	if (!__ratelimit(&aie_oom_rs) || !raw_spin_trylock(&aie_oom_lock))
		return;
	aie_oom_report(task);
	atomic_long_inc(&aie_oom_reports);
	raw_spin_unlock(&aie_oom_lock);
}

AIE_TP_PROBE_CHECK(mark_victim, aie_oom_mark_victim);

/*
 * Attach the report, unless oom_top is 0; a kernel without the tracepoint
 * loses only the report, and says so. Process context, at init.
 */
void aie_oom_init(void)
{
	if (!aie_oom_top)
		return;
	aie_oom_tp = aie_tracepoint_find("mark_victim");
	if (aie_oom_tp &&
	    tracepoint_probe_register(aie_oom_tp, aie_oom_mark_victim, NULL))
		aie_oom_tp = NULL;
	if (!aie_oom_tp)
		pr_warn("no oom:mark_victim tracepoint: OOM kills get no report of the top sites\n");
}

/* First at exit: aie_hooks_unregister() then waits for the probe to end. */
void aie_oom_exit(void)
{
	if (aie_oom_tp)
		tracepoint_probe_unregister(aie_oom_tp, aie_oom_mark_victim,
					    NULL);
}

/* The stats file's "oom_report": present, absent or off (oom_top=0). */
const char *aie_oom_state(void)
{
	if (!aie_oom_top)
		return "off";
	return aie_oom_tp ? "present" : "absent";
}

/* The stats file's "oom_reports": reports printed since load. */
unsigned long aie_oom_reported(void)
{
	return atomic_long_read(&aie_oom_reports);
}
