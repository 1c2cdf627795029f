// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl ev: the entropy values (EVs) of a QP, and the EV profiles a
 * device keeps for its controller (auto, exp and gen; their format
 * profiles are fmt.c's)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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

/*
 * which EV: "qpn N ev I value V plane P path J", and of a QP bound to an
 * exp or gen profile, the profile's EV it was made from: "entry K" (its
 * place in the profile's EV array) "ev_bytes HEX" (as ev profile show
 * entries shows it)
 */
static void rec_ev_id(struct rec *r, const struct nlattr **tb)
{
	rec_attr_u32(r, "qpn", "qpn ", tb[MRC_A_EV_QPN]);
	rec_attr_u32(r, "ev", "ev ", tb[MRC_A_EV_INDEX]);
	rec_ev_value(r, tb[MRC_A_EV_VALUE]);
	rec_attr_u32(r, "plane", "plane ", tb[MRC_A_EV_PLANE]);
	rec_attr_u32(r, "path", "path ", tb[MRC_A_EV_PATH_ID]);
	rec_attr_u32(r, "entry", "entry ", tb[MRC_A_EV_ENTRY_INDEX]);
	rec_ev_bytes(r, "ev_bytes", "ev_bytes ", tb[MRC_A_EV_EV_BYTES], NULL);
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

/*
 * Which EVs ev show and ev set name: those of QP N (qpn N; ev set: its EV
 * index I), or every bound QP's EV made from one EV of a profile on a
 * plane (profile ID plane N, with value V of an auto profile or ev HEX,
 * the bytes of an exp or gen profile's EV)
 */
struct ev_which {
	struct arg qpn, index, profile, value, ev, plane;
	uint64_t pid;
	uint32_t val;
	uint8_t bytes[EV_BYTES_MAX];
	size_t nbytes;
};

#define EV_WHICH_INIT {							\
	.qpn = { .key = "qpn", .type = ARG_U32, .max = QPN_MAX },	\
	.index = { .key = "index", .type = ARG_U32,			\
		   .max = MRC_MAX_EVS - 1 },				\
	.profile = { .key = "profile", .type = ARG_STR },		\
	.value = { .key = "value", .type = ARG_STR },			\
	.ev = { .key = "ev", .type = ARG_STR },				\
	.plane = { .key = "plane", .type = ARG_U32,			\
		   .max = MRC_MAX_PLANES - 1 },				\
}

/* @index: the form of a QP takes "index I" (ev set) */
static void ev_which_parse(const char *cmd, struct ev_which *w, bool index)
{
	if (w->qpn.set == w->profile.set)
		die_usage("%s: give qpn N%s, or profile ID with value V or ev HEX and plane N",
			  cmd, index ? " index I" : "");
	if (w->qpn.set) {
		if (w->value.set || w->ev.set || w->plane.set)
			die_usage("%s: value, ev and plane name an EV of a profile, not of a QP",
				  cmd);
		if (index)
			parse_need(cmd, &w->index);
		return;
	}
	if (w->index.set)
		die_usage("%s: index names an EV of a QP, not of a profile", cmd);
	w->pid = parse_profile_id(cmd, &w->profile);
	if (w->value.set == w->ev.set)
		die_usage("%s: give value V (an auto profile's EV) or ev HEX (an exp or gen profile's)",
			  cmd);
	parse_need(cmd, &w->plane);
	if (w->value.set && !parse_num32(w->value.str, &w->val))
		die_usage("%s: invalid value \"%s\" (32 bits, decimal or 0x hex)",
			  cmd, w->value.str);
	if (w->ev.set && !parse_ev_bytes(w->ev.str, w->bytes, &w->nbytes))
		die_usage("%s: invalid ev \"%s\" (1 to 64 hex digits, the EV's first bits first)",
			  cmd, w->ev.str);
}

/*
 * The EV bytes are sent as all 32 the kernel keeps of an EV (the hex
 * given, zero-filled), so that what matches is the EV ev profile show
 * entries shows whatever length the hex had.
 */
static void ev_which_put(struct nlmsghdr *nlh, const struct ev_which *w)
{
	if (w->qpn.set) {
		mnl_attr_put_u32(nlh, MRC_A_EV_QPN, w->qpn.u32);
		if (w->index.set)
			mnl_attr_put_u32(nlh, MRC_A_EV_INDEX, w->index.u32);
		return;
	}
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, w->pid);
	if (w->value.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_VALUE, w->val);
	else
		mnl_attr_put(nlh, MRC_A_EV_EV_BYTES, EV_BYTES_MAX, w->bytes);
	mnl_attr_put_u32(nlh, MRC_A_EV_PLANE, w->plane.u32);
}

