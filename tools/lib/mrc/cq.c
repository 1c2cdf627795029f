// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: completion channels, CQs and CQ events.
 *
 * A channel's fd is an epoll fd over its verbs channel and over the
 * sockets of the EV event CQs that report to it, so one fd wakes a
 * program for both. An EV CQ's socket is in the set with EPOLLONESHOT:
 * mrc_req_notify_cq arms it, one event disarms it, as a verbs CQ does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>

#include "libmrc.h"

LIBMRC_EXPORT
int mrc_create_comp_channel(struct mrc_context *mrc_ctx,
			    struct mrc_comp_channel **channel)
{
	struct epoll_event e = { .events = EPOLLIN, .data.ptr = NULL };
	struct mrc_comp_channel *ch;
	int err;

	if (!mrc_ctx || !channel) {
		errno = EINVAL;
		return -1;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return -1;
	ch->ctx = mrc_ctx;
	ch->vch = ibv_create_comp_channel(mrc_ctx->vctx);
	if (!ch->vch)
		goto fail;
	ch->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (ch->epfd < 0 || epoll_ctl(ch->epfd, EPOLL_CTL_ADD, ch->vch->fd, &e))
		goto fail;
	mrc_ctx_lock(mrc_ctx);
	mrc_list_add(&mrc_ctx->channels, &ch->node);
	mrc_ctx_unlock(mrc_ctx);
	*channel = ch;
	return 0;
fail:
	err = errno;
	if (ch->epfd > 0)
		close(ch->epfd);
	if (ch->vch)
		ibv_destroy_comp_channel(ch->vch);
	free(ch);
	errno = err;
	return -1;
}

LIBMRC_EXPORT
int mrc_get_comp_channel_fd(struct mrc_comp_channel *channel, int *fd)
{
	if (!channel || !fd) {
		errno = EINVAL;
		return -1;
	}
	*fd = channel->epfd;
	return 0;
}

/*
 * For mrc_destroy_context, once its CQs are gone: a verbs channel that
 * cannot be destroyed (a CQ's could not) is left to the device's close
 */
void mrc_channel_free(struct mrc_comp_channel *ch)
{
	ibv_destroy_comp_channel(ch->vch);
	mrc_ctx_lock(ch->ctx);
	mrc_list_del(&ch->node);
	mrc_ctx_unlock(ch->ctx);
	close(ch->epfd);
	free(ch);
}

LIBMRC_EXPORT
int mrc_destroy_comp_channel(struct mrc_comp_channel *channel)
{
	struct mrc_context *ctx;
	int err;

	if (!channel)
		return EINVAL;
	ctx = channel->ctx;
	mrc_ctx_lock(ctx);
	if (channel->cqs) {
		mrc_ctx_unlock(ctx);
		return EBUSY;
	}
	err = ibv_destroy_comp_channel(channel->vch);
	if (err) {
		mrc_ctx_unlock(ctx);
		return err;
	}
	mrc_list_del(&channel->node);
	mrc_ctx_unlock(ctx);
	close(channel->epfd);
	free(channel);
	return 0;
}

/* an EV CQ's socket in the channel's set, disarmed */
int mrc_channel_watch(struct mrc_comp_channel *ch, int fd, void *tag)
{
	struct epoll_event e = { .events = EPOLLONESHOT, .data.ptr = tag };

	return epoll_ctl(ch->epfd, EPOLL_CTL_ADD, fd, &e);
}

void mrc_channel_unwatch(struct mrc_comp_channel *ch, int fd)
{
	epoll_ctl(ch->epfd, EPOLL_CTL_DEL, fd, NULL);
}

static struct mrc_cq *cq_alloc(struct mrc_context *ctx, enum mrc_cq_kind kind,
			       void *cq_context, struct mrc_comp_channel *ch)
{
	struct mrc_cq *cq;

	if (!ctx || (ch && ch->ctx != ctx)) {
		errno = EINVAL;
		return NULL;
	}
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	cq->ctx = ctx;
	cq->kind = kind;
	cq->cq_context = cq_context;
	cq->channel = ch;
	pthread_cond_init(&cq->acked, NULL);
	return cq;
}

static void cq_link(struct mrc_cq *cq)
{
	mrc_ctx_lock(cq->ctx);
	mrc_list_add(&cq->ctx->cqs, &cq->node);
	if (cq->channel)
		cq->channel->cqs++;
	mrc_ctx_unlock(cq->ctx);
}

LIBMRC_EXPORT
struct mrc_cq *mrc_create_cq(struct mrc_context *mrc_ctx, int cqe,
			     void *cq_context,
			     struct mrc_comp_channel *channel,
			     int comp_vector)
{
	struct mrc_cq *cq;
	int err;

	if (cqe <= 0) {
		errno = EINVAL;
		return NULL;
	}
	cq = cq_alloc(mrc_ctx, MRC_CQ_VERBS, cq_context, channel);
	if (!cq)
		return NULL;
	/* the verbs CQ's context is the wrapper: CQ events and async events find it */
	cq->vcq = ibv_create_cq(mrc_ctx->vctx, cqe, cq,
				channel ? channel->vch : NULL, comp_vector);
	if (!cq->vcq) {
		err = errno;
		pthread_cond_destroy(&cq->acked);
		free(cq);
		errno = err;
		return NULL;
	}
	cq_link(cq);
	return cq;
}

/* the EV event CQ of ctl_event.c, made here as the CQs' list is */
LIBMRC_EXPORT
struct mrc_cq *mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx,
					  int cqe, void *cq_context,
					  struct mrc_comp_channel *channel,
					  int comp_vector)
{
	struct mrc_cq *cq;
	int err;

	if (mrc_ctl_claim(mrc_ctx))
		return NULL;
	if (cqe <= 0 || comp_vector < 0) {
		errno = EINVAL;
		return NULL;
	}
	cq = cq_alloc(mrc_ctx, MRC_CQ_EV_EVENT, cq_context, channel);
	if (!cq)
		return NULL;
	if (mrc_ev_cq_open(cq, cqe))
		goto fail;
	if (channel && mrc_channel_watch(channel, mrc_ev_cq_fd(cq), cq)) {
		mrc_ev_cq_close(cq);
		goto fail;
	}
	cq_link(cq);
	return cq;
fail:
	err = errno;
	pthread_cond_destroy(&cq->acked);
	free(cq);
	errno = err;
	return NULL;
}

