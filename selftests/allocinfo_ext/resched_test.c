// SPDX-License-Identifier: GPL-2.0
/*
 * resched_test - the module's long loops, which a root user can make walk
 * every site, give the CPU up as they go: a task woken meanwhile on the
 * same CPU runs before the call returns.
 *
 * With the kernel's preemption model set to "none" (PREEMPT_DYNAMIC's
 * /sys/kernel/debug/sched/preempt), a task in the kernel gives its CPU up
 * only where it sleeps or calls cond_resched(). Two threads are pinned to
 * one CPU: a sleeper woken every millisecond, which counts its wakeups,
 * and the test's own thread, which makes one long system call that walks
 * every site: GET_AT at a huge pos (ioctl.c), a "locate" that matches no
 * site (control.c). Both are SCHED_FIFO, the sleeper above: woken, it
 * asks at once for the CPU, and once it sleeps again the test's thread
 * has it back before any other task. Between the two reads of the count
 * the sleeper can then run at the call's two edges alone (before the
 * call enters the kernel, and on its return to user mode: once each, as
 * it sleeps a millisecond when it has run), or at a reschedule point
 * inside the call: more than two wakeups between them is a reschedule
 * point inside. Each call must first have run MIN_PERIODS of the
 * sleeper's periods on its CPU (CLOCK_THREAD_CPUTIME_ID), or the test
 * proved nothing and fails so: then more sites are needed.
 *
 * Skips where the kernel has no "none" model to switch to: no
 * PREEMPT_DYNAMIC (Debian's 5.10, its arm64 kernels), or only full and
 * the lazy models (7.x on x86-64: "full (lazy)"; 6.12-rt: "full (lazy)
 * laziest"), where cond_resched() does nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_ioctl.h"

#define PREEMPT_FILE	"/sys/kernel/debug/sched/preempt"
#define PERIOD_NS	1000000LL	/* the sleeper's */
#define MIN_PERIODS	8	/* a call shorter proves nothing */
#define EDGE_WAKEUPS	2	/* at most, outside the kernel */
#define HELPER_SITES	768	/* the helper's "sites", all */
#define HELPER_PAGES	512	/* its "pagesites" */
#define HELPER_FAKE	4096	/* its "fakesites": sites, no allocation */

struct sleeper {
	pthread_t thread;
	atomic_long wakeups;
	atomic_int stop;
	bool started;
};

static long long now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *sleeper_fn(void *arg)
{
	struct timespec period = { .tv_nsec = PERIOD_NS };
	struct sleeper *s = arg;

	while (!atomic_load(&s->stop)) {
		clock_nanosleep(CLOCK_MONOTONIC, 0, &period, NULL);
		atomic_fetch_add(&s->wakeups, 1);
	}
	return NULL;
}

/* The calling thread pinned to the CPU it runs on; that CPU, or -1. */
static int pin_here(cpu_set_t *set)
{
	int cpu = sched_getcpu();

	if (cpu < 0)
		return -1;
	CPU_ZERO(set);
	CPU_SET(cpu, set);
	if (sched_setaffinity(0, sizeof(*set), set))
		return -1;
	return cpu;
}

/*
 * The caller pinned to its CPU at SCHED_FIFO priority 1, and the sleeper
 * started there at priority 2.
 */
static int sleeper_start(struct sleeper *s)
{
	struct sched_param sp = { .sched_priority = 1 };
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	atomic_init(&s->wakeups, 0);
	atomic_init(&s->stop, 0);
	if (pin_here(&set) < 0 || sched_setscheduler(0, SCHED_FIFO, &sp))
		return -1;
	sp.sched_priority = 2;
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = pthread_create(&s->thread, &attr, sleeper_fn, s);
	pthread_attr_destroy(&attr);
	s->started = !ret;
	return ret ? -1 : 0;
}

static void sleeper_stop(struct sleeper *s)
{
	if (!s->started)
		return;
	atomic_store(&s->stop, 1);
	pthread_join(s->thread, NULL);
}

/*
 * What one call did: its return, the time it took on its CPU and in all
 * (others ran meanwhile), the wakeups around it.
 */
struct span {
	int ret;
	long long cpu_ns, ns;
	long wakeups;
};

/*
 * The preemption model in force, the word in parentheses of @buf ("none
 * voluntary (full)"), into @mode; whether "none" is offered, in *@none.
 */
