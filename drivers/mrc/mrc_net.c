// SPDX-License-Identifier: GPL-2.0
/*
 * Netdev events for plane netdevs.
 */
#include <linux/netdevice.h>

#include "mrc.h"

static void port_event(struct net_device *ndev)
{
	struct mrc_dev *mdev = mrc_dev_get_by_netdev(ndev);
	enum ib_port_state state;
	struct ib_event ev = {};

	if (!mdev)
		return;
	/* RTNL serialises notifier calls, and with them port_state */
	state = mrc_verbs_port_state(ndev);
	if (state != mdev->port_state) {
		mdev->port_state = state;
		ev.device = &mdev->ib_dev;
		ev.element.port_num = 1;
		ev.event = state == IB_PORT_ACTIVE ? IB_EVENT_PORT_ACTIVE :
						     IB_EVENT_PORT_ERR;
		ib_dispatch_event(&ev);
		mrc_dbg(mdev, "%s: port %s\n", ndev->name,
			state == IB_PORT_ACTIVE ? "active" : "down");
	}
	ib_device_put(&mdev->ib_dev);
}

static int mrc_net_event(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);

	switch (event) {
	case NETDEV_UNREGISTER:
		mrc_dev_netdev_unregister(ndev);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		port_event(ndev);
		break;
	default:
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block mrc_net_notifier = {
	.notifier_call = mrc_net_event,
};

int mrc_net_init(void)
{
	return register_netdevice_notifier(&mrc_net_notifier);
}

void mrc_net_exit(void)
{
	unregister_netdevice_notifier(&mrc_net_notifier);
}
