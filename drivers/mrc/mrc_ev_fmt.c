// SPDX-License-Identifier: GPL-2.0
/*
 * EV format profiles (the OCP MRC API's), and the pure rules of EV
 * profile fields: how the bits of an EV fill a format's fields
 * (expansion) and which EVs a GEN profile lists.
 *
 * Expansion, as the API describes it: for field i, the value starts as
 * the field's init; the next popcount(mask) bits of the EV (read from bit
 * 7 of byte 0 on, the first taken the most significant) are spread over
 * the mask's bits, lowest to lowest; the value is then written, right
 * aligned in format field i's width, most significant bit first, after
 * the previous ones. Format fields past the profile's are zero.
 *
 * The table is written and read under the device's cfg_lock.
 */
#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "mrc.h"

static u32 fmt_limit(u8 mode)
{
	switch (mode) {
	case MRC_EV_FMT_MODE_STEV:
		return MRC_EV_FMT_STEV_BITS;
	case MRC_EV_FMT_MODE_UDP:
		return MRC_EV_FMT_UDP_BITS;
	default:
		return MRC_EV_BITS;
	}
}

static u32 fmt_bits(const u8 *width, u32 n)
{
	u32 i, sum = 0;

	for (i = 0; i < n; i++)
		sum += width[i];
	return sum;
}

/**
 * mrc_ev_fmt_apply() - a format profile's next state, by the API's rules
 * @fmt: the profile (state INIT if new); changed only on success
 * @ch: what the controller asks
 * @err: 0, -EINVAL or -EBUSY
 *
 * Return: NULL, or why the change is refused (with @err)
 */
const char *mrc_ev_fmt_apply(struct mrc_ev_fmt *fmt,
			     const struct mrc_ev_fmt_change *ch, int *err)
{
	u8 to = ch->set_state ? ch->state : fmt->hdr.state;
	struct mrc_ev_fmt next = *fmt;
	bool changes = ch->set_mode || ch->nwidths;

	*err = -EINVAL;
	switch (fmt->hdr.state) {
	case MRC_CC_PROFILE_STATE_INIT:
		if (to == MRC_CC_PROFILE_STATE_INIT && !changes)
			break;
		if (to != MRC_CC_PROFILE_STATE_OFFLINE || !ch->set_mode)
			return "from init a format goes offline, with a mode";
		break;
	case MRC_CC_PROFILE_STATE_OFFLINE:
		if (to == MRC_CC_PROFILE_STATE_INIT && atomic_read(&fmt->hdr.qps)) {
			*err = -EBUSY;
			return "EV profiles name the format";
		}
		break;
	case MRC_CC_PROFILE_STATE_ONLINE:
		if (changes || to == MRC_CC_PROFILE_STATE_INIT)
			return "an online format only goes offline";
		if (to == MRC_CC_PROFILE_STATE_OFFLINE && fmt->online_users) {
			*err = -EBUSY;
			return "online EV profiles use the format";
		}
		break;
	}
	if (ch->set_mode) {
		next.mode = ch->mode;
		next.has_mode = true;
	}
	if (ch->nwidths) {
		next.nwidths = ch->nwidths;
		memcpy(next.width, ch->width, ch->nwidths);
	}
	if (to == MRC_CC_PROFILE_STATE_ONLINE && !next.nwidths)
		return "a format goes online with its fields (widths)";
	if (next.nwidths &&
	    fmt_bits(next.width, next.nwidths) > fmt_limit(next.mode))
		return "the fields are wider than the mode allows (stev 32 bits, udp 16, srv6 256)";
	*err = 0;
	if (to == MRC_CC_PROFILE_STATE_INIT) {
		next.mode = 0;
		next.has_mode = false;
		next.nwidths = 0;
		memset(next.width, 0, sizeof(next.width));
	}
	next.hdr.state = to;
	*fmt = next;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_ev_fmt_apply);

/* the format of id @id, or NULL; id 0: a free slot; cfg_lock held */
struct mrc_ev_fmt *mrc_ev_fmt_find(struct mrc_dev *mdev, u64 id)
{
	lockdep_assert_held(&mdev->cfg_lock);
	return mrc_profile_find_in(mdev->ev_fmts, id);
}

/**
 * mrc_ev_fmt_set() - ev-fmt-set: change format profile @id of @mdev
 * @mdev: the device; cfg_lock held
 * @id: the format's id, not 0
 * @ch: the change (mrc_ev_fmt_apply())
 * @extack: why a refusal
 *
 * Return: 0, -EINVAL, -EBUSY or -ENOSPC (every slot taken)
 */
int mrc_ev_fmt_set(struct mrc_dev *mdev, u64 id,
		   const struct mrc_ev_fmt_change *ch,
		   struct netlink_ext_ack *extack)
{
	struct mrc_ev_fmt *fmt;
	const char *why;
	int err;

	fmt = mrc_profile_slot_in(mdev->ev_fmts, id, extack);
	if (IS_ERR(fmt))
		return PTR_ERR(fmt);
	why = mrc_ev_fmt_apply(fmt, ch, &err);
	if (why) {
		NL_SET_ERR_MSG_FMT(extack, "%s", why);
		return err;
	}
	mrc_profile_settle(&fmt->hdr, id);
	return 0;
}

/* does @v fit in @bits bits? */
static bool fits(u32 v, u32 bits)
{
	return bits >= 32 || v < BIT(bits);
}

/* EV bits the fields take: the sum of their masks' bits */
u32 mrc_ev_fields_bits(const struct mrc_ev_field *f, u32 n)
{
	u32 i, bits = 0;

	for (i = 0; i < n; i++)
		bits += hweight32(f[i].mask);
	return bits;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_ev_fields_bits);

