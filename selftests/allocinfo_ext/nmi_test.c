// SPDX-License-Identifier: GPL-2.0
/*
 * nmi_test - allocations from NMI handlers, through the allocators any
 * context may call (alloc_pages_nolock(), kmalloc_nolock(),
 * kfree_nolock(): 6.18 on), charged to their callers, while every CPU
 * churns pages and slab objects with lifetimes, sampling and capture on:
 * the object map's shard locks, the sampling draw and the capture's stack
 * lock all on the way of the hooks the NMIs land in.
 *
 * The helper's "nmi <n>" raises n NMIs on the online CPUs in turn, each
 * taking a page at aie_helper_nmi_page() and a 64-byte object at
 * aie_helper_nmi_kmalloc(); "nmifree" frees the objects in NMIs and the
 * pages in task context. The rows are exact: a sample interval of 64
 * bytes gives both weight 1. An NMI that cannot have a lock the hooks
 * need skips the event (Documentation/design.rst, "Contexts and
 * locking"), counted in nmi_skips: then, and only then, a row may
 * differ, and the one allocations were skipped at must say accurate:no.
 *
 * Skips where there is no NMI source (arm64: no pseudo-NMI a module can
 * raise) or no nolock allocator (before 6.18).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define NMI_FILE	"/sys/kernel/debug/aie_helper/nmi"
#define NMIS		400
#define NMIS_LOCKED	100
#define OBJ		64
#define CHURN_BYTES	(256 << 10)
#define MAX_CPUS	64

/* What the helper holds and has failed: its nmi file. */
struct nmi_state {
	long long pages, objs, page_fails, obj_fails;
	long long obj_bytes;	/* the held objects' ksize() */
	long long forced;	/* NMIs under the stack lock ("nmilocked") */
	long long baits;	/* its allocations at aie_helper_nmi_bait() */
};

static int nmi_state(struct nmi_state *st)
{
	char *buf = aie_read_file(NMI_FILE);
	int n;

	if (!buf)
		return -1;
	n = sscanf(buf, "%lld %lld %lld %lld %lld %lld %lld", &st->pages,
		   &st->objs, &st->page_fails, &st->obj_fails, &st->obj_bytes,
		   &st->forced, &st->baits);
	free(buf);
	return n == 7 ? 0 : -1;
}

