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

#define MRC_MAX_ALLOW	16
#define MRC_MAX_PATHS	256
#define MRC_MAX_EVS	256

/**
 * enum mrc_plane_state - State of one plane.
 * @MRC_PLANE_STATE_DOWN: The netdev is down or has no carrier; its EVs are not
 *   used.
 * @MRC_PLANE_STATE_UP: The plane carries packets.
 * @MRC_PLANE_STATE_ADMIN_DOWN: The operator took the plane down (plane-set
 *   admin down): its EVs are not used, as when its netdev is down, and mrc
 *   drops the packets that arrive on it (the netdev itself stays up).
 */
enum mrc_plane_state {
	MRC_PLANE_STATE_DOWN,
	MRC_PLANE_STATE_UP,
	MRC_PLANE_STATE_ADMIN_DOWN,
};

/**
 * enum mrc_path_mode - How packets of a path are addressed.
 * @MRC_PATH_MODE_UDP: Plain RoCEv2 to the peer's plane address; the EV is only
 *   in the UDP source port and flow label (ECMP fabrics without SRv6).
 * @MRC_PATH_MODE_USID: IPv6-in-IPv6: the outer destination is an SRv6 uSID
 *   container (RFC 9800 NEXT-C-SID), the inner destination the peer's node
 *   address (MRC 1.0).
 * @MRC_PATH_MODE_SRH: IPv6-in-IPv6 with a Segment Routing Header: the outer
 *   destination is the first of an explicit segment list (RFC 8754, SRv6 End
 *   at every segment), the inner destination the peer's node address.
 */
enum mrc_path_mode {
	MRC_PATH_MODE_UDP,
	MRC_PATH_MODE_USID,
	MRC_PATH_MODE_SRH,
};

/**
 * enum mrc_ev_state - Path health of one entropy value (MRC 1.0 section 5).
 * @MRC_EV_STATE_GOOD: Used for data.
 * @MRC_EV_STATE_SKIP: Congested; skipped for a short while.
 * @MRC_EV_STATE_ASSUMED_BAD: A packet was lost on it; not used until probes
 *   succeed.
 * @MRC_EV_STATE_DENIED: Set by the operator; never used.
 */
enum mrc_ev_state {
	MRC_EV_STATE_GOOD,
	MRC_EV_STATE_SKIP,
	MRC_EV_STATE_ASSUMED_BAD,
	MRC_EV_STATE_DENIED,
};

/**
 * enum mrc_ev_cause - Why an EV changed state.
 * @MRC_EV_CAUSE_LOSS: A packet sent on it was lost (GOOD -> ASSUMED_BAD).
 * @MRC_EV_CAUSE_PROBE: Enough probes on it were answered (ASSUMED_BAD ->
 *   GOOD).
 * @MRC_EV_CAUSE_DENY: The operator denied it.
 * @MRC_EV_CAUSE_ALLOW: The operator allowed it again.
 */
enum mrc_ev_cause {
	MRC_EV_CAUSE_LOSS,
	MRC_EV_CAUSE_PROBE,
	MRC_EV_CAUSE_DENY,
	MRC_EV_CAUSE_ALLOW,
};

/**
 * enum mrc_cc_algo - Congestion control of an RC QP.
 * @MRC_CC_ALGO_NONE: None; the peer's receive window (MPR) alone bounds what
 *   flies.
 * @MRC_CC_ALGO_NSCC: UEC 1.0 NSCC, as MRC 1.0 uses it ("uet-1.0-nscc").
 */
enum mrc_cc_algo {
	MRC_CC_ALGO_NONE,
	MRC_CC_ALGO_NSCC,
};

#define MRC_MAX_CC_PROFILES	16
#define MRC_MAX_EV_PROFILES	16

/**
 * enum mrc_ev_profile_mode - Where the EVs of a QP bound to an EV profile come
 *   from.
 * @MRC_EV_PROFILE_MODE_AUTO: mrc's own (the OCP MRC API's AUTO mode): each QP
 *   builds its EV set from its peer's path set, with the profile's count and
 *   floor.
 * @MRC_EV_PROFILE_MODE_EXP: Explicit (the OCP API's EXP): the controller lists
 *   the profile's EVs (entry), each with its port (plane + 1), expanded
 *   through the profile's fields into the format's layout (ev-fmt-set).
 * @MRC_EV_PROFILE_MODE_GEN: Generated (the OCP API's GEN): mrc lists
 *   profile-count EVs, the first combinations of the fields' ranges (the first
 *   field changing fastest), each on every plane of the device in turn.
 */
