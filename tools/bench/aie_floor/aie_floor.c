// SPDX-License-Identifier: GPL-2.0
/*
 * aie_floor - two empty probes, on the kmalloc and kfree tracepoints.
 *
 * What any design that hooks the slab allocator through its tracepoints
 * pays before it does any work: `make bench` measures each operation with
 * this module loaded, and sets every other cost beside it. The probes are
 * attached as allocinfo_ext attaches its own (module/hooks/slab.c): these
 * two tracepoints are exported to modules.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "compat.h"

/* The kmalloc event's arguments, as this kernel has them */
static void aie_floor_kmalloc(void *data, AIE_TP_KMALLOC_PROTO)
{
}

static void aie_floor_kfree(void *data, unsigned long call_site,
			    const void *ptr)
{
}

static int __init aie_floor_init(void)
{
	int ret;

	ret = register_trace_kfree(aie_floor_kfree, NULL);
	if (ret)
		goto err;
	ret = register_trace_kmalloc(aie_floor_kmalloc, NULL);
	if (ret) {
		unregister_trace_kfree(aie_floor_kfree, NULL);
		tracepoint_synchronize_unregister();
		goto err;
	}
	return 0;
err:
	pr_err("cannot attach to the kmem tracepoints: %d\n", ret);
	return ret;
}

static void __exit aie_floor_exit(void)
{
	unregister_trace_kmalloc(aie_floor_kmalloc, NULL);
	unregister_trace_kfree(aie_floor_kfree, NULL);
	tracepoint_synchronize_unregister();
}

module_init(aie_floor_init);
module_exit(aie_floor_exit);

MODULE_DESCRIPTION("allocinfo-ext benchmark: empty probes on kmalloc and kfree");
MODULE_LICENSE("GPL");