static int preempt_parse(const char *buf, char *mode, size_t len, bool *none)
{
	const char *open = strchr(buf, '('), *close;
	char word[32];
	int at = 0, n;

	*none = false;
	while (sscanf(buf + at, " %31s%n", word, &n) == 1) {
		if (!strcmp(word, "none") || !strcmp(word, "(none)"))
			*none = true;
		at += n;
	}
	if (!open)
		return -1;
	close = strchr(open, ')');
	if (!close || (size_t)(close - open) > len)
		return -1;
	snprintf(mode, len, "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

FIXTURE(resched) {
	struct sleeper s;
	char mode[32];		/* the model to put back, or "" */
	int fd, wfd;		/* the table's, for ioctls and for words */
};

FIXTURE_SETUP(resched)
{
	char *buf;
	bool none;

	self->mode[0] = '\0';
	self->s.started = false;
	self->fd = -1;
	self->wfd = -1;
	if (geteuid())
		SKIP(return, "must be root");
	if (access(PREEMPT_FILE, F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	buf = aie_read_file(PREEMPT_FILE);
	if (!buf)
		SKIP(return, "no %s: no PREEMPT_DYNAMIC", PREEMPT_FILE);
	if (preempt_parse(buf, self->mode, sizeof(self->mode), &none) ||
	    !none) {
		buf[strcspn(buf, "\n")] = '\0';
		TH_LOG("%s: %s", PREEMPT_FILE, buf);
		free(buf);
		self->mode[0] = '\0';
		SKIP(return, "no \"none\" preemption model: cond_resched() does nothing");
	}
	free(buf);
	ASSERT_EQ(0, aie_setup(NULL));
	ASSERT_EQ(0, aie_helper("sites %d", HELPER_SITES));
	ASSERT_EQ(0, aie_helper("pagesites %d", HELPER_PAGES));
	ASSERT_EQ(0, aie_helper("fakesites %d", HELPER_FAKE));
	self->fd = open(AIE_PROC, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->wfd = open(AIE_PROC, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, self->wfd);
	ASSERT_EQ(0, aie_write_str(PREEMPT_FILE, "none"));
	ASSERT_EQ(0, sleeper_start(&self->s));
}

FIXTURE_TEARDOWN(resched)
{
	if (!self->mode[0])
		return;
	sleeper_stop(&self->s);
	if (self->fd >= 0)
		close(self->fd);
	if (self->wfd >= 0)
		close(self->wfd);
	EXPECT_EQ(0, aie_write_str(PREEMPT_FILE, self->mode));
	aie_teardown();
}

/* One long system call on @fd, with @word where it takes one. */
typedef int (*call_fn)(int fd, const char *word);

/*
 * The wakeups of @s while @call ran, and how long it took. Nothing but
 * the call between the reads of the count: no page to fault in, no other
 * system call.
 */
static struct span span_of(struct sleeper *s, call_fn call, int fd,
			   const char *word)
{
	long long t0, c0;
	struct span sp;
	long w0;

	t0 = now_ns(CLOCK_MONOTONIC);
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	w0 = atomic_load(&s->wakeups);
	sp.ret = call(fd, word);
	sp.wakeups = atomic_load(&s->wakeups) - w0;
	sp.cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	sp.ns = now_ns(CLOCK_MONOTONIC) - t0;
	return sp;
}

/*
 * The call lasted long enough to mean something, and gave the CPU up: more
 * wakeups inside it than its edges allow.
 */
static void expect_resched(struct __test_metadata *_metadata,
			   const struct span *sp)
{
	TH_LOG("%lld us on the CPU, %lld us in all, %ld wakeups of the sleeper",
	       sp->cpu_ns / 1000, sp->ns / 1000, sp->wakeups);
	ASSERT_LE(MIN_PERIODS * PERIOD_NS, sp->cpu_ns)
		TH_LOG("too short to tell: more sites needed");
	EXPECT_LT(EDGE_WAKEUPS, sp->wakeups)
		TH_LOG("no reschedule point inside the call");
}

/* A control word, in one write() to the table's file open for writing. */
static int control(int fd, const char *word)
{
	ssize_t n = write(fd, word, strlen(word));

	return n < 0 ? -errno : 0;
}

/* GET_AT past the last row: every site summed and named (ioctl.c). */
static int get_at_huge_pos(int fd, const char *word)
{
	(void)word;
	return aie_get_at(fd, ~0ULL, NULL, NULL);
}

TEST_F(resched, get_at_walk_gives_the_cpu_up)
{
	struct span sp = span_of(&self->s, get_at_huge_pos, self->fd, NULL);

	EXPECT_EQ(-ENOENT, sp.ret);
	expect_resched(_metadata, &sp);
}

/* "locate" of a function no site is in: each site named (control.c). */
TEST_F(resched, locate_walk_gives_the_cpu_up)
{
	struct span sp = span_of(&self->s, control, self->wfd,
				 "locate aie_resched_nowhere+0x10 nowhere.c:1");

	EXPECT_EQ(-ENOENT, sp.ret);
	expect_resched(_metadata, &sp);
}

TEST_HARNESS_MAIN
