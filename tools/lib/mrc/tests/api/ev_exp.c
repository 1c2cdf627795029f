// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * mrc_api_test: the EV profiles in EXP and GEN modes, and the EV format
 * profiles they use. No QP is bound to them here: an EV's state is the
 * array's word on it (GOOD or DENIED).
 */
#include "api.h"

#define XP		61	/* the EXP profile */
#define GP		62	/* the GEN profile */
#define XF		71	/* its format: SRV6 32,16,16,16,16 */
#define GF		72	/* GEN's: STEV 16,16 */
#define NOFMT		79	/* a format never set */
#define EVS		256	/* the most a profile has */

#define EVP_STATE	MRC_CTL_EV_PROFILE_STATE
#define EVP_SHAPE	(MRC_CTL_EV_PROFILE_MODE | MRC_CTL_EV_PROFILE_FMT_ID | \
			 MRC_CTL_EV_PROFILE_COUNT)
#define EVP_ONLINE	(MRC_CTL_EV_PROFILE_MIN_ACTIVE | MRC_CTL_EV_PROFILE_EVENT_MASK)
#define EVP_FIELDS	MRC_CTL_EV_PROFILE_EV_FIELDS_OP
#define EVP_OP		MRC_CTL_EV_PROFILE_EV_OP
#define EVP_QUERY	(MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_CUR_STATE | \
			 EVP_SHAPE | EVP_ONLINE)

/*
 * EXP's fields: a fixed 32-bit locator, then two 16-bit fields whose bits
 * are the EV's: 32 EV bits, an EV's first four bytes
 */
static const struct mrc_ctl_ev_field xfields[3] = {
	{ .width = 32, .init_val = 0x20010db8 },
	{ .width = 16, .mask = 0xffff },
	{ .width = 16, .mask = 0xffff },
};

/*
 * GEN's: the top of each 16-bit field fixed by init, 2 EV bits (0..3) in
 * the first and 4 (5..6) in the second: 8 combinations, 6 EV bits
 */
static const struct mrc_ctl_ev_field gfields[2] = {
	{ .width = 16, .init_val = 0xc000, .min_val = 0, .max_val = 3, .mask = 0x0003 },
	{ .width = 16, .init_val = 0x0100, .min_val = 5, .max_val = 6, .mask = 0x00f0 },
};

/* an EV of the value @v in its first four bytes (network order) */
static struct mrc_ctl_ev ev32(uint32_t v, uint8_t port)
{
	struct mrc_ctl_ev ev = { .port = port };

	ev.val[0] = v >> 24;
	ev.val[1] = v >> 16;
	ev.val[2] = v >> 8;
	ev.val[3] = v;
	return ev;
}

static bool ev_eq(const struct mrc_ctl_ev *a, const struct mrc_ctl_ev *b)
{
	return a->port == b->port && !memcmp(a->val, b->val, sizeof(a->val));
}

static struct mrc_ctl_ev_op_entry rep(struct mrc_ctl_ev from,
				      struct mrc_ctl_ev to, uint32_t state,
				      uint32_t flags)
{
	struct mrc_ctl_ev_op_entry r = { .ev = from, .ev_new = to,
					 .state = state, .flags = flags };

	return r;
}

/* an EV op of @n entries on profile @id (@query: mrc_ctl_query_ev_profile) */
static int ev_op(struct env *e, uint64_t id, bool query, enum mrc_ctl_ev_op op,
		 struct mrc_ctl_ev_op_entry *ent, int n)
{
	struct mrc_ctl_ev_profile_attr a = {
		.ev_op = { .op = op, .entries = ent, .entry_count = n },
	};

	return query ? mrc_ctl_query_ev_profile(e->ctx, id, &a, EVP_OP) :
		       mrc_ctl_modify_ev_profile(e->ctx, id, &a, EVP_OP);
}

static int replace(struct env *e, uint64_t id, struct mrc_ctl_ev_op_entry *ent,
		   int n)
{
	return ev_op(e, id, false, MRC_CTL_EV_OP_REPLACE_EV, ent, n);
}

/* EV @ev of profile @id denied or allowed (MODIFY_EV_STATE) */
static int ev_mark(struct env *e, uint64_t id, struct mrc_ctl_ev ev,
		   uint32_t state)
{
	struct mrc_ctl_ev_op_entry ent = { .ev = ev, .state = state };

	return ev_op(e, id, false, MRC_CTL_EV_OP_MODIFY_EV_STATE, &ent, 1);
}

/* EV @ev's state in profile @id (QUERY_EV_STATE), or 0 with errno */
static uint32_t ev_state(struct env *e, uint64_t id, struct mrc_ctl_ev ev)
{
	struct mrc_ctl_ev_op_entry ent = { .ev = ev, .state = 99 };

	if (ev_op(e, id, true, MRC_CTL_EV_OP_QUERY_EV_STATE, &ent, 1))
		return 0;
	return ent.state;
}

