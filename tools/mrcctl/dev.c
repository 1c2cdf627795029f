// SPDX-License-Identifier: GPL-2.0
/* mrcctl dev and plane: an mrc device and its planes (netdevs) */
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>

#include "mrcctl.h"

#define EV_COUNT_MIN	4	/* the family's min of ev-count */

static const char *const port_states[] = {
	[MRC_PORT_STATE_DOWN] = "DOWN",
	[MRC_PORT_STATE_ACTIVE] = "ACTIVE",
};

static void rec_guid(struct rec *r, const struct nlattr *a)
{
	char guid[24];
	uint64_t g;

	if (!a)
		return;
	g = nl_attr_uint(a);
	snprintf(guid, sizeof(guid), "%04x:%04x:%04x:%04x",
		 (unsigned int)(g >> 48) & 0xffff, (unsigned int)(g >> 32) & 0xffff,
		 (unsigned int)(g >> 16) & 0xffff, (unsigned int)g & 0xffff);
	rec_str(r, "node_guid", "node_guid ", NULL, guid);
}

static int cb_dev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_DEV_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	nl_attrs(nlh, tb, MRC_A_DEV_MAX);
	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_DEV_INDEX])
		return MNL_CB_OK;
	rec_dev(c, &r, tb[MRC_A_DEV_NAME], ":");
	rec_attr_u32(&r, "index", "index ", tb[MRC_A_DEV_INDEX]);
	rec_attr_ifname(&r, tb[MRC_A_DEV_NETDEV_IFINDEX]);
	rec_attr_enum(&r, "state", "state ", tb[MRC_A_DEV_PORT_STATE],
		      port_states, ARRAY_SIZE(port_states));
	rec_guid(&r, tb[MRC_A_DEV_NODE_GUID]);
	rec_attr_u32(&r, "planes", "planes ", tb[MRC_A_DEV_PLANES]);
	rec_attr_u32(&r, "evs", "evs ", tb[MRC_A_DEV_EV_COUNT]);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

static struct nlmsghdr *dev_msg(struct ctx *c, char *buf, const char *dev)
{
	return nl_msg(c, buf, MRC_CMD_DEV_GET, dev ? NLM_F_ACK : NLM_F_DUMP,
		      MRC_A_DEV_NAME, dev);
}

int dev_show(struct ctx *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *dev = argc ? argv[0] : NULL;

	if (argc > 1)
		die_usage("dev show: unexpected argument \"%s\"", argv[1]);
	if (dev)
		parse_dev_name(dev);
	nl_open(c);
	return nl_show(c, dev_msg(c, buf, dev), cb_dev, dev ? dev : "dev show");
}

int dev_set(struct ctx *c, int argc, char **argv)
{
	struct arg evs = { .key = "evs", .type = ARG_U32, .min = EV_COUNT_MIN,
			   .max = MRC_MAX_EVS };
	struct arg *args[] = { &evs, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (!argc)
		die_usage("dev set: missing DEV");
	parse_dev_name(argv[0]);
	parse_args("dev set", args, argc - 1, argv + 1);
	if (!evs.set)
		die_usage("dev set: nothing to set");
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_DEV_SET, 0, MRC_A_DEV_NAME, argv[0]);
	mnl_attr_put_u32(nlh, MRC_A_DEV_EV_COUNT, evs.u32);
	return nl_request(c, nlh, argv[0]);
}

/* ---- plane ---------------------------------------------------------- */

static const char *const plane_states[] = {
	[MRC_PLANE_STATE_DOWN] = "DOWN",
	[MRC_PLANE_STATE_UP] = "UP",
};

