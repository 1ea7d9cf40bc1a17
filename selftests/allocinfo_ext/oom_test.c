// SPDX-License-Identifier: GPL-2.0
/*
 * oom_test - the top sites in the kernel log at an OOM kill: a memory
 * cgroup's (the helper allocates accounted objects in a small cgroup
 * until its OOM killer kills the task) and the whole machine's (the
 * helper holds most of memory, a task of the test fills the rest). The
 * report names the helper's site first, in a row as the table's, with
 * exactly the live bytes and calls it held when the OOM happened; and the
 * module counts on after.
 *
 * A site no symbol covers is named in the report by its index in the
 * table, no address (kernels with failslab, which makes such a site).
 *
 * And an unprivileged user in a delegated memory cgroup makes its OOM
 * killer run 50 times, with the module at its largest tables: the
 * machine lives, the reports keep to the memory cgroup ratelimit (ten a
 * minute, the rest counted), no row carries an address, and the module
 * still counts exactly.
 *
 * Each OOM is bracketed in the kernel log by "aie-expect-oom: begin" and
 * "aie-expect-oom: end": check.sh lets the stack dump of the OOM killer's
 * own report through between them, and nothing else.
 */
#include <ctype.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"
#include "aie_oom_report.h"

#define HELPER_OOM	"/sys/kernel/debug/aie_helper/oom"
#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define LEAK		32768	/* kmalloc(193)s left behind: 8 MiB */

/* The largest tables (core/params.c) and the longest report. */
#define LARGEST		"max_sites=65536 counter_slots=65536 oom_top=64"
#define NOBODY		65534
#define LOOP_OOMS	50
/* Memory cgroup OOM reports: at most this many a window (iface/oom.c). */
#define MEMCG_BURST	10
#define MEMCG_WINDOW_S	60

/* Whether the memory controller can be enabled under the cgroup2 @dir. */
static bool memcg_ready(const char *dir)
{
	char path[128], *buf;
	bool ok;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
	buf = aie_read_file(path);
	ok = buf && strstr(buf, "memory");
	free(buf);
	if (!ok)
		return false;
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	return !aie_write_str(path, "+memory");
}

/*
 * After an OOM: the module still counts exactly (96 bytes charge a slot
 * of kmalloc-96's, larger on a KASAN kernel).
 */
static int counts_after(void)
{
	long long charge = aie_kmalloc_charge(96);
	struct aie_row r;

	if (charge < 96 || aie_helper("free all") ||
	    aie_helper("alloc kmalloc96 3"))
		return -1;
	if (aie_row_get("aie_helper", "aie_helper_kmalloc_96", &r) != 1)
		return -1;
	return r.calls == 3 && r.bytes == 3 * charge ? 0 : -1;
}

FIXTURE(oom) {
	int kmsg;
};

FIXTURE_SETUP(oom)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
	self->kmsg = aie_kmsg_open();
	ASSERT_LE(0, self->kmsg);
}

FIXTURE_TEARDOWN(oom)
{
	if (self->kmsg >= 0)
		close(self->kmsg);
	aie_teardown();
}

TEST_F(oom, report_attached)
{
	EXPECT_EQ(0, aie_stat_is("oom_report", "present"));
	EXPECT_EQ(0, aie_stat("oom_reports"));
}

/*
 * A task in a cgroup of 8 MiB asks the helper for accounted 16 KiB
 * objects (large kmallocs: their pages are the objects) until the
 * cgroup's OOM killer kills it, from inside the allocation it was making:
 * the report counts the objects held before that one.
 */
