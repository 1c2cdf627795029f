// SPDX-License-Identifier: GPL-2.0
/* mrcctl dev and plane: an mrc device and its planes (netdevs) */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

#define EV_COUNT_MIN	4	/* the family's min of ev-count */
#define DSCP_MAX	63
#define DSCP_NONE	64	/* trim-lasthop-dscp: none */

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
	rec_attr_u32(&r, "trim_dscp", "trim_dscp ", tb[MRC_A_DEV_TRIM_DSCP]);
	if (nl_attr_ok(tb[MRC_A_DEV_TRIM_LASTHOP_DSCP], MNL_TYPE_U32) &&
	    mnl_attr_get_u32(tb[MRC_A_DEV_TRIM_LASTHOP_DSCP]) == DSCP_NONE)
		rec_str(&r, "trim_lasthop_dscp", "trim_lasthop_dscp ", NULL,
			"none");
	else
		rec_attr_u32(&r, "trim_lasthop_dscp", "trim_lasthop_dscp ",
			     tb[MRC_A_DEV_TRIM_LASTHOP_DSCP]);
	rec_attr_u32(&r, "qps", "qps ", tb[MRC_A_DEV_QPS]);
	rec_attr_uint(&r, "qp_mem", "qp_mem ", NULL, tb[MRC_A_DEV_QP_MEM]);
	/* the endpoint counters (mrcctl probe's peer side): JSON only */
	rec_attr_uint(&r, "ep_answered", NULL, NULL, tb[MRC_A_DEV_EP_ANSWERED]);
	rec_attr_uint(&r, "ep_rate_limited", NULL, NULL,
		      tb[MRC_A_DEV_EP_RATE_LIMITED]);
	rec_attr_uint(&r, "ep_unmatched", NULL, NULL, tb[MRC_A_DEV_EP_UNMATCHED]);
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
	struct arg trim = { .key = "trim_dscp", .type = ARG_U32,
			    .max = DSCP_MAX };
	struct arg last = { .key = "trim_lasthop_dscp", .type = ARG_STR };
	struct arg *args[] = { &evs, &trim, &last, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	uint32_t lasthop = DSCP_NONE;

	if (!argc)
		die_usage("dev set: missing DEV");
	parse_dev_name(argv[0]);
	parse_args("dev set", args, argc - 1, argv + 1);
	if (!evs.set && !trim.set && !last.set)
		die_usage("dev set: nothing to set");
	if (last.set && strcmp(last.str, "none") &&
	    !parse_u32(last.str, DSCP_MAX, &lasthop))
		die_usage("dev set: invalid trim_lasthop_dscp \"%s\" (0..%d or none)",
			  last.str, DSCP_MAX);
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_DEV_SET, 0, MRC_A_DEV_NAME, argv[0]);
	if (evs.set)
		mnl_attr_put_u32(nlh, MRC_A_DEV_EV_COUNT, evs.u32);
	if (trim.set)
		mnl_attr_put_u32(nlh, MRC_A_DEV_TRIM_DSCP, trim.u32);
	if (last.set)
		mnl_attr_put_u32(nlh, MRC_A_DEV_TRIM_LASTHOP_DSCP, lasthop);
	return nl_request(c, nlh, argv[0]);
}

/* ---- plane ---------------------------------------------------------- */

static const char *const plane_states[] = {
	[MRC_PLANE_STATE_DOWN] = "DOWN",
	[MRC_PLANE_STATE_UP] = "UP",
	[MRC_PLANE_STATE_ADMIN_DOWN] = "ADMIN_DOWN",
};

static const char *const plane_admins[] = {
	[MRC_PLANE_ADMIN_DOWN] = "down",
	[MRC_PLANE_ADMIN_UP] = "up",
};

