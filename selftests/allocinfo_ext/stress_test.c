// SPDX-License-Identifier: GPL-2.0
/*
 * stress_test - allocation storms from the helper module on every CPU at
 * once, while other threads read /proc/allocinfo_ext, toggle rules and run
 * a userspace workload; module load/unload cycles under a storm; CPU
 * hotplug. At quiescence the figures hold exactly: every storm site's
 * calls since the storm began equal the helper's count of them, nothing
 * it freed stays live, no row is negative.
 *
 * Length: aie.stress_seconds=, aie.slot_seconds= (the storms through one
 * counter slot) and aie.stress_cycles= on the kernel command line (make
 * stress, and the 4-vCPU run of make check); 20 s, 5 s and 10 cycles
 * otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

#define STORM	"/sys/kernel/debug/aie_helper/storm"

/* The storm kinds, the rows they make, and the helper's counts. */
static const struct {
	const char *kind, *func, *type;
} kinds[] = {
	{ "kmalloc96", "aie_helper_kmalloc_96", "slab" },
	{ "kmalloc193", "aie_helper_kmalloc_193", "slab" },
	{ "cache", "aie_helper_cache_alloc", "slab" },
	{ "pages0", "aie_helper_pages0", "page" },
	{ "pages2", "aie_helper_pages2", "page" },
	{ "vmalloc10000", "aie_helper_vmalloc_10000", "vmalloc" },
	{ "percpu40", "aie_helper_percpu_40", "percpu" },
	{ "kvmalloc100", "aie_helper_kvmalloc_100", "slab" },
	{ "large_const", "aie_helper_kmalloc_large_const", "slab" },
};

struct counts {
	long long allocs[ARRAY_SIZE(kinds)], frees[ARRAY_SIZE(kinds)];
};

static int storm_counts(struct counts *c)
{
	char *buf = aie_read_file(STORM), *line, *save, kind[32];
	long long a, f;
	size_t i;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%31s %lld %lld", kind, &a, &f) != 3)
			continue;
		for (i = 0; i < ARRAY_SIZE(kinds); i++) {
			if (!strcmp(kind, kinds[i].kind)) {
				c->allocs[i] = a;
				c->frees[i] = f;
			}
		}
	}
	free(buf);
	return 0;
}

/* A number from aie.<name>= on the kernel command line, or @def. */
static long cmdline_long(const char *name, long def)
{
	char *buf = aie_read_file("/proc/cmdline"), key[64], *p;
	long v = def;

	if (!buf)
		return def;
	snprintf(key, sizeof(key), "aie.%s=", name);
	p = strstr(buf, key);
	if (p)
		v = atol(p + strlen(key));
	free(buf);
	return v;
}

static atomic_int stop;	/* the crew's threads stop */

struct worker {
	long rounds;
	long errors;	/* malformed or negative rows, unexpected answers */
};