enum mrc_ev_profile_mode {
	MRC_EV_PROFILE_MODE_AUTO,
	MRC_EV_PROFILE_MODE_EXP,
	MRC_EV_PROFILE_MODE_GEN,
};

#define MRC_MAX_EV_FMTS		16
#define MRC_MAX_EV_FIELDS	16

/**
 * enum mrc_ev_fmt_mode - Where an EV of an exp or gen EV profile goes in a
 *   packet (its format profile's mode); the expanded EV is a bit string, most
 *   significant bit first.
 * @MRC_EV_FMT_MODE_STEV: Structured EV, at most 32 bits: the first 16 are the
 *   UDP source port, the next 16 the low bits of the flow label. The QP's peer
 *   path set's udp paths give the destination on each plane.
 * @MRC_EV_FMT_MODE_SRV6: SRv6, at most 256 bits: the first 128 are the outer
 *   destination (a uSID container; the format's first field is its locator
 *   block and its second the uSID length); more than 128 add an SRH whose
 *   second segment is the next 128 bits.
 * @MRC_EV_FMT_MODE_UDP: At most 16 bits, the UDP source port (flow label 0).
 */
enum mrc_ev_fmt_mode {
	MRC_EV_FMT_MODE_STEV,
	MRC_EV_FMT_MODE_SRV6,
	MRC_EV_FMT_MODE_UDP,
};

/**
 * enum mrc_ev_event - The EV state changes an EV profile reports (its event
 *   mask).
 * @MRC_EV_EVENT_GOOD: An EV became usable again (GOOD).
 * @MRC_EV_EVENT_ASSUMED_BAD: An EV was taken out of use (ASSUMED_BAD).
 */
enum mrc_ev_event {
	MRC_EV_EVENT_GOOD = 1,
	MRC_EV_EVENT_ASSUMED_BAD = 2,
};

/**
 * enum mrc_cc_profile_state - State of a congestion control profile (the OCP
 *   MRC API's): it goes init -> offline -> online and back.
 * @MRC_CC_PROFILE_STATE_INIT: Exists but holds nothing (a profile never
 *   configured, or reset).
 * @MRC_CC_PROFILE_STATE_OFFLINE: Configured (an algorithm, knobs); QPs cannot
 *   use it.
 * @MRC_CC_PROFILE_STATE_ONLINE: QPs can use it; it does not change while
 *   online.
 */
enum mrc_cc_profile_state {
	MRC_CC_PROFILE_STATE_INIT,
	MRC_CC_PROFILE_STATE_OFFLINE,
	MRC_CC_PROFILE_STATE_ONLINE,
};

#define MRC_MAX_EP_PROBES	256

/**
 * enum mrc_ep_status - How an endpoint probe ended (ep-probe-ntf).
 * @MRC_EP_STATUS_ANSWERED: The peer answered; rtt-ns and arrival-plane are
 *   set.
 * @MRC_EP_STATUS_TIMEOUT: No answer within timeout-ns.
 */
enum mrc_ep_status {
	MRC_EP_STATUS_ANSWERED,
	MRC_EP_STATUS_TIMEOUT,
};

/**
 * enum mrc_plane_admin - Administrative state of a plane (the OCP MRC API's
 *   port admin state, port N being plane N - 1).
 * @MRC_PLANE_ADMIN_DOWN: mrc sends nothing on the plane and drops what arrives
 *   on it. Not plane 0, which carries the device's GIDs.
 * @MRC_PLANE_ADMIN_UP: The plane is used whenever its netdev can carry
 *   packets.
 */
enum mrc_plane_admin {
	MRC_PLANE_ADMIN_DOWN,
	MRC_PLANE_ADMIN_UP,
};

enum {
	MRC_A_DEV_INDEX = 1,
	MRC_A_DEV_NAME,
	MRC_A_DEV_NETDEV_IFINDEX,
	MRC_A_DEV_NODE_GUID,
	MRC_A_DEV_PORT_STATE,
	MRC_A_DEV_EV_COUNT,
	MRC_A_DEV_PLANES,
	MRC_A_DEV_TRIM_DSCP,
	MRC_A_DEV_TRIM_LASTHOP_DSCP,
	MRC_A_DEV_EP_ANSWERED,
	MRC_A_DEV_EP_RATE_LIMITED,
	MRC_A_DEV_EP_UNMATCHED,
	MRC_A_DEV_QPS,
	MRC_A_DEV_QP_MEM,

