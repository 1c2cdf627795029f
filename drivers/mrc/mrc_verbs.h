/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc: the verbs objects (queues, AHs, MRs, memory windows, CQs, SRQs, QPs
 * with their requester and responder state) and their ib_* conversions.
 *
 * Object lifetimes and locking rules: Documentation/mrc/design.rst.
 */
#ifndef _MRC_VERBS_H
#define _MRC_VERBS_H

#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <net/dst_cache.h>
#include <rdma/ib_verbs.h>
#include <uapi/rdma/rdma_user_rxe.h>

#include "mrc_ev.h"
#include "mrc_psn.h"
#include "mrc_wire.h"
#include "mrc_cc.h"

struct mrc_dev;

/**
 * struct mrc_queue - a ring shared with userspace in the rxe layout
 * @buf: header (indices) + slots; vmalloc memory (mrc_queue_init())
 * @size: bytes of @buf, page aligned
 * @log2_elem: log2 of the slot size
 * @mask: slots - 1
 * @idx: the index the kernel owns (CQ: producer, SQ/RQ/SRQ: consumer)
 * @entry: mmap entry of a user queue, NULL for a kernel queue
 *
 * The kernel never trusts an index it reads from @buf: it masks it.
 */
struct mrc_queue {
	struct rxe_queue_buf *buf;
	size_t size;
	u32 log2_elem;
	u32 mask;
	u32 idx;
	struct rdma_user_mmap_entry *entry;
};

struct mrc_mmap_entry {
	struct rdma_user_mmap_entry rdma;
	void *buf;
};

/* where packets of a QP or an AH go: IP addresses from the GIDs */
struct mrc_av {
	u8 family;			/* AF_INET or AF_INET6 */
	u8 tclass;
	u8 hop_limit;
	u8 flags;			/* MRC_AV_* */
	u16 sport;			/* UDP source port (entropy) */
	u8 path;			/* MRC_AV_MULTIPATH: its path */
	u32 flow_label;
	struct in6_addr saddr;		/* v4-mapped for IPv4 */
	struct in6_addr daddr;
};

/* sport and flow label hold an EV of the QP's EV set: route by @path */
#define MRC_AV_MULTIPATH	BIT(0)

/* a packet on its way out carries its destination in skb->cb */
static inline struct mrc_av *mrc_skb_av(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct mrc_av) > sizeof(skb->cb));
	return (struct mrc_av *)skb->cb;
}

struct mrc_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
	struct mrc_av av;
	u32 ah_num;
};

enum mrc_mr_type {
	MRC_MR_DMA,			/* kernel virtual addresses */
	MRC_MR_USER,			/* pinned user memory */
	MRC_MR_FAST,			/* fast registration (kernel ULPs) */
};

struct mrc_mr {
	struct ib_mr ibmr;
	enum mrc_mr_type type;
	bool valid;			/* FAST: registered and not invalidated */
	int access;
	u64 iova;
	u64 length;
	u32 key;
	struct ib_umem *umem;
	struct page **pages;		/* USER */
	unsigned int npages;
	unsigned int first_off;		/* USER: offset of iova in pages[0] */
	u64 *fpages;			/* FAST: page addresses */
	unsigned int nfpages;
	unsigned int max_fpages;
	unsigned int page_size;
	refcount_t refs;		/* mrc_mr_lookup(); 1 while published */
	struct completion drained;	/* the last reference went */
	struct rcu_head rcu;
	atomic_t num_mw;		/* windows bound to it; -1: deregistering */
};

/* Key indices: MRs below MRC_MW_INDEX_MIN, memory windows from it on */
#define MRC_MW_INDEX_MIN	0x800000

static inline bool mrc_key_is_mw(u32 key)
{
	return (key >> 8) >= MRC_MW_INDEX_MIN;
}

enum mrc_mw_state {
	MRC_MW_FREE,			/* type 2: not bound */
	MRC_MW_VALID,			/* bound (type 1: maybe to nothing) */
	MRC_MW_GONE,			/* deallocated; readers may still hold it */
};

/**
 * struct mrc_mw_win - a memory window as binds and the wire see it
 * @lock: guards the fields below; taken in BH context too
 * @state: enum mrc_mw_state
 * @type: the window's IB_MW_TYPE_*
 * @pd: the window's PD, compared and never followed: it may be gone once
 *	the window is
 * @rkey: the current key (its low byte is the one the last bind chose)
 * @access: IB_ACCESS_* the last bind granted
 * @addr: first byte of the window (an address of @mr)
 * @length: bytes; 0: the window opens nothing
 * @mr: the MR it is bound to, with a reference and a count in its num_mw
 * @qpn: type 2: the QP it is bound to (the only one its rkey serves)
 * @rcu: frees it after the readers that found it before dealloc
 *
 * Allocated apart from the IB core's ib_mw, which is freed as soon as
 * dealloc returns: lookups run under RCU, and this outlives them.
 */
