// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: the controller's endpoint operations (mrc_ctl_ep_batch_send_wait)
 * over the "mrc" family's ep-probe: each request is one ep-probe, which the
 * kernel acknowledges at once; how each probe ended comes later as one
 * ep-probe-ntf to this call's own socket (possibly before the ack of its
 * request). A batch is the requests, then their notifications.
 *
 * The API's request, in mrc's terms:
 *   dgid            the peer (an IPv6 GID, or an IPv4-mapped one)
 *   req_ev.port     the plane it leaves on, plus one
 *   ev_fmt_mode     STEV or UDP: plain RoCEv2 with the EV val[0..3] (big
 *                   endian, as EV events report EVs): UDP source port
 *                   EV[31:16], flow label EV[15:0] (UDP: ignored on IPv4)
 *                   SRV6: the path of the peer's path set (mrcctl path) on
 *                   that plane whose uSID container, or first SRH segment,
 *                   is val[0..15]; EINVAL if there is none
 *   sgid            not used: the plane's address is the source
 *   req_tc          the DSCP of the probe and of its answer (0..63)
 * A response's port is the peer's plane the probe arrived on, plus one; its
 * rtt is the round trip less the peer's service time (adj_svc_time 1).
 * An rsp_timeout under 1 ms is 1 ms (the kernel's shortest). At most
 * MRC_MAX_EP_PROBES requests a call, and outstanding on the device
 * (EAGAIN beyond). Port status updates are not spoken yet: ENOTSUP.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "libmrc.h"

#define EP_BATCH_MAX	MRC_MAX_EP_PROBES
#define EP_TMO_MIN_NS	1000000ull	/* the kernel's shortest timeout */
#define EP_GRACE_MS	100		/* for the kernel's word past the timeout */
#define EP_RCVBUF	(1 << 20)	/* EP_BATCH_MAX notifications */

struct ep_batch {
	const struct mrc_ctl_ep_req *req;
	int nreq;
	bool *done;
	struct mrc_ctl_ep_rsp *rsp;
	int nrsp, nended;
};

/* the EV of @r as mrc's 32 bits */
static uint32_t ev_value(const struct mrc_ctl_ep_req *r)
{
	const uint8_t *v = r->req_ev.val;

	return (uint32_t)v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3];
}

/* ---- SRV6: the path of a container ---------------------------------------- */

struct path_find {
	const struct in6_addr *want;
	uint32_t plane;
	int64_t id;		/* -1: none */
};

static int cb_path(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_PATH_MAX + 1] = {};
	struct path_find *f = data;
	const struct nlattr *da;

	mrcnl_attrs(nlh, tb, MRC_A_PATH_MAX);
	if (!mrcnl_attr_ok(tb[MRC_A_PATH_ID], MNL_TYPE_U32) ||
	    !mrcnl_attr_ok(tb[MRC_A_PATH_PLANE], MNL_TYPE_U32) ||
	    mnl_attr_get_u32(tb[MRC_A_PATH_PLANE]) != f->plane)
		return MNL_CB_OK;
	da = tb[MRC_A_PATH_USID] ? tb[MRC_A_PATH_USID] : tb[MRC_A_PATH_SEGS];
	if (da && mnl_attr_get_payload_len(da) >= sizeof(*f->want) &&
	    !memcmp(mnl_attr_get_payload(da), f->want, sizeof(*f->want)) &&
	    f->id < 0)
		f->id = mnl_attr_get_u32(tb[MRC_A_PATH_ID]);
	return MNL_CB_OK;
}

/* the id of the path to @r's peer on its plane going to val[0..15], or -1 */
static int64_t srv6_path(struct mrcnl *nl, const char *dev,
			 const struct mrc_ctl_ep_req *r)
{
	struct path_find f = { .plane = r->req_ev.port - 1, .id = -1 };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct in6_addr want;
	struct nlmsghdr *nlh;

	memcpy(&want, r->req_ev.val, sizeof(want));
	f.want = &want;
	nlh = mrcnl_msg(nl, buf, MRC_CMD_PATH_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, MRC_A_PATH_DEV_NAME, dev);
	mnl_attr_put(nlh, MRC_A_PATH_PEER, sizeof(r->dgid.raw), r->dgid.raw);
	if (mrcnl_transact(nl, nlh, cb_path, &f))
		return -1;
	return f.id;
}

