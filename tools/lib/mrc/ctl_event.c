// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: EV event CQs, fed by the mrc family's "ev" multicast group.
 *
 * mrc keeps an EV's health per QP; each change between GOOD and
 * ASSUMED_BAD of an EV of the device is one event, with the port of the
 * EV's plane and the EV: mrc's 32-bit value in its first four bytes
 * (network order), or, for a QP bound to an EXP or GEN profile, the
 * bytes of the profile's EV it was made from (the kernel's ev-bytes). A
 * QP bound to an EV profile reports its changes as the profile's, those
 * its event mask wants; the others' are profile 0's, all of them. The
 * socket's buffer is the CQ's queue: when it overruns, the next event
 * says so with a drop_count of 1 (mrc counts no precise drops).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "libmrc.h"

/* one event of the ev group, about the bytes the kernel queues for it */
#define EV_NTF_BYTES	512

struct mrc_ev_cq {
	struct mrcnl nl;
	bool dropped;		/* the socket overran since the last event */
};

int mrc_ev_cq_open(struct mrc_cq *cq, int cqe)
{
	struct mrc_ev_cq *q;
	int rcvbuf, err;
	uint32_t grp;

	q = calloc(1, sizeof(*q));
	if (!q)
		return -1;
	if (mrc_ctl_open(cq->ctx, &q->nl))
		goto fail;
	grp = mrcnl_group(&q->nl, MRC_MCGRP_EV);
	if (!grp) {
		errno = ENOTSUP;
		goto fail_nl;
	}
	if (mnl_socket_setsockopt(q->nl.sock, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)))
		goto fail_nl;
	rcvbuf = cqe > (1 << 20) / EV_NTF_BYTES ? 1 << 20 : cqe * EV_NTF_BYTES;
	setsockopt(mnl_socket_get_fd(q->nl.sock), SOL_SOCKET, SO_RCVBUF,
		   &rcvbuf, sizeof(rcvbuf));
	cq->evq = q;
	return 0;
fail_nl:
	err = errno;
	mrcnl_close(&q->nl);
	errno = err;
fail:
	err = errno;
	free(q);
	errno = err;
	return -1;
}

void mrc_ev_cq_close(struct mrc_cq *cq)
{
	mrcnl_close(&cq->evq->nl);
	free(cq->evq);
	cq->evq = NULL;
}

int mrc_ev_cq_fd(struct mrc_cq *cq)
{
	return mnl_socket_get_fd(cq->evq->nl.sock);
}

static const uint32_t ev_states[] = {
	[MRC_EV_STATE_GOOD] = MRC_CTL_EV_GOOD,
	[MRC_EV_STATE_SKIP] = MRC_CTL_EV_GOOD,
	[MRC_EV_STATE_ASSUMED_BAD] = MRC_CTL_EV_ASSUMED_BAD,
	[MRC_EV_STATE_DENIED] = MRC_CTL_EV_DENIED,
};

/* where events go: the program's array, whose stride its API version sets */
struct ev_out {
	struct mrc_cq *cq;
	uint8_t *at;
	size_t stride;
	int room, n;
};

static uint32_t ev_state(const struct nlattr *a)
{
	uint32_t s;

	if (!mrcnl_attr_ok(a, MNL_TYPE_U32))
		return (uint32_t)MRC_CTL_EV_UNKNOWN;
	s = mnl_attr_get_u32(a);
	return s < sizeof(ev_states) / sizeof(ev_states[0]) ?
	       ev_states[s] : (uint32_t)MRC_CTL_EV_UNKNOWN;
}