TEST_F(oom, memcg)
{
	char dir[] = "/tmp/aie_oom.XXXXXX", cg[128], path[160];
	long long before;
	struct report r;
	int status;
	pid_t pid;

	ASSERT_NE(NULL, mkdtemp(dir));
	if (mount("none", dir, "cgroup2", 0, NULL) || !memcg_ready(dir)) {
		umount(dir);
		rmdir(dir);
		SKIP(return, "no memory cgroup controller");
	}
	snprintf(cg, sizeof(cg), "%s/aie_oom", dir);
	ASSERT_EQ(0, mkdir(cg, 0755));
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	ASSERT_EQ(0, aie_write_str(path, "8M"));
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);

	kmsg_mark("aie-expect-oom: begin memcg");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (aie_write_str(path, "0"))
			_exit(2);
		aie_helper("oom kmalloc_oom");
		_exit(3);	/* not killed */
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	kmsg_mark("aie-expect-oom: end memcg");
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("status %#x", status);

	before = aie_read_long(HELPER_OOM);
	read_report(self->kmsg, &r);
	EXPECT_EQ(1, r.headers);
	EXPECT_EQ(10U, r.top);
	EXPECT_LT(0, before);
	EXPECT_STREQ("aie_helper_kmalloc_oom", r.first.func);
	EXPECT_STREQ("aie_helper", r.first.module);
	EXPECT_STREQ("slab", r.first.type);
	EXPECT_EQ(before, (long long)r.first.calls);
	EXPECT_EQ(before * 16384, r.first.bytes);
	EXPECT_EQ(before, r.first.total_calls);
	EXPECT_EQ(before * 16384, r.first.peak);
	EXPECT_EQ(0, r.first.slack);
	EXPECT_EQ(1, aie_stat("oom_reports"));
	EXPECT_EQ(0, counts_after());

	rmdir(cg);
	umount(dir);
	rmdir(dir);
}

/* MemAvailable in MiB, from /proc/meminfo; -1 on error. */
static long long mem_available_mib(void)
{
	char *buf = aie_read_file("/proc/meminfo"), *line;
	long long kb = -1;

	line = buf ? strstr(buf, "MemAvailable:") : NULL;
	if (line)
		sscanf(line, "MemAvailable: %lld kB", &kb);
	free(buf);
	return kb < 0 ? -1 : kb >> 10;
}

/*
 * A global OOM, bracketed in the kernel log as @what: a task of the test,
 * the OOM killer's favourite, fills memory until killed. Its wait status,
 * or -1.
 */
static int fill_memory(const char *what)
{
	char mark[64];
	int status = -1, i;
	pid_t pid;
	char *p;

	if (aie_write_str("/proc/self/oom_score_adj", "-1000"))
		return -1;
	snprintf(mark, sizeof(mark), "aie-expect-oom: begin %s", what);
	kmsg_mark(mark);
	pid = fork();
	if (!pid) {
		if (aie_write_str("/proc/self/oom_score_adj", "1000"))
			_exit(2);
		for (i = 0; i < 65536; i++) {
			p = malloc(1 << 20);
			if (!p)
				_exit(4);
			memset(p, i, 1 << 20);
		}
		_exit(3);	/* not killed */
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	snprintf(mark, sizeof(mark), "aie-expect-oom: end %s", what);
	kmsg_mark(mark);
	aie_write_str("/proc/self/oom_score_adj", "0");
	return status;
}

/*
 * A global OOM: the helper holds seven eighths of the available memory in
 * 1 MiB blocks, *@held of them; a task of the test, the OOM killer's
 * favourite, fills the rest until killed. Returns its wait status, or -1.
 */
static int global_oom(long long *held)
{
	long long avail = mem_available_mib();

	if (avail <= 64 ||
	    aie_write_str("/proc/self/oom_score_adj", "-1000") ||
	    aie_helper("alloc pages_oom %lld",
		       avail * 7 / 8 < 4096 ? avail * 7 / 8 : 4096))
		return -1;
	*held = aie_helper_held("pages_oom");
	if (*held <= avail / 2)
		return -1;
	return fill_memory("global");
}

/* The report's first row is the helper's blocks, exactly. */
TEST_F(oom, global)
{
	struct report r;
	long long held;
	int status;

	status = global_oom(&held);
	ASSERT_NE(-1, status);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("status %#x", status);

	read_report(self->kmsg, &r);
	EXPECT_EQ(1, r.headers);
	EXPECT_EQ(10U, r.top);
	EXPECT_STREQ("aie_helper_pages_oom", r.first.func);
	EXPECT_STREQ("aie_helper", r.first.module);
	EXPECT_STREQ("page", r.first.type);
	EXPECT_EQ(held, (long long)r.first.calls);
	EXPECT_EQ(held << 20, r.first.bytes);
	EXPECT_EQ(held, r.first.total_calls);
	EXPECT_EQ(held << 20, r.first.total_bytes);
	EXPECT_EQ(0, r.first.slack);
	EXPECT_EQ(1, aie_stat("oom_reports"));
	EXPECT_EQ(0, counts_after());
}

/* Write @val to failslab's @knob; 0 or -errno. */
static int failslab(const char *knob, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FAILSLAB "%s", knob);
	return aie_write_str(path, val);
}

