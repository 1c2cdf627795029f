// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl probe: EV probes (MRC endpoint opcodes 0xD8/0xD9) to a peer, with
 * their round trip. The kernel's ep-probe returns at once; each probe's
 * end comes as one ep-probe-ntf to this socket (possibly before the ack of
 * its request), so a count of probes goes out as a batch and the answers
 * are printed as they arrive; those the kernel has not ended a second after
 * the timeout are printed as timed out here.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "mrcctl.h"

#define PROBE_COUNT_MAX		MRC_MAX_EP_PROBES
#define PROBE_TIMEOUT_MAX	60000		/* ms, as the kernel takes */
#define PROBE_GRACE_MS		1000		/* after which we stop waiting */

struct probe_run {
	struct ctx *c;
	const char *dev;
	struct in6_addr peer;
	uint32_t sent, ended, answered;
	bool done[PROBE_COUNT_MAX + 1];		/* by req-id, 1..count */
};

static const char *const ep_status[] = {
	[MRC_EP_STATUS_ANSWERED] = "answered",
	[MRC_EP_STATUS_TIMEOUT] = "timeout",
};

/* "peer ADDR": IPv6, or IPv4 as a v4-mapped GID */
static void parse_peer(const char *s, struct in6_addr *a)
{
	struct in_addr v4;

	if (inet_pton(AF_INET6, s, a) == 1)
		return;
	if (inet_pton(AF_INET, s, &v4) != 1)
		die_usage("probe: invalid peer address \"%s\"", s);
	memset(a, 0, sizeof(*a));
	a->s6_addr[10] = 0xff;
	a->s6_addr[11] = 0xff;
	memcpy(&a->s6_addr[12], &v4, sizeof(v4));
}

/* the peer as given back: a v4-mapped GID as dotted quad */
static void rec_peer(struct rec *r, const struct in6_addr *a)
{
	char buf[INET6_ADDRSTRLEN];

	if (IN6_IS_ADDR_V4MAPPED(a))
		inet_ntop(AF_INET, &a->s6_addr[12], buf, sizeof(buf));
	else
		inet_ntop(AF_INET6, a, buf, sizeof(buf));
	rec_str(r, "peer", "peer ", NULL, buf);
}

/* ns as "1.234 ms" or "56.789 us" in text; the JSON has the ns */
static void rec_ns(struct rec *r, const char *key, const char *pre,
		   uint64_t ns)
{
	char txt[32];

	if (ns >= 1000000)
		snprintf(txt, sizeof(txt), "%" PRIu64 ".%03" PRIu64 " ms",
			 ns / 1000000, ns / 1000 % 1000);
	else
		snprintf(txt, sizeof(txt), "%" PRIu64 ".%03" PRIu64 " us",
			 ns / 1000, ns % 1000);
	rec_str(r, NULL, pre, NULL, txt);
	rec_num(r, key, NULL, NULL, ns);
}

/* one probe's end: "DEV probe N peer ADDR plane P rtt T arrival_plane Q ..." */
static void print_end(struct probe_run *st, uint32_t id, uint32_t plane,
		      const struct nlattr **tb)
{
	struct rec r = {};
	const char *status;
	char hex[16];

	rec_str(&r, "dev", "", NULL, st->dev);
	rec_num(&r, "probe", "probe ", NULL, id);
	rec_peer(&r, &st->peer);
	rec_num(&r, "plane", "plane ", NULL, plane);
	status = tb ? rec_enum_name(tb[MRC_A_EP_STATUS], ep_status,
				    ARRAY_SIZE(ep_status)) : "timeout";
	if (!status)
		status = "unknown";
	if (tb && tb[MRC_A_EP_RTT_NS] && !strcmp(status, "answered")) {
		rec_str(&r, "status", NULL, NULL, status);
		rec_ns(&r, "rtt_ns", "rtt ", nl_attr_uint(tb[MRC_A_EP_RTT_NS]));
		rec_attr_u32(&r, "arrival_plane", "arrival_plane ",
			     tb[MRC_A_EP_ARRIVAL_PLANE]);
		if (nl_attr_ok(tb[MRC_A_EP_SERVICE_NS], MNL_TYPE_U32))
			rec_ns(&r, "service_ns", "service ",
			       mnl_attr_get_u32(tb[MRC_A_EP_SERVICE_NS]));
		if (nl_attr_ok(tb[MRC_A_EP_PEER_EV], MNL_TYPE_U32)) {
			snprintf(hex, sizeof(hex), "0x%08" PRIx32,
				 mnl_attr_get_u32(tb[MRC_A_EP_PEER_EV]));
			rec_str(&r, "peer_ev", "ev ", NULL, hex);
		}
		st->answered++;
	} else {
		rec_str(&r, "status", "", NULL, status);
	}
	rec_emit(st->c, &r);
	fflush(stdout);
}

