// SPDX-License-Identifier: GPL-2.0
/*
 * MRC wire format: the opcode table, packet parsing, SACK header coding.
 */
#include <kunit/visibility.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/export.h>

#include "mrc_wire.h"

#define M_SEND	(MRC_H_REQ | MRC_H_METH | MRC_H_PLETH | MRC_H_PAYLOAD)
#define M_WRITE	(MRC_H_REQ | MRC_H_METH | MRC_H_RETH | MRC_H_PAYLOAD)
#define M_READ_RESP	(MRC_H_METH | MRC_H_PLETH | MRC_H_PAYLOAD)
#define M_ATOMIC	(MRC_H_REQ | MRC_H_METH | MRC_H_ATMETH | MRC_H_FIRST | MRC_H_LAST)
#define M_FL		(MRC_H_FIRST | MRC_H_LAST)
#define M_UD		(MRC_H_REQ | MRC_H_DETH | MRC_H_PAYLOAD | M_FL)
#define M_UC_SEND	(M_SEND | MRC_H_UC)
#define M_UC_WRITE	(M_WRITE | MRC_H_UC)

static const struct mrc_opcode_info mrc_opcodes[256] = {
	[MRC_OP_SEND_FIRST]	 = { "SEND_FIRST", M_SEND | MRC_H_FIRST },
	[MRC_OP_SEND_MIDDLE]	 = { "SEND_MIDDLE", M_SEND },
	[MRC_OP_SEND_LAST]	 = { "SEND_LAST", M_SEND | MRC_H_LAST },
	[MRC_OP_SEND_LAST_IMM]	 = { "SEND_LAST_IMM", M_SEND | MRC_H_IMMDT | MRC_H_LAST },
	[MRC_OP_SEND_ONLY]	 = { "SEND_ONLY", M_SEND | M_FL },
	[MRC_OP_SEND_ONLY_IMM]	 = { "SEND_ONLY_IMM", M_SEND | MRC_H_IMMDT | M_FL },
	[MRC_OP_WRITE_FIRST]	 = { "WRITE_FIRST", M_WRITE | MRC_H_FIRST },
	[MRC_OP_WRITE_MIDDLE]	 = { "WRITE_MIDDLE", M_WRITE },
	[MRC_OP_WRITE_LAST]	 = { "WRITE_LAST", M_WRITE | MRC_H_LAST },
	[MRC_OP_WRITE_LAST_IMM]	 = { "WRITE_LAST_IMM", M_WRITE | MRC_H_IMMDT | MRC_H_LAST },
	[MRC_OP_WRITE_ONLY]	 = { "WRITE_ONLY", M_WRITE | M_FL },
	[MRC_OP_WRITE_ONLY_IMM]	 = { "WRITE_ONLY_IMM", M_WRITE | MRC_H_IMMDT | M_FL },
	[MRC_OP_READ_REQ]	 = { "READ_REQ", MRC_H_REQ | MRC_H_METH | MRC_H_RETH | M_FL },
	[MRC_OP_READ_RESP_FIRST] = { "READ_RESP_FIRST", M_READ_RESP | MRC_H_FIRST },
	[MRC_OP_READ_RESP_MIDDLE] = { "READ_RESP_MIDDLE", M_READ_RESP },
	[MRC_OP_READ_RESP_LAST]	 = { "READ_RESP_LAST", M_READ_RESP | MRC_H_LAST },
	[MRC_OP_READ_RESP_ONLY]	 = { "READ_RESP_ONLY", M_READ_RESP | M_FL },
	[MRC_OP_ACK]		 = { "ACK", MRC_H_AETH },
	[MRC_OP_ATOMIC_ACK]	 = { "ATOMIC_ACK", MRC_H_AETH | MRC_H_ATMACK },
	[MRC_OP_CMP_SWAP]	 = { "CMP_SWAP", M_ATOMIC },
	[MRC_OP_FETCH_ADD]	 = { "FETCH_ADD", M_ATOMIC },
	[MRC_OP_SEND_LAST_INV]	 = { "SEND_LAST_INV", M_SEND | MRC_H_IETH | MRC_H_LAST },
	[MRC_OP_SEND_ONLY_INV]	 = { "SEND_ONLY_INV", M_SEND | MRC_H_IETH | M_FL },
	[MRC_OP_FLUSH]		 = { "FLUSH", MRC_H_REQ | MRC_H_METH | MRC_H_RETH |
					      MRC_H_FETH | M_FL },
	[MRC_OP_ATOMIC_WRITE]	 = { "ATOMIC_WRITE", M_WRITE | M_FL },
	[MRC_OP_SACK]		 = { "SACK", MRC_H_SETH },
	[MRC_OP_NACK]		 = { "NACK", MRC_H_NETH },
	[MRC_OP_PROBE]		 = { "PROBE", MRC_H_PETH },
	[MRC_OP_UD_SEND_ONLY]	 = { "UD_SEND_ONLY", M_UD },
	[MRC_OP_UD_SEND_ONLY_IMM] = { "UD_SEND_ONLY_IMM", M_UD | MRC_H_IMMDT },
	[MRC_OP_UC_SEND_FIRST]	 = { "UC_SEND_FIRST", M_UC_SEND | MRC_H_FIRST },
	[MRC_OP_UC_SEND_MIDDLE]	 = { "UC_SEND_MIDDLE", M_UC_SEND },
	[MRC_OP_UC_SEND_LAST]	 = { "UC_SEND_LAST", M_UC_SEND | MRC_H_LAST },
	[MRC_OP_UC_SEND_LAST_IMM] = { "UC_SEND_LAST_IMM",
				     M_UC_SEND | MRC_H_IMMDT | MRC_H_LAST },
	[MRC_OP_UC_SEND_ONLY]	 = { "UC_SEND_ONLY", M_UC_SEND | M_FL },
	[MRC_OP_UC_SEND_ONLY_IMM] = { "UC_SEND_ONLY_IMM",
				     M_UC_SEND | MRC_H_IMMDT | M_FL },
	[MRC_OP_UC_WRITE_FIRST]	 = { "UC_WRITE_FIRST", M_UC_WRITE | MRC_H_FIRST },
	[MRC_OP_UC_WRITE_MIDDLE] = { "UC_WRITE_MIDDLE", M_UC_WRITE },
	[MRC_OP_UC_WRITE_LAST]	 = { "UC_WRITE_LAST", M_UC_WRITE | MRC_H_LAST },
	[MRC_OP_UC_WRITE_LAST_IMM] = { "UC_WRITE_LAST_IMM",
				      M_UC_WRITE | MRC_H_IMMDT | MRC_H_LAST },
	[MRC_OP_UC_WRITE_ONLY]	 = { "UC_WRITE_ONLY", M_UC_WRITE | M_FL },
	[MRC_OP_UC_WRITE_ONLY_IMM] = { "UC_WRITE_ONLY_IMM",
				      M_UC_WRITE | MRC_H_IMMDT | M_FL },
};

