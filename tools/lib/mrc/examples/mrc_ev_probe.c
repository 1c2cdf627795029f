// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * mrc_ev_probe: EV probes to peers through the OCP MRC controller API
 * (mrc_ctl.h): one batch, mrc_ctl_ep_batch_send_wait, and the answers.
 *
 *   mrc_ev_probe -d DEV [-p PORT] [-e EV | -u CONTAINER] [-t MS] [-q DSCP] ADDR...
 *
 * One probe to each ADDR (IPv6, or IPv4 as a v4-mapped GID) out of PORT
 * (1-based; port N is mrc's plane N - 1) with the 32-bit EV (UDP source
 * port EV[31:16], flow label EV[15:0]; default 0xc0000001 + its index),
 * or, with -u, on the SRv6 path of the peer's path set (mrcctl path) whose
 * uSID container is CONTAINER (an SRV6 EV).
 * One line an answer, in the order they came:
 *   probe <req_id> peer <addr> port <arrival port> rtt <ns> ns
 * then one "probe <req_id> peer <addr> timeout" line a probe not answered.
 *
 * The controller API is for the node's controller: CAP_NET_ADMIN.
 * Exit status: 0 all answered, 1 an error, 2 usage, 3 some not answered.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <mrc.h>
#include <mrc_ctl.h>

#define PROG		"mrc_ev_probe"
#define MAX_PEERS	64

enum {
	EXIT_DONE = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_TIMEOUT = 3,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s -d DEV [-p PORT] [-e EV | -u CONTAINER] [-t MS] [-q DSCP] ADDR...\n"
		"\n"
		"Send one EV probe to each ADDR and print the round trips.\n"
		"\n"
		"  -d, --ib-dev=DEV     RDMA device (an mrc device; required)\n"
		"  -p, --port=PORT      port to send on, 1-based (1)\n"
		"  -e, --ev=EV          32-bit EV, decimal or 0x hex (0xc0000001 + i)\n"
		"  -u, --usid=CONTAINER the SRv6 path with this uSID container (SRV6 EV)\n"
		"  -t, --timeout=MS     how long to wait for the answers (1000)\n"
		"  -q, --dscp=DSCP      the probes' DSCP (0)\n"
		"  -h, --help\n", PROG);
}

static bool parse_num(const char *what, const char *s, unsigned long max,
		      unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *v > max) {
		fprintf(stderr, "%s: invalid %s \"%s\"\n", PROG, what, s);
		return false;
	}
	return true;
}

