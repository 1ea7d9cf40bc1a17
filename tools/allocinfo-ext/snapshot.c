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
 * snapshot is taken; --kernel and --uptime give the kernel and uptime of
 * the machine a copied file comes from. The module version is the allocinfo_ext module's
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
#include "output.h"
#include "table.h"
#include "util.h"

/* What the head says of the machine, when given: for a copied file. */
struct snapshot_opts {
	const char *kernel;
	const char *uptime;
};

static void snapshot_head(FILE *f, const struct table *t,
			  const struct snapshot_opts *o)
{
	char when[64] = "unknown", version[256];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	size_t n;
	char *up = o->uptime ? NULL : read_whole_file("/proc/uptime", &n);

	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	table_module_version(t, version, sizeof(version));
	fprintf(f, "# allocinfo-ext snapshot\n# time: %s\n", when);
	fprintf(f, "# kernel: %s\n", o->kernel ? o->kernel :
		uname(&u) ? "unknown" : u.release);
	if (o->uptime)
		fprintf(f, "# uptime: %s\n", o->uptime);
	else
		fprintf(f, "# uptime: %.*s\n", up ? (int)strcspn(up, " \n") : 7,
			up ? up : "unknown");
	fprintf(f, "# module_version: %s\n# source: %s\n", version, t->name);
	free(up);
}

/* A kernel release: printable, no space, as uname -r prints one. */
static int snapshot_kernel_opt(const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			break;
	}
	if (*s && !*p && p - s < 65)
		return 0;
	aie_err("bad kernel release \"%s\": at most 64 characters, no space or control character",
		s);
	return -1;
}

/* Seconds since boot, as /proc/uptime gives them: digits, maybe a fraction. */
static int snapshot_uptime_opt(const char *s)
{
	size_t digits = strspn(s, "0123456789");

	if (digits && digits < 16 && (!s[digits] ||
	    (s[digits] == '.' && s[digits + 1] &&
	     strspn(s + digits + 1, "0123456789") == strlen(s + digits + 1) &&
	     strlen(s + digits + 1) < 10)))
		return 0;
	aie_err("bad uptime \"%s\": seconds, such as 1234.56", s);
	return -1;
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

const struct cmd_option snapshot_options[] = {
	CMD_LETTER('o', "write there, a regular file replaced atomically"),
	CMD_LONG('K', "kernel", "REL",
		 "the kernel release of the machine SOURCE was copied\n"
		 "from (default: this machine's, uname -r)"),
	CMD_LONG('U', "uptime", "SEC",
		 "its uptime when copied (default: this machine's)"),
	{ 0 },
};

static void snapshot_usage(FILE *f)
{
	cmd_usage_head(f, "snapshot");
	fprintf(f, "Copy the table of SOURCE (default: /proc/allocinfo_ext, else\n"
		"/proc/allocinfo) to FILE (default: stdout), after '#' lines with the\n"
		"time, kernel release, uptime, module version and source. Every command\n"
		"reads a snapshot as it reads the /proc file.\n\n");
	cmd_options(f, "snapshot");
	fprintf(f, "Examples:\n"
		"  allocinfo-ext snapshot -o /var/tmp/allocinfo-$(date +%%s).snap\n"
		"  allocinfo-ext snapshot --kernel 6.12.48+deb13-amd64 --uptime 5400 copied.txt\n");
}

int cmd_snapshot(int argc, char **argv)
{
	struct snapshot_opts o = { NULL, NULL };
	const char *out_path = NULL, *body;
	struct output out;
	struct table t;
	int c, ret = AIE_EXIT_FAIL;

	while ((c = cmd_getopt(argc, argv)) != -1) {
		if (c == 'o') {
			out_path = optarg;
		} else if (c == 'K' && !snapshot_kernel_opt(optarg)) {
			o.kernel = optarg;
		} else if (c == 'U' && !snapshot_uptime_opt(optarg)) {
			o.uptime = optarg;
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
		snapshot_head(out.f, &t, &o);
		body = snapshot_body(&t);
		fwrite(body, 1, t.raw + t.raw_len - body, out.f);
		ret = output_close(&out) ? AIE_EXIT_FAIL : 0;
	}
	table_free(&t);
	return ret;
}
