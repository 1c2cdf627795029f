// SPDX-License-Identifier: GPL-2.0
/* mrcctl ev: the entropy values (EVs) of a QP, and the EV profiles */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mrcctl.h"

static const char *const ev_states[] = {
	[MRC_EV_STATE_GOOD] = "GOOD",
	[MRC_EV_STATE_SKIP] = "SKIP",
	[MRC_EV_STATE_ASSUMED_BAD] = "ASSUMED_BAD",
	[MRC_EV_STATE_DENIED] = "DENIED",
};

static void rec_ev_value(struct rec *r, const struct nlattr *a)
{
	char hex[16];

	if (!nl_attr_ok(a, MNL_TYPE_U32))
		return;
	snprintf(hex, sizeof(hex), "0x%08" PRIx32, mnl_attr_get_u32(a));
	rec_str(r, "value", "value ", NULL, hex);
}

/*
 * The rotation slot: "slot N", or "slot -" in text (and no JSON key) for an
 * EV out of the rotation (a backup on standby, or one replaced by a backup).
 * A kernel without EV health (no probes either) gets neither.
 */
static void rec_ev_slot(struct rec *r, const struct nlattr **tb)
{
	if (nl_attr_ok(tb[MRC_A_EV_SLOT], MNL_TYPE_U32))
		rec_attr_u32(r, "slot", "slot ", tb[MRC_A_EV_SLOT]);
	else if (tb[MRC_A_EV_PROBES])
		rec_str(r, NULL, "slot ", NULL, "-");
}

/* which EV: "qpn N ev I value V plane P path J" */
static void rec_ev_id(struct rec *r, const struct nlattr **tb)
{
	rec_attr_u32(r, "qpn", "qpn ", tb[MRC_A_EV_QPN]);
	rec_attr_u32(r, "ev", "ev ", tb[MRC_A_EV_INDEX]);
	rec_ev_value(r, tb[MRC_A_EV_VALUE]);
	rec_attr_u32(r, "plane", "plane ", tb[MRC_A_EV_PLANE]);
	rec_attr_u32(r, "path", "path ", tb[MRC_A_EV_PATH_ID]);
}

static void rec_ev(struct rec *r, const struct nlattr **tb)
{
	rec_ev_id(r, tb);
	rec_attr_enum(r, "state", "state ", tb[MRC_A_EV_STATE],
		      ev_states, ARRAY_SIZE(ev_states));
	rec_ev_slot(r, tb);
	rec_traffic(r, "tx ", "tx_packets", "tx_bytes",
		    tb[MRC_A_EV_TX_PACKETS], tb[MRC_A_EV_TX_BYTES]);
	rec_attr_uint(r, "retrans", "retrans ", NULL, tb[MRC_A_EV_RETRANS]);
	rec_attr_uint(r, "losses", "lost ", NULL, tb[MRC_A_EV_LOSSES]);
	rec_attr_uint(r, "ecn", "ecn ", NULL, tb[MRC_A_EV_ECN]);
	rec_attr_uint(r, "trims", "trims ", NULL, tb[MRC_A_EV_TRIMS]);
	rec_attr_u32(r, "penalty", "penalty ", tb[MRC_A_EV_PENALTY]);
	rec_attr_uint(r, "probes", "probes ", NULL, tb[MRC_A_EV_PROBES]);
	if (nl_attr_ok(tb[MRC_A_EV_SRTT], MNL_TYPE_U32))
		rec_num(r, "srtt_us", "srtt ", "us", mnl_attr_get_u32(tb[MRC_A_EV_SRTT]));
}

static int cb_ev(const struct nlmsghdr *nlh, void *data)
{
	return rec_obj(data, nlh, MRC_A_EV_MAX, MRC_A_EV_DEV_NAME, rec_ev);
}

int ev_show(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg qpn = { .key = "qpn", .type = ARG_U32, .max = QPN_MAX };
	struct arg *args[] = { &dev, &qpn, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	parse_args("ev show", args, argc, argv);
	parse_need("ev show", &dev);
	parse_need("ev show", &qpn);
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_EV_GET, NLM_F_DUMP, MRC_A_EV_DEV_NAME, dev.str);
	mnl_attr_put_u32(nlh, MRC_A_EV_QPN, qpn.u32);
	c->dev = dev.str;
	return nl_show(c, nlh, cb_ev, dev.str);
}