/* ---- the batch ------------------------------------------------------------- */

/* an ep-probe-ntf of one of our requests */
static int cb_ntf(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[MRC_A_EP_MAX + 1] = {};
	struct ep_batch *b = data;
	struct mrc_ctl_ep_rsp *o;
	uint64_t rtt, svc = 0;
	uint32_t id;
	int i;

	if (g->cmd != MRC_CMD_EP_PROBE_NTF)
		return MNL_CB_OK;
	mrcnl_attrs(nlh, tb, MRC_A_EP_MAX);
	if (!mrcnl_attr_ok(tb[MRC_A_EP_REQ_ID], MNL_TYPE_U32) ||
	    !mrcnl_attr_ok(tb[MRC_A_EP_STATUS], MNL_TYPE_U32))
		return MNL_CB_OK;
	id = mnl_attr_get_u32(tb[MRC_A_EP_REQ_ID]);
	for (i = 0; i < b->nreq; i++)
		if (b->req[i].req_id == id && !b->done[i])
			break;
	if (i == b->nreq)
		return MNL_CB_OK;
	b->done[i] = true;
	b->nended++;
	if (mnl_attr_get_u32(tb[MRC_A_EP_STATUS]) != MRC_EP_STATUS_ANSWERED ||
	    !tb[MRC_A_EP_RTT_NS] ||
	    !mrcnl_attr_ok(tb[MRC_A_EP_ARRIVAL_PLANE], MNL_TYPE_U32))
		return MNL_CB_OK;
	rtt = mrcnl_attr_uint(tb[MRC_A_EP_RTT_NS]);
	if (mrcnl_attr_ok(tb[MRC_A_EP_SERVICE_NS], MNL_TYPE_U32))
		svc = mnl_attr_get_u32(tb[MRC_A_EP_SERVICE_NS]);
	o = &b->rsp[b->nrsp++];
	memset(o, 0, sizeof(*o));
	o->req_id = id;
	o->port = mnl_attr_get_u32(tb[MRC_A_EP_ARRIVAL_PLANE]) + 1;
	rtt = rtt > svc ? rtt - svc : 0;
	o->rtt = rtt > UINT32_MAX ? UINT32_MAX : rtt;
	o->adj_svc_time = 1;
	return MNL_CB_OK;
}

/* one message: 1 taken, 0 the ack of @seq, -1 an error (errno) */
static int read_one(struct mrcnl *nl, struct ep_batch *b, unsigned int seq,
		    int timeout_ms)
{
	struct pollfd p = { .fd = mnl_socket_get_fd(nl->sock), .events = POLLIN };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	ssize_t n;
	int r;

	r = poll(&p, 1, timeout_ms);
	if (r <= 0) {
		errno = r ? errno : ETIMEDOUT;
		return -1;
	}
	n = mnl_socket_recvfrom(nl->sock, buf, sizeof(buf));
	if (n <= 0)
		return -1;
	return mrcnl_run(nl, buf, n, seq, mnl_socket_get_portid(nl->sock),
			 cb_ntf, b);
}

static int64_t mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000ll + t.tv_nsec / 1000000;
}

/* the API's errno for a refused request */
static int api_errno(int e)
{
	switch (e) {
	case EAGAIN:
	case ENOMEM:
	case EPERM:
	case ENOTSUP:
		return e;
	case EINVAL:
	case ENOENT:
	case ENODEV:
	case EADDRNOTAVAIL:
	case ERANGE:
		return EINVAL;
	default:
		return EIO;
	}
}

/* the API's checks of the requests: 0, or -1 with EINVAL */
static int check_reqs(const struct mrc_ctl_ep_req *req, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		if (!req[i].req_ev.port || req[i].req_ev.port > MRC_MAX_PLANES)
			goto inval;
		switch (req[i].ev_fmt_mode) {
		case MRC_CTL_EV_FMT_MODE_STEV:
		case MRC_CTL_EV_FMT_MODE_UDP:
			if (!(ev_value(&req[i]) >> 16))	/* UDP source port 0 */
				goto inval;
			break;
		case MRC_CTL_EV_FMT_MODE_SRV6:
			break;
		default:
			goto inval;
		}
		for (j = 0; j < i; j++)
			if (req[j].req_id == req[i].req_id)
				goto inval;
	}
	return 0;
