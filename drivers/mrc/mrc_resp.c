// SPDX-License-Identifier: GPL-2.0
/*
 * The responder: places request packets in any order and acknowledges.
 *
 * Arrivals are tracked in the MPR window (struct mrc_psn_win): a PSN is
 * placed once, duplicates are dropped (and re-acknowledged), PSNs past the
 * window are dropped. WRITE packets carry their own address (RETH in every
 * packet) and are checked and copied on their own; SEND packets carry
 * their message's receive sequence (METH.RQMSN) and offset (PLETH), so a
 * packet of message k takes receive WQEs up to k from the RQ/SRQ and lands
 * at its offset. Receive completions follow PSN order: a message completes
 * when every PSN up to its last one has arrived, which also makes a SEND
 * completion imply all earlier WRITEs are in place.
 *
 * READ, atomic, FLUSH and ATOMIC_WRITE requests run in order: one that
 * arrives before all earlier PSNs is parked until they have. Atomic
 * results are remembered so that a resent atomic is answered, not done
 * twice; a FLUSH or ATOMIC_WRITE whose PSN is marked is answered alone.
 * The requests not yet run count against max_dest_rd_atomic; parked ones
 * whose turn came are run MRC_RD_BUDGET response packets at a time, the
 * rest from the QP's work.
 *
 * Acknowledgments (built in mrc_ack.c): an ACK (cumulative) when the
 * window has no hole, a SACK (cumulative + 64-bit bitmap) when it has;
 * sent for AckReq packets, for
 * out-of-order and duplicate arrivals, for every arrival while a trimmed
 * PSN is awaited, and every MRC_ACK_BYTES of payload or MRC_ACK_EVERY
 * packets, whichever comes first.
 *
 * Runs in softirq under qp->lock.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>

#include <rdma/ib_mad.h>

#include "mrc.h"

#define MRC_ACK_EVERY	16
#define MRC_ACK_BYTES	16384
/*
 * READ/atomic requests a conforming requester can have at or past our
 * window base beyond its max_rd_atomic WQEs: a READ of more than
 * MRC_READ_CHUNK PSNs leaves as several requests, all but the last full,
 * and its PSNs in flight span at most MRC_TX_WIN.
 */
#define MRC_RD_SPLIT	(MRC_TX_WIN / MRC_READ_CHUNK - 1)
/*
 * READ response packets one pass sends for parked requests whose turn
 * has come; the QP's work sends the rest, so that one arrival that fills
 * a hole does not release a window's worth of responses in one softirq.
 */
#define MRC_RD_BUDGET	MRC_READ_CHUNK

static inline struct rxe_recv_wqe *rcopy(struct mrc_qp *qp, u32 slot)
{
	return qp->resp.rcopies + (size_t)slot * qp->rq_elem;
}

int mrc_resp_init(struct mrc_qp *qp)
{
	qp->resp.rcopies = kvcalloc(MRC_RMSG_MAX, qp->rq_elem, MRC_GFP_USER);
	if (!qp->resp.rcopies)
		return -ENOMEM;
	mrc_resp_reset(qp);
	return 0;
}

void mrc_resp_cleanup(struct mrc_qp *qp)
{
	kvfree(qp->resp.rcopies);
	qp->resp.rcopies = NULL;
}

void mrc_resp_reset(struct mrc_qp *qp)
{
	struct mrc_resp *rs = &qp->resp;

	mrc_psn_win_init(&rs->win, qp->attr.rq_psn, MRC_RX_WIN);
	rs->msn_done = 0;
	rs->nfetched = 0;
	rs->rslot = 0;
	rs->nparked = 0;
	rs->ares_next = 0;
	rs->unacked = 0;
	rs->unacked_bytes = 0;
	rs->rcvd_bytes = 0;
	rs->rx_ns = 0;
	rs->trim_wait = false;
	rs->ce_pending = false;
	rs->ps_sent = 0;	/* none yet: the first ACKs are SACKs */
	rs->ps_left = 0;
	rs->completed = 0;
	memset(rs->ares, 0, sizeof(rs->ares));
}

/* Flush the receive WQEs taken for open messages (QP in ERR) */
void mrc_resp_flush(struct mrc_qp *qp)
{
	struct mrc_resp *rs = &qp->resp;

	if (!rs->rcopies)
		return;
	while (rs->nfetched) {
		struct ib_wc wc = {
			.wr_id = rcopy(qp, rs->rslot)->wr_id,
			.status = IB_WC_WR_FLUSH_ERR,
			.opcode = IB_WC_RECV,
			.qp = &qp->ibqp,
			.port_num = 1,
		};

		mrc_cq_post(qp->rcq, &wc, false);
		rs->rslot = (rs->rslot + 1) % MRC_RMSG_MAX;
		rs->nfetched--;
	}
	rs->nparked = 0;
}

