// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the ICRC's CRC32 through a "crc32" transform is crc32_le: known
 * answers, then every length around the point where the transform takes
 * over, any seed, any alignment, and a run continuing another.
 */
#include <crypto/hash.h>
#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/prandom.h>

#include "mrc.h"

static void free_tfm(void *tfm)
{
	crypto_free_shash(tfm);
}

static struct crypto_shash *get_tfm(struct kunit *test)
{
	struct crypto_shash *tfm = mrc_icrc_tfm("crc32");

	if (!tfm)
		kunit_skip(test, "no crc32 transform (CONFIG_CRYPTO_CRC32)");
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, free_tfm, tfm));
	return tfm;
}

/* what zlib.crc32() gives, complemented (crc32_le keeps no final XOR) */
static void crc32_known_answers(struct kunit *test)
{
	struct crypto_shash *tfm = get_tfm(test);
	u8 *buf;
	u32 i;

	buf = kunit_kmalloc(test, 1000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < 1000; i++)
		buf[i] = i * 7 + 3;
	KUNIT_EXPECT_EQ(test, mrc_icrc_crc32(tfm, ~0U, "123456789", 9), 0x340bc6d9);
	KUNIT_EXPECT_EQ(test, mrc_icrc_crc32(tfm, ~0U, buf, 257), 0xeb894b92);
	KUNIT_EXPECT_EQ(test, mrc_icrc_crc32(tfm, ~0U, buf, 1000), 0xe843d5b9);
	KUNIT_EXPECT_EQ(test, mrc_icrc_crc32(NULL, ~0U, buf, 1000), 0xe843d5b9);
}

static void crc32_is_crc32_le(struct kunit *test)
{
	struct crypto_shash *tfm = get_tfm(test);
	struct rnd_state rnd;
	u32 seed, len, off;
	u8 *buf;

	buf = kunit_kmalloc(test, 4096 + 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	prandom_seed_state(&rnd, 20);
	prandom_bytes_state(&rnd, buf, 4096 + 8);
	for (len = 0; len <= 300; len++) {
		off = len % 8;
		seed = prandom_u32_state(&rnd);
		KUNIT_EXPECT_EQ_MSG(test, mrc_icrc_crc32(tfm, seed, buf + off, len),
				    crc32_le(seed, buf + off, len),
				    "length %u at offset %u", len, off);
	}
	/* an MTU of 4096 and a little more */
	for (len = 4000; len <= 4096; len += 32)
		KUNIT_EXPECT_EQ(test, mrc_icrc_crc32(tfm, ~0U, buf + 3, len),
				crc32_le(~0U, buf + 3, len));
	/* a run continues another */
	KUNIT_EXPECT_EQ(test,
			mrc_icrc_crc32(tfm, mrc_icrc_crc32(tfm, ~0U, buf, 100),
				       buf + 100, 900),
			crc32_le(~0U, buf, 1000));
}

static struct kunit_case mrc_icrc_cases[] = {
	KUNIT_CASE(crc32_known_answers),
	KUNIT_CASE(crc32_is_crc32_le),
	{}
};

static struct kunit_suite mrc_icrc_suite = {
	.name = "mrc_icrc",
	.test_cases = mrc_icrc_cases,
};

kunit_test_suite(mrc_icrc_suite);
