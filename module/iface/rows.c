// SPDX-License-Identifier: GPL-2.0
/*
 * rows.c - what the rows of the /proc tables share: which sites have
 * one, and a site's tag.
 *
 * Notes on locking
 * ----------------
 * None but RCU: the callers are the files' readers, in process context,
 * and the OOM report (oom.c), in whatever context the OOM killer runs. A
 * site's location is read under rcu_read_lock(), which keeps it.
 */

#include <linux/kernel.h>
#include <linux/nodemask.h>
#include <linux/rcupdate.h>

#include "aie.h"
#include "core/counters.h"
#include "core/nodes.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "lib/line.h"
#include "rows.h"

const char * const aie_type_names[] = {
	[AIE_TYPE_SLAB] = "slab",
	[AIE_TYPE_PAGE] = "page",
	[AIE_TYPE_VMALLOC] = "vmalloc",
	[AIE_TYPE_PERCPU] = "percpu",
};

/**
 * aie_row_shown() - Tell whether a site has a row.
 * @site: the site.
 *
 * Rows show every site but those inside allocators, whose events are
 * ignored, pairs with memory cgroups (counted in their site's row), and
 * those inside helpers and page allocator wrappers never charged an event
 * of their own (their events go to the caller above them): such a site
 * has a row from its first (track.c's aie_track_site() marks it), and
 * keeps it, a reset notwithstanding, so that rows do not come and go
 * before others (the ioctls' content id, core/rowset.c).
 *
 * Context: Any context.
 * Return: true when @site has a row.
 */
bool aie_row_shown(struct aie_site *site)
{
	unsigned long flags = READ_ONCE(site->flags);

	/* A pair's counts are in its site's row (extras/cgsites.c) */
	if (flags & (BIT(AIE_SITE_INTERNAL) | BIT(AIE_SITE_CGROUP)))
		return false;
	return !(flags & (BIT(AIE_SITE_HELPER) | BIT(AIE_SITE_WRAPPER))) ||
	       (flags & BIT(AIE_SITE_CHARGED));
}

/**
 * aie_row_fields() - Add what follows a row's tag.
 * @l: the row being built.
 * @site: its site.
 * @s: the site's sums.
 * @peak: its peak.
 *
 * " type:%s slack:%llu total_calls:%lld total_bytes:%lld peak:%lld
 * failed:%lld accounted:%llu[ disabled][ unloaded][ accurate:no]"
 * (proc.c, and oom.c's report), the live figures as aie_live() has them.
 *
 * Context: Any context.
 */
void aie_row_fields(struct aie_line *l, struct aie_site *site,
		    const struct aie_site_sums *s, s64 peak)
{
	aie_line_lit(l, " type:");
	aie_line_str(l, aie_type_names[site->type]);
	aie_line_lit(l, " slack:");
	aie_line_live(l, s->live_slack, 0);
	aie_line_lit(l, " total_calls:");
	aie_line_s64(l, s->total_calls, 0);
	aie_line_lit(l, " total_bytes:");
	aie_line_s64(l, s->total_bytes, 0);
	aie_line_lit(l, " peak:");
	aie_line_s64(l, peak, 0);
	aie_line_lit(l, " failed:");
	aie_line_s64(l, atomic64_read(&site->failed), 0);
	aie_line_lit(l, " accounted:");
	aie_line_live(l, s->live_accounted, 0);
	if (test_bit(AIE_SITE_DISABLED, &site->flags))
		aie_line_lit(l, " disabled");
	if (test_bit(AIE_SITE_UNLOADED, &site->flags))
		aie_line_lit(l, " unloaded");
	if (!aie_row_accurate(site))
		aie_line_lit(l, " accurate:no");
}

/**
 * aie_row_nodes() - Add a row's bytes per node, while node counters are kept.
 * @l: the row being built.
 * @site: its site, of slab or page (core/nodes.c).
 *
 * " node<N>:%llu" for each online node, its live bytes there (aie_live()),
 * at the end of a /proc/allocinfo_ext row.
 *
 * Context: Any context.
 */