/* Take the next receive WQE into @copy */
static bool fetch_recv(struct mrc_qp *qp, struct rxe_recv_wqe *copy)
{
	u32 max_sge;

	if (qp->srq) {
		if (!mrc_srq_fetch(qp->srq, copy, qp->rq_elem))
			return false;
		max_sge = qp->srq->max_sge;
	} else {
		if (!mrc_queue_count(&qp->rq))
			return false;
		memcpy(copy, mrc_queue_slot(&qp->rq, qp->rq.idx), qp->rq_elem);
		mrc_queue_consume(&qp->rq);
		max_sge = qp->max_recv_sge;
	}
	/* a bad count from userspace only fails this WQE */
	if (copy->dma.num_sge > max_sge)
		copy->dma.num_sge = U32_MAX;
	return true;
}

static u64 recv_length(struct rxe_recv_wqe *w)
{
	u64 len = 0;
	u32 i;

	if (w->dma.num_sge > MRC_MAX_SGE)
		return 0;
	for (i = 0; i < w->dma.num_sge; i++)
		len += w->dma.sge[i].length;
	return len;
}

/* The rmsg slot of receive message @rqmsn; -EAGAIN: no receive WQE (RNR) */
static int get_msg(struct mrc_qp *qp, u16 rqmsn)
{
	struct mrc_resp *rs = &qp->resp;
	u16 d = rqmsn - rs->msn_done;

	if (d >= MRC_RMSG_MAX)
		return -ERANGE;
	while (rs->nfetched <= d) {
		u32 slot = (rs->rslot + rs->nfetched) % MRC_RMSG_MAX;

		if (!fetch_recv(qp, rcopy(qp, slot)))
			return -EAGAIN;
		memset(&rs->rmsg[slot], 0, sizeof(rs->rmsg[slot]));
		rs->nfetched++;
	}
	return (rs->rslot + d) % MRC_RMSG_MAX;
}

/*
 * A request the responder refuses for good (access or invalid request):
 * tell the requester what arrived, NAK, and move the QP to ERR, as IB
 * does for this class of errors.
 */
static void nak_fatal(struct mrc_qp *qp, u8 syn, u32 psn, struct sk_buff_head *txq)
{
	mrc_ack_send(qp, psn, txq);
	mrc_ack_aeth(qp, syn, psn, txq);
	mrc_qp_error(qp);
}

/* ---- completions -------------------------------------------------------- */

static void complete_msgs(struct mrc_qp *qp)
{
	struct mrc_resp *rs = &qp->resp;

	while (rs->nfetched) {
		struct mrc_rmsg *rm = &rs->rmsg[rs->rslot];
		struct ib_wc wc = {
			.qp = &qp->ibqp,
			.port_num = 1,
			.src_qp = qp->attr.dest_qp_num,
		};

		if (!rm->last_seen ||
		    mrc_psn_diff(rs->win.base, rm->last_psn) <= 0)
			break;
		wc.wr_id = rcopy(qp, rs->rslot)->wr_id;
		wc.status = rm->status;
		wc.opcode = rm->write_imm ? IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV;
		wc.byte_len = rm->byte_len;
		if (rm->has_imm) {
			wc.wc_flags |= IB_WC_WITH_IMM;
			wc.ex.imm_data = rm->imm;
		}
		if (rm->has_inv && wc.status == IB_WC_SUCCESS) {
			if (mrc_mr_invalidate(qp, rm->inv_rkey, true))
				wc.status = IB_WC_LOC_PROT_ERR;
			wc.wc_flags |= IB_WC_WITH_INVALIDATE;
			wc.ex.invalidate_rkey = rm->inv_rkey;
		}
		mrc_cq_post(qp->rcq, &wc, rm->solicited);
		rs->rslot = (rs->rslot + 1) % MRC_RMSG_MAX;
		rs->nfetched--;
		rs->msn_done++;
		rs->completed++;
		if (wc.status != IB_WC_SUCCESS) {
			mrc_qp_error(qp);
			return;
		}
	}
}

/* ---- READ and atomics ------------------------------------------------- */

static u8 resp_opcode(u32 i, u32 n)
{
	if (n == 1)
		return MRC_OP_READ_RESP_ONLY;
	if (!i)
		return MRC_OP_READ_RESP_FIRST;
	return i == n - 1 ? MRC_OP_READ_RESP_LAST : MRC_OP_READ_RESP_MIDDLE;
}

static u32 read_npkts(struct mrc_qp *qp, u32 len)
{
	return max_t(u32, 1, DIV_ROUND_UP(len, qp->mtu));
}

/* Answer a READ request (new or resent); false on an access error */
static bool exec_read(struct mrc_qp *qp, const struct mrc_rd_req *rq,
		      struct sk_buff_head *txq)
{
	u32 n = read_npkts(qp, rq->len), i;
	struct mrc_mr *mr = NULL;
	u64 va = rq->va;
	bool ok = true;

