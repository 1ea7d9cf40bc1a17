// SPDX-License-Identifier: GPL-2.0
/*
 * ledger.c - the sources of `allocinfo-ext ledger`: /proc/meminfo,
 * /proc/slabinfo with /sys/kernel/slab/<cache>/reclaim_account,
 * /proc/vmallocinfo, the kernel log's boot-time hash tables, the module's
 * table (or the kernel's /proc/allocinfo) and its per-cache figures.
 *
 * Each source is read once. One that cannot be read, or a line of it
 * that is cut short, is said on stderr and left out: the ledger explains
 * what the rest allows.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger.h"
#include "util.h"

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

void ledger_list_add(struct ledger_list *l, const char *source,
		     const char *name, long long bytes)
{
	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->e = xrealloc_array(l->e, l->cap, sizeof(*l->e));
	}
	l->e[l->nr++] = (struct ledger_item){
		.source = xstrdup(source), .name = xstrdup(name),
		.bytes = bytes,
	};
}

void ledger_list_free(struct ledger_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->e[i].source);
		free(l->e[i].name);
	}
	free(l->e);
	memset(l, 0, sizeof(*l));
}

static struct ledger_item *ledger_find(struct ledger_list *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (!strcmp(l->e[i].name, name))
			return &l->e[i];
	}
	return NULL;
}

/* @root's copy of @path, a new string. */
static char *ledger_path(const struct ledger_src *s, const char *path)
{
	return xasprintf("%s%s", s->root, path);
}

/* All of /proc@name, or NULL after saying why and what is left out. */
static char *ledger_file(const struct ledger_src *s, const char *path,
			 const char *without)
{
	char *p = ledger_path(s, path), *text;
	size_t len;

	text = read_whole_file(p, &len);
	if (!text)
		aie_err("ledger: cannot read %s: %s%s: %s", path, strerror(errno),
			errno == EACCES ? " (run as root)" : "", without);
	free(p);
	return text;
}

static const char *const ledger_mi_keys[MI_NR] = {
	"MemTotal", "MemFree", "AnonPages", "Buffers", "Cached", "SwapCached",
	"SReclaimable", "SUnreclaim", "KernelStack", "PageTables",
	"SecPageTables", "VmallocUsed", "Percpu", "Hugetlb", "Zswap",
};

static int ledger_meminfo(struct ledger_src *s)
{
	char *text = ledger_file(s, "/proc/meminfo", "no ledger"), *line, *save;
	long long v;
	int i;

	for (i = 0; i < MI_NR; i++)
		s->mi[i] = -1;
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *end;

		if (!colon)
			continue;
		*colon = 0;
		for (i = 0; i < MI_NR; i++) {
			if (strcmp(line, ledger_mi_keys[i]))
				continue;
			errno = 0;
			v = strtoll(colon + 1, &end, 10);
			while (*end == ' ')
				end++;
			if (!errno && v >= 0 && v < (1LL << 50) &&
			    !strcmp(end, "kB"))
				s->mi[i] = v * 1024;
		}
	}
	free(text);
	for (i = MI_TOTAL; i <= MI_SWAPCACHED; i++) {
		if (s->mi[i] < 0) {
			aie_err("ledger: /proc/meminfo gives no %s: used memory unknown",
				ledger_mi_keys[i]);
			return -1;
		}
	}
	return 0;
}

/* SLAB_RECLAIM_ACCOUNT of the cache @name, from SLUB's sysfs: 1, 0, -1. */
static int ledger_reclaim(struct ledger_src *s, const char *name)
{
	char *p = xasprintf("%s/sys/kernel/slab/%s/reclaim_account", s->root,
			    name);
	char *text;
	size_t len;
	int r = -1;

	text = read_whole_file(p, &len);
	if (text && (text[0] == '0' || text[0] == '1'))
		r = text[0] == '1';
	free(text);
	free(p);
	return r;
}

/*
 * SLUB's sysfs is there: else no cache's reclaim_account can be read,
 * and every cache would be misfiled as unreclaimable. 0, or -1 after
 * saying so.
 */
