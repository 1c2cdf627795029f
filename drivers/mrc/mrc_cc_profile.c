// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion control profiles, as the OCP MRC controller API has them:
 * besides its own profile (cc-get, cc-set) a device keeps up to
 * MRC_MAX_CC_PROFILES (mrc_profile.h), going init -> offline -> online and
 * back (cc-profile-set, mrc_nl_cc.c). An RC QP is bound to one before it
 * starts (its uverbs method, mrc_uapi.c) and copies its knobs at RTS as it
 * would the device's.
 *
 * Writers of the table and of a QP's binding hold the device's cfg_lock;
 * what a starting QP copies is read under cc_lock.
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
	enum mrc_cc_profile_state to = ch->set_state ? ch->state : pf->hdr.state;
	bool on = ch->set_algo ? ch->on : pf->on;
	bool configured = pf->configured || ch->set_params;
	const char *why;

	*err = -EINVAL;
	switch (pf->hdr.state) {
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
		if (to == MRC_CC_PROFILE_STATE_OFFLINE && atomic_read(&pf->hdr.qps)) {
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
		pf->hdr.state = to;
		pf->on = false;
		pf->configured = false;
		memset(&pf->params, 0, sizeof(pf->params));
		return NULL;
	}
	pf->hdr.state = to;
	pf->on = on;
	pf->configured = configured;
	if (ch->set_params)
		pf->params = ch->params;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_cc_profile_apply);

/* the profile of id @id, or NULL; id 0: a free slot; cfg_lock held */
struct mrc_cc_profile *mrc_cc_profile_find(struct mrc_dev *mdev, u64 id)
{
	lockdep_assert_held(&mdev->cfg_lock);
	return mrc_profile_find_in(mdev->cc_profiles, id);
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
	struct mrc_cc_profile *pf, next;
	const char *why;
	int err;

	pf = mrc_profile_slot_in(mdev->cc_profiles, id, extack);
	if (IS_ERR(pf))
		return PTR_ERR(pf);
	/* worked out on a copy: readers see the old profile or the new */
	next = *pf;
	why = mrc_cc_profile_apply(&next, ch, &err);
	if (why) {
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return err;
	}
	spin_lock_bh(&mdev->cc_lock);
	pf->hdr.state = next.hdr.state;
	pf->on = next.on;
	pf->configured = next.configured;
	pf->params = next.params;
	mrc_profile_settle(&pf->hdr, id);
	spin_unlock_bh(&mdev->cc_lock);
	return 0;
}

/*
 * What a starting RC QP copies (cc_lock held): its profile's, or the
 * device's own when it has none
 */
void mrc_cc_profile_copy(struct mrc_qp *qp, bool *on, struct mrc_cc_params *p)
{
	const struct mrc_profile *h = READ_ONCE(qp->cc_profile);
	const struct mrc_cc_profile *pf;

	lockdep_assert_held(&qp->mdev->cc_lock);
	if (h) {
		pf = container_of(h, struct mrc_cc_profile, hdr);
		*on = pf->on;
		*p = pf->params;
	} else {
		*on = qp->mdev->cc_on;
		*p = qp->mdev->cc_params;
	}
}
