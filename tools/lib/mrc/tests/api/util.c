// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test's harness: reporting, the guard and the watchdog, the helpers */
#include "api.h"

int t_num, t_pass, t_fail;
const char *section = "start";
int watchdog_s = WATCHDOG_S;

/* ---- reporting ------------------------------------------------------------ */

void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

bool report(bool ok, const char *fmt, ...)
{
	va_list ap;

	t_num++;
	if (ok)
		t_pass++;
	else
		t_fail++;
	printf("%sok %d - ", ok ? "" : "not ", t_num);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	return ok;
}

void begin(const char *name)
{
	section = name;
	diag("%s", name);
}

/*
 * A call that blocks for good (a reply that never comes) is interrupted by
 * a signal after GUARD_S seconds (api.h), so that it fails its check and
 * the run goes on: it returns what the library makes of EINTR.
 */
static timer_t guard_timer;
static bool guard_ok;
static volatile sig_atomic_t guard_fired;

static void on_guard(int sig)
{
	(void)sig;
	guard_fired = 1;
}

void guard_init(void)
{
	struct sigaction sa = { .sa_handler = on_guard };	/* no SA_RESTART */
	struct sigevent sev = {
		.sigev_notify = SIGEV_SIGNAL,
		.sigev_signo = SIGUSR2,
	};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	guard_ok = !timer_create(CLOCK_MONOTONIC, &sev, &guard_timer);
}

void guard_set(int secs)
{
	struct itimerspec its = { .it_value = { .tv_sec = secs } };
	int err = errno;

	if (secs)
		guard_fired = 0;
	if (guard_ok)
		timer_settime(guard_timer, 0, &its, NULL);
	errno = err;
}

void guard_note(const char *call)
{
	if (guard_fired)
		diag("%s blocked for %d s: interrupted", call, GUARD_S);
	guard_fired = 0;
}

/* -t's watchdog: the run not done in watchdog_s seconds is one failure */
void on_alarm(int sig)
{
	char buf[256];
	int n;

	(void)sig;
	n = snprintf(buf, sizeof(buf),
		     "not ok %d - watchdog: not done in %d s (in %s)\n"
		     "# " PROG ": %d passed, %d failed\n",
		     t_num + 1, watchdog_s, section, t_pass, t_fail + 1);
	if (n > 0)
		(void)!write(STDOUT_FILENO, buf, (size_t)n);
	_exit(1);
}

/* ---- helpers -------------------------------------------------------------- */

double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* @fd readable within @ms */
bool fd_wait(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* up to @n completions of @cq within @ms: how many, or -1 if a poll failed */
int cq_wait(struct mrc_cq *cq, struct ibv_wc *wc, int n, int ms)
{
	double end = now_ms() + ms;
	int got = 0, r;

	while (got < n) {
		r = mrc_poll_cq(cq, n - got, wc + got);
		if (r < 0) {
			diag("mrc_poll_cq: %d (%s)", r, strerror(errno));
			return -1;
		}
		got += r;
		if (got < n) {
			if (now_ms() > end)
				break;
			sleep_ms(1);
		}
	}
	return got;
}

struct mrc_qp *qp_new(struct env *e, struct mrc_context *ctx,
		      struct mrc_cq *scq, struct mrc_cq *rcq, void *qpc)
{
	struct mrc_qp_init_attr ia = {
		.qp_context = qpc,
		.send_cq = scq,
		.recv_cq = rcq,
		.cap = {
			.max_send_wr = SQ_WR,
			.max_recv_wr = RQ_WR,
			.max_send_sge = 1,
			.max_recv_sge = 1,
			.max_inline_data = INLINE_LEN,
		},
		.pd = e->pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM,
		.protocol_version = MRC_PROTOCOL_VERSION_1,
	};

	return mrc_create_qp(ctx, &ia);
}

/* the transitions with MRC attributes, each returning like ibv_modify_qp */
int qp_init(struct mrc_qp *qp, struct mrc_qp_hint *hint)
{
	struct ibv_qp_attr va = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct mrc_qp_attr ma = { .qp_hint = hint };

	return mrc_modify_qp(qp, &va, IBV_QP_STATE | IBV_QP_PORT, &ma,
			     MRC_QP_HINT | MRC_QP_EV_PROFILE_ID |
			     MRC_QP_CC_PROFILE_ID);
}

int qp_rtr(struct env *e, struct mrc_qp *qp, uint32_t dqpn)
{
	struct ibv_qp_attr va = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = IBV_MTU_1024,
		.dest_qp_num = dqpn,
		.rq_psn = 0,
		.ah_attr = {
			.is_global = 1,
			.grh = {
				.dgid = e->gid,
				.sgid_index = (uint8_t)e->gid_idx,
				.hop_limit = 64,
			},
			.port_num = 1,
		},
	};
	struct mrc_qp_attr ma = {
		.mpr.mpr_dest = 8,
		.wimm.max_wimm_dest = 0,
		.cap = MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED,
	};

	return mrc_modify_qp(qp, &va, IBV_QP_STATE | IBV_QP_AV |
			     IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN,
			     &ma, MRC_QP_MPR_DEST | MRC_QP_MAX_WIMM_DEST |
			     MRC_QP_CAP);
}

