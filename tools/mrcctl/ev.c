// SPDX-License-Identifier: GPL-2.0
/* mrcctl ev: the entropy values (EVs) of a QP */
#include <inttypes.h>
#include <stdio.h>

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
 * OLD -> NEW (CAUSE) [ backup K ]"; the time only in JSON
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
	if (tb[MRC_A_EV_TIME])
		rec_num(r, "time_ns", NULL, NULL, nl_attr_uint(tb[MRC_A_EV_TIME]));
}
