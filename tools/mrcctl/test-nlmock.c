// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the kernel's "mrc" generic netlink family, for testing
 * mrcctl on a host without the module: LD_PRELOAD it and it replaces
 * libmnl's socket calls, answering with fixed devices, planes, paths and
 * EVs (as the family's spec describes them).
 *
 *   MOCK_LOG=FILE        append one line per mrc request: "cmd=N TYPE=VALUE..."
 *   MOCK_ERR=ERRNO:MSG   fail mrc requests (do: NLMSG_ERROR, dump: NLMSG_DONE)
 *   MOCK_FAIL_AT=N       ... only the Nth one
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "linux/mrc.h"

#define MOCK_FAMILY	0x42
#define MAX_MSGS	64

static char *queue[MAX_MSGS];
static size_t queue_len[MAX_MSGS];
static unsigned int nqueued, head, requests;
static char out[8192];
static struct nlmsghdr *cur;		/* the reply being built */
static const struct nlmsghdr *req;	/* the request being answered */

struct mnl_socket *mnl_socket_open(int bus)
{
	return malloc(1);
}

int mnl_socket_bind(struct mnl_socket *nl, unsigned int groups, pid_t pid)
{
	return 0;
}

int mnl_socket_setsockopt(const struct mnl_socket *nl, int type, void *buf,
			  socklen_t len)
{
	return 0;
}

unsigned int mnl_socket_get_portid(const struct mnl_socket *nl)
{
	return 4242;
}

int mnl_socket_close(struct mnl_socket *nl)
{
	free(nl);
	return 0;
}

static void push(void)
{
	if (nqueued == MAX_MSGS)
		abort();
	queue_len[nqueued] = cur->nlmsg_len;
	queue[nqueued] = malloc(cur->nlmsg_len);
	memcpy(queue[nqueued++], cur, cur->nlmsg_len);
}

static struct nlmsghdr *reply(uint16_t type, uint16_t flags)
{
	memset(out, 0, sizeof(out));
	cur = mnl_nlmsg_put_header(out);
	cur->nlmsg_type = type;
	cur->nlmsg_flags = flags;
	cur->nlmsg_seq = req->nlmsg_seq;
	return cur;
}

static struct nlmsghdr *genl_reply(uint8_t cmd)
{
	struct genlmsghdr *g;

	reply(req->nlmsg_type, req->nlmsg_flags & NLM_F_DUMP ? NLM_F_MULTI : 0);
	g = mnl_nlmsg_put_extra_header(cur, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return cur;
}

static void put_ack(int err, const char *msg)
{
	struct nlmsgerr *e;

	reply(NLMSG_ERROR, NLM_F_CAPPED);
	e = mnl_nlmsg_put_extra_header(cur, sizeof(*e));
	e->error = err;
	e->msg = *req;
	if (msg && err) {
		cur->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(cur, NLMSGERR_ATTR_MSG, msg);
	}
	push();
}

static void put_done(int err, const char *msg)
{
	reply(NLMSG_DONE, NLM_F_MULTI);
	memcpy(mnl_nlmsg_put_extra_header(cur, sizeof(int)), &err, sizeof(int));
	if (msg && err) {
		cur->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(cur, NLMSGERR_ATTR_MSG, msg);
	}
	push();
}

static const struct nlattr *req_attr(uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

static const char *req_str(uint16_t type)
{
	const struct nlattr *a = req_attr(type);

	return a ? mnl_attr_get_str(a) : NULL;
}

static void put_addr(uint16_t type, const char *s)
{
	struct in6_addr a;

	inet_pton(AF_INET6, s, &a);
	mnl_attr_put(cur, type, sizeof(a), &a);
}

static const char *const devs[] = { "mrc0", "mrc1" };

static void put_dev(unsigned int i)
{
	genl_reply(MRC_CMD_DEV_GET);
	mnl_attr_put_u32(cur, MRC_A_DEV_INDEX, 3 + i);
	mnl_attr_put_strz(cur, MRC_A_DEV_NAME, devs[i]);
	mnl_attr_put_u32(cur, MRC_A_DEV_NETDEV_IFINDEX, 1);
	mnl_attr_put_u64(cur, MRC_A_DEV_NODE_GUID, 0x0200aafffe000001ULL + i);
	mnl_attr_put_u32(cur, MRC_A_DEV_PORT_STATE, MRC_PORT_STATE_ACTIVE);
	mnl_attr_put_u32(cur, MRC_A_DEV_EV_COUNT, 16);
	mnl_attr_put_u32(cur, MRC_A_DEV_PLANES, 2);
	push();
}

static void put_plane(const char *dev, uint32_t id)
{
	genl_reply(MRC_CMD_PLANE_GET);
	mnl_attr_put_u32(cur, MRC_A_PLANE_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_PLANE_DEV_NAME, dev);
	mnl_attr_put_u32(cur, MRC_A_PLANE_ID, id);
	mnl_attr_put_u32(cur, MRC_A_PLANE_IFINDEX, id ? 999999 : 1);
	mnl_attr_put_u32(cur, MRC_A_PLANE_STATE, id ? MRC_PLANE_STATE_DOWN :
			 MRC_PLANE_STATE_UP);
	/* NLA_UINT: 4 bytes when it fits, 8 when not */
	mnl_attr_put_u32(cur, MRC_A_PLANE_TX_PACKETS, 123);
	mnl_attr_put_u64(cur, MRC_A_PLANE_TX_BYTES, 5000000000ULL);
	mnl_attr_put_u32(cur, MRC_A_PLANE_RX_PACKETS, 12);
	mnl_attr_put_u32(cur, MRC_A_PLANE_RX_BYTES, 3456);
	mnl_attr_put_u32(cur, MRC_A_PLANE_RETRANS, 0);
	mnl_attr_put_u32(cur, MRC_A_PLANE_LOSSES, id);
	push();
}

static void put_path(const char *dev, uint32_t plane, uint32_t id, bool usid)
{
	genl_reply(MRC_CMD_PATH_GET);
	mnl_attr_put_u32(cur, MRC_A_PATH_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_PATH_DEV_NAME, dev);
	put_addr(MRC_A_PATH_PEER, "fd00::2");
	mnl_attr_put_u32(cur, MRC_A_PATH_PLANE, plane);
	mnl_attr_put_u32(cur, MRC_A_PATH_MODE, usid ? MRC_PATH_MODE_USID :
			 MRC_PATH_MODE_UDP);
	if (usid) {
		put_addr(MRC_A_PATH_USID, "fc00:0:1100:2100:1101:e002::");
		mnl_attr_put_u8(cur, MRC_A_PATH_LBLEN, 32);
		mnl_attr_put_u8(cur, MRC_A_PATH_NFLEN, 16);
	} else {
		put_addr(MRC_A_PATH_REMOTE, "2001:db8:0:2::1");
	}
	mnl_attr_put_u32(cur, MRC_A_PATH_ID, id);
	mnl_attr_put_u32(cur, MRC_A_PATH_TX_PACKETS, 100);
	mnl_attr_put_u32(cur, MRC_A_PATH_TX_BYTES, 409600);
	push();
}

static void put_ev(uint32_t qpn, uint32_t i, uint32_t state)
{
	genl_reply(MRC_CMD_EV_GET);
	mnl_attr_put_u32(cur, MRC_A_EV_DEV_INDEX, 3);
	mnl_attr_put_u32(cur, MRC_A_EV_QPN, qpn);
	mnl_attr_put_u32(cur, MRC_A_EV_INDEX, i);
	mnl_attr_put_u32(cur, MRC_A_EV_VALUE, 0x1230a05f + i);
	mnl_attr_put_u32(cur, MRC_A_EV_PLANE, 1);
	mnl_attr_put_u32(cur, MRC_A_EV_PATH_ID, 3);
	mnl_attr_put_u32(cur, MRC_A_EV_STATE, state);
	mnl_attr_put_u64(cur, MRC_A_EV_TX_PACKETS, 10);
	mnl_attr_put_u64(cur, MRC_A_EV_TX_BYTES, 40960);
	mnl_attr_put_u32(cur, MRC_A_EV_RETRANS, 0);
	mnl_attr_put_u32(cur, MRC_A_EV_LOSSES, 0);
	mnl_attr_put_u32(cur, MRC_A_EV_ECN, 7);
	push();
}

static int find_dev(const char *name)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (name && !strcmp(name, devs[i]))
			return i;
	return -1;
}

static void log_request(uint8_t cmd)
{
	const char *file = getenv("MOCK_LOG");
	const struct nlattr *a;
	char addr[INET6_ADDRSTRLEN];
	FILE *f;

	f = file ? fopen(file, "a") : NULL;
	if (!f)
		return;
	fprintf(f, "cmd=%u%s", cmd, req->nlmsg_flags & NLM_F_DUMP ? " dump" : "");
	mnl_attr_for_each(a, req, sizeof(struct genlmsghdr)) {
		fprintf(f, " %u=", mnl_attr_get_type(a));
		if (mnl_attr_get_payload_len(a) == 16)
			fputs(inet_ntop(AF_INET6, mnl_attr_get_payload(a), addr,
					sizeof(addr)), f);
		else if (mnl_attr_get_payload_len(a) == 4)
			fprintf(f, "%u", mnl_attr_get_u32(a));
		else
			fputs(mnl_attr_get_str(a), f);
	}
	fputc('\n', f);
	fclose(f);
}

/* 0, or the errno (and message) this request fails with */
static int mock_error(const char **msg)
{
	const char *e = getenv("MOCK_ERR"), *at = getenv("MOCK_FAIL_AT");

	requests++;
	if (!e || (at && (unsigned int)atoi(at) != requests))
		return 0;
	*msg = strchr(e, ':') ? strchr(e, ':') + 1 : NULL;
	return atoi(e);
}

static void dump(uint8_t cmd)
{
	int d = find_dev(req_str(2)), i;	/* MRC_A_*_DEV_NAME */
	const struct nlattr *qpn = req_attr(MRC_A_EV_QPN);

	if (req_str(2) && d < 0) {
		put_done(-ENODEV, "no such mrc device");
		return;
	}
	for (i = 0; i < 2; i++) {
		if (d >= 0 && i != d)
			continue;
		if (cmd == MRC_CMD_DEV_GET)
			put_dev(i);
		if (cmd == MRC_CMD_PLANE_GET) {
			put_plane(devs[i], 0);
			put_plane(devs[i], 1);
		}
		if (cmd == MRC_CMD_PATH_GET) {
			put_path(devs[i], 1, 3, true);
			put_path(devs[i], 0, 0, false);
		}
		if (cmd == MRC_CMD_EV_GET && qpn) {
			put_ev(mnl_attr_get_u32(qpn), 5, MRC_EV_STATE_GOOD);
			put_ev(mnl_attr_get_u32(qpn), 6, MRC_EV_STATE_ASSUMED_BAD);
		}
	}
	put_done(0, NULL);
}

static void answer_mrc(void)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(req);
	const char *msg = NULL;
	int err, d;

	log_request(g->cmd);
	err = mock_error(&msg);
	d = find_dev(req_str(MRC_A_DEV_NAME));
	if (err && (req->nlmsg_flags & NLM_F_DUMP)) {
		put_done(-err, msg);
	} else if (err) {
		put_ack(-err, msg);
	} else if (req->nlmsg_flags & NLM_F_DUMP) {
		dump(g->cmd);
	} else if (g->cmd != MRC_CMD_DEV_GET) {
		put_ack(0, NULL);
	} else if (d < 0) {
		put_ack(-ENODEV, "no such mrc device");
	} else {
		put_dev(d);
		put_ack(0, NULL);
	}
}

static void answer_ctrl(void)
{
	struct genlmsghdr *g;

	reply(GENL_ID_CTRL, 0);
	g = mnl_nlmsg_put_extra_header(cur, sizeof(*g));
	g->cmd = CTRL_CMD_NEWFAMILY;
	mnl_attr_put_u16(cur, CTRL_ATTR_FAMILY_ID, MOCK_FAMILY);
	push();
	put_ack(0, NULL);
}

ssize_t mnl_socket_sendto(const struct mnl_socket *nl, const void *buf, size_t len)
{
	req = buf;
	if (req->nlmsg_type == GENL_ID_CTRL)
		answer_ctrl();
	else if (req->nlmsg_type == MOCK_FAMILY)
		answer_mrc();
	else
		put_ack(-EINVAL, "mock: unknown family");
	return len;
}

ssize_t mnl_socket_recvfrom(const struct mnl_socket *nl, void *buf, size_t size)
{
	size_t len;

	if (head == nqueued) {
		errno = EAGAIN;
		return -1;
	}
	len = queue_len[head];
	if (len > size)
		abort();
	memcpy(buf, queue[head], len);
	free(queue[head++]);
	return len;
}
