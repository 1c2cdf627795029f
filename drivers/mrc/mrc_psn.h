/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 24-bit PSN arithmetic, the responder's PSN window (MPR bitmap) and the
 * SACK it advertises.
 */
#ifndef _MRC_PSN_H
#define _MRC_PSN_H

#include <linux/bitmap.h>
#include <linux/minmax.h>
#include <linux/types.h>

#define MRC_PSN_MASK		0xffffff
#define MRC_SACK_BITS		64
/* MPR is advertised in units of 128 PSNs; mrc tracks up to 32 units */
#define MRC_MPR_UNIT		128
#define MRC_PSN_WIN_MAX		(32 * MRC_MPR_UNIT)

/*
 * The PSNs a requester may have in flight, given the MPR a peer's SACK
 * advertises (@mpr units of MRC_MPR_UNIT; 0 advertises none), and at
 * most @max, its own window.
 */
static inline u32 mrc_psn_mpr_window(u8 mpr, u32 max)
{
	return mpr ? min_t(u32, mpr * MRC_MPR_UNIT, max) : max;
}

static inline u32 mrc_psn_add(u32 psn, s32 n)
{
	return (psn + n) & MRC_PSN_MASK;
}

/* a - b as a signed distance in [-2^23, 2^23) */
static inline s32 mrc_psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

enum mrc_psn_verdict {
	MRC_PSN_NEW,		/* first arrival: place it */
	MRC_PSN_DUP,		/* seen before (or below the window): drop, re-SACK */
	MRC_PSN_BEYOND,		/* past the advertised window: drop */
};

/**
 * struct mrc_psn_win - which PSNs of [base, base + size) have arrived
 * @base: lowest PSN not received yet (cumulative ack = base - 1)
 * @size: window in PSNs, a multiple of 128, at most MRC_PSN_WIN_MAX
 * @head: bitmap position of @base (the bitmap is a ring)
 * @ooo: PSNs received above @base
 * @map: one bit per PSN of the window
 */
struct mrc_psn_win {
	u32 base;
	u32 size;
	u32 head;
	u32 ooo;
	DECLARE_BITMAP(map, MRC_PSN_WIN_MAX);
};

int mrc_psn_win_init(struct mrc_psn_win *w, u32 start_psn, u32 size);
enum mrc_psn_verdict mrc_psn_win_mark(struct mrc_psn_win *w, u32 psn);
bool mrc_psn_win_test(const struct mrc_psn_win *w, u32 psn);

static inline u32 mrc_psn_win_cack(const struct mrc_psn_win *w)
{
	return mrc_psn_add(w->base, -1);
}

/**
 * struct mrc_sack_range - the selective part of a SACK
 * @cack_psn: every PSN up to and including this one arrived
 * @offset: the bitmap starts at PSN cack_psn + offset (offset >= 1)
 * @bitmap: bit i set = PSN cack_psn + offset + i arrived
 */
struct mrc_sack_range {
	u32 cack_psn;
	s16 offset;
	u64 bitmap;
};

void mrc_psn_win_sack(const struct mrc_psn_win *w, u32 psn,
		      struct mrc_sack_range *r);

enum mrc_sack_state {
	MRC_SACK_ACKED,		/* arrived */
	MRC_SACK_MISSING,	/* inside the bitmap, not arrived */
	MRC_SACK_UNKNOWN,	/* beyond what this SACK describes */
};

enum mrc_sack_state mrc_sack_psn_state(const struct mrc_sack_range *r,
				       u32 psn);

#endif /* _MRC_PSN_H */
