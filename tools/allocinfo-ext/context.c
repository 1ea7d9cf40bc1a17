// SPDX-License-Identifier: GPL-2.0
/*
 * context.c - `allocinfo-ext context SEL`: who calls the sites SEL
 * selects, from the call stacks a capture recorded
 * (/proc/allocinfo_ext_stacks and /proc/allocinfo_ext_stacks_calls).
 *
 * A stack's caller is its second innermost frame: the function that
 * called the allocating function. Calls come from the calls file, bytes
 * from the bytes file, each summed per caller over the stacks whose
 * innermost frame SEL selects (func:NAME, [MODULE] or all; the other
 * selectors select every stack recorded, as the capture chose them). With
 * -d, the tool runs the capture itself: "capture SEL DEPTH", a wait,
 * "capture off".
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "allocinfo_ext.h"
#include "cmd.h"
#include "control.h"
#include "ctl.h"
#include "json.h"
#include "textout.h"
#include "util.h"

#define CONTEXT_NO_CALLER	"(none: depth 1)"

struct caller {
	char *name;
	long long calls, bytes;
};

struct context {
	struct aie_sel sel;
	struct caller *callers;
	size_t nr, cap;
	size_t stacks;
	long long calls, bytes;
};

/* Whether the innermost frame @frame ("func" or "func [module]") is selected. */
static bool context_selects(const struct aie_sel *sel, const char *frame)
{
	const char *space = strchr(frame, ' ');
	size_t flen = space ? (size_t)(space - frame) : strlen(frame);

	switch (sel->kind) {
	case AIE_SEL_FUNC:
		return flen == strlen(sel->name) &&
		       !strncmp(frame, sel->name, flen);
	case AIE_SEL_MODULE:
		return space && space[1] == '[' &&
		       !strncmp(space + 2, sel->name, strlen(sel->name)) &&
		       !strcmp(space + 2 + strlen(sel->name), "]");
	default:
		return true;
	}
}

static struct caller *context_caller(struct context *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		if (!strcmp(c->callers[i].name, name))
			return &c->callers[i];
	}
	if (c->nr == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->callers = xrealloc_array(c->callers, c->cap,
					    sizeof(*c->callers));
	}
	c->callers[c->nr] = (struct caller){ .name = xstrdup(name) };
	return &c->callers[c->nr++];
}

/*
 * One line "f1;...;fn <count>" of @path. Adds its count to its caller's
 * calls or bytes when SEL selects it. 0, or -1 after a message.
 */
static int context_line(struct context *c, const char *path, unsigned int lineno,
			char *line, bool calls)
{
	char *space = strrchr(line, ' '), *inner, *caller;
	long long count;

	if (!space || space == line || !parse_ll(space + 1, &count) ||
	    count < 0) {
		aie_err("%s:%u: expected \"<frame>;...;<frame> <count>\"",
			path, lineno);
		return -1;
	}
	*space = '\0';
	inner = strrchr(line, ';');
	if (!context_selects(&c->sel, inner ? inner + 1 : line))
		return 0;
	if (inner) {
		*inner = '\0';
		caller = strrchr(line, ';');
		caller = caller ? caller + 1 : line;
	} else {
		caller = CONTEXT_NO_CALLER;
	}
	/* A caller's sum is at most the total, which is checked */
	if (!add_ll(calls ? &c->calls : &c->bytes, count)) {
		aie_err("%s:%u: the %s add up to more than 2^63: refused",
			path, lineno, calls ? "calls" : "bytes");
		return -1;
	}
	if (calls) {
		context_caller(c, caller)->calls += count;
	} else {
		context_caller(c, caller)->bytes += count;
		c->stacks++;
	}
	return 0;
}

struct context_file {
	struct context *c;
	bool calls;
};

static int context_file_line(void *arg, const char *path,
			     unsigned int lineno, char *line)
{
	struct context_file *f = arg;

	return context_line(f->c, path, lineno, line, f->calls);
}

static int context_read(struct context *c, const char *path, bool calls)
{
	struct context_file f = { .c = c, .calls = calls };

	return for_each_line(path, context_file_line, &f, NULL);
}

static int context_cmp(const void *pa, const void *pb)
{
	const struct caller *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	if (a->calls != b->calls)
		return a->calls < b->calls ? 1 : -1;
	return strcmp(a->name, b->name);
}

