/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AIE_BENCH_SITES_H
#define AIE_BENCH_SITES_H

#define AIE_BENCH_SITES		10000

/*
 * AIE_BENCH_SITES functions, each with one kmalloc(64) call of its own: a
 * distinct call site, named aie_bench_site_NNNN. Each stores its object
 * in *slot.
 */
extern void (*const aie_bench_sites[AIE_BENCH_SITES])(void **slot);

#endif
