// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queues. A user CQ's slots hold struct ib_uverbs_wc (what the
 * rxe provider reads); a kernel CQ's hold struct ib_wc. The engines post
 * with mrc_cq_post() while holding their QP lock, so the completion handler
 * is called from a work item, never under an mrc lock: a ULP may post to
 * the same QP from it.
 *
 * Locking: cq->lock covers the producer index and the notify state;
 * cq->poll_lock the consumer index of a kernel CQ. QP lock -> cq->lock.
 */
#include <rdma/uverbs_ioctl.h>

#include "mrc.h"

static u32 cqe_size(bool is_user)
{
	return is_user ? sizeof(struct ib_uverbs_wc) : sizeof(struct ib_wc);
}

static void notify_work(struct work_struct *work)
{
	struct mrc_cq *cq = container_of(work, struct mrc_cq, notify_work);

	if (cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct uverbs_attr_bundle *attrs)
{
	struct ib_udata *udata = attrs ? &attrs->driver_udata : NULL;
	struct mrc_dev *mdev = to_mdev(ibcq->device);
	struct mrc_cq *cq = to_mcq(ibcq);
	struct rxe_create_cq_resp resp = {};
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > MRC_MAX_CQE)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	if (!mrc_dev_take(&mdev->num_cq, MRC_MAX_CQ))
		return -ENOMEM;
	cq->is_user = !!udata;
	spin_lock_init(&cq->lock);
	spin_lock_init(&cq->poll_lock);
	INIT_WORK(&cq->notify_work, notify_work);
	err = mrc_queue_init(mdev, &cq->q, udata, attr->cqe,
			     cqe_size(cq->is_user), &resp.mi);
	if (err)
		goto err_slot;
	ibcq->cqe = cq->q.mask;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_q;
	}
	return 0;

err_q:
	mrc_queue_free(&cq->q);
err_slot:
	atomic_dec(&mdev->num_cq);
	return err;
}

int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct mrc_cq *cq = to_mcq(ibcq);

	cancel_work_sync(&cq->notify_work);
	mrc_queue_free(&cq->q);
	atomic_dec(&to_mdev(ibcq->device)->num_cq);
	return 0;
}

/*
 * Move the entries not yet polled into a new ring of @cqe entries. The
 * user learns of the new ring before it goes live: if that fails, the old
 * one stays in use and the new one is freed.
 */
int mrc_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibcq->device);
	struct mrc_cq *cq = to_mcq(ibcq);
	struct rxe_resize_cq_resp resp = {};
	struct mrc_queue nq, old;
	u32 cons, n, esz = cqe_size(cq->is_user);
	unsigned long flags;
	int err;

	if (cqe < 1 || cqe > MRC_MAX_CQE)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	err = mrc_queue_init(mdev, &nq, udata, cqe, esz, &resp.mi);
	if (err)
		return err;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_free;
	}

	/* ULPs poll and arm a CQ from hard IRQ context too */
	spin_lock_irqsave(&cq->poll_lock, flags);
	spin_lock(&cq->lock);
	cons = READ_ONCE(cq->q.buf->consumer_index) & cq->q.mask;
	n = (cq->q.idx - cons) & cq->q.mask;
	if (n > nq.mask) {
		spin_unlock(&cq->lock);
		spin_unlock_irqrestore(&cq->poll_lock, flags);
		err = -EINVAL;		/* would lose completions */
		goto err_free;
	}
	mrc_queue_move(&nq, &cq->q, cons, n);
	nq.idx = n;
	old = cq->q;
	cq->q = nq;
	ibcq->cqe = nq.mask;
	spin_unlock(&cq->lock);
	spin_unlock_irqrestore(&cq->poll_lock, flags);
	mrc_queue_free(&old);
	return 0;

err_free:
	mrc_queue_free(&nq);
	return err;
}

/* flags whose fields a user WC lacks; 1 << 6 is IBV_WC_TM_DATA_VALID there */
#define MRC_WC_KERNEL_ONLY (IB_WC_WITH_SMAC | IB_WC_WITH_VLAN | \
			    IB_WC_WITH_NETWORK_HDR_TYPE)

