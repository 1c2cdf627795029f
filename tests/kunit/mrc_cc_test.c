// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: NSCC rule by rule - the four ECN x delay cases of one ACK, fast
 * increase, quick adapt (on NACK, on delay, the gate, the ignore window),
 * the NACK and timeout rules, the window's clamps, the decrease (once per
 * base RTT, at most by half), the base RTT as a minimum, the fulfill step,
 * the defaults and the knobs refused. Every expected number is worked out
 * by hand from the rules (Documentation/mrc/congestion.rst) with the knobs
 * below.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "mrc_cc.h"

#define MTU	1000
#define BASE	10000		/* ns */
#define TARGET	8000		/* ns */
#define T0	1000000000ull	/* ns: "now" when a test starts */
#define QA_END	(T0 + BASE + TARGET)

/*
 * fi 3000 B makes the proportional increase acked x (target - delay) / 5
 * bytes^2 (fi per 15 us); the quick adapt gate is 100000 >> 3 = 12500 B.
 */
static const struct mrc_cc_params knobs = {
	.base_rtt = BASE,
	.target_delay = TARGET,
	.max_cwnd = 100000,
	.eta = 100,
	.fi = 3000,
	.fi_scale = MRC_CC_ONE / 4,
	.gamma = MRC_CC_ONE * 3 / 4,
	.max_md_jump = MRC_CC_ONE / 2,
	.qa_gate = 3,
	.qa_threshold = 32000,
	.adjust_bytes_threshold = 8000,
	.adjust_period_threshold = 10000,
};

/*
 * A QP's NSCC at @cwnd, as if the increase was applied and a quick adapt
 * period began at T0: nothing fires at T0 + 100 unless a test makes it.
 */
static struct mrc_cc *cc_ready(struct kunit *test,
			       const struct mrc_cc_params *p, u32 cwnd)
{
	struct mrc_cc *cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cc);
	KUNIT_ASSERT_NULL(test, mrc_cc_params_check(p));
	mrc_cc_init(cc, p, MTU);
	cc->cwnd = cwnd;
	cc->last_adjust = T0;
	cc->qa_end = QA_END;
	return cc;
}

/* an ACK of @bytes whose packet queued @delay ns beyond the base RTT */
static void cc_ack(struct mrc_cc *cc, u32 bytes, u32 delay, bool ecn, u64 now)
{
	mrc_cc_on_ack(cc, bytes, cc->base_rtt + delay, ecn, 0, now);
}

static void set_avg(struct mrc_cc *cc, u32 ns)
{
	cc->avg_delay = (u64)ns << MRC_CC_AVG_SHIFT;
}

/* one ACK of 1000 B at a 50000 B window, in each ECN x delay case */
struct quadrant_case {
	const char *desc;
	bool ecn;
	u32 delay;
	u32 avg;		/* average delay before the ACK */
	u32 cwnd;		/* expected after */
	u64 inc;		/* expected pending increase, bytes^2 */
	u32 avg_after;		/* expected average, ns */
	u32 fair, prop, dec;	/* expected counters */
};

