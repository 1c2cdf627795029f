// SPDX-License-Identifier: GPL-2.0
/*
 * EV sets: building them, the rotation, and the EV state machine with its
 * backups and floor (mrc_ev.h). Pure logic under the QP's lock, so KUnit
 * can drive it; the completer (mrc_comp.c) feeds it losses, ECN marks and
 * probe answers, netlink the operator's deny/allow.
 */
#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/slab.h>

#include "mrc_ev.h"
#include "mrc_psn.h"

static void ev_init(struct mrc_evset *evs, const struct mrc_pathset *ps,
		    u32 i, u8 plane, u8 path, u32 salt, s16 slot)
{
	struct mrc_ev *e = &evs->ev[i];

	e->exact = ps->paths[path]->cfg.mode != MRC_PATH_MODE_UDP;
	e->plane = plane;
	e->path = path;
	e->entry = MRC_EV_NO_ENTRY;
	e->state = MRC_EV_STATE_GOOD;
	e->slot = slot;
	e->value = mrc_ev_make(plane, path, salt, i);
}

/* an EV set of @total EVs, @per slots on each of @planes planes */
static struct mrc_evset *evset_alloc(u32 total, u32 per, u32 planes,
				     u32 seed, gfp_t gfp)
{
	struct mrc_evset *evs;
	u32 k;

	evs = kvzalloc(struct_size(evs, ev, total), gfp);
	if (!evs)
		return NULL;
	evs->n = total;
	evs->nslots = per * planes;
	evs->per = per;
	evs->min_active = max_t(u32, evs->nslots / 2, 1);
	evs->peer_up = U16_MAX;
	for (k = 0; k < MRC_MAX_PLANES; k++)
		evs->rev[k] = -1;
	prandom_seed_state(&evs->rnd, seed);
	return evs;
}

/**
 * mrc_evset_build() - the EV set of a QP connecting over @ps
 * @ps: the peer's path set
 * @n: rotation slots wanted (the device profile), 1..MRC_MAX_EVS
 * @seed: seeds the QP's generator (path offsets, salt, permutations)
 * @gfp: allocation flags
 *
 * Every plane with paths gets n / planes slots (at least one); their EVs
 * name the plane's paths round robin from a random first one, so a plane
 * with more paths than slots uses a random subset and one with fewer uses
 * each path equally often. A plane with more than one path also gets as
 * many backups (as far as MRC_MAX_EVS allows), continuing the round robin,
 * so that losing one of two paths can be made up in full.
 *
 * Return: the set (mrc_evset_free()), or NULL (no memory, or @ps has no
 * paths).
 */
struct mrc_evset *mrc_evset_build(const struct mrc_pathset *ps, u32 n,
				  u32 seed, gfp_t gfp)
{
	u16 first[MRC_MAX_PLANES] = {}, cnt[MRC_MAX_PLANES] = {};
	u32 off[MRC_MAX_PLANES] = {};
	u32 i, j, k, planes = 0, per, nslots, nb, total, salt;
	struct mrc_evset *evs;

	for (i = 0; i < ps->npaths; i++) {
		k = ps->paths[i]->cfg.plane;
		if (!cnt[k]++) {
			first[k] = i;
			planes++;
		}
	}
	if (!planes)
		return NULL;
	per = max(min_t(u32, n, MRC_MAX_EVS) / planes, 1u);
	nslots = per * planes;
	nb = min(per, (MRC_MAX_EVS - nslots) / planes);
	total = nslots;
	for (k = 0; k < MRC_MAX_PLANES; k++)
		if (cnt[k] > 1)
			total += nb;
	evs = evset_alloc(total, per, planes, seed, gfp);
	if (!evs)
		return NULL;
	salt = prandom_u32_state(&evs->rnd);
	i = 0;
	for (k = 0; k < MRC_MAX_PLANES; k++) {
		if (!cnt[k])
			continue;
		off[k] = prandom_u32_state(&evs->rnd) % cnt[k];
		evs->rev[k] = i;
		for (j = 0; j < per; j++, i++) {
			ev_init(evs, ps, i, k, first[k] + (off[k] + j) % cnt[k],
				salt, i);
			evs->slot[i] = i;
			evs->order[i] = i;
		}
	}
	for (k = 0; k < MRC_MAX_PLANES; k++) {
		if (cnt[k] < 2)
			continue;
		for (j = 0; j < nb; j++, i++)
			ev_init(evs, ps, i, k,
				first[k] + (off[k] + per + j) % cnt[k], salt, -1);
	}
	return evs;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_build);

