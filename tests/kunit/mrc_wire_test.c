// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: MRC wire format - every opcode round-trips through the header
 * accessors and the parser; malformed packets are refused; path MTU.
 */
#include <kunit/test.h>
#include <linux/random.h>

#include "mrc_wire.h"

/* the wire order, written down independently of mrc_wire.c */
static const struct {
	u32 h;
	u8 len;
} order[] = {
	{ MRC_H_DETH, 8 }, { MRC_H_METH, 4 }, { 0, 4 /* TSETH slot */ },
	{ MRC_H_RETH, 16 }, { MRC_H_PLETH, 8 }, { MRC_H_ATMETH, 28 },
	{ MRC_H_IMMDT, 4 }, { MRC_H_IETH, 4 }, { MRC_H_AETH, 4 },
	{ MRC_H_ATMACK, 8 }, { MRC_H_SETH, 36 }, { MRC_H_NETH, 20 },
	{ MRC_H_PETH, 16 }, { MRC_H_FETH, 4 },
};

struct fields {
	u32 qpn, psn, rkey, len, off, qkey, sqp, msn, entropy, ieth;
	u16 pkey, rqmsn, meth_msn, ts, probe;
	u64 va, swap, comp, orig;
	__be32 imm;
	u8 flags8, syn, reason, ftype, flevel;
	struct mrc_sack sack;
};

static void random_fields(struct fields *f)
{
	get_random_bytes(f, sizeof(*f));
	f->qpn &= 0xffffff;
	f->psn &= 0xffffff;
	f->msn &= 0xffffff;
	f->sqp &= 0xffffff;
	f->flags8 &= MRC_BTH_ACKREQ | MRC_BTH_RTX;
	f->ftype &= 0xf;
	f->flevel &= 3;
	f->sack.mode = get_random_u32_below(3);
	f->sack.probe_resp = get_random_u32_below(2);
	f->sack.cack_psn &= 0xffffff;
	f->sack.cc_type &= 0xf;
	f->sack.cc_flags &= 0xf;
	f->sack.restore_window = get_random_u32_below(2);
	f->sack.rcv_cwnd_pen &= 0x7f;
	f->sack.rcvd_bytes &= 0xffffff;
}

/* write header @h at @p */
static void put_hdr(u8 *p, u32 h, const struct fields *f)
{
	if (h == MRC_H_DETH)
		mrc_deth_set(p, f->qkey, f->sqp);
	else if (h == MRC_H_METH)
		mrc_meth_set(p, f->rqmsn, f->meth_msn);
	else if (h == MRC_H_RETH)
		mrc_reth_set(p, f->va, f->rkey, f->len);
	else if (h == MRC_H_PLETH)
		mrc_pleth_set(p, f->off, f->len);
	else if (h == MRC_H_ATMETH)
		mrc_atmeth_set(p, f->va, f->rkey, f->swap, f->comp);
	else if (h == MRC_H_IMMDT)
		mrc_immdt_set(p, f->imm);
	else if (h == MRC_H_IETH)
		mrc_ieth_set(p, f->ieth);
	else if (h == MRC_H_AETH)
		mrc_aeth_set(p, f->syn, f->msn);
	else if (h == MRC_H_ATMACK)
		mrc_atmack_set(p, f->orig);
	else if (h == MRC_H_SETH)
		mrc_seth_write(p, &f->sack);
	else if (h == MRC_H_NETH)
		mrc_neth_set(p, f->reason, f->entropy, f->psn, f->ts);
	else if (h == MRC_H_PETH)
		mrc_peth_set(p, f->probe, f->ts);
	else if (h == MRC_H_FETH)
		mrc_feth_set(p, f->ftype, f->flevel);
}

static void check_sack(struct kunit *test, const struct mrc_sack *a,
		       const struct mrc_sack *b)
{
	KUNIT_EXPECT_EQ(test, a->mode, b->mode);
	KUNIT_EXPECT_EQ(test, a->probe_resp, b->probe_resp);
	KUNIT_EXPECT_EQ(test, a->ack_psn_offset, b->ack_psn_offset);
	KUNIT_EXPECT_EQ(test, a->entropy, b->entropy);
	KUNIT_EXPECT_EQ(test, a->port_status, b->port_status);
	KUNIT_EXPECT_EQ(test, a->cack_psn, b->cack_psn);
	KUNIT_EXPECT_EQ(test, a->cc_type, b->cc_type);
	KUNIT_EXPECT_EQ(test, a->cc_flags, b->cc_flags);
	KUNIT_EXPECT_EQ(test, a->mpr, b->mpr);
	KUNIT_EXPECT_EQ(test, a->sack_offset, b->sack_offset);
	KUNIT_EXPECT_EQ(test, a->bitmap, b->bitmap);
	KUNIT_EXPECT_EQ(test, a->ts_echo, b->ts_echo);
	KUNIT_EXPECT_EQ(test, a->service_us, b->service_us);
	KUNIT_EXPECT_EQ(test, a->restore_window, b->restore_window);
	KUNIT_EXPECT_EQ(test, a->rcv_cwnd_pen, b->rcv_cwnd_pen);
	KUNIT_EXPECT_EQ(test, a->rcvd_bytes, b->rcvd_bytes);
}

