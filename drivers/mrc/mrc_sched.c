// SPDX-License-Identifier: GPL-2.0
/*
 * The path scheduler of an RC QP: which EV each packet takes, and what the
 * requester's engines learn about the EVs.
 *
 * It sits over the QP's EV set (mrc_ev.c, pure logic) and is the one place
 * the engines reach it through:
 *   pick      mrc_sched_pick(), mrc_sched_stamp_ev(): the EV of a packet
 *   on_ack    mrc_sched_on_ack(), mrc_sched_on_rtt(): a packet arrived
 *   on_loss   mrc_sched_on_loss(): one did not (a drop, an overdue packet,
 *             a timeout: the signal says which)
 *   on_ecn    mrc_sched_on_ecn(): its forward path is marked
 *   on_trim   mrc_sched_on_trim(): a switch on it cut a packet
 *   on_sack   mrc_sched_on_sack(): what a SACK says of the peer's planes,
 *             probes answered and ECN
 * A change of an EV's health is counted, traced and multicast here
 * (mrc_sched_signal()), whoever caused it: the transport or the operator.
 *
 * A QP without an EV set (no path set for its peer) sends everything on
 * its address vector; every hook is then a no-op.
 *
 * Everything runs under qp->lock.
 */
#include "mrc_req.h"
#include "mrc_trace.h"

static void stamp(struct mrc_qp *qp, struct sk_buff *skb, struct mrc_ev *e)
{
	struct mrc_av *av = mrc_skb_av(skb);

	av->flags |= MRC_AV_MULTIPATH;
	av->path = e->path;
	av->sport = mrc_ev_sport(e->value);
	av->flow_label = mrc_ev_flow(e->value);
	e->tx_pkts++;
	e->tx_bytes += skb->len;
}

/*
 * Nothing usable is up: the packet takes a slot's EV, to be lost on a
 * plane that is down and counted there; never one the operator denied
 * while another is there
 */
static int any_slot(const struct mrc_evset *evs)
{
	u32 s;

	for (s = 0; s < evs->nslots; s++)
		if (evs->ev[evs->slot[s]].state != MRC_EV_STATE_DENIED)
			return evs->slot[s];
	return evs->slot[0];
}

/**
 * mrc_sched_pick() - address a packet the QP built, and pick its EV
 * @qp: an RC QP; qp->lock held
 * @skb: the packet
 * @what: what it is
 *
 * A QP with an EV set sprays: every data packet takes the next usable EV
 * of the rotation, which names its plane and path; ACKs, SACKs and NAKs
 * take the reverse EV set in turn (mrc_evset_reverse()).
 *
 * Return: the index of the EV in the QP's set, or -1 (no EV set).
 */
int mrc_sched_pick(struct mrc_qp *qp, struct sk_buff *skb, enum mrc_stamp what)
{
	struct mrc_evset *evs = qp->evs;
	struct mrc_ev *e;
	int i;

	*mrc_skb_av(skb) = qp->av;
	if (!evs)
		return -1;
	/* acknowledgements are small: any plane that is up carries them */
	i = what == MRC_STAMP_ACK ?
		mrc_evset_reverse(evs, READ_ONCE(qp->mdev->planes_up)) :
		mrc_evset_next(evs, mrc_qp_planes(qp));
	if (i < 0)
		i = any_slot(evs);
	e = &evs->ev[i];
	stamp(qp, skb, e);
	if (what == MRC_STAMP_RTX) {
		e->retrans++;
		mrc_plane_count_id(qp->mdev, e->plane, MRC_PCNT_RETRANS, 1);
	}
	return i;
}

/* Address @skb (a probe) to go on EV @i of the QP's set. qp->lock held. */
void mrc_sched_stamp_ev(struct mrc_qp *qp, struct sk_buff *skb, u32 i)
{
	*mrc_skb_av(skb) = qp->av;
	stamp(qp, skb, &qp->evs->ev[i]);
}

static const u8 ev_cause[] = {
	[MRC_EV_SIG_LOSS]	= MRC_EV_CAUSE_LOSS,
	[MRC_EV_SIG_TIMEOUT]	= MRC_EV_CAUSE_LOSS,
	[MRC_EV_SIG_PATH_BAD]	= MRC_EV_CAUSE_LOSS,
	[MRC_EV_SIG_PROBE_OK]	= MRC_EV_CAUSE_PROBE,
	[MRC_EV_SIG_DENY]	= MRC_EV_CAUSE_DENY,
	[MRC_EV_SIG_ALLOW]	= MRC_EV_CAUSE_ALLOW,
};

