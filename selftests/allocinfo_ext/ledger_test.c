// SPDX-License-Identifier: GPL-2.0
/*
 * ledger_test - `allocinfo-ext ledger` in the guest: memory from before
 * the module's load named by what the kernel still names, memory since
 * its load by call site, and every category adding up.
 *
 * Before the load: the helper module alone makes VMALLOC_BEFORE areas of
 * 3 pages at aie_helper_vmalloc_12288(), and NR_DENTRIES negative
 * files are made (their dentries stay while the files do). Then
 * allocinfo_ext loads, and the helper makes VMALLOC_AFTER areas at
 * aie_helper_vmalloc_10000() (3 pages each). The ledger, read as JSON,
 * must then:
 * - have each category's call sites, named parts and unexplained rest add
 *   up to its meminfo figure exactly;
 * - agree with /proc/meminfo read just after it within 2% per category;
 * - name the dentry cache with at least the bytes of the dentries made;
 * - name the helper's vmalloc caller of before the load with exactly its
 *   areas' bytes, and not name the one of after the load, whose areas the
 *   module tracks (the vmalloc category's call sites hold them);
 * - count the dentries made after the load in the module's caches file
 *   (/proc/allocinfo_ext_caches), and hold them in the slab call sites;
 * - name boot-time hash tables from the kernel log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include <allocinfo_ext.h>

#include "aie_util.h"
#include "aie_setup.h"

#define TOOL		"./allocinfo-ext"
#define OUT		"/tmp/aie-ledger.json"
#define ERR		"/tmp/aie-ledger.err"
#define DIR_NEG		"/tmp/aie-ledger-neg"
#define NR_DENTRIES	30000
#define VMALLOC_BEFORE	8
#define VMALLOC_AFTER	4
#define MAX_CATS	8
#define CAT_LINE	"  {\"name\": \"%31[^\"]\", \"meminfo_bytes\": %lld, " \
			"\"sites_bytes\": %lld, \"unexplained_bytes\": %lld, " \
			"\"over_bytes\": %lld"

struct cat {
	char name[32];
	long long meminfo, sites, unexplained, over, named;
};

struct ledger {
	long long used, explained;
	struct cat cat[MAX_CATS];
	int nr;
	char *text;
};

/* The bytes of the named part @name in category @cat (-1: none). */
static long long part(const struct ledger *l, const char *cat,
		      const char *source, const char *name)
{
	char want[256], *at, *c;
	long long bytes;

	c = strstr(l->text, cat);
	if (!c)
		return -1;
	snprintf(want, sizeof(want), "{\"source\": \"%s\", \"name\": \"%s\", \"bytes\": ",
		 source, name);
	at = strstr(c, want);
	/* in this category: before the next one's name */
	if (!at || (strstr(c + 1, "{\"name\": ") &&
		    at > strstr(c + 1, "{\"name\": ")))
		return -1;
	if (sscanf(at + strlen(want), "%lld", &bytes) != 1)
		return -1;
	return bytes;
}

/*
 * The tool's JSON, one category a line and one part a line: the
 * figures, and each category's named parts summed.
 */
static int ledger_parse(struct ledger *l)
{
	char *line, *save, *copy;
	struct cat *c = NULL;
	long long b;

	memset(l, 0, sizeof(*l));
	l->text = aie_read_file(OUT);
	if (!l->text)
		return -1;
	copy = strdup(l->text);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *u = strstr(line, "\"used_bytes\": ");
		char *bp = strstr(line, "\"bytes\": ");

		if (u && sscanf(u, "\"used_bytes\": %lld, \"explained_bytes\": %lld",
				&l->used, &l->explained) != 2)
			return -1;
		if (strstr(line, "  {\"name\": ") == line && l->nr < MAX_CATS) {
			c = &l->cat[l->nr++];
			if (sscanf(line, CAT_LINE, c->name, &c->meminfo,
				   &c->sites, &c->unexplained, &c->over) != 5)
				return -1;
		} else if (c && bp && strstr(line, "{\"source\": ")) {
			if (sscanf(bp, "\"bytes\": %lld", &b) != 1)
				return -1;
			c->named += b;
		}
	}
	free(copy);
	return l->nr ? 0 : -1;
}

