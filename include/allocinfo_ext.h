/* SPDX-License-Identifier: GPL-2.0 */
/*
 * allocinfo_ext.h - names and formats shared by the module, the tools and
 * the selftests. Plain C: it builds in the kernel and in userspace alike.
 *
 * The format of /proc/allocinfo_ext is specified in
 * Documentation/format.rst. Bump the minor version when a field is
 * added at the end of a row; bump the major version for any other change.
 */
#ifndef _ALLOCINFO_EXT_H
#define _ALLOCINFO_EXT_H

#define AIE_PROC_NAME		"allocinfo_ext"
#define AIE_STATS_PROC_NAME	"allocinfo_ext_stats"
#define AIE_STACKS_PROC_NAME	"allocinfo_ext_stacks"
#define AIE_STACKS_CALLS_PROC_NAME	"allocinfo_ext_stacks_calls"

/*
 * The collapsed-stack lines of the two stacks files (Documentation/
 * format.rst), given by the stats file's stacks_version key. Same rule as
 * the table's version.
 * 1.0: the first format.
 */
#define AIE_STACKS_VERSION	"1.0"

/*
 * 1.0: the first format.
 * 1.1: a site whose module unloaded ends its row with the word "unloaded".
 * 1.2: accounted:<bytes> after failed:, live bytes accounted to a memory
 *      cgroup.
 * 1.3: a site whose counts the module knows to be inexact ends its row
 *      with the word "accurate:no".
 * 1.4: with node counters on (numa=), a slab or page site ends its row
 *      with node<N>:<bytes> for each online node.
 */
#define AIE_FORMAT_VERSION	"1.4"
#define AIE_HEADER_LINE1	"allocinfo_ext - version: " AIE_FORMAT_VERSION
#define AIE_HEADER_LINE2	"#     <size>  <calls> <tag info> [key:value ...]"

/*
 * /proc/allocinfo_ext_lifetimes (Documentation/format.rst): lifetimes of
 * freed objects and the age of the oldest live one, per site. Three
 * header lines, then one line per site. Same version rule as the table's.
 * 1.0: the first format.
 */
#define AIE_LIFETIMES_PROC_NAME	"allocinfo_ext_lifetimes"
#define AIE_LIFETIMES_VERSION	"1.0"
#define AIE_LIFETIME_SHIFT	16	/* a unit is 2^16 ns, 65.536 us */
#define AIE_LIFETIME_BUCKETS	32
#define AIE_LIFETIMES_LINE1	"allocinfo_ext_lifetimes - version: " \
				AIE_LIFETIMES_VERSION
#define AIE_LIFETIMES_LINE3	"# <tag info> type:<type> oldest:<ns>|- hist:<b0>,...,<b31>"

/*
 * /proc/allocinfo_ext_caches (Documentation/format.rst): per slab cache,
 * the live objects and bytes the slab map holds. A version line, then
 * "# <cache> <objects> <bytes>" and a line per cache, or "# off: ...".
 * 1.0: the first format.
 */
#define AIE_CACHES_PROC_NAME	"allocinfo_ext_caches"
#define AIE_CACHES_VERSION	"1.0"

/*
 * /proc/allocinfo_ext_cgroups (Documentation/format.rst): per call site
 * and memory cgroup, the live allocations charged to the cgroup. Two
 * header lines, then one line per (site, cgroup). 1.0: the first format.
 */
#define AIE_CGROUPS_PROC_NAME	"allocinfo_ext_cgroups"
#define AIE_CGROUPS_VERSION	"1.0"
#define AIE_CGROUPS_LINE1	"allocinfo_ext_cgroups - version: " \
				AIE_CGROUPS_VERSION
#define AIE_CGROUPS_LINE2	"#     <size>  <calls> <tag info> type:<type> slack:<n> total_calls:<n> total_bytes:<n> cgroup:<path>[ removed]"

/* Longest control write accepted, in bytes, newline included. */
#define AIE_CTL_MAX_LEN		512

/* Largest "sample <bytes>" interval: 1 GiB. */
#define AIE_SAMPLE_MAX_BYTES	1073741824UL

/* Most rules (enable/disable selectors) kept at once. */
#define AIE_MAX_RULES		64

#endif /* _ALLOCINFO_EXT_H */