static void rec_plane(struct rec *r, const struct nlattr **tb)
{
	rec_attr_u32(r, "plane", "plane ", tb[MRC_A_PLANE_ID]);
	rec_attr_ifname(r, tb[MRC_A_PLANE_IFINDEX]);
	rec_attr_enum(r, "state", "state ", tb[MRC_A_PLANE_STATE],
		      plane_states, ARRAY_SIZE(plane_states));
	rec_attr_enum(r, "admin", "admin ", tb[MRC_A_PLANE_ADMIN],
		      plane_admins, ARRAY_SIZE(plane_admins));
	rec_traffic(r, "tx ", "tx_packets", "tx_bytes",
		    tb[MRC_A_PLANE_TX_PACKETS], tb[MRC_A_PLANE_TX_BYTES]);
	rec_traffic(r, "rx ", "rx_packets", "rx_bytes",
		    tb[MRC_A_PLANE_RX_PACKETS], tb[MRC_A_PLANE_RX_BYTES]);
	rec_attr_uint(r, "retrans", "retrans ", NULL, tb[MRC_A_PLANE_RETRANS]);
	rec_attr_uint(r, "losses", "lost ", NULL, tb[MRC_A_PLANE_LOSSES]);
	rec_attr_uint(r, "rx_admin_drops", "admin_drops ", NULL,
		      tb[MRC_A_PLANE_RX_ADMIN_DROPS]);
	rec_attr_uint(r, "down_lost", "down_lost ", NULL,
		      tb[MRC_A_PLANE_DOWN_LOST]);
}

/* "ADDR/LEN" of an allow attribute: IPv4 for ::ffff:0:0/96 and longer */
static void prefix_text(const uint8_t *p, char *buf, size_t len)
{
	const struct in6_addr *a = (const void *)p;
	char addr[INET6_ADDRSTRLEN];
	unsigned int plen = p[sizeof(*a)];

	if (IN6_IS_ADDR_V4MAPPED(a) && plen >= 96) {
		inet_ntop(AF_INET, &a->s6_addr[12], addr, sizeof(addr));
		plen -= 96;
	} else {
		inet_ntop(AF_INET6, a, addr, sizeof(addr));
	}
	snprintf(buf, len, "%s/%u", addr, plen);
}

/* a plane's allow prefixes (repeated attributes) */
static void rec_allow(struct rec *r, const struct nlmsghdr *nlh)
{
	char list[sizeof(r->list)] = "", one[INET6_ADDRSTRLEN + 4];
	const struct nlattr *a;
	size_t len = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != MRC_A_PLANE_ALLOW ||
		    mnl_attr_get_payload_len(a) != sizeof(struct in6_addr) + 1)
			continue;
		prefix_text(mnl_attr_get_payload(a), one, sizeof(one));
		if (len + strlen(one) + 2 > sizeof(list))
			break;
		len += sprintf(list + len, "%s%s", len ? "," : "", one);
	}
	if (len)
		rec_list(r, "allow", "allow ", list);
}

/* rec_obj() with the repeated allow attributes, which tb cannot hold */
static int cb_plane(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	nl_attrs(nlh, tb, MRC_A_PLANE_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_PLANE_DEV_NAME], NULL))
		return MNL_CB_OK;
	rec_plane(&r, tb);
	rec_allow(&r, nlh);
	rec_emit(c, &r);
	return MNL_CB_OK;
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
unsigned int netdev_index(const char *name)
{
	unsigned int ifindex = if_nametoindex(name);

	if (!ifindex) {
		pr_err("Error: no such netdev \"%s\"\n", name);
		exit(1);
	}
	return ifindex;
}

/* the name of netdev @ifindex, or "ifindex N"; @buf has IFNAME_BUF bytes */
const char *netdev_name(unsigned int ifindex, char *buf)
{
	static_assert(IFNAME_BUF >= IF_NAMESIZE, "IFNAME_BUF is too small");
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IFNAME_BUF, "ifindex %u", ifindex);
	return buf;
}

struct plane_refs {
	struct plane_ref *p;
	int n;
};

