/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc: Multipath Reliable Connection, a software RDMA transport.
 *
 * Object lifetimes and locking rules: Documentation/mrc/design.rst.
 */
#ifndef _MRC_H
#define _MRC_H

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/dst_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <uapi/rdma/rdma_user_rxe.h>

#include "mrc_param.h"
#include "mrc_ev.h"
#include "mrc_psn.h"
#include "mrc_wire.h"
#include "mrc_cc.h"
#include "mrc_verbs.h"

/* buckets of a device's multicast groups (mrc_mcast.c) */
#define MRC_MCG_HASH_SIZE	64

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
 * @num_qp: QPs on the device, the GSI QP included
 * @num_cq: CQs on the device, kernel ones included
 * @num_mr: MRs of every type on the device
 * @num_mw: memory windows on the device
 * @num_srq: SRQs on the device
 * @num_ah: AHs on the device, kernel ones included
 * @list: entry in the module's device list (mrc_dev_list_lock)
 * @qp_xa: QPs by number (QP1 is the GSI QP); lookups under RCU
 * @mr_xa: MRs by key index (key >> 8); lookups under RCU
 * @mw_xa: memory windows by key index, from MRC_MW_INDEX_MIN on, so that
 *	   an rkey's index tells an MW's from an MR's; lookups under RCU
 * @ah_xa: AHs by number, for the AH numbers user UD WQEs carry
 * @srq_xa: SRQ numbers reported to userspace
 * @mcg_lock: serialises attach and detach (mrc_mcast.c)
 * @mcg_hash: multicast groups by GID; RCU for the receive path
 * @nr_mcg: groups in @mcg_hash
 * @stats: per-CPU counters (enum mrc_counter)
 * @planes: the planes by number; plane 0 is @ndev's. Written under RTNL,
 *	    read under RCU.
 * @planes_up: bit k set while plane k can carry packets: its netdev is
 *	       running with carrier and it is not admin down (RTNL writes)
 * @planes_fit: bit k of [m] set while plane k's netdev MTU carries packets
 *		of IB path MTU m (RTNL writes)
 * @path_mtu: the smallest path MTU of the planes: the port's active MTU
 * @cfg_lock: serialises writers of @peers
 * @peers: path sets (struct mrc_pathset) by remote node; RCU list
 * @ev_count: EVs a new RC QP gets (the device profile)
 * @cc_lock: guards @cc_on and @cc_params, which a QP copies when it starts
 * @cc_on: new RC QPs run congestion control (the device profile)
 * @cc_params: the NSCC knobs they get
 * @cc_decreases: multiplicative decreases its QPs made
 * @cc_quick_adapts: quick adapts its QPs made
 * @cc_timeouts: timeouts that took a packet off a QP's window
 * @cc_profiles: the controller's profiles (mrc_cc_profile.c); cfg_lock
 *		 for writers, and cc_lock for what a starting QP copies
 * @ev_profiles: the controller's EV profiles (mrc_ev_profile.c); cfg_lock
 * @ev_fmts: the controller's EV format profiles (mrc_ev_fmt.c); cfg_lock
 * @trim_dscp: DSCP a trimming switch gives what it cut (the profile)
 * @trim_lasthop_dscp: DSCP of a cut at the last hop, MRC_DSCP_NONE: none
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
	atomic_t num_qp;
	atomic64_t qp_mem;		/* bytes the QPs hold (mrc_qp.c) */
	atomic_t num_cq;
	atomic_t num_mr;
	atomic_t num_mw;
	atomic_t num_srq;
	atomic_t num_ah;
	struct list_head list;
	struct xarray qp_xa;
	struct xarray mr_xa;
	struct xarray mw_xa;
	struct xarray ah_xa;
	struct xarray srq_xa;
	u32 qp_next;
	u32 mr_next;
	u32 mw_next;
	u32 ah_next;
	u32 srq_next;
	struct mutex mcg_lock;		/* writers of @mcg_hash, @nr_mcg */
	struct hlist_head mcg_hash[MRC_MCG_HASH_SIZE];	/* mrc_mcast.c */
	unsigned int nr_mcg;
	struct mrc_stats __percpu *stats;
	struct mrc_plane __rcu *planes[MRC_MAX_PLANES];
	u16 planes_up;
	u16 planes_fit[IB_MTU_4096 + 1];
	enum ib_mtu path_mtu;
	struct mutex cfg_lock;		/* writers of @peers */
	struct list_head peers;
	u32 ev_count;
	spinlock_t cc_lock;		/* @cc_on, @cc_params */
	bool cc_on;
	struct mrc_cc_params cc_params;
	atomic64_t cc_decreases;
	atomic64_t cc_quick_adapts;
	atomic64_t cc_timeouts;
	struct mrc_cc_profile cc_profiles[MRC_MAX_CC_PROFILES];
	struct mrc_ev_profile ev_profiles[MRC_MAX_EV_PROFILES];
	struct mrc_ev_fmt ev_fmts[MRC_MAX_EV_FMTS];
	u8 trim_dscp;
	u8 trim_lasthop_dscp;
	struct mrc_ep *ep;		/* endpoint operations (mrc_ep.c) */
};

