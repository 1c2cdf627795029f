/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MRC wire format: opcodes, transport headers and their accessors.
 * Documentation/mrc/wire-format.rst describes every byte, and which parts
 * are MRC 1.0 and which are mrc's extensions.
 *
 * Naming follows rxe_hdr.h: mrc_<hdr>_<field>(p) reads and
 * mrc_<hdr>_set_<field>(p, v) writes a field of header <hdr> at raw pointer
 * p; byte order is converted only here.
 */
#ifndef _MRC_WIRE_H
#define _MRC_WIRE_H

#include <linux/bits.h>
#include <linux/string.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

enum mrc_hdr_len {
	MRC_IPV6_HLEN		= 40,
	MRC_SRH_MAX_HLEN	= 104,	/* SRH with 6 segments (MRC_PATH_MAX_SEGS) */
	MRC_UDP_HLEN		= 8,
	MRC_BTH_LEN		= 12,
	MRC_METH_LEN		= 4,
	MRC_TSETH_LEN		= 4,
	MRC_RETH_LEN		= 16,
	MRC_IMMDT_LEN		= 4,
	MRC_IETH_LEN		= 4,
	MRC_PLETH_LEN		= 8,
	MRC_AETH_LEN		= 4,
	MRC_ATMETH_LEN		= 28,
	MRC_ATMACK_LEN		= 8,
	MRC_DETH_LEN		= 8,
	MRC_SETH_LEN		= 28,
	MRC_CCSTATE_LEN		= 8,
	MRC_NETH_LEN		= 20,
	MRC_PETH_LEN		= 16,
	MRC_ERTH_LEN		= 32,
	MRC_EETH_LEN		= 32,
	MRC_FETH_LEN		= 4,
	MRC_ICRC_LEN		= 4,
};

/*
 * Worst case a data packet carries on top of its payload: outer IPv6 +
 * the longest SRH (srh paths) + inner IPv6 + UDP + BTH + METH + TSETH +
 * RETH (in every MRC data packet) + ImmDt + ICRC.
 */
#define MRC_MAX_HDR_OVERHEAD						\
	(MRC_IPV6_HLEN + MRC_SRH_MAX_HLEN + MRC_IPV6_HLEN + MRC_UDP_HLEN +	\
	 MRC_BTH_LEN + MRC_METH_LEN + MRC_TSETH_LEN + MRC_RETH_LEN +	\
	 MRC_IMMDT_LEN + MRC_ICRC_LEN)

/*
 * Opcodes. Bits 7:5 = 0b110 mark MRC (a transport prefix IBA leaves
 * unused); the low five bits follow the RC opcode of the same operation.
 * MRC 1.0 defines the WRITE, ACK, endpoint and reliability opcodes; SEND,
 * READ and ATOMIC are mrc extensions on the same principle (every packet
 * placeable on its own). FLUSH and ATOMIC_WRITE (IBA's 0x18/0x19, where
 * MRC has its endpoint opcodes) take two free codes. UD keeps the
 * standard RoCEv2 UD opcodes.
 */