static const struct quadrant_case quadrant_cases[] = {
	/* fi x acked = 3000 x 1000; the sample is the delay itself */
	{ "clean, delay at target: fair", false, 8000, 0,
	  50000, 3000000, 100, 1, 0, 0 },
	/* an unmarked sample above target goes in as base / 4 = 2500 */
	{ "clean, delay above target: fair", false, 20000, 0,
	  50000, 3000000, 31, 1, 0, 0 },
	/* 1000 x (8000 - 2000) / 5 */
	{ "clean, delay below target: proportional", false, 2000, 0,
	  50000, 1200000, 25, 0, 1, 0 },
	/* avg stays 16000: cut 3/4 x 8000 / 16000 = 3/8; 50000 x 5/8 */
	{ "marked, delay above target: decrease", true, 16000, 16000,
	  31250, 0, 16000, 0, 0, 1 },
	/* the decrease reads the average, which is not above target */
	{ "marked, delay above target, average at target: none", true, 8000,
	  8000, 50000, 0, 8000, 0, 0, 0 },
	{ "marked, delay below target: none", true, 2000, 0,
	  50000, 0, 25, 0, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(quadrant, quadrant_cases, desc);

static void quadrants(struct kunit *test)
{
	const struct quadrant_case *c = test->param_value;
	struct mrc_cc *cc = cc_ready(test, &knobs, 50000);

	set_avg(cc, c->avg);
	cc_ack(cc, 1000, c->delay, c->ecn, T0 + 100);
	KUNIT_EXPECT_EQ(test, c->cwnd, cc->cwnd);
	KUNIT_EXPECT_EQ(test, c->inc, cc->inc_bytes);
	KUNIT_EXPECT_EQ(test, c->avg_after, mrc_cc_avg_delay(cc));
	KUNIT_EXPECT_EQ(test, c->fair, cc->stats.fair_increases);
	KUNIT_EXPECT_EQ(test, c->prop, cc->stats.prop_increases);
	KUNIT_EXPECT_EQ(test, c->dec, cc->stats.decreases);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.fast_increases);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.quick_adapts);
}

/* ACKs of 1000 B at a 4000 B window: one window under 1 us, then fast */
static void fast_increase(struct kunit *test)
{
	static const struct {
		u32 delay, cwnd;
		u64 inc;
		bool fast;
	} steps[] = {
		{ 500, 4000, 1500000, false },	/* 1000 x 7500 / 5 */
		{ 500, 4000, 3000000, false },
		{ 500, 4000, 4500000, false },
		{ 500, 4000, 6000000, false },	/* 4000 acked: not above */
		{ 500, 4250, 6000000, true },	/* 5000 > 4000: + 1000 / 4 */
		{ 500, 4500, 6000000, true },
		{ 999, 4750, 6000000, true },
		{ 1000, 4750, 7400000, false },	/* 1 us: out; 1000 x 7000 / 5 */
		{ 0, 4750, 9000000, false },	/* counts from 0 again */
	};
	struct mrc_cc_params p = knobs;
	struct mrc_cc *cc;
	int i;

	p.adjust_bytes_threshold = 1000000;
	cc = cc_ready(test, &p, 4000);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		cc_ack(cc, 1000, steps[i].delay, false, T0 + 100);
		KUNIT_EXPECT_EQ_MSG(test, steps[i].cwnd, cc->cwnd, "step %d", i);
		KUNIT_EXPECT_EQ_MSG(test, steps[i].inc, cc->inc_bytes,
				    "step %d", i);
		KUNIT_EXPECT_EQ_MSG(test, steps[i].fast, cc->fast, "step %d", i);
	}
	KUNIT_EXPECT_EQ(test, 3, cc->stats.fast_increases);
	KUNIT_EXPECT_EQ(test, 6, cc->stats.prop_increases);

	/* a decrease attempt (marked, at target) ends fast increase */
	cc->fast = true;
	cc->fi_count = 10000;
	cc_ack(cc, 1000, 8000, true, T0 + 100);
	KUNIT_EXPECT_FALSE(test, cc->fast);
	KUNIT_EXPECT_EQ(test, 0, cc->fi_count);
	KUNIT_EXPECT_EQ(test, 4750, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.decreases);
}

