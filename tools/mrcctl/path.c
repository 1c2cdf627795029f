// SPDX-License-Identifier: GPL-2.0
/* mrcctl path: the path sets of a device, one per peer */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mrcctl.h"

static const char *const path_modes[] = {
	[MRC_PATH_MODE_UDP] = "udp",
	[MRC_PATH_MODE_USID] = "usid",
	[MRC_PATH_MODE_SRH] = "srh",
};

/* "SEG[,SEG...]" of srh (@key): 1 to SRH_SEGS_MAX IPv6 addresses */
static void parse_segs(const char *cmd, const char *key, const char *s,
		       struct path_spec *p)
{
	char seg[INET6_ADDRSTRLEN];
	const char *c, *list = s;
	unsigned int n = 1;
	size_t len;

	for (c = s; *c; c++)
		n += *c == ',';
	if (n > SRH_SEGS_MAX)
		die_usage("%s: %s: %u segments, at most %d", cmd, key, n,
			  SRH_SEGS_MAX);
	for (p->nsegs = 0; p->nsegs < n; p->nsegs++, s += len + 1) {
		len = strcspn(s, ",");
		if (!len)
			die_usage("%s: %s: empty segment in \"%s\"", cmd, key, list);
		snprintf(seg, sizeof(seg), "%.*s", (int)len, s);
		if (len >= sizeof(seg) ||
		    inet_pton(AF_INET6, seg, &p->segs[p->nsegs]) != 1)
			die_usage("%s: %s: invalid IPv6 address \"%.*s\"", cmd, key,
				  (int)len, s);
	}
}

struct nlmsghdr *path_msg(struct ctx *c, char *buf, uint8_t cmd,
			  const char *dev, const struct path_spec *p)
{
	struct nlmsghdr *nlh;

	nlh = nl_msg(c, buf, cmd, 0, MRC_A_PATH_DEV_NAME, dev);
	mnl_attr_put(nlh, MRC_A_PATH_PEER, sizeof(p->peer), &p->peer);
	if (p->has_plane)
		mnl_attr_put_u32(nlh, MRC_A_PATH_PLANE, p->plane);
	if (p->has_usid)
		mnl_attr_put(nlh, MRC_A_PATH_USID, sizeof(p->usid), &p->usid);
	if (p->nsegs)
		mnl_attr_put(nlh, MRC_A_PATH_SEGS, p->nsegs * sizeof(p->segs[0]),
			     p->segs);
	if (p->has_remote)
		mnl_attr_put(nlh, MRC_A_PATH_REMOTE, sizeof(p->remote), &p->remote);
	return nlh;
}

static enum mrc_path_mode spec_mode(const struct path_spec *p)
{
	if (p->has_usid)
		return MRC_PATH_MODE_USID;
	return p->nsegs ? MRC_PATH_MODE_SRH : MRC_PATH_MODE_UDP;
}

/* the path of a dump's message, as path add would give it */
static bool spec_of(const struct nlattr **tb, struct path_spec *p)
{
	const struct nlattr *segs = tb[MRC_A_PATH_SEGS];
	uint16_t len = segs ? mnl_attr_get_payload_len(segs) : 0;

	memset(p, 0, sizeof(*p));
	if (!nl_attr_ok(tb[MRC_A_PATH_PLANE], MNL_TYPE_U32) ||
	    len % sizeof(p->segs[0]) || len > sizeof(p->segs))
		return false;
	p->plane = mnl_attr_get_u32(tb[MRC_A_PATH_PLANE]);
	p->has_plane = true;
	if (tb[MRC_A_PATH_USID] &&
	    mnl_attr_get_payload_len(tb[MRC_A_PATH_USID]) == sizeof(p->usid)) {
		memcpy(&p->usid, mnl_attr_get_payload(tb[MRC_A_PATH_USID]),
		       sizeof(p->usid));
		p->has_usid = true;
	}
	if (len) {
		memcpy(p->segs, mnl_attr_get_payload(segs), len);
		p->nsegs = len / sizeof(p->segs[0]);
	}
	if (tb[MRC_A_PATH_REMOTE] &&
	    mnl_attr_get_payload_len(tb[MRC_A_PATH_REMOTE]) == sizeof(p->remote))
		memcpy(&p->remote, mnl_attr_get_payload(tb[MRC_A_PATH_REMOTE]),
		       sizeof(p->remote));
	p->has_remote = !IN6_IS_ADDR_UNSPECIFIED(&p->remote);
	return true;
}

