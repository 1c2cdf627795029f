// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/mrc.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "mrc_nl_gen.h"

#include <uapi/linux/mrc.h>

/* Integer value ranges */
static const struct netlink_range_validation mrc_a_ep_req_id_range = {
	.max	= 65535ULL,
};

/* Common nested types */
const struct nla_policy mrc_ev_entry_nl_policy[MRC_A_EV_ENTRY_ALL_COPIES + 1] = {
	[MRC_A_EV_ENTRY_PLACE] = { .type = NLA_U32, },
	[MRC_A_EV_ENTRY_EV_BYTES] = { .type = NLA_BINARY, },
	[MRC_A_EV_ENTRY_PORT] = NLA_POLICY_MAX(NLA_U32, MRC_MAX_PLANES),
	[MRC_A_EV_ENTRY_STATE] = NLA_POLICY_MAX(NLA_U32, 3),
	[MRC_A_EV_ENTRY_NEW_BYTES] = { .type = NLA_BINARY, },
	[MRC_A_EV_ENTRY_NEW_PORT] = NLA_POLICY_RANGE(NLA_U32, 1, MRC_MAX_PLANES),
	[MRC_A_EV_ENTRY_ALL_COPIES] = { .type = NLA_FLAG, },
};

const struct nla_policy mrc_ev_field_nl_policy[MRC_A_EV_FIELD_MASK + 1] = {
	[MRC_A_EV_FIELD_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 32),
	[MRC_A_EV_FIELD_INIT_VAL] = { .type = NLA_U32, },
	[MRC_A_EV_FIELD_MIN_VAL] = { .type = NLA_U32, },
	[MRC_A_EV_FIELD_MAX_VAL] = { .type = NLA_U32, },
	[MRC_A_EV_FIELD_MASK] = { .type = NLA_U32, },
};

