/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the requester (mrc_req.c) and the completer (mrc_comp.c) of a QP
 * share: the slots of the send window, the kernel copies of the send
 * WQEs, the timer.
 */
#ifndef _MRC_REQ_H
#define _MRC_REQ_H

#include "mrc.h"

#define MRC_PROBE_MIN_US	1000	/* a QP sends probes at most this often */

static inline u32 tslot(u32 psn)
{
	return psn & (MRC_TX_WIN - 1);
}

static inline struct rxe_send_wqe *wcopy(struct mrc_qp *qp, u32 idx)
{
	return qp->req.copies + (size_t)(idx & qp->sq.mask) * qp->sq_elem;
}

static inline struct mrc_swqe *wmeta(struct mrc_qp *qp, u32 idx)
{
	return &qp->req.meta[idx & qp->sq.mask];
}

static u32 now_us(void)
{
	return mrc_now_us();
}

bool mrc_req_find_wqe(struct mrc_qp *qp, u32 psn, u32 *idxp);

void mrc_comp_wqes(struct mrc_qp *qp);
void mrc_comp_timeout(struct mrc_qp *qp);
void mrc_comp_arm_timer(struct mrc_qp *qp);
void mrc_comp_timer_update(struct mrc_qp *qp, bool exact);
u32 mrc_comp_probe_us(struct mrc_qp *qp);

#endif /* _MRC_REQ_H */
