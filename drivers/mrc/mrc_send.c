// SPDX-License-Identifier: GPL-2.0
/*
 * The send engine of a QP: RC requests and UD/GSI sends, and the probes.
 *
 * It fetches send WQEs from the SQ ring into kernel copies (the user
 * cannot change a WQE once fetched), gives each RC message its PSNs and
 * builds its packets, every one placeable on its own, each on the EV the
 * scheduler picks (mrc_sched.c). Per PSN it notes in the send window
 * (mrc_req.h) its flags, EV, send order and time, which the completer and
 * the loss rules read. PSNs found lost go first, each on a new EV; then new
 * ones, while may_send() allows; then reliability probes: of ASSUMED_BAD
 * EVs, of the responder's SACK state after a timeout, and of the reverse
 * EV set of a QP that only receives.
 *
 * Everything runs under qp->lock; packets are queued on @txq and sent by
 * the caller after the lock is dropped.
 */
#include <rdma/ib_mad.h>

#include "mrc_req.h"

#define MRC_ACKREQ_EVERY	16
#define MRC_PROBE_BURST		4	/* probes a QP sends at once at most */

/* ---- fetching WQEs -------------------------------------------------------- */

static u32 wqe_length(struct mrc_qp *qp, struct rxe_send_wqe *w, int *err)
{
	u64 len = 0;
	u32 i;

	/* every later use of the SGE list relies on this bound */
	if (w->dma.num_sge > qp->max_send_sge) {
		*err = -EINVAL;
		return 0;
	}
	if (w->wr.send_flags & IB_SEND_INLINE) {
		/* only data the requester sends can be inline */
		if (w->dma.length > qp->max_inline ||
		    (w->wr.opcode != IB_WR_SEND &&
		     w->wr.opcode != IB_WR_SEND_WITH_IMM &&
		     w->wr.opcode != IB_WR_SEND_WITH_INV &&
		     w->wr.opcode != IB_WR_RDMA_WRITE &&
		     w->wr.opcode != IB_WR_RDMA_WRITE_WITH_IMM)) {
			*err = -EINVAL;
			return 0;
		}
		return w->dma.length;
	}
	for (i = 0; i < w->dma.num_sge; i++)
		len += w->dma.sge[i].length;
	if (len > MRC_MAX_MSG)
		*err = -EINVAL;
	return len;
}

/* A local operation runs when fetched; its completion keeps SQ order. */
static enum ib_wc_status local_op(struct mrc_qp *qp, struct rxe_send_wqe *w)
{
	int err;

	/* only the rxe ABI carries a bind: kernel ULPs have no MWs */
	if (w->wr.opcode == IB_WR_BIND_MW)
		return qp->is_user && !mrc_mw_bind(qp, &w->wr) ?
		       IB_WC_SUCCESS : IB_WC_MW_BIND_ERR;
	if (w->wr.opcode == IB_WR_REG_MR)
		err = qp->is_user ? -EINVAL :
		      mrc_mr_reg_wr(qp->mdev, qp->ibqp.pd, &w->wr);
	else
		err = mrc_mr_invalidate(qp, w->wr.ex.invalidate_rkey, false);
	return err ? IB_WC_LOC_PROT_ERR : IB_WC_SUCCESS;
}

/*
 * FLUSH and ATOMIC WRITE (IBA 1.5 memory placement extensions): what the
 * rxe ABI puts in their WQE, checked. A FLUSH names its range in
 * wr.flush (the length in dma.length, as rxe's provider writes it), an
 * ATOMIC WRITE its 8-byte value in dma.atomic_wr, to an 8-byte aligned
 * address. Sets @len to the bytes the RETH will claim.
 */
static int mpe_check(struct rxe_send_wqe *w, u32 *len)
{
	if (w->wr.send_flags & IB_SEND_INLINE)
		return -EINVAL;
	if (w->wr.opcode == IB_WR_ATOMIC_WRITE) {
		*len = 8;
		return w->dma.length != 8 || (w->wr.wr.rdma.remote_addr & 7) ?
		       -EINVAL : 0;
	}
	*len = w->dma.length;
	if (!mrc_feth_type_ok(mrc_wr_flush(w).type) ||
	    mrc_wr_flush(w).level > IB_FLUSH_MR)
		return -EINVAL;
	return 0;
}