/* header bit -> length, in wire order after the BTH (TSETH goes after METH) */
static const u8 mrc_hdr_len_of[] = {
	[0] = MRC_DETH_LEN,	/* MRC_H_DETH */
	[1] = MRC_METH_LEN,	/* MRC_H_METH */
	[2] = MRC_RETH_LEN,	/* MRC_H_RETH */
	[3] = MRC_PLETH_LEN,	/* MRC_H_PLETH */
	[4] = MRC_ATMETH_LEN,	/* MRC_H_ATMETH */
	[5] = MRC_IMMDT_LEN,	/* MRC_H_IMMDT */
	[6] = MRC_IETH_LEN,	/* MRC_H_IETH */
	[7] = MRC_AETH_LEN,	/* MRC_H_AETH */
	[8] = MRC_ATMACK_LEN,	/* MRC_H_ATMACK */
	[9] = MRC_SETH_LEN + MRC_CCSTATE_LEN,	/* MRC_H_SETH */
	[10] = MRC_NETH_LEN,	/* MRC_H_NETH */
	[11] = MRC_PETH_LEN,	/* MRC_H_PETH */
	[12] = MRC_FETH_LEN,	/* MRC_H_FETH */
};

/**
 * mrc_wire_opcode() - what an opcode carries
 * @opcode: BTH opcode
 *
 * Return: its table entry, or NULL for an opcode mrc does not speak.
 */
const struct mrc_opcode_info *mrc_wire_opcode(u8 opcode)
{
	const struct mrc_opcode_info *info = &mrc_opcodes[opcode];

	return info->name ? info : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_opcode);

/* Lay the headers out in wire order (the bit order of enum mrc_hdr_mask,
 * with the TSETH right after the DETH and METH); fills @off and @tseth when
 * non-NULL. Returns the length from the BTH to the payload.
 */
