// SPDX-License-Identifier: GPL-2.0
/*
 * Packets in and out, and netdev events of plane netdevs.
 *
 * Out: the engines build BTH..payload in an skb from mrc_net_alloc() and
 * put the destination (struct mrc_av) in skb->cb; mrc_net_xmit() adds UDP
 * and IPv4/IPv6, routes through the plane netdev, appends the ICRC and
 * hands the packet to ip_local_out()/ip6_local_out(), so neighbour
 * resolution, netfilter and qdiscs (netem in the tests) apply as to any
 * packet of that namespace.
 *
 * In: mrc takes RoCEv2 packets (UDP 4791 to a local address of the plane)
 * with an rx_handler on the plane netdev, before the IP layer. That needs
 * no UDP socket: it works in every network namespace, and a kernel rxe
 * owning UDP port 4791 elsewhere does not see mrc's packets (nor mrc
 * rxe's). A plane netdev cannot also be a bridge or bond port.
 */
#include <linux/etherdevice.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/seg6.h>
#include <net/addrconf.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/udp.h>

#include "mrc.h"
#include "mrc_srv6.h"

#define MRC_UDP_PORT	4791

/* ---- out ---------------------------------------------------------------- */

struct sk_buff *mrc_net_alloc(struct mrc_dev *mdev, u32 len)
{
	/* room for an outer and an inner IPv6 header and an SRH */
	unsigned int head = LL_MAX_HEADER + 2 * sizeof(struct ipv6hdr) +
			    MRC_SRH_MAX_HLEN + sizeof(struct udphdr);
	struct sk_buff *skb;

	/* one packet: headers plus at most a 4096-byte payload */
	if (len > MRC_MAX_HDR_OVERHEAD + 4096)
		return NULL;
	skb = alloc_skb(head + len + MRC_ICRC_LEN, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, head);
	skb_put(skb, len);
	return skb;
}

static struct dst_entry *route4(struct net *net, struct net_device *ndev,
				struct dst_cache *dc, const struct mrc_av *av)
{
	struct flowi4 fl = {
		.flowi4_oif = ndev->ifindex,
		.flowi4_proto = IPPROTO_UDP,
		.daddr = av->daddr.s6_addr32[3],
		.saddr = av->saddr.s6_addr32[3],
	};
	struct rtable *rt;
	__be32 saddr;

	if (dc) {
		rt = dst_cache_get_ip4(dc, &saddr);
		if (rt && rt->dst.dev == ndev)
			return &rt->dst;
		ip_rt_put(rt);	/* a plane moved to another netdev, or local */
	}
	rt = ip_route_output_key(net, &fl);
	if (IS_ERR(rt))
		return NULL;
	if (dc)
		dst_cache_set_ip4(dc, &rt->dst, fl.saddr);
	return &rt->dst;
}

/*
 * Route to @daddr out of @ndev. A source of :: in *@saddr is filled in as
 * for a socket: the route's preferred source, else the plane's best
 * address for @daddr (and cached with the route).
 */
static struct dst_entry *route6(struct net *net, struct net_device *ndev,
				struct dst_cache *dc,
				const struct in6_addr *daddr,
				struct in6_addr *saddr)
{
	struct flowi6 fl = {
		.flowi6_oif = ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.daddr = *daddr,
		.saddr = *saddr,
	};
	struct dst_entry *dst;

	if (dc) {
		dst = dst_cache_get_ip6(dc, saddr);
		if (dst && dst->dev == ndev)
			return dst;
		/* a plane moved to another netdev: look up afresh */
		dst_release(dst);
		*saddr = fl.saddr;
	}
	if (ipv6_addr_any(saddr)) {
		if (ip6_dst_lookup(net, NULL, &dst, &fl))
			return NULL;
		*saddr = fl.saddr;
	} else {
		dst = ip6_route_output(net, NULL, &fl);
		if (dst->error) {
			dst_release(dst);
			return NULL;
		}
	}
	if (dc)
		dst_cache_set_ip6(dc, dst, saddr);
	return dst;
}

static bool local4(struct net_device *ndev, __be32 addr)
{
	struct in_device *in_dev = __in_dev_get_rcu(ndev);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return false;
	in_dev_for_each_ifa_rcu(ifa, in_dev)
		if (ifa->ifa_local == addr)
			return true;
	return false;
}