/*
 * ev { deny | allow } dev DEV qpn N index I: EV_SET to @state; "ev I", the
 * key of ev show, is the same as "index I"
 */
static int ev_set(struct ctx *c, const char *cmd, uint32_t state, int argc,
		  char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg qpn = { .key = "qpn", .type = ARG_U32, .max = QPN_MAX };
	struct arg index = { .key = "index", .type = ARG_U32, .max = MRC_MAX_EVS - 1 };
	struct arg ev = { .key = "ev", .type = ARG_U32, .max = MRC_MAX_EVS - 1 };
	struct arg *args[] = { &dev, &qpn, &index, &ev, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	parse_args(cmd, args, argc, argv);
	parse_need(cmd, &dev);
	parse_need(cmd, &qpn);
	parse_alias(cmd, &index, &ev);
	parse_need(cmd, &index);
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_EV_SET, 0, MRC_A_EV_DEV_NAME, dev.str);
	mnl_attr_put_u32(nlh, MRC_A_EV_QPN, qpn.u32);
	mnl_attr_put_u32(nlh, MRC_A_EV_INDEX, index.u32);
	mnl_attr_put_u32(nlh, MRC_A_EV_STATE, state);
	return nl_request(c, nlh, dev.str);
}

int ev_deny(struct ctx *c, int argc, char **argv)
{
	return ev_set(c, "ev deny", MRC_EV_STATE_DENIED, argc, argv);
}

int ev_allow(struct ctx *c, int argc, char **argv)
{
	return ev_set(c, "ev allow", MRC_EV_STATE_GOOD, argc, argv);
}

static const char *const ev_causes[] = {
	[MRC_EV_CAUSE_LOSS] = "loss",
	[MRC_EV_CAUSE_PROBE] = "probe",
	[MRC_EV_CAUSE_DENY] = "deny",
	[MRC_EV_CAUSE_ALLOW] = "allow",
};

/*
 * monitor: an EV of a QP changed state: "qpn N ev I value V plane P path J
 * OLD -> NEW (CAUSE) [ backup K ] [ profile ID ]"; the time only in JSON
 */
void ev_ntf_rec(struct rec *r, const struct nlattr **tb)
{
	const char *cause = rec_enum_name(tb[MRC_A_EV_CAUSE], ev_causes,
					  ARRAY_SIZE(ev_causes));

	rec_ev_id(r, tb);
	rec_attr_enum(r, "old_state", "", tb[MRC_A_EV_OLD_STATE], ev_states,
		      ARRAY_SIZE(ev_states));
	rec_attr_enum(r, "state", "-> ", tb[MRC_A_EV_STATE], ev_states,
		      ARRAY_SIZE(ev_states));
	if (cause)
		rec_str(r, "cause", "(", ")", cause);
	rec_attr_u32(r, "backup", "backup ", tb[MRC_A_EV_BACKUP]);
	if (tb[MRC_A_EV_PROFILE_ID])
		rec_num(r, "profile", "profile ", NULL,
			nl_attr_uint(tb[MRC_A_EV_PROFILE_ID]));
	if (tb[MRC_A_EV_TIME])
		rec_num(r, "time_ns", NULL, NULL, nl_attr_uint(tb[MRC_A_EV_TIME]));
}

/* ---- ev profile: the controller's EV profiles ------------------------- */

static const char *const ev_modes[] = {
	[MRC_EV_PROFILE_MODE_AUTO] = "auto",
};

static const struct {
	const char *name;
	uint32_t bit;
} ev_events[] = {
	{ "good", MRC_EV_EVENT_GOOD },
	{ "assumed_bad", MRC_EV_EVENT_ASSUMED_BAD },
};

/* an event mask as words: "good,assumed_bad", "none" */
static void rec_ev_events(struct rec *r, const struct nlattr *a)
{
	static char buf[32];
	uint32_t m, i;

	if (!nl_attr_ok(a, MNL_TYPE_U32))
		return;
	m = mnl_attr_get_u32(a);
	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(ev_events); i++)
		if (m & ev_events[i].bit)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%s%s", buf[0] ? "," : "", ev_events[i].name);
	rec_str(r, "events", "events ", NULL, buf[0] ? buf : "none");
}