static void check_hdr(struct kunit *test, const u8 *p, u32 h, const struct fields *f)
{
	struct mrc_sack s;

	switch (h) {
	case MRC_H_DETH:
		KUNIT_EXPECT_EQ(test, f->qkey, mrc_deth_qkey(p));
		KUNIT_EXPECT_EQ(test, f->sqp, mrc_deth_sqp(p));
		break;
	case MRC_H_METH:
		KUNIT_EXPECT_EQ(test, f->rqmsn, mrc_meth_rqmsn(p));
		KUNIT_EXPECT_EQ(test, f->meth_msn, mrc_meth_msn(p));
		break;
	case MRC_H_RETH:
		KUNIT_EXPECT_EQ(test, f->va, mrc_reth_va(p));
		KUNIT_EXPECT_EQ(test, f->rkey, mrc_reth_rkey(p));
		KUNIT_EXPECT_EQ(test, f->len, mrc_reth_len(p));
		break;
	case MRC_H_PLETH:
		KUNIT_EXPECT_EQ(test, f->off, mrc_pleth_offset(p));
		KUNIT_EXPECT_EQ(test, f->len, mrc_pleth_len(p));
		break;
	case MRC_H_ATMETH:
		KUNIT_EXPECT_EQ(test, f->va, mrc_atmeth_va(p));
		KUNIT_EXPECT_EQ(test, f->rkey, mrc_atmeth_rkey(p));
		KUNIT_EXPECT_EQ(test, f->swap, mrc_atmeth_swap_add(p));
		KUNIT_EXPECT_EQ(test, f->comp, mrc_atmeth_comp(p));
		break;
	case MRC_H_IMMDT:
		KUNIT_EXPECT_EQ(test, (__force u32)f->imm, (__force u32)mrc_immdt(p));
		break;
	case MRC_H_IETH:
		KUNIT_EXPECT_EQ(test, f->ieth, mrc_ieth_rkey(p));
		break;
	case MRC_H_AETH:
		KUNIT_EXPECT_EQ(test, f->syn, mrc_aeth_syn(p));
		KUNIT_EXPECT_EQ(test, f->msn, mrc_aeth_msn(p));
		break;
	case MRC_H_ATMACK:
		KUNIT_EXPECT_EQ(test, f->orig, mrc_atmack_orig(p));
		break;
	case MRC_H_SETH:
		mrc_seth_read(p, &s);
		check_sack(test, &s, &f->sack);
		break;
	case MRC_H_NETH:
		KUNIT_EXPECT_EQ(test, f->reason, mrc_neth_reason(p));
		KUNIT_EXPECT_EQ(test, f->entropy, mrc_neth_entropy(p));
		KUNIT_EXPECT_EQ(test, f->psn, mrc_neth_psn(p));
		KUNIT_EXPECT_EQ(test, f->ts, mrc_neth_ts_echo(p));
		break;
	case MRC_H_PETH:
		KUNIT_EXPECT_EQ(test, f->probe, mrc_peth_probe_id(p));
		KUNIT_EXPECT_EQ(test, f->ts, mrc_peth_ts(p));
		break;
	case MRC_H_FETH:
		KUNIT_EXPECT_EQ(test, f->ftype, mrc_feth_type(p));
		KUNIT_EXPECT_EQ(test, f->flevel, mrc_feth_level(p));
		KUNIT_EXPECT_EQ(test, 0, p[0] | p[1] | p[2]);
		break;
	}
}

/* Build a packet of @opcode by the independent layout, parse, read back. */
static void roundtrip(struct kunit *test, u8 opcode, bool ts, u32 paylen)
{
	const struct mrc_opcode_info *info = mrc_wire_opcode(opcode);
	u8 *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	unsigned int pos = MRC_BTH_LEN, i, pad = 0;
	struct mrc_sack zero = {};
	struct fields f;
	struct mrc_pkt pkt;

	KUNIT_ASSERT_NOT_NULL(test, info);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	random_fields(&f);
	if (!(info->mask & MRC_H_PAYLOAD))
		paylen = 0;
	pad = (4 - paylen % 4) % 4;
	mrc_bth_init(buf, opcode, f.flags8 | (ts ? MRC_BTH_TS : 0), f.qpn & 1,
		     pad, f.pkey, f.qpn, f.psn);
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		if (!order[i].h) {
			if (ts) {
				mrc_tseth_set(buf + pos, f.ts);
				pos += MRC_TSETH_LEN;
			}
			continue;
		}
		if (!(info->mask & order[i].h))
			continue;
		put_hdr(buf + pos, order[i].h, &f);
		pos += order[i].len;
	}
	KUNIT_EXPECT_EQ(test, pos, mrc_wire_hdr_len(opcode, ts));
	memset(buf + pos, 0xa5, paylen + pad);

	KUNIT_ASSERT_EQ_MSG(test, 0, mrc_wire_parse(&pkt, buf, pos + paylen + pad),
			    "%s ts=%d", info->name, ts);
	KUNIT_EXPECT_EQ(test, opcode, pkt.opcode);
	KUNIT_EXPECT_EQ(test, info->mask, pkt.mask);
	KUNIT_EXPECT_EQ(test, pos, pkt.payload);
	KUNIT_EXPECT_EQ(test, paylen, pkt.paylen);
	KUNIT_EXPECT_EQ(test, f.qpn, mrc_bth_qpn(buf));
	KUNIT_EXPECT_EQ(test, f.psn, mrc_bth_psn(buf));
	KUNIT_EXPECT_EQ(test, f.pkey, mrc_bth_pkey(buf));
	KUNIT_EXPECT_EQ(test, pad, mrc_bth_pad(buf));
	KUNIT_EXPECT_EQ(test, !!(f.qpn & 1), mrc_bth_se(buf));
	KUNIT_EXPECT_EQ(test, !!(f.flags8 & MRC_BTH_ACKREQ), mrc_bth_ackreq(buf));
	KUNIT_EXPECT_EQ(test, !!(f.flags8 & MRC_BTH_RTX), mrc_bth_rtx(buf));
	KUNIT_EXPECT_EQ(test, ts, mrc_bth_ts(buf));
	KUNIT_EXPECT_EQ(test, 0, mrc_bth_tver(buf));
	if (ts)
		KUNIT_EXPECT_EQ(test, f.ts, mrc_tseth_ts(buf + pkt.tseth));
	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (order[i].h && (info->mask & order[i].h))
			check_hdr(test, mrc_pkt_hdr(&pkt, order[i].h), order[i].h, &f);
	/* an all-zero SACK reads back as zero too */
	if (info->mask & MRC_H_SETH) {
		mrc_seth_write(buf + 64, &zero);
		check_hdr(test, buf + 64, MRC_H_SETH, &(struct fields){});
	}
}