/* Is @av's destination an address of the plane itself (a QP talking to a
 * QP of the same device)?
 */
static bool to_self(struct net_device *ndev, const struct mrc_av *av)
{
	if (av->family == AF_INET)
		return local4(ndev, av->daddr.s6_addr32[3]);
	return ipv6_chk_addr(dev_net(ndev), &av->daddr, ndev, 1);
}

/*
 * Put UDP and an IPv4 or IPv6 header (@saddr -> @daddr) in front of the
 * transport packet in @skb and append its ICRC. Returns the UDP payload
 * length.
 */
static unsigned int push_udp_ip(struct net *net, struct sk_buff *skb,
				const struct mrc_av *av,
				const struct in6_addr *saddr,
				const struct in6_addr *daddr)
{
	unsigned int nhlen, len;
	struct udphdr *uh;

	skb_put(skb, MRC_ICRC_LEN);
	len = skb->len;
	uh = skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh->source = htons(av->sport);
	uh->dest = htons(MRC_UDP_PORT);
	uh->len = htons(len + sizeof(*uh));
	uh->check = 0;	/* RoCEv2: the ICRC protects the payload */
	if (av->family == AF_INET) {
		struct iphdr *iph = skb_push(skb, sizeof(*iph));

		nhlen = sizeof(*iph);
		skb_reset_network_header(skb);
		iph->version = 4;
		iph->ihl = 5;
		iph->tos = av->tclass;
		iph->tot_len = htons(skb->len);
		iph->frag_off = htons(IP_DF);
		iph->ttl = av->hop_limit;
		iph->protocol = IPPROTO_UDP;
		iph->saddr = saddr->s6_addr32[3];
		iph->daddr = daddr->s6_addr32[3];
		__ip_select_ident(net, iph, 1);
		ip_send_check(iph);
		skb->protocol = htons(ETH_P_IP);
	} else {
		struct ipv6hdr *ip6 = skb_push(skb, sizeof(*ip6));

		nhlen = sizeof(*ip6);
		skb_reset_network_header(skb);
		ip6_flow_hdr(ip6, av->tclass, htonl(av->flow_label & 0xfffff));
		ip6->payload_len = htons(skb->len - sizeof(*ip6));
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = av->hop_limit;
		ip6->saddr = *saddr;
		ip6->daddr = *daddr;
		skb->protocol = htons(ETH_P_IPV6);
	}
	put_unaligned_le32(mrc_icrc(skb, nhlen), skb_tail_pointer(skb) - MRC_ICRC_LEN);
	return len;
}

/*
 * A packet to the plane itself enters the plane's receive path through the
 * backlog, as if it had arrived, so no engine ever runs inside another
 * one's transmit. It arrives as a whole Ethernet frame (to and from the
 * plane's address): taps on the plane (tcpdump) read its MAC header.
 */
static void loop_back(struct mrc_dev *mdev, struct net_device *ndev,
		      struct sk_buff *skb)
{
	struct ethhdr *eth;

	if (skb_cow_head(skb, ETH_HLEN)) {
		mrc_count(mdev, MRC_CNT_TX_ERR, 1);
		kfree_skb(skb);
		return;
	}
	eth = skb_push(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, ndev->dev_addr);
	ether_addr_copy(eth->h_source, ndev->dev_addr);
	eth->h_proto = skb->protocol;
	skb->protocol = eth_type_trans(skb, ndev);
	skb->ip_summed = CHECKSUM_NONE;
	netif_rx(skb);
}

/*
 * @skb out of @ndev by routing. @rc: an RC QP's, ECN-capable as on a path
 * (xmit_mp()): a congested queue marks it instead of dropping it.
 */
static void xmit_one(struct mrc_dev *mdev, struct net_device *ndev,
		     struct dst_cache *dc, struct sk_buff *skb, bool rc)
{
	struct mrc_av av = *mrc_skb_av(skb);
	struct net *net = dev_net(ndev);
	struct dst_entry *dst = NULL;
	unsigned int len;
	bool self;

	if (rc)
		av.tclass = (av.tclass & ~INET_ECN_MASK) | INET_ECN_ECT_0;

