// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: SRv6 uSID containers. The shift semantics must match Linux
 * seg6local End with the next-csid flavour, which the test fabric runs.
 * And SRHs of explicit segment lists, as classic End walks them.
 */
#include <kunit/test.h>
#include <linux/random.h>
#include <linux/seg6.h>
#include <net/ipv6.h>

#include "mrc_srv6.h"

/* fc00:0::/32 */
static const struct in6_addr block = { .s6_addr = { 0xfc, 0x00, 0x00, 0x00 } };

static void expect_addr(struct kunit *test, const struct in6_addr *got,
			const u8 *want)
{
	KUNIT_EXPECT_MEMEQ(test, got->s6_addr, want, 16);
}

static void fmt_valid(struct kunit *test)
{
	struct mrc_usid_fmt f = MRC_USID_FMT_F3216;

	KUNIT_EXPECT_TRUE(test, mrc_srv6_usid_fmt_valid(&f));
	KUNIT_EXPECT_EQ(test, 6, mrc_srv6_usid_max(&f));
	f = (struct mrc_usid_fmt){ .lblen = 48, .nflen = 16 };
	KUNIT_EXPECT_EQ(test, 5, mrc_srv6_usid_max(&f));
	f = (struct mrc_usid_fmt){ .lblen = 64, .nflen = 32 };
	KUNIT_EXPECT_EQ(test, 2, mrc_srv6_usid_max(&f));
	f = (struct mrc_usid_fmt){ .lblen = 0, .nflen = 16 };
	KUNIT_EXPECT_FALSE(test, mrc_srv6_usid_fmt_valid(&f));
	f = (struct mrc_usid_fmt){ .lblen = 12, .nflen = 16 };
	KUNIT_EXPECT_FALSE(test, mrc_srv6_usid_fmt_valid(&f));
	f = (struct mrc_usid_fmt){ .lblen = 32, .nflen = 40 };
	KUNIT_EXPECT_FALSE(test, mrc_srv6_usid_fmt_valid(&f));
	f = (struct mrc_usid_fmt){ .lblen = 120, .nflen = 16 };
	KUNIT_EXPECT_FALSE(test, mrc_srv6_usid_fmt_valid(&f));
	KUNIT_EXPECT_EQ(test, 0, mrc_srv6_usid_max(&f));
}

static void encode_basic(struct kunit *test)
{
	const struct mrc_usid_fmt f = MRC_USID_FMT_F3216;
	const u32 hops[] = { 0x100, 0x200, 0x300 };
	static const u8 want[16] = { 0xfc, 0, 0, 0, 0x01, 0x00, 0x02, 0x00,
				     0x03, 0x00 };
	struct in6_addr da;

	KUNIT_ASSERT_EQ(test, 0, mrc_srv6_usid_encode(&da, &block, &f, hops, 3));
	expect_addr(test, &da, want);
}

static void encode_full(struct kunit *test)
{
	const struct mrc_usid_fmt f = MRC_USID_FMT_F3216;
	const u32 hops[] = { 0x1, 0x2, 0x3, 0x4, 0x5, 0xffff };
	static const u8 want[16] = { 0xfc, 0, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4,
				     0, 5, 0xff, 0xff };
	struct in6_addr da;

	KUNIT_ASSERT_EQ(test, 0, mrc_srv6_usid_encode(&da, &block, &f, hops, 6));
	expect_addr(test, &da, want);
}

static void encode_errors(struct kunit *test)
{
	const struct mrc_usid_fmt f = MRC_USID_FMT_F3216;
	const struct mrc_usid_fmt bad = { .lblen = 33, .nflen = 16 };
	const u32 hops[7] = { 1, 2, 3, 4, 5, 6, 7 };
	const u32 zero[] = { 0x100, 0 };
	const u32 big[] = { 0x10000 };
	struct in6_addr wide = block, da;

	memset(&da, 0xaa, sizeof(da));
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_srv6_usid_encode(&da, &block, &f, hops, 0));
	KUNIT_EXPECT_EQ(test, -E2BIG, mrc_srv6_usid_encode(&da, &block, &f, hops, 7));
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_srv6_usid_encode(&da, &block, &f, zero, 2));
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_srv6_usid_encode(&da, &block, &f, big, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_srv6_usid_encode(&da, &block, &bad, hops, 1));
	wide.s6_addr[4] = 1;	/* a bit past the 32-bit block */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_srv6_usid_encode(&da, &wide, &f, hops, 1));
	/* a failed encode leaves the output alone */
	KUNIT_EXPECT_EQ(test, 0xaa, da.s6_addr[0]);
}

/* fc00:0:100:200:300:: -> fc00:0:200:300:: -> fc00:0:300:: (last) */
static void advance_like_next_csid(struct kunit *test)
{
	const struct mrc_usid_fmt f = MRC_USID_FMT_F3216;
	const u32 hops[] = { 0x100, 0x200, 0x300 };
	static const u8 hop2[16] = { 0xfc, 0, 0, 0, 0x02, 0, 0x03, 0 };
	static const u8 hop3[16] = { 0xfc, 0, 0, 0, 0x03, 0 };
	struct in6_addr da;

	KUNIT_ASSERT_EQ(test, 0, mrc_srv6_usid_encode(&da, &block, &f, hops, 3));
	KUNIT_EXPECT_TRUE(test, mrc_srv6_usid_advance(&da, &f));
	expect_addr(test, &da, hop2);
	KUNIT_EXPECT_TRUE(test, mrc_srv6_usid_advance(&da, &f));
	expect_addr(test, &da, hop3);
	/* argument zero: End falls back to classic End, DA unchanged */
	KUNIT_EXPECT_FALSE(test, mrc_srv6_usid_advance(&da, &f));
	expect_addr(test, &da, hop3);
}

