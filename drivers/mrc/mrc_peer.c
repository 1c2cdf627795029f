// SPDX-License-Identifier: GPL-2.0
/*
 * The path sets of a device, by remote node.
 *
 * Locking: writers hold mdev->cfg_lock and replace a peer's snapshot as a
 * whole (list_replace_rcu), so a reader under RCU sees either the old or
 * the new set, never a half-changed one. The device's list holds one
 * reference on each snapshot; each QP connected with it holds another.
 */
#include <linux/rculist.h>

#include "mrc.h"

static struct mrc_pathset *find_locked(struct mrc_dev *mdev,
				       const struct in6_addr *peer)
{
	struct mrc_pathset *ps;

	list_for_each_entry(ps, &mdev->peers, list)
		if (ipv6_addr_equal(&ps->peer, peer))
			return ps;
	return NULL;
}

/**
 * mrc_peer_get() - the current path set to @peer, referenced
 * @mdev: the device
 * @peer: remote node address
 *
 * Return: the snapshot (mrc_pathset_put() it), or NULL when the device has
 * no paths to @peer.
 */
struct mrc_pathset *mrc_peer_get(struct mrc_dev *mdev,
				 const struct in6_addr *peer)
{
	struct mrc_pathset *ps, *found = NULL;

	rcu_read_lock();
	list_for_each_entry_rcu(ps, &mdev->peers, list)
		if (ipv6_addr_equal(&ps->peer, peer)) {
			if (kref_get_unless_zero(&ps->ref))
				found = ps;
			break;
		}
	rcu_read_unlock();
	return found;
}

/* is @addr the peer's end of a UDP path of @ps? */
bool mrc_pathset_udp_end(const struct mrc_pathset *ps,
			 const struct in6_addr *addr)
{
	u32 i;

	for (i = 0; i < ps->npaths; i++) {
		const struct mrc_path_cfg *cfg = &ps->paths[i]->cfg;

		if (cfg->mode == MRC_PATH_MODE_UDP &&
		    ipv6_addr_equal(addr, mrc_path_cfg_daddr(cfg)))
			return true;
	}
	return false;
}

/* is @addr @peer's end of one of the device's UDP paths to it? */
bool mrc_peer_udp_end(struct mrc_dev *mdev, const struct in6_addr *peer,
		      const struct in6_addr *addr)
{
	struct mrc_pathset *ps;
	bool found = false;

	rcu_read_lock();
	list_for_each_entry_rcu(ps, &mdev->peers, list)
		if (ipv6_addr_equal(&ps->peer, peer)) {
			found = mrc_pathset_udp_end(ps, addr);
			break;
		}
	rcu_read_unlock();
	return found;
}

static bool node_address(const struct in6_addr *a)
{
	int t = ipv6_addr_type(a);

	return (t & IPV6_ADDR_UNICAST) &&
	       !(t & (IPV6_ADDR_LOOPBACK | IPV6_ADDR_MAPPED | IPV6_ADDR_LINKLOCAL));
}

/**
 * mrc_peer_add() - add a path to the path set of @peer
 * @mdev: the device
 * @peer: remote node address (an IPv6 GID)
 * @cfg: the path
 * @extack: for the reason of a refusal
 *
 * QPs already connected keep the snapshot they connected with; QPs
 * connecting afterwards use the new one.
 *
 * Return: 0, -EINVAL, -EEXIST, -E2BIG, -ENOMEM.
 */
int mrc_peer_add(struct mrc_dev *mdev, const struct in6_addr *peer,
		 const struct mrc_path_cfg *cfg, struct netlink_ext_ack *extack)
{
	struct mrc_pathset *old, *ps;
	const char *why;
	int err;

	if (!node_address(peer)) {
		NL_SET_ERR_MSG(extack, "peer must be a global unicast IPv6 node address");
		return -EINVAL;
	}
	err = mrc_path_cfg_check(cfg, &why);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return err;
	}
	mutex_lock(&mdev->cfg_lock);
	old = find_locked(mdev, peer);
	ps = mrc_pathset_add(old, peer, cfg, &why);
	if (IS_ERR(ps)) {
		mutex_unlock(&mdev->cfg_lock);
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return PTR_ERR(ps);
	}
	if (old) {
		list_replace_rcu(&old->list, &ps->list);
		mrc_pathset_put(old);
	} else {
		list_add_tail_rcu(&ps->list, &mdev->peers);
	}
	mutex_unlock(&mdev->cfg_lock);
	mrc_nl_notify_path(mdev, peer);
	return 0;
}

/**
 * mrc_peer_del() - remove the paths of @peer that @cfg matches
 * @mdev: the device
 * @peer: remote node address
 * @cfg: what to match
 * @match: MRC_PATH_MATCH_* (none: the whole path set)
 * @extack: for the reason of a refusal
 *
 * Return: 0, -ENOENT (no such peer or path), -ENOMEM.
 */
int mrc_peer_del(struct mrc_dev *mdev, const struct in6_addr *peer,
		 const struct mrc_path_cfg *cfg, unsigned int match,
		 struct netlink_ext_ack *extack)
{
	struct mrc_pathset *old, *ps;
	unsigned int n;

	mutex_lock(&mdev->cfg_lock);
	old = find_locked(mdev, peer);
	if (!old) {
		mutex_unlock(&mdev->cfg_lock);
		NL_SET_ERR_MSG(extack, "no path set for this peer");
		return -ENOENT;
	}
	ps = mrc_pathset_del(old, cfg, match, &n);
	if (IS_ERR(ps) || !n) {
		mutex_unlock(&mdev->cfg_lock);
		if (IS_ERR(ps))
			return PTR_ERR(ps);
		NL_SET_ERR_MSG(extack, "the peer has no such path");
		return -ENOENT;
	}
	if (ps->npaths) {
		list_replace_rcu(&old->list, &ps->list);
	} else {
		list_del_rcu(&old->list);
		mrc_pathset_put(ps);
	}
	mrc_pathset_put(old);
	mutex_unlock(&mdev->cfg_lock);
	mrc_nl_notify_path(mdev, peer);
	return 0;
}

/* The device goes away: drop its references on every path set. */
void mrc_peer_flush(struct mrc_dev *mdev)
{
	struct mrc_pathset *ps, *tmp;

	mutex_lock(&mdev->cfg_lock);
	list_for_each_entry_safe(ps, tmp, &mdev->peers, list) {
		list_del_rcu(&ps->list);
		mrc_pathset_put(ps);
	}
	mutex_unlock(&mdev->cfg_lock);
}