/* Is there a posted WQE to fetch, with room for its kernel copy? */
static bool can_fetch(struct mrc_qp *qp)
{
	u32 idx = qp->req.next_idx;
	/* acquire: pairs with the producer's release, entries first */
	u32 prod = smp_load_acquire(&qp->sq.buf->producer_index) & qp->sq.mask;

	if (prod == idx)
		return false;
	/* a bogus producer index cannot make fetching lap the completions */
	return ((idx - qp->sq.idx) & qp->sq.mask) != qp->sq.mask;
}

/* What a UC QP posts: IBA UC has SEND and WRITE; a bind is local (rxe) */
static bool uc_wr(u32 op)
{
	return op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM ||
	       op == IB_WR_RDMA_WRITE || op == IB_WR_RDMA_WRITE_WITH_IMM ||
	       op == IB_WR_BIND_MW;
}

/*
 * Fetch the next WQE for an RC or UC QP. Returns false when there is none
 * or it must wait (fence, max_rd_atomic).
 */
static bool fetch_rc(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u32 idx = r->next_idx, max_rd;
	struct rxe_send_wqe *w;
	struct mrc_swqe *m;
	int err = 0;

	if (!can_fetch(qp))
		return false;
	w = wcopy(qp, idx);
	memcpy(w, mrc_queue_slot(&qp->sq, idx), qp->sq_elem);
	m = wmeta(qp, idx);
	memset(m, 0, sizeof(*m));
	m->opcode = w->wr.opcode;
	m->length = wqe_length(qp, w, &err);

	switch (m->opcode) {
	case IB_WR_FLUSH:
	case IB_WR_ATOMIC_WRITE:
		/* no SGEs: the range's length, or the value, is in the WQE */
		err = mpe_check(w, &m->length) ?: err;
		fallthrough;
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		/* all answered by the responder, in PSN order */
		m->rd_atomic = true;
		max_rd = max_t(u32, qp->attr.max_rd_atomic, 1);
		if (r->rd_outstanding >= max_rd)
			return false;
		if ((m->opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
		     m->opcode == IB_WR_ATOMIC_FETCH_AND_ADD) &&
		    (m->length < 8 || (w->wr.wr.atomic.remote_addr & 7)))
			err = -EINVAL;
		break;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_LOCAL_INV:
	case IB_WR_REG_MR:
	case IB_WR_BIND_MW:
		break;
	default:
		err = -EINVAL;
		break;
	}
	if ((w->wr.send_flags & IB_SEND_FENCE) && r->rd_outstanding)
		return false;
	if (qp->ibqp.qp_type == IB_QPT_UC && !uc_wr(m->opcode)) {
		m->rd_atomic = false;
		err = -EINVAL;
	}

	r->next_idx = (idx + 1) & qp->sq.mask;
	if (err) {
		m->status = IB_WC_LOC_QP_OP_ERR;
		m->done = true;
		return true;
	}
	if (m->opcode == IB_WR_LOCAL_INV || m->opcode == IB_WR_REG_MR ||
	    m->opcode == IB_WR_BIND_MW) {
		m->status = local_op(qp, w);
		m->done = true;
		return true;
	}
	m->first_psn = r->snd_nxt;
	m->npkts = max_t(u32, 1, DIV_ROUND_UP(m->length, qp->mtu));
	if (m->rd_atomic && m->opcode != IB_WR_RDMA_READ)
		m->npkts = 1;
	m->msn = r->msn++;
	m->rqmsn = r->rqmsn;
	if (m->opcode == IB_WR_SEND || m->opcode == IB_WR_SEND_WITH_IMM ||
	    m->opcode == IB_WR_SEND_WITH_INV ||
	    m->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
		r->rqmsn++;
	if (m->rd_atomic)
		r->rd_outstanding++;
	r->cur_idx = idx;
	r->cur_valid = true;
	return true;
}

/* ---- building packets ------------------------------------------------- */

static u8 rc_opcode(u32 op, bool first, bool last)
{
	static const u8 send[] = { MRC_OP_SEND_MIDDLE, MRC_OP_SEND_FIRST,
				   MRC_OP_SEND_LAST, MRC_OP_SEND_ONLY };
	static const u8 write[] = { MRC_OP_WRITE_MIDDLE, MRC_OP_WRITE_FIRST,
				    MRC_OP_WRITE_LAST, MRC_OP_WRITE_ONLY };
	int i = (first ? 1 : 0) + (last ? 2 : 0);

	switch (op) {
	case IB_WR_SEND:
		return send[i];
	case IB_WR_SEND_WITH_IMM:
		return last ? (first ? MRC_OP_SEND_ONLY_IMM : MRC_OP_SEND_LAST_IMM) :
			      send[i];
	case IB_WR_SEND_WITH_INV:
		return last ? (first ? MRC_OP_SEND_ONLY_INV : MRC_OP_SEND_LAST_INV) :
			      send[i];
	case IB_WR_RDMA_WRITE:
		return write[i];
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return last ? (first ? MRC_OP_WRITE_ONLY_IMM : MRC_OP_WRITE_LAST_IMM) :
			      write[i];
	case IB_WR_RDMA_READ:
		return MRC_OP_READ_REQ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return MRC_OP_CMP_SWAP;
	case IB_WR_FLUSH:
		return MRC_OP_FLUSH;
	case IB_WR_ATOMIC_WRITE:
		return MRC_OP_ATOMIC_WRITE;
	default:
		return MRC_OP_FETCH_ADD;
	}
}

/*
 * Build the packet for PSN first_psn + @k of WQE @idx; a READ request asks
 * for @n PSNs from there; @ackreq_now asks for an acknowledgment whatever
 * the count. Returns NULL (and sets m->status) on a local error, or on
 * allocation failure with the status untouched.
 */
static struct sk_buff *build_rc(struct mrc_qp *qp, u32 idx, u32 k, u32 n,
				bool rtx, bool ackreq_now)
{
	struct rxe_send_wqe *w = wcopy(qp, idx);
	struct mrc_swqe *m = wmeta(qp, idx);
	struct mrc_req *r = &qp->req;
	bool first = !k, last = k + n == m->npkts;
	u32 off = k * qp->mtu, paylen = 0, psn = m->first_psn + k;
	bool is_read = m->opcode == IB_WR_RDMA_READ;
	bool ackreq = last || rtx || is_read || m->rd_atomic || ackreq_now;
	struct mrc_pkt pkt;
	struct sk_buff *skb;
	unsigned int hlen;
	u8 op, flags8;
	int err = 0;

	if (!is_read && !m->rd_atomic)
		paylen = min(qp->mtu, m->length - off);
	if (m->opcode == IB_WR_ATOMIC_WRITE)
		paylen = 8;
	op = rc_opcode(m->opcode, first, last);
	if (qp->ibqp.qp_type == IB_QPT_UC) {
		op = mrc_uc_opcode(op);	/* nobody acknowledges UC */
		ackreq = false;
	} else if (++r->since_ackreq >= MRC_ACKREQ_EVERY) {
		ackreq = true;
	}
	if (ackreq)
		r->since_ackreq = 0;

	skb = mrc_net_alloc(qp->mdev, mrc_wire_hdr_len(op, false) + paylen +
			    (-paylen & 3));
	if (!skb)
		return NULL;
	hlen = mrc_wire_prepare(&pkt, skb->data, op, paylen);
	memset(skb->data, 0, hlen);
	flags8 = (ackreq ? MRC_BTH_ACKREQ : 0) | (rtx ? MRC_BTH_RTX : 0);
	mrc_bth_init(skb->data, op, flags8,
		     last && (w->wr.send_flags & IB_SEND_SOLICITED),
		     -paylen & 3, IB_DEFAULT_PKEY_FULL, qp->attr.dest_qp_num,
		     psn);
	mrc_meth_set(mrc_pkt_hdr(&pkt, MRC_H_METH), m->rqmsn, m->msn);
	if (pkt.mask & MRC_H_RETH) {
		u32 len = m->length;

		if (is_read)
			len = min_t(u32, n * qp->mtu, m->length - off);
		if (m->opcode == IB_WR_FLUSH)
			mrc_reth_set(mrc_pkt_hdr(&pkt, MRC_H_RETH),
				     mrc_wr_flush(w).remote_addr,
				     mrc_wr_flush(w).rkey, len);
		else
			mrc_reth_set(mrc_pkt_hdr(&pkt, MRC_H_RETH),
				     w->wr.wr.rdma.remote_addr + off,
				     w->wr.wr.rdma.rkey, len);
	}
	if (pkt.mask & MRC_H_FETH)
		mrc_feth_set(mrc_pkt_hdr(&pkt, MRC_H_FETH),
			     mrc_wr_flush(w).type, mrc_wr_flush(w).level);
	if (pkt.mask & MRC_H_PLETH)
		mrc_pleth_set(mrc_pkt_hdr(&pkt, MRC_H_PLETH), off, m->length);
	if (pkt.mask & MRC_H_IMMDT)
		mrc_immdt_set(mrc_pkt_hdr(&pkt, MRC_H_IMMDT), w->wr.ex.imm_data);
	if (pkt.mask & MRC_H_IETH)
		mrc_ieth_set(mrc_pkt_hdr(&pkt, MRC_H_IETH),
			     w->wr.ex.invalidate_rkey);
	if (pkt.mask & MRC_H_ATMETH) {
		u64 sa = m->opcode == IB_WR_ATOMIC_CMP_AND_SWP ?
			 w->wr.wr.atomic.swap : w->wr.wr.atomic.compare_add;

		mrc_atmeth_set(mrc_pkt_hdr(&pkt, MRC_H_ATMETH),
			       w->wr.wr.atomic.remote_addr, w->wr.wr.atomic.rkey,
			       sa, w->wr.wr.atomic.compare_add);
	}
	if (paylen) {
		u8 *dst = skb->data + hlen;

		if (m->opcode == IB_WR_ATOMIC_WRITE) {
			memcpy(dst, mrc_wqe_atomic_wr(w), 8);
		} else if (w->wr.send_flags & IB_SEND_INLINE) {
			memcpy(dst, w->dma.inline_data + off, paylen);
		} else {
			rcu_read_lock();
			err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, w->dma.sge,
					   w->dma.num_sge, off, dst, paylen,
					   false);
			rcu_read_unlock();
		}
		memset(dst + paylen, 0, -paylen & 3);
	}
	if (err) {
		kfree_skb(skb);
		m->status = IB_WC_LOC_PROT_ERR;
		return NULL;
	}
	return skb;
}