	self = to_self(ndev, &av);
	if (!self)
		dst = av.family == AF_INET ? route4(net, ndev, dc, &av) :
					     route6(net, ndev, dc, &av.daddr,
						    &av.saddr);
	if (!self && !dst) {
		mrc_count(mdev, MRC_CNT_TX_ERR, 1);
		kfree_skb(skb);
		return;
	}
	memset(skb->cb, 0, sizeof(skb->cb));
	len = push_udp_ip(net, skb, &av, &av.saddr, &av.daddr);
	if (dst)
		skb_dst_set(skb, dst);
	skb->dev = ndev;
	mrc_count(mdev, MRC_CNT_TX_PKTS, 1);
	mrc_count(mdev, MRC_CNT_TX_BYTES, len);
	if (self) {
		loop_back(mdev, ndev, skb);
		return;
	}
	if (av.family == AF_INET)
		ip_local_out(net, NULL, skb);
	else
		ip6_local_out(net, NULL, skb);
}

/*
 * A packet on an EV of the QP's path set @ps, sent on the EV's path
 * (av->path), which gives its plane and its addressing:
 *   usid: outer IPv6 (plane address -> uSID container, next header 41) /
 *         inner IPv6 (node address -> peer node address) / UDP / ...
 *   srh:  outer IPv6 (plane address -> first segment, next header 43) /
 *         SRH (the segment list, next header 41) / inner IPv6 / UDP / ...
 *   udp:  IPv6 (plane address -> peer plane address) / UDP / ...
 * The flow label of both headers carries the EV's low 16 bits. The ICRC
 * covers the inner packet only: switches rewrite the outer one.
 */
static void xmit_mp(struct mrc_dev *mdev, struct mrc_pathset *ps,
		    struct sk_buff *skb)
{
	struct mrc_av av = *mrc_skb_av(skb);
	struct in6_addr saddr = {};
	const struct in6_addr *da;
	struct mrc_path *path;
	struct mrc_plane *plane;
	struct dst_entry *dst;
	struct net *net;
	unsigned int len;

	if (!ps || av.path >= ps->npaths)
		goto drop;
	path = ps->paths[av.path];
	plane = rcu_dereference(mdev->planes[path->cfg.plane]);
	/* built before the plane went admin down: lost, as on a carrier loss */
	if (!plane || READ_ONCE(plane->admin_down))
		goto drop;
	net = dev_net(plane->ndev);
	da = mrc_path_cfg_daddr(&path->cfg);
	dst = route6(net, plane->ndev, &path->dc, da, &saddr);
	if (!dst)
		goto drop;
	memset(skb->cb, 0, sizeof(skb->cb));
	/* ECN-capable: a congested switch marks instead of dropping, and the
	 * receiver reports the mark against this EV
	 */
	av.tclass = (av.tclass & ~INET_ECN_MASK) | INET_ECN_ECT_0;
	if (path->cfg.mode != MRC_PATH_MODE_UDP) {
		u8 nexthdr = IPPROTO_IPV6;
		struct ipv6hdr *ip6;
		unsigned int n;

		len = push_udp_ip(net, skb, &av, &av.saddr, &av.daddr);
		if (path->cfg.mode == MRC_PATH_MODE_SRH) {
			BUILD_BUG_ON(mrc_srv6_srh_len(MRC_PATH_MAX_SEGS) >
				     MRC_SRH_MAX_HLEN);
			n = path->cfg.nsegs;
			mrc_srv6_srh_build(skb_push(skb, mrc_srv6_srh_len(n)),
					   path->cfg.segs, n, IPPROTO_IPV6);
			nexthdr = IPPROTO_ROUTING;
		}
		ip6 = skb_push(skb, sizeof(*ip6));
		skb_reset_network_header(skb);
		ip6_flow_hdr(ip6, av.tclass, htonl(av.flow_label & 0xfffff));
		ip6->payload_len = htons(skb->len - sizeof(*ip6));
		ip6->nexthdr = nexthdr;
		ip6->hop_limit = av.hop_limit;
		ip6->saddr = saddr;
		ip6->daddr = *da;
	} else {
		len = push_udp_ip(net, skb, &av, &saddr, da);
	}
	skb_dst_set(skb, dst);
	skb->dev = plane->ndev;
	mrc_count(mdev, MRC_CNT_TX_PKTS, 1);
	mrc_count(mdev, MRC_CNT_TX_BYTES, len);
	mrc_plane_count(plane, MRC_PCNT_TX_PKTS, 1);
	mrc_plane_count(plane, MRC_PCNT_TX_BYTES, len);
	atomic64_inc(&path->tx_pkts);
	atomic64_add(len, &path->tx_bytes);
	ip6_local_out(net, NULL, skb);
	return;

drop:
	mrc_count(mdev, MRC_CNT_TX_ERR, 1);
	kfree_skb(skb);
}

