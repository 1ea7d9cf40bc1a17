// SPDX-License-Identifier: GPL-2.0
/*
 * topterm.c - `allocinfo-ext top`: sample the table every delay seconds
 * and show the largest sites, in a plain terminal (ANSI clear, no curses)
 * or, with -b or when stdout is no terminal, as plain text for scripts.
 *
 * Keys in the terminal: b, c, s, g sort by bytes, calls, slack, growth;
 * q quits. SIGINT, SIGTERM and q restore the terminal before leaving.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "top.h"
#include "util.h"

struct top_opts {
	struct top_view view;
	const char *path;	/* NULL: the default source */
	bool batch;
	bool json;		/* one line of JSON per sample; batch mode */
	long iterations;	/* 0: until stopped */
	long lines;		/* -l, -1 when not given */
};

/* The one thing a signal handler may touch. */
static volatile sig_atomic_t top_stop;

static void top_on_signal(int sig)
{
	(void)sig;
	top_stop = 1;
}

static double top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void top_clock(char *buf, size_t len, bool utc)
{
	time_t now = time(NULL);
	struct tm tm;

	if (utc ? !gmtime_r(&now, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) :
	    !localtime_r(&now, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
}

/* Wait @secs, or for a key in the terminal: the key, 0 on timeout, -1 stop. */
static int top_wait(double secs, bool keys)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	double end = top_now() + secs;
	char c;
	int n;

	while (!top_stop) {
		double left = end - top_now();

		if (left <= 0)
			return 0;
		n = poll(&p, keys ? 1 : 0, (int)(left * 1000) + 1);
		if (n > 0 && read(STDIN_FILENO, &c, 1) == 1)
			return (unsigned char)c;
		if (n < 0 && errno != EINTR)
			return -1;
	}
	return -1;
}

/* Draw a sample: 0, or -1 when stdout cannot be written (said). */
static int top_show(const struct table *t, const struct table *prev,
		     double dt, struct top_opts *o)
{
	struct top_row *rows;
	struct winsize ws;
	char clock[16], utc[32];
	size_t n = top_rows(t, prev, dt, &rows);

	top_clock(clock, sizeof(clock), false);
	top_clock(utc, sizeof(utc), true);
	o->view.clock = clock;
	o->view.utc = utc;
	top_sort(rows, n, o->view.key);
	o->view.lines = o->lines >= 0 ? o->lines : o->batch ? 20 : 0;
	if (!o->batch) {
		if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row > 4) {
			if (!o->view.lines || o->view.lines > ws.ws_row - 4)
				o->view.lines = ws.ws_row - 4;
			o->view.width = ws.ws_col;
		}
		fputs("\033[H\033[2J", stdout);
	} else if (prev && !o->json) {
		fputc('\n', stdout);
	}
	if (o->json)
		top_render_json(stdout, t, rows, n, &o->view);
	else
		top_render(stdout, t, rows, n, &o->view);
	free(rows);
	return stdout_close();
}

/* A key from the terminal: 1 to quit, else 0 (maybe a new sort key). */
static int top_key(int c, struct top_opts *o)
{
	static const char keys[] = "bcsg";
	const char *k = c > 0 ? strchr(keys, c) : NULL;

	if (c < 0 || c == 'q')
		return 1;
	if (k)
		o->view.key = (enum top_key)(k - keys);
	return 0;
}

/* The latest sample and the one before, for growth and for redraws. */
struct top_samples {
	struct table cur, older;
	bool have_cur, have_older;
	double t_cur, t_older;
};

static int top_sample(struct top_samples *s, const char *path)
{
	struct table t;

	if (table_load(&t, path)) {
		table_free(&t);
		return -1;
	}
	if (s->have_older)
		table_free(&s->older);
	s->older = s->cur;
	s->t_older = s->t_cur;
	s->have_older = s->have_cur;
	s->cur = t;
	s->t_cur = top_now();
	s->have_cur = true;
	return 0;
}

static int top_redraw(struct top_samples *s, struct top_opts *o)
{
	return top_show(&s->cur, s->have_older ? &s->older : NULL,
		 s->t_cur - s->t_older, o);
}

