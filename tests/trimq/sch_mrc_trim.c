// SPDX-License-Identifier: GPL-2.0
/*
 * sch_mrc_trim: a test-only qdisc that behaves like the egress port of a
 * packet-trimming switch, for testing mrc (Multipath Reliable Connection)
 * without such a switch. Linux has no trimming qdisc.
 *
 *  - a byte-limited FIFO for data, drained at a configured rate (the
 *    bottleneck: the FIFO only fills when dequeue is slower than enqueue);
 *  - on FIFO overflow a packet is not dropped but trimmed: cut to trim_len
 *    bytes from its network header, the DSCP of its outermost IP header set
 *    to trim_dscp, and queued in a strict-priority queue;
 *  - that priority queue also takes control packets: packets already
 *    trimmed upstream (trim_dscp), packets of the control DSCP (ctrl_dscp)
 *    and packets too small to trim (trim_len bytes or fewer); it is byte
 *    limited too, and drops (counted) when full;
 *  - on dequeue, data packets are marked CE (outer header, ECT packets only)
 *    with a probability ramping linearly from 0 at kmin to 1 at kmax bytes
 *    of the FIFO's instantaneous backlog.
 *
 * Real switches leave the IP and UDP length fields of a trimmed packet
 * stale, and so does this qdisc unless fix_len is set. L4 checksums are
 * never recomputed (mrc's UDP checksum is zero; its ICRC is cut off anyway).
 *
 * Configured and read with tests/trimq/trimq.py (stock tc cannot parse the
 * options of an unknown kind). Never load this outside a test setup.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

/* The options, nested in TCA_OPTIONS (tests/trimq/trimq.py mirrors them). */
enum {
	TCA_MRC_TRIM_UNSPEC,
	TCA_MRC_TRIM_RATE,		/* u64 bytes/s; 0: no rate limit */
	TCA_MRC_TRIM_LIMIT,		/* u32 bytes of the data FIFO */
	TCA_MRC_TRIM_PRIO_LIMIT,	/* u32 bytes of the priority queue */
	TCA_MRC_TRIM_LEN,		/* u32 bytes kept from the network header */
	TCA_MRC_TRIM_DSCP,		/* u8 DSCP of trimmed packets */
	TCA_MRC_TRIM_CTRL_DSCP,		/* u8 DSCP of control packets */
	TCA_MRC_TRIM_KMIN,		/* u32 FIFO bytes where marking starts */
	TCA_MRC_TRIM_KMAX,		/* u32 FIFO bytes where it reaches 1; 0: off */
	TCA_MRC_TRIM_FIX_LEN,		/* u8 0: leave length fields stale, 1: fix */
	TCA_MRC_TRIM_PAD,
	__TCA_MRC_TRIM_MAX
};

#define TCA_MRC_TRIM_MAX (__TCA_MRC_TRIM_MAX - 1)

/* The xstats (TCA_STATS_APP), in this order; all counters since creation. */
struct tc_mrc_trim_xstats {
	__u64 trimmed;		/* packets cut on FIFO overflow */
	__u64 dropped;		/* every drop: untrimmable, priority queue full */
	__u64 prio_dropped;	/* of those, priority queue full */
	__u64 marked;		/* packets marked CE */
	__u32 fifo_hiwat;	/* highest FIFO backlog, bytes */
	__u32 prio_hiwat;	/* highest priority queue backlog, bytes */
	__u32 fifo_backlog;	/* bytes now */
	__u32 prio_backlog;
	__u32 fifo_qlen;	/* packets now */
	__u32 prio_qlen;
};

#define MRC_TRIM_DEF_LIMIT	(64 * 1024)
#define MRC_TRIM_DEF_PRIO_LIMIT	(16 * 1024)
#define MRC_TRIM_DEF_LEN	256
#define MRC_TRIM_DEF_DSCP	46	/* EF */
#define MRC_TRIM_DEF_CTRL_DSCP	48	/* CS6, network control */
/* an SRv6 outer header and SRH, an inner IPv6 header: enough nesting */
#define MRC_TRIM_MAX_NEST	4