/* Read the table again and again; every row must parse, none negative. */
static void *reader(void *arg)
{
	struct worker *w = arg;
	char *buf, *line, *save;
	struct aie_row r;

	while (!stop) {
		buf = aie_read_file(AIE_PROC);
		if (!buf)
			continue;	/* the module may be between loads */
		line = strtok_r(buf, "\n", &save);		/* version */
		line = strtok_r(NULL, "\n", &save);		/* legend */
		for (line = strtok_r(NULL, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (aie_row_parse(line, &r) || r.bytes < 0 ||
			    r.calls > (1ULL << 62) || r.slack < 0)
				w->errors++;
		}
		free(buf);
		w->rounds++;
	}
	return NULL;
}

/* Rules on and off, for sites other than the helper's. */
static void *toggler(void *arg)
{
	static const char * const words[] = {
		"disable func:shmem_alloc_inode", "enable func:shmem_alloc_inode",
		"disable [no_such_module]", "disable __d_alloc+0x2b",
		"enable all", "disable fs/pipe.c:817",
	};
	struct worker *w = arg;
	int ret;

	while (!stop) {
		ret = aie_ctl(words[w->rounds++ % ARRAY_SIZE(words)]);
		if (ret && ret != -ENOENT)	/* between loads */
			w->errors += ret != -ENOENT && access(AIE_PROC, F_OK) == 0;
	}
	return NULL;
}

/* Processes, pipes and files on tmpfs. */
static void *workload(void *arg)
{
	struct worker *w = arg;
	char path[64];
	int fd, p[2];
	pid_t pid;

	while (!stop) {
		if (!pipe(p)) {
			pid = fork();
			if (!pid) {
				ssize_t n = write(p[1], "x", 1);

				_exit(n == 1 ? 0 : 1);
			}
			if (pid > 0)
				waitpid(pid, NULL, 0);
			close(p[0]);
			close(p[1]);
		}
		snprintf(path, sizeof(path), "/tmp/aie-stress-%ld", w->rounds++ % 32);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
		if (fd >= 0) {
			if (write(fd, path, sizeof(path)) < 0)
				w->errors++;
			close(fd);
		}
		unlink(path);
	}
	return NULL;
}

typedef void *(*worker_fn)(void *);

struct crew {
	pthread_t t[4];
	struct worker w[4];
};

static int crew_start(struct crew *c)
{
	static const worker_fn fn[] = { reader, reader, toggler, workload };
	int i;

	stop = 0;
	memset(c, 0, sizeof(*c));
	for (i = 0; i < 4; i++) {
		if (pthread_create(&c->t[i], NULL, fn[i], &c->w[i]))
			return -1;
	}
	return 0;
}

static long crew_stop(struct crew *c)
{
	long errors = 0;
	int i;

	stop = 1;
	for (i = 0; i < 4; i++) {
		pthread_join(c->t[i], NULL);
		errors += c->w[i].errors;
	}
	return errors;
}

FIXTURE(stress) {
	struct aie_row before[ARRAY_SIZE(kinds)];
	struct counts start;
};

/*
 * Load allocinfo_ext with @params and the helper; note where counts start
 * (@start) and the storm sites' rows then (@before).
 */
static void stress_begin(struct __test_metadata *_metadata,
			 struct aie_row *before, struct counts *start,
			 const char *params)
{
	size_t i;

	ASSERT_EQ(0, aie_setup(params));
	/* every storm site exists before the counts start */
	ASSERT_EQ(0, aie_helper("storm 1"));
	ASSERT_EQ(0, storm_counts(start));
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		ASSERT_EQ(1, aie_row_get_type("aie_helper", kinds[i].func,
					      kinds[i].type, &before[i]))
			TH_LOG("%s", kinds[i].func);
}

FIXTURE_SETUP(stress)
{
	if (aie_skip_missing(_metadata))
		return;
	stress_begin(_metadata, self->before, &self->start, NULL);
}

FIXTURE_TEARDOWN(stress)
{
	stop = 1;
	aie_teardown();
}

/* Every storm site counted every storm allocation, and holds nothing. */
static void check_storm_sites(struct __test_metadata *_metadata,
			      const struct aie_row *before,
			      const struct counts *start)
{
	struct counts now;
	struct aie_row r;
	size_t i;

	ASSERT_EQ(0, storm_counts(&now));
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		ASSERT_EQ(now.allocs[i], now.frees[i]) TH_LOG("%s", kinds[i].kind);
		ASSERT_EQ(1, aie_row_get_type("aie_helper", kinds[i].func,
					      kinds[i].type, &r))
			TH_LOG("%s", kinds[i].func);
		EXPECT_EQ(now.allocs[i] - start->allocs[i],
			  r.total_calls - before[i].total_calls)
			TH_LOG("%s", kinds[i].func);
		EXPECT_EQ(before[i].calls, r.calls) TH_LOG("%s", kinds[i].func);
		EXPECT_EQ(before[i].bytes, r.bytes) TH_LOG("%s", kinds[i].func);
		EXPECT_EQ(0LL, r.slack) TH_LOG("%s", kinds[i].func);
	}
	EXPECT_EQ(0, aie_stat("untracked"));
	EXPECT_EQ(0, aie_stat("sites_full"));
}

TEST_F_TIMEOUT(stress, storms_with_readers_and_togglers, 3600)
{
	time_t end = time(NULL) + cmdline_long("stress_seconds", 20);
	struct crew crew;
	long storms = 0;

	ASSERT_EQ(0, crew_start(&crew));
	while (time(NULL) < end) {
		ASSERT_EQ(0, aie_helper("storm 200"));
		storms++;
	}
	EXPECT_EQ(0, crew_stop(&crew));
	TH_LOG("%ld storms; %ld and %ld table reads, %ld rule writes",
	       storms, crew.w[0].rounds, crew.w[1].rounds, crew.w[2].rounds);
	ASSERT_EQ(0, aie_ctl("enable all"));
	check_storm_sites(_metadata, self->before, &self->start);
}