/* the @j-th candidate of plane @k, from a list of @nc */
static const struct mrc_ev_cand *cand_of(const struct mrc_ev_cand *c, u32 nc,
					 u32 k, u32 j)
{
	u32 i;

	for (i = 0; i < nc; i++)
		if (c[i].plane == k && !j--)
			return &c[i];
	return NULL;
}

/**
 * mrc_evset_build_list() - the EV set of a QP whose EVs an EV profile lists
 * @ps: the path set the candidates' paths are in
 * @c: the candidates: each an EV on a path of @ps
 * @nc: how many, 1..MRC_MAX_EVS
 * @seed: seeds the QP's generator
 * @gfp: allocation flags
 *
 * Every plane with candidates gets as many slots as the plane with the
 * fewest has, filled round robin from a random first one; the rest of
 * each plane's wait as backups. A candidate with a fixed value puts it on
 * the wire as it is (mrc_evset_find() then searches), the others get
 * mrc's own. Denied candidates start DENIED, out of the rotation.
 *
 * Return: the set (mrc_evset_free()), or NULL (no memory, or no candidate)
 */
struct mrc_evset *mrc_evset_build_list(const struct mrc_pathset *ps,
				       const struct mrc_ev_cand *c, u32 nc,
				       u32 seed, gfp_t gfp)
{
	u32 i, j, k, planes = 0, per = MRC_MAX_EVS, salt, off, s;
	DECLARE_BITMAP(deny, MRC_MAX_EVS) = {};
	u16 cnt[MRC_MAX_PLANES] = {};
	struct mrc_ev_change chg;
	struct mrc_evset *evs;

	nc = min_t(u32, nc, MRC_MAX_EVS);
	for (i = 0; i < nc; i++)
		if (!cnt[c[i].plane]++)
			planes++;
	if (!planes)
		return NULL;
	for (k = 0; k < MRC_MAX_PLANES; k++)
		if (cnt[k])
			per = min_t(u32, per, cnt[k]);
	evs = evset_alloc(nc, per, planes, seed, gfp);
	if (!evs)
		return NULL;
	salt = prandom_u32_state(&evs->rnd);
	for (i = 0, s = 0; s < 2; s++) {
		for (k = 0; k < MRC_MAX_PLANES; k++) {
			if (!cnt[k])
				continue;
			off = prandom_u32_state(&evs->rnd) % cnt[k];
			if (!s)
				evs->rev[k] = i;
			for (j = s ? per : 0; j < (s ? cnt[k] : per); j++, i++) {
				const struct mrc_ev_cand *x =
					cand_of(c, nc, k, (off + j) % cnt[k]);

				ev_init(evs, ps, i, k, x->path, salt, s ? -1 : i);
				evs->ev[i].entry = x->entry;
				if (x->fixed) {
					evs->ev[i].value = x->value;
					evs->fixed = true;
				}
				if (x->denied)
					__set_bit(i, deny);
				if (!s) {
					evs->slot[i] = i;
					evs->order[i] = i;
				}
			}
		}
	}
	for_each_set_bit(i, deny, nc)
		mrc_evset_signal(evs, i, MRC_EV_SIG_DENY, &chg);
	return evs;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_build_list);

void mrc_evset_free(struct mrc_evset *evs)
{
	kvfree(evs);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_free);

static bool usable(const struct mrc_ev *e)
{
	return e->state == MRC_EV_STATE_GOOD || e->state == MRC_EV_STATE_SKIP;
}

/* Fisher-Yates over the @n entries of @a that are @stride apart */
static void shuffle(struct rnd_state *rnd, u8 *a, u32 n, u32 stride)
{
	u32 i, j;

	for (i = n ? n - 1 : 0; i > 0; i--) {
		j = prandom_u32_state(rnd) % (i + 1);
		swap(a[i * stride], a[j * stride]);
	}
}

