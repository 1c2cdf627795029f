// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: QP hints, MRC QPs, their state transitions and posting.
 *
 * An MRC QP is an RC QP of the mrc device. mrc_modify_qp takes the MRC
 * attributes and supplies the RC attributes MRC has no use for (RNR,
 * RDMA READ/atomic depths, the P_Key), so a program names only what MRC
 * has, and binds the QP to its CC profile through mrc's own uverbs method.
 * The timeout and retry count are MRC's own (MRC_QP_TIMEOUT,
 * MRC_QP_RETRY_CNT); their verbs forms are taken too, as programs ported
 * from verbs pass them, and the MRC ones win when both are given.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/mrc-abi.h>

#include "libmrc.h"

#define HINT_MASK_ALL	(MRC_QP_HINT_NUM_QPS_PER_PEER |			\
			 MRC_QP_HINT_NUM_SEND_PEERS |			\
			 MRC_QP_HINT_NUM_REMOTE_RECV_PEERS |		\
			 MRC_QP_HINT_VENDOR_CFG)

#define SEND_OPS_MRC	(IBV_QP_EX_WITH_RDMA_WRITE |			\
			 IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)

/* which MRC attributes each transition takes, by the state it enters */
#define MRC_ATTR_INIT	(MRC_QP_HINT | MRC_QP_EV_PROFILE_ID |		\
			 MRC_QP_CC_PROFILE_ID)
#define MRC_ATTR_RTR	(MRC_QP_MAX_WIMM_DEST | MRC_QP_MPR_DEST | MRC_QP_CAP)
#define MRC_ATTR_RTS	(MRC_QP_MAX_WIMM | MRC_QP_MPR | MRC_QP_RETRY_CNT | \
			 MRC_QP_TIMEOUT)
#define MRC_ATTR_ALL	(MRC_ATTR_INIT | MRC_ATTR_RTR | MRC_ATTR_RTS |	\
			 MRC_QP_VENDOR_CFG)

/* verbs attributes of what MRC does not have: RDMA READ, APM, UD */
#define IBV_ATTR_REFUSED (IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC | \
			  IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE |	\
			  IBV_QP_QKEY | IBV_QP_CAP | IBV_QP_EN_SQD_ASYNC_NOTIFY)

#define MRC_TIMEOUT_MAX		24	/* 1.024 us << 24: 17 s */
#define MRC_TIMEOUT_DEFAULT	16	/* 67 ms, as IB's 14 */
#define MRC_LINEAR_MAX		7
#define MRC_EXP_MAX		25	/* without end */
#define IB_RETRY_MAX		7
#define IB_RNR_FOREVER		7
#define IB_MIN_RNR_TIMER	1	/* 10 us: a late receive costs little */

/* ---- hints ------------------------------------------------------------ */

static int hint_check(const struct mrc_qp_hint_attr *a, int mask)
{
	if (mask & ~HINT_MASK_ALL)
		return -1;
	if (((mask & MRC_QP_HINT_NUM_QPS_PER_PEER) && a->num_qps_per_peer < 0) ||
	    ((mask & MRC_QP_HINT_NUM_SEND_PEERS) && a->num_send_peers < 0) ||
	    ((mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS) &&
	     a->num_remote_recv_peers < 0))
		return -1;
	/* mrc has no vendor configuration: none but an empty one is valid */
	if ((mask & MRC_QP_HINT_VENDOR_CFG) &&
	    !mrc_vendor_cfg_empty(a->vendor_cfg))
		return -1;
	return 0;
}

static void hint_copy(struct mrc_qp_hint_attr *to,
		      const struct mrc_qp_hint_attr *from, int mask)
{
	if (mask & MRC_QP_HINT_NUM_QPS_PER_PEER)
		to->num_qps_per_peer = from->num_qps_per_peer;
	if (mask & MRC_QP_HINT_NUM_SEND_PEERS)
		to->num_send_peers = from->num_send_peers;
	if (mask & MRC_QP_HINT_NUM_REMOTE_RECV_PEERS)
		to->num_remote_recv_peers = from->num_remote_recv_peers;
	if (mask & MRC_QP_HINT_VENDOR_CFG)
		memcpy(to->vendor_cfg, from->vendor_cfg, sizeof(to->vendor_cfg));
}

