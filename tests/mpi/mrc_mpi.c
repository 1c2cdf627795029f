// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_mpi: an MPI program whose results are checked, for Open MPI over UCX
 * over mrc (tests/selftests/mrc_ucx.sh).
 *
 *   mrc_mpi [-n ITERS] [-s MAX_BYTES] [-e MAX_ELEMS] [-w WINDOW]
 *
 * 1. MPI_Allreduce (sum of 64-bit integers) of 1 .. MAX_ELEMS elements (x8
 *    a step): every rank checks every element against the closed form.
 * 2. A bandwidth loop, rank 0 -> rank 1, sizes 1 B .. MAX_BYTES (x4 a
 *    step): ITERS rounds of WINDOW MPI_Isend / MPI_Irecv, then a zero-byte
 *    reply; rank 1 checks every byte of every message (a pattern of the
 *    size, round and slot). Rank 0 prints the rate (not judged).
 * 3. MPI_Barrier, then a last MPI_Allreduce of the error counts.
 *
 * Every rank prints its host and network namespace, and its checks; rank 0 ends with "mrc_mpi: done, N
 * checks, 0 errors". Exit status 0 only when no rank found an error.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, nranks;
static long errors, checks;

static void usage(void)
{
	if (!rank)
		fprintf(stderr,
			"usage: mrc_mpi [-n ITERS] [-s MAX_BYTES] [-e MAX_ELEMS] [-w WINDOW]\n");
	MPI_Finalize();
	exit(2);
}

/* the value rank r contributes at index i */
static int64_t contrib(int r, long i)
{
	return (int64_t)(r + 1) * 1000003 + i * (r + 7);
}

static void allreduce(long n)
{
	int64_t *in = malloc(n * sizeof(*in)), *out = malloc(n * sizeof(*out));
	long i, bad = 0;
	int64_t want;
	int r;

	if (!in || !out) {
		fprintf(stderr, "rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (i = 0; i < n; i++) {
		in[i] = contrib(rank, i);
		out[i] = -1;
	}
	MPI_Allreduce(in, out, n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
	for (i = 0; i < n; i++) {
		for (want = 0, r = 0; r < nranks; r++)
			want += contrib(r, i);
		if (out[i] != want && bad++ < 3)
			fprintf(stderr, "rank %d: allreduce of %ld: [%ld] = %lld, want %lld\n",
				rank, n, i, (long long)out[i], (long long)want);
	}
	checks++;
	errors += !!bad;
	printf("rank %d: allreduce %ld x int64: %s\n", rank, n, bad ? "WRONG" : "ok");
	free(in);
	free(out);
}

static unsigned char pattern(long size, int round, int slot, long i)
{
	return (unsigned char)(i * 131 + size * 7 + round * 17 + slot * 29 + 1);
}

static void bandwidth(long size, int iters, int window)
{
	unsigned char *buf = malloc((size_t)size * window);
	MPI_Request *req = malloc(window * sizeof(*req));
	long i, bad = 0;
	double t0, t;
	int round, s;

	if (!buf || !req) {
		fprintf(stderr, "rank %d: out of memory\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (round = 0; round < iters; round++) {
		if (rank == 0) {
			for (s = 0; s < window; s++) {
				for (i = 0; i < size; i++)
					buf[s * size + i] = pattern(size, round, s, i);
				MPI_Isend(buf + s * size, size, MPI_BYTE, 1, s,
					  MPI_COMM_WORLD, &req[s]);
			}
			MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
			MPI_Recv(NULL, 0, MPI_BYTE, 1, window, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			memset(buf, 0, (size_t)size * window);
			for (s = 0; s < window; s++)
				MPI_Irecv(buf + s * size, size, MPI_BYTE, 0, s,
					  MPI_COMM_WORLD, &req[s]);
			MPI_Waitall(window, req, MPI_STATUSES_IGNORE);
			for (s = 0; s < window; s++)
				for (i = 0; i < size; i++)
					if (buf[s * size + i] != pattern(size, round, s, i) &&
					    bad++ < 3)
						fprintf(stderr,
							"rank 1: %ld B, round %d, message %d: byte %ld is %u, want %u\n",
							size, round, s, i, buf[s * size + i],
							pattern(size, round, s, i));
			MPI_Send(NULL, 0, MPI_BYTE, 0, window, MPI_COMM_WORLD);
		}
	}
	t = MPI_Wtime() - t0;
	if (rank == 0)
		printf("rank 0: bw %ld B x %d x %d: %.3f MB/s\n", size, window,
		       iters, t > 0 ? (double)size * window * iters / t / 1e6 : 0.0);
	else if (rank == 1) {
		checks++;
		errors += !!bad;
		printf("rank 1: bw %ld B x %d x %d: %s\n", size, window, iters,
		       bad ? "WRONG" : "verified");
	}
	free(buf);
	free(req);
}

int main(int argc, char **argv)
{
	long max_bytes = 1 << 20, max_elems = 1 << 17, n, total[2], mine[2];
	int iters = 20, window = 8, c;
	char host[64], netns[64] = "?";
	ssize_t len;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	while ((c = getopt(argc, argv, "n:s:e:w:")) != -1) {
		switch (c) {
		case 'n': iters = atoi(optarg); break;
		case 's': max_bytes = atol(optarg); break;
		case 'e': max_elems = atol(optarg); break;
		case 'w': window = atoi(optarg); break;
		default: usage();
		}
	}
	if (iters < 1 || window < 1 || max_bytes < 1 || max_elems < 1 || optind < argc)
		usage();
	if (nranks < 2) {
		if (!rank)
			fprintf(stderr, "mrc_mpi: needs 2 or more ranks\n");
		MPI_Finalize();
		return 2;
	}
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = 0;
	/* the tests' hosts are network namespaces of one machine */
	len = readlink("/proc/self/ns/net", netns, sizeof(netns) - 1);
	if (len > 0)
		netns[len] = 0;
	printf("rank %d of %d: pid %d on %s, %s\n", rank, nranks, (int)getpid(),
	       host, netns);
	fflush(stdout);

	for (n = 1; n <= max_elems; n *= 8)
		allreduce(n);
	for (n = 1; n <= max_bytes; n *= 4)
		bandwidth(n, iters, window);
	MPI_Barrier(MPI_COMM_WORLD);

	mine[0] = checks;
	mine[1] = errors;
	MPI_Allreduce(mine, total, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (!rank)
		printf("mrc_mpi: done, %ld checks, %ld errors\n", total[0], total[1]);
	fflush(stdout);
	MPI_Finalize();
	return total[1] ? 1 : 0;
}
