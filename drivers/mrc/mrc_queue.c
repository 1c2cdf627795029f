// SPDX-License-Identifier: GPL-2.0
/*
 * Work and completion queues in the rxe ring layout (struct rxe_queue_buf):
 * one header page part with the producer and consumer indices, then
 * power-of-two slots. User queues are mrc_queue_alloc() memory the
 * provider maps through an rdma_user_mmap_entry; kernel queues use the
 * same layout so one set of engines serves both.
 *
 * Indices are kept masked, as the provider expects. An index read from a
 * user-writable header is masked again before use, so a bad value can only
 * make the kernel see garbage WQEs (which it validates), never touch memory
 * outside the ring.
 */
#include <kunit/visibility.h>
#include <linux/kmemleak.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <rdma/uverbs_ioctl.h>

#include "mrc.h"

/*
 * vmalloc_user() memory, but charged to the caller's memory cgroup: the
 * variant of vmalloc that takes both gfp flags and VM_USERMAP (which
 * remap_vmalloc_range() requires) is not exported, so the pages are
 * allocated here and handed to vmap(); vfree() frees them and the array.
 * A ring beyond the cgroup's limit fails the verb (MRC_GFP_USER) rather
 * than calling its OOM killer.
 */
static void *mrc_queue_alloc(size_t size)
{
	unsigned int i, n = size >> PAGE_SHIFT;
	struct page **pages;
	void *buf;

	pages = kvmalloc_array(n, sizeof(*pages), MRC_GFP_USER);
	if (!pages)
		return NULL;
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(MRC_GFP_USER | __GFP_ZERO);
		if (!pages[i])
			goto err;
	}
	buf = vmap(pages, n, VM_USERMAP | VM_MAP_PUT_PAGES, PAGE_KERNEL);
	if (!buf)
		goto err;
	/* as vmalloc() memory is: vfree() ends the object */
	kmemleak_alloc(buf, size, 1, GFP_KERNEL);
	return buf;

err:
	while (i--)
		__free_page(pages[i]);
	kvfree(pages);
	return NULL;
}

int mrc_queue_init(struct mrc_dev *mdev, struct mrc_queue *q,
		   struct ib_udata *udata, u32 num_elem, u32 elem_size,
		   struct mminfo *mi)
{
	struct mrc_ucontext *uc;
	struct mrc_mmap_entry *e;
	u32 slots;
	int err;

	elem_size = roundup_pow_of_two(elem_size);
	/* one slot always stays empty: full is prod + 1 == cons */
	slots = roundup_pow_of_two(num_elem + 1);
	q->log2_elem = ilog2(elem_size);
	q->mask = slots - 1;
	q->idx = 0;
	q->entry = NULL;
	q->size = PAGE_ALIGN(sizeof(*q->buf) + (size_t)slots * elem_size);
	q->buf = mrc_queue_alloc(q->size);
	if (!q->buf)
		return -ENOMEM;
	q->buf->log2_elem_size = q->log2_elem;
	q->buf->index_mask = q->mask;
	if (!udata)
		return 0;

	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e) {
		err = -ENOMEM;
		goto err_buf;
	}
	e->buf = q->buf;
	uc = rdma_udata_to_drv_context(udata, struct mrc_ucontext, ibuc);
	err = rdma_user_mmap_entry_insert(&uc->ibuc, &e->rdma, q->size);
	if (err) {
		kfree(e);
		goto err_buf;
	}
	q->entry = &e->rdma;
	if (mi) {
		mi->offset = rdma_user_mmap_get_offset(&e->rdma);
		mi->size = q->size;
		mi->pad = 0;
	}
	return 0;

err_buf:
	vfree(q->buf);
	q->buf = NULL;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_queue_init);

/* A user queue's memory goes with its mmap entry (mrc_mmap_free): pages
 * still mapped by the process stay alive through their own references.
 */
void mrc_queue_free(struct mrc_queue *q)
{
	if (!q->buf)
		return;
	if (q->entry)
		rdma_user_mmap_entry_remove(q->entry);
	else
		vfree(q->buf);
	q->buf = NULL;
	q->entry = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_queue_free);

/* Kernel memory of ring @q: its pages, their array, its mmap entry */
size_t mrc_queue_mem(const struct mrc_queue *q)
{
	if (!q->buf)
		return 0;
	return q->size +
	       kmalloc_size_roundup((q->size >> PAGE_SHIFT) * sizeof(struct page *)) +
	       (q->entry ? kmalloc_size_roundup(sizeof(struct mrc_mmap_entry)) : 0);
}