/* an ep-probe-ntf (anything else on the socket is not ours) */
static int cb_ntf(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct probe_run *st = data;
	uint32_t id, plane = 0;

	if (g->cmd != MRC_CMD_EP_PROBE_NTF)
		return MNL_CB_OK;
	nl_attrs(nlh, tb, MRC_A_EP_MAX);
	if (!nl_attr_ok(tb[MRC_A_EP_REQ_ID], MNL_TYPE_U32))
		return MNL_CB_OK;
	id = mnl_attr_get_u32(tb[MRC_A_EP_REQ_ID]);
	if (!id || id > PROBE_COUNT_MAX || st->done[id])
		return MNL_CB_OK;
	if (nl_attr_ok(tb[MRC_A_EP_PLANE], MNL_TYPE_U32))
		plane = mnl_attr_get_u32(tb[MRC_A_EP_PLANE]);
	st->done[id] = true;
	st->ended++;
	print_end(st, id, plane, tb);
	return MNL_CB_OK;
}

/* one read: 1 a message was taken, 0 the ack of @seq, -1 an error */
static int read_one(struct probe_run *st, unsigned int seq)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mrcnl *nl = &st->c->nl;
	ssize_t n;

	n = mnl_socket_recvfrom(nl->sock, buf, sizeof(buf));
	if (n <= 0)
		return -1;
	return mrcnl_run(nl, buf, n, seq,
			 mnl_socket_get_portid(nl->sock), cb_ntf, st);
}

static void on_alarm(int sig)
{
}

int probe_run(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg peer = { .key = "peer", .type = ARG_STR };
	struct arg plane = { .key = "plane", .type = ARG_U32, .max = MRC_MAX_PLANES - 1 };
	struct arg path = { .key = "path", .type = ARG_U32, .max = UINT32_MAX };
	struct arg ev = { .key = "ev", .type = ARG_STR };
	struct arg count = { .key = "count", .type = ARG_U32, .min = 1,
			     .max = PROBE_COUNT_MAX };
	struct arg tmo = { .key = "timeout", .type = ARG_U32, .min = 1,
			   .max = PROBE_TIMEOUT_MAX };
	struct arg dscp = { .key = "dscp", .type = ARG_U32, .max = 63 };
	struct arg *args[] = { &dev, &peer, &plane, &path, &ev, &count, &tmo,
			       &dscp, NULL };
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = {};
	char buf[MNL_SOCKET_BUFFER_SIZE];
	static struct probe_run st;
	unsigned long evv = 0;
	struct nlmsghdr *nlh;
	uint32_t n, i, ms;
	int ret = 0, r;
	char *end;

	parse_args("probe", args, argc, argv);
	parse_need("probe", &dev);
	parse_need("probe", &peer);
	if (path.set && ev.set)
		die_usage("probe: path and ev exclude each other");
	if (ev.set) {
		errno = 0;
		evv = strtoul(ev.str, &end, 0);
		if (errno || *end || !*ev.str || evv > UINT32_MAX || !(evv >> 16))
			die_usage("probe: invalid ev \"%s\" (32 bits, UDP source port not 0)",
				  ev.str);
	}
	memset(&st, 0, sizeof(st));
	st.c = c;
	st.dev = dev.str;
	parse_peer(peer.str, &st.peer);
	n = count.set ? count.u32 : 1;
	ms = tmo.set ? tmo.u32 : 1000;

	nl_open(c);
	rec_list_begin(c);
	for (i = 1; i <= n; i++) {
		nlh = nl_msg(c, buf, MRC_CMD_EP_PROBE, NLM_F_ACK,
			     MRC_A_EP_DEV_NAME, dev.str);
		mnl_attr_put(nlh, MRC_A_EP_PEER, sizeof(st.peer), &st.peer);
		if (plane.set)
			mnl_attr_put_u32(nlh, MRC_A_EP_PLANE, plane.u32);
		if (path.set)
			mnl_attr_put_u32(nlh, MRC_A_EP_PATH_ID, path.u32);
		if (ev.set)
			mnl_attr_put_u32(nlh, MRC_A_EP_EV, evv);
		if (dscp.set)
			mnl_attr_put_u32(nlh, MRC_A_EP_DSCP, dscp.u32);
		mnl_attr_put_u32(nlh, MRC_A_EP_REQ_ID, i);
		mnl_attr_put_u64(nlh, MRC_A_EP_TIMEOUT_NS, (uint64_t)ms * 1000000);
		c->nl.errmsg[0] = '\0';
		if (mnl_socket_sendto(c->nl.sock, nlh, nlh->nlmsg_len) < 0) {
			ret = nl_fail(c, dev.str);
			break;
		}
		/* the notifications of earlier probes may come first */
		while ((r = read_one(&st, nlh->nlmsg_seq)) > 0)
			;
		if (r < 0) {
			ret = nl_fail(c, dev.str);
			break;
		}
		st.sent++;
	}

	/* the kernel ends every probe it took; a grace period for its word */
	sigaction(SIGALRM, &sa, NULL);
	it.it_value.tv_sec = (ms + PROBE_GRACE_MS) / 1000;
	it.it_value.tv_usec = (ms + PROBE_GRACE_MS) % 1000 * 1000;
	setitimer(ITIMER_REAL, &it, NULL);
	while (st.ended < st.sent && read_one(&st, 0) >= 0)
		;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	for (i = 1; i <= st.sent; i++)
		if (!st.done[i])
			print_end(&st, i, plane.set ? plane.u32 : 0, NULL);
	rec_list_end(c);
	if (!c->json)
		fprintf(stderr, "%" PRIu32 " probes, %" PRIu32 " answered\n",
			st.sent, st.answered);
	return ret ? ret : st.answered == st.sent ? 0 : 1;
}