static unsigned int layout(u32 mask, bool ts, u8 *off, u8 *tseth)
{
	unsigned int pos = MRC_BTH_LEN, bit;

	BUILD_BUG_ON(MRC_H_DETH != BIT(0) || MRC_H_METH != BIT(1));
	BUILD_BUG_ON(BIT(ARRAY_SIZE(mrc_hdr_len_of)) != MRC_H_PAYLOAD ||
		     ARRAY_SIZE(mrc_hdr_len_of) > sizeof(((struct mrc_pkt *)0)->off));
	for (bit = 0; bit < ARRAY_SIZE(mrc_hdr_len_of); bit++) {
		if (bit == 2 && ts) {
			if (tseth)
				*tseth = pos;
			pos += MRC_TSETH_LEN;
		}
		if (!(mask & BIT(bit)))
			continue;
		if (off)
			off[bit] = pos;
		pos += mrc_hdr_len_of[bit];
	}
	return pos;
}

/**
 * mrc_wire_hdr_len() - bytes from the start of the BTH to the payload
 * @opcode: a known opcode (see mrc_wire_opcode())
 * @ts: BTH.TS is set (a TSETH is present)
 */
unsigned int mrc_wire_hdr_len(u8 opcode, bool ts)
{
	const struct mrc_opcode_info *info = mrc_wire_opcode(opcode);

	return info ? layout(info->mask, ts, NULL, NULL) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_hdr_len);

/**
 * mrc_wire_prepare() - lay out a packet to be built at @hdr
 * @pkt: result, as mrc_wire_parse() would return it for the built packet
 * @hdr: where the BTH goes
 * @opcode: a known opcode
 * @paylen: payload bytes (without pad)
 *
 * Return: header bytes (BTH to payload), 0 for an unknown opcode.
 */
unsigned int mrc_wire_prepare(struct mrc_pkt *pkt, u8 *hdr, u8 opcode,
			      u32 paylen)
{
	const struct mrc_opcode_info *info = mrc_wire_opcode(opcode);
	unsigned int hlen;

	if (!info)
		return 0;
	memset(pkt, 0, sizeof(*pkt));
	hlen = layout(info->mask, false, pkt->off, &pkt->tseth);
	pkt->hdr = hdr;
	pkt->opcode = opcode;
	pkt->mask = info->mask;
	pkt->payload = hlen;
	pkt->paylen = paylen;
	pkt->len = hlen + paylen + (-paylen & 3);
	return hlen;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_prepare);

/*
 * The part both parsers share: an opcode and transport version mrc speaks,
 * and where its headers are. Return: the headers' length, or an error.
 */
static int parse_headers(struct mrc_pkt *pkt, u8 *hdr, u32 len)
{
	const struct mrc_opcode_info *info;

	if (len < MRC_BTH_LEN)
		return -EBADMSG;
	info = mrc_wire_opcode(mrc_bth_opcode(hdr));
	if (!info || mrc_bth_tver(hdr))
		return -EPROTONOSUPPORT;
	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr = hdr;
	pkt->opcode = mrc_bth_opcode(hdr);
	pkt->mask = info->mask;
	pkt->payload = layout(info->mask, mrc_bth_ts(hdr), pkt->off,
			      &pkt->tseth);
	return pkt->payload;
}

/**
 * mrc_wire_parse() - check a transport packet and find its headers
 * @pkt: result
 * @hdr: start of the BTH
 * @len: bytes from the BTH to the end of the payload (ICRC removed)
 *
 * Return: 0; -EPROTONOSUPPORT for an opcode or transport version mrc does
 * not speak; -EBADMSG for a packet too short for its headers, with a pad
 * count larger than its payload, or with a payload its opcode does not
 * carry.
 */
int mrc_wire_parse(struct mrc_pkt *pkt, u8 *hdr, u32 len)
{
	int err = parse_headers(pkt, hdr, len);
	unsigned int hlen = err, pad;

	if (err < 0)
		return err;
	pad = mrc_bth_pad(hdr);
	if (len < hlen + pad)
		return -EBADMSG;
	if (!(pkt->mask & MRC_H_PAYLOAD) && len != hlen)
		return -EBADMSG;
	pkt->len = len;
	pkt->paylen = len - hlen - pad;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_parse);

/**
 * mrc_wire_parse_trimmed() - parse what a trimming switch left of a packet
 * @pkt: filled in; @pkt->paylen is 0 and @pkt->trim is @reason
 * @hdr: the BTH
 * @len: the bytes that arrived from the BTH on
 * @reason: MRC_NACK_TRIMMED or MRC_NACK_TRIMMED_LASTHOP
 *
 * Only a request that carries data is ever trimmed (anything shorter than
 * the switch's trim length passes whole): its headers, up to the payload,
 * must all be there. The ICRC went with the payload, so nothing of this
 * is checked but its shape.
 *
 * Return: 0, or -EBADMSG / -EPROTONOSUPPORT for anything else.
 */