/* a NACK at the end of a quiet period; the ignore window after it */
static void qa_on_nack(struct kunit *test)
{
	struct mrc_cc *cc = cc_ready(test, &knobs, 50000);

	/* 5000 B delivered in the period; 5000 x 6000 / 5 pending */
	mrc_cc_on_ack(cc, 5000, BASE + 2000, false, 10000, T0 + 100);
	KUNIT_EXPECT_EQ(test, 6000000, cc->inc_bytes);

	/* past the period: 5000 < 12500, so the window is what got through */
	mrc_cc_on_nack(cc, 1000, 7000, QA_END + 1);
	KUNIT_EXPECT_EQ(test, 5000, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.nack_decreases);
	KUNIT_EXPECT_EQ(test, 0, cc->inc_bytes);
	KUNIT_EXPECT_EQ(test, 0, cc->achieved_bytes);
	KUNIT_EXPECT_EQ(test, 7000, cc->bytes_to_ignore);
	KUNIT_EXPECT_FALSE(test, cc->qa_trigger);
	KUNIT_EXPECT_EQ(test, QA_END + 1 + BASE + TARGET, cc->qa_end);

	/* marked feedback for the 7000 B then in flight is ignored */
	set_avg(cc, 16000);
	cc_ack(cc, 1000, 20000, true, T0 + 20000);
	mrc_cc_on_nack(cc, 1000, 6000, T0 + 20000);
	KUNIT_EXPECT_EQ(test, 5000, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.decreases);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.nack_decreases);

	/*
	 * clean ACKs are not: fair 3000 x 1000; the period is over, so
	 * 5000 + 3000000 / 5000 + eta = 5700
	 */
	cc_ack(cc, 1000, 9000, false, T0 + 20000);
	KUNIT_EXPECT_EQ(test, 5700, cc->cwnd);

	/* 7000 B acked or NACKed: the window is over */
	cc_ack(cc, 4000, 2000, true, T0 + 20000);
	KUNIT_EXPECT_EQ(test, 5700, cc->cwnd);
	mrc_cc_on_nack(cc, 1000, 6000, T0 + 20000);
	KUNIT_EXPECT_EQ(test, 4700, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.nack_decreases);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.quick_adapts);
}

/*
 * A marked delay above qa_threshold at a period's end, not at it, and
 * not an unmarked one
 */
static void qa_on_delay(struct kunit *test)
{
	struct mrc_cc *cc = cc_ready(test, &knobs, 50000);
	u64 t = QA_END + 1;

	/*
	 * 32000 is not above the threshold: a new period; the average
	 * (400) is under target, so no decrease: 50000 + eta = 50100
	 */
	cc_ack(cc, 2000, 32000, true, t);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 50100, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 0, cc->achieved_bytes);

	/*
	 * Above it but unmarked, at the next period's end: the hosts'
	 * delay; a fair increase, 50100 + 3000 x 3000 / 50100 + eta
	 */
	t += BASE + TARGET + 1;
	cc_ack(cc, 3000, 33000, false, t);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 50379, cc->cwnd);

	/* marked, at the period after: 3000 B got through */
	t += BASE + TARGET + 1;
	cc_ack(cc, 3000, 33000, true, t);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 3000, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 0, cc->inc_bytes);

	/* inside a period no delay fires it */
	cc_ack(cc, 1000, 100000, true, t + BASE);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.quick_adapts);
}

/* no quick adapt above max_cwnd >> qa_gate; a NACK's trigger waits */
static void qa_gate(struct kunit *test)
{
	struct mrc_cc_params p = knobs;
	struct mrc_cc *cc = cc_ready(test, &knobs, 50000);

	/* 12500 B acked: 12500 x 6000 / 5 / 50000 = 300 applied */
	cc_ack(cc, 12500, 2000, false, T0 + 100);
	KUNIT_EXPECT_EQ(test, 50300, cc->cwnd);
	mrc_cc_on_nack(cc, 1000, 0, QA_END + 1);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 49300, cc->cwnd);
	KUNIT_EXPECT_TRUE(test, cc->qa_trigger);

	/* the next period delivers 1000 B: the NACK's trigger fires it */
	cc_ack(cc, 1000, 2000, false, QA_END + 1 + BASE + TARGET + 1);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, MTU, cc->cwnd);

	/* a gate of >> 2 (25000 B) lets 12500 B through */
	p.qa_gate = 2;
	cc = cc_ready(test, &p, 50000);
	cc_ack(cc, 12500, 2000, false, T0 + 100);
	mrc_cc_on_nack(cc, 1000, 0, QA_END + 1);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 12500, cc->cwnd);

	/* and disable_qa stops it */
	p.disable_qa = true;
	cc = cc_ready(test, &p, 50000);
	cc_ack(cc, 1000, 2000, false, T0 + 100);
	mrc_cc_on_nack(cc, 1000, 0, QA_END + 1);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 49000, cc->cwnd);
}

