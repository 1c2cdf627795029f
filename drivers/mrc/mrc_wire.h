/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC wire format: header sizes and the per-packet overhead that decides the
 * path MTU. Documentation/mrc/wire-format.rst describes every byte.
 */
#ifndef _MRC_WIRE_H
#define _MRC_WIRE_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

enum mrc_hdr_len {
	MRC_IPV6_HLEN		= 40,
	MRC_SRH1_HLEN		= 24,	/* SRH with a single 128-bit segment */
	MRC_UDP_HLEN		= 8,
	MRC_BTH_LEN		= 12,
	MRC_METH_LEN		= 4,
	MRC_TSETH_LEN		= 4,
	MRC_RETH_LEN		= 16,
	MRC_IMMDT_LEN		= 4,
	MRC_ICRC_LEN		= 4,
};

/*
 * Worst case a data packet carries on top of its payload: outer IPv6 +
 * one-segment SRH (SRv6 mode) + inner IPv6 + UDP + BTH + METH + TSETH +
 * RETH (in every MRC data packet) + ImmDt + ICRC.
 */
#define MRC_MAX_HDR_OVERHEAD						\
	(MRC_IPV6_HLEN + MRC_SRH1_HLEN + MRC_IPV6_HLEN + MRC_UDP_HLEN +	\
	 MRC_BTH_LEN + MRC_METH_LEN + MRC_TSETH_LEN + MRC_RETH_LEN +	\
	 MRC_IMMDT_LEN + MRC_ICRC_LEN)

enum ib_mtu mrc_wire_path_mtu(unsigned int netdev_mtu);

#endif /* _MRC_WIRE_H */
