// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * libmrc: the controller API (mrc_ctl.h) over the "mrc" generic netlink
 * family: device capabilities, ports (mrc's planes), profiles and endpoint
 * operations.
 *
 * One controller a device: the first context that makes a controller call
 * takes an advisory lock on /run/libmrc/DEV.ctl and keeps it until it is
 * destroyed; another process's context gets EBUSY. Every call that needs
 * the context wants CAP_NET_ADMIN (EPERM otherwise), as the kernel does for
 * every change.
 *
 * CC profiles live in the kernel (cc-profile-set, at most
 * MRC_MAX_CC_PROFILES a device, ids not 0), and so do EV format profiles
 * (ctl_ev_fmt.c) and EV profiles in the three modes (ctl_ev.c); the API's
 * states are the kernel's. What mrc does not have yet fails as the API
 * wants for a feature a device lacks, and mrc_ctl_query_device says so.
 * A port's admin state is its plane's (plane-set admin); port 1, plane 0,
 * stays ENABLED. Endpoint operations (EV probes) are ctl_ep.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "libmrc.h"

#define CTL_LOCK_DIR	"/run/libmrc"
/* an EXP or GEN EV's bits: a 32-byte mrc_ctl_ev_t, the kernel's ev-bytes */
#define MRC_EV_BITS	(MRC_CTL_EV_MAX_BYTES * 8)

static const char *cc_algorithms[] = { MRC_CTL_CC_ALGO_UET_NSCC, NULL };

LIBMRC_EXPORT
void mrc_ctl_query_version(uint32_t *current_version,
			   uint32_t *last_supported_version,
			   uint32_t *vendor_version,
			   uint32_t *last_supported_vendor_version)
{
	static const uint32_t v[4] = {
		MRC_CTL_API_CURRENT_VERSION, MRC_CTL_API_LAST_SUPPORTED_VERSION,
		MRC_CTL_VENDOR_API_CURRENT_VERSION,
		MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION,
	};

	mrc_versions_put(v, current_version, last_supported_version,
			 vendor_version, last_supported_vendor_version);
}

/* CAP_NET_ADMIN in the effective set */
static bool net_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = {};

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[CAP_NET_ADMIN / 32].effective & (1U << (CAP_NET_ADMIN % 32));
}

int mrc_ctl_open(struct mrc_context *ctx, struct mrcnl *nl)
{
	if (mrcnl_open(nl))
		return -1;
	fcntl(mnl_socket_get_fd(nl->sock), F_SETFD, FD_CLOEXEC);
	return 0;
}

/* this context is the device's controller: 0, or -1 (EPERM, EBUSY) */
int mrc_ctl_claim(struct mrc_context *ctx)
{
	char path[sizeof(CTL_LOCK_DIR) + IBV_SYSFS_NAME_MAX + 8];
	int fd, ret = 0;

	if (!ctx) {
		errno = EINVAL;
		return -1;
	}
	if (!net_admin()) {
		errno = EPERM;
		return -1;
	}
	mrc_ctx_lock(ctx);
	if (ctx->ctl_fd >= 0)
		goto out;
	mkdir(CTL_LOCK_DIR, 0755);
	snprintf(path, sizeof(path), CTL_LOCK_DIR "/%s.ctl", ctx->name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -1;
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		errno = errno == EWOULDBLOCK ? EBUSY : errno;
		ret = -1;
		goto out;
	}
	ctx->ctl_fd = fd;
out:
	mrc_ctx_unlock(ctx);
	return ret;
}

/* ---- device ------------------------------------------------------------ */

struct dev_info {
	const char *name;
	uint32_t planes;	/* bit N: plane N */
	bool found;
};

static int cb_dev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_DEV_MAX + 1] = {};
	struct dev_info *d = data;

	mrcnl_attrs(nlh, tb, MRC_A_DEV_MAX);
	if (mrcnl_attr_ok(tb[MRC_A_DEV_NAME], MNL_TYPE_NUL_STRING) &&
	    !strcmp(mnl_attr_get_str(tb[MRC_A_DEV_NAME]), d->name))
		d->found = true;
	return MNL_CB_OK;
}

