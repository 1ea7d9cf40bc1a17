// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_fuzz_test - 10,000 random, malformed and well-formed control writes,
 * one after another, then more from four writers at once.
 *
 * The oracle is the module's own parser (module/lib/ctl.c, compiled in) and a
 * model of the rule list (module/core/rules.c's rules: the last matching rule
 * wins, a selector replaces its own older rule, "all" resets the list, at
 * most AIE_MAX_RULES; "capture" words leave the rules alone). Every write
 * must fail with EINVAL exactly when the parser rejects it, and otherwise
 * do what the model says; at the end two helper sites must be enabled or
 * disabled, and located, as the model has them, and record allocations
 * accordingly.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "ctl.h"

#define WRITES		10000
#define WRITERS		4
#define WRITER_WRITES	500

/* The two helper sites the rules are aimed at. */
struct site {
	const char *func;
	unsigned long offset;
	char location[AIE_NAME_MAX];
	char src[AIE_NAME_MAX];	/* the function "locate" named, or "" */
};

struct model {
	unsigned int nr;
	struct aie_sel sel[AIE_MAX_RULES];
	bool disable[AIE_MAX_RULES];
	struct site site[2];
};

static __u64 rnd(__u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static bool sel_matches(const struct aie_sel *sel, const struct site *site)
{
	switch (sel->kind) {
	case AIE_SEL_ALL:
		return true;
	case AIE_SEL_FUNC:
		return !strcmp(sel->name, site->func) ||
		       (site->location[0] && !strcmp(sel->name, site->src));
	case AIE_SEL_MODULE:
		return !strcmp(sel->name, "aie_helper");
	case AIE_SEL_FUNC_OFF:
		return !strcmp(sel->name, site->func) &&
		       sel->offset == site->offset;
	case AIE_SEL_FILE_LINE:
		return site->location[0] && !strcmp(sel->name, site->location);
	}
	return false;
}

static bool model_disabled(const struct model *m, const struct site *site)
{
	int i;

	for (i = (int)m->nr - 1; i >= 0; i--) {
		if (sel_matches(&m->sel[i], site))
			return m->disable[i];
	}
	return false;
}

/* What the module must answer to @cmd, applied to the model. */
static int model_apply(struct model *m, const struct aie_cmd *cmd)
{
	unsigned int i, n = 0;
	int found = 0;

	switch (cmd->verb) {
	case AIE_CMD_RESET:
	case AIE_CMD_SAMPLE:
	case AIE_CMD_CAPTURE:
	case AIE_CMD_CAPTURE_OFF:
		return 0;
	case AIE_CMD_LOCATE:
		for (i = 0; i < 2; i++) {
			if (sel_matches(&cmd->sel, &m->site[i])) {
				snprintf(m->site[i].location,
					 sizeof(m->site[i].location), "%s",
					 cmd->loc.name);
				snprintf(m->site[i].src,
					 sizeof(m->site[i].src), "%s",
					 cmd->func);
				found = 1;
			}
		}
		return found ? 0 : -ENOENT;
	default:
		break;
	}
	if (cmd->sel.kind == AIE_SEL_ALL) {
		m->nr = 0;
		if (cmd->verb == AIE_CMD_ENABLE)
			return 0;
	}
	for (i = 0; i < m->nr; i++)
		n += !aie_sel_equal(&m->sel[i], &cmd->sel);
	if (n == AIE_MAX_RULES)
		return -ENOSPC;
	for (i = 0, n = 0; i < m->nr; i++) {
		if (aie_sel_equal(&m->sel[i], &cmd->sel))
			continue;
		m->sel[n] = m->sel[i];
		m->disable[n++] = m->disable[i];
	}
	m->sel[n] = cmd->sel;
	m->disable[n] = cmd->verb == AIE_CMD_DISABLE;
	m->nr = n + 1;
	return 0;
}

/* A well-formed command, most of them aimed at the two sites. */
static size_t gen_valid(__u64 *s, const struct model *m, char *buf)
{
	const struct site *a = &m->site[rnd(s) % 2];
	static const char * const verbs[] = { "enable", "disable" };
	char sel[300];
	unsigned int n;

	switch (rnd(s) % 10) {
	case 0:
		snprintf(sel, sizeof(sel), "all");
		break;
	case 1:
		snprintf(sel, sizeof(sel), "func:%s", a->func);
		break;
	case 2:
		snprintf(sel, sizeof(sel), "func:not_%s", a->func);
		break;
	case 3:
		snprintf(sel, sizeof(sel), "[aie_helper]");
		break;
	case 4:
		snprintf(sel, sizeof(sel), "[other_mod]");
		break;
	case 5:
		snprintf(sel, sizeof(sel), "%s+0x%lx", a->func, a->offset);
		break;
	case 6:
		snprintf(sel, sizeof(sel), "%s+0x%lx", a->func, a->offset + 1);
		break;
	case 7:
		snprintf(sel, sizeof(sel), "x/aie.c:%d", (int)(rnd(s) % 3) + 1);
		break;
	case 8:
		if (rnd(s) % 3 == 0)
			return sprintf(buf, "capture off");
		if (rnd(s) % 2)
			return sprintf(buf, "capture func:%s", a->func);
		return sprintf(buf, "capture [aie_helper] %d",
			       (int)(rnd(s) % 18));	/* 0 and 17: refused */
	default:
		if (rnd(s) % 2)
			return sprintf(buf, "reset");
		/* with no function or "src_<its symbol>", one per site */
		n = rnd(s) % 2;
		return sprintf(buf, "locate %s+0x%lx x/aie.c:%d%s%s", a->func,
			       a->offset + (unsigned long)(rnd(s) % 2),
			       (int)(rnd(s) % 3) + 1, n ? " src_" : "",
			       n ? a->func : "");
	}
	return sprintf(buf, "%s %s%s", verbs[rnd(s) % 2], sel,
		       rnd(s) % 4 ? "" : "\n");
}

/* A write: random bytes, a valid command, or a mutated one. */
static size_t gen(__u64 *s, const struct model *m, char *buf)
{
	size_t len, i, n = rnd(s) % 10;

	if (n < 3) {
		len = rnd(s) % 80;
		for (i = 0; i < len; i++)
			buf[i] = rnd(s);
		return len;
	}
	len = gen_valid(s, m, buf);
	if (n < 6)
		return len;
	i = len ? rnd(s) % len : 0;
	switch (rnd(s) % 5) {
	case 0:		/* flip */
		buf[i] = rnd(s);
		return len;
	case 1:		/* insert */
		memmove(buf + i + 1, buf + i, len - i);
		buf[i] = " :+x0[]\n\t"[rnd(s) % 9];
		return len + 1;
	case 2:		/* delete */
		memmove(buf + i, buf + i + 1, len - i);
		return len ? len - 1 : 0;
	case 3:		/* truncate */
		return i;
	default:	/* overlong */
		memset(buf + len, 'a', 600 - len);
		return 600;
	}
}

/* The answer a write must get, and the model after it. */
static int expect(struct model *m, const char *buf, size_t len)
{
	static struct aie_cmd cmd;

	if (len >= AIE_CTL_MAX_LEN || aie_ctl_parse(buf, len, &cmd))
		return -EINVAL;
	return model_apply(m, &cmd);
}

static int site_offset(const char *func, unsigned long *offset)
{
	struct aie_row r;
	char *plus;

	if (aie_row_get("aie_helper", func, &r) != 1)
		return -ENOENT;
	plus = strchr(r.location, '+');
	return plus && sscanf(plus, "+0x%lx", offset) == 1 ? 0 : -EINVAL;
}

FIXTURE(fuzz) {
	struct model m;
};

FIXTURE_SETUP(fuzz)
{
	int i;

	if (aie_setup_or_skip(_metadata, NULL))
		return;
	memset(&self->m, 0, sizeof(self->m));
	self->m.site[0].func = "aie_helper_kmalloc_96";
	self->m.site[1].func = "aie_helper_kmalloc_97";
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 1"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc97 1"));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, site_offset(self->m.site[i].func,
					 &self->m.site[i].offset));
}

