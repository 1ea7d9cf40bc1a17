// SPDX-License-Identifier: GPL-2.0
/*
 * control.c - `allocinfo-ext ctl`, and the control writes that annotate
 * makes: one command per write() to /proc/allocinfo_ext, each errno
 * turned into a sentence.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "allocinfo_ext.h"
#include "cmd.h"
#include "control.h"
#include "ctl.h"
#include "table.h"
#include "util.h"

int control_open(struct control *c, const char *path)
{
	c->path = path ? path : AIE_PROC_EXT;
	c->fd = open(c->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (c->fd >= 0)
		return 0;
	if (errno == ENOENT)
		aie_err("%s does not exist: is the allocinfo_ext module loaded? (insmod allocinfo_ext.ko)",
			c->path);
	else if (errno == EACCES || errno == EPERM)
		aie_err("cannot open %s for writing: permission denied (control writes need root)",
			c->path);
	else
		aie_err("cannot open %s for writing: %s", c->path, strerror(errno));
	return -1;
}

void control_close(struct control *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

const char *control_check(const char *word)
{
	static struct aie_cmd cmd;

	return aie_ctl_parse(word, strlen(word), &cmd);
}

static void control_explain(const struct control *c, const char *word, int err)
{
	switch (err) {
	case EINVAL:
		aie_err("%s rejected \"%s\" as malformed (the kernel log says why)",
			c->path, word);
		break;
	case EPERM:
	case EACCES:
		aie_err("%s refused \"%s\": control writes need CAP_SYS_ADMIN (run as root)",
			c->path, word);
		break;
	case ENOSPC:
		aie_err("%s refused \"%s\": the rule list is full (at most %d rules; \"enable all\" removes them all)",
			c->path, word, AIE_MAX_RULES);
		break;
	case ENOENT:
		aie_err("%s refused \"%s\": no site matches it (is the site in the table yet?)",
			c->path, word);
		break;
	case ENOMEM:
		aie_err("%s refused \"%s\": the kernel is out of memory", c->path, word);
		break;
	default:
		aie_err("writing \"%s\" to %s failed: %s", word, c->path,
			strerror(err));
	}
}

int control_write(struct control *c, const char *word)
{
	const char *why = control_check(word);
	size_t len = strlen(word);
	ssize_t n;

	if (why) {
		aie_err("invalid control word \"%s\": %s", word, why);
		return -1;
	}
	n = write(c->fd, word, len);
	if (n == (ssize_t)len)
		return 0;
	control_explain(c, word, n < 0 ? errno : EIO);
	return -1;
}

const struct cmd_option ctl_options[] = {
	CMD_LONG('N', "dry-run", NULL,
		 "only check the command, as the module would"),
	CMD_LONG('P', "proc", "FILE",
		 "write to FILE instead of /proc/allocinfo_ext"),
	{ 0 },
};

static void ctl_usage(FILE *f)
{
	cmd_usage_head(f, "ctl");
	fprintf(f, "Write one control command to /proc/allocinfo_ext (root only):\n"
		"  enable SEL | disable SEL    append a rule; the last matching rule wins\n"
		"  reset                       zero total_calls, total_bytes, failed; restart peak\n"
		"  locate FUNC+0xOFF FILE:LINE [NAME]\n"
		"                              give that site a file:line (and the\n"
		"                              function NAME it is written in)\n"
		"  capture SEL [DEPTH]         record the call stacks of SEL's sites (1..16 frames)\n"
		"  capture off                 stop recording them\n"
		"  cgroups on | cgroups off    start or stop charging accounted allocations\n"
		"                              to their memory cgroup's rows, in\n"
		"                              /proc/allocinfo_ext_cgroups\n"
		"SEL: all | func:NAME | [MODULE] | FUNC+0xOFF | FILE:LINE\n\n");
	cmd_options(f, "ctl");
	fprintf(f, "Examples:\n"
		"  allocinfo-ext ctl disable '[nf_conntrack]'\n"
		"  allocinfo-ext ctl enable all\n"
		"  allocinfo-ext ctl locate alloc_pipe_info+0x1a2 fs/pipe.c:790\n");
}

/* The words of the command line, joined by single spaces. */
static char *ctl_join(int argc, char **argv)
{
	size_t len = 1;
	char *word;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	word = xcalloc(len, 1);
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(word, " ");
		strcat(word, argv[i]);
	}
	return word;
}

/* The word is checked before anything is opened: a typo needs no root. */
static int ctl_run(const char *path, const char *word, bool dry_run)
{
	const char *why = control_check(word);
	struct control c;
	int ret;

	if (why) {
		aie_err("invalid control word \"%s\": %s", word, why);
		return AIE_EXIT_FAIL;
	}
	if (dry_run) {
		printf("%s\n", word);
		return stdout_close() ? AIE_EXIT_FAIL : 0;
	}
	if (control_open(&c, path))
		return AIE_EXIT_FAIL;
	ret = control_write(&c, word) ? AIE_EXIT_FAIL : 0;
	control_close(&c);
	return ret;
}

int cmd_ctl(int argc, char **argv)
{
	const char *path = NULL;
	bool dry_run = false;
	char *word;
	int c, ret;

	while ((c = cmd_getopt(argc, argv)) != -1) {
		if (c == 'N') {
			dry_run = true;
		} else if (c == 'P') {
			path = optarg;
		} else if (c == 'h') {
			ctl_usage(stdout);
			return 0;
		} else {
			return cmd_usage_error(argv[0]);
		}
	}
	if (optind == argc) {
		aie_err("ctl needs a command: enable, disable, reset, locate, capture or cgroups");
		return cmd_usage_error(argv[0]);
	}
	word = ctl_join(argc - optind, argv + optind);
	ret = ctl_run(path, word, dry_run);
	free(word);
	return ret;
}