	rcu_read_lock();
	if (rq->len && mrc_rkey_get(qp, rq->rkey, &va, rq->len,
				    IB_ACCESS_REMOTE_READ, &mr)) {
		ok = false;
		goto out;
	}
	for (i = 0; i < n; i++) {
		u32 off = i * qp->mtu, paylen = min(qp->mtu, rq->len - off);
		u8 op = resp_opcode(i, n);
		struct sk_buff *skb;
		struct mrc_pkt pkt;

		skb = mrc_ack_skb(qp, op, mrc_psn_add(rq->psn, i), &pkt, paylen);
		if (!skb)
			break;
		mrc_pleth_set(mrc_pkt_hdr(&pkt, MRC_H_PLETH), off, rq->len);
		if (paylen &&
		    mrc_mr_copy(mr, va + off, skb->data + pkt.payload,
				paylen, false)) {
			kfree_skb(skb);
			ok = false;
			break;
		}
		__skb_queue_tail(txq, skb);
	}
out:
	mrc_mr_put(mr);
	rcu_read_unlock();
	return ok;
}

static void send_atomic_ack(struct mrc_qp *qp, u32 psn, u64 orig,
			    struct sk_buff_head *txq)
{
	struct sk_buff *skb;
	struct mrc_pkt pkt;

	skb = mrc_ack_skb(qp, MRC_OP_ATOMIC_ACK, psn, &pkt, 0);
	if (!skb)
		return;
	mrc_aeth_set(mrc_pkt_hdr(&pkt, MRC_H_AETH), MRC_AETH_ACK,
		     qp->resp.completed & MRC_PSN_MASK);
	mrc_atmack_set(mrc_pkt_hdr(&pkt, MRC_H_ATMACK), orig);
	__skb_queue_tail(txq, skb);
}

static bool exec_atomic(struct mrc_qp *qp, const struct mrc_rd_req *rq,
			struct sk_buff_head *txq)
{
	struct mrc_resp *rs = &qp->resp;
	struct mrc_atomic_res *res;
	u64 orig, va = rq->va;
	struct mrc_mr *mr;
	int err;

	rcu_read_lock();
	err = mrc_rkey_get(qp, rq->rkey, &va, 8, IB_ACCESS_REMOTE_ATOMIC, &mr);
	if (!err)
		err = mrc_mr_atomic(mr, va, rq->opcode, rq->swap, rq->comp,
				    &orig);
	mrc_mr_put(mr);
	rcu_read_unlock();
	if (err)
		return false;
	res = &rs->ares[rs->ares_next++ % MRC_RD_MAX];
	res->psn = rq->psn;
	res->orig = orig;
	res->valid = true;
	send_atomic_ack(qp, rq->psn, orig, txq);
	return true;
}

/* FLUSH and ATOMIC_WRITE are answered by an empty READ response (IBA) */
static void send_empty_resp(struct mrc_qp *qp, u32 psn,
			    struct sk_buff_head *txq)
{
	struct sk_buff *skb;
	struct mrc_pkt pkt;

	skb = mrc_ack_skb(qp, MRC_OP_READ_RESP_ONLY, psn, &pkt, 0);
	if (!skb)
		return;
	mrc_pleth_set(mrc_pkt_hdr(&pkt, MRC_H_PLETH), 0, 0);
	__skb_queue_tail(txq, skb);
}

static void mark_range(struct mrc_qp *qp, u32 psn, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		mrc_psn_win_mark(&qp->resp.win, mrc_psn_add(psn, i));
}

/* Run a READ/atomic request whose PSN is the window base */
static void exec_rd(struct mrc_qp *qp, const struct mrc_rd_req *rq,
		    struct sk_buff_head *txq)
{
	bool ok;
	u8 syn;

	if (mrc_op_is_mpe(rq->opcode)) {
		syn = mrc_mr_mpe(qp, rq);
		if (syn) {
			nak_fatal(qp, syn, rq->psn, txq);
			return;
		}
		send_empty_resp(qp, rq->psn, txq);
		mark_range(qp, rq->psn, 1);
		return;
	}
	if (rq->opcode == MRC_OP_READ_REQ) {
		ok = exec_read(qp, rq, txq);
		if (ok)
			mark_range(qp, rq->psn, read_npkts(qp, rq->len));
	} else {
		ok = exec_atomic(qp, rq, txq);
		if (ok)
			mark_range(qp, rq->psn, 1);
	}
	if (!ok)
		nak_fatal(qp, MRC_AETH_NAK_ACC, rq->psn, txq);
}

/*
 * Parked requests whose turn has come, for up to @budget response
 * packets (the first always runs). Returns true when one is left waiting.
 */
