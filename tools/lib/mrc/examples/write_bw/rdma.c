// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_write_bw: device, context, CQs, QP setup, exchange, connect, teardown */
#include "wbw.h"

static int mtu_bytes(enum ibv_mtu m)
{
	return 128 << m;	/* IBV_MTU_256 is 1 */
}

static int open_device(struct bench *b)
{
	struct ibv_device *dev = NULL;
	int i, n = 0;

	b->devs = ibv_get_device_list(&n);
	if (!b->devs) {
		err("ibv_get_device_list: %s%s", strerror(errno), errno == ENOSYS ?
		    " (no RDMA devices here: is ib_uverbs loaded?)" : "");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(b->devs[i]), b->o->dev))
			dev = b->devs[i];
	if (!dev) {
		err("device '%s' not found; the RDMA devices are:%s", b->o->dev,
		    n ? "" : " none");
		for (i = 0; i < n; i++)
			fprintf(stderr, "  %s\n", ibv_get_device_name(b->devs[i]));
		return -1;
	}
	b->ibv = ibv_open_device(dev);
	if (!b->ibv) {
		err("ibv_open_device %s: %s", b->o->dev, strerror(errno));
		return -1;
	}
	return 0;
}

static int query_port(struct bench *b)
{
	struct ibv_port_attr pa;
	char gs[INET6_ADDRSTRLEN];
	static const union ibv_gid zero;
	int rc;

	rc = ibv_query_port(b->ibv, b->o->ib_port, &pa);
	if (rc) {
		err("%s has no port %u (ibv_query_port: %s)", b->o->dev,
		    b->o->ib_port, rc_str(rc));
		return -1;
	}
	if (pa.state != IBV_PORT_ACTIVE)
		warn("%s port %u is %s, not ACTIVE", b->o->dev, b->o->ib_port,
		     ibv_port_state_str(pa.state));
	b->mtu = b->o->mtu;
	if (b->mtu > pa.active_mtu) {
		info("MTU %d is above %s port %u's active MTU: using %d",
		     mtu_bytes(b->mtu), b->o->dev, b->o->ib_port,
		     mtu_bytes(pa.active_mtu));
		b->mtu = pa.active_mtu;
	}
	if (b->o->gid_idx >= (unsigned int)pa.gid_tbl_len) {
		err("GID index %u: %s port %u has %d GIDs", b->o->gid_idx,
		    b->o->dev, b->o->ib_port, pa.gid_tbl_len);
		return -1;
	}
	rc = ibv_query_gid(b->ibv, b->o->ib_port, b->o->gid_idx, &b->gid);
	if (rc) {
		err("GID index %u of %s port %u: %s", b->o->gid_idx, b->o->dev,
		    b->o->ib_port, rc_str(rc));
		return -1;
	}
	if (!memcmp(&b->gid, &zero, sizeof(zero))) {
		err("GID index %u of %s port %u is empty: give -g the index of "
		    "a RoCE v2 GID (/sys/class/infiniband/%s/ports/%u/gids/)",
		    b->o->gid_idx, b->o->dev, b->o->ib_port, b->o->dev,
		    b->o->ib_port);
		return -1;
	}
	inet_ntop(AF_INET6, b->gid.raw, gs, sizeof(gs));
	info("%s port %u GID %u %s MTU %d", b->o->dev, b->o->ib_port,
	     b->o->gid_idx, gs, mtu_bytes(b->mtu));
	return 0;
}

