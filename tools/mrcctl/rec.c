// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: records, the objects of a show (or a monitor event), printed as a
 * line, a JSON object or (by stats.c) a table row; and records from netlink
 * attributes
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

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

void rec_str(struct rec *r, const char *key, const char *pre,
	     const char *post, const char *s)
{
	struct field *f = rec_add(r, key, pre, post, false);

	snprintf(f->val, sizeof(f->val), "%s", s);
}

void rec_num(struct rec *r, const char *key, const char *pre,
	     const char *post, uint64_t v)
{
	struct field *f = rec_add(r, key, pre, post, true);

	snprintf(f->val, sizeof(f->val), "%" PRIu64, v);
}

void rec_addr(struct rec *r, const char *key, const char *pre,
	      const struct in6_addr *a)
{
	struct field *f = rec_add(r, key, pre, NULL, false);

	inet_ntop(AF_INET6, a, f->val, sizeof(f->val));
}

const struct field *rec_find(const struct rec *r, const char *key)
{
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].key && !strcmp(r->f[i].key, key))
			return &r->f[i];
	return NULL;
}

const char *rec_field_val(const struct rec *r, const struct field *f)
{
	return f->list ? r->list : f->val;
}

/* @n addresses: "A,B,C" in text, ["A","B","C"] in JSON (one list a rec) */
void rec_addrs(struct rec *r, const char *key, const char *pre,
	       const struct in6_addr *a, unsigned int n)
{
	char buf[sizeof(r->list)];
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && i < SRH_SEGS_MAX; i++) {
		if (i)
			buf[len++] = ',';
		inet_ntop(AF_INET6, &a[i], buf + len, sizeof(buf) - len);
		len += strlen(buf + len);
	}
	rec_list(r, key, pre, buf);
}

/* @s: the record's list field, comma-separated (a JSON array) */
void rec_list(struct rec *r, const char *key, const char *pre, const char *s)
{
	struct field *f;
	unsigned int i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].list)
			abort();
	f = rec_add(r, key, pre, NULL, false);
	f->list = true;
	snprintf(r->list, sizeof(r->list), "%s", s);
}

/* @s: numbers "1,2,3", the record's list field (a JSON array of numbers) */
void rec_num_list(struct rec *r, const char *key, const char *pre,
		  const char *s)
{
	rec_list(r, key, pre, s);
	r->f[r->n - 1].num = true;
}

/*
 * The bytes of an EV of an exp or gen profile (ev-bytes) in hex, the first
 * byte first: all of them under @key in JSON; in text after @pre without
 * the zero bytes at the end (the kernel zero-fills an EV to 32 bytes), at
 * least one byte, or @unset (if not NULL) when all are zero.
 */
void rec_ev_bytes(struct rec *r, const char *key, const char *pre,
		  const struct nlattr *a, const char *unset)
{
	const uint8_t *b;
	char hex[2 * EV_BYTES_MAX + 1];
	size_t n, i, len;

	if (!a)
		return;
	b = mnl_attr_get_payload(a);
	n = mnl_attr_get_payload_len(a);
	if (n > EV_BYTES_MAX)
		n = EV_BYTES_MAX;
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	hex[2 * n] = '\0';
	rec_str(r, key, NULL, NULL, hex);
	for (len = n; len && !b[len - 1]; len--)
		;
	if (!len && unset) {
		rec_str(r, NULL, pre, NULL, unset);
		return;
	}
	hex[2 * (len ? len : 1)] = '\0';
	rec_str(r, NULL, pre, NULL, n ? hex : "00");
}

/* the text form: "pre value post" of every field, space separated */
void rec_text(const struct rec *r, char *buf, size_t len)
{
	const struct field *f;
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < r->n && n < len; i++) {
		f = &r->f[i];
		if (f->pre)
			n += snprintf(buf + n, len - n, "%s%s%s%s", n ? " " : "",
				      f->pre, rec_field_val(r, f), f->post);
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

/* "A,B,C" as ["A","B","C"], or [A,B,C] (@num) */
static void json_list(const char *s, bool num)
{
	size_t n;

	putchar('[');
	while (*s) {
		n = strcspn(s, ",");
		if (num)
			fwrite(s, 1, n, stdout);
		else
			json_strn(s, n);
		s += n;
		if (*s) {
			putchar(',');
			s++;
		}
	}
	putchar(']');
}

void rec_indent(struct ctx *c, int depth)
{
	if (c->pretty)
		printf("\n%*s", 2 * depth, "");
}

void rec_json_key(struct ctx *c, int depth, const char *key)
{
	rec_indent(c, depth);
	json_str(key);
	fputs(c->pretty ? ": " : ":", stdout);
}

/* the members of @r's object, after its "{"; false: none */
static bool rec_json_members(struct ctx *c, const struct rec *r, int depth)
{
	const struct field *f;
	bool first = true;
	unsigned int i;

	for (i = 0; i < r->n; i++) {
		f = &r->f[i];
		if (!f->key)
			continue;
		if (!first)
			putchar(',');
		first = false;
		rec_json_key(c, depth + 1, f->key);
		if (f->list)
			json_list(r->list, f->num);
		else if (f->num)
			fputs(f->val, stdout);
		else
			json_str(f->val);
	}
	return !first;
}

void rec_json(struct ctx *c, const struct rec *r, int depth)
{
	putchar('{');
	rec_json_members(c, r, depth);
	rec_indent(c, depth);
	putchar('}');
}

/* @r with its sub-objects (struct rec_sub) as arrays of objects */
static void rec_json_subs(struct ctx *c, const struct rec *r,
			  const struct rec_sub *subs, unsigned int nsubs,
			  int depth)
{
	bool comma;
	unsigned int i, j;

	putchar('{');
	comma = rec_json_members(c, r, depth);
	for (i = 0; i < nsubs; i++) {
		if (comma)
			putchar(',');
		comma = true;
		rec_json_key(c, depth + 1, subs[i].key);
		putchar('[');
		for (j = 0; j < subs[i].n; j++) {
			if (j)
				putchar(',');
			rec_indent(c, depth + 2);
			rec_json(c, &subs[i].r[j], depth + 2);
		}
		if (subs[i].n)
			rec_indent(c, depth + 1);
		putchar(']');
	}
	rec_indent(c, depth);
	putchar('}');
}

void rec_line(const struct rec *r)
{
	char line[2048];

	rec_text(r, line, sizeof(line));
	puts(line);
}

/* one object of a show: kept, a JSON array element or a text line */
void rec_emit(struct ctx *c, const struct rec *r)
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
		rec_indent(c, 1);
		rec_json(c, r, 1);
	} else {
		rec_line(r);
	}
	c->count++;
}

