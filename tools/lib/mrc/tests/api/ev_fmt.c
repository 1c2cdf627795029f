// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test: the EV format profiles of the controller API */
#include "api.h"

#define FMT		51	/* the format the section sets up */
#define FMT_STATE	MRC_CTL_EV_FMT_PROFILE_STATE
#define FMT_CUR		MRC_CTL_EV_FMT_PROFILE_CUR_STATE
#define FMT_MODE	MRC_CTL_EV_FMT_PROFILE_MODE
#define FMT_OP		MRC_CTL_EV_FMT_PROFILE_OP
#define FMT_FIELDS	16	/* the most a format has */

/* format @id: state @st, mode @mode and the @n widths of @w, as @mask says */
int fmt_set(struct env *e, uint64_t id, enum mrc_ctl_profile_state st,
	    uint32_t mode, const uint8_t *w, int n, int mask)
{
	struct mrc_ctl_ev_fmt_field f[FMT_FIELDS + 1] = {};
	struct mrc_ctl_ev_fmt_profile_attr a = {
		.profile_state = st,
		.ev_fmt_mode = mode,
		.ev_fmt_op = { .op = MRC_CTL_EV_FMT_OP_MODIFY_FIELDS,
			       .fmt_fields = f, .fmt_field_count = n },
	};
	int i;

	for (i = 0; i < n && i < (int)(sizeof(f) / sizeof(f[0])); i++)
		f[i].width = w[i];
	return mrc_ctl_modify_ev_fmt_profile(e->ctx, id, &a, mask);
}

/* format @id's state, mode and widths (at most @room); -1 if the query failed */
static int fmt_get(struct env *e, uint64_t id, uint32_t *state, uint32_t *mode,
		   uint8_t *w, int room)
{
	struct mrc_ctl_ev_fmt_field f[FMT_FIELDS];
	struct mrc_ctl_ev_fmt_profile_attr a = {
		.profile_state = 99, .cur_profile_state = 99, .ev_fmt_mode = 99,
		.ev_fmt_op = { .op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS,
			       .fmt_fields = f, .fmt_field_count = room },
	};
	int i;

	if (mrc_ctl_query_ev_fmt_profile(e->ctx, id, &a, FMT_STATE | FMT_CUR |
					 FMT_MODE | FMT_OP) ||
	    a.profile_state != a.cur_profile_state)
		return -1;
	*state = a.cur_profile_state;
	*mode = a.ev_fmt_mode;
	for (i = 0; i < a.ev_fmt_op.fmt_field_count; i++)
		w[i] = f[i].width;
	return a.ev_fmt_op.fmt_field_count;
}

