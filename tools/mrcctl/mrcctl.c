// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: configure and inspect mrc (Multipath Reliable Connection) RDMA
 * devices over the "mrc" generic netlink family, in the style of ip(8) and
 * rdma(8).
 */
#include <arpa/inet.h>
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "linux/mrc.h"

#ifndef MRCCTL_VERSION
#define MRCCTL_VERSION "unknown"
#endif

#define DEV_NAME_MAX	63	/* the family's max-len of dev-name */
#define EV_COUNT_MIN	4	/* the family's min of ev-count */
#define QPN_MAX		0xffffff
#define SRH_SEGS_MAX	6	/* the most segments of an srh path */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct recs;

/* a multicast group of the family */
struct mcgrp {
	char name[GENL_NAMSIZ];
	uint32_t id;
};

#define MCGRPS_MAX	8

struct ctx {
	struct mnl_socket *nl;
	uint16_t family;
	struct mcgrp groups[MCGRPS_MAX];
	unsigned int ngroups;
	unsigned int seq;
	bool json;
	bool pretty;
	int count;		/* objects printed (JSON separators) */
	unsigned int limit;	/* monitor: stop after this many events; 0: never */
	struct recs *collect;	/* when set, objects are kept, not printed */
	const char *dev;	/* device asked for, if a reply omits its name */
	char errmsg[256];	/* the kernel's extack message, if any */
};

static void __attribute__((noreturn, format(printf, 1, 2)))
die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("mrcctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\nTry \"mrcctl help\".\n", stderr);
	va_end(ap);
	exit(2);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		perror("mrcctl");
		exit(1);
	}
	return p;
}

/* ---- parsing words -------------------------------------------------- */

/* a decimal number without sign, space or trailing garbage, <= @max */
static bool parse_u32(const char *s, uint32_t max, uint32_t *v)
{
	unsigned long n;
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > max)
		return false;
	*v = n;
	return true;
}

/* a uSID: 1 to 4 hex digits, optionally after 0x, not 0 */
static bool parse_usid(const char *s, uint16_t *v)
{
	size_t len;

	if (!strncasecmp(s, "0x", 2))
		s += 2;
	len = strlen(s);
	if (!len || len > 4 || strspn(s, "0123456789abcdefABCDEF") != len)
		return false;
	*v = strtoul(s, NULL, 16);
	return *v != 0;
}

static void parse_addr(const char *s, struct in6_addr *a)
{
	if (inet_pton(AF_INET6, s, a) != 1)
		die_usage("invalid IPv6 address \"%s\"", s);
}

static void check_dev_name(const char *name)
{
	if (strlen(name) > DEV_NAME_MAX)
		die_usage("device name \"%s\" is too long", name);
}

/*
 * Keyword arguments ("dev mrc0 plane 1 ..."), in any order, each at most
 * once. A command lists the ones it takes and then checks which are set.
 */
enum arg_type { ARG_DEV, ARG_U32, ARG_ADDR, ARG_STR };

struct arg {
	const char *key;
	enum arg_type type;
	uint32_t min, max;	/* ARG_U32: the range */
	bool set;
	const char *str;	/* the word as given */
	uint32_t u32;
	struct in6_addr addr;
};

static void arg_value(const char *cmd, struct arg *a, const char *val)
{
	a->set = true;
	a->str = val;
	switch (a->type) {
	case ARG_DEV:
		check_dev_name(val);
		break;
	case ARG_U32:
		if (!parse_u32(val, a->max, &a->u32) || a->u32 < a->min)
			die_usage("%s: invalid %s \"%s\" (%" PRIu32 "..%" PRIu32 ")",
				  cmd, a->key, val, a->min, a->max);
		break;
	case ARG_ADDR:
		parse_addr(val, &a->addr);
		break;
	case ARG_STR:
		break;
	}
}

static void parse_args(const char *cmd, struct arg **args, int argc, char **argv)
{
	struct arg **a;

	for (; argc > 0; argc -= 2, argv += 2) {
		for (a = args; *a && strcmp((*a)->key, argv[0]); a++)
			;
		if (!*a)
			die_usage("%s: unknown argument \"%s\"", cmd, argv[0]);
		if ((*a)->set)
			die_usage("%s: \"%s\" given twice", cmd, argv[0]);
		if (argc < 2)
			die_usage("%s: missing value after \"%s\"", cmd, argv[0]);
		arg_value(cmd, *a, argv[1]);
	}
}

static void need(const char *cmd, const struct arg *a)
{
	if (!a->set)
		die_usage("%s: missing \"%s\"", cmd, a->key);
}

/* ---- output: records, printed as a line, a JSON object or a table row --- */

#define REC_FIELDS	24

struct field {
	const char *key;	/* JSON key and table column; NULL: text only */
	const char *pre;	/* text before the value; NULL: not in text */
	const char *post;	/* text after the value */
	bool num;		/* a JSON number */
	bool list;		/* in rec.list, comma-separated: a JSON array */
	char val[INET6_ADDRSTRLEN + 8];
};

struct rec {
	unsigned int n;
	struct field f[REC_FIELDS];
	char list[SRH_SEGS_MAX * INET6_ADDRSTRLEN];	/* of the list field */
};

struct recs {
	struct rec *r;
	unsigned int n, cap;
};

static struct field *rec_add(struct rec *r, const char *key, const char *pre,
			     const char *post, bool num)
{
	struct field *f;

	if (r->n == REC_FIELDS)
		abort();
	f = &r->f[r->n++];
	f->key = key;
	f->pre = pre;
	f->post = post ? post : "";
	f->num = num;
	return f;
}

static void rec_str(struct rec *r, const char *key, const char *pre,
		    const char *post, const char *s)
{
	struct field *f = rec_add(r, key, pre, post, false);

	snprintf(f->val, sizeof(f->val), "%s", s);
}

static void rec_num(struct rec *r, const char *key, const char *pre,
		    const char *post, uint64_t v)
{
	struct field *f = rec_add(r, key, pre, post, true);

	snprintf(f->val, sizeof(f->val), "%" PRIu64, v);
}

static void rec_addr(struct rec *r, const char *key, const char *pre,
		     const struct in6_addr *a)
{
	struct field *f = rec_add(r, key, pre, NULL, false);

	inet_ntop(AF_INET6, a, f->val, sizeof(f->val));
}

static const struct field *rec_find(const struct rec *r, const char *key)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].key && !strcmp(r->f[i].key, key))
			return &r->f[i];
	return NULL;
}

static const char *field_val(const struct rec *r, const struct field *f)
{
	return f->list ? r->list : f->val;
}

/* @n addresses: "A,B,C" in text, ["A","B","C"] in JSON (one list a rec) */
static void rec_addrs(struct rec *r, const char *key, const char *pre,
		      const struct in6_addr *a, unsigned int n)
{
	struct field *f;
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].list)
			abort();
	f = rec_add(r, key, pre, NULL, false);
	f->list = true;
	r->list[0] = '\0';
	for (i = 0; i < n && i < SRH_SEGS_MAX; i++) {
		if (i)
			r->list[len++] = ',';
		inet_ntop(AF_INET6, &a[i], r->list + len, sizeof(r->list) - len);
		len += strlen(r->list + len);
	}
}

/* the text form: "pre value post" of every field, space separated */
static void rec_text(const struct rec *r, char *buf, size_t len)
{
	const struct field *f;
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < r->n && n < len; i++) {
		f = &r->f[i];
		if (f->pre)
			n += snprintf(buf + n, len - n, "%s%s%s%s", n ? " " : "",
				      f->pre, field_val(r, f), f->post);
	}
}

/* the first @n characters of @s as a JSON string */
static void json_strn(const char *s, size_t n)
{
	putchar('"');
	for (; n && *s; s++, n--) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void json_str(const char *s)
{
	json_strn(s, strlen(s));
}

/* "A,B,C" as ["A","B","C"] */
static void json_list(const char *s)
{
	size_t n;

	putchar('[');
	while (*s) {
		n = strcspn(s, ",");
		json_strn(s, n);
		s += n;
		if (*s) {
			putchar(',');
			s++;
		}
	}
	putchar(']');
}

static void indent(struct ctx *c, int depth)
{
	if (c->pretty)
		printf("\n%*s", 2 * depth, "");
}

static void json_key(struct ctx *c, int depth, const char *key)
{
	indent(c, depth);
	json_str(key);
	fputs(c->pretty ? ": " : ":", stdout);
}

static void rec_json(struct ctx *c, const struct rec *r, int depth)
{
	const struct field *f;
	bool first = true;
	unsigned int i;

	putchar('{');
	for (i = 0; i < r->n; i++) {
		f = &r->f[i];
		if (!f->key)
			continue;
		if (!first)
			putchar(',');
		first = false;
		json_key(c, depth + 1, f->key);
		if (f->num)
			fputs(f->val, stdout);
		else if (f->list)
			json_list(r->list);
		else
			json_str(f->val);
	}
	indent(c, depth);
	putchar('}');
}

static void rec_line(const struct rec *r)
{
	char line[1024];

	rec_text(r, line, sizeof(line));
	puts(line);
}

/* one object of a show: kept, a JSON array element or a text line */
static void rec_emit(struct ctx *c, const struct rec *r)
{
	struct recs *t = c->collect;

	if (t) {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 16;
			t->r = xrealloc(t->r, t->cap * sizeof(*t->r));
		}
		t->r[t->n++] = *r;
	} else if (c->json) {
		if (c->count)
			putchar(',');
		indent(c, 1);
		rec_json(c, r, 1);
	} else {
		rec_line(r);
	}
	c->count++;
}

