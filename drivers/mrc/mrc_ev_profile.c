// SPDX-License-Identifier: GPL-2.0
/*
 * EV profiles, as the OCP MRC controller API has them: a device keeps up
 * to MRC_MAX_EV_PROFILES (mrc_profile.h), going init -> offline -> online
 * and back (ev-profile-set, mrc_nl_ev.c).
 * mrc has one mode, AUTO: a QP bound to a profile (its uverbs method,
 * mrc_uapi.c) builds its EV set from its peer's path set as any QP does,
 * with the profile's count and floor instead of the device's, and its EV
 * state changes name the profile and its event mask.
 *
 * Writers of the table and of a QP's binding, and readers of the table,
 * hold the device's cfg_lock; a bound QP reads its profile without one.
 */
#include <kunit/visibility.h>

#include "mrc.h"

/**
 * mrc_ev_profile_apply() - a profile's next state, by the OCP API's rules
 * @pf: the profile (state INIT if new); changed only on success
 * @ch: what the controller asks
 * @err: 0, -EINVAL or -EBUSY
 *
 * Return: NULL, or why the change is refused (with @err)
 */
const char *mrc_ev_profile_apply(struct mrc_ev_profile *pf,
				 const struct mrc_ev_profile_change *ch,
				 int *err)
{
	u8 to = ch->set_state ? ch->state : pf->hdr.state;
	struct mrc_ev_profile next = *pf;

	*err = -EINVAL;
	switch (pf->hdr.state) {
	case MRC_CC_PROFILE_STATE_INIT:
		if (to == MRC_CC_PROFILE_STATE_INIT && !ch->set)
			break;
		if (to != MRC_CC_PROFILE_STATE_OFFLINE ||
		    (ch->set & (MRC_EV_PROFILE_HAS_MODE | MRC_EV_PROFILE_HAS_COUNT)) !=
		    (MRC_EV_PROFILE_HAS_MODE | MRC_EV_PROFILE_HAS_COUNT))
			return "from init a profile goes offline, with a mode and a count";
		break;
	case MRC_CC_PROFILE_STATE_OFFLINE:
		break;
	case MRC_CC_PROFILE_STATE_ONLINE:
		if (ch->set || to == MRC_CC_PROFILE_STATE_INIT)
			return "an online profile only goes offline";
		if (to == MRC_CC_PROFILE_STATE_OFFLINE && atomic_read(&pf->hdr.qps)) {
			*err = -EBUSY;
			return "QPs are bound to the profile";
		}
		break;
	}
	next.has |= ch->set;
	if (ch->set & MRC_EV_PROFILE_HAS_MODE)
		next.mode = ch->mode;
	if (ch->set & MRC_EV_PROFILE_HAS_COUNT)
		next.count = ch->count;
	if (ch->set & MRC_EV_PROFILE_HAS_MIN_ACTIVE)
		next.min_active = ch->min_active;
	if (ch->set & MRC_EV_PROFILE_HAS_EVENT_MASK)
		next.event_mask = ch->event_mask;
	if (to == MRC_CC_PROFILE_STATE_ONLINE &&
	    (!(next.has & MRC_EV_PROFILE_HAS_MIN_ACTIVE) ||
	     !(next.has & MRC_EV_PROFILE_HAS_EVENT_MASK)))
		return "a profile goes online with its floor (min-active) and event mask";
	if ((next.has & MRC_EV_PROFILE_HAS_MIN_ACTIVE) &&
	    next.min_active > next.count)
		return "min-active is more than the count";
	*err = 0;
	if (to == MRC_CC_PROFILE_STATE_INIT) {
		next.has = 0;
		next.mode = 0;
		next.count = 0;
		next.min_active = 0;
		next.event_mask = 0;
	}
	pf->hdr.state = to;
	pf->has = next.has;
	pf->mode = next.mode;
	pf->count = next.count;
	pf->min_active = next.min_active;
	pf->event_mask = next.event_mask;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_ev_profile_apply);

/* the profile of id @id, or NULL; id 0: a free slot; cfg_lock held */
struct mrc_ev_profile *mrc_ev_profile_find(struct mrc_dev *mdev, u64 id)
{
	u32 i;

	lockdep_assert_held(&mdev->cfg_lock);
	for (i = 0; i < ARRAY_SIZE(mdev->ev_profiles); i++)
		if (mdev->ev_profiles[i].hdr.id == id)
			return &mdev->ev_profiles[i];
	return NULL;
}

/**
 * mrc_ev_profile_set() - ev-profile-set: change profile @id of @mdev
 * @mdev: the device; cfg_lock held
 * @id: the profile's id, not 0
 * @ch: the change (mrc_ev_profile_apply())
 * @extack: why a refusal
 *
 * A profile that goes back to init leaves the table, and its id with it.
 *
 * Return: 0, -EINVAL, -EBUSY or -ENOSPC (every slot taken)
 */
int mrc_ev_profile_set(struct mrc_dev *mdev, u64 id,
		       const struct mrc_ev_profile_change *ch,
		       struct netlink_ext_ack *extack)
{
	struct mrc_ev_profile *pf = mrc_ev_profile_find(mdev, id);
	const char *why;
	int err;

	if (!pf) {
		pf = mrc_ev_profile_find(mdev, 0);
		if (!pf) {
			NL_SET_ERR_MSG_FMT(extack, "the device keeps %u EV profiles, all in use",
					   MRC_MAX_EV_PROFILES);
			return -ENOSPC;
		}
		pf->hdr.state = MRC_CC_PROFILE_STATE_INIT;
	}
	/* readers hold cfg_lock too: nobody sees it half changed */
	why = mrc_ev_profile_apply(pf, ch, &err);
	if (why) {
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return err;
	}
	pf->hdr.id = pf->hdr.state == MRC_CC_PROFILE_STATE_INIT ? 0 : id;
	return 0;
}

/*
 * The shape of the EV set a connecting RC QP builds: its profile's count
 * and floor, or the device's count and the default floor (0)
 */
void mrc_ev_profile_shape(struct mrc_qp *qp, u32 *count, u32 *min_active)
{
	const struct mrc_profile *h = READ_ONCE(qp->ev_profile);
	const struct mrc_ev_profile *pf;

	if (h) {
		pf = container_of(h, struct mrc_ev_profile, hdr);
		*count = pf->count;
		*min_active = pf->min_active;
	} else {
		*count = READ_ONCE(qp->mdev->ev_count);
		*min_active = 0;
	}
}
