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

/*
 * The EV profile a request names by profile-id, with the EV value and
 * plane it asks about, for the EVs of every QP bound to it; cfg_lock held
 * while the caller walks them, so that the profile stays the one named.
 */
static struct mrc_profile *req_profile_ev(struct mrc_dev *mdev,
					  const struct genl_info *info,
					  struct netlink_ext_ack *extack,
					  u32 *value, u32 *plane)
{
	struct nlattr **a = info->attrs;
	struct mrc_ev_profile *pf;
	u64 id;

	lockdep_assert_held(&mdev->cfg_lock);
	if (!a[MRC_A_EV_PROFILE_ID] || !a[MRC_A_EV_VALUE] || !a[MRC_A_EV_PLANE]) {
		NL_SET_ERR_MSG(extack, "QP number, or EV profile id, value and plane, required");
		return ERR_PTR(-EINVAL);
	}
	id = nla_get_uint(a[MRC_A_EV_PROFILE_ID]);
	*value = nla_get_u32(a[MRC_A_EV_VALUE]);
	*plane = nla_get_u32(a[MRC_A_EV_PLANE]);
	pf = id ? mrc_ev_profile_find(mdev, id) : NULL;
	if (!pf) {
		NL_SET_ERR_MSG_FMT(extack, "EV profile %llu is in init", id);
		return ERR_PTR(-ENOENT);
	}
	return &pf->hdr;
}

/*
 * The next RC QP from *@qpn on that is bound to @pf (referenced:
 * mrc_qp_put()), or NULL; *@qpn is its number
 */
static struct mrc_qp *next_bound_qp(struct mrc_dev *mdev,
				    const struct mrc_profile *pf,
				    unsigned long *qpn)
{
	struct mrc_qp *qp;
	void *entry;

	xa_for_each_start(&mdev->qp_xa, *qpn, entry, *qpn) {
		qp = mrc_qp_get(mdev, *qpn);
		if (!qp)
			continue;
		if (READ_ONCE(qp->ev_profile) == pf)
			return qp;
		mrc_qp_put(qp);
	}
	return NULL;
}

/* the index of EV @value on @plane in @qp's set, or -1; qp->lock held */
static int find_ev(struct mrc_qp *qp, u32 value, u32 plane)
{
	struct mrc_ev *e = mrc_evset_find(qp->evs, value);

	return e && e->plane == plane ? e - qp->evs->ev : -1;
}

/* ev-get of a profile: the EV of that value and plane of each bound QP */
static int dump_profile_ev(struct sk_buff *skb, struct netlink_callback *cb,
			   struct mrc_dev *mdev)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	unsigned long qpn = pos->obj;
	struct mrc_profile *pf;
	struct mrc_qp *qp;
	u32 value, plane;
	struct mrc_ev e;
	int i, err = 0;

	mutex_lock(&mdev->cfg_lock);
	pf = req_profile_ev(mdev, info, cb->extack, &value, &plane);
	if (IS_ERR(pf)) {
		err = PTR_ERR(pf);
		goto out;
	}
	while (!err && (qp = next_bound_qp(mdev, pf, &qpn))) {
		spin_lock_bh(&qp->lock);
		i = find_ev(qp, value, plane);
		if (i >= 0)
			e = qp->evs->ev[i];
		spin_unlock_bh(&qp->lock);
		if (i >= 0)
			err = fill_ev(skb, mdev, qpn, i, &e, info);
		mrc_qp_put(qp);
		if (!err)
			pos->obj = ++qpn;
	}
out:
	mutex_unlock(&mdev->cfg_lock);
	return err;
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
	if (!info->attrs[MRC_A_EV_QPN]) {
		err = dump_profile_ev(skb, cb, mdev);
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

/* ev-set of a profile: @sig to the EV of that value and plane of each bound QP */
static int set_profile_ev(struct mrc_dev *mdev, struct genl_info *info,
			  enum mrc_ev_sig sig)
{
	unsigned long qpn = 0;
	struct mrc_profile *pf;
	struct mrc_qp *qp;
	u32 value, plane;
	int i, n = 0;

	mutex_lock(&mdev->cfg_lock);
	pf = req_profile_ev(mdev, info, info->extack, &value, &plane);
	if (IS_ERR(pf)) {
		mutex_unlock(&mdev->cfg_lock);
		return PTR_ERR(pf);
	}
	for (; (qp = next_bound_qp(mdev, pf, &qpn)); qpn++) {
		spin_lock_bh(&qp->lock);
		i = find_ev(qp, value, plane);
		if (i >= 0) {
			mrc_sched_signal(qp, i, sig);
			n++;
		}
		spin_unlock_bh(&qp->lock);
		mrc_qp_put(qp);
	}
	mutex_unlock(&mdev->cfg_lock);
	if (!n) {
		NL_SET_ERR_MSG_FMT(info->extack,
				   "no QP bound to the profile has EV 0x%08x on plane %u",
				   value, plane);
		return -ENOENT;
	}
	return 0;
}

/* The operator denies an EV (DENIED) or allows it again (GOOD) */
int mrc_nl_ev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	enum mrc_ev_sig sig;
	struct mrc_dev *mdev;
	struct mrc_qp *qp;
	u32 idx, state;
	int err = 0;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_EV_DEV_INDEX, MRC_A_EV_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_EV_STATE)) {
		NL_SET_ERR_MSG(info->extack, "state required (denied or good)");
		err = -EINVAL;
		goto put;
	}
	state = nla_get_u32(a[MRC_A_EV_STATE]);
	if (state != MRC_EV_STATE_DENIED && state != MRC_EV_STATE_GOOD) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[MRC_A_EV_STATE],
				    "an EV can only be denied or allowed (good)");
		err = -EINVAL;
		goto put;
	}
	sig = state == MRC_EV_STATE_DENIED ? MRC_EV_SIG_DENY : MRC_EV_SIG_ALLOW;
	if (!a[MRC_A_EV_QPN]) {
		err = set_profile_ev(mdev, info, sig);
		goto put;
	}
	if (GENL_REQ_ATTR_CHECK(info, MRC_A_EV_INDEX)) {
		NL_SET_ERR_MSG(info->extack, "QP number, EV index and state required");
		err = -EINVAL;
		goto put;
	}
	idx = nla_get_u32(a[MRC_A_EV_INDEX]);
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
		mrc_sched_signal(qp, idx, sig);
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
