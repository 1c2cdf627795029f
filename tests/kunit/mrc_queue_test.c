// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: moving the entries of a ring into a resized one (CQ and SRQ
 * resize), across the wrap of the old ring's indices.
 */
#include <kunit/test.h>

#include "mrc.h"

#define ELEM 64

static void init_q(struct kunit *test, struct mrc_queue *q, u32 wr)
{
	KUNIT_ASSERT_EQ(test, 0, mrc_queue_init(NULL, q, NULL, wr, ELEM, NULL));
}

/* slot @i of @q holds its index in every byte, and @tag in the first */
static void fill(struct mrc_queue *q, u32 i, u8 tag)
{
	u8 *p = mrc_queue_slot(q, i);

	memset(p, i & q->mask, ELEM);
	p[0] = tag;
}

static bool holds(struct mrc_queue *q, u32 i, u32 was, u8 tag)
{
	u8 *p = mrc_queue_slot(q, i);
	u32 k;

	if (p[0] != tag)
		return false;
	for (k = 1; k < ELEM; k++)
		if (p[k] != (u8)was)
			return false;
	return true;
}

/* six WQEs from slot 5 of 8 (the producer wrapped to 3) into 16 slots */
static void move_wrapped(struct kunit *test)
{
	struct mrc_queue src, dst;
	u32 i;

	init_q(test, &src, 7);
	init_q(test, &dst, 15);
	KUNIT_ASSERT_EQ(test, 7, src.mask);
	for (i = 0; i < 8; i++)
		fill(&src, i, 0xa0 + i);
	src.idx = 5;
	src.buf->producer_index = 3;
	KUNIT_ASSERT_EQ(test, 6, mrc_queue_count(&src));

	mrc_queue_move(&dst, &src, src.idx, mrc_queue_count(&src));
	dst.idx = 0;
	KUNIT_EXPECT_EQ(test, 6, mrc_queue_count(&dst));
	KUNIT_EXPECT_EQ(test, 6, dst.buf->producer_index);
	KUNIT_EXPECT_EQ(test, 0, dst.buf->consumer_index);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_TRUE(test, holds(&dst, i, (5 + i) & 7,
					      0xa0 + ((5 + i) & 7)));
	/* nothing beyond them */
	for (i = 6; i < 16; i++)
		KUNIT_EXPECT_TRUE(test, holds(&dst, i, 0, 0));
	mrc_queue_free(&src);
	mrc_queue_free(&dst);
}

/* shrinking: the entries still fit in fewer slots, and an empty ring */
static void move_shrink_and_empty(struct kunit *test)
{
	struct mrc_queue src, dst;
	u32 i;

	init_q(test, &src, 31);
	init_q(test, &dst, 3);
	for (i = 0; i < 32; i++)
		fill(&src, i, 0x10 + i);
	src.idx = 30;
	src.buf->producer_index = 1;	/* 30, 31, 0 */
	KUNIT_ASSERT_EQ(test, 3, mrc_queue_count(&src));
	mrc_queue_move(&dst, &src, src.idx, 3);
	dst.idx = 0;
	KUNIT_EXPECT_EQ(test, 3, mrc_queue_count(&dst));
	KUNIT_EXPECT_TRUE(test, holds(&dst, 0, 30, 0x10 + 30));
	KUNIT_EXPECT_TRUE(test, holds(&dst, 1, 31, 0x10 + 31));
	KUNIT_EXPECT_TRUE(test, holds(&dst, 2, 0, 0x10));

	mrc_queue_move(&dst, &src, 7, 0);
	KUNIT_EXPECT_EQ(test, 0, mrc_queue_count(&dst));
	mrc_queue_free(&src);
	mrc_queue_free(&dst);
}

static struct kunit_case mrc_queue_cases[] = {
	KUNIT_CASE(move_wrapped),
	KUNIT_CASE(move_shrink_and_empty),
	{}
};

static struct kunit_suite mrc_queue_suite = {
	.name = "mrc_queue",
	.test_cases = mrc_queue_cases,
};

kunit_test_suite(mrc_queue_suite);
