// SPDX-License-Identifier: GPL-2.0
/*
 * EV profiles, as the OCP MRC controller API has them: a device keeps up
 * to MRC_MAX_EV_PROFILES (mrc_profile.h), going init -> offline -> online
 * and back (ev-profile-set, mrc_nl_ev_profile.c). A QP bound to one (its
 * uverbs method, mrc_uapi.c) takes its EVs from it when it connects:
 *   AUTO: its peer's path set, as any QP, with the profile's count and
 *         floor;
 *   EXP, GEN: the profile's EV array, each EV expanded through the
 *         profile's fields into its format (mrc_ev_fmt.c) when the
 *         profile goes online. An srv6 format makes each EV a path of its
 *         own (a uSID container, and an SRH segment past 128 bits); stev
 *         and udp formats make it the entropy on the wire, towards the
 *         peer's udp path on the EV's plane.
 * Its EV state changes name the profile and its event mask.
 *
 * Writers of the table and of a QP's binding, and readers of the table,
 * hold the device's cfg_lock; a bound QP reads its profile without one.
 */
#include <kunit/visibility.h>

#include "mrc.h"

/**
 * mrc_ev_profile_apply() - a profile's next state, by the OCP API's rules
 * @pf: the profile (state INIT if new); changed only on success
 * @ch: what the controller asks
 * @err: 0, -EINVAL or -EBUSY
 *
 * Return: NULL, or why the change is refused (with @err)
 */
const char *mrc_ev_profile_apply(struct mrc_ev_profile *pf,
				 const struct mrc_ev_profile_change *ch,
				 int *err)
{
	u8 to = ch->set_state ? ch->state : pf->hdr.state;
	struct mrc_ev_profile next = *pf;

	*err = -EINVAL;
	switch (pf->hdr.state) {
	case MRC_CC_PROFILE_STATE_INIT:
		if (to == MRC_CC_PROFILE_STATE_INIT && !ch->set)
			break;
		if (to != MRC_CC_PROFILE_STATE_OFFLINE ||
		    (ch->set & (MRC_EV_PROFILE_HAS_MODE | MRC_EV_PROFILE_HAS_COUNT)) !=
		    (MRC_EV_PROFILE_HAS_MODE | MRC_EV_PROFILE_HAS_COUNT))
			return "from init a profile goes offline, with a mode and a count";
		break;
	case MRC_CC_PROFILE_STATE_OFFLINE:
		break;
	case MRC_CC_PROFILE_STATE_ONLINE:
		if (ch->set || ch->nreplace || to == MRC_CC_PROFILE_STATE_INIT)
			return "an online profile only goes offline";
		if (to == MRC_CC_PROFILE_STATE_OFFLINE && atomic_read(&pf->hdr.qps)) {
			*err = -EBUSY;
			return "QPs are bound to the profile";
		}
		break;
	}
	next.has |= ch->set;
	if (ch->set & MRC_EV_PROFILE_HAS_MODE)
		next.mode = ch->mode;
	if (ch->set & MRC_EV_PROFILE_HAS_COUNT)
		next.count = ch->count;
	if (ch->set & MRC_EV_PROFILE_HAS_MIN_ACTIVE)
		next.min_active = ch->min_active;
	if (ch->set & MRC_EV_PROFILE_HAS_EVENT_MASK)
		next.event_mask = ch->event_mask;
	if (ch->set & MRC_EV_PROFILE_HAS_FMT)
		next.fmt_id = ch->fmt_id;
	if (ch->set & MRC_EV_PROFILE_HAS_FIELDS) {
		next.nfields = ch->nfields;
		memcpy(next.fields, ch->fields, sizeof(next.fields));
	}
	if (to != MRC_CC_PROFILE_STATE_INIT && mrc_ev_profile_listed(&next) &&
	    !(next.has & MRC_EV_PROFILE_HAS_FMT))
		return "an exp or gen profile names its format (fmt-id)";
	if (to != MRC_CC_PROFILE_STATE_INIT &&
	    next.mode == MRC_EV_PROFILE_MODE_GEN &&
	    !(next.has & MRC_EV_PROFILE_HAS_FIELDS))
		return "a gen profile needs its fields";
	if (ch->nreplace && next.mode != MRC_EV_PROFILE_MODE_EXP)
		return "EVs are replaced in exp profiles only";
	if (to == MRC_CC_PROFILE_STATE_ONLINE &&
	    (!(next.has & MRC_EV_PROFILE_HAS_MIN_ACTIVE) ||
	     !(next.has & MRC_EV_PROFILE_HAS_EVENT_MASK)))
		return "a profile goes online with its floor (min-active) and event mask";
	if ((next.has & MRC_EV_PROFILE_HAS_MIN_ACTIVE) &&
	    next.min_active > next.count)
		return "min-active is more than the count";
	*err = 0;
	if (to == MRC_CC_PROFILE_STATE_INIT) {
		next.has = 0;
		next.mode = 0;
		next.count = 0;
		next.min_active = 0;
		next.event_mask = 0;
		next.fmt_id = 0;
		next.nfields = 0;
		memset(next.fields, 0, sizeof(next.fields));
	}
	pf->hdr.state = to;
	pf->has = next.has;
	pf->mode = next.mode;
	pf->count = next.count;
	pf->min_active = next.min_active;
	pf->event_mask = next.event_mask;
	pf->fmt_id = next.fmt_id;
	pf->nfields = next.nfields;
	memcpy(pf->fields, next.fields, sizeof(pf->fields));
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_ev_profile_apply);

