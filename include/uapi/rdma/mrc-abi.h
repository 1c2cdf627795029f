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
	 * Bind an RC QP in RESET or INIT to a congestion control profile of
	 * its device (cc-profile-set of the "mrc" genetlink family), which
	 * must be online: the QP takes its knobs when it starts (RTS) instead
	 * of the device's own. Profile id 0: the device's own again.
	 */
	MRC_IB_METHOD_QP_BIND_PROFILES = (1U << UVERBS_ID_NS_SHIFT),
};

enum mrc_ib_qp_bind_profiles_attrs {
	MRC_IB_ATTR_BIND_QP_HANDLE = (1U << UVERBS_ID_NS_SHIFT),
	MRC_IB_ATTR_BIND_CC_PROFILE_ID,		/* __u64 */
};

#endif /* MRC_ABI_USER_H */