LIBMRC_EXPORT
struct mrc_qp_hint *mrc_create_qp_hint(struct mrc_context *mrc_ctx,
				       struct mrc_qp_hint_init_attr *init_attr)
{
	struct mrc_qp_hint *hint;

	if (!mrc_ctx || !init_attr ||
	    hint_check(&init_attr->attr, HINT_MASK_ALL)) {
		errno = EINVAL;
		return NULL;
	}
	hint = calloc(1, sizeof(*hint));
	if (!hint)
		return NULL;
	hint->ctx = mrc_ctx;
	hint->attr = init_attr->attr;
	mrc_ctx_lock(mrc_ctx);
	if (mrc_ctx->nhints >= MRC_QP_HINTS_MAX) {
		mrc_ctx_unlock(mrc_ctx);
		free(hint);
		errno = ENOMEM;
		return NULL;
	}
	mrc_ctx->nhints++;
	mrc_list_add(&mrc_ctx->hints, &hint->node);
	mrc_ctx_unlock(mrc_ctx);
	return hint;
}

void mrc_hint_free(struct mrc_qp_hint *hint)
{
	mrc_ctx_lock(hint->ctx);
	mrc_list_del(&hint->node);
	hint->ctx->nhints--;
	mrc_ctx_unlock(hint->ctx);
	free(hint);
}

LIBMRC_EXPORT
int mrc_destroy_qp_hint(struct mrc_qp_hint *qp_hint)
{
	bool busy;

	if (!qp_hint) {
		errno = EINVAL;
		return -1;
	}
	mrc_ctx_lock(qp_hint->ctx);
	busy = qp_hint->qps;
	mrc_ctx_unlock(qp_hint->ctx);
	if (busy) {
		errno = EBUSY;
		return -1;
	}
	mrc_hint_free(qp_hint);
	return 0;
}

LIBMRC_EXPORT
int mrc_query_qp_hint(struct mrc_qp_hint *qp_hint,
		      struct mrc_qp_hint_attr *qp_hint_attr,
		      int qp_hint_attr_mask)
{
	if (!qp_hint || !qp_hint_attr || (qp_hint_attr_mask & ~HINT_MASK_ALL)) {
		errno = EINVAL;
		return -1;
	}
	mrc_ctx_lock(qp_hint->ctx);
	hint_copy(qp_hint_attr, &qp_hint->attr, qp_hint_attr_mask);
	mrc_ctx_unlock(qp_hint->ctx);
	return 0;
}

LIBMRC_EXPORT
int mrc_modify_qp_hint(struct mrc_qp_hint *qp_hint,
		       struct mrc_qp_hint_attr *qp_hint_attr,
		       int qp_hint_attr_mask)
{
	if (!qp_hint || !qp_hint_attr ||
	    hint_check(qp_hint_attr, qp_hint_attr_mask)) {
		errno = EINVAL;
		return -1;
	}
	mrc_ctx_lock(qp_hint->ctx);
	hint_copy(&qp_hint->attr, qp_hint_attr, qp_hint_attr_mask);
	mrc_ctx_unlock(qp_hint->ctx);
	return 0;
}

/* ---- QPs ------------------------------------------------------------- */

static bool cq_usable(const struct mrc_context *ctx, const struct mrc_cq *cq)
{
	return cq && cq->ctx == ctx && cq->kind == MRC_CQ_VERBS;
}

LIBMRC_EXPORT
struct mrc_qp *mrc_create_qp(struct mrc_context *mrc_ctx,
			     struct mrc_qp_init_attr *mrc_qp_attr)
{
	struct mrc_qp_init_attr *a = mrc_qp_attr;
	struct ibv_qp_init_attr ia = {};
	struct mrc_qp *qp;
	int err;

