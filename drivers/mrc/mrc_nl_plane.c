// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" generic netlink family: the plane requests (plane-get, -add,
 * -del, -set) and plane-change-ntf. Planes change under RTNL
 * (mrc_plane.c), which the handlers take; replies read a plane under RCU.
 */
#include <net/genetlink.h>
#include <net/netlink.h>
#include <linux/rtnetlink.h>

#include "mrc.h"
#include "mrc_nl_gen.h"

/* A plane's source prefixes: address, then length (MRC_A_PLANE_ALLOW) */
static int put_allow(struct sk_buff *skb, const struct mrc_allow *a)
{
	u8 buf[sizeof(struct in6_addr) + 1];
	u32 i;

	for (i = 0; a && i < a->n; i++) {
		memcpy(buf, &a->p[i].addr, sizeof(a->p[i].addr));
		buf[sizeof(a->p[i].addr)] = a->p[i].len;
		if (nla_put(skb, MRC_A_PLANE_ALLOW, sizeof(buf), buf))
			return -EMSGSIZE;
	}
	return 0;
}

/* Up, or why not: the operator's admin down first, then the netdev's */
static u32 plane_state(struct mrc_dev *mdev, const struct mrc_plane *plane)
{
	if (READ_ONCE(mdev->planes_up) & BIT(plane->id))
		return MRC_PLANE_STATE_UP;
	return READ_ONCE(plane->admin_down) ? MRC_PLANE_STATE_ADMIN_DOWN :
					      MRC_PLANE_STATE_DOWN;
}

static int put_plane(struct sk_buff *skb, struct mrc_dev *mdev, u32 id)
{
	struct mrc_plane_stats st;
	struct mrc_plane *plane;
	int err = 0;

	if (nla_put_u32(skb, MRC_A_PLANE_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_PLANE_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(skb, MRC_A_PLANE_ID, id))
		return -EMSGSIZE;
	rcu_read_lock();
	plane = rcu_dereference(mdev->planes[id]);
	if (plane) {		/* a removed plane is reported without these */
		mrc_plane_stats(plane, &st);
		if (nla_put_u32(skb, MRC_A_PLANE_IFINDEX, plane->ndev->ifindex) ||
		    nla_put_u32(skb, MRC_A_PLANE_STATE, plane_state(mdev, plane)) ||
		    nla_put_u32(skb, MRC_A_PLANE_ADMIN,
				READ_ONCE(plane->admin_down) ?
				MRC_PLANE_ADMIN_DOWN : MRC_PLANE_ADMIN_UP) ||
		    nla_put_uint(skb, MRC_A_PLANE_RX_ADMIN_DROPS,
				 st.c[MRC_PCNT_ADMIN_DROPS]) ||
		    nla_put_uint(skb, MRC_A_PLANE_TX_PACKETS, st.c[MRC_PCNT_TX_PKTS]) ||
		    nla_put_uint(skb, MRC_A_PLANE_TX_BYTES, st.c[MRC_PCNT_TX_BYTES]) ||
		    nla_put_uint(skb, MRC_A_PLANE_RX_PACKETS, st.c[MRC_PCNT_RX_PKTS]) ||
		    nla_put_uint(skb, MRC_A_PLANE_RX_BYTES, st.c[MRC_PCNT_RX_BYTES]) ||
		    nla_put_uint(skb, MRC_A_PLANE_RETRANS, st.c[MRC_PCNT_RETRANS]) ||
		    nla_put_uint(skb, MRC_A_PLANE_LOSSES, st.c[MRC_PCNT_LOSSES]) ||
		    nla_put_uint(skb, MRC_A_PLANE_DOWN_LOST,
				 st.c[MRC_PCNT_DOWN_LOST]) ||
		    put_allow(skb, rcu_dereference(plane->allow)))
			err = -EMSGSIZE;
	}
	rcu_read_unlock();
	return err;
}

static int fill_plane(struct sk_buff *skb, struct mrc_dev *mdev, u32 id,
		      const struct genl_info *info)
{
	void *hdr = genlmsg_iput(skb, info);

	if (!hdr)
		return -EMSGSIZE;
	if (put_plane(skb, mdev, id)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The plane number a request names; -EINVAL, with the reason, without one */
static int req_plane_id(struct genl_info *info, u32 *id)
{
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_PLANE_ID)) {
		NL_SET_ERR_MSG(info->extack, "plane number required");
		return -EINVAL;
	}
	*id = nla_get_u32(info->attrs[MRC_A_PLANE_ID]);
	return 0;
}

int mrc_nl_plane_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev = mrc_nl_info_dev(info, MRC_A_PLANE_DEV_INDEX,
					MRC_A_PLANE_DEV_NAME);
	struct sk_buff *msg;
	u32 id;
	int err;

	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = req_plane_id(info, &id);
	if (err)
		goto out;
	err = -ENOENT;
	if (!mrc_plane_exists(mdev, id)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_PLANE_ID],
				    "no such plane");
		goto out;
	}
	err = -ENOMEM;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		goto out;
	err = fill_plane(msg, mdev, id, info);
	if (err)
		nlmsg_free(msg);
	else
		err = genlmsg_reply(msg, info);
out:
	ib_device_put(&mdev->ib_dev);
	return err;
}

static int dump_planes(struct sk_buff *skb, struct mrc_dev *mdev,
		       struct netlink_callback *cb)
{
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	int err;

	for (; pos->obj < MRC_MAX_PLANES; pos->obj++) {
		if (!mrc_plane_exists(mdev, pos->obj))
			continue;
		err = fill_plane(skb, mdev, pos->obj, genl_info_dump(cb));
		if (err)
			return err;
	}
	return 0;
}

