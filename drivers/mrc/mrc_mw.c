// SPDX-License-Identifier: GPL-2.0
/*
 * Memory windows, type 1 and type 2B, as the rxe ABI carries them: a user
 * allocates one, binds it to a range of an MR with IB_WR_BIND_MW (the rxe
 * provider turns ibv_bind_mw() into that WQE too), and hands its rkey to a
 * peer, whose requests then reach the range with the window's access.
 *
 * Keys: an MW's index (key >> 8) is MRC_MW_INDEX_MIN or more, so the
 * responder tells an MW rkey from an MR one by the number alone. A bind
 * sets the key's low byte to the one the WQE chose.
 *
 * Lifetimes: a bound window holds a reference on its MR and counts in the
 * MR's num_mw; deregistering an MR with windows bound fails (-EBUSY), and
 * a bind to an MR being deregistered fails. A type 2 window names the QP
 * it is bound to by number, without a reference; destroying the QP leaves
 * it bound to no QP (IBA: it stays bound, and nothing can use it until it
 * is invalidated or deallocated). Lookups from packets run
 * under RCU and the window's lock, on its state (struct mrc_mw_win),
 * allocated apart from the IB core's ib_mw: dealloc unpublishes it,
 * marks it gone and lets go of the MR under its lock, and frees it a
 * grace period later (kfree_rcu), without waiting for that.
 */
#include <linux/random.h>
#include <kunit/visibility.h>

#include "mrc.h"

/* what a window may grant (as rxe: no MW_BIND, no persistent FLUSH) */
#define MRC_MW_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC | \
			 IB_ACCESS_FLUSH_GLOBAL | IB_ZERO_BASED)

int mrc_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibmw->device);
	struct mrc_mw *mw = to_mmw(ibmw);
	struct mrc_mw_win *w;
	u32 idx;
	int err;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	if (!mrc_dev_take(&mdev->num_mw, MRC_MAX_MW))
		return -ENOMEM;
	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!w) {
		atomic_dec(&mdev->num_mw);
		return -ENOMEM;
	}
	spin_lock_init(&w->lock);
	w->type = ibmw->type;
	w->pd = ibmw->pd;
	/* type 1 is valid from the start, bound to nothing */
	w->state = ibmw->type == IB_MW_TYPE_1 ? MRC_MW_VALID : MRC_MW_FREE;
	err = xa_alloc_cyclic_bh(&mdev->mw_xa, &idx, NULL,
				 XA_LIMIT(MRC_MW_INDEX_MIN, 0xffffff),
				 &mdev->mw_next, GFP_KERNEL);
	if (err < 0) {
		kfree(w);
		atomic_dec(&mdev->num_mw);
		return err;
	}
	w->rkey = idx << 8 | get_random_u8();
	ibmw->rkey = w->rkey;
	mw->win = w;
	/* publish only a fully built window */
	xa_store_bh(&mdev->mw_xa, idx, w, GFP_KERNEL);
	return 0;
}

/* Let go of @w's MR, if any. Caller holds w->lock or owns @w. */
static void mw_unbind(struct mrc_mw_win *w)
{
	struct mrc_mr *mr = w->mr;

	w->mr = NULL;
	w->access = 0;
	w->addr = 0;
	w->length = 0;
	w->qpn = 0;
	if (mr) {
		atomic_dec(&mr->num_mw);
		mrc_mr_put(mr);
	}
}

int mrc_dealloc_mw(struct ib_mw *ibmw)
{
	struct mrc_dev *mdev = to_mdev(ibmw->device);
	struct mrc_mw_win *w = to_mmw(ibmw)->win;

	xa_erase_bh(&mdev->mw_xa, w->rkey >> 8);
	/* a reader that found it before the erase finds it gone */
	spin_lock_bh(&w->lock);
	mw_unbind(w);
	w->state = MRC_MW_GONE;
	spin_unlock_bh(&w->lock);
	kfree_rcu(w, rcu);
	atomic_dec(&mdev->num_mw);
	return 0;
}

/**
 * mrc_mw_qp_gone() - a QP is destroyed: its type 2 windows serve no QP
 * @mdev: the device
 * @qpn: the QP's number, which a later QP may get again
 *
 * Context: process; after the QP's last bind ran.
 */
