// SPDX-License-Identifier: GPL-2.0
/*
 * ctl.c - parser for the control words written to /proc/allocinfo_ext:
 *
 *	enable <sel> | disable <sel> | reset
 *	| locate <function>+0x<off> <file>:<line> [<function>]
 *	| sample <bytes> | capture <sel> [<depth>] | capture off
 *	| cgroups on | cgroups off
 *	<sel> := all | func:<name> | [<module>] | <function>+0x<off> | <file>:<line>
 *	<depth> := 1..16 in decimal, no leading zero (default 8)
 *
 * One command per write; words are separated by single spaces; a single
 * trailing newline is allowed. Anything else is rejected whole. Pure C,
 * no allocation: buildable in userspace (ctl_fuzz_test).
 *
 * Notes on locking
 * ----------------
 * None: the parser reads its input and writes its output, both the
 * caller's, and shares nothing; callable in any context.
 */

#ifdef __KERNEL__
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "ctl.h"

#define AIE_WORDS_MAX	4

struct aie_word {
	const char *s;
	size_t len;
};

/* Test for a decimal digit. */
static bool aie_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Test for a letter or '_'. */
static bool aie_is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Convert a hex digit to its value; -1 for another character. */
static int aie_hex_value(char c)
{
	if (aie_is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Test whether @w is the word @lit. */
static bool aie_word_is(const struct aie_word *w, const char *lit)
{
	return w->len == strlen(lit) && !memcmp(w->s, lit, w->len);
}

/* Test for a symbol: a C identifier, '.' and '$' allowed too (foo.cold). */
static bool aie_is_symbol(const char *s, size_t len)
{
	size_t i;

	if (!len || !aie_is_alpha(s[0]))
		return false;
	for (i = 1; i < len; i++) {
		if (!aie_is_alpha(s[i]) && !aie_is_digit(s[i]) &&
		    s[i] != '.' && s[i] != '$')
			return false;
	}
	return true;
}

/* Test for a module name: letters, digits, '_' and '-'. */
static bool aie_is_module_name(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if (!aie_is_alpha(s[i]) && !aie_is_digit(s[i]) && s[i] != '-')
			return false;
	}
	return true;
}

/* Test for a source path: letters, digits, '_' and "./+-". */
static bool aie_is_path(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if (!aie_is_alpha(s[i]) && !aie_is_digit(s[i]) &&
		    !strchr("./+-", s[i]))
			return false;
	}
	return true;
}

/* Copy a name of @len bytes into @sel, NUL-terminated. */
static void aie_sel_set_name(struct aie_sel *sel, const char *s, size_t len)
{
	memcpy(sel->name, s, len);
	sel->name[len] = '\0';
}