/* profile @id's EV array into @ent, @room long: its length, or -1 */
static int array_get(struct env *e, uint64_t id, struct mrc_ctl_ev_op_entry *ent,
		     int room)
{
	struct mrc_ctl_ev_profile_attr a = {
		.ev_op = { .op = MRC_CTL_EV_OP_QUERY_EV_ARRAY, .entries = ent,
			   .entry_count = room },
	};

	memset(ent, 0xee, room * sizeof(*ent));
	if (mrc_ctl_query_ev_profile(e->ctx, id, &a, EVP_OP))
		return -1;
	return a.ev_op.entry_count;
}

/* the array of @id is @want (@n places), each GOOD but @denied (-1: none) */
static bool array_is(struct env *e, uint64_t id, const struct mrc_ctl_ev *want,
		     int n, int denied)
{
	struct mrc_ctl_ev_op_entry got[EVS];
	int i, len = array_get(e, id, got, EVS);

	if (len != n) {
		diag("the array has %d places, not %d", len, n);
		return false;
	}
	for (i = 0; i < n; i++) {
		if (!ev_eq(&got[i].ev, &want[i]) ||
		    got[i].state != (i == denied ? MRC_CTL_EV_DENIED : MRC_CTL_EV_GOOD)) {
			diag("place %d: port %u %02x%02x%02x%02x%02x state 0x%x", i,
			     got[i].ev.port, got[i].ev.val[0], got[i].ev.val[1],
			     got[i].ev.val[2], got[i].ev.val[3], got[i].ev.val[4],
			     got[i].state);
			return false;
		}
	}
	return true;
}

/* profile @id: the attributes of @mask, EXP or GEN, with the @nf fields @f */
static int evp_set(struct env *e, uint64_t id, enum mrc_ctl_profile_state st,
		   uint32_t mode, uint64_t fmt, uint32_t count,
		   const struct mrc_ctl_ev_field *f, int nf, int mask)
{
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = st,
		.ev_mode = mode,
		.ev_fmt_profile_id = fmt,
		.ev_count = count,
		.ev_min_active = 1,
		.ev_event_mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD,
		.ev_fields_op = { .op = MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS,
				  .fields = (struct mrc_ctl_ev_field *)f,
				  .field_count = nf },
	};

	return mrc_ctl_modify_ev_profile(e->ctx, id, &a, mask);
}

/* profile @id's fields (at most @room) into @f: how many, or -1 */
static int fields_get(struct env *e, uint64_t id, struct mrc_ctl_ev_field *f,
		      int room)
{
	struct mrc_ctl_ev_profile_attr a = {
		.ev_fields_op = { .op = MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS,
				  .fields = f, .field_count = room },
	};

	if (mrc_ctl_query_ev_profile(e->ctx, id, &a, EVP_FIELDS))
		return -1;
	return a.ev_fields_op.field_count;
}

/* the misuse of fields on the way INIT -> OFFLINE of an EXP profile */
static void exp_fields_misuse(struct env *e)
{
	const int m = EVP_STATE | EVP_SHAPE | EVP_FIELDS;
	const uint32_t off = MRC_CTL_PROFILE_OFFLINE, exp = MRC_CTL_EV_MODE_EXP;
	struct mrc_ctl_ev_field f[17];
	struct mrc_ctl_ev_profile_attr a = {};
	int i;

	for (i = 0; i < 17; i++)
		f[i] = (struct mrc_ctl_ev_field){ .width = 1, .mask = 1 };
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, f, 17, m), E2BIG,
		"MODIFY_FIELDS of 17 fields (16 at most): E2BIG");
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, f, 6, m), EINVAL,
		"6 fields, the format having 5: EINVAL");
	memcpy(f, xfields, sizeof(xfields));
	f[1].width = 0;
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, f, 3, m), EINVAL,
		"a field of width 0: EINVAL");
	f[1].width = 33;
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, f, 3, m), EINVAL,
		"a field of width 33: EINVAL");
	f[1].width = 32;
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, f, 3, m), EINVAL,
		"a field of 32 bits in a format field of 16: EINVAL");
	f[1].width = 16;
	f[1].mask = 0x10000;
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, f, 3, m), EINVAL,
		"a mask with a bit past the field's width: EINVAL");
	f[1].mask = 0xffff;
	f[1].init_val = 0x10000;
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, f, 3, m), EINVAL,
		"an init value that does not fit the width: EINVAL");
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, NULL, 3, m), EINVAL,
		"MODIFY_FIELDS with NULL fields: EINVAL");
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, xfields, -1, m), EINVAL,
		"MODIFY_FIELDS of -1 fields: EINVAL");
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, xfields, 0, m), EINVAL,
		"MODIFY_FIELDS of no fields: EINVAL");
	a.ev_fields_op.op = MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS;
	a.ev_fields_op.fields = f;
	a.ev_fields_op.field_count = 3;
	T_ERRNO(mrc_ctl_modify_ev_profile(e->ctx, XP, &a, EVP_FIELDS), EINVAL,
		"QUERY_FIELDS on a modify: EINVAL");
	a.ev_fields_op.op = MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS;
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, XP, &a, EVP_FIELDS), EINVAL,
		"MODIFY_FIELDS on a query: EINVAL");
	a.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, XP, &a, EVP_FIELDS | EVP_OP),
		EINVAL, "EV_OP and EV_FIELDS_OP in one call: EINVAL");
	T_ERRNO(evp_set(e, XP, off, exp, 0, 4, xfields, 3, m), EINVAL,
		"an EXP profile of format 0: EINVAL");
	T_ERRNO(evp_set(e, XP, off, exp, XF, 4, xfields, 3,
			EVP_STATE | MRC_CTL_EV_PROFILE_MODE |
			MRC_CTL_EV_PROFILE_COUNT | EVP_FIELDS), EINVAL,
		"INIT -> OFFLINE, EXP without a format id: EINVAL");
	T_ERRNO(evp_set(e, XP, off, exp | MRC_CTL_EV_MODE_GEN, XF, 4, xfields, 3,
			m), EINVAL, "mode EXP|GEN (one mode, not two): EINVAL");
}

