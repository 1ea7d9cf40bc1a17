// SPDX-License-Identifier: GPL-2.0
/* aie_slabmap without its counters. */
#define AIE_SM_NO_COUNTERS 1
#include "aie_slabmap.c"
