/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrcctl: what its files share. mrcctl.c: main, the commands, help;
 * parse.c: the command line's words; batch.c: commands from a file (-batch,
 * apply); apply.c: apply's profile lines on online profiles; rec.c:
 * records, printed as text or JSON; nl.c: requests and their errors over
 * mrcnl, the netlink client mrcctl shares with libmrc; then one
 * file an object: dev.c (and planes), link.c (dev add and del, over RDMA
 * netlink), path.c, ev.c (and EV profiles), fmt.c (EV format profiles),
 * cc.c, stats.c, monitor.c, fabric.c, probe.c.
 */
#ifndef MRCCTL_H
#define MRCCTL_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "linux/mrc.h"
#include "mrcnl.h"

#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif
#ifndef __noreturn
#define __noreturn	__attribute__((noreturn))
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define SRH_SEGS_MAX	6	/* the most segments of an srh path */
#define QPN_MAX		0xffffff	/* QP numbers are 24 bits */
#define NL_ATTR_MAX	47	/* at least the max of every attribute set */
#define NL_REPLY_MAX	65536	/* the largest reply read (nl_transact) */

static_assert(NL_ATTR_MAX >= MRC_A_PLANE_MAX, "NL_ATTR_MAX is too small");
static_assert(NL_ATTR_MAX >= MRC_A_PATH_MAX, "NL_ATTR_MAX is too small");
static_assert(NL_ATTR_MAX >= MRC_A_EV_MAX, "NL_ATTR_MAX is too small");
static_assert(NL_ATTR_MAX >= MRC_A_CC_MAX, "NL_ATTR_MAX is too small");
static_assert(NL_ATTR_MAX >= MRC_A_EP_MAX, "NL_ATTR_MAX is too small");
static_assert(NL_ATTR_MAX >= MRC_A_EV_FIELD_MAX, "NL_ATTR_MAX is too small");
static_assert(NL_ATTR_MAX >= MRC_A_EV_ENTRY_MAX, "NL_ATTR_MAX is too small");

#define EV_BYTES_MAX	32	/* an EV of an exp or gen profile (ev-bytes) */

struct recs;

struct ctx {
	struct mrcnl nl;	/* the family's client (tools/lib/mrc/mrcnl.h) */
	bool json;
	bool pretty;
	int count;		/* objects printed (JSON separators) */
	unsigned int limit;	/* monitor: stop after this many events; 0: never */
	struct recs *collect;	/* when set, objects are kept, not printed */
	const char *dev;	/* device asked for, if a reply omits its name */
	bool apply;		/* mrcctl apply: an add of what is there already,
				 * identical, succeeds (batch.c) */
	bool online_later;	/* apply: a later line of the file brings the
				 * profile of this profile line online */
	bool force;		/* -force: a batch goes on after a failed line */
};

/* ---- mrcctl.c ------------------------------------------------------- */

extern const char *err_where;	/* "FILE:LINE: " of the batch line run */
void __printf(1, 2) pr_err(const char *fmt, ...);
void __noreturn __printf(1, 2) die_usage(const char *fmt, ...);
void *xrealloc(void *p, size_t size);
int mrcctl_run(struct ctx *c, int argc, char **argv);

/* ---- batch.c: -batch FILE and apply FILE ----------------------------- */

int batch_run(struct ctx *c, const char *file);
int apply_run(struct ctx *c, int argc, char **argv);

/* ---- apply.c: apply's profile lines on an online profile ------------ */

#define APPLY_VAL_MAX	32	/* a value apply_u32() and apply_num() write */

bool apply_keeps_online(const struct ctx *c, bool state_set, uint32_t state);
struct nlmsghdr *apply_get_online(struct ctx *c, struct nlmsghdr *nlh,
				  uint16_t state_attr, unsigned int max);
int apply_cmp(const char *dev, const char *what, const char *key,
	      const char *have, const char *want);
const char *apply_u32(const struct nlattr *a, char *buf);
const char *apply_num(uint64_t v, char *buf);

/* ---- parse.c: words and keyword arguments --------------------------- */

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

bool parse_u32(const char *s, uint32_t max, uint32_t *v);
bool parse_num32(const char *s, uint32_t *v);
bool parse_ev_bytes(const char *s, uint8_t *b, size_t *len);
bool parse_usid(const char *s, uint16_t *v);
void parse_addr(const char *s, struct in6_addr *a);
void parse_dev_name(const char *name);
void parse_args(const char *cmd, struct arg **args, int argc, char **argv);
void parse_need(const char *cmd, const struct arg *a);
void parse_alias(const char *cmd, struct arg *a, const struct arg *alias);
const char *parse_opt_dev(const char *cmd, int argc, char **argv);

