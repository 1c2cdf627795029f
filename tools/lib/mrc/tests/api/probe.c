// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test, section 13: endpoint operations (EV probes) of the controller */
#include <linux/mrc.h>

#include "api.h"

/* a request to @gid out of port 1 (plane 0) with a UDP/STEV EV */
static void ep_req(struct mrc_ctl_ep_req *r, uint16_t id, const union ibv_gid *gid)
{
	static const uint8_t ev[4] = { 0xc0, 0x01, 0x23, 0x45 };

	memset(r, 0, sizeof(*r));
	r->req_id = id;
	memcpy(r->sgid.raw, gid->raw, sizeof(r->sgid.raw));
	memcpy(r->dgid.raw, gid->raw, sizeof(r->dgid.raw));
	r->ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
	memcpy(r->req_ev.val, ev, sizeof(ev));
	r->req_ev.port = 1;
}

void t_ep_probes(struct env *e)
{
	struct mrc_ctl_ep_req req[4];
	struct mrc_ctl_ep_rsp rsp[4];
	union ibv_gid nobody;
	int nrsp, i;
	bool ids;

	begin("13. endpoint operations: EV probes");
	if (!e->have_gid) {
		diag("no RoCE v2 GID: skipped");
		return;
	}
	/* the device's own address: mrc answers its own probes (loopback) */
	for (i = 0; i < 3; i++)
		ep_req(&req[i], 10 + i, &e->gid);
	req[1].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	memset(rsp, 0, sizeof(rsp));
	nrsp = -1;
	T_RC(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE, req,
					3, 2000000000u, rsp, &nrsp), 0,
	     "mrc_ctl_ep_batch_send_wait: 3 EV probes of the device's own address");
	ids = nrsp == 3;
	for (i = 0; ids && i < 3; i++)
		ids = rsp[i].req_id >= 10 && rsp[i].req_id <= 12 &&
		      rsp[i].port == 1 && rsp[i].rtt > 0 && rsp[i].adj_svc_time;
	T_TRUE(ids && rsp[0].req_id != rsp[1].req_id &&
	       rsp[1].req_id != rsp[2].req_id && rsp[0].req_id != rsp[2].req_id,
	       "... all answered: their ids, port 1, an RTT (%d: %u ns)", nrsp,
	       nrsp > 0 ? rsp[0].rtt : 0);

	/* an address nobody answers: ETIMEDOUT, no response */
	nobody = e->gid;
	nobody.raw[15] ^= 0x80;
	ep_req(&req[0], 1, &nobody);
	nrsp = -1;
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 1, 20000000, rsp, &nrsp),
		ETIMEDOUT, "mrc_ctl_ep_batch_send_wait: nobody answers: ETIMEDOUT");
	T_TRUE(nrsp == 0, "... with num_rsp 0 (%d)", nrsp);

	/* one answered, one not: ETIMEDOUT with the one that came */
	ep_req(&req[0], 1, &nobody);
	ep_req(&req[1], 2, &e->gid);
	nrsp = -1;
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 2, 200000000, rsp, &nrsp),
		ETIMEDOUT, "mrc_ctl_ep_batch_send_wait: one of two answered: ETIMEDOUT");
	T_TRUE(nrsp == 1 && rsp[0].req_id == 2,
	       "... with the answer that came (%d, id %u)", nrsp,
	       nrsp > 0 ? rsp[0].req_id : 0);

	/* bad arguments */
	ep_req(&req[0], 1, &e->gid);
	ep_req(&req[1], 1, &e->gid);
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 2, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: two requests of one id: EINVAL");
	req[0].req_ev.port = 0;
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 1, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: port 0: EINVAL");
	req[0].req_ev.port = 9;
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 1, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: a port of no plane: EINVAL");
	ep_req(&req[0], 1, &e->gid);
	memset(req[0].req_ev.val, 0, 2);
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 1, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: an EV of UDP source port 0: EINVAL");
	ep_req(&req[0], 1, &e->gid);
	req[0].ev_fmt_mode = (enum mrc_ctl_ev_fmt_mode)0x40;
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 1, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: an unknown EV format: EINVAL");
	ep_req(&req[0], 1, &e->gid);
	req[0].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6;
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 1, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: SRV6, a container of no path: EINVAL");
	ep_req(&req[0], 1, &e->gid);
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 64, MRC_CTL_EP_OP_EV_PROBE,
					   req, 1, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: req_tc 64 (not a DSCP): EINVAL");
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, 1, 0, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: timeout 0: EINVAL");
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   req, MRC_MAX_EP_PROBES + 1, 1000000, rsp,
					   &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: more than %d requests: EINVAL",
		MRC_MAX_EP_PROBES);
	nrsp = 5;
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0,
					   MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
					   req, 1, 1000000, rsp, &nrsp),
		ENOTSUP, "mrc_ctl_ep_batch_send_wait of a port status update: ENOTSUP");
	T_TRUE(nrsp == 0, "... with no responses (%d)", nrsp);
}
