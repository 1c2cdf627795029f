// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: EV sets - the split across planes and paths, the rotation
 * (fairness, skipping planes that are down), and the EV state machine:
 * losses in a row, backups keeping the planes balanced, the floor, probes
 * (one per path at a time, backing off), SKIP for one round (ECN, drops),
 * the operator's DENIED.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "mrc_ev.h"
#include "mrc_kunit.h"

static void free_evs(void *evs)
{
	mrc_evset_free(evs);
}

static void put_ps(void *ps)
{
	mrc_pathset_put(ps);
}

/* an EV set of @n slots over @planes planes of @per paths, freed at exit */
static struct mrc_evset *evset(struct kunit *test, int planes, int per,
			       u32 n, u32 seed)
{
	struct mrc_pathset *ps = mrc_test_grid(test, planes, per);
	struct mrc_evset *evs;

	KUNIT_ASSERT_NOT_NULL(test, ps);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, put_ps, ps));
	evs = mrc_evset_build(ps, n, seed, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_evs, evs));
	return evs;
}

static bool signal(struct mrc_evset *evs, u32 i, enum mrc_ev_sig sig,
		   struct mrc_ev_change *chg)
{
	return mrc_evset_signal(evs, i, sig, chg);
}

/* a dead path: losses in a row, enough to retire the EV */
static bool lose(struct mrc_evset *evs, u32 i, struct mrc_ev_change *chg)
{
	int n;

	for (n = 1; n < MRC_EV_LOSS_RUN; n++)
		if (mrc_evset_signal(evs, i, MRC_EV_SIG_LOSS, chg))
			return true;
	return mrc_evset_signal(evs, i, MRC_EV_SIG_LOSS, chg);
}

static void split(struct kunit *test)
{
	unsigned int per_plane[4] = {}, per_path[8] = {}, slot_path[8] = {};
	struct mrc_evset *evs = evset(test, 4, 2, 128, 1);
	int i;

	/* 128 slots, and as many backups */
	KUNIT_EXPECT_EQ(test, 128, evs->nslots);
	KUNIT_EXPECT_EQ(test, 256, evs->n);
	KUNIT_EXPECT_EQ(test, 64, evs->min_active);
	for (i = 0; i < evs->n; i++) {
		const struct mrc_ev *e = &evs->ev[i];

		per_path[e->path]++;
		if (i < evs->nslots) {
			per_plane[e->plane]++;
			slot_path[e->path]++;
			KUNIT_EXPECT_EQ(test, i, e->slot);
			KUNIT_EXPECT_EQ(test, i, evs->slot[i]);
		} else {
			KUNIT_EXPECT_EQ(test, -1, e->slot);
		}
		KUNIT_EXPECT_EQ(test, e->plane, mrc_ev_plane(e->value));
		KUNIT_EXPECT_EQ(test, e->path, mrc_ev_path(e->value));
		KUNIT_EXPECT_EQ(test, i, mrc_ev_index(e->value));
		KUNIT_EXPECT_GE(test, mrc_ev_sport(e->value), 0xc000);
		KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, e->state);
		KUNIT_EXPECT_PTR_EQ(test, e, mrc_evset_find(evs, e->value));
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 32, per_plane[i]);
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, 16, slot_path[i]);
		KUNIT_EXPECT_EQ(test, 32, per_path[i]);
	}
	KUNIT_EXPECT_NULL(test, mrc_evset_find(evs, evs->ev[3].value ^ 0x100));

	/* 3 planes of one path: 128 / 3 = 42 slots each, no backups */
	evs = evset(test, 3, 1, 128, 2);
	KUNIT_EXPECT_EQ(test, 126, evs->nslots);
	KUNIT_EXPECT_EQ(test, 126, evs->n);
}

/* more paths on a plane than EVs for it: a subset, each used at most once */
static void subset(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 2, 10, 8, 3);
	unsigned int per_path[20] = {};
	int i;

	KUNIT_EXPECT_EQ(test, 8, evs->nslots);
	KUNIT_EXPECT_EQ(test, 16, evs->n);
	for (i = 0; i < evs->n; i++)
		per_path[evs->ev[i].path]++;
	for (i = 0; i < 20; i++)
		KUNIT_EXPECT_LE(test, per_path[i], 1);
}

static void rotation_fair(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 2, 64, 4);
	unsigned int uses[MRC_MAX_EVS] = {}, plane_run = 0, max_run = 0;
	int i, r, last_plane = -1, orders = 0, first = -1;
	u32 stripe = 0;

	for (r = 0; r < 10; r++) {
		/* every round uses every slot exactly once */
		for (i = 0; i < evs->nslots; i++) {
			int e = mrc_evset_next(evs, 0xffff);

			KUNIT_ASSERT_GE(test, e, 0);
			KUNIT_ASSERT_LT(test, e, evs->nslots);
			uses[e]++;
			/* every 4 in a row: one of each plane */
			if (i % 4 == 0) {
				orders += first >= 0 && first != evs->ev[e].plane;
				first = evs->ev[e].plane;
				stripe = 0;
			}
			stripe |= BIT(evs->ev[e].plane);
			if (i % 4 == 3)
				KUNIT_EXPECT_EQ(test, 0xfu, stripe);
			if (evs->ev[e].plane == last_plane) {
				max_run = max(max_run, ++plane_run);
			} else {
				plane_run = 1;
				last_plane = evs->ev[e].plane;
			}
		}
		for (i = 0; i < evs->nslots; i++)
			KUNIT_EXPECT_EQ(test, r + 1, uses[i]);
	}
	/* planes interleave: at most two in a row (across two stripes) */
	KUNIT_EXPECT_LE(test, max_run, 2);
	/* and the planes' order changes from stripe to stripe */
	KUNIT_EXPECT_GT(test, orders, 40);
}

