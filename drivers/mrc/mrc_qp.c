// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs: creation, the state machine (modify/query), posting work
 * requests from kernel ULPs, the user doorbell, and moving a QP to the
 * error state.
 *
 * Lifetime: a QP is published in mdev->qp_xa once built, with one
 * reference; packet handlers and netlink take another with mrc_qp_get()
 * (under the xarray's lock, so none can find it once it is unpublished)
 * and then qp->lock. Destroy marks it dying, unpublishes it, drops the
 * first reference and waits for the others, stops its timers (the QP
 * timer, the trim pause's hrtimer) and work, then frees: no RCU grace
 * period per QP.
 */
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/rtnetlink.h>

#include "mrc.h"

u16 mrc_qp_sport(u32 qpn)
{
	/* RoCEv2 style: the dynamic port range, spread by QP */
	return 0xc000 | (jhash_1word(qpn, 0x6d7263) & 0x3fff);
}

/* ---- QP creation ------------------------------------------------------ */

static int check_cap(struct ib_qp_init_attr *init)
{
	struct ib_qp_cap *cap = &init->cap;

	if (cap->max_send_wr > MRC_MAX_QP_WR || cap->max_send_sge > MRC_MAX_SGE ||
	    cap->max_inline_data > MRC_MAX_INLINE)
		return -EINVAL;
	if (!init->srq && (cap->max_recv_wr > MRC_MAX_QP_WR ||
			   cap->max_recv_sge > MRC_MAX_SGE))
		return -EINVAL;
	return 0;
}

/*
 * Kernel memory of what create gave @qp, as the allocators gave it: the
 * QP, its rings, the requester's window and WQE copies, the responder's
 * receive copies, UC's receive side. The EV set comes and goes with
 * modify (evset_mem()). Not the per-CPU route cache (some dozens of bytes
 * per possible CPU) nor packets in flight.
 */
static size_t qp_mem(const struct mrc_qp *qp)
{
	const struct mrc_req *r = &qp->req;
	size_t slots = qp->sq.mask + 1;

	return kmalloc_size_roundup(sizeof(*qp)) + mrc_queue_mem(&qp->sq) +
	       (qp->srq ? 0 : mrc_queue_mem(&qp->rq)) + mrc_uc_mem(qp) +
	       kmalloc_size_roundup(MRC_TX_WIN * sizeof(*r->txs)) +
	       kmalloc_size_roundup(MRC_TX_WIN * sizeof(*r->txev)) +
	       kmalloc_size_roundup(MRC_TX_WIN * sizeof(*r->txseq)) +
	       kmalloc_size_roundup(MRC_TX_WIN * sizeof(*r->sent_us)) +
	       kmalloc_size_roundup(MRC_TX_WIN * sizeof(*r->txlen)) +
	       mrc_mem_size(r->copies, slots * qp->sq_elem) +
	       mrc_mem_size(r->meta, slots * sizeof(*r->meta)) +
	       mrc_mem_size(qp->resp.rcopies, (size_t)MRC_RMSG_MAX * qp->rq_elem);
}

static size_t evset_mem(const struct mrc_evset *evs)
{
	return evs ? mrc_mem_size(evs, struct_size(evs, ev, evs->n)) : 0;
}

int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibqp->device);
	struct mrc_qp *qp = to_mqp(ibqp);
	struct rxe_create_qp_resp resp = {};
	u32 qpn, sq_data;
	int err;

	switch (init->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	case IB_QPT_GSI:
		if (udata || init->port_num != 1)
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (init->create_flags)
		return -EOPNOTSUPP;
	err = check_cap(init);
	if (err)
		return err;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	if (!mrc_dev_take(&mdev->num_qp, MRC_MAX_QP))
		return -ENOMEM;

	qp->mdev = mdev;
	qp->is_user = !!udata;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->scq = to_mcq(init->send_cq);
	qp->rcq = to_mcq(init->recv_cq);
	qp->srq = init->srq ? to_msrq(init->srq) : NULL;
	qp->state = IB_QPS_RESET;
	spin_lock_init(&qp->lock);
	spin_lock_init(&qp->sq_post_lock);
	spin_lock_init(&qp->rq_post_lock);
	timer_setup(&qp->timer, mrc_req_timer, 0);
	hrtimer_init(&qp->pause_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	qp->pause_timer.function = mrc_req_pause_end;
	refcount_set(&qp->refs, 1);
	init_completion(&qp->drained);
	err = dst_cache_init(&qp->dst_cache, GFP_KERNEL_ACCOUNT);
	if (err)
		goto err_slot;

	/* the SQ: at least one SGE or the inline data fits in a slot */
	init->cap.max_send_sge = max(init->cap.max_send_sge, 1U);
	sq_data = max_t(u32, init->cap.max_send_sge * sizeof(struct rxe_sge),
			init->cap.max_inline_data);
	qp->sq_elem = roundup_pow_of_two(sizeof(struct rxe_send_wqe) + sq_data);
	sq_data = qp->sq_elem - sizeof(struct rxe_send_wqe);
	qp->max_send_sge = min_t(u32, sq_data / sizeof(struct rxe_sge),
				 MRC_MAX_SGE);
	qp->max_inline = min_t(u32, sq_data, MRC_MAX_INLINE);
	err = mrc_queue_init(mdev, &qp->sq, udata, max(init->cap.max_send_wr, 1U),
			     qp->sq_elem, &resp.sq_mi);
	if (err)
		goto err_dst;
	init->cap.max_send_wr = qp->sq.mask;
	init->cap.max_send_sge = qp->max_send_sge;
	init->cap.max_inline_data = qp->max_inline;

	if (qp->srq) {
		qp->rq_elem = 1U << qp->srq->q.log2_elem;
	} else {
		init->cap.max_recv_sge = max(init->cap.max_recv_sge, 1U);
		qp->rq_elem = roundup_pow_of_two(sizeof(struct rxe_recv_wqe) +
				init->cap.max_recv_sge * sizeof(struct rxe_sge));
		qp->max_recv_sge = min_t(u32, (qp->rq_elem -
				sizeof(struct rxe_recv_wqe)) / sizeof(struct rxe_sge),
				MRC_MAX_SGE);
		err = mrc_queue_init(mdev, &qp->rq, udata,
				     max(init->cap.max_recv_wr, 1U), qp->rq_elem,
				     &resp.rq_mi);
		if (err)
			goto err_sq;
		init->cap.max_recv_wr = qp->rq.mask;
		init->cap.max_recv_sge = qp->max_recv_sge;
	}

	err = mrc_req_init(qp);
	if (err)
		goto err_rq;
	err = mrc_resp_init(qp);
	if (err)
		goto err_req;
	if (init->qp_type == IB_QPT_UC) {
		err = mrc_uc_init(qp);
		if (err)
			goto err_resp;
	}

	if (init->qp_type == IB_QPT_GSI) {
		qpn = 1;
		err = xa_insert_bh(&mdev->qp_xa, qpn, NULL, GFP_KERNEL);
	} else {
		/* 0xffffff is the multicast QPN: never a QP's */
		err = xa_alloc_cyclic_bh(&mdev->qp_xa, &qpn, NULL,
					 XA_LIMIT(16, IB_MULTICAST_QPN - 1),
					 &mdev->qp_next,
					 GFP_KERNEL);
		err = err < 0 ? err : 0;
	}
	if (err)
		goto err_all;
	ibqp->qp_num = qpn;
	qp->attr.port_num = 1;
	qp->attr.path_mtu = IB_MTU_1024;
	qp->mtu = 1024;

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_qpn;
	}
	qp->mem = qp_mem(qp);
	atomic64_add(qp->mem, &mdev->qp_mem);
	xa_store_bh(&mdev->qp_xa, qpn, qp, GFP_KERNEL);
	return 0;

err_qpn:
	xa_erase_bh(&mdev->qp_xa, qpn);
err_all:
	mrc_uc_cleanup(qp);
err_resp:
	mrc_resp_cleanup(qp);
err_req:
	mrc_req_cleanup(qp);
err_rq:
	mrc_queue_free(&qp->rq);
err_sq:
	mrc_queue_free(&qp->sq);
err_dst:
	dst_cache_destroy(&qp->dst_cache);
err_slot:
	atomic_dec(&mdev->num_qp);
	return err;
}

/**
 * mrc_qp_get() - the published QP @qpn of @mdev, with a reference
 * @mdev: the device
 * @qpn: QP number
 *
 * Context: any; takes the xarray's lock with BHs off.
 * Return: the QP, to be put with mrc_qp_put(), or NULL.
 */
struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn)
{
	struct mrc_qp *qp;

	xa_lock_bh(&mdev->qp_xa);
	qp = xa_load(&mdev->qp_xa, qpn);
	if (qp && !refcount_inc_not_zero(&qp->refs))
		qp = NULL;
	xa_unlock_bh(&mdev->qp_xa);
	return qp;
}