/* ADDR as a GID: IPv6, or IPv4 mapped */
static bool parse_gid(const char *s, union ibv_gid *gid)
{
	struct in_addr v4;

	memset(gid, 0, sizeof(*gid));
	if (inet_pton(AF_INET6, s, gid->raw) == 1)
		return true;
	if (inet_pton(AF_INET, s, &v4) != 1)
		return false;
	gid->raw[10] = gid->raw[11] = 0xff;
	memcpy(&gid->raw[12], &v4, sizeof(v4));
	return true;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "ib-dev",	required_argument, NULL, 'd' },
		{ "port",	required_argument, NULL, 'p' },
		{ "ev",		required_argument, NULL, 'e' },
		{ "usid",	required_argument, NULL, 'u' },
		{ "timeout",	required_argument, NULL, 't' },
		{ "dscp",	required_argument, NULL, 'q' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long port = 1, ev = 0, ms = 1000, dscp = 0;
	struct mrc_ctl_ep_req req[MAX_PEERS];
	struct mrc_ctl_ep_rsp rsp[MAX_PEERS];
	struct mrc_context_attr ca = {
		.mrc_api_version_used = MRC_API_CURRENT_VERSION,
	};
	struct mrc_ctl_device_attr attr = { 0 };
	struct ibv_device **devs = NULL;
	struct mrc_context *mctx = NULL;
	struct ibv_context *ibv = NULL;
	const char *devname = NULL;
	bool have_ev = false, have_usid = false, answered;
	struct in6_addr usid;
	int c, i, j, n, nrsp = 0, rc = EXIT_RUNTIME, r, err;
	uint32_t v;

	while ((c = getopt_long(argc, argv, "d:p:e:u:t:q:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			devname = optarg;
			break;
		case 'p':
			if (!parse_num("--port", optarg, 16, &port) || !port)
				return EXIT_USAGE;
			break;
		case 'e':
			if (!parse_num("--ev", optarg, UINT32_MAX, &ev))
				return EXIT_USAGE;
			have_ev = true;
			break;
		case 'u':
			if (inet_pton(AF_INET6, optarg, &usid) != 1) {
				fprintf(stderr, "%s: invalid container \"%s\"\n",
					PROG, optarg);
				return EXIT_USAGE;
			}
			have_usid = true;
			break;
		case 't':
			if (!parse_num("--timeout", optarg, 4000, &ms) || !ms)
				return EXIT_USAGE;
			break;
		case 'q':
			if (!parse_num("--dscp", optarg, 63, &dscp))
				return EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return EXIT_DONE;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	n = argc - optind;
	if (!devname || n < 1 || n > MAX_PEERS || (have_ev && have_usid)) {
		usage(stderr);
		return EXIT_USAGE;
	}
	memset(req, 0, sizeof(req));
	for (i = 0; i < n; i++) {
		if (!parse_gid(argv[optind + i], &req[i].dgid)) {
			fprintf(stderr, "%s: invalid address \"%s\"\n", PROG,
				argv[optind + i]);
			return EXIT_USAGE;
		}
		req[i].req_id = i + 1;
		req[i].req_ev.port = port;
		if (have_usid) {
			req[i].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_SRV6;
			memcpy(req[i].req_ev.val, &usid, sizeof(usid));
			continue;
		}
		req[i].ev_fmt_mode = MRC_CTL_EV_FMT_MODE_STEV;
		/* mrc's EVs are 32 bits, big endian in val, as EV events give them */
		v = have_ev ? ev : 0xc0000001u + i;
		req[i].req_ev.val[0] = v >> 24;
		req[i].req_ev.val[1] = v >> 16;
		req[i].req_ev.val[2] = v >> 8;
		req[i].req_ev.val[3] = v;
	}

	devs = ibv_get_device_list(NULL);
	for (i = 0; devs && devs[i]; i++)
		if (!strcmp(ibv_get_device_name(devs[i]), devname))
			break;
	if (!devs || !devs[i]) {
		fprintf(stderr, "%s: no RDMA device %s\n", PROG, devname);
		goto out;
	}
	ibv = ibv_open_device(devs[i]);
	if (!ibv) {
		fprintf(stderr, "%s: ibv_open_device: %s\n", PROG, strerror(errno));
		goto out;
	}
	if (mrc_ctl_query_device(ibv, &attr)) {
		fprintf(stderr, "%s: mrc_ctl_query_device: %s (not an mrc device?)\n",
			PROG, strerror(errno));
		goto out;
	}
	if (!(attr.opt_attr & MRC_CTL_OPT_CAP_EP_OP_EV_PROBE)) {
		fprintf(stderr, "%s: %s does not do EV probes\n", PROG, devname);
		goto out;
	}
	mctx = mrc_create_context(ibv, &ca);
	if (!mctx) {
		fprintf(stderr, "%s: mrc_create_context: %s\n", PROG, strerror(errno));
		goto out;
	}

	r = mrc_ctl_ep_batch_send_wait(mctx, dscp, MRC_CTL_EP_OP_EV_PROBE, req,
				       n, ms * 1000000, rsp, &nrsp);
	err = errno;
	if (r && err != ETIMEDOUT) {
		fprintf(stderr, "%s: mrc_ctl_ep_batch_send_wait: %s\n", PROG,
			strerror(err));
		goto out;
	}
	for (i = 0; i < nrsp; i++)
		printf("probe %u peer %s port %u rtt %u ns\n", rsp[i].req_id,
		       argv[optind + rsp[i].req_id - 1], rsp[i].port, rsp[i].rtt);
	for (i = 0; i < n; i++) {
		answered = false;
		for (j = 0; j < nrsp; j++)
			answered |= rsp[j].req_id == req[i].req_id;
		if (!answered)
			printf("probe %u peer %s timeout\n", req[i].req_id,
			       argv[optind + i]);
	}
	rc = r ? EXIT_TIMEOUT : EXIT_DONE;
out:
	if (mctx)
		mrc_destroy_context(mctx);
	if (ibv)
		ibv_close_device(ibv);
	if (devs)
		ibv_free_device_list(devs);
	return rc;
}
