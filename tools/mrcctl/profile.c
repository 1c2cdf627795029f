// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: what cc profile and ev profile share (the profiles a device
 * keeps for its OCP MRC controller): ids, states, and show
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

const char *const profile_states[3] = {
	[MRC_CC_PROFILE_STATE_INIT] = "init",
	[MRC_CC_PROFILE_STATE_OFFLINE] = "offline",
	[MRC_CC_PROFILE_STATE_ONLINE] = "online",
};

/* a profile id: 1 .. 2^64 - 1 */
uint64_t parse_profile_id(const char *cmd, const struct arg *id)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(id->str, &end, 0);
	if (errno || *end || !v || id->str[0] == '-')
		die_usage("%s: invalid id \"%s\" (1 .. 2^64 - 1)", cmd, id->str);
	return v;
}

/* a profile state's value (enum mrc_cc_profile_state) */
uint32_t parse_profile_state(const char *cmd, const struct arg *state)
{
	uint32_t s;

	for (s = 0; s < ARRAY_SIZE(profile_states); s++)
		if (!strcmp(state->str, profile_states[s]))
			return s;
	die_usage("%s: invalid state \"%s\" (init, offline or online)", cmd,
		  state->str);
}

/* KIND profile show [ dev DEV [ id N ] ]: one profile, or a dump */
int profile_show(struct ctx *c, const struct profile_kind *k, mnl_cb_t cb,
		 int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg id = { .key = "id", .type = ARG_STR };
	struct arg *args[] = { &dev, &id, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	parse_args(k->cmd, args, argc, argv);
	if (id.set)
		parse_need(k->cmd, &dev);
	nl_open(c);
	nlh = nl_msg(c, buf, k->get, id.set ? NLM_F_ACK : NLM_F_DUMP,
		     k->dev_name, dev.str);
	if (id.set)
		mnl_attr_put_u64(nlh, k->id, parse_profile_id(k->cmd, &id));
	return nl_show(c, nlh, cb, dev.str ? dev.str : k->cmd);
}

/* a profile's id, state and QPs: "profile N STATE qps Q" */
void rec_profile(struct rec *r, const struct nlattr **tb, int id, int state,
		 int qps)
{
	if (tb[id])
		rec_num(r, "id", "profile ", NULL, nl_attr_uint(tb[id]));
	rec_attr_enum(r, "state", "", tb[state], profile_states,
		      ARRAY_SIZE(profile_states));
	rec_attr_u32(r, "qps", "qps ", tb[qps]);
}