/* the first feedback only starts a period; the period's end is strict */
static void qa_periods(struct kunit *test)
{
	struct mrc_cc *cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cc);
	mrc_cc_init(cc, &knobs, MTU);
	KUNIT_EXPECT_EQ(test, 0, cc->qa_end);
	mrc_cc_on_nack(cc, 1000, 0, T0);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 99000, cc->cwnd);
	KUNIT_EXPECT_EQ(test, T0 + BASE + TARGET, cc->qa_end);

	/* at the period's end exactly: not yet */
	mrc_cc_on_nack(cc, 1000, 0, T0 + BASE + TARGET);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, 98000, cc->cwnd);
	mrc_cc_on_nack(cc, 1000, 0, T0 + BASE + TARGET + 1);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.quick_adapts);
	KUNIT_EXPECT_EQ(test, MTU, cc->cwnd);	/* nothing was acked */
}

/* a trim NACK: one packet off, a marked sample of one base RTT */
static void nack_rule(struct kunit *test)
{
	struct mrc_cc *cc = cc_ready(test, &knobs, 50000);

	mrc_cc_on_nack(cc, 1000, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, 49000, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 125, mrc_cc_avg_delay(cc));	/* 10000 / 80 */
	KUNIT_EXPECT_TRUE(test, cc->qa_trigger);
	mrc_cc_on_nack(cc, 1000, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, 48000, cc->cwnd);
	/* 125 x 79 / 80 + 125 = 248.4 */
	KUNIT_EXPECT_EQ(test, 248, mrc_cc_avg_delay(cc));

	cc->cwnd = 1500;
	mrc_cc_on_nack(cc, 1000, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, MTU, cc->cwnd);
	mrc_cc_on_nack(cc, 4000, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, MTU, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 4, cc->stats.nack_decreases);
	KUNIT_EXPECT_EQ(test, 0, cc->stats.decreases);
}

static void timeout_rule(struct kunit *test)
{
	struct mrc_cc *cc = cc_ready(test, &knobs, 50000);

	mrc_cc_on_timeout(cc, 1000);
	KUNIT_EXPECT_EQ(test, 49000, cc->cwnd);
	cc->cwnd = 1200;
	mrc_cc_on_timeout(cc, 1000);
	KUNIT_EXPECT_EQ(test, MTU, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 2, cc->stats.timeouts);
	KUNIT_EXPECT_EQ(test, 0, mrc_cc_avg_delay(cc));
	KUNIT_EXPECT_FALSE(test, cc->qa_trigger);
}

/* the window stays in [MTU, max_cwnd] whichever rule moves it */
static void clamps(struct kunit *test)
{
	struct mrc_cc_params p = knobs;
	struct mrc_cc *cc;

	/* init: no slow start, the largest window; never below the MTU */
	cc = cc_ready(test, &knobs, 0);
	KUNIT_EXPECT_EQ(test, 100000, cc->max_cwnd);
	mrc_cc_init(cc, &knobs, MTU);
	KUNIT_EXPECT_EQ(test, 100000, cc->cwnd);
	p.max_cwnd = 512;
	mrc_cc_init(cc, &p, MTU);
	KUNIT_EXPECT_EQ(test, MTU, cc->max_cwnd);
	KUNIT_EXPECT_EQ(test, MTU, cc->cwnd);

	/* fulfill: 99950 + 3000000 / 99950 + 100 = 100080 */
	cc = cc_ready(test, &knobs, 99950);
	cc_ack(cc, 1000, 9000, false, T0 + 10001);
	KUNIT_EXPECT_EQ(test, 100000, cc->cwnd);

	/* fast increase */
	cc = cc_ready(test, &knobs, 100000);
	cc->fast = true;
	cc_ack(cc, 1000, 500, false, T0 + 100);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.fast_increases);
	KUNIT_EXPECT_EQ(test, 100000, cc->cwnd);

	/* decrease: 1500 x 5/8 = 937 */
	cc = cc_ready(test, &knobs, 1500);
	set_avg(cc, 16000);
	cc_ack(cc, 1000, 16000, true, T0 + 100);
	KUNIT_EXPECT_EQ(test, 1, cc->stats.decreases);
	KUNIT_EXPECT_EQ(test, MTU, cc->cwnd);
}

