// SPDX-License-Identifier: GPL-2.0
/*
 * The completer of an RC QP (and the completions of UD/GSI sends).
 *
 * The completer takes ACK (cumulative), SACK (cumulative + 64-bit bitmap),
 * NAK/RNR NAK, NACK, READ responses and atomic ACKs, and completes the WQEs
 * acknowledged in full, in order. A QP that sprays (has an EV set) takes a
 * PSN as lost when a packet sent after it on the same EV has arrived (paths
 * deliver in order, the fabric as a whole does not), or when it is overdue
 * by twice its EV's RTT while later packets arrive (a path that delivers
 * nothing). Such a loss makes the EV ASSUMED_BAD (mrc_ev.h), and the
 * requester sends the PSN again on another EV and probes the ASSUMED_BAD
 * EVs (PROBE, answered by a SACK naming the EV). Without an EV set, a PSN
 * below the highest SACKed one by MRC_DUPTHRESH or more that has not
 * arrived is lost. Only lost PSNs are sent again (no go-back-N). READ and
 * atomic PSNs are acknowledged only by their responses; a lost READ
 * response is asked for again with a one-packet READ request at its PSN.
 *
 * Timeouts: a retransmission timer from the measured RTT (RFC 6298 style,
 * backed off linearly then exponentially per expiry until the next sample)
 * resends the oldest unacknowledged PSNs and, on a spraying QP, sends a
 * reliability probe that asks for the responder's SACK state. The QP's
 * timeout attribute bounds it and counts retries: retry_cnt timeouts
 * without progress (no PSN newly acknowledged, cumulatively or selectively)
 * complete the oldest WQE with IB_WC_RETRY_EXC_ERR and move the QP to the
 * error state. The same timer wakes the requester when probes of
 * ASSUMED_BAD EVs are due.
 *
 * Everything runs under qp->lock; packets are queued on @txq and sent by
 * the caller after the lock is dropped.
 */
#include <kunit/visibility.h>
#include <linux/jiffies.h>

#include "mrc_req.h"

#define MRC_DUPTHRESH		3
#define MRC_RTO_MIN_US		2000
#define MRC_RTO_INIT_US		20000
#define MRC_RTO_MAX_US		1000000	/* backoff cap without a QP timeout */
#define MRC_RTO_LINEAR		3	/* expiries that add one RTO each */
#define MRC_RTO_BACKOFF_MAX	(MRC_RTO_LINEAR + 10)
#define MRC_TO_BURST		64	/* PSNs resent per timeout */
#define MRC_REO_MIN_US		1000	/* reordering allowance on one EV */

static const u32 rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

static enum ib_wc_opcode wc_opcode(u32 op)
{
	switch (op) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	default:
		return IB_WC_SEND;
	}
}

/* ---- retransmission timer ---------------------------------------------- */

/* the QP timeout attribute: 4.096 us * 2^timeout; 0 means infinite */
static u64 timeout_attr_us(u8 t)
{
	if (!t)
		return 0;
	return (4096ULL << min_t(u8, t, 31)) / 1000;
}

static u64 qp_timeout_us(struct mrc_qp *qp)
{
	return timeout_attr_us(qp->attr.timeout);
}

/**
 * mrc_comp_timed_out() - has a QP gone a whole QP timeout without progress?
 * @timeout: the QP timeout attribute (0: infinite)
 * @elapsed: jiffies since the last progress
 *
 * Compared in 64 bits: from a timeout attribute of 30 on, the timeout is
 * more than 2^32 us, which jiffies_to_usecs() never reaches.
 *
 * Return: true when @elapsed is at least the timeout.
 */
VISIBLE_IF_KUNIT bool mrc_comp_timed_out(u8 timeout, unsigned long elapsed)
{
	u64 limit = timeout_attr_us(timeout);

	return limit && jiffies64_to_nsecs(elapsed) >= limit * NSEC_PER_USEC;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_comp_timed_out);

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
	u64 limit = qp_timeout_us(qp), rto, cap;

	rto = r->srtt_us ? r->srtt_us + max(4 * r->rttvar_us, 1000U) :
			   MRC_RTO_INIT_US;
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
u32 mrc_comp_probe_us(struct mrc_qp *qp)
{
	return max_t(u32, 2 * qp->req.srtt_us, MRC_PROBE_MIN_US);
}