static int cb_plane_ref(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_PLANE_MAX + 1] = {};
	struct plane_refs *l = data;
	struct plane_ref *p;

	nl_attrs(nlh, tb, MRC_A_PLANE_MAX);
	if (!nl_attr_ok(tb[MRC_A_PLANE_DEV_NAME], MNL_TYPE_NUL_STRING) ||
	    !nl_attr_ok(tb[MRC_A_PLANE_ID], MNL_TYPE_U32) ||
	    !nl_attr_ok(tb[MRC_A_PLANE_IFINDEX], MNL_TYPE_U32))
		return MNL_CB_OK;
	l->p = xrealloc(l->p, (l->n + 1) * sizeof(*l->p));
	p = &l->p[l->n++];
	snprintf(p->dev, sizeof(p->dev), "%s",
		 mnl_attr_get_str(tb[MRC_A_PLANE_DEV_NAME]));
	p->id = mnl_attr_get_u32(tb[MRC_A_PLANE_ID]);
	p->ifindex = mnl_attr_get_u32(tb[MRC_A_PLANE_IFINDEX]);
	return MNL_CB_OK;
}

/*
 * the planes of every device of the namespace, in *@planes (to free): how
 * many, or -1 with errno
 */
int plane_list(struct ctx *c, struct plane_ref **planes)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct plane_refs l = {};
	struct nlmsghdr *nlh;

	nlh = nl_msg(c, buf, MRC_CMD_PLANE_GET, NLM_F_DUMP, 0, NULL);
	if (mrcnl_transact(&c->nl, nlh, cb_plane_ref, &l) < 0) {
		free(l.p);
		return -1;
	}
	*planes = l.p;
	return l.n;
}

/* the plane on netdev @ifindex among the @n of @p, or NULL */
const struct plane_ref *plane_find(const struct plane_ref *p, int n,
				   unsigned int ifindex)
{
	int i;

	for (i = 0; i < n; i++)
		if (p[i].ifindex == ifindex)
			return &p[i];
	return NULL;
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

/* plane @id of @dev among the @n of @p, or NULL */
static const struct plane_ref *plane_at(const struct plane_ref *p, int n,
					const char *dev, uint32_t id)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(p[i].dev, dev) && p[i].id == id)
			return &p[i];
	return NULL;
}

/*
 * apply's plane add, which the kernel refused with EEXIST (its message in
 * @msg): fine if netdev @ifindex is a plane of @dev already, as plane @id
 * if that is given; else say what is there. 0, or 1 after the error.
 */
static int plane_add_exists(struct ctx *c, const char *dev,
			    const struct arg *id, unsigned int ifindex,
			    const char *ifname, const char *msg)
{
	const struct plane_ref *have, *taken;
	char what[160], other[IFNAME_BUF];
	struct plane_ref *p;
	int n, ret = 1;

	snprintf(what, sizeof(what), "plane add dev %s netdev %s%s%s", dev,
		 ifname, id->set ? " id " : "", id->set ? id->str : "");
	n = plane_list(c, &p);
	if (n < 0)
		return nl_fail(c, what);
	have = plane_find(p, n, ifindex);
	taken = id->set ? plane_at(p, n, dev, id->u32) : NULL;
	if (have && !strcmp(have->dev, dev) && (!id->set || have->id == id->u32)) {
		ret = 0;
	} else if (have) {
		pr_err("Error: %s: %s is plane %u of %s\n", what, ifname,
		       have->id, have->dev);
	} else if (taken) {
		pr_err("Error: %s: plane %u of %s is %s\n", what, taken->id,
		       dev, netdev_name(taken->ifindex, other));
	} else {	/* nothing we can see: the kernel's reason */
		errno = EEXIST;
		snprintf(c->nl.errmsg, sizeof(c->nl.errmsg), "%s", msg);
		ret = nl_fail(c, what);
	}
	free(p);
	return ret;
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
	char buf[MNL_SOCKET_BUFFER_SIZE], msg[sizeof(c->nl.errmsg)];
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
	if (nlcmd != MRC_CMD_PLANE_ADD || !c->apply)
		return nl_request(c, nlh, dev.str);
	if (!nl_transact(c, nlh, NULL))
		return 0;
	if (errno != EEXIST)
		return nl_fail(c, dev.str);
	snprintf(msg, sizeof(msg), "%s", c->nl.errmsg);
	return plane_add_exists(c, dev.str, &id, ifindex, netdev.str, msg);
}

int plane_add(struct ctx *c, int argc, char **argv)
{
	return plane_change(c, "plane add", MRC_CMD_PLANE_ADD, argc, argv);
}

int plane_del(struct ctx *c, int argc, char **argv)
{
	return plane_change(c, "plane del", MRC_CMD_PLANE_DEL, argc, argv);
}

