// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_kverbs: a kernel ULP in miniature, for what only kernel consumers
 * can ask of mrc (their WRs go through ib_post_send() as structures, not
 * through a ring userspace filled).
 *
 *   modprobe mrc_kverbs dev=DEV gid=N test=NAME
 *
 * runs test NAME on an RC QP connected to itself through GID index N of
 * DEV and leaves "pass" or "fail: why" in
 * /sys/module/mrc_kverbs/parameters/result. Tests:
 *
 *   sge_wrap	WRs whose SGE lengths add up to more than 4 GiB are refused
 *		(a 32-bit sum wraps to a small length: an inline copy of the
 *		real lengths would overrun the ring slot)
 *   reg_unmapped
 *		an IB_WR_REG_MR of an MR that ib_map_mr_sg() never mapped
 *		(page size 0, length 0): a WRITE through its key must fail,
 *		and nothing may divide by the page size
 *   cq_resize	ib_resize_cq() of a CQ that was polled and armed in hard
 *		interrupt context (as a hardware driver's completion handler
 *		does): lockdep must find cq->lock and poll_lock taken with
 *		interrupts off everywhere, and the completions must survive
 *   reset_sq	a QP moved to RESET and connected again: a SEND it had sent
 *		(waiting out RNR NAKs) must not come back
 *   reset_rq	the same with a receive it had posted: the next SEND must
 *		not land in it
 *   srq_resize	ib_modify_srq(IB_SRQ_MAX_WR) of an SRQ with receives posted:
 *		below their number it is refused, above it they stay and
 *		take SENDs in posting order, with the ones posted after
 *
 * Never load this outside the test VM.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

static char *dev = "";
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "RDMA device");
static int gid;
module_param(gid, int, 0444);
MODULE_PARM_DESC(gid, "RoCE v2 GID index of port 1 to connect through");
static char *test = "";
module_param(test, charp, 0444);
MODULE_PARM_DESC(test, "sge_wrap, reg_unmapped, cq_resize, reset_sq, reset_rq or srq_resize");
static char result[128] = "not run";
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "pass, or fail: why");

struct kv_ctx {
	struct ib_device *ibdev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_srq *srq;
	void *buf;
	u64 dma;
	u8 rnr_retry;
};

#define KV_BUF	4096

static int kv_connect(struct kv_ctx *c)
{
	struct ib_qp_attr a = {};
	union ib_gid g;
	int err;

	err = rdma_query_gid(c->ibdev, 1, gid, &g);
	if (err)
		return err;
	a.qp_state = IB_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			    IB_ACCESS_REMOTE_ATOMIC;
	err = ib_modify_qp(c->qp, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = IB_MTU_1024;
	a.dest_qp_num = c->qp->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 20;	/* 10 ms between RNR retries */
	a.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&a.ah_attr, 1);
	rdma_ah_set_grh(&a.ah_attr, &g, 0, gid, 64, 0);
	err = ib_modify_qp(c->qp, &a, IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			   IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 2;
	a.rnr_retry = c->rnr_retry;
	a.max_rd_atomic = 1;
	return ib_modify_qp(c->qp, &a, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			    IB_QP_MAX_QP_RD_ATOMIC);
}

static int kv_setup(struct kv_ctx *c)
{
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = 16, .max_recv_wr = 4,
			.max_send_sge = 4, .max_recv_sge = 1,
			.max_inline_data = 64,
		},
	};
	struct ib_cq_init_attr cq_attr = { .cqe = 64 };

	c->ibdev = ib_device_get_by_name(dev, RDMA_DRIVER_UNKNOWN);
	if (!c->ibdev)
		return -ENODEV;
	c->pd = ib_alloc_pd(c->ibdev, 0);
	if (IS_ERR(c->pd))
		return PTR_ERR(c->pd);
	/* no completion handler: cq_resize arms the CQ and polls it itself */
	c->cq = ib_create_cq(c->ibdev, NULL, NULL, NULL, &cq_attr);
	if (IS_ERR(c->cq))
		return PTR_ERR(c->cq);
	init.send_cq = c->cq;
	init.recv_cq = c->cq;
	c->qp = ib_create_qp(c->pd, &init);
	if (IS_ERR(c->qp))
		return PTR_ERR(c->qp);
	c->buf = kzalloc(KV_BUF, GFP_KERNEL);
	if (!c->buf)
		return -ENOMEM;
	c->dma = ib_dma_map_single(c->ibdev, c->buf, KV_BUF, DMA_BIDIRECTIONAL);
	if (ib_dma_mapping_error(c->ibdev, c->dma)) {
		c->dma = 0;
		return -ENOMEM;
	}
	return 0;
}

