// SPDX-License-Identifier: GPL-2.0
/*
 * UC (unreliable connected) QPs: the receive side.
 *
 * A UC QP connects like RC and sends SEND and WRITE (with or without
 * immediate) on the UC opcodes, sprayed over the peer's paths (mrc_send.c);
 * nothing is acknowledged and nothing is sent twice. Here its packets pass
 * the reorder stage and the IBA UC message sequence (mrc_uc.h) and are
 * placed by the responder's code (mrc_resp_uc_place()), each from its own
 * headers. A packet beyond the receive window (MRC_UC_WIN PSNs ahead, or
 * behind the next expected PSN) is dropped and counted, unless the QP took
 * nothing for MRC_UC_RESYNC_MS: then, as IBA UC takes any PSN that starts
 * a message, the window moves to it, so that a QP whose peer lost more
 * than the window in a row does not stay deaf.
 *
 * Runs under qp->lock: packets in softirq, the hole timer in the QP's work.
 */
#include <kunit/visibility.h>
#include <linux/jiffies.h>

#include "mrc.h"
#include "mrc_uc.h"

struct mrc_uc {
	struct mrc_uc_rx rx;
	struct mrc_uc_seq seq;
};

/* ---- the message sequence ------------------------------------------------ */

void mrc_uc_seq_init(struct mrc_uc_seq *s, u32 psn)
{
	s->epsn = psn;
	s->open = MRC_UC_NONE;
	s->drop = false;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_uc_seq_init);

/**
 * mrc_uc_seq_step() - the next packet in PSN order (IBA UC, as rxe)
 * @s: the sequence
 * @psn: its PSN; one other than @s->epsn means PSNs were lost
 * @mask: its headers (enum mrc_hdr_mask): FIRST, LAST, PLETH for a SEND
 *
 * After a gap, or in a message being dropped, only a FIRST or ONLY is
 * taken; a message in progress that a gap, or a packet that cannot belong
 * to it, interrupts ends unfinished (its receive WQE is for the next).
 *
 * Return: MRC_UC_TAKE and/or MRC_UC_CUT.
 */
unsigned int mrc_uc_seq_step(struct mrc_uc_seq *s, u32 psn, u32 mask)
{
	u8 kind = mask & MRC_H_PLETH ? MRC_UC_SEND : MRC_UC_WRITE;
	bool first = mask & MRC_H_FIRST, gap = psn != s->epsn;
	unsigned int v = 0;

	s->epsn = mrc_psn_add(psn, 1);
	/* the message in progress cannot go on */
	if (s->open && (gap || first || kind != s->open)) {
		v |= MRC_UC_CUT;
		s->open = MRC_UC_NONE;
		s->drop = true;
	}
	if (gap)
		s->drop = true;
	if (first)
		s->drop = false;	/* a new message starts */
	else if (!s->open)
		s->drop = true;		/* the rest of one not seen to start */
	if (s->drop)
		return v;
	s->open = mask & MRC_H_LAST ? MRC_UC_NONE : kind;
	return v | MRC_UC_TAKE;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_uc_seq_step);

/* A packet taken could not be placed: its message is dropped from here. */
void mrc_uc_seq_abort(struct mrc_uc_seq *s, u32 mask)
{
	s->open = MRC_UC_NONE;
	s->drop = !(mask & MRC_H_LAST);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_uc_seq_abort);

/* ---- the reorder stage --------------------------------------------------- */

void mrc_uc_rx_init(struct mrc_uc_rx *rx, u32 psn, unsigned long now)
{
	memset(rx, 0, sizeof(*rx));
	rx->epsn = psn;
	rx->last_take = now;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_uc_rx_init);

static void **slot(struct mrc_uc_rx *rx, u32 psn)
{
	return &rx->held[psn % MRC_UC_REORDER];
}

/* Hand on what waits from rx->epsn on, up to the next missing PSN. */
static void drain(struct mrc_uc_rx *rx, unsigned long now,
		  mrc_uc_deliver_t deliver, void *ctx)
{
	void **h;

	while (rx->nheld && *(h = slot(rx, rx->epsn))) {
		void *item = *h;

		*h = NULL;
		rx->nheld--;
		deliver(ctx, item, rx->epsn);
		rx->epsn = mrc_psn_add(rx->epsn, 1);
	}
	/* the next missing PSN is waited for from now */
	rx->hole_since = now;
}