inval:
	errno = EINVAL;
	return -1;
}

static int send_batch(struct mrcnl *nl, const char *dev, uint8_t tc,
		      uint64_t tmo_ns, struct ep_batch *b)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const struct mrc_ctl_ep_req *r;
	struct nlmsghdr *nlh;
	int64_t path;
	int i, ret;

	for (i = 0; i < b->nreq; i++) {
		r = &b->req[i];
		path = -1;
		if (r->ev_fmt_mode == MRC_CTL_EV_FMT_MODE_SRV6) {
			path = srv6_path(nl, dev, r);
			if (path < 0) {
				errno = EINVAL;
				return -1;
			}
		}
		nlh = mrcnl_msg(nl, buf, MRC_CMD_EP_PROBE, NLM_F_ACK);
		mnl_attr_put_strz(nlh, MRC_A_EP_DEV_NAME, dev);
		mnl_attr_put(nlh, MRC_A_EP_PEER, sizeof(r->dgid.raw), r->dgid.raw);
		mnl_attr_put_u32(nlh, MRC_A_EP_PLANE, r->req_ev.port - 1);
		if (path >= 0)
			mnl_attr_put_u32(nlh, MRC_A_EP_PATH_ID, path);
		else
			mnl_attr_put_u32(nlh, MRC_A_EP_EV, ev_value(r));
		mnl_attr_put_u32(nlh, MRC_A_EP_REQ_ID, r->req_id);
		mnl_attr_put_u32(nlh, MRC_A_EP_DSCP, tc);
		mnl_attr_put_u64(nlh, MRC_A_EP_TIMEOUT_NS, tmo_ns);
		nl->errmsg[0] = '\0';
		if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
			return -1;
		/* the ends of earlier probes may come before this ack */
		while ((ret = read_one(nl, b, nlh->nlmsg_seq, -1)) > 0)
			;
		if (ret < 0)
			return -1;
	}
	return 0;
}

LIBMRC_EXPORT
int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx, uint8_t req_tc,
			       enum mrc_ctl_ep_op_type op_type,
			       struct mrc_ctl_ep_req *req, int num_req,
			       uint32_t rsp_timeout,
			       struct mrc_ctl_ep_rsp *rsp, int *num_rsp)
{
	uint64_t tmo_ns = rsp_timeout < EP_TMO_MIN_NS ? EP_TMO_MIN_NS : rsp_timeout;
	bool done[EP_BATCH_MAX] = {};
	struct ep_batch b = {
		.req = req, .nreq = num_req, .done = done, .rsp = rsp,
	};
	int rcvbuf = EP_RCVBUF, ret, err;
	int64_t deadline, left;
	struct mrcnl nl;

	if (mrc_ctl_claim(mrc_ctx))
		return -1;
	if (!req || !rsp || !num_rsp || num_req <= 0 ||
	    (op_type != MRC_CTL_EP_OP_EV_PROBE &&
	     op_type != MRC_CTL_EP_OP_PORT_STATUS_UPDATE)) {
		errno = EINVAL;
		return -1;
	}
	*num_rsp = 0;
	if (op_type == MRC_CTL_EP_OP_PORT_STATUS_UPDATE) {
		errno = ENOTSUP;	/* not spoken by mrc yet */
		return -1;
	}
	if (num_req > EP_BATCH_MAX || req_tc > 63 || !rsp_timeout ||
	    check_reqs(req, num_req)) {
		errno = EINVAL;
		return -1;
	}
	if (mrc_ctl_open(mrc_ctx, &nl))
		return -1;
	setsockopt(mnl_socket_get_fd(nl.sock), SOL_SOCKET, SO_RCVBUF, &rcvbuf,
		   sizeof(rcvbuf));
	ret = send_batch(&nl, mrc_ctx->name, req_tc, tmo_ns, &b);
	if (ret) {
		err = api_errno(errno);
	} else {
		/* every probe the kernel took ends with its word */
		deadline = mono_ms() + (tmo_ns + 999999) / 1000000 + EP_GRACE_MS;
		while (b.nended < num_req) {
			left = deadline - mono_ms();
			if (left <= 0 || read_one(&nl, &b, 0, left) < 0)
				break;
		}
		err = b.nrsp < num_req ? ETIMEDOUT : 0;
	}
	mrcnl_close(&nl);
	*num_rsp = b.nrsp;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