/*
 * ev show dev DEV { qpn N | profile ID { value V | ev HEX } plane N }: a
 * QP's EV set, or the EV of every QP bound to profile ID made from that
 * EV of the profile on plane N
 */
int ev_show(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct ev_which w = EV_WHICH_INIT;
	struct arg *args[] = { &dev, &w.qpn, &w.profile, &w.value, &w.ev,
			       &w.plane, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	parse_args("ev show", args, argc, argv);
	parse_need("ev show", &dev);
	ev_which_parse("ev show", &w, false);
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_EV_GET, NLM_F_DUMP, MRC_A_EV_DEV_NAME, dev.str);
	ev_which_put(nlh, &w);
	c->dev = dev.str;
	return nl_show(c, nlh, cb_ev, dev.str);
}

/*
 * ev { deny | allow } dev DEV qpn N index I: EV_SET to @state; "ev I", the
 * key of ev show, is the same as "index I"
 */
static int ev_index_set(struct ctx *c, const char *cmd, uint32_t state,
			int argc, char **argv)
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
	return ev_index_set(c, "ev deny", MRC_EV_STATE_DENIED, argc, argv);
}

int ev_allow(struct ctx *c, int argc, char **argv)
{
	return ev_index_set(c, "ev allow", MRC_EV_STATE_GOOD, argc, argv);
}

/* the states the operator gives an EV */
static const char *const ev_set_states[] = {
	[MRC_EV_STATE_GOOD] = "good",
	[MRC_EV_STATE_DENIED] = "denied",
};

/*
 * ev set dev DEV { qpn N index I | profile ID { value V | ev HEX } plane N }
 * state { good | denied }: ev deny and ev allow, and of a profile's EV:
 * the EV of every QP bound to it (and, of an exp or gen profile, every
 * copy of the EV in its array, which QPs that connect later start with)
 */
int ev_set(struct ctx *c, int argc, char **argv)
{
	static const char cmd[] = "ev set";
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg state = { .key = "state", .type = ARG_STR };
	struct ev_which w = EV_WHICH_INIT;
	struct arg *args[] = { &dev, &w.qpn, &w.index, &w.profile, &w.value,
			       &w.ev, &w.plane, &state, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint32_t st;

	parse_args(cmd, args, argc, argv);
	parse_need(cmd, &dev);
	ev_which_parse(cmd, &w, true);
	parse_need(cmd, &state);
	st = parse_enum(cmd, &state, ev_set_states, ARRAY_SIZE(ev_set_states));
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_EV_SET, 0, MRC_A_EV_DEV_NAME, dev.str);
	ev_which_put(nlh, &w);
	mnl_attr_put_u32(nlh, MRC_A_EV_STATE, st);
	return nl_request(c, nlh, dev.str);
}

static const char *const ev_causes[] = {
	[MRC_EV_CAUSE_LOSS] = "loss",
	[MRC_EV_CAUSE_PROBE] = "probe",
	[MRC_EV_CAUSE_DENY] = "deny",
	[MRC_EV_CAUSE_ALLOW] = "allow",
};

/*
 * monitor: an EV of a QP changed state: "qpn N ev I value V plane P path J
 * [ entry K ev_bytes HEX ] OLD -> NEW (CAUSE) [ backup K ] [ profile ID ]";
 * the time only in JSON
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
	[MRC_EV_PROFILE_MODE_EXP] = "exp",
	[MRC_EV_PROFILE_MODE_GEN] = "gen",
};

static const struct {
	const char *name;
	uint32_t bit;
} ev_events[] = {
	{ "good", MRC_EV_EVENT_GOOD },
	{ "assumed_bad", MRC_EV_EVENT_ASSUMED_BAD },
};

/* an event mask as words, in @buf (32 bytes): "good,assumed_bad", "none" */
static const char *ev_events_str(uint32_t m, char *buf)
{
	uint32_t i;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(ev_events); i++)
		if (m & ev_events[i].bit)
			snprintf(buf + strlen(buf), 32 - strlen(buf), "%s%s",
				 buf[0] ? "," : "", ev_events[i].name);
	return buf[0] ? buf : "none";
}

