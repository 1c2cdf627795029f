// SPDX-License-Identifier: GPL-2.0
/* The controller's profile tables, and binding RC QPs to profiles (mrc_profile.h) */
#include "mrc.h"

/*
 * The profile of id @id in a table of @n, @size bytes apart, each
 * starting with its struct mrc_profile, or NULL; id 0: a free slot. The
 * table's writers and readers hold cfg_lock.
 */
struct mrc_profile *mrc_profile_lookup(void *table, size_t size, u32 n,
				       u64 id)
{
	u32 i;

	for (i = 0; i < n; i++) {
		struct mrc_profile *pf = table + i * size;

		if (pf->id == id)
			return pf;
	}
	return NULL;
}

/**
 * mrc_profile_slot() - the profile a set request for @id works on
 * @table: the table (mrc_profile_lookup())
 * @size: bytes from one profile to the next
 * @n: profiles in it
 * @id: the id asked for, not 0
 * @extack: why none
 *
 * Return: the profile of that id, or a free slot in state init, or
 * ERR_PTR(-ENOSPC) when every slot is taken.
 */
struct mrc_profile *mrc_profile_slot(void *table, size_t size, u32 n, u64 id,
				     struct netlink_ext_ack *extack)
{
	struct mrc_profile *pf = mrc_profile_lookup(table, size, n, id);

	if (pf)
		return pf;
	pf = mrc_profile_lookup(table, size, n, 0);
	if (!pf) {
		NL_SET_ERR_MSG_FMT(extack, "the device keeps %u of these profiles, all in use",
				   n);
		return ERR_PTR(-ENOSPC);
	}
	pf->state = MRC_CC_PROFILE_STATE_INIT;
	return pf;
}

/* after a change: a profile back in init leaves its table, and its id with it */
void mrc_profile_settle(struct mrc_profile *pf, u64 id)
{
	pf->id = pf->state == MRC_CC_PROFILE_STATE_INIT ? 0 : id;
}

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