static int ledger_slab_sysfs(const struct ledger_src *s)
{
	char *p = ledger_path(s, "/sys/kernel/slab");
	struct stat st;
	int ret = stat(p, &st) || !S_ISDIR(st.st_mode) ? -1 : 0;

	if (ret)
		aie_err("ledger: no %s: which slab caches are reclaimable is unknown%s",
			p, *s->root ? " (copy /sys/kernel/slab into the root too)" : "");
	free(p);
	return ret;
}

/*
 * slabinfo 2.x: "<name> <active_objs> <num_objs> <objsize> <objperslab>
 * <pagesperslab> : tunables <3> : slabdata <active_slabs> <num_slabs>
 * <sharedavail>". A cache holds num_slabs * pagesperslab pages. 0, or -1
 * when it names caches and SLUB's sysfs is missing.
 */
static int ledger_slabinfo(struct ledger_src *s)
{
	char *text = ledger_file(s, "/proc/slabinfo",
				 "slab memory is not named by cache");
	char *line, *save, name[256];
	unsigned int lineno = 0, cut = 0, unknown = 0;
	long long pages, slabs;
	struct ledger_item *c;
	int n, r;

	if (!text)
		return 0;
	if (ledger_slab_sysfs(s)) {
		free(text);
		return -1;
	}
	s->have_reclaim = true;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (++lineno == 1) {
			if (!str_starts(line, "slabinfo - version: 2.")) {
				aie_err("ledger: /proc/slabinfo: unknown version \"%s\": slab memory is not named by cache",
					line);
				break;
			}
			s->have_slabinfo = true;
			continue;
		}
		if (line[0] == '#')
			continue;
		n = sscanf(line, "%255s %*u %*u %*u %*u %lld : tunables %*u %*u %*u : slabdata %*u %lld %*u",
			   name, &pages, &slabs);
		if (n != 3 || pages < 0 || slabs < 0 || pages > (1 << 20) ||
		    slabs > (1LL << 40)) {
			cut++;
			continue;
		}
		ledger_list_add(&s->caches, "slabinfo", name,
				pages * slabs * s->page_size);
		c = &s->caches.e[s->caches.nr - 1];
		r = ledger_reclaim(s, name);
		if (r < 0)
			unknown++;
		c->reclaimable = r == 1 ||
				 (r < 0 && str_starts(name, "kmalloc-rcl-"));
	}
	free(text);
	if (cut)
		aie_err("ledger: /proc/slabinfo: %u line%s cut short or malformed, left out",
			cut, cut == 1 ? "" : "s");
	if (unknown) {
		s->have_reclaim = false;
		aie_err("ledger: no /sys/kernel/slab/<cache>/reclaim_account for %u cache%s: counted as unreclaimable",
			unknown, unknown == 1 ? "" : "s");
	}
	return 0;
}

/*
 * The module's per-cache figures: a version line, a "#" line, then
 * "<cache> <objects> <bytes>" per cache it tracks objects in.
 */
static void ledger_cache_export(struct ledger_src *s)
{
	char *p = ledger_path(s, LEDGER_CACHES_PROC), *text, *line, *save;
	long long objects, bytes;
	struct ledger_item *c;
	unsigned int lineno = 0;
	char name[256];
	size_t len;

	text = read_whole_file(p, &len);
	free(p);
	if (!text) {
		aie_err("ledger: the module exports no per-cache figures (%s): slab memory is named by cache, its call sites' part not told apart",
			LEDGER_CACHES_PROC);
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (++lineno == 1) {
			if (!str_starts(line, AIE_CACHES_PROC_NAME " - version: 1.")) {
				aie_err("ledger: %s: unknown version \"%s\": slab call sites not told apart",
					LEDGER_CACHES_PROC, line);
				break;
			}
			s->have_cache_export = true;
			continue;
		}
		if (str_starts(line, "# off")) {
			s->have_cache_export = false;
			aie_err("ledger: %s says \"%s\": slab memory is named by cache, its call sites' part not told apart",
				LEDGER_CACHES_PROC, line + 2);
			break;
		}
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%255s %lld %lld", name, &objects, &bytes) != 3 ||
		    objects < 0 || bytes < 0 || bytes > (long long)AIE_SUM_MAX) {
			aie_err("ledger: %s:%u: malformed line, left out",
				LEDGER_CACHES_PROC, lineno);
			continue;
		}
		c = ledger_find(&s->caches, name);
		if (c)
			c->tracked += bytes;
		else
			s->cache_export_other += bytes;
	}
	free(text);
}

