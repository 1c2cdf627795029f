// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a plane's source prefixes (mrc_plane_src_allowed()), IPv4 ones
 * as ::ffff:0:0/96 + their length.
 */
#include <kunit/test.h>
#include <linux/inet.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "mrc.h"

static struct in6_addr a6(const char *s)
{
	struct in6_addr a = {};

	WARN_ON(in6_pton(s, -1, a.s6_addr, -1, NULL) != 1);
	return a;
}

static struct in6_addr a4(__be32 v4)
{
	struct in6_addr a;

	ipv6_addr_set_v4mapped(v4, &a);
	return a;
}

/* @plane with prefixes @p[@n] (the test frees them) */
static void set(struct kunit *test, struct mrc_plane *plane,
		const struct mrc_prefix *p, u32 n)
{
	struct mrc_allow *a = kunit_kzalloc(test, struct_size(a, p, n),
					    GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	a->n = n;
	memcpy(a->p, p, n * sizeof(*p));
	RCU_INIT_POINTER(plane->allow, a);
}

static bool allowed(struct mrc_plane *plane, struct in6_addr src)
{
	bool ok;

	rcu_read_lock();
	ok = mrc_plane_src_allowed(plane, &src);
	rcu_read_unlock();
	return ok;
}

static void none_allows_all(struct kunit *test)
{
	struct mrc_plane plane = {};

	KUNIT_EXPECT_TRUE(test, allowed(&plane, a6("2001:db8::1")));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a4(htonl(0x0a000001))));
}

static void ipv6_prefixes(struct kunit *test)
{
	struct mrc_prefix p[] = {
		{ a6("2001:db8:1::"), 48 },
		{ a6("2001:db8:2::"), 47 },	/* :2:: and :3:: */
		{ a6("fd00::2"), 128 },
	};
	struct mrc_plane plane = {};

	set(test, &plane, p, ARRAY_SIZE(p));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a6("2001:db8:1::1")));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a6("2001:db8:1:ffff:ffff:ffff:ffff:ffff")));
	KUNIT_EXPECT_FALSE(test, allowed(&plane, a6("2001:db8:4::1")));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a6("2001:db8:3::1")));
	KUNIT_EXPECT_FALSE(test, allowed(&plane, a6("2001:db8:0:ffff::1")));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a6("fd00::2")));
	KUNIT_EXPECT_FALSE(test, allowed(&plane, a6("fd00::3")));
	KUNIT_EXPECT_FALSE(test, allowed(&plane, a4(htonl(0x0a000001))));
}

/* 10.1.0.0/16 is ::ffff:10.1.0.0/112; IPv6 sources never match it */
static void ipv4_prefixes(struct kunit *test)
{
	struct mrc_prefix p[] = { { a4(htonl(0x0a010000)), 96 + 16 } };
	struct mrc_plane plane = {};

	set(test, &plane, p, ARRAY_SIZE(p));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a4(htonl(0x0a010203))));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a4(htonl(0x0a01ffff))));
	KUNIT_EXPECT_FALSE(test, allowed(&plane, a4(htonl(0x0a020001))));
	KUNIT_EXPECT_FALSE(test, allowed(&plane, a6("::a01:203")));
	KUNIT_EXPECT_FALSE(test, allowed(&plane, a6("2001:db8::1")));
}

static void zero_length_allows_all(struct kunit *test)
{
	struct mrc_prefix p[] = { { a6("::"), 0 } };
	struct mrc_plane plane = {};

	set(test, &plane, p, ARRAY_SIZE(p));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a6("2001:db8::1")));
	KUNIT_EXPECT_TRUE(test, allowed(&plane, a4(htonl(0xc0000201))));
}

static struct kunit_case mrc_plane_cases[] = {
	KUNIT_CASE(none_allows_all),
	KUNIT_CASE(ipv6_prefixes),
	KUNIT_CASE(ipv4_prefixes),
	KUNIT_CASE(zero_length_allows_all),
	{}
};

static struct kunit_suite mrc_plane_suite = {
	.name = "mrc_plane",
	.test_cases = mrc_plane_cases,
};

kunit_test_suite(mrc_plane_suite);
