/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers the KUnit suites share: paths and path sets to test with */
#ifndef _MRC_KUNIT_H
#define _MRC_KUNIT_H

#include <kunit/test.h>
#include <linux/err.h>

#include "mrc_path.h"

static const struct in6_addr mrc_test_peer = { .s6_addr = { 0xfd, [15] = 2 } };

/* fc00:0:<a>:<b>:<c>:<d>:: (zeros end the container early) */
static inline struct mrc_path_cfg mrc_test_usid_path(u8 plane, u16 a, u16 b,
						     u16 c, u16 d)
{
	struct mrc_path_cfg c4 = {
		.plane = plane, .mode = MRC_PATH_MODE_USID,
		.lblen = 32, .nflen = 16,
	};

	c4.usid.s6_addr[0] = 0xfc;
	c4.usid.s6_addr16[2] = htons(a);
	c4.usid.s6_addr16[3] = htons(b);
	c4.usid.s6_addr16[4] = htons(c);
	c4.usid.s6_addr16[5] = htons(d);
	return c4;
}

/* add @cfg to *@ps, replacing it; the test owns the result */
static inline int mrc_test_add(struct kunit *test, struct mrc_pathset **ps,
			       const struct mrc_path_cfg *cfg)
{
	const char *why = NULL;
	struct mrc_pathset *n;

	n = mrc_pathset_add(*ps, &mrc_test_peer, cfg, &why);
	if (IS_ERR(n))
		return PTR_ERR(n);
	mrc_pathset_put(*ps);
	*ps = n;
	return 0;
}

/* a set of @planes planes with @per paths each */
static inline struct mrc_pathset *mrc_test_grid(struct kunit *test,
						int planes, int per)
{
	struct mrc_pathset *ps = NULL;
	struct mrc_path_cfg c;
	int p, j;

	for (p = 0; p < planes; p++)
		for (j = 0; j < per; j++) {
			c = mrc_test_usid_path(p, 0x1000 + p, 0x2000 + j,
					       0x1100 + p, 0xe002);
			KUNIT_EXPECT_EQ(test, 0, mrc_test_add(test, &ps, &c));
		}
	return ps;
}

#endif /* _MRC_KUNIT_H */
