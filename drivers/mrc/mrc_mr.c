// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions: DMA MRs (kernel virtual addresses, for kernel ULPs), user
 * MRs (pages pinned with ib_umem; reregistered as new MRs) and
 * fast-registration MRs (page lists a kernel ULP registers with
 * IB_WR_REG_MR).
 *
 * Keys: lkey == rkey == index << 8 | key byte, the index below
 * MRC_MW_INDEX_MIN (memory windows have the ones above: mrc_mw.c). MRs
 * are looked up by index in mdev->mr_xa under RCU, and every copy of
 * packet data holds a reference; deregistration erases the index and
 * waits for the references to go before it unpins anything, and the
 * memory goes after a grace period.
 */
#include <linux/highmem.h>
#include <linux/random.h>
#include <rdma/ib_umem.h>

#include "mrc.h"

/* serialises atomic operations of all QPs (IB_ATOMIC_HCA) */
static DEFINE_SPINLOCK(mrc_atomic_lock);

/* Give @mr an index and keys; lookups find it once publish_mr() ran */
static int reserve_mr(struct mrc_dev *mdev, struct mrc_mr *mr,
		      struct ib_pd *ibpd)
{
	u32 idx;
	int err;

	mr->ibmr.pd = ibpd;
	if (!mrc_dev_take(&mdev->num_mr, MRC_MAX_MR))
		return -ENOMEM;
	err = xa_alloc_cyclic_bh(&mdev->mr_xa, &idx, NULL,
				 XA_LIMIT(1, MRC_MW_INDEX_MIN - 1), &mdev->mr_next,
				 GFP_KERNEL);
	if (err < 0) {
		atomic_dec(&mdev->num_mr);
		return err;
	}
	mr->key = idx << 8 | get_random_u8();
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	refcount_set(&mr->refs, 1);
	init_completion(&mr->drained);
	return 0;
}

static void publish_mr(struct mrc_dev *mdev, struct mrc_mr *mr)
{
	/* publish only a fully built MR */
	xa_store_bh(&mdev->mr_xa, mr->key >> 8, mr, GFP_KERNEL);
}

static int insert_mr(struct mrc_dev *mdev, struct mrc_mr *mr,
		     struct ib_pd *ibpd)
{
	int err = reserve_mr(mdev, mr, ibpd);

	if (!err)
		publish_mr(mdev, mr);
	return err;
}

/* Take @mr out of lookups; it may be unpublished already (rereg_mr) */
static void unpublish_mr(struct mrc_dev *mdev, struct mrc_mr *mr)
{
	xa_cmpxchg_bh(&mdev->mr_xa, mr->key >> 8, mr, NULL, 0);
}

struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct mrc_mr *mr;
	int err;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->type = MRC_MR_DMA;
	mr->access = access;
	mr->length = U64_MAX;
	mr->valid = true;
	err = insert_mr(to_mdev(ibpd->device), mr, ibpd);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibpd->device);
	struct sg_page_iter iter;
	struct ib_umem *umem;
	struct mrc_mr *mr;
	unsigned int n = 0;
	int err;

	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);
	if (!length || length > MRC_MAX_MR_SIZE)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(umem)) {
		err = PTR_ERR(umem);
		goto err_free;
	}
	mr->umem = umem;
	mr->npages = ib_umem_num_pages(umem);
	mr->pages = kvcalloc(mr->npages, sizeof(*mr->pages), MRC_GFP_USER);
	if (!mr->pages) {
		err = -ENOMEM;
		goto err_umem;
	}
	for_each_sgtable_page(&umem->sgt_append.sgt, &iter, 0) {
		if (n == mr->npages)
			break;
		mr->pages[n++] = sg_page_iter_page(&iter);
	}
	mr->npages = n;
	mr->first_off = ib_umem_offset(umem);
	mr->type = MRC_MR_USER;
	mr->access = access;
	mr->iova = iova;
	mr->length = length;
	mr->valid = true;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	err = insert_mr(mdev, mr, ibpd);
	if (err)
		goto err_pages;
	return &mr->ibmr;

