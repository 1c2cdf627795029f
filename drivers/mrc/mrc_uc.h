/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UC (unreliable connected) receive: the reorder stage and the IBA UC
 * message sequence, pure logic that KUnit tests (mrc_uc_test.c).
 *
 * Packets of a UC QP are sprayed over the peer's paths like RC's, so they
 * may arrive out of order; UC has no retransmission, so a PSN that does
 * not come is lost for good. The reorder stage hands packets on in PSN
 * order: one ahead of the next expected PSN waits (at most
 * MRC_UC_REORDER PSNs ahead, at most MRC_UC_HOLE_MS); past either, the
 * PSNs still missing are given up and the sequence stage sees a gap, and
 * does what IBA UC does with one: it drops the rest of the message in
 * progress and takes the next one that starts with a FIRST or ONLY.
 */
#ifndef _MRC_UC_H
#define _MRC_UC_H

#include <linux/types.h>

#define MRC_UC_REORDER		64	/* PSNs a packet may wait ahead */
#define MRC_UC_HOLE_MS		10	/* how long a missing PSN is waited for */
#define MRC_UC_WIN		1024	/* PSNs ahead that are taken at all */
#define MRC_UC_RESYNC_MS	500	/* silence after which any PSN is taken */

/* mrc_uc_seq_step(): what to do with a packet handed on in PSN order */
enum {
	MRC_UC_TAKE	= BIT(0),	/* place it */
	MRC_UC_CUT	= BIT(1),	/* the message in progress ends unfinished */
};

enum mrc_uc_open {
	MRC_UC_NONE,
	MRC_UC_SEND,
	MRC_UC_WRITE,
};

/**
 * struct mrc_uc_seq - the IBA UC message sequence
 * @epsn: the PSN that follows the last one seen
 * @open: the kind of the message in progress (enum mrc_uc_open)
 * @drop: dropping the rest of a message, until a FIRST or ONLY
 */
struct mrc_uc_seq {
	u32 epsn;
	u8 open;
	bool drop;
};

/**
 * struct mrc_uc_rx - the reorder stage
 * @epsn: the next PSN to hand on
 * @nheld: packets waiting in @held
 * @hole_since: jiffies since when @epsn is waited for (with @nheld)
 * @last_take: jiffies of the last packet taken in the window
 * @held: packets of PSNs @epsn + 1 .. @epsn + MRC_UC_REORDER - 1, by
 *	  PSN modulo MRC_UC_REORDER
 */
struct mrc_uc_rx {
	u32 epsn;
	u32 nheld;
	unsigned long hole_since;
	unsigned long last_take;
	void *held[MRC_UC_REORDER];
};

/* hands on @item, of PSN @psn, in PSN order; owns it from then on */
typedef void (*mrc_uc_deliver_t)(void *ctx, void *item, u32 psn);

void mrc_uc_seq_init(struct mrc_uc_seq *s, u32 psn);
unsigned int mrc_uc_seq_step(struct mrc_uc_seq *s, u32 psn, u32 mask);
void mrc_uc_seq_abort(struct mrc_uc_seq *s, u32 mask);
void mrc_uc_rx_init(struct mrc_uc_rx *rx, u32 psn, unsigned long now);
int mrc_uc_rx_arrive(struct mrc_uc_rx *rx, u32 psn, void *item,
		     unsigned long now, mrc_uc_deliver_t deliver, void *ctx);
bool mrc_uc_rx_timeout(struct mrc_uc_rx *rx, unsigned long now,
		       mrc_uc_deliver_t deliver, void *ctx);

#endif /* _MRC_UC_H */