static void list_begin(struct ctx *c)
{
	if (c->json)
		putchar('[');
}

static void list_end(struct ctx *c)
{
	if (c->json)
		printf(c->pretty && c->count ? "\n]\n" : "]\n");
}

static void json_array(struct ctx *c, const struct recs *t, int depth)
{
	unsigned int i;

	putchar('[');
	for (i = 0; i < t->n; i++) {
		if (i)
			putchar(',');
		indent(c, depth + 1);
		rec_json(c, &t->r[i], depth + 1);
	}
	if (t->n)
		indent(c, depth);
	putchar(']');
}

struct column {
	const char *key;
	unsigned int width;
	bool num;		/* right-aligned */
};

static void table_cell(const struct column *col, bool first, const char *s)
{
	printf("%s%*s", first ? "" : "  ",
	       col->num ? (int)col->width : -(int)col->width, s);
}

/* a column's width and alignment: those of its widest value */
static void table_column(struct column *col, const struct recs *t)
{
	const struct field *f;
	unsigned int i;

	col->width = strlen(col->key);
	for (i = 0; i < t->n; i++) {
		f = rec_find(&t->r[i], col->key);
		if (f && strlen(field_val(&t->r[i], f)) > col->width)
			col->width = strlen(field_val(&t->r[i], f));
		if (f && f->num)
			col->num = true;
	}
}

/* the fields @keys of @t as a table, under their keys in capitals */
static void table_print(const struct recs *t, const char *const *keys)
{
	struct column cols[REC_FIELDS] = {};
	const struct field *f;
	unsigned int i, j, n;
	char hdr[32];

	for (n = 0; keys[n]; n++) {
		cols[n].key = keys[n];
		table_column(&cols[n], t);
	}
	for (j = 0; j < n; j++) {
		for (i = 0; keys[j][i] && i < sizeof(hdr) - 1; i++)
			hdr[i] = toupper((unsigned char)keys[j][i]);
		hdr[i] = '\0';
		table_cell(&cols[j], !j, hdr);
	}
	putchar('\n');
	for (i = 0; i < t->n; i++) {
		for (j = 0; j < n; j++) {
			f = rec_find(&t->r[i], keys[j]);
			table_cell(&cols[j], !j, f ? field_val(&t->r[i], f) : "-");
		}
		putchar('\n');
	}
}

/* ---- records from netlink attributes ------------------------------------ */

static void parse_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb,
			unsigned int max)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= max)
			tb[mnl_attr_get_type(a)] = a;
}

/* NLA_UINT: 4 or 8 bytes */
static uint64_t attr_uint(const struct nlattr *a)
{
	if (mnl_attr_get_payload_len(a) == sizeof(uint64_t))
		return mnl_attr_get_u64(a);
	if (mnl_attr_get_payload_len(a) == sizeof(uint32_t))
		return mnl_attr_get_u32(a);
	return 0;
}

static bool attr_ok(const struct nlattr *a, enum mnl_attr_data_type type)
{
	return a && mnl_attr_validate(a, type) >= 0;
}

static void rec_attr_u32(struct rec *r, const char *key, const char *pre,
			 const struct nlattr *a)
{
	if (attr_ok(a, MNL_TYPE_U32))
		rec_num(r, key, pre, NULL, mnl_attr_get_u32(a));
}

static void rec_attr_uint(struct rec *r, const char *key, const char *pre,
			  const char *post, const struct nlattr *a)
{
	if (a)
		rec_num(r, key, pre, post, attr_uint(a));
}

/* "tx 1 pkts 2 bytes"; JSON "tx_packets", "tx_bytes" */
static void rec_traffic(struct rec *r, const char *pre, const char *kpkts,
			const char *kbytes, const struct nlattr *pkts,
			const struct nlattr *bytes)
{
	rec_attr_uint(r, kpkts, pre, " pkts", pkts);
	rec_attr_uint(r, kbytes, "", " bytes", bytes);
}

static void rec_attr_addr(struct rec *r, const char *key, const char *pre,
			  const struct nlattr *a)
{
	if (a && mnl_attr_get_payload_len(a) == sizeof(struct in6_addr))
		rec_addr(r, key, pre, mnl_attr_get_payload(a));
}

/* the name of enum value @a, "UNKNOWN" if it has none; NULL: no value */
static const char *attr_enum(const struct nlattr *a, const char *const *names,
			     unsigned int n)
{
	uint32_t v;

	if (!attr_ok(a, MNL_TYPE_U32))
		return NULL;
	v = mnl_attr_get_u32(a);
	return v < n && names[v] ? names[v] : "UNKNOWN";
}

static void rec_attr_enum(struct rec *r, const char *key, const char *pre,
			  const struct nlattr *a, const char *const *names,
			  unsigned int n)
{
	const char *name = attr_enum(a, names, n);

	if (name)
		rec_str(r, key, pre, NULL, name);
}

static void rec_attr_ifname(struct rec *r, const struct nlattr *a)
{
	char name[IF_NAMESIZE];

	if (!attr_ok(a, MNL_TYPE_U32))
		return;
	if (if_indextoname(mnl_attr_get_u32(a), name))
		rec_str(r, "netdev", "netdev ", NULL, name);
	else
		rec_num(r, "ifindex", "ifindex ", NULL, mnl_attr_get_u32(a));
}

/* the device name that starts every line; @post ":" for dev show */
static bool rec_dev(struct ctx *c, struct rec *r, const struct nlattr *a,
		    const char *post)
{
	const char *name = a ? mnl_attr_get_str(a) : c->dev;

	if (!name)
		return false;
	rec_str(r, "dev", "", post, name);
	return true;
}

/* ---- generic netlink ------------------------------------------------ */

/* the extack message of an NLMSG_ERROR or NLMSG_DONE, TLVs after @off */
static void get_extack(struct ctx *c, const struct nlmsghdr *nlh, unsigned int off)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	mnl_attr_for_each(a, nlh, off)
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(c->errmsg, sizeof(c->errmsg), "%s",
				 mnl_attr_get_str(a));
}

/* NLMSG_ERROR: keep the errno and the extack message */
static int cb_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&err->msg);
	get_extack(data, nlh, off);
	errno = -err->error;
	return MNL_CB_ERROR;
}

/* NLMSG_DONE: the end of a dump, which carries its error, if any */
static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(err))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err >= 0)
		return MNL_CB_STOP;
	get_extack(data, nlh, sizeof(err));
	errno = -err;
	return MNL_CB_ERROR;
}

static int cb_noop(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_OK;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP] = cb_noop,
	[NLMSG_ERROR] = cb_error,
	[NLMSG_DONE] = cb_done,
	[NLMSG_OVERRUN] = cb_noop,
};

static struct nlmsghdr *msg_new(struct ctx *c, char *buf, uint16_t type,
				uint16_t flags, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++c->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : MRC_FAMILY_VERSION;
	return nlh;
}

/* an mrc request naming device @dev (if any) in attribute @dev_attr */
static struct nlmsghdr *mrc_msg(struct ctx *c, char *buf, uint8_t cmd,
				uint16_t flags, uint16_t dev_attr, const char *dev)
{
	struct nlmsghdr *nlh = msg_new(c, buf, c->family, flags, cmd);

	if (dev)
		mnl_attr_put_strz(nlh, dev_attr, dev);
	return nlh;
}

