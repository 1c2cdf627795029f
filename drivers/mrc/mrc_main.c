// SPDX-License-Identifier: GPL-2.0
/*
 * mrc: Multipath Reliable Connection (MRC) RDMA transport.
 *
 * Module init and exit, in dependency order.
 */
#include <linux/module.h>
#include <rdma/rdma_netlink.h>

#include "mrc.h"

#define CREATE_TRACE_POINTS
#include "mrc_trace.h"

static struct rdma_link_ops mrc_link_ops = {
	.type = "mrc",
	.newlink = mrc_dev_newlink,
};

/* retransmission timers and completion notification run here */
struct workqueue_struct *mrc_wq;

static int __init mrc_init(void)
{
	int err;

	mrc_stats_init();
	mrc_wq = alloc_workqueue("mrc", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!mrc_wq)
		return -ENOMEM;
	mrc_icrc_init();
	err = mrc_net_init();
	if (err)
		goto err_wq;
	err = mrc_netlink_init();
	if (err) {
		mrc_net_exit();
		goto err_wq;
	}
	rdma_link_register(&mrc_link_ops);
	pr_info("mrc: loaded, version %s\n", MRC_FW_VERSION);
	return 0;

err_wq:
	mrc_icrc_exit();
	destroy_workqueue(mrc_wq);
	return err;
}

static void __exit mrc_exit(void)
{
	/* no new devices; an in-flight newlink finishes first */
	rdma_link_unregister(&mrc_link_ops);
	/* the notifier stays until no device holds a netdev */
	mrc_dev_unregister_all();
	mrc_netlink_exit();
	mrc_net_exit();
	mrc_icrc_exit();
	destroy_workqueue(mrc_wq);
	rcu_barrier();		/* path sets freed by call_rcu */
	pr_info("mrc: unloaded\n");
}

/* late: ib_core and the netdev stack are up when built in */
late_initcall(mrc_init);
module_exit(mrc_exit);

MODULE_AUTHOR("The mrc developers");
MODULE_DESCRIPTION("MRC (Multipath Reliable Connection) software RDMA transport");
MODULE_LICENSE("GPL");
MODULE_VERSION(MRC_FW_VERSION);
MODULE_ALIAS_RDMA_LINK("mrc");
