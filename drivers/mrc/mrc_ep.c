// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoint operations: EV probes (MRC opcodes 0xD8 request, 0xD9
 * response), connectionless, between the reserved QPN MRC_EP_QPN of two
 * devices, not tied to any QP.
 *
 * Requester: mrc_ep_probe_send() (a netlink request, process context) takes
 * one of MRC_MAX_EP_PROBES slots, sends the probe and arms the slot's
 * timer; the answer (mrc_ep_recv(), softirq) or the timer ends the slot and
 * tells the socket that asked (mrc_nl_ep_notify()). An answer counts only
 * when it echoes an outstanding slot's cookie (56 random bits, then the
 * slot's index), request id and transmit timestamp, so a blind forger
 * cannot match one; anything else is dropped and counted (dev-get's
 * ep-unmatched).
 *
 * Responder: answers an EV probe from the plane it arrived on, to its
 * outermost source (the requester's address on that plane), with a packet
 * of the request's size (no amplification), at most MRC_EP_RATE answers a
 * second after a burst of MRC_EP_BURST. The plane's source allowlist has
 * applied before (mrc_net_rx()).
 */
#include <linux/inetdevice.h>
#include <linux/random.h>
#include <linux/timer.h>
#include <net/addrconf.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>
#include <rdma/ib_mad.h>

#include "mrc.h"

#define MRC_EP_SLOT_BITS	8
#define MRC_EP_SLOTS		BIT(MRC_EP_SLOT_BITS)
#define MRC_EP_RATE		10000		/* answers a second */
#define MRC_EP_BURST		1000
#define MRC_EP_TOKEN_NS		(NSEC_PER_SEC / MRC_EP_RATE)
#define MRC_EP_TMO_DEFAULT	NSEC_PER_SEC
#define MRC_EP_TMO_MIN		NSEC_PER_MSEC
#define MRC_EP_TMO_MAX		(60 * NSEC_PER_SEC)
#define MRC_EP_HOP_LIMIT	64

/* one outstanding probe; all but @timer under mrc_ep.lock */
struct mrc_ep_slot {
	struct timer_list timer;
	struct mrc_ep *ep;
	bool busy;
	u8 plane;
	u16 req_id;
	u32 portid;
	u64 cookie;
	u64 tx_ns;
	unsigned long deadline;		/* jiffies */
	struct net *net;		/* of the socket that asked, referenced */
	struct in6_addr peer;
};

struct mrc_ep {
	struct mrc_dev *mdev;
	spinlock_t lock;		/* the slots */
	u32 next;			/* where the search for a free slot starts */
	spinlock_t rl_lock;		/* the responder's token bucket */
	u64 rl_ns;
	u32 rl_tokens;
	atomic64_t answered;		/* probes answered */
	atomic64_t limited;		/* probes not answered */
	atomic64_t unmatched;		/* answers that matched no probe */
	struct mrc_ep_slot slots[MRC_EP_SLOTS];
};

/*
 * End busy slot @s (ep->lock held): its result so far, and where to send
 * it. The caller notifies and puts *@net after unlocking.
 */
static void slot_end(struct mrc_ep_slot *s, struct mrc_ep_result *r,
		     struct net **net, u32 *portid)
{
	memset(r, 0, sizeof(*r));
	r->dev_index = s->ep->mdev->ib_dev.index;
	r->req_id = s->req_id;
	r->plane = s->plane;
	r->peer = s->peer;
	*net = s->net;
	*portid = s->portid;
	s->net = NULL;
	s->busy = false;
}

static void slot_timeout(struct timer_list *t)
{
	struct mrc_ep_slot *s = from_timer(s, t, timer);
	struct mrc_ep *ep = s->ep;
	struct mrc_ep_result r;
	struct net *net;
	u32 portid;

	spin_lock(&ep->lock);
	/* answered meanwhile, or the slot was taken again and re-armed */
	if (!s->busy || time_before(jiffies, s->deadline)) {
		spin_unlock(&ep->lock);
		return;
	}
	slot_end(s, &r, &net, &portid);
	spin_unlock(&ep->lock);
	r.status = MRC_EP_STATUS_TIMEOUT;
	mrc_nl_ep_notify(net, portid, &r);
	put_net(net);
}

int mrc_ep_init(struct mrc_dev *mdev)
{
	struct mrc_ep *ep;
	u32 i;

	BUILD_BUG_ON(MRC_EP_SLOTS != MRC_MAX_EP_PROBES);
	ep = kvzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->mdev = mdev;
	spin_lock_init(&ep->lock);
	spin_lock_init(&ep->rl_lock);
	ep->rl_ns = ktime_get_ns();
	ep->rl_tokens = MRC_EP_BURST;
	for (i = 0; i < MRC_EP_SLOTS; i++) {
		ep->slots[i].ep = ep;
		timer_setup(&ep->slots[i].timer, slot_timeout, 0);
	}
	mdev->ep = ep;
	return 0;
}

/*
 * Device removal, after its planes are gone (no more packets): the
 * outstanding probes end without a notification; their sockets gave a
 * timeout of their own.
 */
void mrc_ep_cleanup(struct mrc_dev *mdev)
{
	struct mrc_ep *ep = mdev->ep;
	u32 i;

	if (!ep)
		return;
	for (i = 0; i < MRC_EP_SLOTS; i++)
		timer_shutdown_sync(&ep->slots[i].timer);
	for (i = 0; i < MRC_EP_SLOTS; i++)
		if (ep->slots[i].busy)
			put_net(ep->slots[i].net);
	kvfree(ep);
	mdev->ep = NULL;
}

/*
 * The source address @ndev would choose for @av->daddr, into @av->saddr:
 * for a path, the node address (plane 0's netdev) as inner source; else
 * the plane's own. RCU held.
 */
static int probe_saddr(struct net_device *ndev, struct mrc_av *av)
{
	if (av->family == AF_INET) {
		__be32 s = inet_select_addr(ndev, av->daddr.s6_addr32[3],
					    RT_SCOPE_UNIVERSE);

		if (!s)
			return -EADDRNOTAVAIL;
		ipv6_addr_set_v4mapped(s, &av->saddr);
		return 0;
	}
	if (ipv6_dev_get_saddr(dev_net(ndev), ndev, &av->daddr, 0, &av->saddr))
		return -EADDRNOTAVAIL;
	return 0;
}

/* Take a free slot for a probe (BHs enabled): NULL when all are busy */
static struct mrc_ep_slot *slot_take(struct mrc_ep *ep,
				     const struct mrc_ep_probe_args *a,
				     u8 plane, struct net *net, u32 portid,
				     u64 tmo)
{
	struct mrc_ep_slot *s;
	u32 i, idx;

	spin_lock_bh(&ep->lock);
	for (i = 0; i < MRC_EP_SLOTS; i++) {
		idx = (ep->next + i) % MRC_EP_SLOTS;
		if (!ep->slots[idx].busy)
			break;
	}
	if (i == MRC_EP_SLOTS) {
		spin_unlock_bh(&ep->lock);
		return NULL;
	}
	ep->next = idx + 1;
	s = &ep->slots[idx];
	s->busy = true;
	s->plane = plane;
	s->req_id = a->req_id;
	s->portid = portid;
	s->cookie = get_random_u64() << MRC_EP_SLOT_BITS | idx;
	s->net = get_net(net);
	s->peer = a->peer;
	s->deadline = jiffies + max(nsecs_to_jiffies(tmo), 1UL);
	s->tx_ns = ktime_get_ns();
	mod_timer(&s->timer, s->deadline);
	spin_unlock_bh(&ep->lock);
	return s;
}

/**
 * mrc_ep_probe_send() - send one EV probe
 * @mdev: the device
 * @a: where and how
 * @net: namespace of the socket that asked
 * @portid: that socket, which mrc_nl_ep_notify() tells how it ended
 * @extack: why it was refused
 *
 * On a path of the peer's path set (@a->has_path), or as plain RoCEv2 out
 * of a plane with a given EV (@a->has_ev) or a random one. A probe that
 * has no route once sent is counted (tx_errors) and times out.
 *
 * Return: 0 (sent; one notification follows), -EINVAL, -ENOENT (no such
 * path), -ENODEV (no such plane), -EADDRNOTAVAIL (the plane has no source
 * address for the peer), -EAGAIN (MRC_MAX_EP_PROBES outstanding), -ENOMEM.
 */
int mrc_ep_probe_send(struct mrc_dev *mdev, const struct mrc_ep_probe_args *a,
		      struct net *net, u32 portid,
		      struct netlink_ext_ack *extack)
{
	u64 tmo = a->timeout_ns ?: MRC_EP_TMO_DEFAULT;
	u32 plane_id = a->has_plane ? a->plane : 0;
	struct mrc_ep_hdr h = { .op = MRC_EP_OP_EV_PROBE };
	struct mrc_pathset *ps = NULL;
	struct net_device *ndev;
	struct mrc_plane *plane;
	struct mrc_ep_slot *s;
	struct sk_buff *skb;
	struct mrc_av *av;
	u32 ev;
	int err;

	if (tmo < MRC_EP_TMO_MIN || tmo > MRC_EP_TMO_MAX) {
		NL_SET_ERR_MSG(extack, "timeout out of range (1 ms to 60 s)");
		return -EINVAL;
	}
	if (a->has_path && a->has_ev) {
		NL_SET_ERR_MSG(extack, "a probe takes a path or an EV, not both");
		return -EINVAL;
	}
	if (a->has_ev && !(a->ev >> 16)) {
		NL_SET_ERR_MSG(extack, "an EV's UDP source port cannot be 0");
		return -EINVAL;
	}
	if (ipv6_addr_any(&a->peer) || ipv6_addr_is_multicast(&a->peer) ||
	    (ipv6_addr_v4mapped(&a->peer) &&
	     ipv4_is_multicast(a->peer.s6_addr32[3]))) {
		NL_SET_ERR_MSG(extack, "the peer must be a unicast address");
		return -EINVAL;
	}
	if (a->has_path) {
		ps = mrc_peer_get(mdev, &a->peer);
		if (!ps || a->path_id >= ps->npaths) {
			NL_SET_ERR_MSG(extack, "the peer has no path of this id");
			err = -ENOENT;
			goto out_ps;
		}
		if (a->has_plane && a->plane != ps->paths[a->path_id]->cfg.plane) {
			NL_SET_ERR_MSG(extack, "the path leaves on another plane");
			err = -EINVAL;
			goto out_ps;
		}
		plane_id = ps->paths[a->path_id]->cfg.plane;
		ev = mrc_ev_make(plane_id, a->path_id, get_random_u32(), 0);
	} else if (a->has_ev) {
		ev = a->ev;
	} else {
		ev = MRC_EV_FIXED | (get_random_u32() & ~MRC_EV_FIXED);
	}

	skb = mrc_net_alloc(mdev, MRC_BTH_LEN + MRC_ERTH_LEN);
	if (!skb) {
		err = -ENOMEM;
		goto out_ps;
	}
	memset(skb->data, 0, skb->len);
	mrc_bth_init(skb->data, MRC_OP_EP_REQ, 0, false, 0,
		     IB_DEFAULT_PKEY_FULL, MRC_EP_QPN, 0);
	av = mrc_skb_av(skb);
	memset(av, 0, sizeof(*av));
	av->family = ipv6_addr_v4mapped(&a->peer) ? AF_INET : AF_INET6;
	av->tclass = a->dscp << 2;
	av->hop_limit = MRC_EP_HOP_LIMIT;
	av->sport = mrc_ev_sport(ev);
	av->flow_label = mrc_ev_flow(ev);
	av->daddr = a->peer;
	if (ps) {
		av->flags = MRC_AV_MULTIPATH;
		av->path = a->path_id;
	}

	rcu_read_lock();
	plane = plane_id < MRC_MAX_PLANES ?
		rcu_dereference(mdev->planes[plane_id]) : NULL;
	if (!plane) {
		NL_SET_ERR_MSG(extack, "no such plane");
		err = -ENODEV;
		goto out_unlock;
	}
	/* a path's inner source is the node address, on plane 0's netdev */
	ndev = ps ? rcu_dereference(mdev->ndev) : plane->ndev;
	err = ndev ? probe_saddr(ndev, av) : -ENODEV;
	if (err) {
		NL_SET_ERR_MSG(extack, "no source address for the peer");
		goto out_unlock;
	}
	s = slot_take(mdev->ep, a, plane_id, net, portid, tmo);
	if (!s) {
		NL_SET_ERR_MSG(extack, "too many probes outstanding");
		err = -EAGAIN;
		goto out_unlock;
	}
	h.req_id = a->req_id;
	h.cookie = s->cookie;
	h.ts = s->tx_ns;
	h.ev = ev;
	mrc_erth_write(skb->data + MRC_BTH_LEN, &h);
	mrc_net_xmit_ep(mdev, plane, ps, skb);
	rcu_read_unlock();
	if (ps)
		mrc_pathset_put(ps);
	return 0;

out_unlock:
	rcu_read_unlock();
	kfree_skb(skb);
out_ps:
	if (ps)
		mrc_pathset_put(ps);
	return err;
}

/* The responder's token bucket: may it answer one more probe? */
static bool answer_allowed(struct mrc_ep *ep)
{
	u64 now = ktime_get_ns(), n;
	bool ok;

	spin_lock(&ep->rl_lock);
	n = div64_u64(now - ep->rl_ns, MRC_EP_TOKEN_NS);
	if (n) {
		ep->rl_tokens = min_t(u64, MRC_EP_BURST, ep->rl_tokens + n);
		ep->rl_ns = ep->rl_tokens == MRC_EP_BURST ?
			    now : ep->rl_ns + n * MRC_EP_TOKEN_NS;
	}
	ok = ep->rl_tokens;
	if (ok)
		ep->rl_tokens--;
	spin_unlock(&ep->rl_lock);
	return ok;
}

/*
 * Answer the EV probe @skb (at its inner IP header; an outer header of
 * @outer bytes was in front) that arrived on @plane.
 */
static void answer(struct mrc_plane *plane, struct sk_buff *skb,
		   unsigned int outer)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	struct mrc_dev *mdev = plane->mdev;
	u64 t0 = ktime_get_ns();
	struct mrc_ep_hdr h;
	struct sk_buff *rsp;
	struct mrc_av *av;

	mrc_erth_read(pkt->hdr + MRC_BTH_LEN, &h);
	/* port status updates are not spoken yet */
	if (h.op != MRC_EP_OP_EV_PROBE || !answer_allowed(mdev->ep)) {
		atomic64_inc(&mdev->ep->limited);
		return;
	}
	BUILD_BUG_ON(MRC_EETH_LEN > MRC_ERTH_LEN);
	rsp = mrc_net_alloc(mdev, MRC_BTH_LEN + MRC_EETH_LEN);
	if (!rsp) {
		mrc_count(mdev, MRC_CNT_RX_DROP, 1);
		return;
	}
	memset(rsp->data, 0, rsp->len);
	av = mrc_skb_av(rsp);
	memset(av, 0, sizeof(*av));
	/*
	 * To the outermost source: the requester's address on this plane.
	 * From the address the probe was sent to, or, when that was a path's
	 * (a uSID container or segment), the plane's choice.
	 */
	if (skb->protocol == htons(ETH_P_IP)) {
		const struct iphdr *iph = ip_hdr(skb);

		av->family = AF_INET;
		av->tclass = iph->tos & ~INET_ECN_MASK;
		ipv6_addr_set_v4mapped(iph->saddr, &av->daddr);
		ipv6_addr_set_v4mapped(iph->daddr, &av->saddr);
	} else {
		const struct ipv6hdr *ip6 = outer ?
			(const struct ipv6hdr *)(skb->data - outer) :
			ipv6_hdr(skb);

		av->family = AF_INET6;
		av->tclass = ipv6_get_dsfield(ip6) & ~INET_ECN_MASK;
		av->daddr = ip6->saddr;
		if (!outer)
			av->saddr = ip6->daddr;
		else if (probe_saddr(plane->ndev, av))
			goto drop;
	}
	av->hop_limit = MRC_EP_HOP_LIMIT;
	av->sport = mrc_ev_sport(pkt->ev);
	av->flow_label = mrc_ev_flow(pkt->ev);
	mrc_bth_init(rsp->data, MRC_OP_EP_RESP, 0, false, 0,
		     IB_DEFAULT_PKEY_FULL, MRC_EP_QPN, 0);
	h.port = plane->id;
	h.ev = pkt->ev;
	h.port_status = READ_ONCE(mdev->planes_up);
	h.word = min_t(u64, ktime_get_ns() - t0, U32_MAX);
	mrc_eeth_write(rsp->data + MRC_BTH_LEN, &h);
	atomic64_inc(&mdev->ep->answered);
	mrc_net_xmit_ep(mdev, plane, NULL, rsp);
	return;

drop:
	mrc_count(mdev, MRC_CNT_RX_DROP, 1);
	kfree_skb(rsp);
}