/*
 * A new round: a new order, and a SKIP EV has one round less to sit out. The order
 * stripes the planes: every run of as many packets as there are planes
 * takes one slot of each, the planes in a random order, and each plane
 * walks its own slots in a random order. Equal planes then stay evenly
 * loaded over any few packets, not only over a whole round: with a random
 * order alone, a plane that got fewer of a window's packets idles while
 * the window waits on the others' queues.
 */
static void new_round(struct mrc_evset *evs)
{
	u32 np = evs->nslots / evs->per, b, j;

	for (b = 0; b < np; b++)
		for (j = 0; j < evs->per; j++)
			evs->order[j * np + b] = b * evs->per + j;
	for (b = 0; b < np; b++)
		shuffle(&evs->rnd, &evs->order[b], evs->per, np);
	for (j = 0; j < evs->per; j++)
		shuffle(&evs->rnd, &evs->order[j * np], np, 1);
	for (j = 0; j < evs->n; j++) {
		struct mrc_ev *e = &evs->ev[j];

		if (e->state != MRC_EV_STATE_SKIP)
			continue;
		if (e->penalty > 1) {
			e->penalty--;
			continue;
		}
		e->penalty = 0;
		e->state = MRC_EV_STATE_GOOD;
	}
}

/* The planes up here and at the peer; ours alone if none is up at both */
static u16 reachable(const struct mrc_evset *evs, u16 planes_up)
{
	return planes_up & evs->peer_up ? planes_up & evs->peer_up : planes_up;
}

/**
 * mrc_evset_next() - the EV for the next packet
 * @evs: the QP's EV set
 * @planes_up: bit k set when plane k can carry packets
 *
 * Walks the round's permutation of the slots, skipping those whose EV is
 * not GOOD or whose plane is down, here or at the peer (its port status,
 * mrc_evset_peer_planes()); a new round starts with a new permutation.
 * When a whole walk finds no GOOD EV but SKIP ones, the first of those
 * carries the packet: a penalty steers, it never stops the QP.
 * When no plane is up at both ends, the peer's word is ignored: it is
 * stale, since it came over one of them.
 *
 * Return: index in @evs->ev, or -ENETUNREACH when no EV is usable.
 */
int mrc_evset_next(struct mrc_evset *evs, u16 planes_up)
{
	int skipped = -ENETUNREACH;
	u32 tries;

	planes_up = reachable(evs, planes_up);
	for (tries = 0; tries < evs->nslots; tries++) {
		const struct mrc_ev *e;
		u32 i;

		if (!evs->cursor)
			new_round(evs);
		i = evs->slot[evs->order[evs->cursor]];
		if (++evs->cursor == evs->nslots)
			evs->cursor = 0;
		e = &evs->ev[i];
		if (!(planes_up & BIT(e->plane)))
			continue;
		if (e->state == MRC_EV_STATE_GOOD)
			return i;
		if (e->state == MRC_EV_STATE_SKIP && skipped < 0)
			skipped = i;
	}
	/* every usable one sits out a penalty: the first met still works */
	if (skipped >= 0)
		return skipped;
	/*
	 * A new round mid-walk reshuffled the order, and the walk may have
	 * missed the few usable slots there are: look at each once
	 */
	for (tries = 0; tries < evs->nslots; tries++) {
		const struct mrc_ev *e = &evs->ev[evs->slot[tries]];

		if ((planes_up & BIT(e->plane)) && usable(e))
			return evs->slot[tries];
	}
	return -ENETUNREACH;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_next);

/**
 * mrc_evset_peer_planes() - the peer's port status: its planes up
 * @evs: the QP's EV set
 * @up: bit k set while the peer's plane k is up; 0 (not reported) is
 *	taken as all
 *
 * EVs towards a peer's plane that is down stay in their slots and their
 * state, and are skipped while it is down, as for a local plane: a plane
 * that comes back is used again at once, with no probe.
 *
 * Return: true when the peer's port status changed.
 */
bool mrc_evset_peer_planes(struct mrc_evset *evs, u16 up)
{
	if (!up)
		up = U16_MAX;
	if (up == evs->peer_up)
		return false;
	evs->peer_up = up;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_peer_planes);

