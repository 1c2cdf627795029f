// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: EV profiles of the controller API over the kernel's
 * (ev-profile-get, ev-profile-set of the "mrc" family).
 *
 * The API's three modes are the kernel's (AUTO 0, EXP 1, GEN 2); a mode
 * is one of them, nothing else. The kernel keeps the profiles and checks
 * the rules; the library turns the API's attributes into its attributes
 * and back, and works the EV operations (ctl_ev_op.c).
 *
 * AUTO: the controller names no EVs; a QP bound to the profile
 * (MRC_QP_EV_PROFILE_ID) builds its EV set from its peer's path set, with
 * the profile's count (rotation slots) and floor (ev_min_active). Its EVs
 * are mrc's 32-bit values (the first four bytes, network order, and the
 * port of their plane), as its events name them; MODIFY_EV_STATE and
 * QUERY_EV_STATE work on them over every QP bound to the profile. It
 * takes a format id and ignores it, and has neither fields nor an EV
 * array: field operations, REPLACE_EV and QUERY_EV_ARRAY are EINVAL.
 *
 * EXP and GEN: the profile names an EV format profile (FMT_ID, not 0) and
 * has fields (MODIFY_FIELDS sets them all, QUERY_FIELDS reads them) and an
 * EV array of ev_count places, each an EV of up to 32 bytes and a port.
 * EXP's starts unpopulated (zero bytes, port 0) and the controller fills
 * it (REPLACE_EV, the kernel's replacements, all of one call or none);
 * GEN's the kernel fills going ONLINE, capping the count to what the
 * fields' ranges and the planes give (a query reports that count). Their
 * EVs are named by their bytes and port in the operations, and in events.
 *
 * EV_OP and EV_FIELDS_OP in one call are EINVAL; a field or EV op for the
 * other call (QUERY_* on modify, MODIFY_FIELDS or REPLACE_EV on query) is
 * EINVAL. A profile in INIT holds nothing (the kernel does not know it):
 * a query reports INIT, no mode, no fields, no EVs. mrc has no vendor
 * configuration: all zero.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libmrc.h"

#define EV_MASK_ALL	(MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_CUR_STATE | \
			 MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID | \
			 MRC_CTL_EV_PROFILE_COUNT | MRC_CTL_EV_PROFILE_MIN_ACTIVE | \
			 MRC_CTL_EV_PROFILE_EVENT_MASK | MRC_CTL_EV_PROFILE_EV_OP | \
			 MRC_CTL_EV_PROFILE_EV_FIELDS_OP | \
			 MRC_CTL_EV_PROFILE_VENDOR_CFG)
#define EV_EVENTS	(MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD)
/*
 * an ev-profile-set of 256 replacements (about 104 bytes each) and 16
 * fields: more than a page
 */
#define EV_SET_BYTES	(32 * 1024)
/* ev-field width's bounds (the family's policy: out of them is ERANGE) */
#define EV_FIELD_WIDTH_MAX	32

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

/* the API's mode bit as the kernel's mode, and back; -1: none of them */
static int mode_to_kernel(uint32_t mode)
{
	switch (mode) {
	case MRC_CTL_EV_MODE_AUTO:
		return MRC_EV_PROFILE_MODE_AUTO;
	case MRC_CTL_EV_MODE_EXP:
		return MRC_EV_PROFILE_MODE_EXP;
	case MRC_CTL_EV_MODE_GEN:
		return MRC_EV_PROFILE_MODE_GEN;
	default:
		return -1;
	}
}

static uint32_t mode_from_kernel(uint32_t mode)
{
	switch (mode) {
	case MRC_EV_PROFILE_MODE_AUTO:
		return MRC_CTL_EV_MODE_AUTO;
	case MRC_EV_PROFILE_MODE_EXP:
		return MRC_CTL_EV_MODE_EXP;
	case MRC_EV_PROFILE_MODE_GEN:
		return MRC_CTL_EV_MODE_GEN;
	default:
		return 0;
	}
}

