/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aie_setup.h - what every fixture's setup, and every test that loads the
 * modules itself, starts with: a skip that says what is missing, rather
 * than a failure of each test. Include after kselftest_harness.h and
 * aie_util.h.
 */
#ifndef _AIE_SETUP_H
#define _AIE_SETUP_H

/**
 * aie_skip_missing - skip the test when it cannot run here
 * @_metadata: the test's, as the harness names it
 *
 * Skips (KSFT_SKIP, with aie_missing()'s reason) when not root, or when
 * allocinfo_ext.ko or aie_helper.ko is not where the tests load it from.
 *
 * Return: true when the test was skipped: the caller returns at once.
 */
static inline bool aie_skip_missing(struct __test_metadata *_metadata)
{
	const char *why = aie_missing();

	if (why)
		SKIP(return true, "%s", why);
	return false;
}

/**
 * aie_setup_or_skip - skip as aie_skip_missing() does, else load the modules
 * @_metadata: the test's, as the harness names it
 * @params: allocinfo_ext's parameters, or NULL
 *
 * Loads a fresh allocinfo_ext with @params, then the helper (aie_setup()).
 * A module that is there but does not load fails the test.
 *
 * Return: true when the test was skipped: the caller returns at once.
 */
static inline bool aie_setup_or_skip(struct __test_metadata *_metadata,
				     const char *params)
{
	if (aie_skip_missing(_metadata))
		return true;
	ASSERT_EQ(0, aie_setup(params));
	return false;
}

#endif /* _AIE_SETUP_H */