static int cb_plane(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_PLANE_MAX + 1] = {};
	struct dev_info *d = data;
	uint32_t id;

	mrcnl_attrs(nlh, tb, MRC_A_PLANE_MAX);
	if (!mrcnl_attr_ok(tb[MRC_A_PLANE_DEV_NAME], MNL_TYPE_NUL_STRING) ||
	    strcmp(mnl_attr_get_str(tb[MRC_A_PLANE_DEV_NAME]), d->name) ||
	    !mrcnl_attr_ok(tb[MRC_A_PLANE_ID], MNL_TYPE_U32))
		return MNL_CB_OK;
	id = mnl_attr_get_u32(tb[MRC_A_PLANE_ID]);
	if (id < MRC_MAX_PLANES)
		d->planes |= 1U << id;
	return MNL_CB_OK;
}

/* the device and its planes, from the kernel: 0 or -1 with errno */
static int dev_info_get(const char *name, struct dev_info *d)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct mrcnl nl;
	int ret;

	memset(d, 0, sizeof(*d));
	d->name = name;
	if (mrcnl_open(&nl))
		return -1;
	nlh = mrcnl_msg(&nl, buf, MRC_CMD_DEV_GET, 0);
	mnl_attr_put_strz(nlh, MRC_A_DEV_NAME, name);
	ret = mrcnl_transact(&nl, nlh, cb_dev, d);
	if (!ret) {
		nlh = mrcnl_msg(&nl, buf, MRC_CMD_PLANE_GET, NLM_F_DUMP);
		mnl_attr_put_strz(nlh, MRC_A_PLANE_DEV_NAME, name);
		ret = mrcnl_transact(&nl, nlh, cb_plane, d);
	}
	mrcnl_close(&nl);
	if (!ret && !d->found) {
		errno = ENODEV;
		ret = -1;
	}
	return ret;
}

static int ctl_device_query(struct ibv_context *context,
			    struct mrc_ctl_device_attr *a)
{
	struct dev_info d;

	if (dev_info_get(ibv_get_device_name(context->device), &d))
		return -1;
	memset(a, 0, sizeof(*a));
	a->mrc_ctl_protocol_version = MRC_CTL_PROTOCOL_VERSION_1;
	/*
	 * EVs are made per QP, as many as its EV profile or the device says;
	 * a profile counts its ev_count (an AUTO one's slots, an EXP or GEN
	 * one's array) against the device's
	 */
	a->ev.ev_max_fmt_profiles = MRC_MAX_EV_FMTS;
	a->ev.ev_max_profiles = MRC_MAX_EV_PROFILES;
	a->ev.ev_max_count_profile = MRC_MAX_EVS;
	a->ev.ev_max_count = MRC_MAX_EV_PROFILES * MRC_MAX_EVS;
	a->ev.ev_free_count = a->ev.ev_max_count - mrc_ctl_ev_counted(context);
	a->ev.ev_count_align = 1;
	a->ev.ev_max_width = MRC_EV_BITS;
	a->ev.ev_fmt_mode_mask = MRC_CTL_EV_FMT_MODE_STEV |
				 MRC_CTL_EV_FMT_MODE_SRV6 | MRC_CTL_EV_FMT_MODE_UDP;
	a->ev.ev_mode_mask = MRC_CTL_EV_MODE_AUTO | MRC_CTL_EV_MODE_EXP |
			     MRC_CTL_EV_MODE_GEN;
	a->ev.ev_op_max_entries = MRC_EV_OP_MAX_ENTRIES;
	a->cc.cc_max_profiles = MRC_MAX_CC_PROFILES;
	a->cc.algorithms = cc_algorithms;
	/* port N is plane N - 1 */
	a->phy_port_mask = d.planes << 1;
	a->opt_attr = MRC_CTL_OPT_CAP_EV_EVENT | MRC_CTL_OPT_CAP_EP_OP_EV_PROBE;
	return 0;
}