/**
 * mrc_sched_signal() - tell the QP's EV set what was learned about EV @i
 * @qp: an RC QP with an EV set; qp->lock held
 * @i: index in qp->evs
 * @sig: what happened
 *
 * Counts what changed; a change of health (to or from ASSUMED_BAD or
 * DENIED, not the per-round SKIP) is traced and multicast to the "ev"
 * netlink group. An exact (SRv6) EV retired by a timeout takes the other
 * EVs of its path with it (one level: PATH_BAD does not spread further).
 */
void mrc_sched_signal(struct mrc_qp *qp, u32 i, enum mrc_ev_sig sig)
{
	struct mrc_dev *mdev = qp->mdev;
	struct mrc_ev_change chg;
	struct mrc_ev *e = &qp->evs->ev[i];

	if (!mrc_evset_signal(qp->evs, i, sig, &chg)) {
		if (chg.floor)
			mrc_count(mdev, MRC_CNT_EV_FLOOR, 1);
		return;
	}
	if (sig == MRC_EV_SIG_ECN || sig == MRC_EV_SIG_DROP ||
	    sig == MRC_EV_SIG_TRIM) {
		mrc_count(mdev, MRC_CNT_EV_SKIP, 1);
		return;
	}
	if (chg.new == MRC_EV_STATE_ASSUMED_BAD) {
		/* probe it at the next chance */
		e->probe_wait = false;
		e->probe_us = mrc_now_us();
		e->bad_ns = ktime_get_ns();
		mrc_count(mdev, MRC_CNT_EV_BAD, 1);
	} else if (chg.old == MRC_EV_STATE_ASSUMED_BAD) {
		mrc_count(mdev, MRC_CNT_EV_RECOVERED, 1);
	}
	if (chg.backup >= 0)
		mrc_count(mdev, MRC_CNT_EV_BACKUP, 1);
	trace_mrc_ev_state(mdev, qp->ibqp.qp_num, i, e, &chg, ev_cause[sig]);
	mrc_nl_notify_ev(qp, i, e, &chg, ev_cause[sig]);
	/* a source route that timed out is bad for every EV naming it */
	if (sig == MRC_EV_SIG_TIMEOUT && e->exact &&
	    chg.new == MRC_EV_STATE_ASSUMED_BAD) {
		u32 j;

		for (j = 0; j < qp->evs->n; j++)
			if (j != i && qp->evs->ev[j].path == e->path)
				mrc_sched_signal(qp, j, MRC_EV_SIG_PATH_BAD);
	}
}

/* EV @i of the QP's set, or NULL (no set, or not one of its EVs) */
static struct mrc_ev *ev_at(struct mrc_qp *qp, u32 i)
{
	return qp->evs && i < qp->evs->n ? &qp->evs->ev[i] : NULL;
}

/**
 * mrc_sched_on_ack() - a packet sent once on EV @i arrived
 * @qp: an RC QP; qp->lock held
 * @i: its EV's index
 * @seq: its send order (struct mrc_req's tx_seq)
 * @sent_us: its send time
 *
 * The EV learns that everything sent on it before is due: the base of the
 * loss rules in mrc_loss.c. A resent packet's arrival says nothing (Karn):
 * crediting the resend's EV would make every packet queued on it before
 * the resend look dropped, and their resends would do the same to others.
 */
void mrc_sched_on_ack(struct mrc_qp *qp, u32 i, u32 seq, u32 sent_us)
{
	struct mrc_ev *e = ev_at(qp, i);

	if (!e)
		return;
	mrc_ev_delivered(e, seq);
	if (!e->delivered || (s32)(seq - e->deliv_seq) > 0) {
		e->delivered = true;
		e->deliv_seq = seq;
		e->deliv_us = sent_us;
	}
}

/*
 * An RTT sample of a packet sent on EV @i (mrc_loss_rtt_sample()): the
 * EV's own RTT judges packets on paths that deliver nothing. It shows the
 * EV reaches the peer: the reverse set takes it.
 */
void mrc_sched_on_rtt(struct mrc_qp *qp, u32 i, u32 rtt_us)
{
	struct mrc_ev *e = ev_at(qp, i);

	if (!e)
		return;
	e->srtt_us = e->srtt_us ? (7 * e->srtt_us + rtt_us) / 8 : rtt_us;
	mrc_evset_rev_adopt(qp->evs, i);
}

