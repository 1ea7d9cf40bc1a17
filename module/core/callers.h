/* SPDX-License-Identifier: GPL-2.0 */
/*
 * callers.h - which call sites lie inside an allocator, a helper or
 * a page allocator wrapper (callers.c).
 */
#ifndef _AIE_CALLERS_H
#define _AIE_CALLERS_H

#include "aie.h"

struct aie_sym;

int aie_callers_classify(const struct aie_sym *sym, enum aie_type type);

#endif /* _AIE_CALLERS_H */
