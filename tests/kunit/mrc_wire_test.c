// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: MRC wire format helpers.
 */
#include <kunit/test.h>

#include "mrc_wire.h"

static void path_mtu_common(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, IB_MTU_1024, mrc_wire_path_mtu(1500));
	KUNIT_EXPECT_EQ(test, IB_MTU_4096, mrc_wire_path_mtu(9000));
	KUNIT_EXPECT_EQ(test, IB_MTU_1024, mrc_wire_path_mtu(1280));
	KUNIT_EXPECT_EQ(test, IB_MTU_256, mrc_wire_path_mtu(576));
}

static void path_mtu_edges(struct kunit *test)
{
	const unsigned int o = MRC_MAX_HDR_OVERHEAD;

	KUNIT_EXPECT_EQ(test, 0, mrc_wire_path_mtu(0));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_path_mtu(o - 1));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_path_mtu(o + 255));
	KUNIT_EXPECT_EQ(test, IB_MTU_256, mrc_wire_path_mtu(o + 256));
	KUNIT_EXPECT_EQ(test, IB_MTU_2048, mrc_wire_path_mtu(o + 4095));
	KUNIT_EXPECT_EQ(test, IB_MTU_4096, mrc_wire_path_mtu(o + 4096));
	KUNIT_EXPECT_EQ(test, IB_MTU_4096, mrc_wire_path_mtu(65535));
}

/* every packet must fit: payload + worst-case headers <= netdev MTU */
static void path_mtu_fits(struct kunit *test)
{
	unsigned int mtu;

	for (mtu = 0; mtu <= 10000; mtu += 7) {
		enum ib_mtu m = mrc_wire_path_mtu(mtu);

		if (!m)
			continue;
		KUNIT_EXPECT_LE(test, ib_mtu_enum_to_int(m) + MRC_MAX_HDR_OVERHEAD, mtu);
		if (m < IB_MTU_4096)
			KUNIT_EXPECT_GT(test, ib_mtu_enum_to_int(m + 1) +
					MRC_MAX_HDR_OVERHEAD, mtu);
	}
}

static struct kunit_case mrc_wire_cases[] = {
	KUNIT_CASE(path_mtu_common),
	KUNIT_CASE(path_mtu_edges),
	KUNIT_CASE(path_mtu_fits),
	{}
};

static struct kunit_suite mrc_wire_suite = {
	.name = "mrc_wire",
	.test_cases = mrc_wire_cases,
};

kunit_test_suite(mrc_wire_suite);
