// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: the EV operations of an EV profile (the API's ev_op), for
 * ctl_ev.c.
 *
 * An EV is named by its bytes and its port (plane + 1). An AUTO
 * profile's EVs are mrc's 32-bit values: the first four bytes, network
 * order, the others zero; an EXP or GEN profile's are the places of its
 * EV array, up to 32 bytes each.
 *
 * REPLACE_EV (EXP only): each entry is one of the kernel's replacements
 * in the ev-profile-set of the call: the place of (ev, port), the first
 * or, with MRC_CTL_EV_OP_F_ALL_COPIES, every one, becomes (ev_new, its
 * port) in state GOOD or DENIED; an unpopulated place is
 * MRC_CTL_EV_UNPOPULATED (zero bytes, port 0). The kernel takes all of
 * them or none.
 *
 * MODIFY_EV_STATE: one ev-set of the profile an entry, in order, up to the
 * first that fails: DENIED or GOOD, for the EV of every QP bound to the
 * profile (AUTO), or for every place of the array with that EV and the
 * QPs' EVs made from them (EXP, GEN; a QP connecting later starts with
 * them DENIED).
 *
 * QUERY_EV_STATE: AUTO, the state a bound QP has the EV in (ev-get of the
 * profile); EXP and GEN, DENIED if the array says so, else ASSUMED_BAD if
 * a bound QP's EV made from it is, else GOOD. An EV the profile does not
 * have is ENOENT. QUERY_EV_ARRAY (EXP, GEN): every place, with its state
 * in the array, or E2BIG and the count when the caller's array is short.
 */
#include <errno.h>
#include <string.h>

#include "libmrc.h"

/* the entries of a REPLACE_EV, before anything is sent: 0, or -1 with errno */
int mrc_ev_replace_check(const struct mrc_ctl_ev_op_entry *ent, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if ((ent[i].state != MRC_CTL_EV_GOOD &&
		     ent[i].state != MRC_CTL_EV_DENIED) ||
		    (ent[i].flags & ~MRC_CTL_EV_OP_F_ALL_COPIES) ||
		    !ent[i].ev_new.port || ent[i].ev_new.port > MRC_MAX_PLANES) {
			errno = EINVAL;
			return -1;
		}
		/* no place of the array has an EV of a port past the planes */
		if (ent[i].ev.port > MRC_MAX_PLANES) {
			errno = ENOENT;
			return -1;
		}
	}
	return 0;
}

void mrc_ev_replace_put(struct nlmsghdr *nlh,
			const struct mrc_ctl_ev_op_entry *ent, int n)
{
	struct nlattr *nest;
	int i;

	for (i = 0; i < n; i++) {
		nest = mnl_attr_nest_start(nlh, MRC_A_EV_ENTRY);
		mnl_attr_put(nlh, MRC_A_EV_ENTRY_EV_BYTES, sizeof(ent[i].ev.val),
			     ent[i].ev.val);
		mnl_attr_put_u32(nlh, MRC_A_EV_ENTRY_PORT, ent[i].ev.port);
		mnl_attr_put(nlh, MRC_A_EV_ENTRY_NEW_BYTES,
			     sizeof(ent[i].ev_new.val), ent[i].ev_new.val);
		mnl_attr_put_u32(nlh, MRC_A_EV_ENTRY_NEW_PORT, ent[i].ev_new.port);
		mnl_attr_put_u32(nlh, MRC_A_EV_ENTRY_STATE,
				 ent[i].state == MRC_CTL_EV_DENIED ?
				 MRC_EV_STATE_DENIED : MRC_EV_STATE_GOOD);
		if (ent[i].flags & MRC_CTL_EV_OP_F_ALL_COPIES)
			mnl_attr_put(nlh, MRC_A_EV_ENTRY_ALL_COPIES, 0, NULL);
		mnl_attr_nest_end(nlh, nest);
	}
}

/* the mrc EV an AUTO profile's EV is: its 32-bit value; -1 if none */
static int ev_value(const struct mrc_ctl_ev *ev, uint32_t *value)
{
	unsigned int i;

	for (i = 4; i < sizeof(ev->val); i++)
		if (ev->val[i])
			return -1;
	*value = (uint32_t)ev->val[0] << 24 | ev->val[1] << 16 |
		 ev->val[2] << 8 | ev->val[3];
	return 0;
}

/*
 * The attributes naming EV @ev of profile @id in ev-get and ev-set: its
 * bytes (EXP, GEN) or value (AUTO), and its plane; -1 if it can be none
 */
static int ev_name_put(struct nlmsghdr *nlh, struct mrc_context *ctx,
		       uint64_t id, bool by_bytes, const struct mrc_ctl_ev *ev)
{
	uint32_t value;

	if (!ev->port || ev->port > MRC_MAX_PLANES)
		return -1;
	if (!by_bytes && ev_value(ev, &value))
		return -1;
	mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, id);
	if (by_bytes)
		mnl_attr_put(nlh, MRC_A_EV_EV_BYTES, sizeof(ev->val), ev->val);
	else
		mnl_attr_put_u32(nlh, MRC_A_EV_VALUE, value);
	mnl_attr_put_u32(nlh, MRC_A_EV_PLANE, ev->port - 1);
	return 0;
}