enum mrc_opcode {
	MRC_OP_SEND_FIRST		= 0xc0,	/* ext */
	MRC_OP_SEND_MIDDLE		= 0xc1,	/* ext */
	MRC_OP_SEND_LAST		= 0xc2,	/* ext */
	MRC_OP_SEND_LAST_IMM		= 0xc3,	/* ext */
	MRC_OP_SEND_ONLY		= 0xc4,	/* ext */
	MRC_OP_SEND_ONLY_IMM		= 0xc5,	/* ext */
	MRC_OP_WRITE_FIRST		= 0xc6,
	MRC_OP_WRITE_MIDDLE		= 0xc7,
	MRC_OP_WRITE_LAST		= 0xc8,
	MRC_OP_WRITE_LAST_IMM		= 0xc9,
	MRC_OP_WRITE_ONLY		= 0xca,
	MRC_OP_WRITE_ONLY_IMM		= 0xcb,
	MRC_OP_READ_REQ			= 0xcc,	/* ext */
	MRC_OP_READ_RESP_FIRST		= 0xcd,	/* ext */
	MRC_OP_READ_RESP_MIDDLE		= 0xce,	/* ext */
	MRC_OP_READ_RESP_LAST		= 0xcf,	/* ext */
	MRC_OP_READ_RESP_ONLY		= 0xd0,	/* ext */
	MRC_OP_ACK			= 0xd1,
	MRC_OP_ATOMIC_ACK		= 0xd2,	/* ext */
	MRC_OP_CMP_SWAP			= 0xd3,	/* ext */
	MRC_OP_FETCH_ADD		= 0xd4,	/* ext */
	MRC_OP_SEND_LAST_INV		= 0xd6,	/* ext */
	MRC_OP_SEND_ONLY_INV		= 0xd7,	/* ext */
	MRC_OP_FLUSH			= 0xda,	/* ext */
	MRC_OP_ATOMIC_WRITE		= 0xdb,	/* ext */
	MRC_OP_SACK			= 0xdc,
	MRC_OP_NACK			= 0xdd,
	MRC_OP_PROBE			= 0xde,
	MRC_OP_UD_SEND_ONLY		= 0x64,	/* RoCEv2 UD */
	MRC_OP_UD_SEND_ONLY_IMM		= 0x65,	/* RoCEv2 UD */
	/* UC (ext): prefix 0b111, the low five bits and headers of the MRC
	 * SEND and WRITE opcodes; see mrc_uc_opcode()
	 */
	MRC_OP_UC_SEND_FIRST		= 0xe0,
	MRC_OP_UC_SEND_MIDDLE		= 0xe1,
	MRC_OP_UC_SEND_LAST		= 0xe2,
	MRC_OP_UC_SEND_LAST_IMM		= 0xe3,
	MRC_OP_UC_SEND_ONLY		= 0xe4,
	MRC_OP_UC_SEND_ONLY_IMM		= 0xe5,
	MRC_OP_UC_WRITE_FIRST		= 0xe6,
	MRC_OP_UC_WRITE_MIDDLE		= 0xe7,
	MRC_OP_UC_WRITE_LAST		= 0xe8,
	MRC_OP_UC_WRITE_LAST_IMM	= 0xe9,
	MRC_OP_UC_WRITE_ONLY		= 0xea,
	MRC_OP_UC_WRITE_ONLY_IMM	= 0xeb,
};

#define MRC_OP_UC_PREFIX	0xe0

/* Which headers follow the BTH, in this order (TSETH only with BTH.TS) */
enum mrc_hdr_mask {
	MRC_H_DETH	= BIT(0),
	MRC_H_METH	= BIT(1),
	MRC_H_RETH	= BIT(2),
	MRC_H_PLETH	= BIT(3),
	MRC_H_ATMETH	= BIT(4),
	MRC_H_IMMDT	= BIT(5),
	MRC_H_IETH	= BIT(6),
	MRC_H_AETH	= BIT(7),
	MRC_H_ATMACK	= BIT(8),
	MRC_H_SETH	= BIT(9),	/* SETH + CC_STATE */
	MRC_H_NETH	= BIT(10),
	MRC_H_PETH	= BIT(11),
	MRC_H_FETH	= BIT(12),
	MRC_H_PAYLOAD	= BIT(13),	/* carries data */
	MRC_H_REQ	= BIT(14),	/* requester -> responder, has a PSN */
	MRC_H_FIRST	= BIT(15),	/* starts a message */
	MRC_H_LAST	= BIT(16),	/* ends a message */
	MRC_H_UC	= BIT(17),	/* of a UC QP: never acknowledged */
};

struct mrc_opcode_info {
	const char *name;
	u32 mask;			/* enum mrc_hdr_mask */
};

const struct mrc_opcode_info *mrc_wire_opcode(u8 opcode);

