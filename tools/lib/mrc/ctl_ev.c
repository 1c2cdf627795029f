// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: EV profiles of the controller API over the kernel's
 * (ev-profile-get, ev-profile-set of the "mrc" family).
 *
 * mrc has the API's AUTO mode only: the controller names no EVs; a QP
 * bound to the profile (MRC_QP_EV_PROFILE_ID) builds its EV set from its
 * peer's path set, with the profile's count (rotation slots) and floor
 * (ev_min_active), and its EV state changes reach the EV event CQ as the
 * profile's, filtered by the profile's event mask. The EVs the events
 * name (mrc's 32-bit values, in the first four bytes, network order, and
 * the port of their plane) can be denied and allowed again, and their
 * state queried (MODIFY_EV_STATE, QUERY_EV_STATE: ev-set and ev-get of
 * the profile, over every QP bound to it). An AUTO profile needs no EV
 * format profile (its id is taken and ignored) and has neither an EV
 * array nor fields: REPLACE_EV, QUERY_EV_ARRAY and field operations are
 * EINVAL, as is a mode the device does not list in ev_mode_mask.
 */
#include <errno.h>
#include <string.h>

#include "libmrc.h"

#define EV_MASK_ALL	(MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_CUR_STATE | \
			 MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID | \
			 MRC_CTL_EV_PROFILE_COUNT | MRC_CTL_EV_PROFILE_MIN_ACTIVE | \
			 MRC_CTL_EV_PROFILE_EVENT_MASK | MRC_CTL_EV_PROFILE_EV_OP | \
			 MRC_CTL_EV_PROFILE_EV_FIELDS_OP | \
			 MRC_CTL_EV_PROFILE_VENDOR_CFG)
#define EV_EVENTS	(MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD)

/* the API's event mask in the kernel's bits, and back */
static uint32_t events_to_kernel(uint32_t m)
{
	return (m & MRC_CTL_EV_GOOD ? MRC_EV_EVENT_GOOD : 0) |
	       (m & MRC_CTL_EV_ASSUMED_BAD ? MRC_EV_EVENT_ASSUMED_BAD : 0);
}

static uint32_t events_from_kernel(uint32_t m)
{
	return (m & MRC_EV_EVENT_GOOD ? MRC_CTL_EV_GOOD : 0) |
	       (m & MRC_EV_EVENT_ASSUMED_BAD ? MRC_CTL_EV_ASSUMED_BAD : 0);
}

/* the arguments of either call: 0, or -1 with errno */
static int ev_profile_args(struct mrc_context *ctx, uint64_t id,
			   const struct mrc_ctl_ev_profile_attr *attr, int mask)
{
	if (mrc_ctl_claim(ctx))
		return -1;
	/* an AUTO profile has no fields to work on */
	if (!attr || !id || (mask & ~EV_MASK_ALL) ||
	    (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) ||
	    ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	     (attr->ev_op.entry_count < 0 ||
	      (attr->ev_op.entry_count && !attr->ev_op.entries))) ||
	    ((mask & MRC_CTL_EV_PROFILE_VENDOR_CFG) &&
	     !mrc_vendor_cfg_empty(attr->vendor_cfg))) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* the mrc EV an API EV names: its 32-bit value and plane; -1 if none */
static int ev_of(const struct mrc_ctl_ev *ev, uint32_t *value, uint32_t *plane)
{
	unsigned int i;

	for (i = 4; i < sizeof(ev->val); i++)
		if (ev->val[i])
			return -1;
	if (!ev->port || ev->port > MRC_MAX_PLANES)
		return -1;
	*value = (uint32_t)ev->val[0] << 24 | ev->val[1] << 16 |
		 ev->val[2] << 8 | ev->val[3];
	*plane = ev->port - 1;
	return 0;
}

/* MODIFY_EV_STATE: each entry's EV denied or allowed, in order */
static int ev_states_set(struct mrc_context *ctx, struct mrcnl *nl,
			 uint64_t id, const struct mrc_ctl_ev_op_entry *ent,
			 int n)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint32_t value, plane;
	int i;

	for (i = 0; i < n; i++) {
		if (ent[i].state != MRC_CTL_EV_GOOD &&
		    ent[i].state != MRC_CTL_EV_DENIED) {
			errno = EINVAL;
			return -1;
		}
		if (ev_of(&ent[i].ev, &value, &plane)) {
			errno = ENOENT;
			return -1;
		}
		nlh = mrcnl_msg(nl, buf, MRC_CMD_EV_SET, NLM_F_ACK);
		mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, ctx->name);
		mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, id);
		mnl_attr_put_u32(nlh, MRC_A_EV_VALUE, value);
		mnl_attr_put_u32(nlh, MRC_A_EV_PLANE, plane);
		mnl_attr_put_u32(nlh, MRC_A_EV_STATE,
				 ent[i].state == MRC_CTL_EV_DENIED ?
				 MRC_EV_STATE_DENIED : MRC_EV_STATE_GOOD);
		if (mrcnl_transact(nl, nlh, NULL, NULL))
			return -1;
	}
	return 0;
}