LIBMRC_EXPORT
int mrc_ctl_query_device(struct ibv_context *context,
			 struct mrc_ctl_device_attr *ctl_attr)
{
	if (!context || !ctl_attr) {
		errno = EINVAL;
		return -1;
	}
	if (!mrc_dev_is_mrc(context)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return ctl_device_query(context, ctl_attr);
}

LIBMRC_EXPORT
int mrc_ctl_query_device_ex(struct ibv_context *context,
			    struct mrc_context *mcontext,
			    struct mrc_ctl_device_attr *ctl_attr,
			    int *supported)
{
	if (!context || !ctl_attr || !supported ||
	    (mcontext && mcontext->vctx != context)) {
		errno = EINVAL;
		return -1;
	}
	*supported = mrc_dev_is_mrc(context);
	if (!*supported) {
		memset(ctl_attr, 0, sizeof(*ctl_attr));
		return 0;
	}
	return ctl_device_query(context, ctl_attr);
}

/* ---- ports ------------------------------------------------------------- */

/* @port_num (1-based) is one of the device's planes */
static int port_check(struct mrc_context *ctx, uint8_t port_num, int mask,
		      const void *attr)
{
	struct dev_info d;

	if (mrc_ctl_claim(ctx))
		return -1;
	if (!attr || mask & ~MRC_CTL_PORT_ADMIN_STATE || !port_num ||
	    port_num > MRC_MAX_PLANES) {
		errno = EINVAL;
		return -1;
	}
	if (dev_info_get(ctx->name, &d))
		return -1;
	if (!(d.planes & (1U << (port_num - 1)))) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* the API's errors: a port gone meanwhile is a bad port; EIO for the rest */
static int port_errno(int err)
{
	switch (err) {
	case EINVAL:
	case ENOENT:
	case ENODEV:
		return EINVAL;
	case EPERM:
		return EPERM;
	default:
		return EIO;
	}
}

static int cb_port(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_PLANE_MAX + 1] = {};
	enum mrc_ctl_port_admin_state *state = data;

	mrcnl_attrs(nlh, tb, MRC_A_PLANE_MAX);
	/* a kernel without admin states has every plane enabled */
	if (mrcnl_attr_ok(tb[MRC_A_PLANE_ADMIN], MNL_TYPE_U32) &&
	    mnl_attr_get_u32(tb[MRC_A_PLANE_ADMIN]) == MRC_PLANE_ADMIN_DOWN)
		*state = MRC_CTL_PORT_ADMIN_DISABLED;
	return MNL_CB_OK;
}

/* plane-get or plane-set (with @state) of port @port_num's plane */
static int port_transact(struct mrc_context *ctx, uint8_t port_num,
			 uint8_t cmd, enum mrc_ctl_port_admin_state *state)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct mrcnl nl;
	int ret;

	if (mrc_ctl_open(ctx, &nl))
		return -1;
	nlh = mrcnl_msg(&nl, buf, cmd, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_A_PLANE_DEV_NAME, ctx->name);
	mnl_attr_put_u32(nlh, MRC_A_PLANE_ID, port_num - 1);
	if (cmd == MRC_CMD_PLANE_SET)
		mnl_attr_put_u32(nlh, MRC_A_PLANE_ADMIN,
				 *state == MRC_CTL_PORT_ADMIN_ENABLED ?
				 MRC_PLANE_ADMIN_UP : MRC_PLANE_ADMIN_DOWN);
	else
		*state = MRC_CTL_PORT_ADMIN_ENABLED;
	ret = mrcnl_transact(&nl, nlh, cmd == MRC_CMD_PLANE_GET ? cb_port : NULL,
			     state);
	if (ret)
		errno = port_errno(errno);
	mrcnl_close(&nl);
	return ret;
}