	if (!mrc_ctx || !a || !a->pd || a->pd->context != mrc_ctx->vctx ||
	    !cq_usable(mrc_ctx, a->send_cq) || !cq_usable(mrc_ctx, a->recv_cq) ||
	    (a->protocol_version != MRC_PROTOCOL_VERSION_0 &&
	     a->protocol_version != MRC_PROTOCOL_VERSION_1) ||
	    (a->send_ops_flags & ~(uint64_t)SEND_OPS_MRC)) {
		errno = EINVAL;
		return NULL;
	}
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	qp->ctx = mrc_ctx;
	ia.qp_context = qp;
	ia.send_cq = a->send_cq->vcq;
	ia.recv_cq = a->recv_cq->vcq;
	ia.cap = a->cap;
	ia.qp_type = IBV_QPT_RC;
	ia.sq_sig_all = a->sq_sig_all;
	qp->vqp = ibv_create_qp(a->pd, &ia);
	if (!qp->vqp) {
		err = errno;
		free(qp);
		errno = err;
		return NULL;
	}
	qp->init = *a;
	qp->init.cap = ia.cap;		/* what the device granted */
	qp->state = IBV_QPS_RESET;
	qp->attr.mpr.mpr = MRC_MPR;
	qp->attr.mpr.mpr_dest = MRC_MPR;
	qp->attr.timeout = MRC_TIMEOUT_DEFAULT;
	qp->attr.retry.linear_cnt = MRC_LINEAR_MAX;
	mrc_ctx_lock(mrc_ctx);
	a->send_cq->qps++;
	a->recv_cq->qps++;
	mrc_list_add(&mrc_ctx->qps, &qp->node);
	mrc_ctx_unlock(mrc_ctx);
	return qp;
}

/*
 * The QP's verbs QP destroyed (its error returned), then the QP freed; if
 * that fails, kept unless @force (mrc_destroy_context: a verbs QP that
 * cannot be destroyed is left to the device's close)
 */
static int qp_release(struct mrc_qp *qp, bool force)
{
	struct mrc_context *ctx = qp->ctx;
	int err;

	err = ibv_destroy_qp(qp->vqp);
	if (err && !force)
		return err;
	mrc_ctx_lock(ctx);
	qp->init.send_cq->qps--;
	qp->init.recv_cq->qps--;
	if (qp->attr.qp_hint)
		qp->attr.qp_hint->qps--;
	mrc_list_del(&qp->node);
	mrc_ctx_unlock(ctx);
	free(qp);
	return err;
}

void mrc_qp_free(struct mrc_qp *qp)
{
	qp_release(qp, true);
}

LIBMRC_EXPORT
int mrc_destroy_qp(struct mrc_qp *qp)
{
	if (!qp)
		return EINVAL;
	return qp_release(qp, false);
}

LIBMRC_EXPORT
int mrc_get_qpn(struct mrc_qp *qp, uint32_t *qpn)
{
	if (!qp || !qpn) {
		errno = EINVAL;
		return -1;
	}
	*qpn = qp->vqp->qp_num;
	return 0;
}

/* OCP's 1.024 us << t in IB's 4.096 us << t; IB's 0 is "no timeout" */
static uint8_t timeout_to_ib(uint8_t t)
{
	return t <= 2 ? 1 : t - 2;
}

static uint8_t timeout_from_ib(uint8_t t)
{
	return t ? t + 2 : MRC_TIMEOUT_MAX;
}

/*
 * The MRC attributes of a transition into @state, checked against mrc.
 * Each is taken by one transition (RTS's by RTR -> RTS only: like IB's
 * timeout and retry count, they do not change on a running QP).
 */
static int mrc_attr_check(struct mrc_qp *qp, enum ibv_qp_state state,
			  const struct mrc_qp_attr *m, int mask)
{
	int allowed = MRC_QP_VENDOR_CFG;

	if (state == IBV_QPS_INIT &&
	    (qp->state == IBV_QPS_RESET || qp->state == IBV_QPS_INIT))
		allowed |= MRC_ATTR_INIT;
	else if (state == IBV_QPS_RTR && qp->state == IBV_QPS_INIT)
		allowed |= MRC_ATTR_RTR;
	else if (state == IBV_QPS_RTS && qp->state == IBV_QPS_RTR)
		allowed |= MRC_ATTR_RTS;
	if (mask & ~allowed)
		return EINVAL;
	if (!mask)
		return 0;
	if (!m)
		return EINVAL;
	if ((mask & MRC_QP_MAX_WIMM) && m->wimm.max_wimm)
		return EINVAL;		/* no limit to set (mrc_query_device) */
	if ((mask & MRC_QP_MAX_WIMM_DEST) && m->wimm.max_wimm_dest)
		return EINVAL;
	if ((mask & MRC_QP_MPR) && m->mpr.mpr && m->mpr.mpr != MRC_MPR)
		return EINVAL;
	if ((mask & MRC_QP_MPR_DEST) && m->mpr.mpr_dest &&
	    m->mpr.mpr_dest != MRC_MPR)
		return EINVAL;
	if ((mask & MRC_QP_TIMEOUT) && m->timeout > MRC_TIMEOUT_MAX)
		return EINVAL;
	if ((mask & MRC_QP_RETRY_CNT) &&
	    (m->retry.linear_cnt > MRC_LINEAR_MAX ||
	     m->retry.exp_cnt > MRC_EXP_MAX))
		return EINVAL;
	/* dynamic MPR needs the device capability, which mrc lacks */
	if ((mask & MRC_QP_CAP) &&
	    (m->cap & ~(uint32_t)(MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED |
				  MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED)))
		return EINVAL;
	if ((mask & MRC_QP_HINT) && m->qp_hint && m->qp_hint->ctx != qp->ctx)
		return EINVAL;
	if ((mask & MRC_QP_VENDOR_CFG) && !mrc_vendor_cfg_empty(m->vendor_cfg))
		return EINVAL;
	return 0;
}