/* send @nlh and run @cb on every reply; 0 or -1 with errno (+c->errmsg) */
static int transact(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(c->nl);
	int ret;

	c->errmsg[0] = '\0';
	if (mnl_socket_sendto(c->nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	do {
		ret = mnl_socket_recvfrom(c->nl, buf, sizeof(buf));
		if (ret <= 0)
			return -1;
		ret = mnl_cb_run2(buf, ret, nlh->nlmsg_seq, portid, cb, c,
				  ctl_cbs, NLMSG_MIN_TYPE);
	} while (ret > 0);
	return ret < 0 ? -1 : 0;
}

/* the multicast groups of CTRL_ATTR_MCAST_GROUPS: names and ids */
static void family_groups(struct ctx *c, const struct nlattr *nest)
{
	const struct nlattr *g, *a;
	struct mcgrp *m;

	mnl_attr_for_each_nested(g, nest) {
		if (c->ngroups == ARRAY_SIZE(c->groups))
			break;
		m = &c->groups[c->ngroups];
		memset(m, 0, sizeof(*m));
		mnl_attr_for_each_nested(a, g) {
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
			    attr_ok(a, MNL_TYPE_U32))
				m->id = mnl_attr_get_u32(a);
			if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_NAME &&
			    attr_ok(a, MNL_TYPE_NUL_STRING))
				snprintf(m->name, sizeof(m->name), "%s",
					 mnl_attr_get_str(a));
		}
		if (m->id && m->name[0])
			c->ngroups++;
	}
}

static int cb_family(const struct nlmsghdr *nlh, void *data)
{
	struct ctx *c = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID)
			c->family = mnl_attr_get_u16(a);
		if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GROUPS)
			family_groups(c, a);
	}
	return MNL_CB_OK;
}

static void nl_open(struct ctx *c)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	int one = 1;

	c->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!c->nl || mnl_socket_bind(c->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("mrcctl: netlink socket");
		exit(1);
	}
	mnl_socket_setsockopt(c->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(c->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	nlh = msg_new(c, buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, MRC_FAMILY_NAME);
	if (transact(c, nlh, cb_family) < 0 || !c->family) {
		if (errno == ENOENT)
			fprintf(stderr, "mrcctl: the mrc module is not loaded (no \"%s\" generic netlink family); try \"modprobe mrc\"\n",
				MRC_FAMILY_NAME);
		else
			fprintf(stderr, "mrcctl: cannot resolve the \"%s\" netlink family: %s\n",
				MRC_FAMILY_NAME, strerror(errno));
		exit(1);
	}
}

static int fail(struct ctx *c, const char *what)
{
	if (c->errmsg[0])
		fprintf(stderr, "mrcctl: Error: %s: %s (%s)\n", what, c->errmsg,
			strerror(errno));
	else
		fprintf(stderr, "mrcctl: Error: %s: %s\n", what, strerror(errno));
	return 1;
}

/* a request without reply data (add, del, set): 0, or 1 after the error */
static int request(struct ctx *c, struct nlmsghdr *nlh, const char *what)
{
	nlh->nlmsg_flags |= NLM_F_ACK;
	return transact(c, nlh, NULL) < 0 ? fail(c, what) : 0;
}

/* a get or dump whose objects @cb emits: 0, or 1 after the error */
static int query(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb,
		 const char *what)
{
	return transact(c, nlh, cb) < 0 ? fail(c, what) : 0;
}

/* a show: one get or dump, its objects as a list */
static int show(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb,
		const char *what)
{
	int ret;

	list_begin(c);
	ret = query(c, nlh, cb, what);
	list_end(c);
	return ret;
}

/* ---- dev ------------------------------------------------------------ */

static const char *const port_states[] = {
	[MRC_PORT_STATE_DOWN] = "DOWN",
	[MRC_PORT_STATE_ACTIVE] = "ACTIVE",
};

static void rec_guid(struct rec *r, const struct nlattr *a)
{
	char guid[24];
	uint64_t g;

	if (!a)
		return;
	g = attr_uint(a);
	snprintf(guid, sizeof(guid), "%04x:%04x:%04x:%04x",
		 (unsigned int)(g >> 48) & 0xffff, (unsigned int)(g >> 32) & 0xffff,
		 (unsigned int)(g >> 16) & 0xffff, (unsigned int)g & 0xffff);
	rec_str(r, "node_guid", "node_guid ", NULL, guid);
}

static int cb_dev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_DEV_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	parse_attrs(nlh, tb, MRC_A_DEV_MAX);
	if (!tb[MRC_A_DEV_NAME] || !tb[MRC_A_DEV_INDEX])
		return MNL_CB_OK;
	rec_dev(c, &r, tb[MRC_A_DEV_NAME], ":");
	rec_attr_u32(&r, "index", "index ", tb[MRC_A_DEV_INDEX]);
	rec_attr_ifname(&r, tb[MRC_A_DEV_NETDEV_IFINDEX]);
	rec_attr_enum(&r, "state", "state ", tb[MRC_A_DEV_PORT_STATE],
		      port_states, ARRAY_SIZE(port_states));
	rec_guid(&r, tb[MRC_A_DEV_NODE_GUID]);
	rec_attr_u32(&r, "planes", "planes ", tb[MRC_A_DEV_PLANES]);
	rec_attr_u32(&r, "evs", "evs ", tb[MRC_A_DEV_EV_COUNT]);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

static struct nlmsghdr *dev_msg(struct ctx *c, char *buf, const char *dev)
{
	return mrc_msg(c, buf, MRC_CMD_DEV_GET, dev ? NLM_F_ACK : NLM_F_DUMP,
		       MRC_A_DEV_NAME, dev);
}

static int dev_show(struct ctx *c, int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	const char *dev = argc ? argv[0] : NULL;

	if (argc > 1)
		die_usage("dev show: unexpected argument \"%s\"", argv[1]);
	if (dev)
		check_dev_name(dev);
	nl_open(c);
	return show(c, dev_msg(c, buf, dev), cb_dev, dev ? dev : "dev show");
}

static int dev_set(struct ctx *c, int argc, char **argv)
{
	struct arg evs = { .key = "evs", .type = ARG_U32, .min = EV_COUNT_MIN,
			   .max = MRC_MAX_EVS };
	struct arg *args[] = { &evs, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	if (!argc)
		die_usage("dev set: missing DEV");
	check_dev_name(argv[0]);
	parse_args("dev set", args, argc - 1, argv + 1);
	if (!evs.set)
		die_usage("dev set: nothing to set");
	nl_open(c);
	nlh = mrc_msg(c, buf, MRC_CMD_DEV_SET, 0, MRC_A_DEV_NAME, argv[0]);
	mnl_attr_put_u32(nlh, MRC_A_DEV_EV_COUNT, evs.u32);
	return request(c, nlh, argv[0]);
}

/* ---- plane ---------------------------------------------------------- */

static const char *const plane_states[] = {
	[MRC_PLANE_STATE_DOWN] = "DOWN",
	[MRC_PLANE_STATE_UP] = "UP",
};

static int cb_plane(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_PLANE_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	parse_attrs(nlh, tb, MRC_A_PLANE_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_PLANE_DEV_NAME], NULL))
		return MNL_CB_OK;
	rec_attr_u32(&r, "plane", "plane ", tb[MRC_A_PLANE_ID]);
	rec_attr_ifname(&r, tb[MRC_A_PLANE_IFINDEX]);
	rec_attr_enum(&r, "state", "state ", tb[MRC_A_PLANE_STATE],
		      plane_states, ARRAY_SIZE(plane_states));
	rec_traffic(&r, "tx ", "tx_packets", "tx_bytes",
		    tb[MRC_A_PLANE_TX_PACKETS], tb[MRC_A_PLANE_TX_BYTES]);
	rec_traffic(&r, "rx ", "rx_packets", "rx_bytes",
		    tb[MRC_A_PLANE_RX_PACKETS], tb[MRC_A_PLANE_RX_BYTES]);
	rec_attr_uint(&r, "retrans", "retrans ", NULL, tb[MRC_A_PLANE_RETRANS]);
	rec_attr_uint(&r, "losses", "lost ", NULL, tb[MRC_A_PLANE_LOSSES]);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

/* the ifindex of netdev @name; exits if there is none */
static unsigned int netdev_index(const char *name)
{
	unsigned int ifindex = if_nametoindex(name);

	if (!ifindex) {
		fprintf(stderr, "mrcctl: Error: no such netdev \"%s\"\n", name);
		exit(1);
	}
	return ifindex;
}

/* "[ dev DEV ]" of plane show and stats */
static const char *opt_dev(const char *cmd, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg *args[] = { &dev, NULL };

	parse_args(cmd, args, argc, argv);
	return dev.str;
}

static int plane_dump(struct ctx *c, const char *dev)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = mrc_msg(c, buf, MRC_CMD_PLANE_GET, NLM_F_DUMP,
		      MRC_A_PLANE_DEV_NAME, dev);
	return query(c, nlh, cb_plane, dev ? dev : "plane show");
}