static void every_opcode_roundtrips(struct kunit *test)
{
	unsigned int op, n = 0;

	for (op = 0; op < 256; op++) {
		if (!mrc_wire_opcode(op))
			continue;
		n++;
		roundtrip(test, op, false, 37);
		roundtrip(test, op, true, 64);
		roundtrip(test, op, false, 0);
	}
	/* 6 SEND + 6 WRITE + 5 READ + ACK + 2 ATOMIC + ATOMIC_ACK + 2 INV +
	 * FLUSH + ATOMIC_WRITE + SACK + NACK + PROBE + 2 UD + 12 UC
	 */
	KUNIT_EXPECT_EQ(test, 42, n);
}

/* The builder's layout (what the engines write) is what the parser reads. */
static void prepare_matches_parse(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	static const u32 lens[] = { 0, 1, 3, 4, 255 };
	unsigned int op, i, b;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (op = 0; op < 256; op++) {
		const struct mrc_opcode_info *info = mrc_wire_opcode(op);

		if (!info)
			continue;
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			u32 paylen = info->mask & MRC_H_PAYLOAD ? lens[i] : 0;
			struct mrc_pkt built, parsed;
			unsigned int hlen;

			hlen = mrc_wire_prepare(&built, buf, op, paylen);
			KUNIT_ASSERT_EQ(test, hlen, mrc_wire_hdr_len(op, false));
			KUNIT_EXPECT_EQ(test, built.len, hlen + paylen + (-paylen & 3));
			mrc_bth_init(buf, op, 0, false, -paylen & 3, 0xffff, 1, 2);
			KUNIT_ASSERT_EQ_MSG(test, 0,
					    mrc_wire_parse(&parsed, buf, built.len),
					    "%s paylen %u", info->name, paylen);
			KUNIT_EXPECT_EQ(test, built.mask, parsed.mask);
			KUNIT_EXPECT_EQ(test, built.payload, parsed.payload);
			KUNIT_EXPECT_EQ(test, built.paylen, parsed.paylen);
			for (b = 0; b < ARRAY_SIZE(built.off); b++)
				if (info->mask & BIT(b))
					KUNIT_EXPECT_EQ(test, built.off[b],
							parsed.off[b]);
		}
	}
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_prepare(&(struct mrc_pkt){}, buf, 0x00, 0));
}

static void mrc_opcodes_mark_mrc(struct kunit *test)
{
	unsigned int op;

	for (op = 0; op < 256; op++) {
		const struct mrc_opcode_info *info = mrc_wire_opcode(op);

		if (!info || (info->mask & MRC_H_DETH))
			continue;
		KUNIT_EXPECT_EQ_MSG(test, info->mask & MRC_H_UC ? 0x7 : 0x6,
				    op >> 5, "%s", info->name);
	}
	/* UC: the SEND and WRITE opcodes' low bits and headers, never acked */
	for (op = MRC_OP_SEND_FIRST; op <= MRC_OP_WRITE_ONLY_IMM; op++) {
		const struct mrc_opcode_info *rc = mrc_wire_opcode(op);
		const struct mrc_opcode_info *uc = mrc_wire_opcode(mrc_uc_opcode(op));

		KUNIT_ASSERT_NOT_NULL(test, uc);
		KUNIT_EXPECT_EQ(test, rc->mask | MRC_H_UC, uc->mask);
		KUNIT_EXPECT_STREQ(test, rc->name, uc->name + 3);
		KUNIT_EXPECT_EQ(test, mrc_wire_hdr_len(op, false),
				mrc_wire_hdr_len(mrc_uc_opcode(op), false));
	}
	KUNIT_EXPECT_STREQ(test, "UC_SEND_FIRST", mrc_wire_opcode(0xe0)->name);
	KUNIT_EXPECT_STREQ(test, "UC_WRITE_ONLY_IMM", mrc_wire_opcode(0xeb)->name);
	KUNIT_EXPECT_NULL(test, mrc_wire_opcode(0xec));
	/* MRC 1.0 code points */
	KUNIT_EXPECT_STREQ(test, "WRITE_FIRST", mrc_wire_opcode(0xc6)->name);
	KUNIT_EXPECT_STREQ(test, "WRITE_ONLY_IMM", mrc_wire_opcode(0xcb)->name);
	KUNIT_EXPECT_STREQ(test, "ACK", mrc_wire_opcode(0xd1)->name);
	KUNIT_EXPECT_STREQ(test, "SACK", mrc_wire_opcode(0xdc)->name);
	KUNIT_EXPECT_STREQ(test, "NACK", mrc_wire_opcode(0xdd)->name);
	KUNIT_EXPECT_STREQ(test, "PROBE", mrc_wire_opcode(0xde)->name);
}