int setup(struct bench *b)
{
	struct mrc_device_attr da = { 0 };
	struct mrc_context_attr ca = {
		.mrc_api_version_used = MRC_API_CURRENT_VERSION,
	};
	struct mrc_qp_init_attr qa = { 0 };
	struct ibv_qp_attr va = { 0 };
	struct mrc_qp_attr ma = { 0 };
	size_t len = b->o->max_size + SIG_BYTES;
	int supported = 0, access, rc, mmask;

	if (open_device(b))
		return -1;
	if (mrc_query_device(b->ibv, &da, &supported)) {
		err("mrc_query_device %s: %s", b->o->dev, strerror(errno));
		return -1;
	}
	if (!supported) {
		err("%s is not an MRC device (mrc_query_device)", b->o->dev);
		return -1;
	}
	if (query_port(b))
		return -1;
	dbg("MRC protocols 0x%x, cap 0x%x, max WRITE_WITH_IMM %u/%u",
	    da.mrc_protocol_version, da.cap, da.wimm_attr.max_wimm,
	    da.wimm_attr.max_wimm_dest);

	b->mctx = mrc_create_context(b->ibv, &ca);
	if (!b->mctx) {
		err("mrc_create_context: %s", strerror(errno));
		return -1;
	}
	b->pd = ibv_alloc_pd(b->ibv);
	if (!b->pd) {
		err("ibv_alloc_pd: %s", strerror(errno));
		return -1;
	}
	b->scq = mrc_create_cq(b->mctx, SEND_CQE, NULL, NULL, 0);
	b->rcq = b->scq ? mrc_create_cq(b->mctx, RECV_CQE, NULL, NULL, 0) : NULL;
	if (!b->rcq) {
		err("mrc_create_cq: %s", strerror(errno));
		return -1;
	}

	qa.send_cq = b->scq;
	qa.recv_cq = b->rcq;
	qa.pd = b->pd;
	qa.cap.max_send_wr = TX_DEPTH;
	qa.cap.max_recv_wr = 1;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 1;
	qa.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
			    IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
	qa.protocol_version = MRC_PROTOCOL_VERSION_0;	/* the provider's */
	b->qp = mrc_create_qp(b->mctx, &qa);
	if (!b->qp) {
		err("mrc_create_qp: %s", strerror(errno));
		return -1;
	}
	rc = mrc_get_qpn(b->qp, &b->qpn);
	if (rc) {
		err("mrc_get_qpn: %s", rc_str(rc));
		return -1;
	}

	rc = posix_memalign((void **)&b->buf, sysconf(_SC_PAGESIZE), len);
	if (rc) {
		b->buf = NULL;
		err("a %zu byte buffer: %s", len, strerror(rc));
		return -1;
	}
	memset(b->buf, 0, len);
	/* only the server's buffer is written from the wire */
	access = IBV_ACCESS_LOCAL_WRITE;
	if (b->server)
		access |= IBV_ACCESS_REMOTE_WRITE;
	b->mr = ibv_reg_mr(b->pd, b->buf, len, access);
	if (!b->mr) {
		err("ibv_reg_mr of %zu bytes: %s", len, strerror(errno));
		return -1;
	}

	/*
	 * libmrc supplies the port and P_Key index itself. The profiles a
	 * controller set up come out of band: here from the environment, as
	 * in OCP's QP walkthrough
	 */
	va.qp_state = IBV_QPS_INIT;
	va.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	mmask = 0;
	if (env_id("MRC_QP_EV_PROFILE_ID", &ma.profile.ev_profile_id))
		mmask |= MRC_QP_EV_PROFILE_ID;
	if (env_id("MRC_QP_CC_PROFILE_ID", &ma.profile.cc_profile_id))
		mmask |= MRC_QP_CC_PROFILE_ID;
	rc = mrc_modify_qp(b->qp, &va, IBV_QP_STATE | IBV_QP_ACCESS_FLAGS,
			   &ma, mmask);
	if (rc) {
		err("mrc_modify_qp to INIT: %s", rc_str(rc));
		return -1;
	}
	b->psn = lrand48() & 0xffffff;
	return 0;
}

