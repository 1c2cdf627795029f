// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test, section 10 and the CC profiles: the controller API of this process */
#include "api.h"

/* ---- 10. controller --------------------------------------------------------- */

/* a port of no plane of the device, 2..16 */
static uint8_t absent_port(const struct env *e)
{
	uint8_t p;

	for (p = 9; p <= 16; p++)
		if (!(e->phy_port_mask & (1u << p)))
			return p;
	for (p = 2; p < 9; p++)
		if (!(e->phy_port_mask & (1u << p)))
			return p;
	return 0;
}

void t_ctl(struct env *e)
{
	struct mrc_ctl_ev_fmt_profile_attr fa = {};
	struct mrc_ctl_cc_profile_attr cca = {};
	struct mrc_ctl_port_attr port;
	struct mrc_ctl_ev_event evs[8];
	struct mrc_ctl_ep_req req = {};
	struct mrc_ctl_ep_rsp rsp[2];
	struct mrc_comp_channel *ch = NULL, *och = NULL;
	struct mrc_context *c3;
	struct mrc_cq *evq = NULL, *evq2, *vcq, *got;
	void *gotc;
	uint8_t ap = absent_port(e);
	int nrsp, fd = -1, tag;

	begin("controller");
	port.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	T_TRUE(!mrc_ctl_query_port(e->ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE) &&
	       port.port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED,
	       "mrc_ctl_query_port 1: ENABLED");
	T_RC(mrc_ctl_query_port(e->ctx, 1, &port, 0), 0,
	     "mrc_ctl_query_port 1 with an empty mask");
	T_ERRNO(mrc_ctl_query_port(e->ctx, 0, &port, MRC_CTL_PORT_ADMIN_STATE),
		EINVAL, "mrc_ctl_query_port 0: EINVAL");
	T_ERRNO(mrc_ctl_query_port(e->ctx, 17, &port, MRC_CTL_PORT_ADMIN_STATE),
		EINVAL, "mrc_ctl_query_port 17: EINVAL");
	if (ap)
		T_ERRNO(mrc_ctl_query_port(e->ctx, ap, &port,
					   MRC_CTL_PORT_ADMIN_STATE), EINVAL,
			"mrc_ctl_query_port %u, of no plane of the device: EINVAL",
			ap);
	T_ERRNO(mrc_ctl_query_port(e->ctx, 1, NULL, MRC_CTL_PORT_ADMIN_STATE),
		EINVAL, "mrc_ctl_query_port: NULL attributes: EINVAL");
	T_ERRNO(mrc_ctl_query_port(e->ctx, 1, &port, 1 << 1), EINVAL,
		"mrc_ctl_query_port: unknown mask bit: EINVAL");
	T_ERRNO(mrc_ctl_query_port(NULL, 1, &port, MRC_CTL_PORT_ADMIN_STATE),
		EINVAL, "mrc_ctl_query_port: NULL context: EINVAL");
	port.port_admin_state = MRC_CTL_PORT_ADMIN_ENABLED;
	T_RC(mrc_ctl_modify_port(e->ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE), 0,
	     "mrc_ctl_modify_port 1 to ENABLED");
	port.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	T_ERRNO(mrc_ctl_modify_port(e->ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE),
		EINVAL, "mrc_ctl_modify_port 1 to DISABLED: EINVAL");
	port.port_admin_state = MRC_CTL_PORT_ADMIN_ENABLED;
	T_ERRNO(mrc_ctl_modify_port(e->ctx, 0, &port, MRC_CTL_PORT_ADMIN_STATE),
		EINVAL, "mrc_ctl_modify_port 0: EINVAL");
	if (ap)
		T_ERRNO(mrc_ctl_modify_port(e->ctx, ap, &port,
					    MRC_CTL_PORT_ADMIN_STATE), EINVAL,
			"mrc_ctl_modify_port %u, of no plane: EINVAL", ap);
	T_ERRNO(mrc_ctl_modify_port(e->ctx, 1, NULL, MRC_CTL_PORT_ADMIN_STATE),
		EINVAL, "mrc_ctl_modify_port: NULL attributes: EINVAL");
	port.port_admin_state = MRC_CTL_PORT_ADMIN_DISABLED;
	T_TRUE(!mrc_ctl_query_port(e->ctx, 1, &port, MRC_CTL_PORT_ADMIN_STATE) &&
	       port.port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED,
	       "mrc_ctl_query_port 1: still ENABLED");

	/*
	 * An EV format profile never set is in INIT (the rest: ev_fmt.c); CC
	 * profile calls for id 0 (the device's own) or with bad arguments
	 */
	fa.cur_profile_state = MRC_CTL_PROFILE_ONLINE;
	T_TRUE(!mrc_ctl_query_ev_fmt_profile(e->ctx, 1, &fa,
					     MRC_CTL_EV_FMT_PROFILE_CUR_STATE) &&
	       fa.cur_profile_state == MRC_CTL_PROFILE_INIT,
	       "mrc_ctl_query_ev_fmt_profile of a format never set: INIT");
	cca.profile_state = MRC_CTL_PROFILE_OFFLINE;
	cca.algorithm = MRC_CTL_CC_ALGO_UET_NSCC;
	T_ERRNO(mrc_ctl_modify_cc_profile(e->ctx, 0, &cca,
					  MRC_CTL_CC_PROFILE_STATE |
					  MRC_CTL_CC_PROFILE_ALGORITHM), EINVAL,
		"mrc_ctl_modify_cc_profile of id 0 (the device's own): EINVAL");
	cca.algorithm = "no-such-cc";
	T_ERRNO(mrc_ctl_modify_cc_profile(e->ctx, 1, &cca,
					  MRC_CTL_CC_PROFILE_STATE |
					  MRC_CTL_CC_PROFILE_ALGORITHM), EINVAL,
		"mrc_ctl_modify_cc_profile: an algorithm not in cc.algorithms: EINVAL");
	T_ERRNO(mrc_ctl_modify_cc_profile(e->ctx, 1, NULL,
					  MRC_CTL_CC_PROFILE_STATE), EINVAL,
		"mrc_ctl_modify_cc_profile: NULL attributes: EINVAL");
	T_ERRNO(mrc_ctl_query_cc_profile(e->ctx, 0, &cca,
					 MRC_CTL_CC_PROFILE_CUR_STATE), EINVAL,
		"mrc_ctl_query_cc_profile of id 0: EINVAL");
	T_ERRNO(mrc_ctl_query_cc_profile(NULL, 0, &cca,
					 MRC_CTL_CC_PROFILE_CUR_STATE), EINVAL,
		"mrc_ctl_query_cc_profile: NULL context: EINVAL");

	/* endpoint operations: their misuse (probes: probe.c) */
	req.req_id = 1;
	req.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP;
	req.req_ev.port = 1;
	memcpy(req.sgid.raw, e->gid.raw, sizeof(req.sgid.raw));
	memcpy(req.dgid.raw, e->gid.raw, sizeof(req.dgid.raw));
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   NULL, 1, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: NULL requests: EINVAL");
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   &req, 0, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: 0 requests: EINVAL");
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   &req, 1, 1000000, NULL, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: NULL responses: EINVAL");
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, MRC_CTL_EP_OP_EV_PROBE,
					   &req, 1, 1000000, rsp, NULL),
		EINVAL, "mrc_ctl_ep_batch_send_wait: NULL num_rsp: EINVAL");
	T_ERRNO(mrc_ctl_ep_batch_send_wait(e->ctx, 0, (enum mrc_ctl_ep_op_type)7,
					   &req, 1, 1000000, rsp, &nrsp),
		EINVAL, "mrc_ctl_ep_batch_send_wait: unknown operation: EINVAL");

	/* EV event CQs */
	T_NULL(mrc_ctl_create_ev_event_cq(e->ctx, 0, NULL, NULL, 0), EINVAL,
	       "mrc_ctl_create_ev_event_cq: cqe 0: EINVAL");
	T_NULL(mrc_ctl_create_ev_event_cq(e->ctx, 64, NULL, NULL, -1), EINVAL,
	       "mrc_ctl_create_ev_event_cq: comp_vector -1: EINVAL");
	T_NULL(mrc_ctl_create_ev_event_cq(NULL, 64, NULL, NULL, 0), EINVAL,
	       "mrc_ctl_create_ev_event_cq: NULL context: EINVAL");
	c3 = mrc_create_context(e->vctx, NULL);
	if (c3 && !mrc_create_comp_channel(c3, &och))
		T_NULL(mrc_ctl_create_ev_event_cq(e->ctx, 64, NULL, och, 0),
		       EINVAL,
		       "mrc_ctl_create_ev_event_cq: channel of another context: EINVAL");
	if (c3)
		mrc_destroy_context(c3);
	if (mrc_create_comp_channel(e->ctx, &ch) || mrc_get_comp_channel_fd(ch, &fd)) {
		report(false, "a channel for the EV event CQ: %s", strerror(errno));
		return;
	}
	if (!T_PTR(evq, mrc_ctl_create_ev_event_cq(e->ctx, 64, &tag, ch, 0),
		   "mrc_ctl_create_ev_event_cq(ctx, 64, ptr, channel, 0)"))
		goto out;
	T_PTR(evq2, mrc_ctl_create_ev_event_cq(e->ctx, 1, NULL, NULL, 0),
	      "a second EV event CQ, without channel");
	T_RC(mrc_ctl_poll_ev_event(evq, 8, evs), 0,
	     "mrc_ctl_poll_ev_event: 0 when nothing happened");
	T_RC(mrc_ctl_poll_ev_event(evq, 0, NULL), 0,
	     "mrc_ctl_poll_ev_event of 0 entries: 0");
	T_RC(mrc_ctl_poll_ev_event(evq, -1, evs), -EINVAL,
	     "mrc_ctl_poll_ev_event: num_entries -1: -EINVAL");
	T_RC(mrc_ctl_poll_ev_event(evq, 4, NULL), -EINVAL,
	     "mrc_ctl_poll_ev_event: NULL array: -EINVAL");
	T_RC(mrc_ctl_poll_ev_event(NULL, 4, evs), -EINVAL,
	     "mrc_ctl_poll_ev_event: NULL CQ: -EINVAL");
	vcq = mrc_create_cq(e->ctx, CQE, NULL, NULL, 0);
	if (vcq) {
		T_RC(mrc_ctl_poll_ev_event(vcq, 4, evs), -EINVAL,
		     "mrc_ctl_poll_ev_event on a verbs CQ: -EINVAL");
		mrc_destroy_cq(vcq);
	}
	T_ERRNO(mrc_poll_cq(evq, 1, (struct ibv_wc *)evs), EINVAL,
		"mrc_poll_cq on an EV event CQ: EINVAL");
	T_RC(mrc_req_notify_cq(evq, 0), 0,
	     "mrc_req_notify_cq on the EV event CQ with a channel");
	T_TRUE(!fd_wait(fd, QUIET_MS), "no CQ event without an EV event");
	T_TRUE(set_nonblock(fd) == 0, "the channel's fd made non-blocking");
	T_ERRNO(mrc_get_cq_event(ch, &got, &gotc), EAGAIN,
		"mrc_get_cq_event: EAGAIN");
	T_RC(mrc_destroy_comp_channel(ch), EBUSY,
	     "mrc_destroy_comp_channel while an EV event CQ uses it: EBUSY");
	if (evq2)
		T_RC(mrc_destroy_cq(evq2), 0,
		     "mrc_destroy_cq of the EV event CQ without channel");
	T_RC(mrc_destroy_cq(evq), 0, "mrc_destroy_cq of the EV event CQ");