static void rec_ev_events(struct rec *r, const struct nlattr *a)
{
	char buf[32];

	if (nl_attr_ok(a, MNL_TYPE_U32))
		rec_str(r, "events", "events ", NULL,
			ev_events_str(mnl_attr_get_u32(a), buf));
}

/* the attributes of nest @nest, up to @max */
static void nl_nested(const struct nlattr *nest, const struct nlattr **tb,
		      unsigned int max)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) <= max)
			tb[mnl_attr_get_type(a)] = a;
}

static uint32_t nl_u32(const struct nlattr *a)
{
	return nl_attr_ok(a, MNL_TYPE_U32) ? mnl_attr_get_u32(a) : 0;
}

/*
 * A field of an EV profile: in text "field WIDTH:INIT:MIN:MAX:MASK" (in
 * @r, as ev profile set takes it), in JSON an object of "fields" (@f)
 */
static void rec_ev_field(struct rec *r, struct rec *f,
			 const struct nlattr *nest)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	char text[64], mask[16];

	nl_nested(nest, tb, MRC_A_EV_FIELD_MAX);
	snprintf(mask, sizeof(mask), "0x%" PRIx32, nl_u32(tb[MRC_A_EV_FIELD_MASK]));
	snprintf(text, sizeof(text), "%" PRIu32 ":%" PRIu32 ":%" PRIu32 ":%" PRIu32 ":%s",
		 nl_u32(tb[MRC_A_EV_FIELD_WIDTH]), nl_u32(tb[MRC_A_EV_FIELD_INIT_VAL]),
		 nl_u32(tb[MRC_A_EV_FIELD_MIN_VAL]), nl_u32(tb[MRC_A_EV_FIELD_MAX_VAL]),
		 mask);
	rec_str(r, NULL, "field ", NULL, text);
	rec_attr_u32(f, "width", NULL, tb[MRC_A_EV_FIELD_WIDTH]);
	rec_attr_u32(f, "init", NULL, tb[MRC_A_EV_FIELD_INIT_VAL]);
	rec_attr_u32(f, "min", NULL, tb[MRC_A_EV_FIELD_MIN_VAL]);
	rec_attr_u32(f, "max", NULL, tb[MRC_A_EV_FIELD_MAX_VAL]);
	if (tb[MRC_A_EV_FIELD_MASK])
		rec_str(f, "mask", NULL, NULL, mask);
}

/*
 * A place of an exp or gen profile's EV array: "entry I ev HEX port P
 * state S"; an unpopulated place (no bytes, port 0) is "ev -" in text
 */
static void rec_ev_entry(struct rec *r, const struct nlattr *nest)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};

	nl_nested(nest, tb, MRC_A_EV_ENTRY_MAX);
	rec_attr_u32(r, "entry", "entry ", tb[MRC_A_EV_ENTRY_PLACE]);
	rec_ev_bytes(r, "ev_bytes", "ev ", tb[MRC_A_EV_ENTRY_EV_BYTES],
		     nl_u32(tb[MRC_A_EV_ENTRY_PORT]) ? NULL : "-");
	rec_attr_u32(r, "port", "port ", tb[MRC_A_EV_ENTRY_PORT]);
	rec_attr_enum(r, "state", "state ", tb[MRC_A_EV_ENTRY_STATE], ev_states,
		      ARRAY_SIZE(ev_states));
}

static bool show_entries;	/* ev profile show entries */

/*
 * "DEV profile N STATE qps Q mode M count C min_active A events E [ fmt F
 * field ... ]", then with entries a line a place of the EV array; JSON:
 * "fmt", and "fields" (exp and gen) and "entries" arrays of objects
 */