struct mrc_mw_win {
	spinlock_t lock;		/* the fields below */
	u8 state;
	u8 type;
	const struct ib_pd *pd;
	u32 rkey;
	int access;
	u64 addr;
	u64 length;
	struct mrc_mr *mr;
	u32 qpn;
	struct rcu_head rcu;
};

/**
 * struct mrc_mw - a memory window (mrc_mw.c)
 * @ibmw: the IB core's; @ibmw.rkey is the key alloc_mw returned
 * @win: its state, published in the device's mw_xa
 */
struct mrc_mw {
	struct ib_mw ibmw;
	struct mrc_mw_win *win;
};

struct mrc_cq {
	struct ib_cq ibcq;
	struct mrc_queue q;
	spinlock_t lock;		/* producer side and notify */
	spinlock_t poll_lock;		/* kernel consumers */
	bool is_user;
	u8 notify;
	struct work_struct notify_work;
};

struct mrc_srq {
	struct ib_srq ibsrq;
	struct mrc_queue q;
	spinlock_t lock;		/* consumer side */
	spinlock_t post_lock;		/* kernel producers */
	bool is_user;
	u32 max_sge;
	u32 limit;
	u32 srq_num;
};

/* The requester's view of one fetched send WQE (kernel copy) */
struct mrc_swqe {
	u32 first_psn;
	u32 npkts;			/* PSNs it uses (0: local op, UD) */
	u32 sent;			/* packets sent once */
	u32 length;
	u16 msn;
	u16 rqmsn;
	u8 opcode;			/* IB_WR_* */
	bool done;			/* nothing left on the wire */
	bool rd_atomic;			/* counts against max_rd_atomic */
	u8 status;			/* ib_wc_status of its completion */
	u64 atomic_orig;
};

/* Per-PSN requester state */
enum {
	MRC_TX_ACKED	= BIT(0),
	MRC_TX_LOST	= BIT(1),	/* queued for retransmission */
	MRC_TX_RTXED	= BIT(2),	/* retransmitted at least once */
	MRC_TX_RD	= BIT(3),	/* READ response or atomic: acked by data */
};

#define MRC_TX_WIN	1024		/* PSNs in flight per QP */
#define MRC_RX_WIN	1024		/* responder PSN window (MPR) */
#define MRC_RMSG_MAX	64		/* receive messages open at once */
#define MRC_RD_MAX	16		/* atomic results remembered */
#define MRC_PARK_MAX	64		/* READ/ATOMIC requests waiting */
#define MRC_READ_CHUNK	256		/* response PSNs one READ request asks for */

struct mrc_req {
	u32 next_idx;			/* next SQ slot to fetch */
	u32 cur_idx;			/* WQE being sent first time */
	bool cur_valid;
	u32 snd_nxt;
	u32 snd_una;
	u16 msn;
	u16 rqmsn;
	u32 rd_outstanding;
	u32 peer_win;			/* PSNs the peer's MPR lets fly */
	u32 nlost;
	u8 retry_left;
	u8 rnr_left;
	unsigned long progress;		/* jiffies of the last progress */
	unsigned long rnr_until;	/* no sending before (jiffies) */
	bool rnr_wait;
	bool paused;			/* a resend was cut: no sending ... */
	u32 pause_until_us;		/* ... before (mrc_now_us()) */
	u8 trim_backoff;		/* pauses since the queue last moved */
	u32 srtt_us;
	u32 rttvar_us;
	u8 rto_backoff;			/* RTO backoff: expiries in force */
	u32 last_rtt_us;		/* the latest RTT sample */
	u32 rtt_peak_us;		/* the largest, decaying */
	bool trimmed;			/* a trim NACK came: the fabric trims */
	bool marked;			/* an ACK echoed CE: the fabric marks */
	u8 *txs;			/* MRC_TX_WIN flags */
	u8 *txev;			/* MRC_TX_WIN: EV index last sent on */
	u32 *txseq;			/* MRC_TX_WIN: send order (tx_seq) */
	u32 tx_seq;			/* packets sent, for txseq */
	u32 *sent_us;			/* MRC_TX_WIN send times */
	void *copies;			/* slots of the SQ, kernel copies */
	struct mrc_swqe *meta;
	u32 ud_psn;
	u32 since_ackreq;
	unsigned long rto_deadline;	/* jiffies */
	bool rto_armed;			/* @rto_deadline counts */
	u32 probe_next_us;		/* no probes before (mrc_now_us()) */
	u32 rev_probe_us;		/* when the last reverse-set probe left */
	u32 rev_rtt_us;			/* their smoothed RTT (0: none yet) */
	s16 rev_probe_ev;		/* its EV while unanswered, or -1 */
	u8 rev_backoff;			/* reverse probes unanswered in a row */
	bool rto_probe;			/* a timeout asks for the SACK state */
	u16 *txlen;			/* MRC_TX_WIN: payload bytes of each PSN */
	u16 down_done;			/* planes mrc_loss_planes_down() took ... */
	unsigned long down_at;		/* ... lately, since (jiffies) */
	u32 inflight;			/* payload bytes sent, not acked nor lost */
	bool cc_on;			/* @cc governs sending */
	struct mrc_cc cc;		/* NSCC, from the device profile */
};