/**
 * struct mrc_pkt - a parsed MRC transport packet (BTH to ICRC, exclusive)
 * @hdr: start of the BTH
 * @len: bytes from the BTH to the end of the payload (pad included)
 * @opcode: BTH opcode
 * @mask: headers present (enum mrc_hdr_mask)
 * @off: offset of each header from @hdr, indexed by its bit number; valid
 *	 where @mask has the bit
 * @tseth: offset of the TSETH, 0 when BTH.TS is clear
 * @payload: offset of the payload
 * @paylen: payload bytes, pad excluded
 * @ev: the entropy value it came with (UDP source port, flow label)
 * @ce: it arrived ECN-marked (Congestion Experienced, either IP header)
 * @trim: a switch cut its payload (enum mrc_nack_reason: TRIMMED or
 *	  TRIMMED_LASTHOP), 0 for a whole packet; only the headers are valid
 */
struct mrc_pkt {
	u8 *hdr;
	u32 len;
	u8 opcode;
	u32 mask;
	u8 off[13];
	u8 tseth;
	u16 payload;
	u32 paylen;
	u32 ev;
	bool ce;
	u8 trim;
};

int mrc_wire_parse(struct mrc_pkt *pkt, u8 *hdr, u32 len);
int mrc_wire_parse_trimmed(struct mrc_pkt *pkt, u8 *hdr, u32 len, u8 reason);
unsigned int mrc_wire_prepare(struct mrc_pkt *pkt, u8 *hdr, u8 opcode,
			      u32 paylen);
unsigned int mrc_wire_hdr_len(u8 opcode, bool ts);
enum ib_mtu mrc_wire_path_mtu(unsigned int netdev_mtu);
int mrc_wire_mpe_check(const struct mrc_pkt *pkt);
int mrc_wire_flush_access(u8 type);

/* FLUSH and ATOMIC_WRITE: IBA 1.5's memory placement extensions */
static inline bool mrc_op_is_mpe(u8 op)
{
	return op == MRC_OP_FLUSH || op == MRC_OP_ATOMIC_WRITE;
}

/*
 * The UC opcode of an MRC SEND or WRITE opcode (MRC_OP_SEND_FIRST ..
 * MRC_OP_WRITE_ONLY_IMM): the same low five bits, as IBA's UC opcodes
 * follow its RC ones, under the manufacturer-specific prefix 0b111.
 */
static inline u8 mrc_uc_opcode(u8 op)
{
	return MRC_OP_UC_PREFIX | (op & 0x1f);
}

/* READ response data (the responder's own data, not an acknowledgment) */
static inline bool mrc_op_is_read_resp(u8 op)
{
	return op >= MRC_OP_READ_RESP_FIRST && op <= MRC_OP_READ_RESP_ONLY;
}

static inline u8 *mrc_pkt_hdr(const struct mrc_pkt *pkt, u32 h)
{
	return pkt->hdr + pkt->off[__builtin_ctz(h)];
}

/* ---- 24-bit fields ---------------------------------------------------- */

static inline u32 mrc_get24(const u8 *p)
{
	return p[0] << 16 | p[1] << 8 | p[2];
}

static inline void mrc_put24(u8 *p, u32 v)
{
	p[0] = (v >> 16) & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = v & 0xff;
}

/* ---- BTH: base transport header (12 bytes, IBA, MRC flags) ------------
 *  0: opcode   1: SE M PadCnt:2 TVer:4   2-3: P_Key
 *  4: FECN BECN resv:6   5-7: DestQP   8: AckReq RTX TS resv:5   9-11: PSN
 * RTX (retransmission) and TS (TSETH present) use bits IBA reserves.
 */
enum {
	MRC_BTH_SE		= 0x80,
	MRC_BTH_MIG		= 0x40,
	MRC_BTH_PAD_MASK	= 0x30,
	MRC_BTH_TVER_MASK	= 0x0f,
	MRC_BTH_FECN		= 0x80,
	MRC_BTH_BECN		= 0x40,
	MRC_BTH_ACKREQ		= 0x80,
	MRC_BTH_RTX		= 0x40,
	MRC_BTH_TS		= 0x20,
	MRC_BTH_RESV8		= 0x1f,
};