static bool run_parked(struct mrc_qp *qp, struct sk_buff_head *txq,
		       u32 budget)
{
	struct mrc_resp *rs = &qp->resp;
	bool ran = false;
	u32 i, n;

again:
	for (i = 0; i < rs->nparked; i++) {
		struct mrc_rd_req rq = rs->parked[i];

		if (mrc_psn_diff(rq.psn, rs->win.base) > 0)
			continue;
		if (rq.psn == rs->win.base) {
			n = rq.opcode == MRC_OP_READ_REQ ?
			    read_npkts(qp, rq.len) : 1;
			if (ran && n > budget)
				return true;
			budget -= min(budget, n);
			ran = true;
		}
		rs->parked[i] = rs->parked[--rs->nparked];
		if (rq.psn == rs->win.base) {
			exec_rd(qp, &rq, txq);
			if (qp->state == IB_QPS_ERR)
				return false;
		}
		goto again;
	}
	return false;
}

static void run_parked_later(struct mrc_qp *qp, struct sk_buff_head *txq)
{
	if (run_parked(qp, txq, MRC_RD_BUDGET) && !qp->dying)
		queue_work(mrc_wq, &qp->work);
}

/**
 * mrc_resp_run() - run the parked requests an earlier pass left waiting
 * @qp: an RC QP; qp->lock held (the QP's work)
 * @txq: where the responses go
 */
void mrc_resp_run(struct mrc_qp *qp, struct sk_buff_head *txq)
{
	struct mrc_resp *rs = &qp->resp;
	u32 base = rs->win.base;

	if (!rs->nparked || qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR)
		return;
	run_parked_later(qp, txq);
	complete_msgs(qp);
	/* what was placed past them is acknowledged now */
	if (qp->state != IB_QPS_ERR && rs->win.base != base)
		mrc_ack_send(qp, mrc_psn_win_cack(&rs->win), txq);
}

/*
 * A READ retransmitted one response PSN at a time, as mrc's requester
 * resends the PSNs of a READ it lost (send_lost): a part of a request
 * already counted, or whose first part was lost; it buys one packet.
 */
static bool rd_resend(struct mrc_qp *qp, const struct mrc_rd_req *rq)
{
	return rq->rtx && rq->opcode == MRC_OP_READ_REQ && rq->len <= qp->mtu;
}

/*
 * A new READ/atomic request beyond the responder resources
 * (max_dest_rd_atomic). The requester cannot have received the answer to
 * any request at or past our window base (its oldest unacknowledged PSN
 * is at most our base), so each of those still counts against its
 * max_rd_atomic: the parked ones and this one. Those before the base were
 * answered and hold nothing here (a duplicate runs again), and with
 * several paths nothing tells whether their answers arrived: they do not
 * count. Nor do one-PSN resends: a READ whose request was lost comes
 * back as one per PSN.
 */
static bool rd_over_limit(struct mrc_qp *qp, const struct mrc_rd_req *rq)
{
	struct mrc_resp *rs = &qp->resp;
	u32 max = qp->attr.max_dest_rd_atomic, n = 1, i;

	if (!max)
		return true;
	if (rd_resend(qp, rq))
		return false;
	for (i = 0; i < rs->nparked; i++)
		if (rs->parked[i].psn != rq->psn &&
		    mrc_psn_diff(rs->parked[i].psn, rs->win.base) >= 0 &&
		    !rd_resend(qp, &rs->parked[i]))
			n++;
	return n > max + MRC_RD_SPLIT;
}

static void parse_rd(struct mrc_pkt *pkt, struct mrc_rd_req *rq)
{
	rq->psn = mrc_bth_psn(pkt->hdr);
	rq->opcode = pkt->opcode;
	rq->rtx = mrc_bth_rtx(pkt->hdr);
	if (pkt->mask & MRC_H_RETH) {
		u8 *reth = mrc_pkt_hdr(pkt, MRC_H_RETH);

		rq->va = mrc_reth_va(reth);
		rq->rkey = mrc_reth_rkey(reth);
		rq->len = mrc_reth_len(reth);
		rq->swap = 0;
		rq->comp = 0;
		/* ATOMIC_WRITE: its value, taken as it came; FLUSH: type, level */
		if (pkt->opcode == MRC_OP_ATOMIC_WRITE)
			memcpy(&rq->swap, pkt->hdr + pkt->payload, 8);
		if (pkt->mask & MRC_H_FETH) {
			u8 *feth = mrc_pkt_hdr(pkt, MRC_H_FETH);

			rq->comp = mrc_feth_level(feth) << 4 | mrc_feth_type(feth);
		}
	} else {
		u8 *a = mrc_pkt_hdr(pkt, MRC_H_ATMETH);

		rq->va = mrc_atmeth_va(a);
		rq->rkey = mrc_atmeth_rkey(a);
		rq->swap = mrc_atmeth_swap_add(a);
		rq->comp = mrc_atmeth_comp(a);
		rq->len = 8;
	}
}

/* A request PSN seen before: answer again, never do it twice */
static void duplicate(struct mrc_qp *qp, struct mrc_pkt *pkt, u32 psn,
		      struct sk_buff_head *txq)
{
	struct mrc_resp *rs = &qp->resp;
	struct mrc_rd_req rq;
	u32 i;