/* the misuse of either call, whatever the format's state */
static void fmt_misuse(struct env *e)
{
	static const uint8_t w17[17] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
					 1, 1, 1, 1, 1 };
	static const uint8_t w0[2] = { 16, 0 }, w129[1] = { 129 };
	struct mrc_ctl_ev_fmt_field f[2] = {};
	struct mrc_ctl_ev_fmt_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_OFFLINE,
		.ev_fmt_mode = MRC_CTL_EV_FMT_MODE_UDP,
	};

	T_ERRNO(mrc_ctl_modify_ev_fmt_profile(e->ctx, 0, &a, FMT_STATE | FMT_MODE),
		EINVAL, "format modify of id 0: EINVAL");
	T_ERRNO(mrc_ctl_query_ev_fmt_profile(e->ctx, 0, &a, FMT_CUR), EINVAL,
		"format query of id 0: EINVAL");
	T_ERRNO(mrc_ctl_modify_ev_fmt_profile(e->ctx, FMT, NULL, FMT_STATE),
		EINVAL, "format modify: NULL attributes: EINVAL");
	T_ERRNO(mrc_ctl_query_ev_fmt_profile(NULL, FMT, &a, FMT_CUR), EINVAL,
		"format query: NULL context: EINVAL");
	T_ERRNO(mrc_ctl_query_ev_fmt_profile(e->ctx, FMT, &a, 1 << 20), EINVAL,
		"format query: an unknown mask bit: EINVAL");
	T_ERRNO(fmt_set(e, FMT, 3, MRC_CTL_EV_FMT_MODE_UDP, NULL, 0,
			FMT_STATE | FMT_MODE), EINVAL, "format state 3: EINVAL");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, 0, NULL, 0,
			FMT_STATE | FMT_MODE), EINVAL, "format mode 0: EINVAL");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE,
			MRC_CTL_EV_FMT_MODE_STEV | MRC_CTL_EV_FMT_MODE_UDP, NULL, 0,
			FMT_STATE | FMT_MODE), EINVAL,
		"format mode STEV|UDP (one mode, not two): EINVAL");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, 1 << 3, NULL, 0,
			FMT_STATE | FMT_MODE), EINVAL,
		"format mode 1 << 3 (not in ev_fmt_mode_mask): EINVAL");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_UDP,
			w17, 17, FMT_STATE | FMT_MODE | FMT_OP), E2BIG,
		"MODIFY_FIELDS of 17 widths (the device takes 16): E2BIG");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_UDP,
			w0, 2, FMT_STATE | FMT_MODE | FMT_OP), EINVAL,
		"MODIFY_FIELDS with a width of 0: EINVAL");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_SRV6,
			w129, 1, FMT_STATE | FMT_MODE | FMT_OP), EINVAL,
		"MODIFY_FIELDS with a width of 129 (a field is at most 128): EINVAL");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_UDP,
			NULL, 0, FMT_STATE | FMT_MODE | FMT_OP), EINVAL,
		"MODIFY_FIELDS of no widths: EINVAL");
	a.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_MODIFY_FIELDS;
	a.ev_fmt_op.fmt_field_count = 2;
	T_ERRNO(mrc_ctl_modify_ev_fmt_profile(e->ctx, FMT, &a, FMT_OP), EINVAL,
		"MODIFY_FIELDS with NULL fields: EINVAL");
	a.ev_fmt_op.fmt_fields = f;
	a.ev_fmt_op.fmt_field_count = -1;
	T_ERRNO(mrc_ctl_modify_ev_fmt_profile(e->ctx, FMT, &a, FMT_OP), EINVAL,
		"MODIFY_FIELDS of -1 fields: EINVAL");
	a.ev_fmt_op.fmt_field_count = 2;
	T_ERRNO(mrc_ctl_query_ev_fmt_profile(e->ctx, FMT, &a, FMT_OP), EINVAL,
		"MODIFY_FIELDS on a query: EINVAL");
	a.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS;
	T_ERRNO(mrc_ctl_modify_ev_fmt_profile(e->ctx, FMT, &a, FMT_OP), EINVAL,
		"QUERY_FIELDS on a modify: EINVAL");
	a.ev_fmt_op.op = (enum mrc_ctl_ev_fmt_op)7;
	T_ERRNO(mrc_ctl_query_ev_fmt_profile(e->ctx, FMT, &a, FMT_OP), EINVAL,
		"an unknown field op: EINVAL");
	a.vendor_cfg[5] = 1;
	T_ERRNO(mrc_ctl_query_ev_fmt_profile(e->ctx, FMT, &a,
					     MRC_CTL_EV_FMT_VENDOR_CFG), EINVAL,
		"a vendor configuration (mrc has none): EINVAL");
}

