// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "aie_util.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

int aie_load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

int aie_unload(const char *name)
{
	int i;

	for (i = 0; i < 50; i++) {
		if (!syscall(SYS_delete_module, name, O_NONBLOCK))
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			return -errno;
		usleep(100000);
	}
	return -EBUSY;
}

bool aie_module_loaded(const char *name)
{
	char line[256];
	size_t len = strlen(name);
	bool found = false;
	FILE *f = fopen("/proc/modules", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, len) && line[len] == ' ';
	fclose(f);
	return found;
}

const char *aie_missing(void)
{
	if (geteuid())
		return "must be root";
	if (access(AIE_MODULE_KO, R_OK))
		return "no " AIE_MODULE_KO ": build the module, then install the tests";
	if (access(AIE_HELPER_KO, R_OK))
		return "no " AIE_HELPER_KO ": build the helper, then install the tests";
	return NULL;
}

int aie_setup(const char *params)
{
	int ret;

	if (aie_module_loaded("aie_helper"))
		aie_unload("aie_helper");
	if (aie_module_loaded("allocinfo_ext"))
		aie_unload("allocinfo_ext");
	ret = aie_load(AIE_MODULE_KO, params);
	if (ret)
		return ret;
	return aie_load(AIE_HELPER_KO, NULL);
}

void aie_teardown(void)
{
	if (aie_module_loaded("aie_helper")) {
		aie_helper("free all");
		aie_unload("aie_helper");
	}
	if (aie_module_loaded("allocinfo_ext"))
		aie_unload("allocinfo_ext");
}

static int aie_write(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return n;
	return (size_t)n == len ? 0 : -EIO;
}

int aie_helper(const char *fmt, ...)
{
	char buf[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return aie_write(AIE_HELPER_CTL, buf, strlen(buf));
}

long long aie_helper_held(const char *kind)
{
	char *buf = aie_read_file(AIE_HELPER_CTL), *line, *save, name[64];
	long long held = -1;
	unsigned int n;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %*s %*u %u", name, &n) == 2 &&
		    !strcmp(name, kind)) {
			held = n;
			break;
		}
	}
	free(buf);
	return held;
}

int aie_write_str(const char *path, const char *val)
{
	return aie_write(path, val, strlen(val));
}

/* Take @cpu offline (@on 0) or bring it up: 0 or -errno. */
int aie_cpu_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return aie_write_str(path, on ? "1" : "0");
}

int aie_helper_raw(const void *buf, size_t len)
{
	return aie_write(AIE_HELPER_CTL, buf, len);
}

int aie_ctl(const char *cmd)
{
	return aie_write(AIE_PROC, cmd, strlen(cmd));
}

int aie_ctl_len(const void *buf, size_t len)
{
	return aie_write(AIE_PROC, buf, len);
}

char *aie_read_file(const char *path)
{
	size_t size = 0, cap = 1 << 16;
	char *buf = malloc(cap), *nbuf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf)
		goto err;
	for (;;) {
		if (cap - size < 4096) {
			cap *= 2;
			nbuf = realloc(buf, cap);
			if (!nbuf)
				goto err;
			buf = nbuf;
		}
		n = read(fd, buf + size, cap - size - 1);
		if (n < 0)
			goto err;
		if (!n)
			break;
		size += n;
	}
	buf[size] = '\0';
	close(fd);
	return buf;
err:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/* "<N>:<bytes>" of a node key: once per node, N below AIE_ROW_NODES. */
static int aie_row_node(struct aie_row *row, const char *tok)
{
	unsigned long nid;
	char *end;

	nid = strtoul(tok, &end, 10);
	if (*end != ':' || nid >= AIE_ROW_NODES || row->nodes & 1U << nid)
		return -EINVAL;
	row->node_bytes[nid] = strtoll(end + 1, &end, 10);
	row->nodes |= 1U << nid;
	return *end ? -EINVAL : 0;
}

