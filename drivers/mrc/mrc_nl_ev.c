// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" family's EV requests: one RC QP's EV set (ev-get), the
 * operator's deny and allow (ev-set), and its state changes
 * (ev-change-ntf on the "ev" group); by QP, or by the EV profile the QPs
 * are bound to (the profiles themselves: mrc_nl_ev_profile.c).
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
	    nla_put_u32(skb, MRC_A_EV_STATE, e->state) ||
	    (e->entry != MRC_EV_NO_ENTRY &&
	     nla_put_u32(skb, MRC_A_EV_ENTRY_INDEX, e->entry)))
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

/*
 * A copy of the EV set of RC or UC QP @qpn, taken under its lock. A UC QP
 * sprays over an EV set as RC does; nobody acknowledges it, so its EVs
 * show what was sent on them and never change health.
 */
static int copy_evs(struct mrc_dev *mdev, u32 qpn, struct mrc_ev *out,
		    u32 *n, struct netlink_ext_ack *extack)
{
	struct mrc_qp *qp = mrc_qp_get(mdev, qpn);

	if (qp && qp->ibqp.qp_type != IB_QPT_RC &&
	    qp->ibqp.qp_type != IB_QPT_UC) {
		mrc_qp_put(qp);
		qp = NULL;
	}
	if (!qp) {
		NL_SET_ERR_MSG(extack, "no such RC or UC QP");
		return -ENOENT;
	}
	spin_lock_bh(&qp->lock);
	*n = qp->evs ? qp->evs->n : 0;
	if (*n)
		memcpy(out, qp->evs->ev, *n * sizeof(*out));
	spin_unlock_bh(&qp->lock);
	mrc_qp_put(qp);
	return 0;
}

/*
 * Which EVs of the QPs bound to an EV profile a request names: that value
 * on that plane (mrc's own, AUTO), or the QPs' EVs made from the places
 * of the profile's array that hold those bytes on that plane (EXP, GEN)
 */
struct ev_match {
	struct mrc_ev_profile *pf;
	u32 value;
	u32 plane;
	bool bytes;
	u8 val[MRC_EV_BYTES];
};

/* the profile and EV a request names; cfg_lock held while it is used */
static int req_profile_ev(struct mrc_dev *mdev, const struct genl_info *info,
			  struct netlink_ext_ack *extack, struct ev_match *m)
{
	struct nlattr **a = info->attrs;
	u64 id;

	lockdep_assert_held(&mdev->cfg_lock);
	memset(m, 0, sizeof(*m));
	m->bytes = !!a[MRC_A_EV_EV_BYTES];
	if (!a[MRC_A_EV_PROFILE_ID] || !a[MRC_A_EV_PLANE] ||
	    (!m->bytes && !a[MRC_A_EV_VALUE])) {
		NL_SET_ERR_MSG(extack,
			       "QP number, or EV profile id, value (or ev-bytes) and plane, required");
		return -EINVAL;
	}
	id = nla_get_uint(a[MRC_A_EV_PROFILE_ID]);
	m->plane = nla_get_u32(a[MRC_A_EV_PLANE]);
	m->pf = id ? mrc_ev_profile_find(mdev, id) : NULL;
	if (!m->pf) {
		NL_SET_ERR_MSG_FMT(extack, "EV profile %llu is in init", id);
		return -ENOENT;
	}
	if (!m->bytes) {
		m->value = nla_get_u32(a[MRC_A_EV_VALUE]);
		return 0;
	}
	if (nla_len(a[MRC_A_EV_EV_BYTES]) > MRC_EV_BYTES ||
	    !mrc_ev_profile_listed(m->pf) || m->plane >= MRC_MAX_PLANES) {
		NL_SET_ERR_MSG_ATTR(extack, a[MRC_A_EV_EV_BYTES],
				    "ev-bytes: up to 32 bytes, of an exp or gen profile, on a plane");
		return -EINVAL;
	}
	nla_memcpy(m->val, a[MRC_A_EV_EV_BYTES], MRC_EV_BYTES);
	return 0;
}