/* The figure of @key in /proc/meminfo, in bytes; -1 if none. */
static long long mem_bytes(const char *key)
{
	char *buf = aie_read_file("/proc/meminfo"), *at, want[64];
	long long kb = -1;

	if (!buf)
		return -1;
	snprintf(want, sizeof(want), "\n%s:", key);
	at = strstr(buf, want);
	if (at)
		sscanf(at + strlen(want), "%lld", &kb);
	else if (!strncmp(buf, want + 1, strlen(want + 1)))
		sscanf(buf + strlen(want + 1), "%lld", &kb);
	free(buf);
	return kb < 0 ? -1 : kb * 1024;
}

/* Run the tool's ledger -j -l 0 into OUT; its exit status. */
static int run_ledger(void)
{
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(OUT, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 1);
		fd = open(ERR, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		execl(TOOL, TOOL, "ledger", "-j", "-l", "0", NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Make (@unlink: remove) @n empty files in DIR_NEG: @n dentries kept. */
static int make_dentries(const char *tag, int n, bool unlink_them)
{
	char path[128];
	int i, fd;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), DIR_NEG "/%s-%d", tag, i);
		if (unlink_them) {
			unlink(path);
			continue;
		}
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

/* |a - b| within 2% of b. */
static bool within_2pc(long long a, long long b)
{
	long long d = a > b ? a - b : b - a;

	return d * 50 <= b;
}

FIXTURE(ledger) {
	struct ledger l;
};

FIXTURE_SETUP(ledger)
{
	if (aie_skip_missing(_metadata))
		return;
	/* Over 540 s there under TCG, most of it making the files */
	if (!access("/sys/kernel/debug/kmemleak", F_OK))
		SKIP(return, "a KASAN, lockdep and kmemleak kernel: too slow");
	ASSERT_EQ(0, access(TOOL, X_OK));
	aie_teardown();
	make_dentries("before", NR_DENTRIES, true);
	make_dentries("after", NR_DENTRIES / 10, true);
	mkdir(DIR_NEG, 0700);
	/* before the load: the helper's areas, and dentries */
	ASSERT_EQ(0, aie_load(AIE_HELPER_KO, NULL));
	ASSERT_EQ(0, aie_helper("alloc vmalloc12288 %d", VMALLOC_BEFORE));
	ASSERT_EQ(0, make_dentries("before", NR_DENTRIES, false));
	/* the module, then more work */
	ASSERT_EQ(0, aie_load(AIE_MODULE_KO, NULL));
	ASSERT_EQ(0, aie_helper("alloc vmalloc10000 %d", VMALLOC_AFTER));
	ASSERT_EQ(0, make_dentries("after", NR_DENTRIES / 10, false));
}

FIXTURE_TEARDOWN(ledger)
{
	free(self->l.text);
	aie_teardown();
	make_dentries("before", NR_DENTRIES, true);
	make_dentries("after", NR_DENTRIES / 10, true);
	rmdir(DIR_NEG);
}

/*
 * 33000 files made and removed, and the tool run twice: beyond the
 * harness's 30 s on a slow host; within settings' 600 s.
 */
TEST_F_TIMEOUT(ledger, before_load_named_sites_since_and_sums_exact, 540)
{
	static const struct { const char *cat, *key; } figs[] = {
		{ "slab_reclaimable", "SReclaimable" },
		{ "slab_unreclaimable", "SUnreclaim" },
		{ "kernel_stacks", "KernelStack" },
		{ "vmalloc", "VmallocUsed" },
		{ "percpu", "Percpu" },
	};
	long long dentry_slot = aie_slab_size("dentry"), got, sum = 0, objects;
	char *err, *caches;
	struct ledger *l = &self->l;
	size_t i;
	int j;

	ASSERT_LT(0, dentry_slot);
	long long mi[ARRAY_SIZE(figs)], ptables, used;

	ASSERT_EQ(0, run_ledger());
	/* /proc/meminfo just after */
	for (i = 0; i < ARRAY_SIZE(figs); i++)
		mi[i] = mem_bytes(figs[i].key);
	ptables = mem_bytes("PageTables") + (mem_bytes("SecPageTables") > 0 ?
					     mem_bytes("SecPageTables") : 0);
	used = mem_bytes("MemTotal") - mem_bytes("MemFree") -
	       mem_bytes("AnonPages") - mem_bytes("Buffers") -
	       mem_bytes("Cached") - mem_bytes("SwapCached");
	ASSERT_EQ(0, ledger_parse(l)) TH_LOG("%s", l->text ? l->text : "no output");
	for (i = 0; i < ARRAY_SIZE(figs); i++) {
		ASSERT_LE(0, mi[i]);
		for (j = 0; j < l->nr && strcmp(l->cat[j].name, figs[i].cat); j++)
			;
		ASSERT_LT(j, l->nr) TH_LOG("no category %s", figs[i].cat);
		EXPECT_TRUE(within_2pc(l->cat[j].meminfo, mi[i]))
			TH_LOG("%s: ledger %lld, meminfo %lld", figs[i].cat,
			       l->cat[j].meminfo, mi[i]);
	}
	ASSERT_EQ(0, strcmp(l->cat[3].name, "page_tables"));
	EXPECT_TRUE(within_2pc(l->cat[3].meminfo, ptables))
		TH_LOG("page tables: ledger %lld, meminfo %lld",
		       l->cat[3].meminfo, ptables);
	EXPECT_TRUE(within_2pc(l->used, used))
		TH_LOG("used: ledger %lld, meminfo %lld", l->used, used);

	/* every category adds up exactly; used and explained from them */
	for (j = 0; j < l->nr; j++) {
		struct cat *c = &l->cat[j];

		EXPECT_EQ(c->meminfo, c->sites + c->named + c->unexplained)
			TH_LOG("%s", c->name);
		EXPECT_LE(0, c->unexplained);
		sum += c->unexplained;
	}
	EXPECT_EQ(l->used - sum, l->explained);
	EXPECT_LT(0, l->explained);

	/* the dentry cache, with at least the dentries made */
	got = part(l, "\"slab_reclaimable\"", "slabinfo", "dentry");
	EXPECT_LE(NR_DENTRIES * dentry_slot, got)
		TH_LOG("dentry: %lld, made %lld of %lld bytes", got,
		       (long long)NR_DENTRIES, dentry_slot);
	/* the helper's areas from before the load, exactly; none after */
	EXPECT_EQ(VMALLOC_BEFORE * 3 * getpagesize(),
		  part(l, "\"vmalloc\"", "vmallocinfo",
		       "aie_helper_vmalloc_12288 [aie_helper]"));
	EXPECT_EQ(-1, part(l, "\"vmalloc\"", "vmallocinfo",
			   "aie_helper_vmalloc_10000 [aie_helper]"));
	EXPECT_LE(VMALLOC_AFTER * 3 * getpagesize(),
		  aie_bytes_of("aie_helper_vmalloc_10000", "vmalloc"));
	ASSERT_EQ(0, strcmp(l->cat[4].name, "vmalloc"));
	EXPECT_LE(aie_bytes_of("aie_helper_vmalloc_10000", "vmalloc"),
		  l->cat[4].sites);
	/* the module's dentries, in its caches file and the ledger's sites */
	got = aie_cache_line("dentry", &objects);
	err = aie_read_file(ERR);
	caches = aie_read_file("/proc/" AIE_CACHES_PROC_NAME);
	EXPECT_LE(NR_DENTRIES / 10, objects)
		TH_LOG("%.2000s", caches ? caches : "no caches file");
	EXPECT_TRUE(err && !strstr(err, "per-cache")) TH_LOG("%s", err);
	free(err);
	free(caches);
	EXPECT_LE(objects * aie_object_size("dentry"), got);
	EXPECT_GE(objects * dentry_slot, got);
	ASSERT_EQ(0, strcmp(l->cat[0].name, "slab_reclaimable"));
	EXPECT_LE(got, l->cat[0].sites);
	/* hash tables of the boot, allocated after memblock */
	err = aie_read_file(ERR);
	EXPECT_NE(NULL, strstr(l->text, "\"source\": \"kernel log\""))
		TH_LOG("%s\n%.3000s", err ? err : "", strstr(l->text, "\"other\""));
	free(err);
	EXPECT_EQ(NULL, strstr(l->text, "Dentry cache hash table"));
}

TEST_HARNESS_MAIN
