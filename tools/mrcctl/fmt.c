// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl ev fmt: the EV format profiles a device keeps for its controller
 * (the OCP MRC API's): where the EVs of exp and gen EV profiles go in a
 * packet (mode) and the widths of their fields
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

static const char *const fmt_modes[] = {
	[MRC_EV_FMT_MODE_STEV] = "stev",
	[MRC_EV_FMT_MODE_SRV6] = "srv6",
	[MRC_EV_FMT_MODE_UDP] = "udp",
};

/* the fields' widths, in order: "widths 32,16,80"; none: nothing */
static void rec_fmt_widths(struct rec *r, const struct nlmsghdr *nlh)
{
	char buf[MRC_MAX_EV_FIELDS * 4 + 1] = "";
	const struct nlattr *a;
	size_t len = 0;
	unsigned int n = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != MRC_A_EV_FMT_WIDTH ||
		    !nl_attr_ok(a, MNL_TYPE_U32) || n++ == MRC_MAX_EV_FIELDS)
			continue;
		len += snprintf(buf + len, sizeof(buf) - len, "%s%u",
				len ? "," : "", mnl_attr_get_u32(a));
	}
	if (len)
		rec_num_list(r, "widths", "widths ", buf);
}

/* "DEV fmt N STATE users U mode MODE widths W,W..." */
static int cb_fmt(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	nl_attrs(nlh, tb, MRC_A_EV_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_EV_DEV_NAME], NULL))
		return MNL_CB_OK;
	if (tb[MRC_A_EV_FMT_ID])
		rec_num(&r, "id", "fmt ", NULL, nl_attr_uint(tb[MRC_A_EV_FMT_ID]));
	rec_attr_enum(&r, "state", "", tb[MRC_A_EV_PROFILE_STATE],
		      profile_states, ARRAY_SIZE(profile_states));
	rec_attr_u32(&r, "users", "users ", tb[MRC_A_EV_FMT_USERS]);
	rec_attr_enum(&r, "mode", "mode ", tb[MRC_A_EV_FMT_MODE], fmt_modes,
		      ARRAY_SIZE(fmt_modes));
	rec_fmt_widths(&r, nlh);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

/* WIDTHS: 1 to 16 widths of 1..128 bits, comma-separated */
static unsigned int parse_widths(const char *cmd, const char *s,
				 uint32_t *w)
{
	char word[16];
	unsigned int n = 0;
	size_t len;

	for (;;) {
		len = strcspn(s, ",");
		if (n == MRC_MAX_EV_FIELDS)
			die_usage("%s: more than %d widths", cmd, MRC_MAX_EV_FIELDS);
		snprintf(word, sizeof(word), "%.*s", (int)len, s);
		if (len >= sizeof(word) || !parse_u32(word, 128, &w[n]) || !w[n])
			die_usage("%s: invalid width \"%.*s\" (1..128 bits)", cmd,
				  (int)len, s);
		n++;
		if (!s[len])
			return n;
		s += len + 1;
	}
}

/* @n widths as ev fmt set takes them: "32,16,80" */
static void fmt_widths_str(const uint32_t *w, unsigned int n, char *buf,
			   size_t len)
{
	unsigned int i;
	size_t at = 0;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%u", i ? "," : "", w[i]);
}

/*
 * apply, format @id of @dev online: 0 if it has the mode @m (if @mode_set)
 * and the @n widths @w (if any) asked, 1 after the error if not; -1 if it
 * is not online (the line is sent)
 */