/* does @e, of a QP bound to @m's profile, match? qp->lock held */
static bool ev_matches(const struct ev_match *m, const struct mrc_ev *e)
{
	const struct mrc_ev_entry *x;

	if (e->plane != m->plane)
		return false;
	if (!m->bytes)
		return e->value == m->value;
	if (e->entry >= m->pf->count || !m->pf->entries)
		return false;
	x = &m->pf->entries[e->entry];
	return x->port == m->plane + 1 && !memcmp(x->val, m->val, MRC_EV_BYTES);
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

/* the first EV from @i on of @qp that @m names, or -1; qp->lock held */
static int next_match(struct mrc_qp *qp, const struct ev_match *m, u32 i)
{
	for (; qp->evs && i < qp->evs->n; i++)
		if (ev_matches(m, &qp->evs->ev[i]))
			return i;
	return -1;
}

/* ev-get of a profile: the EVs it names of each bound QP */
static int dump_profile_ev(struct sk_buff *skb, struct netlink_callback *cb,
			   struct mrc_dev *mdev)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	unsigned long qpn = pos->obj;
	struct ev_match m;
	struct mrc_qp *qp;
	struct mrc_ev e;
	int i, err;

	mutex_lock(&mdev->cfg_lock);
	err = req_profile_ev(mdev, info, cb->extack, &m);
	while (!err && (qp = next_bound_qp(mdev, &m.pf->hdr, &qpn))) {
		if (qpn != pos->obj)
			pos->sub = 0;
		pos->obj = qpn;
		do {
			spin_lock_bh(&qp->lock);
			i = next_match(qp, &m, pos->sub);
			if (i >= 0)
				e = qp->evs->ev[i];
			spin_unlock_bh(&qp->lock);
			if (i >= 0)
				err = fill_ev(skb, mdev, qpn, i, &e, info);
			if (i >= 0 && !err)
				pos->sub = i + 1;
		} while (i >= 0 && !err);
		mrc_qp_put(qp);
		if (!err) {
			pos->obj = ++qpn;
			pos->sub = 0;
		}
	}
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

/*
 * ev-set of a profile: @sig to the EVs it names of each bound QP; for
 * EXP and GEN, to the profile's places first, which QPs connecting later
 * read
 */
static int set_profile_ev(struct mrc_dev *mdev, struct genl_info *info,
			  enum mrc_ev_sig sig)
{
	unsigned long qpn = 0;
	struct ev_match m;
	struct mrc_qp *qp;
	int i, n = 0, err;

	mutex_lock(&mdev->cfg_lock);
	err = req_profile_ev(mdev, info, info->extack, &m);
	if (err)
		goto out;
	if (m.bytes)
		n = mrc_ev_profile_deny(m.pf, m.val, m.plane + 1,
					sig == MRC_EV_SIG_DENY);
	for (; (qp = next_bound_qp(mdev, &m.pf->hdr, &qpn)); qpn++) {
		spin_lock_bh(&qp->lock);
		for (i = next_match(qp, &m, 0); i >= 0; i = next_match(qp, &m, i + 1)) {
			mrc_sched_signal(qp, i, sig);
			n++;
		}
		spin_unlock_bh(&qp->lock);
		mrc_qp_put(qp);
	}
	if (!n) {
		if (m.bytes)
			NL_SET_ERR_MSG_FMT(info->extack,
					   "the profile has no such EV on plane %u", m.plane);
		else
			NL_SET_ERR_MSG_FMT(info->extack,
					   "no QP bound to the profile has EV 0x%08x on plane %u",
					   m.value, m.plane);
		err = -ENOENT;
	}
out:
	mutex_unlock(&mdev->cfg_lock);
	return err;
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
	const struct mrc_ev_profile *pf = NULL;
	struct mrc_dev *mdev = qp->mdev;
	struct net_device *ndev;
	struct sk_buff *msg;
	struct net *net;
	void *hdr;

	if (h)
		pf = container_of(h, struct mrc_ev_profile, hdr);
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
	    (pf && (nla_put_uint(msg, MRC_A_EV_PROFILE_ID, pf->hdr.id) ||
		    nla_put_u32(msg, MRC_A_EV_EVENT_MASK, pf->event_mask) ||
		    (e->entry < pf->count && pf->entries &&
		     nla_put(msg, MRC_A_EV_EV_BYTES, MRC_EV_BYTES,
			     pf->entries[e->entry].val))))) {
		nlmsg_free(msg);
		goto out;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&mrc_nl_family, net, msg, 0, MRC_NLGRP_EV,
				GFP_ATOMIC);
out:
	rcu_read_unlock();
}
