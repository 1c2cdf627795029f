// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl fabric: the paths of a 2-tier multi-plane Clos, computed from a
 * fabric file (mrcctl(8))
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrcctl.h"

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

static void __noreturn __printf(3, 4)
fab_err(const struct fabric *f, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (line)
		pr_err("%s:%d: ", f->file, line);
	else
		pr_err("%s: ", f->file);
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

	rec_list_begin(c);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		if (!c->json)
			rec_str(&r, NULL, "", NULL, "mrcctl path add");
		path_spec_rec(&r, dev, &paths[i]);
		rec_emit(c, &r);
	}
	rec_list_end(c);
	if (!c->json)
		printf("# %u paths to %u peers\n", n, peers);
}

/* "loaded N paths to M peers", and under apply how many were there */
static void fab_summary(struct ctx *c, unsigned int n, unsigned int peers,
			unsigned int had)
{
	struct rec r = {};

	rec_num(&r, "paths", "loaded ", " paths", n);
	rec_num(&r, "peers", "to ", " peers", peers);
	if (c->apply)
		rec_num(&r, "present", "(", " there already)", had);
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
	char buf[1000], what[1024];
	unsigned int i, had = 0;
	struct rec r;
	bool there;

	nl_open(c);
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		path_spec_rec(&r, dev, &paths[i]);
		rec_text(&r, buf, sizeof(buf));
		snprintf(what, sizeof(what), "\"path add %s\"", buf);
		if (path_put(c, dev, &paths[i], what, &there)) {
			if (c->apply)
				pr_err("%u of %u paths were added, %u there already, before the error\n",
				       i - had, n, had);
			else
				pr_err("%u of %u paths were added before the error\n",
				       i, n);
			return 1;
		}
		had += there;
	}
	fab_summary(c, n, peers, had);
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
		parse_need(cmd, &dev);
	parse_need(cmd, &host);
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

int fabric_load(struct ctx *c, int argc, char **argv)
{
	enum fab_mode mode = dry_run_flag(&argc, argv) ? FAB_DRY_RUN : FAB_LOAD;

	return fabric_run(c, "fabric load", mode, argc, argv);
}

int fabric_show(struct ctx *c, int argc, char **argv)
{
	return fabric_run(c, "fabric show", FAB_SHOW, argc, argv);
}

