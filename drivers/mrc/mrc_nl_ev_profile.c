// SPDX-License-Identifier: GPL-2.0
/*
 * The "mrc" family's requests on the controller's EV profiles
 * (ev-profile-get, -set) and EV format profiles (ev-fmt-get, -set); the
 * rules are mrc_ev_profile.c's and mrc_ev_fmt.c's.
 */
#include <net/genetlink.h>

#include "mrc.h"
#include "mrc_nl_gen.h"

/* a reply with the whole EV array: MRC_MAX_EVS places of ~70 bytes */
#define EV_PROFILE_MSG_SIZE	(24 * 1024)

/* a copy of profile @pf (cfg_lock held) to reply with, outside the lock */
struct profile_view {
	struct mrc_ev_profile pf;
	u32 qps;
	struct mrc_ev_entry *entries;	/* when asked for */
};

static int put_fields(struct sk_buff *skb, const struct mrc_ev_profile *pf)
{
	struct nlattr *nest;
	u32 i;

	for (i = 0; i < pf->nfields; i++) {
		const struct mrc_ev_field *f = &pf->fields[i];

		nest = nla_nest_start(skb, MRC_A_EV_FIELD);
		if (!nest ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_WIDTH, f->width) ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_INIT_VAL, f->init) ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_MIN_VAL, f->min) ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_MAX_VAL, f->max) ||
		    nla_put_u32(skb, MRC_A_EV_FIELD_MASK, f->mask))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int put_entries(struct sk_buff *skb, const struct profile_view *v)
{
	struct nlattr *nest;
	u32 i;

	for (i = 0; v->entries && i < v->pf.count; i++) {
		const struct mrc_ev_entry *x = &v->entries[i];

		nest = nla_nest_start(skb, MRC_A_EV_ENTRY);
		if (!nest ||
		    nla_put_u32(skb, MRC_A_EV_ENTRY_PLACE, i) ||
		    nla_put(skb, MRC_A_EV_ENTRY_EV_BYTES, MRC_EV_BYTES, x->val) ||
		    nla_put_u32(skb, MRC_A_EV_ENTRY_PORT, x->port) ||
		    nla_put_u32(skb, MRC_A_EV_ENTRY_STATE, x->denied ?
				MRC_EV_STATE_DENIED : MRC_EV_STATE_GOOD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int fill_profile(struct sk_buff *skb, struct mrc_dev *mdev,
			const struct profile_view *v,
			const struct genl_info *info)
{
	const struct mrc_ev_profile *pf = &v->pf;
	void *hdr = genlmsg_iput(skb, info);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_EV_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_EV_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_uint(skb, MRC_A_EV_PROFILE_ID, pf->hdr.id) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_STATE, pf->hdr.state) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_QPS, v->qps) ||
	    ((pf->has & MRC_EV_PROFILE_HAS_MODE) &&
	     nla_put_u32(skb, MRC_A_EV_PROFILE_MODE, pf->mode)) ||
	    ((pf->has & MRC_EV_PROFILE_HAS_COUNT) &&
	     nla_put_u32(skb, MRC_A_EV_PROFILE_COUNT, pf->count)) ||
	    ((pf->has & MRC_EV_PROFILE_HAS_MIN_ACTIVE) &&
	     nla_put_u32(skb, MRC_A_EV_PROFILE_MIN_ACTIVE, pf->min_active)) ||
	    ((pf->has & MRC_EV_PROFILE_HAS_EVENT_MASK) &&
	     nla_put_u32(skb, MRC_A_EV_EVENT_MASK, pf->event_mask)) ||
	    ((pf->has & MRC_EV_PROFILE_HAS_FMT) &&
	     nla_put_uint(skb, MRC_A_EV_FMT_ID, pf->fmt_id)) ||
	    put_fields(skb, pf) || put_entries(skb, v)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* @v from @pf; cfg_lock held. With @entries, a copy of its array (or -ENOMEM) */
static int profile_view(const struct mrc_ev_profile *pf, struct profile_view *v,
			bool entries)
{
	memcpy(&v->pf, pf, sizeof(v->pf));
	v->qps = atomic_read(&pf->hdr.qps);
	v->entries = NULL;
	if (!entries || !pf->entries)
		return 0;
	v->entries = kvmemdup(pf->entries, pf->count * sizeof(*pf->entries),
			      GFP_KERNEL);
	return v->entries ? 0 : -ENOMEM;
}

static int fill_profile_req(struct sk_buff *skb, struct mrc_dev *mdev,
			    const struct genl_info *info)
{
	struct mrc_ev_profile *pf;
	struct profile_view v;
	u64 id;
	int err;

	err = mrc_nl_profile_id(info, MRC_A_EV_PROFILE_ID, &id);
	if (err)
		return err;
	mutex_lock(&mdev->cfg_lock);
	pf = mrc_ev_profile_find(mdev, id);
	if (pf)
		err = profile_view(pf, &v, nla_get_flag(info->attrs[MRC_A_EV_ENTRIES]));
	mutex_unlock(&mdev->cfg_lock);
	if (!pf) {
		NL_SET_ERR_MSG_FMT(info->extack, "EV profile %llu is in init", id);
		return -ENOENT;
	}
	if (!err)
		err = fill_profile(skb, mdev, &v, info);
	kvfree(v.entries);
	return err;
}

int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_get_one_sized(info, MRC_A_EV_DEV_INDEX, MRC_A_EV_DEV_NAME,
				    EV_PROFILE_MSG_SIZE, fill_profile_req);
}

static int dump_profiles(struct sk_buff *skb, struct mrc_dev *mdev,
			 struct netlink_callback *cb)
{
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	struct profile_view v;
	int err;

	for (; pos->obj < MRC_MAX_EV_PROFILES; pos->obj++) {
		mutex_lock(&mdev->cfg_lock);
		profile_view(&mdev->ev_profiles[pos->obj], &v, false);
		mutex_unlock(&mdev->cfg_lock);
		if (!v.pf.hdr.id)
			continue;
		err = fill_profile(skb, mdev, &v, genl_info_dump(cb));
		if (err)
			return err;
	}
	return 0;
}

int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return mrc_nl_dump_devs(skb, cb, MRC_A_EV_DEV_INDEX, MRC_A_EV_DEV_NAME,
				dump_profiles);
}

static u32 u32_or(const struct nlattr *a, u32 def)
{
	return a ? nla_get_u32(a) : def;
}

/* the fields of an ev-profile-set; E2BIG past MRC_MAX_EV_FIELDS */
static int parse_fields(const struct genl_info *info,
			struct mrc_ev_profile_change *ch)
{
	struct nlattr *tb[MRC_A_EV_FIELD_MAX + 1];
	const struct nlattr *a;
	int rem, err;

	nlmsg_for_each_attr_type(a, MRC_A_EV_FIELD, info->nlhdr, GENL_HDRLEN,
				 rem) {
		struct mrc_ev_field *f = &ch->fields[ch->nfields];

		if (ch->nfields == MRC_MAX_EV_FIELDS) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, a, "at most %d fields",
						MRC_MAX_EV_FIELDS);
			return -E2BIG;
		}
		err = nla_parse_nested(tb, MRC_A_EV_FIELD_MAX, a,
				       mrc_ev_field_nl_policy, info->extack);
		if (err)
			return err;
		if (!tb[MRC_A_EV_FIELD_WIDTH]) {
			NL_SET_ERR_MSG_ATTR(info->extack, a, "a field needs its width");
			return -EINVAL;
		}
		f->width = nla_get_u32(tb[MRC_A_EV_FIELD_WIDTH]);
		f->init = u32_or(tb[MRC_A_EV_FIELD_INIT_VAL], 0);
		f->min = u32_or(tb[MRC_A_EV_FIELD_MIN_VAL], 0);
		f->max = u32_or(tb[MRC_A_EV_FIELD_MAX_VAL], 0);
		f->mask = u32_or(tb[MRC_A_EV_FIELD_MASK], 0);
		ch->nfields++;
		ch->set |= MRC_EV_PROFILE_HAS_FIELDS;
	}
	return 0;
}

