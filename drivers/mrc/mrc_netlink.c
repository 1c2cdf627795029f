// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" generic netlink family (Documentation/netlink/specs/mrc.yaml):
 * request handlers. Policies and the ops table are generated into
 * mrc_nl_gen.c by tools/ynl-regen.sh.
 *
 * The family is per network namespace: a device is visible in the namespace
 * of its plane-0 netdev. Changes and the per-QP view (ev-get) are for that
 * namespace's administrator: ns_admin() checks CAP_NET_ADMIN in the user
 * namespace owning it (a container's root runs its own devices), with an
 * extack message the ops table's GENL_UNS_ADMIN_PERM could not give.
 */
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <linux/rtnetlink.h>

#include "mrc.h"
#include "mrc_nl_gen.h"

static u32 count_planes(struct mrc_dev *mdev)
{
	u32 i, n = 0;

	rcu_read_lock();
	for (i = 0; i < MRC_MAX_PLANES; i++)
		n += !!rcu_access_pointer(mdev->planes[i]);
	rcu_read_unlock();
	return n;
}

static int fill_dev(struct sk_buff *skb, struct mrc_dev *mdev,
		    const struct genl_info *info)
{
	struct net_device *ndev;
	void *hdr;

	hdr = genlmsg_iput(skb, info);
	if (!hdr)
		return -EMSGSIZE;
	ndev = mrc_dev_netdev_get(mdev);
	if (nla_put_u32(skb, MRC_A_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    (ndev && nla_put_u32(skb, MRC_A_DEV_NETDEV_IFINDEX, ndev->ifindex)) ||
	    nla_put_uint(skb, MRC_A_DEV_NODE_GUID,
			 be64_to_cpu(mdev->ib_dev.node_guid)) ||
	    nla_put_u32(skb, MRC_A_DEV_PORT_STATE,
			mrc_verbs_port_state(ndev) == IB_PORT_ACTIVE ?
			MRC_PORT_STATE_ACTIVE : MRC_PORT_STATE_DOWN) ||
	    nla_put_u32(skb, MRC_A_DEV_EV_COUNT, READ_ONCE(mdev->ev_count)) ||
	    nla_put_u32(skb, MRC_A_DEV_PLANES, count_planes(mdev)) ||
	    nla_put_u32(skb, MRC_A_DEV_TRIM_DSCP, READ_ONCE(mdev->trim_dscp)) ||
	    nla_put_u32(skb, MRC_A_DEV_TRIM_LASTHOP_DSCP,
			READ_ONCE(mdev->trim_lasthop_dscp)) ||
	    mrc_nl_ep_put_counters(skb, mdev) ||
	    nla_put_u32(skb, MRC_A_DEV_QPS, atomic_read(&mdev->num_qp)) ||
	    nla_put_uint(skb, MRC_A_DEV_QP_MEM,
			 max_t(s64, atomic64_read(&mdev->qp_mem), 0))) {
		dev_put(ndev);
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	dev_put(ndev);
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * mrc_nl_get_one() - answer a get request for one device
 * @info: the request
 * @ia: its attribute naming the device by index
 * @na: by name
 * @fill: puts the device's object in a message
 *
 * Return: 0 with the reply sent, or an error (with an extack message).
 */
int mrc_nl_get_one(struct genl_info *info, int ia, int na, mrc_nl_fill_t fill)
{
	return mrc_nl_get_one_sized(info, ia, na, NLMSG_DEFAULT_SIZE, fill);
}

/* mrc_nl_get_one(), for a reply of up to @size bytes */
int mrc_nl_get_one_sized(struct genl_info *info, int ia, int na, size_t size,
			 mrc_nl_fill_t fill)
{
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	int err;

	mdev = mrc_nl_info_dev(info, ia, na);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	err = fill(msg, mdev, info);
	if (err) {
		nlmsg_free(msg);
		goto out;
	}
	err = genlmsg_reply(msg, info);
out:
	ib_device_put(&mdev->ib_dev);
	return err;
}

/**
 * mrc_nl_get_all() - one round of a dump of every device's object
 * @skb: the round's message
 * @cb: the dump; cb->ctx holds the lowest device index not sent yet
 * @fill: puts one device's object in @skb
 *
 * Return: @skb's length while more may follow, 0 at the end, or an error.
 */
int mrc_nl_get_all(struct sk_buff *skb, struct netlink_callback *cb,
		   mrc_nl_fill_t fill)
{
	const struct genl_info *info = genl_info_dump(cb);
	u32 *pos = (u32 *)cb->ctx;
	struct mrc_dev *mdev;
	int err = 0;

	while ((mdev = mrc_dev_next(sock_net(skb->sk), *pos))) {
		err = fill(skb, mdev, info);
		if (!err)
			*pos = mdev->ib_dev.index + 1;
		ib_device_put(&mdev->ib_dev);
		if (err)
			break;
	}
	/* a full skb ends this round; the dump resumes after *pos */
	return err == -EMSGSIZE && skb->len ? skb->len : err;
}

int mrc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_get_one(info, MRC_A_DEV_INDEX, MRC_A_DEV_NAME, fill_dev);
}

int mrc_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_get_all(skb, cb, fill_dev);
}

/*
 * The device a request names by index or name (attributes @ia and @na of
 * its set), in the caller's namespace, referenced (ib_device_put() it).
 */
static struct mrc_dev *req_dev(struct net *net, struct nlattr **attrs,
			       int ia, int na, struct netlink_ext_ack *extack)
{
	struct mrc_dev *mdev;
	u32 idx;

	if (!attrs[ia] && !attrs[na]) {
		NL_SET_ERR_MSG(extack, "device index or name required");
		return ERR_PTR(-EINVAL);
	}
	if (attrs[ia])
		idx = nla_get_u32(attrs[ia]);
	mdev = mrc_dev_find(net, attrs[ia] ? &idx : NULL,
			    attrs[na] ? nla_data(attrs[na]) : NULL);
	if (!mdev) {
		NL_SET_BAD_ATTR(extack, attrs[ia] ?: attrs[na]);
		NL_SET_ERR_MSG(extack, "no such mrc device in this network namespace");
		return ERR_PTR(-ENODEV);
	}
	return mdev;
}

/*
 * The device request @info names by index or name (attributes @ia and
 * @na), in the caller's namespace, referenced (ib_device_put() it).
 */
struct mrc_dev *mrc_nl_info_dev(struct genl_info *info, int ia, int na)
{
	return req_dev(genl_info_net(info), info->attrs, ia, na, info->extack);
}

/* Whether the sender of @skb administers the network namespace @net */
static bool ns_admin(const struct sk_buff *skb, const struct net *net,
		     struct netlink_ext_ack *extack)
{
	if (netlink_ns_capable(skb, net->user_ns, CAP_NET_ADMIN))
		return true;
	NL_SET_ERR_MSG(extack, "needs CAP_NET_ADMIN in the device's network namespace");
	return false;
}

/* mrc_nl_info_dev() of a request that changes the device or looks into QPs */
struct mrc_dev *mrc_nl_admin_dev(struct sk_buff *skb, struct genl_info *info,
				 int ia, int na)
{
	if (!ns_admin(skb, genl_info_net(info), info->extack))
		return ERR_PTR(-EPERM);
	return mrc_nl_info_dev(info, ia, na);
}

/* the device a dump of a QP's view names, for the namespace's admin only */
struct mrc_dev *mrc_nl_admin_dump_dev(struct sk_buff *skb,
				      struct netlink_callback *cb, int ia, int na)
{
	if (!ns_admin(cb->skb, sock_net(skb->sk), cb->extack))
		return ERR_PTR(-EPERM);
	return req_dev(sock_net(skb->sk), genl_info_dump(cb)->attrs, ia, na,
		       cb->extack);
}

/* the profile a request names: its id, not 0 (attribute @attr) */
int mrc_nl_profile_id(const struct genl_info *info, int attr, u64 *id)
{
	if (info->attrs[attr])
		*id = nla_get_uint(info->attrs[attr]);
	if (!info->attrs[attr] || !*id) {
		NL_SET_ERR_MSG(info->extack, "profile id required (not 0)");
		return -EINVAL;
	}
	return 0;
}

/*
 * A profile's id, state and QPs, as attributes @id, @id + 1 and @qps (the
 * spec keeps profile-state after profile-id in every set)
 */
int mrc_nl_put_profile(struct sk_buff *skb, int id, int qps,
		       const struct mrc_profile *pf)
{
	if (nla_put_uint(skb, id, pf->id) ||
	    nla_put_u32(skb, id + 1, pf->state) ||
	    nla_put_u32(skb, qps, atomic_read(&pf->qps)))
		return -EMSGSIZE;
	return 0;
}

int mrc_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev = mrc_nl_admin_dev(skb, info, MRC_A_DEV_INDEX,
					 MRC_A_DEV_NAME);

	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	if (info->attrs[MRC_A_DEV_EV_COUNT])
		WRITE_ONCE(mdev->ev_count,
			   nla_get_u32(info->attrs[MRC_A_DEV_EV_COUNT]));
	/* read without a lock by the receive path: each on its own */
	if (info->attrs[MRC_A_DEV_TRIM_DSCP])
		WRITE_ONCE(mdev->trim_dscp,
			   nla_get_u32(info->attrs[MRC_A_DEV_TRIM_DSCP]));
	if (info->attrs[MRC_A_DEV_TRIM_LASTHOP_DSCP])
		WRITE_ONCE(mdev->trim_lasthop_dscp,
			   nla_get_u32(info->attrs[MRC_A_DEV_TRIM_LASTHOP_DSCP]));
	ib_device_put(&mdev->ib_dev);
	return 0;
}

/*
 * Run @fill for every device of the dump (the one the request names, or
 * all of the namespace), resuming where the last round stopped.
 */
int mrc_nl_dump_devs(struct sk_buff *skb, struct netlink_callback *cb,
		     int ia, int na, mrc_nl_dump_t fill)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	struct net *net = sock_net(skb->sk);
	struct mrc_dev *mdev;
	int err = 0;

	BUILD_BUG_ON(sizeof(*pos) > sizeof(cb->ctx));
	if (info->attrs[ia] || info->attrs[na]) {
		if (pos->dev)
			return 0;	/* done in an earlier round */
		mdev = req_dev(net, info->attrs, ia, na, cb->extack);
		if (IS_ERR(mdev))
			return PTR_ERR(mdev);
		err = fill(skb, mdev, cb);
		ib_device_put(&mdev->ib_dev);
		if (!err)
			pos->dev = 1;
	} else {
		while ((mdev = mrc_dev_next(net, pos->dev))) {
			err = fill(skb, mdev, cb);
			if (!err) {
				pos->dev = mdev->ib_dev.index + 1;
				pos->obj = 0;
				pos->sub = 0;
			}
			ib_device_put(&mdev->ib_dev);
			if (err)
				break;
		}
	}
	/* a full skb ends this round; the dump resumes at pos */
	return err == -EMSGSIZE && skb->len ? skb->len : err;
}

