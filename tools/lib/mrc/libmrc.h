/* SPDX-License-Identifier: (GPL-2.0 OR BSD-2-Clause) */
/*
 * libmrc's objects. Each wraps what it stands on (an ibv_context, ibv_cq,
 * ibv_qp, ibv_comp_channel, or a netlink socket for an EV event CQ) and is
 * on its context's list from create to destroy; the context's lock guards
 * the lists and the reference counts, never a data-path call. Files:
 * context.c (versions, contexts, device query, async events), cq.c
 * (channels, CQs, CQ events), qp.c (hints, QPs, posting), ctl.c (controller:
 * device, ports, CC profiles), ctl_ev_fmt.c (EV format profiles), ctl_ev.c
 * (EV profiles), ctl_ev_op.c (their EV operations), ctl_ep.c (endpoint
 * operations: EV probes), ctl_event.c (EV event CQs).
 */
#ifndef LIBMRC_H
#define LIBMRC_H

#include <pthread.h>
#include <stdbool.h>

#include <mrc_ctl.h>
#include "mrcnl.h"

#define LIBMRC_EXPORT	__attribute__((visibility("default")))

/* mrc's windows are 1024 PSNs each way, fixed: an MPR of 8 units of 128 */
#define MRC_MPR			8
#define MRC_QP_HINTS_MAX	4096
/* entries of one EV op (ev_op_max_entries): an EV array's places */
#define MRC_EV_OP_MAX_ENTRIES	MRC_MAX_EVS

_Static_assert(MRC_MAX_VENDOR_CFG_SIZE == MRC_CTL_MAX_VENDOR_CFG_SIZE,
	       "one vendor configuration size");

struct mrc_list {
	struct mrc_list *prev, *next;
};

static inline void mrc_list_init(struct mrc_list *l)
{
	l->prev = l->next = l;
}

static inline void mrc_list_add(struct mrc_list *head, struct mrc_list *n)
{
	n->next = head->next;
	n->prev = head;
	head->next->prev = n;
	head->next = n;
}

static inline void mrc_list_del(struct mrc_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	mrc_list_init(n);
}

static inline bool mrc_list_empty(const struct mrc_list *head)
{
	return head->next == head;
}

#define mrc_list_entry(n, type, member)					\
	((type *)((char *)(n) - offsetof(type, member)))
#define mrc_list_first(head, type, member)				\
	mrc_list_entry((head)->next, type, member)

struct mrc_context {
	struct ibv_context *vctx;
	uint32_t api_version;		/* what the program was built for */
	uint32_t vendor_api_version;
	pthread_mutex_t lock;
	struct mrc_list channels, cqs, hints, qps;
	unsigned int nhints;
	int ctl_fd;			/* the controller's lock (ctl.c), or -1 */
	char name[IBV_SYSFS_NAME_MAX];	/* the device's */
};

struct mrc_comp_channel {
	struct mrc_list node;
	struct mrc_context *ctx;
	struct ibv_comp_channel *vch;
	int epfd;		/* the fd the program waits on: vch's and EV CQs' */
	unsigned int cqs;	/* CQs that report to it */
};

enum mrc_cq_kind {
	MRC_CQ_VERBS,		/* completions of QPs */
	MRC_CQ_EV_EVENT,	/* EV state changes (ctl_event.c) */
};

struct mrc_ev_cq;

struct mrc_cq {
	struct mrc_list node;
	struct mrc_context *ctx;
	enum mrc_cq_kind kind;
	void *cq_context;
	struct mrc_comp_channel *channel;
	unsigned int qps;		/* QPs that complete on it */
	struct ibv_cq *vcq;		/* MRC_CQ_VERBS */
	struct mrc_ev_cq *evq;		/* MRC_CQ_EV_EVENT */
	/* events returned by mrc_get_cq_event and acknowledged (EV CQ) */
	unsigned int events, acks;
	pthread_cond_t acked;
};

struct mrc_qp_hint {
	struct mrc_list node;
	struct mrc_context *ctx;
	struct mrc_qp_hint_attr attr;
	unsigned int qps;		/* QPs that name it */
};

struct mrc_qp {
	struct mrc_list node;
	struct mrc_context *ctx;
	struct ibv_qp *vqp;
	struct mrc_qp_init_attr init;
	struct mrc_qp_attr attr;	/* the MRC attributes in force */
	enum ibv_qp_state state;	/* after the last mrc_modify_qp */
};

/* context.c */
void mrc_versions_put(const uint32_t v[4], uint32_t *cur, uint32_t *last,
		      uint32_t *vcur, uint32_t *vlast);
bool mrc_dev_is_mrc(struct ibv_context *vctx);
bool mrc_vendor_cfg_empty(const uint8_t *cfg);
void mrc_ctx_lock(struct mrc_context *ctx);
void mrc_ctx_unlock(struct mrc_context *ctx);

/* cq.c */
void mrc_channel_free(struct mrc_comp_channel *ch);
int mrc_channel_watch(struct mrc_comp_channel *ch, int fd, void *tag);
void mrc_channel_unwatch(struct mrc_comp_channel *ch, int fd);
int mrc_cq_free(struct mrc_cq *cq, bool force);

/* qp.c */
void mrc_qp_free(struct mrc_qp *qp);
void mrc_hint_free(struct mrc_qp_hint *hint);

/* ctl_event.c */
int mrc_ev_cq_open(struct mrc_cq *cq, int cqe);
void mrc_ev_cq_close(struct mrc_cq *cq);
int mrc_ev_cq_fd(struct mrc_cq *cq);

/* ctl.c */
int mrc_ctl_claim(struct mrc_context *ctx);
int mrc_ctl_open(struct mrc_context *ctx, struct mrcnl *nl);

/* ctl_ev.c: an EV profile as ev-profile-get reports it */
struct mrc_ev_place {			/* one place of an EXP/GEN EV array */
	uint8_t bytes[MRC_CTL_EV_MAX_BYTES];
	uint8_t port;			/* 0: unpopulated */
	bool denied;
};

struct mrc_ev_view {
	bool kept;			/* false: in INIT, unknown to the kernel */
	bool has_mode;
	uint32_t state, mode;		/* the kernel's enums */
	uint32_t count, min_active, events;
	uint64_t fmt_id;
	int nfields, nplaces;
	struct mrc_ctl_ev_field field[MRC_MAX_EV_FIELDS];
	struct mrc_ev_place place[MRC_MAX_EVS];	/* with ev-profile-get entries */
};

uint32_t mrc_ctl_ev_counted(struct ibv_context *context);

/* ctl_ev_op.c: the EV operations (enum mrc_ctl_ev_op) */
int mrc_ev_replace_check(const struct mrc_ctl_ev_op_entry *ent, int n);
void mrc_ev_replace_put(struct nlmsghdr *nlh,
			const struct mrc_ctl_ev_op_entry *ent, int n);
int mrc_ev_states_set(struct mrc_context *ctx, struct mrcnl *nl, uint64_t id,
		      bool by_bytes, const struct mrc_ctl_ev_op_entry *ent,
		      int n);
int mrc_ev_states_get(struct mrc_context *ctx, struct mrcnl *nl, uint64_t id,
		      const struct mrc_ev_view *v,
		      struct mrc_ctl_ev_op_entry *ent, int n);
int mrc_ev_array_get(const struct mrc_ev_view *v,
		     struct mrc_ctl_ev_op_entry *ent, int *n);

#endif /* LIBMRC_H */
