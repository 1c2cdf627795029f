// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC for one QP: the window moves on each ACK by the delay it measured
 * and the ECN mark it echoes, one packet comes off per trim NACK and per
 * timeout, and quick adapt cuts the window to what was delivered when a
 * period saw trims or a very high delay and little throughput. The rules
 * and their constants follow UEC's htsim (uec.cpp), see
 * Documentation/mrc/congestion.rst.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/string.h>

#include "mrc_cc.h"

/* htsim scales fi, eta and fi_scale by the BDP over 100 Gb/s x 12 us */
#define REF_RTT_NS		12000
#define REF_BDP			150000
/*
 * The proportional gain: 4 MTU x a per 12 us below target, while fi is
 * 5 MTU x a; so fi x 4 / 5 per 12 us, i.e. fi per 15 us.
 */
#define PROP_NS			(REF_RTT_NS * 5 / 4)
/* a delay under this (absolute, not scaled) counts as no queue at all */
#define FAST_DELAY_NS		1000
/* the average delay moves by 1/80 of each sample (htsim's 0.0125) */
#define AVG_WEIGHT		80

static_assert(MRC_CC_ONE == 1u << MRC_CC_SHIFT);

/**
 * mrc_cc_params_default() - the knobs htsim derives for a fabric
 * @p: filled in
 * @mtu: path MTU, bytes (at most 64 KiB)
 * @link_mbps: the NIC's link rate, Mb/s
 * @base_rtt_ns: unloaded RTT across the fabric, ns
 * @trimming: the switches trim (target delay 3/4 of the RTT, else all of it)
 *
 * fi, eta and fi_scale scale by a = BDP / 150000 B (100 Gb/s x 12 us);
 * max_cwnd is 1.5 BDP. The result may still fail mrc_cc_params_check()
 * for inputs outside its limits.
 */
void mrc_cc_params_default(struct mrc_cc_params *p, u32 mtu, u32 link_mbps,
			   u32 base_rtt_ns, bool trimming)
{
	u64 bdp = div_u64((u64)base_rtt_ns * link_mbps, 8000);
	u64 target;

	bdp = min_t(u64, bdp, MRC_CC_WND_MAX);
	mtu = min_t(u32, mtu, SZ_64K);
	target = trimming ? (u64)base_rtt_ns * 3 >> 2 : base_rtt_ns;

	memset(p, 0, sizeof(*p));
	p->base_rtt = base_rtt_ns;
	p->target_delay = target;
	p->max_cwnd = clamp_t(u64, bdp * 3 >> 1, mtu, MRC_CC_WND_MAX);
	p->fi = max_t(u64, div_u64(5 * mtu * bdp, REF_BDP), 1);
	p->eta = div_u64(15 * mtu * bdp, 100 * REF_BDP);
	p->fi_scale = max_t(u64, div_u64(bdp << MRC_CC_SHIFT, 4 * REF_BDP), 1);
	p->gamma = DIV_ROUND_CLOSEST(4 * MRC_CC_ONE, 5);
	p->max_md_jump = MRC_CC_ONE / 2;
	p->qa_gate = 3;
	p->qa_threshold = min_t(u64, 4 * target, U32_MAX);
	p->adjust_bytes_threshold = 8 * mtu;
	p->adjust_period_threshold = base_rtt_ns;
	p->disable_qa = false;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_cc_params_default);

/**
 * mrc_cc_params_check() - are these knobs usable?
 * @p: the knobs
 *
 * The limits keep every product of the rules inside 64 bits.
 *
 * Return: NULL, or why not (for extack).
 */
const char *mrc_cc_params_check(const struct mrc_cc_params *p)
{
	if (!p->base_rtt)
		return "base_rtt is 0";
	if (p->base_rtt > MRC_CC_RTT_MAX_NS)
		return "base_rtt above 10 ms";
	if (!p->target_delay)
		return "target_delay is 0";
	if (p->target_delay > MRC_CC_RTT_MAX_NS)
		return "target_delay above 10 ms";
	if (p->max_cwnd < MRC_CC_WND_MIN)
		return "max_cwnd below 256 bytes";
	if (p->max_cwnd > MRC_CC_WND_MAX)
		return "max_cwnd above 1 GiB";
	if (p->eta > p->max_cwnd)
		return "eta above max_cwnd";
	if (!p->fi)
		return "fi is 0";
	if (p->fi > p->max_cwnd)
		return "fi above max_cwnd";
	if (!p->fi_scale || p->fi_scale > MRC_CC_FI_SCALE_MAX)
		return "fi_scale not in (0, 16]";
	if (!p->gamma || p->gamma > MRC_CC_ONE)
		return "gamma not in (0, 1]";
	if (!p->max_md_jump || p->max_md_jump > MRC_CC_ONE / 2)
		return "max_md_jump not in (0, 1/2]";
	if (p->qa_gate > 31)
		return "qa_gate above 31";
	if (p->qa_threshold < p->target_delay)
		return "qa_threshold below target_delay";
	if (!p->adjust_bytes_threshold)
		return "adjust_bytes_threshold is 0";
	if (!p->adjust_period_threshold)
		return "adjust_period_threshold is 0";
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_cc_params_check);