/* An answer: it ends the probe whose cookie, id and timestamp it echoes */
static void answered(struct mrc_dev *mdev, const u8 *eeth)
{
	struct mrc_ep *ep = mdev->ep;
	struct mrc_ep_result r;
	struct mrc_ep_slot *s;
	struct mrc_ep_hdr h;
	struct net *net;
	u32 portid;
	u64 now;

	mrc_eeth_read(eeth, &h);
	s = &ep->slots[h.cookie & (MRC_EP_SLOTS - 1)];
	spin_lock(&ep->lock);
	now = ktime_get_ns();
	if (!s->busy || s->cookie != h.cookie || s->req_id != h.req_id ||
	    s->tx_ns != h.ts || h.op != MRC_EP_OP_EV_PROBE) {
		spin_unlock(&ep->lock);
		atomic64_inc(&ep->unmatched);
		return;
	}
	/* under the lock: once free, the slot may be armed for another */
	timer_delete(&s->timer);
	slot_end(s, &r, &net, &portid);
	spin_unlock(&ep->lock);
	r.rtt_ns = now - h.ts;
	r.status = MRC_EP_STATUS_ANSWERED;
	r.service_ns = h.word;
	r.arrival_plane = h.port;
	r.peer_ev = h.ev;
	mrc_nl_ep_notify(net, portid, &r);
	put_net(net);
}

/*
 * What the device did with endpoint packets, for dev-get. The rdma(8)
 * port counters are full (mrc_stats.c): one more overflows their message.
 */
void mrc_ep_counters(struct mrc_dev *mdev, u64 *answered, u64 *limited,
		     u64 *unmatched)
{
	struct mrc_ep *ep = mdev->ep;

	*answered = ep ? atomic64_read(&ep->answered) : 0;
	*limited = ep ? atomic64_read(&ep->limited) : 0;
	*unmatched = ep ? atomic64_read(&ep->unmatched) : 0;
}

/**
 * mrc_ep_recv() - an endpoint packet (mrc_wire_ep_parse() passed it)
 * @plane: the plane it arrived on
 * @skb: the packet, at its (inner) IP header; mrc_skb_pkt() parsed
 * @outer: bytes of the outer IPv6 header (and SRH) in front of it, 0 for
 *	   plain RoCEv2
 *
 * Softirq context.
 */
void mrc_ep_recv(struct mrc_plane *plane, struct sk_buff *skb,
		 unsigned int outer)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);

	if (pkt->opcode == MRC_OP_EP_REQ)
		answer(plane, skb, outer);
	else
		answered(plane->mdev, pkt->hdr + MRC_BTH_LEN);
}
