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

/*
 * For the reading benchmark of make bench-scale, which wants the 65,536
 * sites of max_sites=65536: AIE_BENCH_SITES more functions, each with
 * AIE_BENCH_WIDE kmalloc(64) calls, the first n of which it makes (the
 * objects go to slot[0..n-1]): AIE_BENCH_WIDE sites a function, so that
 * the module stays near 2 MiB of text, 20,000 functions.
 */
#define AIE_BENCH_WIDE		6
#define AIE_BENCH_ALL_SITES	(AIE_BENCH_SITES * (1 + AIE_BENCH_WIDE))

extern void (*const aie_bench_wides[AIE_BENCH_SITES])(void **slot,
						    unsigned int n);

#endif
