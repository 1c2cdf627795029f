/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * mrcnl: a client of the "mrc" generic netlink family (include/uapi/linux/
 * mrc.h), shared by mrcctl and libmrc: the socket, the family and its
 * multicast groups, requests, dumps, and the kernel's errors with their
 * extack message. It prints nothing and never exits: every failure is -1
 * with errno, and nl->errmsg holds the kernel's message if it sent one.
 */
#ifndef MRCNL_H
#define MRCNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "linux/mrc.h"

#define MRCNL_GROUPS_MAX	8
/*
 * The largest message mrcnl_transact reads: a do reply can be bigger than
 * a page (an EV profile's array of 256 EVs), and a dump's messages grow to
 * what the reader reads, at most 32 KiB
 */
#define MRCNL_RECV_SIZE		(64 * 1024)

struct mrcnl_group {
	char name[GENL_NAMSIZ];
	uint32_t id;
};

struct mrcnl {
	struct mnl_socket *sock;
	uint16_t family;
	struct mrcnl_group groups[MRCNL_GROUPS_MAX];
	unsigned int ngroups;
	unsigned int seq;
	char errmsg[256];	/* the kernel's extack message of the last error */
};

/* open a socket and resolve the family: 0, or -1 (ENOENT: no mrc module) */
int mrcnl_open(struct mrcnl *nl);
void mrcnl_close(struct mrcnl *nl);
/* the id of multicast group @name, 0 if the family has none */
uint32_t mrcnl_group(const struct mrcnl *nl, const char *name);

/* a request of command @cmd in @buf (MNL_SOCKET_BUFFER_SIZE bytes, or more) */
struct nlmsghdr *mrcnl_msg(struct mrcnl *nl, char *buf, uint8_t cmd,
			   uint16_t flags);
/*
 * send @nlh, @cb(@data) on each reply until the end (a dump's done, or
 * the ack a request that is not a dump is sent with): 0 or -1 with errno
 */
int mrcnl_transact(struct mrcnl *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		   void *data);
/* @cb(@data) on each message of @buf from a read: 1 more, 0 the end, -1 */
int mrcnl_run(struct mrcnl *nl, const void *buf, size_t len, unsigned int seq,
	      unsigned int portid, mnl_cb_t cb, void *data);

/* attributes of a reply by type, up to @max (the rest are left out) */
void mrcnl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb,
		 unsigned int max);
/* NLA_UINT: 4 or 8 bytes */
uint64_t mrcnl_attr_uint(const struct nlattr *a);
bool mrcnl_attr_ok(const struct nlattr *a, enum mnl_attr_data_type type);
uint32_t mrcnl_u32(const struct nlattr *a);

#endif /* MRCNL_H */