/* MRC_CMD_DEV_GET - do */
static const struct nla_policy mrc_dev_get_nl_policy[MRC_A_DEV_NAME + 1] = {
	[MRC_A_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
};

/* MRC_CMD_DEV_SET - do */
static const struct nla_policy mrc_dev_set_nl_policy[MRC_A_DEV_TRIM_LASTHOP_DSCP + 1] = {
	[MRC_A_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_DEV_EV_COUNT] = NLA_POLICY_RANGE(NLA_U32, 4, MRC_MAX_EVS),
	[MRC_A_DEV_TRIM_DSCP] = NLA_POLICY_MAX(NLA_U32, 63),
	[MRC_A_DEV_TRIM_LASTHOP_DSCP] = NLA_POLICY_MAX(NLA_U32, 64),
};

/* MRC_CMD_PLANE_GET - do */
static const struct nla_policy mrc_plane_get_do_nl_policy[MRC_A_PLANE_ID + 1] = {
	[MRC_A_PLANE_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_PLANE_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_PLANE_ID] = NLA_POLICY_MAX(NLA_U32, 15),
};

/* MRC_CMD_PLANE_GET - dump */
static const struct nla_policy mrc_plane_get_dump_nl_policy[MRC_A_PLANE_DEV_NAME + 1] = {
	[MRC_A_PLANE_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_PLANE_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
};

/* MRC_CMD_PLANE_ADD - do */
static const struct nla_policy mrc_plane_add_nl_policy[MRC_A_PLANE_IFINDEX + 1] = {
	[MRC_A_PLANE_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_PLANE_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_PLANE_IFINDEX] = { .type = NLA_U32, },
	[MRC_A_PLANE_ID] = NLA_POLICY_MAX(NLA_U32, 15),
};

/* MRC_CMD_PLANE_DEL - do */
static const struct nla_policy mrc_plane_del_nl_policy[MRC_A_PLANE_IFINDEX + 1] = {
	[MRC_A_PLANE_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_PLANE_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_PLANE_ID] = NLA_POLICY_MAX(NLA_U32, 15),
	[MRC_A_PLANE_IFINDEX] = { .type = NLA_U32, },
};

/* MRC_CMD_PATH_GET - dump */
static const struct nla_policy mrc_path_get_nl_policy[MRC_A_PATH_PEER + 1] = {
	[MRC_A_PATH_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_PATH_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_PATH_PEER] = NLA_POLICY_EXACT_LEN(16),
};

/* MRC_CMD_PATH_ADD - do */
static const struct nla_policy mrc_path_add_nl_policy[MRC_A_PATH_SEGS + 1] = {
	[MRC_A_PATH_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_PATH_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_PATH_PEER] = NLA_POLICY_EXACT_LEN(16),
	[MRC_A_PATH_PLANE] = NLA_POLICY_MAX(NLA_U32, 15),
	[MRC_A_PATH_REMOTE] = NLA_POLICY_EXACT_LEN(16),
	[MRC_A_PATH_USID] = NLA_POLICY_EXACT_LEN(16),
	[MRC_A_PATH_LBLEN] = { .type = NLA_U8, },
	[MRC_A_PATH_NFLEN] = { .type = NLA_U8, },
	[MRC_A_PATH_SEGS] = { .type = NLA_BINARY, },
};

/* MRC_CMD_PATH_DEL - do */
static const struct nla_policy mrc_path_del_nl_policy[MRC_A_PATH_SEGS + 1] = {
	[MRC_A_PATH_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_PATH_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_PATH_PEER] = NLA_POLICY_EXACT_LEN(16),
	[MRC_A_PATH_PLANE] = NLA_POLICY_MAX(NLA_U32, 15),
	[MRC_A_PATH_REMOTE] = NLA_POLICY_EXACT_LEN(16),
	[MRC_A_PATH_USID] = NLA_POLICY_EXACT_LEN(16),
	[MRC_A_PATH_SEGS] = { .type = NLA_BINARY, },
};

/* MRC_CMD_EV_GET - dump */
static const struct nla_policy mrc_ev_get_nl_policy[MRC_A_EV_EV_BYTES + 1] = {
	[MRC_A_EV_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_EV_QPN] = { .type = NLA_U32, },
	[MRC_A_EV_PROFILE_ID] = { .type = NLA_UINT, },
	[MRC_A_EV_VALUE] = { .type = NLA_U32, },
	[MRC_A_EV_PLANE] = { .type = NLA_U32, },
	[MRC_A_EV_EV_BYTES] = { .type = NLA_BINARY, },
};

/* MRC_CMD_EV_SET - do */
static const struct nla_policy mrc_ev_set_nl_policy[MRC_A_EV_EV_BYTES + 1] = {
	[MRC_A_EV_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_EV_QPN] = { .type = NLA_U32, },
	[MRC_A_EV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_STATE] = NLA_POLICY_MAX(NLA_U32, 3),
	[MRC_A_EV_PROFILE_ID] = { .type = NLA_UINT, },
	[MRC_A_EV_VALUE] = { .type = NLA_U32, },
	[MRC_A_EV_PLANE] = { .type = NLA_U32, },
	[MRC_A_EV_EV_BYTES] = { .type = NLA_BINARY, },
};

/* MRC_CMD_PLANE_SET - do */
static const struct nla_policy mrc_plane_set_nl_policy[MRC_A_PLANE_ADMIN + 1] = {
	[MRC_A_PLANE_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_PLANE_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_PLANE_ID] = NLA_POLICY_MAX(NLA_U32, 15),
	[MRC_A_PLANE_ALLOW] = NLA_POLICY_EXACT_LEN(17),
	[MRC_A_PLANE_ADMIN] = NLA_POLICY_MAX(NLA_U32, 1),
};

/* MRC_CMD_CC_GET - do */
static const struct nla_policy mrc_cc_get_nl_policy[MRC_A_CC_DEV_NAME + 1] = {
	[MRC_A_CC_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_CC_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
};

/* MRC_CMD_CC_SET - do */
static const struct nla_policy mrc_cc_set_nl_policy[MRC_A_CC_DISABLE_QA + 1] = {
	[MRC_A_CC_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_CC_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_CC_ALGO] = NLA_POLICY_MAX(NLA_U32, 1),
	[MRC_A_CC_BASE_RTT] = { .type = NLA_U32, },
	[MRC_A_CC_TARGET_DELAY] = { .type = NLA_U32, },
	[MRC_A_CC_MAX_CWND] = { .type = NLA_U32, },
	[MRC_A_CC_ETA] = { .type = NLA_U32, },
	[MRC_A_CC_FI] = { .type = NLA_U32, },
	[MRC_A_CC_FI_SCALE] = { .type = NLA_U32, },
	[MRC_A_CC_GAMMA] = { .type = NLA_U32, },
	[MRC_A_CC_MAX_MD_JUMP] = { .type = NLA_U32, },
	[MRC_A_CC_QA_GATE] = { .type = NLA_U32, },
	[MRC_A_CC_QA_THRESHOLD] = { .type = NLA_U32, },
	[MRC_A_CC_ADJUST_BYTES_THRESHOLD] = { .type = NLA_U32, },
	[MRC_A_CC_ADJUST_PERIOD_THRESHOLD] = { .type = NLA_U32, },
	[MRC_A_CC_DISABLE_QA] = { .type = NLA_U8, },
};

/* MRC_CMD_CC_QP_GET - do */
static const struct nla_policy mrc_cc_qp_get_nl_policy[MRC_A_CC_QPN + 1] = {
	[MRC_A_CC_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_CC_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_CC_QPN] = { .type = NLA_U32, },
};

/* MRC_CMD_CC_PROFILE_GET - do */
static const struct nla_policy mrc_cc_profile_get_do_nl_policy[MRC_A_CC_PROFILE_ID + 1] = {
	[MRC_A_CC_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_CC_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_CC_PROFILE_ID] = { .type = NLA_UINT, },
};

/* MRC_CMD_CC_PROFILE_GET - dump */
static const struct nla_policy mrc_cc_profile_get_dump_nl_policy[MRC_A_CC_DEV_NAME + 1] = {
	[MRC_A_CC_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_CC_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
};

/* MRC_CMD_CC_PROFILE_SET - do */
static const struct nla_policy mrc_cc_profile_set_nl_policy[MRC_A_CC_PROFILE_STATE + 1] = {
	[MRC_A_CC_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_CC_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_CC_PROFILE_ID] = { .type = NLA_UINT, },
	[MRC_A_CC_PROFILE_STATE] = NLA_POLICY_MAX(NLA_U32, 2),
	[MRC_A_CC_ALGO] = NLA_POLICY_MAX(NLA_U32, 1),
	[MRC_A_CC_BASE_RTT] = { .type = NLA_U32, },
	[MRC_A_CC_TARGET_DELAY] = { .type = NLA_U32, },
	[MRC_A_CC_MAX_CWND] = { .type = NLA_U32, },
	[MRC_A_CC_ETA] = { .type = NLA_U32, },
	[MRC_A_CC_FI] = { .type = NLA_U32, },
	[MRC_A_CC_FI_SCALE] = { .type = NLA_U32, },
	[MRC_A_CC_GAMMA] = { .type = NLA_U32, },
	[MRC_A_CC_MAX_MD_JUMP] = { .type = NLA_U32, },
	[MRC_A_CC_QA_GATE] = { .type = NLA_U32, },
	[MRC_A_CC_QA_THRESHOLD] = { .type = NLA_U32, },
	[MRC_A_CC_ADJUST_BYTES_THRESHOLD] = { .type = NLA_U32, },
	[MRC_A_CC_ADJUST_PERIOD_THRESHOLD] = { .type = NLA_U32, },
	[MRC_A_CC_DISABLE_QA] = { .type = NLA_U8, },
};

/* MRC_CMD_EV_PROFILE_GET - do */
static const struct nla_policy mrc_ev_profile_get_do_nl_policy[MRC_A_EV_ENTRIES + 1] = {
	[MRC_A_EV_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_EV_PROFILE_ID] = { .type = NLA_UINT, },
	[MRC_A_EV_ENTRIES] = { .type = NLA_FLAG, },
};

/* MRC_CMD_EV_PROFILE_GET - dump */
static const struct nla_policy mrc_ev_profile_get_dump_nl_policy[MRC_A_EV_DEV_NAME + 1] = {
	[MRC_A_EV_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
};

/* MRC_CMD_EV_PROFILE_SET - do */
static const struct nla_policy mrc_ev_profile_set_nl_policy[MRC_A_EV_ENTRY + 1] = {
	[MRC_A_EV_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_EV_PROFILE_ID] = { .type = NLA_UINT, },
	[MRC_A_EV_PROFILE_STATE] = NLA_POLICY_MAX(NLA_U32, 2),
	[MRC_A_EV_PROFILE_MODE] = NLA_POLICY_MAX(NLA_U32, 2),
	[MRC_A_EV_PROFILE_COUNT] = NLA_POLICY_RANGE(NLA_U32, 1, MRC_MAX_EVS),
	[MRC_A_EV_PROFILE_MIN_ACTIVE] = NLA_POLICY_RANGE(NLA_U32, 1, MRC_MAX_EVS),
	[MRC_A_EV_EVENT_MASK] = NLA_POLICY_MASK(NLA_U32, 0x3),
	[MRC_A_EV_FMT_ID] = { .type = NLA_UINT, },
	[MRC_A_EV_FIELD] = NLA_POLICY_NESTED(mrc_ev_field_nl_policy),
	[MRC_A_EV_ENTRY] = NLA_POLICY_NESTED(mrc_ev_entry_nl_policy),
};

/* MRC_CMD_EP_PROBE - do */
static const struct nla_policy mrc_ep_probe_nl_policy[MRC_A_EP_TIMEOUT_NS + 1] = {
	[MRC_A_EP_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EP_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_EP_PEER] = NLA_POLICY_EXACT_LEN(16),
	[MRC_A_EP_PLANE] = NLA_POLICY_MAX(NLA_U32, 15),
	[MRC_A_EP_PATH_ID] = { .type = NLA_U32, },
	[MRC_A_EP_EV] = { .type = NLA_U32, },
	[MRC_A_EP_REQ_ID] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_a_ep_req_id_range),
	[MRC_A_EP_DSCP] = NLA_POLICY_MAX(NLA_U32, 63),
	[MRC_A_EP_TIMEOUT_NS] = { .type = NLA_UINT, },
};

/* MRC_CMD_EV_FMT_GET - do */
static const struct nla_policy mrc_ev_fmt_get_do_nl_policy[MRC_A_EV_FMT_ID + 1] = {
	[MRC_A_EV_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_EV_FMT_ID] = { .type = NLA_UINT, },
};

/* MRC_CMD_EV_FMT_GET - dump */
static const struct nla_policy mrc_ev_fmt_get_dump_nl_policy[MRC_A_EV_DEV_NAME + 1] = {
	[MRC_A_EV_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
};

/* MRC_CMD_EV_FMT_SET - do */
static const struct nla_policy mrc_ev_fmt_set_nl_policy[MRC_A_EV_FMT_WIDTH + 1] = {
	[MRC_A_EV_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_EV_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
	[MRC_A_EV_FMT_ID] = { .type = NLA_UINT, },
	[MRC_A_EV_PROFILE_STATE] = NLA_POLICY_MAX(NLA_U32, 2),
	[MRC_A_EV_FMT_MODE] = NLA_POLICY_MAX(NLA_U32, 2),
	[MRC_A_EV_FMT_WIDTH] = NLA_POLICY_RANGE(NLA_U32, 1, 128),
};

/* Ops table for mrc */
static const struct genl_split_ops mrc_nl_ops[] = {
	{
		.cmd		= MRC_CMD_DEV_GET,
		.doit		= mrc_nl_dev_get_doit,
		.policy		= mrc_dev_get_nl_policy,
		.maxattr	= MRC_A_DEV_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= MRC_CMD_DEV_GET,
		.dumpit	= mrc_nl_dev_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= MRC_CMD_DEV_SET,
		.doit		= mrc_nl_dev_set_doit,
		.policy		= mrc_dev_set_nl_policy,
		.maxattr	= MRC_A_DEV_TRIM_LASTHOP_DSCP,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_PLANE_GET,
		.doit		= mrc_nl_plane_get_doit,
		.policy		= mrc_plane_get_do_nl_policy,
		.maxattr	= MRC_A_PLANE_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_PLANE_GET,
		.dumpit		= mrc_nl_plane_get_dumpit,
		.policy		= mrc_plane_get_dump_nl_policy,
		.maxattr	= MRC_A_PLANE_DEV_NAME,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= MRC_CMD_PLANE_ADD,
		.doit		= mrc_nl_plane_add_doit,
		.policy		= mrc_plane_add_nl_policy,
		.maxattr	= MRC_A_PLANE_IFINDEX,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_PLANE_DEL,
		.doit		= mrc_nl_plane_del_doit,
		.policy		= mrc_plane_del_nl_policy,
		.maxattr	= MRC_A_PLANE_IFINDEX,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_PATH_GET,
		.dumpit		= mrc_nl_path_get_dumpit,
		.policy		= mrc_path_get_nl_policy,
		.maxattr	= MRC_A_PATH_PEER,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= MRC_CMD_PATH_ADD,
		.doit		= mrc_nl_path_add_doit,
		.policy		= mrc_path_add_nl_policy,
		.maxattr	= MRC_A_PATH_SEGS,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_PATH_DEL,
		.doit		= mrc_nl_path_del_doit,
		.policy		= mrc_path_del_nl_policy,
		.maxattr	= MRC_A_PATH_SEGS,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_EV_GET,
		.dumpit		= mrc_nl_ev_get_dumpit,
		.policy		= mrc_ev_get_nl_policy,
		.maxattr	= MRC_A_EV_EV_BYTES,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= MRC_CMD_EV_SET,
		.doit		= mrc_nl_ev_set_doit,
		.policy		= mrc_ev_set_nl_policy,
		.maxattr	= MRC_A_EV_EV_BYTES,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_PLANE_SET,
		.doit		= mrc_nl_plane_set_doit,
		.policy		= mrc_plane_set_nl_policy,
		.maxattr	= MRC_A_PLANE_ADMIN,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_CC_GET,
		.doit		= mrc_nl_cc_get_doit,
		.policy		= mrc_cc_get_nl_policy,
		.maxattr	= MRC_A_CC_DEV_NAME,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= MRC_CMD_CC_GET,
		.dumpit	= mrc_nl_cc_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= MRC_CMD_CC_SET,
		.doit		= mrc_nl_cc_set_doit,
		.policy		= mrc_cc_set_nl_policy,
		.maxattr	= MRC_A_CC_DISABLE_QA,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_CC_QP_GET,
		.doit		= mrc_nl_cc_qp_get_doit,
		.policy		= mrc_cc_qp_get_nl_policy,
		.maxattr	= MRC_A_CC_QPN,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_CC_PROFILE_GET,
		.doit		= mrc_nl_cc_profile_get_doit,
		.policy		= mrc_cc_profile_get_do_nl_policy,
		.maxattr	= MRC_A_CC_PROFILE_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_CC_PROFILE_GET,
		.dumpit		= mrc_nl_cc_profile_get_dumpit,
		.policy		= mrc_cc_profile_get_dump_nl_policy,
		.maxattr	= MRC_A_CC_DEV_NAME,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= MRC_CMD_CC_PROFILE_SET,
		.doit		= mrc_nl_cc_profile_set_doit,
		.policy		= mrc_cc_profile_set_nl_policy,
		.maxattr	= MRC_A_CC_PROFILE_STATE,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_EV_PROFILE_GET,
		.doit		= mrc_nl_ev_profile_get_doit,
		.policy		= mrc_ev_profile_get_do_nl_policy,
		.maxattr	= MRC_A_EV_ENTRIES,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_EV_PROFILE_GET,
		.dumpit		= mrc_nl_ev_profile_get_dumpit,
		.policy		= mrc_ev_profile_get_dump_nl_policy,
		.maxattr	= MRC_A_EV_DEV_NAME,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= MRC_CMD_EV_PROFILE_SET,
		.doit		= mrc_nl_ev_profile_set_doit,
		.policy		= mrc_ev_profile_set_nl_policy,
		.maxattr	= MRC_A_EV_ENTRY,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_EP_PROBE,
		.doit		= mrc_nl_ep_probe_doit,
		.policy		= mrc_ep_probe_nl_policy,
		.maxattr	= MRC_A_EP_TIMEOUT_NS,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_EV_FMT_GET,
		.doit		= mrc_nl_ev_fmt_get_doit,
		.policy		= mrc_ev_fmt_get_do_nl_policy,
		.maxattr	= MRC_A_EV_FMT_ID,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= MRC_CMD_EV_FMT_GET,
		.dumpit		= mrc_nl_ev_fmt_get_dumpit,
		.policy		= mrc_ev_fmt_get_dump_nl_policy,
		.maxattr	= MRC_A_EV_DEV_NAME,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= MRC_CMD_EV_FMT_SET,
		.doit		= mrc_nl_ev_fmt_set_doit,
		.policy		= mrc_ev_fmt_set_nl_policy,
		.maxattr	= MRC_A_EV_FMT_WIDTH,
		.flags		= GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group mrc_nl_mcgrps[] = {
	[MRC_NLGRP_CONFIG] = { "config", },
	[MRC_NLGRP_EV] = { "ev", .flags = GENL_MCAST_CAP_NET_ADMIN, },
};

struct genl_family mrc_nl_family __ro_after_init = {
	.name		= MRC_FAMILY_NAME,
	.version	= MRC_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= mrc_nl_ops,
	.n_split_ops	= ARRAY_SIZE(mrc_nl_ops),
	.mcgrps		= mrc_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(mrc_nl_mcgrps),
};
