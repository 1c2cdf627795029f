// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl cc: a device's congestion control profile (its new QPs get it),
 * one QP's state, and the profiles the device keeps for its controller
 * (the OCP MRC API's, which QPs are bound to by their owner)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

static const char *const cc_algos[] = {
	[MRC_CC_ALGO_NONE] = "none",
	[MRC_CC_ALGO_NSCC] = "nscc",
};

/* the NSCC knobs: OCP MRC API names, one u32 attribute each */
static const struct {
	const char *key;
	const char *pre;	/* the key, then a space: text output */
	uint16_t attr;
} cc_knobs[] = {
	{ "base_rtt", "base_rtt ", MRC_A_CC_BASE_RTT },
	{ "target_delay", "target_delay ", MRC_A_CC_TARGET_DELAY },
	{ "max_cwnd", "max_cwnd ", MRC_A_CC_MAX_CWND },
	{ "eta", "eta ", MRC_A_CC_ETA },
	{ "fi", "fi ", MRC_A_CC_FI },
	{ "fi_scale", "fi_scale ", MRC_A_CC_FI_SCALE },
	{ "gamma", "gamma ", MRC_A_CC_GAMMA },
	{ "max_md_jump", "max_md_jump ", MRC_A_CC_MAX_MD_JUMP },
	{ "qa_gate", "qa_gate ", MRC_A_CC_QA_GATE },
	{ "qa_threshold", "qa_threshold ", MRC_A_CC_QA_THRESHOLD },
	{ "adjust_bytes_threshold", "adjust_bytes_threshold ",
	  MRC_A_CC_ADJUST_BYTES_THRESHOLD },
	{ "adjust_period_threshold", "adjust_period_threshold ",
	  MRC_A_CC_ADJUST_PERIOD_THRESHOLD },
};

#define CC_KNOBS	ARRAY_SIZE(cc_knobs)

/* a profile's algorithm and knobs */
static void rec_algo_knobs(struct rec *r, const struct nlattr **tb)
{
	unsigned int i;

	rec_attr_enum(r, "algo", "algo ", tb[MRC_A_CC_ALGO], cc_algos,
		      ARRAY_SIZE(cc_algos));
	for (i = 0; i < CC_KNOBS; i++)
		rec_attr_u32(r, cc_knobs[i].key, cc_knobs[i].pre,
			     tb[cc_knobs[i].attr]);
	if (nl_attr_ok(tb[MRC_A_CC_DISABLE_QA], MNL_TYPE_U8))
		rec_num(r, "disable_qa", "disable_qa ", NULL,
			mnl_attr_get_u8(tb[MRC_A_CC_DISABLE_QA]));
}

static int cb_cc(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	nl_attrs(nlh, tb, MRC_A_CC_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_CC_DEV_NAME], ":"))
		return MNL_CB_OK;
	rec_algo_knobs(&r, tb);
	rec_attr_uint(&r, "decreases", "decreases ", NULL, tb[MRC_A_CC_DECREASES]);
	rec_attr_uint(&r, "quick_adapts", "quick_adapts ", NULL,
		      tb[MRC_A_CC_QUICK_ADAPTS]);
	rec_attr_uint(&r, "timeouts", "timeouts ", NULL, tb[MRC_A_CC_TIMEOUTS]);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

/* one QP's state: live values, not knobs */
static int cb_cc_qp(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	nl_attrs(nlh, tb, MRC_A_CC_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_CC_DEV_NAME], NULL))
		return MNL_CB_OK;
	rec_attr_u32(&r, "qpn", "qpn ", tb[MRC_A_CC_QPN]);
	rec_attr_enum(&r, "algo", "algo ", tb[MRC_A_CC_ALGO], cc_algos,
		      ARRAY_SIZE(cc_algos));
	rec_attr_u32(&r, "cwnd", "cwnd ", tb[MRC_A_CC_CWND]);
	rec_attr_u32(&r, "max_cwnd", "max_cwnd ", tb[MRC_A_CC_MAX_CWND]);
	rec_attr_u32(&r, "inflight", "inflight ", tb[MRC_A_CC_INFLIGHT]);
	rec_attr_u32(&r, "base_rtt", "base_rtt ", tb[MRC_A_CC_BASE_RTT]);
	rec_attr_u32(&r, "avg_delay", "avg_delay ", tb[MRC_A_CC_AVG_DELAY]);
	rec_attr_u32(&r, "srtt", "srtt ", tb[MRC_A_CC_SRTT]);
	rec_attr_uint(&r, "decreases", "decreases ", NULL, tb[MRC_A_CC_DECREASES]);
	rec_attr_uint(&r, "quick_adapts", "quick_adapts ", NULL,
		      tb[MRC_A_CC_QUICK_ADAPTS]);
	rec_attr_uint(&r, "nack_decreases", "nack_decreases ", NULL,
		      tb[MRC_A_CC_NACK_DECREASES]);
	rec_attr_uint(&r, "timeouts", "timeouts ", NULL, tb[MRC_A_CC_TIMEOUTS]);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

