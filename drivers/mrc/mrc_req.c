// SPDX-License-Identifier: GPL-2.0
/*
 * The requester of an RC QP (and the sender of UD/GSI QPs): its state's
 * lifetime, and the one place that runs its engines (mrc_req.h).
 *
 * Three things run it, all under qp->lock: a packet for it from the wire
 * (mrc_req_recv()), the QP's work (posted WQEs, a budget used up, the
 * timer) and a state change (mrc_qp.c). Each completes what is done, sends
 * what may be sent and keeps the timer right, in that order; the engines
 * never run each other.
 */
#include <linux/jiffies.h>

#include "mrc_req.h"

#define MRC_BUDGET		256	/* packets per run; the work does the rest */

static void req_work(struct work_struct *work);

int mrc_req_init(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;
	u32 slots = qp->sq.mask + 1;

	r->txs = kcalloc(MRC_TX_WIN, sizeof(*r->txs), GFP_KERNEL_ACCOUNT);
	r->txev = kcalloc(MRC_TX_WIN, sizeof(*r->txev), GFP_KERNEL_ACCOUNT);
	r->txseq = kcalloc(MRC_TX_WIN, sizeof(*r->txseq), GFP_KERNEL_ACCOUNT);
	r->sent_us = kcalloc(MRC_TX_WIN, sizeof(*r->sent_us),
			     GFP_KERNEL_ACCOUNT);
	r->txlen = kcalloc(MRC_TX_WIN, sizeof(*r->txlen), GFP_KERNEL_ACCOUNT);
	r->copies = kvcalloc(slots, qp->sq_elem, MRC_GFP_USER);
	r->meta = kvcalloc(slots, sizeof(*r->meta), MRC_GFP_USER);
	if (!r->txs || !r->txev || !r->txseq || !r->sent_us || !r->txlen ||
	    !r->copies || !r->meta) {
		mrc_req_cleanup(qp);
		return -ENOMEM;
	}
	/* a QP may acknowledge in RTR, before mrc_req_reset() */
	r->rev_probe_ev = -1;
	INIT_WORK(&qp->work, req_work);
	return 0;
}

void mrc_req_cleanup(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;

	kfree(r->txs);
	kfree(r->txev);
	kfree(r->txseq);
	kfree(r->sent_us);
	kfree(r->txlen);
	kvfree(r->copies);
	kvfree(r->meta);
	r->txs = NULL;
	r->txev = NULL;
	r->txseq = NULL;
	r->sent_us = NULL;
	r->txlen = NULL;
	r->copies = NULL;
	r->meta = NULL;
}

/*
 * Congestion control as the QP's profile (or the device's) has it now: a
 * QP keeps what it started with (the device's may change under it).
 */
static void cc_start(struct mrc_qp *qp)
{
	struct mrc_dev *mdev = qp->mdev;
	struct mrc_cc_params p;
	struct mrc_req *r = &qp->req;
	bool on;

	spin_lock(&mdev->cc_lock);
	mrc_cc_profile_copy(qp, &on, &p);
	spin_unlock(&mdev->cc_lock);
	r->cc_on = on && qp->ibqp.qp_type == IB_QPT_RC;
	if (r->cc_on)
		mrc_cc_init(&r->cc, &p, qp->mtu);
}

/* RESET, and RTR -> RTS: start from sq_psn with nothing in flight */
void mrc_req_reset(struct mrc_qp *qp)
{
	struct mrc_req *r = &qp->req;

	r->next_idx = qp->sq.idx;
	r->cur_valid = false;
	r->snd_nxt = qp->attr.sq_psn;
	r->snd_una = qp->attr.sq_psn;
	r->ud_psn = qp->attr.sq_psn;
	r->msn = 0;
	r->rqmsn = 0;
	r->rd_outstanding = 0;
	r->peer_win = MRC_TX_WIN;
	r->nlost = 0;
	r->retry_left = qp->attr.retry_cnt;
	r->rnr_left = qp->attr.rnr_retry;
	r->rnr_wait = false;
	r->paused = false;
	r->trim_backoff = 0;
	r->progress = jiffies;
	r->srtt_us = 0;
	r->rto_armed = false;
	r->probe_next_us = now_us();
	r->rev_probe_us = now_us() - MRC_REV_PROBE_US;
	r->rev_rtt_us = 0;
	r->rev_probe_ev = -1;
	r->rev_backoff = 0;
	r->down_done = 0;
	r->rto_probe = false;
	r->rttvar_us = 0;
	r->rto_backoff = 0;
	r->last_rtt_us = 0;
	r->rtt_peak_us = 0;
	r->trimmed = false;
	r->marked = false;
	r->since_ackreq = 0;
	r->inflight = 0;
	memset(r->txs, 0, MRC_TX_WIN);
	cc_start(qp);
}