/*
 * One object of a show with objects inside (struct rec_sub): a JSON array
 * element, or its line and then one a sub-object, indented (those with
 * text). Not for a show whose objects are kept (c->collect).
 */
void rec_emit_subs(struct ctx *c, const struct rec *r,
		   const struct rec_sub *subs, unsigned int nsubs)
{
	char line[2048];
	unsigned int i, j;

	assert(!c->collect);
	if (c->json) {
		if (c->count)
			putchar(',');
		rec_indent(c, 1);
		rec_json_subs(c, r, subs, nsubs, 1);
		c->count++;
		return;
	}
	rec_line(r);
	for (i = 0; i < nsubs; i++)
		for (j = 0; j < subs[i].n; j++) {
			rec_text(&subs[i].r[j], line, sizeof(line));
			if (line[0])
				printf("    %s\n", line);
		}
	c->count++;
}

/* a JSON list's brackets; none when its objects are kept (c->collect) */
void rec_list_begin(struct ctx *c)
{
	if (c->json && !c->collect)
		putchar('[');
}

void rec_list_end(struct ctx *c)
{
	if (c->json && !c->collect)
		printf(c->pretty && c->count ? "\n]\n" : "]\n");
}

/* ---- records from netlink attributes ------------------------------------ */

void rec_attr_u32(struct rec *r, const char *key, const char *pre,
		  const struct nlattr *a)
{
	if (nl_attr_ok(a, MNL_TYPE_U32))
		rec_num(r, key, pre, NULL, mnl_attr_get_u32(a));
}

void rec_attr_uint(struct rec *r, const char *key, const char *pre,
		   const char *post, const struct nlattr *a)
{
	if (a)
		rec_num(r, key, pre, post, nl_attr_uint(a));
}

/* "tx 1 pkts 2 bytes"; JSON "tx_packets", "tx_bytes" */
void rec_traffic(struct rec *r, const char *pre, const char *kpkts,
		 const char *kbytes, const struct nlattr *pkts,
		 const struct nlattr *bytes)
{
	rec_attr_uint(r, kpkts, pre, " pkts", pkts);
	rec_attr_uint(r, kbytes, "", " bytes", bytes);
}

void rec_attr_addr(struct rec *r, const char *key, const char *pre,
		   const struct nlattr *a)
{
	if (a && mnl_attr_get_payload_len(a) == sizeof(struct in6_addr))
		rec_addr(r, key, pre, mnl_attr_get_payload(a));
}

/* the name of enum value @a, "UNKNOWN" if it has none; NULL: no value */
const char *rec_enum_name(const struct nlattr *a, const char *const *names,
			  unsigned int n)
{
	uint32_t v;

	if (!nl_attr_ok(a, MNL_TYPE_U32))
		return NULL;
	v = mnl_attr_get_u32(a);
	return v < n && names[v] ? names[v] : "UNKNOWN";
}

void rec_attr_enum(struct rec *r, const char *key, const char *pre,
		   const struct nlattr *a, const char *const *names,
		   unsigned int n)
{
	const char *name = rec_enum_name(a, names, n);

	if (name)
		rec_str(r, key, pre, NULL, name);
}

void rec_attr_ifname(struct rec *r, const struct nlattr *a)
{
	char name[IF_NAMESIZE];

	if (!nl_attr_ok(a, MNL_TYPE_U32))
		return;
	if (if_indextoname(mnl_attr_get_u32(a), name))
		rec_str(r, "netdev", "netdev ", NULL, name);
	else
		rec_num(r, "ifindex", "ifindex ", NULL, mnl_attr_get_u32(a));
}

/* the device name that starts every line; @post ":" for dev show */
bool rec_dev(struct ctx *c, struct rec *r, const struct nlattr *a,
	     const char *post)
{
	const char *name = a ? mnl_attr_get_str(a) : c->dev;

	if (!name)
		return false;
	rec_str(r, "dev", "", post, name);
	return true;
}

/*
 * One object of a get or dump: its attributes (up to @max) as a record of
 * its device (@dev_attr, or the one asked for), then of what @fill adds.
 * The cb of a show, with its attribute set.
 */
int rec_obj(struct ctx *c, const struct nlmsghdr *nlh, unsigned int max,
	    uint16_t dev_attr,
	    void (*fill)(struct rec *r, const struct nlattr **tb))
{
	const struct nlattr *tb[NL_ATTR_MAX + 1] = {};
	struct rec r = {};

	nl_attrs(nlh, tb, max);
	if (!rec_dev(c, &r, tb[dev_attr], NULL))
		return MNL_CB_OK;
	fill(&r, tb);
	rec_emit(c, &r);
	return MNL_CB_OK;
}