	mrc_count(qp->mdev, MRC_CNT_DUP, 1);
	if (pkt->opcode == MRC_OP_READ_REQ) {
		/* a forged "duplicate" never passed the check of a new one */
		if (!(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_READ)) {
			mrc_count(qp->mdev, MRC_CNT_RKEY_ERR, 1);
			return;
		}
		parse_rd(pkt, &rq);
		if (read_npkts(qp, rq.len) > MRC_READ_CHUNK) {
			mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
			return;
		}
		/* a request it answered once cannot end the QP now */
		if (!exec_read(qp, &rq, txq))
			mrc_count(qp->mdev, MRC_CNT_RKEY_ERR, 1);
		return;
	}
	if (mrc_op_is_mpe(pkt->opcode)) {
		/* it ran when its PSN was marked: answer, never run it again */
		send_empty_resp(qp, psn, txq);
		return;
	}
	if (pkt->opcode == MRC_OP_CMP_SWAP || pkt->opcode == MRC_OP_FETCH_ADD) {
		for (i = 0; i < MRC_RD_MAX; i++)
			if (rs->ares[i].valid && rs->ares[i].psn == psn)
				send_atomic_ack(qp, psn, rs->ares[i].orig, txq);
		return;
	}
	mrc_ack_send(qp, psn, txq);
}

/* ---- SEND and WRITE placement ------------------------------------------ */

enum place_result {
	PLACED,
	RNR,
	NAK_INV,
	NAK_ACC,
	DROP,
};

/* @rqmsn names the receive WQE: the packet's own for RC, the next for UC */
static enum place_result place_send(struct mrc_qp *qp, struct mrc_pkt *pkt,
				    u32 psn, u16 rqmsn)
{
	u8 *pleth = mrc_pkt_hdr(pkt, MRC_H_PLETH);
	u32 off = mrc_pleth_offset(pleth), mlen = mrc_pleth_len(pleth);
	struct rxe_recv_wqe *w;
	struct mrc_rmsg *rm;
	int slot, err;

	if (pkt->paylen > qp->mtu || off > mlen || pkt->paylen > mlen - off)
		return NAK_INV;
	slot = get_msg(qp, rqmsn);
	if (slot == -EAGAIN)
		return RNR;
	if (slot < 0)
		return DROP;
	w = rcopy(qp, slot);
	rm = &qp->resp.rmsg[slot];
	if (mlen > recv_length(w)) {
		rm->status = IB_WC_LOC_LEN_ERR;
	} else if (pkt->paylen && rm->status == IB_WC_SUCCESS) {
		rcu_read_lock();
		err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, w->dma.sge,
				   w->dma.num_sge, off, pkt->hdr + pkt->payload,
				   pkt->paylen, true);
		rcu_read_unlock();
		if (err)
			rm->status = IB_WC_LOC_PROT_ERR;
	}
	if (pkt->mask & MRC_H_LAST) {
		rm->last_seen = true;
		rm->last_psn = psn;
		rm->byte_len = mlen;
		rm->solicited = mrc_bth_se(pkt->hdr);
		if (pkt->mask & MRC_H_IMMDT) {
			rm->has_imm = true;
			rm->imm = mrc_immdt(mrc_pkt_hdr(pkt, MRC_H_IMMDT));
		}
		if (pkt->mask & MRC_H_IETH) {
			rm->has_inv = true;
			rm->inv_rkey = mrc_ieth_rkey(mrc_pkt_hdr(pkt, MRC_H_IETH));
		}
	}
	return rm->status == IB_WC_LOC_LEN_ERR ? NAK_INV : PLACED;
}

static enum place_result place_write(struct mrc_qp *qp, struct mrc_pkt *pkt,
				     u32 psn, u16 rqmsn)
{
	u8 *reth = mrc_pkt_hdr(pkt, MRC_H_RETH);
	u64 va = mrc_reth_va(reth);
	struct mrc_rmsg *rm;
	struct mrc_mr *mr;
	int slot = -1, err;

	if (pkt->paylen > qp->mtu || pkt->paylen > mrc_reth_len(reth))
		return NAK_INV;
	if (pkt->mask & MRC_H_IMMDT) {
		/* take the receive WQE first: no placement without it */
		slot = get_msg(qp, rqmsn);
		if (slot == -EAGAIN)
			return RNR;
		if (slot < 0)
			return DROP;
	}
	if (pkt->paylen) {
		rcu_read_lock();
		err = mrc_rkey_get(qp, mrc_reth_rkey(reth), &va, pkt->paylen,
				   IB_ACCESS_REMOTE_WRITE, &mr);
		if (!err)
			err = mrc_mr_copy(mr, va, pkt->hdr + pkt->payload,
					  pkt->paylen, true);
		mrc_mr_put(mr);
		rcu_read_unlock();
		if (err)
			return NAK_ACC;
	}
	if (slot >= 0) {
		rm = &qp->resp.rmsg[slot];
		rm->last_seen = true;
		rm->last_psn = psn;
		rm->write_imm = true;
		rm->has_imm = true;
		rm->imm = mrc_immdt(mrc_pkt_hdr(pkt, MRC_H_IMMDT));
		rm->byte_len = mrc_reth_len(reth);
		rm->solicited = mrc_bth_se(pkt->hdr);
	}
	return PLACED;
}