/* Entries posted and not yet consumed (kernel is the consumer) */
u32 mrc_queue_count(const struct mrc_queue *q)
{
	/* acquire: pairs with the producer's release, entries first */
	u32 prod = smp_load_acquire(&q->buf->producer_index) & q->mask;

	return (prod - q->idx) & q->mask;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_queue_count);

/* Free slots left for the kernel producer (CQ) */
u32 mrc_queue_free_slots(const struct mrc_queue *q)
{
	/* acquire: pairs with the consumer's release of the slot */
	u32 cons = smp_load_acquire(&q->buf->consumer_index) & q->mask;

	return (cons - q->idx - 1) & q->mask;
}

/**
 * mrc_queue_move() - the entries [@from, @from + @n) of @src into a resized
 * queue @dst
 * @dst: the new ring, empty, with @src's slot size and more than @n slots
 * @src: the old ring
 * @from: index of its first entry to keep (the consumer's)
 * @n: entries to keep, oldest first
 *
 * They become @dst's slots 0..@n-1: its producer index is @n and its
 * consumer index 0; @dst->idx is left for the caller, who knows which
 * side the kernel is. Context: both rings' producers and consumers held off.
 */
void mrc_queue_move(struct mrc_queue *dst, const struct mrc_queue *src,
		    u32 from, u32 n)
{
	u32 i, esz = 1U << src->log2_elem;

	for (i = 0; i < n; i++)
		memcpy(mrc_queue_slot(dst, i), mrc_queue_slot(src, from + i),
		       esz);
	dst->buf->consumer_index = 0;
	/* release: the entries are written before the index shows them */
	smp_store_release(&dst->buf->producer_index, n & dst->mask);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_queue_move);

/* Release the slot at the kernel's consumer index */
void mrc_queue_consume(struct mrc_queue *q)
{
	q->idx = (q->idx + 1) & q->mask;
	/* release: the slot is copied out before it is given back */
	smp_store_release(&q->buf->consumer_index, q->idx);
}

int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma;
	struct mrc_mmap_entry *e;
	int err;

	rdma = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma)
		return -EINVAL;
	e = container_of(rdma, struct mrc_mmap_entry, rdma);
	err = remap_vmalloc_range(vma, e->buf, 0);
	rdma_user_mmap_entry_put(rdma);
	return err;
}

void mrc_mmap_free(struct rdma_user_mmap_entry *rdma)
{
	struct mrc_mmap_entry *e = container_of(rdma, struct mrc_mmap_entry,
						rdma);

	vfree(e->buf);
	kfree(e);
}

static int post_one_recv(struct mrc_queue *q, u32 max_sge,
			 const struct ib_recv_wr *wr)
{
	u32 prod = q->buf->producer_index & q->mask;
	struct rxe_recv_wqe *w;
	u32 i, len = 0;

	if (wr->num_sge > max_sge)
		return -EINVAL;
	if (((prod + 1) & q->mask) ==
	    /* acquire: pairs with the consumer's release of the slot */
	    (smp_load_acquire(&q->buf->consumer_index) & q->mask))
		return -ENOMEM;
	w = mrc_queue_slot(q, prod);
	memset(w, 0, sizeof(*w));
	w->wr_id = wr->wr_id;
	for (i = 0; i < wr->num_sge; i++) {
		w->dma.sge[i].addr = wr->sg_list[i].addr;
		w->dma.sge[i].length = wr->sg_list[i].length;
		w->dma.sge[i].lkey = wr->sg_list[i].lkey;
		len += wr->sg_list[i].length;
	}
	w->dma.length = len;
	w->dma.resid = len;
	w->dma.num_sge = wr->num_sge;
	/* release: the entry is written before its index moves */
	smp_store_release(&q->buf->producer_index, (prod + 1) & q->mask);
	return 0;
}

/**
 * mrc_queue_post_recv() - put the chain @wr in receive queue @q (a QP's RQ
 * or an SRQ)
 * @q: the ring
 * @max_sge: the queue's SGE limit
 * @wr: the first work request
 * @bad_wr: set to the first one not posted
 *
 * Context: the caller serializes producers (rq_post_lock, the SRQ's lock).
 * Return: 0, -EINVAL (too many SGEs) or -ENOMEM (the ring is full).
 */
int mrc_queue_post_recv(struct mrc_queue *q, u32 max_sge,
			const struct ib_recv_wr *wr,
			const struct ib_recv_wr **bad_wr)
{
	int err = 0;

	for (; wr; wr = wr->next) {
		err = post_one_recv(q, max_sge, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	return err;
}