/**
 * mrc_evset_peer_status() - the port status a SACK carries
 * @evs: the QP's EV set
 * @up: the port status, as for mrc_evset_peer_planes()
 * @cack: the SACK's cumulative ack PSN
 *
 * SACKs on different planes overtake each other, and an old one would take
 * back a plane that has come up (or down) since. The responder's cumulative
 * ack never goes back, so a SACK whose @cack is below that of the one the
 * status was last taken from is older: its word is ignored.
 *
 * Return: true when the peer's port status changed.
 */
bool mrc_evset_peer_status(struct mrc_evset *evs, u16 up, u32 cack)
{
	if (evs->peer_heard && mrc_psn_diff(cack, evs->peer_cack) < 0)
		return false;
	evs->peer_heard = true;
	evs->peer_cack = cack;
	return mrc_evset_peer_planes(evs, up);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_peer_status);

/* Slots whose EV may carry packets (GOOD or SKIP) */
u32 mrc_evset_usable(const struct mrc_evset *evs)
{
	u32 s, n = 0;

	for (s = 0; s < evs->nslots; s++)
		n += usable(&evs->ev[evs->slot[s]]);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_usable);

static void set_state(struct mrc_evset *evs, struct mrc_ev *e, u8 state)
{
	e->loss_run = 0;
	e->penalty = 0;
	if (e->state == MRC_EV_STATE_ASSUMED_BAD)
		evs->nbad--;
	if (state == MRC_EV_STATE_ASSUMED_BAD) {
		evs->nbad++;
		e->probes_ok = 0;
		e->probe_backoff = 0;
	}
	e->state = state;
}

static void put_in_slot(struct mrc_evset *evs, u32 i, u32 s)
{
	evs->ev[evs->slot[s]].slot = -1;
	evs->ev[i].slot = s;
	evs->slot[s] = i;
}

/*
 * An exact (SRv6) path is down when more of its EVs are ASSUMED_BAD than
 * are usable in slots: they share one route, so its backups would only
 * lose packets until each retired in turn.
 */
static bool path_down(const struct mrc_evset *evs, u8 path)
{
	u32 i, bad = 0, live = 0;

	for (i = 0; i < evs->n; i++) {
		const struct mrc_ev *o = &evs->ev[i];

		if (o->path != path)
			continue;
		bad += o->state == MRC_EV_STATE_ASSUMED_BAD;
		live += o->slot >= 0 && usable(o);
	}
	return bad > live;
}

/*
 * A backup for @e, which leaves its slot: a GOOD EV on standby on the same
 * plane and on another path (a UDP one may share its path), picked from a
 * random start; preferably on a
 * path that no ASSUMED_BAD EV of the QP names (a path that lost packets is
 * suspect). A suspect one still beats an empty slot: the plane keeps its
 * share, and a backup on a path that is really dead soon retires too. Not
 * so on an exact path that is down (path_down()): the slot stays empty,
 * until an EV of the plane comes back.
 */
static int find_backup(struct mrc_evset *evs, const struct mrc_ev *e)
{
	DECLARE_BITMAP(suspect, MRC_MAX_PATHS);
	DECLARE_BITMAP(seen, MRC_MAX_PATHS);
	DECLARE_BITMAP(down, MRC_MAX_PATHS);
	u32 j, i, start;
	int fallback = -1;

	bitmap_zero(suspect, MRC_MAX_PATHS);
	bitmap_zero(seen, MRC_MAX_PATHS);
	bitmap_zero(down, MRC_MAX_PATHS);
	for (i = 0; i < evs->n; i++)
		if (evs->ev[i].state == MRC_EV_STATE_ASSUMED_BAD)
			__set_bit(evs->ev[i].path, suspect);
	for (i = 0; i < evs->n; i++) {
		const struct mrc_ev *b = &evs->ev[i];

		if (b->exact && b->plane == e->plane &&
		    test_bit(b->path, suspect) &&
		    !__test_and_set_bit(b->path, seen) &&
		    path_down(evs, b->path))
			__set_bit(b->path, down);
	}
	start = prandom_u32_state(&evs->rnd) % evs->n;
	for (j = 0; j < evs->n; j++) {
		const struct mrc_ev *b;

		i = (start + j) % evs->n;
		b = &evs->ev[i];
		/* a UDP EV's own value routes it: another is another route */
		if (b->slot >= 0 || b->state != MRC_EV_STATE_GOOD ||
		    b->plane != e->plane || (b->exact && b->path == e->path))
			continue;
		if (!test_bit(b->path, suspect))
			return i;
		if (fallback < 0 && !test_bit(b->path, down))
			fallback = i;
	}
	return fallback;
}