/*
 * One timer serves the retransmission timeout (while @rto_armed) and the
 * probes of ASSUMED_BAD EVs: it is set to the earlier of the two. @exact
 * moves it later too; otherwise it only moves earlier (an early expiry
 * finds nothing due and sets it again).
 */
void mrc_comp_timer_update(struct mrc_qp *qp, bool exact)
{
	struct mrc_req *r = &qp->req;
	unsigned long when = r->rto_deadline;
	bool set = r->rto_armed;

	if (qp->dying)
		return;
	if (qp->evs && qp->evs->nbad) {
		unsigned long p = jiffies + usecs_to_jiffies(mrc_comp_probe_us(qp)) + 1;

		if (!set || time_before(p, when))
			when = p;
		set = true;
	}
	if (set && (exact || !timer_pending(&qp->timer) ||
		    time_before(when, qp->timer.expires)))
		mod_timer(&qp->timer, when);
}

/* (Re)start the retransmission timeout */
void mrc_comp_arm_timer(struct mrc_qp *qp)
{
	unsigned long when = jiffies + usecs_to_jiffies(rto_us(qp)) + 1;

	/* never cut an RNR wait short */
	if (qp->req.rnr_wait && time_before(when, qp->req.rnr_until))
		when = qp->req.rnr_until;
	qp->req.rto_deadline = when;
	qp->req.rto_armed = true;
	mrc_comp_timer_update(qp, true);
}

/* Nothing is outstanding: no timeout; probes may still be due */
static void stop_timer(struct mrc_qp *qp)
{
	qp->req.rto_armed = false;
	if (qp->dying)
		return;
	del_timer(&qp->timer);
	mrc_comp_timer_update(qp, false);
}

static void rtt_sample(struct mrc_qp *qp, u32 psn)
{
	struct mrc_req *r = &qp->req;
	u32 s = now_us() - r->sent_us[tslot(psn)];

	if (r->txs[tslot(psn)] & MRC_TX_RTXED || s > 10 * USEC_PER_SEC)
		return;
	r->rto_backoff = 0;
	r->last_rtt_us = s;
	if (!r->srtt_us) {
		r->srtt_us = s;
		r->rttvar_us = s / 2;
	} else {
		u32 d = abs((s32)(r->srtt_us - s));

		r->rttvar_us = (3 * r->rttvar_us + d) / 4;
		r->srtt_us = (7 * r->srtt_us + s) / 8;
	}
}

/* ---- completion ------------------------------------------------------- */

static bool wqe_signaled(struct mrc_qp *qp, struct rxe_send_wqe *w,
			 struct mrc_swqe *m)
{
	return qp->sig_all || (w->wr.send_flags & IB_SEND_SIGNALED) ||
	       m->status != IB_WC_SUCCESS;
}

static void post_send_cqe(struct mrc_qp *qp, struct rxe_send_wqe *w,
			  struct mrc_swqe *m, enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = w->wr.wr_id,
		.status = status,
		.opcode = wc_opcode(m->opcode),
		.byte_len = m->length,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	mrc_cq_post(qp->scq, &wc, false);
}

/* Complete finished WQEs in order; an error moves the QP to ERR. */
void mrc_comp_wqes(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;

	while (qp->sq.idx != r->next_idx) {
		u32 idx = qp->sq.idx;
		struct rxe_send_wqe *w = wcopy(qp, idx);
		struct mrc_swqe *m = wmeta(qp, idx);

		if (!m->done) {
			if (!m->npkts || m->sent != m->npkts ||
			    mrc_psn_diff(r->snd_una, m->first_psn + m->npkts - 1) <= 0)
				break;
			m->done = true;
		}
		if (m->rd_atomic && r->rd_outstanding)
			r->rd_outstanding--;
		/*
		 * Give the slot back before the CQE shows: a consumer that
		 * posts again on seeing it (ibv_rc_pingpong with one send
		 * slot) must find the ring not full. *w and *m are our
		 * copies, which only the next fetch overwrites.
		 */
		mrc_queue_consume(&qp->sq);
		if (wqe_signaled(qp, w, m))
			post_send_cqe(qp, w, m, m->status);
		if (r->cur_valid && r->cur_idx == idx)
			r->cur_valid = false;
		if (m->status != IB_WC_SUCCESS) {
			mrc_qp_error(qp);
			return;
		}
	}
}