err_pages:
	kvfree(mr->pages);
err_umem:
	ib_umem_release(umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/*
 * ibv_rereg_mr: every change gives the MR new keys, as IBA's Reregister
 * does. The MR returned here replaces the old one, which the core then
 * deregisters before it answers: once the call returns, the old keys are
 * refused from the wire and in WQEs alike (a QP still using them gets an
 * access error, as with any stale key). A new translation is a new
 * registration; a PD or access change keeps the pinned pages, handed to
 * the new MR once the old one has no user left. An MR with memory windows
 * bound is not reregistered (-EBUSY), as it is not deregistered.
 */
struct ib_mr *mrc_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 iova, int access,
				struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct ib_pd *pd = (flags & IB_MR_REREG_PD) ? ibpd : ibmr->pd;
	struct mrc_dev *mdev = to_mdev(ibmr->device);
	struct mrc_mr *old = to_mmr(ibmr), *mr;
	int err;

	if (old->type != MRC_MR_USER)
		return ERR_PTR(-EINVAL);
	if (!(flags & IB_MR_REREG_ACCESS))
		access = old->access;
	/* as for deregistration: no window may be bound, nor bind from now */
	if (atomic_cmpxchg(&old->num_mw, 0, -1))
		return ERR_PTR(-EBUSY);
	if (flags & IB_MR_REREG_TRANS) {
		ibmr = mrc_reg_user_mr(pd, start, length, iova, access, udata);
		err = PTR_ERR_OR_ZERO(ibmr);
		goto out;
	}
	/* the pages were pinned for the old access: writable only if so */
	err = -EACCES;
	if (ib_access_writable(access) && !old->umem->writable)
		goto out;
	err = -ENOMEM;
	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		goto out;
	err = reserve_mr(mdev, mr, pd);
	if (err) {
		kfree(mr);
		goto out;
	}

	/* no lookup finds @old after the grace period, none holds it after */
	unpublish_mr(mdev, old);
	synchronize_rcu();
	mrc_mr_put(old);
	wait_for_completion(&old->drained);

	mr->type = MRC_MR_USER;
	mr->access = access;
	mr->iova = old->iova;
	mr->length = old->length;
	mr->umem = old->umem;
	mr->pages = old->pages;
	mr->npages = old->npages;
	mr->first_off = old->first_off;
	mr->valid = true;
	mr->ibmr.iova = old->ibmr.iova;
	mr->ibmr.length = old->ibmr.length;
	old->umem = NULL;
	old->pages = NULL;
	old->npages = 0;
	/* what mrc_dereg_mr() of @old, next, expects: only its own reference */
	refcount_set(&old->refs, 1);
	reinit_completion(&old->drained);
	publish_mr(mdev, mr);
	return &mr->ibmr;

out:
	if (err)
		atomic_set(&old->num_mw, 0);	/* @old stays: binds may come */
	return err ? ERR_PTR(err) : ibmr;
}

struct ib_mr *mrc_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg)
{
	struct mrc_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > MRC_MAX_FAST_PAGES)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->fpages = kcalloc(max_num_sg, sizeof(*mr->fpages),
			     GFP_KERNEL_ACCOUNT);
	if (!mr->fpages) {
		kfree(mr);
		return ERR_PTR(-ENOMEM);
	}
	mr->type = MRC_MR_FAST;
	mr->max_fpages = max_num_sg;
	err = insert_mr(to_mdev(ibpd->device), mr, ibpd);
	if (err) {
		kfree(mr->fpages);
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

static int set_page(struct ib_mr *ibmr, u64 addr)
{
	struct mrc_mr *mr = to_mmr(ibmr);

	if (mr->nfpages == mr->max_fpages)
		return -ENOMEM;
	mr->fpages[mr->nfpages++] = addr;
	return 0;
}

/* Called before the IB_WR_REG_MR that makes the MR valid; the list is not
 * used by packets until then.
 */
int mrc_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct mrc_mr *mr = to_mmr(ibmr);

	mr->nfpages = 0;
	mr->page_size = ibmr->page_size;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, set_page);
}