/* A FLUSH or ATOMIC_WRITE request of @paylen bytes, as built for the wire */
static void mpe_pkt(struct mrc_pkt *pkt, u8 *buf, u8 op, u32 paylen, u64 va,
		    u32 len, u8 type, u8 level)
{
	unsigned int hlen = mrc_wire_prepare(pkt, buf, op, paylen);

	mrc_bth_init(buf, op, 0, false, -paylen & 3, 0xffff, 17, 5);
	mrc_reth_set(mrc_pkt_hdr(pkt, MRC_H_RETH), va, 0x1234, len);
	if (pkt->mask & MRC_H_FETH)
		mrc_feth_set(mrc_pkt_hdr(pkt, MRC_H_FETH), type, level);
	memset(buf + hlen, 0x5a, paylen + (-paylen & 3));
}

/*
 * FLUSH and ATOMIC_WRITE: the extension code points, their layouts, what
 * the responder takes as well formed, and the access a FLUSH needs.
 */
static void mpe_requests(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	struct mrc_pkt pkt, parsed;
	u8 t, l;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_STREQ(test, "FLUSH", mrc_wire_opcode(0xda)->name);
	KUNIT_EXPECT_STREQ(test, "ATOMIC_WRITE", mrc_wire_opcode(0xdb)->name);
	/* BTH METH RETH FETH; BTH METH RETH and the value */
	KUNIT_EXPECT_EQ(test, 36, mrc_wire_hdr_len(MRC_OP_FLUSH, false));
	KUNIT_EXPECT_EQ(test, 32, mrc_wire_hdr_len(MRC_OP_ATOMIC_WRITE, false));
	KUNIT_EXPECT_TRUE(test, mrc_op_is_mpe(MRC_OP_FLUSH));
	KUNIT_EXPECT_TRUE(test, mrc_op_is_mpe(MRC_OP_ATOMIC_WRITE));
	KUNIT_EXPECT_FALSE(test, mrc_op_is_mpe(MRC_OP_WRITE_ONLY));
	KUNIT_EXPECT_FALSE(test, mrc_op_is_mpe(MRC_OP_EP_REQ));

	/* ATOMIC_WRITE: 8 bytes to an aligned address, nothing else */
	mpe_pkt(&pkt, buf, MRC_OP_ATOMIC_WRITE, 8, 0x1000, 8, 0, 0);
	KUNIT_ASSERT_EQ(test, 0, mrc_wire_parse(&parsed, buf, pkt.len));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_mpe_check(&parsed));
	mpe_pkt(&pkt, buf, MRC_OP_ATOMIC_WRITE, 8, 0x1004, 8, 0, 0);
	KUNIT_ASSERT_EQ(test, 0, mrc_wire_parse(&parsed, buf, pkt.len));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_mpe_check(&parsed));
	mpe_pkt(&pkt, buf, MRC_OP_ATOMIC_WRITE, 8, 0x1000, 16, 0, 0);
	KUNIT_ASSERT_EQ(test, 0, mrc_wire_parse(&parsed, buf, pkt.len));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_mpe_check(&parsed));
	mpe_pkt(&pkt, buf, MRC_OP_ATOMIC_WRITE, 4, 0x1000, 8, 0, 0);
	KUNIT_ASSERT_EQ(test, 0, mrc_wire_parse(&parsed, buf, pkt.len));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_mpe_check(&parsed));
	mpe_pkt(&pkt, buf, MRC_OP_ATOMIC_WRITE, 12, 0x1000, 8, 0, 0);
	KUNIT_ASSERT_EQ(test, 0, mrc_wire_parse(&parsed, buf, pkt.len));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_mpe_check(&parsed));
	/* 8 bytes of value but a pad count: 5 + 3 */
	mpe_pkt(&pkt, buf, MRC_OP_ATOMIC_WRITE, 5, 0x1000, 8, 0, 0);
	KUNIT_ASSERT_EQ(test, 0, mrc_wire_parse(&parsed, buf, pkt.len));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_mpe_check(&parsed));

	/* FLUSH: no payload; every type and level */
	for (t = 0; t < 16; t++) {
		for (l = 0; l < 4; l++) {
			bool ok = t && t <= 3 && l <= 1;

			mpe_pkt(&pkt, buf, MRC_OP_FLUSH, 0, 0x1003, 77, t, l);
			KUNIT_ASSERT_EQ(test, 0,
					mrc_wire_parse(&parsed, buf, pkt.len));
			KUNIT_EXPECT_EQ_MSG(test, ok ? 0 : -EBADMSG,
					    mrc_wire_mpe_check(&parsed),
					    "type %u level %u", t, l);
			KUNIT_EXPECT_EQ(test, t, mrc_feth_type(mrc_pkt_hdr(&parsed, MRC_H_FETH)));
			KUNIT_EXPECT_EQ(test, l, mrc_feth_level(mrc_pkt_hdr(&parsed, MRC_H_FETH)));
		}
	}
	mpe_pkt(&pkt, buf, MRC_OP_FLUSH, 0, 0x1000, 8, IB_FLUSH_GLOBAL, 0);
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_parse(&parsed, buf, pkt.len + 4));
	/* a trimmed FLUSH cannot be: it carries no data */
	KUNIT_EXPECT_EQ(test, -EBADMSG,
			mrc_wire_parse_trimmed(&parsed, buf, pkt.len,
					       MRC_NACK_TRIMMED));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_mpe_check(&pkt));

	KUNIT_EXPECT_EQ(test, IB_ACCESS_FLUSH_GLOBAL,
			mrc_wire_flush_access(IB_FLUSH_GLOBAL));
	KUNIT_EXPECT_EQ(test, IB_ACCESS_FLUSH_PERSISTENT,
			mrc_wire_flush_access(IB_FLUSH_PERSISTENT));
	KUNIT_EXPECT_EQ(test, IB_ACCESS_FLUSH_GLOBAL | IB_ACCESS_FLUSH_PERSISTENT,
			mrc_wire_flush_access(IB_FLUSH_GLOBAL | IB_FLUSH_PERSISTENT));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_flush_access(0));
}