int qp_rts(struct mrc_qp *qp)
{
	struct ibv_qp_attr va = { .qp_state = IBV_QPS_RTS, .sq_psn = 0 };
	struct mrc_qp_attr ma = {
		.timeout = 20,
		.retry = { .linear_cnt = 7, .exp_cnt = 0 },
		.mpr.mpr = 8,
	};

	return mrc_modify_qp(qp, &va, IBV_QP_STATE | IBV_QP_SQ_PSN, &ma,
			     MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT | MRC_QP_MPR);
}

int qp_connect(struct env *e, struct mrc_qp *qp, uint32_t dqpn,
	       struct mrc_qp_hint *hint)
{
	int rc = qp_init(qp, hint);

	if (!rc)
		rc = qp_rtr(e, qp, dqpn);
	if (!rc)
		rc = qp_rts(qp);
	return rc;
}

enum ibv_qp_state qp_state(struct mrc_qp *qp)
{
	struct ibv_qp_attr va = {};

	if (mrc_query_qp(qp, &va, IBV_QP_STATE, NULL, 0, NULL))
		return (enum ibv_qp_state)-1;
	return va.qp_state;
}

uint32_t qpn_of(struct mrc_qp *qp)
{
	uint32_t n = 0;

	mrc_get_qpn(qp, &n);
	return n;
}

/* the RoCE v2 GID of an IPv4 address on port 1, or the one of -g */
bool gid_find(struct env *e)
{
	struct ibv_gid_entry ents[256];
	static const uint8_t v4map[12] = { [10] = 0xff, [11] = 0xff };
	ssize_t n, i;
	char s[INET6_ADDRSTRLEN];

	if (e->gid_idx >= 0) {
		if (ibv_query_gid(e->vctx, 1, e->gid_idx, &e->gid))
			return false;
	} else {
		n = ibv_query_gid_table(e->vctx, ents, 256, 0);
		for (i = 0; i < n; i++) {
			if (ents[i].port_num != 1 ||
			    ents[i].gid_type != IBV_GID_TYPE_ROCE_V2 ||
			    memcmp(ents[i].gid.raw, v4map, sizeof(v4map)))
				continue;
			e->gid_idx = (int)ents[i].gid_index;
			e->gid = ents[i].gid;
			break;
		}
		if (e->gid_idx < 0)
			return false;
	}
	inet_ntop(AF_INET6, e->gid.raw, s, sizeof(s));
	diag("GID index %d of %s port 1: %s", e->gid_idx, e->mrc_name, s);
	return true;
}
