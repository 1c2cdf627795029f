// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: requests to the "mrc" generic netlink family over mrcnl, the
 * client it shares with libmrc, and the kernel's errors as mrcctl prints them
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

void nl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb,
	      unsigned int max)
{
	mrcnl_attrs(nlh, tb, max);
}

uint64_t nl_attr_uint(const struct nlattr *a)
{
	return mrcnl_attr_uint(a);
}

bool nl_attr_ok(const struct nlattr *a, enum mnl_attr_data_type type)
{
	return mrcnl_attr_ok(a, type);
}

/*
 * @cb(c) on every message of @buf (@len bytes) of sequence @seq from
 * @portid (0: any): 1 (more to come), 0 (the end: NLMSG_DONE, an ack, or
 * @cb said stop) or -1 with errno (+c->nl.errmsg)
 */
int nl_run(struct ctx *c, const void *buf, size_t len, unsigned int seq,
	   unsigned int portid, mnl_cb_t cb)
{
	return mrcnl_run(&c->nl, buf, len, seq, portid, cb, c);
}

/* an mrc request naming device @dev (if any) in attribute @dev_attr */
struct nlmsghdr *nl_msg(struct ctx *c, char *buf, uint8_t cmd,
			uint16_t flags, uint16_t dev_attr, const char *dev)
{
	struct nlmsghdr *nlh = mrcnl_msg(&c->nl, buf, cmd, flags);

	if (dev)
		mnl_attr_put_strz(nlh, dev_attr, dev);
	return nlh;
}

/*
 * send @nlh and run @cb(c) on every reply; 0 or -1 with errno. As
 * mrcnl_transact(), but read into a buffer that takes the largest reply:
 * an EV profile with its EV array (ev profile show entries: 256 entries,
 * some 17 KB in one message), which a page (MNL_SOCKET_BUFFER_SIZE) does
 * not hold, and a read of a message larger than its buffer fails.
 */
int nl_transact(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb)
{
	static char buf[NL_REPLY_MAX];
	unsigned int portid = mnl_socket_get_portid(c->nl.sock);
	int ret;

	c->nl.errmsg[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(c->nl.sock, nlh, nlh->nlmsg_len) < 0)
		return -1;
	do {
		ret = mnl_socket_recvfrom(c->nl.sock, buf, sizeof(buf));
		if (ret <= 0)
			return -1;
		ret = nl_run(c, buf, ret, nlh->nlmsg_seq, portid, cb);
	} while (ret > 0);
	return ret < 0 ? -1 : 0;
}

/* the family opened, if not yet: false if the mrc module is not loaded */
bool nl_try_open(struct ctx *c)
{
	if (c->nl.sock || !mrcnl_open(&c->nl))
		return true;
	if (errno == ENOENT)
		return false;
	pr_err("cannot resolve the \"%s\" netlink family: %s\n",
	       MRC_FAMILY_NAME, strerror(errno));
	exit(1);
}

void nl_open(struct ctx *c)
{
	if (nl_try_open(c))
		return;
	pr_err("the mrc module is not loaded (no \"%s\" generic netlink family); try \"modprobe mrc\"\n",
	       MRC_FAMILY_NAME);
	exit(1);
}

int nl_fail(struct ctx *c, const char *what)
{
	if (c->nl.errmsg[0])
		pr_err("Error: %s: %s (%s)\n", what, c->nl.errmsg,
		       strerror(errno));
	else
		pr_err("Error: %s: %s\n", what, strerror(errno));
	return 1;
}

/* a request without reply data (add, del, set): 0, or 1 after the error */
int nl_request(struct ctx *c, struct nlmsghdr *nlh, const char *what)
{
	nlh->nlmsg_flags |= NLM_F_ACK;
	return nl_transact(c, nlh, NULL) < 0 ? nl_fail(c, what) : 0;
}

/* a show: one get or dump, its objects as a list (or kept: c->collect) */
int nl_show(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb,
	    const char *what)
{
	int ret;

	rec_list_begin(c);
	ret = nl_transact(c, nlh, cb) < 0 ? nl_fail(c, what) : 0;
	rec_list_end(c);
	return ret;
}