/*
 * At most one decrease per round trip (of the ACK that decreased, here
 * base + 16000), and by at most max_md_jump
 */
static void decrease_limits(struct kunit *test)
{
	struct mrc_cc_params p = knobs;
	struct mrc_cc *cc;
	u64 t1 = T0 + 100;

	p.adjust_period_threshold = 1000000;	/* no eta in the way */
	cc = cc_ready(test, &p, 64000);
	set_avg(cc, 16000);
	cc_ack(cc, 1000, 16000, true, t1);
	KUNIT_EXPECT_EQ(test, 40000, cc->cwnd);		/* x 5/8 */
	cc_ack(cc, 1000, 16000, true, t1 + BASE + 16000);
	KUNIT_EXPECT_EQ(test, 40000, cc->cwnd);
	cc_ack(cc, 1000, 16000, true, t1 + BASE + 16000 + 1);
	KUNIT_EXPECT_EQ(test, 25000, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 2, cc->stats.decreases);

	/* gamma 1, average 1 ms: a cut of 0.992, held to one half */
	p.gamma = MRC_CC_ONE;
	cc = cc_ready(test, &p, 64000);
	set_avg(cc, 1000000);
	cc_ack(cc, 1000, 1000000, true, t1);
	KUNIT_EXPECT_EQ(test, 32000, cc->cwnd);

	/* and to a quarter */
	p.max_md_jump = MRC_CC_ONE / 4;
	cc = cc_ready(test, &p, 64000);
	set_avg(cc, 1000000);
	cc_ack(cc, 1000, 1000000, true, t1);
	KUNIT_EXPECT_EQ(test, 48000, cc->cwnd);
}

/* the base RTT is the smallest RTT seen; max_cwnd does not follow it */
static void base_rtt_min(struct kunit *test)
{
	struct mrc_cc *cc = cc_ready(test, &knobs, 100000);

	mrc_cc_on_ack(cc, 1000, 9000, false, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, 9000, cc->base_rtt);
	KUNIT_EXPECT_EQ(test, 100000, cc->max_cwnd);
	KUNIT_EXPECT_EQ(test, 100000, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 0, mrc_cc_avg_delay(cc));

	/* 500 above: the delay is 500, 500 / 80 = 6.25 */
	mrc_cc_on_ack(cc, 1000, 9500, false, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, 9000, cc->base_rtt);
	KUNIT_EXPECT_EQ(test, 6, mrc_cc_avg_delay(cc));

	/* no sample: nothing moves */
	mrc_cc_on_ack(cc, 1000, 0, false, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, 9000, cc->base_rtt);
	KUNIT_EXPECT_EQ(test, 6, mrc_cc_avg_delay(cc));

	mrc_cc_on_ack(cc, 1000, 12000, false, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, 9000, cc->base_rtt);

	mrc_cc_on_ack(cc, 1000, 4500, false, 0, T0 + 100);
	KUNIT_EXPECT_EQ(test, 4500, cc->base_rtt);
	KUNIT_EXPECT_EQ(test, 100000, cc->max_cwnd);
}

/* the pending increase is applied after 8000 B, or after 10 us with eta */
static void fulfill_step(struct kunit *test)
{
	struct mrc_cc *cc = cc_ready(test, &knobs, 50000);
	int i;

	for (i = 0; i < 8; i++)
		cc_ack(cc, 1000, 9000, false, T0 + 100);
	KUNIT_EXPECT_EQ(test, 50000, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 24000000, cc->inc_bytes);
	KUNIT_EXPECT_EQ(test, 8000, cc->received_bytes);

	/* 9000 B: 27000000 / 50000 = 540, no eta inside the period */
	cc_ack(cc, 1000, 9000, false, T0 + 100);
	KUNIT_EXPECT_EQ(test, 50540, cc->cwnd);
	KUNIT_EXPECT_EQ(test, 0, cc->inc_bytes);
	KUNIT_EXPECT_EQ(test, 0, cc->received_bytes);

	/* the period: at 10 us not yet, after it 6000000 / 50540 + eta */
	cc_ack(cc, 1000, 9000, false, T0 + 10000);
	KUNIT_EXPECT_EQ(test, 50540, cc->cwnd);
	cc_ack(cc, 1000, 9000, false, T0 + 10001);
	KUNIT_EXPECT_EQ(test, 50758, cc->cwnd);
	KUNIT_EXPECT_EQ(test, T0 + 10001, cc->last_adjust);

	/* bytes fulfill at exactly one period: eta too; 27000000 / 50758 */
	cc_ack(cc, 9000, 9000, false, T0 + 20001);
	KUNIT_EXPECT_EQ(test, 51389, cc->cwnd);
	KUNIT_EXPECT_EQ(test, T0 + 20001, cc->last_adjust);
}

