// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: PSN arithmetic, the responder's PSN window and the SACK the
 * requester reads back.
 */
#include <kunit/test.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "mrc_psn.h"

static void psn_arith(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 0, mrc_psn_add(0xffffff, 1));
	KUNIT_EXPECT_EQ(test, 0xffffff, mrc_psn_add(0, -1));
	KUNIT_EXPECT_EQ(test, 1, mrc_psn_diff(0, 0xffffff));
	KUNIT_EXPECT_EQ(test, -1, mrc_psn_diff(0xffffff, 0));
	KUNIT_EXPECT_EQ(test, 0x7fffff, mrc_psn_diff(0x7fffff, 0));
	KUNIT_EXPECT_EQ(test, -0x800000, mrc_psn_diff(0x800000, 0));
}

static struct mrc_psn_win *new_win(struct kunit *test, u32 start, u32 size)
{
	struct mrc_psn_win *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_EQ(test, 0, mrc_psn_win_init(w, start, size));
	return w;
}

static void win_sizes(struct kunit *test)
{
	struct mrc_psn_win *w = new_win(test, 0, 128);

	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_psn_win_init(w, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_psn_win_init(w, 0, 100));
	KUNIT_EXPECT_EQ(test, -EINVAL, mrc_psn_win_init(w, 0, MRC_PSN_WIN_MAX + 128));
	KUNIT_EXPECT_EQ(test, 0, mrc_psn_win_init(w, 0, MRC_PSN_WIN_MAX));
}

static void in_order(struct kunit *test)
{
	struct mrc_psn_win *w = new_win(test, 100, 256);
	u32 p;

	for (p = 100; p < 1100; p++)
		KUNIT_ASSERT_EQ(test, MRC_PSN_NEW, mrc_psn_win_mark(w, p));
	KUNIT_EXPECT_EQ(test, 1100, w->base);
	KUNIT_EXPECT_EQ(test, 1099, mrc_psn_win_cack(w));
	KUNIT_EXPECT_EQ(test, 0, w->ooo);
	KUNIT_EXPECT_EQ(test, MRC_PSN_DUP, mrc_psn_win_mark(w, 500));
	KUNIT_EXPECT_EQ(test, MRC_PSN_DUP, mrc_psn_win_mark(w, 1099));
}

static void out_of_order(struct kunit *test)
{
	struct mrc_psn_win *w = new_win(test, 0, 128);

	KUNIT_EXPECT_EQ(test, MRC_PSN_NEW, mrc_psn_win_mark(w, 5));
	KUNIT_EXPECT_EQ(test, MRC_PSN_NEW, mrc_psn_win_mark(w, 3));
	KUNIT_EXPECT_EQ(test, MRC_PSN_NEW, mrc_psn_win_mark(w, 1));
	KUNIT_EXPECT_EQ(test, MRC_PSN_DUP, mrc_psn_win_mark(w, 3));
	KUNIT_EXPECT_EQ(test, 0, w->base);
	KUNIT_EXPECT_EQ(test, 3, w->ooo);
	KUNIT_EXPECT_EQ(test, MRC_PSN_NEW, mrc_psn_win_mark(w, 0));
	KUNIT_EXPECT_EQ(test, 2, w->base);
	KUNIT_EXPECT_EQ(test, 2, w->ooo);
	KUNIT_EXPECT_EQ(test, MRC_PSN_NEW, mrc_psn_win_mark(w, 2));
	KUNIT_EXPECT_EQ(test, 4, w->base);
	KUNIT_EXPECT_EQ(test, MRC_PSN_NEW, mrc_psn_win_mark(w, 4));
	KUNIT_EXPECT_EQ(test, 6, w->base);
	KUNIT_EXPECT_EQ(test, 0, w->ooo);
	KUNIT_EXPECT_TRUE(test, mrc_psn_win_test(w, 5));
	KUNIT_EXPECT_FALSE(test, mrc_psn_win_test(w, 6));
}

static void beyond_window(struct kunit *test)
{
	struct mrc_psn_win *w = new_win(test, 0, 128);

	KUNIT_EXPECT_EQ(test, MRC_PSN_BEYOND, mrc_psn_win_mark(w, 128));
	KUNIT_EXPECT_EQ(test, MRC_PSN_BEYOND, mrc_psn_win_mark(w, 0x7fffff));
	KUNIT_EXPECT_EQ(test, MRC_PSN_NEW, mrc_psn_win_mark(w, 127));
	/* far below the window counts as already seen */
	KUNIT_EXPECT_EQ(test, MRC_PSN_DUP, mrc_psn_win_mark(w, 0xf00000));
	KUNIT_EXPECT_EQ(test, 0, w->base);
}

static void wraps_at_2_24(struct kunit *test)
{
	struct mrc_psn_win *w = new_win(test, 0xffff00, 384);
	u32 i;

	/* odd ones first, then even: every slide crosses the ring end */
	for (i = 1; i < 512; i += 2)
		mrc_psn_win_mark(w, mrc_psn_add(0xffff00, i));
	for (i = 0; i < 512; i += 2)
		KUNIT_EXPECT_EQ(test, MRC_PSN_NEW,
				mrc_psn_win_mark(w, mrc_psn_add(0xffff00, i)));
	/* odd PSNs from 384 on were BEYOND the first window: 385 is missing */
	KUNIT_EXPECT_EQ(test, mrc_psn_add(0xffff00, 385), w->base);
	for (i = 384; i < 512; i++)
		mrc_psn_win_mark(w, mrc_psn_add(0xffff00, i));
	KUNIT_EXPECT_EQ(test, 0x000100, w->base);
	KUNIT_EXPECT_EQ(test, 0, w->ooo);
}

