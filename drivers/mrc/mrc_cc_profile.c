// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion control profiles, as the OCP MRC controller API has them:
 * besides its own profile (cc-get, cc-set) a device keeps up to
 * MRC_MAX_CC_PROFILES, each named by an id its controller chose and going
 * init -> offline -> online and back (cc-profile-set, mrc_nl_cc.c). An RC
 * QP is bound to one before it starts (its uverbs method, mrc_uapi.c) and
 * copies its knobs at RTS as it would the device's.
 *
 * Writers of the table and of a QP's binding hold the device's cfg_lock;
 * what a starting QP copies is read under cc_lock. A profile lives in its
 * device's table as long as the device; a bound QP counts in it until the
 * QP is destroyed, and an online profile with QPs does not change.
 */
#include <kunit/visibility.h>

#include "mrc.h"

/**
 * mrc_cc_profile_apply() - a profile's next state, by the OCP API's rules
 * @pf: the profile (state INIT if new); changed only on success
 * @ch: what the controller asks; @ch->params complete (the caller merged
 *	the knobs given into the profile's), @ch->set_params if any given
 * @err: 0, -EINVAL or -EBUSY
 *
 * Return: NULL, or why the change is refused (with @err)
 */
const char *mrc_cc_profile_apply(struct mrc_cc_profile *pf,
				 const struct mrc_cc_profile_change *ch,
				 int *err)
{
	enum mrc_cc_profile_state to = ch->set_state ? ch->state : pf->state;
	bool on = ch->set_algo ? ch->on : pf->on;
	bool configured = pf->configured || ch->set_params;
	const char *why;

	*err = -EINVAL;
	switch (pf->state) {
	case MRC_CC_PROFILE_STATE_INIT:
		if (to == MRC_CC_PROFILE_STATE_INIT && !ch->set_algo &&
		    !ch->set_params)
			break;
		if (to != MRC_CC_PROFILE_STATE_OFFLINE || !ch->set_algo)
			return "from init a profile goes offline, with an algorithm";
		break;
	case MRC_CC_PROFILE_STATE_OFFLINE:
		break;
	case MRC_CC_PROFILE_STATE_ONLINE:
		if (ch->set_algo || ch->set_params || to == MRC_CC_PROFILE_STATE_INIT)
			return "an online profile only goes offline";
		if (to == MRC_CC_PROFILE_STATE_OFFLINE && atomic_read(&pf->qps)) {
			*err = -EBUSY;
			return "QPs use the profile";
		}
		break;
	}
	if (ch->set_params) {
		why = mrc_cc_params_check(&ch->params);
		if (why)
			return why;
	}
	if (to == MRC_CC_PROFILE_STATE_ONLINE && on && !configured)
		return "an NSCC profile goes online with its knobs";
	*err = 0;
	if (to == MRC_CC_PROFILE_STATE_INIT) {
		pf->state = to;
		pf->on = false;
		pf->configured = false;
		memset(&pf->params, 0, sizeof(pf->params));
		return NULL;
	}
	pf->state = to;
	pf->on = on;
	pf->configured = configured;
	if (ch->set_params)
		pf->params = ch->params;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_cc_profile_apply);

/* the profile of id @id (not 0), or NULL; cfg_lock held */
struct mrc_cc_profile *mrc_cc_profile_find(struct mrc_dev *mdev, u64 id)
{
	u32 i;

	lockdep_assert_held(&mdev->cfg_lock);
	for (i = 0; i < MRC_MAX_CC_PROFILES; i++)
		if (mdev->cc_profiles[i].id == id)
			return &mdev->cc_profiles[i];
	return NULL;
}

/**
 * mrc_cc_profile_set() - cc-profile-set: change profile @id of @mdev
 * @mdev: the device; cfg_lock held
 * @id: the profile's id, not 0
 * @ch: the change (mrc_cc_profile_apply())
 * @extack: why a refusal
 *
 * A profile that goes back to init leaves the table, and its id with it.
 *
 * Return: 0, -EINVAL, -EBUSY or -ENOSPC (every slot taken)
 */
int mrc_cc_profile_set(struct mrc_dev *mdev, u64 id,
		       const struct mrc_cc_profile_change *ch,
		       struct netlink_ext_ack *extack)
{
	struct mrc_cc_profile *pf = mrc_cc_profile_find(mdev, id);
	struct mrc_cc_profile next;
	const char *why;
	int err;

	if (!pf) {
		pf = mrc_cc_profile_find(mdev, 0);
		if (!pf) {
			NL_SET_ERR_MSG_FMT(extack, "the device keeps %u profiles, all in use",
					   MRC_MAX_CC_PROFILES);
			return -ENOSPC;
		}
	}
	/* worked out on a copy: readers see the old profile or the new */
	next = *pf;
	if (!next.id)
		next.state = MRC_CC_PROFILE_STATE_INIT;
	why = mrc_cc_profile_apply(&next, ch, &err);
	if (why) {
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return err;
	}
	spin_lock_bh(&mdev->cc_lock);
	pf->state = next.state;
	pf->on = next.on;
	pf->configured = next.configured;
	pf->params = next.params;
	pf->id = next.state == MRC_CC_PROFILE_STATE_INIT ? 0 : id;
	spin_unlock_bh(&mdev->cc_lock);
	return 0;
}

/**
 * mrc_cc_profile_bind() - the QP's uverbs method: bind @qp to profile @id
 * @qp: an RC QP in RESET or INIT
 * @id: an online profile of its device; 0: the device's own profile
 *
 * Return: 0, -EINVAL (not an RC QP, started, or no such profile online)
 */
int mrc_cc_profile_bind(struct mrc_qp *qp, u64 id)
{
	struct mrc_dev *mdev = qp->mdev;
	struct mrc_cc_profile *pf = NULL, *old;
	enum ib_qp_state state;
	int err = 0;

	if (qp->ibqp.qp_type != IB_QPT_RC)
		return -EINVAL;
	spin_lock_bh(&qp->lock);
	state = qp->state;
	spin_unlock_bh(&qp->lock);
	if (state != IB_QPS_RESET && state != IB_QPS_INIT)
		return -EINVAL;
	mutex_lock(&mdev->cfg_lock);
	if (id) {
		pf = mrc_cc_profile_find(mdev, id);
		if (!pf || pf->state != MRC_CC_PROFILE_STATE_ONLINE) {
			err = -EINVAL;
			goto out;
		}
		atomic_inc(&pf->qps);
	}
	old = qp->cc_profile;
	WRITE_ONCE(qp->cc_profile, pf);
	if (old)
		atomic_dec(&old->qps);
out:
	mutex_unlock(&mdev->cfg_lock);
	return err;
}

/* the QP goes: its profile may go offline again */
void mrc_cc_profile_unbind(struct mrc_qp *qp)
{
	if (qp->cc_profile)
		atomic_dec(&qp->cc_profile->qps);
	qp->cc_profile = NULL;
}

/*
 * What a starting RC QP copies (cc_lock held): its profile's, or the
 * device's own when it has none
 */
void mrc_cc_profile_copy(struct mrc_qp *qp, bool *on, struct mrc_cc_params *p)
{
	const struct mrc_cc_profile *pf = READ_ONCE(qp->cc_profile);

	lockdep_assert_held(&qp->mdev->cc_lock);
	if (pf) {
		*on = pf->on;
		*p = pf->params;
	} else {
		*on = qp->mdev->cc_on;
		*p = qp->mdev->cc_params;
	}
}