static int plane_show(struct ctx *c, int argc, char **argv)
{
	const char *dev = opt_dev("plane show", argc, argv);
	int ret;

	nl_open(c);
	list_begin(c);
	ret = plane_dump(c, dev);
	list_end(c);
	return ret;
}

static int plane_add(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg netdev = { .key = "netdev", .type = ARG_STR };
	struct arg id = { .key = "id", .type = ARG_U32, .max = MRC_MAX_PLANES - 1 };
	struct arg *args[] = { &dev, &netdev, &id, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	unsigned int ifindex;

	parse_args("plane add", args, argc, argv);
	need("plane add", &dev);
	need("plane add", &netdev);
	ifindex = netdev_index(netdev.str);
	nl_open(c);
	nlh = mrc_msg(c, buf, MRC_CMD_PLANE_ADD, 0, MRC_A_PLANE_DEV_NAME, dev.str);
	mnl_attr_put_u32(nlh, MRC_A_PLANE_IFINDEX, ifindex);
	if (id.set)
		mnl_attr_put_u32(nlh, MRC_A_PLANE_ID, id.u32);
	return request(c, nlh, dev.str);
}

static int plane_del(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg netdev = { .key = "netdev", .type = ARG_STR };
	struct arg id = { .key = "id", .type = ARG_U32, .max = MRC_MAX_PLANES - 1 };
	struct arg *args[] = { &dev, &netdev, &id, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	unsigned int ifindex = 0;

	parse_args("plane del", args, argc, argv);
	need("plane del", &dev);
	if (id.set == netdev.set)
		die_usage("plane del: give either id N or netdev IFNAME");
	if (netdev.set)
		ifindex = netdev_index(netdev.str);
	nl_open(c);
	nlh = mrc_msg(c, buf, MRC_CMD_PLANE_DEL, 0, MRC_A_PLANE_DEV_NAME, dev.str);
	if (id.set)
		mnl_attr_put_u32(nlh, MRC_A_PLANE_ID, id.u32);
	else
		mnl_attr_put_u32(nlh, MRC_A_PLANE_IFINDEX, ifindex);
	return request(c, nlh, dev.str);
}

/* ---- path ----------------------------------------------------------- */

/* what path add/del (and fabric load) send */
struct path_spec {
	struct in6_addr peer, usid, remote;
	struct in6_addr segs[SRH_SEGS_MAX];
	unsigned int nsegs;	/* 0: not an srh path */
	uint32_t plane;
	bool has_plane, has_usid, has_remote;
};

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

static struct nlmsghdr *path_msg(struct ctx *c, char *buf, uint8_t cmd,
				 const char *dev, const struct path_spec *p)
{
	struct nlmsghdr *nlh;

	nlh = mrc_msg(c, buf, cmd, 0, MRC_A_PATH_DEV_NAME, dev);
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

/* a path as "path add" arguments ("dev DEV peer ... usid ...") */
static void rec_path_spec(struct rec *r, const char *dev, const struct path_spec *p)
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

	if (!attr_ok(a, MNL_TYPE_U32))
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
	uint8_t lb = attr_ok(lblen, MNL_TYPE_U8) ? mnl_attr_get_u8(lblen) : 32;
	uint8_t nf = attr_ok(nflen, MNL_TYPE_U8) ? mnl_attr_get_u8(nflen) : 16;

	if (lb == 32 && nf == 16)
		return;
	rec_num(r, "lblen", "lblen ", NULL, lb);
	rec_num(r, "nflen", "nflen ", NULL, nf);
}

static int cb_path(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_PATH_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	parse_attrs(nlh, tb, MRC_A_PATH_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_PATH_DEV_NAME], NULL))
		return MNL_CB_OK;
	rec_attr_addr(&r, "peer", "peer ", tb[MRC_A_PATH_PEER]);
	rec_attr_u32(&r, "plane", "plane ", tb[MRC_A_PATH_PLANE]);
	rec_path_mode(&r, tb[MRC_A_PATH_MODE]);
	rec_attr_addr(&r, "usid", "usid ", tb[MRC_A_PATH_USID]);
	rec_attr_segs(&r, tb[MRC_A_PATH_SEGS]);
	rec_attr_addr(&r, "remote", "remote ", tb[MRC_A_PATH_REMOTE]);
	rec_usid_format(&r, tb[MRC_A_PATH_LBLEN], tb[MRC_A_PATH_NFLEN]);
	rec_attr_u32(&r, "path", "path ", tb[MRC_A_PATH_ID]);
	rec_traffic(&r, "tx ", "tx_packets", "tx_bytes",
		    tb[MRC_A_PATH_TX_PACKETS], tb[MRC_A_PATH_TX_BYTES]);
	rec_emit(c, &r);
	return MNL_CB_OK;
}

/* the path sets of @dev, or of every device; of @peer or of all */
static int path_dump(struct ctx *c, const char *dev, const struct in6_addr *peer)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = mrc_msg(c, buf, MRC_CMD_PATH_GET, NLM_F_DUMP,
		      MRC_A_PATH_DEV_NAME, dev);
	if (peer)
		mnl_attr_put(nlh, MRC_A_PATH_PEER, sizeof(*peer), peer);
	return query(c, nlh, cb_path, dev ? dev : "path show");
}

static int path_show(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg peer = { .key = "peer", .type = ARG_ADDR };
	struct arg *args[] = { &dev, &peer, NULL };
	int ret;

	parse_args("path show", args, argc, argv);
	nl_open(c);
	list_begin(c);
	ret = path_dump(c, dev.str, peer.set ? &peer.addr : NULL);
	list_end(c);
	return ret;
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
	bool add = nlcmd == MRC_CMD_PATH_ADD;
	const struct arg *sel;	/* what names the path: usid, srh or remote */

	parse_args(cmd, args, argc, argv);
	need(cmd, &dev);
	need(cmd, &peer);
	if (add)
		need(cmd, &plane);
	if (srh.set && segs.set)
		die_usage("%s: \"srh\" and \"segs\" are the same argument, give one",
			  cmd);
	if (segs.set)
		srh = segs;
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
	return request(c, path_msg(c, buf, nlcmd, dev.str, &p), dev.str);
}

static int path_add(struct ctx *c, int argc, char **argv)
{
	return path_change(c, "path add", MRC_CMD_PATH_ADD, argc, argv);
}

static int path_del(struct ctx *c, int argc, char **argv)
{
	return path_change(c, "path del", MRC_CMD_PATH_DEL, argc, argv);
}

/* ---- ev ------------------------------------------------------------- */

static const char *const ev_states[] = {
	[MRC_EV_STATE_GOOD] = "GOOD",
	[MRC_EV_STATE_SKIP] = "SKIP",
	[MRC_EV_STATE_ASSUMED_BAD] = "ASSUMED_BAD",
	[MRC_EV_STATE_DENIED] = "DENIED",
};

static void rec_ev_value(struct rec *r, const struct nlattr *a)
{
	char hex[16];

	if (!attr_ok(a, MNL_TYPE_U32))
		return;
	snprintf(hex, sizeof(hex), "0x%08" PRIx32, mnl_attr_get_u32(a));
	rec_str(r, "value", "value ", NULL, hex);
}

/*
 * The rotation slot: "slot N", or "slot -" in text (and no JSON key) for an
 * EV out of the rotation (a backup on standby, or one replaced by a backup).
 * A kernel without EV health (no probes either) gets neither.
 */
static void rec_ev_slot(struct rec *r, const struct nlattr **tb)
{
	if (attr_ok(tb[MRC_A_EV_SLOT], MNL_TYPE_U32))
		rec_attr_u32(r, "slot", "slot ", tb[MRC_A_EV_SLOT]);
	else if (tb[MRC_A_EV_PROBES])
		rec_str(r, NULL, "slot ", NULL, "-");
}

