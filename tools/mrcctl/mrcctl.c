// SPDX-License-Identifier: GPL-2.0
/*
 * mrcctl: configure and inspect mrc (Multipath Reliable Connection) RDMA
 * devices over the "mrc" generic netlink family, in the style of ip(8) and
 * rdma(8). This file: the command line, its objects and commands, help;
 * mrcctl.h says what the others do.
 */
#define _GNU_SOURCE	/* setns() */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mrcctl.h"

#ifndef MRCCTL_VERSION
#define MRCCTL_VERSION "unknown"
#endif

const char *err_where = "";

/* a message on stderr: "mrcctl: ", in a batch its file and line, @fmt */
void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "mrcctl: %s", err_where);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "mrcctl: %s", err_where);
	vfprintf(stderr, fmt, ap);
	fputs("\nTry \"mrcctl help\".\n", stderr);
	va_end(ap);
	exit(2);
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		pr_err("%s\n", strerror(errno));
		exit(1);
	}
	return p;
}

/* ---- command line --------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("Usage: mrcctl [ OPTIONS ] OBJECT { COMMAND | help }\n"
	      "       mrcctl [ OPTIONS ] help\n"
	      "       mrcctl [ OPTIONS ] [ -force ] { -batch FILE | apply FILE }\n"
	      "OBJECT := { dev | plane | path | ev | cc | stats | fabric | monitor | probe }\n"
	      "OPTIONS := { -j[son] | -p[retty] | -n[etns] NAME | -V[ersion] | -h[elp] }\n"
	      "\n"
	      "mrcctl dev show [ DEV ]\n"
	      "mrcctl dev add DEV netdev IFNAME\n"
	      "mrcctl dev del DEV\n"
	      "mrcctl dev set DEV [ evs N ] [ trim_dscp N ]\n"
	      "                   [ trim_lasthop_dscp { N | none } ]\n"
	      "mrcctl plane show [ dev DEV ]\n"
	      "mrcctl plane add dev DEV netdev IFNAME [ id N ]\n"
	      "mrcctl plane del dev DEV { id N | netdev IFNAME }\n"
	      "mrcctl plane set dev DEV id N [ allow { PREFIX[,PREFIX...] | any } ]\n"
	      "                     [ admin { up | down } ]\n"
	      "mrcctl path show [ dev DEV ] [ peer ADDR ]\n"
	      "mrcctl path add dev DEV peer ADDR plane N PATH\n"
	      "mrcctl path del dev DEV peer ADDR [ plane N [ usid CONTAINER | srh SEGS | remote ADDR ] ]\n"
	      "mrcctl ev show dev DEV { qpn N | profile ID EV_OF plane N }\n"
	      "mrcctl ev set dev DEV { qpn N index I | profile ID EV_OF plane N } state { good | denied }\n"
	      "mrcctl ev { deny | allow } dev DEV qpn N index I\n"
	      "mrcctl ev profile show [ dev DEV [ id N ] ] [ entries ]\n"
	      "mrcctl ev profile set dev DEV id N [ state STATE ] [ mode { auto | exp | gen } ] [ count N ]\n"
	      "                      [ min_active N ] [ events EVENTS ] [ fmt F ] [ field FIELD ]...\n"
	      "                      [ replace { OLD@PORT | - } NEW@PORT [ denied ] [ all ] ]...\n"
	      "mrcctl ev fmt show [ dev DEV [ id F ] ]\n"
	      "mrcctl ev fmt set dev DEV id F [ state STATE ] [ mode { stev | srv6 | udp } ] [ widths W[,W...] ]\n"
	      "mrcctl cc show [ dev DEV [ qpn N ] ]\n"
	      "mrcctl cc set dev DEV [ algo { nscc | none } ] [ KNOB ]...\n"
	      "mrcctl cc profile show [ dev DEV [ id N ] ]\n"
	      "mrcctl cc profile set dev DEV id N [ state STATE ] [ algo { nscc | none } ] [ KNOB ]...\n"
	      "mrcctl stats [ dev DEV ]\n"
	      "mrcctl fabric load FILE dev DEV host NAME [ -n | --dry-run ]\n"
	      "mrcctl fabric show FILE host NAME [ dev DEV ]\n"
	      "mrcctl monitor [ dev DEV ] [ count N ]\n"
	      "mrcctl probe dev DEV peer ADDR [ plane N ] [ path ID | ev EV ] [ count N ] [ timeout MS ] [ dscp N ]\n"
	      "\n"
	      "PATH := { usid CONTAINER [ remote ADDR ] | srh SEGS [ remote ADDR ] | remote ADDR }\n"
	      "SEGS := SEG[,SEG...]\n"
	      "KNOB := { { base_rtt | target_delay | qa_threshold | adjust_period_threshold } NS |\n"
	      "          { max_cwnd | eta | fi | adjust_bytes_threshold } BYTES |\n"
	      "          { fi_scale | gamma | max_md_jump } N (in 1/65536) |\n"
	      "          qa_gate N | disable_qa { 0 | 1 } }\n"
	      "STATE := { init | offline | online }\n"
	      "EVENTS := { none | EVENT[,EVENT] }   EVENT := { good | assumed_bad }\n"
	      "EV_OF := { value V | ev HEX }   FIELD := WIDTH:INIT:MIN:MAX:MASK\n"
	      "\n"
	      "DEV is an mrc RDMA device, IFNAME an Ethernet netdev, ADDR an IPv6\n"
	      "address, CONTAINER an SRv6 uSID container (block, then 16-bit uSIDs,\n"
	      "zero-filled), SEGS an SRv6 segment list: 1 to 6 IPv6 addresses, the\n"
	      "first segment first (\"segs SEGS\" is the same as \"srh SEGS\").\n"
	      "Planes are numbered 0..15; plane 0 is the netdev of \"rdma link add\".\n"
	      "plane set allow: the plane takes packets only from outer sources in\n"
	      "these prefixes (IPv6 or IPv4 ADDR[/LEN], at most 16; of SRv6 packets\n"
	      "the outer source, before decapsulation), \"any\": from every source\n"
	      "(\"plane N\" is the same as \"id N\"); others are dropped and counted\n"
	      "in rx_src_denied. plane set admin down: mrc sends nothing on the\n"
	      "plane (its EVs are skipped as when its netdev is down; state\n"
	      "ADMIN_DOWN) and drops what arrives on it (admin_drops); admin up\n"
	      "brings it back. Not plane 0, which carries the device's GIDs.\n"
	      "ev deny keeps EV I (0..255) of QP N from carrying data, whatever the\n"
	      "transport learns; ev allow makes it usable again (\"ev I\" is the same\n"
	      "as \"index I\"). monitor prints plane and path set changes and EV state\n"
	      "changes as they happen, until interrupted or after N events.\n"
	      "probe sends N EV probes (MRC endpoint opcode 0xD8; default 1, at most\n"
	      "256) to ADDR (IPv6, or IPv4) out of plane N (default 0), on path ID of\n"
	      "the peer's path set or as plain RoCEv2 with EV EV (UDP source port\n"
	      "EV[31:16], flow label EV[15:0]; default random), and prints each\n"
	      "one's round trip and the peer's plane it arrived on, or \"timeout\"\n"
	      "after MS milliseconds (default 1000); it exits 1 unless all are\n"
	      "answered.\n"
	      "cc set changes the congestion control profile new RC QPs of DEV get\n"
	      "(NSCC, with the knobs of the OCP MRC API; algo none: no congestion\n"
	      "control); the knobs given are checked together, and a bad one is\n"
	      "refused with the reason. cc profile set changes one of the profiles\n"
	      "the device keeps for its controller (the OCP MRC API's, at most 16,\n"
	      "id N not 0): init -> offline needs algo, offline -> online the knobs\n"
	      "(which start as the device's); an online profile goes only offline,\n"
	      "and not while QPs use it; init forgets it. A QP's owner binds it to\n"
	      "an online profile before it starts (libmrc: MRC_QP_CC_PROFILE_ID).\n"
	      "ev profile set changes one of the EV profiles the device keeps for\n"
	      "its controller (at most 16, mode auto: a QP bound to one builds its\n"
	      "EV set from its peer's path set with count N rotation slots, and\n"
	      "min_active of them stay usable whatever losses say): init -> offline\n"
	      "needs mode and count, offline -> online min_active and events (the\n"
	      "state changes its QPs report as the profile's); the rest as for cc\n"
	      "profiles (libmrc: MRC_QP_EV_PROFILE_ID). Modes exp and gen: the\n"
	      "profile's EVs are the controller's (exp: its replace operations fill\n"
	      "the count places of the EV array) or generated from the fields'\n"
	      "ranges (gen), each on a port (plane + 1), expanded through the fields\n"
	      "into the layout of format profile F (ev fmt set: the mode, where they\n"
	      "go in a packet, and the fields' widths, 1..128 bits). init -> offline\n"
	      "needs fmt F (gen: fields too), online an online format and (exp)\n"
	      "every place filled. HEX, NEW, OLD: an EV's bytes in hex, its first\n"
	      "bits first (1 to 64 digits, zero-filled); \"-\" (or 0@0): an\n"
	      "unpopulated place. entries shows the EV array; ev set ... ev HEX\n"
	      "plane N denies (or allows) every copy of that EV on that plane.\n"
	      "dev add creates DEV on netdev IFNAME (its plane 0) as \"rdma link add\n"
	      "DEV type mrc netdev IFNAME\" does; dev del removes it (\"rdma link\n"
	      "delete DEV\"), and with it its planes and path sets.\n"
	      "-batch FILE runs the commands of FILE (- for stdin), one a line,\n"
	      "each as \"mrcctl OBJECT COMMAND ...\" would (options go before\n"
	      "-batch); \"#\" starts a comment, \"...\" or '...' quote. Errors name\n"
	      "the file and line; it stops at the first failed line unless -force.\n"
	      "apply FILE runs FILE as -batch does, but makes it so: dev add, plane\n"
	      "add, path add and fabric load succeed when what they add is there\n"
	      "already, identical, and fail naming what is there when it differs;\n"
	      "a profile set line on an online profile (or format) that it leaves\n"
	      "online succeeds, sending nothing, when the profile has what it asks,\n"
	      "and fails naming what differs; so running a file twice gives the same\n"
	      "state (/etc/mrc/mrc.conf, applied at boot by mrc.service).\n"
	      "See mrcctl(8).\n", f);
}

struct cmd {
	const char *name;
	int (*fn)(struct ctx *c, int argc, char **argv);
};

static const struct cmd dev_cmds[] = {
	{ "show", dev_show }, { "list", dev_show }, { "set", dev_set },
	{ "add", dev_add }, { "del", dev_del }, { "delete", dev_del }, {}
};

static const struct cmd plane_cmds[] = {
	{ "show", plane_show }, { "list", plane_show }, { "add", plane_add },
	{ "del", plane_del }, { "delete", plane_del }, { "set", plane_set }, {}
};

static const struct cmd path_cmds[] = {
	{ "show", path_show }, { "list", path_show }, { "add", path_add },
	{ "del", path_del }, { "delete", path_del }, {}
};

static const struct cmd ev_cmds[] = {
	{ "show", ev_show }, { "list", ev_show }, { "set", ev_set },
	{ "deny", ev_deny }, { "allow", ev_allow }, { "profile", ev_profile },
	{ "fmt", ev_fmt }, {}
};

static const struct cmd cc_cmds[] = {
	{ "show", cc_show }, { "list", cc_show }, { "set", cc_set },
	{ "profile", cc_profile }, {}
};

static const struct cmd fabric_cmds[] = {
	{ "load", fabric_load }, { "show", fabric_show }, {}
};

static const struct {
	const char *name;
	const struct cmd *cmds;
} objects[] = {
	{ "dev", dev_cmds }, { "plane", plane_cmds }, { "path", path_cmds },
	{ "ev", ev_cmds }, { "cc", cc_cmds }, { "fabric", fabric_cmds },
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

/* one command, OBJECT COMMAND [ ARGS ] (or apply FILE) */
int mrcctl_run(struct ctx *c, int argc, char **argv)
{
	unsigned int i;

	if (!strcmp(argv[0], "apply"))
		return apply_run(c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "stats"))
		return stats_show(c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "monitor"))
		return monitor_run(c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "probe"))
		return probe_run(c, argc - 1, argv + 1);
	for (i = 0; i < ARRAY_SIZE(objects); i++)
		if (!strcmp(argv[0], objects[i].name))
			return do_object(c, argv[0], objects[i].cmds, argc - 1,
					 argv + 1);
	die_usage("unknown object \"%s\"", argv[0]);
}