static void parse_refuses_malformed(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	unsigned int hlen = mrc_wire_hdr_len(MRC_OP_WRITE_ONLY, false);
	struct mrc_pkt pkt;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* unknown opcodes: RC SEND_FIRST, a hole in the MRC range */
	mrc_bth_init(buf, 0x00, 0, false, 0, 0xffff, 1, 1);
	KUNIT_EXPECT_EQ(test, -EPROTONOSUPPORT, mrc_wire_parse(&pkt, buf, 64));
	mrc_bth_init(buf, 0xd5, 0, false, 0, 0xffff, 1, 1);
	KUNIT_EXPECT_EQ(test, -EPROTONOSUPPORT, mrc_wire_parse(&pkt, buf, 64));
	/* transport version other than 0 */
	mrc_bth_init(buf, MRC_OP_WRITE_ONLY, 0, false, 0, 0xffff, 1, 1);
	buf[1] |= 1;
	KUNIT_EXPECT_EQ(test, -EPROTONOSUPPORT, mrc_wire_parse(&pkt, buf, hlen));
	buf[1] &= ~1;
	/* shorter than a BTH, than its headers */
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_parse(&pkt, buf, 11));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_parse(&pkt, buf, hlen - 1));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_parse(&pkt, buf, hlen));
	KUNIT_EXPECT_EQ(test, 0, pkt.paylen);
	/* TS set: four more header bytes needed */
	mrc_bth_set_flags8(buf, MRC_BTH_TS, 0);
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_parse(&pkt, buf, hlen + 3));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_parse(&pkt, buf, hlen + 4));
	mrc_bth_set_flags8(buf, 0, MRC_BTH_TS);
	/* pad count beyond the payload */
	mrc_bth_init(buf, MRC_OP_WRITE_ONLY, 0, false, 3, 0xffff, 1, 1);
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_parse(&pkt, buf, hlen + 2));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_parse(&pkt, buf, hlen + 4));
	KUNIT_EXPECT_EQ(test, 1, pkt.paylen);
	/* payload on an opcode without one */
	mrc_bth_init(buf, MRC_OP_ACK, 0, false, 0, 0xffff, 1, 1);
	hlen = mrc_wire_hdr_len(MRC_OP_ACK, false);
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_parse(&pkt, buf, hlen));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_parse(&pkt, buf, hlen + 4));
}

/*
 * What a trimming switch left: a data request's headers, whole, are
 * parsed with no payload; anything else is refused, whatever is left.
 */