/* Per-plane counters (per CPU; the first four also in rdma statistic) */
enum mrc_plane_counter {
	MRC_PCNT_TX_PKTS,
	MRC_PCNT_TX_BYTES,
	MRC_PCNT_RX_PKTS,
	MRC_PCNT_RX_BYTES,
	MRC_PCNT_RETRANS,
	MRC_PCNT_LOSSES,
	MRC_PCNT_ADMIN_DROPS,		/* arrived while admin down */
	MRC_PCNT_DOWN_LOST,		/* out on it when it went down */
	MRC_NUM_PCOUNTERS
};

struct mrc_plane_stats {
	u64 c[MRC_NUM_PCOUNTERS];
};

/**
 * struct mrc_plane - one Ethernet netdev of a device
 * @mdev: the device
 * @ndev: the netdev; referenced while the plane exists
 * @tracker: tracks that reference
 * @id: plane number
 * @stats: per-CPU counters
 *
 * @allow: the outer sources it takes packets from; NULL: any. Written
 *	   under RTNL, read under RCU.
 * @admin_down: the operator took it down (never plane 0). Written under
 *		RTNL, read with READ_ONCE by the packet paths.
 *
 * A plane is the rx_handler_data of its netdev, so a packet finds its
 * plane and device without a lookup.
 */
struct mrc_plane {
	struct mrc_dev *mdev;
	struct net_device *ndev;
	netdevice_tracker tracker;
	u8 id;
	struct mrc_plane_stats __percpu *stats;
	struct mrc_allow __rcu *allow;
	bool admin_down;
};

/* An IPv6 prefix; IPv4 ones as ::ffff:0:0/96 + their length */
struct mrc_prefix {
	struct in6_addr addr;
	u8 len;
};

/* A plane's source prefixes (1 to MRC_MAX_ALLOW) */
struct mrc_allow {
	struct rcu_head rcu;
	u32 n;
	struct mrc_prefix p[] __counted_by(n);
};

static inline void mrc_plane_count(struct mrc_plane *plane,
				   enum mrc_plane_counter c, u64 n)
{
	this_cpu_add(plane->stats->c[c], n);
}

/* Whether @mdev has plane @id (any context; the answer may change) */
static inline bool mrc_plane_exists(struct mrc_dev *mdev, u32 id)
{
	return id < MRC_MAX_PLANES && rcu_access_pointer(mdev->planes[id]);
}

/* Device counters, shown by `rdma statistic show link DEV/1` */
enum mrc_counter {
	MRC_CNT_TX_PKTS,
	MRC_CNT_TX_BYTES,
	MRC_CNT_RX_PKTS,
	MRC_CNT_RX_BYTES,
	MRC_CNT_RETRANS,
	MRC_CNT_TIMEOUTS,
	MRC_CNT_ACK_TX,
	MRC_CNT_ACK_RX,
	MRC_CNT_SACK_TX,
	MRC_CNT_SACK_RX,
	MRC_CNT_NACK_TX,
	MRC_CNT_NACK_RX,
	MRC_CNT_RNR_TX,
	MRC_CNT_RNR_RX,
	MRC_CNT_DUP,
	MRC_CNT_OOO,
	MRC_CNT_ICRC_ERR,
	MRC_CNT_MALFORMED,
	MRC_CNT_NO_QP,
	MRC_CNT_RKEY_ERR,
	MRC_CNT_BOUNDS_ERR,
	MRC_CNT_RETRY_EXC,
	MRC_CNT_RX_DROP,
	MRC_CNT_TX_ERR,
	MRC_CNT_EV_BAD,
	MRC_CNT_EV_RECOVERED,
	MRC_CNT_EV_BACKUP,
	MRC_CNT_EV_FLOOR,
	MRC_CNT_EV_SKIP,
	MRC_CNT_PROBE_TX,
	MRC_CNT_PROBE_RX,
	MRC_CNT_PEER_PLANES,
	MRC_CNT_RTO_PROBE,
	MRC_CNT_ACK_BAD_PSN,
	MRC_CNT_WRONG_SRC,
	MRC_CNT_BAD_PKEY,
	MRC_CNT_BAD_QKEY,
	MRC_CNT_RD_EXCESS,
	MRC_CNT_SRC_DENIED,
	MRC_CNT_TRIMMED_RX,
	MRC_CNT_TRIM_NACK_TX,
	MRC_CNT_TRIM_NACK_RX,
	MRC_NUM_COUNTERS
};

