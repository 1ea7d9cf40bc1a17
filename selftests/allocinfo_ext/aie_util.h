/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie_util.h - what the allocinfo_ext selftests share: loading the modules,
 * driving the helper module, reading rows of /proc/allocinfo_ext (and,
 * through aie_kmsg.h, the kernel log).
 * Functions return 0 or a negative errno unless said otherwise.
 */
#ifndef _AIE_UTIL_H
#define _AIE_UTIL_H

#include <stdbool.h>

#include "kselftest.h"	/* __printf() */
#include "aie_kmsg.h"

#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif

#define AIE_PROC	"/proc/allocinfo_ext"
#define AIE_STATS	"/proc/allocinfo_ext_stats"
#define AIE_HELPER_CTL	"/sys/kernel/debug/aie_helper/ctl"
#define AIE_MODULE_KO	"./allocinfo_ext.ko"
#define AIE_HELPER_KO	"./aie_helper/aie_helper.ko"

#define AIE_ROW_NODES	16	/* node keys a row may carry */

struct aie_row {
	long long bytes;
	unsigned long long calls;
	char location[256];	/* file:line or function+0xoff/0xsize */
	char module[64];	/* "" for built-in code */
	char func[128];
	char type[16];
	long long slack, total_calls, total_bytes, peak, failed;
	long long accounted;	/* live bytes accounted to a memory cgroup */
	bool disabled;
	bool unloaded;		/* its module is gone */
	bool inaccurate;	/* "accurate:no" (1.3) */
	/* node<N>:<bytes> keys (1.4): node_bytes[N] when bit N of nodes */
	unsigned int nodes;
	long long node_bytes[AIE_ROW_NODES];
};

int aie_load(const char *path, const char *params);
int aie_unload(const char *name);
bool aie_module_loaded(const char *name);

/*
 * Why the tests cannot run here: not root, or allocinfo_ext.ko or the
 * helper's aie_helper.ko not where they are loaded from (AIE_MODULE_KO,
 * AIE_HELPER_KO); NULL when they can. aie_setup.h skips with it.
 */
const char *aie_missing(void);

/* Fresh allocinfo_ext (with @params) and helper; and their removal. */
int aie_setup(const char *params);
void aie_teardown(void);

/* Write @cmd to the helper's control file / to /proc/allocinfo_ext. */
int aie_helper(const char *fmt, ...) __printf(1, 2);
int aie_ctl(const char *cmd);
int aie_ctl_len(const void *buf, size_t len);

/* Parse one row; returns 0, or -EINVAL when it is not a well-formed row. */
int aie_row_parse(const char *line, struct aie_row *row);

/*
 * The row of func:@func in [@module] ("" for built-in) of @type (NULL: any
 * type); 1 found, 0 not.
 */
int aie_row_get(const char *module, const char *func, struct aie_row *row);
int aie_row_get_type(const char *module, const char *func, const char *type,
		     struct aie_row *row);

/* The same among rows of modules that unloaded (the others skip them). */
int aie_row_get_unloaded(const char *module, const char *func,
			 struct aie_row *row);

/* What aie_sum_rows() calls on each row, with its @arg. */
typedef long long (*aie_row_fn)(const struct aie_row *row, const void *arg);

/*
 * Call @fn on every row of the table that parses; returns the sum of what
 * @fn returned, or -1 when the table cannot be read.
 */
long long aie_sum_rows(aie_row_fn fn, const void *arg);

/* Rows of [@module] whose module is still loaded. */
int aie_count_rows(const char *module);

/* Live bytes summed over the rows of @type whose function is @func. */
long long aie_bytes_of(const char *func, const char *type);

/* Objects of @kind the helper holds now; -1 on error. */
long long aie_helper_held(const char *kind);

/* Write @len bytes to the helper's control file, as they are. */
int aie_helper_raw(const void *buf, size_t len);

/* Write the string @val to the file @path in one write(). */
int aie_write_str(const char *path, const char *val);
int aie_cpu_online(int cpu, int on);

/* Possible CPUs, from /sys/devices/system/cpu/possible; -1 on error. */
int aie_possible_cpus(void);

/*
 * The highest page frame of any zone, plus one, from /proc/zoneinfo: the
 * page frames the module's slab and page maps cover; -1 on error.
 */
long long aie_end_pfn(void);

/* The whole table, NUL-terminated, malloc()ed; NULL on error. */
char *aie_read_file(const char *path);

/* A number from a file, or a "key value" line of it; -1 on error. */
long long aie_read_long(const char *path);
long long aie_stat(const char *key);
/* The value of @key in the stats file as a word, into @out; -1 if none. */
int aie_stat_word(const char *key, char *out, size_t len);
/* 0 when @key's value in the stats file is @word, else -1. */
int aie_stat_is(const char *key, const char *word);

/* Whether the stats file has the line "<key> present". */
bool aie_stat_present(const char *key);

/* Slot size and object size of slab cache @name, from /sys/kernel/slab. */
long long aie_slab_size(const char *name);
long long aie_object_size(const char *name);

/*
 * The slot of kmalloc-@bucket: @bucket itself, or more on a debug or KASAN
 * kernel, whose caches carry metadata in the slot; -1 on error.
 */
long long aie_kmalloc_slot(long long bucket);

/*
 * What kmalloc(@size) charges, for sizes up to 1024 (the helper's "sites"
 * sizes): the slot of the smallest bucket that holds it; -1 on error.
 */
long long aie_kmalloc_charge(long long size);

/*
 * Bytes charged per object of the helper's private cache: what ksize()
 * reports (the slot size; the object size on a debug or KASAN cache).
 */
long long aie_helper_cache_bytes(void);

/*
 * The helper's "remade" cache: bytes charged per object (as above) to
 * *@bytes, and to *@reused whether its kmem_cache took the address of the
 * one the last "remake" destroyed. 0, or -1 on error.
 */
int aie_helper_remade(long long *bytes, int *reused);

/*
 * Slab cache @cache's line of /proc/allocinfo_ext_caches: its bytes, its
 * objects to *@objects; -1 in both when it has no line.
 */
long long aie_cache_line(const char *cache, long long *objects);

/*
 * The harness gives each test 30 s before it kills it. On the KASAN,
 * lockdep and kmemleak kernel under TCG, sharing the machine with another
 * kernel's VM (make check-all runs two at a time), tests that make and
 * read a few thousand sites take longer than that, and were killed with
 * nothing wrong. Each test gets 120 s here, the binary its 600 s
 * (settings): limits for a test that hangs, not a measure of speed,
 * which no test asserts. Tests that need more say so with
 * TEST_F_TIMEOUT().
 */
#ifdef TEST_TIMEOUT_DEFAULT
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 120
#endif

#endif /* _AIE_UTIL_H */
