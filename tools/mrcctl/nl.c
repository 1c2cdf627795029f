// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: the "mrc" generic netlink family: the socket, requests, dumps and
 * the kernel's errors (extack)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>

#include "mrcctl.h"

/* the attributes of @nlh (after its genetlink header) by type, up to @max */
void nl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb,
	      unsigned int max)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= max)
			tb[mnl_attr_get_type(a)] = a;
}

/* NLA_UINT: 4 or 8 bytes */
uint64_t nl_attr_uint(const struct nlattr *a)
{
	if (mnl_attr_get_payload_len(a) == sizeof(uint64_t))
		return mnl_attr_get_u64(a);
	if (mnl_attr_get_payload_len(a) == sizeof(uint32_t))
		return mnl_attr_get_u32(a);
	return 0;
}

bool nl_attr_ok(const struct nlattr *a, enum mnl_attr_data_type type)
{
	return a && mnl_attr_validate(a, type) >= 0;
}

/* the extack message of an NLMSG_ERROR or NLMSG_DONE, TLVs after @off */
static void get_extack(struct ctx *c, const struct nlmsghdr *nlh, unsigned int off)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	mnl_attr_for_each(a, nlh, off)
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(c->errmsg, sizeof(c->errmsg), "%s",
				 mnl_attr_get_str(a));
}

/* NLMSG_ERROR: keep the errno and the extack message */
static int cb_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&err->msg);
	get_extack(data, nlh, off);
	errno = -err->error;
	return MNL_CB_ERROR;
}

/* NLMSG_DONE: the end of a dump, which carries its error, if any */
static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(err))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err >= 0)
		return MNL_CB_STOP;
	get_extack(data, nlh, sizeof(err));
	errno = -err;
	return MNL_CB_ERROR;
}

static int cb_noop(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_OK;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP] = cb_noop,
	[NLMSG_ERROR] = cb_error,
	[NLMSG_DONE] = cb_done,
	[NLMSG_OVERRUN] = cb_noop,
};

static struct nlmsghdr *msg_new(struct ctx *c, char *buf, uint16_t type,
				uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++c->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : MRC_FAMILY_VERSION;
	return nlh;
}

/*
 * @cb on every message of @buf (@len bytes) of sequence @seq from @portid
 * (0: any), the control messages on ctl_cbs: 1 (more to come), 0 (the end:
 * NLMSG_DONE, an ack, or @cb said stop) or -1 with errno (+c->errmsg)
 */
int nl_run(struct ctx *c, const void *buf, size_t len, unsigned int seq,
	   unsigned int portid, mnl_cb_t cb)
{
	return mnl_cb_run2(buf, len, seq, portid, cb, c, ctl_cbs,
			   NLMSG_MIN_TYPE);
}

/* an mrc request naming device @dev (if any) in attribute @dev_attr */
struct nlmsghdr *nl_msg(struct ctx *c, char *buf, uint8_t cmd,
			uint16_t flags, uint16_t dev_attr, const char *dev)
{
	struct nlmsghdr *nlh = msg_new(c, buf, c->family, flags, cmd);

	if (dev)
		mnl_attr_put_strz(nlh, dev_attr, dev);
	return nlh;
}

/* send @nlh and run @cb on every reply; 0 or -1 with errno (+c->errmsg) */
int nl_transact(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(c->nl);
	int ret;

	c->errmsg[0] = '\0';
	if (mnl_socket_sendto(c->nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	do {
		ret = mnl_socket_recvfrom(c->nl, buf, sizeof(buf));
		if (ret <= 0)
			return -1;
		ret = nl_run(c, buf, ret, nlh->nlmsg_seq, portid, cb);
	} while (ret > 0);
	return ret < 0 ? -1 : 0;
}

/* the multicast groups of CTRL_ATTR_MCAST_GROUPS: names and ids */
static void family_groups(struct ctx *c, const struct nlattr *nest)
{
	const struct nlattr *g, *a;
	struct mcgrp *m;

	mnl_attr_for_each_nested(g, nest) {
		if (c->ngroups == ARRAY_SIZE(c->groups))
			break;
		m = &c->groups[c->ngroups];
		memset(m, 0, sizeof(*m));
		mnl_attr_for_each_nested(a, g) {
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			    nl_attr_ok(a, MNL_TYPE_U32))
				m->id = mnl_attr_get_u32(a);
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
			    nl_attr_ok(a, MNL_TYPE_NUL_STRING))
				snprintf(m->name, sizeof(m->name), "%s",
					 mnl_attr_get_str(a));
		}
		if (m->id && m->name[0])
			c->ngroups++;
	}
}

static int cb_family(const struct nlmsghdr *nlh, void *data)
{
	struct ctx *c = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			c->family = mnl_attr_get_u16(a);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			family_groups(c, a);
	}
	return MNL_CB_OK;
}

void nl_open(struct ctx *c)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int one = 1;

	c->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!c->nl || mnl_socket_bind(c->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("mrcctl: netlink socket");
		exit(1);
	}
	mnl_socket_setsockopt(c->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(c->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	nlh = msg_new(c, buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MRC_FAMILY_NAME);
	if (nl_transact(c, nlh, cb_family) < 0 || !c->family) {
		if (errno == ENOENT)
			fprintf(stderr, "mrcctl: the mrc module is not loaded (no \"%s\" generic netlink family); try \"modprobe mrc\"\n",
				MRC_FAMILY_NAME);
		else
			fprintf(stderr, "mrcctl: cannot resolve the \"%s\" netlink family: %s\n",
				MRC_FAMILY_NAME, strerror(errno));
		exit(1);
	}
}

int nl_fail(struct ctx *c, const char *what)
{
	if (c->errmsg[0])
		fprintf(stderr, "mrcctl: Error: %s: %s (%s)\n", what, c->errmsg,
			strerror(errno));
	else
		fprintf(stderr, "mrcctl: Error: %s: %s\n", what, strerror(errno));
	return 1;
}

/* a request without reply data (add, del, set): 0, or 1 after the error */
int nl_request(struct ctx *c, struct nlmsghdr *nlh, const char *what)
{
	nlh->nlmsg_flags |= NLM_F_ACK;
	return nl_transact(c, nlh, NULL) < 0 ? nl_fail(c, what) : 0;
}

/* a get or dump whose objects @cb emits: 0, or 1 after the error */
static int query(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb,
		 const char *what)
{
	return nl_transact(c, nlh, cb) < 0 ? nl_fail(c, what) : 0;
}

/* a show: one get or dump, its objects as a list (or kept: c->collect) */
int nl_show(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb,
	    const char *what)
{
	int ret;

	rec_list_begin(c);
	ret = query(c, nlh, cb, what);
	rec_list_end(c);
	return ret;
}
