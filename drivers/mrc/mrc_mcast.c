// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast groups of UD QPs: attach_mcast, detach_mcast, and delivery of
 * the packets sent to a group.
 *
 * A group is a multicast IP address (as a GID: v4-mapped for IPv4) that
 * UD QPs of the device attached to. It exists while a QP is attached; for
 * that long its MAC is on plane 0's multicast list, so that a NIC which
 * filters lets its frames in. Packets to a group are UD sends to QPN
 * 0xFFFFFF arriving on plane 0; every attached QP gets them (its Q_Key is
 * checked as for any UD receive). MRC's multipath is for RC: multicast,
 * like all UD traffic, goes through plane 0 and the routing table.
 *
 * Lifetimes and locking: groups hang in mdev->mcg_hash, changed under
 * mdev->mcg_lock (a mutex: dev_mc_add may sleep) and read under RCU by
 * the receive path. A change replaces the group (copy, update, swap,
 * kfree_rcu), so a reader sees each QP of it exactly once. A group names
 * its QPs by number: delivery takes each with mrc_qp_get() as any
 * packet's. The IB core keeps an attached QP from being destroyed
 * (qp->usecnt); uverbs detaches a QP's groups before destroying it.
 */
#include <linux/etherdevice.h>
#include <linux/jhash.h>
#include <net/addrconf.h>
#include <net/ip.h>
#include <net/ipv6.h>

#include "mrc.h"

struct mrc_mcg {
	struct hlist_node node;		/* in mdev->mcg_hash; RCU */
	struct rcu_head rcu;
	union ib_gid gid;
	unsigned int nr_qp;
	struct {
		u32 qpn;
		u32 refs;		/* attach calls not yet detached */
	} qp[MRC_MAX_MCAST_QP_ATTACH];
};

static u32 mcg_bucket(const union ib_gid *gid)
{
	return jhash(gid->raw, sizeof(gid->raw), 0) % MRC_MCG_HASH_SIZE;
}

/* RCU read side or mdev->mcg_lock held */
static struct mrc_mcg *mcg_find(struct mrc_dev *mdev, const union ib_gid *gid)
{
	struct mrc_mcg *mcg;

	hlist_for_each_entry_rcu(mcg, &mdev->mcg_hash[mcg_bucket(gid)], node,
				 lockdep_is_held(&mdev->mcg_lock))
		if (!memcmp(mcg->gid.raw, gid->raw, sizeof(gid->raw)))
			return mcg;
	return NULL;
}

static void mcg_mac(const union ib_gid *gid, u8 *mac)
{
	struct in6_addr *a = (struct in6_addr *)gid->raw;

	if (ipv6_addr_v4mapped(a))
		ip_eth_mc_map(a->s6_addr32[3], mac);
	else
		ipv6_eth_mc_map(a, mac);
}

/* Add or remove the group's MAC on plane 0 (none: the netdev is gone) */
static void mcg_filter(struct mrc_dev *mdev, const union ib_gid *gid, bool add)
{
	struct net_device *ndev = mrc_dev_netdev_get(mdev);
	u8 mac[ETH_ALEN];

	if (!ndev)
		return;
	mcg_mac(gid, mac);
	if (add)
		dev_mc_add(ndev, mac);
	else
		dev_mc_del(ndev, mac);
	dev_put(ndev);
}

/* Put @new in @old's place (or in the table), mcg_lock held */
static void mcg_replace(struct mrc_dev *mdev, struct mrc_mcg *old,
			struct mrc_mcg *new)
{
	if (old && new) {
		hlist_replace_rcu(&old->node, &new->node);
	} else if (new) {
		hlist_add_head_rcu(&new->node,
				   &mdev->mcg_hash[mcg_bucket(&new->gid)]);
	} else {
		hlist_del_rcu(&old->node);
	}
	if (old)
		kfree_rcu(old, rcu);
}

int mrc_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct mrc_dev *mdev = to_mdev(ibqp->device);
	struct mrc_mcg *old, *new;
	unsigned int i;
	int err = 0;

	/* the IB core let only UD QPs and multicast GIDs through */
	mutex_lock(&mdev->mcg_lock);
	old = mcg_find(mdev, gid);
	if (!old && mdev->nr_mcg >= MRC_MAX_MCAST_GRP) {
		err = -ENOMEM;
		goto out;
	}
	new = kmalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
	if (!new) {
		err = -ENOMEM;
		goto out;
	}
	if (old) {
		*new = *old;
	} else {
		memset(new, 0, sizeof(*new));
		new->gid = *gid;
	}
	for (i = 0; i < new->nr_qp && new->qp[i].qpn != ibqp->qp_num; i++)
		;
	if (i == new->nr_qp) {
		if (i == MRC_MAX_MCAST_QP_ATTACH) {
			kfree(new);
			err = -ENOMEM;
			goto out;
		}
		new->qp[i].qpn = ibqp->qp_num;
		new->nr_qp++;
	}
	/* the core counts each successful attach in qp->usecnt: so do we */
	new->qp[i].refs++;
	if (!old) {
		mdev->nr_mcg++;
		mcg_filter(mdev, gid, true);
	}
	mcg_replace(mdev, old, new);