struct mrc_stats {
	u64 c[MRC_NUM_COUNTERS];
};

/* Microseconds of CLOCK_MONOTONIC, wrapping: compare with (s32)(a - b) */
static inline u32 mrc_now_us(void)
{
	return (u32)div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

static inline void mrc_count(struct mrc_dev *mdev, enum mrc_counter c, u64 n)
{
	this_cpu_add(mdev->stats->c[c], n);
}

/*
 * Memory a verb allocates for its caller, in sizes the caller chooses:
 * charged to the caller's memory cgroup, and failing the verb with -ENOMEM
 * at the cgroup's limit instead of waking its OOM killer.
 */
#define MRC_GFP_USER	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/*
 * Take one of @max object slots of @count (struct mrc_dev): false when all
 * are in use, and the verb fails with -ENOMEM, so that the limits
 * mrc_query_device() reports are the ones enforced.
 */
static inline bool mrc_dev_take(atomic_t *count, int max)
{
	return atomic_add_unless(count, 1, max);
}

/* What the allocator gave for @size bytes at @p, from kvmalloc() or kmalloc() */
static inline size_t mrc_mem_size(const void *p, size_t size)
{
	if (!p)
		return 0;
	return is_vmalloc_addr(p) ? PAGE_ALIGN(size) : kmalloc_size_roundup(size);
}

/* a received packet, parsed; lives in skb->cb while the engines run */
static inline struct mrc_pkt *mrc_skb_pkt(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct mrc_pkt) > sizeof(skb->cb));
	return (struct mrc_pkt *)skb->cb;
}

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
int mrc_dev_netdev_usable(struct net_device *ndev, const char **why);
void mrc_dev_unregister_all(void);
struct net_device *mrc_dev_netdev_get(struct mrc_dev *mdev);
struct mrc_dev *mrc_dev_find(struct net *net, const u32 *index,
			     const char *name);
struct mrc_dev *mrc_dev_next(struct net *net, u32 from);

/* mrc_verbs.c */
void mrc_verbs_init_attr(struct mrc_dev *mdev, struct net_device *ndev);
int mrc_verbs_register(struct mrc_dev *mdev, const char *ibdev_name);
enum ib_port_state mrc_verbs_port_state(struct net_device *ndev);

/* mrc_queue.c */
int mrc_queue_init(struct mrc_dev *mdev, struct mrc_queue *q,
		   struct ib_udata *udata, u32 num_elem, u32 elem_size,
		   struct mminfo *mi);
void mrc_queue_free(struct mrc_queue *q);
size_t mrc_queue_mem(const struct mrc_queue *q);
u32 mrc_queue_count(const struct mrc_queue *q);
u32 mrc_queue_free_slots(const struct mrc_queue *q);
void mrc_queue_consume(struct mrc_queue *q);
void mrc_queue_move(struct mrc_queue *dst, const struct mrc_queue *src,
		    u32 from, u32 n);
int mrc_queue_post_recv(struct mrc_queue *q, u32 max_sge,
			const struct ib_recv_wr *wr,
			const struct ib_recv_wr **bad_wr);
int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma);
void mrc_mmap_free(struct rdma_user_mmap_entry *entry);

/* mrc_mr.c */
struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
struct ib_mr *mrc_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				u64 length, u64 iova, int access,
				struct ib_pd *ibpd, struct ib_udata *udata);
