// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test, sections 7-9, 12: loopback traffic, misuse, teardown; async events */
#include "api.h"

/* ---- 7, 8, 12. loopback traffic, misuse of a connected QP, teardown -------- */

/* a byte of the traffic's pattern, that no shift of the data matches */
static uint8_t pattern(size_t i)
{
	uint32_t x = (uint32_t)i * 2654435761u;

	return (uint8_t)(x >> 24 ^ x >> 11 ^ i);
}

static const char *wc_str(const struct ibv_wc *wc)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "wr_id %llu status %s opcode %d",
		 (unsigned long long)wc->wr_id, ibv_wc_status_str(wc->status),
		 wc->opcode);
	return buf;
}

struct pair {
	struct mrc_comp_channel *ch;
	struct mrc_cq *scqa, *rcqa, *cqb;
	struct mrc_qp_hint *hint;
	struct mrc_qp *a, *b;
	uint32_t qpna, qpnb;
	uint8_t *bufa, *bufb, *rbuf;
	struct ibv_mr *mra, *mrb, *mrr;
	int tag_scqa;
	int tag_qpa;
};

/* RESET -> INIT -> RTR -> RTS of A, with wrong attributes at each step */
static bool connect_a(struct env *e, struct pair *p)
{
	struct ibv_qp_attr va = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr ma = {};

	ma.timeout = 20;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_TIMEOUT), EINVAL,
	     "mrc_modify_qp to INIT with MRC_QP_TIMEOUT (an RTS attribute): EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.profile.ev_profile_id = 5;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_EV_PROFILE_ID),
	     EINVAL, "mrc_modify_qp to INIT with EV profile 5 (unknown): EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.profile.cc_profile_id = 3;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_CC_PROFILE_ID),
	     EINVAL, "mrc_modify_qp to INIT with CC profile 3 (unknown): EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.vendor_cfg[0] = 1;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_VENDOR_CFG),
	     EINVAL, "mrc_modify_qp to INIT with non-empty vendor_cfg: EINVAL");
	va.port_num = 2;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE | IBV_QP_PORT, NULL, 0), EINVAL,
	     "mrc_modify_qp to INIT with IBV_QP_PORT 2: EINVAL");
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, NULL, MRC_QP_HINT), EINVAL,
	     "mrc_modify_qp: MRC mask without MRC attributes: EINVAL");
	T_TRUE(qp_state(p->a) == IBV_QPS_RESET,
	       "the QP is still in RESET after the failed transitions");
	if (!T_RC(qp_init(p->a, p->hint), 0,
		  "mrc_modify_qp to INIT with MRC_QP_HINT, EV and CC profile 0"))
		return false;

	memset(&ma, 0, sizeof(ma));
	va = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTR };
	ma.cap = MRC_QP_CAP_DYNAMIC_MPR;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_CAP), EINVAL,
	     "mrc_modify_qp to RTR with MRC_QP_CAP_DYNAMIC_MPR: EINVAL");
	ma.cap = 1 << 7;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_CAP), EINVAL,
	     "mrc_modify_qp to RTR with an unknown MRC_QP_CAP bit: EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.wimm.max_wimm_dest = 16;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_MAX_WIMM_DEST),
	     EINVAL, "mrc_modify_qp to RTR with MRC_QP_MAX_WIMM_DEST 16: EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.mpr.mpr_dest = 4;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_MPR_DEST), EINVAL,
	     "mrc_modify_qp to RTR with MRC_QP_MPR_DEST 4: EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.mpr.mpr = 8;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE, &ma, MRC_QP_MPR), EINVAL,
	     "mrc_modify_qp to RTR with MRC_QP_MPR (an RTS attribute): EINVAL");
	T_TRUE(qp_state(p->a) == IBV_QPS_INIT,
	       "the QP is still in INIT after the failed transitions");
	if (!T_RC(qp_rtr(e, p->a, p->qpnb), 0,
		  "mrc_modify_qp to RTR with MPR_DEST 8, MAX_WIMM_DEST 0, CAP TRIM_NACK_DEST_UNSUPPORTED"))
		return false;

	memset(&ma, 0, sizeof(ma));
	va = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS };
	ma.timeout = 25;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE | IBV_QP_SQ_PSN, &ma,
			   MRC_QP_TIMEOUT), EINVAL,
	     "mrc_modify_qp to RTS with MRC_QP_TIMEOUT 25: EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.qp_hint = p->hint;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_STATE | IBV_QP_SQ_PSN, &ma,
			   MRC_QP_HINT), EINVAL,
	     "mrc_modify_qp to RTS with MRC_QP_HINT (an INIT attribute): EINVAL");
	T_TRUE(qp_state(p->a) == IBV_QPS_RTR,
	       "the QP is still in RTR after the failed transitions");
	return T_RC(qp_rts(p->a), 0,
		    "mrc_modify_qp to RTS with TIMEOUT 20, RETRY_CNT {7, 0}, MPR 8");
}

