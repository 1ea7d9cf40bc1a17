// SPDX-License-Identifier: GPL-2.0
/*
 * lifetime_test - lifetimes=1: the log2 histogram of the lifetimes of
 * freed objects, and the age of the oldest live one, per site, in
 * /proc/allocinfo_ext_lifetimes; and `allocinfo-ext leaks`, which must
 * flag a helper site that leaks on purpose and not one in a steady state.
 *
 * Ages are in units of 2^16 ns; bucket 0 holds 0 and 1 unit, bucket k
 * [2^k, 2^(k+1)) units. An allocation and a free measured around with
 * CLOCK_MONOTONIC bound an object's age: at least the time from the end
 * of the allocating write to the start of the freeing write, at most the
 * time from the start of the one to the end of the other, give or take
 * the unit each stamp is truncated to.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sched_setaffinity() */
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "allocinfo_ext.h"

#define TOOL		"./allocinfo-ext"
#define LIFETIMES	"/proc/" AIE_LIFETIMES_PROC_NAME
#define UNIT_NS		((long long)BIT_ULL(AIE_LIFETIME_SHIFT))

struct lifetimes {
	long long oldest;	/* ns; -1 for "-" */
	long long hist[AIE_LIFETIME_BUCKETS];
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int bucket_of(long long units)
{
	int b = 0;

	for (units >>= 1; units; units >>= 1)
		b++;
	return b;
}

/* The lifetimes line of [aie_helper] func:@func type:@type; 1 found, 0 not. */
static int lifetimes_get(const char *func, const char *type,
			 struct lifetimes *l)
{
	char *buf = aie_read_file(LIFETIMES), *line, *save, *p, want[256];
	int found = 0, b;

	snprintf(want, sizeof(want), " [aie_helper] func:%s type:%s ", func,
		 type);
	for (line = buf ? strtok_r(buf, "\n", &save) : NULL; line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strstr(line, want))
			continue;
		p = strstr(line, " oldest:") + 8;
		l->oldest = *p == '-' ? -1 : strtoll(p, NULL, 10);
		p = strstr(line, " hist:") + 5;
		for (b = 0; b < AIE_LIFETIME_BUCKETS; b++)
			l->hist[b] = strtoll(p + 1, &p, 10);
		found = *p == '\0';
	}
	free(buf);
	return found;
}

static long long hist_sum(const struct lifetimes *l)
{
	long long sum = 0;
	int b;

	for (b = 0; b < AIE_LIFETIME_BUCKETS; b++)
		sum += l->hist[b];
	return sum;
}

FIXTURE(lifetime) {
};

FIXTURE_SETUP(lifetime)
{
	if (aie_setup_or_skip(_metadata, "lifetimes=1"))
		return;
	ASSERT_EQ(0, access(TOOL, X_OK));
	ASSERT_EQ(0, aie_stat_is("lifetimes", "on"));
}

FIXTURE_TEARDOWN(lifetime)
{
	aie_teardown();
}

/*
 * 100 objects each freed right after its allocation: exactly 100
 * lifetimes, none longer than the command took (measured here, so that a
 * host that stalls the guest moves the bound, not the result). On an
 * unloaded host they all land in bucket 0.
 */
TEST_F(lifetime, churn_lifetimes_counted)
{
	long long t0, t1, hi;
	struct lifetimes l;
	int b;

	t0 = now_ns();
	ASSERT_EQ(0, aie_helper("churn kmalloc96 100"));
	t1 = now_ns();
	ASSERT_EQ(1, lifetimes_get("aie_helper_kmalloc_96", "slab", &l));
	EXPECT_EQ(100, hist_sum(&l));
	hi = bucket_of((t1 - t0) / UNIT_NS + 1);
	TH_LOG("bucket 0: %lld of 100; the command took %lld ns",
	       (long long)l.hist[0], t1 - t0);
	for (b = hi + 1; b < AIE_LIFETIME_BUCKETS; b++)
		EXPECT_EQ(0, l.hist[b]) TH_LOG("bucket %d", b);
	EXPECT_EQ(-1, l.oldest);
}

/*
 * 16 objects held 400 ms: the oldest is at least that old while they
 * live, and each lifetime falls in the buckets the clock bounds allow.
 */