static void mrc_attr_apply(struct mrc_qp *qp, const struct mrc_qp_attr *m,
			   int mask)
{
	struct mrc_qp_attr *a = &qp->attr;

	if (mask & MRC_QP_MAX_WIMM)
		a->wimm.max_wimm = m->wimm.max_wimm;
	if (mask & MRC_QP_MAX_WIMM_DEST)
		a->wimm.max_wimm_dest = m->wimm.max_wimm_dest;
	if (mask & MRC_QP_TIMEOUT)
		a->timeout = m->timeout;
	if (mask & MRC_QP_RETRY_CNT)
		a->retry = m->retry;
	if (mask & MRC_QP_CAP)
		a->cap = m->cap;
	if (mask & MRC_QP_EV_PROFILE_ID)
		a->profile.ev_profile_id = m->profile.ev_profile_id;
	if (mask & MRC_QP_CC_PROFILE_ID)
		a->profile.cc_profile_id = m->profile.cc_profile_id;
	if (mask & MRC_QP_VENDOR_CFG)
		memcpy(a->vendor_cfg, m->vendor_cfg, sizeof(a->vendor_cfg));
	if ((mask & MRC_QP_HINT) && a->qp_hint != m->qp_hint) {
		mrc_ctx_lock(qp->ctx);
		if (a->qp_hint)
			a->qp_hint->qps--;
		if (m->qp_hint)
			m->qp_hint->qps++;
		mrc_ctx_unlock(qp->ctx);
		a->qp_hint = m->qp_hint;
	}
}

/*
 * What RC needs and MRC does not name, for the transition into @state:
 * one port, no RNR limit (MRC has none: a WRITE_WITH_IMM waits for its
 * receive), no RDMA READ or atomics; the timeout and retry count from the
 * MRC attributes (@m, @mask), else from the verbs ones, else the defaults.
 */
