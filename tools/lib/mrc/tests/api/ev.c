// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test: the EV profiles (AUTO mode) of the controller API */
#include "api.h"

#define EVP		43	/* the profile the section sets up */
#define EVP_STATE	MRC_CTL_EV_PROFILE_STATE
#define EVP_SHAPE	(MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_COUNT)
#define EVP_ONLINE	(MRC_CTL_EV_PROFILE_MIN_ACTIVE | MRC_CTL_EV_PROFILE_EVENT_MASK)
#define EVP_ALL		(EVP_STATE | MRC_CTL_EV_PROFILE_CUR_STATE | EVP_SHAPE | \
			 EVP_ONLINE | MRC_CTL_EV_PROFILE_FMT_ID)

/* profile @id of @e's device: the attributes of @mask set as given */
static int evp_set(struct env *e, uint64_t id, enum mrc_ctl_profile_state st,
		   uint32_t count, uint32_t min_active, int events, int mask)
{
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = st,
		.ev_mode = MRC_CTL_EV_MODE_AUTO,
		.ev_count = count,
		.ev_min_active = min_active,
		.ev_event_mask = events,
	};

	return mrc_ctl_modify_ev_profile(e->ctx, id, &a, mask);
}

/* a QP of @e's context to INIT bound to EV profile @id; like ibv_modify_qp */
static int qp_init_ev(struct mrc_qp *qp, uint64_t id)
{
	struct ibv_qp_attr va = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr ma = { .profile.ev_profile_id = id };

	return mrc_modify_qp(qp, &va, IBV_QP_STATE, &ma, MRC_QP_EV_PROFILE_ID);
}

uint32_t ev_free(struct env *e)
{
	struct mrc_ctl_device_attr ca = {};

	return mrc_ctl_query_device(e->vctx, &ca) ? 0 : ca.ev.ev_free_count;
}

/* the misuse of the calls, whatever the profile's state */
static void ev_profile_misuse(struct env *e)
{
	struct mrc_ctl_ev_profile_attr a = { .ev_mode = MRC_CTL_EV_MODE_AUTO };
	struct mrc_ctl_ev_op_entry ent = {};

	T_ERRNO(evp_set(e, 0, MRC_CTL_PROFILE_OFFLINE, 8, 0, 0,
			EVP_STATE | EVP_SHAPE), EINVAL, "modify of id 0: EINVAL");
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, 0, &a, EVP_STATE), EINVAL,
		"query of id 0: EINVAL");
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, NULL, EVP_STATE), EINVAL,
		"modify: NULL attributes: EINVAL");
	T_ERRNO(mrc_ctl_query_ev_profile(NULL, EVP, &a, EVP_STATE), EINVAL,
		"query: NULL context: EINVAL");
	a.ev_mode = MRC_CTL_EV_MODE_AUTO | MRC_CTL_EV_MODE_EXP;
	a.ev_count = 8;
	a.profile_state = MRC_CTL_PROFILE_OFFLINE;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, EVP_STATE | EVP_SHAPE),
		EINVAL, "mode AUTO|EXP (one mode, not two): EINVAL");
	a.ev_mode = (enum mrc_ctl_ev_mode)(1 << 3);
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, EVP_STATE | EVP_SHAPE),
		EINVAL, "mode 1 << 3 (not in ev_mode_mask): EINVAL");
	a.ev_mode = 0;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, EVP_STATE | EVP_SHAPE),
		EINVAL, "mode 0: EINVAL");
	T_ERRNO(evp_set(e, EVP, MRC_CTL_PROFILE_OFFLINE, 0, 0, 0,
			EVP_STATE | EVP_SHAPE), EINVAL, "count 0: EINVAL");
	T_ERRNO(evp_set(e, EVP, MRC_CTL_PROFILE_OFFLINE, 257, 0, 0,
			EVP_STATE | EVP_SHAPE), EINVAL,
		"count 257 (above ev_max_count_profile): EINVAL");
	T_ERRNO(evp_set(e, EVP, 0, 0, 0, MRC_CTL_EV_DENIED,
			MRC_CTL_EV_PROFILE_EVENT_MASK), EINVAL,
		"an event mask with DENIED: EINVAL");
	a.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
	a.ev_op.entries = &ent;
	a.ev_op.entry_count = 1;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP),
		EINVAL, "REPLACE_EV of a profile in INIT (no EV array): EINVAL");
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, EVP, &a, 1 << 20), EINVAL,
		"an unknown mask bit: EINVAL");
}

