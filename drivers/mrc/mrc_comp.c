// SPDX-License-Identifier: GPL-2.0
/*
 * The completer of an RC QP (and the completions of UD/GSI sends).
 *
 * The completer takes ACK (cumulative), SACK (cumulative + 64-bit bitmap),
 * NAK/RNR NAK, NACK, READ responses and atomic ACKs, checked against the
 * send window first, and completes the WQEs acknowledged in full, in
 * order. What the acknowledgments say of the EVs goes to the scheduler
 * (mrc_sched.c), what they say of losses and RTT to mrc_loss.c; READ and
 * atomic PSNs are acknowledged only by their responses. A failed
 * connection (fatal NAK, retries used up) fails the oldest WQE here.
 *
 * Everything runs under qp->lock.
 */
#include <linux/jiffies.h>

#include "mrc_req.h"
#include "mrc_trace.h"

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
	case IB_WR_FLUSH:
		return IB_WC_FLUSH;
	case IB_WR_ATOMIC_WRITE:
		return IB_WC_ATOMIC_WRITE;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case IB_WR_BIND_MW:
		return IB_WC_BIND_MW;
	default:
		return IB_WC_SEND;
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
	r->inflight = 0;
	r->snd_una = r->snd_nxt;
	mrc_loss_stop(qp);
}

/* ---- acknowledgements ------------------------------------------------- */

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

/**
 * struct ack_news - what one acknowledgment tells congestion control, and
 *	the loss rules
 * @bytes: payload it newly acknowledged
 * @rtt_us: RTT of the newest packet among them that was sent once (0: none)
 * @seq: that packet's send order
 * @ecn: it echoes a CE mark
 * @named: a SACK names the request that drew it (MRC_SACK_CCF_SAMPLE) ...
 * @named_psn: ... this PSN ...
 * @service_us: ... which the responder held this long
 * @named_rtt_us: its RTT, when this acknowledgment is its first (0: none)
 * @peer_down: the peer's planes a SACK newly says are down
 */
struct ack_news {
	u32 bytes;
	u32 rtt_us;
	u32 seq;
	bool ecn;
	bool named;
	u32 named_psn;
	u32 service_us;
	u32 named_rtt_us;
	u16 peer_down;
};

/*
 * @psn arrived (its request did, for a READ or atomic): the EV it was sent
 * on, and the RTT of a packet sent once, tell the scheduler and the loss
 * rules; its bytes are no longer in flight.
 */
static void mark_acked(struct mrc_qp *qp, u32 psn, struct ack_news *an)
{
	struct mrc_req *r = &qp->req;
	u32 s = tslot(psn), rtt;

	if (r->txs[s] & MRC_TX_LOST)
		r->nlost--;
	else
		r->inflight -= r->txlen[s];
	an->bytes += r->txlen[s];
	r->txs[s] = (r->txs[s] & ~MRC_TX_LOST) | MRC_TX_ACKED;
	mrc_loss_delivered(qp);
	if (r->txs[s] & MRC_TX_RTXED)
		return;
	mrc_sched_on_ack(qp, r->txev[s], r->txseq[s], r->sent_us[s]);
	if (r->txs[s] & MRC_TX_RD)
		return;
	rtt = mrc_loss_rtt_sample(qp, psn, MRC_RTT_EV);
	if (rtt && (!an->rtt_us || (s32)(r->txseq[s] - an->seq) > 0)) {
		an->rtt_us = rtt;
		an->seq = r->txseq[s];
	}
	if (rtt && an->named && psn == an->named_psn)
		an->named_rtt_us = rtt;
}

static void ack_one(struct mrc_qp *qp, u32 psn, struct ack_news *an)
{
	struct mrc_req *r = &qp->req;
	u8 f = r->txs[tslot(psn)];

	if (mrc_psn_diff(psn, r->snd_una) < 0 ||
	    mrc_psn_diff(psn, r->snd_nxt) >= 0 || (f & (MRC_TX_ACKED | MRC_TX_RD)))
		return;
	mark_acked(qp, psn, an);
}