static void ib_attr_fill(struct mrc_qp *qp, enum ibv_qp_state state,
			 struct ibv_qp_attr *v, int *vmask,
			 const struct mrc_qp_attr *m, int mask)
{
	uint8_t timeout = qp->attr.timeout;
	unsigned int retries;

	if (state == IBV_QPS_INIT && qp->state == IBV_QPS_RESET) {
		v->port_num = 1;
		*vmask |= IBV_QP_PORT;
		if (!(*vmask & IBV_QP_PKEY_INDEX))
			v->pkey_index = 0;
		if (!(*vmask & IBV_QP_ACCESS_FLAGS))
			v->qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
		*vmask |= IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS;
	}
	if (state == IBV_QPS_RTR && qp->state == IBV_QPS_INIT) {
		v->max_dest_rd_atomic = 0;
		v->min_rnr_timer = IB_MIN_RNR_TIMER;
		*vmask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if (state != IBV_QPS_RTS || qp->state != IBV_QPS_RTR)
		return;
	if (mask & MRC_QP_TIMEOUT)
		timeout = m->timeout;
	else if (*vmask & IBV_QP_TIMEOUT)
		timeout = timeout_from_ib(v->timeout);
	v->timeout = timeout_to_ib(timeout);
	/* mrc counts one retry budget, its timer backing off as it goes */
	if (mask & MRC_QP_RETRY_CNT)
		retries = m->retry.linear_cnt + m->retry.exp_cnt;
	else if (*vmask & IBV_QP_RETRY_CNT)
		retries = v->retry_cnt;
	else
		retries = qp->attr.retry.linear_cnt + qp->attr.retry.exp_cnt;
	v->retry_cnt = retries > IB_RETRY_MAX ? IB_RETRY_MAX : retries;
	v->rnr_retry = IB_RNR_FOREVER;
	v->max_rd_atomic = 0;
	*vmask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
		  IBV_QP_MAX_QP_RD_ATOMIC;
}

/* after RTR -> RTS: what the verbs forms set, as MRC attributes */
static void ib_attr_record(struct mrc_qp *qp, const struct ibv_qp_attr *given,
			   int given_mask, int mask)
{
	if (!(mask & MRC_QP_TIMEOUT) && (given_mask & IBV_QP_TIMEOUT))
		qp->attr.timeout = timeout_from_ib(given->timeout);
	if (!(mask & MRC_QP_RETRY_CNT) && (given_mask & IBV_QP_RETRY_CNT)) {
		qp->attr.retry.linear_cnt = given->retry_cnt > IB_RETRY_MAX ?
					    IB_RETRY_MAX : given->retry_cnt;
		qp->attr.retry.exp_cnt = 0;
	}
}

/*
 * The QP's profiles that @mask names (CC, EV), by mrc's own uverbs method
 * on the device's command fd (rdma/mrc-abi.h): the kernel checks that
 * each is online and the QP not started, and binds all or none; the QP's
 * handle proves it is ours. Id 0: none (the device's). Returns the error
 * number.
 */
static int qp_bind(struct mrc_qp *qp, int mask, const struct mrc_qp_attr *m)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attr[3];
	} req = {};
	struct ib_uverbs_attr *a = req.attr;

	req.hdr.object_id = UVERBS_OBJECT_QP;
	req.hdr.method_id = MRC_IB_METHOD_QP_BIND_PROFILES;
	req.hdr.driver_id = RDMA_DRIVER_RXE;
	a->attr_id = MRC_IB_ATTR_BIND_QP_HANDLE;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a++->data = qp->vqp->handle;
	/* a value of 8 bytes or less travels in the attribute itself */
	if (mask & MRC_QP_CC_PROFILE_ID) {
		a->attr_id = MRC_IB_ATTR_BIND_CC_PROFILE_ID;
		a->flags = UVERBS_ATTR_F_MANDATORY;
		a->len = sizeof(m->profile.cc_profile_id);
		a++->data = m->profile.cc_profile_id;
	}
	if (mask & MRC_QP_EV_PROFILE_ID) {
		a->attr_id = MRC_IB_ATTR_BIND_EV_PROFILE_ID;
		a->flags = UVERBS_ATTR_F_MANDATORY;
		a->len = sizeof(m->profile.ev_profile_id);
		a++->data = m->profile.ev_profile_id;
	}
	req.hdr.num_attrs = a - req.attr;
	req.hdr.length = sizeof(req.hdr) + req.hdr.num_attrs * sizeof(*a);
	return ioctl(qp->ctx->vctx->cmd_fd, RDMA_VERBS_IOCTL, &req) ? errno : 0;
}

