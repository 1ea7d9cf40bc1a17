// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup_test - /proc/allocinfo_ext_cgroups: live bytes per call site and
 * memory cgroup. Two cgroup v2 cgroups, made after the module loads, each
 * run a known workload in a child moved into it: the helper's accounted
 * allocations, exact per cgroup and in every allocator; files on tmpfs,
 * pipes and sockets, whose slab rows add up to the cgroup's memory.stat
 * slab figures; a removed cgroup's rows kept, marked, while its objects
 * live, and gone once they are freed; the tool's `cgroup PATH -j`: the
 * helper's sites exact, each category adding up to memory.stat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"

#define AIE_CGROUPS	"/proc/allocinfo_ext_cgroups"
#define CG_MNT		"/sys/fs/cgroup"
#define CG_TMPFS	"/tmp/aie_cgroup_tmpfs"
#define CG_FILES	2000	/* tmpfs files a slab workload makes */
#define CG_PIPES	64
#define CG_SOCKETS	64
#define CG_TOOL		"./allocinfo-ext"
#define CG_TOOL_OUT	"/tmp/aie-cgroup.json"

/* One row of the cgroups file, its cgroup apart. */
struct cg_row {
	struct aie_row r;
	char cgroup[256];
	bool removed;
};

/* Parse a row of the cgroups file: the table's row, then the cgroup. */
static int cg_row_parse(char *line, struct cg_row *c)
{
	char *cg = strstr(line, " cgroup:"), *end;

	if (!cg)
		return -EINVAL;
	*cg = '\0';
	cg += strlen(" cgroup:");
	end = strchr(cg, ' ');
	c->removed = end && !strcmp(end, " removed");
	if (end)
		*end = '\0';
	snprintf(c->cgroup, sizeof(c->cgroup), "%s", cg);
	return aie_row_parse(line, &c->r);
}

/* Find the helper's row of @func, @type in cgroup @cg: 1 (in *@c), or 0. */
static int cg_row_get(const char *func, const char *type, const char *cg,
		      struct cg_row *c)
{
	char *buf = aie_read_file(AIE_CGROUPS), *line, *save;
	int found = 0;

	if (!buf)
		return -errno;
	for (line = strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || strncmp(line, "allocinfo", 9) == 0 ||
		    cg_row_parse(line, c))
			continue;
		found = !strcmp(c->r.func, func) &&
			!strcmp(c->r.module, "aie_helper") &&
			!strcmp(c->r.type, type) && !strcmp(c->cgroup, cg);
	}
	free(buf);
	return found;
}

/*
 * Over the rows of cgroup @cg of type slab: the bytes the kernel charges
 * for their objects, each object's bytes and the obj_cgroup pointer it
 * keeps beside it (memcg's obj_full_size()).
 */
static long long cg_slab_charge(const char *cg, long long *objects)
{
	char *buf = aie_read_file(AIE_CGROUPS), *line, *save;
	long long bytes = 0;
	struct cg_row c;

	*objects = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !strncmp(line, "allocinfo", 9) ||
		    cg_row_parse(line, &c) || strcmp(c.cgroup, cg) ||
		    strcmp(c.r.type, "slab"))
			continue;
		bytes += c.r.bytes + (long long)c.r.calls * sizeof(void *);
		*objects += c.r.calls;
	}
	free(buf);
	return bytes;
}

/* memory.stat's slab bytes of cgroup @dir: reclaimable and not. */
static long long cg_memory_stat_slab(const char *dir)
{
	char path[256], *buf, *line, *save;
	long long v, sum = 0;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	buf = aie_read_file(path);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "slab_reclaimable %lld", &v) == 1 ||
		    sscanf(line, "slab_unreclaimable %lld", &v) == 1)
			sum += v;
	}
	free(buf);
	return buf ? sum : -1;
}

/*
 * What memory.stat's slab figures may lag behind: on kernels before 5.13
 * (memcg statistics without rstat) each CPU keeps up to MEMCG_CHARGE_BATCH
 * (32) pages of each of the two slab counters back, and nothing flushes
 * them on a read; from 5.13 a read flushes them, or a flush every 2 s.
 */