static bool ledger_vm_flag(const char *w)
{
	return str_starts(w, "pages=") || str_starts(w, "N") ||
	       !strcmp(w, "ioremap") || !strcmp(w, "vmalloc") ||
	       !strcmp(w, "vmap") || !strcmp(w, "user") ||
	       !strcmp(w, "vpages") || !strcmp(w, "unpurged") ||
	       !strcmp(w, "vm_map_ram") || !strcmp(w, "dma-coherent") ||
	       !strcmp(w, "sparse");
}

/*
 * vmallocinfo: "<start>-<end> <size> [<caller> [[<module>]]] [pages=<n>]
 * <flags>". An area with pages= is in VmallocUsed, with those pages. The
 * caller is "function+0xoff/0xsize": its function (and module) names it.
 */
static void ledger_vmallocinfo(struct ledger_src *s)
{
	char *text = ledger_file(s, "/proc/vmallocinfo",
				 "vmalloc memory is not named by caller");
	char *line, *save, *w, *wsave, *plus, key[512];
	long long pages, nameless = 0;
	unsigned int cut = 0;
	struct ledger_item *c;

	if (!text)
		return;
	s->have_vmallocinfo = true;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *caller = NULL, *mod = NULL;
		int field = 0;

		pages = -1;
		for (w = strtok_r(line, " \t", &wsave); w;
		     w = strtok_r(NULL, " \t", &wsave), field++) {
			if (field < 2)
				continue;
			if (str_starts(w, "pages="))
				pages = atoll(w + 6);
			else if (field == 2 && !ledger_vm_flag(w))
				caller = w;
			else if (field == 3 && caller && w[0] == '[')
				mod = w;
		}
		if (field < 2) {
			cut++;
			continue;
		}
		if (pages <= 0)
			continue;	/* not in VmallocUsed */
		if (!caller || str_starts(caller, "0x")) {
			nameless += pages * s->page_size;
			continue;
		}
		plus = strchr(caller, '+');
		if (plus)
			*plus = 0;
		snprintf(key, sizeof(key), "%s%s%s", caller, mod ? " " : "",
			 mod ? mod : "");
		if (strstr(caller, "thread_stack") || strstr(caller, "vmap_stack"))
			s->vmap_stack = true;
		c = ledger_find(&s->vmalloc, key);
		if (!c)
			ledger_list_add(&s->vmalloc, "vmallocinfo", key, 0);
		c = c ? c : &s->vmalloc.e[s->vmalloc.nr - 1];
		c->bytes += pages * s->page_size;
	}
	free(text);
	if (cut)
		aie_err("ledger: /proc/vmallocinfo: %u line%s cut short, left out",
			cut, cut == 1 ? "" : "s");
	if (nameless)
		aie_err("ledger: /proc/vmallocinfo names no caller for %lld bytes (a kernel without kallsyms?): left unexplained",
			nameless);
}

/* The kernel's ring buffer, or NULL after saying why. */
static char *ledger_klog(void)
{
	int len = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *buf;

	if (len <= 0) {
		aie_err("ledger: cannot read the kernel log: %s: boot-time hash tables not named",
			strerror(errno));
		return NULL;
	}
	buf = xmalloc((size_t)len + 1);
	len = klogctl(SYSLOG_ACTION_READ_ALL, buf, len);
	if (len < 0) {
		aie_err("ledger: cannot read the kernel log: %s: boot-time hash tables not named",
			strerror(errno));
		free(buf);
		return NULL;
	}
	buf[len] = 0;
	return buf;
}