/* cc show [ dev DEV [ qpn N ] ]: the profiles, or one QP's state */
int cc_show(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg qpn = { .key = "qpn", .type = ARG_U32, .max = QPN_MAX };
	struct arg *args[] = { &dev, &qpn, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	parse_args("cc show", args, argc, argv);
	if (qpn.set)
		parse_need("cc show", &dev);
	nl_open(c);
	if (qpn.set) {
		nlh = nl_msg(c, buf, MRC_CMD_CC_QP_GET, NLM_F_ACK,
			     MRC_A_CC_DEV_NAME, dev.str);
		mnl_attr_put_u32(nlh, MRC_A_CC_QPN, qpn.u32);
		return nl_show(c, nlh, cb_cc_qp, dev.str);
	}
	nlh = nl_msg(c, buf, MRC_CMD_CC_GET, dev.str ? NLM_F_ACK : NLM_F_DUMP,
		     MRC_A_CC_DEV_NAME, dev.str);
	return nl_show(c, nlh, cb_cc, dev.str ? dev.str : "cc show");
}

/* the words of cc set and cc profile set: algo and the knobs */
struct cc_words {
	struct arg algo, noqa, knob[CC_KNOBS];
	unsigned int algo_id;
};

/* @w's arguments into @args from @n on; the new count */
static unsigned int cc_words_args(struct cc_words *w, struct arg **args,
				  unsigned int n)
{
	unsigned int i;

	w->algo = (struct arg){ .key = "algo", .type = ARG_STR };
	w->noqa = (struct arg){ .key = "disable_qa", .type = ARG_U32, .max = 1 };
	args[n++] = &w->algo;
	args[n++] = &w->noqa;
	for (i = 0; i < CC_KNOBS; i++) {
		w->knob[i] = (struct arg){ .key = cc_knobs[i].key,
					   .type = ARG_U32, .max = UINT32_MAX };
		args[n++] = &w->knob[i];
	}
	return n;
}

/* the algorithm's id; true if any word was given */
static bool cc_words_check(const char *cmd, struct cc_words *w)
{
	unsigned int i;
	bool any;

	if (w->algo.set) {
		for (w->algo_id = 0; w->algo_id < ARRAY_SIZE(cc_algos); w->algo_id++)
			if (!strcmp(w->algo.str, cc_algos[w->algo_id]))
				break;
		if (w->algo_id == ARRAY_SIZE(cc_algos))
			die_usage("%s: invalid algo \"%s\" (nscc or none)", cmd,
				  w->algo.str);
	}
	any = w->algo.set || w->noqa.set;
	for (i = 0; i < CC_KNOBS; i++)
		any |= w->knob[i].set;
	return any;
}

static void cc_words_put(struct nlmsghdr *nlh, const struct cc_words *w)
{
	unsigned int i;

	if (w->algo.set)
		mnl_attr_put_u32(nlh, MRC_A_CC_ALGO, w->algo_id);
	if (w->noqa.set)
		mnl_attr_put_u8(nlh, MRC_A_CC_DISABLE_QA, w->noqa.u32);
	for (i = 0; i < CC_KNOBS; i++)
		if (w->knob[i].set)
			mnl_attr_put_u32(nlh, cc_knobs[i].attr, w->knob[i].u32);
}

/* cc set dev DEV [ algo { nscc | none } ] [ KNOB VALUE ]... */
int cc_set(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg *args[CC_KNOBS + 4];
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct cc_words w;
	unsigned int n = 0;

	args[n++] = &dev;
	n = cc_words_args(&w, args, n);
	args[n] = NULL;
	parse_args("cc set", args, argc, argv);
	parse_need("cc set", &dev);
	if (!cc_words_check("cc set", &w))
		die_usage("cc set: nothing to set");
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_CC_SET, 0, MRC_A_CC_DEV_NAME, dev.str);
	cc_words_put(nlh, &w);
	return nl_request(c, nlh, dev.str);
}

/* ---- cc profile: the controller's profiles ---------------------------- */

static int cb_cc_profile(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	nl_attrs(nlh, tb, MRC_A_CC_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_CC_DEV_NAME], NULL))
		return MNL_CB_OK;
	rec_profile(&r, tb, MRC_A_CC_PROFILE_ID, MRC_A_CC_PROFILE_STATE,
		    MRC_A_CC_PROFILE_QPS);
	rec_algo_knobs(&r, tb);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