int mrc_wire_parse_trimmed(struct mrc_pkt *pkt, u8 *hdr, u32 len, u8 reason)
{
	int err = parse_headers(pkt, hdr, len);

	if (err < 0)
		return err;
	if ((pkt->mask & (MRC_H_REQ | MRC_H_PAYLOAD)) !=
	    (MRC_H_REQ | MRC_H_PAYLOAD) || len < (unsigned int)err)
		return -EBADMSG;
	pkt->len = err;
	pkt->trim = reason;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_parse_trimmed);

/**
 * mrc_wire_mpe_check() - is a FLUSH or ATOMIC_WRITE request well formed?
 * @pkt: a parsed request of either opcode
 *
 * ATOMIC_WRITE: exactly 8 bytes of payload (no pad), a RETH length of 8,
 * an 8-byte aligned address (IBA oA19-28). FLUSH: a placement type mrc
 * knows and a selectivity level of RANGE or MR.
 *
 * Return: 0, or -EBADMSG.
 */
int mrc_wire_mpe_check(const struct mrc_pkt *pkt)
{
	const u8 *reth = mrc_pkt_hdr(pkt, MRC_H_RETH), *feth;

	if (pkt->opcode == MRC_OP_ATOMIC_WRITE)
		return pkt->paylen != 8 || mrc_bth_pad(pkt->hdr) ||
		       mrc_reth_len(reth) != 8 || (mrc_reth_va(reth) & 7) ?
		       -EBADMSG : 0;
	if (pkt->opcode != MRC_OP_FLUSH)
		return -EBADMSG;
	feth = mrc_pkt_hdr(pkt, MRC_H_FETH);
	return mrc_feth_type_ok(mrc_feth_type(feth)) &&
	       mrc_feth_level(feth) <= IB_FLUSH_MR ? 0 : -EBADMSG;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_mpe_check);

/**
 * mrc_wire_flush_access() - the access a FLUSH of placement @type needs
 * @type: IB_FLUSH_GLOBAL and/or IB_FLUSH_PERSISTENT
 *
 * Return: IB_ACCESS_FLUSH_GLOBAL and/or IB_ACCESS_FLUSH_PERSISTENT, of the
 * QP and of the MR alike.
 */
int mrc_wire_flush_access(u8 type)
{
	return (type & IB_FLUSH_GLOBAL ? IB_ACCESS_FLUSH_GLOBAL : 0) |
	       (type & IB_FLUSH_PERSISTENT ? IB_ACCESS_FLUSH_PERSISTENT : 0);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_flush_access);

void mrc_seth_write(u8 *p, const struct mrc_sack *s)
{
	u8 *cc = p + MRC_SETH_LEN;

	memset(p, 0, MRC_SETH_LEN + MRC_CCSTATE_LEN);
	p[0] = (s->mode & 3) << 6 | (s->probe_resp ? 0x20 : 0);
	put_unaligned_be16((u16)s->ack_psn_offset, p + 2);
	p[1] = s->port_status >> 8;
	put_unaligned_be32(s->entropy, p + 4);
	p[12] = s->port_status & 0xff;
	mrc_put24(p + 13, s->cack_psn);
	p[16] = (s->cc_type & 0xf) << 4 | (s->cc_flags & 0xf);
	p[17] = s->mpr;
	put_unaligned_be16((u16)s->sack_offset, p + 18);
	put_unaligned_be64(s->bitmap, p + 20);
	put_unaligned_be16(s->ts_echo, cc);
	put_unaligned_be16(s->service_us, cc + 2);
	cc[4] = (s->restore_window ? 0x80 : 0) | (s->rcv_cwnd_pen & 0x7f);
	mrc_put24(cc + 5, s->rcvd_bytes);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_seth_write);

void mrc_seth_read(const u8 *p, struct mrc_sack *s)
{
	const u8 *cc = p + MRC_SETH_LEN;

	s->mode = mrc_seth_mode(p);
	s->probe_resp = mrc_seth_probe_resp(p);
	s->ack_psn_offset = mrc_seth_ack_psn_offset(p);
	s->entropy = mrc_seth_entropy(p);
	s->port_status = mrc_seth_port_status(p);
	s->cack_psn = mrc_seth_cack_psn(p);
	s->cc_type = mrc_seth_cc_type(p);
	s->cc_flags = mrc_seth_cc_flags(p);
	s->mpr = mrc_seth_mpr(p);
	s->sack_offset = mrc_seth_sack_offset(p);
	s->bitmap = mrc_seth_bitmap(p);
	s->ts_echo = mrc_ccstate_ts_echo(cc);
	s->service_us = mrc_ccstate_service(cc);
	s->restore_window = mrc_ccstate_restore(cc);
	s->rcv_cwnd_pen = mrc_ccstate_pen(cc);
	s->rcvd_bytes = mrc_ccstate_rcvd(cc);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_seth_read);

