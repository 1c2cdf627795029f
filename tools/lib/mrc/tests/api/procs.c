// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test, section 11: other controllers, in forked child processes */
#include "api.h"

/* ---- 11. other controllers, in child processes -------------------------------- */

/*
 * A child's checks: each fails one bit of its exit status; a child that
 * cannot even start says so with CHILD_SETUP
 */
#define CHILD_SETUP	0x80

#define C_CHECK(bit, cond, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			fails |= 1u << (bit);				\
			diag("child: " fmt, ##__VA_ARGS__);		\
		}							\
	} while (0)

static struct mrc_context *child_context(struct env *e,
					  struct ibv_context **vcp)
{
	struct ibv_context *vc = ibv_open_device(e->mdev);
	struct mrc_context *c;

	*vcp = vc;
	if (!vc) {
		diag("child: ibv_open_device: %s", strerror(errno));
		return NULL;
	}
	c = mrc_create_context(vc, NULL);
	if (!c)
		diag("child: mrc_create_context: %s", strerror(errno));
	return c;
}

/* the parent's context is the controller: EBUSY for this one */
static unsigned int child_busy(struct env *e)
{
	struct mrc_ctl_port_attr pa;
	struct mrc_ctl_cc_profile_attr cca = {};
	struct mrc_ctl_device_attr da;
	struct ibv_context *vc;
	struct mrc_context *c = child_context(e, &vc);
	unsigned int fails = 0;
	int r, err;

	if (!c)
		return CHILD_SETUP;
	errno = 0;
	r = GUARDED(mrc_ctl_query_port(c, 1, &pa, MRC_CTL_PORT_ADMIN_STATE));
	err = errno;
	C_CHECK(0, r == -1 && err == EBUSY, "query_port %d %s", r, strerror(err));
	errno = 0;
	C_CHECK(1, !mrc_ctl_create_ev_event_cq(c, 16, NULL, NULL, 0) &&
		errno == EBUSY, "create_ev_event_cq %s", strerror(errno));
	errno = 0;
	r = GUARDED(mrc_ctl_query_cc_profile(c, 0, &cca,
					     MRC_CTL_CC_PROFILE_CUR_STATE));
	err = errno;
	C_CHECK(2, r == -1 && err == EBUSY, "query_cc_profile %d %s", r,
		strerror(err));
	C_CHECK(3, !GUARDED(mrc_ctl_query_device(vc, &da)) &&
		(da.phy_port_mask & 2), "ctl_query_device %s", strerror(errno));
	C_CHECK(4, !mrc_destroy_context(c), "destroy_context %s", strerror(errno));
	return fails;
}

static const char *const busy_checks[] = {
	"second controller: mrc_ctl_query_port: EBUSY",
	"second controller: mrc_ctl_create_ev_event_cq: EBUSY",
	"second controller: a profile call: EBUSY",
	"second controller: mrc_ctl_query_device still works (no claim)",
	"second controller: mrc_destroy_context",
};

/* without CAP_NET_ADMIN: EPERM for what a controller does */
static unsigned int child_unprivileged(struct env *e)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = {};
	struct mrc_ctl_ep_req req = {};
	struct mrc_ctl_ep_rsp rsp;
	struct mrc_ctl_port_attr pa;
	struct ibv_context *vc;
	struct mrc_context *c;
	struct mrc_cq *cq;
	unsigned int fails = 0;
	int r, err, nrsp;

	if (syscall(SYS_capget, &h, d))
		return CHILD_SETUP;
	d[CAP_NET_ADMIN / 32].effective &= ~(1u << (CAP_NET_ADMIN % 32));
	if (syscall(SYS_capset, &h, d)) {
		diag("child: capset: %s", strerror(errno));
		return CHILD_SETUP;
	}
	c = child_context(e, &vc);
	if (!c)
		return CHILD_SETUP;
	errno = 0;
	r = GUARDED(mrc_ctl_query_port(c, 1, &pa, MRC_CTL_PORT_ADMIN_STATE));
	err = errno;
	C_CHECK(0, r == -1 && err == EPERM, "query_port %d %s", r, strerror(err));
	errno = 0;
	C_CHECK(1, !mrc_ctl_create_ev_event_cq(c, 16, NULL, NULL, 0) &&
		errno == EPERM, "create_ev_event_cq %s", strerror(errno));
	errno = 0;
	pa.port_admin_state = MRC_CTL_PORT_ADMIN_ENABLED;
	r = GUARDED(mrc_ctl_modify_port(c, 1, &pa, MRC_CTL_PORT_ADMIN_STATE));
	err = errno;
	C_CHECK(2, r == -1 && err == EPERM, "modify_port %d %s", r, strerror(err));
	errno = 0;
	r = GUARDED(mrc_ctl_ep_batch_send_wait(c, 0, MRC_CTL_EP_OP_EV_PROBE,
					       &req, 1, 1000, &rsp, &nrsp));
	err = errno;
	C_CHECK(3, r == -1 && err == EPERM, "ep_batch_send_wait %d %s", r,
		strerror(err));
	cq = mrc_create_cq(c, 16, NULL, NULL, 0);
	C_CHECK(4, cq && !mrc_destroy_cq(cq), "create_cq %s", strerror(errno));
	C_CHECK(5, !mrc_destroy_context(c), "destroy_context %s", strerror(errno));
	return fails;
}