/*
 * A user WC cannot say whether a RoCE UD packet came over IPv4 or IPv6,
 * which decides where its GRH area holds the destination address.
 * ConnectX reports it in the SL (bits 2:0 of the field: 1 IPv6, 2 IPv4),
 * where UCX's UD transport reads it: with SL 0 it takes an IPv4 packet's
 * GRH area as an IPv6 header and drops the packet. RoCE has no SL.
 */
static u8 user_sl(const struct ib_wc *wc)
{
	if (!(wc->wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE))
		return wc->sl;
	switch (wc->network_hdr_type) {
	case RDMA_NETWORK_IPV4:
		return 2;
	case RDMA_NETWORK_IPV6:
		return 1;
	default:
		return 0;
	}
}

/*
 * Post one completion. Returns -ENOSPC when the CQ is full: the completion
 * is lost and the CQ's owner gets IB_EVENT_CQ_ERR, as on hardware.
 */
int mrc_cq_post(struct mrc_cq *cq, const struct ib_wc *wc, bool solicited)
{
	unsigned long flags;
	bool notify = false;
	void *slot;

	spin_lock_irqsave(&cq->lock, flags);
	if (!mrc_queue_free_slots(&cq->q)) {
		spin_unlock_irqrestore(&cq->lock, flags);
		if (cq->ibcq.event_handler) {
			struct ib_event ev = {
				.device = cq->ibcq.device,
				.element.cq = &cq->ibcq,
				.event = IB_EVENT_CQ_ERR,
			};

			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
		}
		return -ENOSPC;
	}
	slot = mrc_queue_slot(&cq->q, cq->q.idx);
	if (cq->is_user) {
		struct ib_uverbs_wc *uwc = slot;

		memset(uwc, 0, sizeof(*uwc));
		uwc->wr_id = wc->wr_id;
		uwc->status = wc->status;
		uwc->opcode = wc->opcode;
		uwc->vendor_err = wc->vendor_err;
		uwc->byte_len = wc->byte_len;
		uwc->ex.imm_data = wc->ex.imm_data;
		uwc->qp_num = wc->qp->qp_num;
		uwc->src_qp = wc->src_qp;
		uwc->wc_flags = wc->wc_flags & ~MRC_WC_KERNEL_ONLY;
		uwc->pkey_index = wc->pkey_index;
		uwc->sl = user_sl(wc);
		uwc->port_num = wc->port_num;
	} else {
		memcpy(slot, wc, sizeof(*wc));
	}
	cq->q.idx = (cq->q.idx + 1) & cq->q.mask;
	/* release: the entry is written before its index moves */
	smp_store_release(&cq->q.buf->producer_index, cq->q.idx);
	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED && solicited)) {
		cq->notify = 0;
		notify = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (notify)
		queue_work(mrc_wq, &cq->notify_work);
	return 0;
}

int mrc_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct mrc_cq *cq = to_mcq(ibcq);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->poll_lock, flags);
	while (n < num) {
		u32 cons = cq->q.buf->consumer_index & cq->q.mask;
		/* acquire: pairs with the producer's release, entries first */
		u32 prod = smp_load_acquire(&cq->q.buf->producer_index);

		if (cons == (prod & cq->q.mask))
			break;
		memcpy(&wc[n++], mrc_queue_slot(&cq->q, cons), sizeof(*wc));
		/* release: the slot is copied out before it is given back */
		smp_store_release(&cq->q.buf->consumer_index,
				  (cons + 1) & cq->q.mask);
	}
	spin_unlock_irqrestore(&cq->poll_lock, flags);
	return n;
}

int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mrc_cq *cq = to_mcq(ibcq);
	unsigned long irqf;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqf);
	cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    (READ_ONCE(cq->q.buf->consumer_index) & cq->q.mask) != cq->q.idx)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqf);
	return ret;
}
