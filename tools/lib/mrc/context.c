// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: API versions, contexts, the MRC device query and async events
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libmrc.h"

/* what mrc.ko reports in ibv_query_device (drivers/mrc/mrc_param.h) */
#define MRC_VENDOR_ID		0xffffff
#define MRC_VENDOR_PART_ID	0x4d52


/* a version query's answers @v (current, oldest; vendor's current, oldest) */
void mrc_versions_put(const uint32_t v[4], uint32_t *cur, uint32_t *last,
		      uint32_t *vcur, uint32_t *vlast)
{
	uint32_t *out[4] = { cur, last, vcur, vlast };
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (out[i])
			*out[i] = v[i];
}

LIBMRC_EXPORT
void mrc_query_version(uint32_t *current_version,
		       uint32_t *last_supported_version,
		       uint32_t *vendor_version,
		       uint32_t *last_supported_vendor_version)
{
	static const uint32_t v[4] = {
		MRC_API_CURRENT_VERSION, MRC_API_LAST_SUPPORTED_VERSION,
		MRC_VENDOR_API_CURRENT_VERSION,
		MRC_VENDOR_API_LAST_SUPPORTED_VERSION,
	};

	mrc_versions_put(v, current_version, last_supported_version,
			 vendor_version, last_supported_vendor_version);
}

/* mrc has no vendor configuration: only an all-zero one is valid */
bool mrc_vendor_cfg_empty(const uint8_t *cfg)
{
	unsigned int i;

	for (i = 0; i < MRC_MAX_VENDOR_CFG_SIZE; i++)
		if (cfg[i])
			return false;
	return true;
}

/* an mrc device: its ids, as rxe's are the same but for the part id */
bool mrc_dev_is_mrc(struct ibv_context *vctx)
{
	struct ibv_device_attr a;

	if (ibv_query_device(vctx, &a))
		return false;
	return a.vendor_id == MRC_VENDOR_ID &&
	       a.vendor_part_id == MRC_VENDOR_PART_ID;
}

void mrc_ctx_lock(struct mrc_context *ctx)
{
	pthread_mutex_lock(&ctx->lock);
}

void mrc_ctx_unlock(struct mrc_context *ctx)
{
	pthread_mutex_unlock(&ctx->lock);
}

static int device_query(struct ibv_context *context,
			struct mrc_device_attr *attr, int *supported)
{
	if (!context || !attr || !supported) {
		errno = EINVAL;
		return -1;
	}
	memset(attr, 0, sizeof(*attr));
	*supported = mrc_dev_is_mrc(context);
	if (!*supported)
		return 0;
	/*
	 * The MPR is fixed: only MRC_MPR (the resolution) can be set. No
	 * WRITE_WITH_IMM limit is configurable (0): one that finds no receive
	 * posted waits for it (RNR, retried without end), nothing is lost.
	 */
	attr->mrc_protocol_version = MRC_PROTOCOL_VERSION_1;
	attr->mpr_attr.max_mpr = MRC_MPR;
	attr->mpr_attr.mpr_resolution = MRC_MPR;
	attr->qp_attr.max_qp_hint = MRC_QP_HINTS_MAX;
	attr->cap = MRC_DEVICE_CAP_TRIM_NACK | MRC_DEVICE_CAP_SVC_TIME;
	return 0;
}

LIBMRC_EXPORT
int mrc_query_device(struct ibv_context *context,
		     struct mrc_device_attr *attr, int *supported)
{
	return device_query(context, attr, supported);
}

LIBMRC_EXPORT
int mrc_query_device_ex(struct ibv_context *context,
			struct mrc_context *mcontext,
			struct mrc_device_attr *attr, int *supported)
{
	if (mcontext && mcontext->vctx != context) {
		errno = EINVAL;
		return -1;
	}
	return device_query(context, attr, supported);
}

/* 0: the current one; newer than this library's: refused */
static int version_pick(uint32_t asked, uint32_t current, uint32_t *used)
{
	if (asked > current)
		return -1;
	*used = asked ? asked : current;
	return 0;
}

LIBMRC_EXPORT
struct mrc_context *mrc_create_context(struct ibv_context *vcontext,
				       struct mrc_context_attr *context_attr)
{
	struct mrc_context_attr none = {};
	struct mrc_context *ctx;