/*
 * "ADDR[/LEN]" into an allow attribute's 17 bytes: IPv6, or IPv4 as
 * ::ffff:a.b.c.d/96 + LEN; without LEN, the one address
 */
static void parse_prefix(const char *s, uint8_t *out)
{
	struct in6_addr *a = (void *)out;
	char addr[INET6_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	size_t alen = slash ? (size_t)(slash - s) : strlen(s);
	uint32_t len, max = 128;
	struct in_addr v4;

	if (alen >= sizeof(addr))
		die_usage("plane set: invalid prefix \"%s\"", s);
	memcpy(addr, s, alen);
	addr[alen] = '\0';
	if (inet_pton(AF_INET, addr, &v4) == 1) {
		memset(a, 0, sizeof(*a));
		a->s6_addr[10] = 0xff;
		a->s6_addr[11] = 0xff;
		memcpy(&a->s6_addr[12], &v4, sizeof(v4));
		max = 32;
	} else if (inet_pton(AF_INET6, addr, a) != 1) {
		die_usage("plane set: invalid prefix \"%s\"", s);
	}
	len = max;
	if (slash && !parse_u32(slash + 1, max, &len))
		die_usage("plane set: invalid prefix length in \"%s\" (0..%u)",
			  s, max);
	out[sizeof(*a)] = len + 128 - max;
}

/*
 * plane set dev DEV { id | plane } N [ allow { PREFIX[,PREFIX...] | any } ]
 * [ admin { up | down } ]
 */
int plane_set(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg id = { .key = "id", .type = ARG_U32, .max = MRC_MAX_PLANES - 1 };
	struct arg plane = { .key = "plane", .type = ARG_U32,
			     .max = MRC_MAX_PLANES - 1 };
	struct arg allow = { .key = "allow", .type = ARG_STR };
	struct arg admin = { .key = "admin", .type = ARG_STR };
	struct arg *args[] = { &dev, &id, &plane, &allow, &admin, NULL };
	uint8_t p[MRC_MAX_ALLOW][sizeof(struct in6_addr) + 1];
	char buf[MNL_SOCKET_BUFFER_SIZE], *list, *tok, *save;
	uint32_t state = MRC_PLANE_ADMIN_UP;
	struct nlmsghdr *nlh;
	unsigned int n = 0, i;

	parse_args("plane set", args, argc, argv);
	parse_alias("plane set", &id, &plane);
	parse_need("plane set", &dev);
	parse_need("plane set", &id);
	if (!allow.set && !admin.set)
		die_usage("plane set: nothing to set (allow or admin)");
	if (admin.set) {
		if (!strcmp(admin.str, "down"))
			state = MRC_PLANE_ADMIN_DOWN;
		else if (strcmp(admin.str, "up"))
			die_usage("plane set: admin is up or down, not \"%s\"",
				  admin.str);
	}
	/* the kernel reads admin without prefixes as "keep them" */
	if (admin.set && allow.set && !strcmp(allow.str, "any"))
		die_usage("plane set: allow any and admin in two commands");
	if (allow.set && strcmp(allow.str, "any")) {
		list = strdup(allow.str);
		if (!list)
			die_usage("plane set: out of memory");
		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (n == MRC_MAX_ALLOW)
				die_usage("plane set: at most %d prefixes",
					  MRC_MAX_ALLOW);
			parse_prefix(tok, p[n++]);
		}
		free(list);
		if (!n)
			die_usage("plane set: allow needs PREFIX[,PREFIX...] or any");
	}
	nl_open(c);
	nlh = nl_msg(c, buf, MRC_CMD_PLANE_SET, 0, MRC_A_PLANE_DEV_NAME, dev.str);
	mnl_attr_put_u32(nlh, MRC_A_PLANE_ID, id.u32);
	for (i = 0; i < n; i++)
		mnl_attr_put(nlh, MRC_A_PLANE_ALLOW, sizeof(p[i]), p[i]);
	if (admin.set)
		mnl_attr_put_u32(nlh, MRC_A_PLANE_ADMIN, state);
	return nl_request(c, nlh, dev.str);
}