static inline u8 mrc_bth_opcode(const u8 *p) { return p[0]; }
static inline void mrc_bth_set_opcode(u8 *p, u8 v) { p[0] = v; }
static inline bool mrc_bth_se(const u8 *p) { return p[1] & MRC_BTH_SE; }
static inline u8 mrc_bth_pad(const u8 *p) { return (p[1] & MRC_BTH_PAD_MASK) >> 4; }
static inline u8 mrc_bth_tver(const u8 *p) { return p[1] & MRC_BTH_TVER_MASK; }
static inline u16 mrc_bth_pkey(const u8 *p) { return get_unaligned_be16(p + 2); }
static inline bool mrc_bth_fecn(const u8 *p) { return p[4] & MRC_BTH_FECN; }
static inline u32 mrc_bth_qpn(const u8 *p) { return mrc_get24(p + 5); }
static inline bool mrc_bth_ackreq(const u8 *p) { return p[8] & MRC_BTH_ACKREQ; }
static inline bool mrc_bth_rtx(const u8 *p) { return p[8] & MRC_BTH_RTX; }
static inline bool mrc_bth_ts(const u8 *p) { return p[8] & MRC_BTH_TS; }
static inline u32 mrc_bth_psn(const u8 *p) { return mrc_get24(p + 9); }

/*
 * The port's one P_Key is the default, 0xffff (full member): a packet's
 * matches it when its low 15 bits are all ones (IBA 10.9.3; the port's
 * full membership makes a limited 0x7fff a match too).
 */
static inline bool mrc_bth_pkey_default(const u8 *p)
{
	return (mrc_bth_pkey(p) & 0x7fff) == 0x7fff;
}

/**
 * mrc_bth_init() - write a whole BTH
 * @p: where
 * @opcode: MRC opcode
 * @flags8: byte 8 flags (MRC_BTH_ACKREQ | MRC_BTH_RTX | MRC_BTH_TS)
 * @se: solicited event
 * @pad: pad count, 0..3
 * @pkey: partition key
 * @qpn: destination QP (24 bits)
 * @psn: packet sequence number (24 bits)
 */
static inline void mrc_bth_init(u8 *p, u8 opcode, u8 flags8, bool se, u8 pad,
				u16 pkey, u32 qpn, u32 psn)
{
	p[0] = opcode;
	p[1] = (se ? MRC_BTH_SE : 0) | (pad & 3) << 4;	/* TVer 0 */
	put_unaligned_be16(pkey, p + 2);
	p[4] = 0;
	mrc_put24(p + 5, qpn);
	p[8] = flags8 & (MRC_BTH_ACKREQ | MRC_BTH_RTX | MRC_BTH_TS);
	mrc_put24(p + 9, psn);
}

static inline void mrc_bth_set_flags8(u8 *p, u8 set, u8 clear)
{
	p[8] = (p[8] & ~clear) | set;
}

/* ---- METH: message ETH (4 bytes, MRC 1.0) -----------------------------
 *  0-1: RQMSN (receive-queue message sequence: which receive WQE a SEND or
 *       WRITE-with-immediate consumes)  2-3: MSN (requester message sequence)
 */
static inline u16 mrc_meth_rqmsn(const u8 *p) { return get_unaligned_be16(p); }
static inline u16 mrc_meth_msn(const u8 *p) { return get_unaligned_be16(p + 2); }
static inline void mrc_meth_set(u8 *p, u16 rqmsn, u16 msn)
{
	put_unaligned_be16(rqmsn, p);
	put_unaligned_be16(msn, p + 2);
}

/* ---- TSETH: timestamp ETH (4 bytes, MRC 1.0, when BTH.TS) -------------
 *  0-1: transmit timestamp (1.024 us units in mrc)  2: TSR:1 resv:3 ftype:4
 *  3: reserved
 */
static inline u16 mrc_tseth_ts(const u8 *p) { return get_unaligned_be16(p); }
static inline void mrc_tseth_set(u8 *p, u16 ts)
{
	put_unaligned_be16(ts, p);
	p[2] = 0;
	p[3] = 0;
}