out:
	T_RC(mrc_destroy_comp_channel(ch), 0, "mrc_destroy_comp_channel after it");
}

/* ---- CC profiles (the kernel's) ------------------------------------------- */

#define CCP		41	/* the profile the section sets up */
#define CCP_CWND	262144	/* its largest window: not the device's */

/*
 * A QP's largest window as the kernel has it now: mrcctl (the family's
 * cc-qp-get), beside this program in the tree; -1 if it cannot tell
 */
static long qp_max_cwnd(struct env *e, uint32_t qpn)
{
	char self[512], cmd[1024], line[1024];
	const char *m;
	long v = -1;
	ssize_t n;
	FILE *f;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(cmd, sizeof(cmd), "%s/../../../mrcctl/mrcctl cc show dev %s qpn %u",
		 self, e->mrc_name, qpn);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f)) {
		m = strstr(line, " max_cwnd ");
		if (m)
			v = strtol(m + 10, NULL, 10);
	}
	pclose(f);
	return v;
}

static const struct mrc_ctl_cc_nscc_cfg nscc_cfg = {
	.base_rtt = 100000,
	.target_delay = 100000,
	.max_cwnd = CCP_CWND,
	.eta = 4096,
	.fi = 16384,
	.fi_scale = 2.0f,
	.gamma = 0.8f,
	.max_md_jump = 0.5f,
	.qa_gate = 3,
	.qa_threshold = 400000,
	.adjust_bytes_threshold = 32768,
	.adjust_period_threshold = 100000,
};