struct ib_mr *mrc_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg);
int mrc_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct mrc_mr *mrc_mr_lookup(struct mrc_dev *mdev, u32 key);
void mrc_mr_put(struct mrc_mr *mr);
int mrc_mr_copy(struct mrc_mr *mr, u64 va, void *buf, u32 len, bool to_mr);
int mrc_mr_check(struct mrc_dev *mdev, struct mrc_mr *mr, struct ib_pd *pd,
		 u64 va, u32 len, int access);
int mrc_mr_atomic(struct mrc_mr *mr, u64 va, u8 opcode, u64 swap_add,
		  u64 comp, u64 *orig);
u8 mrc_mr_mpe(struct mrc_qp *qp, const struct mrc_rd_req *rq);
int mrc_sge_copy(struct mrc_dev *mdev, struct ib_pd *pd,
		 const struct rxe_sge *sge, u32 nsge, u32 off, void *buf,
		 u32 len, bool to_mr);
int mrc_mr_reg_wr(struct mrc_dev *mdev, struct ib_pd *pd,
		  const struct rxe_send_wr *wr);
int mrc_mr_invalidate(struct mrc_qp *qp, u32 key, bool remote);
int mrc_rkey_get(struct mrc_qp *qp, u32 rkey, u64 *va, u32 len, int access,
		 struct mrc_mr **mrp);

/* mrc_mw.c: memory windows */
int mrc_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int mrc_dealloc_mw(struct ib_mw *ibmw);
int mrc_mw_bind(struct mrc_qp *qp, const struct rxe_send_wr *wr);
int mrc_mw_invalidate(struct mrc_qp *qp, u32 rkey, bool remote);
void mrc_mw_qp_gone(struct mrc_dev *mdev, u32 qpn);
int mrc_mw_get(struct mrc_qp *qp, u32 rkey, u64 *va, u32 len, int access,
	       struct mrc_mr **mrp);
/* what a bind asks, and of which MR, for mrc_mw_bind_check() */
struct mrc_mw_bind_req {
	enum ib_mw_type type;
	u8 state;			/* the window's, before the bind */
	int access;			/* asked for the window */
	u64 addr;
	u64 length;
	bool has_mr;
	int mr_access;
	u64 mr_iova;
	u64 mr_length;
};

int mrc_mw_bind_check(const struct mrc_mw_bind_req *b);
int mrc_mw_range(int access, u64 addr, u64 length, u64 *va, u32 len);

/* mrc_cq.c */
int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct uverbs_attr_bundle *attrs);
int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int mrc_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int mrc_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc);
int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
int mrc_cq_post(struct mrc_cq *cq, const struct ib_wc *wc, bool solicited);

/* mrc_qp.c */
int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
void mrc_qp_error(struct mrc_qp *qp);
void mrc_qp_kick(struct mrc_qp *qp);
void mrc_qp_flush_rq(struct mrc_qp *qp);
void mrc_qp_send(struct mrc_qp *qp, struct sk_buff_head *txq);
/* what a packet the QP builds is, for mrc_sched_pick() */
enum mrc_stamp {
	MRC_STAMP_DATA,		/* a request, or READ response data */
	MRC_STAMP_RTX,		/* a request sent again */
	MRC_STAMP_ACK,		/* an ACK, SACK, NAK or atomic ACK */
};

struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn);
void mrc_qp_put(struct mrc_qp *qp);

/* The planes @qp sends data on now: up, and with room for its path MTU */
static inline u16 mrc_qp_planes(const struct mrc_qp *qp)
{
	return READ_ONCE(qp->mdev->planes_up) &
	       READ_ONCE(qp->mdev->planes_fit[qp->attr.path_mtu]);
}

u16 mrc_qp_sport(u32 qpn);
void mrc_qp_planes_down(struct mrc_dev *mdev, u16 lost);

/* mrc_srq.c */
int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);
void *mrc_srq_fetch(struct mrc_srq *srq, void *copy, u32 elem);

/* mrc_mcast.c: multicast groups of UD QPs */
int mrc_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
int mrc_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
bool mrc_mcast_ours(struct mrc_dev *mdev, const union ib_gid *gid);
void mrc_mcast_recv(struct mrc_dev *mdev, struct sk_buff *skb);
void mrc_mcast_init(struct mrc_dev *mdev);
void mrc_mcast_cleanup(struct mrc_dev *mdev);