static const char *const unpriv_checks[] = {
	"without CAP_NET_ADMIN: mrc_ctl_query_port: EPERM",
	"without CAP_NET_ADMIN: mrc_ctl_create_ev_event_cq: EPERM",
	"without CAP_NET_ADMIN: mrc_ctl_modify_port: EPERM",
	"without CAP_NET_ADMIN: mrc_ctl_ep_batch_send_wait: EPERM",
	"without CAP_NET_ADMIN: a CQ (no privilege needed)",
	"without CAP_NET_ADMIN: mrc_destroy_context",
};

/* the parent's controller gone: this one can claim */
static unsigned int child_claims(struct env *e)
{
	struct mrc_ctl_port_attr pa = { MRC_CTL_PORT_ADMIN_DISABLED };
	struct ibv_context *vc;
	struct mrc_context *c = child_context(e, &vc);
	struct mrc_cq *cq;
	unsigned int fails = 0;

	if (!c)
		return CHILD_SETUP;
	C_CHECK(0, !GUARDED(mrc_ctl_query_port(c, 1, &pa,
					       MRC_CTL_PORT_ADMIN_STATE)) &&
		pa.port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED,
		"query_port %s", strerror(errno));
	cq = GUARDED(mrc_ctl_create_ev_event_cq(c, 16, NULL, NULL, 0));
	C_CHECK(1, cq && !mrc_destroy_cq(cq), "create_ev_event_cq %s",
		strerror(errno));
	C_CHECK(2, !mrc_destroy_context(c), "destroy_context %s", strerror(errno));
	return fails;
}

static const char *const claim_checks[] = {
	"new controller after the old one's context is gone: mrc_ctl_query_port: ENABLED",
	"new controller: mrc_ctl_create_ev_event_cq",
	"new controller: mrc_destroy_context",
};

static void run_child(struct env *e, unsigned int (*fn)(struct env *),
		      const char *const *names, int n)
{
	int status = 0, i;
	unsigned int fails;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		alarm(120);
		guard_init();
		fails = fn(e);
		fflush(stdout);
		_exit((int)fails);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		diag("fork/waitpid: %s", strerror(errno));
		status = -1;
	} else if (!WIFEXITED(status)) {
		diag("the child ended by signal %d", WIFSIGNALED(status) ?
		     WTERMSIG(status) : 0);
	} else if (WEXITSTATUS(status) & CHILD_SETUP) {
		diag("the child could not set up");
	}
	fails = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : ~0u;
	if (fails & CHILD_SETUP)
		fails = ~0u;
	for (i = 0; i < n; i++)
		report(!(fails & (1u << i)), "%s", names[i]);
}

void t_controllers(struct env *e)
{
	struct mrc_ctl_port_attr pa;

	begin("controllers of other processes");
	T_RC(mrc_ctl_query_port(e->ctx, 1, &pa, MRC_CTL_PORT_ADMIN_STATE), 0,
	     "this process's context is the controller");
	run_child(e, child_busy, busy_checks,
		  sizeof(busy_checks) / sizeof(busy_checks[0]));
	run_child(e, child_unprivileged, unpriv_checks,
		  sizeof(unpriv_checks) / sizeof(unpriv_checks[0]));
	T_RC(mrc_ctl_query_port(e->ctx, 1, &pa, MRC_CTL_PORT_ADMIN_STATE), 0,
	     "this process's context is still the controller");
	if (!T_RC(mrc_destroy_context(e->ctx), 0,
		  "mrc_destroy_context of the controller's context"))
		return;
	e->ctx = NULL;
	run_child(e, child_claims, claim_checks,
		  sizeof(claim_checks) / sizeof(claim_checks[0]));
}
