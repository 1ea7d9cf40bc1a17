// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - loading and freeing tables, and what a site's key and
 * location tell: its file and line, its subsystem.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "table.h"
#include "util.h"

const char *table_default_source(void)
{
	if (!access(AIE_PROC_EXT, F_OK))
		return AIE_PROC_EXT;
	if (!access(AIE_PROC_KERNEL, F_OK))
		return AIE_PROC_KERNEL;
	aie_err("neither %s nor %s exists: load allocinfo_ext.ko, or name a snapshot file",
		AIE_PROC_EXT, AIE_PROC_KERNEL);
	return NULL;
}

static int table_read(struct table *t, const char *path, bool cgroups)
{
	size_t len;
	char *text;

	memset(t, 0, sizeof(*t));
	if (!path)
		return -1;
	text = read_whole_file(path, &len);
	if (!text) {
		aie_err("cannot read %s: %s%s", path, strerror(errno),
			errno == EACCES ? " (the /proc files are for root)" :
			errno == ENOENT && cgroups && !strcmp(path, AIE_PROC_CGROUPS) ?
			" (allocinfo_ext not loaded, or older than its cgroups file)" : "");
		return -1;
	}
	return table_parse_as(t, path, text, len, cgroups);
}

int table_load(struct table *t, const char *path)
{
	return table_read(t, path ? path : table_default_source(), false);
}

int table_load_cgroups(struct table *t, const char *path)
{
	return table_read(t, path ? path : AIE_PROC_CGROUPS, true);
}

int table_load_module(struct table *t, const char *path, const char *module)
{
	if (table_load(t, path))
		return -1;
	table_keep_module(t, module);
	return 0;
}

void table_keep_module(struct table *t, const char *module)
{
	struct site *s;
	size_t i, n = 0;

	for (i = 0; module && i < t->nr; i++) {
		s = &t->sites[i];
		if (!strcmp(*s->module ? s->module : "vmlinux", module)) {
			t->sites[n++] = *s;
			continue;
		}
		free(s->text);
		free(s->nodes);
	}
	if (module)
		t->nr = n;
}

#define SYS_MODULE	"/sys/module/allocinfo_ext"

void table_module_version(const struct table *t, char *buf, size_t len)
{
	char *v, id[128];
	size_t n;

	if (t->format == TABLE_KERNEL) {
		snprintf(buf, len, "none (in-kernel profiler)");
		return;
	}
	v = read_whole_file(SYS_MODULE "/version", &n);
	if (v) {
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		free(v);
	} else if (!read_build_id(SYS_MODULE "/notes/.note.gnu.build-id",
				  id, sizeof(id))) {
		snprintf(buf, len, "build-id %s", id);
	} else {
		snprintf(buf, len, "unknown");
	}
}

void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		free(t->sites[i].text);
		free(t->sites[i].nodes);
	}
	free(t->sites);
	free(t->raw);
	free(t->name);
	free(t->meta.time);
	free(t->meta.kernel);
	free(t->meta.uptime);
	free(t->meta.module_version);
	free(t->meta.source);
	memset(t, 0, sizeof(*t));
}

const char *table_format_name(enum table_format f)
{
	return f == TABLE_EXT ? "allocinfo_ext" : "allocinfo";
}

int site_key_cmp(const struct site *a, const struct site *b)
{
	int c = strcmp(a->location, b->location);

	if (!c)
		c = strcmp(a->module, b->module);
	if (!c)
		c = strcmp(a->func, b->func);
	return c;
}

bool site_file_line(const struct site *s, char *file, size_t len,
		    unsigned int *line)
{
	const char *colon = strrchr(s->location, ':');
	const char *d;

	if (!colon || colon == s->location || !colon[1])
		return false;
	for (d = colon + 1; *d; d++) {
		if (*d < '0' || *d > '9')
			return false;
	}
	if (file)
		snprintf(file, len, "%.*s", (int)(colon - s->location),
			 s->location);
	if (line)
		*line = strtoul(colon + 1, NULL, 10);
	return true;
}

char *site_file(const struct site *s, unsigned int *line)
{
	size_t len = strlen(s->location) + 1;
	char *file = xmalloc(len);

	if (site_file_line(s, file, len, line))
		return file;
	free(file);
	return NULL;
}

/* Top-level directories whose subsystems are one level further down. */
static bool two_level_dir(const char *dir, size_t len)
{
	static const char * const dirs[] = { "drivers", "arch", "sound" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (len == strlen(dirs[i]) && !memcmp(dir, dirs[i], len))
			return true;
	}
	return false;
}

void site_subsystem(const struct site *s, char *buf, size_t len)
{
	char file[4096];
	const char *p = file, *slash, *next;

	if (site_file_line(s, file, sizeof(file), NULL)) {
		while (str_starts(p, "./"))
			p += 2;
		slash = strchr(p, '/');
		if (p[0] != '/' && slash && slash != p) {
			next = strchr(slash + 1, '/');
			if (two_level_dir(p, slash - p) && next)
				slash = next;
			snprintf(buf, len, "%.*s", (int)(slash - p), p);
			return;
		}
	}
	snprintf(buf, len, "%s", s->module[0] ? s->module : "vmlinux");
}

void site_tag(const struct site *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s func:%s", s->location,
		 s->module[0] ? " [" : "", s->module, s->module[0] ? "]" : "",
		 s->func);
}

long long table_total_bytes(const struct table *t)
{
	long long sum = 0;
	size_t i;

	for (i = 0; i < t->nr; i++)
		sum += t->sites[i].bytes;
	return sum;
}
