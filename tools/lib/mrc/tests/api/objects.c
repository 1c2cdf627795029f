// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test, sections 1-6: versions, device, contexts, channels, hints, QP creation */
#include "api.h"

/* ---- 1. versions ---------------------------------------------------------- */

void t_versions(void)
{
	uint32_t c = ~0u, l = ~0u, v = ~0u, lv = ~0u;

	begin("versions");
	mrc_query_version(&c, &l, &v, &lv);
	T_TRUE(c == MRC_API_CURRENT_VERSION && c == MRC_API_VER(1, 0, 1),
	       "mrc_query_version: current 1.0.1 (MRC_API_CURRENT_VERSION)");
	T_TRUE(l == MRC_API_LAST_SUPPORTED_VERSION,
	       "mrc_query_version: last supported MRC_API_LAST_SUPPORTED_VERSION");
	T_TRUE(v == MRC_VENDOR_API_CURRENT_VERSION &&
	       lv == MRC_VENDOR_API_LAST_SUPPORTED_VERSION,
	       "mrc_query_version: vendor versions");
	c = lv = ~0u;
	mrc_query_version(&c, NULL, NULL, &lv);
	T_TRUE(c == MRC_API_CURRENT_VERSION &&
	       lv == MRC_VENDOR_API_LAST_SUPPORTED_VERSION,
	       "mrc_query_version: some NULL pointers, the others filled");
	mrc_query_version(NULL, NULL, NULL, NULL);
	report(true, "mrc_query_version: all NULL");

	c = l = v = lv = ~0u;
	mrc_ctl_query_version(&c, &l, &v, &lv);
	T_TRUE(c == MRC_CTL_API_CURRENT_VERSION &&
	       c == MRC_CTL_API_VER(1, 0, 1),
	       "mrc_ctl_query_version: current 1.0.1");
	T_TRUE(l == MRC_CTL_API_LAST_SUPPORTED_VERSION &&
	       v == MRC_CTL_VENDOR_API_CURRENT_VERSION &&
	       lv == MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION,
	       "mrc_ctl_query_version: last supported and vendor versions");
	v = ~0u;
	mrc_ctl_query_version(NULL, NULL, &v, NULL);
	T_TRUE(v == MRC_CTL_VENDOR_API_CURRENT_VERSION,
	       "mrc_ctl_query_version: some NULL pointers, the others filled");
	mrc_ctl_query_version(NULL, NULL, NULL, NULL);
	report(true, "mrc_ctl_query_version: all NULL");
}

/* ---- 2. device queries ------------------------------------------------------ */

static void check_mrc_attr(const struct mrc_device_attr *a, const char *fn)
{
	T_TRUE(a->mrc_protocol_version == MRC_PROTOCOL_VERSION_1,
	       "%s: protocol versions: 1 only", fn);
	T_TRUE(a->mpr_attr.max_mpr == 8 && a->mpr_attr.mpr_resolution == 8,
	       "%s: max_mpr 8, mpr_resolution 8", fn);
	T_TRUE((a->cap & MRC_DEVICE_CAP_TRIM_NACK) &&
	       (a->cap & MRC_DEVICE_CAP_SVC_TIME) &&
	       !(a->cap & MRC_DEVICE_CAP_DYNAMIC_MPR),
	       "%s: cap TRIM_NACK and SVC_TIME, no DYNAMIC_MPR (0x%x)", fn,
	       a->cap);
	T_TRUE(a->wimm_attr.max_wimm == 0 && a->wimm_attr.max_wimm_dest == 0,
	       "%s: max_wimm 0, max_wimm_dest 0", fn);
	T_TRUE(a->qp_attr.max_qp_hint > 0, "%s: max_qp_hint %u", fn,
	       a->qp_attr.max_qp_hint);
}

