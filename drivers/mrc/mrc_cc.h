/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NSCC, the sender-based congestion control of UEC 1.0 that MRC 1.0 uses
 * ("uet-1.0-nscc" in the OCP MRC controller API), for one QP: the window,
 * the delay it reads, and the rules that move the window on ACKs, trim
 * NACKs and timeouts. Pure state and rules: the caller owns the QP, the
 * lock and the clock, and feeds in what the wire says.
 *
 * Units: times in ns, windows and byte counts in bytes (of payload: the
 * bytes the requester counts as acked), fractions in MRC_CC_ONE fixed
 * point. Documentation/mrc/congestion.rst has the rules and where they
 * follow UEC's htsim.
 */
#ifndef _MRC_CC_H
#define _MRC_CC_H

#include <linux/atomic.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <uapi/linux/mrc.h>

#include "mrc_profile.h"

/* fixed point of the fractional knobs (gamma, fi_scale, max_md_jump) */
#define MRC_CC_SHIFT		16
#define MRC_CC_ONE		65536u		/* 1 << MRC_CC_SHIFT */

/* the average delay is kept in ns << MRC_CC_AVG_SHIFT, for precision */
#define MRC_CC_AVG_SHIFT	8

/* the limits mrc_cc_params_check() enforces */
#define MRC_CC_WND_MIN		256		/* smallest RoCE MTU */
#define MRC_CC_WND_MAX		SZ_1G
#define MRC_CC_RTT_MAX_NS	10000000u	/* 10 ms: a datacenter fabric */
#define MRC_CC_FI_SCALE_MAX	(16 * MRC_CC_ONE)

/**
 * struct mrc_cc_params - the knobs of one NSCC profile (OCP MRC
 * mrc_ctl_cc_nscc_cfg, same names)
 * @base_rtt: unloaded RTT of the fabric, ns; the start of the measured
 *	      base RTT, which only goes down from here
 * @target_delay: queueing delay NSCC steers to, ns
 * @max_cwnd: largest window, bytes
 * @eta: additive increase, bytes, once per @adjust_period_threshold
 * @fi: fair increase, bytes per window acked; the proportional increase
 *	is 4/5 of it per 12 us of delay below target (htsim's ratio)
 * @fi_scale: fast increase, window bytes per acked byte, MRC_CC_ONE = 1
 * @gamma: multiplicative decrease gain, MRC_CC_ONE = 1
 * @max_md_jump: largest fraction of the window one decrease takes,
 *		 MRC_CC_ONE = 1, at most one half
 * @qa_threshold: marked delay above which quick adapt may fire, ns
 * @adjust_bytes_threshold: acked bytes that apply the pending increase
 * @adjust_period_threshold: time that applies it (and @eta), ns
 * @qa_gate: quick adapt fires only below max window >> @qa_gate bytes
 *	     delivered per period
 * @disable_qa: never quick adapt
 */
struct mrc_cc_params {
	u32 base_rtt;
	u32 target_delay;
	u32 max_cwnd;
	u32 eta;
	u32 fi;
	u32 fi_scale;
	u32 gamma;
	u32 max_md_jump;
	u32 qa_threshold;
	u32 adjust_bytes_threshold;
	u32 adjust_period_threshold;
	u8 qa_gate;
	bool disable_qa;
};

/**
 * struct mrc_cc_stats - what the rules did, since mrc_cc_init()
 * @decreases: multiplicative decreases applied
 * @quick_adapts: quick adapts fired
 * @fair_increases: ACKs that took the fair increase
 * @prop_increases: ACKs that took the proportional increase
 * @fast_increases: ACKs that grew the window by fast increase
 * @nack_decreases: trim NACKs that took a packet off the window
 * @timeouts: retransmission timeouts that took a packet off the window
 */
struct mrc_cc_stats {
	u64 decreases;
	u64 quick_adapts;
	u64 fair_increases;
	u64 prop_increases;
	u64 fast_increases;
	u64 nack_decreases;
	u64 timeouts;
};

/* what congestion control took, for the mrc_cc tracepoint */
enum mrc_cc_event {
	MRC_CC_EV_ACK,
	MRC_CC_EV_NACK,
	MRC_CC_EV_TIMEOUT,
};

