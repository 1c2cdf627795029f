/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The requester of an RC QP, in four parts that call each other one way:
 *
 *   mrc_req.c   runs the QP: packets in, the timer, the work; calls the rest
 *   mrc_send.c  send engine: fetch WQEs, build packets, may_send(), probes
 *   mrc_comp.c  completer: ACK/SACK/NAK/NACK/responses in, completions out
 *   mrc_loss.c  loss detection, RTT samples, the retransmission timer
 *
 * mrc_comp.c reports to mrc_loss.c and the scheduler (mrc_sched.c); neither
 * completes a WQE or sends a packet itself. What they share is the send
 * window below (struct mrc_req, under qp->lock): per PSN in flight its
 * MRC_TX_* flags, EV, send order and send time, and the kernel copies of
 * the fetched send WQEs.
 */
#ifndef _MRC_REQ_H
#define _MRC_REQ_H

#include "mrc.h"

#define MRC_PROBE_MIN_US	1000	/* a QP sends probes at most this often */
#define MRC_REV_PROBE_US	2000	/* an inbound-only QP's reverse probes */

static inline u32 tslot(u32 psn)
{
	return psn & (MRC_TX_WIN - 1);
}

static inline struct rxe_send_wqe *wcopy(struct mrc_qp *qp, u32 idx)
{
	return qp->req.copies + (size_t)(idx & qp->sq.mask) * qp->sq_elem;
}

static inline struct mrc_swqe *wmeta(struct mrc_qp *qp, u32 idx)
{
	return &qp->req.meta[idx & qp->sq.mask];
}

static inline u32 now_us(void)
{
	return mrc_now_us();
}

/* Was @psn sent, and not yet acknowledged cumulatively? */
static inline bool in_flight(const struct mrc_req *r, u32 psn)
{
	return mrc_psn_diff(psn, r->snd_una) >= 0 &&
	       mrc_psn_diff(psn, r->snd_nxt) < 0;
}

/*
 * @psn, in flight, did not arrive: it waits to be sent again, and its
 * bytes are no longer in flight (congestion control's count).
 */
static inline void tx_lost(struct mrc_req *r, u32 psn)
{
	u32 s = tslot(psn);

	if (r->txs[s] & MRC_TX_LOST)
		return;
	r->txs[s] |= MRC_TX_LOST;
	r->nlost++;
	r->inflight -= r->txlen[s];
}

/* the EV @psn was last sent on, or NULL (no EV set) */
static inline struct mrc_ev *tx_ev(struct mrc_qp *qp, u32 psn)
{
	u8 i = qp->req.txev[tslot(psn)];

	return qp->evs && i < qp->evs->n ? &qp->evs->ev[i] : NULL;
}

/* Find the fetched WQE that owns @psn. */
static inline bool mrc_req_find_wqe(struct mrc_qp *qp, u32 psn, u32 *idxp)
{
	u32 idx;

	for (idx = qp->sq.idx; idx != qp->req.next_idx;
	     idx = (idx + 1) & qp->sq.mask) {
		struct mrc_swqe *m = wmeta(qp, idx);
		s32 d = mrc_psn_diff(psn, m->first_psn);

		if (m->npkts && d >= 0 && d < m->npkts) {
			*idxp = idx;
			return true;
		}
	}
	return false;
}

/* mrc_send.c */
int mrc_send_rc(struct mrc_qp *qp, struct sk_buff_head *txq, int budget);
int mrc_send_ud(struct mrc_qp *qp, struct sk_buff_head *txq, int budget);
int mrc_send_uc(struct mrc_qp *qp, struct sk_buff_head *txq, int budget);
void mrc_send_probes(struct mrc_qp *qp, struct sk_buff_head *txq);

/* mrc_comp.c */
bool mrc_comp_recv(struct mrc_qp *qp, struct sk_buff *skb);
void mrc_comp_wqes(struct mrc_qp *qp);
void mrc_comp_fail(struct mrc_qp *qp, enum ib_wc_status status);

/* mrc_loss.c */
enum mrc_rtt_kind {
	MRC_RTT_EV,		/* a PSN acknowledged: its EV's RTT */
	MRC_RTT_QP,		/* the cumulative ack, a response: the RTO's */
};

u32 mrc_loss_rtt_sample(struct mrc_qp *qp, u32 psn, enum mrc_rtt_kind kind);
void mrc_loss_check(struct mrc_qp *qp, u32 psn, u32 high);
void mrc_loss_mark(struct mrc_qp *qp, u32 psn, int sig);
void mrc_loss_planes_down(struct mrc_qp *qp, u16 mask);
void mrc_loss_alive(struct mrc_qp *qp);
void mrc_loss_delivered(struct mrc_qp *qp);
void mrc_loss_advanced(struct mrc_qp *qp);
void mrc_loss_watch(struct mrc_qp *qp);
void mrc_loss_stop(struct mrc_qp *qp);
void mrc_loss_rnr_wait(struct mrc_qp *qp, u32 us);
bool mrc_loss_rnr_waiting(struct mrc_qp *qp);
void mrc_loss_trim_pause(struct mrc_qp *qp, u32 psn);
bool mrc_loss_paused(struct mrc_qp *qp);
bool mrc_loss_timeout(struct mrc_qp *qp);
void mrc_loss_timer_update(struct mrc_qp *qp, bool exact);
u32 mrc_loss_probe_us(struct mrc_qp *qp);

#endif /* _MRC_REQ_H */