FIXTURE_TEARDOWN(fuzz)
{
	aie_teardown();
}

/* The sites are as the model has them, and record allocations so. */
static void check_sites(struct __test_metadata *_metadata, struct model *m)
{
	static const char * const kinds[] = { "kmalloc96", "kmalloc97" };
	struct aie_row before, after;
	const char *func;
	bool off;
	int i;

	for (i = 0; i < 2; i++) {
		off = model_disabled(m, &m->site[i]);
		/* The row names the function "locate" named, if any */
		func = m->site[i].src[0] ? m->site[i].src : m->site[i].func;
		ASSERT_EQ(1, aie_row_get("aie_helper", func, &before));
		EXPECT_EQ(off, before.disabled) TH_LOG("%s", func);
		if (m->site[i].location[0])
			EXPECT_STREQ(m->site[i].location, before.location);
		ASSERT_EQ(0, aie_helper("alloc %s 1", kinds[i]));
		ASSERT_EQ(1, aie_row_get("aie_helper", func, &after));
		EXPECT_EQ(before.calls + !off, after.calls) TH_LOG("%s", func);
	}
}

TEST_F_TIMEOUT(fuzz, ten_thousand_writes, 900)
{
	char buf[700];
	__u64 s = 0x9e3779b97f4a7c15ULL;
	int i, want, got, accepted = 0;
	size_t len;

	for (i = 0; i < WRITES; i++) {
		len = gen(&s, &self->m, buf);
		want = expect(&self->m, buf, len);
		got = aie_ctl_len(buf, len);
		ASSERT_EQ(want, got) TH_LOG("write %d: \"%.*s\"", i, (int)len, buf);
		accepted += want != -EINVAL;
	}
	TH_LOG("%d of %d writes accepted", accepted, WRITES);
	EXPECT_LT(WRITES / 5, accepted);
	EXPECT_GT(WRITES - WRITES / 5, accepted);
	check_sites(_metadata, &self->m);
}

