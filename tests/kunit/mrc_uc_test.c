// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: UC receive. The IBA UC message sequence (a gap drops the rest of
 * the message in progress, the next FIRST or ONLY is taken) and the
 * reorder stage in front of it (sprayed packets handed on in PSN order,
 * a missing PSN given up past MRC_UC_REORDER or MRC_UC_HOLE_MS, the
 * receive window).
 */
#include <kunit/test.h>
#include <linux/jiffies.h>

#include "mrc_wire.h"
#include "mrc_psn.h"
#include "mrc_uc.h"

#define F	MRC_H_FIRST
#define L	MRC_H_LAST
#define S	MRC_H_PLETH	/* a SEND */
#define W	0		/* a WRITE */
#define TAKE	MRC_UC_TAKE
#define CUT	MRC_UC_CUT

struct step {
	u32 psn;
	u32 mask;
	unsigned int want;
};

static void run(struct kunit *test, const struct step *st, unsigned int n,
		u32 start)
{
	struct mrc_uc_seq s;
	unsigned int i;

	mrc_uc_seq_init(&s, start);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, st[i].want,
				    mrc_uc_seq_step(&s, st[i].psn, st[i].mask),
				    "step %u (PSN %u)", i, st[i].psn);
}

/* A gap drops the rest of the message; the next FIRST starts again */
static void gap_drops_message(struct kunit *test)
{
	static const struct step st[] = {
		{ 10, S | F, TAKE },		/* SEND_FIRST */
		{ 11, S, TAKE },		/* SEND_MIDDLE */
		/* 12 lost */
		{ 13, S, CUT },			/* MIDDLE after the gap: cut */
		{ 14, S | L, 0 },		/* the rest: dropped */
		{ 15, S | F, TAKE },		/* the next message */
		{ 16, S | L, TAKE },
		{ 17, S | F | L, TAKE },	/* ONLY */
	};

	run(test, st, ARRAY_SIZE(st), 10);
}

/* A gap right before a FIRST or ONLY loses nothing of that message */
static void gap_before_first(struct kunit *test)
{
	static const struct step st[] = {
		{ 0xfffffe, W | F, TAKE },	/* wraps */
		{ 0xffffff, W, TAKE },
		/* 0, the LAST, lost: the next ONLY cuts the WRITE, is taken */
		{ 1, W | F | L, CUT | TAKE },
		/* 2 and 3 lost: a whole message */
		{ 4, S | F, TAKE },
		{ 5, S | L, TAKE },
	};

	run(test, st, ARRAY_SIZE(st), 0xfffffe);
}

/* Out of sequence without a gap (a peer's bug, or forged): as rxe */
static void op_sequence(struct kunit *test)
{
	static const struct step st[] = {
		{ 0, S, 0 },			/* MIDDLE with nothing open */
		{ 1, S | L, 0 },
		{ 2, S | F, TAKE },
		{ 3, W, CUT },			/* a WRITE inside a SEND */
		{ 4, S | L, 0 },		/* the SEND was dropped */
		{ 5, W | F, TAKE },
		{ 6, S | F | L, CUT | TAKE },	/* WRITE without LAST: D1 */
		{ 7, W | L, 0 },
	};

	run(test, st, ARRAY_SIZE(st), 0);
}

/* A packet taken but not placed (no receive WQE...) drops its message */
static void abort_drops_rest(struct kunit *test)
{
	struct mrc_uc_seq s;

	mrc_uc_seq_init(&s, 0);
	KUNIT_EXPECT_EQ(test, TAKE, mrc_uc_seq_step(&s, 0, S | F));
	mrc_uc_seq_abort(&s, S | F);
	KUNIT_EXPECT_EQ(test, 0, mrc_uc_seq_step(&s, 1, S));
	KUNIT_EXPECT_EQ(test, 0, mrc_uc_seq_step(&s, 2, S | L));
	KUNIT_EXPECT_EQ(test, TAKE, mrc_uc_seq_step(&s, 3, S | F | L));
	/* an ONLY that fails ends its message: the next goes on */
	mrc_uc_seq_abort(&s, S | F | L);
	KUNIT_EXPECT_EQ(test, TAKE, mrc_uc_seq_step(&s, 4, W | F | L));
}