/* Flush every fetched and posted send WQE (QP in ERR, qp->lock held). */
void mrc_comp_flush(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u32 n;

	if (!qp->sq.buf || !r->meta)
		return;
	while (qp->sq.idx != r->next_idx) {
		u32 idx = qp->sq.idx;

		mrc_queue_consume(&qp->sq);
		post_send_cqe(qp, wcopy(qp, idx), wmeta(qp, idx),
			      IB_WC_WR_FLUSH_ERR);
	}
	/* once: userspace may keep moving its producer index */
	n = mrc_queue_count(&qp->sq);
	while (n--) {
		struct rxe_send_wqe *w = mrc_queue_slot(&qp->sq, qp->sq.idx);
		struct ib_wc wc = {
			.wr_id = READ_ONCE(w->wr.wr_id),
			.status = IB_WC_WR_FLUSH_ERR,
			.opcode = wc_opcode(READ_ONCE(w->wr.opcode)),
			.qp = &qp->ibqp,
			.port_num = 1,
		};

		mrc_queue_consume(&qp->sq);
		mrc_cq_post(qp->scq, &wc, false);
	}
	r->next_idx = qp->sq.idx;
	r->cur_valid = false;
	r->rd_outstanding = 0;
	r->nlost = 0;
	r->snd_una = r->snd_nxt;
	stop_timer(qp);
}

/* ---- acknowledgements ------------------------------------------------- */

/* Was @psn sent, and not yet acknowledged cumulatively? */
static bool in_flight(struct mrc_req *r, u32 psn)
{
	return mrc_psn_diff(psn, r->snd_una) >= 0 &&
	       mrc_psn_diff(psn, r->snd_nxt) < 0;
}

/*
 * Can an acknowledgment up to @psn be genuine? Not if it acknowledges a
 * PSN never sent: it is forged, or stale from an earlier QP of the same
 * number, and acting on it would complete WRs whose data never arrived.
 * Nor if it is older than anything still in flight could have drawn
 * (MRC_TX_WIN before snd_una): its EV and port news are stale too.
 */
static bool ack_in_window(const struct mrc_req *r, u32 psn)
{
	return mrc_psn_diff(psn, r->snd_nxt) < 0 &&
	       mrc_psn_diff(psn, r->snd_una) >= -(s32)MRC_TX_WIN - 1;
}

/* the EV @psn was last sent on, or NULL (no EV set) */
static struct mrc_ev *ev_of(struct mrc_qp *qp, u32 psn)
{
	u8 i = qp->req.txev[tslot(psn)];

	return qp->evs && i < qp->evs->n ? &qp->evs->ev[i] : NULL;
}

/*
 * @psn arrived (its request did, for a READ or atomic). Any PSN delivered,
 * selectively or not, shows the connection alive: the retry count starts
 * again (a hole behind a deep queue is not a dead peer). Its EV learns
 * that everything sent on it before is due.
 */
static void mark_acked(struct mrc_qp *qp, u32 psn)
{
	struct mrc_req *r = &qp->req;
	u8 *f = &r->txs[tslot(psn)];
	struct mrc_ev *e;

	if (*f & MRC_TX_LOST)
		r->nlost--;
	*f = (*f & ~MRC_TX_LOST) | MRC_TX_ACKED;
	r->progress = jiffies;
	r->retry_left = qp->attr.retry_cnt;
	e = ev_of(qp, psn);
	/*
	 * A resent PSN's ack does not tell which copy arrived (Karn): crediting
	 * the resend's EV with a delivery would make every packet queued on it
	 * before the resend look dropped, and their resends would do the same
	 * to other EVs (seen under deep queues: hundreds of spurious resends).
	 */
	if (!e || (*f & MRC_TX_RTXED))
		return;
	mrc_ev_delivered(e, r->txseq[tslot(psn)]);
	if (!e->delivered || (s32)(r->txseq[tslot(psn)] - e->deliv_seq) > 0) {
		e->delivered = true;
		e->deliv_seq = r->txseq[tslot(psn)];
		e->deliv_us = r->sent_us[tslot(psn)];
	}
	/*
	 * The EV's own RTT: judges packets on paths that deliver nothing. A
	 * packet sent once shows its EV reaches the peer: the reverse set
	 * takes it.
	 */
	if (!(*f & MRC_TX_RD)) {
		u32 rtt = now_us() - r->sent_us[tslot(psn)];

		e->srtt_us = e->srtt_us ? (7 * e->srtt_us + rtt) / 8 : rtt;
		mrc_evset_rev_adopt(qp->evs, e - qp->evs->ev);
	}
}