/* ---- RETH: RDMA ETH (16 bytes, IBA; in every MRC data packet) ---------
 *  0-7: virtual address of THIS packet's payload  8-11: R_Key
 *  12-15: DMA length of the whole message
 */
static inline u64 mrc_reth_va(const u8 *p) { return get_unaligned_be64(p); }
static inline u32 mrc_reth_rkey(const u8 *p) { return get_unaligned_be32(p + 8); }
static inline u32 mrc_reth_len(const u8 *p) { return get_unaligned_be32(p + 12); }
static inline void mrc_reth_set(u8 *p, u64 va, u32 rkey, u32 len)
{
	put_unaligned_be64(va, p);
	put_unaligned_be32(rkey, p + 8);
	put_unaligned_be32(len, p + 12);
}

/* ---- PLETH: placement ETH (8 bytes, mrc extension) --------------------
 * SEND and READ response packets: where this packet's payload goes.
 *  0-3: byte offset within the message  4-7: message length
 */
static inline u32 mrc_pleth_offset(const u8 *p) { return get_unaligned_be32(p); }
static inline u32 mrc_pleth_len(const u8 *p) { return get_unaligned_be32(p + 4); }
static inline void mrc_pleth_set(u8 *p, u32 offset, u32 len)
{
	put_unaligned_be32(offset, p);
	put_unaligned_be32(len, p + 4);
}

/* ---- ImmDt (4 bytes) and IETH (4 bytes, R_Key to invalidate), IBA ----- */
static inline __be32 mrc_immdt(const u8 *p) { return (__force __be32)get_unaligned((u32 *)p); }
static inline void mrc_immdt_set(u8 *p, __be32 v) { put_unaligned((__force u32)v, (u32 *)p); }
static inline u32 mrc_ieth_rkey(const u8 *p) { return get_unaligned_be32(p); }
static inline void mrc_ieth_set(u8 *p, u32 rkey) { put_unaligned_be32(rkey, p); }

/* ---- AETH: ACK ETH (4 bytes, IBA; Transport ACK 0xD1) -----------------
 *  0: syndrome  1-3: MSN of the last completed message
 */
enum mrc_aeth_syndrome {
	MRC_AETH_ACK		= 0x00,	/* 0b000 + credit count (unused) */
	MRC_AETH_NAK_SEQ	= 0x60,	/* 0b011 + 0: PSN sequence error */
	MRC_AETH_NAK_INV	= 0x61,	/* invalid request */
	MRC_AETH_NAK_ACC	= 0x62,	/* remote access error */
	MRC_AETH_NAK_OP		= 0x63,	/* remote operational error */
	MRC_AETH_NAK_INV_RD	= 0x64,	/* invalid RD request */
};

static inline u8 mrc_aeth_syn(const u8 *p) { return p[0]; }
static inline u32 mrc_aeth_msn(const u8 *p) { return mrc_get24(p + 1); }
static inline void mrc_aeth_set(u8 *p, u8 syn, u32 msn)
{
	p[0] = syn;
	mrc_put24(p + 1, msn);
}

/* ---- AtomicETH (28 bytes) and AtomicAckETH (8 bytes), IBA -------------
 *  0-7: VA  8-11: R_Key  12-19: swap or add  20-27: compare
 */
static inline u64 mrc_atmeth_va(const u8 *p) { return get_unaligned_be64(p); }
static inline u32 mrc_atmeth_rkey(const u8 *p) { return get_unaligned_be32(p + 8); }
static inline u64 mrc_atmeth_swap_add(const u8 *p) { return get_unaligned_be64(p + 12); }
static inline u64 mrc_atmeth_comp(const u8 *p) { return get_unaligned_be64(p + 20); }
static inline void mrc_atmeth_set(u8 *p, u64 va, u32 rkey, u64 swap_add, u64 comp)
{
	put_unaligned_be64(va, p);
	put_unaligned_be32(rkey, p + 8);
	put_unaligned_be64(swap_add, p + 12);
	put_unaligned_be64(comp, p + 20);
}

