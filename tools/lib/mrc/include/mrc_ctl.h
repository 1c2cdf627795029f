/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * libmrc: the OCP MRC controller API on mrc, for the one privileged
 * (CAP_NET_ADMIN) process of a node that sets up its MRC devices: device
 * capabilities, ports, EV format profiles, EV profiles, CC profiles, EV
 * events and endpoint operations (EV probes).
 *
 * The interface is the one published by OCP (see mrc.h); the text is
 * mrc's. On mrc a port N is the device's plane N - 1 and a profile lives in
 * the kernel, named by the controller's 64-bit id; libmrc(3) maps every
 * object onto mrc's planes, path sets, EV sets and NSCC parameters, and
 * says which features mrc does not have yet (their calls fail as the API
 * requires for a feature a device lacks).
 */
#ifndef LIBMRC_MRC_CTL_H
#define LIBMRC_MRC_CTL_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include <mrc.h>
#include <mrc_ctl_api_ver.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MRC_CTL_MAX_VENDOR_CFG_SIZE 128
#define MRC_CTL_EV_MAX_BYTES 32

/* an empty slot of an explicit EV array */
#define MRC_CTL_EV_UNPOPULATED \
	((struct mrc_ctl_ev){ .val = { 0 }, .port = 0 })

enum mrc_ctl_protocol_version {
	MRC_CTL_PROTOCOL_VERSION_0 = 0,
	MRC_CTL_PROTOCOL_VERSION_1 = 1 << 0,
};

/* every kind of profile: INIT -> OFFLINE -> ONLINE, and back */
enum mrc_ctl_profile_state {
	MRC_CTL_PROFILE_INIT,		/* exists, not configured */
	MRC_CTL_PROFILE_OFFLINE,	/* configured, not usable */
	MRC_CTL_PROFILE_ONLINE,		/* usable by QPs */
};

/* optional features of a device (mrc_ctl_device_attr.opt_attr) */
enum mrc_ctl_attr_opt {
	MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE = 1 << 0,
	MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE = 1 << 1,
	MRC_CTL_OPT_CAP_EV_EVENT = 1 << 2,
	MRC_CTL_OPT_CAP_EV_EXPLICIT_RANGE = 1 << 3,
	MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT = 1 << 4,
	MRC_CTL_OPT_CAP_EP_OP_EV_PROBE = 1 << 5,
};

struct mrc_ctl_device_attr {
	uint32_t mrc_ctl_protocol_version;	/* enum mrc_ctl_protocol_version bits */
	struct {
		uint32_t ev_max_fmt_profiles;
		uint32_t ev_max_profiles;
		uint32_t ev_max_count;		/* EVs over every profile */
		uint32_t ev_free_count;		/* of those, not in use */
		uint32_t ev_max_count_profile;	/* EVs of one profile */
		uint32_t ev_count_align;	/* an explicit array's length divides by it */
		uint32_t ev_max_width;		/* bits of an EV value */
		uint32_t ev_fmt_mode_mask;	/* enum mrc_ctl_ev_fmt_mode bits */
		uint32_t ev_mode_mask;		/* enum mrc_ctl_ev_mode bits */
		uint32_t ev_op_max_entries;	/* of one EV op; 0: no limit */
	} ev;
	struct {
		uint32_t cc_max_profiles;
		const char **algorithms;	/* NULL-terminated, the library's */
	} cc;
	uint32_t phy_port_mask;			/* bit N: port N (1-based) */
	uint32_t opt_attr;			/* enum mrc_ctl_attr_opt bits */
};

#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
int mrc_ctl_query_device_ex(struct ibv_context *context,
			    struct mrc_context *mcontext,
			    struct mrc_ctl_device_attr *ctl_attr,
			    int *supported);
#endif
int mrc_ctl_query_device(struct ibv_context *context,
			 struct mrc_ctl_device_attr *ctl_attr);

void mrc_ctl_query_version(uint32_t *current_version,
			   uint32_t *last_supported_version,
			   uint32_t *vendor_version,
			   uint32_t *last_supported_vendor_version);

enum mrc_ctl_port_admin_state {
	MRC_CTL_PORT_ADMIN_DISABLED = 0,
	MRC_CTL_PORT_ADMIN_ENABLED = 1,
};

enum mrc_ctl_port_attr_mask {
	MRC_CTL_PORT_ADMIN_STATE = 1 << 0,
};

struct mrc_ctl_port_attr {
	enum mrc_ctl_port_admin_state port_admin_state;
};

int mrc_ctl_query_port(struct mrc_context *context, uint8_t port_num,
		       struct mrc_ctl_port_attr *attr, int attr_mask);
int mrc_ctl_modify_port(struct mrc_context *context, uint8_t port_num,
			struct mrc_ctl_port_attr *attr, int attr_mask);

/* how an EV is carried in a packet */
enum mrc_ctl_ev_fmt_mode {
	MRC_CTL_EV_FMT_MODE_STEV = 1 << 0,	/* IPv6 flow label + UDP source port */
	MRC_CTL_EV_FMT_MODE_SRV6 = 1 << 1,	/* SRv6 uSID container (+ SRH) */
	MRC_CTL_EV_FMT_MODE_UDP = 1 << 2,	/* UDP source port only */
};

