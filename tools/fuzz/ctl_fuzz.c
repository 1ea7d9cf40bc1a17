// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_fuzz - libFuzzer harness for the control-word parser, module/lib/ctl.c,
 * compiled here unchanged. Besides not crashing (under ASan and UBSan), a
 * command the parser accepts must read back as itself: printed in its
 * canonical form and parsed again, it is the same command (a capture's
 * depth, 1 to 16, printed too, default or not).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

static int sel_print(char *buf, size_t len, const struct aie_sel *sel)
{
	switch (sel->kind) {
	case AIE_SEL_ALL:
		return snprintf(buf, len, "all");
	case AIE_SEL_FUNC:
		return snprintf(buf, len, "func:%s", sel->name);
	case AIE_SEL_MODULE:
		return snprintf(buf, len, "[%s]", sel->name);
	case AIE_SEL_FUNC_OFF:
		return snprintf(buf, len, "%s+0x%lx", sel->name, sel->offset);
	case AIE_SEL_FILE_LINE:
		return snprintf(buf, len, "%s", sel->name);
	}
	abort();
}

static size_t cmd_print(char *buf, size_t len, const struct aie_cmd *cmd)
{
	static const char * const verbs[] = {
		[AIE_CMD_ENABLE] = "enable ", [AIE_CMD_DISABLE] = "disable ",
		[AIE_CMD_RESET] = "reset", [AIE_CMD_LOCATE] = "locate ",
		[AIE_CMD_SAMPLE] = "sample ",
		[AIE_CMD_CAPTURE] = "capture ",
		[AIE_CMD_CAPTURE_OFF] = "capture off",
		[AIE_CMD_CGROUPS] = "cgroups ",
	};
	size_t n = snprintf(buf, len, "%s", verbs[cmd->verb]);

	if (cmd->verb == AIE_CMD_RESET || cmd->verb == AIE_CMD_CAPTURE_OFF)
		return n;
	if (cmd->verb == AIE_CMD_SAMPLE)
		return n + snprintf(buf + n, len - n, "%lu", cmd->bytes);
	if (cmd->verb == AIE_CMD_CGROUPS)
		return n + snprintf(buf + n, len - n, "%s",
				    cmd->bytes ? "on" : "off");
	n += sel_print(buf + n, len - n, &cmd->sel);
	if (cmd->verb == AIE_CMD_CAPTURE) {
		if (cmd->depth < 1 || cmd->depth > AIE_CAPTURE_DEPTH_MAX)
			abort();
		n += snprintf(buf + n, len - n, " %u", cmd->depth);
	}
	if (cmd->verb == AIE_CMD_LOCATE) {
		n += snprintf(buf + n, len - n, " ");
		n += sel_print(buf + n, len - n, &cmd->loc);
		if (cmd->func[0])
			n += snprintf(buf + n, len - n, " %s", cmd->func);
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct aie_cmd cmd, again;
	static char text[2 * AIE_CTL_MAX_LEN];
	size_t n;

	if (aie_ctl_parse((const char *)data, size, &cmd))
		return 0;
	n = cmd_print(text, sizeof(text), &cmd);
	if (aie_ctl_parse(text, n, &again) || again.verb != cmd.verb ||
	    ((cmd.verb == AIE_CMD_SAMPLE || cmd.verb == AIE_CMD_CGROUPS) &&
	     cmd.bytes != again.bytes) ||
	    (cmd.verb != AIE_CMD_RESET && cmd.verb != AIE_CMD_CAPTURE_OFF &&
	     cmd.verb != AIE_CMD_SAMPLE && cmd.verb != AIE_CMD_CGROUPS &&
	     !aie_sel_equal(&cmd.sel, &again.sel)) ||
	    (cmd.verb == AIE_CMD_CAPTURE && cmd.depth != again.depth) ||
	    (cmd.verb == AIE_CMD_LOCATE &&
	     (!aie_sel_equal(&cmd.loc, &again.loc) ||
	      strcmp(cmd.func, again.func)))) {
		fprintf(stderr, "accepted \"%.*s\" reads back as \"%s\"\n",
			(int)size, (const char *)data, text);
		abort();
	}
	return 0;
}
