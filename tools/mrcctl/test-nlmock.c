// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for the kernel's "mrc" generic netlink family, for testing
 * mrcctl on a host without the module: LD_PRELOAD it and it replaces
 * libmnl's socket calls, answering with fixed devices, planes, paths and
 * EVs (as the family's spec describes them), EV format profiles and EV
 * profiles (see put_fmt(), put_ev_profile()), and ends of EV probes.
 *
 *   MOCK_LOG=FILE        append one line per mrc request: "cmd=N TYPE=VALUE..."
 *                        (and "join=GROUP" when a multicast group is joined);
 *                        a nest is "TYPE={TYPE=VALUE ...}", EV bytes "HEX/LEN"
 *                        (LEN bytes, HEX without the zero bytes at the end),
 *                        a flag "TYPE="
 *   MOCK_ERR=ERRNO:MSG   fail mrc requests (do: NLMSG_ERROR, dump: NLMSG_DONE)
 *   MOCK_FAIL_AT=N       ... only the Nth one
 *   MOCK_NO_MCGRP=1      the family has no multicast group
 *   MOCK_NO_EV_MCGRP=1   ... no "ev" group (a kernel without EV health)
 *   MOCK_EV_EPERM=1      joining the "ev" group fails with EPERM (a user
 *                        without CAP_NET_ADMIN)
 *   MOCK_OLD_EV=1        EV dumps without slot, probes, srtt, trims, penalty
 *   MOCK_NO_FAMILY=1     there is no "mrc" family (the module is not loaded)
 *   MOCK_DEV_IFINDEX=N   the devices' plane-0 netdev is ifindex N, not 1 (lo)
 *   MOCK_PATH_EXISTS=1   a path add fails with EEXIST, and a path dump then
 *                        shows the path it asked for (apply's second run)
 *   MOCK_RDMA_ERR=ERRNO  fail RDMA netlink requests (dev add, dev del)
 *   MOCK_PROFILES_INIT=1 a get of one cc profile, format or EV profile finds
 *                        it in init (apply's first run)
 *
 * RDMA netlink requests (NETLINK_RDMA: NEWLINK, DELLINK) are logged as
 * "rdma cmd=N TYPE=VALUE...", and acknowledged.
 *
 * Joining the "config" or "ev" group queues a fixed list of notifications
 * (see join_config(), join_ev()); once they are read, recvfrom waits for a
 * signal.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <unistd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "linux/mrc.h"

#define MOCK_FAMILY	0x42
#define MOCK_MCGRP	7	/* the "config" group */
#define MOCK_MCGRP_EV	8	/* the "ev" group */
#define MAX_MSGS	64

static char *queue[MAX_MSGS];
static size_t queue_len[MAX_MSGS];
static unsigned int nqueued, head, requests;
static bool joined;
static char out[65536];	/* an EV profile with 256 entries: 17 KB */
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

static void join_config(void);
static void join_ev(void);
static void log_line(const char *fmt, unsigned int n);

int mnl_socket_setsockopt(const struct mnl_socket *nl, int type, void *buf,
			  socklen_t len)
{
	if (type != NETLINK_ADD_MEMBERSHIP)
		return 0;
	log_line("join=%u\n", *(unsigned int *)buf);
	if (*(unsigned int *)buf == MOCK_MCGRP) {
		join_config();
		return 0;
	}
	if (*(unsigned int *)buf == MOCK_MCGRP_EV && getenv("MOCK_EV_EPERM")) {
		errno = EPERM;
		return -1;
	}
	if (*(unsigned int *)buf == MOCK_MCGRP_EV && !getenv("MOCK_NO_EV_MCGRP")) {
		join_ev();
		return 0;
	}
	errno = EINVAL;
	return -1;
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

static struct nlmsghdr *msg(uint16_t type, uint16_t flags, uint32_t seq)
{
	memset(out, 0, sizeof(out));
	cur = mnl_nlmsg_put_header(out);
	cur->nlmsg_type = type;
	cur->nlmsg_flags = flags;
	cur->nlmsg_seq = seq;
	return cur;
}

static struct nlmsghdr *reply(uint16_t type, uint16_t flags)
{
	return msg(type, flags, req->nlmsg_seq);
}

static void genl_header(uint8_t cmd)
{
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(cur, sizeof(*g));

	g->cmd = cmd;
	g->version = 1;
}

static struct nlmsghdr *genl_reply(uint8_t cmd)
{
	reply(req->nlmsg_type, req->nlmsg_flags & NLM_F_DUMP ? NLM_F_MULTI : 0);
	genl_header(cmd);
	return cur;
}

/* a notification, as the kernel multicasts it: no seq, no port */
static struct nlmsghdr *ntf(uint8_t cmd)
{
	msg(MOCK_FAMILY, 0, 0);
	genl_header(cmd);
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

/* plane 0's netdev: lo, or MOCK_DEV_IFINDEX */
static uint32_t dev_ifindex(void)
{
	const char *n = getenv("MOCK_DEV_IFINDEX");

	return n ? (uint32_t)atoi(n) : 1;
}

static void put_dev(unsigned int i)
{
	genl_reply(MRC_CMD_DEV_GET);
	mnl_attr_put_u32(cur, MRC_A_DEV_INDEX, 3 + i);
	mnl_attr_put_strz(cur, MRC_A_DEV_NAME, devs[i]);
	mnl_attr_put_u32(cur, MRC_A_DEV_NETDEV_IFINDEX, dev_ifindex());
	mnl_attr_put_u64(cur, MRC_A_DEV_NODE_GUID, 0x0200aafffe000001ULL + i);
	mnl_attr_put_u32(cur, MRC_A_DEV_PORT_STATE, MRC_PORT_STATE_ACTIVE);
	mnl_attr_put_u32(cur, MRC_A_DEV_EV_COUNT, 16);
	mnl_attr_put_u32(cur, MRC_A_DEV_PLANES, 2);
	mnl_attr_put_u32(cur, MRC_A_DEV_QPS, 3 + i);
	/* NLA_UINT: 4 bytes when it fits, 8 when not */
	if (i)
		mnl_attr_put_u64(cur, MRC_A_DEV_QP_MEM, 5000000000ULL);
	else
		mnl_attr_put_u32(cur, MRC_A_DEV_QP_MEM, 4096);
	push();
}

/* the attributes of a plane; ifindex 0: a removed plane, only its id */
static void plane_attrs(const char *dev, uint32_t id, uint32_t ifindex,
			uint32_t state)
{
	mnl_attr_put_u32(cur, MRC_A_PLANE_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_PLANE_DEV_NAME, dev);
	mnl_attr_put_u32(cur, MRC_A_PLANE_ID, id);
	if (!ifindex)
		return;
	mnl_attr_put_u32(cur, MRC_A_PLANE_IFINDEX, ifindex);
	mnl_attr_put_u32(cur, MRC_A_PLANE_STATE, state);
	/* NLA_UINT: 4 bytes when it fits, 8 when not */
	mnl_attr_put_u32(cur, MRC_A_PLANE_TX_PACKETS, 123);
	mnl_attr_put_u64(cur, MRC_A_PLANE_TX_BYTES, 5000000000ULL);
	mnl_attr_put_u32(cur, MRC_A_PLANE_RX_PACKETS, 12);
	mnl_attr_put_u32(cur, MRC_A_PLANE_RX_BYTES, 3456);
	mnl_attr_put_u32(cur, MRC_A_PLANE_RETRANS, 0);
	mnl_attr_put_u32(cur, MRC_A_PLANE_LOSSES, id);
	mnl_attr_put_u32(cur, MRC_A_PLANE_ADMIN,
			 state == MRC_PLANE_STATE_ADMIN_DOWN ?
			 MRC_PLANE_ADMIN_DOWN : MRC_PLANE_ADMIN_UP);
	mnl_attr_put_u32(cur, MRC_A_PLANE_RX_ADMIN_DROPS,
			 state == MRC_PLANE_STATE_ADMIN_DOWN ? 7 : 0);
	mnl_attr_put_u32(cur, MRC_A_PLANE_DOWN_LOST,
			 state == MRC_PLANE_STATE_UP ? 0 : 5);
}

static void put_plane(const char *dev, uint32_t id)
{
	/* mrc1's plane 1 allows an IPv6 and an IPv4 prefix, and is admin down */
	static const uint8_t allow[2][17] = {
		{ 0x20, 0x01, 0x0d, 0xb8, 0, 1, [16] = 48 },
		{ [10] = 0xff, 0xff, 10, 1, [16] = 112 },
	};

	genl_reply(MRC_CMD_PLANE_GET);
	plane_attrs(dev, id, id ? 999999 : dev_ifindex(),
		    !id ? MRC_PLANE_STATE_UP : !strcmp(dev, "mrc1") ?
		    MRC_PLANE_STATE_ADMIN_DOWN : MRC_PLANE_STATE_DOWN);
	if (id && !strcmp(dev, "mrc1")) {
		mnl_attr_put(cur, MRC_A_PLANE_ALLOW, sizeof(allow[0]), allow[0]);
		mnl_attr_put(cur, MRC_A_PLANE_ALLOW, sizeof(allow[1]), allow[1]);
	}
	push();
}

static char *path_added;	/* MOCK_PATH_EXISTS: the last path add */

/* the path of the last path add, as a dump shows it (path 7) */
static void put_path_added(void)
{
	const struct nlmsghdr *add = (const void *)path_added;
	const struct nlattr *a;
	uint32_t mode = MRC_PATH_MODE_UDP;

	genl_reply(MRC_CMD_PATH_GET);
	mnl_attr_put_u32(cur, MRC_A_PATH_DEV_INDEX, 3);
	mnl_attr_for_each(a, add, sizeof(struct genlmsghdr)) {
		mnl_attr_put(cur, mnl_attr_get_type(a), mnl_attr_get_payload_len(a),
			     mnl_attr_get_payload(a));
		if (mnl_attr_get_type(a) == MRC_A_PATH_USID)
			mode = MRC_PATH_MODE_USID;
		if (mnl_attr_get_type(a) == MRC_A_PATH_SEGS)
			mode = MRC_PATH_MODE_SRH;
	}
	mnl_attr_put_u32(cur, MRC_A_PATH_MODE, mode);
	mnl_attr_put_u32(cur, MRC_A_PATH_ID, 7);
	push();
}

static const char *const srh_segs[] = {
	"fc00:0:1100::1", "fc00:0:2100::1", "2001:db8:1:2::1",
};

static void put_path(const char *dev, uint32_t plane, uint32_t id,
		     enum mrc_path_mode mode)
{
	struct in6_addr segs[3];
	unsigned int i;

	genl_reply(MRC_CMD_PATH_GET);
	mnl_attr_put_u32(cur, MRC_A_PATH_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_PATH_DEV_NAME, dev);
	put_addr(MRC_A_PATH_PEER, "fd00::2");
	mnl_attr_put_u32(cur, MRC_A_PATH_PLANE, plane);
	mnl_attr_put_u32(cur, MRC_A_PATH_MODE, mode);
	if (mode == MRC_PATH_MODE_USID) {
		put_addr(MRC_A_PATH_USID, "fc00:0:1100:2100:1101:e002::");
		mnl_attr_put_u8(cur, MRC_A_PATH_LBLEN, 32);
		mnl_attr_put_u8(cur, MRC_A_PATH_NFLEN, 16);
	} else if (mode == MRC_PATH_MODE_SRH) {
		for (i = 0; i < 3; i++)
			inet_pton(AF_INET6, srh_segs[i], &segs[i]);
		mnl_attr_put(cur, MRC_A_PATH_SEGS, sizeof(segs), segs);
		put_addr(MRC_A_PATH_REMOTE, "2001:db8:1:2::1");
	} else {
		put_addr(MRC_A_PATH_REMOTE, "2001:db8:0:2::1");
	}
	mnl_attr_put_u32(cur, MRC_A_PATH_ID, id);
	mnl_attr_put_u32(cur, MRC_A_PATH_TX_PACKETS, 100);
	mnl_attr_put_u32(cur, MRC_A_PATH_TX_BYTES, 409600);
	push();
}

/* EV @i of QP @qpn, in rotation slot @slot; -1: not in the rotation */
static void put_ev(uint32_t qpn, uint32_t i, uint32_t state, int slot)
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
	if (!getenv("MOCK_OLD_EV")) {
		if (slot >= 0)
			mnl_attr_put_u32(cur, MRC_A_EV_SLOT, slot);
		mnl_attr_put_u64(cur, MRC_A_EV_PROBES, 5000000000ULL * (i - 5));
		mnl_attr_put_u32(cur, MRC_A_EV_SRTT, 25 * (i - 4));
		mnl_attr_put_u64(cur, MRC_A_EV_TRIMS, 3 * (i - 5));
		mnl_attr_put_u32(cur, MRC_A_EV_PENALTY, i - 5);
	}
	push();
}

/*
 * EV @i of QP @qpn bound to an exp profile, made from place @place of its
 * EV array (ev-get of a profile's EV: qpn, index, entry-index)
 */
static void put_ev_place(uint32_t qpn, uint32_t i, uint32_t place,
			 uint32_t plane)
{
	genl_reply(MRC_CMD_EV_GET);
	mnl_attr_put_u32(cur, MRC_A_EV_DEV_INDEX, 3);
	mnl_attr_put_u32(cur, MRC_A_EV_QPN, qpn);
	mnl_attr_put_u32(cur, MRC_A_EV_INDEX, i);
	mnl_attr_put_u32(cur, MRC_A_EV_VALUE, 0xc0025678);
	mnl_attr_put_u32(cur, MRC_A_EV_PLANE, plane);
	mnl_attr_put_u32(cur, MRC_A_EV_STATE, MRC_EV_STATE_DENIED);
	mnl_attr_put_u64(cur, MRC_A_EV_TX_PACKETS, 0);
	mnl_attr_put_u64(cur, MRC_A_EV_TX_BYTES, 0);
	mnl_attr_put_u32(cur, MRC_A_EV_ENTRY_INDEX, place);
	push();
}

/*
 * The EV format profiles of each device: 3, online srv6 of 3 fields used
 * by profile 5; 4, offline stev without fields yet
 */
static bool put_fmt(const char *dev, uint64_t id)
{
	static const uint32_t widths[] = { 32, 16, 80 };
	unsigned int i;

	if (id != 3 && id != 4)
		return false;
	genl_reply(MRC_CMD_EV_FMT_GET);
	mnl_attr_put_u32(cur, MRC_A_EV_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_EV_DEV_NAME, dev);
	mnl_attr_put_u64(cur, MRC_A_EV_FMT_ID, id);
	mnl_attr_put_u32(cur, MRC_A_EV_PROFILE_STATE, id == 3 ?
			 MRC_CC_PROFILE_STATE_ONLINE : MRC_CC_PROFILE_STATE_OFFLINE);
	mnl_attr_put_u32(cur, MRC_A_EV_FMT_MODE, id == 3 ?
			 MRC_EV_FMT_MODE_SRV6 : MRC_EV_FMT_MODE_STEV);
	for (i = 0; id == 3 && i < 3; i++)
		mnl_attr_put_u32(cur, MRC_A_EV_FMT_WIDTH, widths[i]);
	mnl_attr_put_u32(cur, MRC_A_EV_FMT_USERS, id == 3);
	push();
	return true;
}

static void put_field(uint32_t width, uint32_t init, uint32_t min,
		      uint32_t max, uint32_t mask)
{
	struct nlattr *nest = mnl_attr_nest_start(cur, MRC_A_EV_FIELD);

	mnl_attr_put_u32(cur, MRC_A_EV_FIELD_WIDTH, width);
	mnl_attr_put_u32(cur, MRC_A_EV_FIELD_INIT_VAL, init);
	mnl_attr_put_u32(cur, MRC_A_EV_FIELD_MIN_VAL, min);
	mnl_attr_put_u32(cur, MRC_A_EV_FIELD_MAX_VAL, max);
	mnl_attr_put_u32(cur, MRC_A_EV_FIELD_MASK, mask);
	mnl_attr_nest_end(cur, nest);
}

/* a place of an EV array: 32 bytes, the first @n of @b given */
static void put_place(uint32_t place, const uint8_t *b, size_t n,
		      uint32_t port, uint32_t state)
{
	struct nlattr *nest = mnl_attr_nest_start(cur, MRC_A_EV_ENTRY);
	uint8_t bytes[32] = {};

	memcpy(bytes, b, n);
	mnl_attr_put_u32(cur, MRC_A_EV_ENTRY_PLACE, place);
	mnl_attr_put(cur, MRC_A_EV_ENTRY_EV_BYTES, sizeof(bytes), bytes);
	mnl_attr_put_u32(cur, MRC_A_EV_ENTRY_PORT, port);
	mnl_attr_put_u32(cur, MRC_A_EV_ENTRY_STATE, state);
	mnl_attr_nest_end(cur, nest);
}

/*
 * The EV profiles of each device: 9, auto; 5, exp of format 3 with 4
 * places (a GOOD EV, a DENIED one, an unpopulated place, an EV of zero
 * bytes); 6, gen of format 4, offline; and, asked for by id only, 7: exp
 * of 256 places, a reply larger than a page. Its EV array with @entries.
 */
static bool put_ev_profile(const char *dev, uint64_t id, bool entries)
{
	static const uint8_t ev0[] = { 0xc0, 0x01, 0x12, 0x34 };
	static const uint8_t ev1[] = { 0xc0, 0x02, 0x56, 0x78 };
	uint8_t b[2];
	unsigned int i;

	if (id != 5 && id != 6 && id != 7 && id != 9)
		return false;
	genl_reply(MRC_CMD_EV_PROFILE_GET);
	mnl_attr_put_u32(cur, MRC_A_EV_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_EV_DEV_NAME, dev);
	mnl_attr_put_u64(cur, MRC_A_EV_PROFILE_ID, id);
	mnl_attr_put_u32(cur, MRC_A_EV_PROFILE_STATE, id == 6 ?
			 MRC_CC_PROFILE_STATE_OFFLINE : MRC_CC_PROFILE_STATE_ONLINE);
	mnl_attr_put_u32(cur, MRC_A_EV_PROFILE_QPS, id == 9 ? 1 : 0);
	mnl_attr_put_u32(cur, MRC_A_EV_PROFILE_MODE,
			 id == 9 ? MRC_EV_PROFILE_MODE_AUTO : id == 6 ?
			 MRC_EV_PROFILE_MODE_GEN : MRC_EV_PROFILE_MODE_EXP);
	mnl_attr_put_u32(cur, MRC_A_EV_PROFILE_COUNT,
			 id == 9 || id == 6 ? 8 : id == 5 ? 4 : 256);
	if (id != 6) {
		mnl_attr_put_u32(cur, MRC_A_EV_PROFILE_MIN_ACTIVE, id == 9 ? 2 : 1);
		mnl_attr_put_u32(cur, MRC_A_EV_EVENT_MASK, id == 9 ?
				 MRC_EV_EVENT_ASSUMED_BAD :
				 MRC_EV_EVENT_GOOD | MRC_EV_EVENT_ASSUMED_BAD);
	}
	if (id != 9)
		mnl_attr_put_u64(cur, MRC_A_EV_FMT_ID, id == 6 ? 4 : 3);
	if (id == 5) {
		put_field(16, 0, 0, 0, 0xffff);
		put_field(16, 0, 0, 0, 0xffff);
	} else if (id == 6) {
		put_field(8, 0x10, 1, 4, 0x7);
		put_field(8, 0xfe, 0, 0, 0);
	}
	if (entries && id == 5) {
		put_place(0, ev0, sizeof(ev0), 1, MRC_EV_STATE_GOOD);
		put_place(1, ev1, sizeof(ev1), 2, MRC_EV_STATE_DENIED);
		put_place(2, NULL, 0, 0, MRC_EV_STATE_GOOD);
		put_place(3, NULL, 0, 1, MRC_EV_STATE_GOOD);
	}
	for (i = 0; entries && id == 7 && i < 256; i++) {
		b[0] = 0x0a;
		b[1] = i;
		put_place(i, b, 2, i % 2 + 1, MRC_EV_STATE_GOOD);
	}
	push();
	return true;
}

static int find_dev(const char *name)
{
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (name && !strcmp(name, devs[i]))
			return i;
	return -1;
}

static FILE *log_open(void)
{
	const char *file = getenv("MOCK_LOG");

	return file ? fopen(file, "a") : NULL;
}

static void log_line(const char *fmt, unsigned int n)
{
	FILE *f = log_open();

	if (!f)
		return;
	fprintf(f, fmt, n);
	fclose(f);
}

/* 16 bytes an address, comma-separated */
static void log_addrs(FILE *f, const struct nlattr *a)
{
	const struct in6_addr *p = mnl_attr_get_payload(a);
	char addr[INET6_ADDRSTRLEN];
	unsigned int i;

	for (i = 0; i < mnl_attr_get_payload_len(a) / sizeof(*p); i++)
		fprintf(f, "%s%s", i ? "," : "",
			inet_ntop(AF_INET6, &p[i], addr, sizeof(addr)));
}

/* the commands of the "ev" attribute set, which has nests and EV bytes */
static bool ev_cmd(uint8_t cmd)
{
	return cmd == MRC_CMD_EV_GET || cmd == MRC_CMD_EV_SET ||
	       cmd == MRC_CMD_EV_PROFILE_GET || cmd == MRC_CMD_EV_PROFILE_SET ||
	       cmd == MRC_CMD_EV_FMT_GET || cmd == MRC_CMD_EV_FMT_SET;
}

/* EV bytes: in the ev set, or in a nest @nest (0: none) of it */
static bool ev_bytes_attr(uint16_t nest, uint16_t type)
{
	if (!nest)
		return type == MRC_A_EV_EV_BYTES;
	return nest == MRC_A_EV_ENTRY && (type == MRC_A_EV_ENTRY_EV_BYTES ||
					  type == MRC_A_EV_ENTRY_NEW_BYTES);
}

/* "0a01/32": the bytes without the zero ones at the end, then the length */
static void log_bytes(FILE *f, const struct nlattr *a)
{
	const uint8_t *b = mnl_attr_get_payload(a);
	size_t n = mnl_attr_get_payload_len(a), len, i;

	for (len = n; len && !b[len - 1]; len--)
		;
	if (!len && n)
		len = 1;
	for (i = 0; i < len; i++)
		fprintf(f, "%02x", b[i]);
	fprintf(f, "/%zu", n);
}

static void log_attrs(FILE *f, const struct nlattr *first, size_t len,
		      bool ev, uint16_t nest)
{
	char addr[INET6_ADDRSTRLEN];
	const struct nlattr *a;
	bool sep = false;

	for (a = first; mnl_attr_ok(a, (const char *)first + len - (const char *)a);
	     a = mnl_attr_next(a)) {
		fprintf(f, "%s%u=", sep || !nest ? " " : "", mnl_attr_get_type(a));
		sep = true;
		if (ev && !nest && (mnl_attr_get_type(a) == MRC_A_EV_FIELD ||
				    mnl_attr_get_type(a) == MRC_A_EV_ENTRY)) {
			fputc('{', f);
			log_attrs(f, mnl_attr_get_payload(a),
				  mnl_attr_get_payload_len(a), ev,
				  mnl_attr_get_type(a));
			fputc('}', f);
		} else if (ev && ev_bytes_attr(nest, mnl_attr_get_type(a))) {
			log_bytes(f, a);
		} else if (!mnl_attr_get_payload_len(a)) {
			;	/* a flag */
		} else if (mnl_attr_get_payload_len(a) % 16 == 0) {
			log_addrs(f, a);
		} else if (mnl_attr_get_payload_len(a) == 17) {	/* a prefix */
			fprintf(f, "%s/%u",
				inet_ntop(AF_INET6, mnl_attr_get_payload(a),
					  addr, sizeof(addr)),
				((const uint8_t *)mnl_attr_get_payload(a))[16]);
		} else if (mnl_attr_get_payload_len(a) == 4) {
			fprintf(f, "%u", mnl_attr_get_u32(a));
		} else if (mnl_attr_get_payload_len(a) == 8) {
			fprintf(f, "%llu",
				(unsigned long long)mnl_attr_get_u64(a));
		} else {
			fputs(mnl_attr_get_str(a), f);
		}
	}
}

static void log_request(uint8_t cmd)
{
	size_t off = MNL_ALIGN(sizeof(struct genlmsghdr));
	FILE *f = log_open();

	if (!f)
		return;
	fprintf(f, "cmd=%u%s", cmd, req->nlmsg_flags & NLM_F_DUMP ? " dump" : "");
	log_attrs(f, (const struct nlattr *)((const char *)mnl_nlmsg_get_payload(req) + off),
		  mnl_nlmsg_get_payload_len(req) - off, ev_cmd(cmd), 0);
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
		if (cmd == MRC_CMD_PATH_GET && path_added) {
			put_path_added();
			break;
		}
		if (cmd == MRC_CMD_PATH_GET) {
			put_path(devs[i], 1, 3, MRC_PATH_MODE_USID);
			put_path(devs[i], 0, 0, MRC_PATH_MODE_UDP);
			put_path(devs[i], 1, 4, MRC_PATH_MODE_SRH);
		}
		if (cmd == MRC_CMD_EV_GET && qpn) {
			put_ev(mnl_attr_get_u32(qpn), 5, MRC_EV_STATE_GOOD, 2);
			put_ev(mnl_attr_get_u32(qpn), 6, MRC_EV_STATE_ASSUMED_BAD, -1);
		}
		/* a profile's EV: of exp profile 5's place 1, two QPs' */
		if (cmd == MRC_CMD_EV_GET && !qpn && req_attr(MRC_A_EV_EV_BYTES)) {
			put_ev_place(17, 2, 1, mnl_attr_get_u32(req_attr(MRC_A_EV_PLANE)));
			put_ev_place(18, 0, 1, mnl_attr_get_u32(req_attr(MRC_A_EV_PLANE)));
		}
		if (cmd == MRC_CMD_EV_GET && !qpn && req_attr(MRC_A_EV_VALUE))
			put_ev(17, 5, MRC_EV_STATE_GOOD, 2);
		if (cmd == MRC_CMD_EV_FMT_GET) {
			put_fmt(devs[i], 3);
			put_fmt(devs[i], 4);
		}
		if (cmd == MRC_CMD_EV_PROFILE_GET) {
			put_ev_profile(devs[i], 9, false);
			put_ev_profile(devs[i], 5, false);
			put_ev_profile(devs[i], 6, false);
		}
	}
	put_done(0, NULL);
}

/*
 * How an ep-probe ends, unicast to the socket that asked: answered (RTT
 * 1.234567 ms, on the peer's plane of the request), but for an even
 * request id with a timeout of 1 ms, which times out. The end of id 1
 * comes before the ack, as the kernel's may.
 */
static void ep_probe_end(void)
{
	const struct nlattr *id = req_attr(MRC_A_EP_REQ_ID);
	const struct nlattr *plane = req_attr(MRC_A_EP_PLANE);
	const struct nlattr *peer = req_attr(MRC_A_EP_PEER);
	const struct nlattr *tmo = req_attr(MRC_A_EP_TIMEOUT_NS);
	uint32_t n = id ? mnl_attr_get_u32(id) : 0;
	bool lost = !(n % 2) && tmo && mnl_attr_get_u64(tmo) <= 1000000;
	uint32_t p = plane ? mnl_attr_get_u32(plane) : 0;

	ntf(MRC_CMD_EP_PROBE_NTF);
	mnl_attr_put_u32(cur, MRC_A_EP_DEV_INDEX, 3);
	mnl_attr_put_u32(cur, MRC_A_EP_REQ_ID, n);
	if (peer)
		mnl_attr_put(cur, MRC_A_EP_PEER, mnl_attr_get_payload_len(peer),
			     mnl_attr_get_payload(peer));
	mnl_attr_put_u32(cur, MRC_A_EP_PLANE, p);
	if (!lost) {
		mnl_attr_put_u32(cur, MRC_A_EP_STATUS, MRC_EP_STATUS_ANSWERED);
		mnl_attr_put_u64(cur, MRC_A_EP_RTT_NS, 1234567);
		mnl_attr_put_u32(cur, MRC_A_EP_SERVICE_NS, 2500);
		mnl_attr_put_u32(cur, MRC_A_EP_ARRIVAL_PLANE, p);
		mnl_attr_put_u32(cur, MRC_A_EP_PEER_EV, 0xc0011234);
	} else {
		mnl_attr_put_u32(cur, MRC_A_EP_STATUS, MRC_EP_STATUS_TIMEOUT);
	}
	push();
}

/* cc profile 3: online, nscc, some of its knobs */
static void get_cc_profile(void)
{
	const struct nlattr *id = req_attr(MRC_A_CC_PROFILE_ID);

	if (getenv("MOCK_PROFILES_INIT") || !id || mnl_attr_get_u64(id) != 3) {
		put_ack(-ENOENT, "profile is in init");
		return;
	}
	genl_reply(MRC_CMD_CC_PROFILE_GET);
	mnl_attr_put_strz(cur, MRC_A_CC_DEV_NAME, "mrc0");
	mnl_attr_put_u32(cur, MRC_A_CC_ALGO, MRC_CC_ALGO_NSCC);
	mnl_attr_put_u64(cur, MRC_A_CC_PROFILE_ID, 3);
	mnl_attr_put_u32(cur, MRC_A_CC_PROFILE_STATE, MRC_CC_PROFILE_STATE_ONLINE);
	mnl_attr_put_u32(cur, MRC_A_CC_PROFILE_QPS, 1);
	mnl_attr_put_u32(cur, MRC_A_CC_QA_GATE, 3);
	mnl_attr_put_u8(cur, MRC_A_CC_DISABLE_QA, 0);
	mnl_attr_put_u32(cur, MRC_A_CC_BASE_RTT, 12000);
	mnl_attr_put_u32(cur, MRC_A_CC_GAMMA, 800);
	push();
	put_ack(0, NULL);
}

/* a get of one format or EV profile: the reply and the ack, or ENOENT */
static void get_profile(uint8_t cmd)
{
	const char *dev = req_str(MRC_A_EV_DEV_NAME);
	const struct nlattr *id = req_attr(cmd == MRC_CMD_EV_FMT_GET ?
					   MRC_A_EV_FMT_ID : MRC_A_EV_PROFILE_ID);
	uint64_t n = id ? mnl_attr_get_u64(id) : 0;
	char msg[64];

	if (find_dev(dev) < 0) {
		put_ack(-ENODEV, "no such mrc device");
		return;
	}
	if (!getenv("MOCK_PROFILES_INIT") &&
	    (cmd == MRC_CMD_EV_FMT_GET ? put_fmt(dev, n) :
	     put_ev_profile(dev, n, req_attr(MRC_A_EV_ENTRIES)))) {
		put_ack(0, NULL);
		return;
	}
	snprintf(msg, sizeof(msg), "%s %llu is in init",
		 cmd == MRC_CMD_EV_FMT_GET ? "EV format profile" : "EV profile",
		 (unsigned long long)n);
	put_ack(-ENOENT, msg);
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
	} else if (g->cmd == MRC_CMD_EP_PROBE) {
		const struct nlattr *id = req_attr(MRC_A_EP_REQ_ID);
		bool first = id && mnl_attr_get_u32(id) == 1;

		if (first)
			ep_probe_end();
		put_ack(0, NULL);
		if (!first)
			ep_probe_end();
	} else if (g->cmd == MRC_CMD_PATH_ADD && getenv("MOCK_PATH_EXISTS")) {
		free(path_added);
		path_added = malloc(req->nlmsg_len);
		memcpy(path_added, req, req->nlmsg_len);
		put_ack(-EEXIST, "the peer already has this path");
	} else if (g->cmd == MRC_CMD_EV_FMT_GET ||
		   g->cmd == MRC_CMD_EV_PROFILE_GET) {
		get_profile(g->cmd);
	} else if (g->cmd == MRC_CMD_CC_PROFILE_GET) {
		get_cc_profile();
	} else if (g->cmd != MRC_CMD_DEV_GET) {
		put_ack(0, NULL);
	} else if (d < 0) {
		put_ack(-ENODEV, "no such mrc device");
	} else {
		put_dev(d);
		put_ack(0, NULL);
	}
}

/* an RDMA netlink request: its strings and u32s logged, then its ack */
static void answer_rdma(void)
{
	const struct nlattr *a;
	FILE *f = log_open();

	if (f) {
		fprintf(f, "rdma cmd=%u", RDMA_NL_GET_OP(req->nlmsg_type));
		mnl_attr_for_each(a, req, 0) {
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0 &&
			    mnl_attr_get_type(a) != RDMA_NLDEV_ATTR_DEV_INDEX)
				fprintf(f, " %u=%s", mnl_attr_get_type(a),
					mnl_attr_get_str(a));
			else if (mnl_attr_get_payload_len(a) == 4)
				fprintf(f, " %u=%u", mnl_attr_get_type(a),
					mnl_attr_get_u32(a));
		}
		fputc('\n', f);
		fclose(f);
	}
	put_ack(getenv("MOCK_RDMA_ERR") ? -atoi(getenv("MOCK_RDMA_ERR")) : 0, NULL);
}

static void answer_ctrl(void)
{
	struct nlattr *groups, *grp;

	if (getenv("MOCK_NO_FAMILY")) {
		put_ack(-ENOENT, NULL);
		return;
	}

	reply(GENL_ID_CTRL, 0);
	genl_header(CTRL_CMD_NEWFAMILY);
	mnl_attr_put_u16(cur, CTRL_ATTR_FAMILY_ID, MOCK_FAMILY);
	if (!getenv("MOCK_NO_MCGRP")) {
		groups = mnl_attr_nest_start(cur, CTRL_ATTR_MCAST_GROUPS);
		grp = mnl_attr_nest_start(cur, 1);
		mnl_attr_put_u32(cur, CTRL_ATTR_MCAST_GRP_ID, MOCK_MCGRP);
		mnl_attr_put_strz(cur, CTRL_ATTR_MCAST_GRP_NAME, MRC_MCGRP_CONFIG);
		mnl_attr_nest_end(cur, grp);
		if (!getenv("MOCK_NO_EV_MCGRP")) {
			grp = mnl_attr_nest_start(cur, 2);
			mnl_attr_put_u32(cur, CTRL_ATTR_MCAST_GRP_ID, MOCK_MCGRP_EV);
			mnl_attr_put_strz(cur, CTRL_ATTR_MCAST_GRP_NAME, MRC_MCGRP_EV);
			mnl_attr_nest_end(cur, grp);
		}
		mnl_attr_nest_end(cur, groups);
	}
	push();
	put_ack(0, NULL);
}

static void ntf_path(const char *dev, const char *peer)
{
	ntf(MRC_CMD_PATH_CHANGE_NTF);
	mnl_attr_put_u32(cur, MRC_A_PATH_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_PATH_DEV_NAME, dev);
	put_addr(MRC_A_PATH_PEER, peer);
	push();
}

/* the notifications a monitor gets, as mrc_netlink.c sends them */
static void join_config(void)
{
	ntf(MRC_CMD_PLANE_CHANGE_NTF);		/* added, or came up */
	plane_attrs("mrc0", 1, 1, MRC_PLANE_STATE_UP);
	push();
	ntf_path("mrc1", "fd00::3");
	ntf(99);				/* a command of a newer kernel */
	mnl_attr_put_strz(cur, 2, "mrc0");
	push();
	ntf(MRC_CMD_PLANE_CHANGE_NTF);		/* went down */
	plane_attrs("mrc0", 1, 999999, MRC_PLANE_STATE_DOWN);
	push();
	ntf(MRC_CMD_PLANE_CHANGE_NTF);		/* removed */
	plane_attrs("mrc0", 2, 0, 0);
	push();
	ntf_path("mrc0", "fd00::2");
	joined = true;
}

/* an EV change; backup -1: none */
static void ntf_ev(const char *dev, uint32_t qpn, uint32_t i, uint32_t value,
		   uint32_t old, uint32_t state, uint32_t cause, int backup,
		   uint64_t time)
{
	ntf(MRC_CMD_EV_CHANGE_NTF);
	mnl_attr_put_u32(cur, MRC_A_EV_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_EV_DEV_NAME, dev);
	mnl_attr_put_u32(cur, MRC_A_EV_QPN, qpn);
	mnl_attr_put_u32(cur, MRC_A_EV_INDEX, i);
	mnl_attr_put_u32(cur, MRC_A_EV_VALUE, value);
	mnl_attr_put_u32(cur, MRC_A_EV_PLANE, (value >> 26) & 0xf);
	mnl_attr_put_u32(cur, MRC_A_EV_PATH_ID, (value >> 18) & 0xff);
	mnl_attr_put_u32(cur, MRC_A_EV_STATE, state);
	mnl_attr_put_u32(cur, MRC_A_EV_OLD_STATE, old);
	mnl_attr_put_u32(cur, MRC_A_EV_CAUSE, cause);
	if (backup >= 0)
		mnl_attr_put_u32(cur, MRC_A_EV_BACKUP, backup);
	mnl_attr_put_u64(cur, MRC_A_EV_TIME, time);
	push();
}

/* an EV change of a QP bound to exp profile 5: the place and bytes it is of */
static void ntf_ev_place(void)
{
	static const uint8_t bytes[32] = { 0xc0, 0x02, 0x56, 0x78 };

	ntf(MRC_CMD_EV_CHANGE_NTF);
	mnl_attr_put_u32(cur, MRC_A_EV_DEV_INDEX, 3);
	mnl_attr_put_strz(cur, MRC_A_EV_DEV_NAME, "mrc0");
	mnl_attr_put_u32(cur, MRC_A_EV_QPN, 19);
	mnl_attr_put_u32(cur, MRC_A_EV_INDEX, 1);
	mnl_attr_put_u32(cur, MRC_A_EV_VALUE, 0xc0025678);
	mnl_attr_put_u32(cur, MRC_A_EV_PLANE, 1);
	mnl_attr_put_u32(cur, MRC_A_EV_STATE, MRC_EV_STATE_DENIED);
	mnl_attr_put_u32(cur, MRC_A_EV_OLD_STATE, MRC_EV_STATE_GOOD);
	mnl_attr_put_u32(cur, MRC_A_EV_CAUSE, MRC_EV_CAUSE_DENY);
	mnl_attr_put_u64(cur, MRC_A_EV_TIME, 1700000003000000000ULL);
	mnl_attr_put_u64(cur, MRC_A_EV_PROFILE_ID, 5);
	mnl_attr_put_u32(cur, MRC_A_EV_EVENT_MASK, MRC_EV_EVENT_ASSUMED_BAD);
	mnl_attr_put_u32(cur, MRC_A_EV_ENTRY_INDEX, 1);
	mnl_attr_put(cur, MRC_A_EV_EV_BYTES, sizeof(bytes), bytes);
	push();
}

/*
 * the notifications of the "ev" group: a loss, a recovery, the operator;
 * the operator on an EV of an exp profile
 */
static void join_ev(void)
{
	ntf_ev("mrc0", 17, 5, 0xc4080005, MRC_EV_STATE_GOOD,
	       MRC_EV_STATE_ASSUMED_BAD, MRC_EV_CAUSE_LOSS, 133,
	       1700000000123456789ULL);
	ntf_ev("mrc1", 18, 133, 0xc40bc085, MRC_EV_STATE_ASSUMED_BAD,
	       MRC_EV_STATE_GOOD, MRC_EV_CAUSE_PROBE, -1, 1700000001000000000ULL);
	ntf_ev("mrc0", 17, 6, 0xc0040006, MRC_EV_STATE_GOOD,
	       MRC_EV_STATE_DENIED, MRC_EV_CAUSE_DENY, -1, 1700000002000000000ULL);
	ntf_ev_place();
	joined = true;
}

ssize_t mnl_socket_sendto(const struct mnl_socket *nl, const void *buf, size_t len)
{
	req = buf;
	if (RDMA_NL_GET_CLIENT(req->nlmsg_type) == RDMA_NL_NLDEV)
		answer_rdma();
	else if (req->nlmsg_type == GENL_ID_CTRL)
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

	if (head == nqueued && joined) {
		pause();	/* no more events: wait for mrcctl's signal */
		errno = EINTR;
		return -1;
	}
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