void mrc_qp_put(struct mrc_qp *qp)
{
	if (refcount_dec_and_test(&qp->refs))
		complete(&qp->drained);
}

/**
 * mrc_qp_planes_down() - planes of @mdev went down: recover what they carried
 * @mdev: the device
 * @lost: the planes
 *
 * Each RC QP that sprays notes them and runs its work, which marks what
 * it has out on them lost, to be resent on the other planes at once
 * (mrc_loss_planes_down()). Never qp->lock here: a window walk per QP with
 * BHs off, for every QP, under RTNL. The bits of another event before the
 * work runs join these: one run takes them all. Not only QPs with packets
 * out: one may be putting its first on the plane as this reads its window.
 * The EV set is chosen at INIT to RTR, before a QP can send, so one
 * without it has nothing out on a plane.
 *
 * Context: RTNL held; after the planes' bits left planes_up.
 */
void mrc_qp_planes_down(struct mrc_dev *mdev, u16 lost)
{
	unsigned long qpn;
	struct mrc_qp *qp;
	void *entry;

	ASSERT_RTNL();
	xa_for_each(&mdev->qp_xa, qpn, entry) {
		qp = mrc_qp_get(mdev, qpn);
		if (!qp)
			continue;
		if (qp->ibqp.qp_type == IB_QPT_RC && READ_ONCE(qp->evs)) {
			atomic_or(lost, &qp->planes_down);
			/* orders planes_up before the work's walk */
			queue_work(mrc_wq, &qp->work);
		}
		mrc_qp_put(qp);
	}
}

