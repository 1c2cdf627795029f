/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/mrc.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_MRC_H
#define _UAPI_LINUX_MRC_H

#define MRC_FAMILY_NAME		"mrc"
#define MRC_FAMILY_VERSION	1

#define MRC_MAX_PLANES	16

/**
 * enum mrc_port_state - State of the device's RDMA port.
 * @MRC_PORT_STATE_DOWN: No plane can carry packets.
 * @MRC_PORT_STATE_ACTIVE: At least one plane carries packets.
 */
enum mrc_port_state {
	MRC_PORT_STATE_DOWN,
	MRC_PORT_STATE_ACTIVE,
};

enum {
	MRC_A_DEV_INDEX = 1,
	MRC_A_DEV_NAME,
	MRC_A_DEV_NETDEV_IFINDEX,
	MRC_A_DEV_NODE_GUID,
	MRC_A_DEV_PORT_STATE,

	__MRC_A_DEV_MAX,
	MRC_A_DEV_MAX = (__MRC_A_DEV_MAX - 1)
};

enum {
	MRC_CMD_DEV_GET = 1,

	__MRC_CMD_MAX,
	MRC_CMD_MAX = (__MRC_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_MRC_H */
