/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sites_d1.h - the ten tens of the current hundred: included by sites.c, once per
 * call-site macro, with no include guard on purpose.
 */
#define AIE_D1 0
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 1
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 2
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 3
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 4
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 5
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 6
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 7
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 8
#include "sites_d0.h"
#undef AIE_D1
#define AIE_D1 9
#include "sites_d0.h"
#undef AIE_D1