static int top_loop(struct top_opts *o)
{
	struct top_samples s;
	long i;
	int c = 0, ret = 0;

	memset(&s, 0, sizeof(s));
	for (i = 0; c >= 0 && (!o->iterations || i < o->iterations); i++) {
		if (top_sample(&s, o->path)) {
			ret = AIE_EXIT_FAIL;
			break;
		}
		if (top_redraw(&s, o)) {
			ret = AIE_EXIT_FAIL;
			break;
		}
		if (o->iterations && i + 1 == o->iterations)
			break;
		while ((c = top_wait(o->view.delay, !o->batch)) > 0) {
			if (top_key(c, o) || top_redraw(&s, o)) {
				ret = c == 'q' ? ret : AIE_EXIT_FAIL;
				c = -1;
				break;
			}
		}
	}
	if (s.have_older)
		table_free(&s.older);
	if (s.have_cur)
		table_free(&s.cur);
	return ret;
}

/* Keys without Enter, no echo, no cursor; undone by top_term_restore(). */
static bool top_term_raw(struct termios *saved)
{
	struct termios raw;

	if (tcgetattr(STDIN_FILENO, saved))
		return false;
	raw = *saved;
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &raw))
		return false;
	fputs("\033[?25l", stdout);
	return true;
}

static void top_term_restore(const struct termios *saved)
{
	tcsetattr(STDIN_FILENO, TCSANOW, saved);
	fputs("\033[?25h", stdout);
	fflush(stdout);
}

static int top_run(struct top_opts *o)
{
	struct sigaction sa = { .sa_handler = top_on_signal };
	struct termios saved;
	bool raw = false;
	int ret;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!o->batch && !isatty(STDOUT_FILENO))
		o->batch = true;
	if (!o->batch)
		raw = top_term_raw(&saved);
	ret = top_loop(o);
	if (raw)
		top_term_restore(&saved);
	return ret;
}

static void top_usage(FILE *f)
{
	fprintf(f, "Usage: allocinfo-ext top [-s KEY] [-b] [-j] [-n N] [-d SEC] [-l N] [FILE]\n\n"
		"Show the sites of FILE (default: /proc/allocinfo_ext, else /proc/allocinfo),\n"
		"largest first, read again every SEC seconds. GROWTH/s is the change of\n"
		"live bytes per second since the previous sample. In a terminal, keys\n"
		"b, c, s, g sort by bytes, calls, slack, growth; q quits.\n\n"
		"  -s, --sort KEY        bytes (default), calls, slack or growth\n"
		"  -b, --batch           plain text, no screen control (also when stdout\n"
		"                        is not a terminal)\n"
		"  -j, --json            batch mode, one line of JSON per sample (time in UTC;\n"
		"                        growth null on the first sample)\n"
		"  -n, --iterations N    stop after N samples (default: run until stopped)\n"
		"  -d, --delay SEC       seconds between samples (default 3)\n"
		"  -l, --lines N         rows at most (default: the screen; 20 in batch\n"
		"                        mode; 0: all)\n\n"
		"Examples:\n"
		"  allocinfo-ext top -s growth -d 1\n"
		"  allocinfo-ext top -b -n 2 -d 10 -s growth -l 10 >> /var/log/allocinfo-top.log\n");
}

static int top_option(int c, struct top_opts *o)
{
	long long n;

	switch (c) {
	case 's':
		return top_parse_key(optarg, &o->view.key);
	case 'b':
		o->batch = true;
		return 0;
	case 'j':
		o->batch = o->json = true;
		return 0;
	case 'n':
	case 'l':
		if (!parse_ll(optarg, &n) || n < 0) {
			aie_err("bad count \"%s\"", optarg);
			return -1;
		}
		*(c == 'n' ? &o->iterations : &o->lines) = n;
		return 0;
	case 'd':
		if (parse_seconds(optarg, &o->view.delay))
			return 0;
		aie_err("bad delay \"%s\": seconds, 0 to 86400", optarg);
		return -1;
	}
	return -1;
}

int cmd_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "delay", required_argument, NULL, 'd' },
		{ "lines", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct top_opts o = {
		.view = { .key = TOP_BYTES, .delay = 3 },
		.lines = -1,
	};
	int c;

	while ((c = getopt_long(argc, argv, "s:bjn:d:l:h", opts, NULL)) != -1) {
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
	o.view.source = o.path ? o.path : table_default_source();
	if (!o.view.source)
		return AIE_EXIT_FAIL;
	return top_run(&o);
}