/*
 * @e leaves the rotation as @state: a backup takes its slot, or the slot
 * stays empty - unless @floor and that would leave too few usable slots.
 */
static void retire(struct mrc_evset *evs, struct mrc_ev *e, u8 state,
		   bool floor, struct mrc_ev_change *chg)
{
	u8 old = e->state;
	int b;

	set_state(evs, e, state);
	b = find_backup(evs, e);
	if (b >= 0) {
		put_in_slot(evs, b, e->slot);
		chg->backup = b;
	} else if (floor && mrc_evset_usable(evs) < evs->min_active) {
		set_state(evs, e, old);
		chg->floor = true;
	}
}

/* @e is usable again and on standby: an empty slot of its plane is its */
static void fill_slot(struct mrc_evset *evs, struct mrc_ev *e)
{
	u32 s;

	if (e->slot >= 0)
		return;
	for (s = 0; s < evs->nslots; s++) {
		const struct mrc_ev *o = &evs->ev[evs->slot[s]];

		if (o->plane == e->plane && !usable(o)) {
			put_in_slot(evs, e - evs->ev, s);
			return;
		}
	}
}

/**
 * mrc_evset_signal() - apply what was learned about EV @i
 * @evs: the QP's EV set
 * @i: index in @evs->ev
 * @sig: what happened
 * @chg: set to what changed
 *
 * ECN, DROP: GOOD -> SKIP for the rest of the round; TRIM: GOOD or SKIP
 * -> SKIP for MRC_EV_PENALTY_TRIM rounds (the longer penalty stands). LOSS: GOOD or SKIP in a
 * slot -> ASSUMED_BAD at the MRC_EV_LOSS_RUN-th loss in a row (see
 * retire()); EVs on standby only carried packets
 * before they left their slot, so their late losses say nothing new.
 * TIMEOUT, PATH_BAD: GOOD or SKIP in a slot -> ASSUMED_BAD at once: the
 * retransmission timeout found a packet on it missing, or on another EV
 * of the same exact path.
 * PROBE_OK: MRC_EV_PROBES_GOOD in a row (PROBE_LOST starts the count
 * again, and doubles the wait between probes) make an ASSUMED_BAD EV GOOD.
 * DENY / ALLOW: any state -> DENIED -> GOOD, at the operator's word only.
 *
 * Return: true when the state of EV @i changed.
 */
bool mrc_evset_signal(struct mrc_evset *evs, u32 i, enum mrc_ev_sig sig,
		      struct mrc_ev_change *chg)
{
	struct mrc_ev *e = &evs->ev[i];

	chg->old = e->state;
	chg->backup = -1;
	chg->floor = false;
	switch (sig) {
	case MRC_EV_SIG_ECN:
	case MRC_EV_SIG_DROP:
	case MRC_EV_SIG_TRIM:
		if (e->state != MRC_EV_STATE_GOOD &&
		    e->state != MRC_EV_STATE_SKIP)
			break;
		e->state = MRC_EV_STATE_SKIP;
		e->penalty = max_t(u8, e->penalty, sig == MRC_EV_SIG_TRIM ?
				   MRC_EV_PENALTY_TRIM : MRC_EV_PENALTY_ECN);
		break;
	case MRC_EV_SIG_LOSS:
		if (e->slot >= 0 && usable(e) && ++e->loss_run >= MRC_EV_LOSS_RUN)
			retire(evs, e, MRC_EV_STATE_ASSUMED_BAD, true, chg);
		break;
	case MRC_EV_SIG_TIMEOUT:
	case MRC_EV_SIG_PATH_BAD:
		if (e->slot >= 0 && usable(e))
			retire(evs, e, MRC_EV_STATE_ASSUMED_BAD, true, chg);
		break;
	case MRC_EV_SIG_PROBE_OK:
		e->probe_backoff = 0;
		if (e->state != MRC_EV_STATE_ASSUMED_BAD ||
		    ++e->probes_ok < MRC_EV_PROBES_GOOD)
			break;
		set_state(evs, e, MRC_EV_STATE_GOOD);
		fill_slot(evs, e);
		break;
	case MRC_EV_SIG_PROBE_LOST:
		e->probes_ok = 0;
		if (e->probe_backoff < MRC_EV_PROBE_BACKOFF_MAX)
			e->probe_backoff++;
		break;
	case MRC_EV_SIG_DENY:
		if (e->state == MRC_EV_STATE_DENIED)
			break;
		if (e->slot >= 0)
			retire(evs, e, MRC_EV_STATE_DENIED, false, chg);
		else
			set_state(evs, e, MRC_EV_STATE_DENIED);
		break;
	case MRC_EV_SIG_ALLOW:
		if (e->state != MRC_EV_STATE_DENIED)
			break;
		set_state(evs, e, MRC_EV_STATE_GOOD);
		fill_slot(evs, e);
		break;
	}
	chg->new = e->state;
	return chg->new != chg->old;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_signal);