int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mqp(ibqp);

	spin_lock_bh(&qp->lock);
	qp->dying = true;
	spin_unlock_bh(&qp->lock);
	xa_erase_bh(&qp->mdev->qp_xa, ibqp->qp_num);
	mrc_qp_put(qp);
	wait_for_completion(&qp->drained);	/* no packet handler holds it */
	timer_shutdown_sync(&qp->timer);
	hrtimer_cancel(&qp->pause_timer);	/* not armed once dying */
	cancel_work_sync(&qp->work);
	mrc_mw_qp_gone(qp->mdev, ibqp->qp_num);	/* no bind runs any more */
	mrc_uc_cleanup(qp);
	mrc_resp_cleanup(qp);
	mrc_req_cleanup(qp);
	mrc_queue_free(&qp->rq);
	mrc_queue_free(&qp->sq);
	dst_cache_destroy(&qp->dst_cache);
	mrc_evset_free(qp->evs);
	atomic64_sub(qp->mem, &qp->mdev->qp_mem);
	mrc_pathset_put(rcu_dereference_protected(qp->ps, true));
	mrc_profile_unbind(&qp->cc_profile);
	mrc_profile_unbind(&qp->ev_profile);
	rdma_destroy_ah_attr(&qp->ah_attr);
	atomic_dec(&qp->mdev->num_qp);
	return 0;
}

/* ---- state machine ---------------------------------------------------- */

static void cqe_flush(struct mrc_qp *qp, struct mrc_cq *cq, u64 wr_id,
		      enum ib_wc_opcode op)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = IB_WC_WR_FLUSH_ERR,
		.opcode = op,
		.qp = &qp->ibqp,
		.port_num = 1,
	};

	mrc_cq_post(cq, &wc, false);
}