/**
 * struct mrc_cc - NSCC state of one QP; lives as long as the QP, under
 *		   whatever lock serialises its requester
 * @p: the profile's knobs, copied at init
 * @mtu: the QP's path MTU, bytes: the smallest window
 * @cwnd: congestion window, bytes, in [@mtu, @max_cwnd]
 * @max_cwnd: @p.max_cwnd, bytes, at least @mtu
 * @base_rtt: smallest RTT seen (and @p.base_rtt before any), ns
 * @avg_delay: slow average of the delay, ns << MRC_CC_AVG_SHIFT; only
 *	       the multiplicative decrease reads it
 * @inc_bytes: pending fair and proportional increase, bytes^2: divided
 *	       by the window when applied
 * @received_bytes: bytes acked since the increase was last applied
 * @last_adjust: when @p.eta was last added, ns (0: never)
 * @last_dec: time of the last multiplicative decrease, ns (0: never)
 * @dec_hold: no decrease until this long after @last_dec, ns: the round
 *	      trip in which that one shows
 * @fi_count: bytes acked in a row at a delay under 1 us
 * @fast: in fast increase
 * @qa_end: end of the current quick adapt period, ns (0: none yet)
 * @achieved_bytes: bytes acked in the current quick adapt period
 * @bytes_to_ignore: bytes in flight when quick adapt last fired
 * @bytes_ignored: bytes acked or NACKed since then
 * @qa_trigger: a NACK came; quick adapt at the next period's end
 * @stats: counters
 */
struct mrc_cc {
	struct mrc_cc_params p;
	u32 mtu;
	u32 cwnd;
	u32 max_cwnd;
	u32 base_rtt;
	u64 avg_delay;
	u64 inc_bytes;
	u64 received_bytes;
	u64 last_adjust;
	u64 last_dec;
	u32 dec_hold;
	u64 fi_count;
	bool fast;
	u64 qa_end;
	u64 achieved_bytes;
	u64 bytes_to_ignore;
	u64 bytes_ignored;
	bool qa_trigger;
	struct mrc_cc_stats stats;
};

/**
 * struct mrc_cc_profile - a congestion control profile a device keeps for
 *			   its controller (mrc_cc_profile.c)
 * @hdr: its id, state and QPs (mrc_profile.h)
 * @on: its algorithm is NSCC (else none)
 * @configured: @params were given
 * @params: NSCC's knobs
 */
struct mrc_cc_profile {
	struct mrc_profile hdr;
	bool on;
	bool configured;
	struct mrc_cc_params params;
};

/* what a cc-profile-set asks of a profile (mrc_cc_profile_apply()) */
struct mrc_cc_profile_change {
	bool set_state;
	bool set_algo;
	bool set_params;
	u8 state;
	bool on;
	struct mrc_cc_params params;
};

const char *mrc_cc_profile_apply(struct mrc_cc_profile *pf,
				 const struct mrc_cc_profile_change *ch,
				 int *err);

void mrc_cc_params_default(struct mrc_cc_params *p, u32 mtu, u32 link_mbps,
			   u32 base_rtt_ns, bool trimming);
const char *mrc_cc_params_check(const struct mrc_cc_params *p);

void mrc_cc_init(struct mrc_cc *cc, const struct mrc_cc_params *p, u32 mtu);
void mrc_cc_on_ack(struct mrc_cc *cc, u32 acked_bytes, u32 rtt_ns, bool ecn,
		   u32 inflight, u64 now);
void mrc_cc_on_nack(struct mrc_cc *cc, u32 bytes, u32 inflight, u64 now);
void mrc_cc_on_timeout(struct mrc_cc *cc, u32 bytes);

/* may a packet of @len bytes go, with @inflight bytes unacked? */
static inline bool mrc_cc_may_send(const struct mrc_cc *cc, u32 inflight,
				   u32 len)
{
	return (u64)inflight + len <= cc->cwnd;
}

/* the average delay the multiplicative decrease reads, ns */
static inline u32 mrc_cc_avg_delay(const struct mrc_cc *cc)
{
	return cc->avg_delay >> MRC_CC_AVG_SHIFT;
}

#endif /* _MRC_CC_H */