/* ---- profile.c: what cc profile and ev profile share ------------------ */

extern const char *const profile_states[3];
uint64_t parse_profile_id(const char *cmd, const struct arg *id);
uint32_t parse_profile_state(const char *cmd, const struct arg *state);
uint32_t parse_enum(const char *cmd, const struct arg *a,
		    const char *const *names, unsigned int n);

/* the requests and attributes of one kind of profile */
struct profile_kind {
	const char *cmd;	/* "KIND profile show" */
	uint8_t get;		/* its get command */
	uint16_t dev_name;	/* its attributes */
	uint16_t id;
};

/* ---- rec.c: records, printed as a line, a JSON object or a table row -- */

#define REC_FIELDS	32	/* an EV profile: 9, and a field of each of 16 */
#define REC_VAL_MAX	72	/* an IPv6 address, or 32 EV bytes in hex */

struct field {
	const char *key;	/* JSON key and table column; NULL: text only */
	const char *pre;	/* text before the value; NULL: not in text */
	const char *post;	/* text after the value */
	bool num;		/* a JSON number */
	bool list;		/* in rec.list, comma-separated: a JSON array
				 * (of numbers if num) */
	char val[REC_VAL_MAX];
};

struct rec {
	unsigned int n;
	struct field f[REC_FIELDS];
	/* of the list field: segments, or a plane's prefixes */
	char list[MRC_MAX_ALLOW * (INET6_ADDRSTRLEN + 4)];
};

struct recs {
	struct rec *r;
	unsigned int n, cap;
};

/*
 * Objects inside an object (an EV profile's fields, its EV array): in
 * JSON an array of objects under @key; in text a line each after the
 * object's own, indented, of those that have text fields.
 */
struct rec_sub {
	const char *key;
	const struct rec *r;
	unsigned int n;
};

void rec_str(struct rec *r, const char *key, const char *pre,
	     const char *post, const char *s);
void rec_num(struct rec *r, const char *key, const char *pre,
	     const char *post, uint64_t v);
void rec_addr(struct rec *r, const char *key, const char *pre,
	      const struct in6_addr *a);
void rec_list(struct rec *r, const char *key, const char *pre,
	      const char *s);
void rec_addrs(struct rec *r, const char *key, const char *pre,
	       const struct in6_addr *a, unsigned int n);
void rec_num_list(struct rec *r, const char *key, const char *pre,
		  const char *s);
void rec_ev_bytes(struct rec *r, const char *key, const char *pre,
		  const struct nlattr *a, const char *unset);
const struct field *rec_find(const struct rec *r, const char *key);
const char *rec_field_val(const struct rec *r, const struct field *f);
void rec_text(const struct rec *r, char *buf, size_t len);
void rec_indent(struct ctx *c, int depth);
void rec_json_key(struct ctx *c, int depth, const char *key);
void rec_json(struct ctx *c, const struct rec *r, int depth);
void rec_line(const struct rec *r);
void rec_emit(struct ctx *c, const struct rec *r);
void rec_emit_subs(struct ctx *c, const struct rec *r,
		   const struct rec_sub *subs, unsigned int nsubs);
void rec_list_begin(struct ctx *c);
void rec_list_end(struct ctx *c);

void rec_attr_u32(struct rec *r, const char *key, const char *pre,
		  const struct nlattr *a);
void rec_attr_uint(struct rec *r, const char *key, const char *pre,
		   const char *post, const struct nlattr *a);
void rec_traffic(struct rec *r, const char *pre, const char *kpkts,
		 const char *kbytes, const struct nlattr *pkts,
		 const struct nlattr *bytes);
void rec_attr_addr(struct rec *r, const char *key, const char *pre,
		   const struct nlattr *a);
const char *rec_enum_name(const struct nlattr *a, const char *const *names,
			  unsigned int n);
void rec_attr_enum(struct rec *r, const char *key, const char *pre,
		   const struct nlattr *a, const char *const *names,
		   unsigned int n);
void rec_attr_ifname(struct rec *r, const struct nlattr *a);
bool rec_dev(struct ctx *c, struct rec *r, const struct nlattr *a,
	     const char *post);
int rec_obj(struct ctx *c, const struct nlmsghdr *nlh, unsigned int max,
	    uint16_t dev_attr,
	    void (*fill)(struct rec *r, const struct nlattr **tb));

/* ---- nl.c ----------------------------------------------------------- */

void nl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb,
	      unsigned int max);