/* the misuse of REPLACE_EV on an OFFLINE EXP profile of 32 EV bits */
static void exp_replace_misuse(struct env *e)
{
	struct mrc_ctl_ev u = MRC_CTL_EV_UNPOPULATED, x = ev32(0x0001e0ff, 1);
	struct mrc_ctl_ev_op_entry r = rep(u, x, MRC_CTL_EV_ASSUMED_BAD, 0);
	static struct mrc_ctl_ev_op_entry many[EVS + 1];

	T_ERRNO(replace(e, XP, &r, 1), EINVAL,
		"REPLACE_EV to ASSUMED_BAD (GOOD or DENIED): EINVAL");
	r = rep(u, x, MRC_CTL_EV_GOOD, 1 << 5);
	T_ERRNO(replace(e, XP, &r, 1), EINVAL, "REPLACE_EV, unknown flags: EINVAL");
	r = rep(u, ev32(0x0001e0ff, 0), MRC_CTL_EV_GOOD, 0);
	T_ERRNO(replace(e, XP, &r, 1), EINVAL,
		"REPLACE_EV to an EV of port 0: EINVAL");
	r.ev_new.port = 17;
	T_ERRNO(replace(e, XP, &r, 1), EINVAL,
		"REPLACE_EV to an EV of port 17: EINVAL");
	r = rep(ev32(0x0001e001, 17), x, MRC_CTL_EV_GOOD, 0);
	T_ERRNO(replace(e, XP, &r, 1), ENOENT,
		"REPLACE_EV of an EV of port 17 (none such): ENOENT");
	r = rep(u, x, MRC_CTL_EV_GOOD, 0);
	T_ERRNO(replace(e, XP, NULL, 1), EINVAL, "REPLACE_EV, NULL entries: EINVAL");
	T_ERRNO(replace(e, XP, many, EVS + 1), EINVAL,
		"REPLACE_EV of 257 entries (ev_op_max_entries 256): EINVAL");
	T_ERRNO(ev_op(e, XP, true, MRC_CTL_EV_OP_REPLACE_EV, &r, 1), EINVAL,
		"REPLACE_EV on a query: EINVAL");
	T_ERRNO(ev_op(e, XP, false, MRC_CTL_EV_OP_QUERY_EV_ARRAY, &r, 1), EINVAL,
		"QUERY_EV_ARRAY on a modify: EINVAL");
	T_ERRNO(ev_op(e, XP, false, MRC_CTL_EV_OP_QUERY_EV_STATE, &r, 1), EINVAL,
		"QUERY_EV_STATE on a modify: EINVAL");
}

