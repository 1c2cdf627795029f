// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * mrc_api_test: ports' admin state (port N is plane N - 1). Port 1 is
 * plane 0, which carries the device's GIDs and cannot be DISABLED; the
 * rest needs a second plane (mrc_libmrc.sh adds one as plane 1).
 */
#include "api.h"

/* port @p's admin state, or -1 if the query failed */
static int admin_of(struct env *e, uint8_t p)
{
	struct mrc_ctl_port_attr a = { .port_admin_state = 99 };

	if (mrc_ctl_query_port(e->ctx, p, &a, MRC_CTL_PORT_ADMIN_STATE))
		return -1;
	return a.port_admin_state;
}

static int set_admin(struct env *e, uint8_t p, int state, int mask)
{
	struct mrc_ctl_port_attr a = { .port_admin_state = state };

	return mrc_ctl_modify_port(e->ctx, p, &a, mask);
}

void t_ports(struct env *e)
{
	const int m = MRC_CTL_PORT_ADMIN_STATE;

	begin("ports' admin state");
	T_ERRNO(set_admin(e, 1, MRC_CTL_PORT_ADMIN_DISABLED, m), EINVAL,
		"mrc_ctl_modify_port 1 (plane 0, the GIDs') to DISABLED: EINVAL");
	T_TRUE(admin_of(e, 1) == MRC_CTL_PORT_ADMIN_ENABLED,
	       "mrc_ctl_query_port 1: ENABLED after the refusal");
	T_ERRNO(set_admin(e, 1, 7, m), EINVAL,
		"mrc_ctl_modify_port 1 to a state that is none: EINVAL");
	if (!(e->phy_port_mask & (1u << 2))) {
		diag("%s has no plane 1: port 2 checks left out", e->mrc_name);
		return;
	}
	T_TRUE(admin_of(e, 2) == MRC_CTL_PORT_ADMIN_ENABLED,
	       "mrc_ctl_query_port 2: ENABLED");
	T_RC(set_admin(e, 2, MRC_CTL_PORT_ADMIN_DISABLED, m), 0,
	     "mrc_ctl_modify_port 2 to DISABLED");
	T_TRUE(admin_of(e, 2) == MRC_CTL_PORT_ADMIN_DISABLED,
	       "mrc_ctl_query_port 2: DISABLED");
	T_RC(set_admin(e, 2, MRC_CTL_PORT_ADMIN_DISABLED, m), 0,
	     "mrc_ctl_modify_port 2 to DISABLED again");
	T_RC(set_admin(e, 2, MRC_CTL_PORT_ADMIN_ENABLED, 0), 0,
	     "mrc_ctl_modify_port 2 with an empty mask");
	T_TRUE(admin_of(e, 2) == MRC_CTL_PORT_ADMIN_DISABLED,
	       "mrc_ctl_query_port 2: an empty mask changed nothing");
	T_ERRNO(set_admin(e, 2, MRC_CTL_PORT_ADMIN_ENABLED, m | 1 << 1), EINVAL,
		"mrc_ctl_modify_port 2: unknown mask bit: EINVAL");
	T_TRUE(admin_of(e, 1) == MRC_CTL_PORT_ADMIN_ENABLED,
	       "mrc_ctl_query_port 1: ENABLED while port 2 is DISABLED");
	T_RC(set_admin(e, 2, MRC_CTL_PORT_ADMIN_ENABLED, m), 0,
	     "mrc_ctl_modify_port 2 to ENABLED");
	T_TRUE(admin_of(e, 2) == MRC_CTL_PORT_ADMIN_ENABLED,
	       "mrc_ctl_query_port 2: ENABLED again");
}