/*
 * @skb of PSNs @psn.. is sent: address it, pick its EV, note them. @bytes:
 * its payload, in flight until acknowledged or lost (a resend's is noted).
 */
static void mark_sent(struct mrc_qp *qp, struct sk_buff *skb, u32 psn, u32 n,
		      u32 bytes, bool rd, bool rtx)
{
	struct mrc_req *r = &qp->req;
	int ev = mrc_sched_pick(qp, skb, rtx ? MRC_STAMP_RTX : MRC_STAMP_DATA);
	u32 t = now_us(), i;

	for (i = 0; i < n; i++) {
		u32 s = tslot(psn + i);

		r->txev[s] = ev;
		r->txseq[s] = r->tx_seq;

		if (rtx) {
			if (r->txs[s] & MRC_TX_LOST) {
				r->nlost--;
				r->inflight += r->txlen[s];
			}
			r->txs[s] = (r->txs[s] & ~MRC_TX_LOST) | MRC_TX_RTXED;
		} else {
			r->txs[s] = rd ? MRC_TX_RD : 0;
			r->txlen[s] = i ? 0 : bytes;
			r->inflight += r->txlen[s];
		}
		r->sent_us[s] = t;
	}
	r->tx_seq++;
}

/* Does congestion control let @bytes more go? */
static bool cc_allows(const struct mrc_qp *qp, u32 bytes)
{
	const struct mrc_req *r = &qp->req;

	return !r->cc_on || mrc_cc_may_send(&r->cc, r->inflight, bytes);
}