static void rotation_skips_down_planes(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 1, 128, 5);
	unsigned int per_plane[4] = {};
	int i;

	for (i = 0; i < 3 * 128; i++) {
		int e = mrc_evset_next(evs, BIT(0) | BIT(2) | BIT(3));

		KUNIT_ASSERT_GE(test, e, 0);
		per_plane[evs->ev[e].plane]++;
	}
	KUNIT_EXPECT_EQ(test, 0, per_plane[1]);
	KUNIT_EXPECT_EQ(test, 128, per_plane[0]);
	KUNIT_EXPECT_EQ(test, 128, per_plane[2]);
	KUNIT_EXPECT_EQ(test, 128, per_plane[3]);
	KUNIT_EXPECT_EQ(test, -ENETUNREACH, mrc_evset_next(evs, BIT(1) << 8));
}

/* the peer's port status takes its planes out, and in again, with no state change */
static void peer_planes(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 1, 128, 5);
	unsigned int per_plane[4] = {};
	int i;

	KUNIT_EXPECT_FALSE(test, mrc_evset_peer_planes(evs, 0));
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_planes(evs, BIT(0) | BIT(1) | BIT(3)));
	KUNIT_EXPECT_FALSE(test, mrc_evset_peer_planes(evs, BIT(0) | BIT(1) | BIT(3)));
	for (i = 0; i < 3 * 128; i++) {
		int e = mrc_evset_next(evs, BIT(0) | BIT(1) | BIT(2) | BIT(3));

		KUNIT_ASSERT_GE(test, e, 0);
		KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[e].state);
		per_plane[evs->ev[e].plane]++;
	}
	KUNIT_EXPECT_EQ(test, 0, per_plane[2]);
	KUNIT_EXPECT_EQ(test, 128, per_plane[0]);
	/* locally down too: the peer's planes and ours have none in common */
	i = mrc_evset_next(evs, BIT(2));
	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_EQ(test, 2, evs->ev[i].plane);
	/* back up (0: not reported, all) */
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_planes(evs, 0));
	memset(per_plane, 0, sizeof(per_plane));
	for (i = 0; i < 4 * 128; i++)
		per_plane[evs->ev[mrc_evset_next(evs, 0xf)].plane]++;
	/* from mid-round: three whole rounds at least */
	KUNIT_EXPECT_GE(test, per_plane[2], 96);
}

/*
 * SACKs that overtook each other: the port status of the one with the
 * highest cumulative ack holds (PSNs wrap at 2^24); an equal one counts.
 */
static void peer_status_order(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 1, 128, 5);
	const u16 all = 0xf, no1 = 0xf & ~BIT(1);

	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_status(evs, no1, 100));
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_status(evs, all, 120));
	/* sent before the plane came back, heard after */
	KUNIT_EXPECT_FALSE(test, mrc_evset_peer_status(evs, no1, 110));
	KUNIT_EXPECT_EQ(test, all, evs->peer_up);
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_status(evs, no1, 120));
	KUNIT_EXPECT_EQ(test, no1, evs->peer_up);
	/* across the wrap */
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_status(evs, all, 0x700000));
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_status(evs, no1, 0xd00000));
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_status(evs, all, 2));
	KUNIT_EXPECT_FALSE(test, mrc_evset_peer_status(evs, no1, 0xfffffe));
	KUNIT_EXPECT_EQ(test, all, evs->peer_up);
	/* 0: not reported, taken as all */
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_status(evs, 0, 3));
	KUNIT_EXPECT_EQ(test, U16_MAX, evs->peer_up);
}

/*
 * The reverse set: one EV per plane, the planes in turn; an EV shown to
 * reach the peer becomes its plane's; a bad one or a plane down at either
 * end is passed over; probes go to a usable EV of each plane in turn.
 */
static void reverse_set(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 2, 64, 8);
	unsigned int per_plane[4] = {}, seen[4] = {};
	struct mrc_ev_change chg;
	int i, k, first[4];

	for (i = 0; i < 8; i++) {
		k = mrc_evset_reverse(evs, 0xf);
		KUNIT_ASSERT_GE(test, k, 0);
		per_plane[evs->ev[k].plane]++;
		if (i < 4)
			first[evs->ev[k].plane] = k;
		else
			KUNIT_EXPECT_EQ(test, first[evs->ev[k].plane], k);
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 2, per_plane[i]);
	/* plane 1's other path reached the peer: it takes over */
	for (k = 0; k < evs->nslots; k++)
		if (evs->ev[k].plane == 1 &&
		    evs->ev[k].path != evs->ev[first[1]].path)
			break;
	KUNIT_ASSERT_LT(test, k, evs->nslots);
	mrc_evset_rev_adopt(evs, k);
	for (i = 0; i < 4; i++) {
		int j = mrc_evset_reverse(evs, 0xf);

		if (evs->ev[j].plane == 1)
			KUNIT_EXPECT_EQ(test, k, j);
	}
	/* it goes bad: plane 1 is passed over; a bad EV is not adopted */
	KUNIT_EXPECT_TRUE(test, lose(evs, k, &chg));
	mrc_evset_rev_adopt(evs, k);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_NE(test, 1, evs->ev[mrc_evset_reverse(evs, 0xf)].plane);
	/* plane 2 down here, plane 3 at the peer: only plane 0 is left */
	KUNIT_EXPECT_TRUE(test, mrc_evset_peer_planes(evs, 0x7));
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, first[0], mrc_evset_reverse(evs, 0xb));
	/* with no reverse EV usable, the rotation */
	KUNIT_EXPECT_TRUE(test, lose(evs, first[0], &chg));
	k = mrc_evset_reverse(evs, 0xb);
	KUNIT_ASSERT_GE(test, k, 0);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[k].state);
	/* probe candidates: usable slot EVs of the reachable planes in turn */
	for (i = 0; i < 40; i++) {
		k = mrc_evset_rev_candidate(evs, 0xb);
		KUNIT_ASSERT_GE(test, k, 0);
		KUNIT_EXPECT_GE(test, evs->ev[k].slot, 0);
		KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[k].state);
		seen[evs->ev[k].plane]++;
	}
	KUNIT_EXPECT_EQ(test, 20, seen[0]);
	KUNIT_EXPECT_EQ(test, 20, seen[1]);
	KUNIT_EXPECT_EQ(test, 0, seen[2] + seen[3]);
	KUNIT_EXPECT_EQ(test, -ENOENT, mrc_evset_rev_candidate(evs, 0));
}