/* Cumulative acknowledgment of every PSN up to and including @psn */
static void ack_upto(struct mrc_qp *qp, u32 psn, struct ack_news *an)
{
	struct mrc_req *r = &qp->req;
	u32 p;

	for (p = r->snd_una; mrc_psn_diff(psn, p) >= 0; p = mrc_psn_add(p, 1))
		ack_one(qp, p, an);
}

/*
 * What any SACK says: the peer's receive window, news of the EVs. Returns
 * the peer's planes it newly says are down.
 */
static u16 sack_news(struct mrc_qp *qp, const struct mrc_sack *s)
{
	qp->req.peer_win = mrc_psn_mpr_window(s->mpr, MRC_TX_WIN);
	return mrc_sched_on_sack(qp, s);
}

static void sack_recv(struct mrc_qp *qp, const struct mrc_sack *s,
		      struct ack_news *an)
{
	u32 base, hi = s->cack_psn, i;

	an->peer_down = sack_news(qp, s);
	an->ecn = s->mode == MRC_SACK_M_SKIP_ONCE;
	if (s->cc_flags & MRC_SACK_CCF_SAMPLE) {
		an->named = true;
		an->named_psn = mrc_psn_add(s->cack_psn, s->ack_psn_offset);
		an->service_us = s->service_us;
	}
	ack_upto(qp, s->cack_psn, an);
	base = mrc_psn_add(s->cack_psn, s->sack_offset);
	for (i = 0; i < MRC_SACK_BITS; i++) {
		if (!(s->bitmap & BIT_ULL(i)))
			continue;
		ack_one(qp, mrc_psn_add(base, i), an);
		hi = mrc_psn_add(base, i);
	}
	/* the PSN after the cumulative ack is missing, or it would be acked */
	mrc_loss_check(qp, mrc_psn_add(s->cack_psn, 1), hi);
	for (i = 0; i < MRC_SACK_BITS; i++)
		if (!(s->bitmap & BIT_ULL(i)))
			mrc_loss_check(qp, mrc_psn_add(base, i), hi);
}

/* Move snd_una over what is acknowledged; true when it moved */
static bool advance_una(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u32 old = r->snd_una;

	while (r->snd_una != r->snd_nxt &&
	       (r->txs[tslot(r->snd_una)] & MRC_TX_ACKED))
		r->snd_una = mrc_psn_add(r->snd_una, 1);
	if (old == r->snd_una)
		return false;
	r->rnr_left = qp->attr.rnr_retry;
	mrc_loss_advanced(qp);
	return true;
}

/*
 * The connection failed (fatal NAK, retries exhausted). WQEs acknowledged
 * in full complete normally; the first one that is not ends with @status
 * and the rest are flushed. With out-of-order placement a NAK for one PSN
 * says nothing of the PSNs before it, so the error lands on the oldest
 * unacknowledged WQE, never on one whose data may not have arrived.
 */
void mrc_comp_fail(struct mrc_qp *qp, enum ib_wc_status status)
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
	for (p = psn; p != r->snd_nxt; p = mrc_psn_add(p, 1))
		if (!(r->txs[tslot(p)] & MRC_TX_ACKED))
			tx_lost(r, p);
	if (r->rnr_wait)
		return;				/* one retry per RNR episode */
	if (qp->attr.rnr_retry != 7) {
		if (!r->rnr_left) {
			mrc_comp_fail(qp, IB_WC_RNR_RETRY_EXC_ERR);
			return;
		}
		r->rnr_left--;
	}
	mrc_loss_rnr_wait(qp, rnr_us[timer & 31]);
}

