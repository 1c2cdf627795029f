// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * mrc_ev_events: print the EV state changes of an MRC device as they come,
 * through the OCP MRC controller API (mrc_ctl.h): an EV event CQ, waited on
 * through a completion channel, or polled with -P.
 *
 *   mrc_ev_events -d DEV [-c COUNT] [-t SECONDS] [-P] [-D]
 *
 * One line an event:
 *   profile 0x<id> port <n> ev 0x<first 4 bytes, big-endian> state <s> drop_count <n>
 * and "ready" on its own line first, once the CQ exists, so that a script
 * knows when to start the traffic whose events it wants. With -D, an EV
 * of a profile that goes ASSUMED_BAD is denied for good (MODIFY_EV_STATE)
 * and its state read back (QUERY_EV_STATE):
 *   denied profile 0x<id> port <n> ev 0x<...> state <s>
 *
 * The controller API is for the node's controller: CAP_NET_ADMIN.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>
#include <mrc.h>
#include <mrc_ctl.h>

#define PROG		"mrc_ev_events"
#define EV_CQE		128
#define POLL_BATCH	4
#define POLL_SLEEP_MS	10	/* -P: the pause when the CQ is empty */

enum {
	EXIT_DONE = 0,		/* COUNT events, or interrupted without -c */
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_TIMEOUT = 3,	/* -t passed, or interrupted, before COUNT */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s -d DEV [-c COUNT] [-t SECONDS] [-P] [-D]\n"
		"\n"
		"Print the EV state change events of MRC device DEV, one line each.\n"
		"\n"
		"  -d, --ib-dev=DEV      RDMA device (an mrc device; required)\n"
		"  -c, --count=COUNT     stop after COUNT events (default: never)\n"
		"  -t, --timeout=SECONDS stop after SECONDS (default: never)\n"
		"  -P, --poll            poll the CQ every %d ms rather than wait on\n"
		"                        a completion channel\n"
		"  -D, --deny            deny each EV of a profile that goes\n"
		"                        ASSUMED_BAD, and print its state then\n"
		"  -h, --help            this text\n"
		"\n"
		"Exit status: 0 COUNT events seen (or, without -c, interrupted),\n"
		"1 failure, 2 usage error, 3 timeout (or interrupted) before COUNT.\n",
		PROG, POLL_SLEEP_MS);
}

static bool parse_num(const char *opt, const char *s, unsigned long long hi,
		      unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (*s == '-' || !*s || *end || errno || *out < 1 || *out > hi) {
		fprintf(stderr, "%s: %s: '%s' is not a number in 1..%llu\n",
			PROG, opt, s, hi);
		return false;
	}
	return true;
}

/* the calls that return an errno rather than -1 with errno */
static const char *rc_str(int rc)
{
	return strerror(rc > 0 ? rc : errno);
}

static const char *perm_hint(int err)
{
	return err == EPERM || err == EACCES ?
	       " (the controller API needs CAP_NET_ADMIN)" : "";
}

static const char *state_str(uint32_t state)
{
	switch (state) {
	case MRC_CTL_EV_GOOD:
		return "GOOD";
	case MRC_CTL_EV_ASSUMED_BAD:
		return "ASSUMED_BAD";
	case MRC_CTL_EV_DENIED:
		return "DENIED";
	default:
		return "UNKNOWN";
	}
}

/*
 * An EV in hex, most significant byte first, without its zero bytes at
 * the end but four at least (an AUTO or STEV EV is 32 bits; an SRv6 one
 * up to 32 bytes)
 */
static void ev_hex(const struct mrc_ctl_ev *ev, char *out)
{
	int n = MRC_CTL_EV_MAX_BYTES, i;

	while (n > 4 && !ev->val[n - 1])
		n--;
	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", ev->val[i]);
}

static void print_event(const struct mrc_ctl_ev_event *e)
{
	char ev[2 * MRC_CTL_EV_MAX_BYTES + 1];

#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
	uint32_t state = e->state;
#else
	uint32_t state = MRC_CTL_EV_UNKNOWN;	/* 1.0.0 events have none */
#endif

	ev_hex(&e->ev, ev);
	printf("profile 0x%llx port %u ev 0x%s state %s drop_count %u\n",
	       (unsigned long long)e->profile_id, e->ev.port, ev,
	       state_str(state), e->drop_count);
}

