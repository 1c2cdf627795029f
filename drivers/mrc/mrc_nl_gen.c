// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/mrc.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "mrc_nl_gen.h"

#include <uapi/linux/mrc.h>

/* MRC_CMD_DEV_GET - do */
static const struct nla_policy mrc_dev_get_nl_policy[MRC_A_DEV_NAME + 1] = {
	[MRC_A_DEV_INDEX] = { .type = NLA_U32, },
	[MRC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = 63, },
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
};

struct genl_family mrc_nl_family __ro_after_init = {
	.name		= MRC_FAMILY_NAME,
	.version	= MRC_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= mrc_nl_ops,
	.n_split_ops	= ARRAY_SIZE(mrc_nl_ops),
};