static int cb_ev_state(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1] = {};
	uint32_t *state = data;

	mrcnl_attrs(nlh, tb, MRC_A_EV_MAX);
	if (*state || !mrcnl_attr_ok(tb[MRC_A_EV_STATE], MNL_TYPE_U32))
		return MNL_CB_OK;
	switch (mnl_attr_get_u32(tb[MRC_A_EV_STATE])) {
	case MRC_EV_STATE_GOOD:
	case MRC_EV_STATE_SKIP:
		*state = MRC_CTL_EV_GOOD;
		break;
	case MRC_EV_STATE_ASSUMED_BAD:
		*state = MRC_CTL_EV_ASSUMED_BAD;
		break;
	case MRC_EV_STATE_DENIED:
		*state = MRC_CTL_EV_DENIED;
		break;
	default:
		*state = MRC_CTL_EV_UNKNOWN;
	}
	return MNL_CB_OK;
}

/* QUERY_EV_STATE: each entry's EV's state, as a QP bound to @id has it */
static int ev_states_get(struct mrc_context *ctx, struct mrcnl *nl,
			 uint64_t id, struct mrc_ctl_ev_op_entry *ent, int n)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint32_t value, plane, state;
	int i;

	for (i = 0; i < n; i++) {
		state = 0;
		if (ev_of(&ent[i].ev, &value, &plane)) {
			errno = ENOENT;
			return -1;
		}
		nlh = mrcnl_msg(nl, buf, MRC_CMD_EV_GET, NLM_F_DUMP);
		mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, ctx->name);
		mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, id);
		mnl_attr_put_u32(nlh, MRC_A_EV_VALUE, value);
		mnl_attr_put_u32(nlh, MRC_A_EV_PLANE, plane);
		if (mrcnl_transact(nl, nlh, cb_ev_state, &state))
			return -1;
		if (!state) {
			errno = ENOENT;
			return -1;
		}
		ent[i].state = state;
	}
	return 0;
}

/* the profile's own attributes of @mask, in one ev-profile-set */
static int ev_profile_set(struct mrc_context *mrc_ctx, struct mrcnl *nl,
			  uint64_t ev_profile_id,
			  const struct mrc_ctl_ev_profile_attr *attr, int attr_mask)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = mrcnl_msg(nl, buf, MRC_CMD_EV_PROFILE_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, mrc_ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, ev_profile_id);
	/* the API's profile states are the kernel's, value for value */
	if (attr_mask & MRC_CTL_EV_PROFILE_STATE)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_STATE, attr->profile_state);
	if (attr_mask & MRC_CTL_EV_PROFILE_MODE)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_MODE,
				 MRC_EV_PROFILE_MODE_AUTO);
	if (attr_mask & MRC_CTL_EV_PROFILE_COUNT)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_COUNT, attr->ev_count);
	if (attr_mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_MIN_ACTIVE,
				 attr->ev_min_active);
	if (attr_mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
		mnl_attr_put_u32(nlh, MRC_A_EV_EVENT_MASK,
				 events_to_kernel(attr->ev_event_mask));
	return mrcnl_transact(nl, nlh, NULL, NULL);
}

LIBMRC_EXPORT
int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx,
			      uint64_t ev_profile_id,
			      struct mrc_ctl_ev_profile_attr *attr,
			      int attr_mask)
{
	struct mrcnl nl;
	int ret;

	if (ev_profile_args(mrc_ctx, ev_profile_id, attr, attr_mask))
		return -1;
	if (((attr_mask & MRC_CTL_EV_PROFILE_STATE) &&
	     attr->profile_state > MRC_CTL_PROFILE_ONLINE) ||
	    ((attr_mask & MRC_CTL_EV_PROFILE_MODE) &&
	     attr->ev_mode != MRC_CTL_EV_MODE_AUTO) ||
	    ((attr_mask & MRC_CTL_EV_PROFILE_COUNT) &&
	     (!attr->ev_count || attr->ev_count > MRC_MAX_EVS)) ||
	    ((attr_mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE) &&
	     (!attr->ev_min_active || attr->ev_min_active > MRC_MAX_EVS)) ||
	    ((attr_mask & MRC_CTL_EV_PROFILE_EVENT_MASK) &&
	     (attr->ev_event_mask & ~EV_EVENTS))) {
		errno = EINVAL;
		return -1;
	}
	/* REPLACE_EV needs an EV array, which an AUTO profile has not */
	if ((attr_mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    attr->ev_op.op != MRC_CTL_EV_OP_MODIFY_EV_STATE) {
		errno = EINVAL;
		return -1;
	}
	if (mrc_ctl_open(mrc_ctx, &nl))
		return -1;
	ret = 0;
	if (attr_mask & ~(MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_CUR_STATE |
			  MRC_CTL_EV_PROFILE_VENDOR_CFG | MRC_CTL_EV_PROFILE_FMT_ID))
		ret = ev_profile_set(mrc_ctx, &nl, ev_profile_id, attr, attr_mask);
	if (!ret && (attr_mask & MRC_CTL_EV_PROFILE_EV_OP))
		ret = ev_states_set(mrc_ctx, &nl, ev_profile_id,
				    attr->ev_op.entries, attr->ev_op.entry_count);
	mrcnl_close(&nl);
	return ret;
}

struct ev_profile_reply {
	uint32_t state, count, min_active, events;
	bool has_mode;
};

static int cb_ev_profile(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1] = {};
	struct ev_profile_reply *r = data;

	mrcnl_attrs(nlh, tb, MRC_A_EV_MAX);
	r->state = mrcnl_u32(tb[MRC_A_EV_PROFILE_STATE]);
	r->has_mode = !!tb[MRC_A_EV_PROFILE_MODE];
	r->count = mrcnl_u32(tb[MRC_A_EV_PROFILE_COUNT]);
	r->min_active = mrcnl_u32(tb[MRC_A_EV_PROFILE_MIN_ACTIVE]);
	r->events = events_from_kernel(mrcnl_u32(tb[MRC_A_EV_EVENT_MASK]));
	return MNL_CB_OK;
}