static bool connect_b(struct env *e, struct pair *p)
{
	return T_RC(qp_init(p->b, p->hint), 0, "B to INIT (IBV_QP_PORT 1 given)") &&
	       T_RC(qp_rtr(e, p->b, p->qpna), 0, "B to RTR") &&
	       T_RC(qp_rts(p->b), 0, "B to RTS");
}

/* the attributes A was connected with, as mrc_query_qp reports them */
static void check_a_attrs(struct pair *p, const char *when)
{
	struct ibv_qp_attr va;
	struct mrc_qp_attr ma;
	int rc;

	memset(&va, 0, sizeof(va));
	memset(&ma, 0x5a, sizeof(ma));
	rc = mrc_query_qp(p->a, &va, IBV_QP_STATE | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN,
			  &ma, MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT | MRC_QP_CAP |
			  MRC_QP_HINT | MRC_QP_MPR | MRC_QP_MPR_DEST |
			  MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID, NULL);
	if (!T_RC(rc, 0, "mrc_query_qp of A %s", when))
		return;
	T_TRUE(ma.timeout == 20 && ma.retry.linear_cnt == 7 &&
	       ma.retry.exp_cnt == 0,
	       "mrc_query_qp %s: timeout 20, retry {7, 0} (%u, {%u, %u})", when,
	       ma.timeout, ma.retry.linear_cnt, ma.retry.exp_cnt);
	T_TRUE(ma.cap == MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED &&
	       ma.qp_hint == p->hint && ma.mpr.mpr == 8 &&
	       ma.mpr.mpr_dest == 8 && ma.profile.ev_profile_id == 0 &&
	       ma.profile.cc_profile_id == 0,
	       "mrc_query_qp %s: cap, hint, MPR 8/8, profiles 0", when);
	T_TRUE(va.qp_state == IBV_QPS_RTS && va.timeout == 18 &&
	       va.retry_cnt == 7,
	       "mrc_query_qp %s: verbs state RTS, timeout 18 (20 - 2), retry_cnt 7 (%d, %u, %u)",
	       when, va.qp_state, va.timeout, va.retry_cnt);
	T_TRUE(va.path_mtu == IBV_MTU_1024 && va.dest_qp_num == p->qpnb,
	       "mrc_query_qp %s: path MTU 1024, destination B", when);
}