/*
 * the same path to the kernel: same plane and mode, and the same uSID
 * container, segments or (udp) remote; see same_path() in mrc_path.c
 */
static bool spec_same_path(const struct path_spec *a, const struct path_spec *b)
{
	if (a->plane != b->plane || spec_mode(a) != spec_mode(b))
		return false;
	switch (spec_mode(a)) {
	case MRC_PATH_MODE_USID:
		return !memcmp(&a->usid, &b->usid, sizeof(a->usid));
	case MRC_PATH_MODE_SRH:
		return a->nsegs == b->nsegs &&
		       !memcmp(a->segs, b->segs, a->nsegs * sizeof(a->segs[0]));
	default:
		return !memcmp(&a->remote, &b->remote, sizeof(a->remote));
	}
}

/* what a peer's path set holds of the path apply adds */
struct path_had {
	const struct path_spec *want;
	bool same;		/* that very path */
	bool other;		/* the same path to the kernel, another remote */
	struct path_spec found;
	uint32_t id;
};

static int cb_path_had(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_PATH_MAX + 1] = {};
	struct path_had *h = data;
	struct path_spec p;
	struct in6_addr any = {};

	nl_attrs(nlh, tb, MRC_A_PATH_MAX);
	if (!spec_of(tb, &p) || !spec_same_path(&p, h->want))
		return MNL_CB_OK;
	if (!memcmp(&p.remote, h->want->has_remote ? &h->want->remote : &any,
		    sizeof(p.remote))) {
		h->same = true;
	} else {
		h->other = true;
		h->found = p;
		h->id = mrcnl_u32(tb[MRC_A_PATH_ID]);
	}
	return MNL_CB_OK;
}

/*
 * path add @p to @dev; @what names it in errors. With c->apply, a path the
 * peer has already, identical, is no error (*@had), and one that differs
 * only in its remote is. 0, or 1 after the error.
 */
int path_put(struct ctx *c, const char *dev, const struct path_spec *p,
	     const char *what, bool *had)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], msg[sizeof(c->nl.errmsg)];
	char addr[INET6_ADDRSTRLEN];
	struct path_had h = { .want = p };
	struct nlmsghdr *nlh;

	*had = false;
	nlh = path_msg(c, buf, MRC_CMD_PATH_ADD, dev, p);
	if (!nl_transact(c, nlh, NULL))
		return 0;
	if (errno != EEXIST || !c->apply)
		return nl_fail(c, what);
	snprintf(msg, sizeof(msg), "%s", c->nl.errmsg);
	nlh = nl_msg(c, buf, MRC_CMD_PATH_GET, NLM_F_DUMP, MRC_A_PATH_DEV_NAME,
		     dev);
	mnl_attr_put(nlh, MRC_A_PATH_PEER, sizeof(p->peer), &p->peer);
	if (mrcnl_transact(&c->nl, nlh, cb_path_had, &h) < 0)
		return nl_fail(c, what);
	if (h.same) {
		*had = true;
		return 0;
	}
	if (!h.other) {	/* gone since: the kernel's word stands */
		errno = EEXIST;
		snprintf(c->nl.errmsg, sizeof(c->nl.errmsg), "%s", msg);
		return nl_fail(c, what);
	}
	if (h.found.has_remote)
		pr_err("Error: %s: the peer has this path (path %u) with remote %s\n",
		       what, h.id, inet_ntop(AF_INET6, &h.found.remote, addr,
					     sizeof(addr)));
	else
		pr_err("Error: %s: the peer has this path (path %u) without a remote\n",
		       what, h.id);
	return 1;
}