/* READ response or atomic ACK: data for the WQE owning the PSN */
static void rd_response(struct mrc_qp *qp, struct mrc_pkt *pkt,
			struct ack_news *an)
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

		if (m->opcode != IB_WR_ATOMIC_CMP_AND_SWP &&
		    m->opcode != IB_WR_ATOMIC_FETCH_AND_ADD)
			goto bad;
		rcu_read_lock();
		err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, w->dma.sge,
				   w->dma.num_sge, 0, &orig, 8, true);
		rcu_read_unlock();
	} else if (m->opcode == IB_WR_FLUSH ||
		   m->opcode == IB_WR_ATOMIC_WRITE) {
		/* IBA: done, and said so by an empty READ response */
		if (pkt->opcode != MRC_OP_READ_RESP_ONLY || pkt->paylen)
			goto bad;
		err = 0;
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
	mrc_loss_rtt_sample(qp, psn, MRC_RTT_QP);
	mark_acked(qp, psn, an);
	return;
bad:
	mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
}

/* Congestion control takes an acknowledgment; the device counts what it did */
static void cc_ack(struct mrc_qp *qp, const struct ack_news *an)
{
	struct mrc_cc *cc = &qp->req.cc;
	u64 dec = cc->stats.decreases, qa = cc->stats.quick_adapts;
	u32 rtt_us = an->rtt_us, rtt_ns;

	/* the request the SACK answers, less the responder's time on it */
	if (an->named_rtt_us)
		rtt_us = an->named_rtt_us - min(an->service_us,
						an->named_rtt_us - 1);
	rtt_ns = min(rtt_us, U32_MAX / NSEC_PER_USEC) * NSEC_PER_USEC;

	mrc_cc_on_ack(cc, an->bytes, rtt_ns, an->ecn, qp->req.inflight,
		      ktime_get_ns());
	trace_mrc_cc(qp->mdev, qp->ibqp.qp_num, MRC_CC_EV_ACK, an->bytes,
		     rtt_ns, an->ecn, qp->req.inflight, cc);
	if (cc->stats.decreases != dec)
		atomic64_add(cc->stats.decreases - dec, &qp->mdev->cc_decreases);
	if (cc->stats.quick_adapts != qa)
		atomic64_add(cc->stats.quick_adapts - qa,
			     &qp->mdev->cc_quick_adapts);
}

/*
 * A switch cut @psn (in flight, neither acknowledged nor lost) to its
 * headers, and the responder says so: resend it before any new PSN,
 * without waiting for a timer; within the window, as htsim's NSCC does
 * (the queue that cut it is still full: resends past the window, each
 * cut again and NACKed again, kept it so). Not a loss: its EV sits out a
 * few rounds, and not even that for a cut at the last hop; the peer is
 * alive. Congestion control takes the packet off the window (NSCC's NACK
 * rule) while it still counts in flight. A resend cut again pauses the
 * QP (mrc_loss_trim_pause()).
 */
static void trim_nack(struct mrc_qp *qp, u32 psn, u8 reason)
{
	struct mrc_req *r = &qp->req;
	struct mrc_cc *cc = &r->cc;
	u32 s = tslot(psn), bytes = r->txlen[s];
	u64 qa = cc->stats.quick_adapts;

	mrc_count(qp->mdev, MRC_CNT_TRIM_NACK_RX, 1);
	r->trimmed = true;
	mrc_loss_alive(qp);
	if (r->cc_on) {
		mrc_cc_on_nack(cc, bytes, r->inflight, ktime_get_ns());
		trace_mrc_cc(qp->mdev, qp->ibqp.qp_num, MRC_CC_EV_NACK, bytes,
			     0, false, r->inflight, cc);
		if (cc->stats.quick_adapts != qa)
			atomic64_add(cc->stats.quick_adapts - qa,
				     &qp->mdev->cc_quick_adapts);
	}
	if (!(r->txs[s] & MRC_TX_RD))
		mrc_sched_on_trim(qp, r->txev[s],
				  reason == MRC_NACK_TRIMMED_LASTHOP);
	if (r->txs[s] & MRC_TX_RTXED)
		mrc_loss_trim_pause(qp, psn);
	mrc_loss_mark(qp, psn, -1);
}