static double context_share(long long part, long long whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static void context_json(const struct context *c, const char *sel)
{
	size_t i;

	fputs("{\"command\": \"context\", ", stdout);
	json_key_string(stdout, "selector", sel);
	printf(", \"stacks\": %zu, \"calls\": %lld, \"bytes\": %lld,\n \"callers\": [",
	       c->stacks, c->calls, c->bytes);
	for (i = 0; i < c->nr; i++) {
		printf("%s\n  {", i ? "," : "");
		json_key_string(stdout, "caller", c->callers[i].name);
		printf(", \"calls\": %lld, \"calls_share\": %.4f, \"bytes\": %lld, \"bytes_share\": %.4f}",
		       c->callers[i].calls,
		       context_share(c->callers[i].calls, c->calls) / 100,
		       c->callers[i].bytes,
		       context_share(c->callers[i].bytes, c->bytes) / 100);
	}
	fputs(c->nr ? "\n ]}\n" : "]}\n", stdout);
}

static void context_print(struct context *c, const char *sel, bool json)
{
	size_t i;

	if (c->nr)
		qsort(c->callers, c->nr, sizeof(*c->callers), context_cmp);
	if (json) {
		context_json(c, sel);
		return;
	}
	text_stdout();
	printf("# allocinfo-ext context %s: %zu stacks, %zu callers, %lld calls, %lld bytes\n",
	       sel, c->stacks, c->nr, c->calls, c->bytes);
	printf("#%13s %7s %15s %7s %s\n", "calls", "calls%", "bytes",
	       "bytes%", "caller");
	for (i = 0; i < c->nr; i++)
		printf("%14lld %6.2f%% %15lld %6.2f%% %s\n", c->callers[i].calls,
		       context_share(c->callers[i].calls, c->calls),
		       c->callers[i].bytes,
		       context_share(c->callers[i].bytes, c->bytes),
		       c->callers[i].name);
}

/* "capture SEL DEPTH", @seconds, "capture off". */
static int context_capture(const char *sel, unsigned int depth,
			   unsigned int seconds)
{
	char *word = xasprintf("capture %s %u", sel, depth);
	struct control ctl;
	int ret = -1;

	if (control_open(&ctl, NULL))
		goto out;
	if (!control_write(&ctl, word)) {
		sleep(seconds);
		ret = control_write(&ctl, "capture off");
	}
	control_close(&ctl);
out:
	free(word);
	return ret;
}

const struct cmd_option context_options[] = {
	CMD_LETTER('d', "capture for SEC seconds first (needs root)"),
	CMD_LONG('D', "depth", "N",
		 "frames per stack for -d, 1..16 (default 8)"),
	CMD_LONG('s', "stacks", "FILE",
		 "bytes per stack (default /proc/" AIE_STACKS_PROC_NAME ")"),
	CMD_LONG('c', "calls", "FILE",
		 "calls per stack (default /proc/" AIE_STACKS_CALLS_PROC_NAME ")"),
	CMD_LETTER('j', "the callers as JSON (shares from 0 to 1)"),
	{ 0 },
};

static void context_usage(FILE *f)
{
	cmd_usage_head(f, "context");
	fprintf(f, "Who calls the sites SEL selects: calls and bytes per caller, and their\n"
		"share, from the stacks a capture recorded (ctl capture SEL [DEPTH]).\n"
		"SEL: all | func:NAME | [MODULE] | FUNC+0xOFF | FILE:LINE; the last two\n"
		"take every stack recorded.\n\n");
	cmd_options(f, "context");
	fprintf(f, "Examples:\n"
		"  allocinfo-ext context -d 10 func:xas_alloc\n"
		"  allocinfo-ext ctl capture func:xas_alloc 4; sleep 60; allocinfo-ext context func:xas_alloc\n");
}

int cmd_context(int argc, char **argv)
{
	const char *stacks = "/proc/" AIE_STACKS_PROC_NAME;
	const char *calls = "/proc/" AIE_STACKS_CALLS_PROC_NAME;
	long long seconds = -1, depth = AIE_CAPTURE_DEPTH_DEFAULT;
	struct context c = { 0 };
	struct aie_cmd cmd;
	char *word;
	int opt, ret = AIE_EXIT_FAIL;
	bool json = false;
	size_t i;

	while ((opt = cmd_getopt(argc, argv)) != -1) {
		if (opt == 'd' && parse_ll(optarg, &seconds) && seconds >= 0) {
			continue;
		} else if (opt == 'D' && parse_ll(optarg, &depth) && depth >= 1 &&
			   depth <= AIE_CAPTURE_DEPTH_MAX) {
			continue;
		} else if (opt == 's') {
			stacks = optarg;
		} else if (opt == 'c') {
			calls = optarg;
		} else if (opt == 'j') {
			json = true;
		} else if (opt == 'h') {
			context_usage(stdout);
			return 0;
		} else {
			if (opt == 'd' || opt == 'D')
				aie_err("bad %s \"%s\"", opt == 'd' ? "duration" : "depth",
					optarg);
			return cmd_usage_error(argv[0]);
		}
	}
	if (argc - optind != 1) {
		aie_err("context takes one selector");
		return cmd_usage_error(argv[0]);
	}
	word = xasprintf("capture %s", argv[optind]);
	if (strchr(argv[optind], ' ') ||
	    aie_ctl_parse(word, strlen(word), &cmd) ||
	    cmd.verb != AIE_CMD_CAPTURE) {
		aie_err("bad selector \"%s\": expected all, func:NAME, [MODULE], FUNC+0xOFF or FILE:LINE",
			argv[optind]);
		free(word);
		return cmd_usage_error(argv[0]);
	}
	free(word);
	c.sel = cmd.sel;
	if ((seconds < 0 || !context_capture(argv[optind], depth, seconds)) &&
	    !context_read(&c, stacks, false) && !context_read(&c, calls, true)) {
		context_print(&c, argv[optind], json);
		ret = stdout_close() ? AIE_EXIT_FAIL : 0;
	}
	for (i = 0; i < c.nr; i++)
		free(c.callers[i].name);
	free(c.callers);
	return ret;
}
