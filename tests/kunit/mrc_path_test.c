// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: path sets (checks, copy-on-write add/delete, ordering).
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "mrc_kunit.h"

static void cfg_checks(struct kunit *test)
{
	struct mrc_path_cfg c = mrc_test_usid_path(0, 0x1000, 0x2000, 0x1001, 0xe002);
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, 0, mrc_path_cfg_check(&c, &why));
	c = mrc_test_usid_path(0, 0, 0, 0, 0);		/* no uSID at all */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	KUNIT_EXPECT_NOT_NULL(test, why);
	c = mrc_test_usid_path(0, 0x1000, 0, 0x1001, 0);	/* a hole */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = mrc_test_usid_path(0, 0x1000, 0, 0, 0);
	c.nflen = 12;				/* not a byte multiple */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = mrc_test_usid_path(0, 0x1000, 0, 0, 0);
	c.usid.s6_addr[0] = 0xff;		/* multicast */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = mrc_test_usid_path(16, 0x1000, 0, 0, 0);	/* plane out of range */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = (struct mrc_path_cfg){ .mode = MRC_PATH_MODE_UDP };
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c.remote = mrc_test_peer;
	KUNIT_EXPECT_EQ(test, 0, mrc_path_cfg_check(&c, &why));
	c.remote.s6_addr32[0] = htonl(0xfe800000);	/* link-local */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
}

/* an srh path over fd00::<first>, fd00::<first + 1>, ... (n segments) */
static struct mrc_path_cfg srh_path(u8 plane, u8 first, u8 n)
{
	struct mrc_path_cfg c = { .plane = plane, .mode = MRC_PATH_MODE_SRH };
	u8 i;

	c.nsegs = n;
	for (i = 0; i < n && i < MRC_PATH_MAX_SEGS; i++) {
		c.segs[i].s6_addr[0] = 0xfd;
		c.segs[i].s6_addr[15] = first + i;
	}
	return c;
}

/* srh paths: checks, outer destination, identity by the whole list */
static void srh_paths(struct kunit *test)
{
	struct mrc_path_cfg a = srh_path(1, 10, 4), c;
	struct mrc_pathset *ps = NULL, *n;
	const char *why = NULL;
	unsigned int ndel;

	KUNIT_EXPECT_EQ(test, 0, mrc_path_cfg_check(&a, &why));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(mrc_path_cfg_daddr(&a), &a.segs[0]));
	c = srh_path(1, 10, 0);
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = srh_path(1, 10, MRC_PATH_MAX_SEGS + 1);
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = srh_path(1, 10, 3);
	c.segs[2].s6_addr[0] = 0xff;		/* multicast */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = srh_path(1, 10, MRC_PATH_MAX_SEGS);
	KUNIT_EXPECT_EQ(test, 0, mrc_path_cfg_check(&c, &why));

	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &a));
	KUNIT_EXPECT_EQ(test, -EEXIST, mrc_test_add(test, &ps, &a));
	c = srh_path(1, 10, 3);			/* a prefix of a: another path */
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &c));
	c = srh_path(1, 10, 4);
	c.segs[3].s6_addr[15] = 99;		/* differs in the last segment */
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &c));
	c = srh_path(2, 10, 4);			/* same list, other plane */
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &c));
	KUNIT_EXPECT_EQ(test, 4, ps->npaths);

	/* delete names the whole list */
	n = mrc_pathset_del(ps, &a, MRC_PATH_MATCH_PLANE | MRC_PATH_MATCH_SEGS,
			    &ndel);
	KUNIT_ASSERT_FALSE(test, IS_ERR(n));
	KUNIT_EXPECT_EQ(test, 1, ndel);
	KUNIT_EXPECT_EQ(test, 3, n->npaths);
	mrc_pathset_put(ps);
	mrc_pathset_put(n);
}