static long long cg_stat_batch(long long page)
{
	int major = 0, minor = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return -1;
	if (major > 5 || (major == 5 && minor >= 13))
		return 0;
	return 2 * 32 * page * sysconf(_SC_NPROCESSORS_ONLN);
}

FIXTURE(cgroup) {
	char a[64], b[64];		/* the two cgroups' directories */
	long long slot, page, cpus, cache;
	bool mounted;
};

/* Whether the cgroup v2 mount offers the memory controller. */
static bool cg_has_memory(void)
{
	char *buf = aie_read_file(CG_MNT "/cgroup.controllers");
	bool found = buf && strstr(buf, "memory");

	free(buf);
	return found;
}

FIXTURE_SETUP(cgroup)
{
	struct stat st;

	if (geteuid())
		SKIP(return, "must be root");
	if (stat(CG_MNT "/cgroup.controllers", &st)) {
		mkdir(CG_MNT, 0755);
		ASSERT_EQ(0, mount("none", CG_MNT, "cgroup2", 0, NULL));
		self->mounted = true;
	}
	if (!cg_has_memory())
		SKIP(return, "no memory controller in cgroup v2");
	self->page = sysconf(_SC_PAGESIZE);
	self->cpus = aie_possible_cpus();
	ASSERT_EQ(0, aie_setup(NULL));
	self->slot = aie_kmalloc_slot(128);
	self->cache = aie_helper_cache_bytes();
	ASSERT_LT(0, self->slot);
	ASSERT_LT(0, self->cache);
	ASSERT_EQ(0, aie_write_str(CG_MNT "/cgroup.subtree_control",
				   "+memory"));
	/* Made after the load: nothing in them was charged before it */
	snprintf(self->a, sizeof(self->a), "%s/aie_a", CG_MNT);
	snprintf(self->b, sizeof(self->b), "%s/aie_b", CG_MNT);
	ASSERT_EQ(0, mkdir(self->a, 0755));
	ASSERT_EQ(0, mkdir(self->b, 0755));
}

FIXTURE_TEARDOWN(cgroup)
{
	aie_teardown();
	rmdir(self->a);
	rmdir(self->b);
	if (self->mounted)
		umount(CG_MNT);
}

/* Move the calling process into cgroup @dir. */
static int cg_enter(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	return aie_write_str(path, "0");
}

/*
 * Run the helper's commands @cmds (NULL-terminated) in a child moved
 * into cgroup @dir: 0 when every one succeeded.
 */
static int cg_run_helper(const char *dir, const char *const *cmds)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (cg_enter(dir))
			_exit(2);
		for (; *cmds; cmds++)
			if (aie_helper("%s", *cmds))
				_exit(3);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The [aie_helper] row of @_func in cgroup @_cg: @_calls and @_bytes. */
#define EXPECT_CG_ROW(_func, _type, _cg, _calls, _bytes)		\
	do {								\
		const char *_f = (_func), *_g = (_cg);			\
		struct cg_row _c;					\
									\
		ASSERT_EQ(1, cg_row_get(_f, _type, _g, &_c))		\
			TH_LOG("%s in %s", _f, _g);			\
		EXPECT_EQ((unsigned long long)(_calls), _c.r.calls)	\
			TH_LOG("%s in %s", _f, _g);			\
		EXPECT_EQ((long long)(_bytes), _c.r.bytes)		\
			TH_LOG("%s in %s", _f, _g);			\
		EXPECT_FALSE(_c.removed);				\
	} while (0)

/*
 * Off by default: an accounted allocation in a cgroup has no row of its
 * own; "cgroups on" gives the next ones theirs, "cgroups off" stops it,
 * and the site's row in /proc/allocinfo_ext counts them all throughout.
 */
