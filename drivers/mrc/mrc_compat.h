/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mrc needs of kernels older than the one it is written against: the
 * .c files use 6.12's API, and this header gives older kernels (down to
 * 6.1, Debian 12's) what they lack. Kbuild force-includes it first in
 * every file of mrc.ko and of its test modules, the generated netlink code
 * too. Each part is keyed on the release that brought the API; a macro
 * that stable trees took earlier is also tested for itself.
 */
#ifndef _MRC_COMPAT_H
#define _MRC_COMPAT_H

#include <linux/version.h>

/* 6.12 moved the unaligned accessors from asm/ to linux/ */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* 6.5 moved the GSO declarations out of netdevice.h */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#include <net/gso.h>
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#include <linux/netlink.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#endif

/* 6.2: split ops, a do and a dump of one command each with its policy */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define genl_split_ops genl_ops
#define split_ops ops
#define n_split_ops n_ops

/*
 * A family had one genl_ops per command: registering merges the generated
 * table's do and dump of each command, under the larger of their policies
 * (a get's do policy is its dump's plus the object's key), and refuses
 * a pair whose policies differ in what both know.
 */
static inline bool mrc_compat_policies_agree(const struct genl_ops *a,
					     const struct genl_ops *b)
{
	return !a->policy || !b->policy ||
	       !memcmp(a->policy, b->policy,
		       (min(a->maxattr, b->maxattr) + 1) * sizeof(*a->policy));
}

static inline int mrc_compat_genl_register_family(struct genl_family *family)
{
	const struct genl_ops *split = family->ops;
	unsigned int n_split = family->n_ops;
	struct genl_ops *ops, *o;
	unsigned int i, j, n = 0;
	int err;

	ops = kcalloc(n_split, sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	for (i = 0; i < n_split; i++) {
		const struct genl_ops *s = &split[i];

		for (j = 0; j < n && ops[j].cmd != s->cmd; j++)
			;
		if (j == n)
			ops[n++].cmd = s->cmd;
		o = &ops[j];
		if (!mrc_compat_policies_agree(o, s)) {
			pr_err("%s: command %u: do and dump policies differ\n",
			       family->name, s->cmd);
			kfree(ops);
			return -EINVAL;
		}
		if (s->doit)
			o->doit = s->doit;
		if (s->dumpit) {
			o->start = s->start;
			o->dumpit = s->dumpit;
			o->done = s->done;
		}
		if (s->maxattr > o->maxattr) {
			o->policy = s->policy;
			o->maxattr = s->maxattr;
		}
		o->flags |= s->flags & ~(GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP);
		o->validate |= s->validate;
	}
	family->ops = ops;
	family->n_ops = n;
	err = genl_register_family(family);
	if (err) {
		family->ops = split;
		family->n_ops = n_split;
		kfree(ops);
	}
	return err;
}

static inline int mrc_compat_genl_unregister_family(const struct genl_family *family)
{
	const struct genl_ops *ops = family->ops;
	int err = genl_unregister_family(family);

	if (!err)
		kfree(ops);
	return err;
}

#define genl_register_family mrc_compat_genl_register_family
#define genl_unregister_family mrc_compat_genl_unregister_family
#endif

/*
 * 6.2: formatted extack messages, in a buffer of the extack. Before, the
 * extack keeps a pointer, read when the ack is sent after the handler
 * returns: the text goes to a ring of buffers, taken again only after as
 * many later messages.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
static inline __printf(1, 2) const char *mrc_compat_fmt_msg(const char *fmt, ...)
{
	static char ring[16][80];
	static atomic_t next = ATOMIC_INIT(0);
	char *buf = ring[(unsigned int)atomic_inc_return(&next) % ARRAY_SIZE(ring)];
	va_list args;

	va_start(args, fmt);
	vsnprintf(buf, sizeof(ring[0]), fmt, args);
	va_end(args);
	return buf;
}

#define NL_SET_ERR_MSG_FMT(extack, fmt, args...) do {			\
	struct netlink_ext_ack *__extack = (extack);			\
									\
	if (__extack)							\
		__extack->_msg = mrc_compat_fmt_msg(fmt, ##args);	\
} while (0)

#define NL_SET_ERR_MSG_ATTR_FMT(extack, attr, fmt, args...) do {	\
	struct netlink_ext_ack *__ext = (extack);			\
									\
	NL_SET_BAD_ATTR(__ext, attr);					\
	NL_SET_ERR_MSG_FMT(__ext, fmt, ##args);				\
} while (0)
#endif

/*
 * 6.2: RDMA FLUSH and ATOMIC WRITE, and the FLUSH fields of the rxe ABI's
 * send WQE. Before, the verbs have neither: the constants keep their ABI
 * values, no device capability is claimed, and the core refuses MRs with
 * FLUSH access; an ATOMIC WRITE a provider posts still works.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define IB_WR_FLUSH			14
#define IB_WR_ATOMIC_WRITE		15
#define IB_WC_FLUSH			8
#define IB_WC_ATOMIC_WRITE		9
#define IB_ACCESS_FLUSH_GLOBAL		BIT(8)
#define IB_ACCESS_FLUSH_PERSISTENT	BIT(9)
#define IB_DEVICE_FLUSH_GLOBAL		0
#define IB_DEVICE_ATOMIC_WRITE		0
#define IB_FLUSH_GLOBAL			BIT(0)
#define IB_FLUSH_PERSISTENT		BIT(1)
#define IB_FLUSH_RANGE			0
#define IB_FLUSH_MR			1

struct mrc_compat_wr_flush {
	__aligned_u64 remote_addr;
	__u32 length;
	__u32 rkey;
	__u8 type;
	__u8 level;
};

#define mrc_wr_flush(w) (*(struct mrc_compat_wr_flush *)&(w)->wr.wr)
/* the ATOMIC WRITE value: the first bytes of the same union */
#define mrc_wqe_atomic_wr(w) ((w)->dma.inline_data)
#else
#define mrc_wr_flush(w) ((w)->wr.wr.flush)
#define mrc_wqe_atomic_wr(w) ((w)->dma.atomic_wr)
#endif

/* 6.3 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void *kvmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kvmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}
#endif

/*
 * 6.6: the dump's request as a genl_info (and genlmsg_iput() answering
 * either), the family in it, genl_info_net() of a const one
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
static inline struct net *mrc_compat_genl_info_net(const struct genl_info *info)
{
	return read_pnet(&info->_net);
}

#define genl_info_net mrc_compat_genl_info_net

#ifdef CONFIG_NET_NS
#define MRC_COMPAT_PNET(n) { .net = RCU_INITIALIZER(n) }
#else
#define MRC_COMPAT_PNET(n) {}
#endif

/* lives to the end of the enclosing block, as the dump's info in 6.6 */
#define genl_info_dump(cb) (&(const struct genl_info) {			\
	.snd_seq	= (cb)->nlh->nlmsg_seq,				\
	.snd_portid	= NETLINK_CB((cb)->skb).portid,			\
	.nlhdr		= (struct nlmsghdr *)(cb)->nlh,			\
	.genlhdr	= nlmsg_data((cb)->nlh),			\
	.attrs		= genl_dumpit_info(cb)->attrs,			\
	._net		= MRC_COMPAT_PNET(sock_net((cb)->skb->sk)),	\
	.extack		= (cb)->extack,					\
})

