// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - `allocinfo-ext snapshot [-o FILE] [SOURCE]`: the table as
 * read, after a head of "# key: value" lines that the parser reads back:
 *
 *	# allocinfo-ext snapshot
 *	# time: 2026-11-21T10:37:00Z
 *	# kernel: 6.12.48+deb13-amd64
 *	# uptime: 1234.56
 *	# module_version: build-id 3f1c...
 *	# source: /proc/allocinfo_ext
 *	allocinfo_ext - version: 1.0
 *	...
 *
 * Time, kernel and uptime are those of the machine and the moment the
 * snapshot is taken. The module version is the allocinfo_ext module's
 * MODULE_VERSION when it has one, else its build-id, else "unknown"; for
 * /proc/allocinfo it is "none (in-kernel profiler)". A snapshot of a
 * snapshot drops the old head.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cmd.h"
#include "table.h"
#include "util.h"

#define SYS_MODULE	"/sys/module/allocinfo_ext"

static void snapshot_module_version(const struct table *t, char *buf,
				    size_t len)
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

static void snapshot_head(FILE *f, const struct table *t)
{
	char when[64] = "unknown", version[256];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	size_t n;
	char *up = read_whole_file("/proc/uptime", &n);

	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snapshot_module_version(t, version, sizeof(version));
	fprintf(f, "# allocinfo-ext snapshot\n# time: %s\n", when);
	fprintf(f, "# kernel: %s\n", uname(&u) ? "unknown" : u.release);
	fprintf(f, "# uptime: %.*s\n", up ? (int)strcspn(up, " \n") : 7,
		up ? up : "unknown");
	fprintf(f, "# module_version: %s\n# source: %s\n", version, t->name);
	free(up);
}

/* The table from its version line on: an old snapshot head is dropped. */
static const char *snapshot_body(const struct table *t)
{
	const char *p = t->raw;

	while (*p && !str_starts(p, "allocinfo_ext - version: ") &&
	       !str_starts(p, "allocinfo - version: ")) {
		p = strchr(p, '\n');
		p = p ? p + 1 : t->raw + t->raw_len;
	}
	return p;
}

static void snapshot_usage(FILE *f)
{
	fprintf(f, "Usage: allocinfo-ext snapshot [-o FILE] [SOURCE]\n\n"
		"Copy the table of SOURCE (default: /proc/allocinfo_ext, else\n"
		"/proc/allocinfo) to FILE (default: stdout), after '#' lines with the\n"
		"time, kernel release, uptime, module version and source. Every command\n"
		"reads a snapshot as it reads the /proc file.\n\n"
		"  -o, --output FILE  write there, replacing it atomically\n\n"
		"Example:\n"
		"  allocinfo-ext snapshot -o /var/tmp/allocinfo-$(date +%%s).snap\n");
}

int cmd_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out_path = NULL, *body;
	struct output out;
	struct table t;
	int c, ret = AIE_EXIT_FAIL;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (c == 'o') {
			out_path = optarg;
		} else if (c == 'h') {
			snapshot_usage(stdout);
			return 0;
		} else {
			return cmd_usage_error(argv[0]);
		}
	}
	if (argc - optind > 1) {
		aie_err("snapshot reads one table");
		return cmd_usage_error(argv[0]);
	}
	if (!table_load(&t, argv[optind])) {
		output_open(&out, out_path);
		snapshot_head(out.f, &t);
		body = snapshot_body(&t);
		fwrite(body, 1, t.raw + t.raw_len - body, out.f);
		ret = output_close(&out) ? AIE_EXIT_FAIL : 0;
	}
	table_free(&t);
	return ret;
}