/* Give up every PSN before @psn: hand on what waits below it, in order. */
static void skip_to(struct mrc_uc_rx *rx, u32 psn, mrc_uc_deliver_t deliver,
		    void *ctx)
{
	while (rx->nheld && mrc_psn_diff(psn, rx->epsn) > 0) {
		void **h = slot(rx, rx->epsn);

		if (*h) {
			void *item = *h;

			*h = NULL;
			rx->nheld--;
			deliver(ctx, item, rx->epsn);
		}
		rx->epsn = mrc_psn_add(rx->epsn, 1);
	}
	if (mrc_psn_diff(psn, rx->epsn) > 0)
		rx->epsn = psn;
}

/**
 * mrc_uc_rx_arrive() - a packet for the reorder stage
 * @rx: the stage
 * @psn: its PSN
 * @item: the packet, handed to @deliver (now or later) unless refused
 * @now: jiffies
 * @deliver: takes packets in PSN order
 * @ctx: for @deliver
 *
 * Return: 0 (taken: handed on, or waiting), -ERANGE outside the window,
 * -EEXIST for a PSN already waiting; the caller keeps a refused @item.
 */
int mrc_uc_rx_arrive(struct mrc_uc_rx *rx, u32 psn, void *item,
		     unsigned long now, mrc_uc_deliver_t deliver, void *ctx)
{
	s32 d = mrc_psn_diff(psn, rx->epsn);
	void **h;

	if (d < 0 || d >= MRC_UC_WIN) {
		if (!time_after_eq(now, rx->last_take +
				   msecs_to_jiffies(MRC_UC_RESYNC_MS)))
			return -ERANGE;
		/* a silent QP takes any PSN: what waits goes on first */
		skip_to(rx, mrc_psn_add(rx->epsn, MRC_UC_REORDER), deliver, ctx);
		rx->epsn = psn;
		d = 0;
	}
	rx->last_take = now;
	if (d >= MRC_UC_REORDER) {
		/* what is missing this far back is lost */
		skip_to(rx, mrc_psn_add(psn, 1 - MRC_UC_REORDER), deliver, ctx);
		drain(rx, now, deliver, ctx);
		d = mrc_psn_diff(psn, rx->epsn);
	}
	if (d > 0) {
		h = slot(rx, psn);
		if (*h)
			return -EEXIST;
		*h = item;
		if (!rx->nheld++)
			rx->hole_since = now;
		return 0;
	}
	deliver(ctx, item, psn);
	rx->epsn = mrc_psn_add(psn, 1);
	drain(rx, now, deliver, ctx);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_uc_rx_arrive);

/**
 * mrc_uc_rx_timeout() - give up a PSN waited for MRC_UC_HOLE_MS
 * @rx: the stage
 * @now: jiffies
 * @deliver: takes the packets that waited behind it
 * @ctx: for @deliver
 *
 * Return: true while packets still wait (the caller's timer goes on).
 */
bool mrc_uc_rx_timeout(struct mrc_uc_rx *rx, unsigned long now,
		       mrc_uc_deliver_t deliver, void *ctx)
{
	if (rx->nheld &&
	    time_after_eq(now, rx->hole_since + msecs_to_jiffies(MRC_UC_HOLE_MS))) {
		while (!*slot(rx, rx->epsn))
			rx->epsn = mrc_psn_add(rx->epsn, 1);
		drain(rx, now, deliver, ctx);
	}
	return rx->nheld;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_uc_rx_timeout);

/* ---- the QP -------------------------------------------------------------- */

int mrc_uc_init(struct mrc_qp *qp)
{
	qp->uc = kzalloc(sizeof(*qp->uc), GFP_KERNEL_ACCOUNT);
	if (!qp->uc)
		return -ENOMEM;
	mrc_uc_reset(qp);
	return 0;
}

/* Drop what waits, handing nothing on. */
static void purge(struct mrc_uc *uc)
{
	u32 i;

	for (i = 0; i < MRC_UC_REORDER; i++) {
		kfree_skb(uc->rx.held[i]);
		uc->rx.held[i] = NULL;
	}
	uc->rx.nheld = 0;
}