int exchange(struct bench *b)
{
	struct opts *o = b->o;
	struct wire_info me = {
		.magic = htonl(WIRE_MAGIC), .version = htonl(WIRE_VERSION),
		.qpn = htonl(b->qpn), .psn = htonl(b->psn),
		.rkey = htonl(b->mr->rkey), .mtu = htonl(b->mtu),
		.addr = htobe64((uintptr_t)b->buf),
		.min_size = htobe64(o->min_size),
		.max_size = htobe64(o->max_size), .step = htobe64(o->step),
		.iters = htonl(o->iters),
	};
	struct wire_info w;
	struct wire_info *p = &b->peer;

	memcpy(me.gid, b->gid.raw, sizeof(me.gid));
	if (xfer(b->sock, &me, sizeof(me), true) ||
	    xfer(b->sock, &w, sizeof(w), false))
		return -1;
	if (ntohl(w.magic) != WIRE_MAGIC || ntohl(w.version) != WIRE_VERSION) {
		err("the peer is not %s (version %d)", PROG, WIRE_VERSION);
		return -1;
	}
	*p = (struct wire_info){
		.qpn = ntohl(w.qpn), .psn = ntohl(w.psn), .rkey = ntohl(w.rkey),
		.mtu = ntohl(w.mtu), .addr = be64toh(w.addr),
		.min_size = be64toh(w.min_size),
		.max_size = be64toh(w.max_size), .step = be64toh(w.step),
		.iters = ntohl(w.iters),
	};
	memcpy(b->peer_gid.raw, w.gid, sizeof(w.gid));

	if (p->min_size != o->min_size || p->max_size != o->max_size ||
	    p->step != o->step || p->iters != o->iters) {
		err("the two sides differ: here -S %llu -s %llu -F %llu -n %u, "
		    "there -S %llu -s %llu -F %llu -n %u",
		    (unsigned long long)o->min_size,
		    (unsigned long long)o->max_size,
		    (unsigned long long)o->step, o->iters,
		    (unsigned long long)p->min_size,
		    (unsigned long long)p->max_size,
		    (unsigned long long)p->step, p->iters);
		return -1;
	}
	if (p->mtu < IBV_MTU_256 || p->mtu > IBV_MTU_4096) {
		err("the peer sent MTU %u", p->mtu);
		return -1;
	}
	/* both ends of the path use the smaller of the two MTUs */
	if (p->mtu < b->mtu)
		b->mtu = p->mtu;
	dbg("peer QPN 0x%x PSN 0x%x rkey 0x%x addr 0x%llx", p->qpn, p->psn,
	    p->rkey, (unsigned long long)p->addr);
	return 0;
}

int connect_qp(struct bench *b)
{
	struct ibv_qp_attr va = { 0 };
	struct mrc_qp_attr ma = { 0 };
	int rc;

	va.qp_state = IBV_QPS_RTR;
	va.path_mtu = b->mtu;
	va.dest_qp_num = b->peer.qpn;
	va.rq_psn = b->peer.psn;
	va.ah_attr.is_global = 1;
	va.ah_attr.grh.dgid = b->peer_gid;
	va.ah_attr.grh.sgid_index = b->o->gid_idx;
	va.ah_attr.grh.hop_limit = 64;
	va.ah_attr.port_num = b->o->ib_port;
	rc = mrc_modify_qp(b->qp, &va, IBV_QP_STATE | IBV_QP_AV |
			   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_PATH_MTU,
			   &ma, 0);
	if (rc) {
		err("mrc_modify_qp to RTR: %s", rc_str(rc));
		return -1;
	}

	/* MRC's own timeout and retries, not IBV_QP_TIMEOUT / RETRY_CNT */
	memset(&va, 0, sizeof(va));
	va.qp_state = IBV_QPS_RTS;
	va.sq_psn = b->psn;
	ma.timeout = QP_TIMEOUT;
	ma.retry.linear_cnt = QP_RETRY_LINEAR;
	ma.retry.exp_cnt = QP_RETRY_EXP;
	rc = mrc_modify_qp(b->qp, &va, IBV_QP_STATE | IBV_QP_SQ_PSN,
			   &ma, MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT);
	if (rc) {
		err("mrc_modify_qp to RTS: %s", rc_str(rc));
		return -1;
	}
	info("QP 0x%x connected to QP 0x%x, MTU %d", b->qpn, b->peer.qpn,
	     mtu_bytes(b->mtu));
	return 0;
}

void teardown(struct bench *b)
{
	int rc;

	/* each object before the one it was made from */
	if (b->qp && (rc = mrc_destroy_qp(b->qp)))
		warn("mrc_destroy_qp: %s", rc_str(rc));
	if (b->rcq && (rc = mrc_destroy_cq(b->rcq)))
		warn("mrc_destroy_cq: %s", rc_str(rc));
	if (b->scq && (rc = mrc_destroy_cq(b->scq)))
		warn("mrc_destroy_cq: %s", rc_str(rc));
	if (b->mr && (rc = ibv_dereg_mr(b->mr)))
		warn("ibv_dereg_mr: %s", rc_str(rc));
	if (b->pd && (rc = ibv_dealloc_pd(b->pd)))
		warn("ibv_dealloc_pd: %s", rc_str(rc));
	if (b->mctx && (rc = mrc_destroy_context(b->mctx)))
		warn("mrc_destroy_context: %s", rc_str(rc));
	if (b->ibv && (rc = ibv_close_device(b->ibv)))
		warn("ibv_close_device: %s", rc_str(rc));
	if (b->devs)
		ibv_free_device_list(b->devs);
	free(b->buf);
	if (b->sock >= 0)
		close(b->sock);
}
