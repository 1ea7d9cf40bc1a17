// SPDX-License-Identifier: GPL-2.0
/*
 * query_test - `allocinfo-ext query`, which reads the rows of
 * /proc/allocinfo_ext through its ioctls (those of 7.3's /proc/allocinfo),
 * against the same query read as text: the same rows, byte for byte; the
 * kernel's own /proc/allocinfo likewise where it answers the ioctls (7.3),
 * else read as text; and its --bench, whose figures go to the log.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <allocinfo_ext_ioctl.h>

#include "kselftest_harness.h"
#include "aie_util.h"
#include "aie_setup.h"

#define TOOL	"./allocinfo-ext"
#define KM96	"aie_helper_kmalloc_96"

FIXTURE(query) {
	long long km96;		/* bytes of one kmalloc(96) */
};

FIXTURE_SETUP(query)
{
	if (aie_setup_or_skip(_metadata, NULL))
		return;
	ASSERT_EQ(0, access(TOOL, X_OK));
	self->km96 = aie_kmalloc_charge(96);
	ASSERT_LT(0, self->km96);
}

FIXTURE_TEARDOWN(query)
{
	aie_teardown();
}

/* The standard output of `TOOL query ARGS`, exit 0; NULL otherwise. */
static char *run_query(const char *args)
{
	char cmd[512], *out = calloc(1, 1 << 20);
	size_t len = 0, n;
	FILE *f;

	snprintf(cmd, sizeof(cmd), TOOL " query %s", args);
	f = popen(cmd, "r");
	if (!f || !out) {
		free(out);
		return NULL;
	}
	while (len < (1 << 20) - 1 &&
	       (n = fread(out + len, 1, (1 << 20) - 1 - len, f)) > 0)
		len += n;
	if (pclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * `allocinfo-ext query` prints the same rows through the ioctl as from
 * the text, byte for byte, for each filter and together (the helper's
 * rows, which do not change meanwhile), with a located site's file:line;
 * auto takes the ioctl.
 */
TEST_F(query, same_rows_both_ways)
{
	static const char * const filters[] = {
		"-m aie_helper", "--function " KM96, "-m aie_helper -j",
		"-m aie_helper --min-bytes %lld", "-m aie_helper --inaccurate",
		"-m aie_helper --function " KM96 " --min-bytes %lld -l 1",
	};
	char args[300], ways[400], want[300], sel[300], cmd[400], *slash;
	char *by_ioctl, *by_text;
	struct aie_row r;
	size_t i;

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	ASSERT_EQ(0, aie_helper("alloc kmalloc192 1"));
	ASSERT_EQ(1, aie_row_get("aie_helper", KM96, &r));
	slash = strchr(r.location, '/');
	ASSERT_NE(NULL, slash);
	snprintf(sel, sizeof(sel), "%.*s", (int)(slash - r.location),
		 r.location);
	snprintf(cmd, sizeof(cmd), "locate %s lib/aie_ioctl_test.c:4242", sel);
	ASSERT_EQ(0, aie_ctl(cmd));

	for (i = 0; i < ARRAY_SIZE(filters); i++) {
		snprintf(args, sizeof(args), filters[i], 3 * self->km96);
		snprintf(ways, sizeof(ways), "--via ioctl %s", args);
		by_ioctl = run_query(ways);
		snprintf(ways, sizeof(ways), "--via text %s", args);
		by_text = run_query(ways);
		ASSERT_NE(NULL, by_ioctl);
		ASSERT_NE(NULL, by_text);
		EXPECT_STREQ(by_text, by_ioctl)
			TH_LOG("query %s", args);
		if (i == 0) {
			EXPECT_EQ(aie_count_rows("aie_helper"),
				  count_lines(by_ioctl));
			snprintf(want, sizeof(want),
				 "%12lld %8d lib/aie_ioctl_test.c:4242 [aie_helper] func:%s\n",
				 3 * self->km96, 3, KM96);
			EXPECT_NE(NULL, strstr(by_ioctl, want));
		}
		if (strstr(args, "--inaccurate"))
			EXPECT_STREQ("", by_ioctl);
		if (strstr(args, "-l 1"))
			EXPECT_STREQ(want, by_ioctl);
		free(by_ioctl);
		free(by_text);
	}
	by_ioctl = run_query("-v -m aie_helper 2>&1 >/dev/null");
	ASSERT_NE(NULL, by_ioctl);
	EXPECT_NE(NULL, strstr(by_ioctl, "through the ioctl"));
	free(by_ioctl);
}

/*
 * The kernel's /proc/allocinfo (CONFIG_MEM_ALLOC_PROFILING): where it
 * answers the ioctls (7.3), the helper's rows through them equal the
 * text's and auto takes them; where it does not (-ENOTTY), auto reads the
 * text and --via ioctl fails.
 */
TEST_F(query, kernels_own_allocinfo)
{
	struct allocinfo_ext_content_id id;
	char *by_ioctl, *by_text, *how;
	bool ioc;
	int fd;

	fd = open("/proc/allocinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		SKIP(return, "no /proc/allocinfo");
	ioc = !ioctl(fd, AIE_IOC_CONTENT_ID, &id);
	close(fd);
	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	by_text = run_query("--via text -m aie_helper /proc/allocinfo");
	ASSERT_NE(NULL, by_text);
	EXPECT_NE(NULL, strstr(by_text, " func:" KM96 "\n"));
	by_ioctl = run_query("--via ioctl -m aie_helper /proc/allocinfo 2>/dev/null");
	how = run_query("-v -m aie_helper /proc/allocinfo 2>&1 >/dev/null");
	ASSERT_NE(NULL, how);
	if (ioc) {
		ASSERT_NE(NULL, by_ioctl);
		EXPECT_STREQ(by_text, by_ioctl);
		EXPECT_NE(NULL, strstr(how, "through the ioctl"));
	} else {
		EXPECT_EQ(NULL, by_ioctl);
		EXPECT_NE(NULL, strstr(how, "through the text"));
	}
	ksft_print_msg("/proc/allocinfo: %s", how);
	free(by_ioctl);
	free(by_text);
	free(how);
}

/*
 * `allocinfo-ext query --bench` runs (its figures go to the log; no time
 * is asserted): both ways match the same rows.
 */
TEST_F(query, bench)
{
	static const char * const args[] = {
		"--bench -n 10 -m aie_helper", "--bench -n 10 --min-bytes 1048576",
		"--bench -n 5",
	};
	unsigned long long read[2], nr[2];
	char *out, *line, *save;
	size_t i;
	int n;

	ASSERT_EQ(0, aie_helper("alloc kmalloc96 3"));
	for (i = 0; i < ARRAY_SIZE(args); i++) {
		out = run_query(args[i]);
		ASSERT_NE(NULL, out);
		n = 0;
		for (line = strtok_r(out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			ksft_print_msg("%s\n", line);
			if (n < 2 && sscanf(line, "%*s %llu %llu", &read[n],
					    &nr[n]) == 2)
				n++;
		}
		ASSERT_EQ(2, n);
		if (i == 0)
			EXPECT_EQ(nr[0], nr[1]);
		free(out);
	}
}

TEST_HARNESS_MAIN