/* ---- paths ------------------------------------------------------------- */

static int fill_path(struct sk_buff *skb, struct mrc_dev *mdev,
		     const struct mrc_pathset *ps, u32 i,
		     const struct genl_info *info)
{
	const struct mrc_path *path = ps->paths[i];
	const struct mrc_path_cfg *p = &path->cfg;
	void *hdr = genlmsg_iput(skb, info);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_PATH_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_PATH_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_in6_addr(skb, MRC_A_PATH_PEER, &ps->peer) ||
	    nla_put_u32(skb, MRC_A_PATH_PLANE, p->plane) ||
	    nla_put_u32(skb, MRC_A_PATH_MODE, p->mode) ||
	    nla_put_u32(skb, MRC_A_PATH_ID, i) ||
	    (!ipv6_addr_any(&p->remote) &&
	     nla_put_in6_addr(skb, MRC_A_PATH_REMOTE, &p->remote)) ||
	    (p->mode == MRC_PATH_MODE_USID &&
	     (nla_put_in6_addr(skb, MRC_A_PATH_USID, &p->usid) ||
	      nla_put_u8(skb, MRC_A_PATH_LBLEN, p->lblen) ||
	      nla_put_u8(skb, MRC_A_PATH_NFLEN, p->nflen))) ||
	    (p->mode == MRC_PATH_MODE_SRH &&
	     nla_put(skb, MRC_A_PATH_SEGS, p->nsegs * sizeof(p->segs[0]),
		     p->segs)) ||
	    nla_put_uint(skb, MRC_A_PATH_TX_PACKETS, atomic64_read(&path->tx_pkts)) ||
	    nla_put_uint(skb, MRC_A_PATH_TX_BYTES, atomic64_read(&path->tx_bytes))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* pos->obj counts peers, pos->sub paths of the current peer */
static int dump_paths(struct sk_buff *skb, struct mrc_dev *mdev,
		      struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	struct nlattr *peer = info->attrs[MRC_A_PATH_PEER];
	struct mrc_pathset *ps;
	u32 k = 0;
	int err = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(ps, &mdev->peers, list) {
		if (peer && !ipv6_addr_equal(&ps->peer, nla_data(peer)))
			continue;
		if (k++ < pos->obj)
			continue;
		for (; pos->sub < ps->npaths; pos->sub++) {
			err = fill_path(skb, mdev, ps, pos->sub, info);
			if (err)
				goto out;
		}
		pos->obj++;
		pos->sub = 0;
	}
out:
	rcu_read_unlock();
	return err;
}

int mrc_nl_path_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_dump_devs(skb, cb, MRC_A_PATH_DEV_INDEX,
				MRC_A_PATH_DEV_NAME, dump_paths);
}