/*
 * Unload the helper from a task whose every slab allocation fails
 * (failslab, task-filter): the module cannot copy its sites' names at the
 * unload, and leaves them as they were (extras/modules.c), their call
 * sites in freed text that no symbol covers. The task's wait status, or
 * -1.
 */
static int unload_unnamed(void)
{
	int status = -1;
	pid_t pid;

	if (failslab("probability", "100") || failslab("interval", "1") ||
	    failslab("verbose", "0") || failslab("task-filter", "Y") ||
	    failslab("ignore-gfp-wait", "N") || failslab("times", "-1"))
		return -1;
	pid = fork();
	if (!pid)
		_exit(aie_write_str("/proc/self/make-it-fail", "1") ||
		      aie_unload("aie_helper") ? 1 : 0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	failslab("probability", "0");
	return status;
}

/*
 * The rows of reports in the kernel log from @fd on that name a site no
 * symbol covers: how many, the last one (past the prefix) into @line.
 */
static int unknown_rows(int fd, char *line, size_t len)
{
	const char *text;
	char rec[2048];
	int n = 0;

	while ((text = aie_kmsg_next(fd, rec, sizeof(rec)))) {
		if (strncmp(text, PREFIX, strlen(PREFIX)) ||
		    !strstr(text, "unknown@"))
			continue;
		snprintf(line, len, "%s", text + strlen(PREFIX));
		n++;
	}
	return n;
}

/*
 * A site no symbol covers in the report: LEAK objects of 193 bytes left
 * at aie_helper_kmalloc_193(), the helper unloaded unable to name its sites
 * (above), then a global OOM. The site's row names it by its
 * index in the table, "unknown@site<index>", with func:unknown and no
 * address, its figures exact. Kernels with CONFIG_FAILSLAB alone (the
 * debug and allocprof kernels).
 */
TEST_F(oom, unnamed_site_by_index)
{
	long long charge = aie_kmalloc_charge(193);
	char line[1024], want[64];
	struct aie_row row;
	const char *idx;
	int status;

	if (access(FAILSLAB, F_OK))
		SKIP(return, "no failslab in this kernel");
	ASSERT_LE(193, charge);
	ASSERT_EQ(0, aie_helper("leak kmalloc193 %d", LEAK));
	ASSERT_EQ(0, unload_unnamed());
	ASSERT_FALSE(aie_module_loaded("aie_helper"));

	status = fill_memory("unnamed");
	EXPECT_TRUE(status != -1 && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGKILL)
		TH_LOG("status %#x", status);

	ASSERT_EQ(1, unknown_rows(self->kmsg, line, sizeof(line)));
	TH_LOG("%s", line);
	snprintf(want, sizeof(want), "%12lld %8d unknown@site", LEAK * charge,
		 LEAK);
	EXPECT_EQ(0, strncmp(line, want, strlen(want)));
	EXPECT_FALSE(has_address(line));
	ASSERT_EQ(0, aie_row_parse(line, &row));
	idx = row.location + strlen("unknown@site");
	EXPECT_TRUE(isdigit((unsigned char)*idx) &&
		    strspn(idx, "0123456789") == strlen(idx))
		TH_LOG("location %s", row.location);
	EXPECT_STREQ("", row.module);
	EXPECT_STREQ("unknown", row.func);
	EXPECT_STREQ("slab", row.type);
	EXPECT_EQ(LEAK, (long long)row.calls);
	EXPECT_EQ(LEAK * charge, row.bytes);
	EXPECT_EQ(LEAK * (charge - 193), row.slack);
	EXPECT_EQ(LEAK, row.total_calls);
}

/*
 * The unprivileged user: in the delegated cgroup @dg (root put it there),
 * as nobody, make @dg/oom and, LOOP_OOMS times, a task there that fills
 * anonymous memory until @dg's OOM killer kills it. Returns the tasks
 * killed, or 100 and more on an error.
 */
static int user_loop(const char *dg)
{
	char leaf[160], procs[192];
	int i, status, killed = 0;
	size_t mb;
	char *p;
	pid_t pid;

	/* Dumpable again, so that its /proc/self is its own to write. */
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY) ||
	    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return 100;
	snprintf(leaf, sizeof(leaf), "%s/oom", dg);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", leaf);
	if (mkdir(leaf, 0755))
		return 101;
	for (i = 0; i < LOOP_OOMS; i++) {
		pid = fork();
		if (pid < 0)
			return 102;
		if (!pid) {
			/* Moved by its owner, through @dg's cgroup.procs. */
			if (aie_write_str(procs, "0") ||
			    aie_write_str("/proc/self/oom_score_adj", "1000"))
				_exit(2);
			for (mb = 0; mb < 256; mb++) {
				p = malloc(1 << 20);
				if (!p)
					_exit(4);
				memset(p, (int)mb, 1 << 20);
			}
			_exit(3);	/* not killed */
		}
		if (waitpid(pid, &status, 0) != pid)
			return 103;
		/* 120 and up: the task's exit status, 2 to 4 (below) */
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
			return WIFEXITED(status) ? 120 + WEXITSTATUS(status) : 119;
		killed++;
	}
	rmdir(leaf);
	return killed;
}