void aie_row_nodes(struct aie_line *l, struct aie_site *site)
{
	u32 idx = aie_site_index(site);
	int nid;

	if (!aie_nodes_kept(site))
		return;
	for_each_online_node(nid) {
		aie_line_lit(l, " node");
		aie_line_u64(l, nid, 0);
		aie_line_char(l, ':');
		aie_line_live(l, aie_node_live(idx, nid), 0);
	}
}

/**
 * aie_row_accurate() - Tell whether a site's counts are exact.
 * @site: the site.
 *
 * Exact as far as the module knows: not when the site lost an allocation
 * it could not track (track.c's aie_track_untracked()). Its row then says
 * "accurate:no" (proc.c), and its ioctl row accurate 0.
 *
 * Context: Any context.
 * Return: true when no allocation was lost.
 */
bool aie_row_accurate(const struct aie_site *site)
{
	return !test_bit(AIE_SITE_INEXACT, &site->flags);
}

/**
 * aie_row_tag() - Add a site's tag, as its row shows it.
 * @l: the row being built (proc.c, lifetimes_proc.c).
 * @site: its site.
 * @sym: the reader's buffer, in which the site is named as a reader names
 *       it (aie_site_name_read()).
 *
 * Context: Process context.
 */
void aie_row_tag(struct aie_line *l, struct aie_site *site,
		 struct aie_sym *sym)
{
	aie_site_name_read(site, sym);
	aie_row_tag_named(l, site, sym, false);
}

/**
 * aie_row_tag_named() - Add a site's tag, from a name made already.
 * @l: the row being built.
 * @site: its site.
 * @sym: the site's name.
 * @in_log: the row goes to the kernel log (oom.c).
 *
 * A site no symbol covers is "unknown@" and, in a reader's row, its
 * address as %pK prints it to that reader; in the kernel log, where %pK
 * would judge whichever task the OOM came from, and might ask an LSM,
 * "site" and its index in the table: no address at all.
 *
 * Context: Any context but NMI (oom.c's report names the site with
 * aie_site_name(), which allocates nothing).
 */
void aie_row_tag_named(struct aie_line *l, struct aie_site *site,
		       const struct aie_sym *sym, bool in_log)
{
	const char *loc, *func = "";
	char unknown[32];
	size_t len;

	rcu_read_lock();
	loc = rcu_dereference(site->location);
	if (sym->tag && sym->known && !loc) {
		rcu_read_unlock();
		aie_line_mem(l, sym->tag, sym->tag_len);	/* kept whole */
		return;
	}
	if (loc) {
		aie_line_str(l, loc);
		func = aie_location_func(loc);
	} else if (sym->known) {
		aie_line_mem(l, sym->func, sym->func_len);
		aie_line_lit(l, "+0x");
		aie_line_hex(l, sym->offset);
		aie_line_lit(l, "/0x");
		aie_line_hex(l, sym->size);
	} else if (in_log) {
		aie_line_lit(l, "unknown@site");
		aie_line_u64(l, aie_site_index(site), 0);
	} else {
		aie_line_mem(l, unknown,
			     scnprintf(unknown, sizeof(unknown), "unknown@%pK",
				       (void *)site->call_site));
	}
	if (sym->tag && !*func) {
		rcu_read_unlock();
		aie_line_mem(l, sym->tag + sym->tag_head,
			     sym->tag_len - sym->tag_head);
		return;
	}
	if (sym->module) {
		aie_line_lit(l, " [");
		aie_line_mem(l, sym->module, sym->module_len);
		aie_line_char(l, ']');
	}
	aie_line_lit(l, " func:");
	func = aie_row_func(sym, loc, &len);
	aie_line_mem(l, func, len);
	rcu_read_unlock();
}

/**
 * aie_row_func() - Find the function a row names.
 * @sym: the site's name.
 * @loc: the site's location (NULL: none), read under RCU.
 * @len: set to the name's length.
 *
 * The one "locate" gave with @loc, else @sym's, else "unknown".
 *
 * Context: Inside the RCU read section @loc was read in.
 * Return: the name, which lives as long as that section.
 */
const char *aie_row_func(const struct aie_sym *sym, const char *loc,
			 size_t *len)
{
	const char *func = loc ? aie_location_func(loc) : "";

	if (*func) {
		*len = strlen(func);
		return func;
	}
	if (sym->known) {
		*len = sym->func_len;
		return sym->func;
	}
	*len = strlen("unknown");
	return "unknown";
}
