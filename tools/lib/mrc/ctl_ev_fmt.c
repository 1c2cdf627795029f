// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: EV format profiles of the controller API over the kernel's
 * (ev-fmt-get, ev-fmt-set of the "mrc" family).
 *
 * A format is the layout an EV of an EXP or GEN profile takes in a packet:
 * a mode (the API's mode bits, one of them, are the kernel's enum, STEV 0,
 * SRV6 1, UDP 2) and field widths, in order, most significant first. The
 * kernel keeps up to MRC_MAX_EV_FMTS a device, named by the controller's
 * id (not 0), in the API's states; it checks the rules (a mode to go
 * OFFLINE, widths to go ONLINE, what the mode's bits hold, EBUSY while a
 * profile needs the format). A format in INIT holds nothing: the kernel
 * does not know it (ENOENT), and a query sees it in INIT with no mode and
 * no fields.
 *
 * Fields are set (MODIFY_FIELDS) by modify only and read (QUERY_FIELDS,
 * E2BIG and the count needed when the caller's array is short) by query
 * only; the other op is EINVAL. mrc has no vendor configuration: all zero.
 */
#include <errno.h>
#include <string.h>

#include "libmrc.h"

#define FMT_MASK_ALL	(MRC_CTL_EV_FMT_PROFILE_STATE | \
			 MRC_CTL_EV_FMT_PROFILE_CUR_STATE | \
			 MRC_CTL_EV_FMT_PROFILE_MODE | MRC_CTL_EV_FMT_PROFILE_OP | \
			 MRC_CTL_EV_FMT_VENDOR_CFG)
/* fmt-width's bounds (the family's policy: out of them is ERANGE) */
#define FMT_WIDTH_MAX	128

/* the API's mode bit as the kernel's mode, and back; -1: none of them */
static int mode_to_kernel(uint32_t mode)
{
	switch (mode) {
	case MRC_CTL_EV_FMT_MODE_STEV:
		return MRC_EV_FMT_MODE_STEV;
	case MRC_CTL_EV_FMT_MODE_SRV6:
		return MRC_EV_FMT_MODE_SRV6;
	case MRC_CTL_EV_FMT_MODE_UDP:
		return MRC_EV_FMT_MODE_UDP;
	default:
		return -1;
	}
}

static uint32_t mode_from_kernel(uint32_t mode)
{
	switch (mode) {
	case MRC_EV_FMT_MODE_STEV:
		return MRC_CTL_EV_FMT_MODE_STEV;
	case MRC_EV_FMT_MODE_SRV6:
		return MRC_CTL_EV_FMT_MODE_SRV6;
	case MRC_EV_FMT_MODE_UDP:
		return MRC_CTL_EV_FMT_MODE_UDP;
	default:
		return 0;
	}
}

/* the arguments of either call: 0, or -1 with errno */
static int fmt_args(struct mrc_context *ctx, uint64_t id,
		    const struct mrc_ctl_ev_fmt_profile_attr *attr, int mask,
		    enum mrc_ctl_ev_fmt_op op)
{
	if (mrc_ctl_claim(ctx))
		return -1;
	if (!attr || !id || (mask & ~FMT_MASK_ALL) ||
	    ((mask & MRC_CTL_EV_FMT_PROFILE_OP) &&
	     (attr->ev_fmt_op.op != op || attr->ev_fmt_op.fmt_field_count < 0 ||
	      (attr->ev_fmt_op.fmt_field_count && !attr->ev_fmt_op.fmt_fields))) ||
	    ((mask & MRC_CTL_EV_FMT_VENDOR_CFG) &&
	     !mrc_vendor_cfg_empty(attr->vendor_cfg))) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* MODIFY_FIELDS: the widths, all of them; 0 or -1 with errno */
static int fmt_widths_put(struct nlmsghdr *nlh,
			  const struct mrc_ctl_ev_fmt_profile_attr *attr)
{
	int i, n = attr->ev_fmt_op.fmt_field_count;

	/* no widths at all would be no fmt-width: not a change the API can ask */
	if (!n) {
		errno = EINVAL;
		return -1;
	}
	if (n > MRC_MAX_EV_FIELDS) {
		errno = E2BIG;
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!attr->ev_fmt_op.fmt_fields[i].width ||
		    attr->ev_fmt_op.fmt_fields[i].width > FMT_WIDTH_MAX) {
			errno = EINVAL;
			return -1;
		}
	}
	for (i = 0; i < n; i++)
		mnl_attr_put_u32(nlh, MRC_A_EV_FMT_WIDTH,
				 attr->ev_fmt_op.fmt_fields[i].width);
	return 0;
}