/* copy binary @a (at most MRC_EV_BYTES, zero-filled) into @val */
static int ev_bytes(const struct nlattr *a, u8 *val,
		    struct netlink_ext_ack *extack)
{
	memset(val, 0, MRC_EV_BYTES);
	if (!a)
		return 0;
	if (nla_len(a) > MRC_EV_BYTES) {
		NL_SET_ERR_MSG_ATTR(extack, a, "an EV is at most 32 bytes");
		return -EINVAL;
	}
	nla_memcpy(val, a, MRC_EV_BYTES);
	return 0;
}

/* the replacements of an ev-profile-set (kvfree() *@out) */
static int parse_replace(const struct genl_info *info,
			 struct mrc_ev_profile_change *ch,
			 struct mrc_ev_replace **out)
{
	struct nlattr *tb[MRC_A_EV_ENTRY_MAX + 1];
	struct mrc_ev_replace *r;
	const struct nlattr *a;
	int rem, err;
	u32 n = 0;

	nlmsg_for_each_attr_type(a, MRC_A_EV_ENTRY, info->nlhdr, GENL_HDRLEN, rem)
		n++;
	*out = NULL;
	if (!n)
		return 0;
	if (n > MRC_MAX_EVS) {
		NL_SET_ERR_MSG_FMT(info->extack, "at most %d replacements a request",
				   MRC_MAX_EVS);
		return -E2BIG;
	}
	r = kvcalloc(n, sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	*out = r;
	nlmsg_for_each_attr_type(a, MRC_A_EV_ENTRY, info->nlhdr, GENL_HDRLEN, rem) {
		u32 state;

		err = nla_parse_nested(tb, MRC_A_EV_ENTRY_MAX, a,
				       mrc_ev_entry_nl_policy, info->extack);
		if (err)
			return err;
		if (!tb[MRC_A_EV_ENTRY_NEW_BYTES] || !tb[MRC_A_EV_ENTRY_NEW_PORT]) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "a replacement needs new-bytes and new-port");
			return -EINVAL;
		}
		state = u32_or(tb[MRC_A_EV_ENTRY_STATE], MRC_EV_STATE_GOOD);
		if (state != MRC_EV_STATE_GOOD && state != MRC_EV_STATE_DENIED) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[MRC_A_EV_ENTRY_STATE],
					    "a new EV is good or denied");
			return -EINVAL;
		}
		err = ev_bytes(tb[MRC_A_EV_ENTRY_EV_BYTES], r->old, info->extack) ?:
		      ev_bytes(tb[MRC_A_EV_ENTRY_NEW_BYTES], r->new, info->extack);
		if (err)
			return err;
		r->old_port = u32_or(tb[MRC_A_EV_ENTRY_PORT], 0);
		r->new_port = nla_get_u32(tb[MRC_A_EV_ENTRY_NEW_PORT]);
		r->denied = state == MRC_EV_STATE_DENIED;
		r->all = nla_get_flag(tb[MRC_A_EV_ENTRY_ALL_COPIES]);
		r++;
	}
	ch->replace = *out;
	ch->nreplace = n;
	return 0;
}