static void seeds_differ(struct kunit *test)
{
	struct mrc_evset *a = evset(test, 2, 4, 32, 6);
	struct mrc_evset *b = evset(test, 2, 4, 32, 7);
	int i, same = 0;

	for (i = 0; i < 32; i++)
		same += mrc_evset_next(a, 0xffff) == mrc_evset_next(b, 0xffff);
	/* two QPs do not walk their paths in step */
	KUNIT_EXPECT_LT(test, same, 16);
	KUNIT_EXPECT_NE(test, a->ev[0].value, b->ev[0].value);
}

/* a loss: ASSUMED_BAD at once, a backup of its plane on the other path */
static void loss_takes_backup(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 2, 128, 8);
	unsigned int per_plane[4] = {};
	struct mrc_ev_change chg;
	struct mrc_ev *e = &evs->ev[0], *b;
	int i;

	KUNIT_ASSERT_TRUE(test, lose(evs, 0, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, chg.old);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_ASSUMED_BAD, chg.new);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_ASSUMED_BAD, e->state);
	KUNIT_ASSERT_GE(test, chg.backup, 128);
	b = &evs->ev[chg.backup];
	KUNIT_EXPECT_EQ(test, e->plane, b->plane);
	KUNIT_EXPECT_NE(test, e->path, b->path);
	KUNIT_EXPECT_EQ(test, 0, b->slot);
	KUNIT_EXPECT_EQ(test, chg.backup, evs->slot[0]);
	KUNIT_EXPECT_EQ(test, -1, e->slot);
	KUNIT_EXPECT_EQ(test, 1, evs->nbad);
	KUNIT_EXPECT_EQ(test, 128, mrc_evset_usable(evs));
	/* again: nothing new */
	KUNIT_EXPECT_FALSE(test, lose(evs, 0, &chg));
	KUNIT_EXPECT_EQ(test, 1, evs->nbad);

	/* the rotation: every slot once, the planes' shares unchanged */
	for (i = 0; i < 2 * 128; i++) {
		int k = mrc_evset_next(evs, 0xffff);

		KUNIT_ASSERT_GE(test, k, 0);
		KUNIT_EXPECT_NE(test, 0, k);
		per_plane[evs->ev[k].plane]++;
	}
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, 64, per_plane[i]);
}

/*
 * Single losses with deliveries of later packets between them do not
 * retire an EV; deliveries of packets sent before the loss (out of a deep
 * queue) do not break the run.
 */
static void loss_run(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 2, 128, 15);
	struct mrc_ev *e = &evs->ev[3];
	struct mrc_ev_change chg;
	int i;

	for (i = 0; i < 10; i++) {
		mrc_ev_lost(e, 100 + 2 * i);
		KUNIT_EXPECT_FALSE(test, signal(evs, 3, MRC_EV_SIG_LOSS, &chg));
		mrc_ev_delivered(e, 101 + 2 * i);
	}
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, e->state);
	KUNIT_EXPECT_EQ(test, 0, e->loss_run);
	mrc_ev_lost(e, 200);
	KUNIT_EXPECT_FALSE(test, signal(evs, 3, MRC_EV_SIG_LOSS, &chg));
	mrc_ev_delivered(e, 150);
	mrc_ev_delivered(e, 200);
	KUNIT_EXPECT_EQ(test, 1, e->loss_run);
	/* found lost out of order: the run ends only after the newest */
	mrc_ev_lost(e, 190);
	KUNIT_EXPECT_EQ(test, 200, e->loss_seq);
	mrc_ev_delivered(e, 201);
	KUNIT_EXPECT_EQ(test, 0, e->loss_run);
	mrc_ev_lost(e, 210);
	KUNIT_EXPECT_FALSE(test, signal(evs, 3, MRC_EV_SIG_LOSS, &chg));
	mrc_ev_delivered(e, 205);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, e->state);
	mrc_ev_lost(e, 212);
	KUNIT_EXPECT_TRUE(test, signal(evs, 3, MRC_EV_SIG_LOSS, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_ASSUMED_BAD, evs->ev[3].state);
	/* uSID EVs name their path exactly: the path's others go at once */
	KUNIT_EXPECT_TRUE(test, evs->ev[3].exact);
	for (i = 0; i < evs->nslots; i++)
		if (i != 3 && evs->ev[i].path == evs->ev[3].path)
			break;
	KUNIT_ASSERT_LT(test, i, evs->nslots);
	KUNIT_EXPECT_TRUE(test, signal(evs, i, MRC_EV_SIG_PATH_BAD, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_ASSUMED_BAD, chg.new);
	KUNIT_EXPECT_GE(test, chg.backup, 0);
	KUNIT_EXPECT_FALSE(test, signal(evs, i, MRC_EV_SIG_PATH_BAD, &chg));
}

/* UDP/ECMP EVs only feed hashes: they are not exact */
static void udp_not_exact(struct kunit *test)
{
	struct mrc_path_cfg c = { .mode = MRC_PATH_MODE_UDP };
	struct mrc_pathset *ps = NULL;
	struct mrc_evset *evs;

	c.remote = mrc_test_peer;
	KUNIT_ASSERT_EQ(test, 0, mrc_test_add(test, &ps, &c));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, put_ps, ps));
	evs = mrc_evset_build(ps, 16, 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_evs, evs));
	KUNIT_EXPECT_EQ(test, 16, evs->n);
	KUNIT_EXPECT_FALSE(test, evs->ev[0].exact);
}