int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibmr->device);
	struct mrc_mr *mr = to_mmr(ibmr);

	/* a bound window holds a reference: unbind it first (as rxe); -1:
	 * a rereg_mr that replaced @mr already closed it to binds
	 */
	if (atomic_cmpxchg(&mr->num_mw, 0, -1) > 0)
		return -EBUSY;
	unpublish_mr(mdev, mr);
	mrc_mr_put(mr);
	wait_for_completion(&mr->drained);	/* no packet copies into it */
	if (mr->umem)
		ib_umem_release(mr->umem);
	kvfree(mr->pages);
	kfree(mr->fpages);
	/* a lookup may still read the key and count under RCU */
	kfree_rcu(mr, rcu);
	atomic_dec(&mdev->num_mr);
	return 0;
}

/**
 * mrc_mr_lookup() - the published MR of key @key, with a reference
 * @mdev: the device
 * @key: lkey or rkey
 *
 * Context: rcu_read_lock() held.
 * Return: the MR, to be put with mrc_mr_put(), or NULL.
 */
struct mrc_mr *mrc_mr_lookup(struct mrc_dev *mdev, u32 key)
{
	struct mrc_mr *mr = xa_load(&mdev->mr_xa, key >> 8);

	if (!mr || READ_ONCE(mr->key) != key || !refcount_inc_not_zero(&mr->refs))
		return NULL;
	return mr;
}

/* Drop a reference from mrc_mr_lookup(); @mr may be NULL */
void mrc_mr_put(struct mrc_mr *mr)
{
	if (mr && refcount_dec_and_test(&mr->refs))
		complete(&mr->drained);
}

/* May @pd use [@va, @va + @len) of @mr with @access? */
int mrc_mr_check(struct mrc_dev *mdev, struct mrc_mr *mr, struct ib_pd *pd,
		 u64 va, u32 len, int access)
{
	/* acquire: pairs with the release in mrc_mr_reg_wr() */
	if (!mr || mr->ibmr.pd != pd || !smp_load_acquire(&mr->valid) ||
	    (mr->access & access) != access) {
		mrc_count(mdev, MRC_CNT_RKEY_ERR, 1);
		return -EACCES;
	}
	if (mr->type == MRC_MR_DMA)
		return 0;
	if (va < mr->iova || va - mr->iova > mr->length ||
	    len > mr->length - (va - mr->iova)) {
		mrc_count(mdev, MRC_CNT_BOUNDS_ERR, 1);
		return -ERANGE;
	}
	return 0;
}

/**
 * mrc_rkey_get() - the MR an rkey from the wire opens to a request
 * @qp: the responder's QP
 * @rkey: an MR's or a memory window's key
 * @va: the address the request names; set to the MR's address for it (a
 *	window may count from its start). NULL: the whole MR or window,
 *	whose key and access alone are checked (FLUSH of level MR)
 * @len: bytes it asks for
 * @access: the IB_ACCESS_* it needs
 * @mrp: set to the MR, to be put with mrc_mr_put() (even on error), or NULL
 *
 * Context: rcu_read_lock() held.
 * Return: 0, -EACCES or -ERANGE.
 */
int mrc_rkey_get(struct mrc_qp *qp, u32 rkey, u64 *va, u32 len, int access,
		 struct mrc_mr **mrp)
{
	struct mrc_mr *mr;
	int err;

	if (mrc_key_is_mw(rkey)) {
		err = mrc_mw_get(qp, rkey, va, len, access, mrp);
		/* the window checked its range, which lies in its MR */
		return err ?: mrc_mr_check(qp->mdev, *mrp, qp->ibqp.pd,
					   va ? *va : (*mrp)->iova, va ? len : 0,
					   0);
	}
	mr = mrc_mr_lookup(qp->mdev, rkey);
	*mrp = mr;
	return mrc_mr_check(qp->mdev, mr, qp->ibqp.pd,
			    va ? *va : (mr ? mr->iova : 0), va ? len : 0,
			    access);
}