/* A cgroup2 mount, and in it a cgroup delegated to nobody. */
FIXTURE(oom_user) {
	int kmsg;
	char mnt[32];
	char dg[64];
	bool mounted;
};

FIXTURE_SETUP(oom_user)
{
	static const char * const owned[] = {
		"", "/cgroup.procs", "/cgroup.subtree_control", "/cgroup.threads",
	};
	char path[128];
	size_t i;

	self->kmsg = -1;
	if (aie_skip_missing(_metadata))
		return;
	snprintf(self->mnt, sizeof(self->mnt), "/tmp/aie_oomu.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->mnt));
	self->mounted = !mount("none", self->mnt, "cgroup2", 0, NULL);
	if (!self->mounted || !memcg_ready(self->mnt))
		SKIP(return, "no memory cgroup controller");
	ASSERT_EQ(0, aie_setup(LARGEST));
	self->kmsg = aie_kmsg_open();
	ASSERT_LE(0, self->kmsg);
	snprintf(self->dg, sizeof(self->dg), "%s/aie_user", self->mnt);
	ASSERT_EQ(0, mkdir(self->dg, 0755));
	snprintf(path, sizeof(path), "%s/memory.max", self->dg);
	ASSERT_EQ(0, aie_write_str(path, "8M"));
	snprintf(path, sizeof(path), "%s/memory.swap.max", self->dg);
	aie_write_str(path, "0");	/* absent without swap accounting */
	for (i = 0; i < ARRAY_SIZE(owned); i++) {
		snprintf(path, sizeof(path), "%s%s", self->dg, owned[i]);
		ASSERT_EQ(0, chown(path, NOBODY, NOBODY)) TH_LOG("%s", path);
	}
}

FIXTURE_TEARDOWN(oom_user)
{
	char leaf[160];

	if (self->kmsg >= 0)
		close(self->kmsg);
	if (self->mounted) {
		snprintf(leaf, sizeof(leaf), "%s/oom", self->dg);
		rmdir(leaf);
		rmdir(self->dg);
		umount(self->mnt);
	}
	rmdir(self->mnt);
	aie_teardown();
}

/*
 * 50 memory cgroup OOMs, from nobody's tasks in a cgroup delegated to
 * nobody, with the module at max_sites=65536 and counter_slots=65536 and
 * reports of 64 rows. Each OOM kills its task; the reports are those the
 * ratelimit lets through, exactly ten while the loop ends within its
 * window of a minute, and the others counted; every report's row is a
 * table row with no address in it; the module counts on exactly.
 */
TEST_F(oom_user, memcg_ooms_in_a_loop_are_rate_limited)
{
	long long reported, suppressed, elapsed, held;
	struct timespec t0, t1;
	char procs[128];
	pid_t pid, waited;
	struct report r;
	int status;

	EXPECT_EQ(65536, aie_stat("counter_slots"));
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", self->dg);
	kmsg_mark("aie-expect-oom: begin user loop");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (aie_write_str(procs, "0"))
			_exit(110);
		_exit(user_loop(self->dg));
	}
	/* The kernel log read as it comes: the OOM killer's reports fill it. */
	memset(&r, 0, sizeof(r));
	while (!(waited = waitpid(pid, &status, WNOHANG))) {
		feed_report(self->kmsg, &r);
		usleep(10000);
	}
	ASSERT_EQ(pid, waited);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kmsg_mark("aie-expect-oom: end user loop");
	elapsed = t1.tv_sec - t0.tv_sec;
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	ASSERT_EQ(LOOP_OOMS, WEXITSTATUS(status));

	feed_report(self->kmsg, &r);
	reported = aie_stat("oom_reports");
	suppressed = aie_stat("oom_reports_suppressed");
	EXPECT_EQ(LOOP_OOMS, reported + suppressed);
	EXPECT_EQ(reported, r.headers);
	if (elapsed < MEMCG_WINDOW_S)
		EXPECT_EQ(MEMCG_BURST, r.headers) TH_LOG("%llds", elapsed);
	EXPECT_LE(MEMCG_BURST, r.headers);
	EXPECT_GE(MEMCG_BURST * (elapsed / MEMCG_WINDOW_S + 1), r.headers)
		TH_LOG("%llds", elapsed);
	EXPECT_EQ(64U, r.top);
	EXPECT_EQ(r.rows_told, r.rows);
	EXPECT_EQ(0, r.addresses);
	EXPECT_EQ(r.unknown, r.unknown_by_index);
	TH_LOG("%d reports, %lld suppressed, in %llds", r.headers, suppressed,
	       elapsed);

	/* A global OOM then, the window's reports spent: reported. */
	status = global_oom(&held);
	ASSERT_NE(-1, status);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("status %#x", status);
	feed_report(self->kmsg, &r);
	EXPECT_EQ(reported + 1, r.headers);
	EXPECT_EQ(reported + 1, aie_stat("oom_reports"));
	EXPECT_EQ(suppressed, aie_stat("oom_reports_suppressed"));
	EXPECT_STREQ("aie_helper_pages_oom", r.first.func);
	EXPECT_EQ(held << 20, r.first.bytes);
	EXPECT_EQ(r.rows_told, r.rows);
	EXPECT_EQ(0, r.addresses);
	EXPECT_EQ(0, counts_after());
}

TEST_HARNESS_MAIN