/* Resend lost PSNs, oldest first. */
static int send_lost(struct mrc_qp *qp, struct sk_buff_head *txq, int budget)
{
	struct mrc_req *r = &qp->req;
	u32 psn;

	for (psn = r->snd_una; r->nlost && budget > 0 && psn != r->snd_nxt;
	     psn = mrc_psn_add(psn, 1)) {
		struct sk_buff *skb;
		struct mrc_swqe *m;
		u32 idx;

		if (!(r->txs[tslot(psn)] & MRC_TX_LOST))
			continue;
		if (!mrc_req_find_wqe(qp, psn, &idx)) {
			r->txs[tslot(psn)] &= ~MRC_TX_LOST;
			r->nlost--;
			continue;
		}
		if (!cc_allows(qp, r->txlen[tslot(psn)]))
			break;
		m = wmeta(qp, idx);
		skb = build_rc(qp, idx, mrc_psn_diff(psn, m->first_psn), 1, true,
			       false);
		if (!skb) {
			if (m->status != IB_WC_SUCCESS)
				m->done = true;
			break;
		}
		mark_sent(qp, skb, psn, 1, 0, false, true);
		mrc_count(qp->mdev, MRC_CNT_RETRANS, 1);
		__skb_queue_tail(txq, skb);
		budget--;
	}
	return budget;
}