TEST_F(cgroup, control_word_turns_it_on_and_off)
{
	const char *const two[] = { "alloc kmalloc_acct100 2", NULL };
	const char *const three[] = { "alloc kmalloc_acct100 3", NULL };
	const char *const one[] = { "alloc kmalloc_acct100 1", NULL };
	const char *f = "aie_helper_kmalloc_acct_100";
	struct aie_row r;
	struct cg_row c;

	EXPECT_EQ(0, aie_stat_is("cgroups", "off"));
	ASSERT_EQ(0, cg_run_helper(self->a, two));
	EXPECT_EQ(0, cg_row_get(f, "slab", "/aie_a", &c));
	ASSERT_EQ(0, aie_ctl("cgroups on"));
	EXPECT_EQ(0, aie_stat_is("cgroups", "on"));
	ASSERT_EQ(0, cg_run_helper(self->a, three));
	EXPECT_CG_ROW(f, "slab", "/aie_a", 3, 3 * self->slot);
	ASSERT_EQ(0, aie_ctl("cgroups off"));
	ASSERT_EQ(0, cg_run_helper(self->a, one));
	EXPECT_CG_ROW(f, "slab", "/aie_a", 3, 3 * self->slot);
	ASSERT_EQ(1, aie_row_get_type("aie_helper", f, "slab", &r));
	EXPECT_EQ(6ULL, r.calls);
	EXPECT_EQ(6 * self->slot, r.bytes);
	EXPECT_EQ(6 * self->slot, r.accounted);
	EXPECT_EQ(-EINVAL, aie_ctl("cgroups maybe"));
}

/*
 * The helper's accounted allocations in every allocator, from a child in
 * each cgroup: each cgroup's rows exact, the site's row their sum, and
 * frees taken from the right cgroup's row.
 */
TEST_F(cgroup, helper_rows_are_exact_per_cgroup)
{
	const char *const in_a[] = {
		"alloc kmalloc_acct100 3", "alloc cache_acct 2",
		"alloc pages_acct 1", "alloc vmalloc_acct10000 2",
		"alloc percpu_acct40 1", NULL,
	};
	const char *const in_b[] = {
		"alloc kmalloc_acct100 5", "alloc cache_acct 1",
		"alloc pages_acct 2", NULL,
	};
	const char *k = "aie_helper_kmalloc_acct_100";
	long long c = self->cache, pages2 = 2 * self->page;
	struct aie_row r;
	struct cg_row row;

	ASSERT_EQ(0, aie_ctl("cgroups on"));
	ASSERT_EQ(0, cg_run_helper(self->a, in_a));
	ASSERT_EQ(0, cg_run_helper(self->b, in_b));
	EXPECT_CG_ROW(k, "slab", "/aie_a", 3, 3 * self->slot);
	EXPECT_CG_ROW(k, "slab", "/aie_b", 5, 5 * self->slot);
	EXPECT_CG_ROW("aie_helper_cache_acct", "slab", "/aie_a", 2, 2 * c);
	EXPECT_CG_ROW("aie_helper_cache_acct", "slab", "/aie_b", 1, c);
	EXPECT_CG_ROW("aie_helper_pages_acct", "page", "/aie_a", 1, pages2);
	EXPECT_CG_ROW("aie_helper_pages_acct", "page", "/aie_b", 2,
		      2 * pages2);
	EXPECT_CG_ROW("aie_helper_vmalloc_acct_10000", "vmalloc", "/aie_a", 2,
		      2 * 3 * self->page);
	EXPECT_EQ(0, cg_row_get("aie_helper_vmalloc_acct_10000", "vmalloc",
				"/aie_b", &row));
	/* An accounted area's pages are in its row, no page row of vmalloc's */
	EXPECT_EQ(0, aie_bytes_of("__vmalloc_node_range_noprof", "page"));
	EXPECT_EQ(0, aie_bytes_of("__vmalloc_node_range", "page"));
	EXPECT_CG_ROW("aie_helper_percpu_acct_40", "percpu", "/aie_a", 1,
		      40 * self->cpus);
	/* The site's row: both cgroups' */
	ASSERT_EQ(1, aie_row_get_type("aie_helper", k, "slab", &r));
	EXPECT_EQ(8ULL, r.calls);
	EXPECT_EQ(8 * self->slot, r.bytes);
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_pages_acct",
				      "page", &r));
	EXPECT_EQ(3ULL, r.calls);
	/* Freed from the root cgroup: uncharged from the cgroups' rows */
	ASSERT_EQ(0, aie_helper("free kmalloc_acct100 8"));
	ASSERT_EQ(0, aie_helper("free pages_acct 3"));
	EXPECT_CG_ROW(k, "slab", "/aie_a", 0, 0);
	EXPECT_CG_ROW(k, "slab", "/aie_b", 0, 0);
	EXPECT_CG_ROW("aie_helper_pages_acct", "page", "/aie_b", 0, 0);
	ASSERT_EQ(1, aie_row_get_type("aie_helper", k, "slab", &r));
	EXPECT_EQ(0ULL, r.calls);
	EXPECT_EQ(0LL, r.bytes);
}

