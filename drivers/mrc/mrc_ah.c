// SPDX-License-Identifier: GPL-2.0
/*
 * Address handles, and the address vector a connected QP or an AH keeps:
 * the GID entry's addresses, traffic class, flow label and hop limit.
 */
#include <linux/random.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>

#include "mrc.h"

int mrc_av_from_attr(struct mrc_av *av, const struct rdma_ah_attr *attr)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid;

	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	sgid = grh->sgid_attr;
	if (!sgid)
		return -EINVAL;
	if (sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EOPNOTSUPP;
	memcpy(&av->daddr, grh->dgid.raw, sizeof(av->daddr));
	memcpy(&av->saddr, sgid->gid.raw, sizeof(av->saddr));
	av->family = ipv6_addr_v4mapped(&av->daddr) ? AF_INET : AF_INET6;
	if (av->family != (ipv6_addr_v4mapped(&av->saddr) ? AF_INET : AF_INET6))
		return -EINVAL;
	av->tclass = grh->traffic_class;
	av->hop_limit = grh->hop_limit ?: 64;
	av->flow_label = grh->flow_label;
	return 0;
}

int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibah->device);
	struct mrc_ah *ah = to_mah(ibah);
	struct rxe_create_ah_resp resp = {};
	unsigned long flags;
	int err;

	err = mrc_av_from_attr(&ah->av, init->ah_attr);
	if (err)
		return err;
	if (!mrc_dev_take(&mdev->num_ah, MRC_MAX_AH))
		return -ENOMEM;
	ah->av.sport = mrc_qp_sport(get_random_u32());
	ah->attr = *init->ah_attr;
	/* the IB CM creates AHs under a spinlock with IRQs off */
	xa_lock_irqsave(&mdev->ah_xa, flags);
	err = __xa_alloc_cyclic(&mdev->ah_xa, &ah->ah_num, ah,
				XA_LIMIT(1, MRC_MAX_AH), &mdev->ah_next,
				GFP_ATOMIC);
	xa_unlock_irqrestore(&mdev->ah_xa, flags);
	if (err < 0) {
		atomic_dec(&mdev->num_ah);
		return err;
	}
	if (udata && udata->outlen >= sizeof(resp)) {
		resp.ah_num = ah->ah_num;
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err) {
			mrc_destroy_ah(ibah, 0);
			return err;
		}
	}
	return 0;
}

int mrc_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_mah(ibah)->attr;
	attr->grh.sgid_attr = NULL;
	return 0;
}

int mrc_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct mrc_dev *mdev = to_mdev(ibah->device);
	unsigned long irqf;

	xa_lock_irqsave(&mdev->ah_xa, irqf);
	__xa_erase(&mdev->ah_xa, to_mah(ibah)->ah_num);
	xa_unlock_irqrestore(&mdev->ah_xa, irqf);
	atomic_dec(&mdev->num_ah);
	return 0;
}
