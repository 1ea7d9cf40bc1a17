// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl.c - the ioctls of /proc/allocinfo_ext: those Linux 7.3 gives
 * /proc/allocinfo, with its numbers and layouts
 * (include/allocinfo_ext_ioctl.h), over the rows the table shows.
 *
 * A row is a site aie_row_shown() takes, in the table's order (the sites'
 * indexes). Its tag: the function and the module (none for built-in code)
 * as the row names them (the function "locate" named, if it did); the
 * file and line of a site given them with "locate" (its "<file>:<line>"),
 * else an empty file name and line 0.
 * Names keep their last AIE_IOC_STR_SIZE - 1 characters, and filters
 * compare those. Counters: the live bytes and calls of the row, as the
 * table shows them (aie_live(), lib/line.h: a sum below 0 reads 0), and
 * accurate 0 for a row that says "accurate:no".
 *
 * The content id (core/rowset.c) changes when a row appears before
 * others (a helper's or wrapper's site charged for the first time), a
 * row's name changes ("locate", control.c), a module loads, ends its init
 * or unloads (extras/modules.c), and at each "reset". Sites seen for the
 * first time add rows under the same id, at the end of the table: a walk
 * ends before the first site still being made (aie_site_settled()), which
 * another CPU may have claimed before sites published after it.
 *
 * Notes on locking and context
 * ----------------------------
 * Process context, from proc.c's ioctl entry; may sleep. Each open file
 * has its iterator (struct aie_ioctl_file), under its mutex, held for one
 * ioctl: GET_AT sets the filter and the position, GET_NEXT moves on from
 * it. The sites are read as the text's readers read them (proc.c), with
 * no lock the hooks take.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "aie.h"
#include "compat.h"
#include "core/counters.h"
#include "core/rowset.h"
#include "core/sites.h"
#include "core/symbols.h"
#include "extras/cgsites.h"
#include "ioctl.h"
#include "lib/line.h"
#include "rows.h"

#if AIE_HAVE_ALLOCINFO_UAPI
#include <uapi/linux/alloc_tag.h>

/* The kernel's own ioctls: the same numbers and layouts as ours. */
#define AIE_SAME(ours, theirs) \
	static_assert(sizeof(struct ours) == sizeof(struct theirs))
AIE_SAME(allocinfo_ext_content_id, allocinfo_content_id);
AIE_SAME(allocinfo_ext_tag, allocinfo_tag);
static_assert(offsetof(struct allocinfo_ext_tag, function) ==
	      offsetof(struct allocinfo_tag, function));
static_assert(offsetof(struct allocinfo_ext_tag, filename) ==
	      offsetof(struct allocinfo_tag, filename));
static_assert(offsetof(struct allocinfo_ext_tag, lineno) ==
	      offsetof(struct allocinfo_tag, lineno));
AIE_SAME(allocinfo_ext_counter, allocinfo_counter);
static_assert(offsetof(struct allocinfo_ext_counter, calls) ==
	      offsetof(struct allocinfo_counter, calls));
static_assert(offsetof(struct allocinfo_ext_counter, accurate) ==
	      offsetof(struct allocinfo_counter, accurate));
AIE_SAME(allocinfo_ext_tag_data, allocinfo_tag_data);
static_assert(offsetof(struct allocinfo_ext_tag_data, counter) ==
	      offsetof(struct allocinfo_tag_data, counter));
AIE_SAME(allocinfo_ext_filter, allocinfo_filter);
static_assert(offsetof(struct allocinfo_ext_filter, fields) ==
	      offsetof(struct allocinfo_filter, fields));
static_assert(offsetof(struct allocinfo_ext_filter, min_size) ==
	      offsetof(struct allocinfo_filter, min_size));
static_assert(offsetof(struct allocinfo_ext_filter, max_size) ==
	      offsetof(struct allocinfo_filter, max_size));
static_assert(offsetof(struct allocinfo_ext_filter, inaccurate) ==
	      offsetof(struct allocinfo_filter, inaccurate));
AIE_SAME(allocinfo_ext_get_at, allocinfo_get_at);
static_assert(offsetof(struct allocinfo_ext_get_at, filter) ==
	      offsetof(struct allocinfo_get_at, filter));
static_assert(offsetof(struct allocinfo_ext_get_at, data) ==
	      offsetof(struct allocinfo_get_at, data));