/*
 * A path dies: every EV on it is replaced by a backup on the plane's other
 * path. When those run out, a backup on a suspect path is better than an
 * empty slot, but not one on an exact path that is down (more of its EVs
 * ASSUMED_BAD than in use): then, or when there is none at all, the slot
 * stays empty (the floor permitting).
 */
static void path_failure(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 2, 128, 9);
	struct mrc_ev_change chg;
	u8 dead = evs->ev[32].path;	/* plane 1 */
	int s, k, n = 0;

	for (s = 0; s < evs->nslots; s++) {
		u32 i = evs->slot[s];

		if (evs->ev[i].path != dead)
			continue;
		KUNIT_EXPECT_TRUE(test, lose(evs, i, &chg));
		KUNIT_EXPECT_GE(test, chg.backup, 0);
		n++;
	}
	KUNIT_EXPECT_EQ(test, 16, n);
	KUNIT_EXPECT_EQ(test, 16, evs->nbad);
	KUNIT_EXPECT_EQ(test, 128, mrc_evset_usable(evs));
	for (s = 0; s < evs->nslots; s++)
		KUNIT_EXPECT_NE(test, dead, evs->ev[evs->slot[s]].path);
	/*
	 * The other path of plane 1 loses one: the dead path's backups stay
	 * on standby, the slot stays empty
	 */
	for (s = 0; s < evs->nslots; s++)
		if (evs->ev[evs->slot[s]].plane == 1 &&
		    evs->ev[evs->slot[s]].state == MRC_EV_STATE_GOOD)
			break;
	KUNIT_ASSERT_LT(test, s, evs->nslots);
	KUNIT_EXPECT_TRUE(test, lose(evs, evs->slot[s], &chg));
	KUNIT_EXPECT_EQ(test, -1, chg.backup);
	KUNIT_EXPECT_EQ(test, 127, mrc_evset_usable(evs));
	/*
	 * The dead path's EVs come back (probes): one takes the empty slot,
	 * the rest wait on standby, and the other path's next loss takes one
	 * of them
	 */
	for (s = 0; s < evs->n; s++)
		if (evs->ev[s].path == dead &&
		    evs->ev[s].state == MRC_EV_STATE_ASSUMED_BAD)
			for (k = 0; k < MRC_EV_PROBES_GOOD; k++)
				signal(evs, s, MRC_EV_SIG_PROBE_OK, &chg);
	KUNIT_EXPECT_EQ(test, 128, mrc_evset_usable(evs));
	for (s = 0; s < evs->nslots; s++)
		if (evs->ev[evs->slot[s]].plane == 1 &&
		    evs->ev[evs->slot[s]].path != dead &&
		    evs->ev[evs->slot[s]].state == MRC_EV_STATE_GOOD)
			break;
	KUNIT_ASSERT_LT(test, s, evs->nslots);
	KUNIT_EXPECT_TRUE(test, lose(evs, evs->slot[s], &chg));
	KUNIT_ASSERT_GE(test, chg.backup, 0);
	KUNIT_EXPECT_EQ(test, dead, evs->ev[chg.backup].path);
}

/* no backups (one path per plane): losses stop at the floor */
static void floor_holds(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 2, 1, 8, 10);
	struct mrc_ev_change chg;
	int i;

	KUNIT_ASSERT_EQ(test, 8, evs->n);
	KUNIT_ASSERT_EQ(test, 4, evs->min_active);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, lose(evs, i, &chg));
	KUNIT_EXPECT_EQ(test, 4, mrc_evset_usable(evs));
	KUNIT_EXPECT_FALSE(test, lose(evs, 4, &chg));
	KUNIT_EXPECT_TRUE(test, chg.floor);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[4].state);
	KUNIT_EXPECT_EQ(test, 4, mrc_evset_usable(evs));
	KUNIT_EXPECT_EQ(test, 4, evs->nbad);
}

