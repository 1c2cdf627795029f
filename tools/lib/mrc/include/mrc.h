/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * libmrc: the OCP MRC application API on mrc, the Linux MRC transport.
 *
 * The interface (names, types, members and values) is the one published by
 * OCP in opencomputeproject/OCP-Multipath-Reliable-Connection; this header
 * is mrc's own text. An MRC QP is an RC QP of an mrc device that carries
 * RDMA WRITE and WRITE_WITH_IMM only; protection domains and memory regions
 * come from libibverbs directly. What each call does on mrc, and where mrc
 * differs from a hardware MRC NIC, is in libmrc(3).
 *
 * Errors: -1 with errno, but where a function says it returns the error
 * number itself, as the verb it is like does.
 */
#ifndef LIBMRC_MRC_H
#define LIBMRC_MRC_H

#include <stdint.h>
#include <infiniband/verbs.h>

#include <mrc_api_ver.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MRC_MAX_VENDOR_CFG_SIZE 128

/* the MRC wire protocol: a device reports a bitmap, a QP asks for one or 0 */
enum mrc_protocol_version {
	MRC_PROTOCOL_VERSION_0 = 0,		/* the provider's default */
	MRC_PROTOCOL_VERSION_1 = 1 << 0,
};

/* library objects, opaque to the program */
struct mrc_context;
struct mrc_qp_hint;
struct mrc_qp;
struct mrc_cq;
struct mrc_comp_channel;

enum mrc_device_cap {
	MRC_DEVICE_CAP_TRIM_NACK = 1 << 0,	/* sends trim NACKs */
	MRC_DEVICE_CAP_DYNAMIC_MPR = 1 << 1,
	MRC_DEVICE_CAP_SVC_TIME = 1 << 2,	/* reports its service time */
};

struct mrc_device_attr {
	uint32_t mrc_protocol_version;		/* enum mrc_protocol_version bits */
	struct {
		uint16_t max_wimm;		/* WRITE_WITH_IMM in flight, requester */
		uint16_t max_wimm_dest;		/* ... and responder */
	} wimm_attr;
	struct {
		uint8_t max_mpr;		/* in units of 128 PSNs */
		uint8_t mpr_resolution;		/* the step an MPR is set in */
	} mpr_attr;
	struct {
		uint32_t max_qp_hint;
	} qp_attr;
	uint32_t cap;				/* enum mrc_device_cap bits */
};

#if MRC_API_VER_USED >= MRC_API_VER(1, 0, 1)
/*
 * @supported: 0 when @context's device is not an MRC device (not an
 * error). mrc_query_device is the same for programs of API 1.0.0.
 */
int mrc_query_device_ex(struct ibv_context *context,
			struct mrc_context *mcontext,
			struct mrc_device_attr *attr, int *supported);
#endif
int mrc_query_device(struct ibv_context *context,
		     struct mrc_device_attr *attr, int *supported);

/* the API versions this library implements; callable at any time */
void mrc_query_version(uint32_t *current_version,
		       uint32_t *last_supported_version,
		       uint32_t *vendor_version,
		       uint32_t *last_supported_vendor_version);

/* 0 in either member: not stated, the library assumes its current one */
struct mrc_context_attr {
	uint32_t mrc_api_version_used;
	uint32_t mrc_vendor_api_version_used;
};

/*
 * The library's instance on one device, the parent of every other object;
 * destroying it destroys what is left of them. @context_attr may be NULL.
 */
struct mrc_context *mrc_create_context(struct ibv_context *vcontext,
				       struct mrc_context_attr *context_attr);
int mrc_destroy_context(struct mrc_context *mrc_ctx);

int mrc_create_comp_channel(struct mrc_context *mrc_ctx,
			    struct mrc_comp_channel **channel);
/* an epoll fd: poll(2) it, or make it O_NONBLOCK for mrc_get_cq_event */
int mrc_get_comp_channel_fd(struct mrc_comp_channel *channel, int *fd);
/* returns the error number (EBUSY: a CQ reports to it) */
int mrc_destroy_comp_channel(struct mrc_comp_channel *channel);

struct mrc_cq *mrc_create_cq(struct mrc_context *mrc_ctx, int cqe,
			     void *cq_context,
			     struct mrc_comp_channel *channel,
			     int comp_vector);
/* like ibv_poll_cq: the entries polled, fewer than asked once drained */
int mrc_poll_cq(struct mrc_cq *cq, int num_entries, struct ibv_wc *wc);
/*
 * Also destroys an EV event CQ (mrc_ctl.h); waits for its events' acks.
 * Returns the error number (EBUSY: a QP uses it), as ibv_destroy_cq.
 */
int mrc_destroy_cq(struct mrc_cq *cq);

/* what a program tells the provider of its traffic, to size resources */
enum mrc_qp_hint_attr_mask {
	MRC_QP_HINT_NUM_QPS_PER_PEER = 1 << 0,
	MRC_QP_HINT_NUM_SEND_PEERS = 1 << 1,
	MRC_QP_HINT_NUM_REMOTE_RECV_PEERS = 1 << 2,
	MRC_QP_HINT_VENDOR_CFG = 1 << 31,
};

