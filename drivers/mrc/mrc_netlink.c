// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" generic netlink family (Documentation/netlink/specs/mrc.yaml):
 * request handlers. Policies and the ops table are generated into
 * mrc_nl_gen.c by tools/ynl-regen.sh.
 *
 * The family is per network namespace: a device is visible in the namespace
 * of its plane-0 netdev.
 */
#include <net/genetlink.h>

#include "mrc.h"
#include "mrc_nl_gen.h"

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
			MRC_PORT_STATE_ACTIVE : MRC_PORT_STATE_DOWN)) {
		dev_put(ndev);
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	dev_put(ndev);
	genlmsg_end(skb, hdr);
	return 0;
}

int mrc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *index = info->attrs[MRC_A_DEV_INDEX];
	struct nlattr *name = info->attrs[MRC_A_DEV_NAME];
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	u32 idx;
	int err;

	if (!index && !name) {
		NL_SET_ERR_MSG(info->extack, "device index or name required");
		return -EINVAL;
	}
	if (index)
		idx = nla_get_u32(index);
	mdev = mrc_dev_find(genl_info_net(info), index ? &idx : NULL,
			    name ? nla_data(name) : NULL);
	if (!mdev) {
		NL_SET_BAD_ATTR(info->extack, index ?: name);
		NL_SET_ERR_MSG(info->extack, "no such mrc device in this network namespace");
		return -ENODEV;
	}
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out;
	}
	err = fill_dev(msg, mdev, info);
	if (err) {
		nlmsg_free(msg);
		goto out;
	}
	err = genlmsg_reply(msg, info);
out:
	ib_device_put(&mdev->ib_dev);
	return err;
}

/* cb->ctx holds the lowest device index not sent yet */
int mrc_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	u32 *pos = (u32 *)cb->ctx;
	struct mrc_dev *mdev;
	int err = 0;

	while ((mdev = mrc_dev_next(sock_net(skb->sk), *pos))) {
		err = fill_dev(skb, mdev, info);
		if (!err)
			*pos = mdev->ib_dev.index + 1;
		ib_device_put(&mdev->ib_dev);
		if (err)
			break;
	}
	/* a full skb ends this round; the dump resumes after *pos */
	return err == -EMSGSIZE && skb->len ? skb->len : err;
}

int mrc_netlink_init(void)
{
	return genl_register_family(&mrc_nl_family);
}

void mrc_netlink_exit(void)
{
	genl_unregister_family(&mrc_nl_family);
}
