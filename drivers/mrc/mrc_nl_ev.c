// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" family's EV requests: one RC QP's EV set (ev-get), the
 * operator's deny and allow (ev-set), its state changes (ev-change-ntf on
 * the "ev" group), and the controller's EV profiles (ev-profile-get, -set;
 * the rules are mrc_ev_profile.c's).
 */
#include <net/genetlink.h>

#include "mrc.h"
#include "mrc_nl_gen.h"

/* EV @i of QP @qpn: which it is, where it goes, its state */
static int put_ev(struct sk_buff *skb, struct mrc_dev *mdev, u32 qpn, u32 i,
		  const struct mrc_ev *e)
{
	if (nla_put_u32(skb, MRC_A_EV_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_EV_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(skb, MRC_A_EV_QPN, qpn) ||
	    nla_put_u32(skb, MRC_A_EV_INDEX, i) ||
	    nla_put_u32(skb, MRC_A_EV_VALUE, e->value) ||
	    nla_put_u32(skb, MRC_A_EV_PLANE, e->plane) ||
	    nla_put_u32(skb, MRC_A_EV_PATH_ID, e->path) ||
	    nla_put_u32(skb, MRC_A_EV_STATE, e->state))
		return -EMSGSIZE;
	return 0;
}

static int fill_ev(struct sk_buff *skb, struct mrc_dev *mdev, u32 qpn,
		   u32 i, const struct mrc_ev *e, const struct genl_info *info)
{
	void *hdr = genlmsg_iput(skb, info);

	if (!hdr)
		return -EMSGSIZE;
	if (put_ev(skb, mdev, qpn, i, e) ||
	    nla_put_uint(skb, MRC_A_EV_TX_PACKETS, e->tx_pkts) ||
	    nla_put_uint(skb, MRC_A_EV_TX_BYTES, e->tx_bytes) ||
	    nla_put_uint(skb, MRC_A_EV_RETRANS, e->retrans) ||
	    nla_put_uint(skb, MRC_A_EV_LOSSES, e->losses) ||
	    nla_put_uint(skb, MRC_A_EV_ECN, e->ecn) ||
	    nla_put_uint(skb, MRC_A_EV_PROBES, e->probes) ||
	    nla_put_u32(skb, MRC_A_EV_SRTT, e->srtt_us) ||
	    nla_put_uint(skb, MRC_A_EV_TRIMS, e->trims) ||
	    nla_put_u32(skb, MRC_A_EV_PENALTY, e->penalty) ||
	    (e->slot >= 0 && nla_put_u32(skb, MRC_A_EV_SLOT, e->slot))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* RC QP @qpn of @mdev, with a reference (mrc_qp_put()) */
struct mrc_qp *mrc_nl_rc_qp(struct mrc_dev *mdev, u32 qpn,
			    struct netlink_ext_ack *extack)
{
	struct mrc_qp *qp = mrc_qp_get(mdev, qpn);

	if (qp && qp->ibqp.qp_type != IB_QPT_RC) {
		mrc_qp_put(qp);
		qp = NULL;
	}
	if (!qp)
		NL_SET_ERR_MSG(extack, "no such RC QP");
	return qp;
}

/* A copy of the EV set of RC QP @qpn, taken under its lock. */
static int copy_evs(struct mrc_dev *mdev, u32 qpn, struct mrc_ev *out,
		    u32 *n, struct netlink_ext_ack *extack)
{
	struct mrc_qp *qp;

	qp = mrc_nl_rc_qp(mdev, qpn, extack);
	if (!qp)
		return -ENOENT;
	spin_lock_bh(&qp->lock);
	*n = qp->evs ? qp->evs->n : 0;
	if (*n)
		memcpy(out, qp->evs->ev, *n * sizeof(*out));
	spin_unlock_bh(&qp->lock);
	mrc_qp_put(qp);
	return 0;
}

int mrc_nl_ev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	struct mrc_dev *mdev;
	struct mrc_ev *evs;
	u32 qpn, n;
	int err;

	mdev = mrc_nl_admin_dump_dev(skb, cb, MRC_A_EV_DEV_INDEX,
				     MRC_A_EV_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = -EINVAL;
	if (!info->attrs[MRC_A_EV_QPN]) {
		NL_SET_ERR_MSG(cb->extack, "QP number required");
		goto out;
	}
	qpn = nla_get_u32(info->attrs[MRC_A_EV_QPN]);
	err = -ENOMEM;
	evs = kvcalloc(MRC_MAX_EVS, sizeof(*evs), GFP_KERNEL);
	if (!evs)
		goto out;
	err = copy_evs(mdev, qpn, evs, &n, cb->extack);
	while (!err && pos->obj < n) {
		err = fill_ev(skb, mdev, qpn, pos->obj, &evs[pos->obj], info);
		if (!err)
			pos->obj++;
	}
	kvfree(evs);
out:
	ib_device_put(&mdev->ib_dev);
	return err == -EMSGSIZE && skb->len ? skb->len : err;
}

/* The operator denies an EV (DENIED) or allows it again (GOOD) */
int mrc_nl_ev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct mrc_dev *mdev;
	struct mrc_qp *qp;
	u32 idx, state;
	int err = 0;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_EV_DEV_INDEX, MRC_A_EV_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_EV_QPN) ||
	    GENL_REQ_ATTR_CHECK(info, MRC_A_EV_INDEX) ||
	    GENL_REQ_ATTR_CHECK(info, MRC_A_EV_STATE)) {
		NL_SET_ERR_MSG(info->extack, "QP number, EV index and state required");
		err = -EINVAL;
		goto put;
	}
	idx = nla_get_u32(a[MRC_A_EV_INDEX]);
	state = nla_get_u32(a[MRC_A_EV_STATE]);
	if (state != MRC_EV_STATE_DENIED && state != MRC_EV_STATE_GOOD) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[MRC_A_EV_STATE],
				    "an EV can only be denied or allowed (good)");
		err = -EINVAL;
		goto put;
	}
	qp = mrc_nl_rc_qp(mdev, nla_get_u32(a[MRC_A_EV_QPN]), info->extack);
	if (!qp) {
		err = -ENOENT;
		goto put;
	}
	spin_lock_bh(&qp->lock);
	if (!qp->evs) {
		NL_SET_ERR_MSG(info->extack, "the QP has no EV set (no path set to its peer)");
		err = -ENOENT;
	} else if (idx >= qp->evs->n) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[MRC_A_EV_INDEX], "no such EV in the QP's set");
		err = -ENOENT;
	} else {
		mrc_sched_signal(qp, idx, state == MRC_EV_STATE_DENIED ?
				 MRC_EV_SIG_DENY : MRC_EV_SIG_ALLOW);
	}
	spin_unlock_bh(&qp->lock);
	mrc_qp_put(qp);