struct mrc_qp_hint_attr {
	int num_qps_per_peer;		/* QPs sending to one destination at once */
	int num_send_peers;		/* destinations sent to at once */
	int num_remote_recv_peers;	/* remote QPs writing to one of ours */
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

struct mrc_qp_hint_init_attr {
	struct mrc_qp_hint_attr attr;
};

struct mrc_qp_hint *mrc_create_qp_hint(struct mrc_context *mrc_ctx,
				       struct mrc_qp_hint_init_attr *init_attr);
/* EBUSY while a QP uses it */
int mrc_destroy_qp_hint(struct mrc_qp_hint *qp_hint);
int mrc_query_qp_hint(struct mrc_qp_hint *qp_hint,
		      struct mrc_qp_hint_attr *qp_hint_attr,
		      int qp_hint_attr_mask);
int mrc_modify_qp_hint(struct mrc_qp_hint *qp_hint,
		       struct mrc_qp_hint_attr *qp_hint_attr,
		       int qp_hint_attr_mask);

struct mrc_qp_init_attr {
	void *qp_context;
	struct mrc_cq *send_cq;
	struct mrc_cq *recv_cq;
	struct ibv_qp_cap cap;
	int sq_sig_all;
	struct ibv_pd *pd;
	uint64_t send_ops_flags;	/* enum ibv_qp_create_send_ops_flags */
	enum mrc_protocol_version protocol_version;
};

/* a new QP is in RESET */
struct mrc_qp *mrc_create_qp(struct mrc_context *mrc_ctx,
			     struct mrc_qp_init_attr *mrc_qp_attr);
/* returns the error number, as ibv_destroy_qp */
int mrc_destroy_qp(struct mrc_qp *qp);

/*
 * MRC attributes of mrc_modify_qp, by the state a transition enters:
 *   INIT  MRC_QP_HINT, MRC_QP_EV_PROFILE_ID, MRC_QP_CC_PROFILE_ID
 *   RTR   MRC_QP_MAX_WIMM_DEST, MRC_QP_MPR_DEST, MRC_QP_CAP
 *   RTS   MRC_QP_MAX_WIMM, MRC_QP_MPR, MRC_QP_RETRY_CNT, MRC_QP_TIMEOUT
 */
enum mrc_qp_attr_mask {
	MRC_QP_MAX_WIMM = 1 << 0,
	MRC_QP_MAX_WIMM_DEST = 1 << 1,
	MRC_QP_MPR = 1 << 2,
	MRC_QP_MPR_DEST = 1 << 3,
	MRC_QP_TIMEOUT = 1 << 4,
	MRC_QP_EV_PROFILE_ID = 1 << 5,
	MRC_QP_CC_PROFILE_ID = 1 << 6,
	MRC_QP_HINT = 1 << 7,
	MRC_QP_RETRY_CNT = 1 << 8,
	MRC_QP_CAP = 1 << 9,
	MRC_QP_VENDOR_CFG = 1 << 31,
};

enum mrc_qp_cap {
	MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED = 1 << 0,	/* peer sends no trim NACK */
	MRC_QP_CAP_DYNAMIC_MPR = 1 << 1,
	MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED = 1 << 2,	/* peer reports no service time */
};

struct mrc_qp_attr {
	struct {
		uint8_t mpr;		/* requester, in units of 128 PSNs */
		uint8_t mpr_dest;	/* responder */
	} mpr;
	struct {
		uint16_t max_wimm;
		uint16_t max_wimm_dest;
	} wimm;
	uint8_t timeout;		/* ACK timeout 1.024 us * 2^timeout, at most 24 */
	struct {
		uint64_t ev_profile_id;	/* set up by the node's controller */
		uint64_t cc_profile_id;
	} profile;
	struct {
		uint8_t linear_cnt;	/* at most 7 */
		uint8_t exp_cnt;	/* at most 25, which is without end */
	} retry;
	struct mrc_qp_hint *qp_hint;	/* NULL: none */
	uint32_t cap;			/* enum mrc_qp_cap bits */
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

/*
 * Both return the error number, as ibv_query_qp and ibv_modify_qp do; an
 * attribute pointer may be NULL when its mask is 0.
 */
int mrc_query_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		 struct mrc_qp_attr *mrc_attr, int mrc_attr_mask,
		 struct mrc_qp_init_attr *init_attr);
int mrc_modify_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		  struct mrc_qp_attr *mrc_attr, int mrc_attr_mask);
int mrc_get_qpn(struct mrc_qp *qp, uint32_t *qpn);

/* receives are taken by incoming WRITE_WITH_IMM only */
int mrc_post_recv(struct mrc_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr);
/*
 * IBV_WR_RDMA_WRITE and IBV_WR_RDMA_WRITE_WITH_IMM only: a list with
 * another opcode posts nothing and returns EINVAL, *@bad_wr at it. Returns
 * the error number, as ibv_post_send; mrc_post_recv too.
 */
int mrc_post_send(struct mrc_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr);

struct mrc_async_event {
	union {
		struct mrc_cq *cq;
		struct mrc_qp *qp;
		int port_num;
	} element;
	enum ibv_event_type event_type;
};

/* every event returned must be acknowledged */
int mrc_get_async_event(struct mrc_context *mrc_ctx,
			struct mrc_async_event *event);
void mrc_ack_async_event(struct mrc_async_event *event);

/* returns the error number, as ibv_req_notify_cq */
int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only);
int mrc_get_cq_event(struct mrc_comp_channel *channel, struct mrc_cq **cq,
		     void **cq_context);
void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents);

#ifdef __cplusplus
}
#endif

#endif /* LIBMRC_MRC_H */