struct mrc_trim_sched {
	struct qdisc_skb_head fifo;
	struct qdisc_skb_head prio;
	u32 fifo_bytes;
	u32 prio_bytes;

	u64 rate;
	u32 limit;
	u32 prio_limit;
	u32 trim_len;
	u8 trim_dscp;
	u8 ctrl_dscp;
	u8 fix_len;
	u32 kmin;
	u32 kmax;

	u64 t_next;	/* earliest time of the next dequeue, ns */
	struct qdisc_watchdog watchdog;

	struct tc_mrc_trim_xstats st;
};

/* the trimmed packet keeps at least an IPv6 header */
static const struct netlink_range_validation mrc_trim_len_range = {
	.min = sizeof(struct ipv6hdr),
	.max = U16_MAX,
};

static const struct nla_policy mrc_trim_policy[TCA_MRC_TRIM_MAX + 1] = {
	[TCA_MRC_TRIM_RATE]		= { .type = NLA_U64 },
	[TCA_MRC_TRIM_LIMIT]		= NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_MRC_TRIM_PRIO_LIMIT]	= NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_MRC_TRIM_LEN]		= NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_trim_len_range),
	[TCA_MRC_TRIM_DSCP]		= NLA_POLICY_MAX(NLA_U8, 63),
	[TCA_MRC_TRIM_CTRL_DSCP]	= NLA_POLICY_MAX(NLA_U8, 63),
	[TCA_MRC_TRIM_KMIN]		= { .type = NLA_U32 },
	[TCA_MRC_TRIM_KMAX]		= { .type = NLA_U32 },
	[TCA_MRC_TRIM_FIX_LEN]		= NLA_POLICY_MAX(NLA_U8, 1),
};

/* Bytes from the network header on: what trim_len is measured against. */
static unsigned int mrc_trim_l3_len(const struct sk_buff *skb)
{
	int off = skb_network_offset(skb);

	return off >= 0 && off < skb->len ? skb->len - off : 0;
}

/* The DSCP of the outermost IP header, or -1 for a packet that is not IP. */
static int mrc_trim_dscp(struct sk_buff *skb)
{
	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP):
		if (!pskb_network_may_pull(skb, sizeof(struct iphdr)))
			return -1;
		return ipv4_get_dsfield(ip_hdr(skb)) >> 2;
	case htons(ETH_P_IPV6):
		if (!pskb_network_may_pull(skb, sizeof(struct ipv6hdr)))
			return -1;
		return ipv6_get_dsfield(ipv6_hdr(skb)) >> 2;
	default:
		return -1;
	}
}

/* Control packets skip the FIFO: a switch serves them in a higher class. */
static bool mrc_trim_is_ctrl(const struct mrc_trim_sched *q, struct sk_buff *skb)
{
	int dscp;

	if (mrc_trim_l3_len(skb) <= q->trim_len)
		return true;
	dscp = mrc_trim_dscp(skb);
	return dscp == q->trim_dscp || dscp == q->ctrl_dscp;
}

/* Rewrites the length fields of the (linear, writable) cut packet: every IP
 * header from the outermost in, through IPv6 extension headers (an SRH) and
 * IP-in-IP, and the UDP header. Stops at what it does not know or at the cut.
 */