/* the 1 MiB of WRITEs and the WRITE_WITH_IMM, A to B */
static void traffic(struct pair *p)
{
	struct ibv_send_wr wr[NCHUNK + 1], *bad = NULL;
	struct ibv_sge sge[NCHUNK + 1], rsge;
	struct ibv_recv_wr rwr, *rbad = NULL;
	struct ibv_wc wc[NCHUNK + 1];
	struct mrc_cq *got = NULL;
	void *gotc = NULL;
	int i, n, fd = -1;
	size_t off;
	bool ok;

	for (off = 0; off < BUF_LEN; off++)
		p->bufa[off] = pattern(off);
	memset(p->bufb, 0, BUF_LEN);

	rsge = (struct ibv_sge){ (uintptr_t)p->rbuf, 64, p->mrr->lkey };
	rwr = (struct ibv_recv_wr){ .wr_id = 0xb0, .sg_list = &rsge, .num_sge = 1 };
	T_RC(mrc_post_recv(p->b, &rwr, &rbad), 0, "mrc_post_recv on B");

	T_RC(mrc_req_notify_cq(p->scqa, 0), 0, "mrc_req_notify_cq on A's send CQ");
	for (i = 0; i <= NCHUNK; i++) {
		off = (size_t)i * CHUNK;
		sge[i] = (struct ibv_sge){ (uintptr_t)(p->bufa + off),
					   i < NCHUNK ? CHUNK : IMM_LEN,
					   p->mra->lkey };
		wr[i] = (struct ibv_send_wr){
			.wr_id = 100 + i,
			.next = i < NCHUNK ? &wr[i + 1] : NULL,
			.sg_list = &sge[i],
			.num_sge = 1,
			.opcode = i < NCHUNK ? IBV_WR_RDMA_WRITE :
					       IBV_WR_RDMA_WRITE_WITH_IMM,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = { (uintptr_t)(p->bufb + off), p->mrb->rkey },
		};
	}
	wr[NCHUNK].imm_data = htonl(IMM_VALUE);
	if (!T_RC(mrc_post_send(p->a, wr, &bad), 0,
		  "mrc_post_send of %d WRITEs (1 MiB) and a WRITE_WITH_IMM", NCHUNK))
		return;

	mrc_get_comp_channel_fd(p->ch, &fd);
	if (T_TRUE(fd_wait(fd, WAIT_MS), "the channel's fd becomes readable")) {
		T_TRUE(!mrc_get_cq_event(p->ch, &got, &gotc) && got == p->scqa &&
		       gotc == &p->tag_scqa,
		       "mrc_get_cq_event: A's send CQ and its cq_context");
		if (got == p->scqa)
			mrc_ack_cq_events(p->scqa, 1);
		report(true, "mrc_ack_cq_events of the event");
	}

	n = cq_wait(p->scqa, wc, NCHUNK + 1, WAIT_MS);
	T_TRUE(n == NCHUNK + 1, "A's send CQ: %d completions (%d)", NCHUNK + 1, n);
	ok = n == NCHUNK + 1;
	for (i = 0; i < n && i <= NCHUNK; i++) {
		if (wc[i].status != IBV_WC_SUCCESS ||
		    wc[i].opcode != IBV_WC_RDMA_WRITE ||
		    wc[i].wr_id != 100u + i || wc[i].qp_num != p->qpna) {
			diag("completion %d: %s qp %u", i, wc_str(&wc[i]),
			     wc[i].qp_num);
			ok = false;
		}
	}
	report(ok, "A's completions: in order, SUCCESS, opcode RDMA_WRITE, A's QP number");

	n = cq_wait(p->cqb, wc, 1, WAIT_MS);
	if (T_TRUE(n == 1, "B's CQ: the receive completed")) {
		if (wc[0].status != IBV_WC_SUCCESS)
			diag("%s", wc_str(&wc[0]));
		T_TRUE(wc[0].status == IBV_WC_SUCCESS &&
		       wc[0].opcode == IBV_WC_RECV_RDMA_WITH_IMM &&
		       wc[0].wr_id == 0xb0 && wc[0].qp_num == p->qpnb,
		       "B's completion: SUCCESS, RECV_RDMA_WITH_IMM, its wr_id and QP");
		T_TRUE((wc[0].wc_flags & IBV_WC_WITH_IMM) &&
		       ntohl(wc[0].imm_data) == IMM_VALUE,
		       "B's completion: the immediate 0x%x (0x%x)", IMM_VALUE,
		       ntohl(wc[0].imm_data));
		T_TRUE(wc[0].byte_len == IMM_LEN,
		       "B's completion: byte_len %d (%u)", IMM_LEN, wc[0].byte_len);
	}
	for (off = 0; off < TAIL && p->bufb[off] == p->bufa[off]; off++)
		;
	if (off < TAIL)
		diag("first difference at byte %zu: 0x%02x, expected 0x%02x",
		     off, p->bufb[off], p->bufa[off]);
	report(off == TAIL, "every byte of the %d written is at B", TAIL);
	for (off = TAIL; off < BUF_LEN && !p->bufb[off]; off++)
		;
	report(off == BUF_LEN, "nothing written at B past them");
	T_RC(mrc_poll_cq(p->scqa, 1, wc), 0, "no more completions on A");
}