void mrc_uc_cleanup(struct mrc_qp *qp)
{
	if (!qp->uc)
		return;
	purge(qp->uc);
	kfree(qp->uc);
	qp->uc = NULL;
}

/* Kernel memory of a UC QP's receive side, its packets held aside not counted */
size_t mrc_uc_mem(const struct mrc_qp *qp)
{
	return qp->uc ? kmalloc_size_roundup(sizeof(*qp->uc)) : 0;
}

/* RESET and RTR: expect rq_psn, nothing waiting (qp->lock held) */
void mrc_uc_reset(struct mrc_qp *qp)
{
	if (!qp->uc)
		return;
	purge(qp->uc);
	mrc_uc_rx_init(&qp->uc->rx, qp->attr.rq_psn, jiffies);
	mrc_uc_seq_init(&qp->uc->seq, qp->attr.rq_psn);
}

/* The receive message in progress ends unfinished: its WQE takes the next. */
static void cut(struct mrc_qp *qp)
{
	struct mrc_resp *rs = &qp->resp;

	if (rs->nfetched)
		memset(&rs->rmsg[rs->rslot], 0, sizeof(rs->rmsg[rs->rslot]));
}

/* One packet in PSN order (mrc_uc_deliver_t): place it, or drop it. */
static void deliver(void *ctx, void *item, u32 psn)
{
	struct mrc_qp *qp = ctx;
	struct sk_buff *skb = item;
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	struct mrc_uc *uc = qp->uc;
	unsigned int v;
	int err;

	if (qp->state == IB_QPS_ERR) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		goto out;
	}
	v = mrc_uc_seq_step(&uc->seq, psn, pkt->mask);
	if (v & MRC_UC_CUT)
		cut(qp);
	if (!(v & MRC_UC_TAKE)) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		goto out;
	}
	/* IBA UC: a WRITE without the QP's remote write access is dropped */
	if (!(pkt->mask & MRC_H_PLETH) &&
	    !(qp->attr.qp_access_flags & IB_ACCESS_REMOTE_WRITE))
		err = -EACCES;
	else
		err = mrc_resp_uc_place(qp, pkt, psn);
	if (err) {
		/* class D: the message is dropped, the QP goes on */
		mrc_count(qp->mdev, err == -EACCES ? MRC_CNT_RKEY_ERR :
			  err == -EINVAL ? MRC_CNT_BOUNDS_ERR :
			  MRC_CNT_RX_DROP, 1);
		cut(qp);
		mrc_uc_seq_abort(&uc->seq, pkt->mask);
	}
out:
	consume_skb(skb);
}

/*
 * The hole timer. It shares qp->timer with the sender's retry after a
 * failed allocation: only ever brought earlier, and an early expiry finds
 * the hole younger than MRC_UC_HOLE_MS and arms again.
 */
static void arm(struct mrc_qp *qp)
{
	struct mrc_uc_rx *rx = &qp->uc->rx;

	if (rx->nheld && !qp->dying)
		timer_reduce(&qp->timer, rx->hole_since +
			     msecs_to_jiffies(MRC_UC_HOLE_MS));
}

/**
 * mrc_uc_recv() - a UC packet for a UC QP, from its peer
 * @qp: the QP; qp->lock held (softirq)
 * @skb: the packet (parsed, whole); the caller keeps its reference
 */
void mrc_uc_recv(struct mrc_qp *qp, struct sk_buff *skb)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);

	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		return;
	}
	skb_get(skb);
	if (mrc_uc_rx_arrive(&qp->uc->rx, mrc_bth_psn(pkt->hdr), skb, jiffies,
			     deliver, qp)) {
		mrc_count(qp->mdev, MRC_CNT_RX_DROP, 1);
		kfree_skb(skb);
		return;
	}
	arm(qp);
}

/* The hole timer (the QP's work, qp->lock held) */
void mrc_uc_timeout(struct mrc_qp *qp)
{
	if (!qp->uc)
		return;
	if (qp->state == IB_QPS_ERR) {
		purge(qp->uc);
		return;
	}
	if (mrc_uc_rx_timeout(&qp->uc->rx, jiffies, deliver, qp))
		arm(qp);
}