TEST_F(lifetime, held_objects_age)
{
	long long t0, t1, t2, t3, lo, hi;
	struct lifetimes l;
	int b;

	t0 = now_ns();
	ASSERT_EQ(0, aie_helper("alloc kmalloc128 16"));
	t1 = now_ns();
	usleep(400000);
	t2 = now_ns();
	ASSERT_EQ(1, lifetimes_get("aie_helper_kmalloc_128", "slab", &l));
	EXPECT_GE(l.oldest, t2 - t1 - UNIT_NS);
	EXPECT_LE(l.oldest, now_ns() - t0 + UNIT_NS);
	EXPECT_EQ(0, hist_sum(&l));
	t2 = now_ns();
	ASSERT_EQ(0, aie_helper("free kmalloc128 16"));
	t3 = now_ns();
	ASSERT_EQ(1, lifetimes_get("aie_helper_kmalloc_128", "slab", &l));
	EXPECT_EQ(-1, l.oldest);
	EXPECT_EQ(16, hist_sum(&l));
	lo = bucket_of((t2 - t1) / UNIT_NS - 1);
	hi = bucket_of((t3 - t0) / UNIT_NS + 1);
	for (b = 0; b < AIE_LIFETIME_BUCKETS; b++) {
		if (b < lo || b > hi)
			EXPECT_EQ(0, l.hist[b]) TH_LOG("bucket %d", b);
	}
	TH_LOG("lifetimes in buckets %lld..%lld", lo, hi);
}

/*
 * `allocinfo-ext leaks -d 1 -n 3` while, every 100 ms, kmalloc193 leaks 4
 * objects and kmalloc192, holding 4 old objects, allocates 8 and frees
 * them: of the helper's sites, exactly the leaking one is listed.
 */
TEST_F(lifetime, leaks_flags_the_leak_only)
{
	char *buf, *line, *save;
	int fd[2], status, helper_lines = 0, leak_lines = 0;
	FILE *out;
	pid_t pid;

	ASSERT_EQ(0, aie_helper("alloc kmalloc192 4"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc193 4"));
	ASSERT_EQ(0, pipe(fd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		char *const args[] = { TOOL, "leaks", "-d", "1", "-n", "3", NULL };

		dup2(fd[1], 1);
		close(fd[0]);
		execv(TOOL, args);
		_exit(127);
	}
	close(fd[1]);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		ASSERT_EQ(0, aie_helper("alloc kmalloc193 4"));
		ASSERT_EQ(0, aie_helper("alloc kmalloc192 8"));
		ASSERT_EQ(0, aie_helper("free kmalloc192 8"));
		usleep(100000);
	}
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	buf = calloc(1, 1 << 20);
	ASSERT_NE(NULL, buf);
	out = fdopen(fd[0], "r");
	ASSERT_NE(NULL, out);
	EXPECT_LT(0, (long)fread(buf, 1, (1 << 20) - 1, out));
	fclose(out);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !strstr(line, " [aie_helper] "))
			continue;
		helper_lines++;
		leak_lines += !!strstr(line, " func:aie_helper_kmalloc_193 type:slab");
		TH_LOG("%s", line);
	}
	free(buf);
	EXPECT_EQ(1, helper_lines);
	EXPECT_EQ(1, leak_lines);
}

/* Run on @cpu alone. */
static int pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

/*
 * A histogram array for each CPU up since the load, not for each possible
 * CPU: 256 bytes a site each. CPU 1's counts stay counted while it is
 * offline and after, in the array it keeps.
 */
TEST_F(lifetime, arrays_for_the_cpus_up)
{
	long long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long long bytes = aie_stat("site_capacity") * AIE_LIFETIME_BUCKETS * 8;
	struct lifetimes l;

	EXPECT_EQ(bytes * cpus, aie_stat("lifetime_hist_bytes"));
	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "no second CPU to take offline");
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, aie_helper("churn kmalloc97 30"));
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, aie_cpu_online(1, 0));
	ASSERT_EQ(1, lifetimes_get("aie_helper_kmalloc_97", "slab", &l));
	EXPECT_EQ(30, hist_sum(&l));
	ASSERT_EQ(0, aie_cpu_online(1, 1));
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, aie_helper("churn kmalloc97 12"));
	ASSERT_EQ(1, lifetimes_get("aie_helper_kmalloc_97", "slab", &l));
	EXPECT_EQ(42, hist_sum(&l));
	EXPECT_EQ(bytes * cpus, aie_stat("lifetime_hist_bytes"));
	EXPECT_EQ(0, aie_stat("lifetime_hist_misses"));
}

/* lifetimes=0: the file has its header and no site, the tool says so. */
TEST(lifetimes_off)
{
	char *buf, *line, *save;
	int lines = 0, status;

	if (aie_setup_or_skip(_metadata, NULL))
		return;
	ASSERT_EQ(0, aie_stat_is("lifetimes", "off"));
	ASSERT_EQ(0, aie_helper("churn kmalloc96 10"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 10"));
	buf = aie_read_file(LIFETIMES);
	ASSERT_NE(NULL, buf);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* (an EXPECT is two statements: no if-else around one) */
		switch (++lines) {
		case 1:
			EXPECT_STREQ(AIE_LIFETIMES_LINE1, line);
			break;
		case 2:
			EXPECT_NE(NULL, strstr(line, " lifetimes:off "));
			break;
		default:
			EXPECT_EQ('#', line[0]) TH_LOG("%s", line);
			break;
		}
	}
	free(buf);
	EXPECT_EQ(3, lines);
	status = system(TOOL " leaks -d 0.1 -n 2 2>/dev/null");
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	aie_teardown();
}

TEST_HARNESS_MAIN