static void may_send(struct kunit *test)
{
	struct mrc_cc *cc = cc_ready(test, &knobs, 5000);

	KUNIT_EXPECT_TRUE(test, mrc_cc_may_send(cc, 4000, 1000));
	KUNIT_EXPECT_FALSE(test, mrc_cc_may_send(cc, 4001, 1000));
	KUNIT_EXPECT_TRUE(test, mrc_cc_may_send(cc, 0, 5000));
	KUNIT_EXPECT_FALSE(test, mrc_cc_may_send(cc, 0, 5001));
	KUNIT_EXPECT_FALSE(test, mrc_cc_may_send(cc, U32_MAX, 1));
}

/* htsim's derivation, where a = BDP / 150000 B comes out whole */
static void defaults(struct kunit *test)
{
	struct mrc_cc_params p;

	/* 100 Gb/s x 12 us = 150000 B: a = 1 */
	mrc_cc_params_default(&p, 4096, 100000, 12000, true);
	KUNIT_EXPECT_NULL(test, mrc_cc_params_check(&p));
	KUNIT_EXPECT_EQ(test, 12000, p.base_rtt);
	KUNIT_EXPECT_EQ(test, 9000, p.target_delay);
	KUNIT_EXPECT_EQ(test, 225000, p.max_cwnd);
	KUNIT_EXPECT_EQ(test, 20480, p.fi);		/* 5 MTU */
	KUNIT_EXPECT_EQ(test, 614, p.eta);		/* 0.15 MTU */
	KUNIT_EXPECT_EQ(test, 16384, p.fi_scale);	/* 0.25 */
	KUNIT_EXPECT_EQ(test, 52429, p.gamma);		/* 0.8 */
	KUNIT_EXPECT_EQ(test, 32768, p.max_md_jump);
	KUNIT_EXPECT_EQ(test, 3, p.qa_gate);
	KUNIT_EXPECT_EQ(test, 36000, p.qa_threshold);
	KUNIT_EXPECT_EQ(test, 32768, p.adjust_bytes_threshold);
	KUNIT_EXPECT_EQ(test, 12000, p.adjust_period_threshold);
	KUNIT_EXPECT_FALSE(test, p.disable_qa);

	/* 400 Gb/s: a = 4; no trimming: target = base RTT */
	mrc_cc_params_default(&p, 4096, 400000, 12000, false);
	KUNIT_EXPECT_NULL(test, mrc_cc_params_check(&p));
	KUNIT_EXPECT_EQ(test, 12000, p.target_delay);
	KUNIT_EXPECT_EQ(test, 900000, p.max_cwnd);
	KUNIT_EXPECT_EQ(test, 81920, p.fi);
	KUNIT_EXPECT_EQ(test, 2457, p.eta);
	KUNIT_EXPECT_EQ(test, 65536, p.fi_scale);
	KUNIT_EXPECT_EQ(test, 48000, p.qa_threshold);
}

struct check_case {
	const char *desc;
	size_t off;		/* of a u32 knob, or of qa_gate */
	u32 val;
	const char *why;	/* NULL: accepted */
};

#define KNOB(f)	offsetof(struct mrc_cc_params, f)