int mrc_nl_plane_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_dump_devs(skb, cb, MRC_A_PLANE_DEV_INDEX,
				MRC_A_PLANE_DEV_NAME, dump_planes);
}

int mrc_nl_plane_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev = mrc_nl_admin_dev(skb, info, MRC_A_PLANE_DEV_INDEX,
					 MRC_A_PLANE_DEV_NAME);
	struct net_device *ndev;
	int err, id = -1;

	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = -EINVAL;
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_PLANE_IFINDEX)) {
		NL_SET_ERR_MSG(info->extack, "netdev (ifindex) required");
		goto out;
	}
	if (info->attrs[MRC_A_PLANE_ID])
		id = nla_get_u32(info->attrs[MRC_A_PLANE_ID]);
	rtnl_lock();
	ndev = __dev_get_by_index(genl_info_net(info),
				  nla_get_u32(info->attrs[MRC_A_PLANE_IFINDEX]));
	if (!ndev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_A_PLANE_IFINDEX],
				    "no such netdev in this network namespace");
		err = -ENODEV;
	} else if (!rcu_access_pointer(mdev->ndev)) {
		NL_SET_ERR_MSG(info->extack, "the device is going away");
		err = -ENODEV;
	} else {
		err = mrc_plane_add(mdev, id, ndev, info->extack);
	}
	rtnl_unlock();
	if (err >= 0) {
		mrc_nl_notify_plane(mdev, err, genl_info_net(info));
		err = 0;
	}
out:
	ib_device_put(&mdev->ib_dev);
	return err;
}

int mrc_nl_plane_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev = mrc_nl_admin_dev(skb, info, MRC_A_PLANE_DEV_INDEX,
					 MRC_A_PLANE_DEV_NAME);
	struct nlattr *ifi = info->attrs[MRC_A_PLANE_IFINDEX];
	struct nlattr *ida = info->attrs[MRC_A_PLANE_ID];
	struct mrc_plane *plane;
	u32 id = U32_MAX;
	int err, i;

	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	rtnl_lock();
	if (ida) {
		id = nla_get_u32(ida);
	} else if (ifi) {
		for (i = 0; i < MRC_MAX_PLANES; i++) {
			plane = rtnl_dereference(mdev->planes[i]);
			if (plane && plane->ndev->ifindex == nla_get_u32(ifi))
				id = i;
		}
	}
	if (!ida && !ifi) {
		NL_SET_ERR_MSG(info->extack, "plane number or netdev required");
		err = -EINVAL;
	} else {
		err = mrc_plane_del(mdev, id, info->extack);
	}
	rtnl_unlock();
	if (!err)
		mrc_nl_notify_plane(mdev, id, genl_info_net(info));
	ib_device_put(&mdev->ib_dev);
	return err;
}

/*
 * The request's allow prefixes replace the plane's (none: any source);
 * with admin, it sets the plane's admin state, and a request with admin
 * and no allow leaves the prefixes as they are. Either both change or
 * neither does.
 */
int mrc_nl_plane_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev = mrc_nl_admin_dev(skb, info, MRC_A_PLANE_DEV_INDEX,
					 MRC_A_PLANE_DEV_NAME);
	struct nlattr *admin = info->attrs[MRC_A_PLANE_ADMIN];
	struct mrc_prefix *p = NULL;
	bool up = true, allow;
	struct nlattr *a;
	int err, rem;
	u32 id, n = 0;

	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = req_plane_id(info, &id);
	if (err)
		goto out;
	err = -ENOMEM;
	p = kcalloc(MRC_MAX_ALLOW, sizeof(*p), GFP_KERNEL);
	if (!p)
		goto out;
	nlmsg_for_each_attr_type(a, MRC_A_PLANE_ALLOW, info->nlhdr,
				 GENL_HDRLEN, rem) {
		if (n == MRC_MAX_ALLOW) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, a,
						"at most %d source prefixes per plane",
						MRC_MAX_ALLOW);
			err = -E2BIG;
			goto out;
		}
		memcpy(&p[n].addr, nla_data(a), sizeof(p[n].addr));
		p[n].len = ((u8 *)nla_data(a))[sizeof(p[n].addr)];
		n++;
	}
	allow = n || !admin;
	if (admin)
		up = nla_get_u32(admin) == MRC_PLANE_ADMIN_UP;
	rtnl_lock();
	err = admin ? mrc_plane_check_admin(mdev, id, up, info->extack) : 0;
	if (!err && allow)
		err = mrc_plane_set_allow(mdev, id, p, n, info->extack);
	/* checked above: it cannot fail now, so the prefixes stay set */
	if (!err && admin)
		err = mrc_plane_set_admin(mdev, id, up, info->extack);
	rtnl_unlock();
	if (!err)
		mrc_nl_notify_plane(mdev, id, genl_info_net(info));
out:
	kfree(p);
	ib_device_put(&mdev->ib_dev);
	return err;
}

/* Plane @id of @mdev was added, removed or changed state. */
void mrc_nl_notify_plane(struct mrc_dev *mdev, u32 id, struct net *net)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&mrc_nl_family, net, MRC_NLGRP_CONFIG))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &mrc_nl_family, 0,
			  MRC_CMD_PLANE_CHANGE_NTF);
	if (!hdr || put_plane(msg, mdev, id)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&mrc_nl_family, net, msg, 0, MRC_NLGRP_CONFIG,
				GFP_KERNEL);
}