static void kv_teardown(struct kv_ctx *c)
{
	if (!IS_ERR_OR_NULL(c->qp))
		ib_destroy_qp(c->qp);
	if (!IS_ERR_OR_NULL(c->srq))
		ib_destroy_srq(c->srq);
	if (!IS_ERR_OR_NULL(c->cq))
		ib_destroy_cq(c->cq);
	if (c->dma)
		ib_dma_unmap_single(c->ibdev, c->dma, KV_BUF, DMA_BIDIRECTIONAL);
	kfree(c->buf);
	if (!IS_ERR_OR_NULL(c->pd))
		ib_dealloc_pd(c->pd);
	if (c->ibdev)
		ib_device_put(c->ibdev);
}

/* the completion of @wr_id, within 10 s */
static int kv_wait(struct kv_ctx *c, u64 wr_id, struct ib_wc *wc)
{
	int i;

	for (i = 0; i < 10000; i++) {
		while (ib_poll_cq(c->cq, 1, wc) > 0)
			if (wc->wr_id == wr_id)
				return 0;
		usleep_range(1000, 2000);
	}
	return -ETIMEDOUT;
}

static int kv_sge_wrap(struct kv_ctx *c)
{
	/* 2 GiB + 2 GiB + 16 bytes: 16 in 32 bits */
	struct ib_sge sge[3] = {
		{ .addr = c->dma, .length = 0x80000000, .lkey = c->pd->local_dma_lkey },
		{ .addr = c->dma, .length = 0x80000000, .lkey = c->pd->local_dma_lkey },
		{ .addr = c->dma, .length = 16, .lkey = c->pd->local_dma_lkey },
	};
	struct ib_send_wr wr = {
		.opcode = IB_WR_SEND,
		.sg_list = sge,
		.num_sge = 3,
		.send_flags = IB_SEND_SIGNALED,
	};
	const struct ib_send_wr *bad;
	int err;

	err = ib_post_send(c->qp, &wr, &bad);
	if (err != -EINVAL) {
		snprintf(result, sizeof(result),
			 "fail: a SEND of 4 GiB + 16 bytes posted: %d", err);
		return 0;
	}
	/* inline, where the copy takes each SGE's length (not tried above) */
	wr.send_flags |= IB_SEND_INLINE;
	sge[0].addr = (uintptr_t)c->buf;
	sge[1].addr = (uintptr_t)c->buf;
	sge[2].addr = (uintptr_t)c->buf;
	err = ib_post_send(c->qp, &wr, &bad);
	if (err != -EINVAL) {
		snprintf(result, sizeof(result),
			 "fail: an inline SEND of 4 GiB + 16 bytes posted: %d", err);
		return 0;
	}
	strscpy(result, "pass", sizeof(result));
	return 0;
}