/* the EV array of an OFFLINE EXP profile of 4 places: replacements */
static void exp_replace(struct env *e)
{
	const struct mrc_ctl_ev u = MRC_CTL_EV_UNPOPULATED;
	const struct mrc_ctl_ev A = ev32(0x0001e001, 1), B = ev32(0x0002e002, 2);
	const struct mrc_ctl_ev C = ev32(0x0003e003, 1), D = ev32(0x0004e004, 1);
	const struct mrc_ctl_ev E = ev32(0x0005e005, 2);
	struct mrc_ctl_ev_op_entry r[2];
	struct mrc_ctl_ev want[4] = { u, u, u, u };

	T_TRUE(array_is(e, XP, want, 4, -1),
	       "QUERY_EV_ARRAY: 4 places, all unpopulated (zero bytes, port 0)");
	T_ERRNO(evp_set(e, XP, MRC_CTL_PROFILE_ONLINE, 0, 0, 0, NULL, 0,
			EVP_STATE | EVP_ONLINE), EINVAL,
		"OFFLINE -> ONLINE with unpopulated places: EINVAL");
	r[0] = rep(u, A, MRC_CTL_EV_GOOD, 0);
	T_RC(replace(e, XP, r, 1), 0, "REPLACE_EV of one unpopulated place by A, port 1");
	want[0] = A;
	T_TRUE(array_is(e, XP, want, 4, -1), "... the first place is A");
	r[0] = rep(u, B, MRC_CTL_EV_GOOD, MRC_CTL_EV_OP_F_ALL_COPIES);
	T_RC(replace(e, XP, r, 1), 0,
	     "REPLACE_EV of every unpopulated place by B, port 2 (ALL_COPIES)");
	want[1] = want[2] = want[3] = B;
	T_TRUE(array_is(e, XP, want, 4, -1), "... A, B, B, B");
	r[0] = rep(C, D, MRC_CTL_EV_GOOD, 0);
	T_ERRNO(replace(e, XP, r, 1), ENOENT, "REPLACE_EV of an EV not in the array: ENOENT");
	r[0] = rep(B, D, MRC_CTL_EV_GOOD, MRC_CTL_EV_OP_F_ALL_COPIES);
	r[1] = rep(C, D, MRC_CTL_EV_GOOD, 0);
	T_ERRNO(replace(e, XP, r, 2), ENOENT,
		"REPLACE_EV of B, then of an EV not there: ENOENT");
	T_TRUE(array_is(e, XP, want, 4, -1), "... and nothing replaced: A, B, B, B");
	r[0] = rep(A, A, MRC_CTL_EV_GOOD, 0);
	r[0].ev.port = 2;
	T_ERRNO(replace(e, XP, r, 1), ENOENT,
		"REPLACE_EV of A on port 2 (A is port 1's): ENOENT");
	r[0] = rep(B, D, MRC_CTL_EV_GOOD, 0);
	T_RC(replace(e, XP, r, 1), 0, "REPLACE_EV of B by D, port 1 (one copy)");
	want[1] = D;
	T_TRUE(array_is(e, XP, want, 4, -1), "... A, D, B, B");
	r[0] = rep(B, E, MRC_CTL_EV_DENIED, 0);
	T_RC(replace(e, XP, r, 1), 0, "REPLACE_EV of B by E, port 2, DENIED");
	want[2] = E;
	T_TRUE(array_is(e, XP, want, 4, 2), "... A, D, E (DENIED), B");
	exp_replace_misuse(e);
	T_TRUE(array_is(e, XP, want, 4, 2), "the misuse changed nothing");
	T_TRUE(ev_state(e, XP, A) == MRC_CTL_EV_GOOD,
	       "QUERY_EV_STATE of A, OFFLINE, no QP bound: GOOD");
	T_TRUE(ev_state(e, XP, E) == MRC_CTL_EV_DENIED,
	       "QUERY_EV_STATE of E: DENIED");
	T_TRUE(!ev_state(e, XP, C) && errno == ENOENT,
	       "QUERY_EV_STATE of an EV not in the array: ENOENT");
	T_TRUE(!ev_state(e, XP, u) && errno == ENOENT,
	       "QUERY_EV_STATE of an unpopulated place: ENOENT");
}

/*
 * An EV with bits past the profile's (the sum of its masks' bits): not
 * taken by REPLACE_EV, and not taken ONLINE when the fields shrink under
 * it. A profile of its own, so that what is refused stays apart.
 */
static void exp_overflow(struct env *e)
{
	const struct mrc_ctl_ev u = MRC_CTL_EV_UNPOPULATED, A = ev32(0x0001e001, 1);
	struct mrc_ctl_ev big = A;
	struct mrc_ctl_ev_op_entry r = rep(u, A, MRC_CTL_EV_GOOD, 0);

	big.val[4] = 0x80;
	T_RC(evp_set(e, XP + 2, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_MODE_EXP, XF, 1,
		     xfields, 3, EVP_STATE | EVP_SHAPE | EVP_FIELDS), 0,
	     "profile %d: EXP of 1 EV, 32 EV bits, OFFLINE", XP + 2);
	T_RC(replace(e, XP + 2, &r, 1), 0, "... its place populated with A");
	r = rep(A, big, MRC_CTL_EV_GOOD, 0);
	T_ERRNO(replace(e, XP + 2, &r, 1), EINVAL,
		"REPLACE_EV of A by an EV with a bit past the profile's 32: EINVAL");
	T_TRUE(array_is(e, XP + 2, &A, 1, -1), "... A stays");
	T_RC(evp_set(e, XP + 2, 0, 0, 0, 0, xfields, 2, EVP_FIELDS), 0,
	     "MODIFY_FIELDS: the locator and one 16-bit field, 16 EV bits");
	T_ERRNO(evp_set(e, XP + 2, MRC_CTL_PROFILE_ONLINE, 0, 0, 0, NULL, 0,
			EVP_STATE | EVP_ONLINE), EINVAL,
		"OFFLINE -> ONLINE with A's 32 bits past the fields' 16: EINVAL");
	T_RC(evp_set(e, XP + 2, MRC_CTL_PROFILE_INIT, 0, 0, 0, NULL, 0, EVP_STATE),
	     0, "profile %d OFFLINE -> INIT", XP + 2);
}

