// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: configure and inspect mrc (Multipath Reliable Connection) RDMA
 * devices over the "mrc" generic netlink family, in the style of ip(8) and
 * rdma(8).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "linux/mrc.h"

#ifndef MRCCTL_VERSION
#define MRCCTL_VERSION "unknown"
#endif

struct ctx {
	struct mnl_socket *nl;
	uint16_t family;
	unsigned int seq;
	bool json;
	bool pretty;
	int count;		/* objects printed (JSON separators) */
	char errmsg[256];	/* the kernel's extack message, if any */
};

static void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("mrcctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\nTry \"mrcctl help\".\n", stderr);
	va_end(ap);
	exit(2);
}

/* ---- JSON and plain output ---------------------------------------- */

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void json_key(struct ctx *c, bool *first, const char *key)
{
	printf("%s%s", *first ? "" : ",", c->pretty ? "\n    " : "");
	*first = false;
	json_str(key);
	putchar(':');
	if (c->pretty)
		putchar(' ');
}

static void obj_begin(struct ctx *c)
{
	if (c->json)
		printf("%s%s{", c->count ? "," : "", c->pretty ? "\n  " : "");
	c->count++;
}

static void obj_end(struct ctx *c)
{
	printf(c->json ? (c->pretty ? "\n  }" : "}") : "\n");
}

static void field_str(struct ctx *c, bool *first, const char *key, const char *val)
{
	if (c->json) {
		json_key(c, first, key);
		json_str(val);
	} else {
		printf("%s%s %s", *first ? "" : " ", key, val);
		*first = false;
	}
}

static void field_u64(struct ctx *c, bool *first, const char *key, uint64_t val)
{
	if (c->json) {
		json_key(c, first, key);
		printf("%" PRIu64, val);
	} else {
		printf("%s%s %" PRIu64, *first ? "" : " ", key, val);
		*first = false;
	}
}

static void list_begin(struct ctx *c)
{
	if (c->json)
		putchar('[');
}

static void list_end(struct ctx *c)
{
	if (c->json)
		printf(c->pretty && c->count ? "\n]\n" : "]\n");
}

/* ---- generic netlink ------------------------------------------------ */

/* NLMSG_ERROR: keep the errno and the extack message */
static int cb_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct ctx *c = data;
	const struct nlattr *a;
	unsigned int off = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += mnl_nlmsg_get_payload_len(&err->msg);
		mnl_attr_for_each(a, nlh, off)
			if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
				snprintf(c->errmsg, sizeof(c->errmsg), "%s",
					 mnl_attr_get_str(a));
	}
	errno = -err->error;
	return MNL_CB_ERROR;
}

static int cb_noop(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_OK;
}

static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_STOP;
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

/* send @nlh and run @cb on every reply; 0 or -1 with errno (+c->errmsg) */
static int transact(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb)
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
		ret = mnl_cb_run2(buf, ret, nlh->nlmsg_seq, portid, cb, c,
				  ctl_cbs, NLMSG_MIN_TYPE);
	} while (ret > 0);
	return ret < 0 ? -1 : 0;
}

static int cb_family(const struct nlmsghdr *nlh, void *data)
{
	struct ctx *c = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			c->family = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static void nl_open(struct ctx *c)
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
	if (transact(c, nlh, cb_family) < 0 || !c->family) {
		if (errno == ENOENT)
			fprintf(stderr, "mrcctl: the mrc module is not loaded (no \"%s\" generic netlink family); try \"modprobe mrc\"\n",
				MRC_FAMILY_NAME);
		else
			fprintf(stderr, "mrcctl: cannot resolve the \"%s\" netlink family: %s\n",
				MRC_FAMILY_NAME, strerror(errno));
		exit(1);
	}
}

static int fail(struct ctx *c, const char *what)
{
	if (c->errmsg[0])
		fprintf(stderr, "mrcctl: Error: %s: %s (%s)\n", what, c->errmsg,
			strerror(errno));
	else
		fprintf(stderr, "mrcctl: Error: %s: %s\n", what, strerror(errno));
	return 1;
}

/* ---- dev ------------------------------------------------------------ */

static const char *port_state_name(uint32_t s)
{
	switch (s) {
	case MRC_PORT_STATE_ACTIVE:
		return "ACTIVE";
	case MRC_PORT_STATE_DOWN:
		return "DOWN";
	default:
		return "UNKNOWN";
	}
}