void t_device(struct env *e)
{
	struct mrc_ctl_device_attr ca;
	struct mrc_device_attr a;
	int sup;

	begin("device queries");
	memset(&a, 0xa5, sizeof(a));
	sup = -1;
	if (T_RC(mrc_query_device(e->vctx, &a, &sup), 0,
		 "mrc_query_device on %s", e->mrc_name)) {
		T_TRUE(sup == 1, "mrc_query_device: supported 1");
		check_mrc_attr(&a, "mrc_query_device");
	}
	memset(&a, 0xa5, sizeof(a));
	sup = -1;
	if (T_RC(mrc_query_device_ex(e->vctx, NULL, &a, &sup), 0,
		 "mrc_query_device_ex without an MRC context")) {
		T_TRUE(sup == 1, "mrc_query_device_ex: supported 1");
		check_mrc_attr(&a, "mrc_query_device_ex");
	}
	T_ERRNO(mrc_query_device(NULL, &a, &sup), EINVAL,
		"mrc_query_device: NULL context: EINVAL");
	T_ERRNO(mrc_query_device(e->vctx, NULL, &sup), EINVAL,
		"mrc_query_device: NULL attr: EINVAL");
	T_ERRNO(mrc_query_device(e->vctx, &a, NULL), EINVAL,
		"mrc_query_device: NULL supported: EINVAL");
	T_ERRNO(mrc_query_device_ex(NULL, NULL, &a, &sup), EINVAL,
		"mrc_query_device_ex: NULL context: EINVAL");
	T_ERRNO(mrc_query_device_ex(e->vctx, NULL, &a, NULL), EINVAL,
		"mrc_query_device_ex: NULL supported: EINVAL");

	memset(&ca, 0, sizeof(ca));
	if (T_RC(mrc_ctl_query_device(e->vctx, &ca), 0,
		 "mrc_ctl_query_device on %s", e->mrc_name)) {
		e->phy_port_mask = ca.phy_port_mask;
		T_TRUE((ca.phy_port_mask & 2) && !(ca.phy_port_mask & 1),
		       "mrc_ctl_query_device: phy_port_mask has port 1 (plane 0), no bit 0 (0x%x)",
		       ca.phy_port_mask);
		T_TRUE(ca.cc.algorithms && ca.cc.algorithms[0] &&
		       !strcmp(ca.cc.algorithms[0], MRC_CTL_CC_ALGO_UET_NSCC) &&
		       !strcmp(ca.cc.algorithms[0], "uet-1.0-nscc") &&
		       !ca.cc.algorithms[1],
		       "mrc_ctl_query_device: cc.algorithms { \"uet-1.0-nscc\", NULL }");
		T_TRUE(ca.opt_attr & MRC_CTL_OPT_CAP_EV_EVENT,
		       "mrc_ctl_query_device: opt_attr has EV_EVENT (0x%x)",
		       ca.opt_attr);
		T_TRUE(ca.opt_attr & MRC_CTL_OPT_CAP_EP_OP_EV_PROBE,
		       "mrc_ctl_query_device: opt_attr has EP_OP_EV_PROBE (0x%x)",
		       ca.opt_attr);
		T_TRUE(ca.ev.ev_max_profiles == 16 &&
		       ca.ev.ev_mode_mask == (MRC_CTL_EV_MODE_AUTO |
					      MRC_CTL_EV_MODE_EXP |
					      MRC_CTL_EV_MODE_GEN) &&
		       ca.ev.ev_max_fmt_profiles == 16,
		       "mrc_ctl_query_device: EV profiles (AUTO, EXP, GEN), 16 EV format profiles");
		T_TRUE(ca.mrc_ctl_protocol_version & MRC_CTL_PROTOCOL_VERSION_1,
		       "mrc_ctl_query_device: controller protocol version 1");
	}
	memset(&ca, 0, sizeof(ca));
	sup = -1;
	if (T_RC(mrc_ctl_query_device_ex(e->vctx, NULL, &ca, &sup), 0,
		 "mrc_ctl_query_device_ex on %s", e->mrc_name))
		T_TRUE(sup == 1 && ca.phy_port_mask == e->phy_port_mask &&
		       ca.cc.algorithms && (ca.opt_attr & MRC_CTL_OPT_CAP_EV_EVENT),
		       "mrc_ctl_query_device_ex: supported 1, as mrc_ctl_query_device");
	T_ERRNO(mrc_ctl_query_device(NULL, &ca), EINVAL,
		"mrc_ctl_query_device: NULL context: EINVAL");
	T_ERRNO(mrc_ctl_query_device(e->vctx, NULL), EINVAL,
		"mrc_ctl_query_device: NULL attr: EINVAL");
	T_ERRNO(mrc_ctl_query_device_ex(e->vctx, NULL, &ca, NULL), EINVAL,
		"mrc_ctl_query_device_ex: NULL supported: EINVAL");

	if (!e->octx)
		return;
	memset(&a, 0xa5, sizeof(a));
	sup = -1;
	if (T_RC(mrc_query_device(e->octx, &a, &sup), 0,
		 "mrc_query_device on non-mrc %s", e->other_name))
		T_TRUE(sup == 0, "mrc_query_device on non-mrc: supported 0");
	sup = -1;
	if (T_RC(mrc_query_device_ex(e->octx, NULL, &a, &sup), 0,
		 "mrc_query_device_ex on non-mrc"))
		T_TRUE(sup == 0, "mrc_query_device_ex on non-mrc: supported 0");
	T_ERRNO(mrc_ctl_query_device(e->octx, &ca), EOPNOTSUPP,
		"mrc_ctl_query_device on non-mrc: EOPNOTSUPP");
	sup = -1;
	if (T_RC(mrc_ctl_query_device_ex(e->octx, NULL, &ca, &sup), 0,
		 "mrc_ctl_query_device_ex on non-mrc"))
		T_TRUE(sup == 0, "mrc_ctl_query_device_ex on non-mrc: supported 0");
}

