/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/mrc.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_MRC_GEN_H
#define _LINUX_MRC_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/mrc.h>

/* Common nested types */
extern const struct nla_policy mrc_ev_entry_nl_policy[MRC_A_EV_ENTRY_ALL_COPIES + 1];
extern const struct nla_policy mrc_ev_field_nl_policy[MRC_A_EV_FIELD_MASK + 1];

int mrc_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_plane_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_plane_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_plane_add_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_plane_del_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_path_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_path_add_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_path_del_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_ev_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_plane_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_cc_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_qp_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_cc_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int mrc_nl_cc_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ep_probe_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_fmt_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_nl_ev_fmt_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_nl_ev_fmt_set_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	MRC_NLGRP_CONFIG,
	MRC_NLGRP_EV,
};

extern struct genl_family mrc_nl_family;

#endif /* _LINUX_MRC_GEN_H */