/* MODIFY_EV_STATE: each entry's EV denied or allowed, in order */
int mrc_ev_states_set(struct mrc_context *ctx, struct mrcnl *nl, uint64_t id,
		      bool by_bytes, const struct mrc_ctl_ev_op_entry *ent,
		      int n)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int i;

	for (i = 0; i < n; i++) {
		if (ent[i].state != MRC_CTL_EV_GOOD &&
		    ent[i].state != MRC_CTL_EV_DENIED) {
			errno = EINVAL;
			return -1;
		}
		nlh = mrcnl_msg(nl, buf, MRC_CMD_EV_SET, NLM_F_ACK);
		if (ev_name_put(nlh, ctx, id, by_bytes, &ent[i].ev)) {
			errno = ENOENT;
			return -1;
		}
		mnl_attr_put_u32(nlh, MRC_A_EV_STATE,
				 ent[i].state == MRC_CTL_EV_DENIED ?
				 MRC_EV_STATE_DENIED : MRC_EV_STATE_GOOD);
		if (mrcnl_transact(nl, nlh, NULL, NULL))
			return -1;
	}
	return 0;
}

/* the API's state of a QP's EV (ev-get) */
static uint32_t qp_ev_state(const struct nlattr *a)
{
	switch (mnl_attr_get_u32(a)) {
	case MRC_EV_STATE_GOOD:
	case MRC_EV_STATE_SKIP:
		return MRC_CTL_EV_GOOD;
	case MRC_EV_STATE_ASSUMED_BAD:
		return MRC_CTL_EV_ASSUMED_BAD;
	case MRC_EV_STATE_DENIED:
		return MRC_CTL_EV_DENIED;
	default:
		return MRC_CTL_EV_UNKNOWN;
	}
}

/* AUTO: the first bound QP's state of the EV; 0 if no QP has it */
static int cb_auto_state(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1] = {};
	uint32_t *state = data;

	mrcnl_attrs(nlh, tb, MRC_A_EV_MAX);
	if (!*state && mrcnl_attr_ok(tb[MRC_A_EV_STATE], MNL_TYPE_U32))
		*state = qp_ev_state(tb[MRC_A_EV_STATE]);
	return MNL_CB_OK;
}

/* EXP, GEN: ASSUMED_BAD if a bound QP's EV made from the EV is */
static int cb_bad_state(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1] = {};
	uint32_t *state = data;

	mrcnl_attrs(nlh, tb, MRC_A_EV_MAX);
	if (mrcnl_attr_ok(tb[MRC_A_EV_STATE], MNL_TYPE_U32) &&
	    qp_ev_state(tb[MRC_A_EV_STATE]) == MRC_CTL_EV_ASSUMED_BAD)
		*state = MRC_CTL_EV_ASSUMED_BAD;
	return MNL_CB_OK;
}

/* the array's word on EV @ev: 0 none of its places, else GOOD or DENIED */
static uint32_t array_state(const struct mrc_ev_view *v,
			    const struct mrc_ctl_ev *ev)
{
	uint32_t state = 0;
	int i;

	for (i = 0; i < v->nplaces; i++) {
		if (v->place[i].port != ev->port ||
		    memcmp(v->place[i].bytes, ev->val, sizeof(ev->val)))
			continue;
		if (v->place[i].denied)
			return MRC_CTL_EV_DENIED;
		state = MRC_CTL_EV_GOOD;
	}
	return state;
}

/*
 * QUERY_EV_STATE: each entry's EV's state; @v the EXP or GEN profile
 * with its array, NULL for AUTO
 */
int mrc_ev_states_get(struct mrc_context *ctx, struct mrcnl *nl, uint64_t id,
		      const struct mrc_ev_view *v,
		      struct mrc_ctl_ev_op_entry *ent, int n)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint32_t state;
	int i;

	for (i = 0; i < n; i++) {
		state = 0;
		if (v) {
			state = array_state(v, &ent[i].ev);
			if (!state || !ent[i].ev.port) {
				errno = ENOENT;
				return -1;
			}
			if (state == MRC_CTL_EV_DENIED) {
				ent[i].state = state;
				continue;
			}
		}
		nlh = mrcnl_msg(nl, buf, MRC_CMD_EV_GET, NLM_F_DUMP);
		if (ev_name_put(nlh, ctx, id, v, &ent[i].ev)) {
			errno = ENOENT;
			return -1;
		}
		if (!v) {
			if (mrcnl_transact(nl, nlh, cb_auto_state, &state))
				return -1;
			/* an AUTO profile's EVs are those of its QPs */
			if (!state) {
				errno = ENOENT;
				return -1;
			}
		} else if (mrcnl_transact(nl, nlh, cb_bad_state, &state) &&
			   errno != ENOENT) {
			return -1;
		}
		ent[i].state = state;
	}
	return 0;
}

/* QUERY_EV_ARRAY: the places, or E2BIG and how many there are */
int mrc_ev_array_get(const struct mrc_ev_view *v,
		     struct mrc_ctl_ev_op_entry *ent, int *n)
{
	int i;

	if (v->nplaces > *n) {
		*n = v->nplaces;
		errno = E2BIG;
		return -1;
	}
	for (i = 0; i < v->nplaces; i++) {
		memcpy(ent[i].ev.val, v->place[i].bytes, sizeof(ent[i].ev.val));
		ent[i].ev.port = v->place[i].port;
		ent[i].state = v->place[i].denied ? MRC_CTL_EV_DENIED :
				MRC_CTL_EV_GOOD;
	}
	*n = v->nplaces;
	return 0;
}