/* the kernel address of @va in a FAST MR, with the bytes left in its page */
static void *fast_addr(struct mrc_mr *mr, u64 va, u32 *room)
{
	u64 off = va - mr->iova + (mr->iova & (mr->page_size - 1));
	u64 idx = off / mr->page_size;
	u32 poff = off % mr->page_size;

	if (idx >= mr->nfpages)
		return NULL;
	*room = mr->page_size - poff;
	return (void *)(uintptr_t)(mr->fpages[idx] + poff);
}

/* Copy between a checked range of @mr and @buf. */
int mrc_mr_copy(struct mrc_mr *mr, u64 va, void *buf, u32 len, bool to_mr)
{
	while (len) {
		u32 room, n;
		void *p;

		switch (mr->type) {
		case MRC_MR_DMA:
			p = (void *)(uintptr_t)va;
			room = len;
			break;
		case MRC_MR_FAST:
			p = fast_addr(mr, va, &room);
			if (!p)
				return -ERANGE;
			break;
		default: {
			u64 off = va - mr->iova + mr->first_off;
			u64 idx = off >> PAGE_SHIFT;
			u8 *kp;

			if (idx >= mr->npages)
				return -ERANGE;
			room = PAGE_SIZE - (off & ~PAGE_MASK);
			n = min(len, room);
			kp = kmap_local_page(mr->pages[idx]);
			if (to_mr)
				memcpy(kp + (off & ~PAGE_MASK), buf, n);
			else
				memcpy(buf, kp + (off & ~PAGE_MASK), n);
			kunmap_local(kp);
			goto next;
		}
		}
		n = min(len, room);
		if (to_mr)
			memcpy(p, buf, n);
		else
			memcpy(buf, p, n);
next:
		va += n;
		buf += n;
		len -= n;
	}
	return 0;
}

int mrc_mr_atomic(struct mrc_mr *mr, u64 va, u8 opcode, u64 swap_add,
		  u64 comp, u64 *orig)
{
	struct page *page = NULL;
	u64 *p;
	u32 room;

	if (va & 7)
		return -EINVAL;
	switch (mr->type) {
	case MRC_MR_DMA:
		p = (u64 *)(uintptr_t)va;
		break;
	case MRC_MR_FAST:
		p = fast_addr(mr, va, &room);
		if (!p || room < 8 || ((uintptr_t)p & 7))
			return -EINVAL;
		break;
	default: {
		u64 off = va - mr->iova + mr->first_off;

		/* 8-byte aligned in the page too, so it never crosses one */
		if ((off & 7) || (off >> PAGE_SHIFT) >= mr->npages)
			return -EINVAL;
		page = mr->pages[off >> PAGE_SHIFT];
		p = (u64 *)((u8 *)kmap_local_page(page) + (off & ~PAGE_MASK));
		break;
	}
	}
	spin_lock_bh(&mrc_atomic_lock);
	*orig = *p;
	if (opcode == MRC_OP_ATOMIC_WRITE) {
		/* one 8-byte store, after every earlier placement (IBA A19.4.2) */
		smp_store_release(p, swap_add);
	} else if (opcode == MRC_OP_CMP_SWAP) {
		if (*orig == comp)
			*p = swap_add;
	} else {
		*p = *orig + swap_add;
	}
	spin_unlock_bh(&mrc_atomic_lock);
	if (page)
		kunmap_local(p);
	return 0;
}

/*
 * Run a FLUSH or an ATOMIC_WRITE (its turn come: every earlier PSN is
 * placed). A FLUSH makes what was placed so far visible to every CPU
 * before its answer leaves; mrc places into ordinary memory, so it has
 * no persistence to offer, and the core lets no MR claim
 * IB_ACCESS_FLUSH_PERSISTENT (the device does not). Returns 0 or the
 * NAK syndrome.
 */