static int cb_dev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_DEV_MAX + 1] = {};
	char ifname[IF_NAMESIZE] = "", guid[24];
	struct ctx *c = data;
	const struct nlattr *a;
	bool first = true;
	uint64_t g;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= MRC_A_DEV_MAX)
			tb[mnl_attr_get_type(a)] = a;
	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_DEV_INDEX])
		return MNL_CB_OK;

	obj_begin(c);
	if (c->json) {
		field_str(c, &first, "dev", mnl_attr_get_str(tb[MRC_A_DEV_NAME]));
	} else {
		printf("%s:", mnl_attr_get_str(tb[MRC_A_DEV_NAME]));
		first = false;
	}
	field_u64(c, &first, "index", mnl_attr_get_u32(tb[MRC_A_DEV_INDEX]));
	if (tb[MRC_A_DEV_NETDEV_IFINDEX] &&
	    if_indextoname(mnl_attr_get_u32(tb[MRC_A_DEV_NETDEV_IFINDEX]), ifname))
		field_str(c, &first, "netdev", ifname);
	if (tb[MRC_A_DEV_PORT_STATE])
		field_str(c, &first, "state",
			  port_state_name(mnl_attr_get_u32(tb[MRC_A_DEV_PORT_STATE])));
	if (tb[MRC_A_DEV_NODE_GUID]) {
		g = mnl_attr_get_payload_len(tb[MRC_A_DEV_NODE_GUID]) == 8 ?
		    mnl_attr_get_u64(tb[MRC_A_DEV_NODE_GUID]) :
		    mnl_attr_get_u32(tb[MRC_A_DEV_NODE_GUID]);
		snprintf(guid, sizeof(guid), "%04x:%04x:%04x:%04x",
			 (unsigned int)(g >> 48) & 0xffff, (unsigned int)(g >> 32) & 0xffff,
			 (unsigned int)(g >> 16) & 0xffff, (unsigned int)g & 0xffff);
		field_str(c, &first, "node_guid", guid);
	}
	obj_end(c);
	return MNL_CB_OK;
}

static int dev_show(struct ctx *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int ret;

	if (argc > 1)
		die_usage("dev show: unexpected argument \"%s\"", argv[1]);
	nl_open(c);
	if (argc == 1) {
		if (strlen(argv[0]) > 63)
			die_usage("dev show: device name \"%s\" is too long", argv[0]);
		nlh = msg_new(c, buf, c->family, NLM_F_ACK, MRC_CMD_DEV_GET);
		mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, argv[0]);
	} else {
		nlh = msg_new(c, buf, c->family, NLM_F_DUMP, MRC_CMD_DEV_GET);
	}
	list_begin(c);
	ret = transact(c, nlh, cb_dev);
	if (ret < 0) {
		if (c->json)
			list_end(c);
		return fail(c, argc ? argv[0] : "dev show");
	}
	list_end(c);
	return 0;
}

/* ---- command line --------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("Usage: mrcctl [ OPTIONS ] OBJECT { COMMAND | help }\n"
	      "       mrcctl [ OPTIONS ] help\n"
	      "OBJECT := { dev }\n"
	      "OPTIONS := { -j[son] | -p[retty] | -V[ersion] | -h[elp] }\n"
	      "\n"
	      "mrcctl dev show [ DEV ]\n"
	      "	mrc devices of this network namespace: RDMA index, plane-0\n"
	      "	netdev, port state, node GUID\n"
	      "\n"
	      "Devices are created and removed with rdma(8):\n"
	      "	rdma link add DEV type mrc netdev NETDEV\n"
	      "	rdma link delete DEV\n", f);
}

static int do_dev(struct ctx *c, int argc, char **argv)
{
	if (!argc || !strcmp(argv[0], "show") || !strcmp(argv[0], "list"))
		return dev_show(c, argc ? argc - 1 : 0, argv + 1);
	if (!strcmp(argv[0], "help")) {
		usage(stdout);
		return 0;
	}
	die_usage("dev: unknown command \"%s\"", argv[0]);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "Version", no_argument, NULL, 'V' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct ctx c = {};
	int o, ret = 0;

	while ((o = getopt_long_only(argc, argv, "+jpVh", opts, NULL)) != -1) {
		switch (o) {
		case 'j':
			c.json = true;
			break;
		case 'p':
			c.pretty = true;
			break;
		case 'V':
			printf("mrcctl %s\n", MRCCTL_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc || !strcmp(argv[0], "help")) {
		usage(argc ? stdout : stderr);
		return argc ? 0 : 2;
	}
	if (!strcmp(argv[0], "version")) {
		printf("mrcctl %s\n", MRCCTL_VERSION);
		return 0;
	}
	if (!strcmp(argv[0], "dev"))
		ret = do_dev(&c, argc - 1, argv + 1);
	else
		die_usage("unknown object \"%s\"", argv[0]);
	if (c.nl)
		mnl_socket_close(c.nl);
	return ret;
}
