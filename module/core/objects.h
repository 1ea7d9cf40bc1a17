/* SPDX-License-Identifier: GPL-2.0 */
/*
 * objects.h - the module's two object maps (objects.c): every tracked
 * object the slab and page maps do not hold, and the weights of sampled
 * objects.
 */
#ifndef _AIE_OBJECTS_H
#define _AIE_OBJECTS_H

#include "core/objmap.h"

extern struct aie_objmap aie_objects, aie_weights;

int aie_objects_init(unsigned long max_objects, bool stamps);
int aie_weights_make(void);
void aie_objects_exit(void);

#endif /* _AIE_OBJECTS_H */
