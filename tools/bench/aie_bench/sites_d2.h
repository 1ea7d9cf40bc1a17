/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sites_d2.h - the ten hundreds of the current thousand: included by sites.c, once per
 * call-site macro, with no include guard on purpose.
 */
#define AIE_D2 0
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 1
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 2
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 3
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 4
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 5
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 6
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 7
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 8
#include "sites_d1.h"
#undef AIE_D2
#define AIE_D2 9
#include "sites_d1.h"
#undef AIE_D2
