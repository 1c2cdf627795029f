/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * mrc_api_test: every call of the OCP MRC API (mrc.h and mrc_ctl.h) as
 * libmrc implements it on mrc, used as meant and misused, with the exact
 * results and errors each one gives.
 *
 *   mrc_api_test -d MRCDEV [-r OTHERDEV] [-g GIDIDX] [-t SECS]
 *
 * MRCDEV is an mrc device (rdma link add NAME type mrc netdev IFACE);
 * OTHERDEV, if given, an RDMA device of another kind (rxe) for the
 * "not an MRC device" checks; GIDIDX the RoCE v2 GID of MRCDEV's port 1
 * that its traffic uses (default: the first RoCE v2 GID of an IPv4
 * address). Two QPs of MRCDEV talk to each other (mrc's loopback).
 *
 * Runs as root with CAP_NET_ADMIN: the controller checks fork children
 * that claim the controller, or drop CAP_NET_ADMIN, so that this
 * process's context is left as it was.
 *
 * Output is KTAP-like: "ok N - what" or "not ok N - what" a check (with
 * "# " lines saying what was wrong before a failed one), then
 * "# mrc_api_test: P passed, F failed". Exit status 0 if F is 0, 1 if a
 * check failed, 2 on a usage error.
 *
 * Calls that return -1 with errno: the queries, contexts, channels' fd,
 * hints, mrc_get_qpn, mrc_poll_cq, mrc_get_cq_event, mrc_get_async_event
 * and the controller API. Calls that return the errno itself, like their
 * verbs: mrc_destroy_comp_channel, mrc_destroy_cq, mrc_destroy_qp,
 * mrc_modify_qp, mrc_query_qp, mrc_post_send, mrc_post_recv,
 * mrc_req_notify_cq. mrc_ctl_poll_ev_event returns a negative errno.
 *
 * The files, one concern each:
 *   api.h      what they share: struct env, the T_* checks, GUARDED,
 *              the constants and the helpers' declarations
 *   util.c     the harness (report, diag, begin, the guard, the
 *              watchdog, the counters) and the helpers (qp_new, qp_init,
 *              qp_rtr, qp_rts, qp_connect, cq_wait, gid_find, ...)
 *   objects.c  1-6: versions, device queries, contexts, channels and
 *              CQs, hints, QP creation
 *   traffic.c  7, 8, 12: the loopback pair of QPs, its traffic, misuse
 *              and teardown; 9: async events
 *   ctl.c      10: the controller; the CC profiles
 *   ev.c       the EV profiles in AUTO mode
 *   ev_fmt.c   the EV format profiles
 *   ev_exp.c   the EV profiles in EXP and GEN modes, on formats
 *   port.c     the ports' admin state (port 2 with a second plane)
 *   procs.c    11: other controllers, in forked children
 *   probe.c    13: endpoint operations (EV probes to the device's own
 *              address, to nobody, misuse), before 11, which ends the
 *              controller's context
 *   main.c     the arguments, the setup and the order the sections run in
 */
#ifndef MRC_API_TEST_H
#define MRC_API_TEST_H

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include <infiniband/verbs.h>
#include <mrc.h>
#include <mrc_ctl.h>

#define PROG		"mrc_api_test"
#define WATCHDOG_S	600	/* the whole run (-t); a hang is a failure */
#define WAIT_MS		30000	/* for a completion or an event */
#define QUIET_MS	200	/* nothing more should come in this long */

/* the loopback traffic: NCHUNK WRITEs, a WRITE_WITH_IMM, then spare room */
#define CHUNK		(64 * 1024)
#define NCHUNK		16
#define IMM_LEN		4096
#define TAIL		(NCHUNK * CHUNK + IMM_LEN)
#define BUF_LEN		(TAIL + 4096)
#define IMM_VALUE	0x4d524321u
#define INLINE_LEN	64

/* a QP's asks, what the device grants being at least these */
#define SQ_WR		64
#define RQ_WR		16
#define CQE		64


/* a guarded call is interrupted after this many seconds (see util.c) */
#define GUARD_S		10

/* ---- the harness (util.c) ------------------------------------------------- */

extern int t_num, t_pass, t_fail;	/* checks run, passed, failed */
extern const char *section;		/* the one running, for the watchdog */
extern int watchdog_s;			/* -t */

void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool report(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void begin(const char *name);
void guard_init(void);
void guard_set(int secs);
void guard_note(const char *call);
void on_alarm(int sig);

/* @expr, guarded; errno as it left it */
#define GUARDED(expr)							\
	({								\
		__typeof__(expr) v_;					\
		guard_set(GUARD_S);					\
		v_ = (expr);						\
		guard_set(0);						\
		v_;							\
	})

/* @cond holds */
#define T_TRUE(cond, ...)						\
	({								\
		bool ok_ = GUARDED(cond);				\
		guard_note("a call");					\
		if (!ok_)						\
			diag("false: %s", #cond);			\
		report(ok_, __VA_ARGS__);				\
	})

/* @call returns @want (0, or the errno itself for verbs-like calls) */
#define T_RC(call, want, ...)						\
	({								\
		long r_, w_ = (want);					\
		int e_;							\
		errno = 0;						\
		r_ = (long)GUARDED(call);				\
		e_ = errno;						\
		guard_note(#call);					\
		if (r_ != w_)						\
			diag("%s returned %ld (errno %d %s), expected %ld", \
			     #call, r_, e_, strerror(e_), w_);		\
		report(r_ == w_, __VA_ARGS__);				\
	})

/* @call returns -1 with errno @eno */
#define T_ERRNO(call, eno, ...)						\
	({								\
		long r_;						\
		int e_, w_ = (eno);					\
		errno = 0;						\
		r_ = (long)GUARDED(call);				\
		e_ = errno;						\
		guard_note(#call);					\
		if (r_ != -1 || e_ != w_)				\
			diag("%s returned %ld, errno %d (%s), expected -1, errno %d (%s)", \
			     #call, r_, e_, strerror(e_), w_, strerror(w_)); \
		report(r_ == -1 && e_ == w_, __VA_ARGS__);		\
	})

/* @call returns NULL with errno @eno */
#define T_NULL(call, eno, ...)						\
	({								\
		void *p_;						\
		int e_, w_ = (eno);					\
		errno = 0;						\
		p_ = (void *)GUARDED(call);				\
		e_ = errno;						\
		guard_note(#call);					\
		if (p_ || e_ != w_)					\
			diag("%s returned %p, errno %d (%s), expected NULL, errno %d (%s)", \
			     #call, p_, e_, strerror(e_), w_, strerror(w_)); \
		report(!p_ && e_ == w_, __VA_ARGS__);			\
	})

/* @var = @call, not NULL */
#define T_PTR(var, call, ...)						\
	({								\
		int e_;							\
		errno = 0;						\
		(var) = GUARDED(call);					\
		e_ = errno;						\
		guard_note(#call);					\
		if (!(var))						\
			diag("%s returned NULL, errno %d (%s)", #call,	\
			     e_, strerror(e_));				\
		report((var) != NULL, __VA_ARGS__);			\
	})

/* ---- helpers (util.c) ----------------------------------------------------- */

struct env {
	const char *mrc_name, *other_name;
	int gid_idx;			/* -1: look one up */
	struct ibv_device **devs;
	struct ibv_device *mdev, *odev;
	struct ibv_context *vctx, *octx;
	struct ibv_pd *pd;
	union ibv_gid gid;
	bool have_gid;
	struct mrc_context *ctx;	/* the main one, and the controller */
	uint32_t phy_port_mask;
};

double now_ms(void);
void sleep_ms(int ms);
int set_nonblock(int fd);
/* @fd readable within @ms */
bool fd_wait(int fd, int ms);
/* up to @n completions of @cq within @ms: how many, or -1 if a poll failed */
int cq_wait(struct mrc_cq *cq, struct ibv_wc *wc, int n, int ms);
/* a QP of @ctx for the loopback: SQ_WR, RQ_WR, INLINE_LEN, WRITEs */
struct mrc_qp *qp_new(struct env *e, struct mrc_context *ctx,
		      struct mrc_cq *scq, struct mrc_cq *rcq, void *qpc);
/* the transitions with MRC attributes, each returning like ibv_modify_qp */
int qp_init(struct mrc_qp *qp, struct mrc_qp_hint *hint);
int qp_rtr(struct env *e, struct mrc_qp *qp, uint32_t dqpn);
int qp_rts(struct mrc_qp *qp);
int qp_connect(struct env *e, struct mrc_qp *qp, uint32_t dqpn,
	       struct mrc_qp_hint *hint);
enum ibv_qp_state qp_state(struct mrc_qp *qp);
uint32_t qpn_of(struct mrc_qp *qp);
/* the RoCE v2 GID of an IPv4 address on port 1, or the one of -g */
bool gid_find(struct env *e);
/* the device's ev_free_count, 0 if the query failed (ev.c) */
uint32_t ev_free(struct env *e);
/* format @id: state @st, mode @mode, @n widths @w, as @mask says (ev_fmt.c) */
int fmt_set(struct env *e, uint64_t id, enum mrc_ctl_profile_state st,
	    uint32_t mode, const uint8_t *w, int n, int mask);

/* ---- the sections, in the order main runs them ---------------------------- */

void t_versions(void);			/* objects.c */
void t_device(struct env *e);
void t_context(struct env *e);
void t_channels(struct env *e);
void t_hints(struct env *e);
void t_qp_create(struct env *e);
void t_traffic(struct env *e);		/* traffic.c */
void t_async(struct env *e);
void t_ctl(struct env *e);		/* ctl.c */
void t_ports(struct env *e);		/* port.c */
void t_cc_profiles(struct env *e);
void t_ev_profiles(struct env *e);		/* ev.c */
void t_ev_fmt_profiles(struct env *e);	/* ev_fmt.c */
void t_ev_exp_profiles(struct env *e);	/* ev_exp.c */
void t_ep_probes(struct env *e);	/* probe.c */
void t_controllers(struct env *e);	/* procs.c (the last: ends e->ctx) */

#endif /* MRC_API_TEST_H */