static int cb_ev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[MRC_A_EV_MAX + 1] = {};
	struct ctx *c = data;
	struct rec r = {};

	parse_attrs(nlh, tb, MRC_A_EV_MAX);
	if (!rec_dev(c, &r, tb[MRC_A_EV_DEV_NAME], NULL))
		return MNL_CB_OK;
	rec_attr_u32(&r, "qpn", "qpn ", tb[MRC_A_EV_QPN]);
	rec_attr_u32(&r, "ev", "ev ", tb[MRC_A_EV_INDEX]);
	rec_ev_value(&r, tb[MRC_A_EV_VALUE]);
	rec_attr_u32(&r, "plane", "plane ", tb[MRC_A_EV_PLANE]);
	rec_attr_u32(&r, "path", "path ", tb[MRC_A_EV_PATH_ID]);
	rec_attr_enum(&r, "state", "state ", tb[MRC_A_EV_STATE],
		      ev_states, ARRAY_SIZE(ev_states));
	rec_ev_slot(&r, tb);
	rec_traffic(&r, "tx ", "tx_packets", "tx_bytes",
		    tb[MRC_A_EV_TX_PACKETS], tb[MRC_A_EV_TX_BYTES]);
	rec_attr_uint(&r, "retrans", "retrans ", NULL, tb[MRC_A_EV_RETRANS]);
	rec_attr_uint(&r, "losses", "lost ", NULL, tb[MRC_A_EV_LOSSES]);
	rec_attr_uint(&r, "ecn", "ecn ", NULL, tb[MRC_A_EV_ECN]);
	rec_attr_uint(&r, "probes", "probes ", NULL, tb[MRC_A_EV_PROBES]);
	if (attr_ok(tb[MRC_A_EV_SRTT], MNL_TYPE_U32))
		rec_num(&r, "srtt_us", "srtt ", "us", mnl_attr_get_u32(tb[MRC_A_EV_SRTT]));
	rec_emit(c, &r);
	return MNL_CB_OK;
}

static int ev_show(struct ctx *c, int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg qpn = { .key = "qpn", .type = ARG_U32, .max = QPN_MAX };
	struct arg *args[] = { &dev, &qpn, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	parse_args("ev show", args, argc, argv);
	need("ev show", &dev);
	need("ev show", &qpn);
	nl_open(c);
	nlh = mrc_msg(c, buf, MRC_CMD_EV_GET, NLM_F_DUMP, MRC_A_EV_DEV_NAME, dev.str);
	mnl_attr_put_u32(nlh, MRC_A_EV_QPN, qpn.u32);
	c->dev = dev.str;
	return show(c, nlh, cb_ev, dev.str);
}

/*
 * ev { deny | allow } dev DEV qpn N index I: EV_SET to @state; "ev I", the
 * key of ev show, is the same as "index I"
 */
static int ev_set(struct ctx *c, const char *cmd, uint32_t state, int argc,
		  char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg qpn = { .key = "qpn", .type = ARG_U32, .max = QPN_MAX };
	struct arg index = { .key = "index", .type = ARG_U32, .max = MRC_MAX_EVS - 1 };
	struct arg ev = { .key = "ev", .type = ARG_U32, .max = MRC_MAX_EVS - 1 };
	struct arg *args[] = { &dev, &qpn, &index, &ev, NULL };
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	parse_args(cmd, args, argc, argv);
	need(cmd, &dev);
	need(cmd, &qpn);
	if (index.set && ev.set)
		die_usage("%s: \"index\" and \"ev\" are the same argument, give one",
			  cmd);
	if (ev.set)
		index = ev;
	need(cmd, &index);
	nl_open(c);
	nlh = mrc_msg(c, buf, MRC_CMD_EV_SET, 0, MRC_A_EV_DEV_NAME, dev.str);
	mnl_attr_put_u32(nlh, MRC_A_EV_QPN, qpn.u32);
	mnl_attr_put_u32(nlh, MRC_A_EV_INDEX, index.u32);
	mnl_attr_put_u32(nlh, MRC_A_EV_STATE, state);
	return request(c, nlh, dev.str);
}

static int ev_deny(struct ctx *c, int argc, char **argv)
{
	return ev_set(c, "ev deny", MRC_EV_STATE_DENIED, argc, argv);
}

static int ev_allow(struct ctx *c, int argc, char **argv)
{
	return ev_set(c, "ev allow", MRC_EV_STATE_GOOD, argc, argv);
}

/* ---- stats ---------------------------------------------------------- */

static const char *const plane_cols[] = {
	"dev", "plane", "netdev", "state", "tx_packets", "tx_bytes",
	"rx_packets", "rx_bytes", "retrans", "losses", NULL
};

static const char *const path_cols[] = {
	"dev", "peer", "plane", "path", "mode", "tx_packets", "tx_bytes", NULL
};

static void stats_print(struct ctx *c, const struct recs *planes,
			const struct recs *paths)
{
	if (!c->json) {
		table_print(planes, plane_cols);
		putchar('\n');
		table_print(paths, path_cols);
		return;
	}
	putchar('{');
	json_key(c, 1, "planes");
	json_array(c, planes, 1);
	putchar(',');
	json_key(c, 1, "paths");
	json_array(c, paths, 1);
	indent(c, 0);
	puts("}");
}

static int stats(struct ctx *c, int argc, char **argv)
{
	const char *dev = opt_dev("stats", argc, argv);
	struct recs planes = {}, paths = {};
	int ret;

	nl_open(c);
	c->collect = &planes;
	ret = plane_dump(c, dev);
	c->collect = &paths;
	if (!ret)
		ret = path_dump(c, dev, NULL);
	c->collect = NULL;
	if (!ret)
		stats_print(c, &planes, &paths);
	free(planes.r);
	free(paths.r);
	return ret;
}

/* ---- monitor -------------------------------------------------------- */

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

#define EVENT_ATTR_MAX	31	/* at least the max of every event */

/* a plane was added or changed state ("netdev N UP"), or was removed */
static void mon_plane(struct rec *r, const struct nlattr **tb)
{
	rec_attr_u32(r, "plane", "plane ", tb[MRC_A_PLANE_ID]);
	if (!tb[MRC_A_PLANE_IFINDEX] && !tb[MRC_A_PLANE_STATE]) {
		rec_str(r, "state", "", NULL, "REMOVED");
		return;
	}
	rec_attr_ifname(r, tb[MRC_A_PLANE_IFINDEX]);
	rec_attr_enum(r, "state", "", tb[MRC_A_PLANE_STATE], plane_states,
		      ARRAY_SIZE(plane_states));
}

/* a peer's path set changed: path show tells how */
static void mon_path(struct rec *r, const struct nlattr **tb)
{
	rec_attr_addr(r, "peer", "peer ", tb[MRC_A_PATH_PEER]);
	rec_str(r, NULL, "", NULL, "changed");
}

static const char *const ev_causes[] = {
	[MRC_EV_CAUSE_LOSS] = "loss",
	[MRC_EV_CAUSE_PROBE] = "probe",
	[MRC_EV_CAUSE_DENY] = "deny",
	[MRC_EV_CAUSE_ALLOW] = "allow",
};

/*
 * an EV of a QP changed state: "qpn N ev I value V plane P path J OLD -> NEW
 * (CAUSE) [ backup K ]"; the time only in JSON
 */
static void mon_ev(struct rec *r, const struct nlattr **tb)
{
	const char *cause = attr_enum(tb[MRC_A_EV_CAUSE], ev_causes,
				      ARRAY_SIZE(ev_causes));

	rec_attr_u32(r, "qpn", "qpn ", tb[MRC_A_EV_QPN]);
	rec_attr_u32(r, "ev", "ev ", tb[MRC_A_EV_INDEX]);
	rec_ev_value(r, tb[MRC_A_EV_VALUE]);
	rec_attr_u32(r, "plane", "plane ", tb[MRC_A_EV_PLANE]);
	rec_attr_u32(r, "path", "path ", tb[MRC_A_EV_PATH_ID]);
	rec_attr_enum(r, "old_state", "", tb[MRC_A_EV_OLD_STATE], ev_states,
		      ARRAY_SIZE(ev_states));
	rec_attr_enum(r, "state", "-> ", tb[MRC_A_EV_STATE], ev_states,
		      ARRAY_SIZE(ev_states));
	if (cause)
		rec_str(r, "cause", "(", ")", cause);
	rec_attr_u32(r, "backup", "backup ", tb[MRC_A_EV_BACKUP]);
	if (tb[MRC_A_EV_TIME])
		rec_num(r, "time_ns", NULL, NULL, attr_uint(tb[MRC_A_EV_TIME]));
}

static const struct event events[] = {
	{ MRC_CMD_PLANE_CHANGE_NTF, "plane", MRC_A_PLANE_MAX,
	  MRC_A_PLANE_DEV_NAME, mon_plane },
	{ MRC_CMD_PATH_CHANGE_NTF, "path", MRC_A_PATH_MAX,
	  MRC_A_PATH_DEV_NAME, mon_path },
	{ MRC_CMD_EV_CHANGE_NTF, "ev", MRC_A_EV_MAX,
	  MRC_A_EV_DEV_NAME, mon_ev },
};

static_assert(EVENT_ATTR_MAX >= MRC_A_PLANE_MAX, "EVENT_ATTR_MAX is too small");
static_assert(EVENT_ATTR_MAX >= MRC_A_PATH_MAX, "EVENT_ATTR_MAX is too small");
static_assert(EVENT_ATTR_MAX >= MRC_A_EV_MAX, "EVENT_ATTR_MAX is too small");

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
	const struct nlattr *tb[EVENT_ATTR_MAX + 1] = {};
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct event *e;
	struct ctx *c = data;
	struct rec r = {};
	const char *dev;

	if (nlh->nlmsg_type != c->family ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*g))
		return MNL_CB_OK;
	e = mon_event(g->cmd);
	if (!e)
		return MNL_CB_OK;	/* one this mrcctl does not know */
	parse_attrs(nlh, tb, e->max);
	if (!attr_ok(tb[e->dev_attr], MNL_TYPE_NUL_STRING))
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