static int cb_ev_profile(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	nl_attrs(nlh, tb, MRC_A_EV_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_EV_DEV_NAME], NULL))
		return MNL_CB_OK;
	rec_profile(&r, tb, MRC_A_EV_PROFILE_ID, MRC_A_EV_PROFILE_STATE,
		    MRC_A_EV_PROFILE_QPS);
	rec_attr_enum(&r, "mode", "mode ", tb[MRC_A_EV_PROFILE_MODE],
		      ev_modes, ARRAY_SIZE(ev_modes));
	rec_attr_u32(&r, "count", "count ", tb[MRC_A_EV_PROFILE_COUNT]);
	rec_attr_u32(&r, "min_active", "min_active ",
		     tb[MRC_A_EV_PROFILE_MIN_ACTIVE]);
	rec_ev_events(&r, tb[MRC_A_EV_EVENT_MASK]);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

/* EVENTS: "none", or event names joined by commas */
static uint32_t parse_ev_events(const char *cmd, const char *s)
{
	uint32_t m = 0, i;
	size_t len;

	if (!strcmp(s, "none"))
		return 0;
	for (;;) {
		len = strcspn(s, ",");
		for (i = 0; i < ARRAY_SIZE(ev_events); i++)
			if (strlen(ev_events[i].name) == len &&
			    !strncmp(s, ev_events[i].name, len))
				break;
		if (i == ARRAY_SIZE(ev_events))
			die_usage("%s: invalid events \"%s\" (none, or good and assumed_bad joined by commas)",
				  cmd, s);
		m |= ev_events[i].bit;
		if (!s[len])
			return m;
		s += len + 1;
	}
}

/*
 * ev profile set dev DEV id N [ state STATE ] [ mode auto ] [ count N ]
 * [ min_active N ] [ events EVENTS ]
 */
static int ev_profile_set(struct ctx *c, int argc, char **argv)
{
	static const char cmd[] = "ev profile set";
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg id = { .key = "id", .type = ARG_STR };
	struct arg state = { .key = "state", .type = ARG_STR };
	struct arg mode = { .key = "mode", .type = ARG_STR };
	struct arg count = { .key = "count", .type = ARG_U32, .min = 1,
			     .max = MRC_MAX_EVS };
	struct arg min_active = { .key = "min_active", .type = ARG_U32,
				  .min = 1, .max = MRC_MAX_EVS };
	struct arg events = { .key = "events", .type = ARG_STR };
	struct arg *args[] = { &dev, &id, &state, &mode, &count, &min_active,
			       &events, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t st = 0, mask = 0;
	struct nlmsghdr *nlh;
	uint64_t pid;

	parse_args(cmd, args, argc, argv);
	parse_need(cmd, &dev);
	parse_need(cmd, &id);
	if (mode.set && strcmp(mode.str, "auto"))
		die_usage("%s: invalid mode \"%s\" (auto)", cmd, mode.str);
	if (!state.set && !mode.set && !count.set && !min_active.set &&
	    !events.set)
		die_usage("%s: nothing to set", cmd);
	pid = parse_profile_id(cmd, &id);
	if (state.set)
		st = parse_profile_state(cmd, &state);
	if (events.set)
		mask = parse_ev_events(cmd, events.str);
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_EV_PROFILE_SET, 0, MRC_A_EV_DEV_NAME,
		     dev.str);
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, pid);
	if (state.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_STATE, st);
	if (mode.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_MODE,
				 MRC_EV_PROFILE_MODE_AUTO);
	if (count.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_COUNT, count.u32);
	if (min_active.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_MIN_ACTIVE,
				 min_active.u32);
	if (events.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_EVENT_MASK, mask);
	return nl_request(c, nlh, dev.str);
}

/* ev profile { show | set } ... */
int ev_profile(struct ctx *c, int argc, char **argv)
{
	static const struct profile_kind kind = {
		.cmd = "ev profile show", .get = MRC_CMD_EV_PROFILE_GET,
		.dev_name = MRC_A_EV_DEV_NAME, .id = MRC_A_EV_PROFILE_ID,
	};

	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return profile_show(c, &kind, cb_ev_profile, argc ? argc - 1 : 0,
				    argv + !!argc);
	if (!strcmp(argv[0], "set"))
		return ev_profile_set(c, argc - 1, argv + 1);
	die_usage("ev profile: unknown command \"%s\"", argv[0]);
}