/* any arrival order, with duplicates, ends with the window past them all */
static void random_orders(struct kunit *test)
{
	const u32 n = 512;
	u32 *order = kunit_kmalloc_array(test, 2 * n, sizeof(u32), GFP_KERNEL);
	struct mrc_psn_win *w;
	u32 round, i, j, t, start, fresh;

	KUNIT_ASSERT_NOT_NULL(test, order);
	for (round = 0; round < 20; round++) {
		start = get_random_u32() & MRC_PSN_MASK;
		w = new_win(test, start, n);
		for (i = 0; i < n; i++) {
			order[i] = i;
			order[n + i] = get_random_u32_below(n);	/* duplicates */
		}
		for (i = 2 * n - 1; i > 0; i--) {
			j = get_random_u32_below(i + 1);
			t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		fresh = 0;
		for (i = 0; i < 2 * n; i++)
			fresh += mrc_psn_win_mark(w, mrc_psn_add(start, order[i])) ==
				 MRC_PSN_NEW;
		KUNIT_EXPECT_EQ(test, n, fresh);
		KUNIT_EXPECT_EQ(test, mrc_psn_add(start, n), w->base);
		KUNIT_EXPECT_EQ(test, 0, w->ooo);
	}
}

/* what the requester reads from a SACK is what the responder received */
static void sack_matches_truth(struct kunit *test)
{
	const u32 size = 512;
	bool *got = kunit_kzalloc(test, size, GFP_KERNEL);
	struct mrc_sack_range r;
	struct mrc_psn_win *w;
	u32 round, i, start, trig;
	s32 d;

	KUNIT_ASSERT_NOT_NULL(test, got);
	for (round = 0; round < 20; round++) {
		start = get_random_u32() & MRC_PSN_MASK;
		w = new_win(test, start, size);
		memset(got, 0, size);
		for (i = 0; i < size; i++) {
			/* a dense prefix, then sparse arrivals */
			if (i < 3 * round || get_random_u32_below(4) == 0) {
				got[i] = true;
				mrc_psn_win_mark(w, mrc_psn_add(start, i));
			}
		}
		trig = mrc_psn_add(w->base, get_random_u32_below(size));
		mrc_psn_win_sack(w, trig, &r);
		KUNIT_EXPECT_EQ(test, mrc_psn_win_cack(w), r.cack_psn);
		KUNIT_EXPECT_GE(test, r.offset, 1);
		if (mrc_psn_diff(trig, w->base) < (s32)size)
			KUNIT_EXPECT_NE(test, MRC_SACK_UNKNOWN,
					mrc_sack_psn_state(&r, trig));
		for (i = 0; i < size; i++) {
			u32 psn = mrc_psn_add(start, i);
			enum mrc_sack_state st = mrc_sack_psn_state(&r, psn);

			if (st == MRC_SACK_UNKNOWN) {
				d = mrc_psn_diff(psn, r.cack_psn) - r.offset;
				KUNIT_EXPECT_TRUE(test, d < 0 || d >= MRC_SACK_BITS);
				continue;
			}
			KUNIT_EXPECT_EQ_MSG(test, got[i], st == MRC_SACK_ACKED,
					    "round %u psn +%u", round, i);
		}
	}
}

static void sack_empty(struct kunit *test)
{
	struct mrc_psn_win *w = new_win(test, 42, 128);
	struct mrc_sack_range r;

	mrc_psn_win_sack(w, 42, &r);
	KUNIT_EXPECT_EQ(test, 41, r.cack_psn);
	KUNIT_EXPECT_EQ(test, 1, r.offset);
	KUNIT_EXPECT_EQ(test, 0, r.bitmap);
	KUNIT_EXPECT_EQ(test, MRC_SACK_ACKED, mrc_sack_psn_state(&r, 41));
	KUNIT_EXPECT_EQ(test, MRC_SACK_MISSING, mrc_sack_psn_state(&r, 42));
	KUNIT_EXPECT_EQ(test, MRC_SACK_UNKNOWN, mrc_sack_psn_state(&r, 42 + 64));
}

/* A requester keeps within the window the peer advertises, and its own */
static void mpr_window(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1024, mrc_psn_mpr_window(0, 1024));
	KUNIT_EXPECT_EQ(test, 128, mrc_psn_mpr_window(1, 1024));
	KUNIT_EXPECT_EQ(test, 512, mrc_psn_mpr_window(4, 1024));
	KUNIT_EXPECT_EQ(test, 1024, mrc_psn_mpr_window(8, 1024));
	KUNIT_EXPECT_EQ(test, 1024, mrc_psn_mpr_window(32, 1024));
	KUNIT_EXPECT_EQ(test, 1024, mrc_psn_mpr_window(255, 1024));
}

static struct kunit_case mrc_psn_cases[] = {
	KUNIT_CASE(psn_arith),
	KUNIT_CASE(win_sizes),
	KUNIT_CASE(in_order),
	KUNIT_CASE(out_of_order),
	KUNIT_CASE(beyond_window),
	KUNIT_CASE(wraps_at_2_24),
	KUNIT_CASE(random_orders),
	KUNIT_CASE(sack_matches_truth),
	KUNIT_CASE(sack_empty),
	KUNIT_CASE(mpr_window),
	{}
};

static struct kunit_suite mrc_psn_suite = {
	.name = "mrc_psn",
	.test_cases = mrc_psn_cases,
};

kunit_test_suite(mrc_psn_suite);