/*
 * A child in cgroup @dir that holds kernel objects: the helper's
 * kmalloc()s, files on the tmpfs, pipes and socket pairs open. It writes
 * a byte to @ready once they are made, and exits at a byte on @go (the
 * files stay).
 */
static pid_t cg_worker(const char *dir, const char *name, int ready, int go)
{
	int i, fds[2];
	char path[256], c = 0;
	pid_t pid = fork();

	if (pid)
		return pid;
	if (cg_enter(dir) || aie_helper("alloc kmalloc_acct100 1000"))
		_exit(2);
	for (i = 0; i < CG_FILES; i++) {
		snprintf(path, sizeof(path), CG_TMPFS "/%s%d", name, i);
		fds[0] = open(path, O_CREAT | O_WRONLY, 0600);
		if (fds[0] < 0 || write(fds[0], path, 64) != 64)
			_exit(3);
		close(fds[0]);
	}
	for (i = 0; i < CG_PIPES; i++)
		if (pipe(fds))
			_exit(4);
	for (i = 0; i < CG_SOCKETS; i++)
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
			_exit(5);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(6);
	_exit(0);
}

/*
 * Each cgroup's slab rows add up to its memory.stat slab figures within
 * 2%: every slab object charged to it is seen, at the site that
 * allocated it. memory.stat counts an object's slot and its obj_cgroup
 * pointer; its figures are flushed every 2 s, and each CPU keeps up to a
 * page of them back; before 5.13, up to 32 pages per CPU and counter,
 * unflushed (cg_stat_batch()), which the bound takes in there.
 */
TEST_F(cgroup, slab_rows_add_up_to_memory_stat)
{
	int ready[2], go[2], status, i;
	const char *cgs[2] = { self->a, self->b };
	const char *names[2] = { "/aie_a", "/aie_b" };
	long long stat, ours, objects, batch = cg_stat_batch(self->page);
	pid_t pid[2];
	char c;

	ASSERT_LE(0, batch);
	ASSERT_EQ(0, aie_ctl("cgroups on"));
	mkdir(CG_TMPFS, 0755);
	ASSERT_EQ(0, mount("none", CG_TMPFS, "tmpfs", 0, NULL));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	for (i = 0; i < 2; i++) {
		pid[i] = cg_worker(cgs[i], i ? "b" : "a", ready[1], go[0]);
		ASSERT_LT(0, pid[i]);
		ASSERT_EQ(1, read(ready[0], &c, 1));
	}
	sleep(3);
	for (i = 0; i < 2; i++) {
		stat = cg_memory_stat_slab(cgs[i]);
		ours = cg_slab_charge(names[i], &objects);
		TH_LOG("%s: memory.stat slab %lld, its slab rows %lld",
		       names[i], stat, ours);
		TH_LOG("(%lld objects), the kernel's batch %lld", objects,
		       batch);
		ASSERT_LT(0, stat);
		EXPECT_GE(ours * 100, (stat - batch) * 98);
		EXPECT_LE(ours * 100, (stat + batch) * 102);
	}
	ASSERT_EQ(2, write(go[1], "gg", 2));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	EXPECT_EQ(0, umount(CG_TMPFS));
	rmdir(CG_TMPFS);
}

/*
 * A removed cgroup's rows stay, marked, while its objects live; once
 * they are freed, the row goes. A cgroup removed before any read of the
 * file is named all the same.
 */