/* ---- 3. contexts ------------------------------------------------------------ */

void t_context(struct env *e)
{
	struct mrc_context_attr ca = {};
	struct mrc_context *c2;
	struct mrc_comp_channel *ch = NULL;
	struct mrc_cq *cq1, *cq2, *evq;
	struct mrc_qp_hint_init_attr hia = {};
	struct mrc_qp_hint *h;
	struct mrc_qp *qp;
	struct mrc_device_attr a;
	struct mrc_ctl_device_attr cda;
	int sup;

	begin("contexts");
	if (!T_PTR(e->ctx, mrc_create_context(e->vctx, NULL),
		   "mrc_create_context with NULL attributes"))
		return;
	T_NULL(mrc_create_context(NULL, NULL), EINVAL,
	       "mrc_create_context: NULL verbs context: EINVAL");
	ca.mrc_api_version_used = MRC_API_CURRENT_VERSION;
	ca.mrc_vendor_api_version_used = MRC_VENDOR_API_CURRENT_VERSION;
	if (T_PTR(c2, mrc_create_context(e->vctx, &ca),
		  "mrc_create_context asking for the current versions"))
		T_RC(mrc_destroy_context(c2), 0, "mrc_destroy_context of it");
	ca.mrc_api_version_used = MRC_API_VER(1, 0, 0);
	ca.mrc_vendor_api_version_used = 0;
	if (T_PTR(c2, mrc_create_context(e->vctx, &ca),
		  "mrc_create_context asking for an older API (1.0.0)"))
		T_RC(mrc_destroy_context(c2), 0, "mrc_destroy_context of it");
	ca.mrc_api_version_used = MRC_API_CURRENT_VERSION + 1;
	T_NULL(mrc_create_context(e->vctx, &ca), EPROTONOSUPPORT,
	       "mrc_create_context: API newer than the library: EPROTONOSUPPORT");
	ca.mrc_api_version_used = MRC_API_VER(2, 0, 0);
	T_NULL(mrc_create_context(e->vctx, &ca), EPROTONOSUPPORT,
	       "mrc_create_context: API 2.0.0: EPROTONOSUPPORT");
	ca.mrc_api_version_used = 0;
	ca.mrc_vendor_api_version_used = MRC_VENDOR_API_CURRENT_VERSION + 1;
	T_NULL(mrc_create_context(e->vctx, &ca), EPROTONOSUPPORT,
	       "mrc_create_context: vendor API newer than the library: EPROTONOSUPPORT");
	T_ERRNO(mrc_destroy_context(NULL), EINVAL,
		"mrc_destroy_context(NULL): EINVAL");

	sup = -1;
	T_TRUE(!mrc_query_device_ex(e->vctx, e->ctx, &a, &sup) && sup == 1,
	       "mrc_query_device_ex with its MRC context: supported 1");
	sup = -1;
	T_TRUE(!mrc_ctl_query_device_ex(e->vctx, e->ctx, &cda, &sup) && sup == 1,
	       "mrc_ctl_query_device_ex with its MRC context: supported 1");

	if (e->octx) {
		T_NULL(mrc_create_context(e->octx, NULL), EOPNOTSUPP,
		       "mrc_create_context on non-mrc %s: EOPNOTSUPP",
		       e->other_name);
		T_ERRNO(mrc_query_device_ex(e->octx, e->ctx, &a, &sup), EINVAL,
			"mrc_query_device_ex: MRC context of another device: EINVAL");
		T_ERRNO(mrc_ctl_query_device_ex(e->octx, e->ctx, &cda, &sup),
			EINVAL,
			"mrc_ctl_query_device_ex: MRC context of another device: EINVAL");
	}

	/*
	 * A context destroyed with its objects alive: a QP at INIT naming a
	 * hint, CQs (one with a channel), the channel, and an EV event CQ
	 * on it, which made this context the controller for a while.
	 */
	if (!T_PTR(c2, mrc_create_context(e->vctx, NULL),
		   "a second context, for destroying with objects alive"))
		return;
	T_RC(mrc_create_comp_channel(c2, &ch), 0, "  its channel");
	T_PTR(cq1, mrc_create_cq(c2, CQE, NULL, ch, 0), "  its CQ on the channel");
	T_PTR(cq2, mrc_create_cq(c2, CQE, NULL, NULL, 0), "  its CQ without one");
	T_PTR(h, mrc_create_qp_hint(c2, &hia), "  its hint");
	qp = (cq1 && cq2) ? qp_new(e, c2, cq1, cq2, NULL) : NULL;
	report(qp != NULL, "  its QP");
	if (qp)
		T_RC(qp_init(qp, h), 0, "  the QP at INIT naming the hint");
	T_PTR(evq, mrc_ctl_create_ev_event_cq(c2, 16, NULL, ch, 0),
	      "  its EV event CQ on the channel (the controller's)");
	T_RC(mrc_destroy_context(c2), 0,
	     "mrc_destroy_context with a QP, a hint, CQs, an EV CQ and a channel alive");
}

