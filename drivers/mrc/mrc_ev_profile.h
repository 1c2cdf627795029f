/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The controller's EV format profiles and EV profiles (the OCP MRC API's;
 * mrc_ev_fmt.c, mrc_ev_profile.c).
 *
 * A format profile is an ordered list of field widths and a mode: where
 * an EV goes in a packet (UDP source port and flow label, or SRv6
 * addresses). An EV profile gives the EVs of the QPs bound to it: AUTO,
 * mrc's own over the peer's path set; EXP, an array the controller
 * fills; GEN, an array mrc fills from the fields' ranges. Each EV of an
 * EXP or GEN array is expanded through the profile's fields into its
 * format's layout when the profile goes online, and does not change while
 * it is online, so a bound QP reads it without a lock.
 */
#ifndef _MRC_EV_PROFILE_H
#define _MRC_EV_PROFILE_H

#include <linux/types.h>
#include <uapi/linux/mrc.h>

#include "mrc_profile.h"

struct mrc_dev;
struct mrc_pathset;
struct mrc_qp;
struct netlink_ext_ack;

/* bytes of an EV as the controller writes it (the OCP API's mrc_ctl_ev_t) */
#define MRC_EV_BYTES		32
#define MRC_EV_BITS		(MRC_EV_BYTES * 8)

/* widest format of each mode, in bits */
#define MRC_EV_FMT_STEV_BITS	32
#define MRC_EV_FMT_UDP_BITS	16

/**
 * struct mrc_ev_fmt - an EV format profile
 * @hdr: id, state; @hdr.qps counts the EV profiles (not in init) naming it
 * @mode: enum mrc_ev_fmt_mode
 * @has_mode: @mode was set
 * @nwidths: fields (0: not set)
 * @online_users: online EV profiles using it (cfg_lock)
 * @width: each field's width in bits
 */
struct mrc_ev_fmt {
	struct mrc_profile hdr;
	u8 mode;
	bool has_mode;
	u8 nwidths;
	u8 online_users;
	u8 width[MRC_MAX_EV_FIELDS];
};

/* one field of an EV profile (the OCP API's mrc_ctl_ev_field) */
struct mrc_ev_field {
	u32 width;
	u32 init;
	u32 min;
	u32 max;
	u32 mask;
};

/**
 * struct mrc_ev_entry - one EV of an EXP or GEN profile's array
 * @val: the EV as the controller wrote it (or mrc generated it)
 * @port: its port, the plane + 1; 0: unpopulated
 * @denied: the controller denied it: QPs' EVs made from it are DENIED
 * @wire: stev and udp formats, online: the expanded EV on the wire (UDP
 *	source port in the high 16 bits, flow label in the low 16)
 */
struct mrc_ev_entry {
	u8 val[MRC_EV_BYTES];
	u8 port;
	bool denied;
	u32 wire;
};

/**
 * struct mrc_ev_profile - an EV profile
 * @hdr: id, state, bound QPs (mrc_profile.h)
 * @mode: enum mrc_ev_profile_mode
 * @has: MRC_EV_PROFILE_HAS_*: what was set
 * @count: AUTO: rotation slots; EXP, GEN: places in @entries
 * @min_active: the floor (struct mrc_evset)
 * @event_mask: enum mrc_ev_event bits
 * @nfields: fields in @fields
 * @fmt_id: EXP, GEN: the format profile's id
 * @fields: how an EV's bits fill the format's fields
 * @entries: EXP, GEN: the EV array (@count places); cfg_lock, and fixed
 *	while online but for the denied flags
 * @ps: srv6 format, online: a path per place, sorted by plane
 * @path_entry: srv6 format, online: the place each path of @ps is made of
 * @fmt_mode: online: the format's mode
 */
struct mrc_ev_profile {
	struct mrc_profile hdr;
	u8 mode;
	u8 has;
	u16 count;
	u16 min_active;
	u32 event_mask;
	u8 nfields;
	u8 fmt_mode;
	u64 fmt_id;
	struct mrc_ev_field fields[MRC_MAX_EV_FIELDS];
	struct mrc_ev_entry *entries;
	struct mrc_pathset *ps;
	u8 *path_entry;
};