/* answered probes in a row bring an EV back, into an empty slot or standby */
static void probes_recover(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 2, 1, 8, 11);
	struct mrc_ev_change chg;
	int i;

	/* no backup: the slot stays with the EV, empty */
	KUNIT_ASSERT_TRUE(test, lose(evs, 2, &chg));
	KUNIT_EXPECT_EQ(test, 2, evs->ev[2].slot);
	for (i = 0; i < MRC_EV_PROBES_GOOD - 1; i++)
		KUNIT_EXPECT_FALSE(test, signal(evs, 2, MRC_EV_SIG_PROBE_OK, &chg));
	/* one unanswered: the count starts again */
	KUNIT_EXPECT_FALSE(test, signal(evs, 2, MRC_EV_SIG_PROBE_LOST, &chg));
	for (i = 0; i < MRC_EV_PROBES_GOOD - 1; i++)
		KUNIT_EXPECT_FALSE(test, signal(evs, 2, MRC_EV_SIG_PROBE_OK, &chg));
	KUNIT_EXPECT_TRUE(test, signal(evs, 2, MRC_EV_SIG_PROBE_OK, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, chg.new);
	KUNIT_EXPECT_EQ(test, 0, evs->nbad);
	KUNIT_EXPECT_EQ(test, 8, mrc_evset_usable(evs));
	/* probes of a GOOD EV change nothing */
	KUNIT_EXPECT_FALSE(test, signal(evs, 2, MRC_EV_SIG_PROBE_OK, &chg));

	/* replaced by a backup: back as a GOOD backup on standby */
	evs = evset(test, 4, 2, 128, 12);
	KUNIT_ASSERT_TRUE(test, lose(evs, 5, &chg));
	for (i = 0; i < MRC_EV_PROBES_GOOD; i++)
		signal(evs, 5, MRC_EV_SIG_PROBE_OK, &chg);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[5].state);
	KUNIT_EXPECT_EQ(test, -1, evs->ev[5].slot);
	KUNIT_EXPECT_EQ(test, 128, mrc_evset_usable(evs));
}

/*
 * An answer counts for an ASSUMED_BAD EV only if its probe left after the
 * EV went bad: one sent before, held in a queue, predates the fault
 */
static void probe_after_bad(struct kunit *test)
{
	struct mrc_ev probed = { .probe_tx_ns = 1000 }, e = { .bad_ns = 2000 };

	KUNIT_EXPECT_FALSE(test, mrc_ev_probe_after_bad(&probed, &e));
	probed.probe_tx_ns = 2000;
	KUNIT_EXPECT_TRUE(test, mrc_ev_probe_after_bad(&probed, &e));
	probed.probe_tx_ns = 5000;
	KUNIT_EXPECT_TRUE(test, mrc_ev_probe_after_bad(&probed, &e));
	/* the same EV: its probe of before the loss, then one after */
	e.probe_tx_ns = 1500;
	KUNIT_EXPECT_FALSE(test, mrc_ev_probe_after_bad(&e, &e));
	e.probe_tx_ns = 2500;
	KUNIT_EXPECT_TRUE(test, mrc_ev_probe_after_bad(&e, &e));
}

/* retire EV @i as the requester does, to be probed from @now on */
static void retire_at(struct kunit *test, struct mrc_evset *evs, u32 i,
		      u32 now)
{
	struct mrc_ev_change chg;

	KUNIT_ASSERT_TRUE(test, lose(evs, i, &chg));
	evs->ev[i].probe_us = now;
}

/*
 * Probing: one probe at a time per exact path, a lost one doubles the wait
 * for the whole path (up to the cap), an answer resets it, and a burst
 * limit that still gives every due EV its turn.
 */