/*
 * An endpoint packet (mrc_ep.c), on no QP: on a path of @ps when its AV
 * says MULTIPATH (the EV names the path), else as plain RoCEv2 by routing
 * out of @plane's netdev.
 */
void mrc_net_xmit_ep(struct mrc_dev *mdev, struct mrc_plane *plane,
		     struct mrc_pathset *ps, struct sk_buff *skb)
{
	local_bh_disable();
	rcu_read_lock();
	if (mrc_skb_av(skb)->flags & MRC_AV_MULTIPATH)
		xmit_mp(mdev, ps, skb);
	else
		xmit_one(mdev, plane->ndev, NULL, skb, false);
	rcu_read_unlock();
	local_bh_enable();
}

/*
 * Send every packet of @txq: packets of @qp (NULL for UD sends that carry
 * their own address) or of the GSI QP. RC packets on an EV go by their
 * path; the others through plane 0 by routing.
 */
void mrc_net_xmit(struct mrc_dev *mdev, struct mrc_qp *qp,
		  struct sk_buff_head *txq)
{
	bool rc = qp && qp->ibqp.qp_type == IB_QPT_RC;
	bool conn = rc || (qp && qp->ibqp.qp_type == IB_QPT_UC);
	struct dst_cache *dc = NULL;
	struct mrc_pathset *ps = NULL;
	struct net_device *ndev;
	struct sk_buff *skb;

	local_bh_disable();	/* dst_cache is per CPU */
	rcu_read_lock();
	if (conn) {
		dc = &qp->dst_cache;
		ps = rcu_dereference(qp->ps);
	}
	ndev = rcu_dereference(mdev->ndev);
	while ((skb = __skb_dequeue(txq))) {
		if (mrc_skb_av(skb)->flags & MRC_AV_MULTIPATH) {
			xmit_mp(mdev, ps, skb);
		} else if (!ndev) {
			mrc_count(mdev, MRC_CNT_TX_ERR, 1);
			kfree_skb(skb);
		} else {
			xmit_one(mdev, ndev, dc, skb, rc);
		}
	}
	rcu_read_unlock();
	local_bh_enable();
}

/* ---- in ----------------------------------------------------------------- */

/*
 * is_ours() and its helpers read headers with skb_header_pointer(): the
 * skb may be shared (taps), and most are not ours, so it is not changed
 * (pulled, unshared) before mrc takes it.
 */

/* Is @skb (at its UDP header, @off) RoCEv2? */
static bool udp_ours(const struct sk_buff *skb, unsigned int off)
{
	struct udphdr _uh;
	const struct udphdr *uh = skb_header_pointer(skb, off, sizeof(_uh), &_uh);

	return uh && uh->dest == htons(MRC_UDP_PORT);
}

/*
 * Does the outer IPv6 header of @skb end an SRH path here, with IPv6
 * inside? Sets *outer to the bytes of both.
 */
static bool srh_at_end(const struct sk_buff *skb, unsigned int *outer)
{
	unsigned int off = sizeof(struct ipv6hdr), len;
	struct ipv6_sr_hdr _srh;
	const struct ipv6_sr_hdr *srh;

	srh = skb_header_pointer(skb, off, sizeof(_srh), &_srh);
	if (!srh)
		return false;
	len = mrc_srv6_srh_end_len(srh, IPPROTO_IPV6);
	*outer = off + len;
	return len;
}

/* A packet to a multicast group: ours on plane 0 when a UD QP joined it */
static bool group_ours(struct mrc_plane *plane, const struct sk_buff *skb,
		       const union ib_gid *gid)
{
	return rcu_access_pointer(plane->mdev->ndev) == skb->dev &&
	       mrc_mcast_ours(plane->mdev, gid);
}

