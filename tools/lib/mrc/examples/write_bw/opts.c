// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_write_bw: logging (MRC_LOG_LEVEL), usage and option parsing */
#include "wbw.h"

/* ---- logging: MRC_LOG_LEVEL, as the reference benchmark reads it ---- */

enum log_level log_level = LOG_INFO;

void __attribute__((format(printf, 2, 3)))
log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const tag[] = {
		[LOG_ERROR] = "error: ", [LOG_WARN] = "warning: ",
		[LOG_INFO] = "", [LOG_DEBUG] = "debug: ",
	};
	va_list ap;

	if (level > log_level)
		return;
	fprintf(stderr, "%s: %s", PROG, tag[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void log_init(void)
{
	static const char *const names[] = { "ERROR", "WARN", "INFO", "DEBUG" };
	const char *s = getenv("MRC_LOG_LEVEL");
	unsigned int i;

	if (!s || !*s)
		return;
	for (i = 0; i < 4; i++) {
		if (!strcasecmp(s, names[i]) || (s[0] == '0' + (int)i && !s[1])) {
			log_level = i;
			return;
		}
	}
	if (!strcasecmp(s, "WARNING")) {
		log_level = LOG_WARN;
		return;
	}
	warn("MRC_LOG_LEVEL=%s: not ERROR, WARN, INFO, DEBUG or 0-3; using INFO", s);
}

/* a profile id from the environment: true if @name is set (base 10) */
bool env_id(const char *name, uint64_t *id)
{
	const char *s = getenv(name);
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*id = strtoull(s, &end, 10);
	if (errno || *end) {
		warn("%s=%s: not a number; left out", name, s);
		return false;
	}
	return true;
}

/*
 * mrc.h's calls fail with -1 and errno; those "like" a verb that returns
 * the errno itself (posting, modify, destroy) may do that instead.
 */
const char *rc_str(int rc)
{
	return strerror(rc > 0 ? rc : errno);
}

/* ---- options ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage:\n"
		"  %1$s [options]          run a server, wait for a client\n"
		"  %1$s [options] HOST     run a client against the server on HOST\n"
		"\n"
		"Options:\n"
		"  -p, --port=PORT          TCP port to listen on / connect to (default %2$d)\n"
		"  -d, --ib-dev=DEV         RDMA device (an mrc device; required)\n"
		"  -i, --ib-port=PORT       port of the device (default %3$d)\n"
		"  -g, --gid-idx=IDX        source GID index (default %4$d)\n"
		"  -m, --mtu=MTU            path MTU: 256, 512, 1024, 2048 or 4096 (default\n"
		"                           4096, lowered to the port's active MTU)\n"
		"  -n, --iters=N            WRITEs per message size (default %5$d)\n"
		"  -s, --size=BYTES         largest message size (default %6$lu, at most %7$lu)\n"
		"  -S, --min-size=BYTES     smallest message size (default %8$d)\n"
		"  -F, --step-factor=N      size multiplier from one size to the next, >= 2\n"
		"                           (default %9$d); the last size is --size\n"
		"  -w, --warmup-iters=N     untimed WRITEs before each size (default %10$d)\n"
		"  -L, --linger=SECONDS     keep the QP connected SECONDS after the last\n"
		"                           size, to look at it (rdma resource, mrcctl ev\n"
		"                           show); mrc's own, not the reference's (default 0)\n"
		"  -h, --help               this text\n"
		"\n"
		"Both sides must be given the same -n, -s, -S and -F. The server checks\n"
		"every byte of every size and exits 1 on a mismatch.\n"
		"\n"
		"Environment:\n"
		"  MRC_LOG_LEVEL            ERROR, WARN, INFO or DEBUG, or 0-3 (default INFO)\n"
		"  MRC_QP_EV_PROFILE_ID     the EV profile id the QP is bound to\n"
		"  MRC_QP_CC_PROFILE_ID     the CC profile id (the node's controller set them up)\n"
		"\n"
		"Exit status: 0 done, 1 failure, 2 usage error.\n",
		PROG, DEF_TCP_PORT, DEF_IB_PORT, DEF_GID_IDX, DEF_ITERS,
		DEF_MAX_SIZE, MAX_SIZE_CAP, DEF_MIN_SIZE, DEF_STEP, DEF_WARMUP);
}

/* a whole unsigned number in [lo, hi], decimal or 0x hex */
static bool parse_num(const char *opt, const char *s, uint64_t lo, uint64_t hi,
		      uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' || !*s)
		goto bad;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < lo || v > hi)
		goto bad;
	*out = v;
	return true;
bad:
	fprintf(stderr, "%s: %s: '%s' is not a number in %llu..%llu\n", PROG, opt,
		s, (unsigned long long)lo, (unsigned long long)hi);
	return false;
}

int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "port",		required_argument, NULL, 'p' },
		{ "ib-dev",		required_argument, NULL, 'd' },
		{ "ib-port",		required_argument, NULL, 'i' },
		{ "gid-idx",		required_argument, NULL, 'g' },
		{ "mtu",		required_argument, NULL, 'm' },
		{ "iters",		required_argument, NULL, 'n' },
		{ "size",		required_argument, NULL, 's' },
		{ "min-size",		required_argument, NULL, 'S' },
		{ "step-factor",	required_argument, NULL, 'F' },
		{ "warmup-iters",	required_argument, NULL, 'w' },
		{ "linger",		required_argument, NULL, 'L' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t v;
	int c;

	*o = (struct opts){
		.tcp_port = DEF_TCP_PORT, .ib_port = DEF_IB_PORT,
		.gid_idx = DEF_GID_IDX, .mtu = IBV_MTU_4096,
		.iters = DEF_ITERS, .warmup = DEF_WARMUP,
		.min_size = DEF_MIN_SIZE, .max_size = DEF_MAX_SIZE,
		.step = DEF_STEP,
	};

	while ((c = getopt_long(argc, argv, "p:d:i:g:m:n:s:S:F:w:L:h", lopts,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			if (!parse_num("--port", optarg, 1, 65535, &v))
				return EXIT_USAGE;
			o->tcp_port = v;
			break;
		case 'd':
			o->dev = optarg;
			break;
		case 'i':
			if (!parse_num("--ib-port", optarg, 1, 255, &v))
				return EXIT_USAGE;
			o->ib_port = v;
			break;
		case 'g':
			if (!parse_num("--gid-idx", optarg, 0, INT_MAX, &v))
				return EXIT_USAGE;
			o->gid_idx = v;
			break;
		case 'm':
			if (!parse_num("--mtu", optarg, 256, 4096, &v))
				return EXIT_USAGE;
			switch (v) {
			case 256:  o->mtu = IBV_MTU_256;  break;
			case 512:  o->mtu = IBV_MTU_512;  break;
			case 1024: o->mtu = IBV_MTU_1024; break;
			case 2048: o->mtu = IBV_MTU_2048; break;
			case 4096: o->mtu = IBV_MTU_4096; break;
			default:
				fprintf(stderr, "%s: --mtu: 256, 512, 1024, 2048 or 4096, not %s\n",
					PROG, optarg);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			if (!parse_num("--iters", optarg, 1, INT_MAX, &v))
				return EXIT_USAGE;
			o->iters = v;
			break;
		case 's':
			/* above the cap: lowered to it, as the reference does */
			if (!parse_num("--size", optarg, 1, UINT64_MAX, &v))
				return EXIT_USAGE;
			o->max_size = v;
			break;
		case 'S':
			if (!parse_num("--min-size", optarg, 1, MAX_SIZE_CAP, &v))
				return EXIT_USAGE;
			o->min_size = v;
			break;
		case 'F':
			if (!parse_num("--step-factor", optarg, 2, MAX_SIZE_CAP, &v))
				return EXIT_USAGE;
			o->step = v;
			break;
		case 'w':
			if (!parse_num("--warmup-iters", optarg, 0, INT_MAX, &v))
				return EXIT_USAGE;
			o->warmup = v;
			break;
		case 'L':
			if (!parse_num("--linger", optarg, 0, 3600, &v))
				return EXIT_USAGE;
			o->linger = v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}

	if (optind < argc)
		o->host = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "%s: one HOST at most, not also '%s'\n", PROG,
			argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!o->dev) {
		fprintf(stderr, "%s: no device: -d/--ib-dev DEV is required "
			"(ibv_devices lists them)\n", PROG);
		return EXIT_USAGE;
	}
	if (o->max_size > MAX_SIZE_CAP) {
		warn("--size %llu is above %lu: using %lu",
		     (unsigned long long)o->max_size, MAX_SIZE_CAP, MAX_SIZE_CAP);
		o->max_size = MAX_SIZE_CAP;
	}
	if (o->min_size > o->max_size) {
		fprintf(stderr, "%s: --min-size %llu is above --size %llu\n", PROG,
			(unsigned long long)o->min_size,
			(unsigned long long)o->max_size);
		return EXIT_USAGE;
	}
	return 0;
}
