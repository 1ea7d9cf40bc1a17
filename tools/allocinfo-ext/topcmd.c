// SPDX-License-Identifier: GPL-2.0
/*
 * topcmd.c - `allocinfo-ext top`: its options, and batch mode, plain
 * text for scripts (-b, or when stdout is no terminal; -j: JSON), a
 * sample every delay seconds (topsample.c). In batch mode a sample that
 * cannot be read is fatal. The screen, in a terminal, is topterm.c's.
 * SIGINT and SIGTERM end either loop, the screen before leaving.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgtable.h"
#include "cmd.h"
#include "textout.h"
#include "topsample.h"
#include "topterm.h"
#include "util.h"

static void top_on_signal(int sig)
{
	(void)sig;
	top_stop = 1;
}

/* Batch mode: a block of text (or a line of JSON) per sample. */
static int top_batch(struct top_opts *o)
{
	struct top_samples s;
	struct top_row *rows;
	char clock[16], utc[32];
	long i;
	size_t n;
	int ret = 0;

	memset(&s, 0, sizeof(s));
	if (!o->json)
		text_stdout();
	o->view.lines = o->lines >= 0 ? o->lines : 20;
	for (i = 0; !top_stop && (!o->iterations || i < o->iterations); i++) {
		if (i) {
			struct timespec ts = {
				.tv_sec = (time_t)o->view.delay,
				.tv_nsec = (long)((o->view.delay -
						   (time_t)o->view.delay) * 1e9),
			};

			while (nanosleep(&ts, &ts) && errno == EINTR && !top_stop)
				;
			if (top_stop)
				break;
		}
		if (top_sample(&s, o)) {
			ret = AIE_EXIT_FAIL;
			break;
		}
		top_clock(clock, sizeof(clock), false);
		top_clock(utc, sizeof(utc), true);
		o->view.clock = clock;
		o->view.utc = utc;
		n = top_sorted_rows(&s, o, &rows);
		if (i && !o->json)
			putchar('\n');
		if (o->json)
			top_render_json(stdout, &s.cur, rows, n, &o->view);
		else
			top_render(stdout, &s.cur, rows, n, &o->view);
		free(rows);
		if (stdout_close()) {
			ret = AIE_EXIT_FAIL;
			break;
		}
	}
	top_samples_free(&s);
	return ret;
}

static int top_run(struct top_opts *o)
{
	struct sigaction sa = { .sa_handler = top_on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!o->batch && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
		o->batch = true;
	return o->batch ? top_batch(o) : top_screen(o);
}

const struct cmd_option top_options[] = {
	CMD_LETTER('s', "bytes (default), calls, slack or growth"),
	CMD_LETTER('r', "the smallest first (the order reversed)"),
	CMD_LETTER('b', "plain text, no screen control (also when stdout\n"
			"is not a terminal)"),
	CMD_LETTER('j', "batch mode, one line of JSON per sample (time in UTC;\n"
			"growth null on the first sample)"),
	CMD_LETTER('n', "stop after N samples (default: run until stopped)"),
	CMD_LETTER('d', "seconds between samples, 0.1 to 86400 (default 3)"),
	CMD_LETTER('l', "rows at most (default: the screen; 20 in batch\n"
			"mode; 0: all)"),
	CMD_LETTER('m', "only the sites of module NAME (vmlinux: built-in)"),
	CMD_LONG('C', "cgroup", "PATH",
		 "only cgroup PATH's rows and its descendants'\n"
		 "(FILE: the cgroups file)"),
	{ 0 },
};

static void top_usage(FILE *f)
{
	cmd_usage_head(f, "top");
	fprintf(f, "Show the sites of FILE (default: /proc/allocinfo_ext, else /proc/allocinfo),\n"
		"largest first, read again every SEC seconds. GROWTH/s is the change of\n"
		"live bytes per second since the previous sample. In a terminal, keys\n"
		"b, c, s, g sort by bytes, calls, slack, growth; I reverses the order;\n"
		"/ filters; arrows, PgUp, PgDn scroll; p pauses; r samples now; + - d\n"
		"change the delay; ? helps; q quits. SHARE is the site's part of the\n"
		"table's live bytes.\n\n");
	cmd_options(f, "top");
	fprintf(f, "Examples:\n"
		"  allocinfo-ext top -s growth -d 1\n"
		"  allocinfo-ext top -b -n 2 -d 10 -s growth -l 10 >> /var/log/allocinfo-top.log\n");
}

static int top_option(int c, struct top_opts *o)
{
	long long n;

	switch (c) {
	case 's':
		return order_parse(optarg, TOP_KEYS, &o->view.key);
	case 'r':
		o->view.reverse = true;
		return 0;
	case 'b':
		o->batch = true;
		return 0;
	case 'j':
		o->batch = o->json = true;
		return 0;
	case 'm':
		o->module = optarg;
		return 0;
	case 'C':
		o->cgroup = optarg;
		return cg_path_check(optarg);
	case 'n':
	case 'l':
		if (!parse_ll(optarg, &n) || n < 0) {
			aie_err("bad count \"%s\"", optarg);
			return -1;
		}
		*(c == 'n' ? &o->iterations : &o->lines) = n;
		return 0;
	case 'd':
		if (parse_seconds(optarg, &o->view.delay) &&
		    o->view.delay >= TOP_DELAY_MIN)
			return 0;
		aie_err("bad delay \"%s\": seconds, 0.1 to 86400", optarg);
		return -1;
	}
	return -1;
}

int cmd_top(int argc, char **argv)
{
	struct top_opts o = {
		.view = { .key = ORDER_BYTES, .delay = 3 },
		.lines = -1,
	};
	char *source = NULL;
	int c, ret;

	while ((c = cmd_getopt(argc, argv)) != -1) {
		if (c == 'h') {
			top_usage(stdout);
			return 0;
		}
		if (top_option(c, &o))
			return cmd_usage_error(argv[0]);
	}
	if (argc - optind > 1) {
		aie_err("top reads one table");
		return cmd_usage_error(argv[0]);
	}
	o.path = argv[optind];
	if (o.cgroup) {
		o.view.source = source = xasprintf("%s, cgroup %s",
						   o.path ? o.path : AIE_PROC_CGROUPS,
						   o.cgroup);
	} else {
		o.view.source = o.path ? o.path : table_default_source();
	}
	if (!o.view.source)
		return AIE_EXIT_FAIL;
	ret = top_run(&o);
	free(source);
	return ret;
}