static int fmt_applied(struct ctx *c, const char *dev, uint64_t id,
		       bool mode_set, uint32_t m, const uint32_t *w,
		       unsigned int n)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	char buf[MNL_SOCKET_BUFFER_SIZE], what[40];
	char have[MRC_MAX_EV_FIELDS * 4 + 1], want[sizeof(have)];
	uint32_t hw[MRC_MAX_EV_FIELDS];
	struct nlmsghdr *nlh, *fmt;
	const struct nlattr *a;
	unsigned int hn = 0;
	int ret = 0;

	nlh = nl_msg(c, buf, MRC_CMD_EV_FMT_GET, 0, MRC_A_EV_DEV_NAME, dev);
	mnl_attr_put_u64(nlh, MRC_A_EV_FMT_ID, id);
	fmt = apply_get_online(c, nlh, MRC_A_EV_PROFILE_STATE, MRC_A_EV_MAX);
	if (!fmt)
		return -1;
	nl_attrs(fmt, tb, MRC_A_EV_MAX);
	snprintf(what, sizeof(what), "ev fmt %s", apply_num(id, have));
	if (mode_set)
		ret = apply_cmp(dev, what, "mode",
				rec_enum_name(tb[MRC_A_EV_FMT_MODE], fmt_modes,
					      ARRAY_SIZE(fmt_modes)),
				fmt_modes[m]);
	mnl_attr_for_each(a, fmt, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == MRC_A_EV_FMT_WIDTH &&
		    nl_attr_ok(a, MNL_TYPE_U32) && hn < MRC_MAX_EV_FIELDS)
			hw[hn++] = mnl_attr_get_u32(a);
	fmt_widths_str(hw, hn, have, sizeof(have));
	fmt_widths_str(w, n, want, sizeof(want));
	if (!ret && n)
		ret = apply_cmp(dev, what, "widths", hn ? have : NULL, want);
	free(fmt);
	return ret;
}

/*
 * ev fmt set dev DEV id N [ state STATE ] [ mode MODE ] [ widths W,W... ]:
 * the kernel checks the rest (what each state needs, the widths' sum for
 * the mode) and says what is wrong
 */
static int fmt_set(struct ctx *c, int argc, char **argv)
{
	static const char cmd[] = "ev fmt set";
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg id = { .key = "id", .type = ARG_STR };
	struct arg state = { .key = "state", .type = ARG_STR };
	struct arg mode = { .key = "mode", .type = ARG_STR };
	struct arg widths = { .key = "widths", .type = ARG_STR };
	struct arg *args[] = { &dev, &id, &state, &mode, &widths, NULL };
	uint32_t w[MRC_MAX_EV_FIELDS], st = 0, m = 0;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	unsigned int n = 0, i;
	uint64_t fid;
	int ret;

	parse_args(cmd, args, argc, argv);
	parse_need(cmd, &dev);
	parse_need(cmd, &id);
	fid = parse_profile_id(cmd, &id);
	if (!state.set && !mode.set && !widths.set)
		die_usage("%s: nothing to set", cmd);
	if (state.set)
		st = parse_profile_state(cmd, &state);
	if (mode.set)
		m = parse_enum(cmd, &mode, fmt_modes, ARRAY_SIZE(fmt_modes));
	if (widths.set)
		n = parse_widths(cmd, widths.str, w);
	nl_open(c);
	if (apply_keeps_online(c, state.set, st)) {
		ret = fmt_applied(c, dev.str, fid, mode.set, m, w, n);
		if (ret >= 0)
			return ret;
	}
	nlh = nl_msg(c, buf, MRC_CMD_EV_FMT_SET, 0, MRC_A_EV_DEV_NAME, dev.str);
	mnl_attr_put_u64(nlh, MRC_A_EV_FMT_ID, fid);
	if (state.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_STATE, st);
	if (mode.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_FMT_MODE, m);
	for (i = 0; i < n; i++)
		mnl_attr_put_u32(nlh, MRC_A_EV_FMT_WIDTH, w[i]);
	return nl_request(c, nlh, dev.str);
}

/* ev fmt { show | set } ... */
int ev_fmt(struct ctx *c, int argc, char **argv)
{
	static const struct profile_kind kind = {
		.cmd = "ev fmt show", .get = MRC_CMD_EV_FMT_GET,
		.dev_name = MRC_A_EV_DEV_NAME, .id = MRC_A_EV_FMT_ID,
	};

	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return profile_show(c, &kind, cb_fmt, argc ? argc - 1 : 0,
				    argv + !!argc);
	if (!strcmp(argv[0], "set"))
		return fmt_set(c, argc - 1, argv + 1);
	die_usage("ev fmt: unknown command \"%s\"", argv[0]);
}