static void misuse(struct pair *p)
{
	static const struct { enum ibv_wr_opcode op; const char *name; } bad_ops[] = {
		{ IBV_WR_SEND, "SEND" },
		{ IBV_WR_SEND_WITH_IMM, "SEND_WITH_IMM" },
		{ IBV_WR_RDMA_READ, "RDMA_READ" },
		{ IBV_WR_ATOMIC_FETCH_AND_ADD, "ATOMIC_FETCH_AND_ADD" },
		{ IBV_WR_ATOMIC_CMP_AND_SWP, "ATOMIC_CMP_AND_SWP" },
	};
	struct ibv_send_wr w1, w2, *bad;
	struct ibv_recv_wr rw, *rbad;
	struct ibv_sge s1, s2, rs[4];
	struct ibv_qp_attr va;
	struct mrc_qp_attr ma;
	struct mrc_qp_init_attr gi;
	struct ibv_wc wc;
	unsigned int i;
	size_t off;
	int rc;

	s1 = (struct ibv_sge){ (uintptr_t)(p->bufa + TAIL + 1024), 64, p->mra->lkey };
	w1 = (struct ibv_send_wr){
		.wr_id = 0xdead,
		.sg_list = &s1,
		.num_sge = 1,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { (uintptr_t)(p->bufb + TAIL + 1024), p->mrb->rkey },
	};
	for (i = 0; i < sizeof(bad_ops) / sizeof(bad_ops[0]); i++) {
		w1.opcode = bad_ops[i].op;
		if (bad_ops[i].op == IBV_WR_ATOMIC_FETCH_AND_ADD ||
		    bad_ops[i].op == IBV_WR_ATOMIC_CMP_AND_SWP)
			w1.wr.atomic = (typeof(w1.wr.atomic)){
				(uintptr_t)(p->bufb + TAIL + 1024), 1, 0,
				p->mrb->rkey };
		bad = NULL;
		rc = mrc_post_send(p->a, &w1, &bad);
		if (rc != EINVAL || bad != &w1)
			diag("returned %d, bad_wr %p (the WR %p)", rc,
			     (void *)bad, (void *)&w1);
		report(rc == EINVAL && bad == &w1,
		       "mrc_post_send of %s: EINVAL, bad_wr the WR",
		       bad_ops[i].name);
	}
	w1.opcode = IBV_WR_RDMA_WRITE;
	w1.wr.rdma.remote_addr = (uintptr_t)(p->bufb + TAIL + 1024);
	w1.wr.rdma.rkey = p->mrb->rkey;
	s2 = (struct ibv_sge){ (uintptr_t)(p->bufa + TAIL + 2048), 64, p->mra->lkey };
	w2 = (struct ibv_send_wr){
		.wr_id = 0xbeef,
		.sg_list = &s2,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_READ,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { (uintptr_t)(p->bufb + TAIL + 2048), p->mrb->rkey },
	};
	w1.next = &w2;
	bad = NULL;
	rc = mrc_post_send(p->a, &w1, &bad);
	T_TRUE(rc == EINVAL && bad == &w2,
	       "mrc_post_send of [WRITE, READ]: EINVAL, bad_wr the READ (%d)", rc);
	sleep_ms(QUIET_MS);
	T_RC(mrc_poll_cq(p->scqa, 1, &wc), 0,
	     "... and the WRITE before it was not posted: no completion");
	for (off = TAIL + 1024; off < TAIL + 1024 + 64 && !p->bufb[off]; off++)
		;
	report(off == TAIL + 1024 + 64, "... nor written at B");

	/* more SGEs than the receive queue takes: like ibv_post_recv */
	memset(&gi, 0, sizeof(gi));
	mrc_query_qp(p->b, NULL, 0, NULL, 0, &gi);
	memset(rs, 0, sizeof(rs));
	for (i = 0; i < 4; i++)
		rs[i] = (struct ibv_sge){ (uintptr_t)p->rbuf, 8, p->mrr->lkey };
	rw = (struct ibv_recv_wr){ .wr_id = 0xbad, .sg_list = rs,
				   .num_sge = (int)gi.cap.max_recv_sge + 1 };
	rbad = NULL;
	if (gi.cap.max_recv_sge < 4) {
		rc = mrc_post_recv(p->b, &rw, &rbad);
		T_TRUE(rc != 0 && rbad == &rw,
		       "mrc_post_recv of more SGEs than max_recv_sge: refused, bad_wr the WR (%d)",
		       rc);
	}

	/* mrc_modify_qp on the connected QP: RTS to RTS */
	memset(&ma, 0, sizeof(ma));
	ma.timeout = 25;
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_TIMEOUT), EINVAL,
	     "mrc_modify_qp in RTS: MRC_QP_TIMEOUT 25: EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.retry.linear_cnt = 7;
	ma.retry.exp_cnt = 26;
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_RETRY_CNT), EINVAL,
	     "mrc_modify_qp in RTS: retry exp_cnt 26: EINVAL");
	ma.retry.linear_cnt = 8;
	ma.retry.exp_cnt = 0;
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_RETRY_CNT), EINVAL,
	     "mrc_modify_qp in RTS: retry linear_cnt 8: EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.mpr.mpr = 4;
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_MPR), EINVAL,
	     "mrc_modify_qp in RTS: MRC_QP_MPR 4: EINVAL");
	ma.mpr.mpr = 16;
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_MPR), EINVAL,
	     "mrc_modify_qp in RTS: MRC_QP_MPR 16 (above max_mpr): EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.wimm.max_wimm = 16;
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_MAX_WIMM), EINVAL,
	     "mrc_modify_qp in RTS: MRC_QP_MAX_WIMM 16: EINVAL");
	memset(&ma, 0, sizeof(ma));
	ma.cap = MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED;
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_CAP), EINVAL,
	     "mrc_modify_qp in RTS: MRC_QP_CAP (an RTR attribute): EINVAL");
	ma.cap = 0;
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_EV_PROFILE_ID), EINVAL,
	     "mrc_modify_qp in RTS: MRC_QP_EV_PROFILE_ID (an INIT attribute): EINVAL");
	T_RC(mrc_modify_qp(p->a, NULL, 0, &ma, 1 << 12), EINVAL,
	     "mrc_modify_qp: unknown MRC mask bit: EINVAL");
	memset(&va, 0, sizeof(va));
	va.max_rd_atomic = 1;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_MAX_QP_RD_ATOMIC, NULL, 0), EINVAL,
	     "mrc_modify_qp: IBV_QP_MAX_QP_RD_ATOMIC: EINVAL");
	va.max_dest_rd_atomic = 1;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_MAX_DEST_RD_ATOMIC, NULL, 0), EINVAL,
	     "mrc_modify_qp: IBV_QP_MAX_DEST_RD_ATOMIC: EINVAL");
	va.path_mig_state = IBV_MIG_MIGRATED;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_PATH_MIG_STATE, NULL, 0), EINVAL,
	     "mrc_modify_qp: IBV_QP_PATH_MIG_STATE: EINVAL");
	va.port_num = 2;
	T_RC(mrc_modify_qp(p->a, &va, IBV_QP_PORT, NULL, 0), EINVAL,
	     "mrc_modify_qp: IBV_QP_PORT 2: EINVAL");
	T_RC(mrc_modify_qp(p->a, NULL, IBV_QP_STATE, NULL, 0), EINVAL,
	     "mrc_modify_qp: verbs mask without attributes: EINVAL");
	T_RC(mrc_modify_qp(NULL, &va, 0, NULL, 0), EINVAL,
	     "mrc_modify_qp(NULL QP): EINVAL");
	check_a_attrs(p, "after the failed modifies");

	/*
	 * MRC_QP_TIMEOUT and MRC_QP_RETRY_CNT are RTS attributes; an RTS to
	 * RTS modify that takes them must put them in force (or refuse
	 * them), not only record them for mrc_query_qp.
	 */
	memset(&ma, 0, sizeof(ma));
	ma.timeout = 18;
	rc = mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_TIMEOUT);
	memset(&va, 0, sizeof(va));
	memset(&ma, 0, sizeof(ma));
	mrc_query_qp(p->a, &va, IBV_QP_TIMEOUT, &ma, MRC_QP_TIMEOUT, NULL);
	if (rc == 0 && va.timeout + 2 != ma.timeout)
		diag("accepted: mrc_query_qp says timeout %u, the verbs QP has IB %u (OCP %u)",
		     ma.timeout, va.timeout, va.timeout + 2);
	report(rc == EINVAL || (rc == 0 && va.timeout == 16 && ma.timeout == 18),
	       "mrc_modify_qp in RTS of MRC_QP_TIMEOUT 18: refused, or in force on the QP (%d)",
	       rc);
	ma.timeout = 20;
	mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_TIMEOUT);
	memset(&ma, 0, sizeof(ma));
	ma.retry.linear_cnt = 2;
	rc = mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_RETRY_CNT);
	memset(&va, 0, sizeof(va));
	memset(&ma, 0, sizeof(ma));
	mrc_query_qp(p->a, &va, IBV_QP_RETRY_CNT, &ma, MRC_QP_RETRY_CNT, NULL);
	if (rc == 0 && va.retry_cnt != ma.retry.linear_cnt + ma.retry.exp_cnt)
		diag("accepted: mrc_query_qp says retry {%u, %u}, the verbs QP has retry_cnt %u",
		     ma.retry.linear_cnt, ma.retry.exp_cnt, va.retry_cnt);
	report(rc == EINVAL || (rc == 0 && va.retry_cnt == 2),
	       "mrc_modify_qp in RTS of MRC_QP_RETRY_CNT {2, 0}: refused, or in force on the QP (%d)",
	       rc);
	ma.retry.linear_cnt = 7;
	ma.retry.exp_cnt = 0;
	mrc_modify_qp(p->a, NULL, 0, &ma, MRC_QP_RETRY_CNT);
}

