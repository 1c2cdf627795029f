#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make -C tools/wireshark check: packets of every kind mrc sends, and some
it refuses, built here byte by byte (Documentation/mrc/wire-format.rst,
drivers/mrc/mrc_wire.h, the ICRC as drivers/mrc/mrc_net.c computes it),
written to a pcap, decoded by tshark with mrc.lua, and each decoded field
compared with what was built. The kselftest mrc_dissector.sh does the same
on real traffic; this covers what that traffic lacks (atomics, TSETH,
immediate data, invalidation, NAKs, IPv4, stale-length trimming, bad
input). Prints KTAP; exit status 1 on any failure.

    test-pcap.py [--installed] [--keep FILE.pcap]

--installed: tshark without -X, so with the mrc.lua it loads by itself
from its global Lua plugin folder (the mrc-utils package's; tests/pkg).
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
LUA = os.path.join(HERE, "mrc.lua")


def ip6(a):
    """text to 16 bytes (no '::' parsing beyond what socket does)"""
    import socket
    return socket.inet_pton(socket.AF_INET6, a)


def ip4(a):
    import socket
    return socket.inet_pton(socket.AF_INET, a)


def bth(op, qpn, psn, pad=0, ackreq=False, rtx=False, ts=False, pkey=0xFFFF, tver=0, se=False):
    b1 = (0x80 if se else 0) | (pad & 3) << 4 | (tver & 0xF)
    b8 = (0x80 if ackreq else 0) | (0x40 if rtx else 0) | (0x20 if ts else 0)
    return struct.pack(">BBHB3sB3s", op, b1, pkey, 0, qpn.to_bytes(3, "big"), b8,
                       psn.to_bytes(3, "big"))


def icrc(iphdr, udp, trans):
    """mrc's ICRC: variant fields as ones, no LRH bytes in front"""
    ip = bytearray(iphdr)
    if len(ip) == 20:
        ip[1] = 0xFF
        ip[8] = 0xFF
        ip[10:12] = b"\xff\xff"
    else:
        ip[0] |= 0x0F
        ip[1:4] = b"\xff\xff\xff"
        ip[7] = 0xFF
    u = bytearray(udp)
    u[6:8] = b"\xff\xff"
    t = bytearray(trans)
    t[4] = 0xFF
    return struct.pack("<I", zlib.crc32(bytes(ip) + bytes(u) + bytes(t)))


def frame(trans, ev, src="fd00::1", dst="fd00::2", v4=False, outer=None, srh=None,
          dscp=0, bad_icrc=False, cut=0):
    """Ethernet frame of a transport packet trans (BTH to the end of the pad).
    outer: (src, dst) of an outer IPv6 header (next header 41, or 43 with
    srh: the segments in visit order, segleft = the active one's index from
    the end). cut: bytes a trimming switch removed, lengths left stale."""
    sport, flow = ev >> 16, ev & 0xFFFF
    ulen = 8 + len(trans) + 4
    udp = struct.pack(">HHHH", sport, 4791, ulen, 0)
    if v4:
        ip = bytearray(struct.pack(">BBHHHBBH4s4s", 0x45, dscp << 2, 20 + ulen, 1, 0x4000, 64,
                                   17, 0, ip4(src), ip4(dst)))
        s = sum(struct.unpack(">10H", bytes(ip)))
        s = (s & 0xFFFF) + (s >> 16)
        ip[10:12] = struct.pack(">H", ~s & 0xFFFF)
        ip = bytes(ip)
        etype = 0x0800
    else:
        ip = struct.pack(">IHBB16s16s", (6 << 28) | (dscp << 22) | flow, ulen, 17, 64,
                         ip6(src), ip6(dst))
        etype = 0x86DD
    crc = icrc(ip, udp, trans)
    if bad_icrc:
        crc = bytes(b ^ 0x5A for b in crc)
    pkt = ip + udp + trans + crc
    if outer:
        nh, ext = 41, b""
        if srh:
            segs, left = srh
            ext = struct.pack(">BBBBBBH", 41, 2 * len(segs), 4, left, len(segs) - 1, 0, 0)
            for s in reversed(segs):
                ext += ip6(s)
            nh = 43
        pkt = struct.pack(">IHBB16s16s", (6 << 28) | (dscp << 22) | flow, len(ext) + len(pkt),
                          nh, 64, ip6(outer[0]), ip6(outer[1])) + ext + pkt
    if cut:
        pkt = pkt[:-cut]
    return b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01" + struct.pack(">H", etype) + pkt


def pad(payload):
    return payload + b"\0" * (-len(payload) & 3), (-len(payload)) & 3


EV = 0xC4C81203            # plane 1, path 50, salt 0x12, index 3
EV2 = 0xC0051234           # plane 0, path 1, salt 0x012, index 0x34
METH = struct.pack(">HH", 7, 9)
TSETH = struct.pack(">HBB", 0x1234, 0x81, 0)
RETH = struct.pack(">QII", 0x7F0000001000, 0xABCD, 65536)
PLETH = struct.pack(">II", 2048, 8192)
IMM = b"\xde\xad\xbe\xef"
IETH = struct.pack(">I", 0x4321)


def seth(mode=0, pr=False, ports=0x3, apo=0, ent=EV, cack=100, ccf=0, mpr=8, soff=1,
         bitmap=0, svc=0, rcvd=0):
    p = bytearray(36)
    p[0] = mode << 6 | (0x20 if pr else 0)
    p[1] = ports >> 8
    struct.pack_into(">h", p, 2, apo)
    struct.pack_into(">I", p, 4, ent)
    p[12] = ports & 0xFF
    p[13:16] = cack.to_bytes(3, "big")
    p[16] = ccf
    p[17] = mpr
    struct.pack_into(">hQ", p, 18, soff, bitmap)
    struct.pack_into(">HH", p, 28, 0x55, svc)
    p[33:36] = rcvd.to_bytes(3, "big")
    return bytes(p)


def neth(reason, ent, psn, tse=0x66):
    p = bytearray(20)
    p[1] = reason
    struct.pack_into(">I", p, 4, ent)
    p[13:16] = psn.to_bytes(3, "big")
    struct.pack_into(">H", p, 18, tse)
    return bytes(p)


def ep(resp, req_id, cookie, ts, ev, port=0, svc=0, ports=0, op=1):
    p = bytearray(32)
    p[0] = op
    if resp:
        p[1] = port
    struct.pack_into(">HIQQI", p, 2, req_id, svc, cookie, ts, ev)
    if resp:
        struct.pack_into(">H", p, 28, ports)
    return bytes(p)


def cases():
    """(description, frame, {field: expected text}); None: absent"""
    c = []
    pay, pd = pad(b"x" * 1021)
    c.append(("WRITE_MIDDLE, plain IPv6: BTH, METH, RETH, pad, ICRC, the EV's layout",
              frame(bth(0xC7, 0x11, 0xFFFFFE, pad=pd, ackreq=True) + METH + RETH + pay, EV),
              {"mrc.opname": "WRITE_MIDDLE", "mrc.bth.dqpn": "17", "mrc.bth.psn": "16777214",
               "mrc.bth.ackreq": "1", "mrc.bth.pad": "3", "mrc.meth.msn": "9",
               "mrc.reth.va": "0x00007f0000001000", "mrc.reth.len": "65536",
               "mrc.reth.rkey": "0x0000abcd", "mrc.payload_len": "1021",
               "mrc.icrc.status": "good", "mrc.ev": "0xc4c81203", "mrc.ev.plane": "1",
               "mrc.ev.path": "50", "mrc.ev.index": "3", "mrc.ev.salt": "0x0012",
               "mrc.encap": "none (RoCEv2 over IPv6: a udp path, or no path set)"}))
    pay, pd = pad(b"y" * 64)
    c.append(("SEND_ONLY_IMM with TSETH (TS), PLETH, ImmDt",
              frame(bth(0xC5, 0x12, 5, pad=pd, ts=True, se=True) + METH + TSETH + PLETH + IMM + pay, EV),
              {"mrc.opname": "SEND_ONLY_IMM", "mrc.bth.ts": "1", "mrc.bth.se": "1",
               "mrc.tseth.ts": "4660", "mrc.tseth.tsr": "1", "mrc.tseth.ftype": "1",
               "mrc.pleth.offset": "2048", "mrc.pleth.len": "8192", "mrc.immdt": "0xdeadbeef",
               "mrc.payload_len": "64", "mrc.icrc.status": "good"}))
    c.append(("SEND_LAST_INV: IETH",
              frame(bth(0xD6, 0x12, 6) + METH + PLETH + IETH + b"z" * 8, EV),
              {"mrc.opname": "SEND_LAST_INV", "mrc.ieth.rkey": "0x00004321", "mrc.payload_len": "8"}))
    c.append(("READ_REQ: RETH, no payload",
              frame(bth(0xCC, 0x13, 7) + METH + RETH, EV),
              {"mrc.opname": "READ_REQ", "mrc.reth.len": "65536", "mrc.payload_len": None,
               "mrc.icrc.status": "good"}))
    c.append(("READ_RESP_FIRST: PLETH",
              frame(bth(0xCD, 0x14, 7) + METH + PLETH + b"r" * 1024, EV),
              {"mrc.opname": "READ_RESP_FIRST", "mrc.pleth.len": "8192", "mrc.payload_len": "1024"}))
    atm = struct.pack(">QIQQ", 0x1000, 0x77, 5, 3)
    c.append(("CMP_SWAP: AtomicETH", frame(bth(0xD3, 0x15, 8) + METH + atm, EV),
              {"mrc.opname": "CMP_SWAP", "mrc.atmeth.swap_add": "0x0000000000000005",
               "mrc.atmeth.compare": "0x0000000000000003", "mrc.atmeth.rkey": "0x00000077"}))
    c.append(("FETCH_ADD", frame(bth(0xD4, 0x15, 9) + METH + atm, EV), {"mrc.opname": "FETCH_ADD"}))
    aw_reth = struct.pack(">QII", 0x7f0000002008, 0x99, 8)
    c.append(("ATOMIC_WRITE: RETH and its 8-byte value",
              frame(bth(0xDB, 0x15, 11, ackreq=True) + METH + aw_reth + struct.pack(">Q", 7), EV),
              {"mrc.opname": "ATOMIC_WRITE", "mrc.reth.va": "0x00007f0000002008",
               "mrc.reth.len": "8", "mrc.payload_len": "8", "mrc.icrc.status": "good"}))
    c.append(("FLUSH: RETH, FETH (global, memory region), no payload",
              frame(bth(0xDA, 0x15, 12, ackreq=True) + METH + RETH + b"\x00\x00\x00\x11", EV),
              {"mrc.opname": "FLUSH", "mrc.reth.len": "65536", "mrc.feth.type": "0x01",
               "mrc.feth.level": "1", "mrc.payload_len": None, "mrc.icrc.status": "good"}))
    c.append(("ATOMIC_ACK: AETH, AtomicAckETH",
              frame(bth(0xD2, 0x16, 9) + b"\x00\x00\x00\x04" + struct.pack(">Q", 42), EV),
              {"mrc.opname": "ATOMIC_ACK", "mrc.aeth.syndrome": "0x00", "mrc.aeth.msn": "4",
               "mrc.atmack.orig": "0x000000000000002a"}))
    c.append(("ACK with a NAK syndrome (remote access error)",
              frame(bth(0xD1, 0x16, 10) + b"\x62\x00\x00\x05", EV),
              {"mrc.opname": "ACK", "mrc.aeth.syndrome": "0x62", "mrc.aeth.msn": "5"}))
    c.append(("ACK with TSETH before the AETH",
              frame(bth(0xD1, 0x16, 10, ts=True) + TSETH + b"\x00\x00\x00\x05", EV),
              {"mrc.opname": "ACK", "mrc.tseth.ts": "4660", "mrc.aeth.msn": "5"}))
    c.append(("SACK: SETH (SKIP_ONCE, PR, SAMPLE, bitmap, port status), CC_STATE",
              frame(bth(0xDC, 0x17, 100) + seth(mode=1, pr=True, ports=0x0105, apo=3, ccf=1,
                                                 soff=1, bitmap=0b1011, svc=250, rcvd=0x123), EV2),
              {"mrc.opname": "SACK", "mrc.seth.mode": "1", "mrc.seth.pr": "1",
               "mrc.seth.port_status": "0x0105", "mrc.seth.cack_psn": "100",
               "mrc.seth.sack_offset": "1", "mrc.seth.bitmap_psn": "101",
               "mrc.seth.bitmap_received": "3", "mrc.seth.bitmap_missing": "103",
               "mrc.seth.sample_psn": "103", "mrc.seth.entropy": "0xc4c81203",
               "mrc.evl.plane": "1", "mrc.evl.path": "50", "mrc.seth.mpr": "8",
               "mrc.ccstate.service_us": "250", "mrc.ccstate.rcvd": "291",
               "mrc.ev": "0xc0051234", "mrc.ev.plane": "0", "mrc.ev.path": "1"}))
    c.append(("NACK: NETH TRIMMED",
              frame(bth(0xDD, 0x17, 100) + neth(1, EV, 77), EV2),
              {"mrc.opname": "NACK", "mrc.neth.reason": "0x01", "mrc.neth.psn": "77",
               "mrc.neth.entropy": "0xc4c81203", "mrc.neth.ts_echo": "102"}))
    peth = struct.pack(">BBHHHHB5s", 0, 0, 31, 0, 0, 0x99, 0x81, b"")
    c.append(("PROBE: PETH", frame(bth(0xDE, 0x17, 100) + peth, EV),
              {"mrc.opname": "PROBE", "mrc.peth.probe_id": "31", "mrc.peth.ts": "153",
               "mrc.peth.tsr": "1", "mrc.peth.ftype": "1"}))
    c.append(("EP_REQUEST: ERTH to QPN 2",
              frame(bth(0xD8, 2, 0) + ep(False, 9, 0x0123456789ABCD05, 10**12, EV2), EV2),
              {"mrc.opname": "EP_REQUEST", "mrc.ep.op": "1", "mrc.ep.req_id": "9",
               "mrc.ep.cookie": "0x0123456789abcd05", "mrc.ep.slot": "5",
               "mrc.ep.ts": "1000000000000", "mrc.ep.ev": "0xc0051234", "mrc.icrc.status": "good"}))
    c.append(("EP_RESPONSE: EETH (port, service time, port status)",
              frame(bth(0xD9, 2, 0) + ep(True, 9, 0x0123456789ABCD05, 10**12, EV2, port=1,
                                         svc=4000, ports=3), EV2, src="2001:db8:1:2::1",
                    dst="2001:db8:1:1::1"),
              {"mrc.opname": "EP_RESPONSE", "mrc.ep.port": "1", "mrc.ep.service_ns": "4000",
               "mrc.ep.port_status": "0x0003", "mrc.ep.ev": "0xc0051234"}))
    w = bth(0xCA, 0x11, 3) + METH + RETH + b"w" * 16
    c.append(("uSID path: the outer destination split (block, uSIDs, active, last)",
              frame(w, EV, outer=("2001:db8:1:1::1", "fc00:0:1100:2101:1101:e002::")),
              {"mrc.encap": "usid", "mrc.outer.dst": "fc00:0:1100:2101:1101:e002::",
               "mrc.outer.src": "2001:db8:1:1::1", "mrc.usid.block": "fc00::/32",
               "mrc.usid.list": "1100 2101 1101 e002", "mrc.usid.active": "0x00001100",
               "mrc.usid.last": "0x0000e002", "mrc.usid.count": "4", "mrc.outer.flow": "0x00001203",
               "mrc.icrc.status": "good", "mrc.ev.plane": "1"}))
    segs = ["fc00:0:1000::1", "fc00:0:2000::1", "fc00:0:1001::1", "2001:db8:0:2::1"]
    c.append(("SRH path: segments in visit order, 2 left, the active one",
              frame(w, EV, outer=("2001:db8:0:1::1", segs[1]), srh=(segs, 2)),
              {"mrc.encap": "srh", "mrc.srh.segment": ",".join(segs), "mrc.srh.segleft": "2",
               "mrc.srh.active": "fc00:0:2000::1", "mrc.srh.count": "4", "mrc.icrc.status": "good"}))
    c.append(("RoCEv2 over IPv4: the ICRC over the IPv4 header, EV = source port only",
              frame(bth(0xC4, 0x18, 1) + METH + PLETH + b"v" * 4, 0xC0010000, src="10.77.0.1",
                    dst="10.77.0.2", v4=True),
              {"mrc.opname": "SEND_ONLY", "mrc.icrc.status": "good", "mrc.ev": "0xc0010000",
               "mrc.encap": "none (RoCEv2 over IPv4)"}))
    c.append(("trimmed: lengths claim more than arrived (no ICRC)",
              frame(bth(0xC7, 0x11, 4) + METH + RETH + b"t" * 1024, EV, cut=1000),
              {"mrc.opname": "WRITE_MIDDLE", "mrc.trimmed": "cut by a switch: 60 of 1060 bytes arrived",
               "mrc.icrc.status": None, "mrc.reth.len": "65536",
               "_ws.expert.message": "~Trimmed: cut by a switch"}))
    c.append(("trimmed: ICRC fails under the trim DSCP 46 (lengths fixed)",
              frame(bth(0xC7, 0x11, 5) + METH + RETH + b"t" * 64, EV, dscp=46, bad_icrc=True,
                    outer=("2001:db8:1:1::1", "fc00:0:2101:1101:e002::")),
              {"mrc.icrc.status": "bad, trimmed",
               "mrc.trimmed": "ICRC fails under the trim DSCP 46", "mrc.outer.dscp": "46"}))
    c.append(("ICRC bad: expert error",
              frame(bth(0xC7, 0x11, 6) + METH + RETH + b"t" * 64, EV, bad_icrc=True),
              {"mrc.icrc.status": "bad", "_ws.expert.message": "~mrc drops it (icrc_errors)"}))
    c.append(("malformed: a SACK too short",
              frame(bth(0xDC, 0x17, 100) + seth()[:20], EV),
              {"_ws.expert.message": "~its headers need 48", "mrc.seth.cack_psn": None}))
    c.append(("malformed: an endpoint request to QPN 5",
              frame(bth(0xD8, 5, 0) + ep(False, 1, 1, 1, EV2), EV2),
              {"_ws.expert.message": "~goes to QPN 2"}))
    c.append(("malformed: a payload on an ACK",
              frame(bth(0xD1, 0x16, 10) + b"\x00\x00\x00\x05" + b"extra!!!", EV),
              {"_ws.expert.message": "~a payload on an opcode that carries none"}))
    c.append(("malformed: pad count larger than the payload",
              frame(bth(0xC4, 0x16, 10, pad=3) + METH + PLETH, EV),
              {"_ws.expert.message": "~pad count larger"}))
    c.append(("opcode 0xd5 and transport version 1: refused",
              frame(bth(0xD5, 0x16, 10) + b"\0" * 8, EV) + b"", {"_ws.expert.message": "~opcode 0xd5"}))
    c.append(("transport version 1", frame(bth(0xC4, 0x16, 10, tver=1) + METH + PLETH, EV),
              {"_ws.expert.message": "~transport version 1"}))
    pay, pd = pad(b"u" * 30)
    c.append(("UC_SEND_LAST_IMM (0xE3, mrc's UC): METH, PLETH, ImmDt, no AckReq",
              frame(bth(0xE3, 0x19, 21, pad=pd) + METH + PLETH + IMM + pay, EV),
              {"mrc.opname": "UC_SEND_LAST_IMM", "mrc.bth.ackreq": "0",
               "mrc.pleth.len": "8192", "mrc.immdt": "0xdeadbeef", "mrc.payload_len": "30",
               "mrc.icrc.status": "good", "mrc.ev.plane": "1"}))
    c.append(("UC_WRITE_FIRST (0xE6): METH, RETH",
              frame(bth(0xE6, 0x19, 22) + METH + RETH + b"w" * 64, EV),
              {"mrc.opname": "UC_WRITE_FIRST", "mrc.reth.va": "0x00007f0000001000",
               "mrc.payload_len": "64", "mrc.icrc.status": "good"}))
    c.append(("opcode 0xEC: past mrc's UC range, InfiniBand's",
              frame(bth(0xEC, 0x19, 23) + b"\0" * 8, EV),
              {"mrc.opname": None}))
    c.append(("RoCEv2 UC SEND_ONLY (0x24): InfiniBand's, not mrc's",
              frame(bth(0x24, 0x19, 24) + b"\0" * 16, EV),
              {"mrc.opname": None, "infiniband.bth.opcode": "36"}))
    c.append(("UD SEND_ONLY (0x64): InfiniBand's, as RoCEv2",
              frame(bth(0x64, 1, 1) + struct.pack(">IBHB", 0x80010000, 0, 0, 1) + b"\0" * 24, EV),
              {"_ws.col.Protocol": "~", "mrc.opname": None, "infiniband.bth.opcode": "100"}))
    return c


def pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", 1000 + i, 0, len(fr), len(fr)))
            f.write(fr)


def main():
    cs = cases()
    args = sys.argv[1:]
    installed = "--installed" in args
    if installed:
        args.remove("--installed")
    keep = args[1] if len(args) > 1 and args[0] == "--keep" else None
    fields = sorted({k for _, _, want in cs for k in want} | {"_ws.malformed", "_ws.expert.severity"})
    with tempfile.TemporaryDirectory() as d:
        path = keep or os.path.join(d, "mrc.pcap")
        pcap(path, [fr for _, fr, _ in cs])
        env = dict(os.environ, HOME=d)  # no personal plugins or preferences
        lua = [] if installed else ["-X", "lua_script:" + LUA]
        cmd = ["tshark", "-n"] + lua + ["-o", "udp.ignore_ipv6_zero_checksum:TRUE",
               "-r", path, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a",
               "-E", "aggregator=,"]
        for f in fields:
            cmd += ["-e", f]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, env=env)
        except FileNotFoundError:
            print("not ok 1 no tshark (make setup installs it)")
            return 1
    if out.returncode:
        print("not ok 1 tshark failed: " + out.stderr.strip().replace("\n", " | "))
        return 1
    rows = [dict(zip(fields, line.split("\t"))) for line in out.stdout.rstrip("\n").split("\n")]
    print("KTAP version 1")
    print("1..%d" % (len(cs) + 1))
    bad = 0
    for n, ((desc, _, want), row) in enumerate(zip(cs, rows), 1):
        why = []
        for k, v in want.items():
            got = row.get(k, "")
            if v is None:
                if got:
                    why.append("%s: %r, want none" % (k, got))
            elif v.startswith("~"):
                if v[1:] not in got:
                    why.append("%s: %r, want one containing %r" % (k, got, v[1:]))
            elif got != v:
                why.append("%s: %r, want %r" % (k, got, v))
        # only the cases that say so may carry warnings or errors
        sev = [int(s) for s in row.get("_ws.expert.severity", "").split(",") if s]
        if "_ws.expert.message" not in want and any(s >= 0x00600000 for s in sev):
            why.append("expert info of warning or error severity")
        if row.get("_ws.malformed") and "_ws.expert.message" not in want:
            why.append("malformed (an exception in a dissector)")
        print("%sok %d %s" % ("not " if why else "", n, desc))
        for w in why:
            print("# " + w)
        bad += bool(why)
    n = len(cs) + 1
    if len(rows) != len(cs):
        print("not ok %d %d frames decoded, %d built" % (n, len(rows), len(cs)))
        bad += 1
    else:
        print("ok %d every frame decoded" % n)
    print("# %d passed, %d failed" % (n - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