/*
 * May @n new PSNs of @bytes of payload go now? The one gate of the send
 * path: the peer's receive window (its MPR, which its SACKs advertise)
 * bounds the PSNs in flight, congestion control the bytes. Resends pass
 * congestion control only: their PSNs are in the window already.
 */
static bool may_send(const struct mrc_qp *qp, u32 n, u32 bytes)
{
	const struct mrc_req *r = &qp->req;

	return mrc_psn_diff(mrc_psn_add(r->snd_nxt, n), r->snd_una) <=
	       r->peer_win && cc_allows(qp, bytes);
}

/*
 * After a packet of @bytes, would congestion control stop the next one?
 * Then it asks for an acknowledgment: the responder acknowledges only
 * every so many packets, and a window smaller than that would otherwise
 * wait for the timer.
 */
static bool window_fills(const struct mrc_qp *qp, u32 bytes)
{
	const struct mrc_req *r = &qp->req;

	return r->cc_on && !mrc_cc_may_send(&r->cc, r->inflight + bytes, qp->mtu);
}

/* Send packets never sent, while may_send() allows. */
static int send_new(struct mrc_qp *qp, struct sk_buff_head *txq, int budget)
{
	struct mrc_req *r = &qp->req;

	while (budget > 0 && qp->state == IB_QPS_RTS) {
		struct sk_buff *skb;
		struct mrc_swqe *m;
		u32 n = 1, bytes;

		if (!r->cur_valid) {
			if (!fetch_rc(qp))
				break;
			budget--;	/* local ops and bad WQEs cost too */
			continue;
		}
		m = wmeta(qp, r->cur_idx);
		if (m->opcode == IB_WR_RDMA_READ)
			n = min3(m->npkts - m->sent, MRC_READ_CHUNK, r->peer_win);
		bytes = m->rd_atomic ? 0 : min(qp->mtu, m->length - m->sent * qp->mtu);
		if (!may_send(qp, n, bytes))
			break;
		skb = build_rc(qp, r->cur_idx, m->sent, n, false,
			       window_fills(qp, bytes));
		if (!skb) {
			if (m->status != IB_WC_SUCCESS) {
				/* the WQE ends here: skip its other PSNs */
				m->done = true;
				r->cur_valid = false;
			}
			break;
		}
		mark_sent(qp, skb, r->snd_nxt, n, bytes, m->rd_atomic, false);
		r->snd_nxt = mrc_psn_add(r->snd_nxt, n);
		m->sent += n;
		if (m->sent == m->npkts)
			r->cur_valid = false;
		__skb_queue_tail(txq, skb);
		budget -= n;
	}
	return budget;
}