static int ccp_set(struct env *e, uint64_t id, enum mrc_ctl_profile_state st,
		   const char *algo, const struct mrc_ctl_cc_nscc_cfg *cfg,
		   int mask)
{
	struct mrc_ctl_cc_profile_attr a = {
		.profile_state = st, .algorithm = algo, .cc_config = cfg,
	};

	return mrc_ctl_modify_cc_profile(e->ctx, id, &a, mask);
}

#define CCP_STATE	MRC_CTL_CC_PROFILE_STATE
#define CCP_ALGO	MRC_CTL_CC_PROFILE_ALGORITHM
#define CCP_CONFIG	MRC_CTL_CC_PROFILE_CONFIG

/* a QP of @e's context to INIT bound to CC profile @id; like ibv_modify_qp */
static int qp_init_cc(struct mrc_qp *qp, uint64_t id)
{
	struct ibv_qp_attr va = { .qp_state = IBV_QPS_INIT };
	struct mrc_qp_attr ma = { .profile.cc_profile_id = id };

	return mrc_modify_qp(qp, &va, IBV_QP_STATE, &ma, MRC_QP_CC_PROFILE_ID);
}

void t_cc_profiles(struct env *e)
{
	struct mrc_ctl_cc_profile_attr q = {};
	struct mrc_ctl_cc_nscc_cfg bad = nscc_cfg, got = {};
	struct mrc_ctl_device_attr ca = {};
	struct mrc_qp *a = NULL, *b = NULL, *c = NULL;
	struct mrc_cq *cq = NULL;
	struct mrc_qp_attr ma = {};
	int i, taken = 0;
	long w;

	begin("CC profiles");
	T_TRUE(!mrc_ctl_query_device(e->vctx, &ca) && ca.cc.cc_max_profiles == 16,
	       "mrc_ctl_query_device: cc_max_profiles 16 (%u)", ca.cc.cc_max_profiles);
	q.cc_config = &got;
	q.algorithm = "x";
	T_TRUE(!mrc_ctl_query_cc_profile(e->ctx, CCP, &q, CCP_STATE |
					 MRC_CTL_CC_PROFILE_CUR_STATE | CCP_ALGO) &&
	       q.profile_state == MRC_CTL_PROFILE_INIT &&
	       q.cur_profile_state == MRC_CTL_PROFILE_INIT && !q.algorithm,
	       "a profile never set is in INIT, with no algorithm");
	T_ERRNO(ccp_set(e, CCP, MRC_CTL_PROFILE_ONLINE, MRC_CTL_CC_ALGO_UET_NSCC,
			NULL, CCP_STATE | CCP_ALGO), EINVAL,
		"INIT -> ONLINE: EINVAL");
	T_ERRNO(ccp_set(e, CCP, MRC_CTL_PROFILE_OFFLINE, NULL, NULL, CCP_STATE),
		EINVAL, "INIT -> OFFLINE without an algorithm: EINVAL");
	T_RC(ccp_set(e, CCP, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_CC_ALGO_UET_NSCC,
		     NULL, CCP_STATE | CCP_ALGO), 0,
	     "INIT -> OFFLINE with uet-1.0-nscc");
	T_TRUE(!mrc_ctl_query_cc_profile(e->ctx, CCP, &q, CCP_STATE | CCP_ALGO) &&
	       q.profile_state == MRC_CTL_PROFILE_OFFLINE && q.algorithm &&
	       !strcmp(q.algorithm, MRC_CTL_CC_ALGO_UET_NSCC),
	       "query: OFFLINE, uet-1.0-nscc");
	T_ERRNO(ccp_set(e, CCP, MRC_CTL_PROFILE_ONLINE, NULL, NULL, CCP_STATE),
		EINVAL, "OFFLINE -> ONLINE of NSCC without a configuration: EINVAL");
	bad.gamma = 0;
	T_ERRNO(ccp_set(e, CCP, 0, NULL, &bad, CCP_CONFIG), EINVAL,
		"a configuration with gamma 0: EINVAL");
	bad = nscc_cfg;
	bad.fi = CCP_CWND * 2;
	T_ERRNO(ccp_set(e, CCP, 0, NULL, &bad, CCP_CONFIG), EINVAL,
		"a configuration with fi above max_cwnd: EINVAL");
	T_ERRNO(ccp_set(e, CCP, 0, NULL, NULL, CCP_CONFIG), EINVAL,
		"CONFIG with no cc_config: EINVAL");
	T_RC(ccp_set(e, CCP, MRC_CTL_PROFILE_ONLINE, NULL, &nscc_cfg,
		     CCP_STATE | CCP_CONFIG), 0,
	     "the configuration, and OFFLINE -> ONLINE");
	T_TRUE(!mrc_ctl_query_cc_profile(e->ctx, CCP, &q, CCP_STATE | CCP_CONFIG) &&
	       q.profile_state == MRC_CTL_PROFILE_ONLINE &&
	       got.max_cwnd == CCP_CWND && got.fi == 16384 && got.eta == 4096 &&
	       got.base_rtt == 100000 && got.qa_gate == 3 &&
	       got.gamma > 0.7999f && got.gamma < 0.8001f &&
	       got.fi_scale > 1.9999f && got.fi_scale < 2.0001f,
	       "query: ONLINE, the configuration as set (max_cwnd %u, gamma %f)",
	       got.max_cwnd, got.gamma);
	T_ERRNO(ccp_set(e, CCP, 0, NULL, &nscc_cfg, CCP_CONFIG), EINVAL,
		"an ONLINE profile's configuration does not change: EINVAL");
	T_ERRNO(ccp_set(e, CCP, MRC_CTL_PROFILE_INIT, NULL, NULL, CCP_STATE),
		EINVAL, "ONLINE -> INIT: EINVAL");

	/* a QP bound to it takes its window; one without keeps the device's */
	T_PTR(cq, mrc_create_cq(e->ctx, CQE, NULL, NULL, 0), "a CQ for the QPs");
	if (cq) {
		T_PTR(a, qp_new(e, e->ctx, cq, cq, NULL), "QP a");
		T_PTR(b, qp_new(e, e->ctx, cq, cq, NULL), "QP b");
		T_PTR(c, qp_new(e, e->ctx, cq, cq, NULL), "QP c");
	}
	if (a && b && c && e->have_gid) {
		T_RC(qp_init_cc(c, CCP + 1), EINVAL,
		     "INIT bound to a profile that does not exist: EINVAL");
		T_TRUE(qp_state(c) == IBV_QPS_RESET, "... and the QP stays in RESET");
		T_RC(qp_init_cc(a, CCP), 0, "a to INIT bound to profile %d", CCP);
		T_RC(qp_rtr(e, a, qpn_of(b)), 0, "a to RTR");
		T_RC(qp_rts(a), 0, "a to RTS");
		T_RC(qp_connect(e, b, qpn_of(a), NULL), 0, "b connected to a (no profile)");
		w = qp_max_cwnd(e, qpn_of(a));
		T_TRUE(w == CCP_CWND, "a's largest window is the profile's (%ld)", w);
		w = qp_max_cwnd(e, qpn_of(b));
		T_TRUE(w > 0 && w != CCP_CWND,
		       "b's is the device's own profile's (%ld)", w);
		T_TRUE(!mrc_query_qp(a, NULL, 0, &ma, MRC_QP_CC_PROFILE_ID, NULL) &&
		       ma.profile.cc_profile_id == CCP,
		       "mrc_query_qp: a's CC profile is %d", CCP);
		T_ERRNO(ccp_set(e, CCP, MRC_CTL_PROFILE_OFFLINE, NULL, NULL, CCP_STATE),
			EBUSY, "ONLINE -> OFFLINE while a QP uses it: EBUSY");
		T_RC(ccp_set(e, CCP + 1, MRC_CTL_PROFILE_OFFLINE, NULL, NULL,
			     CCP_STATE | CCP_ALGO), 0,
		     "profile %d OFFLINE with no algorithm", CCP + 1);
		T_RC(qp_init_cc(c, CCP + 1), EINVAL,
		     "INIT bound to an OFFLINE profile: EINVAL");
		T_RC(ccp_set(e, CCP + 1, MRC_CTL_PROFILE_ONLINE, NULL, NULL,
			     CCP_STATE), 0,
		     "a profile with no algorithm goes ONLINE without a configuration");
		T_RC(qp_init_cc(c, CCP + 1), 0, "c to INIT bound to it");
		T_RC(qp_init_cc(c, 0), 0, "c to INIT again, back on the device's own");
		T_RC(ccp_set(e, CCP + 1, MRC_CTL_PROFILE_OFFLINE, NULL, NULL,
			     CCP_STATE), 0, "... which lets that profile go OFFLINE");
	}
	if (a)
		T_RC(mrc_destroy_qp(a), 0, "a destroyed");
	if (b)
		mrc_destroy_qp(b);
	if (c)
		mrc_destroy_qp(c);
	if (cq)
		mrc_destroy_cq(cq);
	T_RC(ccp_set(e, CCP, MRC_CTL_PROFILE_OFFLINE, NULL, NULL, CCP_STATE), 0,
	     "with its QP gone, ONLINE -> OFFLINE");
	T_RC(ccp_set(e, CCP, MRC_CTL_PROFILE_INIT, NULL, NULL, CCP_STATE), 0,
	     "OFFLINE -> INIT");
	q.algorithm = "x";
	T_TRUE(!mrc_ctl_query_cc_profile(e->ctx, CCP, &q, CCP_STATE | CCP_ALGO) &&
	       q.profile_state == MRC_CTL_PROFILE_INIT && !q.algorithm,
	       "INIT again: nothing kept");
	ccp_set(e, CCP + 1, MRC_CTL_PROFILE_INIT, NULL, NULL, CCP_STATE);

	/* the device keeps 16 */
	for (i = 0; i < 16; i++)
		taken += !ccp_set(e, 1000 + i, MRC_CTL_PROFILE_OFFLINE, NULL, NULL,
				  CCP_STATE | CCP_ALGO);
	T_TRUE(taken == 16, "16 profiles OFFLINE (%d)", taken);
	T_ERRNO(ccp_set(e, 2000, MRC_CTL_PROFILE_OFFLINE, NULL, NULL,
			CCP_STATE | CCP_ALGO), ENOSPC, "a 17th: ENOSPC");
	for (i = 0; i < 16; i++)
		ccp_set(e, 1000 + i, MRC_CTL_PROFILE_INIT, NULL, NULL, CCP_STATE);
	T_RC(ccp_set(e, 2000, MRC_CTL_PROFILE_OFFLINE, NULL, NULL,
		     CCP_STATE | CCP_ALGO), 0, "once they are back in INIT, it fits");
	ccp_set(e, 2000, MRC_CTL_PROFILE_INIT, NULL, NULL, CCP_STATE);
}
