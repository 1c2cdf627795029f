// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_api_test: the arguments, the setup and the order the sections run in */
#include "api.h"

/* ---- main --------------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: %s -d MRCDEV [-r OTHERDEV] [-g GIDIDX] [-t SECS]\n"
		"\n"
		"Checks every call of the OCP MRC API (libmrc) on MRCDEV.\n"
		"  -d MRCDEV    an mrc RDMA device\n"
		"  -r OTHERDEV  an RDMA device of another kind (e.g. rxe), for the\n"
		"               non-MRC device checks\n"
		"  -g GIDIDX    the RoCE v2 GID index of MRCDEV's port 1 to use\n"
		"               (default: the first of an IPv4 address)\n"
		"  -t SECS      give up after SECS seconds (default %d)\n",
		PROG, WATCHDOG_S);
}

static struct ibv_device *dev_find(struct ibv_device **devs, int n,
				   const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(devs[i]), name))
			return devs[i];
	return NULL;
}

int main(int argc, char **argv)
{
	struct env e = { .gid_idx = -1 };
	char *end;
	int c, n = 0;

	while ((c = getopt(argc, argv, "d:r:g:t:h")) != -1) {
		switch (c) {
		case 'd':
			e.mrc_name = optarg;
			break;
		case 'r':
			e.other_name = optarg;
			break;
		case 'g':
			e.gid_idx = (int)strtol(optarg, &end, 0);
			if (*end || e.gid_idx < 0 || e.gid_idx > 255) {
				fprintf(stderr, "%s: -g %s: not a GID index\n",
					PROG, optarg);
				return 2;
			}
			break;
		case 't':
			watchdog_s = (int)strtol(optarg, &end, 0);
			if (*end || watchdog_s <= 0) {
				fprintf(stderr, "%s: -t %s: not a number of seconds\n",
					PROG, optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!e.mrc_name || optind < argc) {
		usage(stderr);
		return 2;
	}
	signal(SIGALRM, on_alarm);
	alarm(watchdog_s);
	guard_init();
	setvbuf(stdout, NULL, _IOLBF, 0);

	printf("KTAP version 1\n");
	diag(PROG ": libmrc on %s%s%s", e.mrc_name,
	     e.other_name ? ", non-mrc " : "", e.other_name ? e.other_name : "");
	e.devs = ibv_get_device_list(&n);
	e.mdev = e.devs ? dev_find(e.devs, n, e.mrc_name) : NULL;
	if (e.mdev)
		e.vctx = ibv_open_device(e.mdev);
	if (!report(e.vctx != NULL, "ibv_open_device %s", e.mrc_name))
		goto done;
	if (e.other_name) {
		e.odev = dev_find(e.devs, n, e.other_name);
		if (e.odev)
			e.octx = ibv_open_device(e.odev);
		if (!report(e.octx != NULL, "ibv_open_device %s", e.other_name))
			goto done;
	} else {
		diag("no -r device: non-mrc checks left out");
	}
	e.pd = ibv_alloc_pd(e.vctx);
	if (!report(e.pd != NULL, "ibv_alloc_pd"))
		goto done;
	e.have_gid = gid_find(&e);
	if (!e.have_gid)
		diag("no RoCE v2 GID%s on %s port 1", e.gid_idx >= 0 ? " at -g" :
		     " of an IPv4 address", e.mrc_name);

	t_versions();
	t_device(&e);
	t_context(&e);
	if (!e.ctx)
		goto done;
	t_channels(&e);
	t_hints(&e);
	t_qp_create(&e);
	t_traffic(&e);
	t_async(&e);
	t_ctl(&e);
	t_ports(&e);
	t_cc_profiles(&e);
	t_ev_profiles(&e);
	t_ev_fmt_profiles(&e);
	t_ev_exp_profiles(&e);
	t_ep_probes(&e);
	t_controllers(&e);
done:
	if (e.ctx)
		mrc_destroy_context(e.ctx);
	if (e.pd)
		ibv_dealloc_pd(e.pd);
	if (e.octx)
		ibv_close_device(e.octx);
	if (e.vctx)
		ibv_close_device(e.vctx);
	if (e.devs)
		ibv_free_device_list(e.devs);
	printf("# " PROG ": %d passed, %d failed\n", t_pass, t_fail);
	return t_fail ? 1 : 0;
}
