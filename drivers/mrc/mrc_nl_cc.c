// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" family's cc-get and cc-set: a device's congestion control
 * profile, which its new RC QPs copy (mrc_req.c). Reading it is open to
 * the namespace, changing it is for its administrator (mrc_netlink.c).
 * And cc-qp-get: one QP's state, for that administrator too. And
 * cc-profile-get and -set: the profiles the device keeps for its
 * controller (mrc_cc_profile.c), open to read, set by the administrator.
 */
#include <net/genetlink.h>

#include "mrc.h"
#include "mrc_nl_gen.h"

/* each knob, its attribute and its place in struct mrc_cc_params */
static const struct {
	u16 attr;
	u16 off;
} cc_knobs[] = {
	{ MRC_A_CC_BASE_RTT, offsetof(struct mrc_cc_params, base_rtt) },
	{ MRC_A_CC_TARGET_DELAY, offsetof(struct mrc_cc_params, target_delay) },
	{ MRC_A_CC_MAX_CWND, offsetof(struct mrc_cc_params, max_cwnd) },
	{ MRC_A_CC_ETA, offsetof(struct mrc_cc_params, eta) },
	{ MRC_A_CC_FI, offsetof(struct mrc_cc_params, fi) },
	{ MRC_A_CC_FI_SCALE, offsetof(struct mrc_cc_params, fi_scale) },
	{ MRC_A_CC_GAMMA, offsetof(struct mrc_cc_params, gamma) },
	{ MRC_A_CC_MAX_MD_JUMP, offsetof(struct mrc_cc_params, max_md_jump) },
	{ MRC_A_CC_QA_THRESHOLD, offsetof(struct mrc_cc_params, qa_threshold) },
	{ MRC_A_CC_ADJUST_BYTES_THRESHOLD,
	  offsetof(struct mrc_cc_params, adjust_bytes_threshold) },
	{ MRC_A_CC_ADJUST_PERIOD_THRESHOLD,
	  offsetof(struct mrc_cc_params, adjust_period_threshold) },
};

static u32 *knob(struct mrc_cc_params *p, u32 i)
{
	return (u32 *)((u8 *)p + cc_knobs[i].off);
}

/* the profile, consistent: a cc-set may be writing it */
static void cc_profile(struct mrc_dev *mdev, bool *on, struct mrc_cc_params *p)
{
	spin_lock_bh(&mdev->cc_lock);
	*on = mdev->cc_on;
	*p = mdev->cc_params;
	spin_unlock_bh(&mdev->cc_lock);
}

/* a cc-get or cc-qp-get reply's start: the device, then the algorithm */
static void *cc_msg_start(struct sk_buff *skb, struct mrc_dev *mdev,
			  const struct genl_info *info, bool on)
{
	void *hdr = genlmsg_iput(skb, info);

	if (!hdr)
		return NULL;
	if (nla_put_u32(skb, MRC_A_CC_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_CC_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(skb, MRC_A_CC_ALGO,
			on ? MRC_CC_ALGO_NSCC : MRC_CC_ALGO_NONE)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

/* what congestion control did: a device's QPs, or one QP */
static int put_cc_counts(struct sk_buff *skb, u64 decreases, u64 quick_adapts,
			 u64 timeouts)
{
	return nla_put_uint(skb, MRC_A_CC_DECREASES, decreases) ||
	       nla_put_uint(skb, MRC_A_CC_QUICK_ADAPTS, quick_adapts) ||
	       nla_put_uint(skb, MRC_A_CC_TIMEOUTS, timeouts);
}

/* every knob of @p */
static int put_knobs(struct sk_buff *skb, struct mrc_cc_params *p)
{
	u32 i;

	if (nla_put_u32(skb, MRC_A_CC_QA_GATE, p->qa_gate) ||
	    nla_put_u8(skb, MRC_A_CC_DISABLE_QA, p->disable_qa))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(cc_knobs); i++)
		if (nla_put_u32(skb, cc_knobs[i].attr, *knob(p, i)))
			return -EMSGSIZE;
	return 0;
}

/* the knobs a request gives, over @p: true if it gives any */
static bool take_knobs(struct nlattr **a, struct mrc_cc_params *p)
{
	bool any = false;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cc_knobs); i++) {
		if (a[cc_knobs[i].attr]) {
			*knob(p, i) = nla_get_u32(a[cc_knobs[i].attr]);
			any = true;
		}
	}
	if (a[MRC_A_CC_QA_GATE]) {
		p->qa_gate = min_t(u32, nla_get_u32(a[MRC_A_CC_QA_GATE]), U8_MAX);
		any = true;
	}
	if (a[MRC_A_CC_DISABLE_QA]) {
		p->disable_qa = !!nla_get_u8(a[MRC_A_CC_DISABLE_QA]);
		any = true;
	}
	return any;
}

