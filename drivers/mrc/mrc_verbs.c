// SPDX-License-Identifier: GPL-2.0
/*
 * ib_device_ops of an mrc device.
 *
 * mrc speaks the rxe user ABI (include/uapi/rdma/rdma_user_rxe.h) so that
 * the stock rdma-core rxe provider drives it: same driver id, same ABI
 * version. Verbs mrc does not support (modify_cq, XRC QPs, ...) are left
 * out of the ops table, so the IB core fails them with -EOPNOTSUPP; the
 * README lists them.
 */
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/restrack.h>

#include "mrc.h"
#include "mrc_wire.h"

/* The rxe provider accepts ABI versions 1..2 on 64-bit hosts */
#define MRC_UVERBS_ABI_VERSION	2

/* The port is active when plane 0 can carry packets. */
enum ib_port_state mrc_verbs_port_state(struct net_device *ndev)
{
	if (ndev && netif_running(ndev) && netif_oper_up(ndev))
		return IB_PORT_ACTIVE;
	return IB_PORT_DOWN;
}

void mrc_verbs_init_attr(struct mrc_dev *mdev, struct net_device *ndev)
{
	struct ib_device_attr *attr = &mdev->attr;

	memset(attr, 0, sizeof(*attr));
	attr->vendor_id = MRC_VENDOR_ID;
	attr->vendor_part_id = MRC_VENDOR_PART_ID;
	attr->hw_ver = MRC_HW_REV;
	/* what ibv_devinfo prints as fw_ver: major.minor.patch, 16 bits each */
	attr->fw_ver = (u64)MRC_VERSION_MAJOR << 32 |
		       (u64)MRC_VERSION_MINOR << 16 | MRC_VERSION_PATCH;
	attr->max_pd = MRC_MAX_PD;
	attr->max_pkeys = MRC_PORT_PKEY_TBL_LEN;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_mr_size = MRC_MAX_MR_SIZE;
	attr->max_qp = MRC_MAX_QP;
	attr->max_qp_wr = MRC_MAX_QP_WR;
	attr->max_send_sge = MRC_MAX_SGE;
	attr->max_recv_sge = MRC_MAX_SGE;
	attr->max_sge_rd = MRC_MAX_SGE;
	attr->max_cq = MRC_MAX_CQ;
	attr->max_cqe = MRC_MAX_CQE;
	attr->max_mr = MRC_MAX_MR;
	attr->max_mw = MRC_MAX_MW;
	attr->max_ah = MRC_MAX_AH;
	attr->max_srq = MRC_MAX_SRQ;
	attr->max_srq_wr = MRC_MAX_SRQ_WR;
	attr->max_srq_sge = MRC_MAX_SGE;
	attr->max_qp_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = MRC_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = MRC_MAX_RD_ATOMIC * MRC_MAX_QP;
	attr->max_fast_reg_page_list_len = MRC_MAX_FAST_PAGES;
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->max_mcast_grp = MRC_MAX_MCAST_GRP;
	attr->max_mcast_qp_attach = MRC_MAX_MCAST_QP_ATTACH;
	attr->max_total_mcast_qp_attach = MRC_MAX_MCAST_GRP *
					  MRC_MAX_MCAST_QP_ATTACH;
	/* FLUSH to global visibility only: no persistent memory behind MRs */
	attr->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN |
				 IB_DEVICE_MEM_MGT_EXTENSIONS |
				 IB_DEVICE_FLUSH_GLOBAL | IB_DEVICE_ATOMIC_WRITE |
				 IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_WINDOW_TYPE_2B;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	addrconf_addr_eui48((unsigned char *)&attr->sys_image_guid,
			    ndev->dev_addr);
	addrconf_addr_eui48((unsigned char *)&mdev->ib_dev.node_guid,
			    ndev->dev_addr);
}

static int mrc_query_device(struct ib_device *ibdev,
			    struct ib_device_attr *attr,
			    struct ib_udata *udata)
{
	if (udata->inlen || udata->outlen)
		return -EINVAL;
	*attr = to_mdev(ibdev)->attr;
	return 0;
}

