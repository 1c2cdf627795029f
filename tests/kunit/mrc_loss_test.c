// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the loss rules' QP timeout, 4.096 us * 2^timeout without progress
 * before a retry is used up; what a retransmission timeout counts as late.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>

#include "mrc.h"
#include "mrc_req.h"

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

/*
 * A timeout is for packets out in the fabric: PSNs known lost (waiting for
 * the window or a trim pause) and acknowledged ones are never late, young
 * ones not yet.
 */
static void overdue_only_in_flight(struct kunit *test)
{
	struct mrc_req r = {};
	u32 una = MRC_TX_WIN - 2, p;	/* the window wraps its slots */

	r.txs = kunit_kcalloc(test, MRC_TX_WIN, sizeof(*r.txs), GFP_KERNEL);
	r.sent_us = kunit_kcalloc(test, MRC_TX_WIN, sizeof(*r.sent_us), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.txs);
	KUNIT_ASSERT_NOT_NULL(test, r.sent_us);
	r.snd_una = una;
	r.snd_nxt = una;
	KUNIT_EXPECT_FALSE(test, mrc_loss_overdue(&r, 1000, 50000));

	r.snd_nxt = mrc_psn_add(una, 4);
	for (p = una; p != r.snd_nxt; p = mrc_psn_add(p, 1))
		r.sent_us[tslot(p)] = 10000;
	r.txs[tslot(una)] = MRC_TX_ACKED;
	r.txs[tslot(una + 1)] = MRC_TX_LOST;
	r.txs[tslot(una + 2)] = MRC_TX_LOST | MRC_TX_RTXED;
	r.txs[tslot(una + 3)] = MRC_TX_ACKED;
	KUNIT_EXPECT_FALSE(test, mrc_loss_overdue(&r, 1000, 50000));

	/* a resend in flight, sent 40 ms ago: late after 20 ms, not after 50 */
	r.txs[tslot(una + 2)] = MRC_TX_RTXED;
	KUNIT_EXPECT_TRUE(test, mrc_loss_overdue(&r, 20000, 50000));
	KUNIT_EXPECT_FALSE(test, mrc_loss_overdue(&r, 50000, 50000));
	/* the clock wrapped since it left */
	r.sent_us[tslot(una + 2)] = U32_MAX - 30000;
	KUNIT_EXPECT_TRUE(test, mrc_loss_overdue(&r, 20000, 10000));
	KUNIT_EXPECT_FALSE(test, mrc_loss_overdue(&r, 50000, 10000));
}

static struct kunit_case mrc_loss_cases[] = {
	KUNIT_CASE(timeout_zero_is_infinite),
	KUNIT_CASE(timeout_short),
	KUNIT_CASE(timeout_beyond_u32_usecs),
	KUNIT_CASE(overdue_only_in_flight),
	{}
};

static struct kunit_suite mrc_loss_suite = {
	.name = "mrc_loss",
	.test_cases = mrc_loss_cases,
};

kunit_test_suite(mrc_loss_suite);