static int fill_cc(struct sk_buff *skb, struct mrc_dev *mdev,
		   const struct genl_info *info)
{
	struct mrc_cc_params p;
	void *hdr;
	bool on;

	cc_profile(mdev, &on, &p);
	hdr = cc_msg_start(skb, mdev, info, on);
	if (!hdr)
		return -EMSGSIZE;
	if (put_knobs(skb, &p) ||
	    put_cc_counts(skb, atomic64_read(&mdev->cc_decreases),
			  atomic64_read(&mdev->cc_quick_adapts),
			  atomic64_read(&mdev->cc_timeouts))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int mrc_nl_cc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_get_one(info, MRC_A_CC_DEV_INDEX, MRC_A_CC_DEV_NAME,
			      fill_cc);
}

int mrc_nl_cc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_get_all(skb, cb, fill_cc);
}

int mrc_nl_cc_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct mrc_cc_params p;
	struct mrc_dev *mdev;
	const char *why;
	bool on;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_CC_DEV_INDEX,
				MRC_A_CC_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	/* one cc-set at a time: the check sees what it would write */
	mutex_lock(&mdev->cfg_lock);
	cc_profile(mdev, &on, &p);
	if (a[MRC_A_CC_ALGO])
		on = nla_get_u32(a[MRC_A_CC_ALGO]) == MRC_CC_ALGO_NSCC;
	take_knobs(a, &p);
	why = mrc_cc_params_check(&p);
	if (why) {
		mutex_unlock(&mdev->cfg_lock);
		NL_SET_ERR_MSG_FMT(info->extack, "%s", why);
		ib_device_put(&mdev->ib_dev);
		return -EINVAL;
	}
	spin_lock_bh(&mdev->cc_lock);
	mdev->cc_on = on;
	mdev->cc_params = p;
	spin_unlock_bh(&mdev->cc_lock);
	mutex_unlock(&mdev->cfg_lock);
	ib_device_put(&mdev->ib_dev);
	return 0;
}

/* what cc-qp-get reports of a QP, copied under its lock */
struct cc_qp_view {
	bool on;
	struct mrc_cc cc;
	u32 inflight;
	u32 srtt_us;
};

static int cc_qp_view(struct mrc_dev *mdev, u32 qpn, struct cc_qp_view *v,
		      struct netlink_ext_ack *extack)
{
	struct mrc_qp *qp = mrc_nl_rc_qp(mdev, qpn, extack);

	if (!qp)
		return -ENOENT;
	spin_lock_bh(&qp->lock);
	v->on = qp->req.cc_on;
	v->cc = qp->req.cc;
	v->inflight = qp->req.inflight;
	v->srtt_us = qp->req.srtt_us;
	spin_unlock_bh(&qp->lock);
	mrc_qp_put(qp);
	return 0;
}

static int fill_cc_qp(struct sk_buff *skb, struct mrc_dev *mdev, u32 qpn,
		      const struct cc_qp_view *v, const struct genl_info *info)
{
	const struct mrc_cc *cc = &v->cc;
	void *hdr;

	hdr = cc_msg_start(skb, mdev, info, v->on);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_CC_QPN, qpn) ||
	    nla_put_u32(skb, MRC_A_CC_INFLIGHT, v->inflight) ||
	    nla_put_u32(skb, MRC_A_CC_SRTT,
			min_t(u64, (u64)v->srtt_us * NSEC_PER_USEC, U32_MAX)))
		goto cancel;
	if (v->on &&
	    (nla_put_u32(skb, MRC_A_CC_CWND, cc->cwnd) ||
	     nla_put_u32(skb, MRC_A_CC_MAX_CWND, cc->max_cwnd) ||
	     nla_put_u32(skb, MRC_A_CC_BASE_RTT, cc->base_rtt) ||
	     nla_put_u32(skb, MRC_A_CC_AVG_DELAY, mrc_cc_avg_delay(cc)) ||
	     nla_put_uint(skb, MRC_A_CC_NACK_DECREASES,
			  cc->stats.nack_decreases) ||
	     put_cc_counts(skb, cc->stats.decreases, cc->stats.quick_adapts,
			   cc->stats.timeouts)))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* One RC QP's congestion control, as it is now: for its administrator */
int mrc_nl_cc_qp_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct cc_qp_view *v;
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	u32 qpn;
	int err;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_CC_DEV_INDEX,
				MRC_A_CC_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = -EINVAL;
	if (!info->attrs[MRC_A_CC_QPN]) {
		NL_SET_ERR_MSG(info->extack, "QP number required");
		goto out;
	}
	qpn = nla_get_u32(info->attrs[MRC_A_CC_QPN]);
	err = -ENOMEM;
	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		goto out;
	err = cc_qp_view(mdev, qpn, v, info->extack);
	if (err)
		goto free;
	err = -ENOMEM;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		goto free;
	err = fill_cc_qp(msg, mdev, qpn, v, info);
	if (err)
		nlmsg_free(msg);
	else
		err = genlmsg_reply(msg, info);