/* the profile of id @id, or NULL; id 0: a free slot; cfg_lock held */
struct mrc_ev_profile *mrc_ev_profile_find(struct mrc_dev *mdev, u64 id)
{
	lockdep_assert_held(&mdev->cfg_lock);
	return mrc_profile_find_in(mdev->ev_profiles, id);
}

/* does @ev have bits set past its first @bits? */
static bool ev_overflows(const u8 *ev, u32 bits)
{
	u32 i;

	for (i = bits; i < MRC_EV_BITS; i++)
		if (ev[i / 8] & (0x80 >> (i % 8)))
			return true;
	return false;
}

/* the bits of an EV of @pf: its fields' (or, none given, its format's) */
static u32 ev_bits(const struct mrc_ev_profile *pf, const struct mrc_ev_fmt *fmt)
{
	struct mrc_ev_field def[MRC_MAX_EV_FIELDS];
	u8 n;

	if (pf->nfields)
		return mrc_ev_fields_bits(pf->fields, pf->nfields);
	mrc_ev_fields_default(fmt, def, &n);
	return mrc_ev_fields_bits(def, n);
}

/* apply the replacements of @ch to @arr (@n places), EVs of @bits bits */
static int replace_evs(struct mrc_ev_entry *arr, u32 n, u32 bits,
		       const struct mrc_ev_profile_change *ch,
		       struct netlink_ext_ack *extack)
{
	u32 r, i, hits;

	for (r = 0; r < ch->nreplace; r++) {
		const struct mrc_ev_replace *x = &ch->replace[r];

		if (ev_overflows(x->new, bits)) {
			NL_SET_ERR_MSG_FMT(extack, "replacement %u: the EV is over %u bits",
					   r, bits);
			return -EINVAL;
		}

		for (i = 0, hits = 0; i < n && (x->all || !hits); i++) {
			if (arr[i].port != x->old_port ||
			    memcmp(arr[i].val, x->old, MRC_EV_BYTES))
				continue;
			memcpy(arr[i].val, x->new, MRC_EV_BYTES);
			arr[i].port = x->new_port;
			arr[i].denied = x->denied;
			hits++;
		}
		if (!hits) {
			NL_SET_ERR_MSG_FMT(extack, "replacement %u: no such EV on port %u",
					   r, x->old_port);
			return -ENOENT;
		}
	}
	return 0;
}

/* a profile going online, its array @arr as it will be */
struct online {
	struct mrc_pathset *ps;
	u8 *path_entry;
};

/* srv6: a path per place, sorted by plane (mrc_evset_build_list()) */
static int compile_paths(struct mrc_ev_profile *next, const struct mrc_ev_fmt *fmt,
			 struct mrc_ev_entry *arr, struct online *on,
			 struct netlink_ext_ack *extack)
{
	u32 i, k, np = 0, bits = 0;
	struct mrc_path_cfg *cfg;
	u8 out[MRC_EV_BYTES];
	const char *why;
	int err = 0;