static void parse_trimmed(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	struct mrc_pkt pkt, whole;
	unsigned int op, hlen;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (op = 0; op < 256; op++) {
		const struct mrc_opcode_info *info = mrc_wire_opcode(op);
		bool data;

		if (!info)
			continue;
		data = (info->mask & (MRC_H_REQ | MRC_H_PAYLOAD)) ==
		       (MRC_H_REQ | MRC_H_PAYLOAD);
		hlen = mrc_wire_hdr_len(op, false);
		mrc_bth_init(buf, op, 0, false, 3, 0xffff, 1, 2);
		if (!data) {
			KUNIT_EXPECT_EQ_MSG(test, -EBADMSG,
					    mrc_wire_parse_trimmed(&pkt, buf, 200,
								   MRC_NACK_TRIMMED),
					    "%s", info->name);
			continue;
		}
		/* cut inside the headers; then right after them, or later */
		KUNIT_EXPECT_EQ_MSG(test, -EBADMSG,
				    mrc_wire_parse_trimmed(&pkt, buf, hlen - 1,
							   MRC_NACK_TRIMMED),
				    "%s", info->name);
		KUNIT_ASSERT_EQ(test, 0,
				mrc_wire_parse_trimmed(&pkt, buf, hlen,
						       MRC_NACK_TRIMMED_LASTHOP));
		KUNIT_EXPECT_EQ(test, MRC_NACK_TRIMMED_LASTHOP, pkt.trim);
		KUNIT_EXPECT_EQ(test, 0, pkt.paylen);
		KUNIT_ASSERT_EQ(test, 0,
				mrc_wire_parse_trimmed(&pkt, buf, hlen + 37,
						       MRC_NACK_TRIMMED));
		KUNIT_EXPECT_EQ(test, MRC_NACK_TRIMMED, pkt.trim);
		KUNIT_EXPECT_EQ(test, 0, pkt.paylen);
		KUNIT_EXPECT_EQ(test, hlen, pkt.len);
		/* the headers where a whole packet has them */
		KUNIT_ASSERT_EQ(test, 0, mrc_wire_parse(&whole, buf, hlen + 40));
		KUNIT_EXPECT_EQ(test, whole.mask, pkt.mask);
		KUNIT_EXPECT_EQ(test, whole.payload, pkt.payload);
		KUNIT_EXPECT_EQ(test, 0, whole.trim);
		KUNIT_EXPECT_EQ(test, 0,
				memcmp(whole.off, pkt.off, sizeof(pkt.off)));
	}
	/* with TS, the TSETH is a header too */
	mrc_bth_init(buf, MRC_OP_WRITE_MIDDLE, 0, false, 0, 0xffff, 1, 2);
	mrc_bth_set_flags8(buf, MRC_BTH_TS, 0);
	hlen = mrc_wire_hdr_len(MRC_OP_WRITE_MIDDLE, true);
	KUNIT_EXPECT_EQ(test, -EBADMSG,
			mrc_wire_parse_trimmed(&pkt, buf, hlen - 1, MRC_NACK_TRIMMED));
	KUNIT_EXPECT_EQ(test, 0,
			mrc_wire_parse_trimmed(&pkt, buf, hlen, MRC_NACK_TRIMMED));
	KUNIT_EXPECT_NE(test, 0, pkt.tseth);
	/* unknown opcode, transport version, shorter than a BTH */
	mrc_bth_init(buf, 0xd5, 0, false, 0, 0xffff, 1, 1);
	KUNIT_EXPECT_EQ(test, -EPROTONOSUPPORT,
			mrc_wire_parse_trimmed(&pkt, buf, 96, MRC_NACK_TRIMMED));
	mrc_bth_init(buf, MRC_OP_WRITE_ONLY, 0, false, 0, 0xffff, 1, 1);
	buf[1] |= 1;
	KUNIT_EXPECT_EQ(test, -EPROTONOSUPPORT,
			mrc_wire_parse_trimmed(&pkt, buf, 96, MRC_NACK_TRIMMED));
	buf[1] &= ~1;
	KUNIT_EXPECT_EQ(test, -EBADMSG,
			mrc_wire_parse_trimmed(&pkt, buf, 11, MRC_NACK_TRIMMED));
}

static void bth_fields_are_independent(struct kunit *test)
{
	u8 b[MRC_BTH_LEN];

	mrc_bth_init(b, MRC_OP_WRITE_MIDDLE, MRC_BTH_RTX, false, 0, 0xffff,
		     0xffffff, 0xffffff);
	KUNIT_EXPECT_TRUE(test, mrc_bth_rtx(b));
	KUNIT_EXPECT_FALSE(test, mrc_bth_ackreq(b));
	KUNIT_EXPECT_FALSE(test, mrc_bth_ts(b));
	KUNIT_EXPECT_EQ(test, 0xffffff, mrc_bth_qpn(b));
	KUNIT_EXPECT_EQ(test, 0xffffff, mrc_bth_psn(b));
	mrc_bth_set_flags8(b, MRC_BTH_ACKREQ, MRC_BTH_RTX);
	KUNIT_EXPECT_FALSE(test, mrc_bth_rtx(b));
	KUNIT_EXPECT_TRUE(test, mrc_bth_ackreq(b));
	KUNIT_EXPECT_EQ(test, 0xffffff, mrc_bth_psn(b));
	/* reserved bits stay clear whatever the caller passes */
	mrc_bth_init(b, MRC_OP_ACK, 0xff, false, 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, 0, b[8] & MRC_BTH_RESV8);
}

/* the port's one P_Key is 0xffff: full or limited default members only */
static void pkey_matches_default_only(struct kunit *test)
{
	static const struct {
		u16 pkey;
		bool ok;
	} cases[] = {
		{ 0xffff, true }, { 0x7fff, true }, { 0x0000, false },
		{ 0x8000, false }, { 0x1234, false }, { 0xfffe, false },
		{ 0x7ffe, false }, { 0xbfff, false },
	};
	u8 b[MRC_BTH_LEN];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		mrc_bth_init(b, MRC_OP_ACK, 0, false, 0, cases[i].pkey, 1, 1);
		KUNIT_EXPECT_EQ_MSG(test, cases[i].ok, mrc_bth_pkey_default(b),
				    "P_Key 0x%04x", cases[i].pkey);
	}
}