/*
 * The same with one counter slot per CPU, which every site shares: nearly
 * every charge and uncharge gives the slot to another site, moving the
 * deltas of the one before to its own counters, on every CPU at once,
 * and hooks that interrupt one another between their test of the slot and
 * their updates add to their sites' own counters instead (counters.c).
 */
TEST_F_TIMEOUT(stress, storms_through_one_counter_slot, 3600)
{
	long long takes, shared;
	struct crew crew;
	long storms = 0;
	time_t end;

	aie_teardown();
	stress_begin(_metadata, self->before, &self->start, "counter_slots=1");
	takes = aie_stat("counter_slot_takes");
	shared = aie_stat("counter_shared_updates");
	/* from here: loading is slow on a debug kernel */
	end = time(NULL) + cmdline_long("slot_seconds", 5);
	ASSERT_EQ(0, crew_start(&crew));
	do {
		ASSERT_EQ(0, aie_helper("storm 200"));
		storms++;
	} while (time(NULL) < end);
	EXPECT_EQ(0, crew_stop(&crew));
	takes = aie_stat("counter_slot_takes") - takes;
	shared = aie_stat("counter_shared_updates") - shared;
	TH_LOG("%ld storms; %lld slot takes, %lld updates of sites' own counters",
	       storms, takes, shared);
	/* each storm allocates and frees at 9 sites in turn */
	EXPECT_LE(16LL * storms, takes);
	ASSERT_EQ(0, aie_ctl("enable all"));
	check_storm_sites(_metadata, self->before, &self->start);
}

struct storm_loop {
	pthread_t t;
	long storms;
	int err;
};

static void *storm_loop(void *arg)
{
	struct storm_loop *s = arg;

	while (!stop && !s->err) {
		s->err = aie_helper("storm 50");
		s->storms++;
	}
	return NULL;
}

/*
 * Hold the table open across unloads, reading from the start again and
 * again: once the module is gone a read fails, and the file is opened
 * anew when it is back.
 */
static void *holder(void *arg)
{
	struct worker *w = arg;
	char buf[4096];
	int fd = -1;

	while (!stop) {
		if (fd < 0)
			fd = open(AIE_PROC, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (lseek(fd, 0, SEEK_SET) < 0 || read(fd, buf, sizeof(buf)) <= 0) {
			close(fd);
			fd = -1;
			w->errors++;	/* reads failed after an unload */
		}
		w->rounds++;
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * Let Slab settle before it is read: drop the dentry and inode caches, and
 * shrink every cache, which also empties what KASAN's quarantine holds of
 * it (a debug kernel keeps freed objects there for a while).
 */
static void settle_slab(void)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	char path[320];

	aie_write_str("/proc/sys/vm/drop_caches", "3");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 e->d_name);
		aie_write_str(path, "1");
	}
	if (d)
		closedir(d);
}

static long long meminfo_kb(const char *key)
{
	char *buf = aie_read_file("/proc/meminfo"), *p;
	long long kb = -1;

	if (!buf)
		return -1;
	p = strstr(buf, key);
	if (p)
		kb = atoll(p + strlen(key));
	free(buf);
	return kb;
}

/*
 * allocinfo_ext loaded and unloaded again and again while storms run on
 * every CPU (unloading with CPUs inside the hooks) and a reader holds the
 * file open; afterwards Slab, VmallocUsed and Percpu are back where they
 * were, within 2 MiB, 256 KiB and 64 KiB (one load's object map is 1.5
 * MiB of vmalloc, its per-CPU buffers 3 KiB a CPU).
 */