/**
 * mrc_resp_uc_place() - place a UC packet handed on in PSN order (mrc_uc.c)
 * @qp: a UC QP; qp->lock held
 * @pkt: a packet its message sequence took
 * @psn: its PSN
 *
 * A UC message takes the next receive WQE whatever its RQMSN says (a lost
 * one took none), and completes with its last packet.
 *
 * Return: 0, or why the message is dropped: -EAGAIN (no receive WQE),
 * -EINVAL (length, offset), -EACCES (R_Key), -ERANGE.
 */
int mrc_resp_uc_place(struct mrc_qp *qp, struct mrc_pkt *pkt, u32 psn)
{
	static const int why[] = { [RNR] = -EAGAIN, [NAK_INV] = -EINVAL,
				   [NAK_ACC] = -EACCES, [DROP] = -ERANGE };
	struct mrc_resp *rs = &qp->resp;
	enum place_result res;

	if (rs->win.base != psn)	/* PSNs were lost: the window starts here */
		mrc_psn_win_init(&rs->win, psn, MRC_RX_WIN);
	res = pkt->mask & MRC_H_PLETH ?
		place_send(qp, pkt, psn, rs->msn_done) :
		place_write(qp, pkt, psn, rs->msn_done);
	if (res != PLACED)
		return why[res];
	mrc_psn_win_mark(&rs->win, psn);
	complete_msgs(qp);
	return 0;
}

static int qp_access(const struct mrc_pkt *pkt)
{
	switch (pkt->opcode) {
	case MRC_OP_READ_REQ:
		return IB_ACCESS_REMOTE_READ;
	case MRC_OP_CMP_SWAP:
	case MRC_OP_FETCH_ADD:
		return IB_ACCESS_REMOTE_ATOMIC;
	case MRC_OP_FLUSH:
		return mrc_wire_flush_access(mrc_feth_type(mrc_pkt_hdr(pkt, MRC_H_FETH)));
	case MRC_OP_WRITE_FIRST ... MRC_OP_WRITE_ONLY_IMM:
	case MRC_OP_ATOMIC_WRITE:	/* IBA: as a WRITE */
		return IB_ACCESS_REMOTE_WRITE;
	default:
		return 0;
	}
}

/* A request packet of an RC QP (qp->lock held, softirq) */
/*
 * A reliability probe (it has no PSN): answered at once by a SACK of the
 * window that names the probe's EV, so the requester learns that the EV's
 * path carries packets again.
 */
void mrc_resp_probe(struct mrc_qp *qp, struct sk_buff *skb,
		    struct sk_buff_head *txq)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	struct mrc_resp *rs = &qp->resp;

	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return;
	}
	mrc_count(qp->mdev, MRC_CNT_PROBE_RX, 1);
	mrc_ack_sack(qp, mrc_psn_add(mrc_psn_win_cack(&rs->win), 1), pkt->ev,
		     pkt->ce ? MRC_SACK_M_SKIP_ONCE : MRC_SACK_M_NONE, true, txq);
}

/*
 * Can a request of @psn be anything but dropped (counted)? The QP must
 * take requests, and the PSN be in the window or behind it by at most
 * MRC_TX_WIN: a requester's PSNs in flight span at most that up to the
 * next it sends, which is at or past the base; one further back is
 * nobody's retransmission, and to answer it (a READ runs again) would
 * serve only whoever forged it. @d: the PSN less the window's base.
 */
static bool psn_in_reach(struct mrc_qp *qp, u32 psn, s32 *d)
{
	const struct mrc_psn_win *w = &qp->resp.win;

	*d = mrc_psn_diff(psn, w->base);
	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR ||
	    *d >= (s32)w->size || *d < -(s32)MRC_TX_WIN) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return false;
	}
	return true;
}

/*
 * A request a switch cut to its headers. A PSN the window still waits for
 * is NACKed at once, naming the EV it came on, so that the requester
 * resends it without waiting for a timer. One that already arrived whole
 * (a resend cut, the first copy placed) gets the window's state instead,
 * as a duplicate does; anything outside the window is nobody's and
 * dropped.
 */