/**
 * mrc_req_run() - run the requester
 * @qp: a QP; qp->lock held
 * @txq: where the packets go, sent by the caller after the lock is dropped
 *
 * Completes what is done, sends what may be sent (lost PSNs first), and
 * keeps the timer right. More than a budget's worth goes on in the work.
 */
void mrc_req_run(struct mrc_qp *qp, struct sk_buff_head *txq)
{
	struct mrc_req *r = &qp->req;
	int budget = MRC_BUDGET;

	if (qp->dying || !r->meta)
		return;
	if (qp->state == IB_QPS_ERR) {
		mrc_comp_flush(qp);
		return;
	}
	if (qp->state < IB_QPS_RTS)
		return;
	if (qp->ibqp.qp_type != IB_QPT_RC) {
		budget = qp->ibqp.qp_type == IB_QPT_UC ?
			 mrc_send_uc(qp, txq, budget) :
			 mrc_send_ud(qp, txq, budget);
		mrc_comp_wqes(qp);
		if (budget <= 0 && !qp->dying)
			queue_work(mrc_wq, &qp->work);
		return;
	}
	if (mrc_loss_rnr_waiting(qp))
		return;
	/* completing first frees max_rd_atomic slots for mrc_send_rc() */
	mrc_comp_wqes(qp);
	if (qp->state == IB_QPS_ERR)
		return;
	budget = mrc_send_rc(qp, txq, budget);
	mrc_comp_wqes(qp);
	if (qp->state == IB_QPS_ERR)
		return;
	mrc_loss_watch(qp);
	mrc_send_probes(qp, txq);
	mrc_loss_timer_update(qp, false);
	if (budget <= 0 && !qp->dying)
		queue_work(mrc_wq, &qp->work);
}

/**
 * mrc_req_recv() - an acknowledgment or response from the QP's peer
 * @qp: an RC QP; qp->lock held (softirq)
 * @skb: the packet
 * @txq: where what it lets go goes
 */
void mrc_req_recv(struct mrc_qp *qp, struct sk_buff *skb,
		  struct sk_buff_head *txq)
{
	if (mrc_comp_recv(qp, skb))
		mrc_req_run(qp, txq);
}

/* ---- work and timer ---------------------------------------------------- */

static void req_work(struct work_struct *work)
{
	struct mrc_qp *qp = container_of(work, struct mrc_qp, work);
	struct sk_buff_head txq;

	__skb_queue_head_init(&txq);
	spin_lock_bh(&qp->lock);
	if (qp->ibqp.qp_type == IB_QPT_RC)
		mrc_resp_run(qp, &txq);
	if (qp->ibqp.qp_type == IB_QPT_UC)
		mrc_uc_timeout(qp);	/* the timer is the hole timer */
	/* before the timeout: a dead plane's packets are no timeout's */
	if (qp->ibqp.qp_type == IB_QPT_RC && atomic_read(&qp->planes_down))
		mrc_loss_planes_down(qp, atomic_xchg(&qp->planes_down, 0));
	if (qp->ibqp.qp_type == IB_QPT_RC && qp->state == IB_QPS_RTS &&
	    mrc_loss_timeout(qp)) {
		/* retries used up: the oldest WQE fails, the QP goes to ERR */
		mrc_comp_fail(qp, IB_WC_RETRY_EXC_ERR);
		mrc_comp_wqes(qp);
	}
	mrc_req_run(qp, &txq);
	if (qp->state == IB_QPS_ERR)
		mrc_qp_flush_rq(qp);
	spin_unlock_bh(&qp->lock);
	mrc_qp_send(qp, &txq);
}

void mrc_req_timer(struct timer_list *t)
{
	struct mrc_qp *qp = from_timer(qp, t, timer);

	queue_work(mrc_wq, &qp->work);
}

/* A trim pause is over (mrc_loss_trim_pause()): the requester may send */
enum hrtimer_restart mrc_req_pause_end(struct hrtimer *t)
{
	struct mrc_qp *qp = container_of(t, struct mrc_qp, pause_timer);

	queue_work(mrc_wq, &qp->work);
	return HRTIMER_NORESTART;
}