LIBMRC_EXPORT
int mrc_ctl_query_port(struct mrc_context *context, uint8_t port_num,
		       struct mrc_ctl_port_attr *attr, int attr_mask)
{
	enum mrc_ctl_port_admin_state state;

	if (port_check(context, port_num, attr_mask, attr))
		return -1;
	if (!(attr_mask & MRC_CTL_PORT_ADMIN_STATE))
		return 0;
	if (port_transact(context, port_num, MRC_CMD_PLANE_GET, &state))
		return -1;
	attr->port_admin_state = state;
	return 0;
}

/*
 * A port's admin state is its plane's (plane-set admin): DISABLED, mrc
 * sends nothing on the plane and drops what arrives on it. Port 1 (plane
 * 0, which carries the device's GIDs) is refused DISABLED by the kernel.
 */
LIBMRC_EXPORT
int mrc_ctl_modify_port(struct mrc_context *context, uint8_t port_num,
			struct mrc_ctl_port_attr *attr, int attr_mask)
{
	enum mrc_ctl_port_admin_state state;

	if (port_check(context, port_num, attr_mask, attr))
		return -1;
	if (!(attr_mask & MRC_CTL_PORT_ADMIN_STATE))
		return 0;
	state = attr->port_admin_state;
	if (state != MRC_CTL_PORT_ADMIN_ENABLED &&
	    state != MRC_CTL_PORT_ADMIN_DISABLED) {
		errno = EINVAL;
		return -1;
	}
	return port_transact(context, port_num, MRC_CMD_PLANE_SET, &state);
}

/* ---- CC profiles ------------------------------------------------------- */

#define CC_MASK_ALL	(MRC_CTL_CC_PROFILE_STATE | MRC_CTL_CC_PROFILE_CUR_STATE | \
			 MRC_CTL_CC_PROFILE_ALGORITHM | MRC_CTL_CC_PROFILE_CONFIG | \
			 MRC_CTL_CC_PROFILE_VENDOR_CFG)

/* an NSCC fraction (a float of 1.0 = 1) in mrc's 1/65536 */
static int frac(float f, uint32_t *v)
{
	if (!(f >= 0 && f <= 65535))
		return -1;
	*v = (uint32_t)(f * 65536 + 0.5f);
	return 0;
}

/* bytes as a float, in bytes */
static int bytes(float f, uint32_t *v)
{
	if (!(f >= 0 && f <= 4294967295.0f))
		return -1;
	*v = (uint32_t)(f + 0.5f);
	return 0;
}

/*
 * The OCP NSCC configuration as the kernel's knobs. eta and fi are bytes
 * (the API gives them no unit; mrc's NSCC counts them in bytes), the
 * other floats fractions of 1; the kernel checks the whole set.
 */
static int nscc_put(struct nlmsghdr *nlh, const struct mrc_ctl_cc_nscc_cfg *c)
{
	uint32_t eta, fi, fi_scale, gamma, jump;

	if (bytes(c->eta, &eta) || bytes(c->fi, &fi) ||
	    frac(c->fi_scale, &fi_scale) || frac(c->gamma, &gamma) ||
	    frac(c->max_md_jump, &jump))
		return -1;
	mnl_attr_put_u8(nlh, MRC_A_CC_DISABLE_QA, !!c->disable_qa);
	mnl_attr_put_u32(nlh, MRC_A_CC_ADJUST_BYTES_THRESHOLD,
			 c->adjust_bytes_threshold);
	mnl_attr_put_u32(nlh, MRC_A_CC_ADJUST_PERIOD_THRESHOLD,
			 c->adjust_period_threshold);
	mnl_attr_put_u32(nlh, MRC_A_CC_BASE_RTT, c->base_rtt);
	mnl_attr_put_u32(nlh, MRC_A_CC_ETA, eta);
	mnl_attr_put_u32(nlh, MRC_A_CC_FI, fi);
	mnl_attr_put_u32(nlh, MRC_A_CC_FI_SCALE, fi_scale);
	mnl_attr_put_u32(nlh, MRC_A_CC_GAMMA, gamma);
	mnl_attr_put_u32(nlh, MRC_A_CC_MAX_MD_JUMP, jump);
	mnl_attr_put_u32(nlh, MRC_A_CC_MAX_CWND, c->max_cwnd);
	mnl_attr_put_u32(nlh, MRC_A_CC_QA_GATE, c->qa_gate);
	mnl_attr_put_u32(nlh, MRC_A_CC_QA_THRESHOLD, c->qa_threshold);
	mnl_attr_put_u32(nlh, MRC_A_CC_TARGET_DELAY, c->target_delay);
	return 0;
}