/* an srh path's segment list: whole addresses, at most MRC_PATH_MAX_SEGS */
static int req_segs(struct genl_info *info, struct mrc_path_cfg *cfg)
{
	struct nlattr *segs = info->attrs[MRC_A_PATH_SEGS];
	u32 len = nla_len(segs);

	if (info->attrs[MRC_A_PATH_USID]) {
		NL_SET_ERR_MSG_ATTR(info->extack, segs,
				    "a path is usid or srh, not both");
		return -EINVAL;
	}
	/* no length check in the policy: the 6.12 generator's min-len makes
	 * an NLA_UNSPEC entry, which strict validation rejects
	 */
	if (!len || len % sizeof(cfg->segs[0]) || len > sizeof(cfg->segs)) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, segs,
					"segs: 1 to %u IPv6 addresses of 16 bytes",
					MRC_PATH_MAX_SEGS);
		return -EINVAL;
	}
	cfg->mode = MRC_PATH_MODE_SRH;
	cfg->nsegs = len / sizeof(cfg->segs[0]);
	memcpy(cfg->segs, nla_data(segs), len);
	return 0;
}

/*
 * The device and the path a path-add/del request names (*match: what it
 * names). On success the caller holds a reference on *mdevp.
 */
static int req_path(struct genl_info *info, struct mrc_dev **mdevp,
		    struct in6_addr *peer, struct mrc_path_cfg *cfg,
		    unsigned int *match)
{
	struct nlattr **a = info->attrs;
	struct mrc_dev *mdev;
	int err;

	memset(cfg, 0, sizeof(*cfg));
	*match = 0;
	mdev = mrc_nl_info_dev(info, MRC_A_PATH_DEV_INDEX, MRC_A_PATH_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_PATH_PEER)) {
		NL_SET_ERR_MSG(info->extack, "peer address required");
		ib_device_put(&mdev->ib_dev);
		return -EINVAL;
	}
	*mdevp = mdev;
	*peer = nla_get_in6_addr(a[MRC_A_PATH_PEER]);
	if (a[MRC_A_PATH_PLANE]) {
		cfg->plane = nla_get_u32(a[MRC_A_PATH_PLANE]);
		*match |= MRC_PATH_MATCH_PLANE;
	}
	if (a[MRC_A_PATH_REMOTE]) {
		cfg->remote = nla_get_in6_addr(a[MRC_A_PATH_REMOTE]);
		*match |= MRC_PATH_MATCH_REMOTE;
	}
	cfg->mode = MRC_PATH_MODE_UDP;
	if (a[MRC_A_PATH_USID]) {
		cfg->mode = MRC_PATH_MODE_USID;
		cfg->usid = nla_get_in6_addr(a[MRC_A_PATH_USID]);
		*match = (*match & ~MRC_PATH_MATCH_REMOTE) | MRC_PATH_MATCH_USID;
	}
	if (a[MRC_A_PATH_SEGS]) {
		err = req_segs(info, cfg);
		if (err) {
			ib_device_put(&mdev->ib_dev);
			return err;
		}
		*match = (*match & ~MRC_PATH_MATCH_REMOTE) | MRC_PATH_MATCH_SEGS;
	}
	cfg->lblen = 32;
	cfg->nflen = 16;
	return 0;
}