/**
 * mrc_sched_on_loss() - the packet sent @seq-th, on EV @i, was lost
 * @qp: an RC QP; qp->lock held
 * @i: its EV's index
 * @seq: its send order
 * @sig: what that means for the EV's health, or < 0: nothing (a NAK, a
 *	READ answered over the peer's paths); the EV and plane count it
 */
void mrc_sched_on_loss(struct mrc_qp *qp, u32 i, u32 seq, int sig)
{
	struct mrc_ev *e = ev_at(qp, i);

	if (!e)
		return;
	e->losses++;
	mrc_plane_count_id(qp->mdev, e->plane, MRC_PCNT_LOSSES, 1);
	if (sig < 0)
		return;
	mrc_ev_lost(e, seq);
	mrc_sched_signal(qp, i, sig);
}

/* The forward path of EV @i is ECN-marked: it skips the rest of its round */
void mrc_sched_on_ecn(struct mrc_qp *qp, u32 i)
{
	struct mrc_ev *e = ev_at(qp, i);

	if (!e)
		return;
	e->ecn++;
	mrc_sched_signal(qp, i, MRC_EV_SIG_ECN);
}

/*
 * A trim NACK for a packet sent on EV @i: its path is congested in the
 * fabric, a queue there full, not just marking: it sits out
 * MRC_EV_PENALTY_TRIM rounds. One cut at the last hop, on the link into
 * the receiver that every path shares, says nothing of the path.
 */
void mrc_sched_on_trim(struct mrc_qp *qp, u32 i, bool lasthop)
{
	struct mrc_ev *e = ev_at(qp, i);

	if (!e)
		return;
	e->trims++;
	if (!lasthop)
		mrc_sched_signal(qp, i, MRC_EV_SIG_TRIM);
}

/*
 * The probe sent on @e was answered: for every EV of its path if it is
 * exact (one probe tests a source route for all of them, see
 * mrc_evset_probes()), else for @e alone; never for an ASSUMED_BAD EV
 * that went bad after the probe left (mrc_ev_probe_after_bad()).
 */
static void probe_answered(struct mrc_qp *qp, struct mrc_ev *e)
{
	struct mrc_evset *evs = qp->evs;
	u32 i;

	for (i = 0; i < evs->n; i++) {
		struct mrc_ev *o = &evs->ev[i];

		if (o != e && !(e->exact && o->exact && o->path == e->path &&
				o->state == MRC_EV_STATE_ASSUMED_BAD))
			continue;
		if (o->state == MRC_EV_STATE_ASSUMED_BAD &&
		    !mrc_ev_probe_after_bad(e, o))
			continue;
		o->probe_wait = false;
		mrc_sched_signal(qp, i, MRC_EV_SIG_PROBE_OK);
	}
}

/* The reverse-set probe on EV @i was answered: an RTT sample */
static void rev_probe_answered(struct mrc_qp *qp, u32 i)
{
	struct mrc_req *r = &qp->req;
	u32 rtt = now_us() - r->rev_probe_us;

	mrc_evset_rev_adopt(qp->evs, i);
	if (r->rev_probe_ev != (int)i)
		return;
	r->rev_probe_ev = -1;
	r->rev_backoff = 0;
	r->rev_rtt_us = r->rev_rtt_us ? (7 * r->rev_rtt_us + rtt) / 8 : rtt;
}

/*
 * What a SACK says of the peer's planes and of the EV it names. Returns
 * the peer's planes it newly says are down: what is out towards them is
 * lost (mrc_loss_planes_down(), once the SACK's acknowledgments count).
 */
u16 mrc_sched_on_sack(struct mrc_qp *qp, const struct mrc_sack *s)
{
	u16 was, down = 0;
	struct mrc_ev *e;

	if (!qp->evs)
		return 0;
	was = qp->evs->peer_up;
	if (mrc_evset_peer_status(qp->evs, s->port_status, s->cack_psn)) {
		mrc_count(qp->mdev, MRC_CNT_PEER_PLANES, 1);
		down = was & ~qp->evs->peer_up;
	}
	e = mrc_evset_find(qp->evs, s->entropy);
	if (!e)
		return down;
	/* a probe on the EV came through: its path works (again) */
	if (s->probe_resp) {
		probe_answered(qp, e);
		rev_probe_answered(qp, e - qp->evs->ev);
	}
	if (s->mode == MRC_SACK_M_SKIP_ONCE)
		mrc_sched_on_ecn(qp, e - qp->evs->ev);
	return down;
}