static void mrc_trim_fix_lengths(struct sk_buff *skb)
{
	__be16 proto = skb_protocol(skb, true);
	int off = skb_network_offset(skb);
	unsigned int left, depth;
	__be16 frag_off;
	u8 nexthdr;

	for (depth = 0; depth < MRC_TRIM_MAX_NEST; depth++) {
		left = skb->len - off;
		if (proto == htons(ETH_P_IP)) {
			struct iphdr *iph = (struct iphdr *)(skb->data + off);

			if (left < sizeof(*iph) || iph->ihl < 5 ||
			    left < iph->ihl * 4)
				return;
			iph->tot_len = htons(left);
			ip_send_check(iph);
			if (ip_is_fragment(iph))
				return;
			nexthdr = iph->protocol;
			off += iph->ihl * 4;
		} else if (proto == htons(ETH_P_IPV6)) {
			struct ipv6hdr *ip6h = (struct ipv6hdr *)(skb->data + off);

			if (left < sizeof(*ip6h))
				return;
			ip6h->payload_len = htons(left - sizeof(*ip6h));
			nexthdr = ip6h->nexthdr;
			off = ipv6_skip_exthdr(skb, off + sizeof(*ip6h), &nexthdr,
					       &frag_off);
			if (off < 0 || frag_off)
				return;
		} else {
			return;
		}

		switch (nexthdr) {
		case IPPROTO_IPIP:
			proto = htons(ETH_P_IP);
			break;
		case IPPROTO_IPV6:
			proto = htons(ETH_P_IPV6);
			break;
		case IPPROTO_UDP:
			if (skb->len - off >= sizeof(struct udphdr))
				((struct udphdr *)(skb->data + off))->len =
					htons(skb->len - off);
			return;
		default:
			return;
		}
	}
}

/* Cuts skb to trim_len bytes of network packet and sets the trim DSCP on its
 * outermost header, as a trimming switch does. False: not IP or no memory;
 * the caller drops it.
 */
static bool mrc_trim_cut(const struct mrc_trim_sched *q, struct sk_buff *skb)
{
	unsigned int keep = skb_network_offset(skb) + q->trim_len;
	__be16 proto = skb_protocol(skb, true);
	unsigned int cut = skb->len - keep;

	if (proto != htons(ETH_P_IP) && proto != htons(ETH_P_IPV6))
		return false;
	/* unclones too: the cut and the rewrite must not reach a clone's
	 * data (a socket's copy kept for retransmission, a packet tap's)
	 */
	if (pskb_trim(skb, keep) || skb_ensure_writable(skb, skb->len))
		return false;

	if (proto == htons(ETH_P_IP))
		ipv4_change_dsfield(ip_hdr(skb), INET_ECN_MASK, q->trim_dscp << 2);
	else
		ipv6_change_dsfield(ipv6_hdr(skb), INET_ECN_MASK, q->trim_dscp << 2);
	if (q->fix_len)
		mrc_trim_fix_lengths(skb);

	/* a checksum offload whose field was cut off would be written past
	 * the end; a complete checksum no longer covers the packet
	 */
	if ((skb->ip_summed == CHECKSUM_PARTIAL &&
	     skb_checksum_start_offset(skb) + skb->csum_offset + sizeof(__sum16) >
	     skb->len) || skb->ip_summed == CHECKSUM_COMPLETE)
		skb->ip_summed = CHECKSUM_NONE;

	if (qdisc_pkt_len(skb) > cut)
		qdisc_skb_cb(skb)->pkt_len -= cut;
	else
		qdisc_skb_cb(skb)->pkt_len = skb->len;
	return true;
}

/* Queues one packet (never a GSO one); *qlen: the bytes it queued. */
static int mrc_trim_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
				struct sk_buff **to_free, unsigned int *qlen)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);
	unsigned int len = qdisc_pkt_len(skb);

	if (!mrc_trim_is_ctrl(q, skb)) {
		if (q->fifo_bytes + len <= q->limit) {
			__qdisc_enqueue_tail(skb, &q->fifo);
			q->fifo_bytes += len;
			q->st.fifo_hiwat = max(q->st.fifo_hiwat, q->fifo_bytes);
			goto queued;
		}
		if (!mrc_trim_cut(q, skb)) {
			q->st.dropped++;
			return qdisc_drop(skb, sch, to_free);
		}
		q->st.trimmed++;
		len = qdisc_pkt_len(skb);
	}

	if (q->prio_bytes + len > q->prio_limit) {
		q->st.prio_dropped++;
		q->st.dropped++;
		return qdisc_drop(skb, sch, to_free);
	}
	__qdisc_enqueue_tail(skb, &q->prio);
	q->prio_bytes += len;
	q->st.prio_hiwat = max(q->st.prio_hiwat, q->prio_bytes);
