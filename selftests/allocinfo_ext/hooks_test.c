// SPDX-License-Identifier: GPL-2.0
/*
 * hooks_test - the hooks= parameter: the allocators left out are not
 * hooked (absent in the stats file, no rows of their type), the slab is
 * hooked whatever the list says, and an unknown word fails the load with
 * EINVAL and one kernel log line naming it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"
#include "aie_expect.h"

#define AIE_HOOKS_PARAM	"/sys/module/allocinfo_ext/parameters/hooks"

/* The word after "@key " in the stats file, in @out; 0 or -1. */
static long long row_is_of_type(const struct aie_row *row, const void *type)
{
	return !strcmp(row->type, type);
}

/* Rows of @type in the whole table, whoever made them; -1 on error. */
static int rows_of_type(const char *type)
{
	return aie_sum_rows(row_is_of_type, type);
}

/* Lines of the kernel log that contain @s; -1 on error. */
static int log_lines_with(const char *s)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf, *line, *save;
	int n = 0, len;

	if (size <= 0)
		return -1;
	buf = malloc(size + 1);
	if (!buf)
		return -1;
	len = klogctl(3, buf, size);		/* SYSLOG_ACTION_READ_ALL */
	if (len < 0) {
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		n += !!strstr(line, s);
	free(buf);
	return n;
}

/* Each allocator's stats line says whether it is hooked. */
#define EXPECT_HOOK(_key, _state)					\
	do {								\
		const char *__k = (_key);				\
		char __w[32];						\
									\
		ASSERT_EQ(0, aie_stat_word(__k, __w, sizeof(__w)))		\
			TH_LOG("no %s line", __k);			\
		EXPECT_STREQ(_state, __w) TH_LOG("%s", __k);		\
	} while (0)

/* The helper allocates one of each kind: slab, pages, vmalloc, percpu. */
static int helper_alloc_each(void)
{
	static const char * const kinds[] = {
		"kmalloc96 3", "pages0 3", "vmalloc12288 2", "percpu40 5",
	};
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		ret = aie_helper("alloc %s", kinds[i]);
		if (ret)
			return ret;
	}
	return 0;
}

FIXTURE(hooks) {
	long long page;
	int cpus;
};

FIXTURE_SETUP(hooks)
{
	if (aie_skip_missing(_metadata))
		return;
	self->page = sysconf(_SC_PAGESIZE);
	self->cpus = aie_possible_cpus();
	ASSERT_LT(0, self->cpus);
	aie_teardown();
}

FIXTURE_TEARDOWN(hooks)
{
	aie_teardown();
}

TEST_F(hooks, default_hooks_all)
{
	char *param;

	ASSERT_EQ(0, aie_setup(NULL));
	param = aie_read_file(AIE_HOOKS_PARAM);
	ASSERT_NE(NULL, param);
	EXPECT_STREQ("slab,page,vmalloc,percpu\n", param);
	free(param);
	EXPECT_HOOK("page_hooks", "present");
	EXPECT_HOOK("vmalloc_hooks", "present");
	EXPECT_HOOK("percpu_hooks", "present");
}

/* hooks=slab: only slab allocations make rows. */
TEST_F(hooks, slab_only)
{
	struct aie_row r;
	char *param;

	ASSERT_EQ(0, aie_setup("hooks=slab"));
	param = aie_read_file(AIE_HOOKS_PARAM);
	ASSERT_NE(NULL, param);
	EXPECT_STREQ("slab\n", param);
	free(param);
	EXPECT_HOOK("page_hooks", "absent");
	EXPECT_HOOK("vmalloc_hooks", "absent");
	EXPECT_HOOK("percpu_hooks", "absent");
	EXPECT_HOOK("probe_missed", "0");

	ASSERT_EQ(0, helper_alloc_each());
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_96",
				      "slab", &r));
	EXPECT_EQ(3ULL, r.calls);
	EXPECT_EQ(3, r.total_calls);
	EXPECT_EQ(0, rows_of_type("page"));
	EXPECT_EQ(0, rows_of_type("vmalloc"));
	EXPECT_EQ(0, rows_of_type("percpu"));
	EXPECT_EQ(0, aie_row_get("aie_helper", "aie_helper_pages0", &r));
	EXPECT_EQ(0, aie_row_get("aie_helper", "aie_helper_vmalloc_12288", &r));
	EXPECT_EQ(0, aie_row_get("aie_helper", "aie_helper_percpu_40", &r));
	ASSERT_EQ(0, aie_helper("free all"));
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_96",
				      "slab", &r));
	EXPECT_EQ(0ULL, r.calls);
}

/* An empty list is slab alone, as slab is always hooked. */
TEST_F(hooks, empty_list_is_slab)
{
	struct aie_row r;

	ASSERT_EQ(0, aie_setup("hooks="));
	EXPECT_HOOK("page_hooks", "absent");
	EXPECT_HOOK("vmalloc_hooks", "absent");
	EXPECT_HOOK("percpu_hooks", "absent");
	ASSERT_EQ(0, helper_alloc_each());
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_96",
				      "slab", &r));
	EXPECT_EQ(3ULL, r.calls);
	EXPECT_EQ(0, rows_of_type("page"));
	EXPECT_EQ(0, rows_of_type("vmalloc"));
	EXPECT_EQ(0, rows_of_type("percpu"));
}

/* A subset: page and percpu hooked, vmalloc not; slab without asking. */
TEST_F(hooks, page_and_percpu)
{
	long long pcpu = 40LL * self->cpus;
	struct aie_row r;

	ASSERT_EQ(0, aie_setup("hooks=page,percpu"));
	EXPECT_HOOK("page_hooks", "present");
	EXPECT_HOOK("vmalloc_hooks", "absent");
	EXPECT_HOOK("percpu_hooks", "present");

	ASSERT_EQ(0, helper_alloc_each());
	ASSERT_EQ(1, aie_row_get_type("aie_helper", "aie_helper_kmalloc_96",
				      "slab", &r));
	EXPECT_EQ(3ULL, r.calls);
	EXPECT_ROW("aie_helper_pages0", "page", 3, 3 * self->page, 0, 3,
		   3 * self->page, 3 * self->page, 0);
	EXPECT_ROW("aie_helper_percpu_40", "percpu", 5, 5 * pcpu, 0, 5,
		   5 * pcpu, 5 * pcpu, 0);
	EXPECT_EQ(0, rows_of_type("vmalloc"));
	EXPECT_EQ(0, aie_row_get("aie_helper", "aie_helper_vmalloc_12288", &r));
}

TEST_F(hooks, unknown_word_refused)
{
	int before = log_lines_with("unknown allocator 'bogus'");

	ASSERT_LE(0, before);
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "hooks=bogus"));
	EXPECT_FALSE(aie_module_loaded("allocinfo_ext"));
	EXPECT_EQ(before + 1, log_lines_with("unknown allocator 'bogus'"));

	/* One bad word among good ones, and a near miss. */
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "hooks=slab,bogus,page"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "hooks=pages"));
	EXPECT_EQ(-EINVAL, aie_load(AIE_MODULE_KO, "hooks=slab+page"));
	EXPECT_FALSE(aie_module_loaded("allocinfo_ext"));
	EXPECT_EQ(before + 2, log_lines_with("unknown allocator 'bogus'"));
}

TEST_HARNESS_MAIN