static void ack_one(struct mrc_qp *qp, u32 psn)
{
	struct mrc_req *r = &qp->req;
	u8 f = r->txs[tslot(psn)];

	if (mrc_psn_diff(psn, r->snd_una) < 0 ||
	    mrc_psn_diff(psn, r->snd_nxt) >= 0 || (f & (MRC_TX_ACKED | MRC_TX_RD)))
		return;
	mark_acked(qp, psn);
}

/* Cumulative acknowledgment of every PSN up to and including @psn */
static void ack_upto(struct mrc_qp *qp, u32 psn)
{
	struct mrc_req *r = &qp->req;
	u32 p;

	for (p = r->snd_una; mrc_psn_diff(psn, p) >= 0; p = mrc_psn_add(p, 1))
		ack_one(qp, p);
}

/*
 * @psn did not arrive: resend it. The EV and plane it went on count a
 * loss; @sig tells the EV's health what it means (see lost_sig() and
 * timeout_sig()), unless it was a READ, whose response came over the
 * peer's paths. A NAK (@sig < 0) says nothing of the path.
 */
static void mark_lost(struct mrc_qp *qp, u32 psn, int sig)
{
	struct mrc_req *r = &qp->req;
	u32 s = tslot(psn);
	struct mrc_ev *e;

	r->txs[s] |= MRC_TX_LOST;
	r->nlost++;
	e = ev_of(qp, psn);
	if (!e)
		return;
	e->losses++;
	mrc_plane_count_id(qp->mdev, e->plane, MRC_PCNT_LOSSES, 1);
	if (sig < 0 || (r->txs[s] & MRC_TX_RD))
		return;
	mrc_ev_lost(e, r->txseq[s]);
	mrc_qp_ev_signal(qp, r->txev[s], sig);
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
	struct mrc_ev *e = ev_of(qp, p);
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

/*
 * A SACK: every PSN up to @s->cack_psn arrived, the bitmap tells of 64
 * more. Only what it reports missing (the PSN after the cumulative ack, the
 * clear bits) can be lost; PSNs it does not cover are unknown.
 */
static void check_missing(struct mrc_qp *qp, u32 p, u32 high)
{
	struct mrc_req *r = &qp->req;

	int sig;

	if (mrc_psn_diff(p, high) < 0 && in_flight(r, p) &&
	    !(r->txs[tslot(p)] & (MRC_TX_ACKED | MRC_TX_LOST))) {
		sig = lost_sig(qp, p, high);
		if (sig >= 0)
			mark_lost(qp, p, sig);
	}
}

/*
 * The probe sent on @e was answered: for every EV of its path if it is
 * exact (one probe tests a source route for all of them, see
 * mrc_evset_probes()), else for @e alone; never for an ASSUMED_BAD EV
 * that went bad after the probe left (mrc_ev_probe_after_bad()).
 */
static void probe_answered(struct mrc_qp *qp, struct mrc_ev *e)
{
	struct mrc_evset *evs = qp->evs;
	u32 i;

	for (i = 0; i < evs->n; i++) {
		struct mrc_ev *o = &evs->ev[i];

		if (o != e && !(e->exact && o->exact && o->path == e->path &&
				o->state == MRC_EV_STATE_ASSUMED_BAD))
			continue;
		if (o->state == MRC_EV_STATE_ASSUMED_BAD &&
		    !mrc_ev_probe_after_bad(e, o))
			continue;
		o->probe_wait = false;
		mrc_qp_ev_signal(qp, i, MRC_EV_SIG_PROBE_OK);
	}
}

/* The reverse-set probe on EV @i was answered: an RTT sample */
static void rev_probe_answered(struct mrc_qp *qp, u32 i)
{
	struct mrc_req *r = &qp->req;
	u32 rtt = now_us() - r->rev_probe_us;

	mrc_evset_rev_adopt(qp->evs, i);
	if (r->rev_probe_ev != (int)i)
		return;
	r->rev_probe_ev = -1;
	r->rev_backoff = 0;
	r->rev_rtt_us = r->rev_rtt_us ? (7 * r->rev_rtt_us + rtt) / 8 : rtt;
}

/* What a SACK says of the peer's window and planes, and of the EV it names */
static void sack_ev(struct mrc_qp *qp, const struct mrc_sack *s)
{
	struct mrc_ev *e;

	qp->req.peer_win = mrc_psn_mpr_window(s->mpr, MRC_TX_WIN);
	if (!qp->evs)
		return;
	if (mrc_evset_peer_status(qp->evs, s->port_status, s->cack_psn))
		mrc_count(qp->mdev, MRC_CNT_PEER_PLANES, 1);
	e = mrc_evset_find(qp->evs, s->entropy);
	if (!e)
		return;
	/* a probe on the EV came through: its path works (again) */
	if (s->probe_resp) {
		probe_answered(qp, e);
		rev_probe_answered(qp, e - qp->evs->ev);
	}
	/* the forward path of the reflected EV is congested */
	if (s->mode == MRC_SACK_M_SKIP_ONCE) {
		e->ecn++;
		mrc_qp_ev_signal(qp, e - qp->evs->ev, MRC_EV_SIG_ECN);
	}
}

static void sack_recv(struct mrc_qp *qp, const struct mrc_sack *s)
{
	u32 base, hi = s->cack_psn, i;

	sack_ev(qp, s);
	ack_upto(qp, s->cack_psn);
	base = mrc_psn_add(s->cack_psn, s->sack_offset);
	for (i = 0; i < MRC_SACK_BITS; i++) {
		if (!(s->bitmap & BIT_ULL(i)))
			continue;
		ack_one(qp, mrc_psn_add(base, i));
		hi = mrc_psn_add(base, i);
	}
	/* the PSN after the cumulative ack is missing, or it would be acked */
	check_missing(qp, mrc_psn_add(s->cack_psn, 1), hi);
	for (i = 0; i < MRC_SACK_BITS; i++)
		if (!(s->bitmap & BIT_ULL(i)))
			check_missing(qp, mrc_psn_add(base, i), hi);
}

static bool advance_una(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u32 old = r->snd_una;

	while (r->snd_una != r->snd_nxt &&
	       (r->txs[tslot(r->snd_una)] & MRC_TX_ACKED))
		r->snd_una = mrc_psn_add(r->snd_una, 1);
	if (old == r->snd_una)
		return false;
	/* progress halves a backed-off RTO (resent PSNs give no sample) */
	if (r->rto_backoff)
		r->rto_backoff--;
	if (!(r->txs[tslot(mrc_psn_add(r->snd_una, -1))] & MRC_TX_RD))
		rtt_sample(qp, mrc_psn_add(r->snd_una, -1));
	r->progress = jiffies;
	r->retry_left = qp->attr.retry_cnt;
	r->rnr_left = qp->attr.rnr_retry;
	return true;
}

/*
 * The connection failed (fatal NAK, retries exhausted). WQEs acknowledged
 * in full complete normally; the first one that is not ends with @status
 * and the rest are flushed. With out-of-order placement a NAK for one PSN
 * says nothing of the PSNs before it, so the error lands on the oldest
 * unacknowledged WQE, never on one whose data may not have arrived.
 */
static void fail_oldest(struct mrc_qp *qp, enum ib_wc_status status)
{
	struct mrc_req *r = &qp->req;
	u32 idx;

	if (r->snd_una == r->snd_nxt || !mrc_req_find_wqe(qp, r->snd_una, &idx))
		return;
	wmeta(qp, idx)->status = status;
	wmeta(qp, idx)->done = true;
}

static void rnr_nak(struct mrc_qp *qp, u32 psn, u8 timer)
{
	struct mrc_req *r = &qp->req;
	u32 p;

	mrc_count(qp->mdev, MRC_CNT_RNR_RX, 1);
	if (!in_flight(r, psn) || (r->txs[tslot(psn)] & MRC_TX_ACKED))
		return;				/* stale */
	/* the PSN and those sent after it wait out the RNR timer */
	for (p = psn; p != r->snd_nxt; p = mrc_psn_add(p, 1)) {
		u8 *f = &r->txs[tslot(p)];

		if (!(*f & (MRC_TX_ACKED | MRC_TX_LOST))) {
			*f |= MRC_TX_LOST;
			r->nlost++;
		}
	}
	if (r->rnr_wait)
		return;				/* one retry per RNR episode */
	if (qp->attr.rnr_retry != 7) {
		if (!r->rnr_left) {
			fail_oldest(qp, IB_WC_RNR_RETRY_EXC_ERR);
			return;
		}
		r->rnr_left--;
	}
	r->rnr_wait = true;
	r->rnr_until = jiffies + usecs_to_jiffies(rnr_us[timer & 31]) + 1;
	if (!qp->dying)
		mod_timer(&qp->timer, r->rnr_until);
}

/* READ response or atomic ACK: data for the WQE owning the PSN */
static void rd_response(struct mrc_qp *qp, struct mrc_pkt *pkt)
{
	struct mrc_req *r = &qp->req;
	u32 psn = mrc_bth_psn(pkt->hdr), idx, off, want;
	struct rxe_send_wqe *w;
	struct mrc_swqe *m;
	u8 *f = &r->txs[tslot(psn)];
	int err;

	if (mrc_psn_diff(psn, r->snd_una) < 0 ||
	    mrc_psn_diff(psn, r->snd_nxt) >= 0 || (*f & MRC_TX_ACKED) ||
	    !mrc_req_find_wqe(qp, psn, &idx)) {
		mrc_count(qp->mdev, MRC_CNT_DUP, 1);
		return;
	}
	w = wcopy(qp, idx);
	m = wmeta(qp, idx);
	if (pkt->opcode == MRC_OP_ATOMIC_ACK) {
		u64 orig = mrc_atmack_orig(mrc_pkt_hdr(pkt, MRC_H_ATMACK));

		if (!m->rd_atomic || m->opcode == IB_WR_RDMA_READ)
			goto bad;
		rcu_read_lock();
		err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, w->dma.sge,
				   w->dma.num_sge, 0, &orig, 8, true);
		rcu_read_unlock();
	} else {
		if (m->opcode != IB_WR_RDMA_READ)
			goto bad;
		off = mrc_psn_diff(psn, m->first_psn) * qp->mtu;
		want = min(qp->mtu, m->length - off);
		if (pkt->paylen != want)
			goto bad;
		rcu_read_lock();
		err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, w->dma.sge,
				   w->dma.num_sge, off, pkt->hdr + pkt->payload,
				   want, true);
		rcu_read_unlock();
	}
	if (err) {
		m->status = IB_WC_LOC_PROT_ERR;
		m->done = true;
	}
	/* every response is timed: a QP that only reads has no other RTT */
	rtt_sample(qp, psn);
	mark_acked(qp, psn);
	return;
