// SPDX-License-Identifier: GPL-2.0
/*
 * Loss detection, RTT samples and the retransmission timer of an RC QP.
 *
 * A QP that sprays (has an EV set) takes a PSN as lost when a packet sent
 * after it on the same EV has arrived (paths deliver in order, the fabric
 * as a whole does not), or when it is overdue by twice its EV's RTT while
 * later packets arrive (a path that delivers nothing). Such a loss tells
 * the scheduler (mrc_sched.c), which makes the EV SKIP or ASSUMED_BAD
 * (mrc_ev.h); the send engine sends the PSN again on another EV. Without an
 * EV set, a PSN below the highest SACKed one by MRC_DUPTHRESH or more that
 * has not arrived is lost. Only lost PSNs are sent again (no go-back-N).
 *
 * Timeouts: a retransmission timer from the measured RTT (RFC 6298 style,
 * backed off linearly then exponentially per expiry until the next sample)
 * marks the oldest unacknowledged PSNs lost and, on a spraying QP, asks
 * for a reliability probe of the responder's SACK state. The QP's timeout
 * attribute bounds it and counts retries: retry_cnt timeouts without
 * progress (no PSN newly acknowledged, cumulatively or selectively, and
 * no trim NACK) end the connection, which mrc_loss_timeout() reports to
 * its caller (the completer fails the oldest WQE). The same timer wakes
 * the requester when probes of ASSUMED_BAD EVs are due, and at the end of
 * an RNR wait. An expiry that finds no packet overdue in the fabric is no
 * timeout. A resend a switch cut again pauses the sending
 * (mrc_loss_trim_pause(), its own high-resolution timer).
 *
 * A plane that goes down, here or at the peer, loses what is out on it:
 * mrc_loss_planes_down() marks it lost at once, with no timeout.
 *
 * Everything runs under qp->lock.
 */
#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <linux/random.h>

#include "mrc_req.h"
#include "mrc_trace.h"

#define MRC_DUPTHRESH		3
#define MRC_RTO_MIN_US		2000
#define MRC_RTO_INIT_US		20000
#define MRC_RTO_MAX_US		1000000	/* backoff cap without a QP timeout */
#define MRC_RTO_LINEAR		3	/* expiries that add one RTO each */
#define MRC_RTO_BACKOFF_MAX	(MRC_RTO_LINEAR + 10)
#define MRC_TO_BURST		64	/* PSNs resent per timeout */
#define MRC_REO_MIN_US		1000	/* reordering allowance on one EV */
#define MRC_RTT_MAX_US		(10 * USEC_PER_SEC)	/* longer: a stale slot */
#define MRC_PAUSE_MIN_US	1	/* shortest trim pause */
#define MRC_PAUSE_BACKOFF_MAX	6	/* doublings of it in a row */
#define MRC_PAUSE_MAX_US	100000	/* what they reach at most */

/* ---- RTT ------------------------------------------------------------------ */

/**
 * mrc_loss_rtt_sample() - the one place RTT samples are taken
 * @qp: an RC QP; qp->lock held
 * @psn: a PSN in flight that was just acknowledged or answered
 * @kind: whose estimate the sample feeds
 *
 * From the send time of @psn's last transmission. A resent PSN gives none:
 * its acknowledgment does not tell which copy arrived (Karn). The QP's
 * estimate (for the RTO) is RFC 6298's smoothed RTT and deviation; a new
 * sample takes back every backoff of the RTO.
 *
 * Return: the sample, us (at least 1), or 0 when there is none.
 */
u32 mrc_loss_rtt_sample(struct mrc_qp *qp, u32 psn, enum mrc_rtt_kind kind)
{
	struct mrc_req *r = &qp->req;
	u32 s = now_us() - r->sent_us[tslot(psn)];

	if (r->txs[tslot(psn)] & MRC_TX_RTXED)
		return 0;
	if (kind == MRC_RTT_EV) {
		mrc_sched_on_rtt(qp, r->txev[tslot(psn)], s);
		return max(s, 1U);
	}
	if (s > MRC_RTT_MAX_US)
		return 0;
	r->rto_backoff = 0;
	r->last_rtt_us = s;
	r->rtt_peak_us = max(s, r->rtt_peak_us - r->rtt_peak_us / 256);
	if (!r->srtt_us) {
		r->srtt_us = s;
		r->rttvar_us = s / 2;
	} else {
		u32 d = abs((s32)(r->srtt_us - s));

		r->rttvar_us = (3 * r->rttvar_us + d) / 4;
		r->srtt_us = (7 * r->srtt_us + s) / 8;
	}
	return max(s, 1U);
}