/* the arguments of either call: 0, or -1 with errno */
static int ev_profile_args(struct mrc_context *ctx, uint64_t id,
			   const struct mrc_ctl_ev_profile_attr *attr, int mask)
{
	if (mrc_ctl_claim(ctx))
		return -1;
	if (!attr || !id || (mask & ~EV_MASK_ALL) ||
	    ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	     (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP)) ||
	    ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	     (attr->ev_op.entry_count < 0 ||
	      (attr->ev_op.entry_count && !attr->ev_op.entries))) ||
	    ((mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
	     (attr->ev_fields_op.field_count < 0 ||
	      (attr->ev_fields_op.field_count && !attr->ev_fields_op.fields))) ||
	    ((mask & MRC_CTL_EV_PROFILE_VENDOR_CFG) &&
	     !mrc_vendor_cfg_empty(attr->vendor_cfg))) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static void field_parse(const struct nlattr *nest, struct mrc_ctl_ev_field *f)
{
	const struct nlattr *a;

	memset(f, 0, sizeof(*f));
	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case MRC_A_EV_FIELD_WIDTH:
			f->width = mrcnl_u32(a);
			break;
		case MRC_A_EV_FIELD_INIT_VAL:
			f->init_val = mrcnl_u32(a);
			break;
		case MRC_A_EV_FIELD_MIN_VAL:
			f->min_val = mrcnl_u32(a);
			break;
		case MRC_A_EV_FIELD_MAX_VAL:
			f->max_val = mrcnl_u32(a);
			break;
		case MRC_A_EV_FIELD_MASK:
			f->mask = mrcnl_u32(a);
			break;
		}
	}
}

/* one place of the EV array: at its index, else after the last one */
static void place_parse(const struct nlattr *nest, struct mrc_ev_view *v)
{
	const struct nlattr *tb[MRC_A_EV_ENTRY_MAX + 1] = {};
	struct mrc_ev_place *p;
	const struct nlattr *a;
	uint32_t i = v->nplaces, len;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) <= MRC_A_EV_ENTRY_MAX)
			tb[mnl_attr_get_type(a)] = a;
	if (mrcnl_attr_ok(tb[MRC_A_EV_ENTRY_PLACE], MNL_TYPE_U32))
		i = mnl_attr_get_u32(tb[MRC_A_EV_ENTRY_PLACE]);
	if (i >= MRC_MAX_EVS)
		return;
	p = &v->place[i];
	memset(p, 0, sizeof(*p));
	if (tb[MRC_A_EV_ENTRY_EV_BYTES]) {
		len = mnl_attr_get_payload_len(tb[MRC_A_EV_ENTRY_EV_BYTES]);
		memcpy(p->bytes, mnl_attr_get_payload(tb[MRC_A_EV_ENTRY_EV_BYTES]),
		       len < sizeof(p->bytes) ? len : sizeof(p->bytes));
	}
	p->port = mrcnl_u32(tb[MRC_A_EV_ENTRY_PORT]);
	p->denied = mrcnl_u32(tb[MRC_A_EV_ENTRY_STATE]) == MRC_EV_STATE_DENIED;
	if ((int)i >= v->nplaces)
		v->nplaces = i + 1;
}

static int cb_ev_profile(const struct nlmsghdr *nlh, void *data)
{
	struct mrc_ev_view *v = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case MRC_A_EV_PROFILE_STATE:
			v->state = mrcnl_u32(a);
			break;
		case MRC_A_EV_PROFILE_MODE:
			v->has_mode = mrcnl_attr_ok(a, MNL_TYPE_U32);
			v->mode = mrcnl_u32(a);
			break;
		case MRC_A_EV_PROFILE_COUNT:
			v->count = mrcnl_u32(a);
			break;
		case MRC_A_EV_PROFILE_MIN_ACTIVE:
			v->min_active = mrcnl_u32(a);
			break;
		case MRC_A_EV_EVENT_MASK:
			v->events = events_from_kernel(mrcnl_u32(a));
			break;
		case MRC_A_EV_FMT_ID:
			v->fmt_id = mrcnl_attr_uint(a);
			break;
		case MRC_A_EV_FIELD:
			if (v->nfields < MRC_MAX_EV_FIELDS)
				field_parse(a, &v->field[v->nfields++]);
			break;
		case MRC_A_EV_ENTRY:
			place_parse(a, v);
			break;
		}
	}
	return MNL_CB_OK;
}

/*
 * Profile @id as the kernel has it, with its EV array if @entries: 0, or
 * -1 with errno. One in INIT (ENOENT) is not kept and holds nothing.
 */
static int ev_profile_get(struct mrc_context *ctx, struct mrcnl *nl,
			  uint64_t id, bool entries, struct mrc_ev_view *v)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	memset(v, 0, sizeof(*v));
	v->state = MRC_CC_PROFILE_STATE_INIT;
	nlh = mrcnl_msg(nl, buf, MRC_CMD_EV_PROFILE_GET, 0);
	mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, id);
	if (entries)
		mnl_attr_put(nlh, MRC_A_EV_ENTRIES, 0, NULL);
	if (!mrcnl_transact(nl, nlh, cb_ev_profile, v)) {
		v->kept = true;
		return 0;
	}
	if (errno != ENOENT)
		return -1;
	memset(v, 0, sizeof(*v));
	v->state = MRC_CC_PROFILE_STATE_INIT;
	return 0;
}

