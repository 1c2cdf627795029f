/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EV sets: the entropy values of one RC QP, how it sprays over them, and
 * their health (MRC 1.0 section 5).
 *
 * An RC QP that connects to a node with a path set gets N rotation slots
 * (the device's EV count) split equally across the planes of the set, each
 * holding one EV that names one path, and up to as many backup EVs on
 * standby. The sender walks a random permutation of the slots, reshuffled
 * every round, so every slot (and so every plane) carries the same number
 * of packets per round, and no two QPs walk their paths in step. The
 * permutation stripes the planes: any run of as many packets as there are
 * planes (aligned in the round) takes one slot of each.
 *
 * Only GOOD EVs carry packets. A forward ECN mark makes an EV SKIP for the
 * rest of the round, and so does a drop that later packets on the same EV
 * overtook: the path works, and a trimming fabric would have trimmed the
 * packet (MRC 1.0 reads a trim as congestion). A trim NACK (not at the
 * last hop) is the stronger word: SKIP for MRC_EV_PENALTY_TRIM rounds. The
 * EV's penalty is the rounds it still sits out; a new signal never
 * shortens it and never adds to it (many packets report one congestion).
 * A second loss on an EV that delivers nothing (no packet on it delivered
 * in between) makes it
 * ASSUMED_BAD (MRC 1.0 retires an EV at its first real loss, where switches
 * trim instead of dropping for congestion; without trimming one congestion
 * drop must not retire a path, a dead path loses every packet), and so
 * does a retransmission timeout that finds packets
 * missing on its path only, which in SRv6 modes, where an EV names its
 * path exactly, takes the other EVs of that path too. A backup of the
 * same plane on another path (one that lost nothing, if there is one; not
 * one on an exact path that is down) takes its slot, so the plane keeps its
 * share; without one the slot stays empty, unless that would leave fewer
 * usable slots than the floor (min_active).
 * ASSUMED_BAD EVs are probed; after MRC_EV_PROBES_GOOD answered probes in
 * a row an EV is GOOD again, back in an empty slot of its plane or on
 * standby. DENIED is the operator's, never changed by the transport.
 *
 * ACKs, SACKs and NAKs take the reverse EV set: per plane, the last EV
 * shown to reach the peer (mrc_evset_reverse()).
 */
#ifndef _MRC_EV_H
#define _MRC_EV_H

#include <linux/bits.h>
#include <linux/prandom.h>
#include <linux/types.h>
#include <uapi/linux/mrc.h>

#include "mrc_path.h"
#include "mrc_profile.h"

/*
 * The 32-bit EV mrc generates (MRC "EXPLICIT" entropy):
 *   31:30  0b11 (UDP source port in the dynamic range 0xc000-0xffff)
 *   29:26  local plane
 *   25:18  path: index in the peer's path set
 *   17:8   random, per QP
 *    7:0   index of the EV in the QP's EV set
 * On the wire: UDP source port = EV[31:16], flow label = EV[15:0].
 */
#define MRC_EV_FIXED		0xc0000000u
#define MRC_EV_PLANE_SHIFT	26
#define MRC_EV_PATH_SHIFT	18
#define MRC_EV_SALT_MASK	0x3ff00u

static inline u32 mrc_ev_make(u8 plane, u8 path, u32 salt, u8 idx)
{
	return MRC_EV_FIXED | (u32)(plane & 0xf) << MRC_EV_PLANE_SHIFT |
	       (u32)path << MRC_EV_PATH_SHIFT | (salt & MRC_EV_SALT_MASK) | idx;
}

static inline u8 mrc_ev_plane(u32 ev) { return (ev >> MRC_EV_PLANE_SHIFT) & 0xf; }
static inline u8 mrc_ev_path(u32 ev) { return (ev >> MRC_EV_PATH_SHIFT) & 0xff; }
static inline u8 mrc_ev_index(u32 ev) { return ev & 0xff; }
static inline u16 mrc_ev_sport(u32 ev) { return ev >> 16; }
static inline u32 mrc_ev_flow(u32 ev) { return ev & 0xffff; }

/* rounds an EV sits out (SKIP) for an ECN mark or a drop, and for a trim */
#define MRC_EV_PENALTY_ECN	1
#define MRC_EV_PENALTY_TRIM	4

/* answered probes in a row that bring an ASSUMED_BAD EV back */
#define MRC_EV_PROBES_GOOD	3
/* losses in a row (nothing delivered in between) that retire an EV */
#define MRC_EV_LOSS_RUN		2
/* an EV whose probes go unanswered is probed up to 2^this times less often */
#define MRC_EV_PROBE_BACKOFF_MAX	6
#define MRC_EV_PROBE_WAIT_MAX_US	250000	/* backoff stops here (or at 2 RTT) */

/**
 * struct mrc_ev - one entropy value of a QP
 * @value: the EV on the wire
 * @plane: its plane
 * @path: index of its path in the path set
 * @state: enum mrc_ev_state
 * @slot: its rotation slot, or -1 (a backup on standby, or retired)
 * @probes_ok: probes answered in a row since it went ASSUMED_BAD
 * @probe_wait: the last probe sent on it is not answered yet
 * @probe_backoff: probes unanswered in a row (capped): the wait between
 *	probes doubles with each, up to MRC_EV_PROBE_WAIT_MAX_US
 * @loss_run: losses on it since a packet sent on it after the last of
 *	them was delivered (one sent before, held in a deep queue, proves
 *	nothing of the path now)
 * @loss_seq: send order of the newest packet on it found lost (with
 *	@loss_run)
 * @exact: it names its path exactly (a source route, SRv6); a UDP/ECMP EV
 *	only feeds the switches' hashes
 * @entry: the place of its EV profile's EV array it is made of, or
 *	MRC_EV_NO_ENTRY
 * @delivered: @deliv_seq and @deliv_us are valid
 * @deliv_seq: send order of the newest packet on it known to have arrived
 * @deliv_us: its send time
 * @srtt_us: smoothed RTT of packets sent on it (0: no sample yet)
 * @probe_us: when it is probed next (ASSUMED_BAD)
 * @probe_tx_ns: when its last probe went out (ktime_get_ns())
 * @bad_ns: when it last went ASSUMED_BAD (ktime_get_ns())
 * @tx_pkts: packets sent on it
 * @tx_bytes: their bytes
 * @retrans: retransmissions sent on it
 * @losses: packets sent on it that were found lost
 * @ecn: ECN marks reported for it
 * @probes: probes sent on it
 *
 * A path delivers (nearly) in order, so a packet sent on an EV well before
 * one that arrived on it, and not acknowledged itself, is lost; so is one
 * overdue by twice the EV's own RTT, which catches a path that delivers
 * nothing at all. Reordering between paths fools neither rule.
 */
struct mrc_ev {
	u32 value;
	u8 plane;
	u8 path;
	u8 state;
	u8 probes_ok;
	s16 slot;
	bool probe_wait;
	u8 probe_backoff;
	u8 loss_run;
	u8 penalty;		/* rounds still to sit out (SKIP) */
	bool exact;
	u16 entry;
	bool delivered;
	u32 deliv_seq;
	u32 deliv_us;
	u32 loss_seq;
	u32 srtt_us;
	u32 probe_us;
	u64 probe_tx_ns;
	u64 bad_ns;
	u64 tx_pkts;
	u64 tx_bytes;
	u64 retrans;
	u64 losses;
	u64 ecn;
	u64 trims;
	u64 probes;
};

/**
 * struct mrc_evset - the EV set of one RC QP (under qp->lock)
 * @n: EVs in @ev: the first @nslots fill the slots at first, the rest are
 *	backups
 * @nslots: rotation slots
 * @per: slots per plane (slot s is of the (s / @per)-th plane of the set)
 * @cursor: next position in @order
 * @min_active: slots that must stay usable (GOOD or SKIP)
 * @nbad: ASSUMED_BAD EVs (to probe)
 * @probe_cursor: where the next scan for EVs to probe starts
 * @rnd: the QP's own generator for reshuffles
 * @rev_cursor: the plane the next reverse packet tries first
 * @rev_probe: the plane probed next for the reverse set
 * @rev: the reverse EV set: per plane, the EV that ACKs, SACKs and NAKs
 *	take (-1: none); it is the last EV of the plane proven to reach the
 *	peer (a fresh data packet on it acknowledged, or a probe answered)
 * @order: permutation of the slots, the order of the current round
 * @slot: the EV in each slot
 * @ev: the EVs
 */
struct mrc_evset {
	u16 n;
	u16 nslots;
	u16 per;
	u16 cursor;
	u16 min_active;
	u16 nbad;
	u16 probe_cursor;
	u16 peer_up;
	bool fixed;		/* some values are a profile's (find searches) */
	bool peer_heard;	/* a SACK gave peer_up ... */
	u32 peer_cack;		/* ... with this cumulative ack */
	u8 rev_cursor;
	u8 rev_probe;
	s16 rev[MRC_MAX_PLANES];
	struct rnd_state rnd;
	u8 order[MRC_MAX_EVS];
	u8 slot[MRC_MAX_EVS];
	struct mrc_ev ev[] __counted_by(n);
};

/* what the transport or the operator learned about one EV */
enum mrc_ev_sig {
	MRC_EV_SIG_ECN,		/* its forward path is ECN-marked */
	MRC_EV_SIG_DROP,	/* one was lost, later ones on it arrived */
	MRC_EV_SIG_LOSS,	/* one was lost, and it delivers nothing */
	MRC_EV_SIG_TIMEOUT,	/* one was not acknowledged within the RTO */
	MRC_EV_SIG_PATH_BAD,	/* another EV on its (exact) path timed out */
	MRC_EV_SIG_PROBE_OK,	/* a probe sent on it was answered */
	MRC_EV_SIG_PROBE_LOST,	/* a probe sent on it was not answered */
	MRC_EV_SIG_DENY,	/* the operator denies it */
	MRC_EV_SIG_ALLOW,	/* the operator allows it again */
	MRC_EV_SIG_TRIM,	/* a packet on it was trimmed in the fabric */
};

/**
 * struct mrc_ev_change - what mrc_evset_signal() did
 * @old: the state before
 * @new: the state after
 * @backup: the EV that took its slot, or -1
 * @floor: a loss left it GOOD: no backup, and the floor of usable slots
 */
struct mrc_ev_change {
	u8 old;
	u8 new;
	s16 backup;
	bool floor;
};

#define MRC_EV_NO_ENTRY		U16_MAX

/* an EV an EV profile offers a QP (mrc_evset_build_list()) */
struct mrc_ev_cand {
	u8 plane;
	u8 path;		/* in the QP's path set */
	u16 entry;		/* the profile's place */
	u32 value;		/* the value on the wire, when @fixed */
	bool fixed;
	bool denied;
};

struct mrc_evset *mrc_evset_build(const struct mrc_pathset *ps, u32 n,
				  u32 seed, gfp_t gfp);
struct mrc_evset *mrc_evset_build_list(const struct mrc_pathset *ps,
				       const struct mrc_ev_cand *c, u32 nc,
				       u32 seed, gfp_t gfp);
void mrc_evset_free(struct mrc_evset *evs);
int mrc_evset_next(struct mrc_evset *evs, u16 planes_up);
bool mrc_evset_peer_planes(struct mrc_evset *evs, u16 up);
bool mrc_evset_peer_status(struct mrc_evset *evs, u16 up, u32 cack);
u32 mrc_evset_usable(const struct mrc_evset *evs);
bool mrc_evset_signal(struct mrc_evset *evs, u32 i, enum mrc_ev_sig sig,
		      struct mrc_ev_change *chg);
u32 mrc_evset_probes(struct mrc_evset *evs, u32 now, u32 gap_us,
		     u16 planes_up, u8 *out, u32 max);
int mrc_evset_reverse(struct mrc_evset *evs, u16 planes_up);
void mrc_evset_rev_adopt(struct mrc_evset *evs, u32 i);
int mrc_evset_rev_candidate(struct mrc_evset *evs, u16 planes_up);

/* the packet sent @seq-th on @e was found lost (before its signal) */
static inline void mrc_ev_lost(struct mrc_ev *e, u32 seq)
{
	if (!e->loss_run || (s32)(seq - e->loss_seq) > 0)
		e->loss_seq = seq;
}

/* the packet sent @seq-th on @e arrived */
static inline void mrc_ev_delivered(struct mrc_ev *e, u32 seq)
{
	if ((s32)(seq - e->loss_seq) > 0)
		e->loss_run = 0;
}

/*
 * Whether the answer to the last probe on @probed tells anything of @e's
 * path now: only if that probe went out after @e went ASSUMED_BAD. One
 * sent before (queued behind data for hundreds of ms under load) left
 * before the fault, and would bring back EVs of a path that is dead.
 */
static inline bool mrc_ev_probe_after_bad(const struct mrc_ev *probed,
					  const struct mrc_ev *e)
{
	return probed->probe_tx_ns >= e->bad_ns;
}

/*
 * The EV @value names in @evs, or NULL (not one of its EVs). mrc's own
 * values carry their index; a profile's are searched (a set has no two
 * alike: mrc_ev_profile_connect()).
 */
static inline struct mrc_ev *mrc_evset_find(struct mrc_evset *evs, u32 value)
{
	u32 i = mrc_ev_index(value);

	if (!evs)
		return NULL;
	if (i < evs->n && evs->ev[i].value == value)
		return &evs->ev[i];
	if (!evs->fixed)
		return NULL;
	for (i = 0; i < evs->n; i++)
		if (evs->ev[i].value == value)
			return &evs->ev[i];
	return NULL;
}

#include "mrc_ev_profile.h"

#endif /* _MRC_EV_H */
