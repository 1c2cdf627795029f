// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: EV format profiles, EV profile fields (checks, expansion, the
 * GEN array), and the EV set of a QP whose EVs a profile lists.
 */
#include <kunit/test.h>

#include "mrc_ev.h"
#include "mrc_kunit.h"

static int fmt_step(struct kunit *test, struct mrc_ev_fmt *fmt,
		    const struct mrc_ev_fmt_change *ch)
{
	struct mrc_ev_fmt before = *fmt;
	const char *why;
	int err;

	why = mrc_ev_fmt_apply(fmt, ch, &err);
	KUNIT_EXPECT_EQ(test, !!why, !!err);
	if (err) {
		KUNIT_EXPECT_EQ(test, fmt->hdr.state, before.hdr.state);
		KUNIT_EXPECT_EQ(test, fmt->mode, before.mode);
		KUNIT_EXPECT_EQ(test, fmt->nwidths, before.nwidths);
	}
	return err;
}

/*
 * init -> offline with a mode; online with widths within the mode's
 * bits; online only back to offline, not while online EV profiles use
 * it; init not while EV profiles name it
 */
static void fmt_states(struct kunit *test)
{
	struct mrc_ev_fmt fmt = { .hdr.state = MRC_CC_PROFILE_STATE_INIT };
	struct mrc_ev_fmt_change ch = { .set_state = true,
		.state = MRC_CC_PROFILE_STATE_OFFLINE };

	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), -EINVAL);
	ch.set_mode = true;
	ch.mode = MRC_EV_FMT_MODE_STEV;
	ch.nwidths = 3;
	ch.width[0] = 16;
	ch.width[1] = 16;
	ch.width[2] = 1;
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), -EINVAL);
	ch.nwidths = 2;
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), 0);
	KUNIT_EXPECT_EQ(test, fmt.hdr.state, MRC_CC_PROFILE_STATE_OFFLINE);
	/* udp holds 16 bits only: the mode cannot change under 32 */
	ch = (struct mrc_ev_fmt_change){ .set_mode = true,
		.mode = MRC_EV_FMT_MODE_UDP };
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), -EINVAL);
	ch = (struct mrc_ev_fmt_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_ONLINE };
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), 0);
	/* online: no change; offline not while an online profile uses it */
	ch = (struct mrc_ev_fmt_change){ .nwidths = 1, .width = { 8 } };
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), -EINVAL);
	fmt.online_users = 1;
	ch = (struct mrc_ev_fmt_change){ .set_state = true,
		.state = MRC_CC_PROFILE_STATE_OFFLINE };
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), -EBUSY);
	fmt.online_users = 0;
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), 0);
	atomic_set(&fmt.hdr.qps, 1);
	ch.state = MRC_CC_PROFILE_STATE_INIT;
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), -EBUSY);
	atomic_set(&fmt.hdr.qps, 0);
	KUNIT_EXPECT_EQ(test, fmt_step(test, &fmt, &ch), 0);
	KUNIT_EXPECT_EQ(test, fmt.nwidths, 0);
	KUNIT_EXPECT_FALSE(test, fmt.has_mode);
}

static const struct mrc_ev_fmt srv6_fmt = {
	.mode = MRC_EV_FMT_MODE_SRV6, .nwidths = 5,
	.width = { 32, 16, 16, 16, 16 },
};

