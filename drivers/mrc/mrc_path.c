// SPDX-License-Identifier: GPL-2.0
/*
 * Path sets: the pure logic (no netdev, no locks), so KUnit can drive it.
 * Locking and lifetimes are the callers': mrc_peer.c and the QP code
 * (Documentation/mrc/design.rst, "Multipath").
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <net/ipv6.h>

#include "mrc_path.h"
#include "mrc_srv6.h"

/* a unicast address a packet may be sent to */
static bool unicast(const struct in6_addr *a)
{
	int t = ipv6_addr_type(a);

	return !(t & (IPV6_ADDR_MULTICAST | IPV6_ADDR_LOOPBACK |
		      IPV6_ADDR_MAPPED | IPV6_ADDR_LINKLOCAL)) &&
	       !ipv6_addr_any(a);
}

/*
 * A uSID container: the block, then uSIDs up to the first zero one, then
 * zeros only. A zero uSID followed by a non-zero one would make a next-csid
 * switch stop early and drop the rest of the path.
 */
static int usid_check(const struct mrc_path_cfg *cfg, const char **why)
{
	struct mrc_usid_fmt fmt = { .lblen = cfg->lblen, .nflen = cfg->nflen };
	unsigned int lb = fmt.lblen / 8, nb = fmt.nflen / 8, i, j;
	const u8 *a = cfg->usid.s6_addr;
	bool ended = false;

	if (!mrc_srv6_usid_fmt_valid(&fmt)) {
		*why = "uSID layout: lblen and nflen must be multiples of 8, nflen at most 32";
		return -EINVAL;
	}
	if (!unicast(&cfg->usid)) {
		*why = "uSID container is not a unicast address";
		return -EINVAL;
	}
	for (i = lb; i + nb <= 16; i += nb) {
		bool zero = true;

		for (j = 0; j < nb; j++)
			zero &= !a[i + j];
		if (zero && i == lb) {
			*why = "uSID container has no uSID after the locator block";
			return -EINVAL;
		}
		if (!zero && ended) {
			*why = "uSID container has a zero uSID before the last one";
			return -EINVAL;
		}
		ended |= zero;
	}
	for (; i < 16; i++)
		if (a[i]) {
			*why = "uSID container has bits after its last whole uSID";
			return -EINVAL;
		}
	return 0;
}

/* An SRH segment list: every segment is an address a packet may go to */
static int srh_check(const struct mrc_path_cfg *cfg, const char **why)
{
	unsigned int i;

	if (!cfg->nsegs || cfg->nsegs > MRC_PATH_MAX_SEGS) {
		*why = "an srh path has 1 to " __stringify(MRC_PATH_MAX_SEGS) " segments";
		return -EINVAL;
	}
	for (i = 0; i < cfg->nsegs; i++)
		if (!unicast(&cfg->segs[i])) {
			*why = "SRH segment is not a unicast address";
			return -EINVAL;
		}
	return 0;
}

/**
 * mrc_path_cfg_check() - is @cfg a path mrc can use?
 * @cfg: the path
 * @why: set to a message for the operator on error
 *
 * Return: 0 or -EINVAL.
 */
