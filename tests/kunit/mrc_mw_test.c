// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the rules a memory window bind must meet, and where a request
 * through a window falls in its MR.
 */
#include <kunit/test.h>

#include "mrc.h"

#define RW	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE)

/* a type 2 bind of [0x1100, 0x1200) of an MR at 0x1000 of 4096 bytes */
static struct mrc_mw_bind_req good2(void)
{
	return (struct mrc_mw_bind_req){
		.type = IB_MW_TYPE_2, .state = MRC_MW_FREE, .access = RW,
		.addr = 0x1100, .length = 0x100, .has_mr = true,
		.mr_access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_MW_BIND,
		.mr_iova = 0x1000, .mr_length = 4096,
	};
}

static void bind_type2(struct kunit *test)
{
	struct mrc_mw_bind_req b = good2();

	KUNIT_EXPECT_EQ(test, 0, mrc_mw_bind_check(&b));
	/* the whole MR, to its last byte */
	b.addr = 0x1000;
	b.length = 4096;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_bind_check(&b));
	/* one byte past its end, before its start, wrapping */
	b = good2();
	b.addr = 0x1f01;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	b.addr = 0xfff;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	b.addr = U64_MAX - 0x10;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	b = good2();
	b.length = U64_MAX;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	/* bound already, to nothing, with zero length */
	b = good2();
	b.state = MRC_MW_VALID;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	b = good2();
	b.has_mr = false;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	b = good2();
	b.length = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	/* zero based: the length alone must fit */
	b = good2();
	b.access |= IB_ZERO_BASED;
	b.addr = 0x1f00;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_bind_check(&b));
	b.length = 4097;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
}

static void bind_mr_rules(struct kunit *test)
{
	struct mrc_mw_bind_req b = good2();

	/* C10-73: the MR must allow binding */
	b.mr_access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	/* C10-74: remote write or atomics need the MR's local write */
	b = good2();
	b.mr_access = IB_ACCESS_MW_BIND;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	b.access = IB_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	b.access = IB_ACCESS_REMOTE_READ;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_bind_check(&b));
	/* a window cannot grant binding or persistence */
	b = good2();
	b.access |= IB_ACCESS_MW_BIND;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	b = good2();
	b.access |= IB_ACCESS_FLUSH_PERSISTENT;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
}

static void bind_type1(struct kunit *test)
{
	struct mrc_mw_bind_req b = good2();

	b.type = IB_MW_TYPE_1;
	b.state = MRC_MW_VALID;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_bind_check(&b));
	/* rebinding a bound type 1 window is how it moves */
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_bind_check(&b));
	/* zero length: bound to nothing, MR or not */
	b.length = 0;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_bind_check(&b));
	b.has_mr = false;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_bind_check(&b));
	/* o10-36.2.2: never zero based */
	b = good2();
	b.type = IB_MW_TYPE_1;
	b.state = MRC_MW_VALID;
	b.access |= IB_ZERO_BASED;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
	/* a nonzero length needs an MR */
	b = good2();
	b.type = IB_MW_TYPE_1;
	b.state = MRC_MW_VALID;
	b.has_mr = false;
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_mw_bind_check(&b));
}

static void range(struct kunit *test)
{
	u64 va;

	/* by address: [0x1100, 0x1200) */
	va = 0x1100;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_range(RW, 0x1100, 0x100, &va, 0x100));
	KUNIT_EXPECT_EQ(test, 0x1100, va);
	va = 0x11ff;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_range(RW, 0x1100, 0x100, &va, 1));
	va = 0x11ff;
	KUNIT_EXPECT_EQ(test, -ERANGE, mrc_mw_range(RW, 0x1100, 0x100, &va, 2));
	va = 0x10ff;
	KUNIT_EXPECT_EQ(test, -ERANGE, mrc_mw_range(RW, 0x1100, 0x100, &va, 1));
	va = U64_MAX;
	KUNIT_EXPECT_EQ(test, -ERANGE, mrc_mw_range(RW, 0x1100, 0x100, &va, 2));
	va = 0x1200;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_range(RW, 0x1100, 0x100, &va, 0));
	/* zero based: offsets into the window */
	va = 0x10;
	KUNIT_EXPECT_EQ(test, 0, mrc_mw_range(RW | IB_ZERO_BASED, 0x1100,
					      0x100, &va, 0xf0));
	KUNIT_EXPECT_EQ(test, 0x1110, va);
	va = 0x10;
	KUNIT_EXPECT_EQ(test, -ERANGE, mrc_mw_range(RW | IB_ZERO_BASED,
						    0x1100, 0x100, &va, 0xf1));
	va = U64_MAX;
	KUNIT_EXPECT_EQ(test, -ERANGE, mrc_mw_range(RW | IB_ZERO_BASED,
						    0x1100, 0x100, &va, 1));
}

static void key_spaces(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mrc_key_is_mw(0x000001ab));
	KUNIT_EXPECT_FALSE(test, mrc_key_is_mw((MRC_MW_INDEX_MIN - 1) << 8 | 0xff));
	KUNIT_EXPECT_TRUE(test, mrc_key_is_mw(MRC_MW_INDEX_MIN << 8));
	KUNIT_EXPECT_TRUE(test, mrc_key_is_mw(0xffffffff));
}

static struct kunit_case mrc_mw_cases[] = {
	KUNIT_CASE(bind_type2),
	KUNIT_CASE(bind_mr_rules),
	KUNIT_CASE(bind_type1),
	KUNIT_CASE(range),
	KUNIT_CASE(key_spaces),
	{}
};

static struct kunit_suite mrc_mw_suite = {
	.name = "mrc_mw",
	.test_cases = mrc_mw_cases,
};

kunit_test_suite(mrc_mw_suite);