enum mrc_ctl_ev_fmt_op {
	MRC_CTL_EV_FMT_OP_MODIFY_FIELDS = 0,
	MRC_CTL_EV_FMT_OP_QUERY_FIELDS = 1,
};

enum mrc_ctl_ev_fmt_profile_attr_mask {
	MRC_CTL_EV_FMT_PROFILE_STATE = 1 << 0,
	MRC_CTL_EV_FMT_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_EV_FMT_PROFILE_MODE = 1 << 2,
	MRC_CTL_EV_FMT_PROFILE_OP = 1 << 3,
	MRC_CTL_EV_FMT_VENDOR_CFG = 1 << 31,
};

struct mrc_ctl_ev_fmt_field {
	uint8_t width;				/* bits */
};

/* the fields of an EV as it is written into a packet, most significant first */
struct mrc_ctl_ev_fmt_profile_attr {
	enum mrc_ctl_profile_state profile_state;	/* the one to enter */
	enum mrc_ctl_profile_state cur_profile_state;
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;
	struct {
		enum mrc_ctl_ev_fmt_op op;
		struct mrc_ctl_ev_fmt_field *fmt_fields;
		int fmt_field_count;			/* in/out */
	} ev_fmt_op;
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

int mrc_ctl_modify_ev_fmt_profile(struct mrc_context *mrc_ctx,
				  uint64_t ev_fmt_profile_id,
				  struct mrc_ctl_ev_fmt_profile_attr *attr,
				  int attr_mask);
int mrc_ctl_query_ev_fmt_profile(struct mrc_context *mrc_ctx,
				 uint64_t ev_fmt_profile_id,
				 struct mrc_ctl_ev_fmt_profile_attr *attr,
				 int attr_mask);

/* an EV value, read most significant bit of byte 0 first */
typedef uint8_t mrc_ctl_ev_t[MRC_CTL_EV_MAX_BYTES];

struct mrc_ctl_ev {
	mrc_ctl_ev_t val;
	uint8_t port;				/* 1-based */
};

enum mrc_ctl_ev_state {
	MRC_CTL_EV_GOOD = 1 << 0,
	MRC_CTL_EV_ASSUMED_BAD = 1 << 1,
	MRC_CTL_EV_DENIED = 1 << 2,
	MRC_CTL_EV_UNKNOWN = 1 << 31,
};

enum mrc_ctl_ev_mode {
	MRC_CTL_EV_MODE_AUTO = 1 << 0,	/* the provider picks the EVs */
	MRC_CTL_EV_MODE_EXP = 1 << 1,	/* the controller lists them */
	MRC_CTL_EV_MODE_GEN = 1 << 2,	/* the provider generates them from fields */
};

enum mrc_ctl_ev_op {
	MRC_CTL_EV_OP_REPLACE_EV = 0,
	MRC_CTL_EV_OP_MODIFY_EV_STATE = 1,
	MRC_CTL_EV_OP_QUERY_EV_STATE = 2,
	MRC_CTL_EV_OP_QUERY_EV_ARRAY = 3,
};

enum mrc_ctl_ev_fields_op {
	MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS = 0,
	MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS = 1,
};

enum mrc_ctl_ev_profile_attr_mask {
	MRC_CTL_EV_PROFILE_STATE = 1 << 0,
	MRC_CTL_EV_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_EV_PROFILE_MODE = 1 << 2,
	MRC_CTL_EV_PROFILE_FMT_ID = 1 << 3,
	MRC_CTL_EV_PROFILE_COUNT = 1 << 4,
	MRC_CTL_EV_PROFILE_MIN_ACTIVE = 1 << 5,
	MRC_CTL_EV_PROFILE_EVENT_MASK = 1 << 6,
	MRC_CTL_EV_PROFILE_EV_OP = 1 << 7,
	MRC_CTL_EV_PROFILE_EV_FIELDS_OP = 1 << 8,
	MRC_CTL_EV_PROFILE_VENDOR_CFG = 1 << 31,
};

/* a field of generated EVs: @mask says where EV bits go over @init_val */
struct mrc_ctl_ev_field {
	uint32_t width;
	uint32_t init_val;
	uint32_t min_val;
	uint32_t max_val;
	uint32_t mask;
};

enum mrc_ctl_ev_op_flags {
	MRC_CTL_EV_OP_F_ALL_COPIES = 1 << 0,	/* REPLACE_EV: every occurrence */
};

struct mrc_ctl_ev_op_entry {
	struct mrc_ctl_ev ev;
	struct mrc_ctl_ev ev_new;		/* REPLACE_EV */
	enum mrc_ctl_ev_state state;
	uint32_t flags;				/* enum mrc_ctl_ev_op_flags */
};

struct mrc_ctl_ev_profile_attr {
	enum mrc_ctl_profile_state profile_state;
	enum mrc_ctl_profile_state cur_profile_state;
	enum mrc_ctl_ev_mode ev_mode;
	uint64_t ev_fmt_profile_id;
	uint32_t ev_count;
	uint32_t ev_min_active;		/* EVs that stay usable, at most ev_count */
	int ev_event_mask;		/* MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD */
	struct {
		enum mrc_ctl_ev_op op;
		struct mrc_ctl_ev_op_entry *entries;
		int entry_count;		/* in/out */
	} ev_op;
	struct {
		enum mrc_ctl_ev_fields_op op;
		struct mrc_ctl_ev_field *fields;
		int field_count;		/* in/out */
	} ev_fields_op;
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx,
			      uint64_t ev_profile_id,
			      struct mrc_ctl_ev_profile_attr *attr,
			      int attr_mask);
int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx,
			     uint64_t ev_profile_id,
			     struct mrc_ctl_ev_profile_attr *attr,
			     int attr_mask);