static inline u64 mrc_atmack_orig(const u8 *p) { return get_unaligned_be64(p); }
static inline void mrc_atmack_set(u8 *p, u64 orig) { put_unaligned_be64(orig, p); }

/* ---- FETH: FLUSH ETH (4 bytes, IBA 1.5; after the RETH in mrc) ------
 *  0-2: reserved  3: resv:2 selectivity level:2 placement type:4
 * Placement type: IB_FLUSH_GLOBAL | IB_FLUSH_PERSISTENT; level:
 * IB_FLUSH_RANGE (the RETH's range) or IB_FLUSH_MR (the whole MR).
 */
static inline u8 mrc_feth_type(const u8 *p) { return p[3] & 0xf; }
static inline u8 mrc_feth_level(const u8 *p) { return (p[3] >> 4) & 3; }
/* a placement type mrc knows, at least one: IB_FLUSH_GLOBAL, _PERSISTENT */
static inline bool mrc_feth_type_ok(u8 type)
{
	return type && !(type & ~(IB_FLUSH_GLOBAL | IB_FLUSH_PERSISTENT));
}

static inline void mrc_feth_set(u8 *p, u8 type, u8 level)
{
	p[0] = 0;
	p[1] = 0;
	p[2] = 0;
	p[3] = (level & 3) << 4 | (type & 0xf);
}

/* ---- DETH (8 bytes, IBA; UD): 0-3: Q_Key  4: resv  5-7: source QP ---- */
static inline u32 mrc_deth_qkey(const u8 *p) { return get_unaligned_be32(p); }
static inline u32 mrc_deth_sqp(const u8 *p) { return mrc_get24(p + 5); }
static inline void mrc_deth_set(u8 *p, u32 qkey, u32 sqp)
{
	put_unaligned_be32(qkey, p);
	p[4] = 0;
	mrc_put24(p + 5, sqp);
}

/* ---- SETH + CC_STATE: Reliability SACK (28 + 8 bytes, MRC 1.0) --------
 *  0: M:2 PR:1 resv:5   1: port_status[15:8] (mrc)
 *  2-3: ack_psn_offset (s16)
 *  4-7: entropy (the EV of the packet that triggered this SACK)
 *  8-9: spdcid  10-11: dpdcid (zero in mrc)
 *  12: port_status[7:0] (mrc)  13-15: cack_psn
 *  16: cc_type:4 cc_flags:4   17: MPR (units of 128 PSNs)
 *  18-19: sack_offset (s16, from cack_psn)  20-27: sack_bitmap
 * CC_STATE (28..35), mrc's layout (MRC 1.0's is not public):
 *  0-1: echoed transmit timestamp  2-3: service time (us, saturating)
 *  4: restore_window:1 rcv_cwnd_pen:7   5-7: rcvd_bytes (256-byte units)
 * Bitmap bit i (LSB first) = PSN cack_psn + sack_offset + i received.
 * cc_flags MRC_SACK_CCF_SAMPLE: the request that drew this SACK is PSN
 * cack_psn + ack_psn_offset, and the service time is the responder's time
 * from its arrival to this SACK; without it both are zero. rcvd_bytes: the
 * payload bytes the responder took (new PSNs only), modulo 2^32.
 * port_status: the planes up at the SACK's sender (bit k = plane k; plane
 * numbers name fabric planes, the same at both ends); 0 = not reported.
 * MRC's SACKs carry a port-state bitmap; its place is not public, so mrc
 * uses two reserved bytes.
 */
enum mrc_sack_mode {
	MRC_SACK_M_NONE		= 0,
	MRC_SACK_M_SKIP_ONCE	= 1,	/* forward path ECN-marked */
	MRC_SACK_M_ALWAYS_SKIP	= 2,
};

#define MRC_SACK_CCF_SAMPLE	0x1	/* cc_flags: ack_psn_offset, service */