static const struct check_case check_cases[] = {
	{ "base_rtt 0", KNOB(base_rtt), 0, "base_rtt is 0" },
	{ "base_rtt 10 ms", KNOB(base_rtt), 10000000, NULL },
	{ "base_rtt above 10 ms", KNOB(base_rtt), 10000001,
	  "base_rtt above 10 ms" },
	{ "target_delay 0", KNOB(target_delay), 0, "target_delay is 0" },
	{ "target_delay above 10 ms", KNOB(target_delay), 10000001,
	  "target_delay above 10 ms" },
	{ "max_cwnd 255", KNOB(max_cwnd), 255, "max_cwnd below 256 bytes" },
	{ "max_cwnd 1 GiB + 1", KNOB(max_cwnd), (1u << 30) + 1,
	  "max_cwnd above 1 GiB" },
	{ "eta 0", KNOB(eta), 0, NULL },
	{ "eta above max_cwnd", KNOB(eta), 100001, "eta above max_cwnd" },
	{ "fi 0", KNOB(fi), 0, "fi is 0" },
	{ "fi above max_cwnd", KNOB(fi), 100001, "fi above max_cwnd" },
	{ "fi_scale 0", KNOB(fi_scale), 0, "fi_scale not in (0, 16]" },
	{ "fi_scale 16", KNOB(fi_scale), 16 << 16, NULL },
	{ "fi_scale above 16", KNOB(fi_scale), (16 << 16) + 1,
	  "fi_scale not in (0, 16]" },
	{ "gamma 0", KNOB(gamma), 0, "gamma not in (0, 1]" },
	{ "gamma 1", KNOB(gamma), 1 << 16, NULL },
	{ "gamma above 1", KNOB(gamma), (1 << 16) + 1,
	  "gamma not in (0, 1]" },
	{ "max_md_jump 0", KNOB(max_md_jump), 0,
	  "max_md_jump not in (0, 1/2]" },
	{ "max_md_jump 1/2", KNOB(max_md_jump), 1 << 15, NULL },
	{ "max_md_jump above 1/2", KNOB(max_md_jump), (1 << 15) + 1,
	  "max_md_jump not in (0, 1/2]" },
	{ "qa_gate 31", KNOB(qa_gate), 31, NULL },
	{ "qa_gate 32", KNOB(qa_gate), 32, "qa_gate above 31" },
	{ "qa_threshold at target", KNOB(qa_threshold), 8000, NULL },
	{ "qa_threshold below target", KNOB(qa_threshold), 7999,
	  "qa_threshold below target_delay" },
	{ "adjust_bytes_threshold 0", KNOB(adjust_bytes_threshold), 0,
	  "adjust_bytes_threshold is 0" },
	{ "adjust_period_threshold 0", KNOB(adjust_period_threshold), 0,
	  "adjust_period_threshold is 0" },
};

KUNIT_ARRAY_PARAM_DESC(check, check_cases, desc);

static void params_check(struct kunit *test)
{
	const struct check_case *c = test->param_value;
	struct mrc_cc_params p = knobs;
	const char *why;

	KUNIT_ASSERT_NULL(test, mrc_cc_params_check(&p));
	if (c->off == KNOB(qa_gate))
		p.qa_gate = c->val;
	else
		*(u32 *)((char *)&p + c->off) = c->val;
	why = mrc_cc_params_check(&p);
	if (c->why)
		KUNIT_EXPECT_STREQ(test, c->why, why ?: "(accepted)");
	else
		KUNIT_EXPECT_NULL(test, why);
}

/* profile @pf after @ch: the error and, if refused, that nothing moved */
static int profile_step(struct kunit *test, struct mrc_cc_profile *pf,
			const struct mrc_cc_profile_change *ch)
{
	struct mrc_cc_profile before = *pf;
	const char *why;
	int err;

	why = mrc_cc_profile_apply(pf, ch, &err);
	KUNIT_EXPECT_EQ(test, !!why, !!err);
	if (err) {
		KUNIT_EXPECT_EQ(test, pf->hdr.state, before.hdr.state);
		KUNIT_EXPECT_EQ(test, pf->on, before.on);
		KUNIT_EXPECT_EQ(test, pf->configured, before.configured);
	}
	return err;
}