/* mrc_ah.c */
int mrc_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int mrc_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int mrc_destroy_ah(struct ib_ah *ibah, u32 flags);
int mrc_av_from_attr(struct mrc_av *av, const struct rdma_ah_attr *attr);

/* mrc_req.c: requester (its engines: mrc_req.h) */
void mrc_req_run(struct mrc_qp *qp, struct sk_buff_head *txq);
void mrc_req_recv(struct mrc_qp *qp, struct sk_buff *skb,
		  struct sk_buff_head *txq);
void mrc_req_timer(struct timer_list *t);
enum hrtimer_restart mrc_req_pause_end(struct hrtimer *t);
int mrc_req_init(struct mrc_qp *qp);
void mrc_req_cleanup(struct mrc_qp *qp);
void mrc_req_reset(struct mrc_qp *qp);
void mrc_send_rev_probe(struct mrc_qp *qp, struct sk_buff_head *txq);
void mrc_comp_flush(struct mrc_qp *qp);
#if IS_ENABLED(CONFIG_KUNIT)
bool mrc_loss_timed_out(u8 timeout, unsigned long elapsed);
bool mrc_loss_overdue(const struct mrc_req *r, u32 age, u32 now);
u32 mrc_loss_pause_us(const struct mrc_req *r, u32 base, u32 sent);
u32 mrc_loss_plane_next(const struct mrc_req *r, const struct mrc_evset *evs,
			u16 mask, u32 psn);
#endif

/* mrc_sched.c: path scheduler */
int mrc_sched_pick(struct mrc_qp *qp, struct sk_buff *skb, enum mrc_stamp what);
void mrc_sched_stamp_ev(struct mrc_qp *qp, struct sk_buff *skb, u32 i);
void mrc_sched_signal(struct mrc_qp *qp, u32 i, enum mrc_ev_sig sig);
void mrc_sched_on_ack(struct mrc_qp *qp, u32 i, u32 seq, u32 sent_us);
void mrc_sched_on_rtt(struct mrc_qp *qp, u32 i, u32 rtt_us);
void mrc_sched_on_loss(struct mrc_qp *qp, u32 i, u32 seq, int sig);
void mrc_sched_on_ecn(struct mrc_qp *qp, u32 i);
void mrc_sched_on_trim(struct mrc_qp *qp, u32 i, bool lasthop);
u16 mrc_sched_on_sack(struct mrc_qp *qp, const struct mrc_sack *s);

/* mrc_ack.c: the responder's acknowledgments */
struct sk_buff *mrc_ack_skb(struct mrc_qp *qp, u8 op, u32 psn,
			    struct mrc_pkt *pkt, u32 paylen);
void mrc_ack_aeth(struct mrc_qp *qp, u8 syn, u32 psn, struct sk_buff_head *txq);
void mrc_ack_sack(struct mrc_qp *qp, u32 psn, u32 ev, u8 mode, bool probe,
		  struct sk_buff_head *txq);
void mrc_ack_send(struct mrc_qp *qp, u32 psn, struct sk_buff_head *txq);

/* mrc_resp.c: responder */
void mrc_resp_run(struct mrc_qp *qp, struct sk_buff_head *txq);
void mrc_resp_recv(struct mrc_qp *qp, struct sk_buff *skb,
		   struct sk_buff_head *txq);
void mrc_resp_ud_recv(struct mrc_qp *qp, struct sk_buff *skb);
void mrc_resp_probe(struct mrc_qp *qp, struct sk_buff *skb,
		    struct sk_buff_head *txq);
void mrc_resp_trimmed(struct mrc_qp *qp, struct sk_buff *skb,
		      struct sk_buff_head *txq);
void mrc_resp_flush(struct mrc_qp *qp);
int mrc_resp_uc_place(struct mrc_qp *qp, struct mrc_pkt *pkt, u32 psn);
int mrc_resp_init(struct mrc_qp *qp);
void mrc_resp_cleanup(struct mrc_qp *qp);
void mrc_resp_reset(struct mrc_qp *qp);