static inline u8 mrc_seth_mode(const u8 *p) { return p[0] >> 6; }
static inline bool mrc_seth_probe_resp(const u8 *p) { return p[0] & 0x20; }
static inline s16 mrc_seth_ack_psn_offset(const u8 *p) { return (s16)get_unaligned_be16(p + 2); }
static inline u32 mrc_seth_entropy(const u8 *p) { return get_unaligned_be32(p + 4); }
static inline u16 mrc_seth_port_status(const u8 *p) { return p[1] << 8 | p[12]; }
static inline u32 mrc_seth_cack_psn(const u8 *p) { return mrc_get24(p + 13); }
static inline u8 mrc_seth_cc_type(const u8 *p) { return p[16] >> 4; }
static inline u8 mrc_seth_cc_flags(const u8 *p) { return p[16] & 0xf; }
static inline u8 mrc_seth_mpr(const u8 *p) { return p[17]; }
static inline s16 mrc_seth_sack_offset(const u8 *p) { return (s16)get_unaligned_be16(p + 18); }
static inline u64 mrc_seth_bitmap(const u8 *p) { return get_unaligned_be64(p + 20); }

static inline u16 mrc_ccstate_ts_echo(const u8 *p) { return get_unaligned_be16(p); }
static inline u16 mrc_ccstate_service(const u8 *p) { return get_unaligned_be16(p + 2); }
static inline bool mrc_ccstate_restore(const u8 *p) { return p[4] & 0x80; }
static inline u8 mrc_ccstate_pen(const u8 *p) { return p[4] & 0x7f; }
static inline u32 mrc_ccstate_rcvd(const u8 *p) { return mrc_get24(p + 5); }

/**
 * struct mrc_sack - SETH + CC_STATE fields, host order
 */
struct mrc_sack {
	u8 mode;		/* enum mrc_sack_mode */
	bool probe_resp;
	s16 ack_psn_offset;
	u32 entropy;
	u16 port_status;	/* planes up at the sender, 0 = not said */
	u32 cack_psn;
	u8 cc_type;
	u8 cc_flags;
	u8 mpr;
	s16 sack_offset;
	u64 bitmap;
	u16 ts_echo;
	u16 service_us;		/* with MRC_SACK_CCF_SAMPLE */
	bool restore_window;
	u8 rcv_cwnd_pen;
	u32 rcvd_bytes;		/* 256-byte units, 24 bits */
};

void mrc_seth_write(u8 *p, const struct mrc_sack *s);
void mrc_seth_read(const u8 *p, struct mrc_sack *s);

/* ---- NETH: Reliability NACK (20 bytes, MRC 1.0) -----------------------
 *  0: resv  1: nack_reason  2: vendor  3: resv  4-7: entropy
 *  8-9: spdcid  10-11: dpdcid  12: resv  13-15: nack_psn
 *  16: cc_type:4 resv:4  17: resv  18-19: echoed transmit timestamp
 */
enum mrc_nack_reason {
	MRC_NACK_TRIMMED		= 0x01,
	MRC_NACK_TRIMMED_LASTHOP	= 0x02,
	MRC_NACK_NO_BITMAP		= 0x06,
	MRC_NACK_NO_PKT_BUFFER		= 0x07,
	MRC_NACK_NO_RESOURCE		= 0x0a,
	MRC_NACK_PSN_OOR_WINDOW		= 0x0b,
	MRC_NACK_UNEXP_EVENT		= 0x19,	/* fatal */
};

static inline u8 mrc_neth_reason(const u8 *p) { return p[1]; }
static inline u32 mrc_neth_entropy(const u8 *p) { return get_unaligned_be32(p + 4); }
static inline u32 mrc_neth_psn(const u8 *p) { return mrc_get24(p + 13); }
static inline u16 mrc_neth_ts_echo(const u8 *p) { return get_unaligned_be16(p + 18); }
static inline void mrc_neth_set(u8 *p, u8 reason, u32 entropy, u32 psn, u16 ts_echo)
{
	memset(p, 0, MRC_NETH_LEN);
	p[1] = reason;
	put_unaligned_be32(entropy, p + 4);
	mrc_put24(p + 13, psn);
	put_unaligned_be16(ts_echo, p + 18);
}