/* which widths each mode takes: their sum at most stev 32, udp 16, srv6 256 */
static void fmt_mode_limits(struct env *e)
{
	static const uint8_t stev[2] = { 16, 16 }, stev33[2] = { 16, 17 };
	static const uint8_t udp[1] = { 16 }, udp17[2] = { 8, 9 };
	static const uint8_t srv6[2] = { 128, 128 }, srv6_257[3] = { 128, 128, 1 };
	const int m = FMT_STATE | FMT_MODE | FMT_OP;
	const uint32_t off = MRC_CTL_PROFILE_OFFLINE;

	T_RC(fmt_set(e, FMT + 1, off, MRC_CTL_EV_FMT_MODE_STEV, stev, 2, m), 0,
	     "STEV 16,16 (32 bits)");
	T_ERRNO(fmt_set(e, FMT + 1, off, MRC_CTL_EV_FMT_MODE_STEV, stev33, 2, m),
		EINVAL, "STEV 16,17 (33 bits): EINVAL");
	T_RC(fmt_set(e, FMT + 1, off, MRC_CTL_EV_FMT_MODE_UDP, udp, 1, m), 0,
	     "UDP 16 bits");
	T_ERRNO(fmt_set(e, FMT + 1, off, MRC_CTL_EV_FMT_MODE_UDP, udp17, 2, m),
		EINVAL, "UDP 8,9 (17 bits): EINVAL");
	T_RC(fmt_set(e, FMT + 1, off, MRC_CTL_EV_FMT_MODE_SRV6, srv6, 2, m), 0,
	     "SRV6 128,128 (256 bits: a uSID container and an SRH segment)");
	T_ERRNO(fmt_set(e, FMT + 1, off, MRC_CTL_EV_FMT_MODE_SRV6, srv6_257, 3, m),
		EINVAL, "SRV6 128,128,1 (257 bits): EINVAL");
	T_ERRNO(fmt_set(e, FMT + 1, off, MRC_CTL_EV_FMT_MODE_UDP, NULL, 0, FMT_MODE),
		EINVAL, "SRV6 256 bits to UDP: EINVAL");
	T_RC(fmt_set(e, FMT + 1, MRC_CTL_PROFILE_INIT, 0, NULL, 0, FMT_STATE), 0,
	     "OFFLINE -> INIT");
}