/* a path as "path add" arguments ("dev DEV peer ... usid ...") */
void path_spec_rec(struct rec *r, const char *dev, const struct path_spec *p)
{
	enum mrc_path_mode mode = MRC_PATH_MODE_UDP;

	if (p->has_usid)
		mode = MRC_PATH_MODE_USID;
	else if (p->nsegs)
		mode = MRC_PATH_MODE_SRH;
	if (dev)
		rec_str(r, "dev", "dev ", NULL, dev);
	else
		rec_str(r, NULL, "dev ", NULL, "DEV");
	rec_addr(r, "peer", "peer ", &p->peer);
	rec_num(r, "plane", "plane ", NULL, p->plane);
	rec_str(r, "mode", NULL, NULL, path_modes[mode]);
	if (p->has_usid)
		rec_addr(r, "usid", "usid ", &p->usid);
	if (p->nsegs)
		rec_addrs(r, "segs", "srh ", p->segs, p->nsegs);
	if (p->has_remote)
		rec_addr(r, "remote", "remote ", &p->remote);
}

/* "udp" in text; usid and srh paths say it with "usid ADDR", "srh SEGS" */
static void rec_path_mode(struct rec *r, const struct nlattr *a)
{
	uint32_t v;

	if (!nl_attr_ok(a, MNL_TYPE_U32))
		return;
	v = mnl_attr_get_u32(a);
	if (v == MRC_PATH_MODE_USID || v == MRC_PATH_MODE_SRH)
		rec_str(r, "mode", NULL, NULL, path_modes[v]);
	else
		rec_attr_enum(r, "mode", "", a, path_modes, ARRAY_SIZE(path_modes));
}

/* an srh path's segment list: whole addresses, 1 to SRH_SEGS_MAX */
static void rec_attr_segs(struct rec *r, const struct nlattr *a)
{
	uint16_t len = a ? mnl_attr_get_payload_len(a) : 0;

	if (!len || len % sizeof(struct in6_addr) ||
	    len > SRH_SEGS_MAX * sizeof(struct in6_addr))
		return;
	rec_addrs(r, "segs", "srh ", mnl_attr_get_payload(a),
		  len / sizeof(struct in6_addr));
}

/* lblen and nflen, shown only when not F3216 */
static void rec_usid_format(struct rec *r, const struct nlattr *lblen,
			    const struct nlattr *nflen)
{
	uint8_t lb = nl_attr_ok(lblen, MNL_TYPE_U8) ? mnl_attr_get_u8(lblen) : 32;
	uint8_t nf = nl_attr_ok(nflen, MNL_TYPE_U8) ? mnl_attr_get_u8(nflen) : 16;

	if (lb == 32 && nf == 16)
		return;
	rec_num(r, "lblen", "lblen ", NULL, lb);
	rec_num(r, "nflen", "nflen ", NULL, nf);
}

static void rec_path(struct rec *r, const struct nlattr **tb)
{
	rec_attr_addr(r, "peer", "peer ", tb[MRC_A_PATH_PEER]);
	rec_attr_u32(r, "plane", "plane ", tb[MRC_A_PATH_PLANE]);
	rec_path_mode(r, tb[MRC_A_PATH_MODE]);
	rec_attr_addr(r, "usid", "usid ", tb[MRC_A_PATH_USID]);
	rec_attr_segs(r, tb[MRC_A_PATH_SEGS]);
	rec_attr_addr(r, "remote", "remote ", tb[MRC_A_PATH_REMOTE]);
	rec_usid_format(r, tb[MRC_A_PATH_LBLEN], tb[MRC_A_PATH_NFLEN]);
	rec_attr_u32(r, "path", "path ", tb[MRC_A_PATH_ID]);
	rec_traffic(r, "tx ", "tx_packets", "tx_bytes",
		    tb[MRC_A_PATH_TX_PACKETS], tb[MRC_A_PATH_TX_BYTES]);
}