/* ERTH and EETH share their layout but for bytes 1, 4-7 and 28-29 */
static void ep_write(u8 *p, const struct mrc_ep_hdr *h)
{
	memset(p, 0, MRC_ERTH_LEN);
	p[0] = h->op & 3;
	put_unaligned_be16(h->req_id, p + 2);
	put_unaligned_be32(h->word, p + 4);
	put_unaligned_be64(h->cookie, p + 8);
	put_unaligned_be64(h->ts, p + 16);
	put_unaligned_be32(h->ev, p + 24);
}

static void ep_read(const u8 *p, struct mrc_ep_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->op = p[0] & 3;
	h->req_id = get_unaligned_be16(p + 2);
	h->word = get_unaligned_be32(p + 4);
	h->cookie = get_unaligned_be64(p + 8);
	h->ts = get_unaligned_be64(p + 16);
	h->ev = get_unaligned_be32(p + 24);
}

void mrc_erth_write(u8 *p, const struct mrc_ep_hdr *h)
{
	ep_write(p, h);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_erth_write);

void mrc_erth_read(const u8 *p, struct mrc_ep_hdr *h)
{
	ep_read(p, h);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_erth_read);

void mrc_eeth_write(u8 *p, const struct mrc_ep_hdr *h)
{
	BUILD_BUG_ON(MRC_EETH_LEN > MRC_ERTH_LEN);	/* no amplification */
	ep_write(p, h);
	p[1] = h->port;
	put_unaligned_be16(h->port_status, p + 28);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_eeth_write);

void mrc_eeth_read(const u8 *p, struct mrc_ep_hdr *h)
{
	ep_read(p, h);
	h->port = p[1];
	h->port_status = get_unaligned_be16(p + 28);
}
EXPORT_SYMBOL_IF_KUNIT(mrc_eeth_read);

/**
 * mrc_wire_ep_parse() - check an endpoint packet (0xD8 or 0xD9)
 * @pkt: result (mask 0; the ERTH or EETH is at @pkt->payload)
 * @hdr: start of the BTH
 * @len: bytes from the BTH to the end of the packet (ICRC removed)
 *
 * Exactly a BTH and its ERTH or EETH, to MRC_EP_QPN, without TSETH or pad.
 * A packet of these opcodes to any other QPN is malformed: endpoint
 * operations have one address per device.
 *
 * Return: 0; -EPROTONOSUPPORT for another opcode or a transport version
 * other than 0; -EBADMSG for anything else.
 */
int mrc_wire_ep_parse(struct mrc_pkt *pkt, u8 *hdr, u32 len)
{
	if (len < MRC_BTH_LEN)
		return -EBADMSG;
	if (!mrc_op_is_ep(mrc_bth_opcode(hdr)) || mrc_bth_tver(hdr))
		return -EPROTONOSUPPORT;
	BUILD_BUG_ON(MRC_ERTH_LEN != MRC_EETH_LEN);
	if (len != MRC_BTH_LEN + MRC_ERTH_LEN || mrc_bth_pad(hdr) ||
	    mrc_bth_ts(hdr) || mrc_bth_qpn(hdr) != MRC_EP_QPN)
		return -EBADMSG;
	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr = hdr;
	pkt->len = len;
	pkt->opcode = mrc_bth_opcode(hdr);
	pkt->payload = MRC_BTH_LEN;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_ep_parse);

/**
 * mrc_wire_path_mtu() - largest IB MTU whose packets fit a netdev MTU
 * @netdev_mtu: the L3 MTU of the plane netdev
 *
 * Every MRC data packet must fit the plane's MTU with the worst-case header
 * stack, so no packet ever needs IP fragmentation on any path.
 *
 * Return: IB_MTU_256 .. IB_MTU_4096, or 0 when not even 256 bytes fit.
 */
enum ib_mtu mrc_wire_path_mtu(unsigned int netdev_mtu)
{
	enum ib_mtu mtu;

	if (netdev_mtu < MRC_MAX_HDR_OVERHEAD)
		return 0;
	for (mtu = IB_MTU_4096; mtu >= IB_MTU_256; mtu--)
		if (ib_mtu_enum_to_int(mtu) <= netdev_mtu - MRC_MAX_HDR_OVERHEAD)
			return mtu;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mrc_wire_path_mtu);
