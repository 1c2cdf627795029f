/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path sets and entropy values (EVs): where the packets of a QP go.
 *
 * A device keeps, for every remote node it was told about (its node
 * address, the GID its QPs use), a path set: paths grouped by local plane,
 * each either a uSID container (SRv6 mode, IPv6-in-IPv6) or the peer's
 * plane address (UDP/ECMP mode). Path sets are immutable snapshots,
 * replaced as a whole (copy on write) when the operator changes them, and
 * referenced by the QPs connected with them.
 *
 * An RC QP that connects to a node with a path set gets an EV set: N EVs
 * split equally across the planes of the set, each naming one path. The
 * sender walks a random permutation of the set, reshuffled every round, so
 * every EV (and so every plane) carries the same number of packets per
 * round, and no two QPs walk their paths in step.
 */
#ifndef _MRC_PATH_H
#define _MRC_PATH_H

#include <linux/in6.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/prandom.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <net/dst_cache.h>
#include <uapi/linux/mrc.h>

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

/*
 * Segments of an explicit SRH path: enough for a 3-tier Clos (T0, T1, T2,
 * T1, T0, host), and small enough that the worst-case header stack still
 * leaves a 1024-byte IB MTU on a 1280-byte IPv6 link (mrc_wire.h).
 */
#define MRC_PATH_MAX_SEGS	6

/**
 * struct mrc_path_cfg - a path as the operator gives it
 * @plane: local plane it leaves on
 * @mode: enum mrc_path_mode
 * @lblen: uSID locator-block length (bits)
 * @nflen: uSID length (bits)
 * @nsegs: srh mode: entries in @segs
 * @remote: the peer's address on this plane; :: when not given
 * @usid: usid mode: the uSID container (outer destination)
 * @segs: srh mode: the segment list, first segment (outer destination)
 *	first
 */
struct mrc_path_cfg {
	u8 plane;
	u8 mode;
	u8 lblen;
	u8 nflen;
	u8 nsegs;
	struct in6_addr remote;
	struct in6_addr usid;
	struct in6_addr segs[MRC_PATH_MAX_SEGS];
};

/* The outer destination of a path */
static inline const struct in6_addr *
mrc_path_cfg_daddr(const struct mrc_path_cfg *cfg)
{
	switch (cfg->mode) {
	case MRC_PATH_MODE_USID:
		return &cfg->usid;
	case MRC_PATH_MODE_SRH:
		return &cfg->segs[0];
	default:
		return &cfg->remote;
	}
}

/**
 * struct mrc_path - one path to a peer
 * @ref: the snapshots that list it
 * @cfg: where it goes
 * @dc: route cache (outer destination, through the plane's netdev)
 * @tx_pkts: packets sent on the path
 * @tx_bytes: their bytes
 *
 * A path outlives the snapshots that list it: a change of the set makes a
 * new array of the same paths, so routes and counters stay.
 */
struct mrc_path {
	struct kref ref;
	struct mrc_path_cfg cfg;
	struct dst_cache dc;
	atomic64_t tx_pkts;
	atomic64_t tx_bytes;
};

/**
 * struct mrc_pathset - the paths to one remote node (immutable snapshot)
 * @list: entry in the device's list (RCU; writers hold mdev->cfg_lock)
 * @rcu: frees the snapshot after readers are gone
 * @ref: QPs using it, plus one while it is the device's current snapshot
 * @peer: the remote node address
 * @npaths: entries in @paths, sorted by plane (stable)
 * @paths: the paths
 */
struct mrc_pathset {
	struct list_head list;
	struct rcu_head rcu;
	struct kref ref;
	struct in6_addr peer;
	u32 npaths;
	struct mrc_path *paths[] __counted_by(npaths);
};

/**
 * struct mrc_ev - one entropy value of a QP
 * @value: the EV on the wire
 * @plane: its plane
 * @path: index of its path in the path set
 * @state: enum mrc_ev_state
 * @tx_pkts: packets sent on it
 * @tx_bytes: their bytes
 * @retrans: retransmissions sent on it
 * @losses: packets sent on it that were found lost
 * @ecn: ECN marks reported for it
 * @delivered: @deliv_seq and @deliv_us are valid
 * @deliv_seq: send order of the newest packet on it known to have arrived
 * @deliv_us: its send time
 *
 * A path delivers (nearly) in order, so a packet sent on an EV well before
 * one that arrived on it, and not acknowledged itself, is lost: the
 * requester's loss rule for multipath QPs, which reordering between paths
 * does not fool.
 */
struct mrc_ev {
	u32 value;
	u8 plane;
	u8 path;
	u8 state;
	bool delivered;
	u32 deliv_seq;
	u32 deliv_us;
	u64 tx_pkts;
	u64 tx_bytes;
	u64 retrans;
	u64 losses;
	u64 ecn;
};

/**
 * struct mrc_evset - the EV set of one RC QP (under qp->lock)
 * @n: EVs in @ev
 * @cursor: next position in @order
 * @rnd: the QP's own generator for reshuffles
 * @order: permutation of 0..n-1, the order of the current round
 * @ev: the EVs
 */
struct mrc_evset {
	u16 n;
	u16 cursor;
	struct rnd_state rnd;
	u8 order[MRC_MAX_EVS];
	struct mrc_ev ev[] __counted_by(n);
};

int mrc_path_cfg_check(const struct mrc_path_cfg *cfg, const char **why);
struct mrc_pathset *mrc_pathset_add(const struct mrc_pathset *old,
				    const struct in6_addr *peer,
				    const struct mrc_path_cfg *cfg,
				    const char **why);
struct mrc_pathset *mrc_pathset_del(const struct mrc_pathset *old,
				    const struct mrc_path_cfg *cfg,
				    unsigned int match, unsigned int *ndel);
void mrc_pathset_put(struct mrc_pathset *ps);

/* what mrc_pathset_del() compares: the plane, and the usid or remote */
#define MRC_PATH_MATCH_PLANE	BIT(0)
#define MRC_PATH_MATCH_USID	BIT(1)
#define MRC_PATH_MATCH_REMOTE	BIT(2)
#define MRC_PATH_MATCH_SEGS	BIT(3)

struct mrc_evset *mrc_evset_build(const struct mrc_pathset *ps, u32 n,
				  u32 seed, gfp_t gfp);
int mrc_evset_next(struct mrc_evset *evs, u16 planes_up);

#endif /* _MRC_PATH_H */
