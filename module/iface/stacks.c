// SPDX-License-Identifier: GPL-2.0
/*
 * stacks.c - /proc/allocinfo_ext_stacks (bytes per stack) and
 * /proc/allocinfo_ext_stacks_calls (calls per stack): the call stacks
 * "capture" recorded (extras/capture.c), one collapsed-stack line each,
 * "f1;f2;...;fn <count>", outermost caller first, which flame-graph tools
 * read. A frame is named by its function alone, "unknown" when no symbol
 * covers it.
 *
 * Notes on locking
 * ----------------
 * A reader holds the capture's mutex (aie_capture_read_lock()) from the
 * seq_file's start to its stop, in process context: no capture empties
 * the table under it. The entries it reads never change but for their
 * counts, which are atomic.
 */

#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#include "aie.h"
#include "core/symbols.h"
#include "extras/capture.h"
#include "stacks.h"

/* What an open stacks file keeps: which count it shows, a name buffer. */
struct aie_stacks_file {
	bool calls;
	struct aie_sym sym;
};

static void *aie_stacks_start(struct seq_file *m, loff_t *pos)
{
	aie_capture_read_lock();
	return (void *)aie_capture_stack(*pos);
}

static void *aie_stacks_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return (void *)aie_capture_stack(*pos);
}

static void aie_stacks_stop(struct seq_file *m, void *v)
{
	aie_capture_read_unlock();
}

/* Show a frame by name only; one no symbol covers is "unknown". */
static void aie_stacks_frame(struct seq_file *m, unsigned long ip,
			     struct aie_sym *sym)
{
	aie_sym_resolve(ip, sym);
	seq_puts(m, sym->known ? sym->func : "unknown");
	if (sym->known && sym->module)
		seq_printf(m, " [%s]", sym->module);
}

static int aie_stacks_show(struct seq_file *m, void *v)
{
	struct aie_stacks_file *f = m->private;
	const struct aie_stack *st = v;
	int i;

	for (i = st->depth - 1; i >= 0; i--) {
		aie_stacks_frame(m, st->ip[i], &f->sym);
		if (i)
			seq_putc(m, ';');
	}
	seq_printf(m, " %lld\n", (long long)(f->calls ?
					     atomic64_read(&st->calls) :
					     atomic64_read(&st->bytes)));
	return 0;
}

static const struct seq_operations aie_stacks_seq_ops = {
	.start = aie_stacks_start,
	.next = aie_stacks_next,
	.stop = aie_stacks_stop,
	.show = aie_stacks_show,
};

/* Open either file: @calls for the calls per stack, else the bytes. */
static int aie_stacks_open(struct file *file, bool calls)
{
	struct aie_stacks_file *f;

	f = __seq_open_private(file, &aie_stacks_seq_ops, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->calls = calls;
	return 0;
}

static int aie_stacks_bytes_open(struct inode *inode, struct file *file)
{
	return aie_stacks_open(file, false);
}

static int aie_stacks_calls_open(struct inode *inode, struct file *file)
{
	return aie_stacks_open(file, true);
}

const struct proc_ops aie_stacks_bytes_proc_ops = {
	.proc_open = aie_stacks_bytes_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = seq_release_private,
};

const struct proc_ops aie_stacks_calls_proc_ops = {
	.proc_open = aie_stacks_calls_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = seq_release_private,
};