/* ---- 4. channels and CQs ---------------------------------------------------- */

void t_channels(struct env *e)
{
	struct mrc_comp_channel *ch = NULL, *och = NULL;
	struct mrc_context *c3;
	struct mrc_cq *cq, *rcq = NULL, *got;
	struct ibv_wc wc[4];
	void *gotc;
	int tag, fd = -1;

	begin("completion channels and CQs");
	T_ERRNO(mrc_create_comp_channel(NULL, &ch), EINVAL,
		"mrc_create_comp_channel: NULL context: EINVAL");
	T_ERRNO(mrc_create_comp_channel(e->ctx, NULL), EINVAL,
		"mrc_create_comp_channel: NULL channel pointer: EINVAL");
	if (!T_RC(mrc_create_comp_channel(e->ctx, &ch), 0,
		  "mrc_create_comp_channel") || !ch)
		return;
	T_TRUE(!mrc_get_comp_channel_fd(ch, &fd) && fd >= 0 &&
	       fcntl(fd, F_GETFD) >= 0,
	       "mrc_get_comp_channel_fd: an open fd (%d)", fd);
	T_ERRNO(mrc_get_comp_channel_fd(NULL, &fd), EINVAL,
		"mrc_get_comp_channel_fd: NULL channel: EINVAL");
	T_ERRNO(mrc_get_comp_channel_fd(ch, NULL), EINVAL,
		"mrc_get_comp_channel_fd: NULL fd pointer: EINVAL");

	T_NULL(mrc_create_cq(e->ctx, 0, NULL, NULL, 0), EINVAL,
	       "mrc_create_cq: cqe 0: EINVAL");
	T_NULL(mrc_create_cq(e->ctx, -1, NULL, NULL, 0), EINVAL,
	       "mrc_create_cq: cqe -1: EINVAL");
	T_NULL(mrc_create_cq(NULL, CQE, NULL, NULL, 0), EINVAL,
	       "mrc_create_cq: NULL context: EINVAL");
	c3 = mrc_create_context(e->vctx, NULL);
	if (c3 && !mrc_create_comp_channel(c3, &och))
		T_NULL(mrc_create_cq(e->ctx, CQE, NULL, och, 0), EINVAL,
		       "mrc_create_cq: channel of another context: EINVAL");
	else
		report(false, "mrc_create_cq: channel of another context (no context/channel: %s)",
		       strerror(errno));
	if (c3)
		mrc_destroy_context(c3);

	if (!T_PTR(cq, mrc_create_cq(e->ctx, CQE, &tag, ch, 0),
		   "mrc_create_cq with the channel")) {
		mrc_destroy_comp_channel(ch);
		return;
	}
	T_PTR(rcq, mrc_create_cq(e->ctx, 1, NULL, NULL, 0),
	      "mrc_create_cq with cqe 1, no channel");
	T_RC(mrc_destroy_comp_channel(ch), EBUSY,
	     "mrc_destroy_comp_channel while a CQ uses it: EBUSY");
	T_RC(mrc_destroy_comp_channel(NULL), EINVAL,
	     "mrc_destroy_comp_channel(NULL): EINVAL");
	T_RC(mrc_poll_cq(cq, 4, wc), 0, "mrc_poll_cq on an empty CQ: 0");
	T_RC(mrc_poll_cq(cq, 0, wc), 0, "mrc_poll_cq of 0 entries: 0");
	T_RC(mrc_req_notify_cq(cq, 0), 0, "mrc_req_notify_cq");
	T_RC(mrc_req_notify_cq(cq, 1), 0, "mrc_req_notify_cq, solicited only");
	T_RC(mrc_req_notify_cq(NULL, 0), EINVAL, "mrc_req_notify_cq(NULL): EINVAL");
	if (rcq)
		T_RC(mrc_req_notify_cq(rcq, 0), 0,
		     "mrc_req_notify_cq on a CQ without channel");
	T_TRUE(!fd_wait(fd, QUIET_MS), "no CQ event without a completion");
	T_TRUE(set_nonblock(fd) == 0, "the channel's fd made non-blocking");
	T_ERRNO(mrc_get_cq_event(ch, &got, &gotc), EAGAIN,
		"mrc_get_cq_event on a non-blocking channel without event: EAGAIN");
	T_ERRNO(mrc_get_cq_event(NULL, &got, &gotc), EINVAL,
		"mrc_get_cq_event: NULL channel: EINVAL");
	T_ERRNO(mrc_get_cq_event(ch, NULL, &gotc), EINVAL,
		"mrc_get_cq_event: NULL cq pointer: EINVAL");
	T_ERRNO(mrc_get_cq_event(ch, &got, NULL), EINVAL,
		"mrc_get_cq_event: NULL cq_context pointer: EINVAL");
	mrc_ack_cq_events(NULL, 1);
	report(true, "mrc_ack_cq_events(NULL) is harmless");
	mrc_ack_cq_events(cq, 0);
	report(true, "mrc_ack_cq_events of 0 events");
	T_RC(mrc_destroy_cq(NULL), EINVAL, "mrc_destroy_cq(NULL): EINVAL");
	T_RC(mrc_destroy_cq(cq), 0, "mrc_destroy_cq");
	if (rcq)
		T_RC(mrc_destroy_cq(rcq), 0, "mrc_destroy_cq of the cqe 1 CQ");
	T_RC(mrc_destroy_comp_channel(ch), 0,
	     "mrc_destroy_comp_channel once its CQ is gone");
}