	__MRC_A_DEV_MAX,
	MRC_A_DEV_MAX = (__MRC_A_DEV_MAX - 1)
};

enum {
	MRC_A_PLANE_DEV_INDEX = 1,
	MRC_A_PLANE_DEV_NAME,
	MRC_A_PLANE_ID,
	MRC_A_PLANE_IFINDEX,
	MRC_A_PLANE_STATE,
	MRC_A_PLANE_TX_PACKETS,
	MRC_A_PLANE_TX_BYTES,
	MRC_A_PLANE_RX_PACKETS,
	MRC_A_PLANE_RX_BYTES,
	MRC_A_PLANE_RETRANS,
	MRC_A_PLANE_LOSSES,
	MRC_A_PLANE_ALLOW,
	MRC_A_PLANE_ADMIN,
	MRC_A_PLANE_RX_ADMIN_DROPS,
	MRC_A_PLANE_DOWN_LOST,

	__MRC_A_PLANE_MAX,
	MRC_A_PLANE_MAX = (__MRC_A_PLANE_MAX - 1)
};

enum {
	MRC_A_PATH_DEV_INDEX = 1,
	MRC_A_PATH_DEV_NAME,
	MRC_A_PATH_PEER,
	MRC_A_PATH_PLANE,
	MRC_A_PATH_MODE,
	MRC_A_PATH_REMOTE,
	MRC_A_PATH_USID,
	MRC_A_PATH_LBLEN,
	MRC_A_PATH_NFLEN,
	MRC_A_PATH_ID,
	MRC_A_PATH_TX_PACKETS,
	MRC_A_PATH_TX_BYTES,
	MRC_A_PATH_SEGS,

	__MRC_A_PATH_MAX,
	MRC_A_PATH_MAX = (__MRC_A_PATH_MAX - 1)
};

enum {
	MRC_A_EV_DEV_INDEX = 1,
	MRC_A_EV_DEV_NAME,
	MRC_A_EV_QPN,
	MRC_A_EV_INDEX,
	MRC_A_EV_VALUE,
	MRC_A_EV_PLANE,
	MRC_A_EV_PATH_ID,
	MRC_A_EV_STATE,
	MRC_A_EV_TX_PACKETS,
	MRC_A_EV_TX_BYTES,
	MRC_A_EV_RETRANS,
	MRC_A_EV_LOSSES,
	MRC_A_EV_ECN,
	MRC_A_EV_SLOT,
	MRC_A_EV_PROBES,
	MRC_A_EV_SRTT,
	MRC_A_EV_OLD_STATE,
	MRC_A_EV_CAUSE,
	MRC_A_EV_BACKUP,
	MRC_A_EV_TIME,
	MRC_A_EV_TRIMS,
	MRC_A_EV_PENALTY,
	MRC_A_EV_PROFILE_ID,
	MRC_A_EV_PROFILE_STATE,
	MRC_A_EV_PROFILE_MODE,
	MRC_A_EV_PROFILE_COUNT,
	MRC_A_EV_PROFILE_MIN_ACTIVE,
	MRC_A_EV_EVENT_MASK,
	MRC_A_EV_PROFILE_QPS,
	MRC_A_EV_FMT_ID,
	MRC_A_EV_FMT_MODE,
	MRC_A_EV_FMT_WIDTH,
	MRC_A_EV_FMT_USERS,
	MRC_A_EV_FIELD,
	MRC_A_EV_ENTRY,
	MRC_A_EV_ENTRIES,
	MRC_A_EV_EV_BYTES,
	MRC_A_EV_ENTRY_INDEX,

	__MRC_A_EV_MAX,
	MRC_A_EV_MAX = (__MRC_A_EV_MAX - 1)
};