/*
 * -n NAME: the network namespace that ip-netns(8) named NAME, as ip -n
 * does. Only the netlink socket lives there (it is opened later), so a
 * setns() is all it takes; no sysfs of the namespace is needed.
 */
static void netns_enter(const char *name)
{
	char path[256];
	int fd;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		die_usage("-n \"%s\": not a network namespace name", name);
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pr_err("network namespace \"%s\": %s\n", name, strerror(errno));
		exit(1);
	}
	if (setns(fd, CLONE_NEWNET)) {
		pr_err("entering network namespace \"%s\": %s\n", name,
		       strerror(errno));
		exit(1);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "netns", required_argument, NULL, 'n' },
		{ "Version", no_argument, NULL, 'V' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ "batch", required_argument, NULL, 'b' },
		{ "force", no_argument, NULL, 'f' },
		{}
	};
	const char *batch = NULL;
	struct ctx c = {};
	int o, ret;

	while ((o = getopt_long_only(argc, argv, "+jpn:Vhb:f", opts, NULL)) != -1) {
		switch (o) {
		case 'b':
			batch = optarg;
			break;
		case 'f':
			c.force = true;
			break;
		case 'j':
			c.json = true;
			break;
		case 'p':
			c.pretty = true;
			break;
		case 'n':
			netns_enter(optarg);
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
	if (batch) {
		if (argc)
			die_usage("-batch FILE: unexpected argument \"%s\"", argv[0]);
		return batch_run(&c, batch);
	}
	if (c.force && (!argc || strcmp(argv[0], "apply")))
		die_usage("-force goes with -batch FILE or apply FILE");
	if (!argc || !strcmp(argv[0], "help")) {
		usage(argc ? stdout : stderr);
		return argc ? 0 : 2;
	}
	if (!strcmp(argv[0], "version")) {
		printf("mrcctl %s\n", MRCCTL_VERSION);
		return 0;
	}
	ret = mrcctl_run(&c, argc, argv);
	mrcnl_close(&c.nl);
	return ret;
}
