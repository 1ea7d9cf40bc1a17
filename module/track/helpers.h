/* SPDX-License-Identifier: GPL-2.0 */
/*
 * helpers.h - the caller an allocation inside a helper is charged to
 * (helpers.c).
 */
#ifndef _AIE_HELPERS_H
#define _AIE_HELPERS_H

#include "aie.h"

struct aie_site *aie_helper_caller(struct aie_site *site);

#endif /* _AIE_HELPERS_H */