/*
 * Flush receive WQEs still in the RQ ring (qp->lock held). The count is
 * taken once: userspace may keep moving its producer index.
 */
void mrc_qp_flush_rq(struct mrc_qp *qp)
{
	u32 n;

	if (qp->srq || !qp->rq.buf)
		return;
	n = mrc_queue_count(&qp->rq);
	while (n--) {
		struct rxe_recv_wqe *w = mrc_queue_slot(&qp->rq, qp->rq.idx);
		u64 wr_id = READ_ONCE(w->wr_id);

		/* the slot is free before its CQE shows (complete_wqes()) */
		mrc_queue_consume(&qp->rq);
		cqe_flush(qp, qp->rcq, wr_id, IB_WC_RECV);
	}
}

/* Drop every entry posted to a ring the kernel consumes */
static void queue_drop_all(struct mrc_queue *q)
{
	if (!q->buf)
		return;
	/* acquire: pairs with the producer's release, entries first */
	q->idx = smp_load_acquire(&q->buf->producer_index) & q->mask;
	/* release: the slots are given back after the index was read */
	smp_store_release(&q->buf->consumer_index, q->idx);
}

/*
 * Move to RESET (qp->lock held). IBA empties the work queues without
 * completions: the requester and responder forget what they fetched or
 * sent, and what was posted is dropped, or a QP connected again would
 * resend old WQEs and land new messages in old receives.
 */
static void qp_reset(struct mrc_qp *qp)
{
	/* an RNR wait or a timeout of the old connection ends here */
	del_timer(&qp->timer);
	hrtimer_try_to_cancel(&qp->pause_timer);
	cancel_work(&qp->work);
	atomic_set(&qp->planes_down, 0);	/* the old connection's */
	qp->state = IB_QPS_RESET;
	queue_drop_all(&qp->sq);
	if (!qp->srq)
		queue_drop_all(&qp->rq);
	mrc_req_reset(qp);
	mrc_resp_reset(qp);
	mrc_uc_reset(qp);
}