/* mrc_uc.c: UC receive (the rest in mrc_uc.h) */
int mrc_uc_init(struct mrc_qp *qp);
void mrc_uc_cleanup(struct mrc_qp *qp);
size_t mrc_uc_mem(const struct mrc_qp *qp);
void mrc_uc_reset(struct mrc_qp *qp);
void mrc_uc_recv(struct mrc_qp *qp, struct sk_buff *skb);
void mrc_uc_timeout(struct mrc_qp *qp);

/* mrc_icrc.c: the ICRC */
void mrc_icrc_init(void);
void mrc_icrc_exit(void);
u32 mrc_icrc(struct sk_buff *skb, unsigned int nhlen);
#if IS_ENABLED(CONFIG_KUNIT)
struct crypto_shash;
u32 mrc_icrc_crc32(struct crypto_shash *tfm, u32 crc, const void *p,
		   size_t len);
struct crypto_shash *mrc_icrc_tfm(const char *name);
#endif

/* mrc_net.c: packets in and out */
int mrc_net_init(void);
void mrc_net_exit(void);
int mrc_net_attach(struct mrc_plane *plane);
void mrc_net_detach(struct net_device *ndev);
struct mrc_plane *mrc_net_plane(const struct net_device *ndev);
struct sk_buff *mrc_net_alloc(struct mrc_dev *mdev, u32 len);
void mrc_net_xmit_ep(struct mrc_dev *mdev, struct mrc_plane *plane,
		     struct mrc_pathset *ps, struct sk_buff *skb);
void mrc_net_xmit(struct mrc_dev *mdev, struct mrc_qp *qp,
		  struct sk_buff_head *txq);

/* mrc_plane.c */
int mrc_plane_add(struct mrc_dev *mdev, int id, struct net_device *ndev,
		  struct netlink_ext_ack *extack);
int mrc_plane_del(struct mrc_dev *mdev, u32 id, struct netlink_ext_ack *extack);
void mrc_plane_del_all(struct mrc_dev *mdev);
void mrc_plane_event(struct net_device *ndev);
void mrc_plane_stats(const struct mrc_plane *plane, struct mrc_plane_stats *sum);
int mrc_plane_set_allow(struct mrc_dev *mdev, u32 id,
			const struct mrc_prefix *p, u32 n,
			struct netlink_ext_ack *extack);
bool mrc_plane_src_allowed(struct mrc_plane *plane, const struct in6_addr *src);
int mrc_plane_check_admin(struct mrc_dev *mdev, u32 id, bool up,
			  struct netlink_ext_ack *extack);
int mrc_plane_set_admin(struct mrc_dev *mdev, u32 id, bool up,
			struct netlink_ext_ack *extack);
void mrc_plane_count_id(struct mrc_dev *mdev, u32 id, enum mrc_plane_counter c,
			u64 n);
bool mrc_plane_is_up(const struct net_device *ndev);

/* mrc_peer.c */
int mrc_peer_add(struct mrc_dev *mdev, const struct in6_addr *peer,
		 const struct mrc_path_cfg *cfg, struct netlink_ext_ack *extack);
int mrc_peer_del(struct mrc_dev *mdev, const struct in6_addr *peer,
		 const struct mrc_path_cfg *cfg, unsigned int match,
		 struct netlink_ext_ack *extack);
struct mrc_pathset *mrc_peer_get(struct mrc_dev *mdev,
				 const struct in6_addr *peer);
bool mrc_pathset_udp_end(const struct mrc_pathset *ps,
			 const struct in6_addr *addr);
bool mrc_peer_udp_end(struct mrc_dev *mdev, const struct in6_addr *peer,
		      const struct in6_addr *addr);
void mrc_peer_flush(struct mrc_dev *mdev);

/* mrc_cc_profile.c */
struct mrc_cc_profile *mrc_cc_profile_find(struct mrc_dev *mdev, u64 id);
int mrc_cc_profile_set(struct mrc_dev *mdev, u64 id,
		       const struct mrc_cc_profile_change *ch,
		       struct netlink_ext_ack *extack);
void mrc_cc_profile_copy(struct mrc_qp *qp, bool *on, struct mrc_cc_params *p);

/* mrc_ev_profile.c (the rest in mrc_ev_profile.h) */
int mrc_ev_profile_connect(struct mrc_qp *qp, const struct in6_addr *daddr,
			   struct mrc_pathset **ps, struct mrc_evset **evs);

/* mrc_uapi.c: mrc's own uverbs methods (include/uapi/rdma/mrc-abi.h) */
extern const struct uapi_definition mrc_uapi_defs[];