/* a fixed locator block, then four 16-bit uSIDs from the EV's 64 bits */
static void expand_srv6(struct kunit *test)
{
	struct mrc_ev_field f[5] = {
		{ .width = 32, .init = 0xfc000000 },
		{ .width = 16, .mask = 0xffff }, { .width = 16, .mask = 0xffff },
		{ .width = 16, .mask = 0xffff }, { .width = 16, .mask = 0xffff },
	};
	static const u8 ev[MRC_EV_BYTES] = { 0x10, 0x00, 0x20, 0x01, 0x11, 0x00,
					     0xe0, 0x02 };
	static const u8 want[MRC_EV_BYTES] = { 0xfc, 0, 0, 0, 0x10, 0x00, 0x20,
					       0x01, 0x11, 0x00, 0xe0, 0x02 };
	u8 out[MRC_EV_BYTES];

	KUNIT_EXPECT_NULL(test, mrc_ev_fields_check(f, 5, &srv6_fmt, false));
	KUNIT_EXPECT_EQ(test, mrc_ev_fields_bits(f, 5), 64);
	mrc_ev_expand(&srv6_fmt, f, 5, ev, out);
	KUNIT_EXPECT_MEMEQ(test, out, want, MRC_EV_BYTES);
	/* three fields: the last two format fields stay zero */
	mrc_ev_expand(&srv6_fmt, f, 3, ev, out);
	KUNIT_EXPECT_MEMEQ(test, out, want, 8);
	KUNIT_EXPECT_EQ(test, out[8] | out[9] | out[10] | out[11], 0);
}

/*
 * EV bits spread over a split mask, the lowest to the lowest, over the
 * init's other bits; a narrower field right aligned in its format field
 */