static int cb_ev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1] = {};
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct ev_out *o = data;
	struct mrc_ctl_ev_event e = {};
	uint32_t state, old, value, plane, mask, len;

	if (nlh->nlmsg_type != o->cq->evq->nl.family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*g) ||
	    g->cmd != MRC_CMD_EV_CHANGE_NTF)
		return MNL_CB_OK;
	mrcnl_attrs(nlh, tb, MRC_A_EV_MAX);
	if (!mrcnl_attr_ok(tb[MRC_A_EV_DEV_NAME], MNL_TYPE_NUL_STRING) ||
	    strcmp(mnl_attr_get_str(tb[MRC_A_EV_DEV_NAME]), o->cq->ctx->name) ||
	    (!tb[MRC_A_EV_EV_BYTES] &&
	     !mrcnl_attr_ok(tb[MRC_A_EV_VALUE], MNL_TYPE_U32)) ||
	    !mrcnl_attr_ok(tb[MRC_A_EV_PLANE], MNL_TYPE_U32))
		return MNL_CB_OK;
	state = ev_state(tb[MRC_A_EV_STATE]);
	old = ev_state(tb[MRC_A_EV_OLD_STATE]);
	/*
	 * the changes an event mask can ask for: into GOOD or ASSUMED_BAD;
	 * a bound QP's are its profile's, if its mask wants them
	 */
	mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD;
	if (tb[MRC_A_EV_PROFILE_ID]) {
		e.profile_id = mrcnl_attr_uint(tb[MRC_A_EV_PROFILE_ID]);
		mask = mrcnl_u32(tb[MRC_A_EV_EVENT_MASK]);
		mask = (mask & MRC_EV_EVENT_GOOD ? MRC_CTL_EV_GOOD : 0) |
		       (mask & MRC_EV_EVENT_ASSUMED_BAD ? MRC_CTL_EV_ASSUMED_BAD : 0);
	}
	if (state == old || !(state & mask))
		return MNL_CB_OK;
	plane = mnl_attr_get_u32(tb[MRC_A_EV_PLANE]);
	if (tb[MRC_A_EV_EV_BYTES]) {
		/* the profile's EV, as the controller named it */
		len = mnl_attr_get_payload_len(tb[MRC_A_EV_EV_BYTES]);
		memcpy(e.ev.val, mnl_attr_get_payload(tb[MRC_A_EV_EV_BYTES]),
		       len < sizeof(e.ev.val) ? len : sizeof(e.ev.val));
	} else {
		value = mnl_attr_get_u32(tb[MRC_A_EV_VALUE]);
		e.ev.val[0] = value >> 24;
		e.ev.val[1] = value >> 16;
		e.ev.val[2] = value >> 8;
		e.ev.val[3] = value;
	}
	e.ev.port = plane + 1;
	e.drop_count = o->cq->evq->dropped;
	e.state = state;
	o->cq->evq->dropped = false;
	memcpy(o->at + o->n * o->stride, &e, o->stride);
	o->n++;
	return MNL_CB_OK;
}

/*
 * One datagram a notification: read them while there is room for one
 * more event, so that none is read and then lost.
 */
LIBMRC_EXPORT
int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq, int num_entries,
			  struct mrc_ctl_ev_event *ev_event)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct ev_out o;
	ssize_t len;

	if (!ev_cq || ev_cq->kind != MRC_CQ_EV_EVENT || num_entries < 0 ||
	    (num_entries && !ev_event))
		return -EINVAL;
	o.cq = ev_cq;
	o.at = (uint8_t *)ev_event;
	/* a program built for controller API 1.0.0 has no state member */
	o.stride = ev_cq->ctx->api_version >= MRC_API_VER(1, 0, 1) ?
		   sizeof(*ev_event) : offsetof(struct mrc_ctl_ev_event, state);
	o.room = num_entries;
	o.n = 0;
	while (o.n < o.room) {
		len = recv(mrc_ev_cq_fd(ev_cq), buf, sizeof(buf), MSG_DONTWAIT);
		if (len < 0) {
			if (errno == ENOBUFS) {
				ev_cq->evq->dropped = true;
				continue;
			}
			if (errno == EAGAIN || errno == EINTR)
				break;
			return -errno;
		}
		if (mrcnl_run(&ev_cq->evq->nl, buf, len, 0, 0, cb_ev, &o) < 0)
			return -errno;
	}
	return o.n;
}
