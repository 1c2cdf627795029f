// SPDX-License-Identifier: GPL-2.0
/*
 * SRv6 uSID container encoding.
 *
 * A container is  block | uSID1 | uSID2 | ... | 0...  in one IPv6 address.
 * Each switch whose uSID is first after the block shifts the rest left by one
 * uSID and forwards on the new address (Linux: seg6local End with the
 * next-csid flavour). The all-zero tail ends the container, so a uSID may
 * never be zero.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/errno.h>
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