struct writer {
	__u64 seed;
	int bad;		/* answers the parser does not explain */
	const struct model *m;
};

static void *write_loop(void *arg)
{
	struct writer *w = arg;
	struct model scratch = *w->m;
	struct aie_cmd cmd;
	char buf[700];
	size_t len;
	int i, got, rejected;

	for (i = 0; i < WRITER_WRITES; i++) {
		len = gen(&w->seed, &scratch, buf);
		rejected = len >= AIE_CTL_MAX_LEN ||
			   aie_ctl_parse(buf, len, &cmd);
		got = aie_ctl_len(buf, len);
		if (rejected ? got != -EINVAL :
		    got && got != -ENOENT && got != -ENOSPC)
			w->bad++;
	}
	return NULL;
}

/*
 * Writers at once: the order of their rules is the scheduler's, so each
 * answer is checked against the parser alone; then "enable all" must
 * leave both sites recording, and locating them again without a function
 * must give them back their names.
 */
TEST_F_TIMEOUT(fuzz, concurrent_writers, 900)
{
	struct writer w[WRITERS];
	pthread_t t[WRITERS];
	int i;

	for (i = 0; i < WRITERS; i++) {
		w[i] = (struct writer){ .seed = 0x1234567ULL * (i + 1),
					.m = &self->m };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, write_loop, &w[i]));
	}
	for (i = 0; i < WRITERS; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_EQ(0, w[i].bad) TH_LOG("writer %d", i);
	}
	ASSERT_EQ(0, aie_ctl("enable all"));
	self->m.nr = 0;
	for (i = 0; i < 2; i++) {
		struct site *st = &self->m.site[i];
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "locate %s+0x%lx x/aie.c:1",
			 st->func, st->offset);
		ASSERT_EQ(0, aie_ctl(cmd));
		snprintf(st->location, sizeof(st->location), "x/aie.c:1");
	}
	check_sites(_metadata, &self->m);
}

TEST_HARNESS_MAIN
