// SPDX-License-Identifier: GPL-2.0
/* Binding RC QPs to the controller's profiles (mrc_profile.h) */
#include "mrc.h"

/**
 * mrc_profile_online() - what a QP asking for profile @id binds
 * @pf: the profile of that id, or NULL (none)
 * @id: the id asked for; 0: none (the device's own)
 * @out: @pf, or NULL for id 0
 *
 * Return: 0, or -EINVAL (no such profile online)
 */
int mrc_profile_online(struct mrc_profile *pf, u64 id,
		       struct mrc_profile **out)
{
	*out = NULL;
	if (!id)
		return 0;
	if (!pf || pf->state != MRC_CC_PROFILE_STATE_ONLINE)
		return -EINVAL;
	*out = pf;
	return 0;
}

/* bind a QP (not started) through its @slot to @pf, NULL: none; cfg_lock held */
void mrc_profile_bind(struct mrc_profile **slot, struct mrc_profile *pf)
{
	struct mrc_profile *old = *slot;

	if (pf)
		atomic_inc(&pf->qps);
	WRITE_ONCE(*slot, pf);
	if (old)
		atomic_dec(&old->qps);
}

/* the QP goes: its profile may go offline again */
void mrc_profile_unbind(struct mrc_profile **slot)
{
	if (*slot)
		atomic_dec(&(*slot)->qps);
	*slot = NULL;
}