/**
 * mrc_comp_recv() - an acknowledgment or response for the requester side
 * @qp: an RC QP; qp->lock held (softirq)
 * @skb: the packet, from the QP's peer
 *
 * Return: true when the requester should run (something may be sendable
 * or complete), false for a packet dropped and counted.
 */
bool mrc_comp_recv(struct mrc_qp *qp, struct sk_buff *skb)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	struct mrc_req *r = &qp->req;
	u32 psn = mrc_bth_psn(pkt->hdr);
	struct ack_news an = {};
	struct mrc_sack s;
	u8 *neth;
	u8 syn;

	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return false;
	}
	/*
	 * A SACK acknowledges only what was sent. An RTR QP has sent nothing
	 * and has no send PSNs yet: its SACKs answer reverse-set probes.
	 */
	if (pkt->opcode == MRC_OP_SACK) {
		mrc_seth_read(mrc_pkt_hdr(pkt, MRC_H_SETH), &s);
		if (qp->state != IB_QPS_RTR && !ack_in_window(r, s.cack_psn)) {
			mrc_count(qp->mdev, MRC_CNT_ACK_BAD_PSN, 1);
			return false;
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
			sack_news(qp, &s);
			return true;
		}
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return false;
	}
	switch (pkt->opcode) {
	case MRC_OP_ACK:
		mrc_count(qp->mdev, MRC_CNT_ACK_RX, 1);
		syn = mrc_aeth_syn(mrc_pkt_hdr(pkt, MRC_H_AETH));
		switch (syn >> 5) {
		case 0:				/* ACK */
			if (!ack_in_window(r, psn)) {
				mrc_count(qp->mdev, MRC_CNT_ACK_BAD_PSN, 1);
				return false;
			}
			ack_upto(qp, psn, &an);
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
					mrc_loss_mark(qp, psn, -1);
			} else if (in_flight(r, psn)) {
				mrc_comp_fail(qp, syn == MRC_AETH_NAK_ACC ?
					    IB_WC_REM_ACCESS_ERR :
					    syn == MRC_AETH_NAK_INV ?
					    IB_WC_REM_INV_REQ_ERR : IB_WC_REM_OP_ERR);
			}
			break;
		default:
			mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
			return false;
		}
		break;
	case MRC_OP_SACK:
		mrc_count(qp->mdev, MRC_CNT_SACK_RX, 1);
		sack_recv(qp, &s, &an);
		break;
	case MRC_OP_NACK:
		mrc_count(qp->mdev, MRC_CNT_NACK_RX, 1);
		neth = mrc_pkt_hdr(pkt, MRC_H_NETH);
		psn = mrc_neth_psn(neth);
		if (mrc_psn_diff(psn, r->snd_una) < 0 ||
		    mrc_psn_diff(psn, r->snd_nxt) >= 0 ||
		    (r->txs[tslot(psn)] & (MRC_TX_ACKED | MRC_TX_LOST)))
			break;
		if (mrc_neth_reason(neth) == MRC_NACK_TRIMMED ||
		    mrc_neth_reason(neth) == MRC_NACK_TRIMMED_LASTHOP)
			trim_nack(qp, psn, mrc_neth_reason(neth));
		else
			mrc_loss_mark(qp, psn, -1);
		break;
	case MRC_OP_READ_RESP_FIRST:
	case MRC_OP_READ_RESP_MIDDLE:
	case MRC_OP_READ_RESP_LAST:
	case MRC_OP_READ_RESP_ONLY:
	case MRC_OP_ATOMIC_ACK:
		rd_response(qp, pkt, &an);
		break;
	default:
		mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
		return false;
	}
	advance_una(qp);
	if (an.ecn)
		r->marked = true;
	if (r->cc_on && (an.bytes || an.ecn))
		cc_ack(qp, &an);
	/* after the SACK's own acknowledgments, as congestion control saw
	 * them: the rest out there is lost
	 */
	if (an.peer_down)
		mrc_loss_planes_down(qp, an.peer_down);
	return true;
}