static int mrc_query_port(struct ib_device *ibdev, u32 port_num,
			  struct ib_port_attr *attr)
{
	struct mrc_dev *mdev = to_mdev(ibdev);
	struct net_device *ndev;
	int err;

	ndev = mrc_dev_netdev_get(mdev);
	if (!ndev)
		return -ENODEV;

	/* the core zeroed *attr */
	attr->state = mrc_verbs_port_state(ndev);
	if (attr->state == IB_PORT_ACTIVE)
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	else if (dev_get_flags(ndev) & IFF_UP)
		attr->phys_state = IB_PORT_PHYS_STATE_POLLING;
	else
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = READ_ONCE(mdev->path_mtu);
	attr->gid_tbl_len = MRC_PORT_GID_TBL_LEN;
	attr->pkey_tbl_len = MRC_PORT_PKEY_TBL_LEN;
	attr->max_vl_num = 1;
	attr->max_msg_sz = MRC_MAX_MSG;
	dev_put(ndev);

	err = ib_get_eth_speed(ibdev, port_num, &attr->active_speed,
			       &attr->active_width);
	return err;
}

static int mrc_get_port_immutable(struct ib_device *ibdev, u32 port_num,
				  struct ib_port_immutable *immutable)
{
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	immutable->pkey_tbl_len = MRC_PORT_PKEY_TBL_LEN;
	immutable->gid_tbl_len = MRC_PORT_GID_TBL_LEN;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static int mrc_query_pkey(struct ib_device *ibdev, u32 port_num, u16 index,
			  u16 *pkey)
{
	if (index >= MRC_PORT_PKEY_TBL_LEN)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static enum rdma_link_layer mrc_get_link_layer(struct ib_device *ibdev,
					       u32 port_num)
{
	return IB_LINK_LAYER_ETHERNET;
}

static struct net_device *mrc_get_netdev(struct ib_device *ibdev, u32 port_num)
{
	return mrc_dev_netdev_get(to_mdev(ibdev));
}

static void mrc_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	snprintf(str, IB_FW_VERSION_NAME_MAX, "%s", MRC_FW_VERSION);
}

static int mrc_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibuc->device);

	if (!mrc_dev_take(&mdev->num_ucontext, MRC_MAX_UCONTEXT))
		return -ENOMEM;
	return 0;
}

static void mrc_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	atomic_dec(&to_mdev(ibuc->device)->num_ucontext);
}

static int mrc_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibpd->device);

	if (!mrc_dev_take(&mdev->num_pd, MRC_MAX_PD))
		return -ENOMEM;
	return 0;
}

static int mrc_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	atomic_dec(&to_mdev(ibpd->device)->num_pd);
	return 0;
}

/*
 * What a QP costs in kernel memory beyond its struct, for `rdma res show
 * qp -dd`: its rings (shared with the user), the kernel copies of their
 * WQEs and the requester's TX window. All of it is charged to the memory
 * cgroup of the QP's creator.
 */