/* after the misuse, A still sends: an inline WRITE */
static void still_works(struct pair *p)
{
	struct ibv_sge s = { (uintptr_t)(p->bufa + TAIL), INLINE_LEN, p->mra->lkey };
	struct ibv_send_wr w = {
		.wr_id = 0x1e,
		.sg_list = &s,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE,
		.wr.rdma = { (uintptr_t)(p->bufb + TAIL), p->mrb->rkey },
	}, *bad = NULL;
	struct ibv_wc wc;

	if (!T_RC(mrc_post_send(p->a, &w, &bad), 0,
		  "mrc_post_send of an inline WRITE after the misuse"))
		return;
	T_TRUE(cq_wait(p->scqa, &wc, 1, WAIT_MS) == 1 &&
	       wc.status == IBV_WC_SUCCESS && wc.wr_id == 0x1e &&
	       wc.opcode == IBV_WC_RDMA_WRITE,
	       "its completion: SUCCESS");
	T_TRUE(!memcmp(p->bufb + TAIL, p->bufa + TAIL, INLINE_LEN),
	       "its data is at B");
}

void t_traffic(struct env *e)
{
	struct pair p = { 0 };
	struct mrc_qp_hint_init_attr hia = { .attr = { 1, 1, 1, {0} } };
	int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;

	begin("loopback traffic between two QPs of the device");
	if (!report(e->have_gid, "a RoCE v2 GID of an IPv4 address on port 1"))
		return;
	p.bufa = aligned_alloc(4096, BUF_LEN);
	p.bufb = aligned_alloc(4096, BUF_LEN);
	p.rbuf = aligned_alloc(4096, 4096);
	if (!p.bufa || !p.bufb || !p.rbuf)
		goto out;
	memset(p.bufb, 0, BUF_LEN);
	p.mra = ibv_reg_mr(e->pd, p.bufa, BUF_LEN, acc);
	p.mrb = ibv_reg_mr(e->pd, p.bufb, BUF_LEN, acc);
	p.mrr = ibv_reg_mr(e->pd, p.rbuf, 4096, acc);
	if (!report(p.mra && p.mrb && p.mrr, "ibv_reg_mr of the buffers"))
		goto out;
	if (mrc_create_comp_channel(e->ctx, &p.ch)) {
		report(false, "mrc_create_comp_channel: %s", strerror(errno));
		goto out;
	}
	p.scqa = mrc_create_cq(e->ctx, CQE, &p.tag_scqa, p.ch, 0);
	p.rcqa = mrc_create_cq(e->ctx, CQE, NULL, NULL, 0);
	p.cqb = mrc_create_cq(e->ctx, CQE, NULL, NULL, 0);
	p.hint = mrc_create_qp_hint(e->ctx, &hia);
	if (!report(p.scqa && p.rcqa && p.cqb && p.hint,
		    "CQs (one on a channel) and a hint for A and B"))
		goto out;
	p.a = qp_new(e, e->ctx, p.scqa, p.rcqa, &p.tag_qpa);
	p.b = qp_new(e, e->ctx, p.cqb, p.cqb, NULL);
	if (!report(p.a && p.b, "QPs A and B"))
		goto out;
	p.qpna = qpn_of(p.a);
	p.qpnb = qpn_of(p.b);
	diag("A is QP %u, B is QP %u", p.qpna, p.qpnb);
	if (!connect_a(e, &p) || !connect_b(e, &p))
		goto out;
	T_ERRNO(mrc_destroy_qp_hint(p.hint), EBUSY,
		"mrc_destroy_qp_hint while QPs name it: EBUSY");
	check_a_attrs(&p, "after connecting");

	traffic(&p);
	misuse(&p);
	still_works(&p);

	/* 12. teardown in the wrong order */
	T_RC(mrc_destroy_cq(p.scqa), EBUSY,
	     "mrc_destroy_cq of a CQ a QP uses: EBUSY");
	T_RC(mrc_destroy_cq(p.cqb), EBUSY,
	     "mrc_destroy_cq of a CQ a QP uses for both queues: EBUSY");
	T_RC(mrc_destroy_comp_channel(p.ch), EBUSY,
	     "mrc_destroy_comp_channel of a channel a CQ uses: EBUSY");
	T_RC(mrc_destroy_qp(p.a), 0, "mrc_destroy_qp of A");
	p.a = NULL;
	T_ERRNO(mrc_destroy_qp_hint(p.hint), EBUSY,
		"mrc_destroy_qp_hint while B still names it: EBUSY");
	T_RC(mrc_destroy_cq(p.scqa), 0, "mrc_destroy_cq of A's send CQ once A is gone");
	p.scqa = NULL;
	T_RC(mrc_destroy_cq(p.rcqa), 0, "mrc_destroy_cq of A's recv CQ");
	p.rcqa = NULL;
	T_RC(mrc_destroy_cq(p.cqb), EBUSY, "mrc_destroy_cq of B's CQ: still EBUSY");
	T_RC(mrc_destroy_comp_channel(p.ch), 0,
	     "mrc_destroy_comp_channel once its CQ is gone");
	p.ch = NULL;
	T_RC(mrc_destroy_qp(p.b), 0, "mrc_destroy_qp of B");
	p.b = NULL;
	T_RC(mrc_destroy_qp_hint(p.hint), 0,
	     "mrc_destroy_qp_hint once no QP names it");
	p.hint = NULL;
	T_RC(mrc_destroy_cq(p.cqb), 0, "mrc_destroy_cq of B's CQ once B is gone");
	p.cqb = NULL;
out:
	if (p.a)
		mrc_destroy_qp(p.a);
	if (p.b)
		mrc_destroy_qp(p.b);
	if (p.hint)
		mrc_destroy_qp_hint(p.hint);
	if (p.scqa)
		mrc_destroy_cq(p.scqa);
	if (p.rcqa)
		mrc_destroy_cq(p.rcqa);
	if (p.cqb)
		mrc_destroy_cq(p.cqb);
	if (p.ch)
		mrc_destroy_comp_channel(p.ch);
	if (p.mra)
		ibv_dereg_mr(p.mra);
	if (p.mrb)
		ibv_dereg_mr(p.mrb);
	if (p.mrr)
		ibv_dereg_mr(p.mrr);
	free(p.bufa);
	free(p.bufb);
	free(p.rbuf);
}

