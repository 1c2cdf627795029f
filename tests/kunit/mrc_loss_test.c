// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the loss rules' QP timeout, 4.096 us * 2^timeout without progress
 * before a retry is used up; what a retransmission timeout counts as late;
 * which PSNs a plane that goes down takes with it; how long a resend cut
 * again holds the sending.
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

/* the PSNs mrc_loss_plane_next() finds from snd_una on, as offsets */
static u32 plane_walk(const struct mrc_req *r, const struct mrc_evset *evs,
		      u16 mask, u32 *out, u32 max)
{
	u32 p, n = 0;

	for (p = mrc_loss_plane_next(r, evs, mask, r->snd_una);
	     p != r->snd_nxt && n < max;
	     p = mrc_loss_plane_next(r, evs, mask, mrc_psn_add(p, 1)))
		out[n++] = mrc_psn_diff(p, r->snd_una);
	return n;
}

/*
 * A plane goes down: the PSNs whose last copy went on it and that neither
 * arrived nor are known lost already are the ones lost with it; a resend
 * counts where it went, READ PSNs count too, a PSN sent with no EV never.
 */
static void plane_down_psns(struct kunit *test)
{
	struct mrc_req r = {};
	struct mrc_evset *evs;
	u32 una = MRC_TX_WIN - 3, got[16], n, i;	/* the slots wrap */

	r.txs = kunit_kcalloc(test, MRC_TX_WIN, sizeof(*r.txs), GFP_KERNEL);
	r.txev = kunit_kcalloc(test, MRC_TX_WIN, sizeof(*r.txev), GFP_KERNEL);
	evs = kunit_kzalloc(test, struct_size(evs, ev, 8), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.txs);
	KUNIT_ASSERT_NOT_NULL(test, r.txev);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	evs->n = 8;
	for (i = 0; i < 8; i++)
		evs->ev[i].plane = i % 4;	/* EV i on plane i % 4 */
	r.snd_una = una;
	r.snd_nxt = una;
	KUNIT_EXPECT_EQ(test, mrc_loss_plane_next(&r, evs, 0xf, una), una);

	/* 12 PSNs, the k-th sent on EV k % 8: plane k % 4 */
	r.snd_nxt = mrc_psn_add(una, 12);
	for (i = 0; i < 12; i++)
		r.txev[tslot(una + i)] = i % 8;
	r.txs[tslot(una + 1)] = MRC_TX_ACKED;
	r.txs[tslot(una + 5)] = MRC_TX_LOST;
	r.txs[tslot(una + 9)] = MRC_TX_RD;
	n = plane_walk(&r, evs, BIT(1), got, ARRAY_SIZE(got));
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, got[0], 9);

	/* two planes; a resend of PSN 3 (plane 3) went on plane 0 */
	r.txev[tslot(una + 3)] = 4;
	r.txs[tslot(una + 3)] = MRC_TX_RTXED;
	n = plane_walk(&r, evs, BIT(0) | BIT(3), got, ARRAY_SIZE(got));
	KUNIT_ASSERT_EQ(test, n, 6);
	KUNIT_EXPECT_EQ(test, got[0], 0);
	KUNIT_EXPECT_EQ(test, got[1], 3);
	KUNIT_EXPECT_EQ(test, got[2], 4);
	KUNIT_EXPECT_EQ(test, got[3], 7);
	KUNIT_EXPECT_EQ(test, got[4], 8);
	KUNIT_EXPECT_EQ(test, got[5], 11);

	/* from the middle on; a PSN sent with no EV (index past the set) */
	r.txev[tslot(una + 8)] = U8_MAX;
	KUNIT_EXPECT_EQ(test, mrc_loss_plane_next(&r, evs, BIT(0) | BIT(3),
						  mrc_psn_add(una, 8)),
			mrc_psn_add(una, 11));
	KUNIT_EXPECT_EQ(test, mrc_loss_plane_next(&r, evs, BIT(0),
						  mrc_psn_add(una, 12)),
			r.snd_nxt);

	/* a resend of PSN 7 (plane 3) went on plane 1: not on 3 any more */
	r.txev[tslot(una + 7)] = 1;
	r.txs[tslot(una + 7)] = MRC_TX_RTXED;
	n = plane_walk(&r, evs, BIT(3), got, ARRAY_SIZE(got));
	KUNIT_ASSERT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, got[0], 11);

	/* no plane, an unknown plane, or no EV set: nothing */
	KUNIT_EXPECT_EQ(test, mrc_loss_plane_next(&r, evs, 0, una), r.snd_nxt);
	KUNIT_EXPECT_EQ(test, mrc_loss_plane_next(&r, evs, BIT(5), una),
			r.snd_nxt);
	KUNIT_EXPECT_EQ(test, mrc_loss_plane_next(&r, NULL, 0xffff, una),
			r.snd_nxt);

	/* across the wrap of the 24-bit PSN space: 0xfffffa .. 0x000005 */
	memset(r.txs, 0, MRC_TX_WIN * sizeof(*r.txs));
	una = 0xfffffa;
	r.snd_una = una;
	r.snd_nxt = mrc_psn_add(una, 12);
	for (i = 0; i < 12; i++)
		r.txev[tslot(mrc_psn_add(una, i))] = i % 8;
	n = plane_walk(&r, evs, BIT(2), got, ARRAY_SIZE(got));
	KUNIT_ASSERT_EQ(test, n, 3);
	KUNIT_EXPECT_EQ(test, got[0], 2);
	KUNIT_EXPECT_EQ(test, got[1], 6);
	KUNIT_EXPECT_EQ(test, got[2], 10);
	KUNIT_EXPECT_EQ(test, r.snd_nxt, 6);
}

/*
 * A resend cut again: the first pause is its round trip; each one in a row
 * doubles, up to 100 ms, never below the round trip itself; the other cut
 * copies of the burst a pause answered start none (across the wrap of the
 * microsecond clock too).
 */
static void trim_pause_backs_off(struct kunit *test)
{
	struct mrc_req r = {};

	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 500, 1000), 500);
	r.trim_backoff = 1;
	r.pause_until_us = 2000;
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 500, 1999), 0);
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 500, 2000), 1000);
	r.trim_backoff = 3;
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 500, 2100), 4000);
	r.trim_backoff = 6;
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 500, 2100), 32000);
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 5000, 2100), 100000);
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 300000, 2100), 300000);
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, U32_MAX, 2100), U32_MAX);
	r.pause_until_us = U32_MAX - 10;
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 500, U32_MAX - 11), 0);
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 500, 5), 32000);
	/* the queue moved (backoff 0): any cut starts a pause */
	r.trim_backoff = 0;
	KUNIT_EXPECT_EQ(test, mrc_loss_pause_us(&r, 500, U32_MAX - 11), 500);
}

static struct kunit_case mrc_loss_cases[] = {
	KUNIT_CASE(timeout_zero_is_infinite),
	KUNIT_CASE(timeout_short),
	KUNIT_CASE(timeout_beyond_u32_usecs),
	KUNIT_CASE(overdue_only_in_flight),
	KUNIT_CASE(plane_down_psns),
	KUNIT_CASE(trim_pause_backs_off),
	{}
};

static struct kunit_suite mrc_loss_suite = {
	.name = "mrc_loss",
	.test_cases = mrc_loss_cases,
};

kunit_test_suite(mrc_loss_suite);