/* cc profile show [ dev DEV [ id N ] ] */
static int cc_profile_show(struct ctx *c, int argc, char **argv)
{
	static const struct profile_kind kind = {
		.cmd = "cc profile show", .get = MRC_CMD_CC_PROFILE_GET,
		.dev_name = MRC_A_CC_DEV_NAME, .id = MRC_A_CC_PROFILE_ID,
	};

	return profile_show(c, &kind, cb_cc_profile, argc, argv);
}

/*
 * apply, cc profile @id of @dev online: 0 if it has what @w asks, 1 after
 * the error if not; -1 if it is not online (the line is sent)
 */
static int cc_profile_applied(struct ctx *c, const char *dev, uint64_t id,
			      const struct cc_words *w)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	char buf[MNL_SOCKET_BUFFER_SIZE], what[40];
	char have[APPLY_VAL_MAX], want[APPLY_VAL_MAX];
	struct nlmsghdr *nlh, *pf;
	const struct nlattr *a;
	unsigned int i;
	int ret = 0;

	nlh = nl_msg(c, buf, MRC_CMD_CC_PROFILE_GET, 0, MRC_A_CC_DEV_NAME, dev);
	mnl_attr_put_u64(nlh, MRC_A_CC_PROFILE_ID, id);
	pf = apply_get_online(c, nlh, MRC_A_CC_PROFILE_STATE, MRC_A_CC_MAX);
	if (!pf)
		return -1;
	nl_attrs(pf, tb, MRC_A_CC_MAX);
	snprintf(what, sizeof(what), "cc profile %s", apply_num(id, have));
	if (w->algo.set)
		ret = apply_cmp(dev, what, "algo",
				rec_enum_name(tb[MRC_A_CC_ALGO], cc_algos,
					      ARRAY_SIZE(cc_algos)),
				cc_algos[w->algo_id]);
	a = tb[MRC_A_CC_DISABLE_QA];
	if (!ret && w->noqa.set)
		ret = apply_cmp(dev, what, "disable_qa",
				nl_attr_ok(a, MNL_TYPE_U8) ?
				apply_num(mnl_attr_get_u8(a), have) : NULL,
				apply_num(w->noqa.u32, want));
	for (i = 0; !ret && i < CC_KNOBS; i++) {
		if (!w->knob[i].set)
			continue;
		ret = apply_cmp(dev, what, cc_knobs[i].key,
				apply_u32(tb[cc_knobs[i].attr], have),
				apply_num(w->knob[i].u32, want));
	}
	free(pf);
	return ret;
}

/* cc profile set dev DEV id N [ state STATE ] [ algo ALGO ] [ KNOB VALUE ]... */
static int cc_profile_set(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg id = { .key = "id", .type = ARG_STR };
	struct arg state = { .key = "state", .type = ARG_STR };
	struct arg *args[CC_KNOBS + 6];
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct cc_words w;
	unsigned int n = 0, s = 0;
	uint64_t pid;
	bool any;
	int ret;

	args[n++] = &dev;
	args[n++] = &id;
	args[n++] = &state;
	n = cc_words_args(&w, args, n);
	args[n] = NULL;
	parse_args("cc profile set", args, argc, argv);
	parse_need("cc profile set", &dev);
	parse_need("cc profile set", &id);
	any = cc_words_check("cc profile set", &w);
	if (state.set)
		s = parse_profile_state("cc profile set", &state);
	if (!any && !state.set)
		die_usage("cc profile set: nothing to set");
	pid = parse_profile_id("cc profile set", &id);
	nl_open(c);
	if (apply_keeps_online(c, state.set, s)) {
		ret = cc_profile_applied(c, dev.str, pid, &w);
		if (ret >= 0)
			return ret;
	}
	nlh = nl_msg(c, buf, MRC_CMD_CC_PROFILE_SET, 0, MRC_A_CC_DEV_NAME,
		     dev.str);
	mnl_attr_put_u64(nlh, MRC_A_CC_PROFILE_ID, pid);
	if (state.set)
		mnl_attr_put_u32(nlh, MRC_A_CC_PROFILE_STATE, s);
	cc_words_put(nlh, &w);
	return nl_request(c, nlh, dev.str);
}

/* cc profile { show | set } ... */
int cc_profile(struct ctx *c, int argc, char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return cc_profile_show(c, argc ? argc - 1 : 0, argv + !!argc);
	if (!strcmp(argv[0], "set"))
		return cc_profile_set(c, argc - 1, argv + 1);
	die_usage("cc profile: unknown command \"%s\"", argv[0]);
}