int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_ev_replace *replace = NULL;
	struct nlattr **a = info->attrs;
	struct mrc_ev_profile_change *ch;
	struct mrc_dev *mdev;
	u64 id;
	int err;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_EV_DEV_INDEX,
				MRC_A_EV_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	ch = kzalloc(sizeof(*ch), GFP_KERNEL);
	err = ch ? mrc_nl_profile_id(info, MRC_A_EV_PROFILE_ID, &id) : -ENOMEM;
	if (err)
		goto out;
	ch->set_state = !!a[MRC_A_EV_PROFILE_STATE];
	if (ch->set_state)
		ch->state = nla_get_u32(a[MRC_A_EV_PROFILE_STATE]);
	if (a[MRC_A_EV_PROFILE_MODE]) {
		ch->set |= MRC_EV_PROFILE_HAS_MODE;
		ch->mode = nla_get_u32(a[MRC_A_EV_PROFILE_MODE]);
	}
	if (a[MRC_A_EV_PROFILE_COUNT]) {
		ch->set |= MRC_EV_PROFILE_HAS_COUNT;
		ch->count = nla_get_u32(a[MRC_A_EV_PROFILE_COUNT]);
	}
	if (a[MRC_A_EV_PROFILE_MIN_ACTIVE]) {
		ch->set |= MRC_EV_PROFILE_HAS_MIN_ACTIVE;
		ch->min_active = nla_get_u32(a[MRC_A_EV_PROFILE_MIN_ACTIVE]);
	}
	if (a[MRC_A_EV_EVENT_MASK]) {
		ch->set |= MRC_EV_PROFILE_HAS_EVENT_MASK;
		ch->event_mask = nla_get_u32(a[MRC_A_EV_EVENT_MASK]);
	}
	if (a[MRC_A_EV_FMT_ID]) {
		ch->set |= MRC_EV_PROFILE_HAS_FMT;
		ch->fmt_id = nla_get_uint(a[MRC_A_EV_FMT_ID]);
	}
	err = parse_fields(info, ch) ?: parse_replace(info, ch, &replace);
	if (err)
		goto out;
	mutex_lock(&mdev->cfg_lock);
	err = mrc_ev_profile_set(mdev, id, ch, info->extack);
	mutex_unlock(&mdev->cfg_lock);
out:
	kvfree(replace);
	kfree(ch);
	ib_device_put(&mdev->ib_dev);
	return err;
}

/* ---- format profiles ----------------------------------------------------- */