/* the id of the family's multicast group @name; 0: there is none */
static uint32_t mcgrp_id(const struct ctx *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->ngroups; i++)
		if (!strcmp(c->groups[i].name, name))
			return c->groups[i].id;
	return 0;
}

/* join mon_groups; exits if the family has none of them */
static void mon_join(struct ctx *c)
{
	unsigned int i, joined = 0;
	int rcvbuf = 4 << 20;
	uint32_t id;

	/* EV changes come in bursts (a path dies: all its EVs at once) */
	if (setsockopt(mnl_socket_get_fd(c->nl), SOL_SOCKET, SO_RCVBUFFORCE,
		       &rcvbuf, sizeof(rcvbuf)) < 0)
		setsockopt(mnl_socket_get_fd(c->nl), SOL_SOCKET, SO_RCVBUF,
			   &rcvbuf, sizeof(rcvbuf));

	for (i = 0; i < ARRAY_SIZE(mon_groups); i++) {
		id = mcgrp_id(c, mon_groups[i]);
		if (!id)
			continue;
		if (mnl_socket_setsockopt(c->nl, NETLINK_ADD_MEMBERSHIP, &id,
					  sizeof(id)) < 0) {
			fprintf(stderr, "mrcctl: Error: cannot join multicast group \"%s\": %s\n",
				mon_groups[i], strerror(errno));
			exit(1);
		}
		joined++;
	}
	if (!joined) {
		fprintf(stderr, "mrcctl: Error: the \"%s\" family has no \"%s\" multicast group\n",
			MRC_FAMILY_NAME, MRC_MCGRP_CONFIG);
		exit(1);
	}
}

/* monitor [ dev DEV ] [ count N ]: print notifications until a signal */
static int monitor(struct ctx *c, int argc, char **argv)
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
		ret = mnl_socket_recvfrom(c->nl, buf, sizeof(buf));
		if (ret < 0 && errno == ENOBUFS)
			fputs("mrcctl: Warning: events were lost (socket receive buffer overrun)\n",
			      stderr);
		if (ret < 0 && (errno == ENOBUFS || errno == EINTR))
			continue;
		if (ret <= 0)
			return fail(c, "monitor");
		ret = mnl_cb_run2(buf, ret, 0, 0, cb_event, c, ctl_cbs,
				  NLMSG_MIN_TYPE);
		if (ret <= 0)
			break;
	}
	return ret < 0 ? fail(c, "monitor") : 0;
}

/* ---- fabric --------------------------------------------------------- */

/* the uSIDs of one tier (T0 or T1) of one plane, by switch index */
struct tier {
	uint16_t *usid;
	unsigned int n;
	int line;		/* where given; 0: not given */
};

struct host {
	char *name;
	struct in6_addr node;
	uint32_t t0;
	uint16_t usid;
	struct in6_addr addr[MRC_MAX_PLANES];
	uint32_t has_addr;	/* bit p: addr[p] given */
	int line;
};

struct fabric {
	const char *file;
	int line;		/* the line being read */
	struct in6_addr block;
	int block_line;
	uint32_t planes;
	int planes_line;
	struct tier t0[MRC_MAX_PLANES], t1[MRC_MAX_PLANES];
	struct host *hosts;
	unsigned int nhosts;
};