/**
 * mrc_ev_fields_check() - can an EV profile use these fields?
 * @f: the fields
 * @n: how many (at most MRC_MAX_EV_FIELDS)
 * @fmt: the format they fill, or NULL (not known yet)
 * @gen: a GEN profile's: their ranges are checked too
 *
 * Return: NULL, or why not.
 */
const char *mrc_ev_fields_check(const struct mrc_ev_field *f, u32 n,
				const struct mrc_ev_fmt *fmt, bool gen)
{
	u32 i;

	if (fmt && n > fmt->nwidths)
		return "more fields than the format has";
	for (i = 0; i < n; i++) {
		if (!f[i].width || f[i].width > 32)
			return "a field is 1 to 32 bits wide";
		if (fmt && f[i].width > fmt->width[i])
			return "a field is wider than its format field";
		if (!fits(f[i].init, f[i].width))
			return "a field's init does not fit its width";
		if (!fits(f[i].mask, f[i].width))
			return "a field's mask has bits past its width";
		if (gen && f[i].mask &&
		    (f[i].min > f[i].max || !fits(f[i].max, hweight32(f[i].mask))))
			return "a field's range: min at most max, and max fits in the mask's bits";
	}
	if (mrc_ev_fields_bits(f, n) > MRC_EV_BITS)
		return "the fields take more than 256 EV bits";
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_ev_fields_check);

/* an EXP profile without fields: the EV's bits fill the format's as they are */
void mrc_ev_fields_default(const struct mrc_ev_fmt *fmt,
			   struct mrc_ev_field *f, u8 *n)
{
	u32 i;

	*n = fmt->nwidths;
	for (i = 0; i < fmt->nwidths; i++) {
		f[i] = (struct mrc_ev_field){ .width = min_t(u32, fmt->width[i], 32) };
		f[i].mask = f[i].width == 32 ? U32_MAX : BIT(f[i].width) - 1;
	}
}
EXPORT_SYMBOL_IF_KUNIT(mrc_ev_fields_default);

/* the next @k bits of @b from bit *@pos, the first the most significant */
static u32 bits_get(const u8 *b, u32 *pos, u32 k)
{
	u32 x = 0;

	for (; k; k--, (*pos)++)
		x = x << 1 | ((b[*pos / 8] >> (7 - *pos % 8)) & 1);
	return x;
}

/* write @v right aligned in @w bits of @b at bit *@pos (@b zeroed) */
static void bits_put(u8 *b, u32 *pos, u32 v, u32 w)
{
	u32 i;

	for (i = w; i--; (*pos)++)
		if (i < 32 && (v >> i) & 1)
			b[*pos / 8] |= 0x80 >> (*pos % 8);
}

/* @x's bits over the set bits of @mask, lowest first, into @init */
static u32 spread(u32 init, u32 mask, u32 x)
{
	u32 v = init & ~mask;

	for (; mask; mask &= mask - 1, x >>= 1)
		if (x & 1)
			v |= mask & -mask;
	return v;
}

/**
 * mrc_ev_expand() - an EV in its format's layout
 * @fmt: the format (its widths sum to at most MRC_EV_BITS)
 * @f: the profile's fields, checked against @fmt
 * @n: how many
 * @ev: the EV, MRC_EV_BYTES
 * @out: the expanded EV, MRC_EV_BYTES
 */
void mrc_ev_expand(const struct mrc_ev_fmt *fmt, const struct mrc_ev_field *f,
		   u32 n, const u8 *ev, u8 *out)
{
	u32 i, in = 0, pos = 0;

	memset(out, 0, MRC_EV_BYTES);
	for (i = 0; i < n && i < fmt->nwidths; i++) {
		u32 x = bits_get(ev, &in, hweight32(f[i].mask));

		bits_put(out, &pos, spread(f[i].init, f[i].mask, x),
			 fmt->width[i]);
	}
}
EXPORT_SYMBOL_IF_KUNIT(mrc_ev_expand);

/**
 * mrc_ev_gen() - the EV array of a GEN profile
 * @f: its fields, checked (gen)
 * @n: how many
 * @ports: the ports to spread over (planes + 1), at least one
 * @nports: how many
 * @out: the array, @count places
 * @count: places wanted
 *
 * Place j holds combination j / @nports of the fields' ranges, the first
 * field changing fastest (a fixed field, mask 0, takes no EV bits), on
 * port @ports[j % @nports]: each combination goes on every port in turn.
 *
 * Return: places filled: @count, or fewer when there are fewer
 * combinations times ports.
 */
u32 mrc_ev_gen(const struct mrc_ev_field *f, u32 n, const u8 *ports,
	       u32 nports, struct mrc_ev_entry *out, u32 count)
{
	u64 combos = 1;
	u32 i, j;

	for (i = 0; i < n; i++)
		if (f[i].mask)
			combos = min_t(u64, combos * ((u64)f[i].max - f[i].min + 1),
				       U32_MAX);
	count = min_t(u64, count, combos * nports);
	for (j = 0; j < count; j++) {
		u32 c = j / nports, pos = 0;

		memset(&out[j], 0, sizeof(out[j]));
		out[j].port = ports[j % nports];
		for (i = 0; i < n; i++) {
			u32 range, k = hweight32(f[i].mask);

			if (!k)
				continue;
			range = f[i].max - f[i].min + 1;
			/* range 0: the full 32 bits (0 .. U32_MAX) */
			bits_put(out[j].val, &pos,
				 f[i].min + (range ? c % range : c), k);
			c = range ? c / range : 0;
		}
	}
	return count;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_ev_gen);