/* ---- the reorder stage ---------------------------------------------------- */

struct got {
	u32 n;
	u32 psn[256];
	unsigned long item[256];
};

static void got(void *ctx, void *item, u32 psn)
{
	struct got *g = ctx;

	if (g->n < ARRAY_SIZE(g->psn)) {
		g->psn[g->n] = psn;
		g->item[g->n] = (unsigned long)item;
	}
	g->n++;
}

/* the item of PSN p: any non-NULL pointer that names it */
#define ITEM(p)	((void *)(unsigned long)((p) + 1))

static struct got *new_got(struct kunit *test)
{
	struct got *g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, g);
	return g;
}

static void arrive(struct kunit *test, struct mrc_uc_rx *rx, struct got *g,
		   u32 psn, unsigned long now, int want)
{
	KUNIT_EXPECT_EQ_MSG(test, want,
			    mrc_uc_rx_arrive(rx, psn, ITEM(psn), now, got, g),
			    "PSN %u", psn);
}

static void expect_order(struct kunit *test, struct got *g, const u32 *psns,
			 u32 n)
{
	u32 i;

	KUNIT_ASSERT_EQ(test, n, g->n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, psns[i], g->psn[i]);
		KUNIT_EXPECT_EQ(test, (unsigned long)ITEM(psns[i]), g->item[i]);
	}
}

/* Sprayed packets are handed on in PSN order, each once */
static void reorder_in_order(struct kunit *test)
{
	static const u32 want[] = { 100, 101, 102, 103, 104 };
	struct mrc_uc_rx rx;
	struct got *g = new_got(test);

	mrc_uc_rx_init(&rx, 100, 0);
	arrive(test, &rx, g, 102, 0, 0);
	arrive(test, &rx, g, 104, 0, 0);
	arrive(test, &rx, g, 102, 0, -EEXIST);	/* a copy */
	KUNIT_EXPECT_EQ(test, 0, g->n);
	arrive(test, &rx, g, 100, 0, 0);
	arrive(test, &rx, g, 101, 0, 0);
	arrive(test, &rx, g, 103, 0, 0);
	expect_order(test, g, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, 0, rx.nheld);
	KUNIT_EXPECT_EQ(test, 105, rx.epsn);
	arrive(test, &rx, g, 101, 0, -ERANGE);	/* behind: a late copy */
	KUNIT_EXPECT_FALSE(test, mrc_uc_rx_timeout(&rx, 1000, got, g));
}

/* A missing PSN is given up after MRC_UC_HOLE_MS... */
static void reorder_hole_times_out(struct kunit *test)
{
	static const u32 want[] = { 0, 2, 3 };
	unsigned long t = msecs_to_jiffies(MRC_UC_HOLE_MS);
	struct mrc_uc_rx rx;
	struct got *g = new_got(test);

	mrc_uc_rx_init(&rx, 0, 5);
	arrive(test, &rx, g, 0, 5, 0);
	arrive(test, &rx, g, 2, 5, 0);
	arrive(test, &rx, g, 3, 6, 0);
	KUNIT_EXPECT_TRUE(test, mrc_uc_rx_timeout(&rx, 5 + t - 1, got, g));
	KUNIT_EXPECT_EQ(test, 1, g->n);
	KUNIT_EXPECT_FALSE(test, mrc_uc_rx_timeout(&rx, 5 + t, got, g));
	expect_order(test, g, want, ARRAY_SIZE(want));
	/* it comes after all: too late, dropped */
	arrive(test, &rx, g, 1, 5 + t, -ERANGE);
	KUNIT_EXPECT_EQ(test, 4, rx.epsn);
}