static int kv_reg_unmapped(struct kv_ctx *c)
{
	struct ib_sge sge = {
		.addr = c->dma, .length = 8, .lkey = c->pd->local_dma_lkey,
	};
	const struct ib_send_wr *bad;
	struct ib_reg_wr reg = {};
	struct ib_rdma_wr rdma = {};
	struct ib_wc wc;
	struct ib_mr *mr;
	int err;

	mr = ib_alloc_mr(c->pd, IB_MR_TYPE_MEM_REG, 4);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_id = 1;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = mr;
	reg.key = mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		     IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC;
	err = ib_post_send(c->qp, &reg.wr, &bad);
	if (!err)
		err = kv_wait(c, 1, &wc);
	if (err)
		goto out;
	if (wc.status != IB_WC_SUCCESS) {
		/* refusing the registration is as good */
		strscpy(result, "pass", sizeof(result));
		goto out;
	}
	/* the WRITE fails, and the QP with it */
	rdma.wr.opcode = IB_WR_RDMA_WRITE;
	rdma.wr.wr_id = 2;
	rdma.wr.send_flags = IB_SEND_SIGNALED;
	rdma.wr.sg_list = &sge;
	rdma.wr.num_sge = 1;
	rdma.remote_addr = 0;
	rdma.rkey = mr->rkey;
	err = ib_post_send(c->qp, &rdma.wr, &bad);
	if (!err)
		err = kv_wait(c, 2, &wc);
	if (err)
		goto out;
	if (wc.status == IB_WC_SUCCESS) {
		strscpy(result, "fail: a WRITE into an unmapped MR succeeded",
			sizeof(result));
		goto out;
	}
	pr_info("mrc_kverbs: WRITE into the unmapped MR: %s\n",
		ib_wc_status_msg(wc.status));
	strscpy(result, "pass", sizeof(result));
out:
	ib_dereg_mr(mr);
	return err;
}

struct kv_irq {
	struct hrtimer timer;
	struct completion done;
	struct ib_cq *cq;
	int polled;
};

static enum hrtimer_restart kv_irq_fn(struct hrtimer *t)
{
	struct kv_irq *k = container_of(t, struct kv_irq, timer);
	struct ib_wc wc;

	k->polled = ib_poll_cq(k->cq, 1, &wc);
	ib_req_notify_cq(k->cq, IB_CQ_NEXT_COMP);
	complete(&k->done);
	return HRTIMER_NORESTART;
}

static int kv_cq_resize(struct kv_ctx *c)
{
	struct ib_sge sge = {
		.addr = c->dma, .length = 8, .lkey = c->pd->local_dma_lkey,
	};
	struct ib_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 };
	struct ib_send_wr wr = {
		.opcode = IB_WR_SEND, .sg_list = &sge, .num_sge = 1,
		.send_flags = IB_SEND_SIGNALED,
	};
	const struct ib_recv_wr *rbad;
	const struct ib_send_wr *bad;
	struct kv_irq k = { .cq = c->cq };
	struct ib_wc wc;
	int err, i;

	init_completion(&k.done);
	hrtimer_init_on_stack(&k.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	k.timer.function = kv_irq_fn;
	hrtimer_start(&k.timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&k.done);
	hrtimer_cancel(&k.timer);
	destroy_hrtimer_on_stack(&k.timer);
	/* two completions (the SEND and its receive) to carry over */
	rwr.wr_id = 10;
	wr.wr_id = 11;
	err = ib_post_recv(c->qp, &rwr, &rbad);
	if (!err)
		err = ib_post_send(c->qp, &wr, &bad);
	if (err)
		return err;
	for (i = 0; i < 10000 && !ib_req_notify_cq(c->cq, IB_CQ_NEXT_COMP |
					IB_CQ_REPORT_MISSED_EVENTS); i++)
		usleep_range(1000, 2000);
	/* let both land before the resize */
	msleep(200);
	err = ib_resize_cq(c->cq, 128);
	if (err) {
		snprintf(result, sizeof(result), "fail: ib_resize_cq: %d", err);
		return 0;
	}
	for (i = 0; i < 2; i++) {
		if (ib_poll_cq(c->cq, 1, &wc) != 1) {
			snprintf(result, sizeof(result),
				 "fail: %d of 2 completions after the resize", i);
			return 0;
		}
		if (wc.status != IB_WC_SUCCESS) {
			snprintf(result, sizeof(result), "fail: wr %llu: %s",
				 wc.wr_id, ib_wc_status_msg(wc.status));
			return 0;
		}
	}
	strscpy(result, "pass", sizeof(result));
	return 0;
}