static int cb_ev_profile(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct rec_sub subs[2] = { { .key = "fields" }, { .key = "entries" } };
	unsigned int nfields = 0, nentries = 0, nsubs = 0;
	struct rec *fields = NULL, *entries = NULL;
	const struct nlattr *a;
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
	if (tb[MRC_A_EV_FMT_ID])
		rec_num(&r, "fmt", "fmt ", NULL, nl_attr_uint(tb[MRC_A_EV_FMT_ID]));
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == MRC_A_EV_FIELD &&
		    nfields < MRC_MAX_EV_FIELDS) {
			fields = xrealloc(fields, ++nfields * sizeof(*fields));
			memset(&fields[nfields - 1], 0, sizeof(*fields));
			rec_ev_field(&r, &fields[nfields - 1], a);
		} else if (mnl_attr_get_type(a) == MRC_A_EV_ENTRY &&
			   show_entries) {
			entries = xrealloc(entries, ++nentries * sizeof(*entries));
			memset(&entries[nentries - 1], 0, sizeof(*entries));
			rec_ev_entry(&entries[nentries - 1], a);
		}
	}
	if (tb[MRC_A_EV_FMT_ID] || nfields) {
		subs[nsubs].r = fields;
		subs[nsubs++].n = nfields;
	}
	if (show_entries) {
		subs[nsubs] = subs[1];
		subs[nsubs].r = entries;
		subs[nsubs++].n = nentries;
	}
	rec_emit_subs(c, &r, subs, nsubs);
	free(fields);
	free(entries);
	return MNL_CB_OK;
}

/* the profiles of a dump, each then asked for with its EV array */
static struct {
	struct {
		char dev[64];
		uint64_t id;
	} *p;
	unsigned int n;
} ev_profile_ids;

static int cb_ev_profile_id(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct ctx *c = data;
	const char *dev;

	nl_attrs(nlh, tb, MRC_A_EV_MAX);
	dev = tb[MRC_A_EV_DEV_NAME] ? mnl_attr_get_str(tb[MRC_A_EV_DEV_NAME]) : c->dev;
	if (!dev || !tb[MRC_A_EV_PROFILE_ID])
		return MNL_CB_OK;
	ev_profile_ids.p = xrealloc(ev_profile_ids.p, (ev_profile_ids.n + 1) *
				    sizeof(*ev_profile_ids.p));
	snprintf(ev_profile_ids.p[ev_profile_ids.n].dev,
		 sizeof(ev_profile_ids.p->dev), "%s", dev);
	ev_profile_ids.p[ev_profile_ids.n++].id =
		nl_attr_uint(tb[MRC_A_EV_PROFILE_ID]);
	return MNL_CB_OK;
}

/*
 * ev profile show entries without id: the kernel gives a profile's EV
 * array to a get of that profile only (not in a dump), so the profiles
 * of a dump are then asked for one by one
 */
static int ev_profile_show_all(struct ctx *c, const char *dev)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	unsigned int i;
	int ret = 0;

	rec_list_begin(c);
	nlh = nl_msg(c, buf, MRC_CMD_EV_PROFILE_GET, NLM_F_DUMP,
		     MRC_A_EV_DEV_NAME, dev);
	if (nl_transact(c, nlh, cb_ev_profile_id) < 0)
		ret = nl_fail(c, dev ? dev : "ev profile show");
	for (i = 0; i < ev_profile_ids.n && !ret; i++) {
		nlh = nl_msg(c, buf, MRC_CMD_EV_PROFILE_GET, 0,
			     MRC_A_EV_DEV_NAME, ev_profile_ids.p[i].dev);
		mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, ev_profile_ids.p[i].id);
		mnl_attr_put(nlh, MRC_A_EV_ENTRIES, 0, NULL);
		if (nl_transact(c, nlh, cb_ev_profile) < 0)
			ret = nl_fail(c, ev_profile_ids.p[i].dev);
	}
	rec_list_end(c);
	free(ev_profile_ids.p);
	return ret;
}

/*
 * ev profile show [ dev DEV [ id N ] ] [ entries ]: one profile or a dump;
 * with entries, the EV arrays of exp and gen profiles too
 */