/* an AUTO profile has neither an EV array nor fields */
static void auto_no_array(struct env *e)
{
	struct mrc_ctl_ev_op_entry ent = {};
	struct mrc_ctl_ev_field f = { .width = 16, .mask = 0xffff };
	struct mrc_ctl_ev_profile_attr a = {
		.ev_op = { .op = MRC_CTL_EV_OP_REPLACE_EV, .entries = &ent,
			   .entry_count = 1 },
		.ev_fields_op = { .op = MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS,
				  .fields = &f, .field_count = 1 },
	};

	ent.ev_new.port = 1;
	ent.state = MRC_CTL_EV_GOOD;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP),
		EINVAL, "REPLACE_EV on an AUTO profile (no EV array): EINVAL");
	a.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP),
		EINVAL, "QUERY_EV_ARRAY of an AUTO profile: EINVAL");
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, EVP, &a,
					 MRC_CTL_EV_PROFILE_EV_FIELDS_OP), EINVAL,
		"QUERY_FIELDS of an AUTO profile (no fields): EINVAL");
	a.ev_fields_op.op = MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a,
					  MRC_CTL_EV_PROFILE_EV_FIELDS_OP), EINVAL,
		"MODIFY_FIELDS of an AUTO profile: EINVAL");
}

/* EV states of an online profile none of whose QPs has the EV */
static void ev_state_ops(struct env *e)
{
	struct mrc_ctl_ev_op_entry ent = { .ev.val = { 0xc0, 0, 1, 2 },
					   .ev.port = 1,
					   .state = MRC_CTL_EV_DENIED };
	struct mrc_ctl_ev_profile_attr a = {
		.ev_op = { .op = MRC_CTL_EV_OP_MODIFY_EV_STATE, .entries = &ent,
			   .entry_count = 1 },
	};

	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP),
		ENOENT, "MODIFY_EV_STATE of an EV no bound QP has: ENOENT");
	a.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_STATE;
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP),
		ENOENT, "QUERY_EV_STATE of it: ENOENT");
	a.ev_op.op = MRC_CTL_EV_OP_MODIFY_EV_STATE;
	ent.state = MRC_CTL_EV_ASSUMED_BAD;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP),
		EINVAL, "MODIFY_EV_STATE to ASSUMED_BAD (only DENIED or GOOD): EINVAL");
	ent.state = MRC_CTL_EV_GOOD;
	ent.ev.port = 17;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP),
		ENOENT, "MODIFY_EV_STATE of an EV of port 17: ENOENT");
	a.ev_op.entries = NULL;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP),
		EINVAL, "an EV op with NULL entries: EINVAL");
	a.ev_op.entry_count = 0;
	T_RC(mrc_ctl_modify_ev_profile(e->ctx, EVP, &a, MRC_CTL_EV_PROFILE_EV_OP), 0,
	     "an EV op of no entries");
}