/* move the QP to RESET and connect it again */
static int kv_reconnect(struct kv_ctx *c)
{
	struct ib_qp_attr a = { .qp_state = IB_QPS_RESET };
	int err;

	err = ib_modify_qp(c->qp, &a, IB_QP_STATE);
	return err ?: kv_connect(c);
}

/* poll for @ms; a bit per wr_id (below 64) seen in *@seen */
static void kv_collect(struct kv_ctx *c, unsigned int ms, u64 *seen)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	struct ib_wc wc;

	do {
		while (ib_poll_cq(c->cq, 1, &wc) > 0) {
			if (wc.wr_id < 64)
				*seen |= BIT_ULL(wc.wr_id);
			if (wc.status != IB_WC_SUCCESS)
				pr_info("mrc_kverbs: wr %llu: %s\n", wc.wr_id,
					ib_wc_status_msg(wc.status));
		}
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
}

static int kv_post_send(struct kv_ctx *c, u64 wr_id)
{
	struct ib_sge sge = {
		.addr = c->dma, .length = 8, .lkey = c->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.wr_id = wr_id, .opcode = IB_WR_SEND, .sg_list = &sge,
		.num_sge = 1, .send_flags = IB_SEND_SIGNALED,
	};
	const struct ib_send_wr *bad;

	return ib_post_send(c->qp, &wr, &bad);
}