/* ... or once a PSN MRC_UC_REORDER further on arrives */
static void reorder_hole_too_far(struct kunit *test)
{
	unsigned long hole;
	struct mrc_uc_rx rx;
	struct got *g = new_got(test);
	u32 p;

	mrc_uc_rx_init(&rx, 0, 0);
	/* 0 lost; 1 .. MRC_UC_REORDER - 1 wait */
	for (p = 1; p < MRC_UC_REORDER; p++)
		arrive(test, &rx, g, p, 0, 0);
	KUNIT_EXPECT_EQ(test, 0, g->n);
	KUNIT_EXPECT_EQ(test, MRC_UC_REORDER - 1, rx.nheld);
	arrive(test, &rx, g, MRC_UC_REORDER, 0, 0);
	KUNIT_ASSERT_EQ(test, MRC_UC_REORDER, g->n);
	for (p = 0; p < MRC_UC_REORDER; p++)
		KUNIT_EXPECT_EQ(test, p + 1, g->psn[p]);
	KUNIT_EXPECT_EQ(test, 0, rx.nheld);
	/*
	 * A jump within the window: what is more than MRC_UC_REORDER back
	 * is given up, the PSNs just before it are still waited for
	 */
	arrive(test, &rx, g, 300, 0, 0);
	KUNIT_EXPECT_EQ(test, MRC_UC_REORDER, g->n);
	KUNIT_EXPECT_EQ(test, 301 - MRC_UC_REORDER, rx.epsn);
	arrive(test, &rx, g, 300 - MRC_UC_REORDER, 0, -ERANGE);
	arrive(test, &rx, g, 299, 0, 0);
	hole = msecs_to_jiffies(MRC_UC_HOLE_MS);
	KUNIT_EXPECT_FALSE(test, mrc_uc_rx_timeout(&rx, hole, got, g));
	KUNIT_ASSERT_EQ(test, MRC_UC_REORDER + 2, g->n);
	KUNIT_EXPECT_EQ(test, 299, g->psn[MRC_UC_REORDER]);
	KUNIT_EXPECT_EQ(test, 300, g->psn[MRC_UC_REORDER + 1]);
	KUNIT_EXPECT_EQ(test, 301, rx.epsn);
}

/* Outside the window: dropped, unless the QP was silent long enough */
static void window_and_resync(struct kunit *test)
{
	unsigned long quiet = msecs_to_jiffies(MRC_UC_RESYNC_MS);
	static const u32 want[] = { 1, 2, 0x800000 };
	struct mrc_uc_rx rx;
	struct got *g = new_got(test);

	mrc_uc_rx_init(&rx, 0, 100);
	arrive(test, &rx, g, MRC_UC_WIN, 100, -ERANGE);
	arrive(test, &rx, g, 0x800000, 100, -ERANGE);
	arrive(test, &rx, g, MRC_PSN_MASK, 100, -ERANGE);	/* behind */
	KUNIT_EXPECT_EQ(test, 0, g->n);
	arrive(test, &rx, g, 2, 100, 0);
	arrive(test, &rx, g, 1, 100, 0);	/* waits: 0 is missing */
	arrive(test, &rx, g, 0x800000, 100 + quiet - 1, -ERANGE);
	KUNIT_EXPECT_EQ(test, 0, g->n);
	/* silent for MRC_UC_RESYNC_MS: what waits goes on, then the jump */
	arrive(test, &rx, g, 0x800000, 100 + quiet, 0);
	expect_order(test, g, want, ARRAY_SIZE(want));
	KUNIT_EXPECT_EQ(test, 0x800001, rx.epsn);
}

static struct kunit_case mrc_uc_cases[] = {
	KUNIT_CASE(gap_drops_message),
	KUNIT_CASE(gap_before_first),
	KUNIT_CASE(op_sequence),
	KUNIT_CASE(abort_drops_rest),
	KUNIT_CASE(reorder_in_order),
	KUNIT_CASE(reorder_hole_times_out),
	KUNIT_CASE(reorder_hole_too_far),
	KUNIT_CASE(window_and_resync),
	{}
};

static struct kunit_suite mrc_uc_suite = {
	.name = "mrc_uc",
	.test_cases = mrc_uc_cases,
};

kunit_test_suite(mrc_uc_suite);