static int fill_fmt(struct sk_buff *skb, struct mrc_dev *mdev,
		    const struct mrc_ev_fmt *fmt, u32 users,
		    const struct genl_info *info)
{
	void *hdr = genlmsg_iput(skb, info);
	u32 i;

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, MRC_A_EV_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_A_EV_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_uint(skb, MRC_A_EV_FMT_ID, fmt->hdr.id) ||
	    nla_put_u32(skb, MRC_A_EV_PROFILE_STATE, fmt->hdr.state) ||
	    nla_put_u32(skb, MRC_A_EV_FMT_USERS, users) ||
	    (fmt->has_mode && nla_put_u32(skb, MRC_A_EV_FMT_MODE, fmt->mode)))
		goto cancel;
	for (i = 0; i < fmt->nwidths; i++)
		if (nla_put_u32(skb, MRC_A_EV_FMT_WIDTH, fmt->width[i]))
			goto cancel;
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int fmt_id(const struct genl_info *info, u64 *id)
{
	if (info->attrs[MRC_A_EV_FMT_ID])
		*id = nla_get_uint(info->attrs[MRC_A_EV_FMT_ID]);
	if (!info->attrs[MRC_A_EV_FMT_ID] || !*id) {
		NL_SET_ERR_MSG(info->extack, "format id required (not 0)");
		return -EINVAL;
	}
	return 0;
}

static int fill_fmt_req(struct sk_buff *skb, struct mrc_dev *mdev,
			const struct genl_info *info)
{
	struct mrc_ev_fmt *fmt, v;
	u64 id;
	int err;

	err = fmt_id(info, &id);
	if (err)
		return err;
	mutex_lock(&mdev->cfg_lock);
	fmt = mrc_ev_fmt_find(mdev, id);
	if (fmt)
		memcpy(&v, fmt, sizeof(v));
	mutex_unlock(&mdev->cfg_lock);
	if (!fmt) {
		NL_SET_ERR_MSG_FMT(info->extack, "EV format %llu is in init", id);
		return -ENOENT;
	}
	return fill_fmt(skb, mdev, &v, atomic_read(&v.hdr.qps), info);
}

int mrc_nl_ev_fmt_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_get_one(info, MRC_A_EV_DEV_INDEX, MRC_A_EV_DEV_NAME,
			      fill_fmt_req);
}

static int dump_fmts(struct sk_buff *skb, struct mrc_dev *mdev,
		     struct netlink_callback *cb)
{
	struct mrc_nl_dump_pos *pos = (void *)cb->ctx;
	struct mrc_ev_fmt v;
	int err;

	for (; pos->obj < MRC_MAX_EV_FMTS; pos->obj++) {
		mutex_lock(&mdev->cfg_lock);
		memcpy(&v, &mdev->ev_fmts[pos->obj], sizeof(v));
		mutex_unlock(&mdev->cfg_lock);
		if (!v.hdr.id)
			continue;
		err = fill_fmt(skb, mdev, &v, atomic_read(&v.hdr.qps),
			       genl_info_dump(cb));
		if (err)
			return err;
	}
	return 0;
}

int mrc_nl_ev_fmt_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_nl_dump_devs(skb, cb, MRC_A_EV_DEV_INDEX, MRC_A_EV_DEV_NAME,
				dump_fmts);
}

int mrc_nl_ev_fmt_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_ev_fmt_change ch = {};
	struct nlattr **a = info->attrs;
	const struct nlattr *w;
	struct mrc_dev *mdev;
	int rem, err;
	u64 id;

	mdev = mrc_nl_admin_dev(skb, info, MRC_A_EV_DEV_INDEX,
				MRC_A_EV_DEV_NAME);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = fmt_id(info, &id);
	if (err)
		goto out;
	ch.set_state = !!a[MRC_A_EV_PROFILE_STATE];
	if (ch.set_state)
		ch.state = nla_get_u32(a[MRC_A_EV_PROFILE_STATE]);
	ch.set_mode = !!a[MRC_A_EV_FMT_MODE];
	if (ch.set_mode)
		ch.mode = nla_get_u32(a[MRC_A_EV_FMT_MODE]);
	nlmsg_for_each_attr_type(w, MRC_A_EV_FMT_WIDTH, info->nlhdr,
				 GENL_HDRLEN, rem) {
		if (ch.nwidths == MRC_MAX_EV_FIELDS) {
			NL_SET_ERR_MSG_ATTR_FMT(info->extack, w, "at most %d fields",
						MRC_MAX_EV_FIELDS);
			err = -E2BIG;
			goto out;
		}
		ch.width[ch.nwidths++] = nla_get_u32(w);
	}
	mutex_lock(&mdev->cfg_lock);
	err = mrc_ev_fmt_set(mdev, id, &ch, info->extack);
	mutex_unlock(&mdev->cfg_lock);
out:
	ib_device_put(&mdev->ib_dev);
	return err;
}