enum mrc_ctl_cc_profile_attr_mask {
	MRC_CTL_CC_PROFILE_STATE = 1 << 0,
	MRC_CTL_CC_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_CC_PROFILE_ALGORITHM = 1 << 2,
	MRC_CTL_CC_PROFILE_CONFIG = 1 << 3,
	MRC_CTL_CC_PROFILE_VENDOR_CFG = 1 << 31,
};

/* UET 1.0's NSCC; a NULL algorithm is no congestion control */
#define MRC_CTL_CC_ALGO_UET_NSCC "uet-1.0-nscc"

struct mrc_ctl_cc_profile_attr {
	enum mrc_ctl_profile_state profile_state;
	enum mrc_ctl_profile_state cur_profile_state;
	const char *algorithm;		/* one of mrc_ctl_device_attr.cc.algorithms */
	const void *cc_config;		/* the algorithm's: mrc_ctl_cc_nscc_cfg */
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

struct mrc_ctl_cc_nscc_cfg {
	uint8_t disable_qa;		/* non-zero: no quick adapt */
	uint32_t adjust_bytes_threshold;	/* bytes */
	uint32_t adjust_period_threshold;	/* ns */
	uint32_t base_rtt;		/* ns */
	float eta;
	float fi;
	float fi_scale;
	float gamma;
	float max_md_jump;
	uint32_t max_cwnd;		/* bytes */
	uint8_t qa_gate;
	uint32_t qa_threshold;		/* ns */
	uint32_t target_delay;		/* ns */
};

int mrc_ctl_modify_cc_profile(struct mrc_context *mrc_ctx,
			      uint64_t cc_profile_id,
			      struct mrc_ctl_cc_profile_attr *attr,
			      int attr_mask);
int mrc_ctl_query_cc_profile(struct mrc_context *mrc_ctx,
			     uint64_t cc_profile_id,
			     struct mrc_ctl_cc_profile_attr *attr,
			     int attr_mask);

/*
 * An EV changed state. Its size depends on the controller API version a
 * program is built for, which the library cannot see: it writes 1.0.1's
 * (with @state) when the context's application API version is 1.0.1 or
 * newer (or 0), 1.0.0's otherwise.
 */
struct mrc_ctl_ev_event {
	uint64_t profile_id;
	struct mrc_ctl_ev ev;
	uint32_t drop_count;		/* events lost before this one (see opt_attr) */
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
	enum mrc_ctl_ev_state state;
#endif
};

/* a CQ of EV events; it never overruns into an error, it counts drops */
struct mrc_cq *mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx,
					  int cqe, void *cq_context,
					  struct mrc_comp_channel *channel,
					  int comp_vector);
/* the events polled, or a negative errno */
int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq, int num_entries,
			  struct mrc_ctl_ev_event *ev_event);

/* connectionless operations on a remote endpoint */
enum mrc_ctl_ep_op_type {
	MRC_CTL_EP_OP_EV_PROBE,
	MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
};

struct mrc_ctl_ep_req {
	uint16_t req_id;		/* unique among those outstanding */
	union ibv_gid sgid;		/* RoCE v2 GIDs */
	union ibv_gid dgid;
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;
	struct mrc_ctl_ev req_ev;	/* the EV and the port to send on */
	union {
		struct {
			uint32_t port_status;	/* bit N - 1: port N is up */
		} port_status_update;
	} op;
};

struct mrc_ctl_ep_rsp {
	uint16_t req_id;
	uint8_t port;			/* where the answer arrived, 1-based */
	unsigned int rtt;		/* ns */
	uint8_t adj_svc_time;		/* non-zero: rtt less the peer's service time */
};

/* sends @num_req requests and waits up to @rsp_timeout ns for the answers */
int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx, uint8_t req_tc,
			       enum mrc_ctl_ep_op_type op_type,
			       struct mrc_ctl_ep_req *req, int num_req,
			       uint32_t rsp_timeout,
			       struct mrc_ctl_ep_rsp *rsp, int *num_rsp);

#ifdef __cplusplus
}
#endif

#endif /* LIBMRC_MRC_CTL_H */
