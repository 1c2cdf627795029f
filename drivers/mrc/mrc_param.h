/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Limits and identity of an mrc device. Everything a query verb reports
 * comes from here, so the numbers stay truthful as verbs are added.
 */
#ifndef _MRC_PARAM_H
#define _MRC_PARAM_H

#include <linux/stringify.h>
#include <rdma/ib_verbs.h>

enum mrc_limits {
	MRC_MAX_UCONTEXT	= 512,
	MRC_MAX_PD		= 0x7ffc,
	MRC_PORT_GID_TBL_LEN	= 1024,
	MRC_PORT_PKEY_TBL_LEN	= 1,
};

enum mrc_identity {
	/* no IEEE OUI: the same "unassigned" vendor id soft RoCE uses */
	MRC_VENDOR_ID		= 0xffffff,
	MRC_VENDOR_PART_ID	= 0x4d52,	/* "MR" */
	MRC_HW_REV		= 1,
};

/* the driver's version, also reported as firmware version */
#define MRC_VERSION_MAJOR	0
#define MRC_VERSION_MINOR	1
#define MRC_VERSION_PATCH	0
#define MRC_FW_VERSION		__stringify(MRC_VERSION_MAJOR.MRC_VERSION_MINOR.MRC_VERSION_PATCH)
#define MRC_NODE_DESC		"mrc"

#endif /* _MRC_PARAM_H */
