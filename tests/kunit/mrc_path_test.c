// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: path sets (checks, copy-on-write add/delete, ordering) and EV sets
 * (equal split across planes, every path used, rotation fairness, skipping
 * planes that are down).
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "mrc_path.h"

static const struct in6_addr peer = { .s6_addr = { 0xfd, [15] = 2 } };

/* fc00:0:<a>:<b>:<c>:<d>:: (zeros end the container early) */
static struct mrc_path_cfg usid_path(u8 plane, u16 a, u16 b, u16 c, u16 d)
{
	struct mrc_path_cfg c4 = {
		.plane = plane, .mode = MRC_PATH_MODE_USID,
		.lblen = 32, .nflen = 16,
	};

	c4.usid.s6_addr[0] = 0xfc;
	c4.usid.s6_addr16[2] = htons(a);
	c4.usid.s6_addr16[3] = htons(b);
	c4.usid.s6_addr16[4] = htons(c);
	c4.usid.s6_addr16[5] = htons(d);
	return c4;
}

/* add @cfg to *@ps, replacing it; the test owns the result */
static int add(struct kunit *test, struct mrc_pathset **ps,
	       const struct mrc_path_cfg *cfg)
{
	const char *why = NULL;
	struct mrc_pathset *n;

	n = mrc_pathset_add(*ps, &peer, cfg, &why);
	if (IS_ERR(n))
		return PTR_ERR(n);
	mrc_pathset_put(*ps);
	*ps = n;
	return 0;
}

static void cfg_checks(struct kunit *test)
{
	struct mrc_path_cfg c = usid_path(0, 0x1000, 0x2000, 0x1001, 0xe002);
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, 0, mrc_path_cfg_check(&c, &why));
	c = usid_path(0, 0, 0, 0, 0);		/* no uSID at all */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	KUNIT_EXPECT_NOT_NULL(test, why);
	c = usid_path(0, 0x1000, 0, 0x1001, 0);	/* a hole */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = usid_path(0, 0x1000, 0, 0, 0);
	c.nflen = 12;				/* not a byte multiple */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = usid_path(0, 0x1000, 0, 0, 0);
	c.usid.s6_addr[0] = 0xff;		/* multicast */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = usid_path(16, 0x1000, 0, 0, 0);	/* plane out of range */
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c = (struct mrc_path_cfg){ .mode = MRC_PATH_MODE_UDP };
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_path_cfg_check(&c, &why));
	c.remote = peer;
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

	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &a));
	KUNIT_EXPECT_EQ(test, -EEXIST, add(test, &ps, &a));
	c = srh_path(1, 10, 3);			/* a prefix of a: another path */
	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &c));
	c = srh_path(1, 10, 4);
	c.segs[3].s6_addr[15] = 99;		/* differs in the last segment */
	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &c));
	c = srh_path(2, 10, 4);			/* same list, other plane */
	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &c));
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
	struct mrc_path_cfg a = usid_path(2, 0x1200, 0x2200, 0x1201, 0xe002);
	struct mrc_path_cfg b = usid_path(0, 0x1000, 0x2000, 0x1001, 0xe002);
	struct mrc_path_cfg c = usid_path(2, 0x1200, 0x2201, 0x1201, 0xe002);
	struct mrc_path_cfg d = usid_path(1, 0x1100, 0x2100, 0x1101, 0xe002);
	struct mrc_pathset *ps = NULL;

	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &a));
	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &b));
	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &c));
	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &d));
	KUNIT_ASSERT_EQ(test, -EEXIST, add(test, &ps, &c));
	KUNIT_ASSERT_EQ(test, 4, ps->npaths);
	KUNIT_EXPECT_EQ(test, 0, ps->paths[0]->cfg.plane);
	KUNIT_EXPECT_EQ(test, 1, ps->paths[1]->cfg.plane);
	KUNIT_EXPECT_EQ(test, 2, ps->paths[2]->cfg.plane);
	KUNIT_EXPECT_EQ(test, 2, ps->paths[3]->cfg.plane);
	/* same plane: in the order added */
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ps->paths[2]->cfg.usid, &a.usid));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ps->paths[3]->cfg.usid, &c.usid));
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ps->peer, &peer));
	mrc_pathset_put(ps);
}