/* ---- retransmission timer ---------------------------------------------- */

/* the QP timeout attribute: 4.096 us * 2^timeout; 0 means infinite */
static u64 timeout_attr_us(u8 t)
{
	if (!t)
		return 0;
	return (4096ULL << min_t(u8, t, 31)) / 1000;
}

/**
 * mrc_loss_timed_out() - has a QP gone a whole QP timeout without progress?
 * @timeout: the QP timeout attribute (0: infinite)
 * @elapsed: jiffies since the last progress
 *
 * Compared in 64 bits: from a timeout attribute of 30 on, the timeout is
 * more than 2^32 us, which jiffies_to_usecs() never reaches.
 *
 * Return: true when @elapsed is at least the timeout.
 */
VISIBLE_IF_KUNIT bool mrc_loss_timed_out(u8 timeout, unsigned long elapsed)
{
	u64 limit = timeout_attr_us(timeout);

	return limit && jiffies64_to_nsecs(elapsed) >= limit * NSEC_PER_USEC;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_loss_timed_out);

/*
 * RFC 6298: the smoothed RTT plus four deviations. Backed off as MRC's ACK
 * timer is, linearly then exponentially: the n-th expiry in a row makes
 * it n + 1 times that for the first MRC_RTO_LINEAR, then doubles it (a
 * lost packet or two is resent soon; a dead fabric is not flooded). Each
 * advance of snd_una takes one expiry back, the next RTT sample all of
 * them (Karn). At most the QP's timeout attribute (as hardware does) or,
 * without one, MRC_RTO_MAX_US.
 */
static u32 rto_us(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u64 limit = timeout_attr_us(qp->attr.timeout), rto, cap;

	rto = r->srtt_us ? r->srtt_us + max(4 * r->rttvar_us, 1000U) :
			   MRC_RTO_INIT_US;
	/*
	 * In a fabric that marks or trims, congestion shows as marks and cut
	 * packets rather than drops: a packet the queues hold is late, not
	 * lost, and a queue that filled once (the largest RTT lately) may
	 * fill again faster than the deviation follows.
	 */
	if (r->marked || r->trimmed)
		rto = max_t(u64, rto, 2ULL * r->rtt_peak_us);
	rto = max_t(u64, rto, MRC_RTO_MIN_US);
	cap = limit ? max_t(u64, limit, MRC_RTO_MIN_US) :
		      max_t(u64, rto, MRC_RTO_MAX_US);
	if (r->rto_backoff <= MRC_RTO_LINEAR)
		rto *= r->rto_backoff + 1;
	else
		rto = rto * (MRC_RTO_LINEAR + 1) << (r->rto_backoff - MRC_RTO_LINEAR);
	return min3(rto, cap, (u64)U32_MAX);
}

/*
 * The base wait between two probes of an ASSUMED_BAD EV: twice the QP's
 * RTT (mrc_evset_probes() takes twice the EV's own if longer, and backs
 * off while they go unanswered).
 */
u32 mrc_loss_probe_us(struct mrc_qp *qp)
{
	return max_t(u32, 2 * qp->req.srtt_us, MRC_PROBE_MIN_US);
}

/**
 * mrc_loss_timer_update() - set the QP's timer to what is due first
 * @qp: an RC QP; qp->lock held
 * @exact: move it later too
 *
 * One timer serves the retransmission timeout (while @rto_armed) and the
 * probes of ASSUMED_BAD EVs: it is set to the earlier of the two. Without
 * @exact it only moves earlier (an early expiry finds nothing due and sets
 * it again).
 */