static void expand_spread(struct kunit *test)
{
	static const struct mrc_ev_fmt fmt = { .mode = MRC_EV_FMT_MODE_STEV,
		.nwidths = 2, .width = { 16, 16 } };
	struct mrc_ev_field f[2] = {
		{ .width = 16, .init = 0x1000, .mask = 0x0f0f },
		{ .width = 4, .init = 0x8, .mask = 0x1 },
	};
	static const u8 ev[MRC_EV_BYTES] = { 0xa5, 0x80 };
	u8 out[MRC_EV_BYTES];

	KUNIT_EXPECT_NULL(test, mrc_ev_fields_check(f, 2, &fmt, false));
	mrc_ev_expand(&fmt, f, 2, ev, out);
	/* 0xa5 over 0x0f0f: 0x0a05; then bit 1 over 0x8: 0x9 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(out), 0x1a050009);
}

/* what a profile's fields may not be */
static void fields_refused(struct kunit *test)
{
	struct mrc_ev_field f[6] = {
		{ .width = 32, .init = 0xfc000000 },
		{ .width = 16, .mask = 0xffff },
	};

	KUNIT_EXPECT_NULL(test, mrc_ev_fields_check(f, 2, &srv6_fmt, true));
	f[1].width = 17;
	KUNIT_EXPECT_NOT_NULL(test, mrc_ev_fields_check(f, 2, &srv6_fmt, false));
	KUNIT_EXPECT_NULL(test, mrc_ev_fields_check(f, 2, NULL, false));
	f[1].width = 8;
	KUNIT_EXPECT_NOT_NULL(test, mrc_ev_fields_check(f, 2, NULL, false));
	f[1].mask = 0xff;
	f[1].init = 0x100;
	KUNIT_EXPECT_NOT_NULL(test, mrc_ev_fields_check(f, 2, NULL, false));
	f[1].init = 0;
	f[1].max = 0x100;
	KUNIT_EXPECT_NULL(test, mrc_ev_fields_check(f, 2, NULL, false));
	KUNIT_EXPECT_NOT_NULL(test, mrc_ev_fields_check(f, 2, NULL, true));
	f[1].max = 1;
	f[1].min = 2;
	KUNIT_EXPECT_NOT_NULL(test, mrc_ev_fields_check(f, 2, NULL, true));
	f[1].min = 0;
	f[0].width = 0;
	KUNIT_EXPECT_NOT_NULL(test, mrc_ev_fields_check(f, 2, NULL, false));
	f[0].width = 32;
	KUNIT_EXPECT_NOT_NULL(test, mrc_ev_fields_check(f, 6, &srv6_fmt, false));
}

/*
 * GEN: combination j / ports on port j % ports, the first field changing
 * fastest, fixed fields taking no EV bits; as many as there are
 */
static void gen_array(struct kunit *test)
{
	struct mrc_ev_field f[3] = {
		{ .width = 8, .min = 0, .max = 2, .mask = 0xff },
		{ .width = 16, .init = 0xe001 },
		{ .width = 4, .min = 1, .max = 2, .mask = 0xf },
	};
	static const u8 ports[] = { 1, 3 };
	struct mrc_ev_entry *e;
	u32 j, n;

	e = kunit_kcalloc(test, 20, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_NULL(test, mrc_ev_fields_check(f, 3, NULL, true));
	n = mrc_ev_gen(f, 3, ports, 2, e, 20);
	KUNIT_EXPECT_EQ(test, n, 12);
	for (j = 0; j < n; j++) {
		u32 c = j / 2;

		KUNIT_EXPECT_EQ(test, e[j].port, ports[j % 2]);
		KUNIT_EXPECT_EQ(test, e[j].val[0], c % 3);
		KUNIT_EXPECT_EQ(test, e[j].val[1], (1 + c / 3) << 4);
		KUNIT_EXPECT_EQ(test, e[j].val[2], 0);
	}
	KUNIT_EXPECT_EQ(test, mrc_ev_gen(f, 3, ports, 2, e, 5), 5);
}

/*
 * A profile's EVs for a QP: as many slots on each plane as the plane
 * with the fewest has, the rest backups; fixed values found by value;
 * a denied one out of the rotation, a backup of its plane in its slot
 */
static void list_set(struct kunit *test)
{
	struct mrc_path_cfg udp = { .mode = MRC_PATH_MODE_UDP, .remote = mrc_test_peer };
	struct mrc_ev_cand c[5] = {
		{ .plane = 0, .path = 0, .entry = 0, .value = 0x11110001, .fixed = true },
		{ .plane = 1, .path = 1, .entry = 1, .value = 0x22220001, .fixed = true },
		{ .plane = 0, .path = 0, .entry = 2, .value = 0x11110002, .fixed = true,
		  .denied = true },
		{ .plane = 1, .path = 1, .entry = 3, .value = 0x22220002, .fixed = true },
		{ .plane = 0, .path = 0, .entry = 4, .value = 0x11110003, .fixed = true },
	};
	struct mrc_pathset *ps = NULL;
	struct mrc_evset *evs;
	struct mrc_ev *e;
	u32 i, denied = 0;

	KUNIT_ASSERT_EQ(test, mrc_test_add(test, &ps, &udp), 0);
	udp.plane = 1;
	KUNIT_ASSERT_EQ(test, mrc_test_add(test, &ps, &udp), 0);
	evs = mrc_evset_build_list(ps, c, 5, 7, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, evs);
	KUNIT_EXPECT_EQ(test, evs->n, 5);
	KUNIT_EXPECT_EQ(test, evs->nslots, 4);
	KUNIT_EXPECT_EQ(test, evs->per, 2);
	for (i = 0; i < 5; i++) {
		e = mrc_evset_find(evs, c[i].value);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_EXPECT_EQ(test, e->entry, c[i].entry);
		KUNIT_EXPECT_EQ(test, e->plane, c[i].plane);
		if (c[i].denied) {
			KUNIT_EXPECT_EQ(test, e->state, MRC_EV_STATE_DENIED);
			KUNIT_EXPECT_EQ(test, e->slot, -1);
			denied++;
		}
	}
	KUNIT_EXPECT_EQ(test, denied, 1);
	KUNIT_EXPECT_NULL(test, mrc_evset_find(evs, 0x11110004));
	/* plane 0's third EV, on the same UDP path, stands in: all usable */
	KUNIT_EXPECT_EQ(test, mrc_evset_usable(evs), 4);
	mrc_evset_free(evs);
	mrc_pathset_put(ps);
}

static struct kunit_case mrc_ev_fmt_cases[] = {
	KUNIT_CASE(fmt_states),
	KUNIT_CASE(expand_srv6),
	KUNIT_CASE(expand_spread),
	KUNIT_CASE(fields_refused),
	KUNIT_CASE(gen_array),
	KUNIT_CASE(list_set),
	{}
};

static struct kunit_suite mrc_ev_fmt_suite = {
	.name = "mrc_ev_fmt",
	.test_cases = mrc_ev_fmt_cases,
};

kunit_test_suite(mrc_ev_fmt_suite);