/* MODIFY_FIELDS: every field, in order; 0 or -1 with errno */
static int fields_put(struct nlmsghdr *nlh,
		      const struct mrc_ctl_ev_profile_attr *attr)
{
	const struct mrc_ctl_ev_field *f = attr->ev_fields_op.fields;
	int i, n = attr->ev_fields_op.field_count;
	struct nlattr *nest;

	/* none at all would be no field attribute: not a change to ask for */
	if (!n) {
		errno = EINVAL;
		return -1;
	}
	if (n > MRC_MAX_EV_FIELDS) {
		errno = E2BIG;
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!f[i].width || f[i].width > EV_FIELD_WIDTH_MAX) {
			errno = EINVAL;
			return -1;
		}
	}
	for (i = 0; i < n; i++) {
		nest = mnl_attr_nest_start(nlh, MRC_A_EV_FIELD);
		mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_WIDTH, f[i].width);
		mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_INIT_VAL, f[i].init_val);
		mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_MIN_VAL, f[i].min_val);
		mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_MAX_VAL, f[i].max_val);
		mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_MASK, f[i].mask);
		mnl_attr_nest_end(nlh, nest);
	}
	return 0;
}

/*
 * The mode the profile has once the call's attributes are in: the one
 * it sets, else the kernel's; -1 none (a profile in INIT)
 */
static int ev_mode_after(struct mrc_context *ctx, struct mrcnl *nl,
			 uint64_t id, const struct mrc_ctl_ev_profile_attr *attr,
			 int mask, int *mode)
{
	struct mrc_ev_view *v;

	if (mask & MRC_CTL_EV_PROFILE_MODE) {
		*mode = mode_to_kernel(attr->ev_mode);
		return 0;
	}
	v = malloc(sizeof(*v));
	if (!v)
		return -1;
	if (ev_profile_get(ctx, nl, id, false, v)) {
		free(v);
		return -1;
	}
	*mode = v->kept && v->has_mode ? (int)v->mode : -1;
	free(v);
	return 0;
}

/*
 * One ev-profile-set: the attributes of @mask, fields and replacements
 * (REPLACE_EV, which the kernel applies after the rest)
 */
static int ev_profile_set(struct mrc_context *ctx, struct mrcnl *nl,
			  uint64_t id, const struct mrc_ctl_ev_profile_attr *attr,
			  int mask, int mode)
{
	struct nlmsghdr *nlh;
	char *buf;
	int ret = 0;

	buf = malloc(EV_SET_BYTES);
	if (!buf)
		return -1;
	nlh = mrcnl_msg(nl, buf, MRC_CMD_EV_PROFILE_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, id);
	/* the API's profile states are the kernel's, value for value */
	if (mask & MRC_CTL_EV_PROFILE_STATE)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_STATE, attr->profile_state);
	if (mask & MRC_CTL_EV_PROFILE_MODE)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_MODE, mode);
	/* an AUTO profile needs no format: its id is taken and ignored */
	if ((mask & MRC_CTL_EV_PROFILE_FMT_ID) && mode != MRC_EV_PROFILE_MODE_AUTO)
		mnl_attr_put_u64(nlh, MRC_A_EV_FMT_ID, attr->ev_fmt_profile_id);
	if (mask & MRC_CTL_EV_PROFILE_COUNT)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_COUNT, attr->ev_count);
	if (mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_MIN_ACTIVE,
				 attr->ev_min_active);
	if (mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
		mnl_attr_put_u32(nlh, MRC_A_EV_EVENT_MASK,
				 events_to_kernel(attr->ev_event_mask));
	if (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP)
		ret = fields_put(nlh, attr);
	if (!ret && (mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    attr->ev_op.op == MRC_CTL_EV_OP_REPLACE_EV)
		mrc_ev_replace_put(nlh, attr->ev_op.entries,
				   attr->ev_op.entry_count);
	if (!ret)
		ret = mrcnl_transact(nl, nlh, NULL, NULL);
	free(buf);
	return ret;
}

/* the call's own attributes are valid: 0, or -1 with errno */
static int ev_modify_check(const struct mrc_ctl_ev_profile_attr *attr, int mask)
{
	if (((mask & MRC_CTL_EV_PROFILE_STATE) &&
	     attr->profile_state > MRC_CTL_PROFILE_ONLINE) ||
	    ((mask & MRC_CTL_EV_PROFILE_MODE) && mode_to_kernel(attr->ev_mode) < 0) ||
	    ((mask & MRC_CTL_EV_PROFILE_COUNT) &&
	     (!attr->ev_count || attr->ev_count > MRC_MAX_EVS)) ||
	    ((mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE) &&
	     (!attr->ev_min_active || attr->ev_min_active > MRC_MAX_EVS)) ||
	    ((mask & MRC_CTL_EV_PROFILE_EVENT_MASK) &&
	     (attr->ev_event_mask & ~EV_EVENTS)) ||
	    ((mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
	     attr->ev_fields_op.op != MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS) ||
	    ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	     ((attr->ev_op.op != MRC_CTL_EV_OP_REPLACE_EV &&
	       attr->ev_op.op != MRC_CTL_EV_OP_MODIFY_EV_STATE) ||
	      attr->ev_op.entry_count > MRC_EV_OP_MAX_ENTRIES))) {
		errno = EINVAL;
		return -1;
	}
	if ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	    attr->ev_op.op == MRC_CTL_EV_OP_REPLACE_EV)
		return mrc_ev_replace_check(attr->ev_op.entries,
					    attr->ev_op.entry_count);
	return 0;
}