TEST_F(cgroup, removed_cgroup_rows_stay_while_objects_live)
{
	const char *const four[] = { "alloc kmalloc_acct100 4", NULL };
	const char *const two[] = { "alloc cache_acct 2", NULL };
	const char *k = "aie_helper_kmalloc_acct_100";
	const char *cdir = CG_MNT "/aie_c";
	struct cg_row c;

	ASSERT_EQ(0, aie_ctl("cgroups on"));
	ASSERT_EQ(0, mkdir(cdir, 0755));
	ASSERT_EQ(0, cg_run_helper(cdir, two));
	ASSERT_EQ(0, rmdir(cdir));
	ASSERT_EQ(1, cg_row_get("aie_helper_cache_acct", "slab", "/aie_c",
				&c));
	EXPECT_TRUE(c.removed);
	EXPECT_EQ(2ULL, c.r.calls);
	ASSERT_EQ(0, aie_helper("free cache_acct 2"));
	EXPECT_EQ(0, cg_row_get("aie_helper_cache_acct", "slab", "/aie_c",
				&c));
	ASSERT_EQ(0, cg_run_helper(self->b, four));
	EXPECT_CG_ROW(k, "slab", "/aie_b", 4, 4 * self->slot);
	ASSERT_EQ(0, rmdir(self->b));
	ASSERT_EQ(1, cg_row_get(k, "slab", "/aie_b", &c));
	EXPECT_TRUE(c.removed);
	EXPECT_EQ(4ULL, c.r.calls);
	EXPECT_EQ(4 * self->slot, c.r.bytes);
	ASSERT_EQ(0, aie_helper("free kmalloc_acct100 3"));
	ASSERT_EQ(1, cg_row_get(k, "slab", "/aie_b", &c));
	EXPECT_TRUE(c.removed);
	EXPECT_EQ(1ULL, c.r.calls);
	ASSERT_EQ(0, aie_helper("free kmalloc_acct100 1"));
	EXPECT_EQ(0, cg_row_get(k, "slab", "/aie_b", &c));
	/* And stays gone: its reference was put at that read */
	EXPECT_EQ(0, cg_row_get(k, "slab", "/aie_b", &c));
}

/* The parameter turns it on at load; the stats say so, and the bound. */
TEST_F(cgroup, parameter_turns_it_on_at_load)
{
	const char *const two[] = { "alloc cache_acct 2", NULL };

	ASSERT_EQ(0, aie_setup("cgroups=1 cgroup_sites=64"));
	EXPECT_EQ(0, aie_stat_is("cgroups", "on"));
	EXPECT_EQ(64, aie_stat("cgroup_sites_capacity"));
	ASSERT_EQ(0, cg_run_helper(self->a, two));
	EXPECT_CG_ROW("aie_helper_cache_acct", "slab", "/aie_a", 2,
		      2 * self->cache);
	EXPECT_LE(1, aie_stat("cgroup_sites"));
	EXPECT_EQ(0, aie_stat("cgroup_sites_full"));
}

/* One category of the tool's JSON (a line opening CG_CAT): -1 for null. */
#define CG_CAT	"  {\"name\": \""
struct cg_cat {
	char name[32];
	long long stat, sites, unexplained, over, listed; /* its sites' sum */
};

/* A JSON figure after "@key": at @line: its value, or -1 for null. */
static long long cg_json_fig(const char *line, const char *key)
{
	const char *at = strstr(line, key);
	long long v;

	if (!at || !strncmp(at + strlen(key), "null", 4) ||
	    sscanf(at + strlen(key), "%lld", &v) != 1)
		return -1;
	return v;
}

/*
 * Run the tool's "cgroup @path -j" and read it: a category a line, a site
 * a line (the tool's layout). Up to @max categories in @c; the bytes and
 * calls of the [aie_helper] site of @func in category @cat in *@bytes,
 * *@calls (-1: not listed there). The number of categories, or -1.
 */