static int ev_profile_show(struct ctx *c, int argc, char **argv)
{
	static const char cmd[] = "ev profile show";
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg id = { .key = "id", .type = ARG_STR };
	struct arg *args[] = { &dev, &id, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	char **rest = xrealloc(NULL, (argc + 1) * sizeof(*rest));
	struct nlmsghdr *nlh;
	int i, n = 0;

	/* "entries", a word alone, among keyword-value pairs */
	for (i = 0; i < argc;) {
		if (!strcmp(argv[i], "entries")) {
			if (show_entries)
				die_usage("%s: \"entries\" given twice", cmd);
			show_entries = true;
			i++;
			continue;
		}
		rest[n++] = argv[i++];
		if (i < argc)
			rest[n++] = argv[i++];
	}
	parse_args(cmd, args, n, rest);
	free(rest);
	if (id.set)
		parse_need(cmd, &dev);
	c->dev = dev.str;
	nl_open(c);
	if (show_entries && !id.set)
		return ev_profile_show_all(c, dev.str);
	nlh = nl_msg(c, buf, MRC_CMD_EV_PROFILE_GET,
		     id.set ? NLM_F_ACK : NLM_F_DUMP, MRC_A_EV_DEV_NAME, dev.str);
	if (id.set)
		mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID,
				 parse_profile_id(cmd, &id));
	if (show_entries)
		mnl_attr_put(nlh, MRC_A_EV_ENTRIES, 0, NULL);
	return nl_show(c, nlh, cb_ev_profile, dev.str ? dev.str : cmd);
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

/* field WIDTH:INIT:MIN:MAX:MASK, each decimal or 0x hex; width 1..32 */
static void parse_ev_field(const char *cmd, const char *s, uint32_t *v)
{
	char buf[64], *p = buf, *word;
	unsigned int i;

	if (strlen(s) >= sizeof(buf))
		goto bad;
	strcpy(buf, s);
	for (i = 0; i < 5; i++) {
		word = strsep(&p, ":");
		if (!word || !parse_num32(word, &v[i]))
			goto bad;
	}
	if (!p && v[0] && v[0] <= 32)
		return;
bad:
	die_usage("%s: invalid field \"%s\" (WIDTH:INIT:MIN:MAX:MASK, width 1..32)",
		  cmd, s);
}

/* a replacement in the EV array (the OCP API's REPLACE_EV) */
struct ev_repl {
	uint8_t old[EV_BYTES_MAX], new[EV_BYTES_MAX];
	uint32_t old_port, new_port;
	bool denied, all;
	const char *words[2];	/* OLD and NEW as given, for apply's errors */
};

/*
 * HEX@PORT, an EV of an exp profile and its port (plane + 1); the EV
 * replaced (@old) may be "-", an unpopulated place (as is 0@0)
 */
static void parse_ev_at(const char *cmd, const char *s, bool old,
			uint8_t *b, uint32_t *port)
{
	const char *at = strrchr(s, '@');
	char hex[2 * EV_BYTES_MAX + 3];
	size_t n;

	if (old && !strcmp(s, "-")) {
		memset(b, 0, EV_BYTES_MAX);
		*port = 0;
		return;
	}
	if (!at || at - s >= (int)sizeof(hex))
		goto bad;
	snprintf(hex, sizeof(hex), "%.*s", (int)(at - s), s);
	if (parse_ev_bytes(hex, b, &n) &&
	    parse_u32(at + 1, MRC_MAX_PLANES, port) && (old || *port))
		return;
bad:
	die_usage("%s: invalid replace EV \"%s\" (HEX@PORT: 1 to 64 hex digits, port %s..%d%s)",
		  cmd, s, old ? "0" : "1", MRC_MAX_PLANES,
		  old ? "; - for an unpopulated place" : "");
}

/*
 * replace OLDHEX@PORT NEWHEX@PORT [ denied ] [ all ] at @argv; the words
 * it took
 */
static int parse_ev_repl(const char *cmd, struct ev_repl *r, int argc,
			 char **argv)
{
	int i;

	if (argc < 3)
		die_usage("%s: replace needs the EV replaced and its replacement (OLDHEX@PORT NEWHEX@PORT)",
			  cmd);
	memset(r, 0, sizeof(*r));
	parse_ev_at(cmd, argv[1], true, r->old, &r->old_port);
	parse_ev_at(cmd, argv[2], false, r->new, &r->new_port);
	r->words[0] = argv[1];
	r->words[1] = argv[2];
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "denied") && !r->denied)
			r->denied = true;
		else if (!strcmp(argv[i], "all") && !r->all)
			r->all = true;
		else
			break;
	}
	return i;
}

static void put_ev_repl(struct nlmsghdr *nlh, const struct ev_repl *r)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_A_EV_ENTRY);

	mnl_attr_put(nlh, MRC_A_EV_ENTRY_EV_BYTES, EV_BYTES_MAX, r->old);
	mnl_attr_put_u32(nlh, MRC_A_EV_ENTRY_PORT, r->old_port);
	mnl_attr_put(nlh, MRC_A_EV_ENTRY_NEW_BYTES, EV_BYTES_MAX, r->new);
	mnl_attr_put_u32(nlh, MRC_A_EV_ENTRY_NEW_PORT, r->new_port);
	if (r->denied)
		mnl_attr_put_u32(nlh, MRC_A_EV_ENTRY_STATE, MRC_EV_STATE_DENIED);
	if (r->all)
		mnl_attr_put(nlh, MRC_A_EV_ENTRY_ALL_COPIES, 0, NULL);
	mnl_attr_nest_end(nlh, nest);
}