/*
 * Is this an MRC packet for this host? Sets *outer (bytes of an outer
 * IPv6 header to strip) and *nhlen (the IP header before UDP). A packet
 * is ours when it is RoCEv2 to an address of the receiving plane's own
 * netdev or to a group a UD QP joined (plane 0 only), or IPv6-in-IPv6
 * whose inner packet is RoCEv2 to the device's node address (on plane
 * 0's netdev), with or without an SRH that ends
 * here: the outer destination is a uSID container or a segment that the
 * fabric consumed hop by hop and is not checked. Addresses of other
 * netdevs are not ours (strict checks): they may be another mrc
 * device's, or the host's, whose UDP 4791 is not mrc's.
 */
static bool is_ours(struct mrc_plane *plane, const struct sk_buff *skb,
		    unsigned int *outer, unsigned int *nhlen)
{
	*outer = 0;
	if (skb->protocol == htons(ETH_P_IP)) {
		struct iphdr _iph;
		const struct iphdr *iph;

		iph = skb_header_pointer(skb, 0, sizeof(_iph), &_iph);
		/* RoCEv2 packets carry no IP options */
		if (!iph || iph->version != 4 || iph->ihl != 5 ||
		    iph->protocol != IPPROTO_UDP || ip_is_fragment(iph))
			return false;
		*nhlen = sizeof(*iph);
		if (!udp_ours(skb, *nhlen))
			return false;
		if (ipv4_is_multicast(iph->daddr)) {
			union ib_gid gid;

			ipv6_addr_set_v4mapped(iph->daddr,
					       (struct in6_addr *)gid.raw);
			return group_ours(plane, skb, &gid);
		}
		return local4(skb->dev, iph->daddr);
	}
	if (skb->protocol == htons(ETH_P_IPV6)) {
		struct ipv6hdr _ip6;
		const struct ipv6hdr *ip6;
		struct net_device *node;

		ip6 = skb_header_pointer(skb, 0, sizeof(_ip6), &_ip6);
		if (!ip6)
			return false;
		*nhlen = sizeof(*ip6);
		if (ip6->nexthdr == IPPROTO_UDP) {
			if (!udp_ours(skb, *nhlen))
				return false;
			if (ipv6_addr_is_multicast(&ip6->daddr)) {
				union ib_gid gid;

				memcpy(gid.raw, &ip6->daddr, sizeof(gid.raw));
				return group_ours(plane, skb, &gid);
			}
			return ipv6_chk_addr(dev_net(skb->dev), &ip6->daddr,
					     skb->dev, 1);
		}
		if (ip6->nexthdr == IPPROTO_ROUTING) {
			if (!srh_at_end(skb, outer))
				return false;
		} else if (ip6->nexthdr == IPPROTO_IPV6) {
			*outer = sizeof(*ip6);
		} else {
			return false;
		}
		ip6 = skb_header_pointer(skb, *outer, sizeof(_ip6), &_ip6);
		if (!ip6 || ip6->version != 6 || ip6->nexthdr != IPPROTO_UDP ||
		    !udp_ours(skb, *outer + *nhlen))
			return false;
		node = rcu_dereference(plane->mdev->ndev);
		return node && ipv6_chk_addr(dev_net(skb->dev), &ip6->daddr,
					     node, 1);
	}
	return false;
}

/*
 * An RC QP hears only its peer: the source of the (inner) IP header must
 * be the address its AV sends to, or, on UDP paths, which run between
 * plane addresses, the peer's end of one: of the QP's path set, or for a
 * QP whose EV profile made its paths (an srv6 format's), of the peer's.
 * A packet from anywhere else is forged, or meant for an earlier QP of
 * the same number. qp->lock held: the AV and the path set change under
 * it.
 */
static bool from_peer(struct mrc_qp *qp, const struct sk_buff *skb)
{
	const struct mrc_pathset *ps;
	struct in6_addr src;

	if (skb->protocol == htons(ETH_P_IP))
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, &src);
	else
		src = ipv6_hdr(skb)->saddr;
	if (ipv6_addr_equal(&src, &qp->av.daddr))
		return true;
	ps = rcu_dereference_protected(qp->ps, lockdep_is_held(&qp->lock));
	if (ps && ipv6_addr_any(&ps->peer))
		return mrc_peer_udp_end(qp->mdev, &qp->av.daddr, &src);
	return ps && mrc_pathset_udp_end(ps, &src);
}