static void add_full_set(struct kunit *test)
{
	struct mrc_pathset *ps = NULL;
	struct mrc_path_cfg c;
	int i;

	for (i = 0; i < MRC_MAX_PATHS; i++) {
		c = usid_path(i % 16, 0x1000 + i, 0x2000, 0, 0);
		KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &c));
	}
	c = usid_path(0, 0x1fff, 0x2000, 0, 0);
	KUNIT_EXPECT_EQ(test, -E2BIG, add(test, &ps, &c));
	KUNIT_EXPECT_EQ(test, MRC_MAX_PATHS, ps->npaths);
	mrc_pathset_put(ps);
}

static void del_matches(struct kunit *test)
{
	struct mrc_path_cfg p0a = usid_path(0, 0x1000, 0x2000, 0x1001, 0xe002);
	struct mrc_path_cfg p0b = usid_path(0, 0x1000, 0x2001, 0x1001, 0xe002);
	struct mrc_path_cfg p1a = usid_path(1, 0x1100, 0x2100, 0x1101, 0xe002);
	struct mrc_pathset *ps = NULL, *n;
	unsigned int ndel;

	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &p0a));
	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &p0b));
	KUNIT_ASSERT_EQ(test, 0, add(test, &ps, &p1a));
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

/* a set of @planes planes with @per paths each */
static struct mrc_pathset *grid(struct kunit *test, int planes, int per)
{
	struct mrc_pathset *ps = NULL;
	struct mrc_path_cfg c;
	int p, j;

	for (p = 0; p < planes; p++)
		for (j = 0; j < per; j++) {
			c = usid_path(p, 0x1000 + p, 0x2000 + j, 0x1100 + p, 0xe002);
			KUNIT_EXPECT_EQ(test, 0, add(test, &ps, &c));
		}
	return ps;
}

static void evset_split(struct kunit *test)
{
	struct mrc_pathset *ps = grid(test, 4, 2);
	unsigned int per_plane[4] = {}, per_path[8] = {};
	struct mrc_evset *evs;
	int i;

	evs = mrc_evset_build(ps, 128, 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	KUNIT_EXPECT_EQ(test, 128, evs->n);
	for (i = 0; i < evs->n; i++) {
		const struct mrc_ev *e = &evs->ev[i];

		per_plane[e->plane]++;
		per_path[e->path]++;
		KUNIT_EXPECT_EQ(test, e->plane, ps->paths[e->path]->cfg.plane);
		KUNIT_EXPECT_EQ(test, e->plane, mrc_ev_plane(e->value));
		KUNIT_EXPECT_EQ(test, e->path, mrc_ev_path(e->value));
		KUNIT_EXPECT_EQ(test, i, mrc_ev_index(e->value));
		KUNIT_EXPECT_GE(test, mrc_ev_sport(e->value), 0xc000);
		KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, e->state);
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 32, per_plane[i]);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, 16, per_path[i]);
	kfree(evs);

	/* 3 planes: 128 / 3 = 42 each, 126 in all */
	mrc_pathset_put(ps);
	ps = grid(test, 3, 1);
	evs = mrc_evset_build(ps, 128, 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	KUNIT_EXPECT_EQ(test, 126, evs->n);
	kfree(evs);
	mrc_pathset_put(ps);
}

