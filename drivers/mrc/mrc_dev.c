// SPDX-License-Identifier: GPL-2.0
/*
 * mrc device lifecycle: rdma link add/del, netdev binding, module unload.
 *
 * The module keeps its own list of devices. It cannot use
 * ib_unregister_driver(): mrc reports RDMA_DRIVER_RXE (the rxe user ABI),
 * so that call would also remove soft-RoCE devices that belong to rdma_rxe.
 */
#include <linux/if_arp.h>
#include <linux/if_vlan.h>
#include <linux/mutex.h>

#include "mrc.h"

static LIST_HEAD(mrc_dev_list);
static DEFINE_MUTEX(mrc_dev_list_lock);	/* never held across IB core calls */

/**
 * mrc_dev_netdev_get() - the plane-0 netdev with a reference, or NULL
 * @mdev: the device
 *
 * The caller must dev_put() a non-NULL result.
 */
struct net_device *mrc_dev_netdev_get(struct mrc_dev *mdev)
{
	struct net_device *ndev;

	rcu_read_lock();
	ndev = rcu_dereference(mdev->ndev);
	dev_hold(ndev);
	rcu_read_unlock();
	return ndev;
}

/* Find the device bound to @ndev. Returns it with the ib_device refcount
 * held (ib_device_put() it), or NULL when none, or when it is not
 * registered (yet or any more).
 */
struct mrc_dev *mrc_dev_get_by_netdev(struct net_device *ndev)
{
	struct mrc_dev *mdev, *found = NULL;

	mutex_lock(&mrc_dev_list_lock);
	list_for_each_entry(mdev, &mrc_dev_list, list) {
		if (rcu_access_pointer(mdev->ndev) != ndev)
			continue;
		if (ib_device_try_get(&mdev->ib_dev))
			found = mdev;
		break;
	}
	mutex_unlock(&mrc_dev_list_lock);
	return found;
}

/* Drop our netdev reference; get_netdev returns NULL from now on. RTNL. */
static void detach_netdev(struct mrc_dev *mdev)
{
	struct net_device *ndev;

	ASSERT_RTNL();
	spin_lock(&mdev->ndev_lock);
	ndev = rcu_dereference_protected(mdev->ndev,
					 lockdep_is_held(&mdev->ndev_lock));
	RCU_INIT_POINTER(mdev->ndev, NULL);
	spin_unlock(&mdev->ndev_lock);
	if (!ndev)
		return;
	mrc_plane_del_all(mdev);
	netdev_put(ndev, &mdev->ndev_tracker);
}

/* Is the device visible in @net (its plane-0 netdev lives there)? */
static bool in_net(struct mrc_dev *mdev, struct net *net)
{
	struct net_device *ndev;
	bool ret;

	rcu_read_lock();
	ndev = rcu_dereference(mdev->ndev);
	ret = ndev && net_eq(dev_net(ndev), net);
	rcu_read_unlock();
	return ret;
}

/**
 * mrc_dev_find() - a registered device of @net by index or name
 * @net: the caller's network namespace
 * @index: RDMA device index, or NULL to match by @name
 * @name: RDMA device name, used when @index is NULL
 *
 * Return: the device with its ib_device refcount held, or NULL.
 */
struct mrc_dev *mrc_dev_find(struct net *net, const u32 *index,
			     const char *name)
{
	struct mrc_dev *mdev, *found = NULL;

	mutex_lock(&mrc_dev_list_lock);
	list_for_each_entry(mdev, &mrc_dev_list, list) {
		if (index ? mdev->ib_dev.index != *index :
			    strcmp(dev_name(&mdev->ib_dev.dev), name))
			continue;
		if (in_net(mdev, net) && ib_device_try_get(&mdev->ib_dev))
			found = mdev;
		break;
	}
	mutex_unlock(&mrc_dev_list_lock);
	return found;
}

/**
 * mrc_dev_next() - the registered device of @net with the smallest index
 *	at or above @from, for dumps
 * @net: the caller's network namespace
 * @from: the lowest index wanted
 *
 * Return: the device with its ib_device refcount held, or NULL.
 */
struct mrc_dev *mrc_dev_next(struct net *net, u32 from)
{
	struct mrc_dev *mdev, *best = NULL;

	mutex_lock(&mrc_dev_list_lock);
	list_for_each_entry(mdev, &mrc_dev_list, list) {
		if (mdev->ib_dev.index < from ||
		    (best && mdev->ib_dev.index >= best->ib_dev.index) ||
		    !in_net(mdev, net))
			continue;
		best = mdev;
	}
	if (best && !ib_device_try_get(&best->ib_dev))
		best = NULL;
	mutex_unlock(&mrc_dev_list_lock);
	return best;
}

/* Find a device by netdev without taking a reference (list lock held). */
static struct mrc_dev *find_bound_locked(struct net_device *ndev)
{
	struct mrc_dev *mdev;

