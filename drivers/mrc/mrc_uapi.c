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

/* an optional profile id of the call: 0 if absent, 1 if given, or -errno */
static int bind_id(struct uverbs_attr_bundle *attrs, u16 attr, u64 *id)
{
	int err;

	*id = 0;
	if (!uverbs_attr_is_valid(attrs, attr))
		return 0;
	err = uverbs_copy_from(id, attrs, attr);
	return err ?: 1;
}

/* the online profile of id @id a QP binds (id 0: none); cfg_lock held */
static int cc_online(struct mrc_dev *mdev, u64 id, struct mrc_profile **out)
{
	struct mrc_cc_profile *pf = mrc_cc_profile_find(mdev, id);

	return mrc_profile_online(pf ? &pf->hdr : NULL, id, out);
}

static int ev_online(struct mrc_dev *mdev, u64 id, struct mrc_profile **out)
{
	struct mrc_ev_profile *pf = mrc_ev_profile_find(mdev, id);

	return mrc_profile_online(pf ? &pf->hdr : NULL, id, out);
}

static int UVERBS_HANDLER(MRC_IB_METHOD_QP_BIND_PROFILES)(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp = uverbs_attr_get_obj(attrs, MRC_IB_ATTR_BIND_QP_HANDLE);
	struct mrc_profile *cc, *ev;
	enum ib_qp_state state;
	int has_cc, has_ev, err;
	struct mrc_dev *mdev;
	struct mrc_qp *qp;
	u64 cc_id, ev_id;

	if (IS_ERR(ibqp))
		return PTR_ERR(ibqp);
	qp = to_mqp(ibqp);
	mdev = qp->mdev;
	has_cc = bind_id(attrs, MRC_IB_ATTR_BIND_CC_PROFILE_ID, &cc_id);
	if (has_cc < 0)
		return has_cc;
	has_ev = bind_id(attrs, MRC_IB_ATTR_BIND_EV_PROFILE_ID, &ev_id);
	if (has_ev < 0)
		return has_ev;
	if ((!has_cc && !has_ev) || ibqp->qp_type != IB_QPT_RC)
		return -EINVAL;
	/* what a QP takes, it takes when it connects and starts */
	spin_lock_bh(&qp->lock);
	state = qp->state;
	spin_unlock_bh(&qp->lock);
	if (state != IB_QPS_RESET && state != IB_QPS_INIT)
		return -EINVAL;
	mutex_lock(&mdev->cfg_lock);
	err = has_cc ? cc_online(mdev, cc_id, &cc) : 0;
	if (!err && has_ev)
		err = ev_online(mdev, ev_id, &ev);
	if (!err && has_cc)
		mrc_profile_bind(&qp->cc_profile, cc);
	if (!err && has_ev)
		mrc_profile_bind(&qp->ev_profile, ev);
	mutex_unlock(&mdev->cfg_lock);
	return err;
}

DECLARE_UVERBS_NAMED_METHOD(MRC_IB_METHOD_QP_BIND_PROFILES,
			    UVERBS_ATTR_IDR(MRC_IB_ATTR_BIND_QP_HANDLE,
					    UVERBS_OBJECT_QP,
					    UVERBS_ACCESS_WRITE,
					    UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(MRC_IB_ATTR_BIND_CC_PROFILE_ID,
					       UVERBS_ATTR_TYPE(u64),
					       UA_OPTIONAL),
			    UVERBS_ATTR_PTR_IN(MRC_IB_ATTR_BIND_EV_PROFILE_ID,
					       UVERBS_ATTR_TYPE(u64),
					       UA_OPTIONAL));

ADD_UVERBS_METHODS(mrc_qp_methods,
		   UVERBS_OBJECT_QP,
		   &UVERBS_METHOD(MRC_IB_METHOD_QP_BIND_PROFILES));

const struct uapi_definition mrc_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_QP, &mrc_qp_methods),
	{},
};