static void add_orders_by_plane(struct kunit *test)
{
	struct mrc_path_cfg a = mrc_test_usid_path(2, 0x1200, 0x2200, 0x1201, 0xe002);
	struct mrc_path_cfg b = mrc_test_usid_path(0, 0x1000, 0x2000, 0x1001, 0xe002);
	struct mrc_path_cfg c = mrc_test_usid_path(2, 0x1200, 0x2201, 0x1201, 0xe002);
	struct mrc_path_cfg d = mrc_test_usid_path(1, 0x1100, 0x2100, 0x1101, 0xe002);
	struct mrc_pathset *ps = NULL;

	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &a));
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &b));
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &c));
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &d));
	KUNIT_ASSERT_EQ(test, -EEXIST, mrc_test_add(test, &ps, &c));
	KUNIT_ASSERT_EQ(test, 4, ps->npaths);
	KUNIT_EXPECT_EQ(test, 0, ps->paths[0]->cfg.plane);
	KUNIT_EXPECT_EQ(test, 1, ps->paths[1]->cfg.plane);
	KUNIT_EXPECT_EQ(test, 2, ps->paths[2]->cfg.plane);
	KUNIT_EXPECT_EQ(test, 2, ps->paths[3]->cfg.plane);
	/* same plane: in the order added */
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ps->paths[2]->cfg.usid, &a.usid));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ps->paths[3]->cfg.usid, &c.usid));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ps->peer, &mrc_test_peer));
	mrc_pathset_put(ps);
}

static void add_full_set(struct kunit *test)
{
	struct mrc_pathset *ps = NULL;
	struct mrc_path_cfg c;
	int i;

	for (i = 0; i < MRC_MAX_PATHS; i++) {
		c = mrc_test_usid_path(i % 16, 0x1000 + i, 0x2000, 0, 0);
		KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &c));
	}
	c = mrc_test_usid_path(0, 0x1fff, 0x2000, 0, 0);
	KUNIT_EXPECT_EQ(test, -E2BIG, mrc_test_add(test, &ps, &c));
	KUNIT_EXPECT_EQ(test, MRC_MAX_PATHS, ps->npaths);
	mrc_pathset_put(ps);
}

static void del_matches(struct kunit *test)
{
	struct mrc_path_cfg p0a = mrc_test_usid_path(0, 0x1000, 0x2000, 0x1001, 0xe002);
	struct mrc_path_cfg p0b = mrc_test_usid_path(0, 0x1000, 0x2001, 0x1001, 0xe002);
	struct mrc_path_cfg p1a = mrc_test_usid_path(1, 0x1100, 0x2100, 0x1101, 0xe002);
	struct mrc_pathset *ps = NULL, *n;
	unsigned int ndel;

	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &p0a));
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &p0b));
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &p1a));
	atomic64_set(&ps->paths[2]->tx_pkts, 42);

	/* one path by plane and container */
	n = mrc_pathset_del(ps, &p1a, MRC_PATH_MATCH_PLANE | MRC_PATH_MATCH_USID,
			    &ndel);
	KUNIT_EXPECT_EQ(test, 1, ndel);
	KUNIT_ASSERT_FALSE(test, IS_ERR(n));
	KUNIT_EXPECT_EQ(test, 2, n->npaths);
	mrc_pathset_put(n);

	/* no match: the same snapshot back, nothing deleted */
	p1a.plane = 3;
	n = mrc_pathset_del(ps, &p1a, MRC_PATH_MATCH_PLANE, &ndel);
	KUNIT_EXPECT_EQ(test, 0, ndel);
	KUNIT_EXPECT_PTR_EQ(test, n, ps);

	/* plane 0 entirely; the surviving path keeps its counters */
	n = mrc_pathset_del(ps, &p0a, MRC_PATH_MATCH_PLANE, &ndel);
	KUNIT_EXPECT_EQ(test, 2, ndel);
	KUNIT_ASSERT_EQ(test, 1, n->npaths);
	KUNIT_EXPECT_EQ(test, 1, n->paths[0]->cfg.plane);
	KUNIT_EXPECT_EQ(test, 42, atomic64_read(&n->paths[0]->tx_pkts));
	mrc_pathset_put(n);

	/* everything */
	n = mrc_pathset_del(ps, &p0a, 0, &ndel);
	KUNIT_EXPECT_EQ(test, 3, ndel);
	KUNIT_EXPECT_EQ(test, 0, n->npaths);
	mrc_pathset_put(n);
	mrc_pathset_put(ps);
}

static struct kunit_case mrc_path_cases[] = {
	KUNIT_CASE(cfg_checks),
	KUNIT_CASE(srh_paths),
	KUNIT_CASE(add_orders_by_plane),
	KUNIT_CASE(add_full_set),
	KUNIT_CASE(del_matches),
	{}
};

static struct kunit_suite mrc_path_suite = {
	.name = "mrc_path",
	.test_cases = mrc_path_cases,
};

kunit_test_suite(mrc_path_suite);