static void dispatch(struct mrc_dev *mdev, struct sk_buff *skb)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	struct sk_buff_head txq;
	struct mrc_qp *qp;

	/* no QP has the multicast QPN: only UD packets to a group go there */
	if (mrc_bth_qpn(pkt->hdr) == IB_MULTICAST_QPN) {
		if (pkt->mask & MRC_H_DETH)
			mrc_mcast_recv(mdev, skb);
		else
			mrc_count(mdev, MRC_CNT_NO_QP, 1);
		return;
	}
	qp = mrc_qp_get(mdev, mrc_bth_qpn(pkt->hdr));
	if (!qp) {
		mrc_count(mdev, MRC_CNT_NO_QP, 1);
		return;
	}
	__skb_queue_head_init(&txq);
	spin_lock(&qp->lock);
	if (qp->dying) {
		spin_unlock(&qp->lock);
		mrc_qp_put(qp);
		return;
	}
	if (pkt->mask & MRC_H_DETH) {
		if (qp->ibqp.qp_type != IB_QPT_RC)
			mrc_resp_ud_recv(qp, skb);
		else
			mrc_count(mdev, MRC_CNT_MALFORMED, 1);
	} else if (qp->ibqp.qp_type != IB_QPT_RC &&
		   qp->ibqp.qp_type != IB_QPT_UC) {
		mrc_count(mdev, MRC_CNT_MALFORMED, 1);
	} else if (qp->av.family && !from_peer(qp, skb)) {
		mrc_count(mdev, MRC_CNT_WRONG_SRC, 1);
	} else if ((qp->ibqp.qp_type == IB_QPT_UC) != !!(pkt->mask & MRC_H_UC)) {
		/* UC and RC packets are for QPs of their own type only */
		mrc_count(mdev, MRC_CNT_MALFORMED, 1);
	} else if (qp->ibqp.qp_type == IB_QPT_UC) {
		mrc_uc_recv(qp, skb);
	} else if (pkt->trim) {
		mrc_resp_trimmed(qp, skb, &txq);
	} else if (pkt->mask & MRC_H_REQ) {
		mrc_resp_recv(qp, skb, &txq);
	} else if (pkt->opcode == MRC_OP_PROBE) {
		mrc_resp_probe(qp, skb, &txq);
	} else {
		mrc_req_recv(qp, skb, &txq);
	}
	spin_unlock(&qp->lock);
	mrc_qp_send(qp, &txq);
	mrc_qp_put(qp);
}

/*
 * What a trimming switch cut: a packet whose length fields claim more than
 * arrived (switches may leave them stale), or, where the switch fixed
 * them, one that fails its ICRC with the DSCP trimmed packets get.
 */
static u8 trim_reason(const struct mrc_dev *mdev, u8 dscp)
{
	return dscp == READ_ONCE(mdev->trim_lasthop_dscp) ?
	       MRC_NACK_TRIMMED_LASTHOP : MRC_NACK_TRIMMED;
}

static bool trim_dscp(const struct mrc_dev *mdev, u8 dscp)
{
	return dscp == READ_ONCE(mdev->trim_dscp) ||
	       dscp == READ_ONCE(mdev->trim_lasthop_dscp);
}

/*
 * Returns the transport bytes of a good packet (for a trimmed one, those
 * that arrived), 0 for a dropped one. @ce and @dscp: of the outermost IP
 * header, IPv4 or IPv6, the one the fabric's switches mark.
 */
