// SPDX-License-Identifier: GPL-2.0
/*
 * Planes: the Ethernet netdevs of a device. Plane 0 is the netdev of
 * "rdma link add"; planes 1..15 are added and removed over netlink.
 *
 * Locking: planes are added, removed and change state under RTNL (netlink
 * handlers take it; netdev notifiers run with it), and are read under RCU
 * by the packet paths. A plane holds a reference on its netdev and is that
 * netdev's rx_handler_data, so NETDEV_UNREGISTER finds it directly. A
 * plane that goes down (or leaves) hands its bit to the device's spraying
 * RC QPs, whose work resends what they had out on it: mrc_qp_planes_down()
 * takes no QP lock under RTNL.
 *
 * Sources: any node of a plane's fabric can send to it. The operator may
 * name the prefixes a plane takes packets from (its fabric's, its peers'
 * plane addresses and, for SRv6 paths, the sources their encapsulation
 * uses); every packet's outer source is checked against them before
 * anything else looks at it.
 *
 * Admin state: the operator may take a plane down (plane-set admin down,
 * the OCP MRC API's port admin state) while its netdev stays up for the
 * host. It only clears the plane's bit in planes_up, the bit a carrier
 * loss clears, so QPs skip its EVs, acknowledge and probe on other planes,
 * tell their peers in their SACKs' port status and resend what was in
 * flight on it exactly as after a carrier loss; admin up sets the bit
 * again (if the netdev can carry packets) as a carrier coming back does.
 * The packet paths drop what still meets an admin-down plane, so nothing
 * is sent on it and nothing it receives is taken.
 */
#include <kunit/visibility.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/ipv6.h>

#include "mrc.h"

bool mrc_plane_is_up(const struct net_device *ndev)
{
	return netif_running(ndev) && netif_oper_up(ndev);
}

/*
 * Recompute which planes carry which path MTU, and the smallest: a QP
 * sprays its data only over planes its MTU fits, and the port reports the
 * MTU every plane carries, the one to choose. RTNL.
 */
static void set_mtus(struct mrc_dev *mdev)
{
	enum ib_mtu least = IB_MTU_4096, m, pm;
	u16 fit[IB_MTU_4096 + 1] = {};
	struct mrc_plane *plane;
	bool any = false;
	int i;

	ASSERT_RTNL();
	for (i = 0; i < MRC_MAX_PLANES; i++) {
		plane = rtnl_dereference(mdev->planes[i]);
		if (!plane)
			continue;
		pm = mrc_wire_path_mtu(READ_ONCE(plane->ndev->mtu));
		for (m = IB_MTU_256; m <= pm; m++)
			fit[m] |= BIT(i);
		least = min(least, pm ? pm : IB_MTU_256);
		any = true;
	}
	for (m = IB_MTU_256; m <= IB_MTU_4096; m++)
		WRITE_ONCE(mdev->planes_fit[m], fit[m]);
	WRITE_ONCE(mdev->path_mtu, any ? least : IB_MTU_256);
}

/* Recompute the bit of @plane in planes_up, and the MTUs. RTNL. */
static void set_state(struct mrc_plane *plane)
{
	struct mrc_dev *mdev = plane->mdev;
	u16 up = mdev->planes_up & ~BIT(plane->id);

	ASSERT_RTNL();
	if (mrc_plane_is_up(plane->ndev) && !plane->admin_down)
		up |= BIT(plane->id);
	WRITE_ONCE(mdev->planes_up, up);
	set_mtus(mdev);
}

/*
 * Planes up in @was and not now lose what QPs have out on them: they
 * resend it on the others at once rather than after a timeout. RTNL.
 */
static void went_down(struct mrc_dev *mdev, u16 was)
{
	u16 lost = was & ~mdev->planes_up;

	if (lost)
		mrc_qp_planes_down(mdev, lost);
}

/**
 * mrc_plane_add() - attach @ndev to @mdev as a plane
 * @mdev: the device
 * @id: plane number, or -1 for the lowest free one
 * @ndev: the netdev
 * @extack: for the reason of a refusal
 *
 * Context: RTNL held.
 * Return: the plane number, or -EINVAL, -EBUSY, -EEXIST, -ENOSPC, -ENOMEM.
 */
int mrc_plane_add(struct mrc_dev *mdev, int id, struct net_device *ndev,
		  struct netlink_ext_ack *extack)
{
	struct mrc_plane *plane;
	const char *why;
	int err;