static int mrc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	struct mrc_req *r = &qp->req;
	struct nlattr *nest;
	u64 copies, win;

	copies = (u64)(qp->sq.mask + 1) * (qp->sq_elem + sizeof(*r->meta)) +
		 (u64)MRC_RMSG_MAX * qp->rq_elem;
	win = (u64)MRC_TX_WIN * (sizeof(*r->txs) + sizeof(*r->txev) +
				 sizeof(*r->txseq) + sizeof(*r->sent_us));
	nest = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!nest)
		return -EMSGSIZE;
	if (rdma_nl_put_driver_u64(msg, "sq_ring_bytes", qp->sq.size) ||
	    rdma_nl_put_driver_u64(msg, "rq_ring_bytes", qp->rq.size) ||
	    rdma_nl_put_driver_u64(msg, "wqe_copy_bytes", copies) ||
	    rdma_nl_put_driver_u64(msg, "tx_window_bytes", win) ||
	    rdma_nl_put_driver_u64(msg, "mem_bytes",
				   qp->sq.size + qp->rq.size + copies + win)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static const struct ib_device_ops mrc_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = MRC_UVERBS_ABI_VERSION,

	.alloc_hw_port_stats = mrc_alloc_hw_port_stats,
	.alloc_mr = mrc_alloc_mr,
	.alloc_mw = mrc_alloc_mw,
	.alloc_pd = mrc_alloc_pd,
	.alloc_ucontext = mrc_alloc_ucontext,
	.attach_mcast = mrc_attach_mcast,
	.create_ah = mrc_create_ah,
	.create_cq = mrc_compat_create_cq,
	.create_qp = mrc_create_qp,
	.create_srq = mrc_create_srq,
	.create_user_ah = mrc_create_ah,
	.dealloc_driver = mrc_dev_dealloc,
	.dealloc_mw = mrc_dealloc_mw,
	.dealloc_pd = mrc_dealloc_pd,
	.dealloc_ucontext = mrc_dealloc_ucontext,
	.dereg_mr = mrc_dereg_mr,
	.destroy_ah = mrc_destroy_ah,
	.destroy_cq = mrc_destroy_cq,
	.destroy_qp = mrc_destroy_qp,
	.destroy_srq = mrc_destroy_srq,
	.detach_mcast = mrc_detach_mcast,
	.get_dev_fw_str = mrc_get_dev_fw_str,
	.fill_res_qp_entry = mrc_fill_res_qp_entry,
	.get_dma_mr = mrc_get_dma_mr,
	.get_hw_stats = mrc_get_hw_stats,
	.get_link_layer = mrc_get_link_layer,
	.get_netdev = mrc_get_netdev,
	.get_port_immutable = mrc_get_port_immutable,
	.map_mr_sg = mrc_map_mr_sg,
	.mmap = mrc_mmap,
	.mmap_free = mrc_mmap_free,
	.modify_qp = mrc_modify_qp,
	.modify_srq = mrc_modify_srq,
	.poll_cq = mrc_poll_cq,
	.post_recv = mrc_post_recv,
	.post_send = mrc_post_send,
	.post_srq_recv = mrc_post_srq_recv,
	.query_ah = mrc_query_ah,
	.query_device = mrc_query_device,
	.query_pkey = mrc_query_pkey,
	.query_port = mrc_query_port,
	.query_qp = mrc_query_qp,
	.query_srq = mrc_query_srq,
	.reg_user_mr = mrc_reg_user_mr,
	.rereg_user_mr = mrc_rereg_user_mr,
	.req_notify_cq = mrc_req_notify_cq,
	.resize_cq = mrc_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, mrc_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, mrc_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_mw, mrc_mw, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_pd, mrc_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, mrc_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, mrc_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, mrc_ucontext, ibuc),
};

/*
 * .get_netdev instead of ib_device_set_netdev(): the latter publishes the
 * device in the IB core's netdev hash, where rdma_rxe looks up "its" devices
 * by RDMA_DRIVER_RXE and would container_of() an mrc device into a struct
 * rxe_dev. Through .get_netdev the GID table and rdma link still see plane 0.
 */
int mrc_verbs_register(struct mrc_dev *mdev, const char *ibdev_name)
{
	struct ib_device *dev = &mdev->ib_dev;

	strscpy(dev->node_desc, MRC_NODE_DESC, sizeof(dev->node_desc));
	dev->node_type = RDMA_NODE_IB_CA;
	dev->phys_port_cnt = 1;
	dev->num_comp_vectors = 1;
	dev->local_dma_lkey = 0;
	dev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	ib_set_device_ops(dev, &mrc_dev_ops);
	dev->driver_def = mrc_uapi_defs;	/* mrc's own methods (mrc_uapi.c) */
	return ib_register_device(dev, ibdev_name, NULL);
}
