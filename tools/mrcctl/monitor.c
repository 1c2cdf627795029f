// SPDX-License-Identifier: GPL-2.0
/* mrcctl monitor: the family's notifications, a line each, as they come */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "mrcctl.h"

/* the multicast groups monitor joins, those of them the family has */
static const char *const mon_groups[] = { MRC_MCGRP_CONFIG, MRC_MCGRP_EV };

/* a notification: its command, and how it is printed */
struct event {
	uint8_t cmd;
	const char *name;	/* the first word; JSON "event" */
	unsigned int max;	/* the highest attribute of its set */
	uint16_t dev_attr;	/* the device name */
	void (*rec)(struct rec *r, const struct nlattr **tb);
};

/* each prints, after "EVENT dev DEV", what its object's file says */
static const struct event events[] = {
	{ MRC_CMD_PLANE_CHANGE_NTF, "plane", MRC_A_PLANE_MAX,
	  MRC_A_PLANE_DEV_NAME, plane_ntf_rec },
	{ MRC_CMD_PATH_CHANGE_NTF, "path", MRC_A_PATH_MAX,
	  MRC_A_PATH_DEV_NAME, path_ntf_rec },
	{ MRC_CMD_EV_CHANGE_NTF, "ev", MRC_A_EV_MAX,
	  MRC_A_EV_DEV_NAME, ev_ntf_rec },
};

/* a signal ends monitor at once, or after the line being printed */
static volatile sig_atomic_t mon_printing, mon_stop;

static void mon_signal(int sig)
{
	if (!mon_printing)
		_exit(0);	/* every line printed is flushed */
	mon_stop = 1;
}

static const struct event *mon_event(uint8_t cmd)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (events[i].cmd == cmd)
			return &events[i];
	return NULL;
}

/* one line an event (of c->dev, if set); stop after c->limit */
static int cb_event(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct event *e;
	struct ctx *c = data;
	struct rec r = {};
	const char *dev;

	if (nlh->nlmsg_type != c->nl.family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*g))
		return MNL_CB_OK;
	e = mon_event(g->cmd);
	if (!e)
		return MNL_CB_OK;	/* one this mrcctl does not know */
	nl_attrs(nlh, tb, e->max);
	if (!nl_attr_ok(tb[e->dev_attr], MNL_TYPE_NUL_STRING))
		return MNL_CB_OK;
	dev = mnl_attr_get_str(tb[e->dev_attr]);
	if (c->dev && strcmp(dev, c->dev))
		return MNL_CB_OK;
	rec_str(&r, "event", "", NULL, e->name);
	rec_str(&r, "dev", "dev ", NULL, dev);
	e->rec(&r, tb);
	mon_printing = 1;
	if (c->json) {
		rec_json(c, &r, 0);
		putchar('\n');
	} else {
		rec_line(&r);
	}
	fflush(stdout);
	mon_printing = 0;
	c->count++;
	if (mon_stop || (c->limit && (unsigned int)c->count >= c->limit))
		return MNL_CB_STOP;
	return MNL_CB_OK;
}

/* join mon_groups; exits if the family has none of them */
static void mon_join(struct ctx *c)
{
	unsigned int i, joined = 0;
	int rcvbuf = 4 << 20;
	uint32_t id;

	/* EV changes come in bursts (a path dies: all its EVs at once) */
	if (setsockopt(mnl_socket_get_fd(c->nl.sock), SOL_SOCKET, SO_RCVBUFFORCE,
		       &rcvbuf, sizeof(rcvbuf)) < 0)
		setsockopt(mnl_socket_get_fd(c->nl.sock), SOL_SOCKET, SO_RCVBUF,
			   &rcvbuf, sizeof(rcvbuf));

	for (i = 0; i < ARRAY_SIZE(mon_groups); i++) {
		id = mrcnl_group(&c->nl, mon_groups[i]);
		if (!id)
			continue;
		if (mnl_socket_setsockopt(c->nl.sock, NETLINK_ADD_MEMBERSHIP, &id,
					  sizeof(id)) < 0) {
			/* every QP's EV changes are for the namespace's admin */
			if (errno == EPERM && !strcmp(mon_groups[i], MRC_MCGRP_EV)) {
				pr_err("EV changes need CAP_NET_ADMIN; %s\n",
				       "showing plane and path changes only");
				continue;
			}
			pr_err("Error: cannot join multicast group \"%s\": %s\n",
			       mon_groups[i], strerror(errno));
			exit(1);
		}
		joined++;
	}
	if (!joined) {
		pr_err("Error: the \"%s\" family has no \"%s\" multicast group\n",
		       MRC_FAMILY_NAME, MRC_MCGRP_CONFIG);
		exit(1);
	}
}

/* monitor [ dev DEV ] [ count N ]: print notifications until a signal */
int monitor_run(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg count = { .key = "count", .type = ARG_U32, .min = 1,
			     .max = INT32_MAX };
	struct arg *args[] = { &dev, &count, NULL };
	struct sigaction sa = { .sa_handler = mon_signal };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	int ret = 0;

	parse_args("monitor", args, argc, argv);
	c->dev = dev.str;
	c->limit = count.u32;
	c->pretty = false;	/* one object a line */
	nl_open(c);
	mon_join(c);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!mon_stop) {
		ret = mnl_socket_recvfrom(c->nl.sock, buf, sizeof(buf));
		if (ret < 0 && errno == ENOBUFS)
			pr_err("Warning: events were lost (socket receive buffer overrun)\n");
		if (ret < 0 && (errno == ENOBUFS || errno == EINTR))
			continue;
		if (ret <= 0)
			return nl_fail(c, "monitor");
		ret = nl_run(c, buf, ret, 0, 0, cb_event);
		if (ret <= 0)
			break;
	}
	return ret < 0 ? nl_fail(c, "monitor") : 0;
}