/* A receive message the responder is filling (in RQMSN order) */
struct mrc_rmsg {
	bool last_seen;
	bool solicited;
	bool has_imm;
	bool has_inv;
	bool write_imm;
	u8 status;
	u32 last_psn;
	u32 byte_len;
	__be32 imm;
	u32 inv_rkey;
};

struct mrc_rd_req {
	u32 psn;
	u8 opcode;
	bool rtx;			/* BTH RTX: a retransmission */
	u64 va;
	u32 rkey;
	u32 len;
	u64 swap;
	u64 comp;
};

struct mrc_atomic_res {
	u32 psn;
	bool valid;
	u64 orig;
};

struct mrc_resp {
	struct mrc_psn_win win;
	u16 msn_done;			/* next RQMSN to complete */
	u16 nfetched;			/* open receive messages */
	struct mrc_rmsg rmsg[MRC_RMSG_MAX];
	void *rcopies;			/* MRC_RMSG_MAX receive WQE copies */
	u32 rslot;			/* slot of msn_done in rmsg/rcopies */
	struct mrc_rd_req parked[MRC_PARK_MAX];
	u32 nparked;
	struct mrc_atomic_res ares[MRC_RD_MAX];
	u32 ares_next;
	u32 unacked;			/* requests since the last ACK ... */
	u32 unacked_bytes;		/* ... and their payload */
	u32 rcvd_bytes;			/* payload taken, modulo 2^32 */
	u64 rx_ns;			/* the request being handled came */
	u32 trim_psn;			/* highest PSN a trim NACK named ... */
	bool trim_wait;			/* ... and not yet received */
	u32 completed;			/* messages completed (AETH MSN) */
	u32 last_ev;			/* EV of the last request: reflected */
	u32 ce_ev;			/* EV of an ECN-marked request ... */
	bool ce_pending;		/* ... not reported yet */
	u16 ps_sent;			/* port status the last SACK carried */
	u8 ps_left;			/* SACKs it still rides (MRC_PS_SACKS) */
};

struct mrc_qp {
	struct ib_qp ibqp;
	struct mrc_dev *mdev;
	size_t mem;			/* its share of mdev->qp_mem; qp->lock */
	spinlock_t lock;		/* all engine state below */
	spinlock_t sq_post_lock;	/* kernel producers of the SQ */
	spinlock_t rq_post_lock;	/* kernel producers of the RQ */
	enum ib_qp_state state;
	bool is_user;
	bool dying;
	bool sig_all;
	struct mrc_queue sq;
	struct mrc_queue rq;
	u32 sq_elem;
	u32 rq_elem;
	u32 max_send_sge;
	u32 max_inline;
	u32 max_recv_sge;
	struct mrc_srq *srq;
	struct mrc_cq *scq;
	struct mrc_cq *rcq;
	struct ib_qp_attr attr;
	struct rdma_ah_attr ah_attr;
	struct mrc_av av;
	u32 mtu;
	struct dst_cache dst_cache;
	struct mrc_evset *evs;
	struct mrc_pathset __rcu *ps;
	struct mrc_profile *cc_profile;		/* bound (mrc_cc_profile.c) */
	struct mrc_profile *ev_profile;		/* bound (mrc_ev_profile.c) */
	struct mrc_req req;
	struct mrc_resp resp;
	struct mrc_uc *uc;		/* UC: the receive side (mrc_uc.c) */
	struct timer_list timer;
	struct hrtimer pause_timer;	/* ends a trim pause */
	struct work_struct work;
	atomic_t planes_down;		/* for the work: mrc_qp_planes_down() */
	refcount_t refs;		/* mrc_qp_get(); 1 while published */
	struct completion drained;	/* the last reference went */
};

static inline struct mrc_qp *to_mqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mrc_qp, ibqp);
}

static inline struct mrc_cq *to_mcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mrc_cq, ibcq);
}

static inline struct mrc_mr *to_mmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mrc_mr, ibmr);
}

static inline struct mrc_mw *to_mmw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct mrc_mw, ibmw);
}

static inline struct mrc_srq *to_msrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct mrc_srq, ibsrq);
}

static inline struct mrc_ah *to_mah(struct ib_ah *ibah)
{
	return container_of(ibah, struct mrc_ah, ibah);
}

static inline void *mrc_queue_slot(const struct mrc_queue *q, u32 idx)
{
	return q->buf->data + ((size_t)(idx & q->mask) << q->log2_elem);
}

struct mrc_ucontext {
	struct ib_ucontext ibuc;
};

struct mrc_pd {
	struct ib_pd ibpd;
};

#endif /* _MRC_VERBS_H */
