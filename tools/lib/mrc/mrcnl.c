// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * mrcnl: the "mrc" generic netlink family's client, shared by mrcctl and
 * libmrc (mrcnl.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>

#include "mrcnl.h"

/* what the control callbacks and the caller's callback share for one read */
struct mrcnl_call {
	struct mrcnl *nl;
	mnl_cb_t cb;
	void *data;
};

void mrcnl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb,
		 unsigned int max)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= max)
			tb[mnl_attr_get_type(a)] = a;
}

uint64_t mrcnl_attr_uint(const struct nlattr *a)
{
	if (mnl_attr_get_payload_len(a) == sizeof(uint64_t))
		return mnl_attr_get_u64(a);
	if (mnl_attr_get_payload_len(a) == sizeof(uint32_t))
		return mnl_attr_get_u32(a);
	return 0;
}

bool mrcnl_attr_ok(const struct nlattr *a, enum mnl_attr_data_type type)
{
	return a && mnl_attr_validate(a, type) >= 0;
}

/* a u32 attribute's value; 0 if absent or not a u32 */
uint32_t mrcnl_u32(const struct nlattr *a)
{
	return mrcnl_attr_ok(a, MNL_TYPE_U32) ? mnl_attr_get_u32(a) : 0;
}

/* the extack message of an NLMSG_ERROR or NLMSG_DONE, TLVs after @off */
static void extack_keep(struct mrcnl *nl, const struct nlmsghdr *nlh,
			unsigned int off)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	mnl_attr_for_each(a, nlh, off)
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mrcnl_attr_ok(a, MNL_TYPE_NUL_STRING))
			snprintf(nl->errmsg, sizeof(nl->errmsg), "%s",
				 mnl_attr_get_str(a));
}

/* NLMSG_ERROR: keep the errno and the extack message */
static int cb_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct mrcnl_call *call = data;
	unsigned int off = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&err->msg);
	extack_keep(call->nl, nlh, off);
	errno = -err->error;
	return MNL_CB_ERROR;
}

/* NLMSG_DONE: the end of a dump, which carries its error, if any */
static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	struct mrcnl_call *call = data;
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(err))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err >= 0)
		return MNL_CB_STOP;
	extack_keep(call->nl, nlh, sizeof(err));
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

/* the caller's callback, with the caller's data */
static int cb_data(const struct nlmsghdr *nlh, void *data)
{
	struct mrcnl_call *call = data;

	return call->cb ? call->cb(nlh, call->data) : MNL_CB_OK;
}

int mrcnl_run(struct mrcnl *nl, const void *buf, size_t len, unsigned int seq,
	      unsigned int portid, mnl_cb_t cb, void *data)
{
	struct mrcnl_call call = { .nl = nl, .cb = cb, .data = data };

	return mnl_cb_run2(buf, len, seq, portid, cb_data, &call, ctl_cbs,
			   NLMSG_MIN_TYPE);
}

static struct nlmsghdr *msg_new(struct mrcnl *nl, char *buf, uint16_t type,
				uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : MRC_FAMILY_VERSION;
	return nlh;
}

struct nlmsghdr *mrcnl_msg(struct mrcnl *nl, char *buf, uint8_t cmd,
			   uint16_t flags)
{
	return msg_new(nl, buf, nl->family, flags, cmd);
}

int mrcnl_transact(struct mrcnl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		   void *data)
{
	unsigned int portid = mnl_socket_get_portid(nl->sock);
	char *buf;
	int ret, err;

	nl->errmsg[0] = '\0';
	/* a do request's reply has no end of its own: the ack is its end */
	if (!(nlh->nlmsg_flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -1;
	/* one reply is read whole or lost: room for the largest the kernel sends */
	buf = malloc(MRCNL_RECV_SIZE);
	if (!buf)
		return -1;
	do {
		ret = mnl_socket_recvfrom(nl->sock, buf, MRCNL_RECV_SIZE);
		if (ret <= 0) {
			ret = -1;
			break;
		}
		ret = mrcnl_run(nl, buf, ret, nlh->nlmsg_seq, portid, cb, data);
	} while (ret > 0);
	err = errno;
	free(buf);
	errno = err;
	return ret < 0 ? -1 : 0;
}

/* the multicast groups of CTRL_ATTR_MCAST_GROUPS: names and ids */
static void family_groups(struct mrcnl *nl, const struct nlattr *nest)
{
	const struct nlattr *g, *a;
	struct mrcnl_group *m;

	mnl_attr_for_each_nested(g, nest) {
		if (nl->ngroups == MRCNL_GROUPS_MAX)
			break;
		m = &nl->groups[nl->ngroups];
		memset(m, 0, sizeof(*m));
		mnl_attr_for_each_nested(a, g) {
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			    mrcnl_attr_ok(a, MNL_TYPE_U32))
				m->id = mnl_attr_get_u32(a);
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
			    mrcnl_attr_ok(a, MNL_TYPE_NUL_STRING))
				snprintf(m->name, sizeof(m->name), "%s",
					 mnl_attr_get_str(a));
		}
		if (m->id && m->name[0])
			nl->ngroups++;
	}
}

static int cb_family(const struct nlmsghdr *nlh, void *data)
{
	struct mrcnl *nl = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    mrcnl_attr_ok(a, MNL_TYPE_U16))
			nl->family = mnl_attr_get_u16(a);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			family_groups(nl, a);
	}
	return MNL_CB_OK;
}

int mrcnl_open(struct mrcnl *nl)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock)
		return -1;
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nlh = msg_new(nl, buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MRC_FAMILY_NAME);
	if (mrcnl_transact(nl, nlh, cb_family, nl) < 0)
		goto fail;
	if (!nl->family) {
		errno = ENOENT;
		goto fail;
	}
	return 0;
fail:
	err = errno;
	mnl_socket_close(nl->sock);
	nl->sock = NULL;
	errno = err;
	return -1;
}

void mrcnl_close(struct mrcnl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
}

uint32_t mrcnl_group(const struct mrcnl *nl, const char *name)
{
	unsigned int i;

	for (i = 0; i < nl->ngroups; i++)
		if (!strcmp(nl->groups[i].name, name))
			return nl->groups[i].id;
	return 0;
}