/*
 * "<name> hash table entries: <n> (order: <k>, <bytes> bytes, linear|
 * vmalloc)". Those logged before "Memory: " came from memblock, outside
 * MemTotal: left out. Later ones are in used memory: a linear one's pages
 * are the allocator's (other), a vmalloc one's are a vmalloc area.
 */
static int ledger_log(struct ledger_src *s, const char *path, bool given)
{
	char *text, *line, *save, *at, *name, how[16], full[300];
	bool memory = false, cut = false;
	long long bytes;
	size_t len;

	if (path) {
		text = read_whole_file(path, &len);
		if (!text && given) {
			aie_err("ledger: cannot read %s: %s", path, strerror(errno));
			return -1;
		}
		if (!text) {
			aie_err("ledger: cannot read %s: %s: boot-time hash tables not named",
				path, strerror(errno));
			return 0;
		}
	} else {
		text = ledger_klog();
		if (!text)
			return 0;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "] Memory: ") || str_starts(line, "Memory: ") ||
		    strstr(line, "kernel: Memory: ")) {
			memory = true;
			continue;
		}
		at = strstr(line, " hash table entries: ");
		if (!at)
			continue;
		if (!memory) {
			cut = true;
			continue;
		}
		*at = 0;
		name = strrchr(line, ']');
		name = name ? name + 1 : line;
		while (*name == ' ')
			name++;
		if (sscanf(at + 1, "hash table entries: %*u (order: %*u, %lld bytes, %15[a-z])",
			   &bytes, how) != 2 || bytes <= 0)
			continue;
		snprintf(full, sizeof(full), "%s hash table", name);
		ledger_list_add(&s->log, "kernel log", full, bytes);
		s->log.e[s->log.nr - 1].cat = !strcmp(how, "vmalloc");
	}
	if (!memory && cut)
		aie_err("ledger: the kernel log has no \"Memory:\" line (cut short?): boot-time hash tables not named");
	free(text);
	return 0;
}

/* The module's table, else the kernel's; quiet when neither is there. */
static void ledger_table(struct ledger_src *s)
{
	char *ext = ledger_path(s, AIE_PROC_EXT);
	char *kernel = ledger_path(s, AIE_PROC_KERNEL);
	const char *path = !access(ext, F_OK) ? ext :
			   !access(kernel, F_OK) ? kernel : NULL;

	if (!path) {
		aie_err("ledger: allocinfo_ext is not loaded (no %s): no memory attributed to call sites",
			AIE_PROC_EXT);
	} else if (table_load(&s->table, path)) {
		table_free(&s->table);	/* what a refused table holds */
		aie_err("ledger: no memory attributed to call sites");
	} else {
		s->have_table = true;
		if (path == ext)
			ledger_cache_export(s);
		else
			aie_err("ledger: %s gives no allocator per call site: its %lld bytes are not split into categories (load allocinfo_ext for that)",
				AIE_PROC_KERNEL, table_total_bytes(&s->table));
	}
	free(ext);
	free(kernel);
}

int ledger_read(struct ledger_src *s, const char *root, const char *log,
		bool log_given)
{
	memset(s, 0, sizeof(*s));
	s->root = root;
	s->page_size = sysconf(_SC_PAGESIZE);
	if (ledger_meminfo(s))
		return -1;
	if (ledger_slabinfo(s))
		return -1;
	ledger_vmallocinfo(s);
	ledger_table(s);
	if (ledger_log(s, log, log_given))
		return -1;
	/*
	 * Again, last: reading the others made dentries and inodes (sysfs),
	 * which a reader of meminfo after us counts.
	 */
	return ledger_meminfo(s);
}

void ledger_src_free(struct ledger_src *s)
{
	ledger_list_free(&s->caches);
	ledger_list_free(&s->vmalloc);
	ledger_list_free(&s->log);
	if (s->have_table)
		table_free(&s->table);
}