void mrc_loss_timer_update(struct mrc_qp *qp, bool exact)
{
	struct mrc_req *r = &qp->req;
	unsigned long when = r->rto_deadline;
	bool set = r->rto_armed;

	if (qp->dying)
		return;
	if (qp->evs && qp->evs->nbad) {
		unsigned long p = jiffies + usecs_to_jiffies(mrc_loss_probe_us(qp)) + 1;

		if (!set || time_before(p, when))
			when = p;
		set = true;
	}
	if (set && (exact || !timer_pending(&qp->timer) ||
		    time_before(when, qp->timer.expires)))
		mod_timer(&qp->timer, when);
}

/* (Re)start the retransmission timeout */
static void arm(struct mrc_qp *qp)
{
	unsigned long when = jiffies + usecs_to_jiffies(rto_us(qp)) + 1;

	/* never cut an RNR wait short */
	if (qp->req.rnr_wait && time_before(when, qp->req.rnr_until))
		when = qp->req.rnr_until;
	qp->req.rto_deadline = when;
	qp->req.rto_armed = true;
	mrc_loss_timer_update(qp, true);
}

/* Packets were sent: a timeout watches them unless one already does */
void mrc_loss_watch(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;

	if (r->snd_una != r->snd_nxt && !r->rto_armed)
		arm(qp);
}

/* Nothing is outstanding: no timeout; probes may still be due */
void mrc_loss_stop(struct mrc_qp *qp)
{
	qp->req.rto_armed = false;
	if (qp->dying)
		return;
	del_timer(&qp->timer);
	mrc_loss_timer_update(qp, false);
}

/* An RNR NAK: nothing is sent for @us; the timer ends the wait */
void mrc_loss_rnr_wait(struct mrc_qp *qp, u32 us)
{
	struct mrc_req *r = &qp->req;

	r->rnr_wait = true;
	r->rnr_until = jiffies + usecs_to_jiffies(us) + 1;
	if (!qp->dying)
		mod_timer(&qp->timer, r->rnr_until);
}

/* Is an RNR wait still on? Ends it when its time has come. */
bool mrc_loss_rnr_waiting(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;

	if (!r->rnr_wait)
		return false;
	if (time_before(jiffies, r->rnr_until)) {
		if (!timer_pending(&qp->timer) && !qp->dying)
			mod_timer(&qp->timer, r->rnr_until);
		return true;
	}
	r->rnr_wait = false;
	return false;
}

/**
 * mrc_loss_pause_us() - how long a resend cut again holds the sending
 * @r: the requester's send window
 * @base: the round trip the pause is made of, us
 * @sent: when the cut copy was sent (mrc_now_us())
 *
 * Senders that one full port cuts together would come back together and
 * be cut together again, so each pause in a row (the queue has not moved
 * since the last one) is twice the last, up to MRC_PAUSE_MAX_US (never
 * below @base). A copy sent before the last pause ended is of the burst
 * that pause answered: its cut starts no new one.
 *
 * Return: the pause, us, before its jitter; 0 for none.
 */
VISIBLE_IF_KUNIT u32 mrc_loss_pause_us(const struct mrc_req *r, u32 base,
				       u32 sent)
{
	u64 us = (u64)base << r->trim_backoff;

	if (r->trim_backoff && (s32)(sent - r->pause_until_us) < 0)
		return 0;
	return max_t(u64, base, min_t(u64, us, MRC_PAUSE_MAX_US));
}
EXPORT_SYMBOL_IF_KUNIT(mrc_loss_pause_us);

/**
 * mrc_loss_trim_pause() - a resend was cut too: hold the sending
 * @qp: an RC QP; qp->lock held
 * @psn: the PSN whose resend was cut
 *
 * The queue that cut the first copy is still full. The next copy, sent as
 * soon as this NACK is back, would be cut again, and each cut header takes
 * the switch's priority queue from the data that drains the full one: a
 * few QPs resending at the speed of their NACKs can starve the rest, whose
 * packets then wait in that queue past their timeouts. Nothing is sent
 * for half the smoothed RTT (at least the cut copy's own round trip),
 * doubled for each pause in a row (mrc_loss_pause_us()), plus up to as
 * much again of random jitter, or until an acknowledgment of new data
 * says the queue moved. A high resolution timer: on a fast fabric that is
 * microseconds.
 */