/* mrc_netlink.c, mrc_nl_cc.c, mrc_nl_ev.c, mrc_nl_plane.c */
struct genl_info;
struct netlink_callback;
/* puts @mdev's object of a get request in @skb */
typedef int (*mrc_nl_fill_t)(struct sk_buff *skb, struct mrc_dev *mdev,
			     const struct genl_info *info);
int mrc_nl_get_one(struct genl_info *info, int ia, int na, mrc_nl_fill_t fill);
int mrc_nl_get_one_sized(struct genl_info *info, int ia, int na, size_t size,
			 mrc_nl_fill_t fill);
int mrc_nl_get_all(struct sk_buff *skb, struct netlink_callback *cb,
		   mrc_nl_fill_t fill);
/* a dump's position (in cb->ctx): the device index and the object in it */
struct mrc_nl_dump_pos {
	u32 dev;
	u32 obj;
	u32 sub;
};

/* puts @mdev's objects of a dump in @skb from the position on */
typedef int (*mrc_nl_dump_t)(struct sk_buff *skb, struct mrc_dev *mdev,
			     struct netlink_callback *cb);
int mrc_nl_dump_devs(struct sk_buff *skb, struct netlink_callback *cb,
		     int ia, int na, mrc_nl_dump_t fill);
struct mrc_dev *mrc_nl_info_dev(struct genl_info *info, int ia, int na);
struct mrc_dev *mrc_nl_admin_dev(struct sk_buff *skb, struct genl_info *info,
				 int ia, int na);
struct mrc_dev *mrc_nl_admin_dump_dev(struct sk_buff *skb,
				      struct netlink_callback *cb,
				      int ia, int na);
int mrc_nl_profile_id(const struct genl_info *info, int attr, u64 *id);
int mrc_nl_put_profile(struct sk_buff *skb, int id, int qps,
		       const struct mrc_profile *pf);
struct mrc_qp *mrc_nl_rc_qp(struct mrc_dev *mdev, u32 qpn,
			    struct netlink_ext_ack *extack);
void mrc_nl_notify_plane(struct mrc_dev *mdev, u32 id, struct net *net);
void mrc_nl_notify_path(struct mrc_dev *mdev, const struct in6_addr *peer);
void mrc_nl_notify_ev(struct mrc_qp *qp, u32 i, const struct mrc_ev *e,
		      const struct mrc_ev_change *chg, u8 cause);

/* mrc_ep.c: endpoint operations (EV probes) */
struct mrc_ep_probe_args {
	struct in6_addr peer;		/* v4-mapped for IPv4 */
	u32 plane;
	bool has_plane;
	bool has_path;
	u32 path_id;
	bool has_ev;
	u32 ev;
	u16 req_id;
	u8 dscp;
	u64 timeout_ns;
};

/* how a probe ended, for the socket that asked (mrc_nl_ep.c) */
struct mrc_ep_result {
	u32 dev_index;
	u16 req_id;
	u8 plane;
	u8 status;			/* enum mrc_ep_status */
	struct in6_addr peer;
	u64 rtt_ns;
	u32 service_ns;
	u8 arrival_plane;
	u32 peer_ev;
};

int mrc_ep_init(struct mrc_dev *mdev);
void mrc_ep_cleanup(struct mrc_dev *mdev);
int mrc_ep_probe_send(struct mrc_dev *mdev, const struct mrc_ep_probe_args *a,
		      struct net *net, u32 portid,
		      struct netlink_ext_ack *extack);
void mrc_ep_recv(struct mrc_plane *plane, struct sk_buff *skb,
		 unsigned int outer);
void mrc_ep_counters(struct mrc_dev *mdev, u64 *answered, u64 *limited,
		     u64 *unmatched);
void mrc_nl_ep_notify(struct net *net, u32 portid,
		      const struct mrc_ep_result *r);
int mrc_nl_ep_put_counters(struct sk_buff *skb, struct mrc_dev *mdev);

/* mrc_stats.c */
void mrc_stats_init(void);
struct rdma_hw_stats *mrc_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port_num);
int mrc_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port_num, int index);

extern struct workqueue_struct *mrc_wq;

/* mrc_netlink.c */
int mrc_netlink_init(void);
void mrc_netlink_exit(void);

#endif /* _MRC_H */