	ASSERT_RTNL();
	err = mrc_dev_netdev_usable(ndev, &why);
	if (err) {
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return err;
	}
	if (id < 0) {
		for (id = 0; id < MRC_MAX_PLANES; id++)
			if (!rtnl_dereference(mdev->planes[id]))
				break;
		if (id == MRC_MAX_PLANES) {
			NL_SET_ERR_MSG_FMT(extack, "the device has %d planes already",
					   MRC_MAX_PLANES);
			return -ENOSPC;
		}
	} else if (id >= MRC_MAX_PLANES) {
		NL_SET_ERR_MSG(extack, "plane number out of range");
		return -EINVAL;
	} else if (rtnl_dereference(mdev->planes[id])) {
		NL_SET_ERR_MSG(extack, "the device has this plane already");
		return -EEXIST;
	}
	plane = kzalloc(sizeof(*plane), GFP_KERNEL);
	if (!plane)
		return -ENOMEM;
	plane->stats = alloc_percpu(struct mrc_plane_stats);
	if (!plane->stats) {
		kfree(plane);
		return -ENOMEM;
	}
	plane->mdev = mdev;
	plane->ndev = ndev;
	plane->id = id;
	netdev_hold(ndev, &plane->tracker, GFP_KERNEL);
	err = mrc_net_attach(plane);
	if (err) {
		NL_SET_ERR_MSG(extack, "the netdev already has a receive handler");
		netdev_put(ndev, &plane->tracker);
		free_percpu(plane->stats);
		kfree(plane);
		return err;
	}
	rcu_assign_pointer(mdev->planes[id], plane);
	set_state(plane);
	mrc_dbg(mdev, "plane %d: %s\n", id, ndev->name);
	return id;
}

static void remove(struct mrc_dev *mdev, struct mrc_plane *plane)
{
	RCU_INIT_POINTER(mdev->planes[plane->id], NULL);
	WRITE_ONCE(mdev->planes_up, mdev->planes_up & ~BIT(plane->id));
	set_mtus(mdev);
	mrc_net_detach(plane->ndev);	/* waits for receivers (synchronize_net) */
	synchronize_net();		/* and for transmitters */
	netdev_put(plane->ndev, &plane->tracker);
	free_percpu(plane->stats);
	kfree(rcu_access_pointer(plane->allow));
	kfree(plane);
}

/**
 * mrc_plane_del() - detach plane @id (not plane 0: that is the device's)
 * @mdev: the device
 * @id: plane number
 * @extack: for the reason of a refusal
 *
 * QPs keep their EVs on the plane; they skip them while it is gone.
 *
 * Context: RTNL held.
 * Return: 0, -EINVAL (plane 0) or -ENOENT.
 */
int mrc_plane_del(struct mrc_dev *mdev, u32 id, struct netlink_ext_ack *extack)
{
	struct mrc_plane *plane;
	u16 was = mdev->planes_up;

	ASSERT_RTNL();
	if (!id) {
		NL_SET_ERR_MSG(extack, "plane 0 is the device's own netdev: use rdma link delete");
		return -EINVAL;
	}
	plane = id < MRC_MAX_PLANES ? rtnl_dereference(mdev->planes[id]) : NULL;
	if (!plane) {
		NL_SET_ERR_MSG(extack, "no such plane");
		return -ENOENT;
	}
	remove(mdev, plane);
	went_down(mdev, was);
	return 0;
}

/* The device goes away, or its plane-0 netdev does. RTNL. */
void mrc_plane_del_all(struct mrc_dev *mdev)
{
	struct mrc_plane *plane;
	int i;

	ASSERT_RTNL();
	for (i = 0; i < MRC_MAX_PLANES; i++) {
		plane = rtnl_dereference(mdev->planes[i]);
		if (plane)
			remove(mdev, plane);
	}
}

/**
 * mrc_plane_event() - a netdev changed state or is going away
 * @ndev: the netdev
 *
 * Planes 1..15 leave their device when their netdev unregisters (also when
 * it moves to another namespace); plane 0 takes its device with it, which
 * mrc_dev_netdev_unregister() handles.
 *
 * Context: RTNL held (netdev notifier).
 */
void mrc_plane_event(struct net_device *ndev)
{
	struct mrc_plane *plane = mrc_net_plane(ndev);
	struct mrc_dev *mdev;
	u16 was;
	u32 id;

	if (!plane)
		return;
	mdev = plane->mdev;
	id = plane->id;
	was = mdev->planes_up;
	if (ndev->reg_state >= NETREG_UNREGISTERING) {
		if (!id)
			return;
		remove(mdev, plane);
	} else {
		/* also on NETDEV_CHANGEMTU: the planes a QP's MTU fits change */
		set_state(plane);
		if (was == mdev->planes_up)
			return;
	}
	went_down(mdev, was);
	mrc_nl_notify_plane(mdev, id, dev_net(ndev));
}

/* Sum the per-CPU counters of @plane into @sum. */
void mrc_plane_stats(const struct mrc_plane *plane, struct mrc_plane_stats *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu)
		for (i = 0; i < MRC_NUM_PCOUNTERS; i++)
			sum->c[i] += per_cpu_ptr(plane->stats, cpu)->c[i];
}