void mrc_loss_trim_pause(struct mrc_qp *qp, u32 psn)
{
	struct mrc_req *r = &qp->req;
	u32 now = now_us(), sent = r->sent_us[tslot(psn)], us;

	if (qp->dying)
		return;
	us = mrc_loss_pause_us(r, max3(r->srtt_us / 2, now - sent,
				       (u32)MRC_PAUSE_MIN_US), sent);
	if (!us)
		return;
	us += get_random_u32_below(min_t(u32, us, MRC_PAUSE_MAX_US));
	if (r->trim_backoff < MRC_PAUSE_BACKOFF_MAX)
		r->trim_backoff++;
	r->paused = true;
	r->pause_until_us = now + us;
	hrtimer_start(&qp->pause_timer, ns_to_ktime((u64)us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL);
}

/* Is a trim pause on? Ends it when its time has come. */
bool mrc_loss_paused(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;

	if (r->paused && (s32)(now_us() - r->pause_until_us) < 0)
		return true;
	r->paused = false;
	return false;
}

/*
 * The peer answered for a PSN in flight (an acknowledgment, or a trim NACK:
 * the packet crossed the fabric, cut): the connection is alive and the
 * retry count starts again. A hole behind a deep queue, or a QP whose
 * packets a full switch cuts over and over, is not a dead peer.
 */
void mrc_loss_alive(struct mrc_qp *qp)
{
	qp->req.progress = jiffies;
	qp->req.retry_left = qp->attr.retry_cnt;
}

/* A PSN arrived, selectively or not; a trim pause ends: the queue moved */
void mrc_loss_delivered(struct mrc_qp *qp)
{
	mrc_loss_alive(qp);
	qp->req.paused = false;
	qp->req.trim_backoff = 0;
}

/*
 * snd_una moved: progress takes one backoff of the RTO back, and the PSN
 * before it gives the QP's RTT sample (READ PSNs give theirs with their
 * response). The timeout restarts for what is still in flight.
 */
void mrc_loss_advanced(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u32 last = mrc_psn_add(r->snd_una, -1);

	if (r->rto_backoff)
		r->rto_backoff--;
	if (!(r->txs[tslot(last)] & MRC_TX_RD))
		mrc_loss_rtt_sample(qp, last, MRC_RTT_QP);
	mrc_loss_delivered(qp);
	if (r->snd_una != r->snd_nxt)
		arm(qp);
	else if (!r->rnr_wait)
		mrc_loss_stop(qp);
}

/* ---- losses ------------------------------------------------------------- */

/**
 * mrc_loss_mark() - @psn did not arrive: the send engine resends it
 * @qp: an RC QP; qp->lock held
 * @psn: a PSN in flight, not acknowledged nor already lost
 * @sig: what it tells its EV's health (see lost_sig() and timeout_sig()),
 *	or < 0: nothing (a NAK); a READ's says nothing either, its response
 *	came over the peer's paths
 */
void mrc_loss_mark(struct mrc_qp *qp, u32 psn, int sig)
{
	struct mrc_req *r = &qp->req;
	u32 s = tslot(psn);

	tx_lost(r, psn);
	mrc_sched_on_loss(qp, r->txev[s], r->txseq[s],
			  r->txs[s] & MRC_TX_RD ? -1 : sig);
}

/**
 * mrc_loss_plane_next() - the next PSN out on one of some planes
 * @r: the requester's send window
 * @evs: the QP's EV set, or NULL (nothing is sent on a plane of its own)
 * @mask: the planes
 * @psn: where to look from: a PSN in flight, or snd_nxt
 *
 * Return: the first PSN from @psn on whose last copy went on an EV of a
 * plane in @mask and that is neither acknowledged nor known lost, or
 * snd_nxt when there is none.
 */
VISIBLE_IF_KUNIT u32 mrc_loss_plane_next(const struct mrc_req *r,
					 const struct mrc_evset *evs, u16 mask,
					 u32 psn)
{
	for (; evs && psn != r->snd_nxt; psn = mrc_psn_add(psn, 1)) {
		u32 s = tslot(psn);
		u8 i = r->txev[s];

		if (!(r->txs[s] & (MRC_TX_ACKED | MRC_TX_LOST)) && i < evs->n &&
		    (mask & BIT(evs->ev[i].plane)))
			return psn;
	}
	return r->snd_nxt;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_loss_plane_next);

/* the planes @evs has EVs on */
static u16 set_planes(const struct mrc_evset *evs)
{
	u16 planes = 0;
	u32 i;

	for (i = 0; i < evs->n; i++)
		planes |= BIT(evs->ev[i].plane);
	return planes;
}

/**
 * mrc_loss_planes_down() - planes went down: what is out on them is lost
 * @qp: an RC QP; qp->lock held
 * @mask: the planes: here (carrier or netdev down, admin down, removed;
 *	mrc_qp_planes_down()) or at the peer (its SACKs' port status)
 *
 * Nothing on them will arrive, and nothing will say so: no later packet
 * on their EVs arrives (the drop rule) and SACKs name few of them (the
 * overdue rule), so the retransmission timeout would find them,
 * MRC_TO_BURST per expiry with backoff: seconds. Marked lost now, they
 * are resent first, on the planes still up (the scheduler skips the
 * others); their bytes leave the window, so the resends take the room
 * they had. Their EVs are not at fault and keep their health: a plane
 * that comes back is used at once. A packet that did arrive is sent
 * twice, and the responder drops the copy. With no plane of the set up
 * at both ends a resend would meet the same fate: the timeout takes them.
 *
 * A plane is taken once per two RTTs at most (@down_done): a flapping
 * carrier, or port statuses of SACKs that overtook each other, or forged
 * ones, would otherwise have the whole window resent at each flip.
 */
void mrc_loss_planes_down(struct mrc_qp *qp, u16 mask)
{
	struct mrc_evset *evs = qp->evs;
	u32 n[MRC_MAX_PLANES] = {}, p;
	struct mrc_req *r = &qp->req;

	if (!evs || !mask || qp->dying || qp->state != IB_QPS_RTS ||
	    !(mrc_qp_planes(qp) & evs->peer_up & set_planes(evs)))
		return;
	if (r->down_done &&
	    time_after(jiffies, r->down_at + 1 +
		       usecs_to_jiffies(max_t(u32, 2 * r->srtt_us, MRC_REO_MIN_US))))
		r->down_done = 0;
	mask &= ~r->down_done;
	if (!mask)
		return;
	if (!r->down_done)
		r->down_at = jiffies;
	r->down_done |= mask;
	for (p = mrc_loss_plane_next(r, evs, mask, r->snd_una);
	     p != r->snd_nxt;
	     p = mrc_loss_plane_next(r, evs, mask, mrc_psn_add(p, 1))) {
		n[evs->ev[r->txev[tslot(p)]].plane]++;
		mrc_loss_mark(qp, p, -1);
	}
	for (p = 0; p < MRC_MAX_PLANES; p++)
		if (n[p])
			mrc_plane_count_id(qp->mdev, p, MRC_PCNT_DOWN_LOST, n[p]);
}

static u32 reo_us(const struct mrc_req *r)
{
	return max_t(u32, r->srtt_us / 4, MRC_REO_MIN_US);
}

/* @p, sent on @e, is overdue: the path-that-delivers-nothing rule above */
static bool overdue(struct mrc_qp *qp, u32 p, const struct mrc_ev *e, u32 now)
{
	struct mrc_req *r = &qp->req;

	return r->srtt_us && e->srtt_us &&
	       now - r->sent_us[tslot(p)] >
	       2 * max3(e->srtt_us, r->srtt_us, r->last_rtt_us) + reo_us(r);
}

/*
 * Is the missing PSN @p lost, and what does that say of its path? A
 * spraying QP (EV set) asks whether a packet sent on the same EV after @p,
 * and more than a reordering allowance after it, has arrived: paths
 * deliver (nearly) in order, the fabric as a whole does not. The allowance
 * (RACK style: a quarter RTT, at least MRC_REO_MIN_US) covers packets of
 * one path that left from different CPUs and overtook each other. Such a
 * loss is a drop on a path that works (MRC_EV_SIG_DROP: congestion, where
 * a trimming fabric would have trimmed). A path that delivers nothing at
 * all gives no such packet: @p is also lost when it is older than twice
 * the RTT of its EV, or the QP's, or the QP's latest sample, whichever is
 * longest (a queue that builds up must not look like a dead path, and the
 * smoothed RTT lags it), plus the allowance, while later packets arrived
 * (MRC_EV_SIG_LOSS); an EV with no RTT of its own
 * yet (a slow plane's may be many times the QP's) is left to the RTO.
 * (Comparing with packets sent later on other paths is faster but, with
 * the deep queues of a fabric without congestion control, takes queueing
 * for loss.) A resent PSN went on a new EV and is judged on it.
 * READ PSNs, answered over the responder's own paths, and QPs without EVs
 * use the PSN rule: @p is MRC_DUPTHRESH or more below the highest PSN that
 * arrived (a resent PSN gets a new chance until the next timeout).
 *
 * Return: the signal for the EV's health, or -1 if @p is not lost (yet).
 */
static int lost_sig(struct mrc_qp *qp, u32 p, u32 high)
{
	struct mrc_req *r = &qp->req;
	u8 f = r->txs[tslot(p)];
	struct mrc_ev *e = tx_ev(qp, p);
	u32 sent;

	if (!e || (f & MRC_TX_RD))
		return !(f & MRC_TX_RTXED) &&
		       mrc_psn_diff(high, p) >= MRC_DUPTHRESH ?
		       MRC_EV_SIG_LOSS : -1;
	sent = r->sent_us[tslot(p)];
	if (e->delivered && (s32)(e->deliv_seq - r->txseq[tslot(p)]) > 0 &&
	    (s32)(e->deliv_us - sent) > (s32)reo_us(r))
		return MRC_EV_SIG_DROP;
	if (overdue(qp, p, e, now_us()))
		return MRC_EV_SIG_LOSS;
	return -1;
}

/**
 * mrc_loss_check() - a SACK reports @psn missing: is it lost?
 * @qp: an RC QP; qp->lock held
 * @psn: the PSN after the cumulative ack, or a clear bit of the bitmap
 * @high: the highest PSN the SACK reports arrived
 *
 * PSNs a SACK does not cover are unknown, never lost.
 */
void mrc_loss_check(struct mrc_qp *qp, u32 psn, u32 high)
{
	struct mrc_req *r = &qp->req;
	int sig;

	if (mrc_psn_diff(psn, high) < 0 && in_flight(r, psn) &&
	    !(r->txs[tslot(psn)] & (MRC_TX_ACKED | MRC_TX_LOST))) {
		sig = lost_sig(qp, psn, high);
		if (sig >= 0)
			mrc_loss_mark(qp, psn, sig);
	}
}

/* ---- timeouts ----------------------------------------------------------- */

/*
 * What the PSNs a timeout resends say of their paths. All on one path: it
 * has failed (MRC_EV_SIG_TIMEOUT: its EVs retire at once). On several:
 * the fabric dropped a burst or stalls (congestion), or one path died
 * while the others' queues were deep, which says nothing of any one path
 * (-1): each PSN is judged by the overdue rule of lost_sig() instead (see
 * mrc_loss_timeout()).
 */
static int timeout_sig(struct mrc_qp *qp, u32 age, u32 now)
{
	struct mrc_req *r = &qp->req;
	u32 p, n = 0;
	int path = -1;

	for (p = r->snd_una; p != r->snd_nxt && n < MRC_TO_BURST;
	     p = mrc_psn_add(p, 1)) {
		struct mrc_ev *e = tx_ev(qp, p);

		if ((r->txs[tslot(p)] & MRC_TX_ACKED) ||
		    (s32)(now - r->sent_us[tslot(p)]) < (s32)age)
			continue;
		n++;
		if (!e)
			continue;
		if (path >= 0 && path != e->path)
			return -1;
		path = e->path;
	}
	return MRC_EV_SIG_TIMEOUT;
}

/*
 * The signal a timeout gives the EV of PSN @p: @sig, or, when it spans
 * several paths (@sig < 0), the overdue rule's: once marked lost here,
 * @p is never judged by lost_sig(), and a dead path hidden among deep
 * queues would keep its EVs.
 */
static int psn_sig(struct mrc_qp *qp, u32 p, int sig, u32 now)
{
	const struct mrc_ev *e = tx_ev(qp, p);

	if (sig >= 0 || !e)
		return sig;
	return overdue(qp, p, e, now) ? MRC_EV_SIG_LOSS : -1;
}

/**
 * mrc_loss_overdue() - is a packet out in the fabric and late?
 * @r: the requester's send window
 * @age: the retransmission timeout, us
 * @now: mrc_now_us()
 *
 * PSNs known lost wait for the send engine (its window, a trim pause),
 * not for the fabric: a timer that finds only those found nothing late.
 *
 * Return: true when a PSN sent at least @age ago is neither acknowledged
 * nor known lost.
 */
VISIBLE_IF_KUNIT bool mrc_loss_overdue(const struct mrc_req *r, u32 age, u32 now)
{
	u32 p;

	for (p = r->snd_una; p != r->snd_nxt; p = mrc_psn_add(p, 1))
		if (!(r->txs[tslot(p)] & (MRC_TX_ACKED | MRC_TX_LOST)) &&
		    (s32)(now - r->sent_us[tslot(p)]) >= (s32)age)
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_loss_overdue);

/**
 * mrc_loss_timeout() - the timer expired: is a retransmission timeout due?
 * @qp: an RC QP in RTS; qp->lock held
 *
 * Marks the oldest PSNs that did not arrive and were sent at least one RTO
 * ago lost (younger ones may still be on their way), backs off, and asks
 * for a probe of the responder's SACK state.
 *
 * Return: true when the retries are used up: the connection failed.
 */
bool mrc_loss_timeout(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u32 p, n = 0, age, now;
	int sig;

	/* an expiry for the probes, or a timeout that was moved on */
	if (r->snd_una == r->snd_nxt || r->rnr_wait || !r->rto_armed ||
	    time_before(jiffies, r->rto_deadline))
		return false;
	age = rto_us(qp);
	now = now_us();
	if (!mrc_loss_overdue(r, age, now)) {
		/* all it watches waits here, to be resent: not a timeout */
		arm(qp);
		return false;
	}
	mrc_count(qp->mdev, MRC_CNT_TIMEOUTS, 1);
	if (mrc_loss_timed_out(qp->attr.timeout, jiffies - r->progress)) {
		if (!r->retry_left) {
			mrc_count(qp->mdev, MRC_CNT_RETRY_EXC, 1);
			return true;
		}
		r->retry_left--;
		r->progress = jiffies;
	}
	r->rto_backoff = min(r->rto_backoff + 1, MRC_RTO_BACKOFF_MAX);
	sig = timeout_sig(qp, age, now);
	for (p = r->snd_una; p != r->snd_nxt && n < MRC_TO_BURST;
	     p = mrc_psn_add(p, 1)) {
		u8 *f = &r->txs[tslot(p)];

		if ((*f & MRC_TX_ACKED) ||
		    (s32)(now - r->sent_us[tslot(p)]) < (s32)age)
			continue;
		*f &= ~MRC_TX_RTXED;
		if (!(*f & MRC_TX_LOST))
			mrc_loss_mark(qp, p, psn_sig(qp, p, sig, now));
		n++;
	}
	/* the oldest resend comes off the window, once per timeout */
	if (r->cc_on && n) {
		mrc_cc_on_timeout(&r->cc, qp->mtu);
		atomic64_inc(&qp->mdev->cc_timeouts);
		trace_mrc_cc(qp->mdev, qp->ibqp.qp_num, MRC_CC_EV_TIMEOUT,
			     qp->mtu, 0, false, r->inflight, &r->cc);
	}
	r->rto_probe = true;
	arm(qp);
	return false;
}