/* ---- UC ----------------------------------------------------------------- */

/**
 * mrc_send_uc() - send what a UC QP has to send
 * @qp: a UC QP in RTS; qp->lock held
 * @txq: where the packets go
 * @budget: packets to send at most
 *
 * Each packet leaves once, on the EV the scheduler picks (sprayed as RC's
 * are), with no acknowledgment to wait for: a WQE is done when its last
 * packet left, and nothing stays in flight.
 *
 * Return: the budget left (0: more may be waiting).
 */
int mrc_send_uc(struct mrc_qp *qp, struct sk_buff_head *txq, int budget)
{
	struct mrc_req *r = &qp->req;

	while (budget > 0 && qp->state == IB_QPS_RTS) {
		struct sk_buff *skb;
		struct mrc_swqe *m;

		if (!r->cur_valid) {
			if (!fetch_rc(qp))
				break;
			budget--;	/* bad WQEs cost too */
			continue;
		}
		m = wmeta(qp, r->cur_idx);
		skb = build_rc(qp, r->cur_idx, m->sent, 1, false, false);
		if (!skb) {
			if (m->status != IB_WC_SUCCESS) {
				m->done = true;
				r->cur_valid = false;
			} else {
				/* no memory: the timer's work tries again
				 * in a tick, not at once in a loop
				 */
				timer_reduce(&qp->timer, jiffies + 1);
			}
			break;
		}
		mrc_sched_pick(qp, skb, MRC_STAMP_DATA);
		r->snd_nxt = mrc_psn_add(r->snd_nxt, 1);
		r->snd_una = r->snd_nxt;
		if (++m->sent == m->npkts) {
			m->done = true;
			r->cur_valid = false;
		}
		__skb_queue_tail(txq, skb);
		budget--;
	}
	return budget;
}

/* ---- UD and GSI ------------------------------------------------------- */