uint64_t nl_attr_uint(const struct nlattr *a);
bool nl_attr_ok(const struct nlattr *a, enum mnl_attr_data_type type);
struct nlmsghdr *nl_msg(struct ctx *c, char *buf, uint8_t cmd,
			uint16_t flags, uint16_t dev_attr, const char *dev);
int nl_run(struct ctx *c, const void *buf, size_t len, unsigned int seq,
	   unsigned int portid, mnl_cb_t cb);
int nl_transact(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb);
void nl_open(struct ctx *c);
bool nl_try_open(struct ctx *c);
int nl_fail(struct ctx *c, const char *what);
int nl_request(struct ctx *c, struct nlmsghdr *nlh, const char *what);
int nl_show(struct ctx *c, struct nlmsghdr *nlh, mnl_cb_t cb,
	    const char *what);

/* ---- dev.c ---------------------------------------------------------- */

int dev_show(struct ctx *c, int argc, char **argv);
int dev_set(struct ctx *c, int argc, char **argv);
int plane_dump(struct ctx *c, const char *dev);
int plane_show(struct ctx *c, int argc, char **argv);
int plane_add(struct ctx *c, int argc, char **argv);
int plane_del(struct ctx *c, int argc, char **argv);
int plane_set(struct ctx *c, int argc, char **argv);
void plane_ntf_rec(struct rec *r, const struct nlattr **tb);
#define IFNAME_BUF	24	/* a netdev's name, or "ifindex N" */

unsigned int netdev_index(const char *name);
const char *netdev_name(unsigned int ifindex, char *buf);

/* a plane as plane_list() finds it */
struct plane_ref {
	char dev[64];
	uint32_t id, ifindex;
};

int plane_list(struct ctx *c, struct plane_ref **planes);
const struct plane_ref *plane_find(const struct plane_ref *p, int n,
				   unsigned int ifindex);

/* ---- link.c --------------------------------------------------------- */

int dev_add(struct ctx *c, int argc, char **argv);
int dev_del(struct ctx *c, int argc, char **argv);

/* ---- cc.c ----------------------------------------------------------- */

int cc_show(struct ctx *c, int argc, char **argv);
int cc_set(struct ctx *c, int argc, char **argv);
int cc_profile(struct ctx *c, int argc, char **argv);
int profile_show(struct ctx *c, const struct profile_kind *k, mnl_cb_t cb,
		 int argc, char **argv);
void rec_profile(struct rec *r, const struct nlattr **tb, int id, int state,
		 int qps);

/* ---- path.c --------------------------------------------------------- */

/* what path add/del (and fabric load) send */
struct path_spec {
	struct in6_addr peer, usid, remote;
	struct in6_addr segs[SRH_SEGS_MAX];
	unsigned int nsegs;	/* 0: not an srh path */
	uint32_t plane;
	bool has_plane, has_usid, has_remote;
};

struct nlmsghdr *path_msg(struct ctx *c, char *buf, uint8_t cmd,
			  const char *dev, const struct path_spec *p);
int path_put(struct ctx *c, const char *dev, const struct path_spec *p,
	     const char *what, bool *had);
void path_spec_rec(struct rec *r, const char *dev, const struct path_spec *p);
int path_dump(struct ctx *c, const char *dev, const struct in6_addr *peer);
int path_show(struct ctx *c, int argc, char **argv);
int path_add(struct ctx *c, int argc, char **argv);
int path_del(struct ctx *c, int argc, char **argv);
void path_ntf_rec(struct rec *r, const struct nlattr **tb);

/* ---- ev.c ----------------------------------------------------------- */

int ev_show(struct ctx *c, int argc, char **argv);
int ev_deny(struct ctx *c, int argc, char **argv);
int ev_allow(struct ctx *c, int argc, char **argv);
int ev_set(struct ctx *c, int argc, char **argv);
int ev_profile(struct ctx *c, int argc, char **argv);
void ev_ntf_rec(struct rec *r, const struct nlattr **tb);

/* ---- fmt.c ---------------------------------------------------------- */

int ev_fmt(struct ctx *c, int argc, char **argv);

/* ---- probe.c -------------------------------------------------------- */

int probe_run(struct ctx *c, int argc, char **argv);

/* ---- stats.c, monitor.c, fabric.c ----------------------------------- */

int stats_show(struct ctx *c, int argc, char **argv);
int monitor_run(struct ctx *c, int argc, char **argv);
int fabric_load(struct ctx *c, int argc, char **argv);
int fabric_show(struct ctx *c, int argc, char **argv);

#endif /* MRCCTL_H */
