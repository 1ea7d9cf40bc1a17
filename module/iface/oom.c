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
 * oom_top=0 (params.c) attaches nothing.
 *
 * Which OOMs are reported: an unprivileged user given a memory cgroup can
 * make its OOM killer run in a loop, so memory cgroup OOMs share one
 * ratelimit, AIE_OOM_BURST reports every AIE_OOM_INTERVAL, the others
 * counted (oom_reports_suppressed). A global OOM's first victim is always
 * reported: the OOM notifiers (register_oom_notifier()) run for global
 * OOMs only, under oom_lock, in the task that then marks the victim, and
 * aie_oom_notify() notes that task. Further victims of the same OOM
 * (memory.oom.group) go through the ratelimit.
 *
 * The cost is bounded by the counters' memory, not by sites times
 * possible CPUs, as summing each site whole would be. The report
 * reads each site's own live bytes once and each counter slot of each
 * CPU up once (aie_oom_rank(): the slots hold 4 MiB at most by default,
 * 65,536 of them, whatever the CPUs), keeps the 2 * oom_top sites of most
 * live bytes by that reading, then sums those whole with aie_site_sum(),
 * and prints the oom_top largest of the sums. The rows' figures are exact
 * sums; only the choice of rows can miss a site whose slot changed hands
 * during the reading, by the deltas that moved.
 *
 * Notes on locking
 * ----------------
 * The OOM path is reached from inside an allocation, by a task that may
 * hold any lock an allocation can be made under. The report allocates
 * nothing: its arrays are static, each row is built in a static buffer,
 * and each site is named in the per-CPU symbol scratch from kallsyms
 * (sprint_symbol(), which takes no lock) or from the name its module left
 * at unload; no row carries an address (rows.c). Its only lock is
 * aie_oom_lock, its own, taken with trylock: a report that finds another
 * under way is skipped, never waits. The ratelimit's lock is taken with
 * trylock too (__ratelimit()). The counters are read without a lock
 * (counters.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/oom.h>
#include <linux/percpu.h>
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
#include "core/stats.h"
#include "core/symbols.h"
#include "hooks/probes.h"
#include "lib/line.h"
#include "oom.h"
#include "rows.h"

/* Memory cgroup OOM reports: at most this many in this long. */
#define AIE_OOM_BURST		10
#define AIE_OOM_INTERVAL	(60 * HZ)

/* Sites of one slot index that aie_oom_rank() reads together. */
#define AIE_OOM_BATCH		256

struct aie_oom_row {
	u32 idx;
	bool exact;	/* aie_site_sum() met no move: may raise the peak */
	struct aie_site_sums s;
};

/* What aie_oom_rank() reads: the rows shown, their live bytes. */
struct aie_oom_total {
	u32 shown;
	u64 live;
};

static struct tracepoint *aie_oom_tp;
static bool aie_oom_notifier_on;
static struct task_struct *aie_oom_global;	/* see aie_oom_notify() */
static DEFINE_RAW_SPINLOCK(aie_oom_lock);	/* the arrays and the buffer */
static struct aie_oom_row aie_oom_picks[2 * AIE_OOM_TOP_MAX];
static struct aie_oom_row aie_oom_rows[AIE_OOM_TOP_MAX];
static s64 aie_oom_live[AIE_OOM_BATCH];
static char aie_oom_buf[KSYM_SYMBOL_LEN + 256];
static DEFINE_RATELIMIT_STATE(aie_oom_rs, AIE_OOM_INTERVAL, AIE_OOM_BURST);
static atomic_long_t aie_oom_reports;
static atomic_long_t aie_oom_suppressed;

/*
 * Keep @r among the @top rows of @rows of most live bytes, *@n of them so
 * far, sorted, largest first: an insertion, at most @top moves.
 */
static void aie_oom_keep(struct aie_oom_row *rows, const struct aie_oom_row *r,
			 unsigned int top, unsigned int *n)
{
	unsigned int i = *n;

	if (i == top) {
		if (r->s.live_bytes <= rows[top - 1].s.live_bytes)
			return;
		i--;
	} else {
		(*n)++;
	}
	for (; i && rows[i - 1].s.live_bytes < r->s.live_bytes; i--)
		rows[i] = rows[i - 1];
	rows[i] = *r;
}

/*
 * Read the live bytes of the sites of slot index @i from site @first on, every
 * @slots-th below @end (at most AIE_OOM_BATCH of them), into aie_oom_live:
 * each site's own counter, then what each CPU's slot @i holds of them,
 * read once (aie_ctr_slot_live()). A slot that changes hands meanwhile
 * may be missed or counted twice (counters.c): the picks are summed again.
 */
static void aie_oom_read_batch(u32 i, u32 first, u32 end, u32 slots)
{
	u32 j, k;

	for (j = first, k = 0; j < end; j += slots, k++)
		aie_oom_live[k] = aie_site_at(j) ?
			atomic64_read(&aie_site_ctrs(j)->live_bytes) : 0;
	aie_ctr_slot_live(i, first, end, aie_oom_live);
}

/*
 * Pick the @picks sites of most live bytes into aie_oom_picks, *@n of
 * them, reading every site's counters once (aie_oom_read_batch()), and
 * count the rows shown and their live bytes in @t. Sites of slot index @i
 * are @i, @i + slots, ...: read a batch of them at a time, so that each
 * CPU's slot is read once a batch, and every slot once for the default's
 * at most 64 sites a slot (max_sites 65,536, 1,024 slots).
 */
static void aie_oom_rank(unsigned int picks, unsigned int *n,
			 struct aie_oom_total *t)
{
	u32 slots = aie_ctr_slots(), nr = aie_sites_nr(), i, j, k, first, end;
	struct aie_oom_row r = { .exact = false };
	struct aie_site *site;

	for (i = 0; i < min(slots, nr); i++) {
		for (first = i; first < nr; first = end) {
			end = min_t(u64, nr, first + (u64)AIE_OOM_BATCH * slots);
			aie_oom_read_batch(i, first, end, slots);
			for (j = first, k = 0; j < end; j += slots, k++) {
				site = aie_site_at(j);
				if (!site || !aie_row_shown(site))
					continue;
				t->shown++;
				t->live += aie_live(aie_oom_live[k]);
				if (aie_oom_live[k] <= 0)
					continue;
				r.idx = j;
				r.s.live_bytes = aie_oom_live[k];
				aie_oom_keep(aie_oom_picks, &r, picks, n);
			}
		}
	}
}

/*
 * Print one row, built in aie_oom_buf as /proc/allocinfo_ext builds it, the
 * site's peak raised to its live bytes as a read of the table does; a site
 * no symbol covers by its index, not its address (rows.c).
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
	aie_row_tag_named(&l, site, sym, true);
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
	unsigned int i, picked = 0, n = 0;
	struct aie_oom_total t = { };
	struct aie_oom_row r;

	aie_oom_rank(2 * top, &picked, &t);
	for (i = 0; i < picked; i++) {
		r.idx = aie_oom_picks[i].idx;
		r.exact = aie_site_sum(r.idx, &r.s);
		if (r.s.live_bytes > 0)
			aie_oom_keep(aie_oom_rows, &r, top, &n);
	}
	pr_notice("oom: victim %s (%d): top %u of %u sites, %llu live bytes:\n",
		  victim->comm, task_pid_nr(victim), n, t.shown, t.live);
	for (i = 0; i < n; i++)
		aie_oom_row_print(&aie_oom_rows[i]);
}

/*
 * Note the task of a global OOM, which marks the victim next: one of the
 * OOM notifiers, from out_of_memory() for global OOMs only, before it
 * picks a victim. Process
 * context, oom_lock held (every OOM kill's, global or memory cgroup's): no
 * other OOM runs until this one is over. A global OOM that kills nobody
 * leaves its task noted; that task's next OOM, if of a memory cgroup, is
 * then reported as global, once.
 */
static int aie_oom_notify(struct notifier_block *nb, unsigned long unused,
			  void *freed)
{
	WRITE_ONCE(aie_oom_global, current);
	return NOTIFY_OK;
}

static struct notifier_block aie_oom_nb = {
	.notifier_call = aie_oom_notify,
};

/*
 * Decide whether to report this victim: a global OOM's first, always; any
 * other within the ratelimit, else counted. oom_lock held: one OOM at a time.
 */
static bool aie_oom_wanted(void)
{
	if (READ_ONCE(aie_oom_global) == current) {
		WRITE_ONCE(aie_oom_global, NULL);
		return true;
	}
	if (__ratelimit(&aie_oom_rs))
		return true;
	atomic_long_inc(&aie_oom_suppressed);
	return false;
}

/* oom:mark_victim(task, uid), from either OOM killer, task_lock held */
static void aie_oom_mark_victim(void *data, struct task_struct *task,
				uid_t uid)
{
	aie_tp_guard();
	if (!aie_oom_wanted() || !raw_spin_trylock(&aie_oom_lock))
		return;
	aie_oom_report(task);
	atomic_long_inc(&aie_oom_reports);
	raw_spin_unlock(&aie_oom_lock);
}

AIE_TP_PROBE_CHECK(mark_victim, aie_oom_mark_victim);

/*
 * Show the report's lines of the stats file: "oom_report" present, absent
 * or off (oom_top=0); "oom_reports", the reports printed since load;
 * "oom_reports_suppressed", the victims the ratelimit left.
 */
static void aie_oom_show(struct seq_file *m)
{
	const char *state = !aie_oom_top ? "off" :
			    aie_oom_tp ? "present" : "absent";

	seq_printf(m, "oom_report %s\n", state);
	seq_printf(m, "oom_reports %lu\n", atomic_long_read(&aie_oom_reports));
	seq_printf(m, "oom_reports_suppressed %lu\n",
		   atomic_long_read(&aie_oom_suppressed));
}

/**
 * aie_oom_init() - Attach the OOM report, unless oom_top is 0.
 *
 * A kernel without the tracepoint loses only the report, and says so;
 * without the notifier, every OOM's report goes through the ratelimit.
 * Sets the report's part of the stats file either way.
 *
 * Context: Process context, at load, before the /proc files are made.
 */
void aie_oom_init(void)
{
	aie_stats_part_set(AIE_STATS_OOM, aie_oom_show, NULL);
	if (!aie_oom_top)
		return;
	/* Only at window ends does __ratelimit() print, then with nothing. */
	ratelimit_set_flags(&aie_oom_rs, RATELIMIT_MSG_ON_RELEASE);
	aie_oom_notifier_on = !register_oom_notifier(&aie_oom_nb);
	aie_oom_tp = aie_tracepoint_find("mark_victim");
	if (aie_oom_tp &&
	    tracepoint_probe_register(aie_oom_tp, aie_oom_mark_victim, NULL))
		aie_oom_tp = NULL;
	if (!aie_oom_tp)
		pr_warn("no oom:mark_victim tracepoint: OOM kills get no report of the top sites\n");
}

/**
 * aie_oom_exit() - Detach the OOM report.
 *
 * First at exit: aie_hooks_unregister() then waits for the probe to end.
 *
 * Context: Process context; may sleep.
 */
void aie_oom_exit(void)
{
	if (aie_oom_tp)
		tracepoint_probe_unregister(aie_oom_tp, aie_oom_mark_victim,
					    NULL);
	if (aie_oom_notifier_on)
		unregister_oom_notifier(&aie_oom_nb);
	aie_oom_notifier_on = false;
}