/**
 * mrc_cc_init() - a QP's NSCC state, at its largest window
 * @cc: the state
 * @p: knobs that passed mrc_cc_params_check(); copied
 * @mtu: the QP's path MTU, bytes
 *
 * No slow start: NSCC starts at the largest window (1.5 BDP at the
 * defaults), which a trimming fabric makes cheap to get wrong.
 */
void mrc_cc_init(struct mrc_cc *cc, const struct mrc_cc_params *p, u32 mtu)
{
	memset(cc, 0, sizeof(*cc));
	cc->p = *p;
	cc->mtu = mtu;
	cc->base_rtt = p->base_rtt;
	cc->max_cwnd = max(p->max_cwnd, mtu);
	cc->cwnd = cc->max_cwnd;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_cc_init);

static void set_cwnd(struct mrc_cc *cc, u64 w)
{
	cc->cwnd = clamp_t(u64, w, cc->mtu, cc->max_cwnd);
}

static u64 sat_add(u64 a, u64 b)
{
	u64 r;

	return check_add_overflow(a, b, &r) ? U64_MAX : r;
}

/*
 * An unmarked sample above target goes in as base RTT / 4: delay that
 * no switch marked is taken to be at the ends, not in the fabric.
 */
static void avg_delay_sample(struct mrc_cc *cc, u32 delay, bool marked)
{
	u64 s = delay;

	if (!marked && delay > cc->p.target_delay)
		s = cc->base_rtt / 4;
	cc->avg_delay = div_u64(cc->avg_delay * (AVG_WEIGHT - 1) +
				(s << MRC_CC_AVG_SHIFT), AVG_WEIGHT);
}

/*
 * Quick adapt, at the first ACK or NACK past each period of base RTT +
 * target: when the period saw a NACK, a loss or a marked delay above
 * qa_threshold, and delivered less than max_cwnd >> qa_gate, the window
 * becomes what was delivered, and marked feedback for what was then in
 * flight is ignored. An unmarked delay is the hosts' (as for the
 * average), and a software transport's hosts are slow. True when it
 * fired or ignored this feedback: the caller then leaves the window
 * alone.
 */
static bool quick_adapt(struct mrc_cc *cc, bool loss, bool marked, u32 delay,
			u32 inflight, u64 now)
{
	bool done = false;

	if (cc->p.disable_qa)
		return false;

	if (marked && cc->bytes_ignored < cc->bytes_to_ignore) {
		done = true;
	} else if (now > cc->qa_end) {
		if (cc->qa_end &&
		    (cc->qa_trigger || loss ||
		     (marked && delay > cc->p.qa_threshold)) &&
		    cc->achieved_bytes < (cc->max_cwnd >> cc->p.qa_gate)) {
			set_cwnd(cc, cc->achieved_bytes);
			cc->bytes_to_ignore = inflight;
			cc->bytes_ignored = 0;
			cc->qa_trigger = false;
			cc->stats.quick_adapts++;
			done = true;
		}
		cc->achieved_bytes = 0;
		cc->qa_end = now + cc->base_rtt + cc->p.target_delay;
	}
	if (done) {
		cc->inc_bytes = 0;
		cc->received_bytes = 0;
	}
	return done;
}

/*
 * After a window's worth of bytes acked at a delay under 1 us the path
 * is idle: grow the window by fi_scale per acked byte, at once, until
 * the delay comes back. True while in fast increase.
 */
static bool fast_increase(struct mrc_cc *cc, u32 acked, u32 delay)
{
	if (delay < FAST_DELAY_NS) {
		cc->fi_count += acked;
		if (cc->fast || cc->fi_count > cc->cwnd) {
			set_cwnd(cc, cc->cwnd + ((u64)acked * cc->p.fi_scale >>
						 MRC_CC_SHIFT));
			cc->fast = true;
			cc->stats.fast_increases++;
			return true;
		}
	} else {
		cc->fi_count = 0;
	}
	cc->fast = false;
	return false;
}

/* fi per window acked: the same bytes per RTT whatever the window */
static void fair_increase(struct mrc_cc *cc, u32 acked)
{
	cc->inc_bytes = sat_add(cc->inc_bytes, (u64)cc->p.fi * acked);
	cc->stats.fair_increases++;
}

/* in proportion to how far below target the delay is */
static void proportional_increase(struct mrc_cc *cc, u32 acked, u32 delay)
{
	u64 af = (u64)cc->p.fi * acked;
	u32 below = cc->p.target_delay - delay;
	u64 inc;

	if (fast_increase(cc, acked, delay))
		return;
	if (check_mul_overflow(af, (u64)below, &inc))
		inc = check_mul_overflow(div_u64(af, PROP_NS), (u64)below,
					 &inc) ? U64_MAX : inc;
	else
		inc = div_u64(inc, PROP_NS);
	cc->inc_bytes = sat_add(cc->inc_bytes, inc);
	cc->stats.prop_increases++;
}