	if (!vcontext) {
		errno = EINVAL;
		return NULL;
	}
	if (!context_attr)
		context_attr = &none;
	if (!mrc_dev_is_mrc(vcontext)) {
		errno = EOPNOTSUPP;	/* not an MRC device */
		return NULL;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	if (version_pick(context_attr->mrc_api_version_used,
			 MRC_API_CURRENT_VERSION, &ctx->api_version) ||
	    version_pick(context_attr->mrc_vendor_api_version_used,
			 MRC_VENDOR_API_CURRENT_VERSION,
			 &ctx->vendor_api_version)) {
		free(ctx);
		errno = EPROTONOSUPPORT;
		return NULL;
	}
	ctx->vctx = vcontext;
	ctx->ctl_fd = -1;
	snprintf(ctx->name, sizeof(ctx->name), "%s",
		 ibv_get_device_name(vcontext->device));
	pthread_mutex_init(&ctx->lock, NULL);
	mrc_list_init(&ctx->channels);
	mrc_list_init(&ctx->cqs);
	mrc_list_init(&ctx->hints);
	mrc_list_init(&ctx->qps);
	return ctx;
}

/* what is left of the context's objects goes first: QPs, then what they use */
LIBMRC_EXPORT
int mrc_destroy_context(struct mrc_context *mrc_ctx)
{
	if (!mrc_ctx) {
		errno = EINVAL;
		return -1;
	}
	while (!mrc_list_empty(&mrc_ctx->qps))
		mrc_qp_free(mrc_list_first(&mrc_ctx->qps, struct mrc_qp, node));
	while (!mrc_list_empty(&mrc_ctx->hints))
		mrc_hint_free(mrc_list_first(&mrc_ctx->hints,
					     struct mrc_qp_hint, node));
	while (!mrc_list_empty(&mrc_ctx->cqs))
		mrc_cq_free(mrc_list_first(&mrc_ctx->cqs, struct mrc_cq, node),
			    true);
	while (!mrc_list_empty(&mrc_ctx->channels)) {
		struct mrc_comp_channel *ch =
			mrc_list_first(&mrc_ctx->channels,
				       struct mrc_comp_channel, node);

		mrc_channel_free(ch);
	}
	if (mrc_ctx->ctl_fd >= 0)
		close(mrc_ctx->ctl_fd);
	pthread_mutex_destroy(&mrc_ctx->lock);
	free(mrc_ctx);
	return 0;
}

/* ---- async events ---------------------------------------------------- */

enum event_elem { ELEM_QP, ELEM_CQ, ELEM_SRQ, ELEM_PORT };

static enum event_elem event_elem(enum ibv_event_type t)
{
	switch (t) {
	case IBV_EVENT_CQ_ERR:
		return ELEM_CQ;
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_COMM_EST:
	case IBV_EVENT_SQ_DRAINED:
	case IBV_EVENT_PATH_MIG:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_QP_LAST_WQE_REACHED:
		return ELEM_QP;
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_SRQ_LIMIT_REACHED:
	case IBV_EVENT_WQ_FATAL:
		return ELEM_SRQ;
	default:
		return ELEM_PORT;
	}
}

/* the libmrc object an event names, NULL if the program made it with verbs */
static void *event_owner(struct mrc_context *ctx, const struct ibv_async_event *ve)
{
	struct mrc_list *n;
	void *found = NULL;

	mrc_ctx_lock(ctx);
	if (event_elem(ve->event_type) == ELEM_QP) {
		for (n = ctx->qps.next; n != &ctx->qps && !found; n = n->next)
			if (mrc_list_entry(n, struct mrc_qp, node)->vqp ==
			    ve->element.qp)
				found = mrc_list_entry(n, struct mrc_qp, node);
	} else {
		for (n = ctx->cqs.next; n != &ctx->cqs && !found; n = n->next)
			if (mrc_list_entry(n, struct mrc_cq, node)->vcq ==
			    ve->element.cq)
				found = mrc_list_entry(n, struct mrc_cq, node);
	}
	mrc_ctx_unlock(ctx);
	return found;
}

LIBMRC_EXPORT
int mrc_get_async_event(struct mrc_context *mrc_ctx,
			struct mrc_async_event *event)
{
	struct ibv_async_event ve;
	void *owner;

	if (!mrc_ctx || !event) {
		errno = EINVAL;
		return -1;
	}
	for (;;) {
		if (ibv_get_async_event(mrc_ctx->vctx, &ve))
			return -1;
		memset(event, 0, sizeof(*event));
		event->event_type = ve.event_type;
		switch (event_elem(ve.event_type)) {
		case ELEM_PORT:
			event->element.port_num = ve.element.port_num;
			return 0;
		case ELEM_SRQ:
			break;		/* MRC has no SRQ: not one of ours */
		default:
			owner = event_owner(mrc_ctx, &ve);
			if (!owner)
				break;
			if (event_elem(ve.event_type) == ELEM_QP)
				event->element.qp = owner;
			else
				event->element.cq = owner;
			return 0;
		}
		ibv_ack_async_event(&ve);
	}
}

LIBMRC_EXPORT
void mrc_ack_async_event(struct mrc_async_event *event)
{
	struct ibv_async_event ve = {};

	if (!event)
		return;
	ve.event_type = event->event_type;
	switch (event_elem(event->event_type)) {
	case ELEM_QP:
		ve.element.qp = event->element.qp->vqp;
		break;
	case ELEM_CQ:
		ve.element.cq = event->element.cq->vcq;
		break;
	default:
		ve.element.port_num = event->element.port_num;
	}
	ibv_ack_async_event(&ve);
}