/* ---- 9. async events -------------------------------------------------------- */

/* the next event within @ms: 0, or -1 */
static int async_wait(struct env *e, struct mrc_async_event *ev, int ms)
{
	if (!fd_wait(e->vctx->async_fd, ms))
		return -1;
	return mrc_get_async_event(e->ctx, ev);
}

void t_async(struct env *e)
{
	struct mrc_qp *c = NULL, *d = NULL;
	struct mrc_cq *scq = NULL, *rcq = NULL, *dcq = NULL;
	struct ibv_mr *mr = NULL, *mro = NULL;
	struct mrc_async_event ev;
	struct ibv_send_wr wr[8], *bad;
	struct ibv_sge sge[8];
	struct ibv_wc wc[8];
	uint8_t *buf = NULL;
	int i, r, nev = 0, nwc = 0, other = 0;
	bool fatal_c = false, fatal_d = false;
	double end;

	begin("async events");
	T_ERRNO(mrc_get_async_event(NULL, &ev), EINVAL,
		"mrc_get_async_event: NULL context: EINVAL");
	T_ERRNO(mrc_get_async_event(e->ctx, NULL), EINVAL,
		"mrc_get_async_event: NULL event: EINVAL");
	mrc_ack_async_event(NULL);
	report(true, "mrc_ack_async_event(NULL) is harmless");
	if (!T_TRUE(set_nonblock(e->vctx->async_fd) == 0,
		    "the verbs context's async fd made non-blocking"))
		return;
	/* the port's own events (the link coming up) are not this test's */
	while (!mrc_get_async_event(e->ctx, &ev)) {
		diag("an earlier event: %s", ibv_event_type_str(ev.event_type));
		mrc_ack_async_event(&ev);
	}
	T_ERRNO(mrc_get_async_event(e->ctx, &ev), EAGAIN,
		"mrc_get_async_event without an event, non-blocking: EAGAIN");
	if (!e->have_gid)
		return;

	/*
	 * IBV_EVENT_CQ_ERR: C's send CQ holds one completion; 8 signaled
	 * WRITEs overrun it, each completion that finds it full is one event
	 */
	buf = aligned_alloc(4096, 8192);
	if (buf)
		memset(buf, 0x3c, 8192);
	mr = buf ? ibv_reg_mr(e->pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE |
			      IBV_ACCESS_REMOTE_WRITE) : NULL;
	mro = buf ? ibv_reg_mr(e->pd, buf + 4096, 4096,
			       IBV_ACCESS_LOCAL_WRITE) : NULL;
	scq = mrc_create_cq(e->ctx, 1, NULL, NULL, 0);
	rcq = mrc_create_cq(e->ctx, CQE, NULL, NULL, 0);
	dcq = mrc_create_cq(e->ctx, CQE, NULL, NULL, 0);
	if (scq && rcq && dcq) {
		c = qp_new(e, e->ctx, scq, rcq, NULL);
		d = qp_new(e, e->ctx, dcq, dcq, NULL);
	}
	if (!report(mr && mro && c && d, "QPs C (send CQ of 1 entry) and D, MRs"))
		goto out;
	if (!T_RC(qp_connect(e, c, qpn_of(d), NULL), 0, "C connected to D") ||
	    !T_RC(qp_connect(e, d, qpn_of(c), NULL), 0, "D connected to C"))
		goto out;
	for (i = 0; i < 8; i++) {
		sge[i] = (struct ibv_sge){ (uintptr_t)(buf + i * 8), 8, mr->lkey };
		wr[i] = (struct ibv_send_wr){
			.wr_id = i,
			.next = i < 7 ? &wr[i + 1] : NULL,
			.sg_list = &sge[i],
			.num_sge = 1,
			.opcode = IBV_WR_RDMA_WRITE,
			.send_flags = IBV_SEND_SIGNALED,
			.wr.rdma = { (uintptr_t)(buf + 2048 + i * 8), mr->rkey },
		};
	}
	if (!T_RC(mrc_post_send(c, wr, &bad), 0, "mrc_post_send of 8 WRITEs on C"))
		goto out;
	r = async_wait(e, &ev, WAIT_MS);
	if (!T_TRUE(r == 0, "an async event comes"))
		goto out;
	T_TRUE(ev.event_type == IBV_EVENT_CQ_ERR && ev.element.cq == scq,
	       "mrc_get_async_event: IBV_EVENT_CQ_ERR of C's send CQ (%s, %p)",
	       ibv_event_type_str(ev.event_type), (void *)ev.element.cq);
	mrc_ack_async_event(&ev);
	nev = 1;
	/* then every completion is either in the CQ or an event */
	end = now_ms() + WAIT_MS;
	while (nev + nwc < 8 && now_ms() < end) {
		while (!mrc_get_async_event(e->ctx, &ev)) {
			if (ev.event_type == IBV_EVENT_CQ_ERR &&
			    ev.element.cq == scq)
				nev++;
			else
				other++;
			mrc_ack_async_event(&ev);
		}
		r = mrc_poll_cq(scq, 8, wc);
		if (r > 0)
			nwc += r;
		sleep_ms(1);
	}
	sleep_ms(QUIET_MS);
	while (!mrc_get_async_event(e->ctx, &ev)) {
		other++;
		mrc_ack_async_event(&ev);
	}
	r = mrc_poll_cq(scq, 8, wc);
	if (r > 0)
		nwc += r;
	T_TRUE(nev + nwc == 8 && other == 0,
	       "8 completions: %d polled, %d CQ_ERR events, %d other events",
	       nwc, nev, other);

	/*
	 * IBV_EVENT_QP_FATAL: a WRITE to an MR without remote write. The
	 * responder (D) refuses it and goes to ERR, C gets the NAK and does too.
	 */
	sge[0] = (struct ibv_sge){ (uintptr_t)buf, 8, mr->lkey };
	wr[0] = (struct ibv_send_wr){
		.wr_id = 0xacce55,
		.sg_list = &sge[0],
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { (uintptr_t)(buf + 4096), mro->rkey },
	};
	if (!T_RC(mrc_post_send(c, wr, &bad), 0,
		  "mrc_post_send on C of a WRITE to an MR without remote write"))
		goto out;
	T_TRUE(cq_wait(scq, wc, 1, WAIT_MS) == 1 &&
	       wc[0].status == IBV_WC_REM_ACCESS_ERR && wc[0].wr_id == 0xacce55,
	       "its completion: IBV_WC_REM_ACCESS_ERR");
	end = now_ms() + WAIT_MS;
	other = 0;
	while ((!fatal_c || !fatal_d) && now_ms() < end) {
		if (async_wait(e, &ev, 100))
			continue;
		if (ev.event_type == IBV_EVENT_QP_FATAL && ev.element.qp == c)
			fatal_c = true;
		else if (ev.event_type == IBV_EVENT_QP_FATAL && ev.element.qp == d)
			fatal_d = true;
		else
			other++;
		mrc_ack_async_event(&ev);
	}
	T_TRUE(fatal_c, "mrc_get_async_event: IBV_EVENT_QP_FATAL of C, the requester");
	T_TRUE(fatal_d, "mrc_get_async_event: IBV_EVENT_QP_FATAL of D, the responder");
	T_TRUE(other == 0, "no other events (%d)", other);
	T_TRUE(qp_state(c) == IBV_QPS_ERR && qp_state(d) == IBV_QPS_ERR,
	       "C and D are in ERR");
	T_RC(mrc_destroy_qp(c), 0, "mrc_destroy_qp of C, its events acknowledged");
	c = NULL;
	T_RC(mrc_destroy_qp(d), 0, "mrc_destroy_qp of D, its event acknowledged");
	d = NULL;
	T_RC(mrc_destroy_cq(scq), 0, "mrc_destroy_cq of the overrun CQ, its events acknowledged");
	scq = NULL;
out:
	if (c)
		mrc_destroy_qp(c);
	if (d)
		mrc_destroy_qp(d);
	if (scq)
		mrc_destroy_cq(scq);
	if (rcq)
		mrc_destroy_cq(rcq);
	if (dcq)
		mrc_destroy_cq(dcq);
	if (mr)
		ibv_dereg_mr(mr);
	if (mro)
		ibv_dereg_mr(mro);
	free(buf);
}
