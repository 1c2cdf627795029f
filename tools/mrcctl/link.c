// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl dev add and dev del: create and remove an mrc device as "rdma link
 * add DEV type mrc netdev IFNAME" and "rdma link delete DEV" do, over RDMA
 * netlink (NETLINK_RDMA: RDMA_NLDEV_CMD_NEWLINK, DELLINK), so that one file
 * of mrcctl commands (apply) sets up devices, planes and path sets. The
 * kernel answers a refused link with a bare errno (its reason goes to the
 * kernel log): dev add looks first, through the mrc family, at what is
 * there, and says what it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/rdma_netlink.h>

#include "mrcctl.h"

#define LINK_TYPE	"mrc"

/* what dev get tells of a device */
struct dev_info {
	bool found;
	uint32_t index;		/* the RDMA device index (rdma link delete) */
	uint32_t ifindex;	/* plane 0's netdev */
};

static int cb_dev_info(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_DEV_MAX + 1] = {};
	struct dev_info *d = data;

	nl_attrs(nlh, tb, MRC_A_DEV_MAX);
	if (!nl_attr_ok(tb[MRC_A_DEV_INDEX], MNL_TYPE_U32))
		return MNL_CB_OK;
	d->found = true;
	d->index = mnl_attr_get_u32(tb[MRC_A_DEV_INDEX]);
	d->ifindex = mrcnl_u32(tb[MRC_A_DEV_NETDEV_IFINDEX]);
	return MNL_CB_OK;
}

/* dev get @dev into @d: 0 (found or not), or -1 with errno */
static int dev_info(struct ctx *c, const char *dev, struct dev_info *d)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	memset(d, 0, sizeof(*d));
	nlh = nl_msg(c, buf, MRC_CMD_DEV_GET, 0, MRC_A_DEV_NAME, dev);
	if (!mrcnl_transact(&c->nl, nlh, cb_dev_info, d))
		return 0;
	return errno == ENODEV ? 0 : -1;
}

/* one RDMA netlink request (nldev @cmd) on a socket of its own */
static struct nlmsghdr *rdma_msg(char *buf, uint16_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	return nlh;
}

/* send @nlh, wait for its ack: 0, or -1 with errno */
static int rdma_request(struct nlmsghdr *nlh)
{
	struct mrcnl rn = {};
	int ret = -1, err;

	rn.sock = mnl_socket_open(NETLINK_RDMA);
	if (!rn.sock)
		return -1;
	if (!mnl_socket_bind(rn.sock, 0, MNL_SOCKET_AUTOPID))
		ret = mrcnl_transact(&rn, nlh, NULL, NULL);
	err = errno;
	mnl_socket_close(rn.sock);
	errno = err;
	return ret;
}

/* why the kernel refused to create @dev on @ifname, by errno */
static const char *newlink_why(struct ctx *c, int err, const char *dev)
{
	switch (err) {
	case EEXIST:	/* the netdev's planes were looked at before */
		return "another RDMA device has that name (see rdma dev show)";
	case EBUSY:
		return "the netdev carries an rxe device, or is a bridge, bond or macvlan port";
	case EINVAL:
		/* also what nldev answers for a link type nobody registered */
		if (!nl_try_open(c))
			return "no \"mrc\" RDMA link type: the mrc module is not installed (modprobe mrc)";
		return "the netdev is not an Ethernet device (VLAN devices cannot be planes)";
	case ENODEV:
		return "the netdev went away";
	case EPERM:
		return "creating RDMA devices needs CAP_NET_ADMIN";
	default:
		return NULL;
	}
}

/*
 * the checks of dev add when the mrc module is loaded: 0 to go on, -1 when
 * @dev is there on @ifname already, 1 after an error
 */
static int dev_add_check(struct ctx *c, const char *dev, const char *ifname,
			 unsigned int ifindex)
{
	const struct plane_ref *have;
	char other[IFNAME_BUF];
	struct plane_ref *p;
	struct dev_info d;
	int n, ret = 0;

	if (dev_info(c, dev, &d) < 0)
		return nl_fail(c, dev);
	if (d.found && d.ifindex == ifindex) {
		if (c->apply)
			return -1;
		pr_err("Error: dev add %s: it exists (on netdev %s)\n", dev,
		       ifname);
		return 1;
	}
	if (d.found) {
		pr_err("Error: dev add %s netdev %s: %s exists on netdev %s\n",
		       dev, ifname, dev, netdev_name(d.ifindex, other));
		return 1;
	}
	n = plane_list(c, &p);
	if (n < 0)
		return nl_fail(c, dev);
	have = plane_find(p, n, ifindex);
	if (have) {
		pr_err("Error: dev add %s netdev %s: %s is plane %u of %s\n",
		       dev, ifname, ifname, have->id, have->dev);
		ret = 1;
	}
	free(p);
	return ret;
}

/* dev add DEV netdev IFNAME */
int dev_add(struct ctx *c, int argc, char **argv)
{
	struct arg netdev = { .key = "netdev", .type = ARG_STR };
	struct arg *args[] = { &netdev, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	unsigned int ifindex;
	const char *dev, *why;
	int ret, err;

	if (!argc || !strcmp(argv[0], "netdev"))
		die_usage("dev add: missing DEV (dev add DEV netdev IFNAME)");
	dev = argv[0];
	parse_dev_name(dev);
	if (!*dev || strchr(dev, '%'))
		die_usage("dev add: invalid device name \"%s\"", dev);
	parse_args("dev add", args, argc - 1, argv + 1);
	parse_need("dev add", &netdev);
	ifindex = netdev_index(netdev.str);
	/* without the module there is no mrc device yet: newlink loads it */
	if (nl_try_open(c)) {
		ret = dev_add_check(c, dev, netdev.str, ifindex);
		if (ret)
			return ret < 0 ? 0 : ret;
	}
	nlh = rdma_msg(buf, RDMA_NLDEV_CMD_NEWLINK);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, dev);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_LINK_TYPE, LINK_TYPE);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, netdev.str);
	if (!rdma_request(nlh))
		return 0;
	err = errno;
	why = newlink_why(c, err, dev);
	if (why)
		pr_err("Error: dev add %s netdev %s: %s (%s)\n", dev, netdev.str,
		       why, strerror(err));
	else
		pr_err("Error: dev add %s netdev %s: %s\n", dev, netdev.str,
		       strerror(err));
	return 1;
}

/* dev del DEV: an mrc device of this namespace, not any RDMA device */
int dev_del(struct ctx *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct dev_info d;

	if (!argc)
		die_usage("dev del: missing DEV");
	if (argc > 1)
		die_usage("dev del: unexpected argument \"%s\"", argv[1]);
	parse_dev_name(argv[0]);
	nl_open(c);
	if (dev_info(c, argv[0], &d) < 0)
		return nl_fail(c, argv[0]);
	if (!d.found) {
		pr_err("Error: %s: no such mrc device\n", argv[0]);
		return 1;
	}
	nlh = rdma_msg(buf, RDMA_NLDEV_CMD_DELLINK);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
	if (!rdma_request(nlh))
		return 0;
	pr_err("Error: dev del %s: %s\n", argv[0], strerror(errno));
	return 1;
}