/*
 * A profile in init holds nothing: the kernel does not know it (ENOENT),
 * the API sees it in INIT with nothing set
 */
LIBMRC_EXPORT
int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx,
			     uint64_t ev_profile_id,
			     struct mrc_ctl_ev_profile_attr *attr,
			     int attr_mask)
{
	struct ev_profile_reply r = { .state = MRC_CC_PROFILE_STATE_INIT };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct mrcnl nl;
	int ret;

	if (ev_profile_args(mrc_ctx, ev_profile_id, attr, attr_mask))
		return -1;
	/* an AUTO profile's EVs have states, but it has no EV array */
	if ((attr_mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    attr->ev_op.op != MRC_CTL_EV_OP_QUERY_EV_STATE) {
		errno = EINVAL;
		return -1;
	}
	if (mrc_ctl_open(mrc_ctx, &nl))
		return -1;
	nlh = mrcnl_msg(&nl, buf, MRC_CMD_EV_PROFILE_GET, 0);
	mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, mrc_ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, ev_profile_id);
	ret = mrcnl_transact(&nl, nlh, cb_ev_profile, &r);
	if (!ret && (attr_mask & MRC_CTL_EV_PROFILE_EV_OP))
		ret = ev_states_get(mrc_ctx, &nl, ev_profile_id,
				    attr->ev_op.entries, attr->ev_op.entry_count);
	else if (ret && errno == ENOENT && (attr_mask & MRC_CTL_EV_PROFILE_EV_OP) &&
		 attr->ev_op.entry_count)
		ret = -1;	/* a profile in INIT has no EVs: ENOENT */
	else if (ret && errno == ENOENT)
		ret = 0;
	mrcnl_close(&nl);
	if (ret)
		return -1;
	if (attr_mask & MRC_CTL_EV_PROFILE_STATE)
		attr->profile_state = r.state;
	if (attr_mask & MRC_CTL_EV_PROFILE_CUR_STATE)
		attr->cur_profile_state = r.state;
	if (attr_mask & MRC_CTL_EV_PROFILE_MODE)
		attr->ev_mode = r.has_mode ? MRC_CTL_EV_MODE_AUTO : 0;
	if (attr_mask & MRC_CTL_EV_PROFILE_FMT_ID)
		attr->ev_fmt_profile_id = 0;
	if (attr_mask & MRC_CTL_EV_PROFILE_COUNT)
		attr->ev_count = r.count;
	if (attr_mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		attr->ev_min_active = r.min_active;
	if (attr_mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
		attr->ev_event_mask = r.events;
	if (attr_mask & MRC_CTL_EV_PROFILE_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
	return 0;
}

static int cb_ev_counted(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1] = {};
	uint32_t *n = data;

	mrcnl_attrs(nlh, tb, MRC_A_EV_MAX);
	*n += mrcnl_u32(tb[MRC_A_EV_PROFILE_COUNT]);
	return MNL_CB_OK;
}

/* the EVs the device's profiles take (ev_free_count is what is left) */
uint32_t mrc_ctl_ev_counted(struct ibv_context *context)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct mrcnl nl;
	uint32_t n = 0;

	if (mrcnl_open(&nl))
		return 0;
	nlh = mrcnl_msg(&nl, buf, MRC_CMD_EV_PROFILE_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME,
			  ibv_get_device_name(context->device));
	if (mrcnl_transact(&nl, nlh, cb_ev_counted, &n))
		n = 0;
	mrcnl_close(&nl);
	return n;
}