queued:
	qdisc_qstats_backlog_inc(sch, skb);
	sch->q.qlen++;
	*qlen = len;
	return NET_XMIT_SUCCESS;
}

/* A switch sees packets, not GSO trains: each segment is queued, trimmed
 * or dropped on its own (as sch_tbf does for packets above its burst).
 */
static int mrc_trim_segment(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	struct mrc_trim_sched *q = qdisc_priv(sch);
	unsigned int prev_len = qdisc_pkt_len(skb), len = 0, seg_len;
	struct sk_buff *segs, *nskb;
	int nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs)) {
		q->st.dropped++;
		return qdisc_drop(skb, sch, to_free);
	}

	skb_list_walk_safe(segs, segs, nskb) {
		skb_mark_not_on_list(segs);
		qdisc_skb_cb(segs)->pkt_len = segs->len;
		if (mrc_trim_enqueue_one(segs, sch, to_free, &seg_len) ==
		    NET_XMIT_SUCCESS) {
			nb++;
			len += seg_len;
		}
	}
	if (!nb) {
		kfree_skb(skb);
		return NET_XMIT_DROP;
	}
	/* our parents count the GSO packet: they learn of the segments */
	qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
	consume_skb(skb);
	return NET_XMIT_SUCCESS;
}

static int mrc_trim_enqueue(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	unsigned int len = qdisc_pkt_len(skb), qlen;
	int ret;

	if (skb_is_gso(skb))
		return mrc_trim_segment(skb, sch, to_free);

	ret = mrc_trim_enqueue_one(skb, sch, to_free, &qlen);
	/* Our parents add the length from before the cut once we return;
	 * take the difference off first (sch_cake does the same). The queue
	 * is not empty, so no parent is told it became empty.
	 */
	if (ret == NET_XMIT_SUCCESS && qlen < len)
		qdisc_tree_reduce_backlog(sch, 0, len - qlen);
	return ret;
}

/* CE on an ECT data packet leaving with backlog bytes in the FIFO (itself
 * included): never at kmin or below, always at kmax or above, linearly in
 * between.
 */
static void mrc_trim_mark(struct mrc_trim_sched *q, struct sk_buff *skb,
			  u32 backlog)
{
	if (!q->kmax || backlog <= q->kmin)
		return;
	if (backlog < q->kmax &&
	    get_random_u32_below(q->kmax - q->kmin) >= backlog - q->kmin)
		return;
	if (INET_ECN_set_ce(skb))
		q->st.marked++;
}

static u64 mrc_trim_tx_ns(const struct mrc_trim_sched *q, unsigned int len)
{
	return div64_u64((u64)len * NSEC_PER_SEC, q->rate);
}

static struct sk_buff *mrc_trim_dequeue(struct Qdisc *sch)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);
	struct sk_buff *skb;
	u64 now = 0;

	if (!sch->q.qlen)
		return NULL;
	if (q->rate) {
		now = ktime_get_ns();
		if (now < q->t_next) {
			qdisc_watchdog_schedule_ns(&q->watchdog, q->t_next);
			return NULL;
		}
	}

	skb = __qdisc_dequeue_head(&q->prio);
	if (skb) {
		q->prio_bytes -= qdisc_pkt_len(skb);
	} else {
		skb = __qdisc_dequeue_head(&q->fifo);
		if (WARN_ON_ONCE(!skb))
			return NULL;
		mrc_trim_mark(q, skb, q->fifo_bytes);
		q->fifo_bytes -= qdisc_pkt_len(skb);
	}
	qdisc_qstats_backlog_dec(sch, skb);
	sch->q.qlen--;
	qdisc_bstats_update(sch, skb);

	/* serialisation at the rate: no burst, the port sends one packet at a
	 * time; a late timer is not made up for
	 */
	if (q->rate)
		q->t_next = max(now, q->t_next) + mrc_trim_tx_ns(q, qdisc_pkt_len(skb));
	return skb;
}