static void probe_schedule(struct kunit *test)
{
	static const struct { u32 srtt, wait; } waits[] = {
		{ 0, 100 << MRC_EV_PROBE_BACKOFF_MAX },
		{ 100000, MRC_EV_PROBE_WAIT_MAX_US },
		{ 1000000, 2000000 },
	};
	struct mrc_evset *evs = evset(test, 4, 2, 128, 15);
	struct mrc_ev_change chg;
	u8 out[4], seen[256] = {};
	u32 n, k, p, i;

	/* EVs 0 and 2 share a path (a plane's slots name its paths in turn) */
	KUNIT_ASSERT_EQ(test, evs->ev[0].path, evs->ev[2].path);
	retire_at(test, evs, 0, 1000);
	retire_at(test, evs, 2, 1000);
	n = mrc_evset_probes(evs, 1000, 100, U16_MAX, out, 4);
	KUNIT_ASSERT_EQ(test, 1, n);
	p = out[0];
	KUNIT_EXPECT_TRUE(test, p == 0 || p == 2);
	KUNIT_EXPECT_TRUE(test, evs->ev[p].probe_wait);
	KUNIT_EXPECT_EQ(test, 1100, evs->ev[p].probe_us);
	/* the other is due, but its path has a probe under way */
	KUNIT_EXPECT_EQ(test, 0, mrc_evset_probes(evs, 1050, 100, U16_MAX, out, 4));
	/* unanswered when due: lost for both, both wait twice as long */
	n = mrc_evset_probes(evs, 1100, 100, U16_MAX, out, 4);
	KUNIT_ASSERT_EQ(test, 1, n);
	KUNIT_EXPECT_EQ(test, 1, evs->ev[0].probe_backoff);
	KUNIT_EXPECT_EQ(test, 1, evs->ev[2].probe_backoff);
	KUNIT_EXPECT_EQ(test, 1100 + 200, evs->ev[out[0]].probe_us);
	/* the wait stops growing at the cap */
	for (k = 0; k < 2 * MRC_EV_PROBE_BACKOFF_MAX; k++)
		mrc_evset_probes(evs, evs->ev[out[0]].probe_us, 100, U16_MAX, out, 4);
	KUNIT_EXPECT_EQ(test, MRC_EV_PROBE_BACKOFF_MAX, evs->ev[0].probe_backoff);
	KUNIT_EXPECT_EQ(test, MRC_EV_PROBE_BACKOFF_MAX, evs->ev[2].probe_backoff);
	/*
	 * With no RTT of its own, 100 us << 6 is below the cap of the wait;
	 * with 100 ms it is capped; twice a 1 s RTT is above the cap
	 */
	for (k = 0; k < ARRAY_SIZE(waits); k++) {
		evs->ev[0].srtt_us = waits[k].srtt;
		evs->ev[2].srtt_us = waits[k].srtt;
		p = evs->ev[out[0]].probe_us;
		n = mrc_evset_probes(evs, p, 100, U16_MAX, out, 4);
		KUNIT_ASSERT_EQ(test, 1, n);
		KUNIT_EXPECT_EQ(test, p + waits[k].wait, evs->ev[out[0]].probe_us);
	}
	/* an answer: the normal wait again, the count of answers goes on */
	signal(evs, 0, MRC_EV_SIG_PROBE_OK, &chg);
	KUNIT_EXPECT_EQ(test, 0, evs->ev[0].probe_backoff);
	KUNIT_EXPECT_EQ(test, 1, evs->ev[0].probes_ok);

	/* nothing is probed on a plane down here or at the peer */
	p = evs->ev[out[0]].probe_us + MRC_EV_PROBE_WAIT_MAX_US + 2000000;
	KUNIT_EXPECT_EQ(test, 0, mrc_evset_probes(evs, p, 100,
						  U16_MAX & ~BIT(evs->ev[0].plane),
						  out, 4));
	mrc_evset_peer_planes(evs, U16_MAX & ~BIT(evs->ev[0].plane));
	KUNIT_EXPECT_EQ(test, 0, mrc_evset_probes(evs, p, 100, U16_MAX, out, 4));
	mrc_evset_peer_planes(evs, 0);
	KUNIT_EXPECT_EQ(test, 1, mrc_evset_probes(evs, p, 100, U16_MAX, out, 4));

	/* six more paths due at once, four probes a call: all get their turn */
	evs = evset(test, 4, 2, 128, 16);
	for (i = 0; i < 96; i += 32) {
		retire_at(test, evs, i, 0);
		retire_at(test, evs, i + 1, 0);
	}
	n = mrc_evset_probes(evs, 10, 100, U16_MAX, out, 4);
	KUNIT_ASSERT_EQ(test, 4, n);
	for (k = 0; k < n; k++)
		seen[out[k]]++;
	n = mrc_evset_probes(evs, 10, 100, U16_MAX, out, 4);
	KUNIT_ASSERT_EQ(test, 2, n);
	for (k = 0; k < n; k++)
		seen[out[k]]++;
	for (i = 0; i < 96; i += 32) {
		KUNIT_EXPECT_EQ(test, 1, seen[i]);
		KUNIT_EXPECT_EQ(test, 1, seen[i + 1]);
	}
	KUNIT_EXPECT_EQ(test, 0, mrc_evset_probes(evs, 10, 100, U16_MAX, out, 4));
}

/* ECN: SKIP for the rest of the round, GOOD again in the next */
static void skip_one_round(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 2, 2, 8, 13);
	struct mrc_ev_change chg;
	int first, k, i;

	first = mrc_evset_next(evs, 0xffff);
	k = (first + 1) % evs->nslots;
	KUNIT_EXPECT_TRUE(test, signal(evs, k, MRC_EV_SIG_ECN, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_SKIP, evs->ev[k].state);
	KUNIT_EXPECT_EQ(test, evs->nslots, mrc_evset_usable(evs));
	for (i = 0; i < evs->nslots - 2; i++)
		KUNIT_EXPECT_NE(test, k, mrc_evset_next(evs, 0xffff));
	KUNIT_EXPECT_EQ(test, 0, evs->cursor);
	mrc_evset_next(evs, 0xffff);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[k].state);
	/* a drop that later packets on the EV overtook: SKIP as well, never
	 * a step towards ASSUMED_BAD
	 */
	for (i = 0; i < 4 * MRC_EV_LOSS_RUN; i++)
		signal(evs, k, MRC_EV_SIG_DROP, &chg);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_SKIP, evs->ev[k].state);
	KUNIT_EXPECT_EQ(test, 0, evs->ev[k].loss_run);
	KUNIT_EXPECT_EQ(test, 0, evs->nbad);
	for (i = 0; i < evs->nslots; i++)
		mrc_evset_next(evs, 0xffff);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[k].state);
	/* a loss while SKIP is a loss */
	KUNIT_EXPECT_TRUE(test, signal(evs, k, MRC_EV_SIG_ECN, &chg));
	KUNIT_EXPECT_TRUE(test, lose(evs, k, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_ASSUMED_BAD, evs->ev[k].state);
}

/*
 * A trim: MRC_EV_PENALTY_TRIM rounds out, the current one included (here
 * the one that just ended); no later signal shortens or lengthens it; a
 * set whose every slot sits out a penalty still carries packets.
 */