static void rec_plane(struct rec *r, const struct nlattr **tb)
{
	rec_attr_u32(r, "plane", "plane ", tb[MRC_A_PLANE_ID]);
	rec_attr_ifname(r, tb[MRC_A_PLANE_IFINDEX]);
	rec_attr_enum(r, "state", "state ", tb[MRC_A_PLANE_STATE],
		      plane_states, ARRAY_SIZE(plane_states));
	rec_traffic(r, "tx ", "tx_packets", "tx_bytes",
		    tb[MRC_A_PLANE_TX_PACKETS], tb[MRC_A_PLANE_TX_BYTES]);
	rec_traffic(r, "rx ", "rx_packets", "rx_bytes",
		    tb[MRC_A_PLANE_RX_PACKETS], tb[MRC_A_PLANE_RX_BYTES]);
	rec_attr_uint(r, "retrans", "retrans ", NULL, tb[MRC_A_PLANE_RETRANS]);
	rec_attr_uint(r, "losses", "lost ", NULL, tb[MRC_A_PLANE_LOSSES]);
}

static int cb_plane(const struct nlmsghdr *nlh, void *data)
{
	return rec_obj(data, nlh, MRC_A_PLANE_MAX, MRC_A_PLANE_DEV_NAME,
		       rec_plane);
}

/*
 * monitor: a plane was added or changed state ("netdev N UP"), or was
 * removed
 */
void plane_ntf_rec(struct rec *r, const struct nlattr **tb)
{
	rec_attr_u32(r, "plane", "plane ", tb[MRC_A_PLANE_ID]);
	if (!tb[MRC_A_PLANE_IFINDEX] && !tb[MRC_A_PLANE_STATE]) {
		rec_str(r, "state", "", NULL, "REMOVED");
		return;
	}
	rec_attr_ifname(r, tb[MRC_A_PLANE_IFINDEX]);
	rec_attr_enum(r, "state", "", tb[MRC_A_PLANE_STATE], plane_states,
		      ARRAY_SIZE(plane_states));
}

/* the ifindex of netdev @name; exits if there is none */
static unsigned int netdev_index(const char *name)
{
	unsigned int ifindex = if_nametoindex(name);

	if (!ifindex) {
		fprintf(stderr, "mrcctl: Error: no such netdev \"%s\"\n", name);
		exit(1);
	}
	return ifindex;
}

/* the planes of @dev, or of every device: a list, or kept (stats) */
int plane_dump(struct ctx *c, const char *dev)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = nl_msg(c, buf, MRC_CMD_PLANE_GET, NLM_F_DUMP,
		     MRC_A_PLANE_DEV_NAME, dev);
	return nl_show(c, nlh, cb_plane, dev ? dev : "plane show");
}

int plane_show(struct ctx *c, int argc, char **argv)
{
	const char *dev = parse_opt_dev("plane show", argc, argv);

	nl_open(c);
	return plane_dump(c, dev);
}

/*
 * plane add dev DEV netdev IFNAME [ id N ], plane del dev DEV { id N |
 * netdev IFNAME }: @nlcmd with what is given
 */
static int plane_change(struct ctx *c, const char *cmd, uint8_t nlcmd,
			int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg netdev = { .key = "netdev", .type = ARG_STR };
	struct arg id = { .key = "id", .type = ARG_U32, .max = MRC_MAX_PLANES - 1 };
	struct arg *args[] = { &dev, &netdev, &id, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	unsigned int ifindex = 0;

	parse_args(cmd, args, argc, argv);
	parse_need(cmd, &dev);
	if (nlcmd == MRC_CMD_PLANE_ADD)
		parse_need(cmd, &netdev);
	else if (id.set == netdev.set)
		die_usage("%s: give either id N or netdev IFNAME", cmd);
	if (netdev.set)
		ifindex = netdev_index(netdev.str);
	nl_open(c);
	nlh = nl_msg(c, buf, nlcmd, 0, MRC_A_PLANE_DEV_NAME, dev.str);
	if (netdev.set)
		mnl_attr_put_u32(nlh, MRC_A_PLANE_IFINDEX, ifindex);
	if (id.set)
		mnl_attr_put_u32(nlh, MRC_A_PLANE_ID, id.u32);
	return nl_request(c, nlh, dev.str);
}

int plane_add(struct ctx *c, int argc, char **argv)
{
	return plane_change(c, "plane add", MRC_CMD_PLANE_ADD, argc, argv);
}

int plane_del(struct ctx *c, int argc, char **argv)
{
	return plane_change(c, "plane del", MRC_CMD_PLANE_DEL, argc, argv);
}
