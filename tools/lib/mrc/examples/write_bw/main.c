// SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause)
/* mrc_write_bw: the data, the WRITE burst, the two sides per size, main */
#include "wbw.h"

/* ---- the data ---- */

/*
 * The byte at offset @i of a message of @size. It changes with the size, so
 * the last size's data cannot pass for this one's, and with the offset's
 * high bits as well as its low ones, so that a packet placed at another
 * offset (a multiple of the MTU, of 256) does not match either.
 */
static inline uint8_t seed_of(uint64_t size)
{
	return (size * 0x9e3779b97f4a7c15ull) >> 56;
}

static inline uint8_t pattern(uint64_t i, uint8_t seed)
{
	return i * 131 + (i >> 8) * 17 + (i >> 16) * 29 + (i >> 24) * 37 + seed;
}

static void fill(uint8_t *p, uint64_t size)
{
	uint8_t seed = seed_of(size);
	uint64_t i;

	for (i = 0; i < size; i++)
		p[i] = pattern(i, seed);
}

/* the offset of the first wrong byte, or @size */
static uint64_t check(const uint8_t *p, uint64_t size, uint64_t *nbad)
{
	uint8_t seed = seed_of(size);
	uint64_t i, first = size;

	*nbad = 0;
	for (i = 0; i < size; i++) {
		if (p[i] != pattern(i, seed)) {
			if (first == size)
				first = i;
			++*nbad;
		}
	}
	return first;
}

static int wc_ok(const struct ibv_wc *wc, const char *what)
{
	if (wc->status == IBV_WC_SUCCESS)
		return 0;
	err("%s completion: %s (status %d, vendor error 0x%x, wr_id %llu)",
	    what, ibv_wc_status_str(wc->status), wc->status, wc->vendor_err,
	    (unsigned long long)wc->wr_id);
	return -1;
}

/*
 * WRITE @n messages of @size from the start of our buffer to the start of
 * the server's, with up to TX_DEPTH outstanding. Every CQ_MOD-th WRITE and
 * the last are signaled: a completion's wr_id, the WRITE's 1-based number,
 * says how many are done, since an RC send queue completes in order.
 */
static int write_burst(struct bench *b, uint64_t size, uint64_t n)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)b->buf, .length = size, .lkey = b->mr->lkey,
	};
	struct ibv_wc wc[POLL_BATCH];
	struct ibv_send_wr wr, *bad;
	uint64_t posted = 0, done = 0;
	int i, got, rc;

	while (done < n) {
		/*
		 * Fill the window a WRITE a post, as perftest does: each post
		 * rings the doorbell, so the transport starts on the first
		 * WRITE while the next are posted
		 */
		while (posted < n && posted - done < TX_DEPTH) {
			uint64_t seq = ++posted;

			wr = (struct ibv_send_wr){
				.wr_id = seq, .sg_list = &sge, .num_sge = 1,
				.opcode = IBV_WR_RDMA_WRITE,
				.send_flags = seq % CQ_MOD == 0 || seq == n ?
					      IBV_SEND_SIGNALED : 0,
			};
			wr.wr.rdma.remote_addr = b->peer.addr;
			wr.wr.rdma.rkey = b->peer.rkey;
			rc = mrc_post_send(b->qp, &wr, &bad);
			if (rc) {
				err("mrc_post_send of a WRITE: %s", rc_str(rc));
				return -1;
			}
		}

		got = mrc_poll_cq(b->scq, POLL_BATCH, wc);
		if (got < 0) {
			err("mrc_poll_cq: %s", rc_str(got));
			return -1;
		}
		for (i = 0; i < got; i++) {
			if (wc_ok(&wc[i], "WRITE"))
				return -1;
			if (wc[i].wr_id > done && wc[i].wr_id <= n)
				done = wc[i].wr_id;
		}
	}
	return 0;
}