/* Drops from the head of a queue until it fits its (lowered) limit. */
static void mrc_trim_prune(struct Qdisc *sch, struct qdisc_skb_head *qh,
			   u32 *bytes, u32 limit, unsigned int *pkts,
			   unsigned int *dropped)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);
	struct sk_buff *skb;

	while (*bytes > limit && (skb = __qdisc_dequeue_head(qh))) {
		*bytes -= qdisc_pkt_len(skb);
		*dropped += qdisc_pkt_len(skb);
		(*pkts)++;
		q->st.dropped++;
		qdisc_qstats_backlog_dec(sch, skb);
		qdisc_qstats_drop(sch);
		sch->q.qlen--;
		rtnl_kfree_skbs(skb, skb);
	}
}

static int mrc_trim_change(struct Qdisc *sch, struct nlattr *opt,
			   struct netlink_ext_ack *extack)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_MRC_TRIM_MAX + 1];
	unsigned int pkts = 0, bytes = 0;
	u32 kmin, kmax;
	int err;

	if (!opt)
		return 0;
	err = nla_parse_nested(tb, TCA_MRC_TRIM_MAX, opt, mrc_trim_policy,
			       extack);
	if (err < 0)
		return err;

	kmin = tb[TCA_MRC_TRIM_KMIN] ? nla_get_u32(tb[TCA_MRC_TRIM_KMIN]) : q->kmin;
	kmax = tb[TCA_MRC_TRIM_KMAX] ? nla_get_u32(tb[TCA_MRC_TRIM_KMAX]) : q->kmax;
	if (kmax && kmin > kmax) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TCA_MRC_TRIM_KMIN] ?: tb[TCA_MRC_TRIM_KMAX],
				    "kmin must not exceed kmax");
		return -EINVAL;
	}

	sch_tree_lock(sch);
	if (tb[TCA_MRC_TRIM_RATE]) {
		q->rate = nla_get_u64(tb[TCA_MRC_TRIM_RATE]);
		/* a new rate starts now: the wait the old one imposed ends */
		q->t_next = 0;
		qdisc_watchdog_cancel(&q->watchdog);
	}
	if (tb[TCA_MRC_TRIM_LIMIT])
		q->limit = nla_get_u32(tb[TCA_MRC_TRIM_LIMIT]);
	if (tb[TCA_MRC_TRIM_PRIO_LIMIT])
		q->prio_limit = nla_get_u32(tb[TCA_MRC_TRIM_PRIO_LIMIT]);
	if (tb[TCA_MRC_TRIM_LEN])
		q->trim_len = nla_get_u32(tb[TCA_MRC_TRIM_LEN]);
	if (tb[TCA_MRC_TRIM_DSCP])
		q->trim_dscp = nla_get_u8(tb[TCA_MRC_TRIM_DSCP]);
	if (tb[TCA_MRC_TRIM_CTRL_DSCP])
		q->ctrl_dscp = nla_get_u8(tb[TCA_MRC_TRIM_CTRL_DSCP]);
	if (tb[TCA_MRC_TRIM_FIX_LEN])
		q->fix_len = nla_get_u8(tb[TCA_MRC_TRIM_FIX_LEN]);
	q->kmin = kmin;
	q->kmax = kmax;

	mrc_trim_prune(sch, &q->fifo, &q->fifo_bytes, q->limit, &pkts, &bytes);
	mrc_trim_prune(sch, &q->prio, &q->prio_bytes, q->prio_limit, &pkts,
		       &bytes);
	qdisc_tree_reduce_backlog(sch, pkts, bytes);
	/* what is queued may go now, at the new rate */
	if (sch->q.qlen)
		qdisc_watchdog_schedule_ns(&q->watchdog, ktime_get_ns());
	sch_tree_unlock(sch);
	return 0;
}