static bool is_bad(const struct mrc_ctl_ev_event *e)
{
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
	return e->state == MRC_CTL_EV_ASSUMED_BAD;
#else
	return false;
#endif
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The controller's answer to an EV gone bad: deny it in its profile, so
 * that no QP bound to it uses it again, whatever probes say; then read
 * its state back. 0, or -1 on error.
 */
static int deny_ev(struct mrc_context *mctx, const struct mrc_ctl_ev_event *e)
{
	struct mrc_ctl_ev_op_entry ent = { .ev = e->ev, .state = MRC_CTL_EV_DENIED };
	char ev[2 * MRC_CTL_EV_MAX_BYTES + 1];
	struct mrc_ctl_ev_profile_attr a = {
		.ev_op = { .op = MRC_CTL_EV_OP_MODIFY_EV_STATE, .entries = &ent,
			   .entry_count = 1 },
	};

	if (mrc_ctl_modify_ev_profile(mctx, e->profile_id, &a,
				      MRC_CTL_EV_PROFILE_EV_OP)) {
		fprintf(stderr, "%s: mrc_ctl_modify_ev_profile (deny): %s\n",
			PROG, strerror(errno));
		return -1;
	}
	ent.state = 0;
	a.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_STATE;
	if (mrc_ctl_query_ev_profile(mctx, e->profile_id, &a,
				     MRC_CTL_EV_PROFILE_EV_OP)) {
		fprintf(stderr, "%s: mrc_ctl_query_ev_profile (state): %s\n",
			PROG, strerror(errno));
		return -1;
	}
	ev_hex(&e->ev, ev);
	printf("denied profile 0x%llx port %u ev 0x%s state %s\n",
	       (unsigned long long)e->profile_id, e->ev.port, ev,
	       state_str(ent.state));
	return 0;
}

/* every event waiting in @cq printed; -1 on error, else how many */
static long drain(struct mrc_context *mctx, struct mrc_cq *cq, bool deny,
		  unsigned long long want, unsigned long long *seen)
{
	struct mrc_ctl_ev_event ev[POLL_BATCH];
	long total = 0;
	int i, n;

	do {
		n = mrc_ctl_poll_ev_event(cq, POLL_BATCH, ev);
		if (n < 0) {
			/* this one returns the negative errno */
			fprintf(stderr, "%s: mrc_ctl_poll_ev_event: %s\n", PROG,
				strerror(-n));
			return -1;
		}
		for (i = 0; i < n && (!want || *seen < want); i++) {
			print_event(&ev[i]);
			if (deny && ev[i].profile_id && is_bad(&ev[i]) &&
			    deny_ev(mctx, &ev[i]))
				return -1;
			++*seen;
			total++;
		}
		fflush(stdout);
	} while (n == POLL_BATCH && (!want || *seen < want));
	return total;
}

/* the milliseconds left before @deadline (0: none; then -1) */
static int ms_left(double deadline)
{
	double left;

	if (!deadline)
		return -1;
	left = (deadline - now()) * 1e3;
	if (left <= 0)
		return 0;
	return left > INT_MAX ? INT_MAX : (int)left + 1;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "ib-dev",	required_argument, NULL, 'd' },
		{ "count",	required_argument, NULL, 'c' },
		{ "timeout",	required_argument, NULL, 't' },
		{ "poll",	no_argument,	   NULL, 'P' },
		{ "deny",	no_argument,	   NULL, 'D' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *devname = NULL;
	unsigned long long want = 0, secs = 0, seen = 0;
	bool use_poll = false, deny = false;
	struct ibv_device **devs = NULL;
	struct ibv_context *ibv = NULL;
	struct mrc_ctl_device_attr attr = { 0 };
	struct mrc_context_attr ca = {
		.mrc_api_version_used = MRC_API_CURRENT_VERSION,
	};
	struct mrc_context *mctx = NULL;
	struct mrc_comp_channel *ch = NULL;
	struct mrc_cq *cq = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, orig;
	double deadline = 0;
	int c, i, n = 0, fd = -1, rc = EXIT_RUNTIME, err;

	while ((c = getopt_long(argc, argv, "d:c:t:PDh", lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			devname = optarg;
			break;
		case 'c':
			if (!parse_num("--count", optarg, ULLONG_MAX, &want))
				return EXIT_USAGE;
			break;
		case 't':
			if (!parse_num("--timeout", optarg, INT_MAX / 1000, &secs))
				return EXIT_USAGE;
			break;
		case 'P':
			use_poll = true;
			break;
		case 'D':
			deny = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", PROG,
			argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!devname) {
		fprintf(stderr, "%s: no device: -d/--ib-dev DEV is required "
			"(ibv_devices lists them)\n", PROG);
		return EXIT_USAGE;
	}

	/*
	 * SIGINT and SIGTERM end the loop; blocked but in ppoll(), so that
	 * one that comes just before the wait still ends it.
	 */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);

	devs = ibv_get_device_list(&n);
	if (!devs) {
		fprintf(stderr, "%s: ibv_get_device_list: %s%s\n", PROG,
			strerror(errno), errno == ENOSYS ?
			" (no RDMA devices here: is ib_uverbs loaded?)" : "");
		goto out;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(devs[i]), devname))
			break;
	if (i == n) {
		fprintf(stderr, "%s: device '%s' not found; the RDMA devices are:%s\n",
			PROG, devname, n ? "" : " none");
		for (i = 0; i < n; i++)
			fprintf(stderr, "  %s\n", ibv_get_device_name(devs[i]));
		goto out;
	}
	ibv = ibv_open_device(devs[i]);
	if (!ibv) {
		fprintf(stderr, "%s: ibv_open_device %s: %s\n", PROG, devname,
			strerror(errno));
		goto out;
	}

	if (mrc_ctl_query_device(ibv, &attr)) {
		err = errno;
		fprintf(stderr, "%s: mrc_ctl_query_device %s: %s%s\n", PROG,
			devname, err == EOPNOTSUPP ? "not an MRC device" :
			strerror(err), perm_hint(err));
		goto out;
	}
	if (!(attr.opt_attr & MRC_CTL_OPT_CAP_EV_EVENT)) {
		fprintf(stderr, "%s: %s has no EV events "
			"(no MRC_CTL_OPT_CAP_EV_EVENT in opt_attr 0x%x)\n", PROG,
			devname, attr.opt_attr);
		goto out;
	}

	mctx = mrc_create_context(ibv, &ca);
	if (!mctx) {
		fprintf(stderr, "%s: mrc_create_context: %s\n", PROG,
			strerror(errno));
		goto out;
	}
	if (!use_poll) {
		err = mrc_create_comp_channel(mctx, &ch);
		if (!err)
			err = mrc_get_comp_channel_fd(ch, &fd);
		if (err) {
			fprintf(stderr, "%s: completion channel: %s\n", PROG,
				rc_str(err));
			goto out;
		}
	}
	cq = mrc_ctl_create_ev_event_cq(mctx, EV_CQE, NULL, ch, 0);
	if (!cq) {
		err = errno;
		fprintf(stderr, "%s: mrc_ctl_create_ev_event_cq: %s%s\n", PROG,
			strerror(err), perm_hint(err));
		goto out;
	}
	/*
	 * Armed before the first drain: an event that comes between the two
	 * is then both polled and signaled, never neither.
	 */
	if (ch) {
		err = mrc_req_notify_cq(cq, 0);
		if (err) {
			fprintf(stderr, "%s: mrc_req_notify_cq: %s\n", PROG,
				rc_str(err));
			goto out;
		}
	}
	printf("ready\n");
	fflush(stdout);

	if (secs)
		deadline = now() + secs;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct mrc_cq *ev_cq;
		struct timespec ts;
		void *cq_ctx;
		int r, wait;

		if (drain(mctx, cq, deny, want, &seen) < 0)
			goto out;
		if (want && seen >= want) {
			rc = EXIT_DONE;
			break;
		}
		if (stop) {
			rc = want ? EXIT_TIMEOUT : EXIT_DONE;
			break;
		}
		wait = ms_left(deadline);
		if (!wait) {
			fprintf(stderr, "%s: timeout after %llu s, %llu events\n",
				PROG, secs, seen);
			rc = EXIT_TIMEOUT;
			break;
		}

		/* -P: a pause, not a wait on the channel's fd */
		if (!ch && (wait < 0 || wait > POLL_SLEEP_MS))
			wait = POLL_SLEEP_MS;
		ts.tv_sec = wait / 1000;
		ts.tv_nsec = wait % 1000 * 1000000L;
		r = ppoll(ch ? &pfd : NULL, ch ? 1 : 0, wait < 0 ? NULL : &ts,
			  &orig);
		if (r < 0 && errno != EINTR) {
			fprintf(stderr, "%s: ppoll: %s\n", PROG, strerror(errno));
			goto out;
		}
		if (r <= 0)
			continue;	/* the deadline, the pause or a signal */
		if (mrc_get_cq_event(ch, &ev_cq, &cq_ctx)) {
			fprintf(stderr, "%s: mrc_get_cq_event: %s\n", PROG,
				strerror(errno));
			goto out;
		}
		/* every event acknowledged, or destroying the CQ waits */
		mrc_ack_cq_events(ev_cq, 1);
		err = mrc_req_notify_cq(cq, 0);
		if (err) {
			fprintf(stderr, "%s: mrc_req_notify_cq: %s\n", PROG,
				rc_str(err));
			goto out;
		}
	}

out:
	if (cq && (err = mrc_destroy_cq(cq)))
		fprintf(stderr, "%s: mrc_destroy_cq: %s\n", PROG, rc_str(err));
	if (ch && (err = mrc_destroy_comp_channel(ch)))
		fprintf(stderr, "%s: mrc_destroy_comp_channel: %s\n", PROG,
			rc_str(err));
	if (mctx && mrc_destroy_context(mctx))
		fprintf(stderr, "%s: mrc_destroy_context: %s\n", PROG,
			strerror(errno));
	if (ibv)
		ibv_close_device(ibv);
	if (devs)
		ibv_free_device_list(devs);
	return rc;
}