bad:
	mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
}

/* A packet for the requester side (qp->lock held, softirq) */
void mrc_comp_recv(struct mrc_qp *qp, struct sk_buff *skb,
		   struct sk_buff_head *txq)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	struct mrc_req *r = &qp->req;
	u32 psn = mrc_bth_psn(pkt->hdr);
	struct mrc_sack s;
	u8 syn;

	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return;
	}
	/*
	 * A SACK acknowledges only what was sent. An RTR QP has sent nothing
	 * and has no send PSNs yet: its SACKs answer reverse-set probes.
	 */
	if (pkt->opcode == MRC_OP_SACK) {
		mrc_seth_read(mrc_pkt_hdr(pkt, MRC_H_SETH), &s);
		if (qp->state != IB_QPS_RTR && !ack_in_window(r, s.cack_psn)) {
			mrc_count(qp->mdev, MRC_CNT_ACK_BAD_PSN, 1);
			return;
		}
	}
	if (qp->state == IB_QPS_RTR || r->snd_una == r->snd_nxt) {
		/*
		 * Nothing to acknowledge, but an idle QP probes its EVs too,
		 * and one that only receives (RTR: perftest's servers) its
		 * reverse set
		 */
		if (pkt->opcode == MRC_OP_SACK) {
			mrc_count(qp->mdev, MRC_CNT_SACK_RX, 1);
			sack_ev(qp, &s);
			mrc_req_run(qp, txq);
		} else {
			mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		}
		return;
	}
	switch (pkt->opcode) {
	case MRC_OP_ACK:
		mrc_count(qp->mdev, MRC_CNT_ACK_RX, 1);
		syn = mrc_aeth_syn(mrc_pkt_hdr(pkt, MRC_H_AETH));
		switch (syn >> 5) {
		case 0:				/* ACK */
			if (!ack_in_window(r, psn)) {
				mrc_count(qp->mdev, MRC_CNT_ACK_BAD_PSN, 1);
				return;
			}
			ack_upto(qp, psn);
			break;
		case 1:				/* RNR NAK */
			rnr_nak(qp, psn, syn & 31);
			break;
		case 3:				/* NAK */
			mrc_count(qp->mdev, MRC_CNT_NACK_RX, 1);
			if (syn == MRC_AETH_NAK_SEQ) {
				if (in_flight(r, psn) &&
				    !(r->txs[tslot(psn)] &
				      (MRC_TX_ACKED | MRC_TX_LOST)))
					mark_lost(qp, psn, -1);
			} else if (in_flight(r, psn)) {
				fail_oldest(qp, syn == MRC_AETH_NAK_ACC ?
					    IB_WC_REM_ACCESS_ERR :
					    syn == MRC_AETH_NAK_INV ?
					    IB_WC_REM_INV_REQ_ERR : IB_WC_REM_OP_ERR);
			}
			break;
		default:
			mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
			return;
		}
		break;
	case MRC_OP_SACK:
		mrc_count(qp->mdev, MRC_CNT_SACK_RX, 1);
		sack_recv(qp, &s);
		break;
	case MRC_OP_NACK:
		mrc_count(qp->mdev, MRC_CNT_NACK_RX, 1);
		psn = mrc_neth_psn(mrc_pkt_hdr(pkt, MRC_H_NETH));
		if (mrc_psn_diff(psn, r->snd_una) >= 0 &&
		    mrc_psn_diff(psn, r->snd_nxt) < 0 &&
		    !(r->txs[tslot(psn)] & (MRC_TX_ACKED | MRC_TX_LOST)))
			mark_lost(qp, psn, -1);
		break;
	case MRC_OP_READ_RESP_FIRST:
	case MRC_OP_READ_RESP_MIDDLE:
	case MRC_OP_READ_RESP_LAST:
	case MRC_OP_READ_RESP_ONLY:
	case MRC_OP_ATOMIC_ACK:
		rd_response(qp, pkt);
		break;
	default:
		mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
		return;
	}
	if (advance_una(qp)) {
		if (r->snd_una != r->snd_nxt)
			mrc_comp_arm_timer(qp);
		else if (!r->rnr_wait)
			stop_timer(qp);
	}
	mrc_req_run(qp, txq);
}

