// SPDX-License-Identifier: GPL-2.0
/*
 * SRv6 uSID container encoding.
 *
 * A container is  block | uSID1 | uSID2 | ... | 0...  in one IPv6 address.
 * Each switch whose uSID is first after the block shifts the rest left by one
 * uSID and forwards on the new address (Linux: seg6local End with the
 * next-csid flavour). The all-zero tail ends the container, so a uSID may
 * never be zero.
 *
 * And the Segment Routing Header of an explicit segment list (RFC 8754),
 * which classic SRv6 End nodes walk.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/errno.h>
#include <linux/ipv6.h>
#include <linux/seg6.h>
#include <linux/string.h>

#include "mrc_srv6.h"

bool mrc_srv6_usid_fmt_valid(const struct mrc_usid_fmt *fmt)
{
	if (!fmt->lblen || fmt->lblen % 8 || fmt->lblen > 120)
		return false;
	if (!fmt->nflen || fmt->nflen % 8 || fmt->nflen > 32)
		return false;
	return fmt->lblen + fmt->nflen <= 128;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_srv6_usid_fmt_valid);

/* how many uSIDs fit after the block */
unsigned int mrc_srv6_usid_max(const struct mrc_usid_fmt *fmt)
{
	if (!mrc_srv6_usid_fmt_valid(fmt))
		return 0;
	return (128 - fmt->lblen) / fmt->nflen;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_srv6_usid_max);

/**
 * mrc_srv6_usid_encode() - build a uSID container
 * @da: the resulting outer IPv6 destination
 * @block: locator block; only its first @fmt->lblen bits may be set
 * @fmt: container layout
 * @usids: the hops in path order; each non-zero and < 2^nflen
 * @n: number of hops, 1..mrc_srv6_usid_max()
 *
 * Return: 0, -EINVAL for a bad layout, block or uSID value, -E2BIG when the
 * hops do not fit one container.
 */
int mrc_srv6_usid_encode(struct in6_addr *da, const struct in6_addr *block,
			 const struct mrc_usid_fmt *fmt, const u32 *usids,
			 unsigned int n)
{
	unsigned int lb = fmt->lblen / 8, nb = fmt->nflen / 8;
	struct in6_addr out = {};
	unsigned int i, j;

	if (!mrc_srv6_usid_fmt_valid(fmt) || !n)
		return -EINVAL;
	if (n > mrc_srv6_usid_max(fmt))
		return -E2BIG;
	for (i = lb; i < 16; i++)
		if (block->s6_addr[i])
			return -EINVAL;
	memcpy(out.s6_addr, block->s6_addr, lb);
	for (i = 0; i < n; i++) {
		u32 v = usids[i];

		if (!v || (nb < 4 && v >> fmt->nflen))
			return -EINVAL;
		/* big endian, nb bytes */
		for (j = 0; j < nb; j++)
			out.s6_addr[lb + i * nb + j] = v >> (8 * (nb - 1 - j));
	}
	*da = out;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_srv6_usid_encode);

/**
 * mrc_srv6_usid_advance() - do what a next-csid End node does to the DA
 * @da: container, shifted in place
 * @fmt: container layout
 *
 * Return: false when the argument after the active uSID is zero: the active
 * uSID is the last one and @da is left unchanged (Linux then falls back to
 * classic End processing); true after shifting the argument left by one uSID.
 */
bool mrc_srv6_usid_advance(struct in6_addr *da, const struct mrc_usid_fmt *fmt)
{
	unsigned int lb = fmt->lblen / 8, nb = fmt->nflen / 8;
	unsigned int i;

	if (!mrc_srv6_usid_fmt_valid(fmt))
		return false;
	for (i = lb + nb; i < 16; i++)
		if (da->s6_addr[i])
			break;
	if (i == 16)
		return false;
	memmove(&da->s6_addr[lb], &da->s6_addr[lb + nb], 16 - lb - nb);
	memset(&da->s6_addr[16 - nb], 0, nb);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_srv6_usid_advance);

/**
 * mrc_srv6_srh_build() - write the SRH of an explicit segment list
 * @srh: room for mrc_srv6_srh_len(@n) bytes
 * @segs: the segments in the order they are visited; the first one is the
 *	  outer destination
 * @n: entries in @segs, at least one
 * @nexthdr: the header after the SRH
 *
 * RFC 8754 stores the list last segment first, with Segments Left pointing
 * at the active (first) segment.
 */
void mrc_srv6_srh_build(struct ipv6_sr_hdr *srh, const struct in6_addr *segs,
			unsigned int n, u8 nexthdr)
{
	unsigned int i;

	memset(srh, 0, sizeof(*srh));
	srh->nexthdr = nexthdr;
	srh->hdrlen = 2 * n;	/* 8-octet units after the first 8 */
	srh->type = IPV6_SRCRT_TYPE_4;
	srh->segments_left = n - 1;
	srh->first_segment = n - 1;
	for (i = 0; i < n; i++)
		srh->segments[i] = segs[n - 1 - i];
}
EXPORT_SYMBOL_IF_KUNIT(mrc_srv6_srh_build);

/**
 * mrc_srv6_srh_end_len() - does a packet's path end here?
 * @srh: an IPv6 routing header (its first 8 bytes are readable)
 * @nexthdr: the header that must follow it
 *
 * Return: the SRH's length when it is a segment routing header with no
 * segment left and @nexthdr inside, else 0 (not an SRH, or a packet still
 * on its way: not ours to end).
 */
unsigned int mrc_srv6_srh_end_len(const struct ipv6_sr_hdr *srh, u8 nexthdr)
{
	if (srh->type != IPV6_SRCRT_TYPE_4 || srh->segments_left ||
	    srh->nexthdr != nexthdr)
		return 0;
	return ipv6_optlen(srh);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_srv6_srh_end_len);

/**
 * mrc_srv6_srh_advance() - do what an SRv6 End node does (RFC 8986 4.1)
 * @srh: the SRH, updated in place
 * @da: the packet's destination, set to the next segment
 *
 * Return: false when no segment is left (End would drop the packet).
 */
bool mrc_srv6_srh_advance(struct ipv6_sr_hdr *srh, struct in6_addr *da)
{
	if (!srh->segments_left || srh->segments_left > srh->first_segment)
		return false;
	srh->segments_left--;
	*da = srh->segments[srh->segments_left];
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_srv6_srh_advance);