static int aie_row_field(struct aie_row *row, const char *tok)
{
	static const struct { const char *key; size_t off; } keys[] = {
		{ "slack:", offsetof(struct aie_row, slack) },
		{ "total_calls:", offsetof(struct aie_row, total_calls) },
		{ "total_bytes:", offsetof(struct aie_row, total_bytes) },
		{ "peak:", offsetof(struct aie_row, peak) },
		{ "failed:", offsetof(struct aie_row, failed) },
		{ "accounted:", offsetof(struct aie_row, accounted) },
	};
	char *end;
	size_t i;

	if (!strcmp(tok, "disabled")) {
		row->disabled = true;
		return 0;
	}
	if (!strcmp(tok, "unloaded")) {
		row->unloaded = true;
		return 0;
	}
	if (!strcmp(tok, "accurate:no")) {
		row->inaccurate = true;
		return 0;
	}
	if (!strncmp(tok, "type:", 5)) {
		snprintf(row->type, sizeof(row->type), "%s", tok + 5);
		return 0;
	}
	if (!strncmp(tok, "node", 4) && tok[4] >= '0' && tok[4] <= '9')
		return aie_row_node(row, tok + 4);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (strncmp(tok, keys[i].key, strlen(keys[i].key)))
			continue;
		*(long long *)((char *)row + keys[i].off) =
			strtoll(tok + strlen(keys[i].key), &end, 10);
		return *end ? -EINVAL : 0;
	}
	return -EINVAL;
}

/*
 * "%12lli %8llu <location> [<module>] func:<name> key:value ... [disabled]
 * [unloaded] [accurate:no]"
 */
int aie_row_parse(const char *line, struct aie_row *row)
{
	char copy[1024], *save, *tok;
	int n = 0, i = 0;

	memset(row, 0, sizeof(*row));
	if (strlen(line) >= sizeof(copy) || strlen(line) < 23 ||
	    line[12] != ' ' || line[21] != ' ')
		return -EINVAL;
	if (sscanf(line, "%12lld %8llu %n", &row->bytes, &row->calls, &n) != 2)
		return -EINVAL;
	snprintf(copy, sizeof(copy), "%s", line + n);
	copy[strcspn(copy, "\n")] = '\0';
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		if (i == 0) {
			snprintf(row->location, sizeof(row->location), "%s", tok);
		} else if (i == 1 && tok[0] == '[') {
			snprintf(row->module, sizeof(row->module), "%.*s",
				 (int)strlen(tok) - 2, tok + 1);
		} else if (!row->func[0]) {
			if (strncmp(tok, "func:", 5))
				return -EINVAL;
			snprintf(row->func, sizeof(row->func), "%s", tok + 5);
		} else if (aie_row_field(row, tok)) {
			return -EINVAL;
		}
	}
	return row->func[0] && row->type[0] ? 0 : -EINVAL;
}

static int aie_row_find(const char *module, const char *func,
			const char *type, bool unloaded, struct aie_row *row)
{
	char *buf = aie_read_file(AIE_PROC), *line, *save;
	int found = 0;

	if (!buf)
		return -errno;
	for (line = strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		if (aie_row_parse(line, row))
			continue;
		found = !strcmp(row->func, func) &&
			(!module || !strcmp(row->module, module)) &&
			(!type || !strcmp(row->type, type)) &&
			row->unloaded == unloaded;
	}
	free(buf);
	if (!found)
		memset(row, 0, sizeof(*row));
	return found;
}

int aie_row_get_type(const char *module, const char *func, const char *type,
		     struct aie_row *row)
{
	return aie_row_find(module, func, type, false, row);
}

int aie_row_get_unloaded(const char *module, const char *func,
			 struct aie_row *row)
{
	return aie_row_find(module, func, NULL, true, row);
}

int aie_row_get(const char *module, const char *func, struct aie_row *row)
{
	return aie_row_get_type(module, func, NULL, row);
}

long long aie_sum_rows(aie_row_fn fn, const void *arg)
{
	char *buf = aie_read_file(AIE_PROC), *line, *save;
	struct aie_row row;
	long long sum = 0;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!aie_row_parse(line, &row))
			sum += fn(&row, arg);
	}
	free(buf);
	return sum;
}

static long long aie_row_of_module(const struct aie_row *row, const void *arg)
{
	return !row->unloaded && !strcmp(row->module, arg);
}

int aie_count_rows(const char *module)
{
	return aie_sum_rows(aie_row_of_module, module);
}

struct aie_func_type {
	const char *func, *type;
};

static long long aie_row_bytes_if(const struct aie_row *row, const void *arg)
{
	const struct aie_func_type *ft = arg;

	return !strcmp(row->func, ft->func) && !strcmp(row->type, ft->type) ?
	       row->bytes : 0;
}