/* the CC profile mrc names by id, 0 its device's own: not the API's */
static int cc_profile_args(struct mrc_context *ctx, uint64_t id,
			   const struct mrc_ctl_cc_profile_attr *attr, int mask)
{
	if (mrc_ctl_claim(ctx))
		return -1;
	if (!attr || !id || (mask & ~CC_MASK_ALL) ||
	    ((mask & MRC_CTL_CC_PROFILE_VENDOR_CFG) &&
	     !mrc_vendor_cfg_empty(attr->vendor_cfg))) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

LIBMRC_EXPORT
int mrc_ctl_modify_cc_profile(struct mrc_context *mrc_ctx,
			      uint64_t cc_profile_id,
			      struct mrc_ctl_cc_profile_attr *attr,
			      int attr_mask)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct mrcnl nl;
	int ret;

	if (cc_profile_args(mrc_ctx, cc_profile_id, attr, attr_mask))
		return -1;
	if (((attr_mask & MRC_CTL_CC_PROFILE_ALGORITHM) && attr->algorithm &&
	     strcmp(attr->algorithm, MRC_CTL_CC_ALGO_UET_NSCC)) ||
	    ((attr_mask & MRC_CTL_CC_PROFILE_STATE) &&
	     attr->profile_state > MRC_CTL_PROFILE_ONLINE) ||
	    ((attr_mask & MRC_CTL_CC_PROFILE_CONFIG) && !attr->cc_config)) {
		errno = EINVAL;
		return -1;
	}
	if (mrc_ctl_open(mrc_ctx, &nl))
		return -1;
	nlh = mrcnl_msg(&nl, buf, MRC_CMD_CC_PROFILE_SET, NLM_F_ACK);
	mnl_attr_put_strz(nlh, MRC_A_CC_DEV_NAME, mrc_ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_CC_PROFILE_ID, cc_profile_id);
	/* the API's profile states are the kernel's, value for value */
	if (attr_mask & MRC_CTL_CC_PROFILE_STATE)
		mnl_attr_put_u32(nlh, MRC_A_CC_PROFILE_STATE, attr->profile_state);
	if (attr_mask & MRC_CTL_CC_PROFILE_ALGORITHM)
		mnl_attr_put_u32(nlh, MRC_A_CC_ALGO, attr->algorithm ?
				 MRC_CC_ALGO_NSCC : MRC_CC_ALGO_NONE);
	ret = 0;
	if ((attr_mask & MRC_CTL_CC_PROFILE_CONFIG) &&
	    nscc_put(nlh, attr->cc_config)) {
		errno = EINVAL;
		ret = -1;
	}
	if (!ret)
		ret = mrcnl_transact(&nl, nlh, NULL, NULL);
	mrcnl_close(&nl);
	return ret;
}

struct cc_profile_reply {
	uint32_t state;
	bool nscc;
	bool has_knobs;
	struct mrc_ctl_cc_nscc_cfg cfg;
};