put:
	ib_device_put(&mdev->ib_dev);
	return err;
}

/* ---- state changes ---------------------------------------------------- */

/*
 * EV @i of @qp changed health (mrc_sched_signal(): softirq or process
 * context, the QP's lock held). A bound QP's profile does not change.
 */
void mrc_nl_notify_ev(struct mrc_qp *qp, u32 i, const struct mrc_ev *e,
		      const struct mrc_ev_change *chg, u8 cause)
{
	const struct mrc_profile *h = READ_ONCE(qp->ev_profile);
	struct mrc_dev *mdev = qp->mdev;
	struct net_device *ndev;
	struct sk_buff *msg;
	struct net *net;
	void *hdr;

	rcu_read_lock();
	ndev = rcu_dereference(mdev->ndev);
	net = ndev ? dev_net(ndev) : NULL;
	if (!net || !genl_has_listeners(&mrc_nl_family, net, MRC_NLGRP_EV))
		goto out;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!msg)
		goto out;
	hdr = genlmsg_put(msg, 0, 0, &mrc_nl_family, 0, MRC_CMD_EV_CHANGE_NTF);
	if (!hdr || put_ev(msg, mdev, qp->ibqp.qp_num, i, e) ||
	    nla_put_u32(msg, MRC_A_EV_OLD_STATE, chg->old) ||
	    nla_put_u32(msg, MRC_A_EV_CAUSE, cause) ||
	    (chg->backup >= 0 && nla_put_u32(msg, MRC_A_EV_BACKUP, chg->backup)) ||
	    nla_put_uint(msg, MRC_A_EV_TIME, ktime_get_real_ns()) ||
	    (h && (nla_put_uint(msg, MRC_A_EV_PROFILE_ID, h->id) ||
		   nla_put_u32(msg, MRC_A_EV_EVENT_MASK,
			       container_of(h, struct mrc_ev_profile, hdr)->event_mask)))) {
		nlmsg_free(msg);
		goto out;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&mrc_nl_family, net, msg, 0, MRC_NLGRP_EV,
				GFP_ATOMIC);
out:
	rcu_read_unlock();
}

/* ---- the controller's profiles ----------------------------------------- */