static void __attribute__((noreturn, format(printf, 3, 4)))
fab_err(const struct fabric *f, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (line)
		fprintf(stderr, "mrcctl: %s:%d: ", f->file, line);
	else
		fprintf(stderr, "mrcctl: %s: ", f->file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static void fab_nargs(const struct fabric *f, int argc, int min, int max,
		      const char *syntax)
{
	if (argc < min || (max && argc > max))
		fab_err(f, f->line, "expected \"%s\"", syntax);
}

static uint32_t fab_plane(const struct fabric *f, const char *s)
{
	uint32_t p;

	if (!parse_u32(s, MRC_MAX_PLANES - 1, &p))
		fab_err(f, f->line, "invalid plane \"%s\" (0..%d)", s,
			MRC_MAX_PLANES - 1);
	return p;
}

static uint16_t fab_usid(const struct fabric *f, const char *s)
{
	uint16_t v;

	if (!parse_usid(s, &v))
		fab_err(f, f->line, "invalid uSID \"%s\" (1 to 4 hex digits, not 0)", s);
	return v;
}

static void fab_addr(const struct fabric *f, const char *s, struct in6_addr *a)
{
	if (inet_pton(AF_INET6, s, a) != 1)
		fab_err(f, f->line, "invalid IPv6 address \"%s\"", s);
}

static void fab_once(const struct fabric *f, int *line, const char *what)
{
	if (*line)
		fab_err(f, f->line, "second %s (the first is on line %d)", what, *line);
	*line = f->line;
}

static void fab_block(struct fabric *f, int argc, char **argv)
{
	char *len;
	int i;

	fab_nargs(f, argc, 2, 2, "block PREFIX/32");
	fab_once(f, &f->block_line, "block");
	len = strchr(argv[1], '/');
	if (!len || strcmp(len, "/32"))
		fab_err(f, f->line, "block \"%s\": only /32 locator blocks (F3216) are supported",
			argv[1]);
	*len = '\0';
	fab_addr(f, argv[1], &f->block);
	for (i = 4; i < 16; i++)
		if (f->block.s6_addr[i])
			fab_err(f, f->line, "block %s/32 has bits set after the first 32",
				argv[1]);
}

static void fab_planes(struct fabric *f, int argc, char **argv)
{
	fab_nargs(f, argc, 2, 2, "planes N");
	fab_once(f, &f->planes_line, "planes");
	if (!parse_u32(argv[1], MRC_MAX_PLANES, &f->planes) || !f->planes)
		fab_err(f, f->line, "invalid number of planes \"%s\" (1..%d)",
			argv[1], MRC_MAX_PLANES);
}

static void fab_tier(struct fabric *f, struct tier *tiers, int argc, char **argv)
{
	struct tier *t;
	int i;

	if (argc < 3)
		fab_err(f, f->line, "expected \"%s PLANE USID...\"", argv[0]);
	t = &tiers[fab_plane(f, argv[1])];
	fab_once(f, &t->line, argv[0]);
	t->n = argc - 2;
	t->usid = xrealloc(NULL, t->n * sizeof(*t->usid));
	for (i = 2; i < argc; i++)
		t->usid[i - 2] = fab_usid(f, argv[i]);
}

static const struct host *fab_find(const struct fabric *f, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->nhosts; i++)
		if (!strcmp(f->hosts[i].name, name))
			return &f->hosts[i];
	return NULL;
}

static void fab_host_unique(const struct fabric *f, const struct host *h)
{
	const struct host *o;
	char a[INET6_ADDRSTRLEN];

	for (o = f->hosts; o < h; o++)
		if (!memcmp(&o->node, &h->node, sizeof(h->node)))
			fab_err(f, f->line, "host %s: node %s is host %s's (line %d)",
				h->name, inet_ntop(AF_INET6, &h->node, a, sizeof(a)),
				o->name, o->line);
}

#define HOST_SYNTAX	"host NAME node ADDR t0 INDEX usid USID [ plane N addr ADDR ]..."

static void fab_host_plane(const struct fabric *f, struct host *h,
			   const char *plane, const char *addr)
{
	uint32_t p = fab_plane(f, plane);

	if (h->has_addr & (1u << p))
		fab_err(f, f->line, "host %s: second address on plane %u", h->name, p);
	h->has_addr |= 1u << p;
	fab_addr(f, addr, &h->addr[p]);
}

static void fab_host_key(const struct fabric *f, struct host *h, int key,
			 const char *val)
{
	switch (key) {
	case 0:
		fab_addr(f, val, &h->node);
		break;
	case 1:
		if (!parse_u32(val, UINT32_MAX, &h->t0))
			fab_err(f, f->line, "host %s: invalid t0 index \"%s\"",
				h->name, val);
		break;
	case 2:
		h->usid = fab_usid(f, val);
		break;
	}
}

/* "node A", "t0 I", "usid U" and "plane P addr A"s, in any order */
static void fab_host_args(const struct fabric *f, struct host *h, int argc,
			  char **argv)
{
	static const char *const keys[] = { "node", "t0", "usid" };
	unsigned int seen = 0, k;
	int i, n;

	for (i = 2; i < argc; i += n) {
		n = strcmp(argv[i], "plane") ? 2 : 4;
		if (i + n > argc || (n == 4 && strcmp(argv[i + 2], "addr")))
			fab_err(f, f->line, "expected \"%s\"", HOST_SYNTAX);
		if (n == 4) {
			fab_host_plane(f, h, argv[i + 1], argv[i + 3]);
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(keys) && strcmp(argv[i], keys[k]); k++)
			;
		if (k == ARRAY_SIZE(keys))
			fab_err(f, f->line, "host %s: unknown keyword \"%s\"",
				h->name, argv[i]);
		if (seen & (1u << k))
			fab_err(f, f->line, "host %s: second %s", h->name, argv[i]);
		seen |= 1u << k;
		fab_host_key(f, h, k, argv[i + 1]);
	}
	for (k = 0; k < ARRAY_SIZE(keys); k++)
		if (!(seen & (1u << k)))
			fab_err(f, f->line, "host %s: missing \"%s\"", h->name, keys[k]);
}

static void fab_host(struct fabric *f, int argc, char **argv)
{
	const struct host *dup;
	struct host *h;

	fab_nargs(f, argc, 2, 0, HOST_SYNTAX);
	dup = fab_find(f, argv[1]);
	if (dup)
		fab_err(f, f->line, "second host \"%s\" (the first is on line %d)",
			argv[1], dup->line);
	f->hosts = xrealloc(f->hosts, (f->nhosts + 1) * sizeof(*f->hosts));
	h = &f->hosts[f->nhosts];
	memset(h, 0, sizeof(*h));
	h->name = strdup(argv[1]);
	h->line = f->line;
	fab_host_args(f, h, argc, argv);
	fab_host_unique(f, h);
	f->nhosts++;
}

/* split @line at blanks, up to a '#' */
static int fab_words(char *line, char ***words)
{
	char *w, *save = NULL;
	int n = 0;

	line[strcspn(line, "#")] = '\0';
	for (w = strtok_r(line, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		*words = xrealloc(*words, (n + 1) * sizeof(**words));
		(*words)[n++] = w;
	}
	return n;
}

static void fab_line(struct fabric *f, int argc, char **argv)
{
	if (!strcmp(argv[0], "block"))
		fab_block(f, argc, argv);
	else if (!strcmp(argv[0], "planes"))
		fab_planes(f, argc, argv);
	else if (!strcmp(argv[0], "t0"))
		fab_tier(f, f->t0, argc, argv);
	else if (!strcmp(argv[0], "t1"))
		fab_tier(f, f->t1, argc, argv);
	else if (!strcmp(argv[0], "host"))
		fab_host(f, argc, argv);
	else
		fab_err(f, f->line, "unknown directive \"%s\"", argv[0]);
}

static void fab_read(struct fabric *f)
{
	char *line = NULL, **words = NULL;
	size_t size = 0;
	FILE *in;
	int n;

	in = fopen(f->file, "r");
	if (!in)
		fab_err(f, 0, "%s", strerror(errno));
	while (getline(&line, &size, in) >= 0) {
		f->line++;
		n = fab_words(line, &words);
		if (n)
			fab_line(f, n, words);
	}
	if (ferror(in))
		fab_err(f, 0, "%s", strerror(errno));
	fclose(in);
	free(line);
	free(words);
}

static void fab_check_tiers(const struct fabric *f, const struct tier *tiers,
			    const char *name)
{
	uint32_t p;

	for (p = 0; p < MRC_MAX_PLANES; p++) {
		if (p >= f->planes && tiers[p].line)
			fab_err(f, tiers[p].line, "plane %u out of range (planes %u)",
				p, f->planes);
		if (p < f->planes && !tiers[p].line)
			fab_err(f, 0, "plane %u has no %s line", p, name);
	}
}

static void fab_check_host(const struct fabric *f, const struct host *h)
{
	uint32_t p;

	if (h->has_addr >> f->planes)
		fab_err(f, h->line, "host %s: plane %u out of range (planes %u)",
			h->name, f->planes + __builtin_ctz(h->has_addr >> f->planes),
			f->planes);
	for (p = 0; p < f->planes; p++)
		if (h->t0 >= f->t0[p].n)
			fab_err(f, h->line, "host %s: t0 index %u out of range (plane %u has %u T0 switches)",
				h->name, h->t0, p, f->t0[p].n);
}

static void fab_check(const struct fabric *f)
{
	unsigned int i, paths = 0;
	uint32_t p;

	if (!f->block_line)
		fab_err(f, 0, "no block line");
	if (!f->planes_line)
		fab_err(f, 0, "no planes line");
	fab_check_tiers(f, f->t0, "t0");
	fab_check_tiers(f, f->t1, "t1");
	for (i = 0; i < f->nhosts; i++)
		fab_check_host(f, &f->hosts[i]);
	for (p = 0; p < f->planes; p++)
		paths += f->t1[p].n;
	if (paths > MRC_MAX_PATHS)
		fab_err(f, 0, "%u paths per peer (one per T1 switch of every plane), more than %d",
			paths, MRC_MAX_PATHS);
}

/* block | T0 of @s | T1 @j | T0 of @d | @d, on plane @p */
static void fab_container(const struct fabric *f, uint32_t p, unsigned int j,
			  const struct host *s, const struct host *d,
			  struct in6_addr *a)
{
	uint16_t hops[] = {
		f->t0[p].usid[s->t0], f->t1[p].usid[j], f->t0[p].usid[d->t0], d->usid,
	};
	unsigned int i;

	memset(a, 0, sizeof(*a));
	memcpy(a->s6_addr, f->block.s6_addr, 4);
	for (i = 0; i < ARRAY_SIZE(hops); i++) {
		a->s6_addr[4 + 2 * i] = hops[i] >> 8;
		a->s6_addr[5 + 2 * i] = hops[i] & 0xff;
	}
}

/* the paths from @self to every other host; their number in @n */
static struct path_spec *fab_paths(const struct fabric *f, const struct host *self,
				   unsigned int *n)
{
	struct path_spec *paths = NULL, *ps;
	const struct host *d;
	unsigned int j;
	uint32_t p;

	*n = 0;
	for (d = f->hosts; d < f->hosts + f->nhosts; d++) {
		if (d == self)
			continue;
		for (p = 0; p < f->planes; p++) {
			paths = xrealloc(paths, (*n + f->t1[p].n) * sizeof(*paths));
			for (j = 0; j < f->t1[p].n; j++) {
				ps = &paths[(*n)++];
				memset(ps, 0, sizeof(*ps));
				ps->peer = d->node;
				ps->plane = p;
				ps->has_plane = true;
				ps->has_usid = true;
				fab_container(f, p, j, self, d, &ps->usid);
				ps->has_remote = d->has_addr & (1u << p);
				ps->remote = d->addr[p];
			}
		}
	}
	return paths;
}

static void fab_print(struct ctx *c, const char *dev, const struct path_spec *paths,
		      unsigned int n, unsigned int peers)
{
	struct rec r;
	unsigned int i;

	list_begin(c);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		if (!c->json)
			rec_str(&r, NULL, "", NULL, "mrcctl path add");
		rec_path_spec(&r, dev, &paths[i]);
		rec_emit(c, &r);
	}
	list_end(c);
	if (!c->json)
		printf("# %u paths to %u peers\n", n, peers);
}

static void fab_summary(struct ctx *c, unsigned int n, unsigned int peers)
{
	struct rec r = {};

	rec_num(&r, "paths", "loaded ", " paths", n);
	rec_num(&r, "peers", "to ", " peers", peers);
	if (!c->json) {
		rec_line(&r);
		return;
	}
	rec_json(c, &r, 0);
	putchar('\n');
}

static int fab_send(struct ctx *c, const char *dev, const struct path_spec *paths,
		    unsigned int n, unsigned int peers)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], what[1024];
	struct nlmsghdr *nlh;
	struct rec r;
	unsigned int i;

	nl_open(c);
	for (i = 0; i < n; i++) {
		nlh = path_msg(c, buf, MRC_CMD_PATH_ADD, dev, &paths[i]);
		nlh->nlmsg_flags |= NLM_F_ACK;
		if (!transact(c, nlh, NULL))
			continue;
		memset(&r, 0, sizeof(r));
		rec_path_spec(&r, dev, &paths[i]);
		rec_text(&r, buf, sizeof(buf));
		snprintf(what, sizeof(what), "\"path add %s\"", buf);
		fail(c, what);
		fprintf(stderr, "mrcctl: %u of %u paths were added before the error\n",
			i, n);
		return 1;
	}
	fab_summary(c, n, peers);
	return 0;
}

