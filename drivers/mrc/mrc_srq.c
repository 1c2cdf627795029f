// SPDX-License-Identifier: GPL-2.0
/*
 * Shared receive queues: creation, limits, resizing, posting from kernel
 * ULPs, and the responder's fetch of the next receive WQE.
 */
#include "mrc.h"

int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibsrq->device);
	struct mrc_srq *srq = to_msrq(ibsrq);
	struct rxe_create_srq_resp resp = {};
	struct ib_srq_attr *a = &init->attr;
	u32 elem, num;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!a->max_wr || a->max_wr > MRC_MAX_SRQ_WR || a->max_sge > MRC_MAX_SGE)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	if (!mrc_dev_take(&mdev->num_srq, MRC_MAX_SRQ))
		return -ENOMEM;
	spin_lock_init(&srq->lock);
	spin_lock_init(&srq->post_lock);
	srq->is_user = !!udata;
	a->max_sge = max(a->max_sge, 1U);
	elem = roundup_pow_of_two(sizeof(struct rxe_recv_wqe) +
				  a->max_sge * sizeof(struct rxe_sge));
	srq->max_sge = min_t(u32, (elem - sizeof(struct rxe_recv_wqe)) /
			     sizeof(struct rxe_sge), MRC_MAX_SGE);
	err = mrc_queue_init(mdev, &srq->q, udata, a->max_wr, elem, &resp.mi);
	if (err)
		goto err_slot;
	a->max_wr = srq->q.mask;
	a->max_sge = srq->max_sge;
	srq->limit = a->srq_limit;
	err = xa_alloc_cyclic_bh(&mdev->srq_xa, &num, srq, XA_LIMIT(1, MRC_MAX_SRQ),
				 &mdev->srq_next, GFP_KERNEL);
	if (err < 0)
		goto err_q;
	srq->srq_num = num;
	resp.srq_num = num;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_num;
	}
	return 0;

err_num:
	xa_erase_bh(&mdev->srq_xa, srq->srq_num);
err_q:
	mrc_queue_free(&srq->q);
err_slot:
	atomic_dec(&mdev->num_srq);
	return err;
}

/*
 * Move the receive WQEs not yet taken into a new ring of @max_wr. A user
 * SRQ learns of the new ring through the mminfo the rxe provider points
 * to in its command (rxe's ABI: not in the response) before it goes live;
 * the provider holds its own posting lock over the call, so its producer
 * index stands still. Fewer slots than WQEs outstanding: -EINVAL, as
 * dropping posted WQEs would lose receives.
 */
static int resize(struct mrc_srq *srq, u32 max_wr, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(srq->ibsrq.device);
	struct rxe_modify_srq_cmd ucmd = {};
	struct mminfo mi = {}, __user *umi;
	struct mrc_queue nq, old;
	unsigned long flags;
	u32 n;
	int err;

	if (!max_wr || max_wr > MRC_MAX_SRQ_WR)
		return -EINVAL;
	if (udata) {
		if (udata->inlen < sizeof(ucmd))
			return -EINVAL;
		err = ib_copy_from_udata(&ucmd, udata, sizeof(ucmd));
		if (err)
			return err;
	}
	err = mrc_queue_init(mdev, &nq, udata, max_wr, 1U << srq->q.log2_elem,
			     &mi);
	if (err)
		return err;
	if (udata) {
		umi = u64_to_user_ptr(ucmd.mmap_info_addr);
		if (copy_to_user(umi, &mi, sizeof(mi))) {
			err = -EFAULT;
			goto err_free;
		}
	}

	/* kernel ULPs post from any context; the responder takes WQEs */
	spin_lock_irqsave(&srq->post_lock, flags);
	spin_lock(&srq->lock);
	n = mrc_queue_count(&srq->q);
	if (n > nq.mask) {
		spin_unlock(&srq->lock);
		spin_unlock_irqrestore(&srq->post_lock, flags);
		err = -EINVAL;
		goto err_free;
	}
	mrc_queue_move(&nq, &srq->q, srq->q.idx, n);
	nq.idx = 0;
	old = srq->q;
	srq->q = nq;
	spin_unlock(&srq->lock);
	spin_unlock_irqrestore(&srq->post_lock, flags);
	mrc_queue_free(&old);
	return 0;

err_free:
	mrc_queue_free(&nq);
	return err;
}

int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_msrq(ibsrq);
	u32 limit = (mask & IB_SRQ_LIMIT) ? attr->srq_limit : srq->limit;
	int err;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;
	/* the limit must stay within the queue, as at creation */
	if (limit > ((mask & IB_SRQ_MAX_WR) ? attr->max_wr : srq->q.mask))
		return -EINVAL;
	if (mask & IB_SRQ_MAX_WR) {
		err = resize(srq, attr->max_wr, udata);
		if (err)
			return err;
	}
	if (mask & IB_SRQ_LIMIT) {
		spin_lock_bh(&srq->lock);
		srq->limit = attr->srq_limit;
		spin_unlock_bh(&srq->lock);
	}
	return 0;
}

int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mrc_srq *srq = to_msrq(ibsrq);

	attr->max_wr = srq->q.mask;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	return 0;
}

int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibsrq->device);
	struct mrc_srq *srq = to_msrq(ibsrq);

	xa_erase_bh(&mdev->srq_xa, srq->srq_num);
	mrc_queue_free(&srq->q);
	atomic_dec(&mdev->num_srq);
	return 0;
}

int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct mrc_srq *srq = to_msrq(ibsrq);
	unsigned long flags;
	int err;

	if (srq->is_user) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&srq->post_lock, flags);
	err = mrc_queue_post_recv(&srq->q, srq->max_sge, wr, bad_wr);
	spin_unlock_irqrestore(&srq->post_lock, flags);
	return err;
}

/*
 * Take the next receive WQE of @srq into @copy (@elem bytes). Returns
 * @copy, or NULL when the SRQ is empty. Raises the limit event once.
 */
void *mrc_srq_fetch(struct mrc_srq *srq, void *copy, u32 elem)
{
	bool limit = false;
	u32 n;

	spin_lock(&srq->lock);
	n = mrc_queue_count(&srq->q);
	if (!n) {
		spin_unlock(&srq->lock);
		return NULL;
	}
	memcpy(copy, mrc_queue_slot(&srq->q, srq->q.idx),
	       min_t(u32, elem, 1U << srq->q.log2_elem));
	mrc_queue_consume(&srq->q);
	if (srq->limit && n - 1 < srq->limit) {
		srq->limit = 0;
		limit = true;
	}
	spin_unlock(&srq->lock);
	if (limit && srq->ibsrq.event_handler) {
		struct ib_event ev = {
			.device = srq->ibsrq.device,
			.element.srq = &srq->ibsrq,
			.event = IB_EVENT_SRQ_LIMIT_REACHED,
		};

		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	}
	return copy;
}