free:
	kfree(v);
out:
	ib_device_put(&mdev->ib_dev);
	return err;
}

/* ---- the controller's profiles ----------------------------------------- */

/* a copy of @pf, consistent: a cc-profile-set may be writing it */
static void profile_view(struct mrc_dev *mdev, const struct mrc_cc_profile *pf,
			 struct mrc_cc_profile *v)
{
	spin_lock_bh(&mdev->cc_lock);
	v->hdr.id = pf->hdr.id;
	v->hdr.state = pf->hdr.state;
	v->on = pf->on;
	v->configured = pf->configured;
	v->params = pf->params;
	spin_unlock_bh(&mdev->cc_lock);
	atomic_set(&v->hdr.qps, atomic_read(&pf->hdr.qps));
}

static int fill_profile(struct sk_buff *skb, struct mrc_dev *mdev,
			struct mrc_cc_profile *v, const struct genl_info *info)
{
	void *hdr = cc_msg_start(skb, mdev, info, v->on);

	if (!hdr)
		return -EMSGSIZE;
	if (mrc_nl_put_profile(skb, MRC_A_CC_PROFILE_ID, MRC_A_CC_PROFILE_QPS,
			       &v->hdr) ||
	    (v->configured && put_knobs(skb, &v->params))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* the profile a get request names, in @skb */
static int fill_profile_req(struct sk_buff *skb, struct mrc_dev *mdev,
			    const struct genl_info *info)
{
	struct mrc_cc_profile *pf, v;
	u64 id;
	int err;

	err = mrc_nl_profile_id(info, MRC_A_CC_PROFILE_ID, &id);
	if (err)
		return err;
	mutex_lock(&mdev->cfg_lock);
	pf = mrc_cc_profile_find(mdev, id);
	if (pf)
		profile_view(mdev, pf, &v);
	mutex_unlock(&mdev->cfg_lock);
	if (!pf) {
		NL_SET_ERR_MSG_FMT(info->extack, "profile %llu is in init", id);
		return -ENOENT;
	}
	return fill_profile(skb, mdev, &v, info);
}

int mrc_nl_cc_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_get_one(info, MRC_A_CC_DEV_INDEX, MRC_A_CC_DEV_NAME,
			      fill_profile_req);
}

static int dump_profiles(struct sk_buff *skb, struct mrc_dev *mdev,
			 struct netlink_callback *cb)
{
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	struct mrc_cc_profile v;
	int err;

	for (; pos->obj < MRC_MAX_CC_PROFILES; pos->obj++) {
		profile_view(mdev, &mdev->cc_profiles[pos->obj], &v);
		if (!v.hdr.id)
			continue;
		err = fill_profile(skb, mdev, &v, genl_info_dump(cb));
		if (err)
			return err;
	}
	return 0;
}

int mrc_nl_cc_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return mrc_nl_dump_devs(skb, cb, MRC_A_CC_DEV_INDEX, MRC_A_CC_DEV_NAME,
				dump_profiles);
}

int mrc_nl_cc_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_cc_profile_change ch = {};
	struct nlattr **a = info->attrs;
	struct mrc_cc_profile *pf;
	struct mrc_dev *mdev;
	bool on;
	u64 id;
	int err;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_CC_DEV_INDEX,
				MRC_A_CC_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = mrc_nl_profile_id(info, MRC_A_CC_PROFILE_ID, &id);
	if (err)
		goto out;
	mutex_lock(&mdev->cfg_lock);
	/* the knobs given go over the profile's, or the device's own */
	pf = mrc_cc_profile_find(mdev, id);
	if (pf && pf->configured)
		ch.params = pf->params;
	else
		cc_profile(mdev, &on, &ch.params);
	ch.set_params = take_knobs(a, &ch.params);
	ch.set_state = !!a[MRC_A_CC_PROFILE_STATE];
	if (ch.set_state)
		ch.state = nla_get_u32(a[MRC_A_CC_PROFILE_STATE]);
	ch.set_algo = !!a[MRC_A_CC_ALGO];
	if (ch.set_algo)
		ch.on = nla_get_u32(a[MRC_A_CC_ALGO]) == MRC_CC_ALGO_NSCC;
	err = mrc_cc_profile_set(mdev, id, &ch, info->extack);
	mutex_unlock(&mdev->cfg_lock);
out:
	ib_device_put(&mdev->ib_dev);
	return err;
}