/* Move to the error state and flush every outstanding WR (qp->lock held) */
void mrc_qp_error(struct mrc_qp *qp)
{
	bool was = qp->state == IB_QPS_ERR;

	qp->state = IB_QPS_ERR;
	mrc_comp_flush(qp);
	mrc_resp_flush(qp);
	mrc_qp_flush_rq(qp);
	if (!was && qp->srq && qp->ibqp.event_handler) {
		/* ib_drain_qp() waits for this on QPs with an SRQ */
		struct ib_event ev = {
			.device = qp->ibqp.device,
			.element.qp = &qp->ibqp,
			.event = IB_EVENT_QP_LAST_WQE_REACHED,
		};

		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	if (!was && qp->ibqp.event_handler && qp->attr.qp_state != IB_QPS_ERR) {
		/* only errors the QP ran into, not a requested transition */
		struct ib_event ev = {
			.device = qp->ibqp.device,
			.element.qp = &qp->ibqp,
			.event = IB_EVENT_QP_FATAL,
		};

		qp->attr.qp_state = IB_QPS_ERR;
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	qp->attr.qp_state = IB_QPS_ERR;
}

/*
 * What a modify_qp with IB_QP_AV gives the QP, prepared outside qp->lock:
 * its address and, for an RC QP to a node with a path set, that set and
 * a new EV set over it.
 */
struct mrc_conn {
	struct mrc_av av;
	struct mrc_pathset *ps;
	struct mrc_evset *evs;
};

static int conn_prepare(struct mrc_qp *qp, struct mrc_conn *c,
			const struct rdma_ah_attr *ah)
{
	int err;

	memset(c, 0, sizeof(*c));
	err = mrc_av_from_attr(&c->av, ah);
	if (err)
		return err;
	c->av.sport = mrc_qp_sport(qp->ibqp.qp_num);
	/* connected QPs spray over the peer's paths; UC as RC */
	if ((qp->ibqp.qp_type != IB_QPT_RC && qp->ibqp.qp_type != IB_QPT_UC) ||
	    c->av.family != AF_INET6)
		return 0;
	err = mrc_ev_profile_connect(qp, &c->av.daddr, &c->ps, &c->evs);
	if (err || !c->evs)
		return err;
	mrc_dbg(qp->mdev, "QP %u to %pI6c: %u paths, %u EVs\n", qp->ibqp.qp_num,
		&c->av.daddr, c->ps->npaths, c->evs->n);
	return 0;
}

/* Free what conn_prepare() made and the QP did not take (or gave back). */
static void conn_release(struct mrc_conn *c)
{
	mrc_evset_free(c->evs);
	mrc_pathset_put(c->ps);
}

static int apply_attr(struct mrc_qp *qp, struct ib_qp_attr *attr, int mask,
		      struct mrc_conn *c)
{
	struct mrc_dev *mdev = qp->mdev;

	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= MRC_PORT_PKEY_TBL_LEN)
		return -EINVAL;
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if (mask & (IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE))
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096 ||
	     !READ_ONCE(mdev->planes_fit[attr->path_mtu]))) {
		mrc_dbg(mdev, "QP %u: no plane carries path MTU %d\n",
			qp->ibqp.qp_num, ib_mtu_enum_to_int(attr->path_mtu));
		return -EINVAL;
	}
	if (mask & IB_QP_AV) {
		struct mrc_evset *evs = qp->evs;
		s64 d;

		qp->av = c->av;
		rdma_replace_ah_attr(&qp->ah_attr, &attr->ah_attr);
		dst_cache_reset(&qp->dst_cache);
		/* swap: the old sets go back to the caller to free */
		qp->evs = c->evs;
		c->evs = evs;
		d = (s64)evset_mem(qp->evs) - (s64)evset_mem(evs);
		qp->mem += d;
		atomic64_add(d, &qp->mdev->qp_mem);
		c->ps = rcu_replace_pointer(qp->ps, c->ps,
					    lockdep_is_held(&qp->lock));
	}
	if (mask & IB_QP_PATH_MTU) {
		qp->attr.path_mtu = attr->path_mtu;
		qp->mtu = ib_mtu_enum_to_int(attr->path_mtu);
	}
	if (mask & IB_QP_PKEY_INDEX)
		qp->attr.pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->attr.qkey = attr->qkey;
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_TIMEOUT)
		qp->attr.timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->attr.retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->attr.rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->attr.max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_SQ_PSN)
		qp->attr.sq_psn = attr->sq_psn & MRC_PSN_MASK;
	if (mask & IB_QP_RQ_PSN)
		qp->attr.rq_psn = attr->rq_psn & MRC_PSN_MASK;
	if (mask & IB_QP_DEST_QPN)
		qp->attr.dest_qp_num = attr->dest_qp_num & MRC_PSN_MASK;
	return 0;
}

int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	enum ib_qp_state cur, new;
	struct sk_buff_head txq;
	struct mrc_conn conn = {};
	int err;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (mask & IB_QP_AV) {
		err = conn_prepare(qp, &conn, &attr->ah_attr);
		if (err)
			return err;
	}
	__skb_queue_head_init(&txq);
	spin_lock_bh(&qp->lock);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	new = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, new, ibqp->qp_type, mask)) {
		err = -EINVAL;
		goto out;
	}
	if ((ibqp->qp_type == IB_QPT_RC || ibqp->qp_type == IB_QPT_UC) &&
	    new == IB_QPS_RTR && cur != IB_QPS_RTR &&
	    !(mask & IB_QP_AV) && !qp->av.family) {
		err = -EINVAL;
		goto out;
	}
	err = apply_attr(qp, attr, mask, &conn);
	if (err)
		goto out;
	if (!(mask & IB_QP_STATE) || new == cur)
		goto out;

	qp->attr.qp_state = new;
	switch (new) {
	case IB_QPS_RESET:
		qp_reset(qp);
		break;
	case IB_QPS_RTR:
		qp->state = new;
		mrc_resp_reset(qp);
		mrc_uc_reset(qp);
		break;
	case IB_QPS_RTS:
		if (cur == IB_QPS_RTR)
			mrc_req_reset(qp);
		qp->state = new;
		mrc_req_run(qp, &txq);
		break;
	case IB_QPS_ERR:
		mrc_qp_error(qp);
		break;
	default:
		qp->state = new;
		break;
	}