	lockdep_assert_held(&mrc_dev_list_lock);
	list_for_each_entry(mdev, &mrc_dev_list, list)
		if (rcu_access_pointer(mdev->ndev) == ndev)
			return mdev;
	return NULL;
}

/**
 * mrc_dev_netdev_unregister() - NETDEV_UNREGISTER of a netdev (RTNL held)
 * @ndev: the netdev going away
 *
 * Drops the device's netdev reference at once, so the netdev can go away
 * even while the IB device is still being set up or torn down, and queues
 * the unregistration of a registered device. A device still registering
 * notices the detached netdev itself (mrc_dev_newlink()).
 */
void mrc_dev_netdev_unregister(struct net_device *ndev)
{
	struct mrc_dev *mdev;

	mutex_lock(&mrc_dev_list_lock);
	mdev = find_bound_locked(ndev);
	if (mdev) {
		detach_netdev(mdev);
		if (ib_device_try_get(&mdev->ib_dev)) {
			ib_unregister_device_queued(&mdev->ib_dev);
			ib_device_put(&mdev->ib_dev);
		}
	}
	mutex_unlock(&mrc_dev_list_lock);
}

/**
 * mrc_dev_netdev_usable() - can @ndev be a plane?
 * @ndev: the netdev
 * @why: set to the reason when not
 *
 * Return: 0, -EINVAL (not Ethernet, or a VLAN), -EBUSY (it carries an rxe
 * device, or already has a receive handler: a plane, bridge or bond port).
 */
int mrc_dev_netdev_usable(struct net_device *ndev, const char **why)
{
	struct ib_device *other;

	if (ndev->type != ARPHRD_ETHER || is_vlan_dev(ndev)) {
		*why = "not an Ethernet device (VLAN devices are not planes)";
		return -EINVAL;
	}
	/* mrc never publishes its netdevs in the IB core's netdev hash, so a
	 * hit for RDMA_DRIVER_RXE is a real rdma_rxe device.
	 */
	other = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	if (other) {
		ib_device_put(other);
		*why = "the netdev carries an rxe device";
		return -EBUSY;
	}
	if (mrc_net_plane(ndev)) {
		*why = "the netdev is already a plane of an mrc device";
		return -EEXIST;
	}
	if (rtnl_dereference(ndev->rx_handler)) {
		*why = "the netdev is a bridge, bond or macvlan port";
		return -EBUSY;
	}
	return 0;
}

static int check_netdev(const char *ibdev_name, struct net_device *ndev)
{
	struct mrc_plane *plane;
	struct ib_device *other;
	const char *why;
	int err;

	rtnl_lock();
	plane = mrc_net_plane(ndev);
	if (plane)
		pr_warn_ratelimited("mrc: cannot create %s: %s is already bound to %s\n",
				    ibdev_name, ndev->name,
				    dev_name(&plane->mdev->ib_dev.dev));
	err = mrc_dev_netdev_usable(ndev, &why);
	rtnl_unlock();
	if (err) {
		if (!plane)
			pr_warn_ratelimited("mrc: cannot create %s on %s: %s\n",
					    ibdev_name, ndev->name, why);
		return err;
	}
	other = ib_device_get_by_name(ibdev_name, RDMA_DRIVER_UNKNOWN);
	if (other) {
		pr_warn_ratelimited("mrc: cannot create %s: an RDMA device of that name exists\n",
				    ibdev_name);
		ib_device_put(other);
		return -EEXIST;
	}
	return 0;
}

/**
 * mrc_dev_newlink() - rdma_link_ops.newlink: create and register a device
 * @ibdev_name: name requested with "rdma link add NAME type mrc"
 * @ndev: plane-0 netdev, referenced by the caller for the whole call
 *
 * Return: 0, or -EINVAL (not Ethernet), -EBUSY (netdev has an rxe device),
 * -EEXIST (name taken, or netdev already bound to an mrc device), -ENODEV
 * (netdev went away during creation), -ENOMEM, or an IB core error.
 */