#define MRC_EV_PROFILE_HAS_MODE		BIT(0)
#define MRC_EV_PROFILE_HAS_COUNT	BIT(1)
#define MRC_EV_PROFILE_HAS_MIN_ACTIVE	BIT(2)
#define MRC_EV_PROFILE_HAS_EVENT_MASK	BIT(3)
#define MRC_EV_PROFILE_HAS_FMT		BIT(4)
#define MRC_EV_PROFILE_HAS_FIELDS	BIT(5)

/**
 * struct mrc_ev_replace - one REPLACE_EV of an ev-profile-set
 * @old: the EV replaced (zero with port 0: an unpopulated place)
 * @old_port: its port
 * @new: the new EV
 * @new_port: its port
 * @denied: the new EV starts denied
 * @all: every place holding @old, not the first
 */
struct mrc_ev_replace {
	u8 old[MRC_EV_BYTES];
	u8 old_port;
	u8 new[MRC_EV_BYTES];
	u8 new_port;
	bool denied;
	bool all;
};

/* what an ev-profile-set asks of a profile (mrc_ev_profile_apply()) */
struct mrc_ev_profile_change {
	bool set_state;
	u8 state;
	u8 set;			/* MRC_EV_PROFILE_HAS_*: given */
	u8 mode;
	u16 count;
	u16 min_active;
	u32 event_mask;
	u64 fmt_id;
	u8 nfields;
	struct mrc_ev_field fields[MRC_MAX_EV_FIELDS];
	u32 nreplace;
	const struct mrc_ev_replace *replace;
};

/* what an ev-fmt-set asks of a format profile (mrc_ev_fmt_apply()) */
struct mrc_ev_fmt_change {
	bool set_state;
	u8 state;
	bool set_mode;
	u8 mode;
	u8 nwidths;		/* 0: not given */
	u8 width[MRC_MAX_EV_FIELDS];
};

/* mrc_ev_fmt.c: formats, and the pure rules of fields and expansion */
const char *mrc_ev_fmt_apply(struct mrc_ev_fmt *fmt,
			     const struct mrc_ev_fmt_change *ch, int *err);
struct mrc_ev_fmt *mrc_ev_fmt_find(struct mrc_dev *mdev, u64 id);
int mrc_ev_fmt_set(struct mrc_dev *mdev, u64 id,
		   const struct mrc_ev_fmt_change *ch,
		   struct netlink_ext_ack *extack);
const char *mrc_ev_fields_check(const struct mrc_ev_field *f, u32 n,
				const struct mrc_ev_fmt *fmt, bool gen);
u32 mrc_ev_fields_bits(const struct mrc_ev_field *f, u32 n);
void mrc_ev_fields_default(const struct mrc_ev_fmt *fmt,
			   struct mrc_ev_field *f, u8 *n);
void mrc_ev_expand(const struct mrc_ev_fmt *fmt, const struct mrc_ev_field *f,
		   u32 n, const u8 *ev, u8 *out);
u32 mrc_ev_gen(const struct mrc_ev_field *f, u32 n, const u8 *ports,
	       u32 nports, struct mrc_ev_entry *out, u32 count);

/* mrc_ev_profile.c */
const char *mrc_ev_profile_apply(struct mrc_ev_profile *pf,
				 const struct mrc_ev_profile_change *ch,
				 int *err);
struct mrc_ev_profile *mrc_ev_profile_find(struct mrc_dev *mdev, u64 id);
int mrc_ev_profile_set(struct mrc_dev *mdev, u64 id,
		       const struct mrc_ev_profile_change *ch,
		       struct netlink_ext_ack *extack);
void mrc_ev_profile_release(struct mrc_ev_profile *pf);
void mrc_ev_profile_shape(struct mrc_qp *qp, u32 *count, u32 *min_active);
int mrc_ev_profile_deny(struct mrc_ev_profile *pf, const u8 *val, u8 port,
			bool deny);

static inline bool mrc_ev_profile_listed(const struct mrc_ev_profile *pf)
{
	return pf->mode == MRC_EV_PROFILE_MODE_EXP ||
	       pf->mode == MRC_EV_PROFILE_MODE_GEN;
}

#endif /* _MRC_EV_PROFILE_H */