out:
	spin_unlock_bh(&qp->lock);
	conn_release(&conn);
	mrc_qp_send(qp, &txq);
	return err;
}

int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct mrc_qp *qp = to_mqp(ibqp);

	spin_lock_bh(&qp->lock);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->sq_draining = 0;
	memset(&attr->ah_attr, 0, sizeof(attr->ah_attr));
	if (qp->av.family) {
		const struct ib_global_route *g = rdma_ah_read_grh(&qp->ah_attr);
		union ib_gid dgid = g->dgid;

		attr->ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
		rdma_ah_set_port_num(&attr->ah_attr, 1);
		rdma_ah_set_grh(&attr->ah_attr, &dgid, g->flow_label,
				g->sgid_index, g->hop_limit, g->traffic_class);
	}
	spin_unlock_bh(&qp->lock);
	attr->cap.max_send_wr = qp->sq.mask;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_inline_data = qp->max_inline;
	attr->cap.max_recv_wr = qp->srq ? 0 : qp->rq.mask;
	attr->cap.max_recv_sge = qp->srq ? 0 : qp->max_recv_sge;
	memset(init, 0, sizeof(*init));
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init->port_num = 1;
	return 0;
}

/* ---- posting ---------------------------------------------------------- */

/* Transmit what the engines built, outside qp->lock. */
void mrc_qp_send(struct mrc_qp *qp, struct sk_buff_head *txq)
{
	if (!skb_queue_empty(txq))
		mrc_net_xmit(qp->mdev, qp, txq);
}

/* Run the requester now, in the caller's context (BHs get enabled). */
void mrc_qp_kick(struct mrc_qp *qp)
{
	struct sk_buff_head txq;

	__skb_queue_head_init(&txq);
	spin_lock_bh(&qp->lock);
	mrc_req_run(qp, &txq);
	spin_unlock_bh(&qp->lock);
	mrc_qp_send(qp, &txq);
}

