// SPDX-License-Identifier: GPL-2.0
/* aie_slabmap with its records alone: no site lookup, no counter. */
#define AIE_SM_NO_SITE 1
#define AIE_SM_NO_COUNTERS 1
#include "aie_slabmap.c"