/* a full container shifts in zeros at the tail, as the kernel does */
static void advance_full_container(struct kunit *test)
{
	const struct mrc_usid_fmt f = { .lblen = 48, .nflen = 8 };
	static const u8 start[16] = { 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14,
				      15, 16, 17, 18, 19 };
	static const u8 next[16] = { 1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 15,
				     16, 17, 18, 19, 0 };
	struct in6_addr da;

	memcpy(da.s6_addr, start, 16);
	KUNIT_EXPECT_TRUE(test, mrc_srv6_usid_advance(&da, &f));
	expect_addr(test, &da, next);
}

/* random paths: each hop sees its own uSID active, the last one ends it */
static void roundtrip_random(struct kunit *test)
{
	const struct mrc_usid_fmt f = MRC_USID_FMT_F3216;
	unsigned int iter, i, n;
	struct in6_addr da;
	u32 hops[6];

	for (iter = 0; iter < 500; iter++) {
		n = 1 + get_random_u32_below(6);
		for (i = 0; i < n; i++)
			hops[i] = 1 + get_random_u32_below(0xffff);
		KUNIT_ASSERT_EQ(test, 0,
				mrc_srv6_usid_encode(&da, &block, &f, hops, n));
		for (i = 0; i < n; i++) {
			u32 active = da.s6_addr[4] << 8 | da.s6_addr[5];

			KUNIT_EXPECT_EQ(test, hops[i], active);
			KUNIT_EXPECT_MEMEQ(test, da.s6_addr, block.s6_addr, 4);
			KUNIT_EXPECT_EQ(test, i + 1 < n,
					mrc_srv6_usid_advance(&da, &f));
		}
	}
}

/* fd00::<i> */
static struct in6_addr seg(unsigned int i)
{
	struct in6_addr a = { .s6_addr = { 0xfd, [15] = i } };

	return a;
}

/*
 * An SRH as the wire needs it: the list reversed, Segments Left at the
 * first segment; End nodes walk it to the last, where the path ends.
 */
static void srh_build_and_walk(struct kunit *test)
{
	struct in6_addr segs[6], da;
	struct ipv6_sr_hdr *srh;
	unsigned int n, i;

	srh = kunit_kzalloc(test, mrc_srv6_srh_len(6), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, srh);
	for (n = 1; n <= 6; n++) {
		for (i = 0; i < n; i++)
			segs[i] = seg(i + 1);
		mrc_srv6_srh_build(srh, segs, n, IPPROTO_IPV6);
		KUNIT_EXPECT_EQ(test, mrc_srv6_srh_len(n), ipv6_optlen(srh));
		KUNIT_EXPECT_EQ(test, IPV6_SRCRT_TYPE_4, srh->type);
		KUNIT_EXPECT_EQ(test, IPPROTO_IPV6, srh->nexthdr);
		KUNIT_EXPECT_EQ(test, n - 1, srh->first_segment);
		/* the active segment is the first one, the outer DA */
		da = srh->segments[srh->segments_left];
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&da, &segs[0]));
		for (i = 1; i < n; i++) {
			KUNIT_EXPECT_EQ(test, 0,
					mrc_srv6_srh_end_len(srh, IPPROTO_IPV6));
			KUNIT_ASSERT_TRUE(test, mrc_srv6_srh_advance(srh, &da));
			KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&da, &segs[i]));
		}
		/* at the last segment: the path ends, End would drop */
		KUNIT_EXPECT_EQ(test, mrc_srv6_srh_len(n),
				mrc_srv6_srh_end_len(srh, IPPROTO_IPV6));
		KUNIT_EXPECT_EQ(test, 0, mrc_srv6_srh_end_len(srh, IPPROTO_UDP));
		KUNIT_EXPECT_FALSE(test, mrc_srv6_srh_advance(srh, &da));
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&da, &segs[n - 1]));
	}
	/* other routing header types are not SRHs */
	mrc_srv6_srh_build(srh, segs, 1, IPPROTO_IPV6);
	srh->type = 2;
	KUNIT_EXPECT_EQ(test, 0, mrc_srv6_srh_end_len(srh, IPPROTO_IPV6));
}

static struct kunit_case mrc_srv6_cases[] = {
	KUNIT_CASE(fmt_valid),
	KUNIT_CASE(encode_basic),
	KUNIT_CASE(encode_full),
	KUNIT_CASE(encode_errors),
	KUNIT_CASE(advance_like_next_csid),
	KUNIT_CASE(srh_build_and_walk),
	KUNIT_CASE(advance_full_container),
	KUNIT_CASE(roundtrip_random),
	{}
};

static struct kunit_suite mrc_srv6_suite = {
	.name = "mrc_srv6",
	.test_cases = mrc_srv6_cases,
};

kunit_test_suite(mrc_srv6_suite);
