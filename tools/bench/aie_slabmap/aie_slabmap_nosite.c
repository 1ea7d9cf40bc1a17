// SPDX-License-Identifier: GPL-2.0
/* aie_slabmap, every allocation charged to one site: no lookup. */
#define AIE_SM_NO_SITE 1
#include "aie_slabmap.c"