void t_ev_fmt_profiles(struct env *e)
{
	static const uint8_t w5[5] = { 32, 16, 16, 16, 16 };
	struct mrc_ctl_ev_fmt_profile_attr q = {};
	struct mrc_ctl_device_attr ca = {};
	struct mrc_ctl_ev_fmt_field f[2];
	uint32_t st, mode;
	uint8_t w[16];
	int i, n, taken = 0;

	begin("EV format profiles");
	T_TRUE(!mrc_ctl_query_device(e->vctx, &ca) &&
	       ca.ev.ev_max_fmt_profiles == 16 &&
	       ca.ev.ev_fmt_mode_mask == (MRC_CTL_EV_FMT_MODE_STEV |
					  MRC_CTL_EV_FMT_MODE_SRV6 |
					  MRC_CTL_EV_FMT_MODE_UDP),
	       "mrc_ctl_query_device: 16 EV format profiles, STEV, SRV6 and UDP");
	fmt_misuse(e);
	n = fmt_get(e, FMT, &st, &mode, w, 16);
	T_TRUE(n == 0 && st == MRC_CTL_PROFILE_INIT && !mode,
	       "a format never set is in INIT, no mode, no fields (%d)", n);
	q.ev_fmt_op.op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS;
	T_RC(mrc_ctl_query_ev_fmt_profile(e->ctx, FMT, &q, FMT_OP), 0,
	     "QUERY_FIELDS of it with no array (NULL, 0)");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_ONLINE, MRC_CTL_EV_FMT_MODE_SRV6,
			w5, 5, FMT_STATE | FMT_MODE | FMT_OP), EINVAL,
		"INIT -> ONLINE: EINVAL");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, 0, NULL, 0, FMT_STATE),
		EINVAL, "INIT -> OFFLINE without a mode: EINVAL");
	T_RC(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_SRV6,
		     NULL, 0, FMT_STATE | FMT_MODE), 0, "INIT -> OFFLINE, SRV6");
	n = fmt_get(e, FMT, &st, &mode, w, 16);
	T_TRUE(n == 0 && st == MRC_CTL_PROFILE_OFFLINE &&
	       mode == MRC_CTL_EV_FMT_MODE_SRV6,
	       "query: OFFLINE, SRV6, no fields yet (%d)", n);
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_ONLINE, 0, NULL, 0, FMT_STATE),
		EINVAL, "OFFLINE -> ONLINE without widths: EINVAL");
	T_RC(fmt_set(e, FMT, 0, 0, w5, 5, FMT_OP), 0,
	     "MODIFY_FIELDS 32,16,16,16,16 OFFLINE");
	n = fmt_get(e, FMT, &st, &mode, w, 16);
	T_TRUE(n == 5 && !memcmp(w, w5, 5), "QUERY_FIELDS: 32,16,16,16,16 (%d)", n);
	q.ev_fmt_op.fmt_fields = f;
	q.ev_fmt_op.fmt_field_count = 2;
	T_ERRNO(mrc_ctl_query_ev_fmt_profile(e->ctx, FMT, &q, FMT_OP), E2BIG,
		"QUERY_FIELDS into an array of 2: E2BIG");
	T_TRUE(q.ev_fmt_op.fmt_field_count == 5,
	       "... and fmt_field_count says 5 (%d)", q.ev_fmt_op.fmt_field_count);
	q.ev_fmt_op.fmt_fields = NULL;
	q.ev_fmt_op.fmt_field_count = 0;
	T_ERRNO(mrc_ctl_query_ev_fmt_profile(e->ctx, FMT, &q, FMT_OP), E2BIG,
		"QUERY_FIELDS with no array: E2BIG");
	T_TRUE(q.ev_fmt_op.fmt_field_count == 5, "... and 5 needed (%d)",
	       q.ev_fmt_op.fmt_field_count);
	T_ERRNO(fmt_set(e, FMT, 0, MRC_CTL_EV_FMT_MODE_STEV, NULL, 0, FMT_MODE),
		EINVAL, "mode STEV with 96 bits of fields (at most 32): EINVAL");
	T_RC(fmt_set(e, FMT, MRC_CTL_PROFILE_ONLINE, 0, NULL, 0, FMT_STATE), 0,
	     "OFFLINE -> ONLINE");
	n = fmt_get(e, FMT, &st, &mode, w, 16);
	T_TRUE(n == 5 && st == MRC_CTL_PROFILE_ONLINE &&
	       mode == MRC_CTL_EV_FMT_MODE_SRV6,
	       "query: ONLINE, SRV6, 5 fields");
	T_ERRNO(fmt_set(e, FMT, 0, MRC_CTL_EV_FMT_MODE_UDP, NULL, 0, FMT_MODE),
		EINVAL, "an ONLINE format's mode does not change: EINVAL");
	T_ERRNO(fmt_set(e, FMT, 0, 0, w5, 4, FMT_OP), EINVAL,
		"nor its fields: EINVAL");
	T_ERRNO(fmt_set(e, FMT, MRC_CTL_PROFILE_INIT, 0, NULL, 0, FMT_STATE),
		EINVAL, "ONLINE -> INIT: EINVAL");
	T_RC(fmt_set(e, FMT, MRC_CTL_PROFILE_OFFLINE, 0, NULL, 0, FMT_STATE), 0,
	     "ONLINE -> OFFLINE");
	T_RC(fmt_set(e, FMT, 0, 0, w5, 4, FMT_OP), 0,
	     "OFFLINE, the fields change: 32,16,16,16");
	n = fmt_get(e, FMT, &st, &mode, w, 16);
	T_TRUE(n == 4 && st == MRC_CTL_PROFILE_OFFLINE, "query: 4 fields (%d)", n);
	T_RC(fmt_set(e, FMT, MRC_CTL_PROFILE_INIT, 0, NULL, 0, FMT_STATE), 0,
	     "OFFLINE -> INIT");
	n = fmt_get(e, FMT, &st, &mode, w, 16);
	T_TRUE(n == 0 && st == MRC_CTL_PROFILE_INIT && !mode,
	       "INIT again: nothing kept (%d)", n);
	fmt_mode_limits(e);

	/* the device keeps 16 */
	for (i = 0; i < 16; i++)
		taken += !fmt_set(e, 3000 + i, MRC_CTL_PROFILE_OFFLINE,
				  MRC_CTL_EV_FMT_MODE_UDP, NULL, 0,
				  FMT_STATE | FMT_MODE);
	T_TRUE(taken == 16, "16 formats OFFLINE (%d)", taken);
	T_ERRNO(fmt_set(e, 4000, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_UDP,
			NULL, 0, FMT_STATE | FMT_MODE), ENOSPC, "a 17th: ENOSPC");
	for (i = 0; i < 16; i++)
		fmt_set(e, 3000 + i, MRC_CTL_PROFILE_INIT, 0, NULL, 0, FMT_STATE);
	T_RC(fmt_set(e, 4000, MRC_CTL_PROFILE_OFFLINE, MRC_CTL_EV_FMT_MODE_UDP,
		     NULL, 0, FMT_STATE | FMT_MODE), 0,
	     "once they are back in INIT, it fits");
	fmt_set(e, 4000, MRC_CTL_PROFILE_INIT, 0, NULL, 0, FMT_STATE);
}