/* the states of an ONLINE EXP profile's EVs: A, D, E (DENIED), B */
static void exp_states(struct env *e)
{
	const struct mrc_ctl_ev A = ev32(0x0001e001, 1), B = ev32(0x0002e002, 2);
	const struct mrc_ctl_ev C = ev32(0x0003e003, 1), D = ev32(0x0004e004, 1);
	const struct mrc_ctl_ev E = ev32(0x0005e005, 2);
	const struct mrc_ctl_ev want[4] = { A, D, E, B };
	struct mrc_ctl_ev_op_entry r[2] = { rep(D, D, MRC_CTL_EV_DENIED, 0),
					    rep(C, C, MRC_CTL_EV_DENIED, 0) };

	T_RC(ev_mark(e, XP, E, MRC_CTL_EV_GOOD), 0, "MODIFY_EV_STATE: E GOOD");
	T_TRUE(array_is(e, XP, want, 4, -1), "QUERY_EV_ARRAY: A, D, E, B, all GOOD");
	T_RC(ev_mark(e, XP, A, MRC_CTL_EV_DENIED), 0, "MODIFY_EV_STATE: A DENIED");
	T_TRUE(ev_state(e, XP, A) == MRC_CTL_EV_DENIED,
	       "QUERY_EV_STATE of A: DENIED");
	T_TRUE(array_is(e, XP, want, 4, 0), "QUERY_EV_ARRAY: A DENIED");
	T_RC(ev_mark(e, XP, A, MRC_CTL_EV_GOOD), 0, "MODIFY_EV_STATE: A GOOD again");
	T_TRUE(ev_state(e, XP, A) == MRC_CTL_EV_GOOD, "QUERY_EV_STATE of A: GOOD");
	T_ERRNO(ev_mark(e, XP, C, MRC_CTL_EV_DENIED), ENOENT,
		"MODIFY_EV_STATE of an EV not in the array: ENOENT");
	T_ERRNO(ev_mark(e, XP, A, MRC_CTL_EV_ASSUMED_BAD), EINVAL,
		"MODIFY_EV_STATE to ASSUMED_BAD: EINVAL");
	T_ERRNO(ev_op(e, XP, false, MRC_CTL_EV_OP_MODIFY_EV_STATE, r, 2), ENOENT,
		"MODIFY_EV_STATE of D, then of an EV not there: ENOENT");
	T_TRUE(ev_state(e, XP, D) == MRC_CTL_EV_DENIED,
	       "... D was denied (entries in order, up to the failure)");
	T_RC(ev_mark(e, XP, D, MRC_CTL_EV_GOOD), 0, "MODIFY_EV_STATE: D GOOD again");
	r[0] = rep(A, C, MRC_CTL_EV_GOOD, 0);
	T_ERRNO(replace(e, XP, r, 1), EINVAL, "REPLACE_EV ONLINE: EINVAL");
	T_ERRNO(evp_set(e, XP, 0, 0, 0, 0, xfields, 3, EVP_FIELDS), EINVAL,
		"MODIFY_FIELDS ONLINE: EINVAL");
}

/* the format of an EV profile: EBUSY while the profile needs it */
static void exp_format_busy(struct env *e)
{
	T_ERRNO(fmt_set(e, XF, MRC_CTL_PROFILE_OFFLINE, 0, NULL, 0,
			MRC_CTL_EV_FMT_PROFILE_STATE), EBUSY,
		"format ONLINE -> OFFLINE while an ONLINE EV profile uses it: EBUSY");
	T_RC(evp_set(e, XP, MRC_CTL_PROFILE_OFFLINE, 0, 0, 0, NULL, 0, EVP_STATE), 0,
	     "the EV profile ONLINE -> OFFLINE");
	T_RC(fmt_set(e, XF, MRC_CTL_PROFILE_OFFLINE, 0, NULL, 0,
		     MRC_CTL_EV_FMT_PROFILE_STATE), 0,
	     "... then the format ONLINE -> OFFLINE");
	T_ERRNO(evp_set(e, XP, MRC_CTL_PROFILE_ONLINE, 0, 0, 0, NULL, 0, EVP_STATE),
		EINVAL, "an EV profile of an OFFLINE format -> ONLINE: EINVAL");
	T_ERRNO(fmt_set(e, XF, MRC_CTL_PROFILE_INIT, 0, NULL, 0,
			MRC_CTL_EV_FMT_PROFILE_STATE), EBUSY,
		"format OFFLINE -> INIT while an EV profile names it: EBUSY");
	T_RC(fmt_set(e, XF, MRC_CTL_PROFILE_ONLINE, 0, NULL, 0,
		     MRC_CTL_EV_FMT_PROFILE_STATE), 0, "the format ONLINE again");
}