/* mrc has one family */
#define genlmsg_iput(skb, info)						\
	genlmsg_put(skb, (info)->snd_portid, (info)->snd_seq,		\
		    &mrc_nl_family, 0, (info)->genlhdr->cmd)
#endif

/* 6.7: variable-width unsigned attributes, 32 or 64 bits on the wire */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
static inline int mrc_compat_nla_validate_uint(const struct nlattr *attr,
					       struct netlink_ext_ack *extack)
{
	if (nla_len(attr) == sizeof(u32) || nla_len(attr) == sizeof(u64))
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, attr, "invalid attribute length");
	return -EINVAL;
}

/* the generated policies say { .type = NLA_UINT, } */
#define NLA_UINT NLA_BINARY,						\
	.validation_type = NLA_VALIDATE_FUNCTION,			\
	.validate = mrc_compat_nla_validate_uint

/* and the range of a policy is const */
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (struct netlink_range_validation *)(_range),		\
}

static inline u64 nla_get_uint(const struct nlattr *nla)
{
	if (nla_len(nla) == sizeof(u32))
		return nla_get_u32(nla);
	return nla_get_u64(nla);
}

static inline int nla_put_uint(struct sk_buff *skb, int attrtype, u64 value)
{
	if (value <= U32_MAX)
		return nla_put_u32(skb, attrtype, value);
	return nla_put(skb, attrtype, sizeof(value), &value);
}
#endif

/* 6.10: __assign_str() takes the source from __string() */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define mrc_assign_str(dst, src) __assign_str(dst)
#else
#define mrc_assign_str(dst, src) __assign_str(dst, src)
#endif

/* 6.10: qdisc modules are asked for as net-sch-NAME; before, as sch_NAME */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
#define MODULE_ALIAS_NET_SCH(id) MODULE_ALIAS("sch_" id)
#endif

/*
 * 6.11 passes create_cq the uverbs bundle; before, the bundle's
 * driver_udata (NULL from a kernel caller)
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 11, 0)
int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct uverbs_attr_bundle *attrs);

static inline int mrc_compat_create_cq(struct ib_cq *ibcq,
				       const struct ib_cq_init_attr *attr,
				       struct ib_udata *udata)
{
	return mrc_create_cq(ibcq, attr, udata ?
			     container_of(udata, struct uverbs_attr_bundle,
					  driver_udata) : NULL);
}
#else
#define mrc_compat_create_cq mrc_create_cq
#endif

/* 6.12: the device's name reported as the user's choice */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
static inline void ib_mark_name_assigned_by_user(struct ib_device *ibdev)
{
}
#endif

/* 6.17, and stable trees from 6.12 */
#include <net/netlink.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0) && !defined(nlmsg_for_each_attr_type)
#define nlmsg_for_each_attr_type(pos, type, nlh, hdrlen, rem)		\
	nlmsg_for_each_attr(pos, nlh, hdrlen, rem)			\
		if (nla_type(pos) == (type))
#endif

#endif /* _MRC_COMPAT_H */
