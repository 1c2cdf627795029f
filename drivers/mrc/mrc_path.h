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
 * An RC QP that connects to a node with a path set gets an EV set over it
 * (mrc_ev.h).
 */
#ifndef _MRC_PATH_H
#define _MRC_PATH_H

#include <linux/in6.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <net/dst_cache.h>
#include <uapi/linux/mrc.h>

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

int mrc_path_cfg_check(const struct mrc_path_cfg *cfg, const char **why);
struct mrc_pathset *mrc_pathset_add(const struct mrc_pathset *old,
				    const struct in6_addr *peer,
				    const struct mrc_path_cfg *cfg,
				    const char **why);
struct mrc_pathset *mrc_pathset_del(const struct mrc_pathset *old,
				    const struct mrc_path_cfg *cfg,
				    unsigned int match, unsigned int *ndel);
struct mrc_pathset *mrc_pathset_make(const struct in6_addr *peer,
				     const struct mrc_path_cfg *cfg, u32 n);
void mrc_pathset_put(struct mrc_pathset *ps);

/* what mrc_pathset_del() compares: the plane, and the usid or remote */
#define MRC_PATH_MATCH_PLANE	BIT(0)
#define MRC_PATH_MATCH_USID	BIT(1)
#define MRC_PATH_MATCH_REMOTE	BIT(2)
#define MRC_PATH_MATCH_SEGS	BIT(3)

#endif /* _MRC_PATH_H */