static_assert(AIE_IOC_STR_SIZE == ALLOCINFO_STR_SIZE);
static_assert(AIE_IOC_FILTER_MODNAME == ALLOCINFO_FILTER_MASK_MODNAME);
static_assert(AIE_IOC_FILTER_FUNCTION == ALLOCINFO_FILTER_MASK_FUNCTION);
static_assert(AIE_IOC_FILTER_FILENAME == ALLOCINFO_FILTER_MASK_FILENAME);
static_assert(AIE_IOC_FILTER_LINENO == ALLOCINFO_FILTER_MASK_LINENO);
static_assert(AIE_IOC_FILTER_INACCURATE == ALLOCINFO_FILTER_MASK_INACCURATE);
static_assert(AIE_IOC_FILTER_MIN_SIZE == ALLOCINFO_FILTER_MASK_MIN_SIZE);
static_assert(AIE_IOC_FILTER_MAX_SIZE == ALLOCINFO_FILTER_MASK_MAX_SIZE);
static_assert(AIE_IOC_FILTER_MASKS == ALLOCINFO_FILTER_MASKS);
static_assert(AIE_IOC_CONTENT_ID == ALLOCINFO_IOC_CONTENT_ID);
static_assert(AIE_IOC_GET_AT == ALLOCINFO_IOC_GET_AT);
static_assert(AIE_IOC_GET_NEXT == ALLOCINFO_IOC_GET_NEXT);
#endif

/**
 * aie_ioctl_open() - Set up an open file's iterator, at row 0.
 * @f: the iterator, in the open file's private data (proc.c).
 *
 * Context: Process context, at the file's open.
 */
void aie_ioctl_open(struct aie_ioctl_file *f)
{
	mutex_init(&f->lock);
	f->positioned = false;
	f->next = 0;
	f->filter.mask = 0;
}

/**
 * aie_ioctl_release() - Tear down an open file's iterator.
 * @f: the iterator, no ioctl inside it any more.
 *
 * Context: Process context, at the file's release.
 */
void aie_ioctl_release(struct aie_ioctl_file *f)
{
	mutex_destroy(&f->lock);
}

/* Copy the last AIE_IOC_STR_SIZE - 1 characters of @src, @len long, padded. */
static void aie_ioctl_str(char *dst, const char *src, size_t len)
{
	if (len >= AIE_IOC_STR_SIZE) {
		src += len - (AIE_IOC_STR_SIZE - 1);
		len = AIE_IOC_STR_SIZE - 1;
	}
	memcpy(dst, src, len);
	memset(dst + len, 0, AIE_IOC_STR_SIZE - len);
}

/* Fill in "<file>:<line>" of a site's location @loc; "" and 0 for none. */
static void aie_ioctl_location(const char *loc, struct allocinfo_ext_tag *tag)
{
	const char *colon;
	u64 line;

	tag->lineno = 0;
	if (!loc) {
		memset(tag->filename, 0, AIE_IOC_STR_SIZE);
		return;
	}
	colon = strrchr(loc, ':');
	if (colon && !kstrtou64(colon + 1, 10, &line))
		tag->lineno = line;
	else
		colon = loc + strlen(loc);
	aie_ioctl_str(tag->filename, loc, colon - loc);
}

/* Fill in a row's names; its location is read under RCU, which keeps it. */
static void aie_ioctl_names(struct aie_ioctl_file *f, struct aie_site *site,
			    struct allocinfo_ext_tag *tag)
{
	struct aie_sym *sym = &f->sym;
	const char *loc, *func;
	size_t len;

	aie_site_name_read(site, sym);
	aie_ioctl_str(tag->modname, sym->module ?: "",
		      sym->module ? sym->module_len : 0);
	rcu_read_lock();
	loc = rcu_dereference(site->location);
	func = aie_row_func(sym, loc, &len);
	aie_ioctl_str(tag->function, func, len);
	aie_ioctl_location(loc, tag);
	rcu_read_unlock();
}

static bool aie_ioctl_str_differs(u64 mask, u64 bit, const char *name,
				  const char *want)
{
	return (mask & bit) && strncmp(name, want, AIE_IOC_STR_SIZE);
}

/*
 * Fill @d from the row of @site when it matches @flt; false when it does
 * not. The counters and the accuracy first: a size filter then skips the
 * naming.
 */
static bool aie_ioctl_row(struct aie_ioctl_file *f, struct aie_site *site,
			  const struct allocinfo_ext_filter *flt,
			  struct allocinfo_ext_tag_data *d)
{
	struct aie_site_sums s;
	u64 m = flt->mask;

	aie_cgsites_sum(aie_site_index(site), &s);
	memset(d, 0, sizeof(*d));
	d->counter.bytes = aie_live(s.live_bytes);
	d->counter.calls = aie_live(s.live_calls);
	d->counter.accurate = aie_row_accurate(site);
	if ((m & AIE_IOC_FILTER_INACCURATE) &&
	    !d->counter.accurate != !!flt->inaccurate)
		return false;
	if ((m & AIE_IOC_FILTER_MIN_SIZE) && d->counter.bytes < flt->min_size)
		return false;
	if ((m & AIE_IOC_FILTER_MAX_SIZE) && d->counter.bytes > flt->max_size)
		return false;
	aie_ioctl_names(f, site, &d->tag);
	if (aie_ioctl_str_differs(m, AIE_IOC_FILTER_MODNAME, d->tag.modname,
				  flt->fields.modname) ||
	    aie_ioctl_str_differs(m, AIE_IOC_FILTER_FUNCTION, d->tag.function,
				  flt->fields.function) ||
	    aie_ioctl_str_differs(m, AIE_IOC_FILTER_FILENAME, d->tag.filename,
				  flt->fields.filename))
		return false;
	return !(m & AIE_IOC_FILTER_LINENO) ||
	       d->tag.lineno == flt->fields.lineno;
}