void mrc_mw_qp_gone(struct mrc_dev *mdev, u32 qpn)
{
	struct mrc_mw_win *w;
	unsigned long idx;

	if (!atomic_read(&mdev->num_mw))
		return;
	rcu_read_lock();	/* a window deallocated meanwhile stays for us */
	xa_for_each(&mdev->mw_xa, idx, w) {
		spin_lock_bh(&w->lock);
		if (w->type == IB_MW_TYPE_2 && w->qpn == qpn)
			w->qpn = 0;	/* never a QP's number */
		spin_unlock_bh(&w->lock);
	}
	rcu_read_unlock();
}

/**
 * mrc_mw_bind_check() - may a window be bound as @b asks?
 * @b: the bind, and the MR it names
 *
 * The rules of IBA 1.5 chapter 10 as rxe applies them: a type 1 window
 * must be valid and not zero based (o10-36.2.2), a type 2 one free
 * (o10-37.2.30) and bound to something (o10-37.2.40); the MR must allow
 * binding (C10-73), and local write when the window grants remote write
 * or atomics (C10-74); the range must lie in the MR (C10-75).
 *
 * Return: 0 or -EINVAL.
 */
int mrc_mw_bind_check(const struct mrc_mw_bind_req *b)
{
	if (b->access & ~MRC_MW_ACCESS)
		return -EINVAL;
	if (b->type == IB_MW_TYPE_1) {
		if (b->state != MRC_MW_VALID || (b->access & IB_ZERO_BASED))
			return -EINVAL;
	} else {
		if (b->state != MRC_MW_FREE || !b->has_mr || !b->length)
			return -EINVAL;
	}
	if (!b->length)
		return 0;
	if (!b->has_mr || !(b->mr_access & IB_ACCESS_MW_BIND))
		return -EINVAL;
	if ((b->access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(b->mr_access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (b->length > b->mr_length)
		return -EINVAL;
	if (!(b->access & IB_ZERO_BASED) &&
	    (b->addr < b->mr_iova ||
	     b->addr - b->mr_iova > b->mr_length - b->length))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_mw_bind_check);

/**
 * mrc_mw_range() - where [*@va, *@va + @len) of a window falls in its MR
 * @access: the window's access (IB_ZERO_BASED: @va counts from its start)
 * @addr: the window's first byte
 * @length: its bytes
 * @va: the address a request names; set to the MR's address for it
 * @len: bytes asked for
 *
 * Return: 0, or -ERANGE when the bytes are not all in the window.
 */
int mrc_mw_range(int access, u64 addr, u64 length, u64 *va, u32 len)
{
	u64 off = access & IB_ZERO_BASED ? *va : *va - addr;

	if (!(access & IB_ZERO_BASED) && *va < addr)
		return -ERANGE;
	if (off > length || len > length - off)
		return -ERANGE;
	*va = addr + off;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_mw_range);

/**
 * mrc_mw_bind() - run an IB_WR_BIND_MW WQE of a user QP
 * @qp: the QP that posted it
 * @wr: the WQE's work request (a kernel copy)
 *
 * A zero-length bind of a type 1 window leaves it bound to nothing.
 * Context: under qp->lock.
 * Return: 0, or -EINVAL when the bind breaks a rule (the WQE completes
 * with IB_WC_MW_BIND_ERR).
 */
int mrc_mw_bind(struct mrc_qp *qp, const struct rxe_send_wr *wr)
{
	struct mrc_dev *mdev = qp->mdev;
	struct mrc_mr *mr = NULL;
	struct mrc_mw_bind_req b;
	struct mrc_mw_win *w;
	int err = -EINVAL;

	rcu_read_lock();
	w = xa_load(&mdev->mw_xa, wr->wr.mw.mw_rkey >> 8);
	if (!w)
		goto out;
	if (wr->wr.mw.length) {
		mr = mrc_mr_lookup(mdev, wr->wr.mw.mr_lkey);
		if (!mr)
			goto out;
	}
	b = (struct mrc_mw_bind_req){
		.type = w->type,
		.access = wr->wr.mw.access,
		.addr = wr->wr.mw.addr,
		.length = wr->wr.mw.length,
		.has_mr = !!mr,
		.mr_access = mr ? mr->access : 0,
		.mr_iova = mr ? mr->iova : 0,
		.mr_length = mr ? mr->length : 0,
	};
	spin_lock_bh(&w->lock);
	b.state = w->state;
	/* C10-72: the QP's PD is the window's and the MR's */
	if (w->rkey != wr->wr.mw.mw_rkey || w->pd != qp->ibqp.pd ||
	    (mr && (mr->ibmr.pd != qp->ibqp.pd || mr->type != MRC_MR_USER)) ||
	    mrc_mw_bind_check(&b))
		goto unlock;
	/* no window holds an MR its deregistration has started on */
	if (mr && !atomic_inc_unless_negative(&mr->num_mw))
		goto unlock;
	mw_unbind(w);
	w->mr = mr;			/* the lookup's reference, kept */
	mr = NULL;
	w->access = b.access;
	w->addr = b.addr;
	w->length = b.length;
	if (w->type == IB_MW_TYPE_2)
		w->qpn = qp->ibqp.qp_num;
	w->rkey = (w->rkey & ~0xff) | (wr->wr.mw.rkey & 0xff);
	w->state = MRC_MW_VALID;
	err = 0;
unlock:
	spin_unlock_bh(&w->lock);
out:
	mrc_mr_put(mr);
	rcu_read_unlock();
	return err;
}

/**
 * mrc_mw_invalidate() - IB_WR_LOCAL_INV or SEND_WITH_INV of an MW rkey
 * @qp: the QP the WQE was posted to, or the SEND_WITH_INV arrived on
 * @rkey: the key, from the WQE or from the wire
 * @remote: a SEND_WITH_INV
 *
 * Only a bound type 2 window in @qp's PD can be invalidated
 * (o10-37.2.26); it becomes free, and its rkey opens nothing until it is
 * bound again. From the wire it must be bound to @qp, as for the requests
 * that use it: a peer of another QP has no business with it.
 * Return: 0 or -EINVAL.
 */
int mrc_mw_invalidate(struct mrc_qp *qp, u32 rkey, bool remote)
{
	struct mrc_mw_win *w;
	int err = -EINVAL;

	rcu_read_lock();
	w = xa_load(&qp->mdev->mw_xa, rkey >> 8);
	if (w) {
		spin_lock_bh(&w->lock);
		if (w->rkey == rkey && w->pd == qp->ibqp.pd &&
		    w->type == IB_MW_TYPE_2 &&
		    w->state == MRC_MW_VALID &&
		    (!remote || w->qpn == qp->ibqp.qp_num)) {
			mw_unbind(w);
			w->state = MRC_MW_FREE;
			err = 0;
		}
		spin_unlock_bh(&w->lock);
	}
	rcu_read_unlock();
	return err;
}

/**
 * mrc_mw_get() - the MR behind an MW rkey from the wire, for a request
 * @qp: the responder's QP
 * @rkey: the key (its index is an MW's)
 * @va: the address the request names; set to the MR's address for it.
 *	NULL: the whole window (FLUSH of level MR)
 * @len: bytes it asks for
 * @access: the IB_ACCESS_* it needs
 * @mrp: set to the MR, with a reference, or NULL
 *
 * The window must be valid under this key, in the QP's PD, bound (type 2:
 * to this QP) and grant @access to the whole range.
 * Context: rcu_read_lock() held.
 * Return: 0, -EACCES or -ERANGE (counted like an MR's).
 */
int mrc_mw_get(struct mrc_qp *qp, u32 rkey, u64 *va, u32 len, int access,
	       struct mrc_mr **mrp)
{
	struct mrc_mw_win *w = xa_load(&qp->mdev->mw_xa, rkey >> 8);
	struct mrc_mr *mr = NULL;
	int err = -EACCES;

	*mrp = NULL;
	if (!w)
		goto out;
	spin_lock_bh(&w->lock);
	if (w->rkey != rkey || w->state != MRC_MW_VALID || !w->mr ||
	    !w->length || w->pd != qp->ibqp.pd ||
	    (w->type == IB_MW_TYPE_2 && w->qpn != qp->ibqp.qp_num) ||
	    (w->access & access) != access)
		goto unlock;
	err = va ? mrc_mw_range(w->access, w->addr, w->length, va, len) : 0;
	if (!err) {
		mr = w->mr;
		/* the window's own reference keeps it above zero */
		refcount_inc(&mr->refs);
	}
unlock:
	spin_unlock_bh(&w->lock);
out:
	if (err) {
		mrc_count(qp->mdev, err == -ERANGE ? MRC_CNT_BOUNDS_ERR :
			  MRC_CNT_RKEY_ERR, 1);
		return err;
	}
	*mrp = mr;
	return 0;
}