/* more paths on a plane than EVs for it: a subset, each used at most once */
static void evset_subset(struct kunit *test)
{
	struct mrc_pathset *ps = grid(test, 2, 10);
	unsigned int per_path[20] = {};
	struct mrc_evset *evs;
	int i;

	evs = mrc_evset_build(ps, 8, 3, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	KUNIT_EXPECT_EQ(test, 8, evs->n);
	for (i = 0; i < evs->n; i++)
		per_path[evs->ev[i].path]++;
	for (i = 0; i < 20; i++)
		KUNIT_EXPECT_LE(test, per_path[i], 1);
	kfree(evs);
	mrc_pathset_put(ps);
}

static void rotation_fair(struct kunit *test)
{
	struct mrc_pathset *ps = grid(test, 4, 2);
	unsigned int uses[MRC_MAX_EVS] = {}, plane_run = 0, max_run = 0;
	struct mrc_evset *evs;
	int i, r, last_plane = -1;

	evs = mrc_evset_build(ps, 64, 4, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	for (r = 0; r < 10; r++) {
		/* every round uses every EV exactly once */
		for (i = 0; i < evs->n; i++) {
			int e = mrc_evset_next(evs, 0xffff);

			KUNIT_ASSERT_GE(test, e, 0);
			uses[e]++;
			if (evs->ev[e].plane == last_plane) {
				max_run = max(max_run, ++plane_run);
			} else {
				plane_run = 1;
				last_plane = evs->ev[e].plane;
			}
		}
		for (i = 0; i < evs->n; i++)
			KUNIT_EXPECT_EQ(test, r + 1, uses[i]);
	}
	/* random order: planes interleave, no long runs on one plane */
	KUNIT_EXPECT_LT(test, max_run, 12);
	kfree(evs);
	mrc_pathset_put(ps);
}

static void rotation_skips_down_planes(struct kunit *test)
{
	struct mrc_pathset *ps = grid(test, 4, 1);
	unsigned int per_plane[4] = {};
	struct mrc_evset *evs;
	int i;

	evs = mrc_evset_build(ps, 128, 5, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	for (i = 0; i < 3 * 128; i++) {
		int e = mrc_evset_next(evs, BIT(0) | BIT(2) | BIT(3));

		KUNIT_ASSERT_GE(test, e, 0);
		per_plane[evs->ev[e].plane]++;
	}
	KUNIT_EXPECT_EQ(test, 0, per_plane[1]);
	KUNIT_EXPECT_EQ(test, 128, per_plane[0]);
	KUNIT_EXPECT_EQ(test, 128, per_plane[2]);
	KUNIT_EXPECT_EQ(test, 128, per_plane[3]);
	/* an EV not GOOD is skipped too; nothing usable: -ENETUNREACH */
	for (i = 0; i < evs->n; i++)
		if (evs->ev[i].plane == 0)
			evs->ev[i].state = MRC_EV_STATE_DENIED;
	KUNIT_EXPECT_EQ(test, -ENETUNREACH, mrc_evset_next(evs, BIT(0)));
	kfree(evs);
	mrc_pathset_put(ps);
}

static void evset_seeds_differ(struct kunit *test)
{
	struct mrc_pathset *ps = grid(test, 2, 4);
	struct mrc_evset *a, *b;
	int i, same = 0;

	a = mrc_evset_build(ps, 32, 6, GFP_KERNEL);
	b = mrc_evset_build(ps, 32, 7, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < 32; i++)
		same += mrc_evset_next(a, 0xffff) == mrc_evset_next(b, 0xffff);
	/* two QPs do not walk their paths in step */
	KUNIT_EXPECT_LT(test, same, 16);
	KUNIT_EXPECT_NE(test, a->ev[0].value, b->ev[0].value);
	kfree(a);
	kfree(b);
	mrc_pathset_put(ps);
}

static struct kunit_case mrc_path_cases[] = {
	KUNIT_CASE(cfg_checks),
	KUNIT_CASE(srh_paths),
	KUNIT_CASE(add_orders_by_plane),
	KUNIT_CASE(add_full_set),
	KUNIT_CASE(del_matches),
	KUNIT_CASE(evset_split),
	KUNIT_CASE(evset_subset),
	KUNIT_CASE(rotation_fair),
	KUNIT_CASE(rotation_skips_down_planes),
	KUNIT_CASE(evset_seeds_differ),
	{}
};

static struct kunit_suite mrc_path_suite = {
	.name = "mrc_path",
	.test_cases = mrc_path_cases,
};

kunit_test_suite(mrc_path_suite);