/* ---- PETH: Reliability Probe (16 bytes, MRC 1.0) ----------------------
 *  0: resv  1: vendor  2-3: probe_id  4-5: spdcid  6-7: dpdcid
 *  8-9: transmit timestamp  10: TSR:1 resv:3 ftype:4  11-15: resv
 */
static inline u16 mrc_peth_probe_id(const u8 *p) { return get_unaligned_be16(p + 2); }
static inline u16 mrc_peth_ts(const u8 *p) { return get_unaligned_be16(p + 8); }
static inline void mrc_peth_set(u8 *p, u16 probe_id, u16 ts)
{
	memset(p, 0, MRC_PETH_LEN);
	put_unaligned_be16(probe_id, p + 2);
	put_unaligned_be16(ts, p + 8);
}

/* ---- ERTH / EETH: endpoint request 0xD8 / response 0xD9 (32 bytes each,
 * mrc's layout until MRC's is public) ---------------------------------------
 * Connectionless, not tied to a user QP: BTH dest QP MRC_EP_QPN, PSN 0, no
 * TSETH. They bypass the QP opcode table (mrc_wire_opcode()) and are
 * parsed by mrc_wire_ep_parse().
 * ERTH  0: resv:6 op:2  1: resv  2-3: req_id  4-7: port_status_mask
 *       8-15: cookie (the requester's, random)  16-23: tx timestamp (ns,
 *       the requester's clock)  24-27: EV it was sent on  28-31: resv
 * EETH  0: resv:6 op:2  1: arrival port (the responder's plane)
 *       2-3: req_id  4-7: service time (ns, saturating)  8-15: cookie
 *       16-23: tx timestamp, both echoed  24-27: EV it arrived with
 *       28-29: port status (planes up at the responder)  30-31: resv
 * The response is never larger than the request: no amplification.
 */
#define MRC_OP_EP_REQ		0xd8
#define MRC_OP_EP_RESP		0xd9
#define MRC_EP_QPN		2	/* QPN 1 is the GSI's; QPs start at 16 */

enum mrc_ep_op {
	MRC_EP_OP_PORT_STATUS	= 0,
	MRC_EP_OP_EV_PROBE	= 1,
};

static inline bool mrc_op_is_ep(u8 op)
{
	return op == MRC_OP_EP_REQ || op == MRC_OP_EP_RESP;
}

/**
 * struct mrc_ep_hdr - ERTH or EETH fields, host order
 * @op: enum mrc_ep_op
 * @port: EETH: the responder's plane the request arrived on
 * @req_id: the requester's id, echoed
 * @word: ERTH: port_status_mask; EETH: service time in ns
 * @cookie: the requester's random cookie, echoed
 * @ts: the requester's transmit timestamp (ns), echoed
 * @ev: ERTH: the EV sent on; EETH: the EV the request arrived with
 * @port_status: EETH: planes up at the responder (bit k = plane k)
 */
struct mrc_ep_hdr {
	u8 op;
	u8 port;
	u16 req_id;
	u32 word;
	u64 cookie;
	u64 ts;
	u32 ev;
	u16 port_status;
};

static inline u8 mrc_erth_op(const u8 *p) { return p[0] & 3; }
static inline u16 mrc_erth_req_id(const u8 *p) { return get_unaligned_be16(p + 2); }
static inline u64 mrc_erth_cookie(const u8 *p) { return get_unaligned_be64(p + 8); }
static inline u64 mrc_erth_ts(const u8 *p) { return get_unaligned_be64(p + 16); }

void mrc_erth_write(u8 *p, const struct mrc_ep_hdr *h);
void mrc_erth_read(const u8 *p, struct mrc_ep_hdr *h);
void mrc_eeth_write(u8 *p, const struct mrc_ep_hdr *h);
void mrc_eeth_read(const u8 *p, struct mrc_ep_hdr *h);
int mrc_wire_ep_parse(struct mrc_pkt *pkt, u8 *hdr, u32 len);

#endif /* _MRC_WIRE_H */