int mrc_dev_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct mrc_dev *mdev, *other;
	bool detached;
	int err;

	err = check_netdev(ibdev_name, ndev);
	if (err)
		return err;

	mdev = ib_alloc_device(mrc_dev, ib_dev);
	if (!mdev)
		return -ENOMEM;
	spin_lock_init(&mdev->ndev_lock);
	xa_init_flags(&mdev->qp_xa, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->mr_xa, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->mw_xa, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->ah_xa, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->srq_xa, XA_FLAGS_ALLOC);
	mdev->stats = alloc_percpu(struct mrc_stats);
	if (!mdev->stats || mrc_ep_init(mdev)) {
		free_percpu(mdev->stats);
		ib_dealloc_device(&mdev->ib_dev);
		return -ENOMEM;
	}
	mutex_init(&mdev->cfg_lock);
	mrc_mcast_init(mdev);
	INIT_LIST_HEAD(&mdev->peers);
	mdev->ev_count = MRC_DEFAULT_EVS;
	spin_lock_init(&mdev->cc_lock);
	/*
	 * On, with knobs for a 100 Gb/s fabric of 100 us; the operator fits
	 * them to the real one (mrcctl cc set). Without ECN marks or trims
	 * the window only leaves max_cwnd for timeouts.
	 */
	mdev->cc_on = true;
	mrc_cc_params_default(&mdev->cc_params, MRC_CC_MTU, MRC_CC_LINK_MBPS,
			      MRC_CC_BASE_RTT_NS, false);
	mdev->trim_dscp = MRC_TRIM_DSCP;
	mdev->trim_lasthop_dscp = MRC_DSCP_NONE;
	mdev->path_mtu = IB_MTU_256;	/* until plane 0 is attached */
	atomic_set(&mdev->num_ucontext, 0);
	atomic_set(&mdev->num_pd, 0);
	mdev->port_state = mrc_verbs_port_state(ndev);
	mrc_verbs_init_attr(mdev, ndev);
	ib_mark_name_assigned_by_user(&mdev->ib_dev);

	mutex_lock(&mrc_dev_list_lock);
	other = find_bound_locked(ndev);
	if (other) {
		mutex_unlock(&mrc_dev_list_lock);
		pr_warn_ratelimited("mrc: cannot create %s: %s is already bound to %s\n",
				    ibdev_name, ndev->name,
				    dev_name(&other->ib_dev.dev));
		mrc_ep_cleanup(mdev);
		free_percpu(mdev->stats);
		ib_dealloc_device(&mdev->ib_dev);
		return -EEXIST;
	}
	netdev_hold(ndev, &mdev->ndev_tracker, GFP_KERNEL);
	rcu_assign_pointer(mdev->ndev, ndev);
	list_add_tail(&mdev->list, &mrc_dev_list);
	mutex_unlock(&mrc_dev_list_lock);

	/* Once registered, a concurrent unregister may free mdev: pin the
	 * memory for the check below.
	 */
	get_device(&mdev->ib_dev.dev);
	err = mrc_verbs_register(mdev, ibdev_name);
	if (err) {
		put_device(&mdev->ib_dev.dev);
		ib_dealloc_device(&mdev->ib_dev);	/* calls mrc_dev_dealloc */
		return err;
	}
	/* The netdev may have unregistered while we registered; the notifier
	 * could not queue our unregistration then, so do it here.
	 */
	rtnl_lock();
	detached = !rcu_access_pointer(mdev->ndev);
	err = detached ? -ENODEV : mrc_plane_add(mdev, 0, ndev, NULL);
	rtnl_unlock();
	if (err < 0)
		ib_unregister_device(&mdev->ib_dev);
	put_device(&mdev->ib_dev.dev);
	return err < 0 ? err : 0;
}

/* ib_device_ops.dealloc_driver: the last driver callback for a device */
void mrc_dev_dealloc(struct ib_device *ibdev)
{
	struct mrc_dev *mdev = to_mdev(ibdev);
	u32 i;

	mutex_lock(&mrc_dev_list_lock);
	list_del(&mdev->list);
	mutex_unlock(&mrc_dev_list_lock);
	if (rcu_access_pointer(mdev->ndev)) {
		rtnl_lock();
		detach_netdev(mdev);
		rtnl_unlock();
	}
	/* the planes are gone: no answer can come any more */
	mrc_ep_cleanup(mdev);
	mrc_peer_flush(mdev);
	for (i = 0; i < ARRAY_SIZE(mdev->ev_profiles); i++)
		mrc_ev_profile_release(&mdev->ev_profiles[i]);
	mutex_destroy(&mdev->cfg_lock);
	mrc_mcast_cleanup(mdev);
	free_percpu(mdev->stats);
	xa_destroy(&mdev->qp_xa);
	xa_destroy(&mdev->mr_xa);
	xa_destroy(&mdev->mw_xa);
	xa_destroy(&mdev->ah_xa);
	xa_destroy(&mdev->srq_xa);
	WARN_ON(atomic_read(&mdev->num_pd) || atomic_read(&mdev->num_ucontext));
}

/**
 * mrc_dev_unregister_all() - module unload: remove every mrc device
 *
 * Returns once each device has fully unregistered, including ones whose
 * unregistration another thread (rdma link del, the netdev notifier's
 * queued work) had already started: __ib_unregister_device() fences on the
 * device's unregistration lock, and dealloc removes it from our list.
 */
void mrc_dev_unregister_all(void)
{
	struct mrc_dev *mdev;

	for (;;) {
		mutex_lock(&mrc_dev_list_lock);
		mdev = list_first_entry_or_null(&mrc_dev_list, struct mrc_dev,
						list);
		if (mdev)
			get_device(&mdev->ib_dev.dev);
		mutex_unlock(&mrc_dev_list_lock);
		if (!mdev)
			break;
		ib_unregister_device(&mdev->ib_dev);
		put_device(&mdev->ib_dev.dev);
	}
}
