// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/*
 * mrc_ev_profile: set up an EV format profile and an EXP or GEN EV
 * profile of an MRC device through the OCP MRC controller API
 * (mrc_ctl.h), and leave them ONLINE for QPs to bind to
 * (MRC_QP_EV_PROFILE_ID); or take them down.
 *
 *   mrc_ev_profile -d DEV -p ID -f FMTID -m stev|srv6|udp -w W,W,...
 *                  [-F WIDTH:INIT:MIN:MAX:MASK]... (-e HEX[@PORT]... | -g COUNT)
 *                  [-n MIN_ACTIVE] [-x HEX@PORT]...
 *   mrc_ev_profile -d DEV -p ID -f FMTID -r
 *
 * The format FMTID gets the mode and the field widths of -m and -w (most
 * significant first); the EV profile ID uses it, with the fields of -F
 * (without -F, an EXP profile takes the format's fields as they are).
 * With -e it is EXP and its EV array is the EVs given, in order: HEX the
 * EV's bytes, two digits a byte, byte 0 first (the API's mrc_ctl_ev_t;
 * its bits are read from the top of byte 0), on port PORT (1 if not
 * given); with -g it is GEN, and the device generates COUNT EVs from the
 * fields' ranges. -x denies an EV of the array once it is ONLINE
 * (MODIFY_EV_STATE). What was there before under those ids is taken down
 * first. The result, read back with the query calls:
 *
 *   format <FMTID> mode <m> widths <w,w,...> state ONLINE
 *   profile <ID> mode EXP|GEN format <FMTID> count <n> min_active <n> state ONLINE
 *   field <i> width <w> init <v> min <v> max <v> mask 0x<m>
 *   ev <index> port <p> <hex> GOOD|DENIED
 *
 * -r takes both down (ONLINE -> OFFLINE -> INIT, the EV profile first).
 * The controller API is for the node's controller: CAP_NET_ADMIN.
 * Exit status: 0 done, 1 failure, 2 usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <mrc.h>
#include <mrc_ctl.h>

#define PROG		"mrc_ev_profile"
#define MAX_FIELDS	16
#define MAX_EVS		256
#define MAX_DENY	64

enum {
	EXIT_DONE = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
};

struct config {
	const char *dev;
	uint64_t id, fmt_id;
	enum mrc_ctl_ev_fmt_mode fmt_mode;
	struct mrc_ctl_ev_fmt_field width[MAX_FIELDS];
	int nwidths;
	struct mrc_ctl_ev_field field[MAX_FIELDS];
	int nfields;
	struct mrc_ctl_ev ev[MAX_EVS];	/* -e: EXP */
	int nevs;
	uint32_t gen_count;		/* -g: GEN */
	uint32_t min_active;		/* 0: half the count */
	struct mrc_ctl_ev deny[MAX_DENY];
	int ndeny;
	bool remove;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s -d DEV -p ID -f FMTID -m stev|srv6|udp -w W,W,...\n"
		"          [-F WIDTH:INIT:MIN:MAX:MASK]... (-e HEX[@PORT]... | -g COUNT)\n"
		"          [-n MIN_ACTIVE] [-x HEX@PORT]...\n"
		"       %s -d DEV -p ID -f FMTID -r\n"
		"\n"
		"Set up EV format profile FMTID and EXP or GEN EV profile ID of DEV, ONLINE.\n"
		"\n"
		"  -d, --ib-dev=DEV       RDMA device (an mrc device; required)\n"
		"  -p, --profile=ID       the EV profile's id (not 0)\n"
		"  -f, --format=FMTID     the EV format profile's id (not 0)\n"
		"  -m, --mode=MODE        the format's mode: stev, srv6 or udp\n"
		"  -w, --widths=W,...     the format's field widths in bits, in order\n"
		"  -F, --field=W:I:MIN:MAX:MASK\n"
		"                         an EV profile field (width, init value,\n"
		"                         range, mask), in order; numbers or 0x hex\n"
		"  -e, --ev=HEX[@PORT]    EXP: an EV of the array, its bytes in hex\n"
		"                         (byte 0 first), on PORT (1)\n"
		"  -g, --gen=COUNT        GEN: COUNT EVs generated from the fields\n"
		"  -n, --min-active=N     EVs that stay usable (half the count)\n"
		"  -x, --deny=HEX@PORT    deny that EV of the array once ONLINE\n"
		"  -r, --remove           take the EV profile and the format down\n"
		"  -h, --help             this text\n"
		"\n"
		"Exit status: 0 done, 1 failure, 2 usage error.\n", PROG, PROG);
}