static void put_ev_field(struct nlmsghdr *nlh, const uint32_t *v)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, MRC_A_EV_FIELD);

	mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_WIDTH, v[0]);
	mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_INIT_VAL, v[1]);
	mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_MIN_VAL, v[2]);
	mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_MAX_VAL, v[3]);
	mnl_attr_put_u32(nlh, MRC_A_EV_FIELD_MASK, v[4]);
	mnl_attr_nest_end(nlh, nest);
}

/* fields as ev profile set takes them: "W:I:MIN:MAX:0xMASK W:..." */
static void ev_fields_str(uint32_t (*f)[5], unsigned int n, char *buf,
			  size_t len)
{
	unsigned int i;
	size_t at = 0;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += snprintf(buf + at, len - at, "%s%u:%u:%u:%u:0x%x",
			       i ? " " : "", f[i][0], f[i][1], f[i][2], f[i][3],
			       f[i][4]);
}

/* what an ev profile set line gives, as apply compares it */
struct ev_line {
	const struct arg *mode, *count, *min_active, *events, *fmt;
	uint32_t m, mask;
	uint64_t fid;
	uint32_t (*fields)[5];
	unsigned int nfields, nrepl;
	const struct ev_repl *repl;
};

/* a place of an online profile's EV array */
struct ev_place {
	uint8_t val[EV_BYTES_MAX];
	uint32_t port;
};

/*
 * Are @l's replacements done in the EV array @e (@n places)? Undone from
 * the last: each needs a place holding its NEW@PORT (with all, every
 * such place), which goes back to OLD@PORT, as the kernel made it (all
 * or none of a line's). The state of the EV (denied) is not compared:
 * ev set and the profile's events change it. The replacement not done,
 * or NULL.
 */
static const struct ev_repl *ev_repl_undo(const struct ev_line *l,
					  struct ev_place *e, unsigned int n)
{
	const struct ev_repl *r;
	unsigned int i, j, hits;

	for (j = l->nrepl; j-- > 0;) {
		r = &l->repl[j];
		for (i = 0, hits = 0; i < n && (r->all || !hits); i++) {
			if (e[i].port != r->new_port ||
			    memcmp(e[i].val, r->new, EV_BYTES_MAX))
				continue;
			memcpy(e[i].val, r->old, EV_BYTES_MAX);
			e[i].port = r->old_port;
			hits++;
		}
		if (!hits)
			return r;
	}
	return NULL;
}

/* @pf's fields in @f, and its EV array in @e (@ne places): how many fields */
static unsigned int ev_profile_lists(const struct nlmsghdr *pf,
				     uint32_t (*f)[5], struct ev_place *e,
				     unsigned int *ne)
{
	static const uint16_t keys[5] = {
		MRC_A_EV_FIELD_WIDTH, MRC_A_EV_FIELD_INIT_VAL,
		MRC_A_EV_FIELD_MIN_VAL, MRC_A_EV_FIELD_MAX_VAL,
		MRC_A_EV_FIELD_MASK,
	};
	const struct nlattr *tb[NL_ATTR_MAX + 1], *a, *b;
	unsigned int nf = 0, k;
	size_t len;

	*ne = 0;
	mnl_attr_for_each(a, pf, sizeof(struct genlmsghdr)) {
		memset(tb, 0, sizeof(tb));
		if (mnl_attr_get_type(a) == MRC_A_EV_FIELD &&
		    nf < MRC_MAX_EV_FIELDS) {
			nl_nested(a, tb, MRC_A_EV_FIELD_MAX);
			for (k = 0; k < 5; k++)
				f[nf][k] = nl_u32(tb[keys[k]]);
			nf++;
		} else if (mnl_attr_get_type(a) == MRC_A_EV_ENTRY &&
			   *ne < MRC_MAX_EVS) {
			nl_nested(a, tb, MRC_A_EV_ENTRY_MAX);
			b = tb[MRC_A_EV_ENTRY_EV_BYTES];
			len = b ? mnl_attr_get_payload_len(b) : 0;
			memset(e[*ne].val, 0, EV_BYTES_MAX);
			if (b)
				memcpy(e[*ne].val, mnl_attr_get_payload(b),
				       len < EV_BYTES_MAX ? len : EV_BYTES_MAX);
			e[(*ne)++].port = nl_u32(tb[MRC_A_EV_ENTRY_PORT]);
		}
	}
	return nf;
}

