/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the controller's profiles share (the OCP MRC API's CC and EV
 * profiles: mrc_cc_profile.c, mrc_ev_profile.c). A profile lives in a
 * table of its device as long as the device, named by the id its
 * controller chose (0: the slot is free) and in the API's states. An RC
 * QP bound to one counts in it until the QP is destroyed, and an online
 * profile with QPs neither changes nor goes offline, so a bound QP reads
 * it without a lock. Writers of the tables and bindings hold cfg_lock.
 */
#ifndef _MRC_PROFILE_H
#define _MRC_PROFILE_H

#include <linux/atomic.h>
#include <linux/types.h>

struct mrc_profile {
	u64 id;
	u8 state;		/* enum mrc_cc_profile_state */
	atomic_t qps;		/* RC QPs bound to it */
};

/* the entry of table @tab (profiles with a member hdr) named @id, or NULL */
#define mrc_profile_find(tab, id)					\
({									\
	typeof(&(tab)[0]) __pf = NULL;					\
	u32 __i;							\
									\
	for (__i = 0; __i < ARRAY_SIZE(tab); __i++)			\
		if ((tab)[__i].hdr.id == (id)) {			\
			__pf = &(tab)[__i];				\
			break;						\
		}							\
	__pf;								\
})

/* profile @pf (typed, or NULL) as a QP binds it by @id (mrc_profile_online()) */
#define mrc_profile_lookup(pf, id, out)					\
({									\
	typeof(pf) __p = (pf);						\
									\
	mrc_profile_online(__p ? &__p->hdr : NULL, id, out);		\
})

int mrc_profile_online(struct mrc_profile *pf, u64 id,
		       struct mrc_profile **out);
void mrc_profile_bind(struct mrc_profile **slot, struct mrc_profile *pf);
void mrc_profile_unbind(struct mrc_profile **slot);

#endif /* _MRC_PROFILE_H */