LIBMRC_EXPORT
int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx,
			      uint64_t ev_profile_id,
			      struct mrc_ctl_ev_profile_attr *attr,
			      int attr_mask)
{
	bool set, replace;
	struct mrcnl nl;
	int mode = -1, ret;

	if (ev_profile_args(mrc_ctx, ev_profile_id, attr, attr_mask) ||
	    ev_modify_check(attr, attr_mask))
		return -1;
	replace = (attr_mask & MRC_CTL_EV_PROFILE_EV_OP) &&
		  attr->ev_op.op == MRC_CTL_EV_OP_REPLACE_EV;
	if (mrc_ctl_open(mrc_ctx, &nl))
		return -1;
	ret = 0;
	if (attr_mask & (MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID |
			 MRC_CTL_EV_PROFILE_EV_OP | MRC_CTL_EV_PROFILE_EV_FIELDS_OP))
		ret = ev_mode_after(mrc_ctx, &nl, ev_profile_id, attr, attr_mask,
				    &mode);
	if (ret)
		goto out;
	/*
	 * Fields are EXP's and GEN's, an EV array to replace in EXP's; an EXP
	 * or GEN profile's format is one the controller named (not 0)
	 */
	if (((attr_mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
	     mode == MRC_EV_PROFILE_MODE_AUTO) ||
	    (replace && mode != MRC_EV_PROFILE_MODE_EXP) ||
	    ((attr_mask & MRC_CTL_EV_PROFILE_FMT_ID) &&
	     mode != MRC_EV_PROFILE_MODE_AUTO && !attr->ev_fmt_profile_id)) {
		errno = EINVAL;
		ret = -1;
		goto out;
	}
	set = (attr_mask & (MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_MODE |
			    MRC_CTL_EV_PROFILE_COUNT | MRC_CTL_EV_PROFILE_MIN_ACTIVE |
			    MRC_CTL_EV_PROFILE_EVENT_MASK |
			    MRC_CTL_EV_PROFILE_EV_FIELDS_OP)) || replace ||
	      ((attr_mask & MRC_CTL_EV_PROFILE_FMT_ID) &&
	       mode != MRC_EV_PROFILE_MODE_AUTO);
	if (set)
		ret = ev_profile_set(mrc_ctx, &nl, ev_profile_id, attr, attr_mask,
				     mode);
	/* EXP's and GEN's EVs are their bytes, AUTO's mrc's 32-bit values */
	if (!ret && (attr_mask & MRC_CTL_EV_PROFILE_EV_OP) && !replace)
		ret = mrc_ev_states_set(mrc_ctx, &nl, ev_profile_id,
					mode == MRC_EV_PROFILE_MODE_EXP ||
					mode == MRC_EV_PROFILE_MODE_GEN,
					attr->ev_op.entries, attr->ev_op.entry_count);
out:
	mrcnl_close(&nl);
	return ret;
}

/* QUERY_FIELDS: the profile's fields, or E2BIG and how many there are */
static int fields_get(const struct mrc_ev_view *v,
		      struct mrc_ctl_ev_profile_attr *attr)
{
	if (v->nfields > attr->ev_fields_op.field_count) {
		attr->ev_fields_op.field_count = v->nfields;
		errno = E2BIG;
		return -1;
	}
	memcpy(attr->ev_fields_op.fields, v->field,
	       v->nfields * sizeof(v->field[0]));
	attr->ev_fields_op.field_count = v->nfields;
	return 0;
}

/* the EV op or field op of a query, on profile @v: 0, or -1 with errno */
static int ev_query_ops(struct mrc_context *ctx, struct mrcnl *nl, uint64_t id,
			const struct mrc_ev_view *v,
			struct mrc_ctl_ev_profile_attr *attr, int mask)
{
	bool fielded = v->kept && v->mode != MRC_EV_PROFILE_MODE_AUTO;

	/* an AUTO profile has EVs with states, but no fields nor an array */
	if (v->kept && !fielded &&
	    ((mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) ||
	     ((mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	      attr->ev_op.op == MRC_CTL_EV_OP_QUERY_EV_ARRAY))) {
		errno = EINVAL;
		return -1;
	}
	if (mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP)
		return fields_get(v, attr);
	if (!(mask & MRC_CTL_EV_PROFILE_EV_OP))
		return 0;
	if (attr->ev_op.op == MRC_CTL_EV_OP_QUERY_EV_ARRAY)
		return mrc_ev_array_get(v, attr->ev_op.entries,
					&attr->ev_op.entry_count);
	if (!attr->ev_op.entry_count)
		return 0;
	/* a profile in INIT has no EVs */
	if (!v->kept) {
		errno = ENOENT;
		return -1;
	}
	return mrc_ev_states_get(ctx, nl, id, fielded ? v : NULL,
				 attr->ev_op.entries, attr->ev_op.entry_count);
}

LIBMRC_EXPORT
int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx,
			     uint64_t ev_profile_id,
			     struct mrc_ctl_ev_profile_attr *attr,
			     int attr_mask)
{
	struct mrc_ev_view *v;
	struct mrcnl nl;
	int ret;

	if (ev_profile_args(mrc_ctx, ev_profile_id, attr, attr_mask))
		return -1;
	if (((attr_mask & MRC_CTL_EV_PROFILE_EV_OP) &&
	     ((attr->ev_op.op != MRC_CTL_EV_OP_QUERY_EV_STATE &&
	       attr->ev_op.op != MRC_CTL_EV_OP_QUERY_EV_ARRAY) ||
	      (attr->ev_op.op == MRC_CTL_EV_OP_QUERY_EV_STATE &&
	       attr->ev_op.entry_count > MRC_EV_OP_MAX_ENTRIES))) ||
	    ((attr_mask & MRC_CTL_EV_PROFILE_EV_FIELDS_OP) &&
	     attr->ev_fields_op.op != MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS)) {
		errno = EINVAL;
		return -1;
	}
	v = malloc(sizeof(*v));
	if (!v)
		return -1;
	if (mrc_ctl_open(mrc_ctx, &nl)) {
		free(v);
		return -1;
	}
	ret = ev_profile_get(mrc_ctx, &nl, ev_profile_id,
			     attr_mask & MRC_CTL_EV_PROFILE_EV_OP, v);
	if (!ret)
		ret = ev_query_ops(mrc_ctx, &nl, ev_profile_id, v, attr, attr_mask);
	mrcnl_close(&nl);
	if (ret)
		goto out;
	if (attr_mask & MRC_CTL_EV_PROFILE_STATE)
		attr->profile_state = v->state;
	if (attr_mask & MRC_CTL_EV_PROFILE_CUR_STATE)
		attr->cur_profile_state = v->state;
	if (attr_mask & MRC_CTL_EV_PROFILE_MODE)
		attr->ev_mode = v->has_mode ? mode_from_kernel(v->mode) : 0;
	if (attr_mask & MRC_CTL_EV_PROFILE_FMT_ID)
		attr->ev_fmt_profile_id = v->fmt_id;
	if (attr_mask & MRC_CTL_EV_PROFILE_COUNT)
		attr->ev_count = v->count;
	if (attr_mask & MRC_CTL_EV_PROFILE_MIN_ACTIVE)
		attr->ev_min_active = v->min_active;
	if (attr_mask & MRC_CTL_EV_PROFILE_EVENT_MASK)
		attr->ev_event_mask = v->events;
	if (attr_mask & MRC_CTL_EV_PROFILE_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
out:
	free(v);
	return ret;
}

static int cb_ev_counted(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1] = {};
	uint32_t *n = data;

	mrcnl_attrs(nlh, tb, MRC_A_EV_MAX);
	*n += mrcnl_u32(tb[MRC_A_EV_PROFILE_COUNT]);
	return MNL_CB_OK;
}

/*
 * The EVs the device's profiles take (ev_free_count is what is left):
 * each profile's count as the kernel reports it, a GEN profile's capped
 * once it is online
 */
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