/*
 * apply, EV profile @id of @dev online: 0 if it has what @l asks, 1 after
 * the error if not; -1 if it is not online (the line is sent). A gen
 * profile's count is the most places the line asks for: going online
 * fills fewer when its fields' ranges times the planes are fewer.
 */
static int ev_profile_applied(struct ctx *c, const char *dev, uint64_t id,
			      const struct ev_line *l)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	char buf[MNL_SOCKET_BUFFER_SIZE], what[40];
	char have[MRC_MAX_EV_FIELDS * 56], want[sizeof(have)];
	uint32_t hf[MRC_MAX_EV_FIELDS][5];
	struct ev_place *e = xrealloc(NULL, MRC_MAX_EVS * sizeof(*e));
	const struct ev_repl *r;
	struct nlmsghdr *nlh, *pf;
	unsigned int nf, ne;
	const char *h;
	int ret = 0;

	nlh = nl_msg(c, buf, MRC_CMD_EV_PROFILE_GET, 0, MRC_A_EV_DEV_NAME, dev);
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, id);
	if (l->nrepl)
		mnl_attr_put(nlh, MRC_A_EV_ENTRIES, 0, NULL);
	pf = apply_get_online(c, nlh, MRC_A_EV_PROFILE_STATE, MRC_A_EV_MAX);
	if (!pf) {
		free(e);
		return -1;
	}
	nl_attrs(pf, tb, MRC_A_EV_MAX);
	snprintf(what, sizeof(what), "ev profile %s", apply_num(id, have));
	if (l->mode->set)
		ret = apply_cmp(dev, what, "mode",
				rec_enum_name(tb[MRC_A_EV_PROFILE_MODE], ev_modes,
					      ARRAY_SIZE(ev_modes)),
				ev_modes[l->m]);
	if (!ret && l->count->set) {
		h = apply_u32(tb[MRC_A_EV_PROFILE_COUNT], have);
		apply_num(l->count->u32, want);
		if (h && nl_u32(tb[MRC_A_EV_PROFILE_MODE]) == MRC_EV_PROFILE_MODE_GEN &&
		    nl_u32(tb[MRC_A_EV_PROFILE_COUNT]) <= l->count->u32)
			h = want;
		ret = apply_cmp(dev, what, "count", h, want);
	}
	if (!ret && l->min_active->set)
		ret = apply_cmp(dev, what, "min_active",
				apply_u32(tb[MRC_A_EV_PROFILE_MIN_ACTIVE], have),
				apply_num(l->min_active->u32, want));
	if (!ret && l->events->set)
		ret = apply_cmp(dev, what, "events",
				nl_attr_ok(tb[MRC_A_EV_EVENT_MASK], MNL_TYPE_U32) ?
				ev_events_str(nl_u32(tb[MRC_A_EV_EVENT_MASK]), have) :
				NULL, ev_events_str(l->mask, want));
	if (!ret && l->fmt->set)
		ret = apply_cmp(dev, what, "fmt", tb[MRC_A_EV_FMT_ID] ?
				apply_num(nl_attr_uint(tb[MRC_A_EV_FMT_ID]), have) :
				NULL, apply_num(l->fid, want));
	nf = ev_profile_lists(pf, hf, e, &ne);
	if (!ret && l->nfields) {
		ev_fields_str(hf, nf, have, sizeof(have));
		ev_fields_str(l->fields, l->nfields, want, sizeof(want));
		ret = apply_cmp(dev, what, "fields", nf ? have : NULL, want);
	}
	r = ret ? NULL : ev_repl_undo(l, e, ne);
	if (r) {
		pr_err("Error: %s: %s is online and no place of its EV array holds %s (replace %s %s); take it offline first\n",
		       dev, what, r->words[1], r->words[0], r->words[1]);
		ret = 1;
	}
	free(pf);
	free(e);
	return ret;
}

/* a replacement's room in a request, with room to spare */
#define EV_REPL_MSG	128