out:
	mutex_unlock(&mdev->mcg_lock);
	return err;
}

int mrc_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct mrc_dev *mdev = to_mdev(ibqp->device);
	struct mrc_mcg *old, *new = NULL;
	unsigned int i;
	int err = 0;

	mutex_lock(&mdev->mcg_lock);
	old = mcg_find(mdev, gid);
	for (i = 0; old && i < old->nr_qp; i++)
		if (old->qp[i].qpn == ibqp->qp_num)
			break;
	if (!old || i == old->nr_qp) {
		err = -EINVAL;
		goto out;
	}
	if (old->nr_qp > 1 || old->qp[i].refs > 1) {
		new = kmemdup(old, sizeof(*old), GFP_KERNEL_ACCOUNT);
		if (!new) {
			err = -ENOMEM;
			goto out;
		}
		if (!--new->qp[i].refs)
			new->qp[i] = new->qp[--new->nr_qp];
	} else {
		mdev->nr_mcg--;
		mcg_filter(mdev, gid, false);
	}
	mcg_replace(mdev, old, new);
out:
	mutex_unlock(&mdev->mcg_lock);
	return err;
}

/**
 * mrc_mcast_ours() - has a QP of @mdev joined the group @gid?
 * @mdev: the device
 * @gid: a multicast address, as a GID
 *
 * Context: RCU read side (the receive path).
 */
bool mrc_mcast_ours(struct mrc_dev *mdev, const union ib_gid *gid)
{
	return mcg_find(mdev, gid);
}

/*
 * The group of a UD packet to QPN 0xFFFFFF: its (inner) IP destination,
 * as a GID.
 */
static void pkt_group(const struct sk_buff *skb, union ib_gid *gid)
{
	if (skb->protocol == htons(ETH_P_IP))
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr,
				       (struct in6_addr *)gid->raw);
	else
		memcpy(gid->raw, &ipv6_hdr(skb)->daddr, sizeof(gid->raw));
}

/**
 * mrc_mcast_recv() - hand a UD packet sent to a group to its QPs
 * @mdev: the device
 * @skb: the packet, parsed (mrc_skb_pkt()), at its IP header; not consumed
 *
 * Context: the receive path, RCU read side. A packet for no group of
 * ours (a unicast one to QPN 0xFFFFFF among them) is dropped and counted.
 */
void mrc_mcast_recv(struct mrc_dev *mdev, struct sk_buff *skb)
{
	const struct mrc_mcg *mcg;
	struct mrc_qp *qp;
	union ib_gid gid;
	unsigned int i;

	pkt_group(skb, &gid);
	mcg = mcg_find(mdev, &gid);
	if (!mcg) {
		mrc_count(mdev, MRC_CNT_NO_QP, 1);
		return;
	}
	for (i = 0; i < mcg->nr_qp; i++) {
		qp = mrc_qp_get(mdev, mcg->qp[i].qpn);
		if (!qp)
			continue;
		spin_lock(&qp->lock);
		if (!qp->dying && qp->ibqp.qp_type == IB_QPT_UD)
			mrc_resp_ud_recv(qp, skb);
		spin_unlock(&qp->lock);
		mrc_qp_put(qp);
	}
}

void mrc_mcast_init(struct mrc_dev *mdev)
{
	unsigned int i;

	mutex_init(&mdev->mcg_lock);
	for (i = 0; i < MRC_MCG_HASH_SIZE; i++)
		INIT_HLIST_HEAD(&mdev->mcg_hash[i]);
}

/* At dealloc: every QP is gone, and with them their attachments */
void mrc_mcast_cleanup(struct mrc_dev *mdev)
{
	unsigned int i;

	for (i = 0; i < MRC_MCG_HASH_SIZE; i++)
		WARN_ON(!hlist_empty(&mdev->mcg_hash[i]));
	mutex_destroy(&mdev->mcg_lock);
}