enum fab_mode { FAB_SHOW, FAB_DRY_RUN, FAB_LOAD };

/* fabric load FILE dev DEV host NAME [ -n ]; fabric show FILE host NAME */
static int fabric_run(struct ctx *c, const char *cmd, enum fab_mode mode,
		      int argc, char **argv)
{
	struct arg dev = { .key = "dev", .type = ARG_DEV };
	struct arg host = { .key = "host", .type = ARG_STR };
	struct arg *args[] = { &dev, &host, NULL };
	struct fabric f = {};
	const struct host *self;
	struct path_spec *paths;
	unsigned int n;
	int ret = 0;

	if (!argc)
		die_usage("%s: missing FILE", cmd);
	parse_args(cmd, args, argc - 1, argv + 1);
	if (mode != FAB_SHOW)
		need(cmd, &dev);
	need(cmd, &host);
	f.file = argv[0];
	fab_read(&f);
	fab_check(&f);
	self = fab_find(&f, host.str);
	if (!self)
		fab_err(&f, 0, "no host \"%s\"", host.str);
	paths = fab_paths(&f, self, &n);
	if (mode == FAB_LOAD)
		ret = fab_send(c, dev.str, paths, n, f.nhosts - 1);
	else
		fab_print(c, dev.str, paths, n, f.nhosts - 1);
	free(paths);
	return ret;
}

/* drop "-n" / "--dry-run" from the arguments; whether there was one */
static bool dry_run_flag(int *argc, char **argv)
{
	bool dry = false;
	int i, n = 0;

	for (i = 0; i < *argc; i++) {
		if (!strcmp(argv[i], "-n") || !strcmp(argv[i], "--dry-run"))
			dry = true;
		else
			argv[n++] = argv[i];
	}
	*argc = n;
	return dry;
}

static int fabric_load(struct ctx *c, int argc, char **argv)
{
	enum fab_mode mode = dry_run_flag(&argc, argv) ? FAB_DRY_RUN : FAB_LOAD;

	return fabric_run(c, "fabric load", mode, argc, argv);
}

static int fabric_show(struct ctx *c, int argc, char **argv)
{
	return fabric_run(c, "fabric show", FAB_SHOW, argc, argv);
}

/* ---- command line --------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("Usage: mrcctl [ OPTIONS ] OBJECT { COMMAND | help }\n"
	      "       mrcctl [ OPTIONS ] help\n"
	      "OBJECT := { dev | plane | path | ev | stats | fabric | monitor }\n"
	      "OPTIONS := { -j[son] | -p[retty] | -V[ersion] | -h[elp] }\n"
	      "\n"
	      "mrcctl dev show [ DEV ]\n"
	      "mrcctl dev set DEV evs N\n"
	      "mrcctl plane show [ dev DEV ]\n"
	      "mrcctl plane add dev DEV netdev IFNAME [ id N ]\n"
	      "mrcctl plane del dev DEV { id N | netdev IFNAME }\n"
	      "mrcctl path show [ dev DEV ] [ peer ADDR ]\n"
	      "mrcctl path add dev DEV peer ADDR plane N PATH\n"
	      "mrcctl path del dev DEV peer ADDR [ plane N [ usid CONTAINER | srh SEGS | remote ADDR ] ]\n"
	      "mrcctl ev show dev DEV qpn N\n"
	      "mrcctl ev { deny | allow } dev DEV qpn N index I\n"
	      "mrcctl stats [ dev DEV ]\n"
	      "mrcctl fabric load FILE dev DEV host NAME [ -n | --dry-run ]\n"
	      "mrcctl fabric show FILE host NAME [ dev DEV ]\n"
	      "mrcctl monitor [ dev DEV ] [ count N ]\n"
	      "\n"
	      "PATH := { usid CONTAINER [ remote ADDR ] | srh SEGS [ remote ADDR ] | remote ADDR }\n"
	      "SEGS := SEG[,SEG...]\n"
	      "\n"
	      "DEV is an mrc RDMA device, IFNAME an Ethernet netdev, ADDR an IPv6\n"
	      "address, CONTAINER an SRv6 uSID container (block, then 16-bit uSIDs,\n"
	      "zero-filled), SEGS an SRv6 segment list: 1 to 6 IPv6 addresses, the\n"
	      "first segment first (\"segs SEGS\" is the same as \"srh SEGS\").\n"
	      "Planes are numbered 0..15; plane 0 is the netdev of \"rdma link add\".\n"
	      "ev deny keeps EV I (0..255) of QP N from carrying data, whatever the\n"
	      "transport learns; ev allow makes it usable again (\"ev I\" is the same\n"
	      "as \"index I\"). monitor prints plane and path set changes and EV state\n"
	      "changes as they happen, until interrupted or after N events.\n"
	      "See mrcctl(8).\n"
	      "\n"
	      "Devices are created and removed with rdma(8):\n"
	      "	rdma link add DEV type mrc netdev NETDEV\n"
	      "	rdma link delete DEV\n", f);
}

struct cmd {
	const char *name;
	int (*fn)(struct ctx *c, int argc, char **argv);
};

static const struct cmd dev_cmds[] = {
	{ "show", dev_show }, { "list", dev_show }, { "set", dev_set }, {}
};

static const struct cmd plane_cmds[] = {
	{ "show", plane_show }, { "list", plane_show }, { "add", plane_add },
	{ "del", plane_del }, { "delete", plane_del }, {}
};

static const struct cmd path_cmds[] = {
	{ "show", path_show }, { "list", path_show }, { "add", path_add },
	{ "del", path_del }, { "delete", path_del }, {}
};

static const struct cmd ev_cmds[] = {
	{ "show", ev_show }, { "list", ev_show }, { "deny", ev_deny },
	{ "allow", ev_allow }, {}
};

static const struct cmd fabric_cmds[] = {
	{ "load", fabric_load }, { "show", fabric_show }, {}
};

static const struct {
	const char *name;
	const struct cmd *cmds;
} objects[] = {
	{ "dev", dev_cmds }, { "plane", plane_cmds }, { "path", path_cmds },
	{ "ev", ev_cmds }, { "fabric", fabric_cmds },
};

/* OBJECT [ COMMAND [ ARGS ] ]; no COMMAND is "show" where there is one */
static int do_object(struct ctx *c, const char *obj, const struct cmd *cmds,
		     int argc, char **argv)
{
	const struct cmd *k;

	if (!argc) {
		if (strcmp(cmds[0].name, "show"))
			die_usage("%s: missing command", obj);
		return cmds[0].fn(c, 0, argv);
	}
	if (!strcmp(argv[0], "help")) {
		usage(stdout);
		return 0;
	}
	for (k = cmds; k->name; k++)
		if (!strcmp(argv[0], k->name))
			return k->fn(c, argc - 1, argv + 1);
	die_usage("%s: unknown command \"%s\"", obj, argv[0]);
}

static int do_main(struct ctx *c, int argc, char **argv)
{
	unsigned int i;

	if (!strcmp(argv[0], "stats"))
		return stats(c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "monitor"))
		return monitor(c, argc - 1, argv + 1);
	for (i = 0; i < ARRAY_SIZE(objects); i++)
		if (!strcmp(argv[0], objects[i].name))
			return do_object(c, argv[0], objects[i].cmds, argc - 1,
					 argv + 1);
	die_usage("unknown object \"%s\"", argv[0]);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "Version", no_argument, NULL, 'V' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct ctx c = {};
	int o, ret;

	while ((o = getopt_long_only(argc, argv, "+jpVh", opts, NULL)) != -1) {
		switch (o) {
		case 'j':
			c.json = true;
			break;
		case 'p':
			c.pretty = true;
			break;
		case 'V':
			printf("mrcctl %s\n", MRCCTL_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc || !strcmp(argv[0], "help")) {
		usage(argc ? stdout : stderr);
		return argc ? 0 : 2;
	}
	if (!strcmp(argv[0], "version")) {
		printf("mrcctl %s\n", MRCCTL_VERSION);
		return 0;
	}
	ret = do_main(&c, argc, argv);
	if (c.nl)
		mnl_socket_close(c.nl);
	return ret;
}