static void trim_penalty(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 2, 2, 8, 15);
	struct mrc_ev_change chg;
	int k = evs->slot[0], r, i;

	while (evs->cursor)
		mrc_evset_next(evs, 0xffff);
	KUNIT_EXPECT_TRUE(test, signal(evs, k, MRC_EV_SIG_TRIM, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_SKIP, evs->ev[k].state);
	KUNIT_EXPECT_EQ(test, MRC_EV_PENALTY_TRIM, evs->ev[k].penalty);
	KUNIT_EXPECT_FALSE(test, signal(evs, k, MRC_EV_SIG_ECN, &chg));
	KUNIT_EXPECT_FALSE(test, signal(evs, k, MRC_EV_SIG_TRIM, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_PENALTY_TRIM, evs->ev[k].penalty);
	/* still usable: it counts for the floor */
	KUNIT_EXPECT_EQ(test, evs->nslots, mrc_evset_usable(evs));
	for (r = 0; r < MRC_EV_PENALTY_TRIM - 1; r++) {
		do {
			KUNIT_EXPECT_NE(test, k, mrc_evset_next(evs, 0xffff));
		} while (evs->cursor);
		KUNIT_EXPECT_EQ(test, MRC_EV_STATE_SKIP, evs->ev[k].state);
	}
	mrc_evset_next(evs, 0xffff);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[k].state);
	KUNIT_EXPECT_EQ(test, 0, evs->ev[k].penalty);

	/* an ECN mark is one round; many marks are still one */
	for (i = 0; i < 5; i++)
		signal(evs, k, MRC_EV_SIG_ECN, &chg);
	KUNIT_EXPECT_EQ(test, MRC_EV_PENALTY_ECN, evs->ev[k].penalty);
	/* a retired EV carries no penalty */
	KUNIT_EXPECT_TRUE(test, lose(evs, k, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_ASSUMED_BAD, evs->ev[k].state);
	KUNIT_EXPECT_EQ(test, 0, evs->ev[k].penalty);
	KUNIT_EXPECT_FALSE(test, signal(evs, k, MRC_EV_SIG_TRIM, &chg));
	KUNIT_EXPECT_EQ(test, 0, evs->ev[k].penalty);

	/*
	 * every slot penalised: a SKIP EV carries the packet; each such pick
	 * walks a whole round, so the penalties run out as many picks later
	 */
	for (i = 0; i < evs->nslots; i++)
		if (evs->ev[evs->slot[i]].state == MRC_EV_STATE_GOOD)
			signal(evs, evs->slot[i], MRC_EV_SIG_TRIM, &chg);
	for (i = 0; i < MRC_EV_PENALTY_TRIM - 1; i++) {
		int e = mrc_evset_next(evs, 0xffff);

		KUNIT_ASSERT_GE(test, e, 0);
		KUNIT_EXPECT_EQ(test, MRC_EV_STATE_SKIP, evs->ev[e].state);
	}
	i = mrc_evset_next(evs, 0xffff);
	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[i].state);
}