void t_ev_profiles(struct env *e)
{
	struct mrc_ctl_ev_profile_attr q = {};
	struct mrc_ctl_device_attr ca = {};
	struct mrc_qp *a = NULL, *b = NULL;
	struct mrc_qp_attr ma = {};
	struct mrc_cq *cq = NULL;
	uint32_t free0, free1;
	int i, taken = 0;

	begin("EV profiles");
	T_TRUE(!mrc_ctl_query_device(e->vctx, &ca) &&
	       ca.ev.ev_max_profiles == 16 &&
	       (ca.ev.ev_mode_mask & MRC_CTL_EV_MODE_AUTO) &&
	       ca.ev.ev_max_count_profile == 256 &&
	       ca.ev.ev_max_count == 16 * 256,
	       "mrc_ctl_query_device: 16 EV profiles, AUTO, 256 EVs each");
	free0 = ev_free(e);
	ev_profile_misuse(e);
	q.profile_state = MRC_CTL_PROFILE_ONLINE;
	q.ev_count = 99;
	T_TRUE(!mrc_ctl_query_ev_profile(e->ctx, EVP, &q, EVP_ALL) &&
	       q.profile_state == MRC_CTL_PROFILE_INIT &&
	       q.cur_profile_state == MRC_CTL_PROFILE_INIT && !q.ev_count &&
	       !q.ev_mode,
	       "a profile never set is in INIT, with nothing set");
	T_ERRNO(evp_set(e, EVP, MRC_CTL_PROFILE_ONLINE, 8, 4,
			MRC_CTL_EV_ASSUMED_BAD, EVP_STATE | EVP_SHAPE | EVP_ONLINE),
		EINVAL, "INIT -> ONLINE: EINVAL");
	T_ERRNO(evp_set(e, EVP, MRC_CTL_PROFILE_OFFLINE, 8, 0, 0,
			EVP_STATE | MRC_CTL_EV_PROFILE_MODE), EINVAL,
		"INIT -> OFFLINE without a count: EINVAL");
	T_RC(evp_set(e, EVP, MRC_CTL_PROFILE_OFFLINE, 8, 0, 0,
		     EVP_STATE | EVP_SHAPE | MRC_CTL_EV_PROFILE_FMT_ID), 0,
	     "INIT -> OFFLINE, AUTO with 8 EVs (a format id is ignored)");
	free1 = ev_free(e);
	T_TRUE(free1 + 8 == free0, "ev_free_count %u -> %u: 8 taken", free0, free1);
	T_TRUE(!mrc_ctl_query_ev_profile(e->ctx, EVP, &q, EVP_ALL) &&
	       q.profile_state == MRC_CTL_PROFILE_OFFLINE &&
	       q.ev_mode == MRC_CTL_EV_MODE_AUTO && q.ev_count == 8 &&
	       !q.ev_fmt_profile_id,
	       "query: OFFLINE, AUTO, 8 EVs");
	auto_no_array(e);
	T_ERRNO(evp_set(e, EVP, MRC_CTL_PROFILE_ONLINE, 0, 4, 0,
			EVP_STATE | MRC_CTL_EV_PROFILE_MIN_ACTIVE), EINVAL,
		"OFFLINE -> ONLINE without an event mask: EINVAL");
	T_ERRNO(evp_set(e, EVP, MRC_CTL_PROFILE_ONLINE, 0, 9,
			MRC_CTL_EV_ASSUMED_BAD, EVP_STATE | EVP_ONLINE), EINVAL,
		"min_active 9 above the count (8): EINVAL");
	T_RC(evp_set(e, EVP, MRC_CTL_PROFILE_ONLINE, 0, 4, MRC_CTL_EV_ASSUMED_BAD,
		     EVP_STATE | EVP_ONLINE), 0,
	     "OFFLINE -> ONLINE with min_active 4, events ASSUMED_BAD");
	T_TRUE(!mrc_ctl_query_ev_profile(e->ctx, EVP, &q, EVP_ALL) &&
	       q.profile_state == MRC_CTL_PROFILE_ONLINE && q.ev_min_active == 4 &&
	       q.ev_event_mask == MRC_CTL_EV_ASSUMED_BAD,
	       "query: ONLINE, min_active 4, events ASSUMED_BAD");
	ev_state_ops(e);
	T_ERRNO(evp_set(e, EVP, 0, 16, 0, 0, MRC_CTL_EV_PROFILE_COUNT), EINVAL,
		"an ONLINE profile's count does not change: EINVAL");
	T_ERRNO(evp_set(e, EVP, 0, 0, 0, MRC_CTL_EV_GOOD,
			MRC_CTL_EV_PROFILE_EVENT_MASK), EINVAL,
		"nor its event mask (no EV_PROFILE_MODIFY_ONLINE): EINVAL");
	T_ERRNO(evp_set(e, EVP, MRC_CTL_PROFILE_INIT, 0, 0, 0, EVP_STATE), EINVAL,
		"ONLINE -> INIT: EINVAL");

	/* QPs: bound at INIT to an online profile only, and it stays online */
	T_PTR(cq, mrc_create_cq(e->ctx, CQE, NULL, NULL, 0), "a CQ for the QPs");
	if (cq) {
		T_PTR(a, qp_new(e, e->ctx, cq, cq, NULL), "QP a");
		T_PTR(b, qp_new(e, e->ctx, cq, cq, NULL), "QP b");
	}
	if (a && b) {
		T_RC(qp_init_ev(b, EVP + 1), EINVAL,
		     "INIT bound to a profile in INIT: EINVAL");
		T_TRUE(qp_state(b) == IBV_QPS_RESET, "... and the QP stays in RESET");
		T_RC(qp_init_ev(a, EVP), 0, "a to INIT bound to profile %d", EVP);
		T_TRUE(!mrc_query_qp(a, NULL, 0, &ma, MRC_QP_EV_PROFILE_ID, NULL) &&
		       ma.profile.ev_profile_id == EVP,
		       "mrc_query_qp: a's EV profile is %d", EVP);
		T_ERRNO(evp_set(e, EVP, MRC_CTL_PROFILE_OFFLINE, 0, 0, 0, EVP_STATE),
			EBUSY, "ONLINE -> OFFLINE while a QP is bound: EBUSY");
		T_RC(evp_set(e, EVP + 1, MRC_CTL_PROFILE_OFFLINE, 4, 0, 0,
			     EVP_STATE | EVP_SHAPE), 0,
		     "profile %d OFFLINE", EVP + 1);
		T_RC(qp_init_ev(b, EVP + 1), EINVAL,
		     "INIT bound to an OFFLINE profile: EINVAL");
		T_RC(qp_init_ev(a, 0), 0, "a to INIT again, bound to none");
		T_RC(evp_set(e, EVP, MRC_CTL_PROFILE_OFFLINE, 0, 0, 0, EVP_STATE), 0,
		     "... which lets the profile go OFFLINE");
		T_RC(evp_set(e, EVP, MRC_CTL_PROFILE_ONLINE, 0, 0, 0, EVP_STATE), 0,
		     "and ONLINE again");
		T_RC(qp_init_ev(a, EVP), 0, "a bound to it again");
		T_RC(mrc_destroy_qp(a), 0, "a destroyed");
		a = NULL;
	}
	if (a)
		mrc_destroy_qp(a);
	if (b)
		mrc_destroy_qp(b);
	if (cq)
		mrc_destroy_cq(cq);
	T_RC(evp_set(e, EVP, MRC_CTL_PROFILE_OFFLINE, 0, 0, 0, EVP_STATE), 0,
	     "with its QP gone, ONLINE -> OFFLINE");
	T_RC(evp_set(e, EVP, MRC_CTL_PROFILE_INIT, 0, 0, 0, EVP_STATE), 0,
	     "OFFLINE -> INIT");
	evp_set(e, EVP + 1, MRC_CTL_PROFILE_INIT, 0, 0, 0, EVP_STATE);
	T_TRUE(!mrc_ctl_query_ev_profile(e->ctx, EVP, &q, EVP_ALL) &&
	       q.profile_state == MRC_CTL_PROFILE_INIT && !q.ev_count,
	       "INIT again: nothing kept");
	T_TRUE(ev_free(e) == free0, "ev_free_count back to %u", free0);

	/* the device keeps 16 */
	for (i = 0; i < 16; i++)
		taken += !evp_set(e, 1000 + i, MRC_CTL_PROFILE_OFFLINE, 256, 0, 0,
				  EVP_STATE | EVP_SHAPE);
	T_TRUE(taken == 16, "16 profiles of 256 EVs OFFLINE (%d)", taken);
	T_TRUE(ev_free(e) == 0, "ev_free_count 0 (%u)", ev_free(e));
	T_ERRNO(evp_set(e, 2000, MRC_CTL_PROFILE_OFFLINE, 1, 0, 0,
			EVP_STATE | EVP_SHAPE), ENOSPC, "a 17th: ENOSPC");
	for (i = 0; i < 16; i++)
		evp_set(e, 1000 + i, MRC_CTL_PROFILE_INIT, 0, 0, 0, EVP_STATE);
	T_RC(evp_set(e, 2000, MRC_CTL_PROFILE_OFFLINE, 1, 0, 0,
		     EVP_STATE | EVP_SHAPE), 0, "once they are back in INIT, it fits");
	evp_set(e, 2000, MRC_CTL_PROFILE_INIT, 0, 0, 0, EVP_STATE);
}