static void resp_trimmed(struct mrc_qp *qp, struct sk_buff *skb,
			 struct sk_buff_head *txq)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb), nack;
	u32 psn = mrc_bth_psn(pkt->hdr);
	struct sk_buff *out;
	s32 d;

	if (!psn_in_reach(qp, psn, &d))
		return;
	if (d < 0 || mrc_psn_win_test(&qp->resp.win, psn)) {
		mrc_count(qp->mdev, MRC_CNT_DUP, 1);
		mrc_ack_send(qp, psn, txq);
		return;
	}
	out = mrc_ack_skb(qp, MRC_OP_NACK, psn, &nack, 0);
	if (!out)
		return;
	mrc_neth_set(mrc_pkt_hdr(&nack, MRC_H_NETH), pkt->trim, pkt->ev, psn,
		     pkt->tseth ? mrc_tseth_ts(pkt->hdr + pkt->tseth) : 0);
	mrc_count(qp->mdev, MRC_CNT_TRIM_NACK_TX, 1);
	__skb_queue_tail(txq, out);
	/*
	 * Until it arrives, every request is acknowledged at once: the cut
	 * copy may have been the one asking for an acknowledgment, and the
	 * packets before it arrive in order; the requester, its window cut
	 * by the NACK, would wait for a timer for the word on them.
	 */
	if (!qp->resp.trim_wait || mrc_psn_diff(psn, qp->resp.trim_psn) > 0)
		qp->resp.trim_psn = psn;
	qp->resp.trim_wait = true;
}

static void resp_request(struct mrc_qp *qp, struct sk_buff *skb,
			 struct sk_buff_head *txq)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	struct mrc_resp *rs = &qp->resp;
	u32 psn = mrc_bth_psn(pkt->hdr), n = 1, had_hole = qp->resp.win.ooo;
	enum place_result res;
	struct mrc_rd_req rq;
	s32 d;

	/*
	 * The PSN first: one beyond the window is dropped and a duplicate
	 * answered again, whatever they ask; only a new request may end the
	 * QP (a forged one would otherwise need no more than the QPN). The
	 * EV and ECN mark a packet came with count only from here on.
	 */
	if (!psn_in_reach(qp, psn, &d))
		return;
	rs->last_ev = pkt->ev;
	if (pkt->ce) {
		rs->ce_ev = pkt->ev;
		rs->ce_pending = true;
	}
	if (d < 0 || mrc_psn_win_test(&rs->win, psn)) {
		duplicate(qp, pkt, psn, txq);
		return;
	}
	if (pkt->opcode == MRC_OP_READ_REQ) {
		n = read_npkts(qp, mrc_reth_len(mrc_pkt_hdr(pkt, MRC_H_RETH)));
		if (n > MRC_READ_CHUNK) {	/* mrc requesters never ask more */
			mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
			nak_fatal(qp, MRC_AETH_NAK_INV, psn, txq);
			return;
		}
	}
	if (d + n > rs->win.size) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return;
	}
	if (mrc_op_is_mpe(pkt->opcode) && mrc_wire_mpe_check(pkt)) {
		mrc_count(qp->mdev, MRC_CNT_MALFORMED, 1);
		nak_fatal(qp, MRC_AETH_NAK_INV, psn, txq);
		return;
	}
	if ((qp->attr.qp_access_flags & qp_access(pkt)) != qp_access(pkt)) {
		mrc_count(qp->mdev, MRC_CNT_RKEY_ERR, 1);
		nak_fatal(qp, MRC_AETH_NAK_INV, psn, txq);
		return;
	}
	if (d)
		mrc_count(qp->mdev, MRC_CNT_OOO, 1);

	/* these run in PSN order, each after everything before it */
	if (pkt->opcode == MRC_OP_READ_REQ || pkt->opcode == MRC_OP_CMP_SWAP ||
	    pkt->opcode == MRC_OP_FETCH_ADD || mrc_op_is_mpe(pkt->opcode)) {
		u32 i;

		parse_rd(pkt, &rq);
		for (i = 0; d && i < rs->nparked; i++)
			if (rs->parked[i].psn == psn)
				return;
		/* IBA: too many READ/atomic requests is an invalid request */
		if (rd_over_limit(qp, &rq)) {
			mrc_count(qp->mdev, MRC_CNT_RD_EXCESS, 1);
			nak_fatal(qp, MRC_AETH_NAK_INV, psn, txq);
			return;
		}
		if (!d) {
			exec_rd(qp, &rq, txq);
		} else {
			if (rs->nparked == MRC_PARK_MAX) {
				mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
				return;
			}
			rs->parked[rs->nparked++] = rq;
			return;
		}
	} else {
		u16 rqmsn = mrc_meth_rqmsn(mrc_pkt_hdr(pkt, MRC_H_METH));

		if (pkt->mask & MRC_H_PLETH)
			res = place_send(qp, pkt, psn, rqmsn);
		else
			res = place_write(qp, pkt, psn, rqmsn);
		switch (res) {
		case PLACED:
			break;
		case RNR:
			mrc_ack_aeth(qp, 0x20 | (qp->attr.min_rnr_timer & 31),
				     psn, txq);
			return;
		case NAK_INV:
			mrc_count(qp->mdev, MRC_CNT_BOUNDS_ERR, 1);
			nak_fatal(qp, MRC_AETH_NAK_INV, psn, txq);
			return;
		case NAK_ACC:
			nak_fatal(qp, MRC_AETH_NAK_ACC, psn, txq);
			return;
		default:
			mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
			return;
		}
		mrc_psn_win_mark(&rs->win, psn);
	}
	if (qp->state != IB_QPS_ERR)
		run_parked_later(qp, txq);
	complete_msgs(qp);
	if (qp->state == IB_QPS_ERR)
		return;
	/* a packet that fills a hole is acknowledged at once, like one that
	 * makes one: the requester learns of the repair without waiting
	 */
	rs->unacked_bytes += pkt->paylen;
	rs->rcvd_bytes += pkt->paylen;
	if (++rs->unacked >= MRC_ACK_EVERY ||
	    rs->unacked_bytes >= MRC_ACK_BYTES || mrc_bth_ackreq(pkt->hdr) ||
	    rs->win.ooo || had_hole || rs->ce_pending || rs->trim_wait)
		mrc_ack_send(qp, psn, txq);
	if (rs->trim_wait && mrc_psn_diff(rs->win.base, rs->trim_psn) > 0)
		rs->trim_wait = false;
}