int mrc_path_cfg_check(const struct mrc_path_cfg *cfg, const char **why)
{
	if (cfg->plane >= MRC_MAX_PLANES) {
		*why = "plane out of range";
		return -EINVAL;
	}
	if (!ipv6_addr_any(&cfg->remote) && !unicast(&cfg->remote)) {
		*why = "remote plane address must be a global unicast IPv6 address";
		return -EINVAL;
	}
	switch (cfg->mode) {
	case MRC_PATH_MODE_UDP:
		if (ipv6_addr_any(&cfg->remote)) {
			*why = "a udp path needs the peer's plane address (remote)";
			return -EINVAL;
		}
		return 0;
	case MRC_PATH_MODE_USID:
		return usid_check(cfg, why);
	case MRC_PATH_MODE_SRH:
		return srh_check(cfg, why);
	default:
		*why = "unknown path mode";
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(mrc_path_cfg_check);

static bool same_segs(const struct mrc_path_cfg *a, const struct mrc_path_cfg *b)
{
	return a->nsegs == b->nsegs &&
	       !memcmp(a->segs, b->segs, a->nsegs * sizeof(a->segs[0]));
}

static bool same_path(const struct mrc_path *path, const struct mrc_path_cfg *c)
{
	const struct mrc_path_cfg *p = &path->cfg;

	if (p->plane != c->plane || p->mode != c->mode)
		return false;
	switch (c->mode) {
	case MRC_PATH_MODE_USID:
		return ipv6_addr_equal(&p->usid, &c->usid);
	case MRC_PATH_MODE_SRH:
		return same_segs(p, c);
	default:
		return ipv6_addr_equal(&p->remote, &c->remote);
	}
}

static struct mrc_path *new_path(const struct mrc_path_cfg *c)
{
	struct mrc_path *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	if (dst_cache_init(&p->dc, GFP_KERNEL)) {
		kfree(p);
		return NULL;
	}
	kref_init(&p->ref);
	p->cfg = *c;
	return p;
}

/*
 * The last snapshot listing the path is gone, and so (RCU callback) are
 * the readers of every snapshot that listed it.
 */
static void path_release(struct kref *ref)
{
	struct mrc_path *p = container_of(ref, struct mrc_path, ref);

	dst_cache_destroy(&p->dc);
	kfree(p);
}

static struct mrc_pathset *alloc_set(const struct in6_addr *peer, u32 n)
{
	struct mrc_pathset *ps;

	ps = kzalloc(struct_size(ps, paths, n), GFP_KERNEL);
	if (!ps)
		return NULL;
	ps->npaths = n;
	kref_init(&ps->ref);
	ps->peer = *peer;
	return ps;
}

/* list @p at @i of the new snapshot @ps */
static void take(struct mrc_pathset *ps, u32 i, struct mrc_path *p)
{
	kref_get(&p->ref);
	ps->paths[i] = p;
}

/**
 * mrc_pathset_add() - a new snapshot: @old plus one path
 * @old: current snapshot, or NULL for a new peer
 * @peer: the remote node address
 * @cfg: the path, checked with mrc_path_cfg_check()
 * @why: set to a message for the operator on error
 *
 * The path goes after the other paths of its plane, so path numbers of
 * lower planes do not move.
 *
 * Return: the new snapshot (one reference), or ERR_PTR(-EEXIST) for a
 * duplicate, -E2BIG when the set is full, -ENOMEM.
 */
struct mrc_pathset *mrc_pathset_add(const struct mrc_pathset *old,
				    const struct in6_addr *peer,
				    const struct mrc_path_cfg *cfg,
				    const char **why)
{
	u32 n = old ? old->npaths : 0, i, at = n;
	struct mrc_pathset *ps;
	struct mrc_path *p;

	for (i = 0; i < n; i++) {
		if (same_path(old->paths[i], cfg)) {
			*why = "the peer already has this path";
			return ERR_PTR(-EEXIST);
		}
		if (at == n && old->paths[i]->cfg.plane > cfg->plane)
			at = i;
	}
	if (n >= MRC_MAX_PATHS) {
		*why = "the peer's path set is full";
		return ERR_PTR(-E2BIG);
	}
	ps = alloc_set(peer, n + 1);
	p = new_path(cfg);
	if (!ps || !p) {
		kfree(ps);
		kfree(p);
		*why = "out of memory";
		return ERR_PTR(-ENOMEM);
	}
	for (i = 0; i < n; i++)
		take(ps, i < at ? i : i + 1, old->paths[i]);
	ps->paths[at] = p;
	return ps;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_pathset_add);

/**
 * mrc_pathset_make() - a snapshot of @n new paths, in the order given
 * @peer: the remote node address (:: for an EV profile's paths)
 * @cfg: the paths, checked with mrc_path_cfg_check(), sorted by plane
 * @n: how many, 1..MRC_MAX_PATHS; alike ones are kept
 *
 * Return: the snapshot (one reference), or NULL (no memory).
 */
struct mrc_pathset *mrc_pathset_make(const struct in6_addr *peer,
				     const struct mrc_path_cfg *cfg, u32 n)
{
	struct mrc_pathset *ps = alloc_set(peer, n);
	u32 i;

	if (!ps)
		return NULL;
	for (i = 0; i < n; i++) {
		ps->paths[i] = new_path(&cfg[i]);
		if (!ps->paths[i]) {
			while (i--)
				kref_put(&ps->paths[i]->ref, path_release);
			kfree(ps);
			return NULL;
		}
	}
	return ps;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_pathset_make);

static bool matches(const struct mrc_path *path, const struct mrc_path_cfg *c,
		    unsigned int match)
{
	const struct mrc_path_cfg *p = &path->cfg;

	if ((match & MRC_PATH_MATCH_PLANE) && p->plane != c->plane)
		return false;
	if ((match & MRC_PATH_MATCH_USID) &&
	    (p->mode != MRC_PATH_MODE_USID || !ipv6_addr_equal(&p->usid, &c->usid)))
		return false;
	if ((match & MRC_PATH_MATCH_SEGS) &&
	    (p->mode != MRC_PATH_MODE_SRH || !same_segs(p, c)))
		return false;
	if ((match & MRC_PATH_MATCH_REMOTE) &&
	    !ipv6_addr_equal(&p->remote, &c->remote))
		return false;
	return true;
}

/**
 * mrc_pathset_del() - a new snapshot: @old without the paths @cfg matches
 * @old: current snapshot
 * @cfg: what to match
 * @match: MRC_PATH_MATCH_* bits: the fields of @cfg compared (none: all)
 * @ndel: set to the number of paths removed
 *
 * Return: the new snapshot (one reference; it may have no paths), @old
 * itself (no new reference) when nothing matched, or ERR_PTR(-ENOMEM).
 */
struct mrc_pathset *mrc_pathset_del(const struct mrc_pathset *old,
				    const struct mrc_path_cfg *cfg,
				    unsigned int match, unsigned int *ndel)
{
	struct mrc_pathset *ps;
	u32 i, k = 0, n = 0;

	for (i = 0; i < old->npaths; i++)
		n += matches(old->paths[i], cfg, match);
	*ndel = n;
	if (!n)
		return (struct mrc_pathset *)old;
	ps = alloc_set(&old->peer, old->npaths - n);
	if (!ps)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < old->npaths; i++)
		if (!matches(old->paths[i], cfg, match))
			take(ps, k++, old->paths[i]);
	return ps;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_pathset_del);

static void free_rcu(struct rcu_head *head)
{
	struct mrc_pathset *ps = container_of(head, struct mrc_pathset, rcu);
	u32 i;

	for (i = 0; i < ps->npaths; i++)
		kref_put(&ps->paths[i]->ref, path_release);
	kfree(ps);
}

static void release(struct kref *ref)
{
	struct mrc_pathset *ps = container_of(ref, struct mrc_pathset, ref);

	/* transmitters may still read it under RCU */
	call_rcu(&ps->rcu, free_rcu);
}

void mrc_pathset_put(struct mrc_pathset *ps)
{
	if (ps)
		kref_put(&ps->ref, release);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_pathset_put);