static int mrc_trim_init(struct Qdisc *sch, struct nlattr *opt,
			 struct netlink_ext_ack *extack)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);

	/* first: destroy() runs even when init() fails */
	qdisc_watchdog_init(&q->watchdog, sch);

	q->limit = MRC_TRIM_DEF_LIMIT;
	q->prio_limit = MRC_TRIM_DEF_PRIO_LIMIT;
	q->trim_len = MRC_TRIM_DEF_LEN;
	q->trim_dscp = MRC_TRIM_DEF_DSCP;
	q->ctrl_dscp = MRC_TRIM_DEF_CTRL_DSCP;

	return mrc_trim_change(sch, opt, extack);
}

static void mrc_trim_reset(struct Qdisc *sch)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);

	/* qdisc_reset() zeroes the qdisc's own qlen and backlog */
	__qdisc_reset_queue(&q->fifo);
	__qdisc_reset_queue(&q->prio);
	q->fifo_bytes = 0;
	q->prio_bytes = 0;
	q->t_next = 0;
	qdisc_watchdog_cancel(&q->watchdog);
}

static void mrc_trim_destroy(struct Qdisc *sch)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);

	qdisc_watchdog_cancel(&q->watchdog);
}

static int mrc_trim_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, TCA_MRC_TRIM_RATE, q->rate, TCA_MRC_TRIM_PAD) ||
	    nla_put_u32(skb, TCA_MRC_TRIM_LIMIT, q->limit) ||
	    nla_put_u32(skb, TCA_MRC_TRIM_PRIO_LIMIT, q->prio_limit) ||
	    nla_put_u32(skb, TCA_MRC_TRIM_LEN, q->trim_len) ||
	    nla_put_u8(skb, TCA_MRC_TRIM_DSCP, q->trim_dscp) ||
	    nla_put_u8(skb, TCA_MRC_TRIM_CTRL_DSCP, q->ctrl_dscp) ||
	    nla_put_u32(skb, TCA_MRC_TRIM_KMIN, q->kmin) ||
	    nla_put_u32(skb, TCA_MRC_TRIM_KMAX, q->kmax) ||
	    nla_put_u8(skb, TCA_MRC_TRIM_FIX_LEN, q->fix_len)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

static int mrc_trim_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct mrc_trim_sched *q = qdisc_priv(sch);
	struct tc_mrc_trim_xstats st = q->st;

	st.fifo_backlog = q->fifo_bytes;
	st.prio_backlog = q->prio_bytes;
	st.fifo_qlen = q->fifo.qlen;
	st.prio_qlen = q->prio.qlen;
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops mrc_trim_qdisc_ops __read_mostly = {
	.id		= "mrc_trim",
	.priv_size	= sizeof(struct mrc_trim_sched),
	.enqueue	= mrc_trim_enqueue,
	.dequeue	= mrc_trim_dequeue,
	.peek		= qdisc_peek_dequeued,
	.init		= mrc_trim_init,
	.reset		= mrc_trim_reset,
	.destroy	= mrc_trim_destroy,
	.change		= mrc_trim_change,
	.dump		= mrc_trim_dump,
	.dump_stats	= mrc_trim_dump_stats,
	.owner		= THIS_MODULE,
};
MODULE_ALIAS_NET_SCH("mrc_trim");

static int __init mrc_trim_module_init(void)
{
	return register_qdisc(&mrc_trim_qdisc_ops);
}

static void __exit mrc_trim_module_exit(void)
{
	unregister_qdisc(&mrc_trim_qdisc_ops);
}

module_init(mrc_trim_module_init);
module_exit(mrc_trim_module_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mrc test-only trimming switch port qdisc");