/*
 * The SACKs a request draws name it and the responder's time on it (its
 * service time, which the requester takes off its RTT sample): rx_ns is
 * set while it is handled, and only then.
 */

/**
 * mrc_resp_trimmed() - a request a switch cut to its headers
 * @qp: an RC QP, the packet's source checked; qp->lock held
 * @skb: the headers (mrc_skb_pkt()->trim says where it was cut)
 * @txq: the answer goes here
 */
void mrc_resp_trimmed(struct mrc_qp *qp, struct sk_buff *skb,
		      struct sk_buff_head *txq)
{
	qp->resp.rx_ns = ktime_get_ns();
	resp_trimmed(qp, skb, txq);
	qp->resp.rx_ns = 0;
}

void mrc_resp_recv(struct mrc_qp *qp, struct sk_buff *skb,
		   struct sk_buff_head *txq)
{
	qp->resp.rx_ns = ktime_get_ns();
	resp_request(qp, skb, txq);
	qp->resp.rx_ns = 0;
}

/* ---- UD and GSI ------------------------------------------------------- */

void mrc_resp_ud_recv(struct mrc_qp *qp, struct sk_buff *skb)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	u8 *deth = mrc_pkt_hdr(pkt, MRC_H_DETH);
	struct rxe_recv_wqe *w = rcopy(qp, 0);
	u8 grh[40] = {};
	struct ib_wc wc = {
		.qp = &qp->ibqp,
		.port_num = 1,
		.opcode = IB_WC_RECV,
		.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE,
	};
	u64 len;
	int err;

	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return;
	}
	/* QP1 takes only the GSI's controlled Q_Key, which no unprivileged
	 * user's UD QP can send with: its MADs never reach the CM
	 */
	if (mrc_deth_qkey(deth) != (qp->ibqp.qp_type == IB_QPT_GSI ?
				    IB_QP1_QKEY : qp->attr.qkey)) {
		mrc_count(qp->mdev, MRC_CNT_BAD_QKEY, 1);
		return;
	}
	if (!fetch_recv(qp, w)) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return;
	}
	if (skb->protocol == htons(ETH_P_IP)) {
		memcpy(grh + 20, ip_hdr(skb), sizeof(struct iphdr));
		wc.network_hdr_type = RDMA_NETWORK_IPV4;
	} else {
		memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
		wc.network_hdr_type = RDMA_NETWORK_IPV6;
	}
	wc.wr_id = w->wr_id;
	wc.src_qp = mrc_deth_sqp(deth);
	wc.byte_len = sizeof(grh) + pkt->paylen;
	if (pkt->mask & MRC_H_IMMDT) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = mrc_immdt(mrc_pkt_hdr(pkt, MRC_H_IMMDT));
	}
	len = recv_length(w);
	if (len < wc.byte_len) {
		wc.status = IB_WC_LOC_LEN_ERR;
	} else {
		rcu_read_lock();
		err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, w->dma.sge,
				   w->dma.num_sge, 0, grh, sizeof(grh), true);
		if (!err && pkt->paylen)
			err = mrc_sge_copy(qp->mdev, qp->ibqp.pd, w->dma.sge,
					   w->dma.num_sge, sizeof(grh),
					   pkt->hdr + pkt->payload, pkt->paylen,
					   true);
		rcu_read_unlock();
		if (err)
			wc.status = IB_WC_LOC_PROT_ERR;
	}
	mrc_cq_post(qp->rcq, &wc, mrc_bth_se(pkt->hdr));
}