	for (i = 0; i < fmt->nwidths; i++)
		bits += fmt->width[i];
	cfg = kvcalloc(next->count, sizeof(*cfg), GFP_KERNEL);
	on->path_entry = kcalloc(next->count, 1, GFP_KERNEL);
	if (!cfg || !on->path_entry) {
		err = -ENOMEM;
		goto out;
	}
	for (k = 0; k < MRC_MAX_PLANES; k++) {
		for (i = 0; i < next->count; i++) {
			struct mrc_path_cfg *c = &cfg[np];

			if (arr[i].port != k + 1)
				continue;
			mrc_ev_expand(fmt, next->fields, next->nfields,
				      arr[i].val, out);
			c->plane = k;
			c->lblen = fmt->width[0];
			c->nflen = fmt->nwidths > 1 ? fmt->width[1] : 16;
			if (bits > 128) {
				c->mode = MRC_PATH_MODE_SRH;
				c->nsegs = 2;
				memcpy(&c->segs[0], out, 16);
				memcpy(&c->segs[1], out + 16, 16);
			} else {
				c->mode = MRC_PATH_MODE_USID;
				memcpy(&c->usid, out, 16);
			}
			err = mrc_path_cfg_check(c, &why);
			if (err) {
				NL_SET_ERR_MSG_FMT(extack, "EV %u: %s", i, why);
				goto out;
			}
			on->path_entry[np++] = i;
		}
	}
	on->ps = mrc_pathset_make(&in6addr_any, cfg, np);
	if (!on->ps)
		err = -ENOMEM;
out:
	kvfree(cfg);
	return err;
}

/*
 * What a profile needs to go online: an online format its fields fit, a
 * full EV array (GEN: mrc fills it), and each EV made what it will be on
 * the wire or a path.
 */
static int go_online(struct mrc_dev *mdev, struct mrc_ev_profile *next,
		     const struct mrc_ev_fmt *fmt, struct mrc_ev_entry *arr,
		     struct online *on, struct netlink_ext_ack *extack)
{
	bool gen = next->mode == MRC_EV_PROFILE_MODE_GEN;
	u8 ports[MRC_MAX_PLANES], out[MRC_EV_BYTES];
	u32 i, nports = 0, bits;
	const char *why;

	if (fmt->hdr.state != MRC_CC_PROFILE_STATE_ONLINE) {
		NL_SET_ERR_MSG_FMT(extack, "format %llu is not online", next->fmt_id);
		return -EINVAL;
	}
	if (!next->nfields)
		mrc_ev_fields_default(fmt, next->fields, &next->nfields);
	why = mrc_ev_fields_check(next->fields, next->nfields, fmt, gen);
	if (why) {
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return -EINVAL;
	}
	if (gen) {
		for (i = 0; i < MRC_MAX_PLANES; i++)
			if (rcu_access_pointer(mdev->planes[i]))
				ports[nports++] = i + 1;
		next->count = mrc_ev_gen(next->fields, next->nfields, ports,
					 nports, arr, next->count);
	}
	bits = mrc_ev_fields_bits(next->fields, next->nfields);
	for (i = 0; i < next->count; i++) {
		if (!arr[i].port) {
			NL_SET_ERR_MSG_FMT(extack, "EV %u of the array is not populated", i);
			return -EINVAL;
		}
		if (ev_overflows(arr[i].val, bits)) {
			NL_SET_ERR_MSG_FMT(extack, "EV %u has bits past the fields' %u", i, bits);
			return -EINVAL;
		}
		if (fmt->mode == MRC_EV_FMT_MODE_SRV6)
			continue;
		mrc_ev_expand(fmt, next->fields, next->nfields, arr[i].val, out);
		arr[i].wire = fmt->mode == MRC_EV_FMT_MODE_STEV ?
			      get_unaligned_be32(out) : get_unaligned_be16(out) << 16;
	}
	next->fmt_mode = fmt->mode;
	if (fmt->mode == MRC_EV_FMT_MODE_SRV6)
		return compile_paths(next, fmt, arr, on, extack);
	return 0;
}

/* what an online profile made for its QPs goes */
static void drop_online(struct mrc_ev_profile *pf)
{
	mrc_pathset_put(pf->ps);
	pf->ps = NULL;
	kfree(pf->path_entry);
	pf->path_entry = NULL;
}

/* the device goes: what its profile holds */
void mrc_ev_profile_release(struct mrc_ev_profile *pf)
{
	drop_online(pf);
	kvfree(pf->entries);
	pf->entries = NULL;
}

/* count format @fmt's users: EV profile @pf named it (@d -1) or names it (+1) */
static void fmt_use(struct mrc_ev_fmt *fmt, int d, bool online)
{
	if (!fmt)
		return;
	if (online)
		fmt->online_users += d;
	else
		atomic_add(d, &fmt->hdr.qps);
}