static u32 recv(struct mrc_plane *plane, struct sk_buff *skb,
		unsigned int outer, unsigned int nhlen, bool ce, u8 dscp)
{
	struct mrc_pkt *pkt = mrc_skb_pkt(skb);
	struct mrc_dev *mdev = plane->mdev;
	u8 *bth;
	unsigned int l3len, ulen;
	struct udphdr *uh;
	u8 trim = 0;
	u32 ev;
	int err;

	if (skb->protocol == htons(ETH_P_IP)) {
		struct iphdr *iph = ip_hdr(skb);

		l3len = ntohs(iph->tot_len);
		if (ip_fast_csum(iph, iph->ihl))
			goto malformed;
	} else {
		l3len = ntohs(ipv6_hdr(skb)->payload_len) + nhlen;
	}
	if (l3len < nhlen + sizeof(*uh) || skb->len < nhlen + sizeof(*uh))
		goto malformed;
	uh = (struct udphdr *)(skb->data + nhlen);
	ulen = ntohs(uh->len);
	if (l3len > skb->len) {
		trim = trim_reason(mdev, dscp);
	} else {
		if (pskb_trim(skb, l3len))
			goto malformed;
		uh = (struct udphdr *)(skb->data + nhlen);
		if (ulen > skb->len - nhlen)
			trim = trim_reason(mdev, dscp);
		else if (ulen != skb->len - nhlen)
			goto malformed;
	}
	if (!trim && ulen < sizeof(*uh) + MRC_BTH_LEN + MRC_ICRC_LEN)
		goto malformed;
	skb_set_transport_header(skb, nhlen);
	if (!trim && get_unaligned_le32(skb_tail_pointer(skb) - MRC_ICRC_LEN) !=
		     mrc_icrc(skb, nhlen)) {
		if (!trim_dscp(mdev, dscp)) {
			mrc_count(mdev, MRC_CNT_ICRC_ERR, 1);
			return 0;
		}
		trim = trim_reason(mdev, dscp);
	}
	/* the EV: UDP source port and the low 16 bits of the flow label */
	ev = (u32)ntohs(uh->source) << 16;
	if (skb->protocol == htons(ETH_P_IPV6)) {
		ev |= ntohl(ip6_flowlabel(ipv6_hdr(skb))) & 0xffff;
		ce |= INET_ECN_is_ce(ipv6_get_dsfield(ipv6_hdr(skb)));
	}
	if (trim) {
		/* what arrived of it, the ICRC gone with the payload */
		ulen = skb->len - nhlen;
		err = mrc_wire_parse_trimmed(pkt, skb->data + nhlen + sizeof(*uh),
					     ulen - sizeof(*uh), trim);
	} else {
		bth = skb->data + nhlen + sizeof(*uh);
		if (mrc_op_is_ep(mrc_bth_opcode(bth)))
			err = mrc_wire_ep_parse(pkt, bth, ulen - sizeof(*uh) -
						MRC_ICRC_LEN);
		else
			err = mrc_wire_parse(pkt, bth, ulen - sizeof(*uh) -
					     MRC_ICRC_LEN);
	}
	if (err)
		goto malformed;
	if (!mrc_bth_pkey_default(pkt->hdr)) {
		mrc_count(mdev, MRC_CNT_BAD_PKEY, 1);
		return 0;
	}
	pkt->ev = ev;
	pkt->ce = ce;
	if (trim) {
		mrc_count(mdev, MRC_CNT_TRIMMED_RX, 1);
		/* unreliable datagrams and UC have nobody to NACK to */
		if (pkt->mask & (MRC_H_DETH | MRC_H_UC)) {
			mrc_count(mdev, MRC_CNT_RX_DROP, 1);
			return 0;
		}
	} else {
		mrc_count(mdev, MRC_CNT_RX_PKTS, 1);
		mrc_count(mdev, MRC_CNT_RX_BYTES, pkt->len);
	}
	if (mrc_op_is_ep(pkt->opcode))
		mrc_ep_recv(plane, skb, outer);
	else
		dispatch(mdev, skb);
	return ulen - sizeof(*uh);

malformed:
	mrc_count(mdev, MRC_CNT_MALFORMED, 1);
	return 0;
}

/* One packet of ours, unshared, at its (outer) IP header: consumed */
static void rx_one(struct mrc_plane *plane, struct sk_buff *skb,
		   unsigned int outer, unsigned int nhlen)
{
	struct mrc_dev *mdev = plane->mdev;
	u8 ds;
	u32 len;

	if (skb_linearize(skb)) {
		mrc_count(mdev, MRC_CNT_RX_DROP, 1);
	} else {
		/* decapsulate: the outer header served the fabric only (and
		 * carries the ECN mark or the trim DSCP a switch may have set)
		 */
		ds = skb->protocol == htons(ETH_P_IP) ?
		     ipv4_get_dsfield(ip_hdr(skb)) :
		     ipv6_get_dsfield(ipv6_hdr(skb));
		__skb_pull(skb, outer);
		skb_reset_network_header(skb);
		len = recv(plane, skb, outer, nhlen, INET_ECN_is_ce(ds),
			   ds >> 2);
		if (len) {
			mrc_plane_count(plane, MRC_PCNT_RX_PKTS, 1);
			mrc_plane_count(plane, MRC_PCNT_RX_BYTES, len);
		}
	}
	consume_skb(skb);
}