/* ---- 5. hints ----------------------------------------------------------------- */

void t_hints(struct env *e)
{
	struct mrc_qp_hint_init_attr ia = {};
	struct mrc_qp_hint_attr q;
	struct mrc_qp_hint *h, *x;
	struct mrc_device_attr da;
	struct mrc_context *c3;
	unsigned int i, n;
	int sup, all = MRC_QP_HINT_NUM_QPS_PER_PEER | MRC_QP_HINT_NUM_SEND_PEERS |
		       MRC_QP_HINT_NUM_REMOTE_RECV_PEERS;
	bool zero;

	begin("QP hints");
	T_NULL(mrc_create_qp_hint(e->ctx, NULL), EINVAL,
	       "mrc_create_qp_hint: NULL attributes: EINVAL");
	T_NULL(mrc_create_qp_hint(NULL, &ia), EINVAL,
	       "mrc_create_qp_hint: NULL context: EINVAL");
	ia.attr.num_qps_per_peer = -1;
	T_NULL(mrc_create_qp_hint(e->ctx, &ia), EINVAL,
	       "mrc_create_qp_hint: negative num_qps_per_peer: EINVAL");
	ia.attr.num_qps_per_peer = 0;
	ia.attr.num_send_peers = -3;
	T_NULL(mrc_create_qp_hint(e->ctx, &ia), EINVAL,
	       "mrc_create_qp_hint: negative num_send_peers: EINVAL");
	ia.attr.num_send_peers = 0;
	ia.attr.num_remote_recv_peers = -1;
	T_NULL(mrc_create_qp_hint(e->ctx, &ia), EINVAL,
	       "mrc_create_qp_hint: negative num_remote_recv_peers: EINVAL");
	ia.attr.num_remote_recv_peers = 0;
	ia.attr.vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE - 1] = 1;
	T_NULL(mrc_create_qp_hint(e->ctx, &ia), EINVAL,
	       "mrc_create_qp_hint: non-empty vendor_cfg: EINVAL");
	ia.attr.vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE - 1] = 0;

	ia.attr.num_qps_per_peer = 2;
	ia.attr.num_send_peers = 3;
	ia.attr.num_remote_recv_peers = 4;
	if (!T_PTR(h, mrc_create_qp_hint(e->ctx, &ia), "mrc_create_qp_hint"))
		return;
	memset(&q, 0x7f, sizeof(q));
	T_TRUE(!mrc_query_qp_hint(h, &q, all) && q.num_qps_per_peer == 2 &&
	       q.num_send_peers == 3 && q.num_remote_recv_peers == 4,
	       "mrc_query_qp_hint: the values created with");
	memset(&q, 0x7f, sizeof(q));
	T_TRUE(!mrc_query_qp_hint(h, &q, MRC_QP_HINT_NUM_SEND_PEERS) &&
	       q.num_send_peers == 3 && q.num_qps_per_peer == 0x7f7f7f7f &&
	       q.num_remote_recv_peers == 0x7f7f7f7f && q.vendor_cfg[0] == 0x7f,
	       "mrc_query_qp_hint: only the masked member written");
	memset(&q, 0x7f, sizeof(q));
	zero = !mrc_query_qp_hint(h, &q, MRC_QP_HINT_VENDOR_CFG);
	for (i = 0; i < MRC_MAX_VENDOR_CFG_SIZE; i++)
		zero = zero && !q.vendor_cfg[i];
	T_TRUE(zero, "mrc_query_qp_hint: VENDOR_CFG, empty");
	T_ERRNO(mrc_query_qp_hint(h, &q, 1 << 3), EINVAL,
		"mrc_query_qp_hint: unknown mask bit: EINVAL");
	T_ERRNO(mrc_query_qp_hint(h, NULL, all), EINVAL,
		"mrc_query_qp_hint: NULL attributes: EINVAL");
	T_ERRNO(mrc_query_qp_hint(NULL, &q, all), EINVAL,
		"mrc_query_qp_hint: NULL hint: EINVAL");

	memset(&q, 0, sizeof(q));
	q.num_qps_per_peer = 5;
	q.num_send_peers = -1;		/* not in the mask: not looked at */
	q.num_remote_recv_peers = 99;
	T_RC(mrc_modify_qp_hint(h, &q, MRC_QP_HINT_NUM_QPS_PER_PEER), 0,
	     "mrc_modify_qp_hint of one member, the others' values ignored");
	memset(&q, 0x7f, sizeof(q));
	T_TRUE(!mrc_query_qp_hint(h, &q, all) && q.num_qps_per_peer == 5 &&
	       q.num_send_peers == 3 && q.num_remote_recv_peers == 4,
	       "mrc_query_qp_hint: the modified member changed, the others not");
	memset(&q, 0, sizeof(q));
	T_ERRNO(mrc_modify_qp_hint(h, &q, 1 << 4), EINVAL,
		"mrc_modify_qp_hint: unknown mask bit: EINVAL");
	q.num_remote_recv_peers = -2;
	T_ERRNO(mrc_modify_qp_hint(h, &q, MRC_QP_HINT_NUM_REMOTE_RECV_PEERS),
		EINVAL, "mrc_modify_qp_hint: negative value: EINVAL");
	q.num_remote_recv_peers = 0;
	q.vendor_cfg[7] = 0x42;
	T_ERRNO(mrc_modify_qp_hint(h, &q, MRC_QP_HINT_VENDOR_CFG), EINVAL,
		"mrc_modify_qp_hint: non-empty vendor_cfg: EINVAL");
	q.vendor_cfg[7] = 0;
	T_RC(mrc_modify_qp_hint(h, &q, MRC_QP_HINT_VENDOR_CFG), 0,
	     "mrc_modify_qp_hint: empty vendor_cfg");
	T_ERRNO(mrc_modify_qp_hint(NULL, &q, 0), EINVAL,
		"mrc_modify_qp_hint: NULL hint: EINVAL");
	T_ERRNO(mrc_modify_qp_hint(h, NULL, all), EINVAL,
		"mrc_modify_qp_hint: NULL attributes: EINVAL");
	memset(&q, 0x7f, sizeof(q));
	T_TRUE(!mrc_query_qp_hint(h, &q, all) && q.num_qps_per_peer == 5 &&
	       q.num_send_peers == 3 && q.num_remote_recv_peers == 4,
	       "mrc_query_qp_hint: failed modifies changed nothing");
	T_ERRNO(mrc_destroy_qp_hint(NULL), EINVAL,
		"mrc_destroy_qp_hint(NULL): EINVAL");
	T_RC(mrc_destroy_qp_hint(h), 0, "mrc_destroy_qp_hint");

	/* as many as the device says, in a context of their own */
	if (mrc_query_device(e->vctx, &da, &sup) || !sup ||
	    !(c3 = mrc_create_context(e->vctx, NULL))) {
		report(false, "max_qp_hint hints (no device attributes or context)");
		return;
	}
	memset(&ia, 0, sizeof(ia));
	for (n = 0; n < da.qp_attr.max_qp_hint; n++)
		if (!mrc_create_qp_hint(c3, &ia))
			break;
	T_TRUE(n == da.qp_attr.max_qp_hint,
	       "mrc_create_qp_hint: max_qp_hint (%u) hints in a context (%u made)",
	       da.qp_attr.max_qp_hint, n);
	T_NULL(mrc_create_qp_hint(c3, &ia), ENOMEM,
	       "mrc_create_qp_hint: one more: ENOMEM");
	x = mrc_create_qp_hint(e->ctx, &ia);
	T_TRUE(x != NULL, "mrc_create_qp_hint: another context still can");
	if (x)
		mrc_destroy_qp_hint(x);
	T_RC(mrc_destroy_context(c3), 0, "mrc_destroy_context with %u hints", n);
}