static bool parse_u32(const char *what, const char *s, char **end,
		      uint32_t max, uint32_t *v)
{
	unsigned long long n;
	char *e;

	errno = 0;
	n = strtoull(s, &e, 0);
	if (errno || e == s || n > max || (!end && *e)) {
		fprintf(stderr, "%s: invalid %s \"%s\"\n", PROG, what, s);
		return false;
	}
	if (end)
		*end = e;
	*v = (uint32_t)n;
	return true;
}

static bool parse_id(const char *what, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end || !*v || *s == '-') {
		fprintf(stderr, "%s: invalid %s \"%s\"\n", PROG, what, s);
		return false;
	}
	return true;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* HEX[@PORT]: the EV's bytes, byte 0 first, and its port (@need: required) */
static bool parse_ev(const char *s, bool need_port, struct mrc_ctl_ev *ev)
{
	const char *at = strchr(s, '@');
	size_t len = at ? (size_t)(at - s) : strlen(s);
	uint32_t port = 1;
	size_t i;
	int hi, lo;

	memset(ev, 0, sizeof(*ev));
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	}
	if (!len || len % 2 || len / 2 > sizeof(ev->val) || (need_port && !at))
		goto bad;
	for (i = 0; i < len / 2; i++) {
		hi = hex_digit(s[2 * i]);
		lo = hex_digit(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			goto bad;
		ev->val[i] = hi << 4 | lo;
	}
	if (at && (!parse_u32("port", at + 1, NULL, 16, &port) || !port))
		return false;
	ev->port = port;
	return true;
bad:
	fprintf(stderr, "%s: invalid EV \"%s\" (hex bytes, an even number of digits%s)\n",
		PROG, s, need_port ? ", @PORT" : "");
	return false;
}

static bool parse_widths(const char *s, struct config *c)
{
	const char *p = s;
	uint32_t w;
	char *end;

	for (c->nwidths = 0; c->nwidths < MAX_FIELDS; p = end + 1) {
		if (!parse_u32("width", p, &end, 255, &w))
			return false;
		if (!w || (*end && *end != ',')) {
			fprintf(stderr, "%s: invalid widths \"%s\"\n", PROG, s);
			return false;
		}
		c->width[c->nwidths++].width = w;
		if (!*end)
			return true;
	}
	fprintf(stderr, "%s: at most %d widths\n", PROG, MAX_FIELDS);
	return false;
}

/* WIDTH:INIT:MIN:MAX:MASK */
static bool parse_field(const char *s, struct mrc_ctl_ev_field *f)
{
	uint32_t v[5];
	const char *p = s;
	char *end;
	int i;

	for (i = 0; i < 5; i++) {
		if (!parse_u32("field", p, &end, UINT32_MAX, &v[i]))
			return false;
		if ((i < 4 && *end != ':') || (i == 4 && *end)) {
			fprintf(stderr, "%s: invalid field \"%s\" (WIDTH:INIT:MIN:MAX:MASK)\n",
				PROG, s);
			return false;
		}
		p = end + 1;
	}
	f->width = v[0];
	f->init_val = v[1];
	f->min_val = v[2];
	f->max_val = v[3];
	f->mask = v[4];
	return true;
}

