/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sites_d0.h - the ten sites of the current ten: included by sites_d1.h,
 * with no include guard on purpose.
 */
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 0)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 1)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 2)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 3)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 4)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 5)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 6)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 7)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 8)
AIE_SITE(AIE_D3, AIE_D2, AIE_D1, 9)