TEST_F_TIMEOUT(stress, load_unload_cycles_under_storm, 3600)
{
	long cycles = cmdline_long("stress_cycles", 10), i;
	long long slab, vm, pcpu;
	struct storm_loop s = { };
	struct worker hold = { };
	pthread_t holder_t;
	struct crew crew;

	aie_unload("allocinfo_ext");
	ASSERT_EQ(0, aie_load(AIE_MODULE_KO, "max_objects=65536"));
	ASSERT_EQ(0, aie_unload("allocinfo_ext"));
	settle_slab();
	slab = meminfo_kb("Slab:");
	vm = meminfo_kb("VmallocUsed:");
	pcpu = meminfo_kb("Percpu:");

	ASSERT_EQ(0, crew_start(&crew));
	ASSERT_EQ(0, pthread_create(&s.t, NULL, storm_loop, &s));
	ASSERT_EQ(0, pthread_create(&holder_t, NULL, holder, &hold));
	for (i = 0; i < cycles; i++) {
		ASSERT_EQ(0, aie_load(AIE_MODULE_KO, "max_objects=65536"))
			TH_LOG("cycle %ld", i);
		usleep(20000);
		ASSERT_EQ(0, aie_unload("allocinfo_ext")) TH_LOG("cycle %ld", i);
	}
	crew_stop(&crew);
	pthread_join(s.t, NULL);
	pthread_join(holder_t, NULL);
	EXPECT_EQ(0, s.err);
	TH_LOG("%ld cycles, %ld storms meanwhile; the open table read %ld times, failing %ld times",
	       cycles, s.storms, hold.rounds, hold.errors);

	settle_slab();
	EXPECT_GE(slab + 2048, meminfo_kb("Slab:"));
	EXPECT_GE(vm + 256, meminfo_kb("VmallocUsed:"));
	EXPECT_GE(pcpu + 64, meminfo_kb("Percpu:"));
	ASSERT_EQ(0, aie_load(AIE_MODULE_KO, NULL));
}

/* Until stop, CPUs 1 to n - 1 offline and back, one after the other. */
static void *hotplugger(void *arg)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	struct worker *w = arg;
	int cpu;

	while (!stop) {
		for (cpu = 1; cpu < n && !stop; cpu++) {
			if (aie_cpu_online(cpu, 0) || aie_cpu_online(cpu, 1))
				w->errors++;
			else
				w->rounds++;
		}
	}
	return NULL;
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
 * CPUs 1 and up go offline and come back, one at a time, all through the
 * storms, beside the readers and togglers. What a CPU counted stays
 * counted when it dies (its counter slots move to their sites' own
 * counters, counters.c): a site charged on CPU 1 alone reads the same
 * while CPU 1 is offline and after, and the storm sites are exact.
 */
TEST_F_TIMEOUT(stress, cpu_hotplug, 600)
{
	time_t end = time(NULL) + cmdline_long("stress_seconds", 20) / 2;
	long long slot = aie_kmalloc_charge(97), disabled;
	struct worker plug = { 0 };
	struct crew crew;
	long storms = 0;
	pthread_t t;

	if (access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "no second CPU to take offline");
	ASSERT_LT(0, slot);
	ASSERT_EQ(0, aie_ctl("disable func:aie_helper_kmalloc_129"));
	disabled = aie_stat("disabled_allocs");
	ASSERT_EQ(0, pin(1));
	ASSERT_EQ(0, aie_helper("alloc kmalloc129 7"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 5"));
	ASSERT_EQ(0, pin(0));
	ASSERT_EQ(0, aie_cpu_online(1, 0));
	EXPECT_EQ(disabled + 7, aie_stat("disabled_allocs"));
	EXPECT_ROW("aie_helper_kmalloc_97", "slab", 5, 5 * slot,
		   5 * (slot - 97), 5, 5 * slot, 5 * slot, 0);
	ASSERT_EQ(0, aie_cpu_online(1, 1));

	ASSERT_EQ(0, crew_start(&crew));
	stop = 0;
	ASSERT_EQ(0, pthread_create(&t, NULL, hotplugger, &plug));
	while (time(NULL) < end) {
		ASSERT_EQ(0, aie_helper("storm 100"));
		storms++;
	}
	EXPECT_EQ(0, crew_stop(&crew));
	pthread_join(t, NULL);
	TH_LOG("%ld storms, %ld CPUs taken offline and back", storms,
	       plug.rounds);
	EXPECT_EQ(0, plug.errors);
	EXPECT_LT(0, plug.rounds);
	ASSERT_EQ(0, aie_ctl("enable all"));
	EXPECT_ROW("aie_helper_kmalloc_97", "slab", 5, 5 * slot,
		   5 * (slot - 97), 5, 5 * slot, 5 * slot, 0);
	ASSERT_EQ(0, aie_helper("free kmalloc129 7"));
	ASSERT_EQ(0, aie_helper("free kmalloc97 5"));
	check_storm_sites(_metadata, self->before, &self->start);
}

TEST_HARNESS_MAIN
