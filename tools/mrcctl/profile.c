// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: what cc profile and ev profile share (the profiles a device
 * keeps for its OCP MRC controller): ids, states, and show
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

const char *const profile_states[3] = {
	[MRC_CC_PROFILE_STATE_INIT] = "init",
	[MRC_CC_PROFILE_STATE_OFFLINE] = "offline",
	[MRC_CC_PROFILE_STATE_ONLINE] = "online",
};

/* a profile id (or an EV format profile's): 1 .. 2^64 - 1 */
uint64_t parse_profile_id(const char *cmd, const struct arg *id)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(id->str, &end, 0);
	if (errno || *end || !v || id->str[0] == '-')
		die_usage("%s: invalid %s \"%s\" (1 .. 2^64 - 1)", cmd, id->key,
			  id->str);
	return v;
}

/* a profile state's value (enum mrc_cc_profile_state) */
uint32_t parse_profile_state(const char *cmd, const struct arg *state)
{
	return parse_enum(cmd, state, profile_states,
			  ARRAY_SIZE(profile_states));
}

/* the value of word @a among @names (an enum); the error lists them */
uint32_t parse_enum(const char *cmd, const struct arg *a,
		    const char *const *names, unsigned int n)
{
	char list[128] = "";
	size_t len = 0;
	uint32_t v;

	for (v = 0; v < n; v++)
		if (names[v] && !strcmp(a->str, names[v]))
			return v;
	for (v = 0; v < n; v++)
		if (names[v])
			len += snprintf(list + len, sizeof(list) - len, "%s%s",
					!len ? "" : v == n - 1 ? " or " : ", ",
					names[v]);
	die_usage("%s: invalid %s \"%s\" (%s)", cmd, a->key, a->str, list);
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