/*
 * ev profile set dev DEV id N [ state STATE ] [ mode MODE ] [ count N ]
 * [ min_active N ] [ events EVENTS ] [ fmt F ] [ field FIELD ]...
 * [ replace OLD NEW [ denied ] [ all ] ]...; what each mode and state
 * needs is the kernel's to check (and say)
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
	struct arg fmt = { .key = "fmt", .type = ARG_STR };
	struct arg *args[] = { &dev, &id, &state, &mode, &count, &min_active,
			       &events, &fmt, NULL };
	uint32_t fields[MRC_MAX_EV_FIELDS][5], st = 0, mask = 0, m = 0;
	char **rest = xrealloc(NULL, (argc + 1) * sizeof(*rest));
	unsigned int nfields = 0, nrepl = 0, j;
	struct ev_repl *repl = NULL;
	struct nlmsghdr *nlh;
	uint64_t pid, fid = 0;
	int i, n = 0, ret;
	char *buf;

	/* field and replace come again and again; the rest are pairs */
	for (i = 0; i < argc;) {
		if (!strcmp(argv[i], "field")) {
			if (i + 1 == argc)
				die_usage("%s: missing value after \"field\"", cmd);
			if (nfields == MRC_MAX_EV_FIELDS)
				die_usage("%s: more than %d fields", cmd,
					  MRC_MAX_EV_FIELDS);
			parse_ev_field(cmd, argv[i + 1], fields[nfields++]);
			i += 2;
		} else if (!strcmp(argv[i], "replace")) {
			if (nrepl == MRC_MAX_EVS)
				die_usage("%s: more than %d replacements", cmd,
					  MRC_MAX_EVS);
			repl = xrealloc(repl, (nrepl + 1) * sizeof(*repl));
			i += parse_ev_repl(cmd, &repl[nrepl++], argc - i, argv + i);
		} else {
			rest[n++] = argv[i++];
			if (i < argc)
				rest[n++] = argv[i++];
		}
	}
	parse_args(cmd, args, n, rest);
	free(rest);
	parse_need(cmd, &dev);
	parse_need(cmd, &id);
	pid = parse_profile_id(cmd, &id);
	if (mode.set)
		m = parse_enum(cmd, &mode, ev_modes, ARRAY_SIZE(ev_modes));
	if (!state.set && !mode.set && !count.set && !min_active.set &&
	    !events.set && !fmt.set && !nfields && !nrepl)
		die_usage("%s: nothing to set", cmd);
	if (state.set)
		st = parse_profile_state(cmd, &state);
	if (events.set)
		mask = parse_ev_events(cmd, events.str);
	if (fmt.set)
		fid = parse_profile_id(cmd, &fmt);
	nl_open(c);
	if (apply_keeps_online(c, state.set, st)) {
		struct ev_line l = {
			.mode = &mode, .count = &count, .min_active = &min_active,
			.events = &events, .fmt = &fmt, .m = m, .mask = mask,
			.fid = fid, .fields = fields, .nfields = nfields,
			.repl = repl, .nrepl = nrepl,
		};

		ret = ev_profile_applied(c, dev.str, pid, &l);
		if (ret >= 0) {
			free(repl);
			return ret;
		}
	}
	buf = xrealloc(NULL, MNL_SOCKET_BUFFER_SIZE + nrepl * EV_REPL_MSG);
	nlh = nl_msg(c, buf, MRC_CMD_EV_PROFILE_SET, 0, MRC_A_EV_DEV_NAME,
		     dev.str);
	mnl_attr_put_u64(nlh, MRC_A_EV_PROFILE_ID, pid);
	if (state.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_STATE, st);
	if (mode.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_MODE, m);
	if (count.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_COUNT, count.u32);
	if (min_active.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_PROFILE_MIN_ACTIVE,
				 min_active.u32);
	if (events.set)
		mnl_attr_put_u32(nlh, MRC_A_EV_EVENT_MASK, mask);
	if (fmt.set)
		mnl_attr_put_u64(nlh, MRC_A_EV_FMT_ID, fid);
	for (j = 0; j < nfields; j++)
		put_ev_field(nlh, fields[j]);
	for (j = 0; j < nrepl; j++)
		put_ev_repl(nlh, &repl[j]);
	ret = nl_request(c, nlh, dev.str);
	free(repl);
	free(buf);
	return ret;
}

/* ev profile { show | set } ... */
int ev_profile(struct ctx *c, int argc, char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return ev_profile_show(c, argc ? argc - 1 : 0, argv + !!argc);
	if (!strcmp(argv[0], "set"))
		return ev_profile_set(c, argc - 1, argv + 1);
	die_usage("ev profile: unknown command \"%s\"", argv[0]);
}