enum {
	MRC_A_CC_DEV_INDEX = 1,
	MRC_A_CC_DEV_NAME,
	MRC_A_CC_ALGO,
	MRC_A_CC_BASE_RTT,
	MRC_A_CC_TARGET_DELAY,
	MRC_A_CC_MAX_CWND,
	MRC_A_CC_ETA,
	MRC_A_CC_FI,
	MRC_A_CC_FI_SCALE,
	MRC_A_CC_GAMMA,
	MRC_A_CC_MAX_MD_JUMP,
	MRC_A_CC_QA_GATE,
	MRC_A_CC_QA_THRESHOLD,
	MRC_A_CC_ADJUST_BYTES_THRESHOLD,
	MRC_A_CC_ADJUST_PERIOD_THRESHOLD,
	MRC_A_CC_DISABLE_QA,
	MRC_A_CC_DECREASES,
	MRC_A_CC_QUICK_ADAPTS,
	MRC_A_CC_TIMEOUTS,
	MRC_A_CC_QPN,
	MRC_A_CC_CWND,
	MRC_A_CC_INFLIGHT,
	MRC_A_CC_AVG_DELAY,
	MRC_A_CC_SRTT,
	MRC_A_CC_NACK_DECREASES,
	MRC_A_CC_PROFILE_ID,
	MRC_A_CC_PROFILE_STATE,
	MRC_A_CC_PROFILE_QPS,

	__MRC_A_CC_MAX,
	MRC_A_CC_MAX = (__MRC_A_CC_MAX - 1)
};

enum {
	MRC_A_EP_DEV_INDEX = 1,
	MRC_A_EP_DEV_NAME,
	MRC_A_EP_PEER,
	MRC_A_EP_PLANE,
	MRC_A_EP_PATH_ID,
	MRC_A_EP_EV,
	MRC_A_EP_REQ_ID,
	MRC_A_EP_DSCP,
	MRC_A_EP_TIMEOUT_NS,
	MRC_A_EP_STATUS,
	MRC_A_EP_RTT_NS,
	MRC_A_EP_SERVICE_NS,
	MRC_A_EP_ARRIVAL_PLANE,
	MRC_A_EP_PEER_EV,

	__MRC_A_EP_MAX,
	MRC_A_EP_MAX = (__MRC_A_EP_MAX - 1)
};

enum {
	MRC_A_EV_FIELD_WIDTH = 1,
	MRC_A_EV_FIELD_INIT_VAL,
	MRC_A_EV_FIELD_MIN_VAL,
	MRC_A_EV_FIELD_MAX_VAL,
	MRC_A_EV_FIELD_MASK,

	__MRC_A_EV_FIELD_MAX,
	MRC_A_EV_FIELD_MAX = (__MRC_A_EV_FIELD_MAX - 1)
};

enum {
	MRC_A_EV_ENTRY_PLACE = 1,
	MRC_A_EV_ENTRY_EV_BYTES,
	MRC_A_EV_ENTRY_PORT,
	MRC_A_EV_ENTRY_STATE,
	MRC_A_EV_ENTRY_NEW_BYTES,
	MRC_A_EV_ENTRY_NEW_PORT,
	MRC_A_EV_ENTRY_ALL_COPIES,

	__MRC_A_EV_ENTRY_MAX,
	MRC_A_EV_ENTRY_MAX = (__MRC_A_EV_ENTRY_MAX - 1)
};

enum {
	MRC_CMD_DEV_GET = 1,
	MRC_CMD_DEV_SET,
	MRC_CMD_PLANE_GET,
	MRC_CMD_PLANE_ADD,
	MRC_CMD_PLANE_DEL,
	MRC_CMD_PATH_GET,
	MRC_CMD_PATH_ADD,
	MRC_CMD_PATH_DEL,
	MRC_CMD_EV_GET,
	MRC_CMD_PLANE_CHANGE_NTF,
	MRC_CMD_PATH_CHANGE_NTF,
	MRC_CMD_EV_SET,
	MRC_CMD_EV_CHANGE_NTF,
	MRC_CMD_PLANE_SET,
	MRC_CMD_CC_GET,
	MRC_CMD_CC_SET,
	MRC_CMD_CC_QP_GET,
	MRC_CMD_CC_PROFILE_GET,
	MRC_CMD_CC_PROFILE_SET,
	MRC_CMD_EV_PROFILE_GET,
	MRC_CMD_EV_PROFILE_SET,
	MRC_CMD_EP_PROBE,
	MRC_CMD_EP_PROBE_NTF,
	MRC_CMD_EV_FMT_GET,
	MRC_CMD_EV_FMT_SET,

	__MRC_CMD_MAX,
	MRC_CMD_MAX = (__MRC_CMD_MAX - 1)
};

#define MRC_MCGRP_CONFIG	"config"
#define MRC_MCGRP_EV		"ev"

#endif /* _UAPI_LINUX_MRC_H */