static int check_send_wr(struct mrc_qp *qp, const struct ib_send_wr *wr,
			 u32 *length)
{
	u64 len = 0;
	u32 i;

	if (wr->num_sge > qp->max_send_sge)
		return -EINVAL;
	/*
	 * In 64 bits: a wrapped sum would pass the bounds below, and the
	 * inline copy takes each SGE's own length.
	 */
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if ((wr->send_flags & IB_SEND_INLINE) && len > qp->max_inline)
		return -EINVAL;
	if (len > MRC_MAX_MSG)
		return -EINVAL;
	switch (wr->opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		break;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		/* UC: SEND and WRITE, with or without immediate (IBA) */
		if (qp->ibqp.qp_type != IB_QPT_RC && qp->ibqp.qp_type != IB_QPT_UC)
			return -EINVAL;
		break;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_READ:
	case IB_WR_LOCAL_INV:
	case IB_WR_REG_MR:
		if (qp->ibqp.qp_type != IB_QPT_RC)
			return -EINVAL;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		if (qp->ibqp.qp_type != IB_QPT_RC || len < 8 ||
		    (atomic_wr(wr)->remote_addr & 7))
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	*length = len;
	return 0;
}

static void fill_send_wqe(struct mrc_qp *qp, const struct ib_send_wr *wr,
			  u32 len, struct rxe_send_wqe *w)
{
	u32 i;

	memset(w, 0, sizeof(*w));
	w->wr.wr_id = wr->wr_id;
	w->wr.opcode = wr->opcode;
	w->wr.send_flags = wr->send_flags;
	w->wr.ex.imm_data = wr->ex.imm_data;
	switch (wr->opcode) {
	case IB_WR_SEND_WITH_INV:
	case IB_WR_LOCAL_INV:
		w->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		break;
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		w->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		w->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
		w->iova = rdma_wr(wr)->remote_addr;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		w->wr.wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		w->wr.wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		w->wr.wr.atomic.swap = atomic_wr(wr)->swap;
		w->wr.wr.atomic.rkey = atomic_wr(wr)->rkey;
		w->iova = atomic_wr(wr)->remote_addr;
		break;
	case IB_WR_REG_MR:
		w->wr.wr.reg.mr = reg_wr(wr)->mr;
		w->wr.wr.reg.key = reg_wr(wr)->key;
		w->wr.wr.reg.access = reg_wr(wr)->access;
		break;
	default:
		break;
	}
	if (qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI) {
		w->wr.wr.ud.remote_qpn = ud_wr(wr)->remote_qpn;
		w->wr.wr.ud.remote_qkey = ud_wr(wr)->remote_qkey;
		w->wr.wr.ud.pkey_index = ud_wr(wr)->pkey_index;
		w->wr.wr.ud.ah_num = to_mah(ud_wr(wr)->ah)->ah_num;
	}
	if (wr->send_flags & IB_SEND_INLINE) {
		u8 *p = w->dma.inline_data;

		/* kernel ULPs pass kernel virtual addresses */
		for (i = 0; i < wr->num_sge; i++) {
			memcpy(p, (void *)(uintptr_t)wr->sg_list[i].addr,
			       wr->sg_list[i].length);
			p += wr->sg_list[i].length;
		}
	} else {
		for (i = 0; i < wr->num_sge; i++) {
			w->dma.sge[i].addr = wr->sg_list[i].addr;
			w->dma.sge[i].length = wr->sg_list[i].length;
			w->dma.sge[i].lkey = wr->sg_list[i].lkey;
		}
	}
	w->dma.length = len;
	w->dma.resid = len;
	w->dma.num_sge = wr->num_sge;
}

int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	unsigned long flags;
	int err = 0;

	if (qp->is_user) {
		/* the rxe provider's doorbell: WQEs are already in the ring */
		if (READ_ONCE(qp->state) < IB_QPS_RTS)
			return -EINVAL;
		mrc_qp_kick(qp);
		return 0;
	}
	if (READ_ONCE(qp->state) < IB_QPS_RTS) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->sq_post_lock, flags);
	for (; wr; wr = wr->next) {
		u32 prod = qp->sq.buf->producer_index & qp->sq.mask;
		u32 len;

		err = check_send_wr(qp, wr, &len);
		if (!err && ((prod + 1) & qp->sq.mask) ==
		    /* acquire: pairs with the consumer's release of the slot */
		    (smp_load_acquire(&qp->sq.buf->consumer_index) & qp->sq.mask))
			err = -ENOMEM;
		if (err) {
			*bad_wr = wr;
			break;
		}
		fill_send_wqe(qp, wr, len, mrc_queue_slot(&qp->sq, prod));
		/* release: the entry is written before its index moves */
		smp_store_release(&qp->sq.buf->producer_index,
				  (prod + 1) & qp->sq.mask);
	}
	spin_unlock_irqrestore(&qp->sq_post_lock, flags);
	/* the MAD layer posts with IRQs off: BHs cannot be enabled there */
	if (irqs_disabled())
		queue_work(mrc_wq, &qp->work);
	else
		mrc_qp_kick(qp);
	return err;
}

int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	unsigned long flags;
	int err;

	if (qp->srq || qp->is_user) {
		*bad_wr = wr;
		return -EINVAL;
	}
	if (READ_ONCE(qp->state) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq_post_lock, flags);
	err = mrc_queue_post_recv(&qp->rq, qp->max_recv_sge, wr, bad_wr);
	spin_unlock_irqrestore(&qp->rq_post_lock, flags);
	if (READ_ONCE(qp->state) == IB_QPS_ERR) {
		if (irqs_disabled()) {
			queue_work(mrc_wq, &qp->work);	/* flushes the RQ */
		} else {
			spin_lock_bh(&qp->lock);
			mrc_qp_flush_rq(qp);
			spin_unlock_bh(&qp->lock);
		}
	}
	return err;
}
