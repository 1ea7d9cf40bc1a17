/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sites_d3.h - the thousands 1 to 9 (sites 1000 to 9999): included by
 * sites.c, once per call-site macro, with no include guard on purpose.
 * The thousand 0 is included apart, its allocator differing.
 */
#define AIE_D3 1
#include "sites_d2.h"
#undef AIE_D3
#define AIE_D3 2
#include "sites_d2.h"
#undef AIE_D3
#define AIE_D3 3
#include "sites_d2.h"
#undef AIE_D3
#define AIE_D3 4
#include "sites_d2.h"
#undef AIE_D3
#define AIE_D3 5
#include "sites_d2.h"
#undef AIE_D3
#define AIE_D3 6
#include "sites_d2.h"
#undef AIE_D3
#define AIE_D3 7
#include "sites_d2.h"
#undef AIE_D3
#define AIE_D3 8
#include "sites_d2.h"
#undef AIE_D3
#define AIE_D3 9
#include "sites_d2.h"
#undef AIE_D3