/*
 * The OCP API's profile states: init -> offline with an algorithm, to
 * online with the knobs (NSCC), online only back to offline and not while
 * QPs use it, init forgets everything; bad knobs are refused anywhere.
 */
static void profile_states(struct kunit *test)
{
	struct mrc_cc_profile pf = { .hdr.state = MRC_CC_PROFILE_STATE_INIT };
	struct mrc_cc_profile_change ch = {};

	/* init: nothing asked is nothing done; online, or no algo, refused */
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), 0);
	ch = (struct mrc_cc_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_ONLINE, .set_algo = true, .on = true };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), -EINVAL);
	ch = (struct mrc_cc_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_OFFLINE };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), -EINVAL);
	/* offline with NSCC; online without knobs refused */
	ch.set_algo = true;
	ch.on = true;
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), 0);
	KUNIT_EXPECT_EQ(test, pf.hdr.state, MRC_CC_PROFILE_STATE_OFFLINE);
	KUNIT_EXPECT_TRUE(test, pf.on);
	ch = (struct mrc_cc_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_ONLINE };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), -EINVAL);
	/* bad knobs refused; good ones and online together */
	ch.set_params = true;
	ch.params = knobs;
	ch.params.gamma = 0;
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), -EINVAL);
	ch.params = knobs;
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), 0);
	KUNIT_EXPECT_EQ(test, pf.hdr.state, MRC_CC_PROFILE_STATE_ONLINE);
	KUNIT_EXPECT_EQ(test, pf.params.max_cwnd, knobs.max_cwnd);
	/* online: no knob, algorithm or init; offline not while a QP uses it */
	ch = (struct mrc_cc_profile_change){ .set_params = true, .params = knobs };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), -EINVAL);
	ch = (struct mrc_cc_profile_change){ .set_algo = true };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), -EINVAL);
	ch = (struct mrc_cc_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_INIT };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), -EINVAL);
	atomic_set(&pf.hdr.qps, 1);
	ch.state = MRC_CC_PROFILE_STATE_OFFLINE;
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), -EBUSY);
	atomic_set(&pf.hdr.qps, 0);
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), 0);
	/* offline: CC off goes online without knobs; init forgets them */
	ch = (struct mrc_cc_profile_change){ .set_algo = true, .on = false };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), 0);
	ch = (struct mrc_cc_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_INIT };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), 0);
	KUNIT_EXPECT_EQ(test, pf.hdr.state, MRC_CC_PROFILE_STATE_INIT);
	KUNIT_EXPECT_FALSE(test, pf.configured);
	KUNIT_EXPECT_EQ(test, pf.params.max_cwnd, 0);
	ch = (struct mrc_cc_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_OFFLINE, .set_algo = true };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), 0);
	ch = (struct mrc_cc_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_ONLINE };
	KUNIT_EXPECT_EQ(test, profile_step(test, &pf, &ch), 0);
	KUNIT_EXPECT_FALSE(test, pf.on);
}

static struct kunit_case mrc_cc_cases[] = {
	KUNIT_CASE_PARAM(quadrants, quadrant_gen_params),
	KUNIT_CASE(fast_increase),
	KUNIT_CASE(qa_on_nack),
	KUNIT_CASE(qa_on_delay),
	KUNIT_CASE(qa_gate),
	KUNIT_CASE(qa_periods),
	KUNIT_CASE(nack_rule),
	KUNIT_CASE(timeout_rule),
	KUNIT_CASE(clamps),
	KUNIT_CASE(decrease_limits),
	KUNIT_CASE(base_rtt_min),
	KUNIT_CASE(fulfill_step),
	KUNIT_CASE(may_send),
	KUNIT_CASE(defaults),
	KUNIT_CASE_PARAM(params_check, check_gen_params),
	KUNIT_CASE(profile_states),
	{}
};

static struct kunit_suite mrc_cc_suite = {
	.name = "mrc_cc",
	.test_cases = mrc_cc_cases,
};

kunit_test_suite(mrc_cc_suite);