/* tell the server this size is done: 8 bytes past its data, imm = size */
static int write_imm(struct bench *b, uint64_t size)
{
	uint64_t *sig = (uint64_t *)(b->buf + b->o->max_size);
	struct ibv_sge sge = {
		.addr = (uintptr_t)sig, .length = SIG_BYTES, .lkey = b->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = IMM_WR_ID, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.send_flags = IBV_SEND_SIGNALED, .imm_data = htonl(size),
	}, *bad;
	struct ibv_wc wc;
	int rc;

	*sig = htobe64(size);
	wr.wr.rdma.remote_addr = b->peer.addr + b->o->max_size;
	wr.wr.rdma.rkey = b->peer.rkey;
	rc = mrc_post_send(b->qp, &wr, &bad);
	if (rc) {
		err("mrc_post_send of the WRITE_WITH_IMM: %s", rc_str(rc));
		return -1;
	}
	while ((rc = mrc_poll_cq(b->scq, 1, &wc)) == 0)
		;
	if (rc < 0) {
		err("mrc_poll_cq: %s", rc_str(rc));
		return -1;
	}
	if (wc_ok(&wc, "WRITE_WITH_IMM"))
		return -1;
	if (wc.wr_id != IMM_WR_ID) {
		err("a completion for wr_id %llu, not the WRITE_WITH_IMM's",
		    (unsigned long long)wc.wr_id);
		return -1;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int client_size(struct bench *b, uint64_t size)
{
	uint64_t iters = b->o->iters;
	double t0, t;

	/*
	 * Every WRITE of the last size has completed, so the source may be
	 * rewritten; the server's READY says it has zeroed its buffer and
	 * posted the receive for our WRITE_WITH_IMM.
	 */
	fill(b->buf, size);
	if (msg_expect(b->sock, MSG_READY, size))
		return -1;
	if (b->o->warmup && write_burst(b, size, b->o->warmup))
		return -1;
	t0 = now();
	if (write_burst(b, size, iters))
		return -1;
	t = now() - t0;
	/*
	 * All the WRITEs are acknowledged, so their data is in place before
	 * the WRITE_WITH_IMM is even sent.
	 */
	if (write_imm(b, size) || msg_expect(b->sock, MSG_VERIFIED, size))
		return -1;
	printf("%-10llu %-10llu %-14.3f %.6f\n", (unsigned long long)size,
	       (unsigned long long)iters, (double)iters * size * 8 / t / 1e9,
	       iters / t / 1e6);
	fflush(stdout);
	return 0;
}

/* the receive's completion; a closed TCP connection means the client quit */
static int wait_recv(struct bench *b, struct ibv_wc *wc)
{
	struct pollfd pfd = { .fd = b->sock, .events = POLLIN };
	int rc;

	for (;;) {
		rc = mrc_poll_cq(b->rcq, 1, wc);
		if (rc > 0)
			return 0;
		if (rc < 0) {
			err("mrc_poll_cq: %s", rc_str(rc));
			return -1;
		}
		/* the wait is not timed: sleep 1 ms rather than spin */
		rc = poll(&pfd, 1, 1);
		if (rc < 0 && errno != EINTR) {
			err("poll: %s", strerror(errno));
			return -1;
		}
		if (rc > 0) {
			/* the client says nothing until VERIFIED: it went */
			err("the client closed the TCP connection mid-size");
			return -1;
		}
	}
}

static int server_size(struct bench *b, uint64_t size)
{
	uint8_t *sig = b->buf + b->o->max_size;
	struct ibv_recv_wr wr = { .wr_id = size }, *bad;
	uint64_t first, nbad, sigval;
	struct ibv_wc wc;
	int rc;

	memset(b->buf, 0, size);
	memset(sig, 0, SIG_BYTES);
	/* no SGE: a WRITE_WITH_IMM's receive takes the immediate only */
	rc = mrc_post_recv(b->qp, &wr, &bad);
	if (rc) {
		err("mrc_post_recv: %s", rc_str(rc));
		return -1;
	}
	if (msg_send(b->sock, MSG_READY, size) || wait_recv(b, &wc) ||
	    wc_ok(&wc, "receive"))
		return -1;
	if (wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
	    !(wc.wc_flags & IBV_WC_WITH_IMM)) {
		err("a receive completion with opcode %d flags 0x%x, not "
		    "RECV_RDMA_WITH_IMM", wc.opcode, wc.wc_flags);
		return -1;
	}
	if (ntohl(wc.imm_data) != size) {
		err("immediate %u, not the size %llu", ntohl(wc.imm_data),
		    (unsigned long long)size);
		return -1;
	}
	/* the data is in memory before its completion is seen */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	memcpy(&sigval, sig, sizeof(sigval));
	if (be64toh(sigval) != size) {
		err("the WRITE_WITH_IMM's 8 bytes say %llu, not %llu",
		    (unsigned long long)be64toh(sigval),
		    (unsigned long long)size);
		msg_send(b->sock, MSG_FAILED, size);
		return -1;
	}
	first = check(b->buf, size, &nbad);
	if (nbad) {
		err("size %llu: %llu byte(s) wrong, the first at offset %llu: "
		    "expected 0x%02x, got 0x%02x", (unsigned long long)size,
		    (unsigned long long)nbad, (unsigned long long)first,
		    pattern(first, seed_of(size)), b->buf[first]);
		msg_send(b->sock, MSG_FAILED, size);
		return -1;
	}
	if (msg_send(b->sock, MSG_VERIFIED, size))
		return -1;
	printf("verified %llu bytes x %u\n", (unsigned long long)size,
	       b->o->iters);
	fflush(stdout);
	return 0;
}

static int run(struct bench *b)
{
	struct opts *o = b->o;
	uint64_t size = o->min_size;
	unsigned int nsizes = 0;

	if (!b->server)
		printf("%-10s %-10s %-14s %s\n", "MsgSize", "TotalOps",
		       "BW_avg[Gbps]", "MsgRate[Mpps]");
	for (;;) {
		if (b->server ? server_size(b, size) : client_size(b, size))
			return -1;
		nsizes++;
		if (size >= o->max_size)
			break;
		/* no overflow: size <= 1 GiB and step <= 1 GiB */
		size *= o->step;
		if (size > o->max_size)
			size = o->max_size;
	}
	printf("%s: done, %u sizes\n", PROG, nsizes);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct bench b = { .o = &o, .sock = -1 };
	int rc;

	log_init();
	rc = parse_opts(argc, argv, &o);
	if (rc)
		return rc;
	b.server = !o.host;
	srand48(time(NULL) ^ getpid());
	/* a peer gone mid-send is an error to report, not a SIGPIPE */
	signal(SIGPIPE, SIG_IGN);

	rc = EXIT_RUNTIME;
	if (setup(&b))
		goto out;
	b.sock = b.server ? tcp_server(o.tcp_port) :
			    tcp_client(o.host, o.tcp_port);
	if (b.sock < 0 || exchange(&b) || connect_qp(&b))
		goto out;
	if (run(&b) == 0)
		rc = 0;
	if (!rc && o.linger)
		sleep(o.linger);
out:
	teardown(&b);
	return rc;
}