/* Parse "0x" and 1 to 16 hex digits, making up the whole of s[0..len). */
static bool aie_parse_hex(const char *s, size_t len, unsigned long *val)
{
	size_t i;

	if (len < 3 || len > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	*val = 0;
	for (i = 2; i < len; i++) {
		if (aie_hex_value(s[i]) < 0)
			return false;
		*val = (*val << 4) | aie_hex_value(s[i]);
	}
	return true;
}

/* Check a line number: 1 to 9 decimal digits, no leading zero. */
static bool aie_parse_line(const char *s, size_t len)
{
	size_t i;

	if (!len || len > 9 || s[0] == '0')
		return false;
	for (i = 0; i < len; i++) {
		if (!aie_is_digit(s[i]))
			return false;
	}
	return true;
}

/* Parse 0, or a decimal number without leading zero, at most @max. */
static bool aie_parse_dec(const char *s, size_t len, unsigned long max,
			  unsigned long *val)
{
	size_t i;

	if (!len || len > 10 || (s[0] == '0' && len > 1))
		return false;
	*val = 0;
	for (i = 0; i < len; i++) {
		if (!aie_is_digit(s[i]))
			return false;
		*val = *val * 10 + (s[i] - '0');
	}
	return *val <= max;
}

/* Parse a capture depth: 1 to AIE_CAPTURE_DEPTH_MAX, no leading zero. */
static bool aie_parse_depth(const struct aie_word *w, unsigned int *depth)
{
	unsigned long v;

	if (!aie_parse_dec(w->s, w->len, AIE_CAPTURE_DEPTH_MAX, &v) || !v)
		return false;
	*depth = v;
	return true;
}

/* Parse a <function>+0x<off> selector. */
static bool aie_parse_func_off(const struct aie_word *w, struct aie_sel *sel)
{
	const char *plus = memchr(w->s, '+', w->len);
	size_t flen = plus ? (size_t)(plus - w->s) : 0;

	if (!plus || !aie_is_symbol(w->s, flen) ||
	    !aie_parse_hex(plus + 1, w->len - flen - 1, &sel->offset))
		return false;
	sel->kind = AIE_SEL_FUNC_OFF;
	aie_sel_set_name(sel, w->s, flen);
	return true;
}

/* Parse a <file>:<line> selector. */
static bool aie_parse_file_line(const struct aie_word *w, struct aie_sel *sel)
{
	const char *colon = memchr(w->s, ':', w->len);
	size_t flen = colon ? (size_t)(colon - w->s) : 0;

	if (!colon || !aie_is_path(w->s, flen) ||
	    !aie_parse_line(colon + 1, w->len - flen - 1))
		return false;
	sel->kind = AIE_SEL_FILE_LINE;
	aie_sel_set_name(sel, w->s, w->len);
	return true;
}

/* Parse a selector: all, func:<name>, [<module>], or the two above. */
static bool aie_parse_sel(const struct aie_word *w, struct aie_sel *sel)
{
	memset(sel, 0, sizeof(*sel));
	if (aie_word_is(w, "all")) {
		sel->kind = AIE_SEL_ALL;
		return true;
	}
	if (w->len > 5 && !memcmp(w->s, "func:", 5) &&
	    aie_is_symbol(w->s + 5, w->len - 5)) {
		sel->kind = AIE_SEL_FUNC;
		aie_sel_set_name(sel, w->s + 5, w->len - 5);
		return true;
	}
	if (w->len > 2 && w->s[0] == '[' && w->s[w->len - 1] == ']' &&
	    aie_is_module_name(w->s + 1, w->len - 2)) {
		sel->kind = AIE_SEL_MODULE;
		aie_sel_set_name(sel, w->s + 1, w->len - 2);
		return true;
	}
	return aie_parse_func_off(w, sel) || aie_parse_file_line(w, sel);
}

/* Split into words at single spaces; every byte must be printable. */
static const char *aie_split(const char *buf, size_t len,
			     struct aie_word *words, int *nr)
{
	size_t i, start = 0;

	*nr = 0;
	for (i = 0; i <= len; i++) {
		if (i < len && buf[i] != ' ') {
			if (buf[i] <= ' ' || buf[i] > '~')
				return "unprintable byte";
			continue;
		}
		if (i == start)
			return "empty word";
		if (*nr == AIE_WORDS_MAX)
			return "too many words";
		words[*nr].s = buf + start;
		words[(*nr)++].len = i - start;
		start = i + 1;
	}
	return NULL;
}

/* Parse "capture off", or "capture <sel> [<depth>]". */
static const char *aie_parse_capture(const struct aie_word *w, int nr,
				     struct aie_cmd *cmd)
{
	if (nr == 2 && aie_word_is(&w[1], "off")) {
		cmd->verb = AIE_CMD_CAPTURE_OFF;
		return NULL;
	}
	cmd->verb = AIE_CMD_CAPTURE;
	cmd->depth = AIE_CAPTURE_DEPTH_DEFAULT;
	if (nr < 2 || nr > 3)
		return "expected a selector and a depth, or off";
	if (!aie_parse_sel(&w[1], &cmd->sel))
		return "bad selector";
	if (nr == 3 && !aie_parse_depth(&w[2], &cmd->depth))
		return "depth must be 1 to 16";
	return NULL;
}

/**
 * aie_ctl_parse() - Parse one control word.
 * @buf: what was written, not NUL-terminated.
 * @len: its length, a trailing newline included.
 * @cmd: where to put the command.
 *
 * Context: Any context; never sleeps, never allocates.
 * Return: NULL on success, else a short reason for the rejection.
 */
const char *aie_ctl_parse(const char *buf, size_t len, struct aie_cmd *cmd)
{
	struct aie_word w[AIE_WORDS_MAX];
	const char *err;
	int nr;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return "empty";
	if (len >= AIE_CTL_MAX_LEN)
		return "too long";
	err = aie_split(buf, len, w, &nr);
	if (err)
		return err;

	memset(cmd, 0, sizeof(*cmd));
	if (aie_word_is(&w[0], "reset")) {
		cmd->verb = AIE_CMD_RESET;
		return nr == 1 ? NULL : "reset takes no argument";
	}
	if (aie_word_is(&w[0], "enable") || aie_word_is(&w[0], "disable")) {
		cmd->verb = w[0].s[0] == 'e' ? AIE_CMD_ENABLE : AIE_CMD_DISABLE;
		if (nr != 2)
			return "expected one selector";
		return aie_parse_sel(&w[1], &cmd->sel) ? NULL : "bad selector";
	}
	if (aie_word_is(&w[0], "locate")) {
		cmd->verb = AIE_CMD_LOCATE;
		if (nr < 3 || nr > 4 || !aie_parse_func_off(&w[1], &cmd->sel))
			return "expected <function>+0x<off> <file>:<line> [<function>]";
		if (!aie_parse_file_line(&w[2], &cmd->loc))
			return "expected <file>:<line>";
		if (nr == 3)
			return NULL;
		if (!aie_is_symbol(w[3].s, w[3].len))
			return "expected a function name";
		memcpy(cmd->func, w[3].s, w[3].len);
		cmd->func[w[3].len] = '\0';
		return NULL;
	}
	if (aie_word_is(&w[0], "cgroups")) {
		cmd->verb = AIE_CMD_CGROUPS;
		if (nr != 2 || (!aie_word_is(&w[1], "on") &&
				!aie_word_is(&w[1], "off")))
			return "expected on or off";
		cmd->bytes = aie_word_is(&w[1], "on");
		return NULL;
	}
	if (aie_word_is(&w[0], "sample")) {
		cmd->verb = AIE_CMD_SAMPLE;
		if (nr != 2 || !aie_parse_dec(w[1].s, w[1].len,
					      AIE_SAMPLE_MAX_BYTES, &cmd->bytes))
			return "expected bytes per sample, 0 to 1073741824";
		return NULL;
	}
	if (aie_word_is(&w[0], "capture"))
		return aie_parse_capture(w, nr, cmd);
	return "unknown command";
}

/**
 * aie_sel_equal() - Test whether two selectors are the same.
 * @a: a selector.
 * @b: another.
 *
 * Context: Any context.
 * Return: true when they select the same way with the same name and
 * offset.
 */
bool aie_sel_equal(const struct aie_sel *a, const struct aie_sel *b)
{
	return a->kind == b->kind && a->offset == b->offset &&
	       !strcmp(a->name, b->name);
}
