/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * mrc_write_bw: RDMA WRITE bandwidth sweep over the OCP MRC application API
 * (mrc.h). The client WRITEs a pattern into the server's buffer, size after
 * size; the server checks every byte of every size. Its command line is
 * that of the OCP reference benchmark (examples/benchmark/mrc_example.c).
 *
 *   server:  mrc_write_bw -d DEV [-g GID_IDX] [options]
 *   client:  mrc_write_bw -d DEV [-g GID_IDX] [options] HOST
 *
 * Per size the two sides keep in step over the TCP connection that carried
 * the QP numbers: the server zeroes its buffer, posts a receive and says
 * READY; the client WRITEs (warmup, then the timed run), then one 8-byte
 * WRITE_WITH_IMM carrying the size; the server, on that receive, checks
 * every byte and answers VERIFIED (or FAILED, and exits 1).
 *
 * The program's files: wbw.h the shared part; opts.c logging, usage and
 * option parsing; net.c the TCP side channel; rdma.c the device, context,
 * CQs, QP, the exchange, connect and teardown; main.c the data pattern,
 * the WRITE burst, the client and server per size, run and main.
 */
#ifndef WBW_H
#define WBW_H

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <mrc.h>

#define PROG			"mrc_write_bw"

#define DEF_TCP_PORT		18515
#define DEF_IB_PORT		1
#define DEF_GID_IDX		3
#define DEF_ITERS		1000
#define DEF_MIN_SIZE		1
#define DEF_MAX_SIZE		(64UL << 20)
#define MAX_SIZE_CAP		(1UL << 30)	/* the immediate and an SGE hold it */
#define DEF_STEP		2
#define DEF_WARMUP		100

#define TX_DEPTH		128	/* WRITEs outstanding at most */
#define CQ_MOD			64	/* one WRITE in CQ_MOD is signaled */
#define POLL_BATCH		16
#define SEND_CQE		(TX_DEPTH + 16)
#define RECV_CQE		16

/* the MRC ACK timeout, 1.024 us * 2^20 ~ 1 s: the test VM is slow */
#define QP_TIMEOUT		20
#define QP_RETRY_LINEAR		7
#define QP_RETRY_EXP		0

/* the server's 8 bytes past its data where the WRITE_WITH_IMM lands */
#define SIG_BYTES		8
#define IMM_WR_ID		UINT64_MAX

/* how long a client keeps trying a server that is not listening yet */
#define CONNECT_RETRY_SEC	20

enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

/* ---- logging: MRC_LOG_LEVEL, as the reference benchmark reads it ---- */

enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

extern enum log_level log_level;

void __attribute__((format(printf, 2, 3)))
log_msg(enum log_level level, const char *fmt, ...);

#define err(...)	log_msg(LOG_ERROR, __VA_ARGS__)
#define warn(...)	log_msg(LOG_WARN, __VA_ARGS__)
#define info(...)	log_msg(LOG_INFO, __VA_ARGS__)
#define dbg(...)	log_msg(LOG_DEBUG, __VA_ARGS__)

/* ---- options ---- */

struct opts {
	const char *host;		/* NULL: server */
	const char *dev;
	unsigned int tcp_port;
	unsigned int ib_port;
	unsigned int gid_idx;
	enum ibv_mtu mtu;
	unsigned int iters;
	unsigned int warmup;
	uint64_t min_size;
	uint64_t max_size;
	uint64_t step;
	unsigned int linger;		/* seconds the QP stays after the sweep */
};

/* ---- the TCP side channel ---- */

/*
 * What each side tells the other once: its QP and buffer, and the sweep it
 * was given, so that two sides started with different sizes stop at once
 * rather than wait for each other. Fixed layout, network byte order.
 */
#define WIRE_MAGIC	0x4d524357u	/* "MRCW" */
#define WIRE_VERSION	1

struct wire_info {
	uint32_t magic;
	uint32_t version;
	uint32_t qpn;
	uint32_t psn;
	uint32_t rkey;
	uint32_t mtu;		/* enum ibv_mtu, after the port's clamp */
	uint64_t addr;
	uint8_t gid[16];
	uint64_t min_size;
	uint64_t max_size;
	uint64_t step;
	uint32_t iters;
	uint32_t reserved;
};

_Static_assert(sizeof(struct wire_info) == 80, "wire_info has no padding");

/* the per size messages, all from the server */
enum { MSG_READY = 1, MSG_VERIFIED = 2, MSG_FAILED = 3 };

struct wire_msg {
	uint32_t type;
	uint32_t size;
};

/* ---- the RDMA side ---- */

struct bench {
	struct opts *o;
	bool server;
	int sock;

	struct ibv_device **devs;
	struct ibv_context *ibv;
	struct mrc_context *mctx;
	struct ibv_pd *pd;
	struct mrc_cq *scq;
	struct mrc_cq *rcq;
	struct mrc_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;			/* max_size data + SIG_BYTES */

	union ibv_gid gid;
	enum ibv_mtu mtu;
	uint32_t qpn;
	uint32_t psn;

	struct wire_info peer;		/* host byte order */
	union ibv_gid peer_gid;

};

/* ---- across the files ---- */

/* opts.c */
void log_init(void);
bool env_id(const char *name, uint64_t *id);
const char *rc_str(int rc);
int parse_opts(int argc, char **argv, struct opts *o);

/* net.c */
int xfer(int fd, void *buf, size_t len, bool out);
int msg_send(int fd, uint32_t type, uint64_t size);
int msg_expect(int fd, uint32_t type, uint64_t size);
int tcp_server(unsigned int port);
int tcp_client(const char *host, unsigned int port);

/* rdma.c */
int setup(struct bench *b);
int exchange(struct bench *b);
int connect_qp(struct bench *b);
void teardown(struct bench *b);

#endif /* WBW_H */
