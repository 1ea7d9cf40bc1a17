/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie_expect.h - the exact-row check every test uses. Include after
 * kselftest_harness.h and aie_util.h.
 */
#ifndef _AIE_EXPECT_H
#define _AIE_EXPECT_H

/*
 * The row of func:_func, type _type, in [aie_helper] holds exactly these
 * live calls and bytes, slack, totals, peak and failures.
 */
#define EXPECT_ROW(_func, _type, _calls, _bytes, _slack, _tcalls, _tbytes, \
		   _peak, _failed)					\
	do {								\
		const char *__f = (_func), *__t = (_type);		\
		struct aie_row r;					\
									\
		ASSERT_EQ(1, aie_row_get_type("aie_helper", __f, __t, &r)) \
			TH_LOG("no %s row for func:%s", __t, __f);	\
		EXPECT_EQ((unsigned long long)(_calls), r.calls)	\
			TH_LOG("%s", __f);				\
		EXPECT_EQ((long long)(_bytes), r.bytes) TH_LOG("%s", __f); \
		EXPECT_EQ((long long)(_slack), r.slack) TH_LOG("%s", __f); \
		EXPECT_EQ((long long)(_tcalls), r.total_calls)		\
			TH_LOG("%s", __f);				\
		EXPECT_EQ((long long)(_tbytes), r.total_bytes)		\
			TH_LOG("%s", __f);				\
		EXPECT_EQ((long long)(_peak), r.peak) TH_LOG("%s", __f); \
		EXPECT_EQ((long long)(_failed), r.failed) TH_LOG("%s", __f); \
		EXPECT_FALSE(r.disabled);				\
	} while (0)

#endif /* _AIE_EXPECT_H */
