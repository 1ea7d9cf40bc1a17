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
 * Each OOM is bracketed in the kernel log by "aie-expect-oom: begin" and
 * "aie-expect-oom: end": check.sh lets the stack dump of the OOM killer's
 * own report through between them, and nothing else.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_expect.h"

#define HELPER_OOM	"/sys/kernel/debug/aie_helper/oom"
#define PREFIX		"allocinfo_ext: "

/* The report: its header's counts, and its first row. */
struct report {
	int headers;		/* reports seen */
	unsigned int top, sites;
	struct aie_row first;	/* its first row (calls 0: none) */
};

/* Write @msg to the kernel log, as a marker check.sh reads. */
static void kmsg_mark(const char *msg)
{
	aie_write_str("/dev/kmsg", msg);
}

/* The kernel log from @fd on: the last report's header and first row. */
static void read_report(int fd, struct report *r)
{
	bool want_row = false;
	const char *text;
	char rec[2048];

	memset(r, 0, sizeof(*r));
	while ((text = aie_kmsg_next(fd, rec, sizeof(rec)))) {
		if (strncmp(text, PREFIX, strlen(PREFIX)))
			continue;
		text += strlen(PREFIX);
		if (sscanf(text, "oom: victim %*s (%*d): top %u of %u sites",
			   &r->top, &r->sites) == 2) {
			r->headers++;
			memset(&r->first, 0, sizeof(r->first));
			want_row = r->top > 0;
		} else if (want_row) {
			want_row = false;
			if (aie_row_parse(text, &r->first))
				memset(&r->first, 0, sizeof(r->first));
		}
	}
}

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
	if (geteuid())
		SKIP(return, "must be root");
	ASSERT_EQ(0, aie_setup(NULL));
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
 * The helper holds seven eighths of the available memory in 1 MiB
 * blocks; a task of the test, the OOM killer's favourite, fills the rest
 * until killed. The report's first row is the helper's blocks, exactly.
 */
TEST_F(oom, global)
{
	long long avail = mem_available_mib(), held;
	struct report r;
	char *p;
	int status, i;
	pid_t pid;

	ASSERT_LT(64, avail);
	ASSERT_EQ(0, aie_write_str("/proc/self/oom_score_adj", "-1000"));
	ASSERT_EQ(0, aie_helper("alloc pages_oom %lld",
				avail * 7 / 8 < 4096 ? avail * 7 / 8 : 4096));
	held = aie_helper_held("pages_oom");
	ASSERT_LT(avail / 2, held);

	kmsg_mark("aie-expect-oom: begin global");
	pid = fork();
	ASSERT_LE(0, pid);
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
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	kmsg_mark("aie-expect-oom: end global");
	aie_write_str("/proc/self/oom_score_adj", "0");
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

TEST_HARNESS_MAIN