static int cb_path(const struct nlmsghdr *nlh, void *data)
{
	return rec_obj(data, nlh, MRC_A_PATH_MAX, MRC_A_PATH_DEV_NAME, rec_path);
}

/* monitor: a peer's path set changed: path show tells how */
void path_ntf_rec(struct rec *r, const struct nlattr **tb)
{
	rec_attr_addr(r, "peer", "peer ", tb[MRC_A_PATH_PEER]);
	rec_str(r, NULL, "", NULL, "changed");
}

/*
 * the path sets of @dev, or of every device; of @peer or of all: a list, or
 * kept (stats)
 */
int path_dump(struct ctx *c, const char *dev, const struct in6_addr *peer)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = nl_msg(c, buf, MRC_CMD_PATH_GET, NLM_F_DUMP,
		     MRC_A_PATH_DEV_NAME, dev);
	if (peer)
		mnl_attr_put(nlh, MRC_A_PATH_PEER, sizeof(*peer), peer);
	return nl_show(c, nlh, cb_path, dev ? dev : "path show");
}

int path_show(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg peer = { .key = "peer", .type = ARG_ADDR };
	struct arg *args[] = { &dev, &peer, NULL };

	parse_args("path show", args, argc, argv);
	nl_open(c);
	return path_dump(c, dev.str, peer.set ? &peer.addr : NULL);
}

static int path_change(struct ctx *c, const char *cmd, uint8_t nlcmd,
		       int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg peer = { .key = "peer", .type = ARG_ADDR };
	struct arg plane = { .key = "plane", .type = ARG_U32, .max = MRC_MAX_PLANES - 1 };
	struct arg usid = { .key = "usid", .type = ARG_ADDR };
	struct arg srh = { .key = "srh", .type = ARG_STR };
	struct arg segs = { .key = "segs", .type = ARG_STR };	/* = srh */
	struct arg remote = { .key = "remote", .type = ARG_ADDR };
	struct arg *args[] = { &dev, &peer, &plane, &usid, &srh, &segs, &remote,
			       NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct path_spec p = {};
	bool add = nlcmd == MRC_CMD_PATH_ADD, had;
	const struct arg *sel;	/* what names the path: usid, srh or remote */

	parse_args(cmd, args, argc, argv);
	parse_need(cmd, &dev);
	parse_need(cmd, &peer);
	if (add)
		parse_need(cmd, &plane);
	parse_alias(cmd, &srh, &segs);
	if (usid.set && srh.set)
		die_usage("%s: give usid CONTAINER or srh SEGS, not both", cmd);
	if (add && !usid.set && !srh.set && !remote.set)
		die_usage("%s: give usid CONTAINER, srh SEGS or remote ADDR", cmd);
	if (!add && (usid.set || srh.set) && remote.set)
		die_usage("%s: give usid CONTAINER, srh SEGS or remote ADDR, not two",
			  cmd);
	sel = usid.set ? &usid : srh.set ? &srh : remote.set ? &remote : NULL;
	if (!plane.set && sel)
		die_usage("%s: \"%s\" needs \"plane N\"", cmd, sel->key);
	if (srh.set)
		parse_segs(cmd, srh.key, srh.str, &p);
	p.peer = peer.addr;
	p.plane = plane.u32;
	p.has_plane = plane.set;
	p.usid = usid.addr;
	p.has_usid = usid.set;
	p.remote = remote.addr;
	p.has_remote = remote.set;
	nl_open(c);
	if (add)
		return path_put(c, dev.str, &p, dev.str, &had);
	return nl_request(c, path_msg(c, buf, nlcmd, dev.str, &p), dev.str);
}

int path_add(struct ctx *c, int argc, char **argv)
{
	return path_change(c, "path add", MRC_CMD_PATH_ADD, argc, argv);
}

int path_del(struct ctx *c, int argc, char **argv)
{
	return path_change(c, "path del", MRC_CMD_PATH_DEL, argc, argv);
}