static int fill_profile(struct sk_buff *skb, struct mrc_dev *mdev,
			const struct mrc_ev_profile *v,
			const struct genl_info *info)
{
	void *hdr = genlmsg_iput(skb, info);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_EV_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_EV_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    mrc_nl_put_profile(skb, MRC_A_EV_PROFILE_ID, MRC_A_EV_PROFILE_QPS,
			       &v->hdr) ||
	    ((v->has & MRC_EV_PROFILE_HAS_MODE) &&
	     nla_put_u32(skb, MRC_A_EV_PROFILE_MODE, v->mode)) ||
	    ((v->has & MRC_EV_PROFILE_HAS_COUNT) &&
	     nla_put_u32(skb, MRC_A_EV_PROFILE_COUNT, v->count)) ||
	    ((v->has & MRC_EV_PROFILE_HAS_MIN_ACTIVE) &&
	     nla_put_u32(skb, MRC_A_EV_PROFILE_MIN_ACTIVE, v->min_active)) ||
	    ((v->has & MRC_EV_PROFILE_HAS_EVENT_MASK) &&
	     nla_put_u32(skb, MRC_A_EV_EVENT_MASK, v->event_mask))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* a copy of profile @pf (cfg_lock held): what a reply shows */
static void profile_view(const struct mrc_ev_profile *pf,
			 struct mrc_ev_profile *v)
{
	*v = *pf;
	atomic_set(&v->hdr.qps, atomic_read(&pf->hdr.qps));
}

static int fill_profile_req(struct sk_buff *skb, struct mrc_dev *mdev,
			    const struct genl_info *info)
{
	struct mrc_ev_profile *pf, v;
	u64 id;
	int err;

	err = mrc_nl_profile_id(info, MRC_A_EV_PROFILE_ID, &id);
	if (err)
		return err;
	mutex_lock(&mdev->cfg_lock);
	pf = mrc_ev_profile_find(mdev, id);
	if (pf)
		profile_view(pf, &v);
	mutex_unlock(&mdev->cfg_lock);
	if (!pf) {
		NL_SET_ERR_MSG_FMT(info->extack, "EV profile %llu is in init", id);
		return -ENOENT;
	}
	return fill_profile(skb, mdev, &v, info);
}

int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_get_one(info, MRC_A_EV_DEV_INDEX, MRC_A_EV_DEV_NAME,
			      fill_profile_req);
}

static int dump_profiles(struct sk_buff *skb, struct mrc_dev *mdev,
			 struct netlink_callback *cb)
{
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	struct mrc_ev_profile v;
	int err;

	for (; pos->obj < MRC_MAX_EV_PROFILES; pos->obj++) {
		mutex_lock(&mdev->cfg_lock);
		profile_view(&mdev->ev_profiles[pos->obj], &v);
		mutex_unlock(&mdev->cfg_lock);
		if (!v.hdr.id)
			continue;
		err = fill_profile(skb, mdev, &v, genl_info_dump(cb));
		if (err)
			return err;
	}
	return 0;
}

int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return mrc_nl_dump_devs(skb, cb, MRC_A_EV_DEV_INDEX, MRC_A_EV_DEV_NAME,
				dump_profiles);
}

int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_ev_profile_change ch = {};
	struct nlattr **a = info->attrs;
	struct mrc_dev *mdev;
	u64 id;
	int err;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_EV_DEV_INDEX,
				MRC_A_EV_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = mrc_nl_profile_id(info, MRC_A_EV_PROFILE_ID, &id);
	if (err)
		goto out;
	ch.set_state = !!a[MRC_A_EV_PROFILE_STATE];
	if (ch.set_state)
		ch.state = nla_get_u32(a[MRC_A_EV_PROFILE_STATE]);
	if (a[MRC_A_EV_PROFILE_MODE]) {
		ch.set |= MRC_EV_PROFILE_HAS_MODE;
		ch.mode = nla_get_u32(a[MRC_A_EV_PROFILE_MODE]);
	}
	if (a[MRC_A_EV_PROFILE_COUNT]) {
		ch.set |= MRC_EV_PROFILE_HAS_COUNT;
		ch.count = nla_get_u32(a[MRC_A_EV_PROFILE_COUNT]);
	}
	if (a[MRC_A_EV_PROFILE_MIN_ACTIVE]) {
		ch.set |= MRC_EV_PROFILE_HAS_MIN_ACTIVE;
		ch.min_active = nla_get_u32(a[MRC_A_EV_PROFILE_MIN_ACTIVE]);
	}
	if (a[MRC_A_EV_EVENT_MASK]) {
		ch.set |= MRC_EV_PROFILE_HAS_EVENT_MASK;
		ch.event_mask = nla_get_u32(a[MRC_A_EV_EVENT_MASK]);
	}
	mutex_lock(&mdev->cfg_lock);
	err = mrc_ev_profile_set(mdev, id, &ch, info->extack);
	mutex_unlock(&mdev->cfg_lock);
out:
	ib_device_put(&mdev->ib_dev);
	return err;
}