/**
 * mrc_ev_profile_set() - ev-profile-set: change profile @id of @mdev
 * @mdev: the device; cfg_lock held
 * @id: the profile's id, not 0
 * @ch: the change (mrc_ev_profile_apply(), then the replacements)
 * @extack: why a refusal
 *
 * All or nothing. A profile that goes back to init leaves the table, and
 * its id with it.
 *
 * Return: 0, -EINVAL, -ENOENT (a replacement found nothing), -EBUSY,
 * -ENOMEM or -ENOSPC (every slot taken)
 */
int mrc_ev_profile_set(struct mrc_dev *mdev, u64 id,
		       const struct mrc_ev_profile_change *ch,
		       struct netlink_ext_ack *extack)
{
	struct mrc_ev_fmt *fmt = NULL, *old_fmt = NULL;
	struct mrc_ev_profile *pf, next;
	struct mrc_ev_entry *arr = NULL;
	struct online on = {};
	bool was_on, now_on, listed;
	const char *why;
	int err;

	pf = mrc_profile_slot_in(mdev->ev_profiles, id, extack);
	if (IS_ERR(pf))
		return PTR_ERR(pf);
	memcpy(&next, pf, sizeof(next));
	why = mrc_ev_profile_apply(&next, ch, &err);
	if (why) {
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return err;
	}
	listed = mrc_ev_profile_listed(&next) &&
		 next.hdr.state != MRC_CC_PROFILE_STATE_INIT;
	was_on = pf->hdr.state == MRC_CC_PROFILE_STATE_ONLINE;
	now_on = next.hdr.state == MRC_CC_PROFILE_STATE_ONLINE;
	if (listed) {
		fmt = next.fmt_id ? mrc_ev_fmt_find(mdev, next.fmt_id) : NULL;
		if (!fmt) {
			NL_SET_ERR_MSG_FMT(extack, "format %llu is in init", next.fmt_id);
			return -EINVAL;
		}
	}
	if (ch->set & MRC_EV_PROFILE_HAS_FIELDS) {
		why = mrc_ev_fields_check(next.fields, next.nfields, fmt,
					  next.mode == MRC_EV_PROFILE_MODE_GEN);
		if (why) {
			NL_SET_ERR_MSG_FMT(extack, "%s", why);
			return -EINVAL;
		}
	}
	/*
	 * A new array (a new count or mode: all unpopulated), or a copy to
	 * change, so that a refusal changes nothing
	 */
	if (listed) {
		bool fresh = !pf->entries || next.count != pf->count ||
			     next.mode != pf->mode;
		bool copy = !fresh && (ch->nreplace || (now_on && !was_on));

		if (fresh)
			arr = kvcalloc(next.count, sizeof(*arr), GFP_KERNEL);
		else if (copy)
			arr = kvmemdup(pf->entries, next.count * sizeof(*arr),
				       GFP_KERNEL);
		if ((fresh || copy) && !arr)
			return -ENOMEM;
	}
	if (ch->nreplace) {
		err = replace_evs(arr, next.count, ev_bits(&next, fmt), ch, extack);
		if (err)
			goto fail;
	}
	if (listed && now_on && !was_on) {
		err = go_online(mdev, &next, fmt, arr, &on, extack);
		if (err)
			goto fail;
	}

	/* commit: nothing fails from here */
	if (mrc_ev_profile_listed(pf) && pf->hdr.state != MRC_CC_PROFILE_STATE_INIT)
		old_fmt = mrc_ev_fmt_find(mdev, pf->fmt_id);
	fmt_use(old_fmt, -1, false);
	fmt_use(fmt, 1, false);
	if (was_on && !now_on) {
		fmt_use(old_fmt, -1, true);
		drop_online(pf);
	}
	if (now_on && !was_on) {
		fmt_use(fmt, 1, true);
		pf->ps = on.ps;
		pf->path_entry = on.path_entry;
		pf->fmt_mode = next.fmt_mode;
	}
	if (arr || !listed) {
		kvfree(pf->entries);
		pf->entries = arr;
	}
	mrc_ev_profile_apply(pf, ch, &err);
	/* what going online settled: GEN's count, EXP's default fields */
	pf->count = next.count;
	pf->nfields = next.nfields;
	memcpy(pf->fields, next.fields, sizeof(pf->fields));
	mrc_profile_settle(&pf->hdr, id);
	return 0;
fail:
	kvfree(arr);
	mrc_pathset_put(on.ps);
	kfree(on.path_entry);
	return err;
}

/**
 * mrc_ev_profile_deny() - deny (or allow again) an EV of profile @pf
 * @pf: an EXP or GEN profile; cfg_lock held
 * @val: the EV, MRC_EV_BYTES
 * @port: its port
 * @deny: deny it, or allow it
 *
 * Return: the places of the array that hold it.
 */
