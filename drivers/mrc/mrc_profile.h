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

struct netlink_ext_ack;

struct mrc_profile *mrc_profile_lookup(void *table, size_t size, u32 n,
				       u64 id);
struct mrc_profile *mrc_profile_slot(void *table, size_t size, u32 n, u64 id,
				     struct netlink_ext_ack *extack);
void mrc_profile_settle(struct mrc_profile *pf, u64 id);

/*
 * The profile of id @id in table @arr (an array of structs whose first
 * member is their struct mrc_profile), or NULL; id 0: a free slot
 */
#define mrc_profile_find_in(arr, id)					\
	((typeof(&(arr)[0]))mrc_profile_lookup((arr), sizeof((arr)[0]),	\
					       ARRAY_SIZE(arr), (id)))
/* the slot an x-set request works on (mrc_profile_slot()) */
#define mrc_profile_slot_in(arr, id, extack)				\
	((typeof(&(arr)[0]))mrc_profile_slot((arr), sizeof((arr)[0]),	\
					     ARRAY_SIZE(arr), (id), (extack)))

int mrc_profile_online(struct mrc_profile *pf, u64 id,
		       struct mrc_profile **out);
void mrc_profile_bind(struct mrc_profile **slot, struct mrc_profile *pf);
void mrc_profile_unbind(struct mrc_profile **slot);

#endif /* _MRC_PROFILE_H */
