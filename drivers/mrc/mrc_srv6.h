/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SRv6 micro-SID (RFC 9800 NEXT-C-SID) containers: the outer IPv6
 * destination that names an MRC path hop by hop; and Segment Routing
 * Headers (RFC 8754) for explicit segment lists.
 */
#ifndef _MRC_SRV6_H
#define _MRC_SRV6_H

#include <linux/in6.h>
#include <linux/types.h>

struct ipv6_sr_hdr;

/**
 * struct mrc_usid_fmt - container layout, as Linux seg6local's
 *	"flavors next-csid lblen L nflen N"
 * @lblen: locator-block length in bits (multiple of 8)
 * @nflen: length of one uSID (locator-node + function) in bits
 *	   (8, 16, 24 or 32)
 */
struct mrc_usid_fmt {
	u8 lblen;
	u8 nflen;
};

/* The MRC 1.0 / F3216 layout: 32-bit block, 16-bit uSIDs, up to six hops */
#define MRC_USID_FMT_F3216 ((struct mrc_usid_fmt){ .lblen = 32, .nflen = 16 })

bool mrc_srv6_usid_fmt_valid(const struct mrc_usid_fmt *fmt);
unsigned int mrc_srv6_usid_max(const struct mrc_usid_fmt *fmt);
int mrc_srv6_usid_encode(struct in6_addr *da, const struct in6_addr *block,
			 const struct mrc_usid_fmt *fmt, const u32 *usids,
			 unsigned int n);
bool mrc_srv6_usid_advance(struct in6_addr *da,
			   const struct mrc_usid_fmt *fmt);

/* Bytes of an SRH with @nsegs segments */
static inline unsigned int mrc_srv6_srh_len(unsigned int nsegs)
{
	return 8 + 16 * nsegs;
}

void mrc_srv6_srh_build(struct ipv6_sr_hdr *srh, const struct in6_addr *segs,
			unsigned int n, u8 nexthdr);
unsigned int mrc_srv6_srh_end_len(const struct ipv6_sr_hdr *srh, u8 nexthdr);
bool mrc_srv6_srh_advance(struct ipv6_sr_hdr *srh, struct in6_addr *da);

#endif /* _MRC_SRV6_H */
