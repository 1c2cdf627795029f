/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc: Multipath Reliable Connection, a software RDMA transport.
 *
 * Object lifetimes and locking rules: Documentation/mrc/design.rst.
 */
#ifndef _MRC_H
#define _MRC_H

#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "mrc_param.h"

/**
 * struct mrc_dev - one mrc RDMA device
 * @ib_dev: the IB core device; first, so ib_alloc_device() can embed us
 * @attr: device attributes reported by query_device
 * @ndev: the plane-0 netdev, or NULL once it unregistered. Written under
 *	  @ndev_lock (and RTNL from the notifier), read under RCU.
 * @ndev_lock: serialises writers of @ndev
 * @ndev_tracker: tracks our reference on @ndev
 * @port_state: the port state last announced with an IB event
 *	        (written only from the netdev notifier, under RTNL)
 * @num_ucontext: user contexts open on the device
 * @num_pd: protection domains allocated on the device
 * @list: entry in the module's device list (mrc_dev_list_lock)
 */
struct mrc_dev {
	struct ib_device ib_dev;
	struct ib_device_attr attr;
	struct net_device __rcu *ndev;
	spinlock_t ndev_lock;		/* serialises writers of @ndev */
	netdevice_tracker ndev_tracker;
	enum ib_port_state port_state;
	atomic_t num_ucontext;
	atomic_t num_pd;
	struct list_head list;
};

struct mrc_ucontext {
	struct ib_ucontext ibuc;
};

struct mrc_pd {
	struct ib_pd ibpd;
};

static inline struct mrc_dev *to_mdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mrc_dev, ib_dev);
}

#define mrc_dbg(mdev, fmt, ...) ibdev_dbg(&(mdev)->ib_dev, fmt, ##__VA_ARGS__)

/* mrc_dev.c */
int mrc_dev_newlink(const char *ibdev_name, struct net_device *ndev);
void mrc_dev_dealloc(struct ib_device *ibdev);
struct mrc_dev *mrc_dev_get_by_netdev(struct net_device *ndev);
void mrc_dev_netdev_unregister(struct net_device *ndev);
void mrc_dev_unregister_all(void);
struct net_device *mrc_dev_netdev_get(struct mrc_dev *mdev);
struct mrc_dev *mrc_dev_find(struct net *net, const u32 *index,
			     const char *name);
struct mrc_dev *mrc_dev_next(struct net *net, u32 from);

/* mrc_verbs.c */
void mrc_verbs_init_attr(struct mrc_dev *mdev, struct net_device *ndev);
int mrc_verbs_register(struct mrc_dev *mdev, const char *ibdev_name);
enum ib_port_state mrc_verbs_port_state(struct net_device *ndev);

/* mrc_net.c */
int mrc_net_init(void);
void mrc_net_exit(void);

/* mrc_netlink.c */
int mrc_netlink_init(void);
void mrc_netlink_exit(void);

#endif /* _MRC_H */
