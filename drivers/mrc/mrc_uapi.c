// SPDX-License-Identifier: GPL-2.0
/*
 * mrc's own uverbs methods (include/uapi/rdma/mrc-abi.h), beside the rxe
 * user ABI: what the OCP MRC API sets on one QP, which only the process
 * that owns the QP may set (its uverbs handle names it; netlink could not
 * tell). The uverbs core holds the QP's object for the call.
 */
#define UVERBS_MODULE_NAME mrc_ib
#include <rdma/uverbs_named_ioctl.h>
#include <uapi/rdma/mrc-abi.h>

#include "mrc.h"

static int UVERBS_HANDLER(MRC_IB_METHOD_QP_BIND_PROFILES)(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp = uverbs_attr_get_obj(attrs, MRC_IB_ATTR_BIND_QP_HANDLE);
	u64 id;
	int err;

	if (IS_ERR(ibqp))
		return PTR_ERR(ibqp);
	err = uverbs_copy_from(&id, attrs, MRC_IB_ATTR_BIND_CC_PROFILE_ID);
	if (err)
		return err;
	return mrc_cc_profile_bind(to_mqp(ibqp), id);
}

DECLARE_UVERBS_NAMED_METHOD(MRC_IB_METHOD_QP_BIND_PROFILES,
			    UVERBS_ATTR_IDR(MRC_IB_ATTR_BIND_QP_HANDLE,
					    UVERBS_OBJECT_QP,
					    UVERBS_ACCESS_WRITE,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(MRC_IB_ATTR_BIND_CC_PROFILE_ID,
					       UVERBS_ATTR_TYPE(u64),
					       UA_MANDATORY));

ADD_UVERBS_METHODS(mrc_qp_methods,
		   UVERBS_OBJECT_QP,
		   &UVERBS_METHOD(MRC_IB_METHOD_QP_BIND_PROFILES));

const struct uapi_definition mrc_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_QP, &mrc_qp_methods),
	{},
};