LIBMRC_EXPORT
int mrc_modify_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		  struct mrc_qp_attr *mrc_attr, int mrc_attr_mask)
{
	enum ibv_qp_state state;
	struct ibv_qp_attr v = {};
	int vmask = vattr_mask, bind, err;

	if (!qp || (vattr_mask && !vattr) || (vattr_mask & IBV_ATTR_REFUSED))
		return EINVAL;
	if (vattr)
		v = *vattr;
	/* OCP ports are planes; the verbs QP has the one port */
	if ((vmask & IBV_QP_PORT) && v.port_num != 1)
		return EINVAL;
	state = (vmask & IBV_QP_STATE) ? v.qp_state : qp->state;
	err = mrc_attr_check(qp, state, mrc_attr, mrc_attr_mask);
	if (err)
		return err;
	/* RNR_RETRY and MIN_RNR_TIMER are MRC's, whatever a program passes */
	ib_attr_fill(qp, state, &v, &vmask, mrc_attr, mrc_attr_mask);
	if ((vmask & IBV_QP_RNR_RETRY) && state != IBV_QPS_RTS)
		vmask &= ~IBV_QP_RNR_RETRY;
	if ((vmask & IBV_QP_MIN_RNR_TIMER) && state != IBV_QPS_RTR)
		vmask &= ~IBV_QP_MIN_RNR_TIMER;
	bind = mrc_attr_mask & (MRC_QP_CC_PROFILE_ID | MRC_QP_EV_PROFILE_ID);
	if (bind && qp_bind(qp, bind, mrc_attr))
		return EINVAL;		/* no such profile online */
	err = ibv_modify_qp(qp->vqp, &v, vmask);
	if (err) {
		if (bind)
			qp_bind(qp, bind, &qp->attr);
		return err;
	}
	mrc_attr_apply(qp, mrc_attr, mrc_attr_mask);
	if (state == IBV_QPS_RTS && qp->state == IBV_QPS_RTR)
		ib_attr_record(qp, vattr, vattr_mask, mrc_attr_mask);
	if (vmask & IBV_QP_STATE)
		qp->state = state;
	return 0;
}

LIBMRC_EXPORT
int mrc_query_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		 struct mrc_qp_attr *mrc_attr, int mrc_attr_mask,
		 struct mrc_qp_init_attr *init_attr)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr v;
	const struct mrc_qp_attr *a;
	int err;

	if (!qp || (mrc_attr_mask & ~MRC_ATTR_ALL) ||
	    (mrc_attr_mask && !mrc_attr))
		return EINVAL;
	if (vattr_mask) {
		if (!vattr)
			return EINVAL;
		err = ibv_query_qp(qp->vqp, &v, vattr_mask, &ia);
		if (err)
			return err;
		*vattr = v;
	}
	a = &qp->attr;
	mrc_ctx_lock(qp->ctx);
	if (mrc_attr_mask & MRC_QP_MPR)
		mrc_attr->mpr.mpr = a->mpr.mpr;
	if (mrc_attr_mask & MRC_QP_MPR_DEST)
		mrc_attr->mpr.mpr_dest = a->mpr.mpr_dest;
	if (mrc_attr_mask & MRC_QP_MAX_WIMM)
		mrc_attr->wimm.max_wimm = a->wimm.max_wimm;
	if (mrc_attr_mask & MRC_QP_MAX_WIMM_DEST)
		mrc_attr->wimm.max_wimm_dest = a->wimm.max_wimm_dest;
	if (mrc_attr_mask & MRC_QP_TIMEOUT)
		mrc_attr->timeout = a->timeout;
	if (mrc_attr_mask & MRC_QP_RETRY_CNT)
		mrc_attr->retry = a->retry;
	if (mrc_attr_mask & MRC_QP_CAP)
		mrc_attr->cap = a->cap;
	if (mrc_attr_mask & MRC_QP_EV_PROFILE_ID)
		mrc_attr->profile.ev_profile_id = a->profile.ev_profile_id;
	if (mrc_attr_mask & MRC_QP_CC_PROFILE_ID)
		mrc_attr->profile.cc_profile_id = a->profile.cc_profile_id;
	if (mrc_attr_mask & MRC_QP_HINT)
		mrc_attr->qp_hint = a->qp_hint;
	if (mrc_attr_mask & MRC_QP_VENDOR_CFG)
		memcpy(mrc_attr->vendor_cfg, a->vendor_cfg,
		       sizeof(a->vendor_cfg));
	mrc_ctx_unlock(qp->ctx);
	if (init_attr)
		*init_attr = qp->init;
	return 0;
}

LIBMRC_EXPORT
int mrc_post_recv(struct mrc_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr)
{
	return ibv_post_recv(qp->vqp, wr, bad_wr);
}

/* WRITE and WRITE_WITH_IMM only: a list with another opcode posts nothing */
LIBMRC_EXPORT
int mrc_post_send(struct mrc_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr)
{
	struct ibv_send_wr *w;

	for (w = wr; w; w = w->next) {
		if (w->opcode != IBV_WR_RDMA_WRITE &&
		    w->opcode != IBV_WR_RDMA_WRITE_WITH_IMM) {
			*bad_wr = w;
			return EINVAL;
		}
	}
	return ibv_post_send(qp->vqp, wr, bad_wr);
}