LIBMRC_EXPORT
int mrc_ctl_modify_ev_fmt_profile(struct mrc_context *mrc_ctx,
				  uint64_t ev_fmt_profile_id,
				  struct mrc_ctl_ev_fmt_profile_attr *attr,
				  int attr_mask)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct mrcnl nl;
	int mode = 0, ret;

	if (fmt_args(mrc_ctx, ev_fmt_profile_id, attr, attr_mask,
		     MRC_CTL_EV_FMT_OP_MODIFY_FIELDS))
		return -1;
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_MODE)
		mode = mode_to_kernel(attr->ev_fmt_mode);
	if (((attr_mask & MRC_CTL_EV_FMT_PROFILE_STATE) &&
	     attr->profile_state > MRC_CTL_PROFILE_ONLINE) || mode < 0) {
		errno = EINVAL;
		return -1;
	}
	/* the current state is read, never written; nor is a vendor's */
	if (!(attr_mask & (MRC_CTL_EV_FMT_PROFILE_STATE | MRC_CTL_EV_FMT_PROFILE_MODE |
			   MRC_CTL_EV_FMT_PROFILE_OP)))
		return 0;
	if (mrc_ctl_open(mrc_ctx, &nl))
		return -1;
	nlh = mrcnl_msg(&nl, buf, MRC_CMD_EV_FMT_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, mrc_ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_EV_FMT_ID, ev_fmt_profile_id);
	/* the API's profile states are the kernel's, value for value */
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_STATE)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_STATE, attr->profile_state);
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_MODE)
		mnl_attr_put_u32(nlh, MRC_A_EV_FMT_MODE, mode);
	ret = 0;
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_OP)
		ret = fmt_widths_put(nlh, attr);
	if (!ret)
		ret = mrcnl_transact(&nl, nlh, NULL, NULL);
	mrcnl_close(&nl);
	return ret;
}

struct fmt_reply {
	uint32_t state, mode;		/* the API's */
	int nwidths;
	uint8_t width[MRC_MAX_EV_FIELDS];
};

static int cb_fmt(const struct nlmsghdr *nlh, void *data)
{
	struct fmt_reply *r = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case MRC_A_EV_PROFILE_STATE:
			r->state = mrcnl_u32(a);
			break;
		case MRC_A_EV_FMT_MODE:
			if (mrcnl_attr_ok(a, MNL_TYPE_U32))
				r->mode = mode_from_kernel(mnl_attr_get_u32(a));
			break;
		case MRC_A_EV_FMT_WIDTH:
			/* the kernel keeps no more than this */
			if (r->nwidths < MRC_MAX_EV_FIELDS)
				r->width[r->nwidths++] = mrcnl_u32(a);
			break;
		}
	}
	return MNL_CB_OK;
}

/* the kernel's format @id; one in INIT (ENOENT) holds nothing */
static int fmt_get(struct mrc_context *ctx, struct mrcnl *nl, uint64_t id,
		   uint32_t *state, uint32_t *mode, uint8_t *width,
		   int *nwidths)
{
	struct fmt_reply r = { .state = MRC_CC_PROFILE_STATE_INIT };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = mrcnl_msg(nl, buf, MRC_CMD_EV_FMT_GET, 0);
	mnl_attr_put_strz(nlh, MRC_A_EV_DEV_NAME, ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_EV_FMT_ID, id);
	if (mrcnl_transact(nl, nlh, cb_fmt, &r) && errno != ENOENT)
		return -1;
	*state = r.state;
	*mode = r.mode;
	*nwidths = r.nwidths;
	memcpy(width, r.width, r.nwidths);
	return 0;
}

LIBMRC_EXPORT
int mrc_ctl_query_ev_fmt_profile(struct mrc_context *mrc_ctx,
				 uint64_t ev_fmt_profile_id,
				 struct mrc_ctl_ev_fmt_profile_attr *attr,
				 int attr_mask)
{
	uint8_t width[MRC_MAX_EV_FIELDS];
	uint32_t state, mode;
	struct mrcnl nl;
	int i, n, ret;

	if (fmt_args(mrc_ctx, ev_fmt_profile_id, attr, attr_mask,
		     MRC_CTL_EV_FMT_OP_QUERY_FIELDS))
		return -1;
	if (mrc_ctl_open(mrc_ctx, &nl))
		return -1;
	ret = fmt_get(mrc_ctx, &nl, ev_fmt_profile_id, &state, &mode,
			     width, &n);
	mrcnl_close(&nl);
	if (ret)
		return -1;
	/* a short array: how long it must be, and nothing else */
	if ((attr_mask & MRC_CTL_EV_FMT_PROFILE_OP) &&
	    n > attr->ev_fmt_op.fmt_field_count) {
		attr->ev_fmt_op.fmt_field_count = n;
		errno = E2BIG;
		return -1;
	}
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_STATE)
		attr->profile_state = state;
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_CUR_STATE)
		attr->cur_profile_state = state;
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_MODE)
		attr->ev_fmt_mode = mode;
	if (attr_mask & MRC_CTL_EV_FMT_PROFILE_OP) {
		for (i = 0; i < n; i++)
			attr->ev_fmt_op.fmt_fields[i].width = width[i];
		attr->ev_fmt_op.fmt_field_count = n;
	}
	if (attr_mask & MRC_CTL_EV_FMT_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
	return 0;
}