static void path_mtu_common(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, IB_MTU_1024, mrc_wire_path_mtu(1500));
	KUNIT_EXPECT_EQ(test, IB_MTU_4096, mrc_wire_path_mtu(9000));
	KUNIT_EXPECT_EQ(test, IB_MTU_1024, mrc_wire_path_mtu(1280));
	KUNIT_EXPECT_EQ(test, IB_MTU_256, mrc_wire_path_mtu(576));
}

static void path_mtu_edges(struct kunit *test)
{
	const unsigned int o = MRC_MAX_HDR_OVERHEAD;

	KUNIT_EXPECT_EQ(test, 0, mrc_wire_path_mtu(0));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_path_mtu(o - 1));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_path_mtu(o + 255));
	KUNIT_EXPECT_EQ(test, IB_MTU_256, mrc_wire_path_mtu(o + 256));
	KUNIT_EXPECT_EQ(test, IB_MTU_2048, mrc_wire_path_mtu(o + 4095));
	KUNIT_EXPECT_EQ(test, IB_MTU_4096, mrc_wire_path_mtu(o + 4096));
	KUNIT_EXPECT_EQ(test, IB_MTU_4096, mrc_wire_path_mtu(65535));
}

/* every packet must fit: payload + worst-case headers <= netdev MTU */
static void path_mtu_fits(struct kunit *test)
{
	unsigned int mtu;

	for (mtu = 0; mtu <= 10000; mtu += 7) {
		enum ib_mtu m = mrc_wire_path_mtu(mtu);

		if (!m)
			continue;
		KUNIT_EXPECT_LE(test, ib_mtu_enum_to_int(m) + MRC_MAX_HDR_OVERHEAD, mtu);
		if (m < IB_MTU_4096)
			KUNIT_EXPECT_GT(test, ib_mtu_enum_to_int(m + 1) +
					MRC_MAX_HDR_OVERHEAD, mtu);
	}
}

/*
 * CC_STATE's bytes where wire-format.rst puts them, written down here
 * byte by byte: the echoed timestamp, the service time, the restore bit
 * and penalty, the received bytes; and the sample flag in cc_flags.
 */
static void ccstate_layout(struct kunit *test)
{
	struct mrc_sack s = {
		.cc_flags = MRC_SACK_CCF_SAMPLE, .ack_psn_offset = -3,
		.ts_echo = 0x1234, .service_us = 0xfedc, .restore_window = true,
		.rcv_cwnd_pen = 0x15, .rcvd_bytes = 0xabcdef,
	}, r;
	static const u8 want[MRC_CCSTATE_LEN] = {
		0x12, 0x34, 0xfe, 0xdc, 0x95, 0xab, 0xcd, 0xef,
	};
	u8 p[MRC_SETH_LEN + MRC_CCSTATE_LEN];

	mrc_seth_write(p, &s);
	KUNIT_EXPECT_MEMEQ(test, p + MRC_SETH_LEN, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, p[16] & 0xf, 1);
	KUNIT_EXPECT_EQ(test, p[2], 0xff);
	KUNIT_EXPECT_EQ(test, p[3], 0xfd);
	mrc_seth_read(p, &r);
	check_sack(test, &s, &r);
}

/* ERTH and EETH: every field at its offset, and back */
static void ep_headers_roundtrip(struct kunit *test)
{
	const struct mrc_ep_hdr h = {
		.op = MRC_EP_OP_EV_PROBE, .port = 3, .req_id = 0xbeef,
		.word = 0x01020304, .cookie = 0x1122334455667788ull,
		.ts = 0x8877665544332211ull, .ev = 0xc1234567,
		.port_status = 0x0f0f,
	};
	static const u8 want[MRC_EETH_LEN] = {
		0x01, 0x03, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0xc1, 0x23, 0x45, 0x67, 0x0f, 0x0f, 0x00, 0x00,
	};
	u8 p[MRC_ERTH_LEN];
	struct mrc_ep_hdr r;

	memset(p, 0xa5, sizeof(p));
	mrc_eeth_write(p, &h);
	KUNIT_EXPECT_MEMEQ(test, p, want, sizeof(want));
	mrc_eeth_read(p, &r);
	KUNIT_EXPECT_EQ(test, h.op, r.op);
	KUNIT_EXPECT_EQ(test, h.port, r.port);
	KUNIT_EXPECT_EQ(test, h.req_id, r.req_id);
	KUNIT_EXPECT_EQ(test, h.word, r.word);
	KUNIT_EXPECT_EQ(test, h.cookie, r.cookie);
	KUNIT_EXPECT_EQ(test, h.ts, r.ts);
	KUNIT_EXPECT_EQ(test, h.ev, r.ev);
	KUNIT_EXPECT_EQ(test, h.port_status, r.port_status);

	/* the request has no port nor port status: those bytes stay zero */
	memset(p, 0xa5, sizeof(p));
	mrc_erth_write(p, &h);
	KUNIT_EXPECT_EQ(test, 0, p[1]);
	KUNIT_EXPECT_EQ(test, 0, p[28] | p[29] | p[30] | p[31]);
	KUNIT_EXPECT_EQ(test, MRC_EP_OP_EV_PROBE, mrc_erth_op(p));
	KUNIT_EXPECT_EQ(test, 0xbeef, mrc_erth_req_id(p));
	KUNIT_EXPECT_EQ(test, h.cookie, mrc_erth_cookie(p));
	KUNIT_EXPECT_EQ(test, h.ts, mrc_erth_ts(p));
	mrc_erth_read(p, &r);
	KUNIT_EXPECT_EQ(test, 0, r.port);
	KUNIT_EXPECT_EQ(test, 0, r.port_status);
	KUNIT_EXPECT_EQ(test, h.word, r.word);
	KUNIT_EXPECT_EQ(test, h.ev, r.ev);
	KUNIT_EXPECT_LE(test, MRC_EETH_LEN, MRC_ERTH_LEN);
}