/* Pinned to @cpu: anonymous pages faulted in and unmapped, files read. */
static void churn(int cpu)
{
	cpu_set_t set;
	char *p;
	long i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (;;) {
		p = mmap(NULL, CHURN_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (i = 0; i < CHURN_BYTES; i += 4096)
			p[i] = 1;
		munmap(p, CHURN_BYTES);
		free(aie_read_file(AIE_STATS));
	}
}

FIXTURE(nmi) {
	pid_t churn[MAX_CPUS];
	int nchurn;
};

FIXTURE_SETUP(nmi)
{
	int cpu, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t pid;

	if (aie_setup_or_skip(_metadata, "lifetimes=1"))
		return;
	if (aie_stat_is("nolock_hooks", "present"))
		SKIP(return, "no kmalloc_nolock() on this kernel");
	if (access(NMI_FILE, R_OK))
		SKIP(return, "no NMI the helper can raise on this machine");
	ASSERT_EQ(0, aie_stat_is("lifetimes", "on"));
	ASSERT_EQ(0, aie_ctl("sample 64\n"));
	ASSERT_EQ(0, aie_ctl("capture all 4\n"));
	for (cpu = 0; cpu < ncpu && cpu < MAX_CPUS; cpu++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			churn(cpu);
		self->churn[self->nchurn++] = pid;
	}
}

FIXTURE_TEARDOWN(nmi)
{
	int i;

	for (i = 0; i < self->nchurn; i++) {
		kill(self->churn[i], SIGKILL);
		waitpid(self->churn[i], NULL, 0);
	}
	aie_teardown();
}

/*
 * The row of @func (the helper's, or the kernel's), or a zeroed one when
 * there is none: accurate unless it says otherwise.
 */
static struct aie_row nmi_row(const char *func, const char *type)
{
	struct aie_row r;

	if (aie_row_get_type(NULL, func, type, &r) != 1)
		memset(&r, 0, sizeof(r));
	return r;
}

/*
 * NMIS NMIs over the CPUs as they churn: every page and object charged to
 * the helper's function that asked for it, none to the allocators'; all
 * of it back to nothing once freed, the objects in NMIs.
 */
TEST_F(nmi, nolock_allocations_charged_to_callers_in_nmi)
{
	long long slot = aie_kmalloc_slot(OBJ), skips;
	struct nmi_state st;
	struct aie_row pg, obj;

	ASSERT_LT(0, slot);
	ASSERT_EQ(0, aie_helper("nmi %d", NMIS));
	ASSERT_EQ(0, nmi_state(&st));
	TH_LOG("%lld pages, %lld objects held; %lld and %lld failed",
	       st.pages, st.objs, st.page_fails, st.obj_fails);
	EXPECT_EQ(NMIS, st.pages + st.page_fails);
	EXPECT_EQ(NMIS, st.objs + st.obj_fails);
	ASSERT_LT(0, st.pages);
	ASSERT_LT(0, st.objs);

	pg = nmi_row("aie_helper_nmi_page", "page");
	obj = nmi_row("aie_helper_nmi_kmalloc", "slab");
	skips = aie_stat("nmi_skips");
	TH_LOG("nmi_skips %lld, probe_missed %lld", skips,
	       aie_stat("probe_missed"));
	if (!skips) {
		EXPECT_EQ(st.pages, (long long)pg.calls);
		EXPECT_EQ(st.pages * 4096, pg.bytes);
		EXPECT_EQ(st.page_fails, pg.failed);
		EXPECT_EQ(st.objs, (long long)obj.calls);
		/* kmalloc_nolock() may take a larger bucket: ksize()'s */
		EXPECT_LE(st.objs * slot, st.obj_bytes);
		EXPECT_EQ(st.obj_bytes, obj.bytes);
		EXPECT_EQ(st.obj_bytes - st.objs * OBJ, obj.slack);
		EXPECT_EQ(st.obj_fails, obj.failed);
		EXPECT_FALSE(pg.inaccurate);
		EXPECT_FALSE(obj.inaccurate);
	} else {
		/* skipped and counted: short, and saying so */
		EXPECT_GE(st.pages, (long long)pg.calls);
		EXPECT_GE(st.objs, (long long)obj.calls);
		if ((long long)pg.calls < st.pages)
			EXPECT_TRUE(pg.inaccurate);
		if ((long long)obj.calls < st.objs)
			EXPECT_TRUE(obj.inaccurate);
	}
	/* Nothing charged to the allocators' own functions. */
	pg = nmi_row("alloc_pages_nolock_noprof", "page");
	EXPECT_EQ(0, pg.total_calls);
	pg = nmi_row("alloc_frozen_pages_nolock_noprof", "page");
	EXPECT_EQ(0, pg.total_calls);

	ASSERT_EQ(0, aie_helper("nmifree"));
	ASSERT_EQ(0, nmi_state(&st));
	EXPECT_EQ(0, st.pages + st.objs);
	pg = nmi_row("aie_helper_nmi_page", "page");
	obj = nmi_row("aie_helper_nmi_kmalloc", "slab");
	if (aie_stat("nmi_skips") == skips && !skips) {
		EXPECT_EQ(0, (long long)pg.calls);
		EXPECT_EQ(0, pg.bytes);
		EXPECT_EQ(0, (long long)obj.calls);
		EXPECT_EQ(0, obj.bytes);
	}
	EXPECT_LT(0, aie_stat("stacks"));
}

/*
 * NMIS_LOCKED NMIs, each raised on a CPU whose capture holds the stack
 * lock for an allocation at aie_helper_nmi_bait() (the helper's
 * "nmilocked": a kprobe on the memcmp() the capture calls under it), as
 * the CPUs churn. Every allocation the NMIs make is tracked and charged
 * exactly, and its stack skipped: nmi_skips and stack_drops rise by one
 * each per allocation, no more; the interrupted allocations are counted,
 * each once. A lock another CPU
 * held too long in an NMI (single-threaded TCG runs one vCPU at a time) is
 * a skip the helper did not force: an object map insert is then counted
 * in untracked too, and the row says accurate:no.
 */
TEST_F(nmi, nmi_finds_stack_lock_held)
{
	long long skips, drops, untracked, made;
	struct nmi_state st;
	struct aie_row pg, obj, bait;

	skips = aie_stat("nmi_skips");
	drops = aie_stat("stack_drops");
	untracked = aie_stat("untracked");
	ASSERT_EQ(0, aie_helper("nmilocked %d", NMIS_LOCKED));
	ASSERT_EQ(0, nmi_state(&st));
	skips = aie_stat("nmi_skips") - skips;
	drops = aie_stat("stack_drops") - drops;
	untracked = aie_stat("untracked") - untracked;
	made = st.pages + st.objs;
	TH_LOG("%lld forced; %lld pages, %lld objects (%lld, %lld failed)",
	       st.forced, st.pages, st.objs, st.page_fails, st.obj_fails);
	TH_LOG("nmi_skips +%lld, stack_drops +%lld, untracked +%lld; %lld baits",
	       skips, drops, untracked, st.baits);
	EXPECT_EQ(NMIS_LOCKED, st.forced);
	EXPECT_EQ(NMIS_LOCKED, st.pages + st.page_fails);
	EXPECT_EQ(NMIS_LOCKED, st.objs + st.obj_fails);
	ASSERT_LT(0, made);
	/* The stack table has room: a drop is an NMI's skip. */
	EXPECT_GT(aie_stat("stack_capacity"), aie_stat("stacks"));
	EXPECT_EQ(made, drops);
	EXPECT_EQ(drops + untracked, skips);

	pg = nmi_row("aie_helper_nmi_page", "page");
	obj = nmi_row("aie_helper_nmi_kmalloc", "slab");
	if (!untracked) {
		EXPECT_EQ(st.pages, (long long)pg.calls);
		EXPECT_EQ(st.pages * 4096, pg.bytes);
		EXPECT_EQ(st.objs, (long long)obj.calls);
		EXPECT_EQ(st.obj_bytes, obj.bytes);
		EXPECT_EQ(st.obj_bytes - st.objs * OBJ, obj.slack);
		EXPECT_FALSE(pg.inaccurate);
		EXPECT_FALSE(obj.inaccurate);
	} else {
		EXPECT_EQ(made - untracked, (long long)(pg.calls + obj.calls));
		EXPECT_TRUE(pg.inaccurate || obj.inaccurate);
	}
	/* The interrupted allocations, all freed: each counted once. */
	bait = nmi_row("aie_helper_nmi_bait", "slab");
	EXPECT_LE(NMIS_LOCKED, st.baits);
	EXPECT_EQ(st.baits, bait.total_calls);
	EXPECT_EQ(0, (long long)bait.calls);
	EXPECT_EQ(0, bait.bytes);
	EXPECT_FALSE(bait.inaccurate);

	skips = aie_stat("nmi_skips");
	ASSERT_EQ(0, aie_helper("nmifree"));
	pg = nmi_row("aie_helper_nmi_page", "page");
	obj = nmi_row("aie_helper_nmi_kmalloc", "slab");
	if (!untracked && aie_stat("nmi_skips") == skips) {
		EXPECT_EQ(0, (long long)pg.calls);
		EXPECT_EQ(0, pg.bytes);
		EXPECT_EQ(0, (long long)obj.calls);
		EXPECT_EQ(0, obj.bytes);
	}
}

/* "nmi" with nothing to do, then too much: no NMI raised for either. */
TEST_F(nmi, nmi_bounds)
{
	struct nmi_state st;

	ASSERT_EQ(0, aie_helper("nmi 0"));
	ASSERT_EQ(0, nmi_state(&st));
	EXPECT_EQ(0, st.pages + st.objs + st.page_fails + st.obj_fails);
	EXPECT_EQ(-EINVAL, aie_helper("nmi 5000"));
	EXPECT_EQ(-EINVAL, aie_helper("nmilocked 5000"));
	EXPECT_EQ(0, aie_helper("nmifree"));
}

TEST_HARNESS_MAIN