/*
 * By gamma x (avg - target) / avg of the window, on the average delay,
 * by at most max_md_jump, and at most once per round trip: the first
 * decrease must show before the next. A round trip is the base RTT or,
 * when longer, the RTT of the ACK that decreased: a host's idle RTT can
 * be a thousandth of its loaded one.
 */
static void multiplicative_decrease(struct mrc_cc *cc, u32 rtt, u64 now)
{
	u64 target = (u64)cc->p.target_delay << MRC_CC_AVG_SHIFT;
	u64 avg = cc->avg_delay;
	u64 cut;

	cc->fast = false;
	cc->fi_count = 0;
	if (avg <= target || now - cc->last_dec <= cc->dec_hold)
		return;
	cut = div64_u64((u64)cc->p.gamma * (avg - target), avg);
	cut = min_t(u64, cut, cc->p.max_md_jump);
	set_cwnd(cc, (u64)cc->cwnd * (MRC_CC_ONE - cut) >> MRC_CC_SHIFT);
	cc->last_dec = now;
	cc->dec_hold = max(cc->base_rtt, rtt);
	cc->stats.decreases++;
}

/* apply the pending increase, and eta once per adjust period */
static void fulfill(struct mrc_cc *cc, u64 now)
{
	u64 w = cc->cwnd + div64_u64(cc->inc_bytes, cc->cwnd);

	if (now - cc->last_adjust >= cc->p.adjust_period_threshold) {
		w += cc->p.eta;
		cc->last_adjust = now;
	}
	set_cwnd(cc, w);
	cc->inc_bytes = 0;
	cc->received_bytes = 0;
}

/**
 * mrc_cc_on_ack() - an ACK acknowledged new bytes
 * @cc: the state
 * @acked_bytes: bytes it newly acknowledged
 * @rtt_ns: RTT of the packet that triggered it less the responder's
 *	    service time, ns; 0 when there is no valid sample (Karn: the
 *	    packet was retransmitted), then the average delay stands in
 * @ecn: it echoes a CE mark
 * @inflight: bytes in flight, these ones no longer counted
 * @now: ns
 */
void mrc_cc_on_ack(struct mrc_cc *cc, u32 acked_bytes, u32 rtt_ns, bool ecn,
		   u32 inflight, u64 now)
{
	u32 delay;

	cc->achieved_bytes += acked_bytes;
	cc->received_bytes += acked_bytes;
	cc->bytes_ignored += acked_bytes;

	if (rtt_ns) {
		/*
		 * The delay's reference only: an idle host's round trip
		 * says nothing of the fabric's BDP, so max_cwnd stays.
		 */
		cc->base_rtt = min(cc->base_rtt, rtt_ns);
		delay = rtt_ns - cc->base_rtt;
		avg_delay_sample(cc, delay, ecn);
	} else {
		delay = mrc_cc_avg_delay(cc);
	}

	if (quick_adapt(cc, false, ecn, delay, inflight, now))
		return;

	if (!ecn) {
		if (delay >= cc->p.target_delay)
			fair_increase(cc, acked_bytes);
		else
			proportional_increase(cc, acked_bytes, delay);
	} else if (delay >= cc->p.target_delay) {
		multiplicative_decrease(cc, cc->base_rtt + delay, now);
	}
	/* ECN below target: a hot path, not a hot fabric; the EV's business */

	if (cc->received_bytes > cc->p.adjust_bytes_threshold ||
	    now - cc->last_adjust > cc->p.adjust_period_threshold)
		fulfill(cc, now);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_cc_on_ack);

/**
 * mrc_cc_on_nack() - a trim NACK: a switch cut a packet to its header
 * @cc: the state
 * @bytes: the trimmed packet's bytes
 * @inflight: bytes in flight, the trimmed packet still counted
 * @now: ns
 *
 * The trim counts as a delay of one base RTT (the configured one, an
 * estimate of the trimming queue's depth) in the average, arms quick
 * adapt, and unless that fires takes the packet off the window.
 */
void mrc_cc_on_nack(struct mrc_cc *cc, u32 bytes, u32 inflight, u64 now)
{
	cc->bytes_ignored += bytes;
	avg_delay_sample(cc, cc->p.base_rtt, true);
	cc->qa_trigger = true;
	if (quick_adapt(cc, true, true, 0, inflight, now))
		return;
	set_cwnd(cc, cc->cwnd > bytes ? cc->cwnd - bytes : 0);
	cc->stats.nack_decreases++;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_cc_on_nack);

/**
 * mrc_cc_on_timeout() - a packet timed out and goes again
 * @cc: the state
 * @bytes: its bytes
 *
 * One packet off the window, as for a NACK; no quick adapt, no average.
 */
void mrc_cc_on_timeout(struct mrc_cc *cc, u32 bytes)
{
	set_cwnd(cc, cc->cwnd > bytes ? cc->cwnd - bytes : 0);
	cc->stats.timeouts++;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_cc_on_timeout);