/* ---- 6. QP creation ----------------------------------------------------------- */

void t_qp_create(struct env *e)
{
	struct mrc_cq *scq, *rcq, *ocq = NULL, *evq = NULL;
	struct mrc_context *c3;
	struct mrc_qp_init_attr ia, good, gi;
	struct mrc_qp_attr ma;
	struct ibv_qp_attr va;
	struct ibv_pd *opd = NULL;
	struct mrc_qp *qp, *qp0;
	uint32_t qpn = 0, qpn0 = 0;
	int all = MRC_QP_MAX_WIMM | MRC_QP_MAX_WIMM_DEST | MRC_QP_MPR |
		  MRC_QP_MPR_DEST | MRC_QP_TIMEOUT | MRC_QP_EV_PROFILE_ID |
		  MRC_QP_CC_PROFILE_ID | MRC_QP_HINT | MRC_QP_RETRY_CNT |
		  MRC_QP_CAP | MRC_QP_VENDOR_CFG;
	int tag;

	begin("QP creation");
	scq = mrc_create_cq(e->ctx, CQE, NULL, NULL, 0);
	rcq = mrc_create_cq(e->ctx, CQE, NULL, NULL, 0);
	if (!report(scq && rcq, "two CQs for the QPs"))
		return;
	good = (struct mrc_qp_init_attr){
		.qp_context = &tag,
		.send_cq = scq,
		.recv_cq = rcq,
		.cap = { .max_send_wr = SQ_WR, .max_recv_wr = RQ_WR,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.sq_sig_all = 1,
		.pd = e->pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM,
		.protocol_version = MRC_PROTOCOL_VERSION_1,
	};

	T_NULL(mrc_create_qp(NULL, &good), EINVAL,
	       "mrc_create_qp: NULL context: EINVAL");
	T_NULL(mrc_create_qp(e->ctx, NULL), EINVAL,
	       "mrc_create_qp: NULL attributes: EINVAL");
	ia = good;
	ia.pd = NULL;
	T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL, "mrc_create_qp: NULL pd: EINVAL");
	if (e->octx && (opd = ibv_alloc_pd(e->octx))) {
		ia.pd = opd;
		T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
		       "mrc_create_qp: pd of another device: EINVAL");
		ibv_dealloc_pd(opd);
	}
	ia = good;
	ia.send_cq = NULL;
	T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
	       "mrc_create_qp: NULL send CQ: EINVAL");
	ia = good;
	ia.recv_cq = NULL;
	T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
	       "mrc_create_qp: NULL recv CQ: EINVAL");
	c3 = mrc_create_context(e->vctx, NULL);
	if (c3)
		ocq = mrc_create_cq(c3, CQE, NULL, NULL, 0);
	if (ocq) {
		ia = good;
		ia.send_cq = ocq;
		T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
		       "mrc_create_qp: send CQ of another context: EINVAL");
		ia = good;
		ia.recv_cq = ocq;
		T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
		       "mrc_create_qp: recv CQ of another context: EINVAL");
	} else {
		report(false, "a CQ of another context: %s", strerror(errno));
	}
	if (c3)
		mrc_destroy_context(c3);
	if (T_PTR(evq, mrc_ctl_create_ev_event_cq(e->ctx, 16, NULL, NULL, 0),
		  "mrc_ctl_create_ev_event_cq (this context becomes the controller)")) {
		ia = good;
		ia.send_cq = evq;
		T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
		       "mrc_create_qp: EV event CQ as send CQ: EINVAL");
		ia = good;
		ia.recv_cq = evq;
		T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
		       "mrc_create_qp: EV event CQ as recv CQ: EINVAL");
	}
	ia = good;
	ia.protocol_version = (enum mrc_protocol_version)2;
	T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
	       "mrc_create_qp: protocol_version 2: EINVAL");
	ia.protocol_version = (enum mrc_protocol_version)3;
	T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
	       "mrc_create_qp: protocol_version 1|2 (more than one): EINVAL");
	ia = good;
	ia.send_ops_flags |= IBV_QP_EX_WITH_SEND;
	T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
	       "mrc_create_qp: send_ops_flags with SEND: EINVAL");
	ia.send_ops_flags = IBV_QP_EX_WITH_RDMA_READ;
	T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
	       "mrc_create_qp: send_ops_flags with RDMA_READ: EINVAL");
	ia.send_ops_flags = IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	T_NULL(mrc_create_qp(e->ctx, &ia), EINVAL,
	       "mrc_create_qp: send_ops_flags with an atomic: EINVAL");

	ia = good;
	ia.protocol_version = MRC_PROTOCOL_VERSION_0;
	ia.send_ops_flags = 0;
	if (T_PTR(qp0, mrc_create_qp(e->ctx, &ia),
		  "mrc_create_qp: protocol version 0 (the default), no send_ops_flags"))
		mrc_get_qpn(qp0, &qpn0);

	if (!T_PTR(qp, mrc_create_qp(e->ctx, &good), "mrc_create_qp"))
		goto out;
	T_TRUE(!mrc_get_qpn(qp, &qpn) && qpn != 0 && qpn != qpn0,
	       "mrc_get_qpn: a QP number of its own (%u)", qpn);
	T_ERRNO(mrc_get_qpn(NULL, &qpn), EINVAL, "mrc_get_qpn: NULL QP: EINVAL");
	T_ERRNO(mrc_get_qpn(qp, NULL), EINVAL, "mrc_get_qpn: NULL qpn: EINVAL");

	memset(&ma, 0x5a, sizeof(ma));
	memset(&gi, 0, sizeof(gi));
	if (T_RC(mrc_query_qp(qp, NULL, 0, &ma, all, &gi), 0,
		 "mrc_query_qp of a new QP")) {
		T_TRUE(gi.qp_context == &tag && gi.send_cq == scq &&
		       gi.recv_cq == rcq && gi.pd == e->pd &&
		       gi.sq_sig_all == 1 &&
		       gi.protocol_version == MRC_PROTOCOL_VERSION_1 &&
		       gi.send_ops_flags == good.send_ops_flags,
		       "mrc_query_qp: init_attr as created");
		T_TRUE(gi.cap.max_send_wr >= SQ_WR && gi.cap.max_recv_wr >= RQ_WR &&
		       gi.cap.max_send_sge >= 1 && gi.cap.max_recv_sge >= 1,
		       "mrc_query_qp: init_attr cap at least as asked (%u %u %u %u)",
		       gi.cap.max_send_wr, gi.cap.max_recv_wr,
		       gi.cap.max_send_sge, gi.cap.max_recv_sge);
		T_TRUE(ma.mpr.mpr == 8 && ma.mpr.mpr_dest == 8,
		       "mrc_query_qp: default MPR 8/8 (%u/%u)", ma.mpr.mpr,
		       ma.mpr.mpr_dest);
		T_TRUE(ma.timeout == 16, "mrc_query_qp: default timeout 16 (%u)",
		       ma.timeout);
		T_TRUE(ma.retry.linear_cnt == 7 && ma.retry.exp_cnt == 0,
		       "mrc_query_qp: default retry linear 7, exp 0 (%u, %u)",
		       ma.retry.linear_cnt, ma.retry.exp_cnt);
		T_TRUE(ma.wimm.max_wimm == 0 && ma.wimm.max_wimm_dest == 0 &&
		       ma.qp_hint == NULL && ma.cap == 0 &&
		       ma.profile.ev_profile_id == 0 &&
		       ma.profile.cc_profile_id == 0 && ma.vendor_cfg[0] == 0,
		       "mrc_query_qp: no WIMM, hint, cap or profiles");
	}
	memset(&va, 0, sizeof(va));
	va.qp_state = IBV_QPS_RTS;
	T_TRUE(!mrc_query_qp(qp, &va, IBV_QP_STATE, NULL, 0, NULL) &&
	       va.qp_state == IBV_QPS_RESET, "mrc_query_qp: a new QP is in RESET");
	T_RC(mrc_query_qp(qp, NULL, 0, &ma, 1 << 20, NULL), EINVAL,
	     "mrc_query_qp: unknown MRC mask bit: EINVAL");
	T_RC(mrc_query_qp(qp, NULL, 0, NULL, MRC_QP_TIMEOUT, NULL), EINVAL,
	     "mrc_query_qp: MRC mask without attributes: EINVAL");
	T_RC(mrc_query_qp(qp, NULL, IBV_QP_STATE, NULL, 0, NULL), EINVAL,
	     "mrc_query_qp: verbs mask without attributes: EINVAL");
	T_RC(mrc_query_qp(NULL, NULL, 0, NULL, 0, NULL), EINVAL,
	     "mrc_query_qp: NULL QP: EINVAL");
	T_RC(mrc_destroy_qp(NULL), EINVAL, "mrc_destroy_qp(NULL): EINVAL");
	T_RC(mrc_destroy_qp(qp), 0, "mrc_destroy_qp");
out:
	if (qp0)
		T_RC(mrc_destroy_qp(qp0), 0, "mrc_destroy_qp of the version 0 QP");
	if (evq) {
		struct ibv_wc wc;

		T_ERRNO(mrc_poll_cq(evq, 1, &wc), EINVAL,
			"mrc_poll_cq on an EV event CQ: EINVAL");
		T_RC(mrc_req_notify_cq(evq, 0), EINVAL,
		     "mrc_req_notify_cq on an EV event CQ without channel: EINVAL");
		T_RC(mrc_destroy_cq(evq), 0, "mrc_destroy_cq of the EV event CQ");
	}
	T_RC(mrc_destroy_cq(scq), 0, "mrc_destroy_cq of the send CQ");
	T_RC(mrc_destroy_cq(rcq), 0, "mrc_destroy_cq of the recv CQ");
}