int mrc_ev_profile_deny(struct mrc_ev_profile *pf, const u8 *val, u8 port,
			bool deny)
{
	int i, n = 0;

	for (i = 0; pf->entries && i < pf->count; i++) {
		if (pf->entries[i].port != port ||
		    memcmp(pf->entries[i].val, val, MRC_EV_BYTES))
			continue;
		/* a connecting QP reads it without cfg_lock */
		WRITE_ONCE(pf->entries[i].denied, deny);
		n++;
	}
	return n;
}

/* the EVs an stev or udp profile offers, towards the peer's udp paths */
static u32 wire_cands(const struct mrc_ev_profile *pf,
		      const struct mrc_pathset *ps, struct mrc_ev_cand *c)
{
	s16 udp[MRC_MAX_PLANES];
	u32 i, j, n = 0;

	for (i = 0; i < MRC_MAX_PLANES; i++)
		udp[i] = -1;
	for (i = ps->npaths; i--;)
		if (ps->paths[i]->cfg.mode == MRC_PATH_MODE_UDP)
			udp[ps->paths[i]->cfg.plane] = i;
	for (i = 0; i < pf->count; i++) {
		const struct mrc_ev_entry *x = &pf->entries[i];
		u8 k = x->port - 1;

		if (udp[k] < 0)
			continue;
		/* one EV a value and plane: feedback names it by value */
		for (j = 0; j < n; j++)
			if (c[j].plane == k && c[j].value == x->wire)
				break;
		if (j < n)
			continue;
		c[n++] = (struct mrc_ev_cand){ .plane = k, .path = udp[k],
			.entry = i, .value = x->wire, .fixed = true,
			.denied = READ_ONCE(x->denied) };
	}
	return n;
}

/* the EVs an srv6 profile offers: its own paths */
static u32 path_cands(const struct mrc_ev_profile *pf, struct mrc_ev_cand *c)
{
	u32 i;

	for (i = 0; i < pf->ps->npaths; i++) {
		u8 e = pf->path_entry[i];

		c[i] = (struct mrc_ev_cand){ .plane = pf->ps->paths[i]->cfg.plane,
			.path = i, .entry = e,
			.denied = READ_ONCE(pf->entries[e].denied) };
	}
	return pf->ps->npaths;
}

/**
 * mrc_ev_profile_connect() - the path set and EV set of an RC QP connecting
 * @qp: the QP (bound to an EV profile or not)
 * @daddr: the peer's node address (its GID)
 * @ps: set to the path set its packets take, or NULL (no multipath)
 * @evs: set to its EV set over @ps, or NULL
 *
 * Return: 0, or -ENOMEM.
 */
int mrc_ev_profile_connect(struct mrc_qp *qp, const struct in6_addr *daddr,
			   struct mrc_pathset **ps, struct mrc_evset **evs)
{
	const struct mrc_profile *h = READ_ONCE(qp->ev_profile);
	const struct mrc_ev_profile *pf = NULL;
	struct mrc_ev_cand *c = NULL;
	u32 count, floor = 0, nc = 0;

	*evs = NULL;
	if (h)
		pf = container_of(h, struct mrc_ev_profile, hdr);
	if (pf && mrc_ev_profile_listed(pf) && pf->ps) {
		kref_get(&pf->ps->ref);
		*ps = pf->ps;
	} else {
		*ps = mrc_peer_get(qp->mdev, daddr);
	}
	if (!*ps)
		return 0;
	if (!pf || !mrc_ev_profile_listed(pf)) {
		count = pf ? pf->count : READ_ONCE(qp->mdev->ev_count);
		*evs = mrc_evset_build(*ps, count, get_random_u32(), GFP_KERNEL);
	} else {
		c = kvcalloc(pf->count, sizeof(*c), GFP_KERNEL);
		if (c)
			nc = pf->ps ? path_cands(pf, c) : wire_cands(pf, *ps, c);
		if (nc)
			*evs = mrc_evset_build_list(*ps, c, nc, get_random_u32(),
						    GFP_KERNEL);
		kvfree(c);
		if (c && !nc) {
			/* no EV of the profile reaches this peer: one path */
			mrc_pathset_put(*ps);
			*ps = NULL;
			return 0;
		}
	}
	if (!*evs) {
		mrc_pathset_put(*ps);
		*ps = NULL;
		return -ENOMEM;
	}
	if (pf)
		floor = pf->min_active;
	if (floor)
		(*evs)->min_active = min(floor, (u32)(*evs)->nslots);
	return 0;
}
