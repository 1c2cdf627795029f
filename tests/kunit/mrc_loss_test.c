// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the loss rules' QP timeout, 4.096 us * 2^timeout without progress
 * before a retry is used up.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>

#include "mrc.h"

#define SECS(s)	((unsigned long)(s) * HZ)

static void timeout_zero_is_infinite(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mrc_loss_timed_out(0, 0));
	KUNIT_EXPECT_FALSE(test, mrc_loss_timed_out(0, SECS(100000)));
	KUNIT_EXPECT_FALSE(test, mrc_loss_timed_out(0, ULONG_MAX / 2));
}

/* 14: 67.1 ms, the usual timeout of rdma_cm's QPs */
static void timeout_short(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mrc_loss_timed_out(14, 0));
	KUNIT_EXPECT_FALSE(test, mrc_loss_timed_out(14, msecs_to_jiffies(60)));
	KUNIT_EXPECT_TRUE(test, mrc_loss_timed_out(14, msecs_to_jiffies(68)));
	KUNIT_EXPECT_TRUE(test, mrc_loss_timed_out(14, SECS(3600)));
}

/* 29 (2199 s) is the last that fits 2^32 us; 30 (4398 s) and 31 do not */
static void timeout_beyond_u32_usecs(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mrc_loss_timed_out(29, SECS(2198)));
	KUNIT_EXPECT_TRUE(test, mrc_loss_timed_out(29, SECS(2200)));
	KUNIT_EXPECT_FALSE(test, mrc_loss_timed_out(30, SECS(4397)));
	KUNIT_EXPECT_TRUE(test, mrc_loss_timed_out(30, SECS(4399)));
	KUNIT_EXPECT_TRUE(test, mrc_loss_timed_out(30, SECS(100000)));
	KUNIT_EXPECT_FALSE(test, mrc_loss_timed_out(31, SECS(8795)));
	KUNIT_EXPECT_TRUE(test, mrc_loss_timed_out(31, SECS(8797)));
	KUNIT_EXPECT_TRUE(test, mrc_loss_timed_out(31, SECS(100000)));
}

static struct kunit_case mrc_loss_cases[] = {
	KUNIT_CASE(timeout_zero_is_infinite),
	KUNIT_CASE(timeout_short),
	KUNIT_CASE(timeout_beyond_u32_usecs),
	{}
};

static struct kunit_suite mrc_loss_suite = {
	.name = "mrc_loss",
	.test_cases = mrc_loss_cases,
};

kunit_test_suite(mrc_loss_suite);