/* endpoint packets: exactly BTH + ERTH/EETH, to MRC_EP_QPN */
static void ep_parse(struct kunit *test)
{
	u8 buf[MRC_BTH_LEN + MRC_ERTH_LEN + 4] = {};
	const u32 len = MRC_BTH_LEN + MRC_ERTH_LEN;
	struct mrc_pkt pkt;

	/* not in the QP opcode table: mrc_wire_parse() refuses them */
	KUNIT_EXPECT_NULL(test, mrc_wire_opcode(MRC_OP_EP_REQ));
	KUNIT_EXPECT_NULL(test, mrc_wire_opcode(MRC_OP_EP_RESP));
	mrc_bth_init(buf, MRC_OP_EP_REQ, 0, false, 0, 0xffff, MRC_EP_QPN, 0);
	KUNIT_EXPECT_EQ(test, -EPROTONOSUPPORT, mrc_wire_parse(&pkt, buf, len));
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_ep_parse(&pkt, buf, len));
	KUNIT_EXPECT_EQ(test, MRC_OP_EP_REQ, pkt.opcode);
	KUNIT_EXPECT_EQ(test, MRC_BTH_LEN, pkt.payload);
	KUNIT_EXPECT_EQ(test, len, pkt.len);
	mrc_bth_set_opcode(buf, MRC_OP_EP_RESP);
	KUNIT_EXPECT_EQ(test, 0, mrc_wire_ep_parse(&pkt, buf, len));
	/* wrong length, either way */
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_ep_parse(&pkt, buf, len - 1));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_ep_parse(&pkt, buf, len + 4));
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_ep_parse(&pkt, buf, 11));
	/* another QPN: a user QP's, the GSI's */
	mrc_bth_init(buf, MRC_OP_EP_RESP, 0, false, 0, 0xffff, 16, 0);
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_ep_parse(&pkt, buf, len));
	mrc_bth_init(buf, MRC_OP_EP_RESP, 0, false, 0, 0xffff, 1, 0);
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_ep_parse(&pkt, buf, len));
	/* TS, pad */
	mrc_bth_init(buf, MRC_OP_EP_REQ, MRC_BTH_TS, false, 0, 0xffff,
		     MRC_EP_QPN, 0);
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_ep_parse(&pkt, buf, len));
	mrc_bth_init(buf, MRC_OP_EP_REQ, 0, false, 2, 0xffff, MRC_EP_QPN, 0);
	KUNIT_EXPECT_EQ(test, -EBADMSG, mrc_wire_ep_parse(&pkt, buf, len));
	/* transport version, other opcodes */
	mrc_bth_init(buf, MRC_OP_EP_REQ, 0, false, 0, 0xffff, MRC_EP_QPN, 0);
	buf[1] |= 1;
	KUNIT_EXPECT_EQ(test, -EPROTONOSUPPORT, mrc_wire_ep_parse(&pkt, buf, len));
	mrc_bth_init(buf, MRC_OP_PROBE, 0, false, 0, 0xffff, MRC_EP_QPN, 0);
	KUNIT_EXPECT_EQ(test, -EPROTONOSUPPORT, mrc_wire_ep_parse(&pkt, buf, len));
}

static struct kunit_case mrc_wire_cases[] = {
	KUNIT_CASE(every_opcode_roundtrips),
	KUNIT_CASE(prepare_matches_parse),
	KUNIT_CASE(mrc_opcodes_mark_mrc),
	KUNIT_CASE(parse_refuses_malformed),
	KUNIT_CASE(mpe_requests),
	KUNIT_CASE(parse_trimmed),
	KUNIT_CASE(ccstate_layout),
	KUNIT_CASE(bth_fields_are_independent),
	KUNIT_CASE(pkey_matches_default_only),
	KUNIT_CASE(path_mtu_common),
	KUNIT_CASE(path_mtu_edges),
	KUNIT_CASE(path_mtu_fits),
	KUNIT_CASE(ep_headers_roundtrip),
	KUNIT_CASE(ep_parse),
	{}
};

static struct kunit_suite mrc_wire_suite = {
	.name = "mrc_wire",
	.test_cases = mrc_wire_cases,
};

kunit_test_suite(mrc_wire_suite);