static int path_add(struct genl_info *info, struct mrc_dev *mdev,
		    const struct in6_addr *peer, struct mrc_path_cfg *cfg)
{
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_PATH_PLANE)) {
		NL_SET_ERR_MSG(info->extack, "plane required");
		return -EINVAL;
	}
	/* only path-add's policy has these: info->attrs is as long as it */
	if (info->attrs[MRC_A_PATH_LBLEN])
		cfg->lblen = nla_get_u8(info->attrs[MRC_A_PATH_LBLEN]);
	if (info->attrs[MRC_A_PATH_NFLEN])
		cfg->nflen = nla_get_u8(info->attrs[MRC_A_PATH_NFLEN]);
	if (!mrc_plane_exists(mdev, cfg->plane)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_PATH_PLANE],
				    "the device has no such plane");
		return -ENOENT;
	}
	return mrc_peer_add(mdev, peer, cfg, info->extack);
}

static int path_del(struct genl_info *info, struct mrc_dev *mdev,
		    const struct in6_addr *peer, const struct mrc_path_cfg *cfg,
		    unsigned int match)
{
	if ((match & ~MRC_PATH_MATCH_PLANE) && !(match & MRC_PATH_MATCH_PLANE)) {
		NL_SET_ERR_MSG(info->extack, "a path's usid, segs or remote needs its plane");
		return -EINVAL;
	}
	return mrc_peer_del(mdev, peer, cfg, match, info->extack);
}