u8 mrc_mr_mpe(struct mrc_qp *qp, const struct mrc_rd_req *rq)
{
	u8 type = rq->comp & 0xf, level = rq->comp >> 4;
	struct mrc_mr *mr = NULL;
	u64 orig, va = rq->va;
	int err;

	rcu_read_lock();
	if (rq->opcode == MRC_OP_ATOMIC_WRITE) {
		err = mrc_rkey_get(qp, rq->rkey, &va, 8, IB_ACCESS_REMOTE_WRITE,
				   &mr);
		if (!err && mrc_mr_atomic(mr, va, rq->opcode, rq->swap, 0,
					  &orig))
			err = -EINVAL;
	} else if (type & IB_FLUSH_PERSISTENT) {
		mrc_count(qp->mdev, MRC_CNT_RKEY_ERR, 1);
		err = -EACCES;
	} else {
		/* level MR: the whole MR (or window), wherever the RETH points */
		err = mrc_rkey_get(qp, rq->rkey,
				   level == IB_FLUSH_MR ? NULL : &va, rq->len,
				   mrc_wire_flush_access(type), &mr);
		/* every placement before it, seen by all before the answer */
		smp_mb();
	}
	mrc_mr_put(mr);
	rcu_read_unlock();
	if (err)
		return err == -EINVAL ? MRC_AETH_NAK_INV : MRC_AETH_NAK_ACC;
	return 0;
}

/*
 * Copy between @buf and the bytes [@off, @off + @len) of the message an SGE
 * list describes. Local keys of @pd; writing needs IB_ACCESS_LOCAL_WRITE.
 * Returns -EINVAL when the list is too short, -EACCES/-ERANGE on a bad key
 * or range. Caller holds rcu_read_lock().
 */
int mrc_sge_copy(struct mrc_dev *mdev, struct ib_pd *pd,
		 const struct rxe_sge *sge, u32 nsge, u32 off, void *buf,
		 u32 len, bool to_mr)
{
	u32 i;

	for (i = 0; i < nsge && len; i++) {
		u32 slen = sge[i].length, n;
		struct mrc_mr *mr;
		int err;

		if (off >= slen) {
			off -= slen;
			continue;
		}
		n = min(len, slen - off);
		mr = mrc_mr_lookup(mdev, sge[i].lkey);
		err = mrc_mr_check(mdev, mr, pd, sge[i].addr + off, n,
				   to_mr ? IB_ACCESS_LOCAL_WRITE : 0);
		if (!err)
			err = mrc_mr_copy(mr, sge[i].addr + off, buf, n, to_mr);
		mrc_mr_put(mr);
		if (err)
			return err;
		buf += n;
		len -= n;
		off = 0;
	}
	return len ? -EINVAL : 0;
}

/* IB_WR_REG_MR: make a fast-registration MR valid under a new key */
int mrc_mr_reg_wr(struct mrc_dev *mdev, struct ib_pd *pd,
		  const struct rxe_send_wr *wr)
{
	struct mrc_mr *mr = to_mmr(wr->wr.reg.mr);

	if (mr->type != MRC_MR_FAST || mr->ibmr.pd != pd ||
	    (wr->wr.reg.key >> 8) != (mr->key >> 8) || READ_ONCE(mr->valid))
		return -EINVAL;
	mr->iova = mr->ibmr.iova;
	mr->length = mr->ibmr.length;
	mr->access = wr->wr.reg.access;
	WRITE_ONCE(mr->key, wr->wr.reg.key);
	/* release: the fields above are set before packets may use the MR */
	smp_store_release(&mr->valid, true);
	return 0;
}

/*
 * IB_WR_LOCAL_INV (@remote false) and SEND_WITH_INV arriving on @qp
 * (@remote true), of an MR's key or a window's
 */
int mrc_mr_invalidate(struct mrc_qp *qp, u32 key, bool remote)
{
	struct mrc_mr *mr;
	int err = 0;

	if (mrc_key_is_mw(key))
		return mrc_mw_invalidate(qp, key, remote);
	rcu_read_lock();
	mr = mrc_mr_lookup(qp->mdev, key);
	if (!mr || mr->type != MRC_MR_FAST || mr->ibmr.pd != qp->ibqp.pd)
		err = -EINVAL;
	else
		WRITE_ONCE(mr->valid, false);
	mrc_mr_put(mr);
	rcu_read_unlock();
	return err;
}