static int cg_tool(const char *path, struct cg_cat *c, int max,
		   const char *cat, const char *func, long long *bytes,
		   long long *calls)
{
	char want[128], *buf, *line, *save;
	int n = 0, status;
	pid_t pid = fork();

	if (!pid) {
		dup2(open(CG_TOOL_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0600), 1);
		execl(CG_TOOL, CG_TOOL, "cgroup", "-j", path, NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	buf = aie_read_file(CG_TOOL_OUT);
	if (!buf)
		return -1;
	*bytes = -1;
	*calls = -1;
	snprintf(want, sizeof(want), "\"module\": \"aie_helper\", \"func\": \"%s\",",
		 func);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, CG_CAT, strlen(CG_CAT)) && n < max &&
		    sscanf(line + strlen(CG_CAT), "%31[^\"]", c[n].name) == 1) {
			c[n].stat = cg_json_fig(line, "\"memory_stat_bytes\": ");
			c[n].sites = cg_json_fig(line, "\"sites_bytes\": ");
			c[n].unexplained = cg_json_fig(line, "\"unexplained_bytes\": ");
			c[n].over = cg_json_fig(line, "\"over_bytes\": ");
			c[n++].listed = 0;
		} else if (n && strstr(line, "{\"site\": ")) {
			c[n - 1].listed += cg_json_fig(line, "\"bytes\": ");
			if (strstr(line, want) && !strcmp(c[n - 1].name, cat)) {
				*bytes = cg_json_fig(line, "\"bytes\": ");
				*calls = cg_json_fig(line, "\"calls\": ");
			}
		}
	}
	free(buf);
	return n;
}

/*
 * The tool, on cgroup aie_a after the helper's accounted allocations in
 * it: the helper's kmalloc and cache sites under slab with their exact
 * bytes and calls, its vmalloc and percpu ones under theirs (even with
 * no such key); in every category memory.stat gives (slab's as the file
 * says after its 2 s flush), the sites add up to sites_bytes, and
 * sites_bytes + unexplained - over is memory.stat's, one of them 0.
 */
TEST_F(cgroup, tool_splits_memory_stat_by_site_exactly)
{
	const char *const in_a[] = {
		"alloc kmalloc_acct100 64", "alloc cache_acct 3",
		"alloc vmalloc_acct10000 1", "alloc percpu_acct40 2", NULL,
	};
	static const struct { const char *cat, *func; int calls; } want[] = {
		{ "slab", "aie_helper_kmalloc_acct_100", 64 },
		{ "slab", "aie_helper_cache_acct", 3 },
		{ "vmalloc", "aie_helper_vmalloc_acct_10000", 1 },
		{ "percpu", "aie_helper_percpu_acct_40", 2 },
	};
	long long bytes, calls, each[4] = {
		self->slot, self->cache, 3 * self->page, 40 * self->cpus,
	};
	struct cg_cat c[8];
	size_t i;
	int n, j;

	ASSERT_EQ(0, access(CG_TOOL, X_OK));
	ASSERT_EQ(0, aie_ctl("cgroups on"));
	ASSERT_EQ(0, cg_run_helper(self->a, in_a));
	sleep(3);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		n = cg_tool("/aie_a", c, 8, want[i].cat, want[i].func, &bytes,
			    &calls);
		ASSERT_EQ(7, n);
		for (j = 0; j < n && strcmp(c[j].name, want[i].cat); j++)
			;
		ASSERT_LT(j, n);
		EXPECT_EQ(want[i].calls, calls) TH_LOG("%s", want[i].func);
		EXPECT_EQ(want[i].calls * each[i], bytes) TH_LOG("%s", want[i].func);
	}
	for (j = 0; j < n; j++) {
		TH_LOG("%s: memory.stat %lld, sites %lld, unexplained %lld, over %lld",
		       c[j].name, c[j].stat, c[j].sites, c[j].unexplained, c[j].over);
		if (!strcmp(c[j].name, "slab"))
			EXPECT_EQ(cg_memory_stat_slab(self->a), c[j].stat);
		EXPECT_EQ(c[j].sites, c[j].listed) TH_LOG("%s", c[j].name);
		if (c[j].stat < 0) {
			EXPECT_EQ(-1, c[j].unexplained);
			continue;
		}
		EXPECT_EQ(c[j].stat, c[j].sites + c[j].unexplained - c[j].over)
			TH_LOG("%s", c[j].name);
		EXPECT_TRUE(!c[j].unexplained || !c[j].over);
	}
	EXPECT_EQ(-1, cg_tool("aie_a", c, 8, "slab", "x", &bytes, &calls));
	EXPECT_EQ(-1, cg_tool("/aie_none", c, 8, "slab", "x", &bytes, &calls));
}

TEST_HARNESS_MAIN