static int kv_post_recv(struct kv_ctx *c, u64 wr_id)
{
	struct ib_sge sge = {
		.addr = c->dma + 64, .length = 64,
		.lkey = c->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;

	return ib_post_recv(c->qp, &wr, &bad);
}

static int kv_reset_sq(struct kv_ctx *c)
{
	u64 seen = 0;
	int err;

	/* SEND 1 finds no receive: RNR NAKs, it stays outstanding */
	err = kv_post_send(c, 1);
	if (err)
		return err;
	kv_collect(c, 200, &seen);
	err = kv_reconnect(c);
	if (!err)
		err = kv_post_recv(c, 2);
	if (err)
		return err;
	kv_collect(c, 500, &seen);
	if (seen) {
		snprintf(result, sizeof(result),
			 "fail: before a new SEND, completions 0x%llx (1: the old SEND, 2: its receive)",
			 seen);
		return 0;
	}
	err = kv_post_send(c, 3);
	if (err)
		return err;
	kv_collect(c, 500, &seen);
	if (seen != (BIT_ULL(2) | BIT_ULL(3))) {
		snprintf(result, sizeof(result),
			 "fail: SEND 3 into receive 2: completions 0x%llx", seen);
		return 0;
	}
	strscpy(result, "pass", sizeof(result));
	return 0;
}

static int kv_reset_rq(struct kv_ctx *c)
{
	u64 seen = 0;
	int err;

	/* receive 4 is posted, never used: the QP forgets it */
	err = kv_post_recv(c, 4);
	if (!err)
		err = kv_reconnect(c);
	if (!err)
		err = kv_post_recv(c, 5);
	if (!err)
		err = kv_post_send(c, 6);
	if (err)
		return err;
	kv_collect(c, 500, &seen);
	if (seen != (BIT_ULL(5) | BIT_ULL(6))) {
		snprintf(result, sizeof(result),
			 "fail: SEND 6 into receive 5: completions 0x%llx (4: the old receive)",
			 seen);
		return 0;
	}
	strscpy(result, "pass", sizeof(result));
	return 0;
}

/* receive @wr_id into the 64 bytes at 64 * (@wr_id + 1) of the buffer */
static int kv_srq_post(struct kv_ctx *c, u64 wr_id)
{
	struct ib_sge sge = {
		.addr = c->dma + 64 * (wr_id + 1), .length = 64,
		.lkey = c->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;

	return ib_post_srq_recv(c->srq, &wr, &bad);
}

#define KV_SRQ_N	12	/* receives, more than the SRQ first holds */

static int kv_srq_resize(struct kv_ctx *c)
{
	struct ib_srq_init_attr sa = {
		.attr = { .max_wr = 4, .max_sge = 1 },
		.srq_type = IB_SRQT_BASIC,
	};
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = { .max_send_wr = 16, .max_send_sge = 1 },
		.send_cq = c->cq, .recv_cq = c->cq,
	};
	unsigned int i, sends = 0, next = 0;
	struct ib_srq_attr a = {};
	struct ib_wc wc;
	int err;

	c->srq = ib_create_srq(c->pd, &sa);
	if (IS_ERR(c->srq))
		return PTR_ERR(c->srq);
	/* the QP again, on the SRQ */
	ib_destroy_qp(c->qp);
	init.srq = c->srq;
	c->qp = ib_create_qp(c->pd, &init);
	if (IS_ERR(c->qp))
		return PTR_ERR(c->qp);
	err = kv_connect(c);
	for (i = 0; !err && i < 3; i++)
		err = kv_srq_post(c, i);
	if (err)
		return err;
	a.max_wr = 1;
	err = ib_modify_srq(c->srq, &a, IB_SRQ_MAX_WR);
	if (err != -EINVAL) {
		snprintf(result, sizeof(result),
			 "fail: resize below the 3 receives posted: %d", err);
		return 0;
	}
	a.max_wr = 32;
	err = ib_modify_srq(c->srq, &a, IB_SRQ_MAX_WR);
	for (i = 3; !err && i < KV_SRQ_N; i++)
		err = kv_srq_post(c, i);
	memcpy(c->buf, "mrc srq!", 8);
	for (i = 0; !err && i < KV_SRQ_N; i++)
		err = kv_post_send(c, 32 + i);
	if (err)
		return err;
	for (i = 0; i < 10000 && (sends < KV_SRQ_N || next < KV_SRQ_N); i++) {
		while (ib_poll_cq(c->cq, 1, &wc) > 0) {
			if (wc.status != IB_WC_SUCCESS) {
				snprintf(result, sizeof(result),
					 "fail: wr %llu: %s", wc.wr_id,
					 ib_wc_status_msg(wc.status));
				return 0;
			}
			if (wc.opcode == IB_WC_SEND) {
				sends++;
				continue;
			}
			if (wc.wr_id != next ||
			    memcmp(c->buf + 64 * (next + 1), "mrc srq!", 8)) {
				snprintf(result, sizeof(result),
					 "fail: receive %llu (want %u) or its bytes",
					 wc.wr_id, next);
				return 0;
			}
			next++;
		}
		usleep_range(1000, 2000);
	}
	if (sends < KV_SRQ_N || next < KV_SRQ_N) {
		snprintf(result, sizeof(result),
			 "fail: %u SENDs and %u receives completed of %u",
			 sends, next, KV_SRQ_N);
		return 0;
	}
	strscpy(result, "pass", sizeof(result));
	return 0;
}

static int __init kv_init(void)
{
	struct kv_ctx c = {};
	int err;

	c.rnr_retry = strcmp(test, "reset_sq") ? 2 : 7;
	err = kv_setup(&c);
	if (!err)
		err = kv_connect(&c);
	if (err) {
		snprintf(result, sizeof(result), "fail: setup: %d", err);
		goto out;
	}
	if (!strcmp(test, "sge_wrap"))
		err = kv_sge_wrap(&c);
	else if (!strcmp(test, "reg_unmapped"))
		err = kv_reg_unmapped(&c);
	else if (!strcmp(test, "cq_resize"))
		err = kv_cq_resize(&c);
	else if (!strcmp(test, "reset_sq"))
		err = kv_reset_sq(&c);
	else if (!strcmp(test, "reset_rq"))
		err = kv_reset_rq(&c);
	else if (!strcmp(test, "srq_resize"))
		err = kv_srq_resize(&c);
	else
		err = -EINVAL;
	if (err)
		snprintf(result, sizeof(result), "fail: %s: %d", test, err);
out:
	kv_teardown(&c);
	return 0;
}

static void __exit kv_exit(void)
{
}

module_init(kv_init);
module_exit(kv_exit);
MODULE_DESCRIPTION("mrc test: a kernel verbs consumer");
MODULE_LICENSE("GPL");