static bool parse_mode(const char *s, enum mrc_ctl_ev_fmt_mode *m)
{
	if (!strcmp(s, "stev"))
		*m = MRC_CTL_EV_FMT_MODE_STEV;
	else if (!strcmp(s, "srv6"))
		*m = MRC_CTL_EV_FMT_MODE_SRV6;
	else if (!strcmp(s, "udp"))
		*m = MRC_CTL_EV_FMT_MODE_UDP;
	else
		return false;
	return true;
}

static const char *fmt_mode_name(uint32_t m)
{
	switch (m) {
	case MRC_CTL_EV_FMT_MODE_STEV:
		return "stev";
	case MRC_CTL_EV_FMT_MODE_SRV6:
		return "srv6";
	case MRC_CTL_EV_FMT_MODE_UDP:
		return "udp";
	default:
		return "none";
	}
}

static const char *state_name(uint32_t s)
{
	switch (s) {
	case MRC_CTL_PROFILE_INIT:
		return "INIT";
	case MRC_CTL_PROFILE_OFFLINE:
		return "OFFLINE";
	case MRC_CTL_PROFILE_ONLINE:
		return "ONLINE";
	default:
		return "?";
	}
}

/* the command line into @c: 0, or EXIT_USAGE */
static int parse_args(int argc, char **argv, struct config *c)
{
	static const struct option lopts[] = {
		{ "ib-dev",	required_argument, NULL, 'd' },
		{ "profile",	required_argument, NULL, 'p' },
		{ "format",	required_argument, NULL, 'f' },
		{ "mode",	required_argument, NULL, 'm' },
		{ "widths",	required_argument, NULL, 'w' },
		{ "field",	required_argument, NULL, 'F' },
		{ "ev",		required_argument, NULL, 'e' },
		{ "gen",	required_argument, NULL, 'g' },
		{ "min-active",	required_argument, NULL, 'n' },
		{ "deny",	required_argument, NULL, 'x' },
		{ "remove",	no_argument,	   NULL, 'r' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool have_mode = false;
	int o;

	while ((o = getopt_long(argc, argv, "d:p:f:m:w:F:e:g:n:x:rh", lopts,
				NULL)) != -1) {
		switch (o) {
		case 'd':
			c->dev = optarg;
			break;
		case 'p':
			if (!parse_id("profile id", optarg, &c->id))
				return EXIT_USAGE;
			break;
		case 'f':
			if (!parse_id("format id", optarg, &c->fmt_id))
				return EXIT_USAGE;
			break;
		case 'm':
			if (!parse_mode(optarg, &c->fmt_mode)) {
				fprintf(stderr, "%s: invalid mode \"%s\"\n", PROG, optarg);
				return EXIT_USAGE;
			}
			have_mode = true;
			break;
		case 'w':
			if (!parse_widths(optarg, c))
				return EXIT_USAGE;
			break;
		case 'F':
			if (c->nfields == MAX_FIELDS ||
			    !parse_field(optarg, &c->field[c->nfields]))
				return EXIT_USAGE;
			c->nfields++;
			break;
		case 'e':
			if (c->nevs == MAX_EVS || !parse_ev(optarg, false, &c->ev[c->nevs]))
				return EXIT_USAGE;
			c->nevs++;
			break;
		case 'g':
			if (!parse_u32("count", optarg, NULL, MAX_EVS, &c->gen_count) ||
			    !c->gen_count)
				return EXIT_USAGE;
			break;
		case 'n':
			if (!parse_u32("min-active", optarg, NULL, MAX_EVS,
				       &c->min_active) || !c->min_active)
				return EXIT_USAGE;
			break;
		case 'x':
			if (c->ndeny == MAX_DENY ||
			    !parse_ev(optarg, true, &c->deny[c->ndeny]))
				return EXIT_USAGE;
			c->ndeny++;
			break;
		case 'r':
			c->remove = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_DONE);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc || !c->dev || !c->id || !c->fmt_id)
		goto bad;
	if (c->remove)
		return 0;
	if (!have_mode || !c->nwidths)
		goto bad;
	if (!c->nevs == !c->gen_count) {
		fprintf(stderr, "%s: -e (EXP) or -g (GEN), one of them\n", PROG);
		goto bad;
	}
	/* a GEN profile's EVs come from its fields */
	if (c->gen_count && !c->nfields) {
		fprintf(stderr, "%s: -g needs the fields (-F)\n", PROG);
		goto bad;
	}
	return 0;
bad:
	usage(stderr);
	return EXIT_USAGE;
}

static void ev_print(int index, const struct mrc_ctl_ev *ev, int nbytes,
		     const char *state)
{
	int i;

	printf("ev %d port %u ", index, ev->port);
	for (i = 0; i < nbytes; i++)
		printf("%02x", ev->val[i]);
	printf(" %s\n", state);
}

/* @what failed: say so; EXIT_RUNTIME */
static int fail(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", PROG, what, strerror(errno));
	return EXIT_RUNTIME;
}

/* EV profile @id back to INIT, whatever its state */
static int ev_profile_down(struct mrc_context *ctx, uint64_t id)
{
	struct mrc_ctl_ev_profile_attr a = { 0 };

	if (mrc_ctl_query_ev_profile(ctx, id, &a, MRC_CTL_EV_PROFILE_CUR_STATE))
		return fail("mrc_ctl_query_ev_profile");
	while (a.cur_profile_state != MRC_CTL_PROFILE_INIT) {
		a.profile_state = a.cur_profile_state - 1;
		if (mrc_ctl_modify_ev_profile(ctx, id, &a, MRC_CTL_EV_PROFILE_STATE))
			return fail(a.profile_state == MRC_CTL_PROFILE_OFFLINE ?
				    "EV profile to OFFLINE (QPs bound to it?)" :
				    "EV profile to INIT");
		a.cur_profile_state = a.profile_state;
	}
	return 0;
}

/* format @id down to @to (OFFLINE or INIT), if it is above */
static int fmt_down(struct mrc_context *ctx, uint64_t id,
		    enum mrc_ctl_profile_state to)
{
	struct mrc_ctl_ev_fmt_profile_attr a = { 0 };

	if (mrc_ctl_query_ev_fmt_profile(ctx, id, &a,
					 MRC_CTL_EV_FMT_PROFILE_CUR_STATE))
		return fail("mrc_ctl_query_ev_fmt_profile");
	while (a.cur_profile_state > to) {
		a.profile_state = a.cur_profile_state - 1;
		if (mrc_ctl_modify_ev_fmt_profile(ctx, id, &a,
						  MRC_CTL_EV_FMT_PROFILE_STATE))
			return fail(a.profile_state == MRC_CTL_PROFILE_OFFLINE ?
				    "format to OFFLINE (an online EV profile uses it?)" :
				    "format to INIT (an EV profile names it?)");
		a.cur_profile_state = a.profile_state;
	}
	return 0;
}

/* the format: OFFLINE with its mode and widths, then ONLINE */
static int fmt_up(struct mrc_context *ctx, const struct config *c)
{
	struct mrc_ctl_ev_fmt_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_OFFLINE,
		.ev_fmt_mode = c->fmt_mode,
		.ev_fmt_op = {
			.op = MRC_CTL_EV_FMT_OP_MODIFY_FIELDS,
			.fmt_fields = (struct mrc_ctl_ev_fmt_field *)c->width,
			.fmt_field_count = c->nwidths,
		},
	};

	if (fmt_down(ctx, c->fmt_id, MRC_CTL_PROFILE_OFFLINE))
		return EXIT_RUNTIME;
	if (mrc_ctl_modify_ev_fmt_profile(ctx, c->fmt_id, &a,
					  MRC_CTL_EV_FMT_PROFILE_STATE |
					  MRC_CTL_EV_FMT_PROFILE_MODE |
					  MRC_CTL_EV_FMT_PROFILE_OP))
		return fail("format to OFFLINE with its mode and widths");
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	if (mrc_ctl_modify_ev_fmt_profile(ctx, c->fmt_id, &a,
					  MRC_CTL_EV_FMT_PROFILE_STATE))
		return fail("format to ONLINE");
	return 0;
}

/* EXP: every unpopulated place of the array becomes one of the EVs given */
static int ev_array_fill(struct mrc_context *ctx, const struct config *c,
			 uint32_t max_entries)
{
	struct mrc_ctl_ev_op_entry ent[MAX_EVS];
	struct mrc_ctl_ev_profile_attr a = { 0 };
	int i, done, n;

	memset(ent, 0, sizeof(ent));
	for (i = 0; i < c->nevs; i++) {
		ent[i].ev = MRC_CTL_EV_UNPOPULATED;
		ent[i].ev_new = c->ev[i];
		ent[i].state = MRC_CTL_EV_GOOD;
	}
	/* as many a call as the device takes */
	for (done = 0; done < c->nevs; done += n) {
		n = c->nevs - done;
		if (max_entries && (uint32_t)n > max_entries)
			n = max_entries;
		a.ev_op.op = MRC_CTL_EV_OP_REPLACE_EV;
		a.ev_op.entries = &ent[done];
		a.ev_op.entry_count = n;
		if (mrc_ctl_modify_ev_profile(ctx, c->id, &a,
					      MRC_CTL_EV_PROFILE_EV_OP))
			return fail("REPLACE_EV of the unpopulated places");
	}
	return 0;
}

static int popcount(uint32_t v)
{
	int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/*
 * The count the profile has ONLINE: EXP's EVs; GEN's, as the device caps
 * it, one EV a combination of the fields' ranges on each of its ports
 */
static uint32_t ev_count_online(const struct config *c,
				const struct mrc_ctl_device_attr *dev)
{
	uint64_t n = popcount(dev->phy_port_mask);
	int i;

	if (c->nevs)
		return c->nevs;
	for (i = 0; i < c->nfields && n < c->gen_count; i++)
		if (c->field[i].mask && c->field[i].max_val >= c->field[i].min_val)
			n *= (uint64_t)c->field[i].max_val - c->field[i].min_val + 1;
	return n < c->gen_count ? n : c->gen_count;
}

/* the EV profile: OFFLINE with its shape, its EVs (EXP), ONLINE, denials */
static int ev_profile_up(struct mrc_context *ctx, const struct config *c,
			 const struct mrc_ctl_device_attr *dev)
{
	struct mrc_ctl_ev_op_entry deny[MAX_DENY];
	struct mrc_ctl_ev_profile_attr a = {
		.profile_state = MRC_CTL_PROFILE_OFFLINE,
		.ev_mode = c->nevs ? MRC_CTL_EV_MODE_EXP : MRC_CTL_EV_MODE_GEN,
		.ev_fmt_profile_id = c->fmt_id,
		.ev_count = c->nevs ? (uint32_t)c->nevs : c->gen_count,
		.ev_event_mask = MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD,
		.ev_fields_op = {
			.op = MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS,
			.fields = (struct mrc_ctl_ev_field *)c->field,
			.field_count = c->nfields,
		},
	};
	int mask = MRC_CTL_EV_PROFILE_STATE | MRC_CTL_EV_PROFILE_MODE |
		   MRC_CTL_EV_PROFILE_FMT_ID | MRC_CTL_EV_PROFILE_COUNT |
		   MRC_CTL_EV_PROFILE_EVENT_MASK;
	int i;

	if (!(dev->ev.ev_mode_mask & a.ev_mode)) {
		fprintf(stderr, "%s: %s has no %s EV profiles\n", PROG, c->dev,
			c->nevs ? "EXP" : "GEN");
		return EXIT_RUNTIME;
	}
	if (c->nfields)
		mask |= MRC_CTL_EV_PROFILE_EV_FIELDS_OP;
	if (mrc_ctl_modify_ev_profile(ctx, c->id, &a, mask))
		return fail("EV profile to OFFLINE");
	if (c->nevs && ev_array_fill(ctx, c, dev->ev.ev_op_max_entries))
		return EXIT_RUNTIME;
	a.ev_min_active = c->min_active;
	if (!a.ev_min_active)
		a.ev_min_active = (ev_count_online(c, dev) + 1) / 2;
	a.profile_state = MRC_CTL_PROFILE_ONLINE;
	if (mrc_ctl_modify_ev_profile(ctx, c->id, &a, MRC_CTL_EV_PROFILE_STATE |
				      MRC_CTL_EV_PROFILE_MIN_ACTIVE))
		return fail("EV profile to ONLINE");
	if (!c->ndeny)
		return 0;
	memset(deny, 0, sizeof(deny));
	for (i = 0; i < c->ndeny; i++) {
		deny[i].ev = c->deny[i];
		deny[i].state = MRC_CTL_EV_DENIED;
	}
	memset(&a, 0, sizeof(a));
	a.ev_op.op = MRC_CTL_EV_OP_MODIFY_EV_STATE;
	a.ev_op.entries = deny;
	a.ev_op.entry_count = c->ndeny;
	if (mrc_ctl_modify_ev_profile(ctx, c->id, &a, MRC_CTL_EV_PROFILE_EV_OP))
		return fail("MODIFY_EV_STATE DENIED");
	return 0;
}

/* what the device has now: the format, the profile, its fields and EVs */
static int show(struct mrc_context *ctx, const struct config *c)
{
	struct mrc_ctl_ev_fmt_field width[MAX_FIELDS];
	struct mrc_ctl_ev_fmt_profile_attr fa = {
		.ev_fmt_op = { .op = MRC_CTL_EV_FMT_OP_QUERY_FIELDS,
			       .fmt_fields = width, .fmt_field_count = MAX_FIELDS },
	};
	struct mrc_ctl_ev_field field[MAX_FIELDS];
	struct mrc_ctl_ev_op_entry ent[MAX_EVS];
	struct mrc_ctl_ev_profile_attr a = {
		.ev_fields_op = { .op = MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS,
				  .fields = field, .field_count = MAX_FIELDS },
	};
	int i, bits = 0;

	if (mrc_ctl_query_ev_fmt_profile(ctx, c->fmt_id, &fa,
					 MRC_CTL_EV_FMT_PROFILE_CUR_STATE |
					 MRC_CTL_EV_FMT_PROFILE_MODE |
					 MRC_CTL_EV_FMT_PROFILE_OP))
		return fail("mrc_ctl_query_ev_fmt_profile");
	printf("format %llu mode %s widths ", (unsigned long long)c->fmt_id,
	       fmt_mode_name(fa.ev_fmt_mode));
	for (i = 0; i < fa.ev_fmt_op.fmt_field_count; i++)
		printf("%s%u", i ? "," : "", width[i].width);
	printf(" state %s\n", state_name(fa.cur_profile_state));

	if (mrc_ctl_query_ev_profile(ctx, c->id, &a,
				     MRC_CTL_EV_PROFILE_CUR_STATE |
				     MRC_CTL_EV_PROFILE_MODE |
				     MRC_CTL_EV_PROFILE_FMT_ID |
				     MRC_CTL_EV_PROFILE_COUNT |
				     MRC_CTL_EV_PROFILE_MIN_ACTIVE |
				     MRC_CTL_EV_PROFILE_EV_FIELDS_OP))
		return fail("mrc_ctl_query_ev_profile");
	printf("profile %llu mode %s format %llu count %u min_active %u state %s\n",
	       (unsigned long long)c->id,
	       a.ev_mode == MRC_CTL_EV_MODE_EXP ? "EXP" :
	       a.ev_mode == MRC_CTL_EV_MODE_GEN ? "GEN" : "AUTO",
	       (unsigned long long)a.ev_fmt_profile_id, a.ev_count,
	       a.ev_min_active, state_name(a.cur_profile_state));
	for (i = 0; i < a.ev_fields_op.field_count; i++) {
		printf("field %d width %u init %u min %u max %u mask 0x%x\n", i,
		       field[i].width, field[i].init_val, field[i].min_val,
		       field[i].max_val, field[i].mask);
		bits += popcount(field[i].mask);
	}
	/* an EV is as many bytes as its fields take bits (one at least) */
	if (!a.ev_fields_op.field_count)
		for (i = 0; i < fa.ev_fmt_op.fmt_field_count; i++)
			bits += width[i].width > 32 ? 32 : width[i].width;

	memset(&a, 0, sizeof(a));
	a.ev_op.op = MRC_CTL_EV_OP_QUERY_EV_ARRAY;
	a.ev_op.entries = ent;
	a.ev_op.entry_count = MAX_EVS;
	if (mrc_ctl_query_ev_profile(ctx, c->id, &a, MRC_CTL_EV_PROFILE_EV_OP))
		return fail("QUERY_EV_ARRAY");
	for (i = 0; i < a.ev_op.entry_count; i++)
		ev_print(i, &ent[i].ev, bits ? (bits + 7) / 8 : 1,
			 ent[i].state == MRC_CTL_EV_DENIED ? "DENIED" : "GOOD");
	return 0;
}

static int run(struct mrc_context *ctx, const struct config *c,
	       const struct mrc_ctl_device_attr *dev)
{
	int rc;

	/* the EV profile first: a format it names does not go down */
	if (ev_profile_down(ctx, c->id))
		return EXIT_RUNTIME;
	if (c->remove) {
		if (fmt_down(ctx, c->fmt_id, MRC_CTL_PROFILE_INIT))
			return EXIT_RUNTIME;
		printf("removed profile %llu format %llu\n",
		       (unsigned long long)c->id, (unsigned long long)c->fmt_id);
		return EXIT_DONE;
	}
	if (!(dev->ev.ev_fmt_mode_mask & c->fmt_mode)) {
		fprintf(stderr, "%s: %s has no %s EV formats\n", PROG, c->dev,
			fmt_mode_name(c->fmt_mode));
		return EXIT_RUNTIME;
	}
	rc = fmt_up(ctx, c);
	if (!rc)
		rc = ev_profile_up(ctx, c, dev);
	if (!rc)
		rc = show(ctx, c);
	return rc;
}

int main(int argc, char **argv)
{
	struct mrc_context_attr ca = {
		.mrc_api_version_used = MRC_API_CURRENT_VERSION,
	};
	struct mrc_ctl_device_attr dev = { 0 };
	struct ibv_device **devs = NULL;
	struct mrc_context *ctx = NULL;
	struct ibv_context *ibv = NULL;
	static struct config c;
	int i, rc;

	rc = parse_args(argc, argv, &c);
	if (rc)
		return rc;
	rc = EXIT_RUNTIME;
	devs = ibv_get_device_list(NULL);
	for (i = 0; devs && devs[i]; i++)
		if (!strcmp(ibv_get_device_name(devs[i]), c.dev))
			break;
	if (!devs || !devs[i]) {
		fprintf(stderr, "%s: no RDMA device %s\n", PROG, c.dev);
		goto out;
	}
	ibv = ibv_open_device(devs[i]);
	if (!ibv) {
		fail("ibv_open_device");
		goto out;
	}
	if (mrc_ctl_query_device(ibv, &dev)) {
		fail("mrc_ctl_query_device (not an mrc device?)");
		goto out;
	}
	if (!dev.ev.ev_max_fmt_profiles) {
		fprintf(stderr, "%s: %s has no EV format profiles\n", PROG, c.dev);
		goto out;
	}
	ctx = mrc_create_context(ibv, &ca);
	if (!ctx) {
		fail("mrc_create_context");
		goto out;
	}
	rc = run(ctx, &c, &dev);
out:
	if (ctx)
		mrc_destroy_context(ctx);
	if (ibv)
		ibv_close_device(ibv);
	if (devs)
		ibv_free_device_list(devs);
	return rc;
}