/* Send UD WQEs; returns the budget left (0: more may be waiting) */
int mrc_send_ud(struct mrc_qp *qp, struct sk_buff_head *txq, int budget)
{
	struct mrc_dev *mdev = qp->mdev;
	struct mrc_req *r = &qp->req;

	for (; budget > 0 && qp->state >= IB_QPS_RTS &&
	     qp->state != IB_QPS_ERR; budget--) {
		u32 idx = r->next_idx, qkey, paylen, mtu;
		unsigned long irqf;
		struct net_device *ndev;
		struct rxe_send_wqe *w;
		struct mrc_swqe *m;
		struct sk_buff *skb;
		struct mrc_pkt pkt;
		struct mrc_ah *ah;
		struct mrc_av av;
		unsigned int hlen;
		int err = 0;
		u8 op;

		if (!can_fetch(qp))
			break;
		w = wcopy(qp, idx);
		memcpy(w, mrc_queue_slot(&qp->sq, idx), qp->sq_elem);
		m = wmeta(qp, idx);
		memset(m, 0, sizeof(*m));
		m->opcode = w->wr.opcode;
		m->done = true;
		r->next_idx = (idx + 1) & qp->sq.mask;
		paylen = wqe_length(qp, w, &err);
		m->length = paylen;

		rcu_read_lock();
		ndev = rcu_dereference(mdev->ndev);
		mtu = ndev ? ib_mtu_enum_to_int(mrc_wire_path_mtu(ndev->mtu)) : 0;
		rcu_read_unlock();
		xa_lock_irqsave(&mdev->ah_xa, irqf);
		ah = xa_load(&mdev->ah_xa, w->wr.wr.ud.ah_num);
		if (ah && ah->ibah.pd == qp->ibqp.pd)
			av = ah->av;
		else
			ah = NULL;
		xa_unlock_irqrestore(&mdev->ah_xa, irqf);
		if (err || !ah || paylen > mtu ||
		    (m->opcode != IB_WR_SEND && m->opcode != IB_WR_SEND_WITH_IMM)) {
			m->status = IB_WC_LOC_QP_OP_ERR;
			continue;
		}
		op = m->opcode == IB_WR_SEND ? MRC_OP_UD_SEND_ONLY :
					       MRC_OP_UD_SEND_ONLY_IMM;
		skb = mrc_net_alloc(mdev, mrc_wire_hdr_len(op, false) + paylen +
				    (-paylen & 3));
		if (!skb) {
			m->status = IB_WC_GENERAL_ERR;
			continue;
		}
		hlen = mrc_wire_prepare(&pkt, skb->data, op, paylen);
		memset(skb->data, 0, skb->len);
		mrc_bth_init(skb->data, op, 0,
			     w->wr.send_flags & IB_SEND_SOLICITED, -paylen & 3,
			     IB_DEFAULT_PKEY_FULL, w->wr.wr.ud.remote_qpn,
			     r->ud_psn);
		r->ud_psn = mrc_psn_add(r->ud_psn, 1);
		qkey = w->wr.wr.ud.remote_qkey;
		if (qkey & 0x80000000)
			qkey = qp->attr.qkey;
		mrc_deth_set(mrc_pkt_hdr(&pkt, MRC_H_DETH), qkey, qp->ibqp.qp_num);
		if (pkt.mask & MRC_H_IMMDT)
			mrc_immdt_set(mrc_pkt_hdr(&pkt, MRC_H_IMMDT),
				      w->wr.ex.imm_data);
		if (w->wr.send_flags & IB_SEND_INLINE) {
			memcpy(skb->data + hlen, w->dma.inline_data, paylen);
		} else if (paylen) {
			rcu_read_lock();
			err = mrc_sge_copy(mdev, qp->ibqp.pd, w->dma.sge,
					   w->dma.num_sge, 0, skb->data + hlen,
					   paylen, false);
			rcu_read_unlock();
		}
		if (err) {
			kfree_skb(skb);
			m->status = IB_WC_LOC_PROT_ERR;
			continue;
		}
		*mrc_skb_av(skb) = av;
		__skb_queue_tail(txq, skb);
	}
	return budget;
}

/* ---- probes ----------------------------------------------------------- */

/* A PROBE on EV @i: the responder answers with a SACK naming the EV */
static void send_probe(struct mrc_qp *qp, u32 i, struct sk_buff_head *txq)
{
	struct sk_buff *skb;
	struct mrc_pkt pkt;

	skb = mrc_net_alloc(qp->mdev, mrc_wire_hdr_len(MRC_OP_PROBE, false));
	if (!skb)
		return;
	memset(skb->data, 0, skb->len);
	mrc_wire_prepare(&pkt, skb->data, MRC_OP_PROBE, 0);
	mrc_bth_init(skb->data, MRC_OP_PROBE, 0, false, 0, IB_DEFAULT_PKEY_FULL,
		     qp->attr.dest_qp_num, qp->req.snd_nxt);
	mrc_peth_set(mrc_pkt_hdr(&pkt, MRC_H_PETH), i, now_us());
	qp->evs->ev[i].probe_tx_ns = ktime_get_ns();
	mrc_sched_stamp_ev(qp, skb, i);
	mrc_count(qp->mdev, MRC_CNT_PROBE_TX, 1);
	__skb_queue_tail(txq, skb);
}

/*
 * Probe the ASSUMED_BAD EVs whose time has come (mrc_evset_probes()): at
 * most MRC_PROBE_BURST at a time and one such burst per MRC_PROBE_MIN_US,
 * so that a QP with many bad EVs on a struggling fabric adds little to it.
 */
