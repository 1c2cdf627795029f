/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * mrc's own uverbs methods, beside the rxe user ABI it speaks: an MRC
 * device's QPs take what the OCP MRC API sets per QP through them (libmrc
 * calls them with RDMA_VERBS_IOCTL on the device's command fd; a QP is
 * named by its uverbs handle, so only the process that owns it can).
 */
#ifndef MRC_ABI_USER_H
#define MRC_ABI_USER_H

#include <linux/types.h>
#include <rdma/ib_user_ioctl_cmds.h>

enum mrc_ib_qp_methods {
	/*
	 * Bind an RC QP in RESET or INIT to profiles of its device, each
	 * online, either or both ("mrc" genetlink family): a congestion
	 * control profile (cc-profile-set), whose knobs the QP takes when it
	 * starts (RTS) instead of the device's own; an EV profile
	 * (ev-profile-set), whose count and floor shape the EV set the QP
	 * builds when it connects (RTR). Profile id 0: none (the device's).
	 * Nothing is bound unless all is.
	 */
	MRC_IB_METHOD_QP_BIND_PROFILES = (1U << UVERBS_ID_NS_SHIFT),
};

enum mrc_ib_qp_bind_profiles_attrs {
	MRC_IB_ATTR_BIND_QP_HANDLE = (1U << UVERBS_ID_NS_SHIFT),
	MRC_IB_ATTR_BIND_CC_PROFILE_ID,		/* __u64, optional */
	MRC_IB_ATTR_BIND_EV_PROFILE_ID,		/* __u64, optional */
};

#endif /* MRC_ABI_USER_H */