/* @e's probe went unanswered: for every EV of its path, if it is exact */
static void probe_lost(struct mrc_evset *evs, struct mrc_ev *e)
{
	struct mrc_ev_change chg;
	u32 i;

	e->probe_wait = false;
	for (i = 0; i < evs->n; i++) {
		const struct mrc_ev *o = &evs->ev[i];

		if (o == e || (e->exact && o->exact && o->path == e->path &&
			       o->state == MRC_EV_STATE_ASSUMED_BAD))
			mrc_evset_signal(evs, i, MRC_EV_SIG_PROBE_LOST, &chg);
	}
}

/* Twice the EV's RTT (at least @gap_us), doubled per probe lost, capped */
static u32 probe_wait_us(const struct mrc_ev *e, u32 gap_us)
{
	u32 base = max(gap_us, 2 * e->srtt_us);

	return max_t(u32, base, min_t(u64, (u64)base << e->probe_backoff,
				      MRC_EV_PROBE_WAIT_MAX_US));
}

/**
 * mrc_evset_probes() - the ASSUMED_BAD EVs to probe now
 * @evs: the QP's EV set
 * @now: the time, us
 * @gap_us: the base wait between two probes of one EV (twice its own RTT
 *	if that is longer)
 * @planes_up: bit k set when plane k can carry packets
 * @out: filled with indexes in @evs->ev
 * @max: room in @out: the most probes one QP sends at once
 *
 * An EV is due when its wait is over and its plane is up here and at the
 * peer (a probe into a plane known down proves nothing). A probe still
 * unanswered by then was lost (MRC_EV_SIG_PROBE_LOST: the count of
 * answered ones starts again and the wait doubles, up to
 * MRC_EV_PROBE_BACKOFF_MAX times and at most to MRC_EV_PROBE_WAIT_MAX_US,
 * so that a path that heals is found soon). The EVs of one exact (SRv6)
 * path share its fate, so one probe at a time tests the path for all of
 * them (the requester applies the answer to each); a path with a probe
 * under way is not probed again. The scan starts after the last EV
 * probed, so that with more due than @max every one gets its turn.
 *
 * Return: how many indexes were put in @out; each is marked as waiting
 * for its answer.
 */
u32 mrc_evset_probes(struct mrc_evset *evs, u32 now, u32 gap_us,
		     u16 planes_up, u8 *out, u32 max)
{
	DECLARE_BITMAP(busy, MRC_MAX_PATHS);
	u16 up = reachable(evs, planes_up);
	u32 i, j, k = 0;

	if (!evs->nbad)
		return 0;
	/* first the verdict on the probes under way, then the new ones */
	for (i = 0; i < evs->n; i++) {
		struct mrc_ev *e = &evs->ev[i];

		if (e->state == MRC_EV_STATE_ASSUMED_BAD && e->probe_wait &&
		    (s32)(now - e->probe_us) >= 0)
			probe_lost(evs, e);
	}
	bitmap_zero(busy, MRC_MAX_PATHS);
	for (i = 0; i < evs->n; i++) {
		const struct mrc_ev *e = &evs->ev[i];

		if (e->state == MRC_EV_STATE_ASSUMED_BAD && e->exact &&
		    e->probe_wait)
			__set_bit(e->path, busy);
	}
	for (j = 0; j < evs->n && k < max; j++) {
		struct mrc_ev *e;

		i = (evs->probe_cursor + j) % evs->n;
		e = &evs->ev[i];
		if (e->state != MRC_EV_STATE_ASSUMED_BAD ||
		    (s32)(now - e->probe_us) < 0 || !(up & BIT(e->plane)))
			continue;
		if (e->exact && test_bit(e->path, busy))
			continue;
		if (e->exact)
			__set_bit(e->path, busy);
		e->probe_wait = true;
		e->probe_us = now + probe_wait_us(e, gap_us);
		out[k++] = i;
	}
	if (k)
		evs->probe_cursor = (out[k - 1] + 1) % evs->n;
	return k;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_probes);