/* Count on plane @id of @mdev, if it (still) exists. */
void mrc_plane_count_id(struct mrc_dev *mdev, u32 id, enum mrc_plane_counter c,
			u64 n)
{
	struct mrc_plane *plane;

	rcu_read_lock();
	plane = id < MRC_MAX_PLANES ? rcu_dereference(mdev->planes[id]) : NULL;
	if (plane)
		mrc_plane_count(plane, c, n);
	rcu_read_unlock();
}

/**
 * mrc_plane_set_allow() - replace the source prefixes of plane @id
 * @mdev: the device
 * @id: plane number
 * @p: the prefixes
 * @n: how many (0: the plane takes any source)
 * @extack: for the reason of a refusal
 *
 * Context: RTNL held.
 * Return: 0, -ENOENT, -E2BIG, -EINVAL or -ENOMEM.
 */
int mrc_plane_set_allow(struct mrc_dev *mdev, u32 id,
			const struct mrc_prefix *p, u32 n,
			struct netlink_ext_ack *extack)
{
	struct mrc_allow *new = NULL, *old;
	struct mrc_plane *plane;
	struct in6_addr net;
	u32 i;

	ASSERT_RTNL();
	plane = id < MRC_MAX_PLANES ? rtnl_dereference(mdev->planes[id]) : NULL;
	if (!plane) {
		NL_SET_ERR_MSG(extack, "no such plane");
		return -ENOENT;
	}
	if (n > MRC_MAX_ALLOW) {
		NL_SET_ERR_MSG_FMT(extack, "at most %d source prefixes per plane",
				   MRC_MAX_ALLOW);
		return -E2BIG;
	}
	for (i = 0; i < n; i++) {
		if (p[i].len > 128) {
			NL_SET_ERR_MSG_FMT(extack, "prefix %u: length %u past 128",
					   i, p[i].len);
			return -EINVAL;
		}
		/* a typo in the address would otherwise allow another net */
		ipv6_addr_prefix(&net, &p[i].addr, p[i].len);
		if (!ipv6_addr_equal(&net, &p[i].addr)) {
			NL_SET_ERR_MSG_FMT(extack, "prefix %u: %pI6c has bits set past /%u",
					   i, &p[i].addr, p[i].len);
			return -EINVAL;
		}
	}
	if (n) {
		new = kzalloc(struct_size(new, p, n), GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		new->n = n;
		memcpy(new->p, p, n * sizeof(*p));
	}
	old = rtnl_dereference(plane->allow);
	rcu_assign_pointer(plane->allow, new);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

/* Does @plane take packets whose outer source is @src? RCU read side. */
bool mrc_plane_src_allowed(struct mrc_plane *plane, const struct in6_addr *src)
{
	const struct mrc_allow *a = rcu_dereference(plane->allow);
	u32 i;

	if (!a)
		return true;
	for (i = 0; i < a->n; i++)
		if (ipv6_prefix_equal(src, &a->p[i].addr, a->p[i].len))
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_plane_src_allowed);

/**
 * mrc_plane_check_admin() - may plane @id take admin state @up?
 * @mdev: the device
 * @id: plane number
 * @up: the admin state asked for
 * @extack: for the reason of a refusal
 *
 * Plane 0 cannot go admin down: it carries the device's GIDs (the node
 * address), and the GSI QP (so the CM), UD QPs and RC QPs without a path
 * set send only through it. Down, it would cut those off while the RDMA
 * port still read ACTIVE; taking its netdev down is the way to take the
 * port down, and the port state follows it.
 *
 * Context: RTNL held.
 * Return: 0, -ENOENT or -EINVAL.
 */
int mrc_plane_check_admin(struct mrc_dev *mdev, u32 id, bool up,
			  struct netlink_ext_ack *extack)
{
	ASSERT_RTNL();
	if (id >= MRC_MAX_PLANES || !rtnl_dereference(mdev->planes[id])) {
		NL_SET_ERR_MSG(extack, "no such plane");
		return -ENOENT;
	}
	if (!id && !up) {
		NL_SET_ERR_MSG(extack,
			       "plane 0 carries the device's GIDs: it cannot be taken admin down");
		return -EINVAL;
	}
	return 0;
}

/**
 * mrc_plane_set_admin() - take plane @id admin down, or up again
 * @mdev: the device
 * @id: plane number
 * @up: the new admin state
 * @extack: for the reason of a refusal
 *
 * Context: RTNL held.
 * Return: 0, -ENOENT or -EINVAL (see mrc_plane_check_admin()).
 */
int mrc_plane_set_admin(struct mrc_dev *mdev, u32 id, bool up,
			struct netlink_ext_ack *extack)
{
	struct mrc_plane *plane;
	u16 was;
	int err;

	err = mrc_plane_check_admin(mdev, id, up, extack);
	if (err)
		return err;
	plane = rtnl_dereference(mdev->planes[id]);
	was = mdev->planes_up;
	WRITE_ONCE(plane->admin_down, !up);
	set_state(plane);
	went_down(mdev, was);
	mrc_dbg(mdev, "plane %u: admin %s\n", id, up ? "up" : "down");
	return 0;
}
