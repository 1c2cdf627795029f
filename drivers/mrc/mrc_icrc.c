// SPDX-License-Identifier: GPL-2.0
/*
 * The ICRC of RoCEv2 packets: CRC32 (crc32_le seeded with ~0, complemented,
 * stored little endian) over the IP header with its variant fields set to
 * ones (IPv4 TOS, TTL and checksum; IPv6 traffic class, flow label and hop
 * limit), the UDP header with its checksum set to ones, the BTH with byte
 * 4 (FECN/BECN) set to ones, and every byte after it up to the ICRC.
 *
 * Every byte of every packet passes here twice, once at each end. On x86
 * the kernels mrc runs on (6.1 to 6.12) give crc32_le no architecture
 * code: it is the generic table-driven loop, while the crypto API's
 * crc32-pclmul folds with PCLMULQDQ (what rxe used there). So where that
 * driver loads (the CPU has the instruction), the payload goes through it;
 * the headers (at most 88 bytes, too short to fold) and any failure take
 * crc32_le. Elsewhere crc32_le does it all: other architectures' (arm64's)
 * has used their CRC instructions all along. One transform serves the
 * module: it keeps no state, each call seeds a descriptor on the stack.
 */
#include <crypto/hash.h>
#include <kunit/visibility.h>
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>

#include "mrc.h"

/* below this, crc32-pclmul does not fold: not worth the indirect call */
#define MRC_CRC_SHASH_MIN	80

static struct crypto_shash *mrc_crc_tfm;

/**
 * mrc_icrc_crc32() - crc32_le(@crc, @p, @len) through a "crc32" transform
 * @tfm: one, or NULL (crc32_le then)
 * @crc: the CRC so far
 * @p: the bytes
 * @len: how many
 *
 * Context: any; the transform's update runs with or without the FPU (it
 * falls back to the generic loop where SIMD is not usable).
 * Return: the CRC of the bytes, continuing @crc.
 */
VISIBLE_IF_KUNIT noinline_for_stack u32
mrc_icrc_crc32(struct crypto_shash *tfm, u32 crc, const void *p, size_t len)
{
	if (tfm && len >= MRC_CRC_SHASH_MIN && len <= UINT_MAX) {
		SHASH_DESC_ON_STACK(desc, tfm);

		desc->tfm = tfm;
		/* "crc32"'s state is the running crc32_le value, as rxe seeds it */
		*(u32 *)shash_desc_ctx(desc) = crc;
		if (!crypto_shash_update(desc, p, len))
			return *(u32 *)shash_desc_ctx(desc);
	}
	return crc32_le(crc, p, len);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_icrc_crc32);

/*
 * A transform of "crc32" whose state mrc_icrc_crc32() may seed: the
 * running crc32_le value, all that 6.1 to 6.12's drivers keep. NULL if none.
 */
VISIBLE_IF_KUNIT struct crypto_shash *mrc_icrc_tfm(const char *name)
{
	struct crypto_shash *tfm = crypto_alloc_shash(name, 0, 0);

	if (IS_ERR(tfm))
		return NULL;
	if (crypto_shash_descsize(tfm) != sizeof(u32)) {
		crypto_free_shash(tfm);
		return NULL;
	}
	return tfm;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_icrc_tfm);

/**
 * mrc_icrc() - the ICRC of a packet
 * @skb: linear, its network header set, the ICRC's 4 bytes at its tail
 * @nhlen: the length of its (innermost) IP header: IPv4's 20 or IPv6's 40
 *
 * Return: the ICRC, to store or compare little endian.
 */
u32 mrc_icrc(struct sk_buff *skb, unsigned int nhlen)
{
	u8 tmp[sizeof(struct ipv6hdr) + sizeof(struct udphdr) + MRC_BTH_LEN];
	unsigned int hl = nhlen + sizeof(struct udphdr) + MRC_BTH_LEN;
	u8 *nh = skb_network_header(skb);
	u32 crc;

	if (WARN_ON_ONCE(hl > sizeof(tmp)))
		return 0;
	memcpy(tmp, nh, hl);
	if (nhlen == sizeof(struct iphdr)) {
		struct iphdr *ip4 = (struct iphdr *)tmp;

		ip4->tos = 0xff;
		ip4->ttl = 0xff;
		ip4->check = (__force __sum16)0xffff;
	} else {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)tmp;

		ip6->priority = 0xf;
		memset(ip6->flow_lbl, 0xff, sizeof(ip6->flow_lbl));
		ip6->hop_limit = 0xff;
	}
	((struct udphdr *)(tmp + nhlen))->check = (__force __sum16)0xffff;
	tmp[nhlen + sizeof(struct udphdr) + 4] = 0xff;
	crc = crc32_le(~0U, tmp, hl);
	crc = mrc_icrc_crc32(READ_ONCE(mrc_crc_tfm), crc, nh + hl,
			     skb_tail_pointer(skb) - MRC_ICRC_LEN - (nh + hl));
	return ~crc;
}

/*
 * At load: crc32-pclmul, by its driver name, so that the generic "crc32"
 * (loaded or built in) is not taken instead; or none, and crc32_le does it
 * all (the same result).
 */
void mrc_icrc_init(void)
{
	mrc_crc_tfm = mrc_icrc_tfm("crc32-pclmul");
	pr_debug("mrc: ICRC payload by %s\n",
		 mrc_crc_tfm ? crypto_shash_driver_name(mrc_crc_tfm) : "crc32_le");
}

/* At unload, when no packet is in flight any more */
void mrc_icrc_exit(void)
{
	struct crypto_shash *tfm = mrc_crc_tfm;

	WRITE_ONCE(mrc_crc_tfm, NULL);
	crypto_free_shash(tfm);
}