/*
 * From site @f->next on, the first row that matches @f->filter, into @d;
 * @f->next is then the site after it. -ENOENT past the last row, or at a
 * site still being made: its row, and those after it, come at the end
 * when it is published. A filter that matches nothing, or a GET_AT at a
 * huge pos, walks every site, each summed over the possible CPUs: a
 * reschedule point at each.
 */
static int aie_ioctl_advance(struct aie_ioctl_file *f,
			     struct allocinfo_ext_tag_data *d)
{
	u32 n = aie_sites_nr();
	struct aie_site *site;

	while (f->next < n) {
		cond_resched();
		site = aie_site_at(f->next);
		if (!site && !aie_site_settled(f->next))
			break;
		f->next++;
		if (site && aie_row_shown(site) &&
		    aie_ioctl_row(f, site, &f->filter, d))
			return 0;
	}
	return -ENOENT;
}

static long aie_ioctl_content_id(void __user *arg)
{
	struct allocinfo_ext_content_id id = {
		.id = aie_rowset_id(),
	};

	return copy_to_user(arg, &id, sizeof(id)) ? -EFAULT : 0;
}

static long aie_ioctl_get_at(struct aie_ioctl_file *f, void __user *arg)
{
	struct allocinfo_ext_get_at *at;
	u64 skip;
	int ret;

	at = kmalloc(sizeof(*at), GFP_KERNEL);
	if (!at)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(at, arg, sizeof(*at)))
		goto out;
	ret = -EINVAL;
	if (at->filter.mask & ~(u64)AIE_IOC_FILTER_MASKS) {
		pr_warn_ratelimited("GET_AT: unknown filter bits %#llx\n",
				    at->filter.mask & ~(u64)AIE_IOC_FILTER_MASKS);
		goto out;
	}
	if ((at->filter.mask & AIE_IOC_FILTER_MIN_SIZE) &&
	    (at->filter.mask & AIE_IOC_FILTER_MAX_SIZE) &&
	    at->filter.min_size > at->filter.max_size) {
		pr_warn_ratelimited("GET_AT: min_size %llu above max_size %llu\n",
				    at->filter.min_size, at->filter.max_size);
		goto out;
	}
	mutex_lock(&f->lock);
	f->filter = at->filter;
	f->next = 0;
	skip = at->pos;
	do {
		ret = aie_ioctl_advance(f, &at->data);
	} while (!ret && skip--);
	/* A GET_AT that finds no row leaves the iterator at the end. */
	if (!ret)
		f->positioned = true;
	mutex_unlock(&f->lock);
	if (!ret && copy_to_user(arg, at, sizeof(*at)))
		ret = -EFAULT;
out:
	kfree(at);
	return ret;
}

static long aie_ioctl_get_next(struct aie_ioctl_file *f, void __user *arg)
{
	struct allocinfo_ext_tag_data d;
	int ret;

	mutex_lock(&f->lock);
	if (!f->positioned) {
		f->next = 0;
		f->positioned = true;
	}
	ret = aie_ioctl_advance(f, &d);
	/* Past the last row: the next GET_NEXT starts over. */
	if (ret)
		f->positioned = false;
	mutex_unlock(&f->lock);
	if (!ret && copy_to_user(arg, &d, sizeof(d)))
		ret = -EFAULT;
	return ret;
}

/**
 * aie_ioctl() - Carry out an ioctl on an open /proc/allocinfo_ext.
 * @f: the open file's iterator.
 * @cmd: AIE_IOC_CONTENT_ID, AIE_IOC_GET_AT or AIE_IOC_GET_NEXT.
 * @arg: the caller's structure.
 *
 * Context: Process context; may sleep. Holds @f's mutex for the ioctl.
 * Return: 0, -ENOENT past the last row, -EFAULT, -EINVAL for a bad
 * filter, -ENOMEM, or -ENOTTY for an unknown @cmd.
 */
long aie_ioctl(struct aie_ioctl_file *f, unsigned int cmd, void __user *arg)
{
	switch (cmd) {
	case AIE_IOC_CONTENT_ID:
		return aie_ioctl_content_id(arg);
	case AIE_IOC_GET_AT:
		return aie_ioctl_get_at(f, arg);
	case AIE_IOC_GET_NEXT:
		return aie_ioctl_get_next(f, arg);
	default:
		return -ENOTTY;
	}
}