/*
 * GRO may have merged packets of one flow (rx-gro-list, or UDP GRO
 * forwarding on the plane): the ICRC is per packet, so mrc takes them
 * apart again. Segmentation works from the MAC header.
 */
static void rx_gso(struct mrc_plane *plane, struct sk_buff *skb,
		   unsigned int outer, unsigned int nhlen)
{
	struct sk_buff *segs, *seg, *next;

	__skb_push(skb, skb->data - skb_mac_header(skb));
	segs = __skb_gso_segment(skb, NETIF_F_SG, false);
	if (IS_ERR_OR_NULL(segs)) {
		mrc_count(plane->mdev, MRC_CNT_RX_DROP, 1);
		kfree_skb(skb);
		return;
	}
	consume_skb(skb);
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		__skb_pull(seg, skb_network_offset(seg));
		rx_one(plane, seg, outer, nhlen);
	}
}

/*
 * Does the plane take @skb (ours) from its outer source, before any
 * decapsulation: the one the fabric delivered it from?
 */
static bool src_allowed(struct mrc_plane *plane, const struct sk_buff *skb)
{
	struct in6_addr _a, src;
	const void *a;

	if (!rcu_access_pointer(plane->allow))
		return true;
	if (skb->protocol == htons(ETH_P_IP)) {
		a = skb_header_pointer(skb, offsetof(struct iphdr, saddr),
				       sizeof(__be32), &_a);
		if (!a)
			return false;
		ipv6_addr_set_v4mapped(*(const __be32 *)a, &src);
	} else {
		a = skb_header_pointer(skb, offsetof(struct ipv6hdr, saddr),
				       sizeof(src), &_a);
		if (!a)
			return false;
		memcpy(&src, a, sizeof(src));
	}
	return mrc_plane_src_allowed(plane, &src);
}

static rx_handler_result_t mrc_net_rx(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct mrc_plane *plane = rcu_dereference(skb->dev->rx_handler_data);
	unsigned int outer, nhlen;

	/* multicast: from the wire, or the copy a group member here gets of
	 * what this host sent to the group (ip_mc_output())
	 */
	if ((skb->pkt_type != PACKET_HOST &&
	     skb->pkt_type != PACKET_MULTICAST &&
	     skb->pkt_type != PACKET_LOOPBACK) ||
	    !is_ours(plane, skb, &outer, &nhlen))
		return RX_HANDLER_PASS;
	if (READ_ONCE(plane->admin_down)) {
		mrc_plane_count(plane, MRC_PCNT_ADMIN_DROPS,
				skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1);
		kfree_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	if (!src_allowed(plane, skb)) {
		mrc_count(plane->mdev, MRC_CNT_SRC_DENIED,
			  skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1);
		kfree_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	if (skb_is_gso(skb))
		rx_gso(plane, skb, outer, nhlen);
	else
		rx_one(plane, skb, outer, nhlen);
	return RX_HANDLER_CONSUMED;
}

/* Make @plane's netdev hand its MRC packets to mrc. RTNL held. */
int mrc_net_attach(struct mrc_plane *plane)
{
	ASSERT_RTNL();
	return netdev_rx_handler_register(plane->ndev, mrc_net_rx, plane);
}

/* RTNL held */
void mrc_net_detach(struct net_device *ndev)
{
	if (rcu_access_pointer(ndev->rx_handler) == mrc_net_rx)
		netdev_rx_handler_unregister(ndev);
}

/* The plane @ndev belongs to, or NULL. RTNL held. */
struct mrc_plane *mrc_net_plane(const struct net_device *ndev)
{
	if (rcu_access_pointer(ndev->rx_handler) != mrc_net_rx)
		return NULL;
	return rtnl_dereference(ndev->rx_handler_data);
}

/* ---- netdev events ------------------------------------------------------- */
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
		mrc_plane_event(ndev);
		mrc_dev_netdev_unregister(ndev);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		mrc_plane_event(ndev);
		port_event(ndev);
		break;
	case NETDEV_CHANGEMTU:
		mrc_plane_event(ndev);
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
