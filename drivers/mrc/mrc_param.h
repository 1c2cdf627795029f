/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Limits and identity of an mrc device. Everything a query verb reports
 * comes from here, so the numbers stay truthful as verbs are added.
 */
#ifndef _MRC_PARAM_H
#define _MRC_PARAM_H

#include <linux/bits.h>
#include <linux/stringify.h>
#include <rdma/ib_verbs.h>

enum mrc_limits {
	MRC_MAX_UCONTEXT	= 512,
	MRC_MAX_PD		= 0x7ffc,
	/*
	 * One GID per IP address of the plane-0 netdev: 256 as on most RoCE
	 * NICs. ib_core gives each entry sysfs files in every namespace's
	 * compat device, so a larger table slows each link add and del.
	 */
	MRC_PORT_GID_TBL_LEN	= 256,
	MRC_PORT_PKEY_TBL_LEN	= 1,
	MRC_MAX_QP		= 0x10000,
	MRC_MAX_QP_WR		= 0x4000,
	MRC_MAX_SGE		= 32,
	MRC_MAX_INLINE		= 512,
	MRC_MAX_CQ		= 0x4000,
	MRC_MAX_CQE		= 0x7fff,
	MRC_MAX_MR		= 0x40000,
	MRC_MAX_MW		= 0x10000,
	MRC_MAX_FAST_PAGES	= 512,
	MRC_MAX_AH		= 0x8000,
	MRC_MAX_SRQ		= 0x4000,
	MRC_MAX_SRQ_WR		= 0x4000,
	MRC_MAX_RD_ATOMIC	= 16,
	/* multicast groups per device, and UD QPs per group (as rxe) */
	MRC_MAX_MCAST_GRP	= 256,
	MRC_MAX_MCAST_QP_ATTACH	= 56,
	MRC_MAX_MSG		= BIT(30),
};

#define MRC_MAX_MR_SIZE		BIT_ULL(32)

enum mrc_identity {
	/* no IEEE OUI: the same "unassigned" vendor id soft RoCE uses */
	MRC_VENDOR_ID		= 0xffffff,
	MRC_VENDOR_PART_ID	= 0x4d52,	/* "MR" */
	MRC_HW_REV		= 1,
};

/* EVs a new RC QP gets unless the device profile says otherwise */
#define MRC_DEFAULT_EVS		128

/*
 * Trimming: the DSCP a switch gives a packet it cut to its headers (the
 * device profile's default; EF, as the lab's trimming qdisc), and the
 * value that stands for "no DSCP" (no last-hop DSCP configured)
 */
#define MRC_TRIM_DSCP		46
#define MRC_DSCP_NONE		64

/*
 * The fabric the default NSCC profile is derived for (mrc_cc_params_default()):
 * MRC's, 100 Gb/s links and an unloaded RTT of 100 us, NICs and software
 * included; 4096-byte MTU packets.
 */
#define MRC_CC_LINK_MBPS	100000
#define MRC_CC_BASE_RTT_NS	100000
#define MRC_CC_MTU		4096

/*
 * the driver's version, also reported as firmware version: MRC_VERSION_MAJOR,
 * _MINOR and _PATCH come from the VERSION file (drivers/mrc/Kbuild)
 */
#define MRC_FW_VERSION		__stringify(MRC_VERSION_MAJOR.MRC_VERSION_MINOR.MRC_VERSION_PATCH)
#define MRC_NODE_DESC		"mrc"

#endif /* _MRC_PARAM_H */
