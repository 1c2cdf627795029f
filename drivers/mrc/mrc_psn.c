// SPDX-License-Identifier: GPL-2.0
/*
 * The responder's PSN window and SACK building; the requester's reading of
 * a SACK. Packets arrive in any order, so the responder keeps one bit per
 * PSN of its window (MPR) and advances the cumulative ack over every
 * contiguous run it completes.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>

#include "mrc_psn.h"

/**
 * mrc_psn_win_init() - an empty window starting at a PSN
 * @w: the window
 * @start_psn: the first PSN expected
 * @size: window size in PSNs: a multiple of MRC_MPR_UNIT, at most
 *	  MRC_PSN_WIN_MAX
 *
 * Return: 0, or -EINVAL for a bad size.
 */
int mrc_psn_win_init(struct mrc_psn_win *w, u32 start_psn, u32 size)
{
	if (!size || size % MRC_MPR_UNIT || size > MRC_PSN_WIN_MAX)
		return -EINVAL;
	w->base = start_psn & MRC_PSN_MASK;
	w->size = size;
	w->head = 0;
	w->ooo = 0;
	bitmap_zero(w->map, MRC_PSN_WIN_MAX);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_psn_win_init);

static u32 pos_of(const struct mrc_psn_win *w, u32 d)
{
	return (w->head + d) % w->size;
}

/* the PSN at the base has arrived: move the window past it */
static void slide(struct mrc_psn_win *w)
{
	__clear_bit(w->head, w->map);
	w->head = (w->head + 1) % w->size;
	w->base = mrc_psn_add(w->base, 1);
}

/**
 * mrc_psn_win_mark() - record the arrival of a PSN
 * @w: the window
 * @psn: the packet's PSN
 *
 * Return: MRC_PSN_NEW when the packet is to be placed, MRC_PSN_DUP when it
 * was already seen (or lies below the window), MRC_PSN_BEYOND when it lies
 * past the window the responder advertised.
 */
enum mrc_psn_verdict mrc_psn_win_mark(struct mrc_psn_win *w, u32 psn)
{
	s32 d = mrc_psn_diff(psn, w->base);

	if (d < 0)
		return MRC_PSN_DUP;
	if (d >= w->size)
		return MRC_PSN_BEYOND;
	if (__test_and_set_bit(pos_of(w, d), w->map))
		return MRC_PSN_DUP;
	if (d) {
		w->ooo++;
		return MRC_PSN_NEW;
	}
	/* the lowest missing PSN arrived: slide over the contiguous run */
	slide(w);
	while (test_bit(w->head, w->map)) {
		slide(w);
		w->ooo--;
	}
	return MRC_PSN_NEW;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_psn_win_mark);

/* has @psn arrived? (true below the window) */
bool mrc_psn_win_test(const struct mrc_psn_win *w, u32 psn)
{
	s32 d = mrc_psn_diff(psn, w->base);

	if (d < 0)
		return true;
	if (d >= w->size)
		return false;
	return test_bit(pos_of(w, d), w->map);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_psn_win_test);

/**
 * mrc_psn_win_sack() - the SACK describing the window around a PSN
 * @w: the window
 * @psn: the PSN that triggers the SACK; the bitmap covers it when it lies
 *	 in the window
 * @r: the result
 *
 * The bitmap starts right after the cumulative ack when the PSN is within
 * 64 of it, else at the 64-aligned block (relative to the ack) holding it.
 */
void mrc_psn_win_sack(const struct mrc_psn_win *w, u32 psn,
		      struct mrc_sack_range *r)
{
	s32 d = mrc_psn_diff(psn, w->base);
	u32 i;

	if (d < MRC_SACK_BITS || d >= (s32)w->size)
		d = 0;
	d &= ~(MRC_SACK_BITS - 1);
	r->cack_psn = mrc_psn_win_cack(w);
	r->offset = d + 1;
	r->bitmap = 0;
	for (i = 0; i < MRC_SACK_BITS && d + i < w->size; i++)
		if (test_bit(pos_of(w, d + i), w->map))
			r->bitmap |= BIT_ULL(i);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_psn_win_sack);

/**
 * mrc_sack_psn_state() - what a SACK says about one PSN
 * @r: the SACK's cumulative ack, offset and bitmap
 * @psn: the PSN asked about
 */
enum mrc_sack_state mrc_sack_psn_state(const struct mrc_sack_range *r, u32 psn)
{
	s32 d = mrc_psn_diff(psn, r->cack_psn);

	if (d <= 0)
		return MRC_SACK_ACKED;
	d -= r->offset;
	if (d < 0 || d >= MRC_SACK_BITS)
		return MRC_SACK_UNKNOWN;	/* outside the bitmap */
	return r->bitmap & BIT_ULL(d) ? MRC_SACK_ACKED : MRC_SACK_MISSING;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_sack_psn_state);
