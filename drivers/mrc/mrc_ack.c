// SPDX-License-Identifier: GPL-2.0
/*
 * The responder's acknowledgments of an RC QP: the packet (its headers, its
 * reverse EV), a plain ACK or NAK (AETH), a SACK of the window with the
 * port status and CC_STATE, and the choice between them. When to send one
 * is the responder's (mrc_resp.c).
 *
 * Runs under qp->lock.
 */
#include <rdma/ib_mad.h>

#include "mrc.h"

/*
 * A changed port status rides this many SACKs: plain ACKs cannot carry it,
 * and one SACK may be lost, or leave on a plane that has just come up and
 * has no route yet; the reverse EVs take the planes in turn.
 */
#define MRC_PS_SACKS	8

/*
 * A packet of opcode @op at @psn for the QP's peer, with room for @paylen
 * bytes of payload (READ responses), stamped with its EV: a response on
 * the rotation, an acknowledgment on the reverse set.
 */
struct sk_buff *mrc_ack_skb(struct mrc_qp *qp, u8 op, u32 psn,
			    struct mrc_pkt *pkt, u32 paylen)
{
	struct sk_buff *skb;

	skb = mrc_net_alloc(qp->mdev, mrc_wire_hdr_len(op, false) + paylen +
			    (-paylen & 3));
	if (!skb)
		return NULL;
	memset(skb->data, 0, skb->len);
	mrc_wire_prepare(pkt, skb->data, op, paylen);
	mrc_bth_init(skb->data, op, 0, false, -paylen & 3,
		     IB_DEFAULT_PKEY_FULL, qp->attr.dest_qp_num, psn);
	mrc_sched_pick(qp, skb, mrc_op_is_read_resp(op) ? MRC_STAMP_DATA :
						       MRC_STAMP_ACK);
	return skb;
}

/* ACK (syndrome @syn, 0 = ACK) at @psn */
void mrc_ack_aeth(struct mrc_qp *qp, u8 syn, u32 psn, struct sk_buff_head *txq)
{
	struct mrc_pkt pkt;
	struct sk_buff *skb = mrc_ack_skb(qp, MRC_OP_ACK, psn, &pkt, 0);

	if (!skb)
		return;
	mrc_aeth_set(mrc_pkt_hdr(&pkt, MRC_H_AETH), syn,
		     qp->resp.completed & MRC_PSN_MASK);
	mrc_count(qp->mdev, syn ? ((syn >> 5) == 1 ? MRC_CNT_RNR_TX :
			       MRC_CNT_NACK_TX) : MRC_CNT_ACK_TX, 1);
	__skb_queue_tail(txq, skb);
}

/* A SACK of the window around @psn, naming EV @ev (mode @mode) */
void mrc_ack_sack(struct mrc_qp *qp, u32 psn, u32 ev, u8 mode, bool probe,
		  struct sk_buff_head *txq)
{
	struct mrc_resp *rs = &qp->resp;
	struct mrc_sack_range range;
	struct mrc_sack s = {};
	struct sk_buff *skb;
	struct mrc_pkt pkt;

	mrc_psn_win_sack(&rs->win, psn, &range);
	skb = mrc_ack_skb(qp, MRC_OP_SACK, range.cack_psn, &pkt, 0);
	if (!skb)
		return;
	s.cack_psn = range.cack_psn;
	s.sack_offset = range.offset;
	s.bitmap = range.bitmap;
	s.mpr = rs->win.size / MRC_MPR_UNIT;
	s.entropy = ev;
	s.mode = mode;
	s.probe_resp = probe;
	s.rcvd_bytes = (rs->rcvd_bytes >> 8) & 0xffffff;
	if (rs->rx_ns) {
		/* the request that drew it: its PSN and our time on it */
		s.cc_flags = MRC_SACK_CCF_SAMPLE;
		s.ack_psn_offset = (s16)mrc_psn_diff(psn, range.cack_psn);
		s.service_us = min_t(u64, div_u64(ktime_get_ns() - rs->rx_ns,
						  NSEC_PER_USEC), U16_MAX);
	}
	s.port_status = READ_ONCE(qp->mdev->planes_up);
	if (s.port_status != rs->ps_sent) {
		rs->ps_sent = s.port_status;
		rs->ps_left = MRC_PS_SACKS;
	}
	if (rs->ps_left)
		rs->ps_left--;
	mrc_seth_write(mrc_pkt_hdr(&pkt, MRC_H_SETH), &s);
	mrc_count(qp->mdev, MRC_CNT_SACK_TX, 1);
	__skb_queue_tail(txq, skb);
}

/*
 * The state of the window: ACK if it has no hole, else SACK around @psn.
 * Also a SACK when the planes up here changed since the last one said,
 * and for the next MRC_PS_SACKS - 1 after it: the port status travels in
 * SACKs only, and a peer that learned a plane of ours went down must hear
 * that it is back, also when nothing is missing (with nothing lost, only
 * plain ACKs would follow).
 */
void mrc_ack_send(struct mrc_qp *qp, u32 psn, struct sk_buff_head *txq)
{
	struct mrc_resp *rs = &qp->resp;

	rs->unacked = 0;
	rs->unacked_bytes = 0;
	/* an ECN mark is reported at once, in a SACK naming its EV */
	if (rs->ce_pending) {
		rs->ce_pending = false;
		mrc_ack_sack(qp, psn, rs->ce_ev, MRC_SACK_M_SKIP_ONCE, false, txq);
	} else if (rs->win.ooo || rs->ps_left ||
		   READ_ONCE(qp->mdev->planes_up) != rs->ps_sent) {
		/* feedback for the path it came on */
		mrc_ack_sack(qp, psn, rs->last_ev, MRC_SACK_M_NONE, false, txq);
	} else {
		mrc_ack_aeth(qp, MRC_AETH_ACK, mrc_psn_win_cack(&rs->win), txq);
	}
	mrc_send_rev_probe(qp, txq);
}
