-- SPDX-License-Identifier: GPL-2.0
--
-- mrc.lua: a Wireshark/tshark dissector for what mrc (drivers/mrc) puts
-- on the wire: MRC over RoCEv2 (UDP 4791), the SRv6 paths around it and
-- the entropy value (EV) of each packet.
--
--   tshark -X lua_script:tools/wireshark/mrc.lua -r capture.pcap
--   make -C tools/wireshark install      (then Wireshark loads it by itself)
--
-- What it decodes (Documentation/mrc/wire-format.rst; drivers/mrc/mrc_wire.h
-- and mrc_ep.c are the truth):
--   * the BTH with MRC's flags (AckReq, RTX, TS), every MRC opcode (0xC0 to
--     0xDE, and mrc's UC opcodes 0xE0 to 0xEB) and its extended headers:
--     METH, TSETH, RETH, PLETH, ImmDt, IETH, AETH, AtomicETH, AtomicAckETH,
--     FETH (FLUSH), SETH with mrc's CC_STATE and port status, NETH, PETH,
--     and the endpoint probes 0xD8/0xD9 (ERTH and EETH in mrc's layout);
--     payload, pad and ICRC, which it checks (mrc's ICRC:
--     RoCEv2's without the eight 0xff bytes of the LRH, over the inner IP
--     header of an encapsulated packet)
--   * the EV: UDP source port and the low 16 bits of the flow label as one
--     32-bit value, and for mrc's own EVs (top bits 0b11) the plane, path,
--     salt and index fields of drivers/mrc/mrc_ev.h; the EVs that SACKs,
--     NACKs and endpoint headers carry likewise
--   * the path: an outer IPv6 header in front of the RoCEv2 one (mrc's uSID
--     mode) with its destination split into a uSID container (locator block
--     and uSIDs, 32/16 bits by default, preferences lblen/nflen), or an SRH
--     (srh mode) with its segments in the order they are visited
--   * trimmed packets: cut by a switch (length fields that claim more than
--     arrived), or a failed ICRC under the trim DSCP (preference trim_dscp)
--
-- Why a port registration that hands back what is not MRC: Wireshark's
-- InfiniBand dissector owns UDP port 4791 (RoCEv2), and the UDP dissector
-- asks the port table before any heuristic dissector, so a heuristic alone
-- would never see these packets under the default preferences. This script
-- takes the port-table entry over and keeps the InfiniBand handle it found
-- there: a packet whose BTH opcode has bits 7:5 = 0b110 (0xC0-0xDF, the
-- manufacturer range that mrc's opcodes use), or one of mrc's UC opcodes
-- (0xE0-0xEB, in the other manufacturer range), is MRC and decoded here; any
-- other (RoCEv2 RC, UD and the GSI's MADs, which mrc sends with the
-- standard opcodes, or another vendor's RoCEv2) goes to InfiniBand, as
-- before. The preference udp_port moves the registration; "Decode As" can
-- still give the port to InfiniBand alone.
--
-- Tested with Wireshark 4.0 (Debian 12, Lua 5.2). For later releases (Lua
-- 5.3 and 5.4, perhaps without bit32) it falls back to Lua's own bit
-- operators; that is untested.

-- once: installed as a plugin and given with -X lua_script too, the
-- second copy steps aside
local loaded, mrc = pcall(Proto, "mrc", "MRC (Multipath Reliable Connection, mrc)")
if not loaded then return end

---------------------------------------------------------------------------
-- bit operations: bit32 (Lua 5.2), Wireshark's bit (LuaBitOp), or 5.3's own
local band, bor, bxor, rshift, lshift
if bit32 then
	band, bor, bxor, rshift, lshift = bit32.band, bit32.bor, bit32.bxor,
		bit32.rshift, bit32.lshift
elseif bit then
	-- LuaBitOp returns signed 32-bit results: keep them unsigned
	local function u(f) return function(...) return f(...) % 4294967296 end end
	band, bor, bxor, rshift, lshift = u(bit.band), u(bit.bor), u(bit.bxor),
		u(bit.rshift), u(bit.lshift)
else
	band, bor, bxor, rshift, lshift = load([[return
		function(a, b) return a & b end, function(a, b) return a | b end,
		function(a, b) return a ~ b end, function(a, n) return a >> n end,
		function(a, n) return (a << n) & 0xffffffff end]])()
end

---------------------------------------------------------------------------
-- opcodes (mrc_wire.c's table) and the headers each carries, in wire order
local OP = {
	SEND_FIRST = 0xc0, SEND_MIDDLE = 0xc1, SEND_LAST = 0xc2,
	SEND_LAST_IMM = 0xc3, SEND_ONLY = 0xc4, SEND_ONLY_IMM = 0xc5,
	WRITE_FIRST = 0xc6, WRITE_MIDDLE = 0xc7, WRITE_LAST = 0xc8,
	WRITE_LAST_IMM = 0xc9, WRITE_ONLY = 0xca, WRITE_ONLY_IMM = 0xcb,
	READ_REQ = 0xcc, READ_RESP_FIRST = 0xcd, READ_RESP_MIDDLE = 0xce,
	READ_RESP_LAST = 0xcf, READ_RESP_ONLY = 0xd0, ACK = 0xd1,
	ATOMIC_ACK = 0xd2, CMP_SWAP = 0xd3, FETCH_ADD = 0xd4,
	SEND_LAST_INV = 0xd6, SEND_ONLY_INV = 0xd7, EP_REQUEST = 0xd8,
	EP_RESPONSE = 0xd9, FLUSH = 0xda, ATOMIC_WRITE = 0xdb, SACK = 0xdc,
	NACK = 0xdd, PROBE = 0xde,
}
local op_names = {}
for k, v in pairs(OP) do op_names[v] = k end
-- UC (an mrc extension): the SEND and WRITE opcodes' low five bits and
-- headers under the prefix 0b111; never acknowledged
local UC_FIRST, UC_LAST = 0xe0, 0xeb
for op = UC_FIRST, UC_LAST do op_names[op] = "UC_" .. op_names[op - 0x20] end

-- h: the extended headers after the BTH; pay: carries a payload;
-- req: a request (has a PSN of the requester's)
local function opi(h, pay, req) return { h = h, pay = pay, req = req } end
local SEND, WRITE = { "meth", "pleth" }, { "meth", "reth" }
local ops = {
	[0xc0] = opi(SEND, true, true), [0xc1] = opi(SEND, true, true),
	[0xc2] = opi(SEND, true, true),
	[0xc3] = opi({ "meth", "pleth", "immdt" }, true, true),
	[0xc4] = opi(SEND, true, true),
	[0xc5] = opi({ "meth", "pleth", "immdt" }, true, true),
	[0xc6] = opi(WRITE, true, true), [0xc7] = opi(WRITE, true, true),
	[0xc8] = opi(WRITE, true, true),
	[0xc9] = opi({ "meth", "reth", "immdt" }, true, true),
	[0xca] = opi(WRITE, true, true),
	[0xcb] = opi({ "meth", "reth", "immdt" }, true, true),
	[0xcc] = opi({ "meth", "reth" }, false, true),
	[0xcd] = opi({ "meth", "pleth" }, true), [0xce] = opi({ "meth", "pleth" }, true),
	[0xcf] = opi({ "meth", "pleth" }, true), [0xd0] = opi({ "meth", "pleth" }, true),
	[0xd1] = opi({ "aeth" }), [0xd2] = opi({ "aeth", "atmack" }),
	[0xd3] = opi({ "meth", "atmeth" }, false, true),
	[0xd4] = opi({ "meth", "atmeth" }, false, true),
	[0xd6] = opi({ "meth", "pleth", "ieth" }, true, true),
	[0xd7] = opi({ "meth", "pleth", "ieth" }, true, true),
	[0xda] = opi({ "meth", "reth", "feth" }, false, true),
	[0xdb] = opi(WRITE, true, true),
	[0xdc] = opi({ "seth" }), [0xdd] = opi({ "neth" }), [0xde] = opi({ "peth" }),
}
for op = UC_FIRST, UC_LAST do ops[op] = ops[op - 0x20] end
local hdr_len = { meth = 4, reth = 16, pleth = 8, immdt = 4, ieth = 4, aeth = 4,
	atmeth = 28, atmack = 8, seth = 36, neth = 20, peth = 16, feth = 4 }
local BTH_LEN, TSETH_LEN, EP_LEN, ICRC_LEN, EP_QPN = 12, 4, 32, 4, 2

local aeth_names = { [0x00] = "ACK", [0x60] = "NAK: PSN sequence error",
	[0x61] = "NAK: invalid request", [0x62] = "NAK: remote access error",
	[0x63] = "NAK: remote operational error", [0x64] = "NAK: invalid RD request" }
local nack_names = { [0x01] = "TRIMMED", [0x02] = "TRIMMED_LASTHOP",
	[0x06] = "NO_BITMAP", [0x07] = "NO_PKT_BUFFER", [0x0a] = "NO_RESOURCE",
	[0x0b] = "PSN_OOR_WINDOW", [0x19] = "UNEXP_EVENT" }
local sack_modes = { [0] = "none", [1] = "SKIP_ONCE (forward ECN mark)",
	[2] = "ALWAYS_SKIP", [3] = "reserved" }
local ep_ops = { [0] = "port status update", [1] = "EV probe", [2] = "reserved",
	[3] = "reserved" }

---------------------------------------------------------------------------
-- preferences
mrc.prefs.udp_port = Pref.uint("UDP port", 4791, "The UDP port of MRC (RoCEv2's)")
mrc.prefs.verify_icrc = Pref.bool("Verify the ICRC", true,
	"Compute each packet's ICRC as mrc does and compare")
mrc.prefs.ev_layout = Pref.bool("Decode mrc's EV layout", true,
	"Split EVs with 0b11 in bits 31:30 into plane, path, salt and index (mrc_ev.h)")
mrc.prefs.lblen = Pref.uint("uSID locator block length (bits)", 32,
	"Of the uSID container in the outer IPv6 destination (a multiple of 8)")
mrc.prefs.nflen = Pref.uint("uSID length (bits)", 16, "8, 16, 24 or 32")
mrc.prefs.trim_dscp = Pref.uint("Trim DSCP", 46,
	"A packet that fails its ICRC under this outer DSCP was trimmed (mrcctl dev set trim_dscp)")
mrc.prefs.trim_lasthop_dscp = Pref.uint("Last-hop trim DSCP (64: none)", 64,
	"mrcctl dev set trim_lasthop_dscp")

---------------------------------------------------------------------------
-- fields
local F = {}
local function fld(key, f) F[key] = f end
local yn = { [0] = "no", [1] = "yes" }
-- the packet, its path and its EV
fld("encap", ProtoField.string("mrc.encap", "Encapsulation"))
fld("outer_src", ProtoField.ipv6("mrc.outer.src", "Outer source"))
fld("outer_dst", ProtoField.ipv6("mrc.outer.dst", "Outer destination"))
fld("outer_flow", ProtoField.uint32("mrc.outer.flow", "Outer flow label", base.HEX))
fld("outer_dscp", ProtoField.uint8("mrc.outer.dscp", "Outer DSCP"))
fld("outer_ce", ProtoField.bool("mrc.outer.ce", "Outer ECN CE"))
fld("usid_cont", ProtoField.ipv6("mrc.usid.container", "uSID container"))
fld("usid_block", ProtoField.string("mrc.usid.block", "Locator block"))
fld("usid", ProtoField.uint32("mrc.usid.usid", "uSID", base.HEX))
fld("usid_active", ProtoField.uint32("mrc.usid.active", "Active uSID", base.HEX))
fld("usid_last", ProtoField.uint32("mrc.usid.last", "Last uSID (the destination host)", base.HEX))
fld("usid_count", ProtoField.uint8("mrc.usid.count", "uSIDs left"))
fld("usid_list", ProtoField.string("mrc.usid.list", "uSIDs"))
fld("srh_segleft", ProtoField.uint8("mrc.srh.segleft", "Segments left"))
fld("srh_seg", ProtoField.ipv6("mrc.srh.segment", "Segment"))
fld("srh_active", ProtoField.ipv6("mrc.srh.active", "Active segment"))
fld("srh_count", ProtoField.uint8("mrc.srh.count", "Segments"))
fld("ev", ProtoField.uint32("mrc.ev", "EV", base.HEX))
fld("ev_sport", ProtoField.uint16("mrc.ev.sport", "UDP source port (EV 31:16)", base.HEX))
fld("ev_flow", ProtoField.uint16("mrc.ev.flow", "Flow label (EV 15:0)", base.HEX))
fld("ev_plane", ProtoField.uint8("mrc.ev.plane", "Plane (EV 29:26)"))
fld("ev_path", ProtoField.uint8("mrc.ev.path", "Path (EV 25:18)"))
fld("ev_salt", ProtoField.uint16("mrc.ev.salt", "Random (EV 17:8)", base.HEX))
fld("ev_index", ProtoField.uint8("mrc.ev.index", "Index in the EV set (EV 7:0)"))
fld("evl_plane", ProtoField.uint8("mrc.evl.plane", "Plane (EV 29:26)"))
fld("evl_path", ProtoField.uint8("mrc.evl.path", "Path (EV 25:18)"))
fld("evl_salt", ProtoField.uint16("mrc.evl.salt", "Random (EV 17:8)", base.HEX))
fld("evl_index", ProtoField.uint8("mrc.evl.index", "Index in the EV set (EV 7:0)"))
-- BTH
fld("opcode", ProtoField.uint8("mrc.opcode", "Opcode", base.HEX, op_names))
fld("opname", ProtoField.string("mrc.opname", "Opcode name"))
fld("se", ProtoField.bool("mrc.bth.se", "Solicited event", 8, nil, 0x80))
fld("mig", ProtoField.bool("mrc.bth.m", "MigReq", 8, nil, 0x40))
fld("pad", ProtoField.uint8("mrc.bth.pad", "Pad count", base.DEC, nil, 0x30))
fld("tver", ProtoField.uint8("mrc.bth.tver", "Transport version", base.DEC, nil, 0x0f))
fld("pkey", ProtoField.uint16("mrc.bth.pkey", "P_Key", base.HEX))
fld("fecn", ProtoField.bool("mrc.bth.fecn", "FECN", 8, nil, 0x80))
fld("becn", ProtoField.bool("mrc.bth.becn", "BECN", 8, nil, 0x40))
fld("dqpn", ProtoField.uint24("mrc.bth.dqpn", "Destination QP", base.DEC_HEX))
fld("ackreq", ProtoField.bool("mrc.bth.ackreq", "AckReq", 8, nil, 0x80))
fld("rtx", ProtoField.bool("mrc.bth.rtx", "RTX (retransmission)", 8, nil, 0x40))
fld("ts", ProtoField.bool("mrc.bth.ts", "TS (TSETH present)", 8, nil, 0x20))
fld("resv8", ProtoField.uint8("mrc.bth.resv8", "Reserved", base.HEX, nil, 0x1f))
fld("psn", ProtoField.uint24("mrc.bth.psn", "PSN"))
-- METH, TSETH, RETH, PLETH, ImmDt, IETH
fld("rqmsn", ProtoField.uint16("mrc.meth.rqmsn", "RQMSN"))
fld("msn", ProtoField.uint16("mrc.meth.msn", "MSN"))
fld("tseth_ts", ProtoField.uint16("mrc.tseth.ts", "Transmit timestamp (1.024 us)"))
fld("tseth_tsr", ProtoField.bool("mrc.tseth.tsr", "TSR", 8, nil, 0x80))
fld("tseth_ftype", ProtoField.uint8("mrc.tseth.ftype", "Format type", base.DEC, nil, 0x0f))
fld("va", ProtoField.uint64("mrc.reth.va", "Virtual address (this packet's payload)", base.HEX))
fld("rkey", ProtoField.uint32("mrc.reth.rkey", "R_Key", base.HEX))
fld("dmalen", ProtoField.uint32("mrc.reth.len", "DMA length (the whole message)"))
fld("pl_off", ProtoField.uint32("mrc.pleth.offset", "Offset in the message"))
fld("pl_len", ProtoField.uint32("mrc.pleth.len", "Message length"))
fld("immdt", ProtoField.uint32("mrc.immdt", "Immediate data", base.HEX))
fld("ieth", ProtoField.uint32("mrc.ieth.rkey", "R_Key to invalidate", base.HEX))
-- AETH, atomics
fld("syndrome", ProtoField.uint8("mrc.aeth.syndrome", "Syndrome", base.HEX, aeth_names))
fld("aeth_msn", ProtoField.uint24("mrc.aeth.msn", "MSN"))
fld("atm_va", ProtoField.uint64("mrc.atmeth.va", "Virtual address", base.HEX))
fld("atm_rkey", ProtoField.uint32("mrc.atmeth.rkey", "R_Key", base.HEX))
fld("atm_swap", ProtoField.uint64("mrc.atmeth.swap_add", "Swap or add", base.HEX))
fld("atm_cmp", ProtoField.uint64("mrc.atmeth.compare", "Compare", base.HEX))
fld("atm_orig", ProtoField.uint64("mrc.atmack.orig", "Original value", base.HEX))
-- FETH (FLUSH)
local flush_levels = { [0] = "range", [1] = "memory region", [2] = "reserved",
	[3] = "reserved" }
fld("f_level", ProtoField.uint8("mrc.feth.level", "Selectivity level", base.DEC,
	flush_levels, 0x30))
fld("f_type", ProtoField.uint8("mrc.feth.type", "Placement type (1 global, 2 persistent)",
	base.HEX, nil, 0x0f))
-- SETH + CC_STATE
fld("s_mode", ProtoField.uint8("mrc.seth.mode", "M", base.DEC, sack_modes, 0xc0))
fld("s_pr", ProtoField.bool("mrc.seth.pr", "PR (answers a probe)", 8, nil, 0x20))
fld("s_ports", ProtoField.uint16("mrc.seth.port_status", "Port status (planes up at the sender)", base.HEX))
fld("s_apo", ProtoField.int16("mrc.seth.ack_psn_offset", "ack_psn_offset"))
fld("s_ent", ProtoField.uint32("mrc.seth.entropy", "Entropy (EV of the packet that drew it)", base.HEX))
fld("s_spd", ProtoField.uint16("mrc.seth.spdcid", "spdcid", base.HEX))
fld("s_dpd", ProtoField.uint16("mrc.seth.dpdcid", "dpdcid", base.HEX))
fld("s_cack", ProtoField.uint24("mrc.seth.cack_psn", "Cumulative ack PSN"))
fld("s_cct", ProtoField.uint8("mrc.seth.cc_type", "cc_type", base.DEC, nil, 0xf0))
fld("s_ccf", ProtoField.uint8("mrc.seth.cc_flags", "cc_flags", base.HEX, nil, 0x0f))
fld("s_mpr", ProtoField.uint8("mrc.seth.mpr", "MPR (128 PSNs)"))
fld("s_soff", ProtoField.int16("mrc.seth.sack_offset", "sack_offset"))
fld("s_bmp", ProtoField.uint64("mrc.seth.bitmap", "SACK bitmap", base.HEX))
fld("s_base", ProtoField.uint24("mrc.seth.bitmap_psn", "Bitmap bit 0 PSN"))
fld("s_rcvd", ProtoField.uint8("mrc.seth.bitmap_received", "PSNs marked received"))
fld("s_miss", ProtoField.string("mrc.seth.bitmap_missing", "Missing PSNs before the last received"))
fld("s_sampled", ProtoField.uint24("mrc.seth.sample_psn", "Sampled request PSN"))
fld("c_tse", ProtoField.uint16("mrc.ccstate.ts_echo", "Echoed timestamp"))
fld("c_svc", ProtoField.uint16("mrc.ccstate.service_us", "Service time (us)"))
fld("c_rst", ProtoField.bool("mrc.ccstate.restore_window", "restore_window", 8, nil, 0x80))
fld("c_pen", ProtoField.uint8("mrc.ccstate.rcv_cwnd_pen", "rcv_cwnd_pen", base.DEC, nil, 0x7f))
fld("c_rcvd", ProtoField.uint24("mrc.ccstate.rcvd", "Received bytes (256-byte units)"))
-- NETH
fld("n_reason", ProtoField.uint8("mrc.neth.reason", "Reason", base.HEX, nack_names))
fld("n_vendor", ProtoField.uint8("mrc.neth.vendor", "Vendor", base.HEX))
fld("n_ent", ProtoField.uint32("mrc.neth.entropy", "Entropy (EV of the NACKed packet)", base.HEX))
fld("n_spd", ProtoField.uint16("mrc.neth.spdcid", "spdcid", base.HEX))
fld("n_dpd", ProtoField.uint16("mrc.neth.dpdcid", "dpdcid", base.HEX))
fld("n_psn", ProtoField.uint24("mrc.neth.psn", "NACKed PSN"))
fld("n_cct", ProtoField.uint8("mrc.neth.cc_type", "cc_type", base.DEC, nil, 0xf0))
fld("n_tse", ProtoField.uint16("mrc.neth.ts_echo", "Echoed timestamp"))
-- PETH
fld("p_vendor", ProtoField.uint8("mrc.peth.vendor", "Vendor", base.HEX))
fld("p_id", ProtoField.uint16("mrc.peth.probe_id", "Probe id"))
fld("p_spd", ProtoField.uint16("mrc.peth.spdcid", "spdcid", base.HEX))
fld("p_dpd", ProtoField.uint16("mrc.peth.dpdcid", "dpdcid", base.HEX))
fld("p_ts", ProtoField.uint16("mrc.peth.ts", "Transmit timestamp"))
fld("p_tsr", ProtoField.bool("mrc.peth.tsr", "TSR", 8, nil, 0x80))
fld("p_ftype", ProtoField.uint8("mrc.peth.ftype", "Format type", base.DEC, nil, 0x0f))
-- ERTH / EETH (mrc's layout)
fld("ep_op", ProtoField.uint8("mrc.ep.op", "Operation", base.DEC, ep_ops, 0x03))
fld("ep_port", ProtoField.uint8("mrc.ep.port", "Arrival port (the responder's plane)"))
fld("ep_req", ProtoField.uint16("mrc.ep.req_id", "Request id"))
fld("ep_mask", ProtoField.uint32("mrc.ep.port_status_mask", "Port status mask", base.HEX))
fld("ep_svc", ProtoField.uint32("mrc.ep.service_ns", "Service time (ns)"))
fld("ep_cookie", ProtoField.uint64("mrc.ep.cookie", "Cookie", base.HEX))
fld("ep_slot", ProtoField.uint8("mrc.ep.slot", "Requester's probe slot (cookie 7:0)"))
fld("ep_ts", ProtoField.uint64("mrc.ep.ts", "Transmit timestamp (ns, requester's clock)"))
fld("ep_ev", ProtoField.uint32("mrc.ep.ev", "EV", base.HEX))
fld("ep_ports", ProtoField.uint16("mrc.ep.port_status", "Port status (planes up at the responder)", base.HEX))
-- payload, ICRC, trimming
fld("payload", ProtoField.bytes("mrc.payload", "Payload"))
fld("paylen", ProtoField.uint32("mrc.payload_len", "Payload length"))
fld("padding", ProtoField.bytes("mrc.padding", "Pad"))
fld("icrc", ProtoField.uint32("mrc.icrc", "ICRC", base.HEX))
fld("icrc_calc", ProtoField.uint32("mrc.icrc.computed", "Computed ICRC", base.HEX))
fld("icrc_status", ProtoField.string("mrc.icrc.status", "ICRC status"))
fld("trimmed", ProtoField.string("mrc.trimmed", "Trimmed"))
mrc.fields = {}
for _, f in pairs(F) do mrc.fields[#mrc.fields + 1] = f end

local E = {
	malformed = ProtoExpert.new("mrc.malformed", "Malformed MRC packet",
		expert.group.MALFORMED, expert.severity.ERROR),
	unknown = ProtoExpert.new("mrc.unknown_opcode", "Opcode mrc does not speak",
		expert.group.UNDECODED, expert.severity.WARN),
	icrc = ProtoExpert.new("mrc.icrc.bad", "ICRC mismatch",
		expert.group.CHECKSUM, expert.severity.ERROR),
	trimmed = ProtoExpert.new("mrc.trimmed.note", "Trimmed by a switch",
		expert.group.SEQUENCE, expert.severity.NOTE),
	rtx = ProtoExpert.new("mrc.rtx.note", "Retransmission",
		expert.group.SEQUENCE, expert.severity.NOTE),
	nack = ProtoExpert.new("mrc.nack.note", "Reliability NACK",
		expert.group.SEQUENCE, expert.severity.NOTE),
	pkey = ProtoExpert.new("mrc.pkey", "Not the default P_Key: mrc drops it",
		expert.group.PROTOCOL, expert.severity.WARN),
}
mrc.experts = {}
for _, e in pairs(E) do mrc.experts[#mrc.experts + 1] = e end

---------------------------------------------------------------------------
-- fields of the layers below, read through field extractors
local X = {
	ip6_ver = Field.new("ipv6.version"), ip6_src = Field.new("ipv6.src"),
	ip6_dst = Field.new("ipv6.dst"), ip6_nxt = Field.new("ipv6.nxt"),
	ip6_flow = Field.new("ipv6.flow"), ip6_tc = Field.new("ipv6.tclass"),
	ip4_ver = Field.new("ip.version"), ip4_hl = Field.new("ip.hdr_len"),
	ip4_ds = Field.new("ip.dsfield"),
	rt_type = Field.new("ipv6.routing.type"), rt_nxt = Field.new("ipv6.routing.nxt"),
	rt_left = Field.new("ipv6.routing.segleft"), srh_addr = Field.new("ipv6.routing.srh.addr"),
	udp_len = Field.new("udp.length"),
}
local function all(f) return { f() } end
local function last(f) local t = { f() } return t[#t], t end

---------------------------------------------------------------------------
-- helpers

-- RFC 5952 text of 16 bytes (a Lua string)
local function ip6_text(s)
	local g = {}
	for i = 1, 16, 2 do g[#g + 1] = s:byte(i) * 256 + s:byte(i + 1) end
	local bs, bl, cs, cl = 0, 0, 0, 0
	for i = 1, 8 do
		if g[i] == 0 then
			if cl == 0 then cs = i end
			cl = cl + 1
			if cl > bl then bs, bl = cs, cl end
		else
			cl = 0
		end
	end
	local out = {}
	local i = 1
	while i <= 8 do
		if bl >= 2 and i == bs then
			out[#out + 1] = (i == 1) and ":" or ""
			i = i + bl
			if i > 8 then out[#out + 1] = "" end
		else
			out[#out + 1] = string.format("%x", g[i])
			i = i + 1
		end
	end
	return table.concat(out, ":")
end

local crc_table = {}
for i = 0, 255 do
	local c = i
	for _ = 1, 8 do
		if band(c, 1) == 1 then c = bxor(rshift(c, 1), 0xedb88320)
		else c = rshift(c, 1) end
	end
	crc_table[i] = c
end

-- zlib's crc32, continued from crc over the bytes of string s
local function crc32(crc, s)
	local byte = string.byte
	for i = 1, #s, 4096 do
		local chunk = { byte(s, i, math.min(i + 4095, #s)) }
		for j = 1, #chunk do
			crc = bxor(crc_table[band(bxor(crc, chunk[j]), 0xff)], rshift(crc, 8))
		end
	end
	return crc
end

local function u32(r) return r:uint() end
local function hex32(v) return string.format("0x%08x", v) end

-- add mrc's EV layout under item for ev (prefix "ev" or "evl")
local function ev_layout(item, range, ev, p)
	if not mrc.prefs.ev_layout or rshift(ev, 30) ~= 3 then return nil end
	local plane, path = band(rshift(ev, 26), 0xf), band(rshift(ev, 18), 0xff)
	local idx = band(ev, 0xff)
	item:add(F[p .. "_plane"], range, plane):set_generated()
	item:add(F[p .. "_path"], range, path):set_generated()
	item:add(F[p .. "_salt"], range, band(rshift(ev, 8), 0x3ff)):set_generated()
	item:add(F[p .. "_index"], range, idx):set_generated()
	item:append_text(string.format(" (plane %d, path %d, EV %d)", plane, path, idx))
	return plane, path, idx
end

-- the EV carried in a 4-byte field of a header
local function ev_field(tree, field, range)
	local item = tree:add(field, range)
	ev_layout(item, range, u32(range), "evl")
	return u32(range)
end

---------------------------------------------------------------------------
-- the path: outer IPv6 (uSID container), SRH; returns a short text

local function usid_split(tree, fi, dst)
	local lb, nf = mrc.prefs.lblen, mrc.prefs.nflen
	if lb % 8 ~= 0 or nf % 8 ~= 0 or nf == 0 or nf > 32 or lb + nf > 128 then
		return nil
	end
	local lbb, nfb = lb / 8, nf / 8
	local block = dst:sub(1, lbb) .. string.rep("\0", 16 - lbb)
	local t = tree:add(F.usid_cont, fi.range)
	t:add(F.usid_block, fi.range(0, lbb), ip6_text(block) .. "/" .. lb)
	local list, first, lastu = {}, nil, nil
	for off = lbb, 16 - nfb, nfb do
		local v = 0
		for k = 1, nfb do v = v * 256 + dst:byte(off + k) end
		if v == 0 then break end
		t:add(F.usid, fi.range(off, nfb), v):set_text(string.format("uSID %d: %x%s",
			#list + 1, v, #list == 0 and " (active)" or ""))
		list[#list + 1] = string.format("%x", v)
		first = first or v
		lastu = v
	end
	if first then
		t:add(F.usid_active, fi.range(lbb, nfb), first):set_generated()
		t:add(F.usid_last, fi.range, lastu):set_generated()
	end
	t:add(F.usid_count, fi.range, #list):set_generated()
	t:add(F.usid_list, fi.range, table.concat(list, " ")):set_generated()
	t:append_text(" (block " .. ip6_text(block) .. "/" .. lb .. ", uSIDs " ..
		(#list > 0 and table.concat(list, " ") or "none") .. ")")
	return "uSID " .. table.concat(list, " ")
end

-- the SRH in front of the inner header: segments in the order visited
local function srh_tree(tree)
	local types, lefts, addrs = all(X.rt_type), all(X.rt_left), all(X.srh_addr)
	local left
	for i, t in ipairs(types) do
		if t.value == 4 then left = lefts[i] end
	end
	if not left or #addrs == 0 then return nil end
	local n = #addrs
	local t = tree:add(F.srh_count, left.range, n)
	t:set_text(string.format("SRH: %d segments, %d left", n, left.value))
	t:add(F.srh_segleft, left.range)
	local segs = {}
	for i = n, 1, -1 do
		t:add(F.srh_seg, addrs[i].range)
		segs[#segs + 1] = tostring(addrs[i].value)
	end
	local act = addrs[left.value + 1]
	if act then t:add(F.srh_active, act.range):set_generated() end
	return "SRH " .. table.concat(segs, ",") .. " left " .. left.value
end

-- the header in front of UDP, and any outer IPv6 header before it
local function path_tree(tree, pinfo)
	local info = {}
	local ip6v, ip6vs = last(X.ip6_ver)
	local ip4v = last(X.ip4_ver)
	-- which of IPv4 and IPv6 is nearer to UDP: the one with the larger offset
	if ip4v and (not ip6v or ip4v.offset > ip6v.offset) then
		local ds = last(X.ip4_ds)
		info.v4, info.hdr, info.dscp = true, ip4v, ds and rshift(ds.value, 2)
		info.flow = 0
		tree:add(F.encap, ds and ds.range or ip4v.range, "none (RoCEv2 over IPv4)")
		return info
	end
	if not ip6v then return info end
	local flows, tcs, dsts, srcs, nxts = all(X.ip6_flow), all(X.ip6_tc), all(X.ip6_dst),
		all(X.ip6_src), all(X.ip6_nxt)
	local n = #ip6vs
	info.hdr, info.flow = ip6v, flows[n] and flows[n].value or 0
	info.dscp = tcs[n] and rshift(tcs[n].value, 2)
	-- mrc's encapsulations: an outer IPv6 header right in front of the
	-- inner one (next header 41), or with an SRH between them
	local o, mode = n - 1, nil
	if n >= 2 and nxts[o] and ip6vs[o].source == ip6v.source then
		local gap = ip6v.offset - ip6vs[o].offset
		if nxts[o].value == 41 and gap == 40 then
			mode = "usid"
		elseif nxts[o].value == 43 and gap == 48 + 16 * #all(X.srh_addr) then
			mode = "srh"
		end
	end
	if not mode then
		tree:add(F.encap, ip6v.range, "none (RoCEv2 over IPv6: a udp path, or no path set)")
		return info
	end
	local t = tree:add(F.encap, ip6vs[o].range, mode)
	t:set_text("Path: " .. (mode == "usid" and "SRv6 uSID (outer IPv6, next header 41)" or
		"SRv6 SRH (outer IPv6, routing header type 4)"))
	t:add(F.outer_src, srcs[o].range)
	t:add(F.outer_dst, dsts[o].range)
	t:add(F.outer_flow, flows[o].range, flows[o].value)
	local otc = tcs[o].value
	t:add(F.outer_dscp, tcs[o].range, rshift(otc, 2))
	t:add(F.outer_ce, tcs[o].range, band(otc, 3) == 3)
	info.dscp, info.ce, info.outer_flow = rshift(otc, 2), band(otc, 3) == 3, flows[o].value
	local dst = dsts[o].range:bytes():raw()
	if mode == "usid" then
		info.path = usid_split(t, dsts[o], dst)
	elseif mode == "srh" then
		info.path = srh_tree(t)
	end
	return info
end

-- mrc's ICRC of the packet whose transport part (BTH to ICRC) is tvb
local function icrc_compute(info, tvb, tlen)
	local h = info.hdr
	if not h then return nil end
	local src = h.source
	local hl = info.v4 and 20 or 40
	if info.v4 then
		local ihl = last(X.ip4_hl)
		if not ihl or ihl.value ~= 20 then return nil end
	end
	-- the IP and UDP headers must be right in front of this tvb
	if h.offset + hl + 8 ~= tvb:offset() then return nil end
	local ip = src:range(h.offset, hl):bytes():raw()
	if info.v4 then
		-- TOS, TTL and header checksum as ones
		ip = ip:sub(1, 1) .. "\255" .. ip:sub(3, 8) .. "\255" .. ip:sub(10, 10) ..
			"\255\255" .. ip:sub(13)
	else
		-- version kept; traffic class, flow label and hop limit as ones
		ip = string.char(bor(band(ip:byte(1), 0xf0), 0x0f)) .. "\255\255\255" ..
			ip:sub(5, 7) .. "\255" .. ip:sub(9)
	end
	local udp = src:range(h.offset + hl, 6):bytes():raw() .. "\255\255"
	local bth = tvb:raw(0, BTH_LEN)
	bth = bth:sub(1, 4) .. "\255" .. bth:sub(6)
	local crc = crc32(0xffffffff, ip .. udp .. bth)
	crc = crc32(crc, tvb:raw(BTH_LEN, tlen - BTH_LEN))
	return bxor(crc, 0xffffffff)
end

---------------------------------------------------------------------------
-- the extended headers

local H = {}
function H.meth(t, r)
	local s = t:add(mrc, r, "METH")
	s:add(F.rqmsn, r(0, 2))
	s:add(F.msn, r(2, 2))
	return string.format(" MSN=%d", r(2, 2):uint())
end
function H.tseth(t, r)
	local s = t:add(mrc, r, "TSETH")
	s:add(F.tseth_ts, r(0, 2))
	s:add(F.tseth_tsr, r(2, 1))
	s:add(F.tseth_ftype, r(2, 1))
end
function H.reth(t, r)
	local s = t:add(mrc, r, "RETH")
	s:add(F.va, r(0, 8))
	s:add(F.rkey, r(8, 4))
	s:add(F.dmalen, r(12, 4))
	return string.format(" va=0x%s len=%d", r(0, 8):uint64():tohex():gsub("^0+(.)", "%1"),
		r(12, 4):uint())
end
function H.pleth(t, r)
	local s = t:add(mrc, r, "PLETH")
	s:add(F.pl_off, r(0, 4))
	s:add(F.pl_len, r(4, 4))
	return string.format(" off=%d len=%d", r(0, 4):uint(), r(4, 4):uint())
end
function H.immdt(t, r) t:add(F.immdt, r) end
function H.ieth(t, r) t:add(F.ieth, r) end
function H.aeth(t, r)
	local s = t:add(mrc, r, "AETH")
	s:add(F.syndrome, r(0, 1))
	s:add(F.aeth_msn, r(1, 3))
	local syn = r(0, 1):uint()
	if syn == 0 then return string.format(" MSN=%d", r(1, 3):uint()) end
	if band(syn, 0xe0) == 0x20 then return " RNR NAK" end
	return " " .. (aeth_names[syn] or string.format("syndrome 0x%02x", syn))
end
function H.atmeth(t, r)
	local s = t:add(mrc, r, "AtomicETH")
	s:add(F.atm_va, r(0, 8))
	s:add(F.atm_rkey, r(8, 4))
	s:add(F.atm_swap, r(12, 8))
	s:add(F.atm_cmp, r(20, 8))
end
function H.feth(t, r)
	local s = t:add(mrc, r, "FETH")
	s:add(F.f_level, r(3, 1))
	s:add(F.f_type, r(3, 1))
	return string.format(" flush type=%d level=%s", band(r(3, 1):uint(), 0x0f),
		flush_levels[band(r(3, 1):uint(), 0x30) / 16])
end
function H.atmack(t, r)
	t:add(mrc, r, "AtomicAckETH"):add(F.atm_orig, r(0, 8))
end
function H.seth(t, r)
	local s = t:add(mrc, r(0, 28), "SETH")
	s:add(F.s_mode, r(0, 1))
	s:add(F.s_pr, r(0, 1))
	local ports = r(1, 1):uint() * 256 + r(12, 1):uint()
	s:add(F.s_ports, r(1, 1), ports):append_text(" (bytes 1 and 12)")
	s:add(F.s_apo, r(2, 2))
	ev_field(s, F.s_ent, r(4, 4))
	s:add(F.s_spd, r(8, 2))
	s:add(F.s_dpd, r(10, 2))
	s:add(F.s_cack, r(13, 3))
	s:add(F.s_cct, r(16, 1))
	local ccf = band(r(16, 1):uint(), 0xf)
	s:add(F.s_ccf, r(16, 1)):append_text(band(ccf, 1) == 1 and " (SAMPLE)" or "")
	s:add(F.s_mpr, r(17, 1)):append_text(string.format(" (%d PSNs)", r(17, 1):uint() * 128))
	s:add(F.s_soff, r(18, 2))
	local cack, soff = r(13, 3):uint(), r(18, 2):int()
	local base = (cack + soff) % 16777216
	local bm = s:add(F.s_bmp, r(20, 8))
	bm:add(F.s_base, r(18, 2), base):set_generated()
	-- bit i (LSB first) is PSN base + i
	local hi, lo = r(20, 4):uint(), r(24, 4):uint()
	local got, top, miss = 0, -1, {}
	for i = 0, 63 do
		local w = i < 32 and lo or hi
		if band(rshift(w, i % 32), 1) == 1 then got, top = got + 1, i end
	end
	for i = 0, top - 1 do
		local w = i < 32 and lo or hi
		if band(rshift(w, i % 32), 1) == 0 then miss[#miss + 1] = tostring((base + i) % 16777216) end
	end
	bm:add(F.s_rcvd, r(20, 8), got):set_generated()
	bm:add(F.s_miss, r(20, 8), table.concat(miss, " ")):set_generated()
	if band(ccf, 1) == 1 then
		s:add(F.s_sampled, r(2, 2), (cack + r(2, 2):int()) % 16777216):set_generated()
	end
	local c = t:add(mrc, r(28, 8), "CC_STATE (mrc's layout)")
	c:add(F.c_tse, r(28, 2))
	c:add(F.c_svc, r(30, 2))
	c:add(F.c_rst, r(32, 1))
	c:add(F.c_pen, r(32, 1))
	c:add(F.c_rcvd, r(33, 3))
	local txt = string.format(" cack=%d", cack)
	if hi ~= 0 or lo ~= 0 then
		txt = txt .. string.format(" bitmap@%d=0x%08x%08x", base, hi, lo)
	end
	if r(0, 1):uint() >= 0x40 then txt = txt .. " " .. sack_modes[rshift(r(0, 1):uint(), 6)] end
	return txt .. string.format(" ports=0x%x", ports)
end
function H.neth(t, r)
	local s = t:add(mrc, r, "NETH")
	s:add(F.n_reason, r(1, 1))
	s:add(F.n_vendor, r(2, 1))
	ev_field(s, F.n_ent, r(4, 4))
	s:add(F.n_spd, r(8, 2))
	s:add(F.n_dpd, r(10, 2))
	s:add(F.n_psn, r(13, 3))
	s:add(F.n_cct, r(16, 1))
	s:add(F.n_tse, r(18, 2))
	local why = nack_names[r(1, 1):uint()] or string.format("reason 0x%02x", r(1, 1):uint())
	s:add_proto_expert_info(E.nack, "NACK " .. why .. " of PSN " .. r(13, 3):uint())
	return string.format(" %s psn=%d", why, r(13, 3):uint())
end
function H.peth(t, r)
	local s = t:add(mrc, r, "PETH")
	s:add(F.p_vendor, r(1, 1))
	s:add(F.p_id, r(2, 2))
	s:add(F.p_spd, r(4, 2))
	s:add(F.p_dpd, r(6, 2))
	s:add(F.p_ts, r(8, 2))
	s:add(F.p_tsr, r(10, 1))
	s:add(F.p_ftype, r(10, 1))
	return string.format(" id=%d", r(2, 2):uint())
end

-- ERTH (0xD8) or EETH (0xD9), mrc's layout (mrc_wire.h)
local function ep_hdr(t, r, resp)
	local s = t:add(mrc, r, resp and "EETH (mrc's layout)" or "ERTH (mrc's layout)")
	s:add(F.ep_op, r(0, 1))
	if resp then s:add(F.ep_port, r(1, 1)) end
	s:add(F.ep_req, r(2, 2))
	s:add(resp and F.ep_svc or F.ep_mask, r(4, 4))
	s:add(F.ep_cookie, r(8, 8)):add(F.ep_slot, r(15, 1)):set_generated()
	s:add(F.ep_ts, r(16, 8))
	local ev = ev_field(s, F.ep_ev, r(24, 4))
	if resp then s:add(F.ep_ports, r(28, 2)) end
	local txt = string.format(" %s req_id=%d ev=%s", ep_ops[band(r(0, 1):uint(), 3)],
		r(2, 2):uint(), hex32(ev))
	if resp then
		txt = txt .. string.format(" port=%d service=%dns ports=0x%x", r(1, 1):uint(),
			r(4, 4):uint(), r(28, 2):uint())
	end
	return txt
end

---------------------------------------------------------------------------
-- the dissector

local ib, registered_port

local function dissect_mrc(tvb, pinfo, tree)
	local cap, total = tvb:len(), tvb:reported_len()
	local op = tvb(0, 1):uint()
	pinfo.cols.protocol = "MRC"
	local root = tree:add(mrc, tvb())
	local info = {}
	if not pinfo.in_error_pkt then info = path_tree(root, pinfo) end

	-- the EV: UDP source port, low 16 bits of the flow label
	local ev = pinfo.src_port * 65536 + band(info.flow or 0, 0xffff)
	local evi = root:add(F.ev, tvb(0, 0), ev):set_generated()
	evi:add(F.ev_sport, tvb(0, 0), pinfo.src_port):set_generated()
	evi:add(F.ev_flow, tvb(0, 0), band(info.flow or 0, 0xffff)):set_generated()
	local plane, path, idx = ev_layout(evi, tvb(0, 0), ev, "ev")

	-- BTH
	local bt = root:add(mrc, tvb(0, BTH_LEN), "BTH")
	bt:add(F.opcode, tvb(0, 1))
	bt:add(F.opname, tvb(0, 1), op_names[op] or "unknown"):set_hidden()
	bt:add(F.se, tvb(1, 1))
	bt:add(F.mig, tvb(1, 1))
	bt:add(F.pad, tvb(1, 1))
	bt:add(F.tver, tvb(1, 1))
	bt:add(F.pkey, tvb(2, 2))
	bt:add(F.fecn, tvb(4, 1))
	bt:add(F.becn, tvb(4, 1))
	bt:add(F.dqpn, tvb(5, 3))
	bt:add(F.ackreq, tvb(8, 1))
	bt:add(F.rtx, tvb(8, 1))
	bt:add(F.ts, tvb(8, 1))
	bt:add(F.resv8, tvb(8, 1))
	bt:add(F.psn, tvb(9, 3))
	local b1, b8 = tvb(1, 1):uint(), tvb(8, 1):uint()
	local pad, tver, ts = band(rshift(b1, 4), 3), band(b1, 0xf), band(b8, 0x20) ~= 0
	local qpn, psn = tvb(5, 3):uint(), tvb(9, 3):uint()
	local name = op_names[op] or string.format("opcode 0x%02x", op)
	local txt = string.format("%s QP=0x%06x PSN=%d", name, qpn, psn)
	if band(b8, 0x80) ~= 0 then txt = txt .. " AckReq" end
	if band(b8, 0x40) ~= 0 then
		txt = txt .. " RTX"
		bt:add_proto_expert_info(E.rtx)
	end
	if band(tvb(2, 2):uint(), 0x7fff) ~= 0x7fff then bt:add_proto_expert_info(E.pkey) end
	root:append_text(", " .. name)

	local function bad(why)
		root:add_proto_expert_info(E.malformed, why)
		pinfo.cols.info = txt .. " [malformed: " .. why .. "]"
		return total
	end
	local o = ops[op]
	local ep = op == OP.EP_REQUEST or op == OP.EP_RESPONSE
	if tver ~= 0 then
		root:add_proto_expert_info(E.unknown, "transport version " .. tver ..
			": mrc refuses it (EPROTONOSUPPORT)")
		pinfo.cols.info = txt .. " [TVer " .. tver .. "]"
		return total
	end
	if not o and not ep then
		root:add_proto_expert_info(E.unknown, string.format(
			"opcode 0x%02x: mrc refuses it (EPROTONOSUPPORT)", op))
		pinfo.cols.info = txt
		return total
	end

	-- how much arrived: a switch may have cut the payload (trimming) and
	-- left the length fields stale; a capture's snap length is not that
	local snapped = pinfo.caplen < pinfo.len
	local ulen = last(X.udp_len)
	if ulen and ulen.value - 8 > total then
		-- UDP hands over what the IP header's length left (it calls the
		-- rest bogus): the UDP length is what was sent
		total = ulen.value - 8
	end
	local cut = cap < total and not snapped and not pinfo.in_error_pkt
	local tlen = total - ICRC_LEN	-- BTH to the end of the pad

	-- the headers
	local pos = BTH_LEN
	local layout = {}
	if ep then
		layout[1] = { "ep", EP_LEN }
	else
		for _, h in ipairs(o.h) do
			layout[#layout + 1] = { h, hdr_len[h] }
			if h == "meth" and ts then layout[#layout + 1] = { "tseth", TSETH_LEN } end
		end
		if ts and o.h[1] ~= "meth" then table.insert(layout, 1, { "tseth", TSETH_LEN }) end
	end
	local hlen = BTH_LEN
	for _, l in ipairs(layout) do hlen = hlen + l[2] end
	if total < hlen + ICRC_LEN and not cut then
		return bad(string.format("%d bytes, its headers need %d and the ICRC 4", total, hlen))
	end
	if cap < hlen then
		if cut then return bad("trimmed into its headers") end
		pinfo.cols.info = txt .. " [headers not captured]"
		return total
	end
	for _, l in ipairs(layout) do
		local r = tvb(pos, l[2])
		local more
		if l[1] == "ep" then more = ep_hdr(root, r, op == OP.EP_RESPONSE)
		else more = H[l[1]](root, r) end
		if more then txt = txt .. more end
		pos = pos + l[2]
	end

	-- shape checks: mrc_wire_parse(), mrc_wire_ep_parse(),
	-- mrc_wire_parse_trimmed()
	if ep then
		if tlen ~= BTH_LEN + EP_LEN then return bad("an endpoint packet is 44 bytes with its ICRC") end
		if qpn ~= EP_QPN then return bad("an endpoint packet goes to QPN 2") end
		if pad ~= 0 or ts then return bad("an endpoint packet has no pad and no TSETH") end
	elseif cut then
		if not (o.req and o.pay) then return bad("only requests with a payload are trimmed") end
	else
		if tlen < hlen + pad then return bad("pad count larger than the payload") end
		if not o.pay and tlen ~= hlen then return bad("a payload on an opcode that carries none") end
	end

	-- payload, pad, ICRC
	local trim_txt
	if cut then
		trim_txt = string.format("cut by a switch: %d of %d bytes arrived", cap, total)
		if cap > hlen then root:add(F.payload, tvb(hlen, cap - hlen)) end
	else
		local plen = tlen - hlen - pad
		if o and o.pay then
			root:add(F.paylen, tvb(hlen, 0), plen):set_generated()
			txt = txt .. " payload=" .. plen
			if plen > 0 and cap > hlen then
				root:add(F.payload, tvb(hlen, math.min(plen, cap - hlen)))
			end
		end
		if pad > 0 and cap >= tlen then root:add(F.padding, tvb(tlen - pad, pad)) end
		if cap >= total then
			local ir = tvb(tlen, ICRC_LEN)
			local it = root:add_le(F.icrc, ir)
			local want = ir:le_uint()
			local got = mrc.prefs.verify_icrc and not pinfo.in_error_pkt and
				icrc_compute(info, tvb, tlen)
			if got then
				it:add(F.icrc_calc, ir, got):set_generated()
				if got == want then
					it:add(F.icrc_status, ir, "good"):set_generated()
					it:append_text(" [correct]")
				elseif info.dscp and (info.dscp == mrc.prefs.trim_dscp or
					info.dscp == mrc.prefs.trim_lasthop_dscp) then
					-- a switch that fixed the lengths: the trim DSCP tells
					trim_txt = string.format("ICRC fails under the trim DSCP %d", info.dscp)
					it:add(F.icrc_status, ir, "bad, trimmed"):set_generated()
				else
					it:add(F.icrc_status, ir, "bad"):set_generated()
					it:append_text(" [incorrect, should be " .. hex32(got) .. "]")
					it:add_proto_expert_info(E.icrc, "ICRC " .. hex32(want) ..
						", computed " .. hex32(got) .. ": mrc drops it (icrc_errors)")
				end
			else
				it:add(F.icrc_status, ir, "unverified"):set_generated()
			end
		end
	end
	if trim_txt then
		if not (o and o.req and o.pay) then return bad("only requests with a payload are trimmed") end
		root:add(F.trimmed, tvb(0, 0), trim_txt):set_generated()
		root:add_proto_expert_info(E.trimmed, "Trimmed: " .. trim_txt)
		txt = txt .. " [trimmed]"
	end
	txt = txt .. " EV=" .. hex32(ev)
	if plane then txt = txt .. string.format(" (plane %d path %d #%d)", plane, path, idx) end
	if info.path then txt = txt .. " " .. info.path end
	pinfo.cols.info = txt
	return total
end

function mrc.dissector(tvb, pinfo, tree)
	local op = tvb:len() >= BTH_LEN and tvb(0, 1):uint()
	if not op or (band(op, 0xe0) ~= 0xc0 and (op < UC_FIRST or op > UC_LAST)) then
		-- not MRC: RoCEv2 as before
		if not ib then return 0 end
		local ok, r = pcall(ib.call, ib, tvb, pinfo, tree)
		if ok then return r end
		-- its exception comes back as a Lua error: show it as such
		tree:add_proto_expert_info(E.malformed, "InfiniBand: " .. tostring(r))
		return tvb:len()
	end
	return dissect_mrc(tvb, pinfo, tree)
end

-- the InfiniBand handle that owns 4791: what is not MRC goes there
ib = DissectorTable.get("udp.port"):get_dissector(4791) or Dissector.get("infiniband")

local function register(port)
	local t = DissectorTable.get("udp.port")
	if registered_port then
		t:remove(registered_port, mrc)
		if registered_port == 4791 and ib then t:add(4791, ib) end
	end
	t:add(port, mrc)
	registered_port = port
end
register(mrc.prefs.udp_port)

function mrc.prefs_changed()
	if mrc.prefs.udp_port ~= registered_port then register(mrc.prefs.udp_port) end
end