static int cb_cc_profile(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_CC_MAX + 1] = {};
	struct cc_profile_reply *r = data;
	struct mrc_ctl_cc_nscc_cfg *c = &r->cfg;

	mrcnl_attrs(nlh, tb, MRC_A_CC_MAX);
	r->state = mrcnl_u32(tb[MRC_A_CC_PROFILE_STATE]);
	r->nscc = mrcnl_u32(tb[MRC_A_CC_ALGO]) == MRC_CC_ALGO_NSCC;
	r->has_knobs = !!tb[MRC_A_CC_MAX_CWND];
	if (mrcnl_attr_ok(tb[MRC_A_CC_DISABLE_QA], MNL_TYPE_U8))
		c->disable_qa = mnl_attr_get_u8(tb[MRC_A_CC_DISABLE_QA]);
	c->adjust_bytes_threshold = mrcnl_u32(tb[MRC_A_CC_ADJUST_BYTES_THRESHOLD]);
	c->adjust_period_threshold = mrcnl_u32(tb[MRC_A_CC_ADJUST_PERIOD_THRESHOLD]);
	c->base_rtt = mrcnl_u32(tb[MRC_A_CC_BASE_RTT]);
	c->eta = mrcnl_u32(tb[MRC_A_CC_ETA]);
	c->fi = mrcnl_u32(tb[MRC_A_CC_FI]);
	c->fi_scale = mrcnl_u32(tb[MRC_A_CC_FI_SCALE]) / 65536.0f;
	c->gamma = mrcnl_u32(tb[MRC_A_CC_GAMMA]) / 65536.0f;
	c->max_md_jump = mrcnl_u32(tb[MRC_A_CC_MAX_MD_JUMP]) / 65536.0f;
	c->max_cwnd = mrcnl_u32(tb[MRC_A_CC_MAX_CWND]);
	c->qa_gate = mrcnl_u32(tb[MRC_A_CC_QA_GATE]);
	c->qa_threshold = mrcnl_u32(tb[MRC_A_CC_QA_THRESHOLD]);
	c->target_delay = mrcnl_u32(tb[MRC_A_CC_TARGET_DELAY]);
	return MNL_CB_OK;
}

/*
 * A profile in init holds nothing: the kernel does not know it
 * (ENOENT), the API sees it in INIT with no algorithm
 */
LIBMRC_EXPORT
int mrc_ctl_query_cc_profile(struct mrc_context *mrc_ctx,
			     uint64_t cc_profile_id,
			     struct mrc_ctl_cc_profile_attr *attr,
			     int attr_mask)
{
	struct cc_profile_reply r = { .state = MRC_CC_PROFILE_STATE_INIT };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct mrcnl nl;
	int ret;

	if (cc_profile_args(mrc_ctx, cc_profile_id, attr, attr_mask))
		return -1;
	if ((attr_mask & MRC_CTL_CC_PROFILE_CONFIG) && !attr->cc_config) {
		errno = EINVAL;
		return -1;
	}
	if (mrc_ctl_open(mrc_ctx, &nl))
		return -1;
	nlh = mrcnl_msg(&nl, buf, MRC_CMD_CC_PROFILE_GET, 0);
	mnl_attr_put_strz(nlh, MRC_A_CC_DEV_NAME, mrc_ctx->name);
	mnl_attr_put_u64(nlh, MRC_A_CC_PROFILE_ID, cc_profile_id);
	ret = mrcnl_transact(&nl, nlh, cb_cc_profile, &r);
	mrcnl_close(&nl);
	if (ret && errno != ENOENT)
		return -1;
	if (attr_mask & MRC_CTL_CC_PROFILE_STATE)
		attr->profile_state = r.state;
	if (attr_mask & MRC_CTL_CC_PROFILE_CUR_STATE)
		attr->cur_profile_state = r.state;
	if (attr_mask & MRC_CTL_CC_PROFILE_ALGORITHM)
		attr->algorithm = r.nscc ? cc_algorithms[0] : NULL;
	/* the API's output buffer for the configuration is its cc_config */
	if (attr_mask & MRC_CTL_CC_PROFILE_CONFIG)
		memcpy((void *)attr->cc_config, &r.cfg, sizeof(r.cfg));
	if (attr_mask & MRC_CTL_CC_PROFILE_VENDOR_CFG)
		memset(attr->vendor_cfg, 0, sizeof(attr->vendor_cfg));
	return 0;
}