/* DENIED is the operator's: the transport never changes it */
static void deny_allow(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 2, 128, 14);
	struct mrc_ev_change chg;
	int s;

	KUNIT_ASSERT_TRUE(test, signal(evs, 7, MRC_EV_SIG_DENY, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_DENIED, chg.new);
	KUNIT_EXPECT_GE(test, chg.backup, 0);
	KUNIT_EXPECT_EQ(test, -1, evs->ev[7].slot);
	KUNIT_EXPECT_FALSE(test, lose(evs, 7, &chg));
	KUNIT_EXPECT_FALSE(test, signal(evs, 7, MRC_EV_SIG_PROBE_OK, &chg));
	KUNIT_EXPECT_FALSE(test, signal(evs, 7, MRC_EV_SIG_ECN, &chg));
	KUNIT_EXPECT_FALSE(test, signal(evs, 7, MRC_EV_SIG_DENY, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_DENIED, evs->ev[7].state);
	KUNIT_EXPECT_EQ(test, 0, evs->nbad);
	for (s = 0; s < 2 * evs->nslots; s++)
		KUNIT_EXPECT_NE(test, 7, mrc_evset_next(evs, 0xffff));
	KUNIT_EXPECT_TRUE(test, signal(evs, 7, MRC_EV_SIG_ALLOW, &chg));
	KUNIT_EXPECT_EQ(test, MRC_EV_STATE_GOOD, evs->ev[7].state);
	KUNIT_EXPECT_FALSE(test, signal(evs, 7, MRC_EV_SIG_ALLOW, &chg));

	/* an ASSUMED_BAD EV denied is no longer probed; a backup denied */
	KUNIT_ASSERT_TRUE(test, lose(evs, 9, &chg));
	KUNIT_EXPECT_EQ(test, 1, evs->nbad);
	KUNIT_EXPECT_TRUE(test, signal(evs, 9, MRC_EV_SIG_DENY, &chg));
	KUNIT_EXPECT_EQ(test, 0, evs->nbad);
	KUNIT_EXPECT_TRUE(test, signal(evs, 200, MRC_EV_SIG_DENY, &chg));
	KUNIT_EXPECT_EQ(test, -1, chg.backup);
	KUNIT_EXPECT_EQ(test, 128, mrc_evset_usable(evs));
}

/*
 * One usable slot of eight, the others denied: every pick finds it. The
 * walk of a round's permutation wraps into a new one mid-walk, and must
 * not give up on a set whose only usable EV the new order moved.
 */
static void last_usable(struct kunit *test)
{
	struct mrc_evset *evs = evset(test, 4, 1, 8, 21);
	struct mrc_ev_change chg;
	u32 s, good = evs->slot[5], k;

	for (s = 0; s < evs->nslots; s++)
		if (evs->slot[s] != good)
			signal(evs, evs->slot[s], MRC_EV_SIG_DENY, &chg);
	KUNIT_ASSERT_EQ(test, 1, mrc_evset_usable(evs));
	for (k = 0; k < 4000; k++)
		KUNIT_ASSERT_EQ(test, (int)good, mrc_evset_next(evs, 0xf));
}

/* profile @pf after @ch: the error and, if refused, that nothing moved */
static int ev_profile_step(struct kunit *test, struct mrc_ev_profile *pf,
			   const struct mrc_ev_profile_change *ch)
{
	struct mrc_ev_profile before = *pf;
	const char *why;
	int err;

	why = mrc_ev_profile_apply(pf, ch, &err);
	KUNIT_EXPECT_EQ(test, !!why, !!err);
	if (err) {
		KUNIT_EXPECT_EQ(test, pf->hdr.state, before.hdr.state);
		KUNIT_EXPECT_EQ(test, pf->has, before.has);
		KUNIT_EXPECT_EQ(test, pf->count, before.count);
		KUNIT_EXPECT_EQ(test, pf->min_active, before.min_active);
		KUNIT_EXPECT_EQ(test, pf->event_mask, before.event_mask);
	}
	return err;
}

/*
 * The OCP API's EV profile states: init -> offline with a mode and a
 * count, to online with the floor and the event mask (the floor at most
 * the count), online only back to offline and not while QPs are bound,
 * init forgets everything.
 */
static void profile_states(struct kunit *test)
{
	struct mrc_ev_profile pf = { .hdr.state = MRC_CC_PROFILE_STATE_INIT };
	struct mrc_ev_profile_change ch = {};
	const u8 mc = MRC_EV_PROFILE_HAS_MODE | MRC_EV_PROFILE_HAS_COUNT;

	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), 0);
	/* init: offline needs the mode and the count; not online at once */
	ch = (struct mrc_ev_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_OFFLINE,
		.set = MRC_EV_PROFILE_HAS_MODE };
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EINVAL);
	ch.set = mc | MRC_EV_PROFILE_HAS_MIN_ACTIVE |
		 MRC_EV_PROFILE_HAS_EVENT_MASK;
	ch.count = 16;
	ch.min_active = 4;
	ch.event_mask = MRC_EV_EVENT_ASSUMED_BAD;
	ch.state = MRC_CC_PROFILE_STATE_ONLINE;
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EINVAL);
	ch = (struct mrc_ev_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_OFFLINE, .set = mc, .count = 16 };
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), 0);
	KUNIT_EXPECT_EQ(test, pf.hdr.state, MRC_CC_PROFILE_STATE_OFFLINE);
	KUNIT_EXPECT_EQ(test, pf.count, 16);
	/* offline: online needs the floor and the mask; a floor over the count */
	ch = (struct mrc_ev_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_ONLINE,
		.set = MRC_EV_PROFILE_HAS_MIN_ACTIVE, .min_active = 4 };
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EINVAL);
	ch.set |= MRC_EV_PROFILE_HAS_EVENT_MASK;
	ch.event_mask = MRC_EV_EVENT_GOOD | MRC_EV_EVENT_ASSUMED_BAD;
	ch.min_active = 17;
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EINVAL);
	ch.min_active = 16;
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), 0);
	KUNIT_EXPECT_EQ(test, pf.hdr.state, MRC_CC_PROFILE_STATE_ONLINE);
	KUNIT_EXPECT_EQ(test, pf.min_active, 16);
	/* online: nothing changes, no init; offline not while QPs are bound */
	ch = (struct mrc_ev_profile_change){ .set = MRC_EV_PROFILE_HAS_COUNT,
		.count = 32 };
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EINVAL);
	ch = (struct mrc_ev_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_INIT };
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EINVAL);
	atomic_set(&pf.hdr.qps, 1);
	ch.state = MRC_CC_PROFILE_STATE_OFFLINE;
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EBUSY);
	atomic_set(&pf.hdr.qps, 0);
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), 0);
	/* offline: a smaller count under the floor refused; init forgets */
	ch = (struct mrc_ev_profile_change){ .set = MRC_EV_PROFILE_HAS_COUNT,
		.count = 8 };
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EINVAL);
	ch = (struct mrc_ev_profile_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_INIT };
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), 0);
	KUNIT_EXPECT_EQ(test, pf.hdr.state, MRC_CC_PROFILE_STATE_INIT);
	KUNIT_EXPECT_EQ(test, pf.has, 0);
	KUNIT_EXPECT_EQ(test, pf.count, 0);
	ch.state = MRC_CC_PROFILE_STATE_ONLINE;
	KUNIT_EXPECT_EQ(test, ev_profile_step(test, &pf, &ch), -EINVAL);
}

static struct kunit_case mrc_ev_cases[] = {
	KUNIT_CASE(split),
	KUNIT_CASE(subset),
	KUNIT_CASE(rotation_fair),
	KUNIT_CASE(rotation_skips_down_planes),
	KUNIT_CASE(peer_planes),
	KUNIT_CASE(peer_status_order),
	KUNIT_CASE(seeds_differ),
	KUNIT_CASE(loss_takes_backup),
	KUNIT_CASE(reverse_set),
	KUNIT_CASE(loss_run),
	KUNIT_CASE(udp_not_exact),
	KUNIT_CASE(path_failure),
	KUNIT_CASE(floor_holds),
	KUNIT_CASE(probes_recover),
	KUNIT_CASE(probe_after_bad),
	KUNIT_CASE(probe_schedule),
	KUNIT_CASE(skip_one_round),
	KUNIT_CASE(trim_penalty),
	KUNIT_CASE(deny_allow),
	KUNIT_CASE(last_usable),
	KUNIT_CASE(profile_states),
	{}
};

static struct kunit_suite mrc_ev_suite = {
	.name = "mrc_ev",
	.test_cases = mrc_ev_cases,
};

kunit_test_suite(mrc_ev_suite);