static void exp_profile(struct env *e)
{
	static const uint8_t w5[5] = { 32, 16, 16, 16, 16 };
	const struct mrc_ctl_ev u = MRC_CTL_EV_UNPOPULATED;
	const struct mrc_ctl_ev want2[2] = { u, u };
	struct mrc_ctl_ev_profile_attr q = {};
	struct mrc_ctl_ev_field f[4];
	struct mrc_ctl_ev_op_entry ent[2], x;
	uint32_t free0;
	int n;

	T_RC(fmt_set(e, XF, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_SRV6, w5, 5,
		     MRC_CTL_EV_FMT_PROFILE_STATE | MRC_CTL_EV_FMT_PROFILE_MODE |
		     MRC_CTL_EV_FMT_PROFILE_OP), 0,
	     "format %d: SRV6 32,16,16,16,16, OFFLINE", XF);
	T_RC(fmt_set(e, XF, MRC_CTL_PROFILE_ONLINE, 0, NULL, 0,
		     MRC_CTL_EV_FMT_PROFILE_STATE), 0, "... and ONLINE");
	free0 = ev_free(e);
	exp_fields_misuse(e);
	T_RC(evp_set(e, XP, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_MODE_EXP, XF, 4,
		     xfields, 3, EVP_STATE | EVP_SHAPE | EVP_FIELDS), 0,
	     "INIT -> OFFLINE: EXP, format %d, 4 EVs, 3 fields (32 EV bits)", XF);
	T_TRUE(ev_free(e) + 4 == free0, "ev_free_count: 4 taken");
	T_TRUE(!mrc_ctl_query_ev_profile(e->ctx, XP, &q, EVP_QUERY) &&
	       q.profile_state == MRC_CTL_PROFILE_OFFLINE &&
	       q.ev_mode == MRC_CTL_EV_MODE_EXP && q.ev_fmt_profile_id == XF &&
	       q.ev_count == 4,
	       "query: OFFLINE, EXP, format %d, 4 EVs", XF);
	n = fields_get(e, XP, f, 4);
	T_TRUE(n == 3 && !memcmp(f, xfields, sizeof(xfields)),
	       "QUERY_FIELDS: the 3 fields (%d)", n);
	q.ev_fields_op.op = MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS;
	q.ev_fields_op.fields = f;
	q.ev_fields_op.field_count = 1;
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, XP, &q, EVP_FIELDS), E2BIG,
		"QUERY_FIELDS into an array of 1: E2BIG");
	T_TRUE(q.ev_fields_op.field_count == 3, "... and field_count says 3 (%d)",
	       q.ev_fields_op.field_count);
	T_ERRNO(ev_op(e, XP, true, MRC_CTL_EV_OP_QUERY_EV_ARRAY, ent, 2), E2BIG,
		"QUERY_EV_ARRAY into an array of 2: E2BIG");
	memset(&q, 0, sizeof(q));
	q.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	T_ERRNO(mrc_ctl_query_ev_profile(e->ctx, XP, &q, EVP_OP), E2BIG,
		"QUERY_EV_ARRAY with no array: E2BIG");
	T_TRUE(q.ev_op.entry_count == 4, "... and entry_count says 4 (%d)",
	       q.ev_op.entry_count);
	exp_replace(e);
	exp_overflow(e);
	T_RC(evp_set(e, XP, MRC_CTL_PROFILE_ONLINE, 0, 0, 0, NULL, 0,
		     EVP_STATE | EVP_ONLINE), 0,
	     "every place populated: OFFLINE -> ONLINE");
	T_TRUE(!mrc_ctl_query_ev_profile(e->ctx, XP, &q, EVP_QUERY) &&
	       q.cur_profile_state == MRC_CTL_PROFILE_ONLINE && q.ev_count == 4,
	       "query: ONLINE, 4 EVs");
	exp_states(e);
	exp_format_busy(e);
	T_RC(evp_set(e, XP, 0, 0, 0, 2, NULL, 0, MRC_CTL_EV_PROFILE_COUNT), 0,
	     "OFFLINE, the count becomes 2");
	T_TRUE(array_is(e, XP, want2, 2, -1),
	       "QUERY_EV_ARRAY: 2 places, unpopulated again");
	T_RC(evp_set(e, XP, MRC_CTL_PROFILE_INIT, 0, 0, 0, NULL, 0, EVP_STATE), 0,
	     "OFFLINE -> INIT");
	T_TRUE(ev_free(e) == free0, "ev_free_count back to %u", free0);
	T_TRUE(fields_get(e, XP, f, 4) == 0 && array_get(e, XP, ent, 2) == 0,
	       "INIT: no fields, no EV array");
	x = rep(ev32(0x0001e001, 1), u, MRC_CTL_EV_GOOD, 0);
	T_ERRNO(ev_op(e, XP, true, MRC_CTL_EV_OP_QUERY_EV_STATE, &x, 1), ENOENT,
		"QUERY_EV_STATE of a profile in INIT: ENOENT");

	/* a format the device does not keep names nothing */
	T_ERRNO(evp_set(e, XP, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_MODE_EXP, NOFMT,
			1, xfields + 1, 1, EVP_STATE | EVP_SHAPE | EVP_FIELDS), EINVAL,
		"INIT -> OFFLINE, EXP of format %d, which is in INIT: EINVAL", NOFMT);
	T_TRUE(!mrc_ctl_query_ev_profile(e->ctx, XP, &q, EVP_QUERY) &&
	       q.profile_state == MRC_CTL_PROFILE_INIT,
	       "... and the profile stays in INIT");
}