void mrc_send_probes(struct mrc_qp *qp, struct sk_buff_head *txq)
{
	struct mrc_evset *evs = qp->evs;
	u8 idx[MRC_PROBE_BURST];
	u32 now = now_us(), n, k;

	if (!evs || !evs->nbad || (s32)(now - qp->req.probe_next_us) < 0)
		return;
	qp->req.probe_next_us = now + MRC_PROBE_MIN_US;
	n = mrc_evset_probes(evs, now, mrc_loss_probe_us(qp),
			     mrc_qp_planes(qp), idx, ARRAY_SIZE(idx));
	for (k = 0; k < n; k++) {
		evs->ev[idx[k]].probes++;
		send_probe(qp, idx[k], txq);
	}
}

/*
 * A timeout means ACKs went missing: the data was lost, or the ACKs and
 * SACKs were. Besides the resends, a reliability probe on the next GOOD EV
 * asks the responder for its SACK state (MRC 1.0), ahead of them: one
 * small packet whose answer covers the whole window, also what the
 * resends do not (MRC_TO_BURST at most), and tests a path that works.
 */
static void send_rto_probe(struct mrc_qp *qp, struct sk_buff_head *txq)
{
	int i;

	if (!qp->req.rto_probe || !qp->evs)
		return;
	qp->req.rto_probe = false;
	i = mrc_evset_next(qp->evs, mrc_qp_planes(qp));
	if (i < 0)
		return;
	qp->evs->ev[i].probes++;
	mrc_count(qp->mdev, MRC_CNT_RTO_PROBE, 1);
	send_probe(qp, i, txq);
}

/**
 * mrc_send_rev_probe() - keep the reverse EV set of a QP that only receives
 * @qp: an RC QP; qp->lock held
 * @txq: where the probe goes
 *
 * The responder calls it when it acknowledges. A QP with nothing of its
 * own outstanding (or that cannot send: RTR) learns nothing of its EVs
 * from data, so it probes a random EV of the next plane, one probe at a
 * time (MRC 1.0: one per RTT): the next goes MRC_REV_PROBE_US after the
 * last if that was answered, else after twice their RTT, doubled for each
 * one unanswered in a row, up to MRC_EV_PROBE_WAIT_MAX_US. The answer
 * makes the EV its plane's reverse EV (sack_ev()). Under load the answers
 * queue behind data, and the probes slow down with them.
 */
void mrc_send_rev_probe(struct mrc_qp *qp, struct sk_buff_head *txq)
{
	struct mrc_req *r = &qp->req;
	u32 now = now_us(), wait = MRC_REV_PROBE_US;
	int i;

	if (!qp->evs || (qp->state != IB_QPS_RTS && qp->state != IB_QPS_RTR) ||
	    (qp->state == IB_QPS_RTS && r->snd_una != r->snd_nxt))
		return;
	if (r->rev_probe_ev >= 0)
		wait = min_t(u64, (u64)max_t(u32, 2 * r->rev_rtt_us, wait) <<
			     r->rev_backoff, MRC_EV_PROBE_WAIT_MAX_US);
	if (now - r->rev_probe_us < wait)
		return;
	i = mrc_evset_rev_candidate(qp->evs, READ_ONCE(qp->mdev->planes_up));
	if (i < 0)
		return;
	if (r->rev_probe_ev >= 0 && r->rev_backoff < MRC_EV_PROBE_BACKOFF_MAX)
		r->rev_backoff++;
	r->rev_probe_us = now;
	r->rev_probe_ev = i;
	qp->evs->ev[i].probes++;
	send_probe(qp, i, txq);
}

/* ---- RC ---------------------------------------------------------------- */

/**
 * mrc_send_rc() - send what an RC QP may send now
 * @qp: an RC QP in RTS; qp->lock held
 * @txq: where the packets go
 * @budget: packets to send at most
 *
 * A probe of the responder's SACK state a timeout asked for goes first,
 * then, unless a trim pause holds them (mrc_loss_trim_pause()), the PSNs
 * found lost, oldest first, then new ones.
 *
 * Return: the budget left (0: more may be waiting).
 */
int mrc_send_rc(struct mrc_qp *qp, struct sk_buff_head *txq, int budget)
{
	send_rto_probe(qp, txq);
	if (mrc_loss_paused(qp))
		return budget;
	budget = send_lost(qp, txq, budget);
	return send_new(qp, txq, budget);
}