/* ---- timeouts ----------------------------------------------------------- */

/*
 * What the PSNs a timeout resends say of their paths. All on one path: it
 * has failed (MRC_EV_SIG_TIMEOUT: its EVs retire at once). On several:
 * the fabric dropped a burst or stalls (congestion), or one path died
 * while the others' queues were deep, which says nothing of any one path
 * (-1): each PSN is judged by the overdue rule of lost_sig() instead (see
 * mrc_comp_timeout()).
 */
static int timeout_sig(struct mrc_qp *qp, u32 age, u32 now)
{
	struct mrc_req *r = &qp->req;
	u32 p, n = 0;
	int path = -1;

	for (p = r->snd_una; p != r->snd_nxt && n < MRC_TO_BURST;
	     p = mrc_psn_add(p, 1)) {
		struct mrc_ev *e = ev_of(qp, p);

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
	const struct mrc_ev *e = ev_of(qp, p);

	if (sig >= 0 || !e)
		return sig;
	return overdue(qp, p, e, now) ? MRC_EV_SIG_LOSS : -1;
}

void mrc_comp_timeout(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u32 p, n = 0, age, now;
	int sig;

	/* an expiry for the probes, or a timeout that was moved on */
	if (r->snd_una == r->snd_nxt || r->rnr_wait || !r->rto_armed ||
	    time_before(jiffies, r->rto_deadline))
		return;
	mrc_count(qp->mdev, MRC_CNT_TIMEOUTS, 1);
	if (mrc_comp_timed_out(qp->attr.timeout, jiffies - r->progress)) {
		if (!r->retry_left) {
			mrc_count(qp->mdev, MRC_CNT_RETRY_EXC, 1);
			fail_oldest(qp, IB_WC_RETRY_EXC_ERR);
			mrc_comp_wqes(qp);
			return;
		}
		r->retry_left--;
		r->progress = jiffies;
	}
	/*
	 * Back off, and resend the oldest PSNs that did not arrive and were
	 * sent at least one RTO ago (younger ones may still be on their way).
	 */
	age = rto_us(qp);
	now = now_us();
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
			mark_lost(qp, p, psn_sig(qp, p, sig, now));
		n++;
	}
	r->rto_probe = true;
	mrc_comp_arm_timer(qp);
}
