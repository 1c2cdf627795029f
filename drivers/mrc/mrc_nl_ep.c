// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" family's ep-probe: send one EV probe (mrc_ep.c) and return at
 * once; how it ended comes later as one ep-probe-ntf unicast to the
 * socket that asked, so that no handler sleeps for a probe's timeout and a
 * batch is N requests, then N notifications. For the namespace's
 * administrator, as every change is (mrc_netlink.c).
 */
#include <net/genetlink.h>

#include "mrc.h"
#include "mrc_nl_gen.h"

int mrc_nl_ep_probe_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct mrc_ep_probe_args args = {};
	struct mrc_dev *mdev;
	int err;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_EP_DEV_INDEX,
				MRC_A_EP_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	if (!a[MRC_A_EP_PEER]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, MRC_A_EP_PEER);
		NL_SET_ERR_MSG(info->extack, "peer required");
		ib_device_put(&mdev->ib_dev);
		return -EINVAL;
	}
	args.peer = nla_get_in6_addr(a[MRC_A_EP_PEER]);
	if (a[MRC_A_EP_PLANE]) {
		args.has_plane = true;
		args.plane = nla_get_u32(a[MRC_A_EP_PLANE]);
	}
	if (a[MRC_A_EP_PATH_ID]) {
		args.has_path = true;
		args.path_id = nla_get_u32(a[MRC_A_EP_PATH_ID]);
	}
	if (a[MRC_A_EP_EV]) {
		args.has_ev = true;
		args.ev = nla_get_u32(a[MRC_A_EP_EV]);
	}
	if (a[MRC_A_EP_REQ_ID])
		args.req_id = nla_get_u32(a[MRC_A_EP_REQ_ID]);
	if (a[MRC_A_EP_DSCP])
		args.dscp = nla_get_u32(a[MRC_A_EP_DSCP]);
	if (a[MRC_A_EP_TIMEOUT_NS])
		args.timeout_ns = nla_get_uint(a[MRC_A_EP_TIMEOUT_NS]);
	err = mrc_ep_probe_send(mdev, &args, genl_info_net(info),
				info->snd_portid, info->extack);
	ib_device_put(&mdev->ib_dev);
	return err;
}

/**
 * mrc_nl_ep_notify() - tell socket @portid of @net how its probe ended
 * @net: the socket's namespace
 * @portid: the socket
 * @r: the result
 *
 * Any context (the answer's softirq, the probe's timer). A socket that is
 * gone or full loses it: the caller gave a timeout of its own.
 */
void mrc_nl_ep_notify(struct net *net, u32 portid,
		      const struct mrc_ep_result *r)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, portid, 0, &mrc_nl_family, 0,
			  MRC_CMD_EP_PROBE_NTF);
	if (!hdr ||
	    nla_put_u32(msg, MRC_A_EP_DEV_INDEX, r->dev_index) ||
	    nla_put_u32(msg, MRC_A_EP_REQ_ID, r->req_id) ||
	    nla_put_in6_addr(msg, MRC_A_EP_PEER, &r->peer) ||
	    nla_put_u32(msg, MRC_A_EP_PLANE, r->plane) ||
	    nla_put_u32(msg, MRC_A_EP_STATUS, r->status) ||
	    (r->status == MRC_EP_STATUS_ANSWERED &&
	     (nla_put_uint(msg, MRC_A_EP_RTT_NS, r->rtt_ns) ||
	      nla_put_u32(msg, MRC_A_EP_SERVICE_NS, r->service_ns) ||
	      nla_put_u32(msg, MRC_A_EP_ARRIVAL_PLANE, r->arrival_plane) ||
	      nla_put_u32(msg, MRC_A_EP_PEER_EV, r->peer_ev)))) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_unicast(net, msg, portid);
}

/* dev-get: the device's endpoint counters */
int mrc_nl_ep_put_counters(struct sk_buff *skb, struct mrc_dev *mdev)
{
	u64 answered, limited, unmatched;

	mrc_ep_counters(mdev, &answered, &limited, &unmatched);
	if (nla_put_uint(skb, MRC_A_DEV_EP_ANSWERED, answered) ||
	    nla_put_uint(skb, MRC_A_DEV_EP_RATE_LIMITED, limited) ||
	    nla_put_uint(skb, MRC_A_DEV_EP_UNMATCHED, unmatched))
		return -EMSGSIZE;
	return 0;
}