LIBMRC_EXPORT
int mrc_poll_cq(struct mrc_cq *cq, int num_entries, struct ibv_wc *wc)
{
	if (cq->kind != MRC_CQ_VERBS) {
		errno = EINVAL;
		return -1;
	}
	return ibv_poll_cq(cq->vcq, num_entries, wc);
}

LIBMRC_EXPORT
int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only)
{
	struct epoll_event e;

	if (!cq)
		return EINVAL;
	if (cq->kind == MRC_CQ_VERBS)
		return ibv_req_notify_cq(cq->vcq, solicited_only);
	if (!cq->channel)
		return EINVAL;
	e.events = EPOLLIN | EPOLLONESHOT;
	e.data.ptr = cq;
	return epoll_ctl(cq->channel->epfd, EPOLL_CTL_MOD, mrc_ev_cq_fd(cq),
			 &e) ? errno : 0;
}

/*
 * The next CQ of @channel with an event: blocks unless the program made
 * the channel's fd non-blocking (then EAGAIN), as ibv_get_cq_event does.
 */
LIBMRC_EXPORT
int mrc_get_cq_event(struct mrc_comp_channel *channel, struct mrc_cq **cq,
		     void **cq_context)
{
	struct ibv_cq *vcq;
	struct epoll_event e;
	struct mrc_cq *m;
	void *vctx;
	int n, fl;

	if (!channel || !cq || !cq_context) {
		errno = EINVAL;
		return -1;
	}
	fl = fcntl(channel->epfd, F_GETFL);
	n = epoll_wait(channel->epfd, &e, 1,
		       fl >= 0 && (fl & O_NONBLOCK) ? 0 : -1);
	if (n < 0)
		return -1;
	if (!n) {
		errno = EAGAIN;
		return -1;
	}
	if (e.data.ptr) {
		m = e.data.ptr;
		mrc_ctx_lock(m->ctx);
		m->events++;
		mrc_ctx_unlock(m->ctx);
	} else {
		if (ibv_get_cq_event(channel->vch, &vcq, &vctx))
			return -1;
		m = vctx;
	}
	*cq = m;
	*cq_context = m->cq_context;
	return 0;
}

LIBMRC_EXPORT
void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents)
{
	if (!cq)
		return;
	if (cq->kind == MRC_CQ_VERBS) {
		ibv_ack_cq_events(cq->vcq, nevents);
		return;
	}
	mrc_ctx_lock(cq->ctx);
	cq->acks += nevents;
	pthread_cond_broadcast(&cq->acked);
	mrc_ctx_unlock(cq->ctx);
}

/*
 * The CQ's verbs CQ destroyed, then the CQ unlinked and freed; if that
 * fails, the error returned and the CQ kept unless @force (as qp.c's);
 * the context's lock is not held
 */
int mrc_cq_free(struct mrc_cq *cq, bool force)
{
	int err = 0;

	if (cq->kind == MRC_CQ_VERBS) {
		err = ibv_destroy_cq(cq->vcq);
		if (err && !force)
			return err;
	}
	mrc_ctx_lock(cq->ctx);
	mrc_list_del(&cq->node);
	if (cq->channel)
		cq->channel->cqs--;
	mrc_ctx_unlock(cq->ctx);
	if (cq->kind == MRC_CQ_EV_EVENT) {
		if (cq->channel)
			mrc_channel_unwatch(cq->channel, mrc_ev_cq_fd(cq));
		mrc_ev_cq_close(cq);
	}
	pthread_cond_destroy(&cq->acked);
	free(cq);
	return err;
}

LIBMRC_EXPORT
int mrc_destroy_cq(struct mrc_cq *cq)
{
	if (!cq)
		return EINVAL;
	mrc_ctx_lock(cq->ctx);
	if (cq->qps) {
		mrc_ctx_unlock(cq->ctx);
		return EBUSY;
	}
	/* an EV CQ, like a verbs one, waits for its events' acks */
	while (cq->kind == MRC_CQ_EV_EVENT && cq->acks < cq->events)
		pthread_cond_wait(&cq->acked, &cq->ctx->lock);
	mrc_ctx_unlock(cq->ctx);
	return mrc_cq_free(cq, false);
}