/* path-add and path-del: one request format (req_path()), then either */
static int path_doit(struct sk_buff *skb, struct genl_info *info, bool add)
{
	struct mrc_path_cfg cfg;
	struct mrc_dev *mdev;
	struct in6_addr peer;
	unsigned int match;
	int err;

	if (!ns_admin(skb, genl_info_net(info), info->extack))
		return -EPERM;
	err = req_path(info, &mdev, &peer, &cfg, &match);
	if (err)
		return err;
	if (add)
		err = path_add(info, mdev, &peer, &cfg);
	else
		err = path_del(info, mdev, &peer, &cfg, match);
	ib_device_put(&mdev->ib_dev);
	return err;
}

int mrc_nl_path_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	return path_doit(skb, info, true);
}

int mrc_nl_path_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	return path_doit(skb, info, false);
}

/* ---- notifications ------------------------------------------------------ */

static struct net *dev_netns(struct mrc_dev *mdev)
{
	struct net_device *ndev = mrc_dev_netdev_get(mdev);
	struct net *net = ndev ? get_net(dev_net(ndev)) : NULL;

	dev_put(ndev);
	return net;
}

static void notify(struct net *net, struct sk_buff *msg, void *hdr)
{
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&mrc_nl_family, net, msg, 0, MRC_NLGRP_CONFIG,
				GFP_KERNEL);
}

/* The path set of @peer changed. */
void mrc_nl_notify_path(struct mrc_dev *mdev, const struct in6_addr *peer)
{
	struct net *net = dev_netns(mdev);
	struct sk_buff *msg;
	void *hdr;

	if (!net)
		return;
	if (!genl_has_listeners(&mrc_nl_family, net, MRC_NLGRP_CONFIG))
		goto out;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		goto out;
	hdr = genlmsg_put(msg, 0, 0, &mrc_nl_family, 0,
			  MRC_CMD_PATH_CHANGE_NTF);
	if (!hdr ||
	    nla_put_u32(msg, MRC_A_PATH_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(msg, MRC_A_PATH_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_in6_addr(msg, MRC_A_PATH_PEER, peer)) {
		nlmsg_free(msg);
		goto out;
	}
	notify(net, msg, hdr);
out:
	put_net(net);
}

int mrc_netlink_init(void)
{
	return genl_register_family(&mrc_nl_family);
}

void mrc_netlink_exit(void)
{
	genl_unregister_family(&mrc_nl_family);
}