long long aie_bytes_of(const char *func, const char *type)
{
	struct aie_func_type ft = { func, type };

	return aie_sum_rows(aie_row_bytes_if, &ft);
}

int aie_possible_cpus(void)
{
	char *buf = aie_read_file("/sys/devices/system/cpu/possible"), *p;
	int n = 0, lo, hi, used;

	if (!buf)
		return -1;
	for (p = buf; sscanf(p, "%d%n", &lo, &used) == 1; p += used + 1) {
		hi = lo;
		p += used;
		used = 0;
		if (*p == '-' && sscanf(p + 1, "%d%n", &hi, &used) == 1)
			p += used + 1;
		n += hi - lo + 1;
		used = 0;
		if (*p != ',')
			break;
	}
	free(buf);
	return n;
}

long long aie_end_pfn(void)
{
	long long start = 0, spanned = 0, end = 0;
	char line[256];
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " spanned %lld", &spanned) == 1)
			continue;
		if (sscanf(line, " start_pfn: %lld", &start) == 1 &&
		    start + spanned > end)
			end = start + spanned;
	}
	fclose(f);
	return end;
}

long long aie_read_long(const char *path)
{
	char *buf = aie_read_file(path), *end;
	long long v;

	if (!buf)
		return -1;
	v = strtoll(buf, &end, 10);
	if (end == buf)
		v = -1;
	free(buf);
	return v;
}

long long aie_stat(const char *key)
{
	char *buf = aie_read_file(AIE_STATS), *line, *save;
	size_t len = strlen(key);
	long long v = -1;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, key, len) && line[len] == ' ') {
			v = strtoll(line + len + 1, NULL, 10);
			break;
		}
	}
	free(buf);
	return v;
}

int aie_stat_word(const char *key, char *out, size_t len)
{
	char *buf = aie_read_file(AIE_STATS), *line, *save;
	size_t klen = strlen(key);
	int ret = -1;

	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			snprintf(out, len, "%s", line + klen + 1);
			ret = 0;
			break;
		}
	}
	free(buf);
	return ret;
}

int aie_stat_is(const char *key, const char *word)
{
	char w[64];

	if (aie_stat_word(key, w, sizeof(w)))
		return -1;
	return strcmp(w, word) ? -1 : 0;
}

bool aie_stat_present(const char *key)
{
	return !aie_stat_is(key, "present");
}

static long long aie_slab_attr(const char *name, const char *attr)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/%s", name, attr);
	return aie_read_long(path);
}

long long aie_slab_size(const char *name)
{
	return aie_slab_attr(name, "slab_size");
}

long long aie_object_size(const char *name)
{
	return aie_slab_attr(name, "object_size");
}

long long aie_kmalloc_slot(long long bucket)
{
	char name[32];
	long long slot;

	snprintf(name, sizeof(name), "kmalloc-%lld", bucket);
	slot = aie_slab_size(name);
	return slot >= bucket ? slot : -1;
}

long long aie_kmalloc_charge(long long size)
{
	static const long long buckets[] = {
		8, 16, 32, 64, 96, 128, 192, 256, 512,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(buckets); i++) {
		if (size <= buckets[i])
			return aie_kmalloc_slot(buckets[i]);
	}
	return size <= 1024 ? aie_slab_size("kmalloc-1k") : -1;
}

long long aie_helper_cache_bytes(void)
{
	return aie_read_long("/sys/kernel/debug/aie_helper/cache_ksize");
}

int aie_helper_remade(long long *bytes, int *reused)
{
	char *buf = aie_read_file("/sys/kernel/debug/aie_helper/remade");
	int n;

	if (!buf)
		return -1;
	n = sscanf(buf, "%lld %d", bytes, reused);
	free(buf);
	return n == 2 && *bytes > 0 ? 0 : -1;
}

long long aie_cache_line(const char *cache, long long *objects)
{
	char *buf = aie_read_file(AIE_PROC "_caches"), *line, *save;
	char name[64];
	long long bytes = -1, o, b;

	*objects = -1;
	if (!buf)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %lld %lld", name, &o, &b) == 3 &&
		    !strcmp(name, cache)) {
			*objects = o;
			bytes = b;
		}
	}
	free(buf);
	return bytes;
}