static int popcount(uint32_t v)
{
	int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/*
 * GEN's place @j on the @planes ports of @port, as the kernel's contract
 * documents it: combination j / planes of the fields' ranges, the first
 * field changing fastest, each value's bits after the previous field's
 * from bit 7 of byte 0 on (the EV expansion read backwards), on the
 * device's port j % planes (+ 1: the planes are 0 to planes - 1)
 */
static struct mrc_ctl_ev gen_place(const struct mrc_ctl_ev_field *f, int nf,
				   const uint8_t *port, int planes, int j)
{
	struct mrc_ctl_ev ev = { .port = port[j % planes] };
	uint32_t c = j / planes, range, x;
	int i, b, k, bit = 0;

	for (i = 0; i < nf; i++) {
		if (!f[i].mask)
			continue;
		range = f[i].max_val - f[i].min_val + 1;
		x = f[i].min_val + c % range;
		c /= range;
		k = popcount(f[i].mask);
		for (b = k - 1; b >= 0; b--, bit++)
			if (x >> b & 1)
				ev.val[bit / 8] |= 0x80 >> (bit % 8);
	}
	return ev;
}

static void gen_profile(struct env *e)
{
	static const uint8_t w2[2] = { 16, 16 };
	int planes = 0, n, i;
	struct mrc_ctl_ev want[EVS];
	uint8_t port[16];
	struct mrc_ctl_ev_profile_attr q = {};
	struct mrc_ctl_ev_field f[3];
	struct mrc_ctl_ev_op_entry r;
	uint32_t free0;

	for (i = 1; i <= 16; i++)
		if (e->phy_port_mask & (1u << i))
			port[planes++] = i;
	n = 8 * planes;
	T_RC(fmt_set(e, GF, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_STEV, w2, 2,
		     MRC_CTL_EV_FMT_PROFILE_STATE | MRC_CTL_EV_FMT_PROFILE_MODE |
		     MRC_CTL_EV_FMT_PROFILE_OP), 0,
	     "format %d: STEV 16,16, OFFLINE", GF);
	T_RC(fmt_set(e, GF, MRC_CTL_PROFILE_ONLINE, 0, NULL, 0,
		     MRC_CTL_EV_FMT_PROFILE_STATE), 0, "... and ONLINE");
	free0 = ev_free(e);
	T_ERRNO(evp_set(e, GP, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_MODE_GEN, GF, EVS,
			NULL, 0, EVP_STATE | EVP_SHAPE), EINVAL,
		"INIT -> OFFLINE, GEN without fields: EINVAL");
	memcpy(f, gfields, sizeof(gfields));
	f[0].min_val = 3;
	f[0].max_val = 1;
	T_ERRNO(evp_set(e, GP, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_MODE_GEN, GF, EVS,
			f, 2, EVP_STATE | EVP_SHAPE | EVP_FIELDS), EINVAL,
		"a GEN field of min 3, max 1: EINVAL");
	memcpy(f, gfields, sizeof(gfields));
	f[1].max_val = 16;
	T_ERRNO(evp_set(e, GP, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_MODE_GEN, GF, EVS,
			f, 2, EVP_STATE | EVP_SHAPE | EVP_FIELDS), EINVAL,
		"a GEN field whose max (16) does not fit its mask's 4 bits: EINVAL");
	T_RC(evp_set(e, GP, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_MODE_GEN, GF, EVS,
		     gfields, 2, EVP_STATE | EVP_SHAPE | EVP_FIELDS), 0,
	     "INIT -> OFFLINE: GEN, format %d, 256 EVs asked, 2 fields", GF);
	r = rep(MRC_CTL_EV_UNPOPULATED, ev32(0x40000000, 1), MRC_CTL_EV_GOOD, 0);
	T_ERRNO(replace(e, GP, &r, 1), EINVAL,
		"REPLACE_EV of a GEN profile (the device fills its array): EINVAL");
	T_RC(evp_set(e, GP, MRC_CTL_PROFILE_ONLINE, 0, 0, 0, NULL, 0,
		     EVP_STATE | EVP_ONLINE), 0, "OFFLINE -> ONLINE");
	T_TRUE(!mrc_ctl_query_ev_profile(e->ctx, GP, &q, EVP_QUERY) &&
	       q.cur_profile_state == MRC_CTL_PROFILE_ONLINE &&
	       q.ev_mode == MRC_CTL_EV_MODE_GEN && q.ev_fmt_profile_id == GF &&
	       (int)q.ev_count == n,
	       "query: ONLINE, GEN, 8 combinations x %d planes = %d EVs (%u)",
	       planes, n, q.ev_count);
	T_TRUE(ev_free(e) + n == free0, "ev_free_count: the %d taken", n);
	T_TRUE(fields_get(e, GP, f, 3) == 2 && !memcmp(f, gfields, sizeof(gfields)),
	       "QUERY_FIELDS: the 2 fields");
	for (i = 0; i < n && i < EVS; i++)
		want[i] = gen_place(gfields, 2, port, planes, i);
	T_TRUE(array_is(e, GP, want, n, -1),
	       "QUERY_EV_ARRAY: place j is combination j / %d on port j %% %d + 1",
	       planes, planes);
	T_ERRNO(ev_op(e, GP, true, MRC_CTL_EV_OP_QUERY_EV_ARRAY, &r, 1), E2BIG,
		"QUERY_EV_ARRAY into an array of 1: E2BIG");
	if (n > 3) {
		T_RC(ev_mark(e, GP, want[3], MRC_CTL_EV_DENIED), 0,
		     "MODIFY_EV_STATE: place 3's EV DENIED");
		T_TRUE(ev_state(e, GP, want[3]) == MRC_CTL_EV_DENIED,
		       "QUERY_EV_STATE of it: DENIED");
		T_TRUE(ev_state(e, GP, want[2]) == MRC_CTL_EV_GOOD,
		       "QUERY_EV_STATE of place 2's: GOOD");
		T_TRUE(array_is(e, GP, want, n, 3), "QUERY_EV_ARRAY: place 3 DENIED");
		T_RC(ev_mark(e, GP, want[3], MRC_CTL_EV_GOOD), 0,
		     "MODIFY_EV_STATE: GOOD again");
	}
	T_RC(evp_set(e, GP, MRC_CTL_PROFILE_OFFLINE, 0, 0, 0, NULL, 0, EVP_STATE), 0,
	     "ONLINE -> OFFLINE");
	T_RC(evp_set(e, GP, MRC_CTL_PROFILE_INIT, 0, 0, 0, NULL, 0, EVP_STATE), 0,
	     "OFFLINE -> INIT");
	T_TRUE(ev_free(e) == free0, "ev_free_count back to %u", free0);
}

void t_ev_exp_profiles(struct env *e)
{
	struct mrc_ctl_device_attr ca = {};

	begin("EV profiles: EXP and GEN");
	T_TRUE(!mrc_ctl_query_device(e->vctx, &ca) &&
	       ca.ev.ev_mode_mask == (MRC_CTL_EV_MODE_AUTO | MRC_CTL_EV_MODE_EXP |
				      MRC_CTL_EV_MODE_GEN) &&
	       ca.ev.ev_max_width == 256 && ca.ev.ev_op_max_entries == 256 &&
	       ca.ev.ev_count_align == 1,
	       "mrc_ctl_query_device: AUTO, EXP and GEN; 256-bit EVs; 256 entries an op");
	exp_profile(e);
	gen_profile(e);
	T_RC(fmt_set(e, XF, MRC_CTL_PROFILE_OFFLINE, 0, NULL, 0,
		     MRC_CTL_EV_FMT_PROFILE_STATE), 0, "format %d ONLINE -> OFFLINE", XF);
	T_RC(fmt_set(e, XF, MRC_CTL_PROFILE_INIT, 0, NULL, 0,
		     MRC_CTL_EV_FMT_PROFILE_STATE), 0,
	     "... -> INIT, no EV profile naming it now");
	fmt_set(e, GF, MRC_CTL_PROFILE_OFFLINE, 0, NULL, 0, MRC_CTL_EV_FMT_PROFILE_STATE);
	T_RC(fmt_set(e, GF, MRC_CTL_PROFILE_INIT, 0, NULL, 0,
		     MRC_CTL_EV_FMT_PROFILE_STATE), 0, "format %d -> INIT", GF);
}