/*
 * The reverse EV set (MRC 1.0 section 2.4): ACKs, SACKs and NAKs need
 * paths too, but a QP that only receives learns nothing of its EVs from
 * its own data. It keeps one EV per plane, the last one of the plane shown
 * to reach the peer: a data packet on it was acknowledged (a QP that also
 * sends refreshes the set all the time), or a probe on it was answered (a
 * QP that only receives probes a random EV now and then). An EV that dies
 * is replaced as soon as another of its plane gets through.
 */

/**
 * mrc_evset_reverse() - the EV for the next ACK, SACK or NAK
 * @evs: the QP's EV set
 * @planes_up: bit k set when plane k can carry packets
 *
 * Takes the planes up here and at the peer in turn, each with its reverse
 * EV, if it has one that is not ASSUMED_BAD or DENIED; with none, the
 * next EV of the rotation.
 *
 * Return: index in @evs->ev, or -ENETUNREACH when no EV is usable.
 */
int mrc_evset_reverse(struct mrc_evset *evs, u16 planes_up)
{
	u16 up = reachable(evs, planes_up);
	u32 tries;

	for (tries = 0; tries < MRC_MAX_PLANES; tries++) {
		u32 k = evs->rev_cursor;

		evs->rev_cursor = (k + 1) % MRC_MAX_PLANES;
		if ((up & BIT(k)) && evs->rev[k] >= 0 &&
		    usable(&evs->ev[evs->rev[k]]))
			return evs->rev[k];
	}
	return mrc_evset_next(evs, planes_up);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_reverse);

/**
 * mrc_evset_rev_adopt() - EV @i was shown to reach the peer
 * @evs: the QP's EV set
 * @i: index in @evs->ev
 *
 * It becomes its plane's reverse EV, unless it is ASSUMED_BAD or DENIED.
 */
void mrc_evset_rev_adopt(struct mrc_evset *evs, u32 i)
{
	const struct mrc_ev *e = &evs->ev[i];

	if (usable(e))
		evs->rev[e->plane] = i;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_rev_adopt);

/**
 * mrc_evset_rev_candidate() - an EV to probe for the reverse set
 * @evs: the QP's EV set
 * @planes_up: bit k set when plane k can carry packets
 *
 * Takes the planes up here and at the peer in turn, and picks a random
 * usable EV in a slot of the plane; if it answers, mrc_evset_rev_adopt()
 * makes it the plane's reverse EV.
 *
 * Return: index in @evs->ev, or -ENOENT when no plane has a usable EV.
 */
int mrc_evset_rev_candidate(struct mrc_evset *evs, u16 planes_up)
{
	u16 up = reachable(evs, planes_up);
	u32 tries, s, n, pick;

	for (tries = 0; tries < MRC_MAX_PLANES; tries++) {
		u32 k = evs->rev_probe;

		evs->rev_probe = (k + 1) % MRC_MAX_PLANES;
		if (!(up & BIT(k)))
			continue;
		for (n = 0, s = 0; s < evs->nslots; s++) {
			const struct mrc_ev *e = &evs->ev[evs->slot[s]];

			n += e->plane == k && usable(e);
		}
		if (!n)
			continue;
		pick = prandom_u32_state(&evs->rnd) % n;
		for (s = 0; s < evs->nslots; s++) {
			const struct mrc_ev *e = &evs->ev[evs->slot[s]];

			if (e->plane == k && usable(e) && !pick--)
				return evs->slot[s];
		}
	}
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_evset_rev_candidate);
