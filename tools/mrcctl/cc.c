// SPDX-License-Identifier: GPL-2.0
/* mrcctl cc: a device's congestion control profile (its new QPs get it) */
#include <stdio.h>
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

static int cb_cc(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};
	unsigned int i;

	nl_attrs(nlh, tb, MRC_A_CC_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_CC_DEV_NAME], ":"))
		return MNL_CB_OK;
	rec_attr_enum(&r, "algo", "algo ", tb[MRC_A_CC_ALGO], cc_algos,
		      ARRAY_SIZE(cc_algos));
	for (i = 0; i < CC_KNOBS; i++)
		rec_attr_u32(&r, cc_knobs[i].key, cc_knobs[i].pre,
			     tb[cc_knobs[i].attr]);
	if (nl_attr_ok(tb[MRC_A_CC_DISABLE_QA], MNL_TYPE_U8))
		rec_num(&r, "disable_qa", "disable_qa ", NULL,
			mnl_attr_get_u8(tb[MRC_A_CC_DISABLE_QA]));
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

/* cc set dev DEV [ algo { nscc | none } ] [ KNOB VALUE ]... */
int cc_set(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg algo = { .key = "algo", .type = ARG_STR };
	struct arg noqa = { .key = "disable_qa", .type = ARG_U32, .max = 1 };
	struct arg knob[CC_KNOBS];
	struct arg *args[CC_KNOBS + 4];
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	unsigned int i, n = 0, a = 0;
	bool any;

	args[n++] = &dev;
	args[n++] = &algo;
	args[n++] = &noqa;
	for (i = 0; i < CC_KNOBS; i++) {
		knob[i] = (struct arg){ .key = cc_knobs[i].key, .type = ARG_U32,
					.max = UINT32_MAX };
		args[n++] = &knob[i];
	}
	args[n] = NULL;
	parse_args("cc set", args, argc, argv);
	parse_need("cc set", &dev);
	if (algo.set) {
		for (a = 0; a < ARRAY_SIZE(cc_algos); a++)
			if (!strcmp(algo.str, cc_algos[a]))
				break;
		if (a == ARRAY_SIZE(cc_algos))
			die_usage("cc set: invalid algo \"%s\" (nscc or none)",
				  algo.str);
	}
	any = algo.set || noqa.set;
	for (i = 0; i < CC_KNOBS; i++)
		any |= knob[i].set;
	if (!any)
		die_usage("cc set: nothing to set");
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_CC_SET, 0, MRC_A_CC_DEV_NAME, dev.str);
	if (algo.set)
		mnl_attr_put_u32(nlh, MRC_A_CC_ALGO, a);
	if (noqa.set)
		mnl_attr_put_u8(nlh, MRC_A_CC_DISABLE_QA, noqa.u32);
	for (i = 0; i < CC_KNOBS; i++)
		if (knob[i].set)
			mnl_attr_put_u32(nlh, cc_knobs[i].attr, knob[i].u32);
	return nl_request(c, nlh, dev.str);
}
