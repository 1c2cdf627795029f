// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl apply: the profile lines of a file (cc profile set, ev fmt set,
 * ev profile set) that meet a profile online already. The kernel refuses
 * every change to an online profile but going offline, so a file that
 * brought one online would fail on its second run: such a line is
 * compared with what the profile has instead, and succeeds without a
 * request when it asks for what is there, or fails naming what differs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

static struct nlmsghdr *kept;	/* the reply of apply_get_online()'s get */

static int cb_keep(const struct nlmsghdr *nlh, void *data)
{
	free(kept);
	kept = xrealloc(NULL, nlh->nlmsg_len);
	memcpy(kept, nlh, nlh->nlmsg_len);
	return MNL_CB_OK;
}

/*
 * Is the line compared with an online profile rather than sent? Under
 * apply, when it leaves the profile online: it names no state, or online,
 * or offline with a later line of the file bringing the profile online
 * (a profile goes online from init by way of offline, so the file's first
 * line for it says offline).
 */
bool apply_keeps_online(const struct ctx *c, bool state_set, uint32_t state)
{
	return c->apply &&
	       (!state_set || state == MRC_CC_PROFILE_STATE_ONLINE ||
		(state == MRC_CC_PROFILE_STATE_OFFLINE && c->online_later));
}

/*
 * the reply to the get @nlh (attributes up to @max) when the profile is
 * online (free() it); NULL when it is not, or the get failed: the line is
 * then sent, and its request says what is wrong
 */
struct nlmsghdr *apply_get_online(struct ctx *c, struct nlmsghdr *nlh,
				  uint16_t state_attr, unsigned int max)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct nlmsghdr *r;

	if (nl_transact(c, nlh, cb_keep) < 0 || !kept) {
		free(kept);
		kept = NULL;
		return NULL;
	}
	r = kept;
	kept = NULL;
	nl_attrs(r, tb, max);
	if (!nl_attr_ok(tb[state_attr], MNL_TYPE_U32) ||
	    mnl_attr_get_u32(tb[state_attr]) != MRC_CC_PROFILE_STATE_ONLINE) {
		free(r);
		return NULL;
	}
	return r;
}

/*
 * setting @key of online profile @what ("cc profile 3") of @dev: what it
 * has (NULL: none) against what the line wants; 0 if the same, else 1
 * after the error
 */
int apply_cmp(const char *dev, const char *what, const char *key,
	      const char *have, const char *want)
{
	if (have && !strcmp(have, want))
		return 0;
	if (have)
		pr_err("Error: %s: %s is online with %s %s, the line wants %s; take it offline first\n",
		       dev, what, key, have, want);
	else
		pr_err("Error: %s: %s is online without %s, the line wants %s; take it offline first\n",
		       dev, what, key, want);
	return 1;
}

/* a u32 attribute in @buf (APPLY_VAL_MAX), for apply_cmp(); NULL if absent */
const char *apply_u32(const struct nlattr *a, char *buf)
{
	if (!nl_attr_ok(a, MNL_TYPE_U32))
		return NULL;
	snprintf(buf, APPLY_VAL_MAX, "%u", mnl_attr_get_u32(a));
	return buf;
}

/* @v in @buf (APPLY_VAL_MAX), for apply_cmp() */
const char *apply_num(uint64_t v, char *buf)
{
	snprintf(buf, APPLY_VAL_MAX, "%llu", (unsigned long long)v);
	return buf;
}
