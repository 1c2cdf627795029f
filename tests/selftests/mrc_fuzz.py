#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Fuzz an mrc device with MRC packets, mutated field by field.

    mrc_fuzz.py --ifname IF --dmac MAC --v4 SRC,DST [--v6 SRC,DST]
                [--other4 A] [--other6 A] [--count N] [--seed S]
                [--wait FILE] [--ready FILE] [--learn SECS] [--summary FILE]

Sends --count Ethernet frames out of IF (an AF_PACKET socket: every byte
is the fuzzer's, lengths and checksums included) to MAC, the receiving
plane's. The victims are the RC QPs of the device behind MAC that talk to
this side's SRC addresses: the fuzzer learns them, and where their PSN
windows are, from the packets this side sends them (sniffed on IF), and
starts once it has seen at least one QP per family given (--learn SECS
at most; with --wait FILE only once FILE exists). Most packets go to
them, from their peer's address, so that they pass the source check and
reach the engines; a fraction go to QP1 or to random QPNs, or are random.

Each packet is one of these classes (its share of the stream fixed, the
draws deterministic given --seed):
    field       a well-formed packet of an opcode of mrc_wire.h's table with
                one header field set to an interesting value: every BTH
                field (opcode, SE/M, pad, tver, P_Key, FECN/BECN, QPN,
                AckReq/RTX/TS, reserved bits, PSN), every field of each
                extension header the opcode carries (RETH va/rkey/len, AETH
                syndrome/MSN, SETH and CC_STATE, METH, PLETH offset and
                length, DETH, AtomicETH, AtomicAckETH, ImmDt, IETH, NETH,
                PETH, TSETH)
    clean       the same with nothing mutated
    bad_icrc    a well-formed packet whose ICRC is wrong
    bad_pkey    a well-formed packet with a P_Key that is not the port's
    opcode      an opcode mrc does not speak, or a transport version not 0
    trunc       cut short anywhere after the BTH (lengths and ICRC fixed)
    extend      longer: bytes inside UDP (ICRC fixed), or an Ethernet trailer
    length      an IP or UDP length that is not the packet's
    ip          IPv4 with a bad header checksum, options or a fragment
    src         from an address that is not the victim's peer
    qp1         UD SEND to QP1 with a Q_Key that is not the GSI's
    other       not mrc's: another UDP port, or another destination
    random      random transport bytes (correct ICRC), random lengths
Any IPv6 packet may travel IPv6-in-IPv6 (an outer header as SRv6 uSID
paths send, with or without an SRH; some with segments left, which are
not the receiver's to take).

Requests (opcodes with a PSN in the responder's window) carry PSNs just
below the window (duplicates, and older than any requester keeps in
flight), or beyond it, never in it: a new in-window request from the peer
is the peer's to make, and may end the QP as IBA says. Acknowledgments
and READ responses carry PSNs already acknowledged, or never sent.

At the end it prints one JSON object: the packets sent per class, per
opcode and per family, and what the receiving device must count for them:
"expect" (icrc_errors, rx_bad_pkey, rx_bad_qkey, rx_wrong_source,
unknown_qp, trimmed_received, exactly; malformed at least "malformed" and
at most that plus "dispatched"; rx_packets at least "dispatched"). The
expectations come from a model of mrc's receive path (mrc_net.c:
is_ours(), recv(), mrc_wire_parse() and mrc_wire_parse_trimmed(),
dispatch()) applied to the bytes of each frame sent: a length field that
claims more than arrived, or a bad ICRC under DSCP 46 (the device's
trim_dscp), makes a packet a trimmed one.
The wire layout is read from drivers/mrc/mrc_wire.[ch] at start, so a
new opcode is fuzzed without a change here; the IP/UDP/ICRC framing is
mrc_inject.py's.

    mrc_fuzz.py --inwin DIR --ifname IF --dmac MAC --v4 SRC,DST ...

sends instead what a peer may: requests in the window, at throwaway QPs
that DIR/go.0, go.1, ... name ("QPN NEXT_PSN RKEY VA LEN" a line), --count
at each, writing DIR/done.N (the packets sent) after each, until DIR/end
(class InWin). Its JSON counts what it sent, and predicts nothing.
"""
import argparse
import ctypes
import errno
import ipaddress
import json
import os
import random
import select
import re
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrc_inject as inj  # noqa: E402

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ETH_P_IP, ETH_P_IPV6, ETH_P_ALL = 0x0800, 0x86DD, 0x0003
PACKET_OUTGOING = 4
SO_RCVBUFFORCE, SO_ATTACH_FILTER, SOL_PACKET, PACKET_STATISTICS = 33, 26, 263, 6
SNIFF_EVERY = 0.05
GSI_QKEY = 0x80010000
PSN_MASK = 0xFFFFFF
TRIM_DSCP = 46                  # the device's trim_dscp, its default
# the receive window (MRC_RX_WIN) and the send window (MRC_TX_WIN) of mrc.h
RX_WIN = TX_WIN = 1024
# how far a window may have moved past the last packet the fuzzer saw
# (it reads them between packets it sends, and under load the kernel
# drops what its socket cannot hold): PSNs beyond a window are beyond it
# by at least this much, so that no forged request can land in it. A
# forged request just past the window's edge is not sent for that reason:
# in a test the window is known only from behind, and one that landed in
# it would be a new request, which may end the QP (seen: 512 was not
# enough on a loaded 2-CPU guest).
MARGIN = 1 << 15

# the extension headers by bit number of enum mrc_hdr_mask, which is
# their order on the wire (mrc_wire.c layout())
HDR_BITS = ["DETH", "METH", "RETH", "PLETH", "ATMETH", "IMMDT", "IETH", "AETH",
            "ATMACK", "SETH", "NETH", "PETH", "FETH"]

# (field, offset, bytes, bit mask or None) of each header
FIELDS = {
    "BTH": [("opcode", 0, 1, None), ("se_m", 1, 1, 0xC0), ("pad", 1, 1, 0x30),
            ("tver", 1, 1, 0x0F), ("pkey", 2, 2, None), ("fecn_becn", 4, 1, None),
            ("qpn", 5, 3, None), ("ackreq", 8, 1, 0x80), ("rtx", 8, 1, 0x40),
            ("ts", 8, 1, 0x20), ("resv8", 8, 1, 0x1F), ("psn", 9, 3, None)],
    "DETH": [("qkey", 0, 4, None), ("resv", 4, 1, None), ("sqp", 5, 3, None)],
    "METH": [("rqmsn", 0, 2, None), ("msn", 2, 2, None)],
    "TSETH": [("ts", 0, 2, None), ("tsr_ftype", 2, 1, None), ("resv", 3, 1, None)],
    "RETH": [("va", 0, 8, None), ("rkey", 8, 4, None), ("len", 12, 4, None)],
    "PLETH": [("offset", 0, 4, None), ("len", 4, 4, None)],
    "ATMETH": [("va", 0, 8, None), ("rkey", 8, 4, None), ("swap_add", 12, 8, None),
               ("compare", 20, 8, None)],
    "IMMDT": [("imm", 0, 4, None)],
    "IETH": [("rkey", 0, 4, None)],
    "AETH": [("syndrome", 0, 1, None), ("msn", 1, 3, None)],
    "ATMACK": [("orig", 0, 8, None)],
    "SETH": [("m_pr", 0, 1, None), ("port_hi", 1, 1, None), ("ack_psn_offset", 2, 2, None),
             ("entropy", 4, 4, None), ("spdcid", 8, 2, None), ("dpdcid", 10, 2, None),
             ("port_lo", 12, 1, None), ("cack_psn", 13, 3, None), ("cc", 16, 1, None),
             ("mpr", 17, 1, None), ("sack_offset", 18, 2, None), ("bitmap", 20, 8, None),
             ("ts_echo", 28, 2, None), ("service", 30, 2, None), ("pen", 32, 1, None),
             ("rcvd", 33, 3, None)],
    "NETH": [("resv0", 0, 1, None), ("reason", 1, 1, None), ("vendor", 2, 1, None),
             ("resv3", 3, 1, None), ("entropy", 4, 4, None), ("dcids", 8, 4, None),
             ("resv12", 12, 1, None), ("psn", 13, 3, None), ("cc", 16, 1, None),
             ("resv17", 17, 1, None), ("ts_echo", 18, 2, None)],
    "PETH": [("resv", 0, 1, None), ("vendor", 1, 1, None), ("probe_id", 2, 2, None),
             ("dcids", 4, 4, None), ("ts", 8, 2, None), ("tsr", 10, 1, None),
             ("resv11", 11, 5, None)],
    "FETH": [("resv", 0, 3, None), ("level", 3, 1, 0x30), ("type", 3, 1, 0x0F)],
}
# fields that name a PSN: drawn from the safe PSNs, never at random
PSN_FIELDS = {("BTH", "psn"), ("SETH", "cack_psn"), ("NETH", "psn")}
CLASSES = [("field", 40), ("clean", 6), ("bad_icrc", 7), ("bad_pkey", 5), ("opcode", 5),
           ("trunc", 6), ("extend", 5), ("length", 6), ("ip", 3), ("src", 3), ("qp1", 3),
           ("other", 3), ("random", 8)]


def sniff_filter():
    """A classic BPF program: outgoing IPv4/IPv6 UDP 4791 frames whose BTH
    opcode is a request (0xC0-0xCC, 0xD3-0xD7), an ACK (0xD1) or a SACK
    (0xDC), their first 128 bytes. Returns (struct sock_fprog, its
    instructions' buffer, which must outlive it)."""
    ld_b, ld_h, jeq, jgt, jge, ret = 0x30, 0x28, 0x15, 0x25, 0x35, 0x06
    pkttype = -0x1000 + 4 & 0xFFFFFFFF          # SKF_AD_OFF + SKF_AD_PKTTYPE
    ja = 0x05
    prog = [
        (ld_b, 0, 0, pkttype),                  # 0
        (jeq, 0, 19, PACKET_OUTGOING),          # 1 -> 21 reject
        (ld_h, 0, 0, 12),                       # 2 ethertype
        (jeq, 0, 6, ETH_P_IP),                  # 3 -> 10
        (ld_b, 0, 0, 23),                       # 4 IPv4 protocol
        (jeq, 0, 15, 17),                       # 5 -> 21
        (ld_h, 0, 0, 36),                       # 6 UDP dport
        (jeq, 0, 13, 4791),                     # 7 -> 21
        (ld_b, 0, 0, 42),                       # 8 opcode (mrc sends no IP options)
        (ja, 0, 0, 6),                          # 9 -> 16
        (jeq, 0, 10, ETH_P_IPV6),               # 10 -> 21
        (ld_b, 0, 0, 20),                       # 11 next header
        (jeq, 0, 8, 17),                        # 12 -> 21
        (ld_h, 0, 0, 56),                       # 13 UDP dport
        (jeq, 0, 6, 4791),                      # 14 -> 21
        (ld_b, 0, 0, 62),                       # 15 opcode
        (jeq, 5, 0, 0xDC),                      # 16 SACK -> 22
        (jgt, 3, 0, 0xD7),                      # 17 -> 21
        (jge, 3, 0, 0xD1),                      # 18 ACK .. SEND_ONLY_INV -> 22
        (jgt, 1, 0, 0xCC),                      # 19 READ responses -> 21
        (jge, 1, 0, 0xC0),                      # 20 requests -> 22
        (ret, 0, 0, 0),                         # 21 reject
        (ret, 0, 0, 128),                       # 22 accept
    ]
    buf = ctypes.create_string_buffer(b"".join(struct.pack("HBBI", *i) for i in prog))
    return struct.pack("HL", len(prog), ctypes.addressof(buf)), buf


def die(msg):
    sys.exit("mrc_fuzz: " + msg)


class Wire:
    """The opcode table and header layout, read from drivers/mrc."""

    def __init__(self, root):
        h = open(os.path.join(root, "drivers/mrc/mrc_wire.h")).read()
        c = open(os.path.join(root, "drivers/mrc/mrc_wire.c")).read()
        self.lens = {k: int(v) for k, v in re.findall(r"\b(MRC_\w+_LEN)\s*=\s*(\d+)", h)}
        ops = {k: int(v, 16) for k, v in re.findall(r"\b(MRC_OP_\w+)\s*=\s*(0x[0-9a-fA-F]+)", h)}
        bits = {k: 1 << int(v) for k, v in re.findall(r"\b(MRC_H_\w+)\s*=\s*BIT\((\d+)\)", h)}
        macros = dict(re.findall(r"#define\s+(M_\w+)\s+(.*)", c))

        def val(expr):
            v = 0
            for tok in re.findall(r"[A-Za-z_]\w*", expr):
                if tok in bits:
                    v |= bits[tok]
                elif tok in macros:
                    v |= val(macros[tok])
                else:
                    die("mrc_wire.c: unknown name %s" % tok)
            if re.sub(r"[\w\s|()]", "", expr):
                die("mrc_wire.c: cannot read %r" % expr)
            return v

        self.ops = {}
        for op, name, expr in re.findall(r"\[(MRC_OP_\w+)\]\s*=\s*\{\s*\"(\w+)\",\s*([^}]+)\}", c):
            self.ops[ops[op]] = (name, val(expr))
        self.bit = {n: bits["MRC_H_" + n] for n in HDR_BITS}
        for n in ("PAYLOAD", "REQ", "FIRST", "LAST", "UC"):
            self.bit[n] = bits["MRC_H_" + n]
        if len(self.ops) < 20 or set(ops.values()) != set(self.ops):
            die("mrc_wire.[ch]: the opcode table does not read as expected")
        self.bth = self.lens["MRC_BTH_LEN"]

    def hlen_of(self, name):
        n = self.lens["MRC_%s_LEN" % name]
        return n + self.lens["MRC_CCSTATE_LEN"] if name == "SETH" else n

    def layout(self, mask, ts):
        """[(header, offset)] after the BTH, and the length to the payload"""
        pos, out = self.bth, []
        for i, n in enumerate(HDR_BITS):
            if i == 2 and ts:
                out.append(("TSETH", pos))
                pos += self.lens["MRC_TSETH_LEN"]
            if mask & self.bit[n]:
                out.append((n, pos))
                pos += self.hlen_of(n)
        return out, pos

    def parse_trimmed(self, tp):
        """mrc_wire_parse_trimmed(): a data request's headers, all there"""
        if len(tp) < self.bth:
            return "short"
        op = self.ops.get(tp[0])
        if op is None or tp[1] & 0x0F:
            return "proto"
        want = self.bit["REQ"] | self.bit["PAYLOAD"]
        if op[1] & want != want:
            return "not data"
        _, hlen = self.layout(op[1], bool(tp[8] & 0x20))
        return "ok" if len(tp) >= hlen else "short"

    def parse(self, tp):
        """mrc_wire_parse(): 'ok', or why it refuses (EPROTONOSUPPORT, EBADMSG)"""
        if len(tp) < self.bth:
            return "short"
        op = self.ops.get(tp[0])
        if op is None or tp[1] & 0x0F:
            return "proto"
        _, hlen = self.layout(op[1], bool(tp[8] & 0x20))
        pad = (tp[1] >> 4) & 3
        if len(tp) < hlen + pad:
            return "short"
        if not op[1] & self.bit["PAYLOAD"] and len(tp) != hlen:
            return "payload"
        return "ok"


def psn_diff(a, b):
    d = (a - b) & PSN_MASK
    return d - (1 << 24) if d & 0x800000 else d


class Victim:
    def __init__(self, fam, qpn):
        self.fam, self.qpn = fam, qpn
        self.rq = None      # the latest request PSN the peer sent it
        self.sq = None      # the latest PSN of its own the peer acknowledged

    def see(self, kind, psn):
        cur = getattr(self, kind)
        if cur is None or psn_diff(psn, cur) > 0:
            setattr(self, kind, psn)


class Fuzzer:
    def __init__(self, a, wire):
        self.a, self.w = a, wire
        self.rng = random.Random(a.seed)
        self.fams = {}
        for fam, arg, other in ((4, a.v4, a.other4), (6, a.v6, a.other6)):
            if arg:
                s, d = (ipaddress.ip_address(x) for x in arg.split(","))
                self.fams[fam] = (s, d, ipaddress.ip_address(other))
        self.victims = {}
        self.sock = None
        self.smac = bytes(6)
        if not a.dry_run:
            self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                      socket.htons(ETH_P_ALL))
            # a sample of what this side sends is enough to follow the
            # windows, and every frame costs python: the kernel queues only
            # the head of outgoing frames that tell a window (sniff_filter),
            # and only as many as a small buffer holds between reads
            self.sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 32 << 10)
            self.filt = sniff_filter()
            self.sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, self.filt[0])
            self.sock.bind((a.ifname, 0))
            self.sock.setblocking(False)
            self.smac = self.sock.getsockname()[4][:6]
        self.mtu = a.mtu
        self.dmac = bytes.fromhex(a.dmac.replace(":", ""))
        self.count = {"class": {}, "opcode": {}, "family": {}, "outcome": {}}
        self.expect = {k: 0 for k in ("icrc_errors", "rx_bad_pkey", "rx_bad_qkey",
                                      "rx_wrong_source", "unknown_qp", "malformed",
                                      "dispatched", "trimmed_received", "not_ours")}
        self.ops = sorted(wire.ops)
        self.unknown = [o for o in range(256) if o not in wire.ops]
        self.fieldlist = self._fieldlist()
        self.fi = 0
        self.waits = 0
        self.last_sniff = 0
        self.t_sniff = self.t_send = 0

    # ---- learning the victims ----------------------------------------------

    def sniff(self, force=False):
        now = time.monotonic()
        if not force and now - self.last_sniff < SNIFF_EVERY:
            return
        self.last_sniff = now
        while self.sock:
            try:
                data, addr = self.sock.recvfrom(65536)
            except BlockingIOError:
                return
            if addr[2] == PACKET_OUTGOING:
                self._learn(data)

    def _learn(self, f):
        et = struct.unpack(">H", f[12:14])[0] if len(f) >= 14 else 0
        p = f[14:]
        if et == ETH_P_IP and len(p) >= 20 and p[9] == 17:
            fam, src, dst, l4 = 4, p[12:16], p[16:20], (p[0] & 0xF) * 4
        elif et == ETH_P_IPV6 and len(p) >= 40 and p[6] == 17:
            fam, src, dst, l4 = 6, p[8:24], p[24:40], 40
        else:
            return
        if fam not in self.fams or len(p) < l4 + 8 + 12:
            return
        s, d, _ = self.fams[fam]
        if src != s.packed or dst != d.packed or p[l4 + 2:l4 + 4] != b"\x12\xb7":
            return
        tp = p[l4 + 8:]
        op = self.w.ops.get(tp[0])
        if op is None or op[1] & self.w.bit["DETH"]:
            return
        qpn, psn = int.from_bytes(tp[5:8], "big"), int.from_bytes(tp[9:12], "big")
        v = self.victims.setdefault((fam, qpn), Victim(fam, qpn))
        if op[1] & self.w.bit["REQ"]:
            v.see("rq", psn)
        elif op[0] == "ACK" and len(tp) >= 16 and tp[12] >> 5 == 0:
            v.see("sq", psn)
        elif op[1] & self.w.bit["SETH"] and len(tp) >= 40:
            lay, _ = self.w.layout(op[1], bool(tp[8] & 0x20))
            off = dict(lay)["SETH"]
            v.see("sq", int.from_bytes(tp[off + 13:off + 16], "big"))

    def learn(self):
        end = time.monotonic() + self.a.learn
        while time.monotonic() < end:
            self.sniff()
            fams = {v.fam for v in self.victims.values() if v.rq is not None}
            if fams >= set(self.fams):
                return
            time.sleep(0.01)
        die("no live QP seen for family %s within %ss (seen: %s)" %
            (sorted(set(self.fams) - {v.fam for v in self.victims.values() if v.rq is not None}),
             self.a.learn, self.victim_list()))

    def sniff_drops(self):
        """frames the kernel could not queue to the socket since last asked"""
        if not self.sock:
            return 0
        return struct.unpack("II", self.sock.getsockopt(SOL_PACKET, PACKET_STATISTICS, 8))[1]

    def victim_list(self):
        return ["v%d qpn %d rq %s sq %s" % (v.fam, v.qpn, v.rq, v.sq)
                for v in self.victims.values()]

    # ---- values --------------------------------------------------------------

    def interesting(self, nbytes, mask=None):
        r = self.rng
        if mask is not None:
            return r.randrange(256) & mask
        top = (1 << (8 * nbytes)) - 1
        pick = r.randrange(12)
        if pick == 0:
            return 0
        if pick == 1:
            return top
        if pick == 2:
            return top >> 1
        if pick == 3:
            return (top >> 1) + 1
        if pick == 4:
            return r.randrange(1, 5)
        if pick == 5:
            return top - r.randrange(4)
        if pick == 6:       # a power of two, or one off it
            return ((1 << r.randrange(8 * nbytes)) + r.choice((-1, 0, 1))) & top
        if pick == 7:       # sizes near MTUs and pages
            return r.choice((255, 256, 1023, 1024, 1025, 4095, 4096, 4097, 65535,
                             65536, 1 << 20, 1 << 31)) & top
        return r.randrange(top + 1)

    def safe_psn(self, v, req):
        """A PSN of victim V's that a forgery may carry (see the header)"""
        r = self.rng
        base = v.rq if req else v.sq
        if base is None:
            base = v.rq if v.rq is not None else 0
            return (base + (1 << 22) + r.randrange(1 << 20)) & PSN_MASK
        pick = r.randrange(8)
        if pick < 3:                    # just below: duplicates, then too old
            off = -r.randrange(1, TX_WIN + 80)
        elif pick == 3:
            off = -r.choice((1, 2, TX_WIN - 1, TX_WIN, TX_WIN + 1, TX_WIN + 2))
        elif pick == 4:                 # beyond the window
            off = RX_WIN + MARGIN + r.randrange(256)
        elif pick == 5:                 # far off, either way, up to the sign flip
            off = r.choice((1 << 22, -(1 << 22), (1 << 23) - 1, (1 << 23) - 2,
                            -(1 << 23), -(1 << 23) + 1))
        elif pick == 6:
            off = -r.randrange(TX_WIN, 1 << 22)
        else:
            off = r.randrange(RX_WIN + MARGIN, 1 << 22)
        return (base + off) & PSN_MASK

    # ---- building ----------------------------------------------------------

    def _fieldlist(self):
        """every (opcode, header, field) in turn: the field-by-field walk"""
        out = []
        for op in self.ops:
            mask = self.w.ops[op][1]
            hdrs = ["BTH"] + [h for h, _ in self.w.layout(mask, True)[0]]
            for h in hdrs:
                for fld in FIELDS[h]:
                    out.append((op, h, fld))
        return out

    def transport(self, v, op, ts=None, payload=None):
        """A well-formed packet of opcode OP to victim V: [bytes, {header: offset}]"""
        r = self.rng
        _, mask = self.w.ops[op]
        ts = r.randrange(4) == 0 if ts is None else ts
        lay, hlen = self.w.layout(mask, ts)
        if payload is None:
            payload = 0
            if mask & self.w.bit["PAYLOAD"]:
                payload = r.choice((0, 1, 3, 4, 64, 255, 1024, r.randrange(1, 1100)))
        pad = -payload % 4
        req = bool(mask & self.w.bit["REQ"])
        psn = self.safe_psn(v, req) if v else r.randrange(1 << 24)
        qpn = v.qpn if v else (1 if mask & self.w.bit["DETH"] else r.randrange(2, 1 << 24))
        tp = bytearray(hlen + payload + pad)
        flags = (0x80 if r.randrange(2) else 0) | (0x40 if r.randrange(4) == 0 else 0)
        tp[0:12] = struct.pack(">BBHB3sB3s", op, (pad << 4) | (0x80 if r.randrange(8) == 0 else 0),
                               0xFFFF if r.randrange(4) else 0x7FFF, 0,
                               qpn.to_bytes(3, "big"), flags | (0x20 if ts else 0),
                               psn.to_bytes(3, "big"))
        off = dict(lay)
        for h, o in lay:
            n = self.w.hlen_of(h) if h != "TSETH" else self.w.lens["MRC_TSETH_LEN"]
            tp[o:o + n] = bytes(r.randrange(256) for _ in range(n)) if h in (
                "TSETH", "RETH", "ATMETH", "IMMDT", "IETH", "ATMACK", "PETH") else bytes(n)
        if "METH" in off:
            struct.pack_into(">HH", tp, off["METH"], r.randrange(1 << 16), r.randrange(1 << 16))
        if "RETH" in off:
            struct.pack_into(">I", tp, off["RETH"] + 12, r.choice((payload, 4096, 65536,
                                                                    r.randrange(1 << 32))))
        if "FETH" in off:	# global, range or MR: what mrc sends
            tp[off["FETH"] + 3] = r.choice((0x01, 0x11))
        if "PLETH" in off:
            struct.pack_into(">II", tp, off["PLETH"], r.choice((0, 1024, r.randrange(1 << 17))),
                             r.choice((payload, 4096, 65536, r.randrange(1 << 32))))
        if "DETH" in off:
            struct.pack_into(">I", tp, off["DETH"], self.qkey())
            tp[off["DETH"] + 5:off["DETH"] + 8] = r.randrange(1 << 24).to_bytes(3, "big")
        if "AETH" in off:
            tp[off["AETH"]] = r.choice((0, 0, 0x20 | r.randrange(32), 0x60, 0x61, 0x62, 0x63,
                                        0x64, r.randrange(256)))
        if "SETH" in off:
            s = off["SETH"]
            tp[s] = r.choice((0, 0x20, 0x40, 0x80, 0xC0, r.randrange(256)))
            cack = self.safe_psn(v, False) if v else r.randrange(1 << 24)
            tp[s + 13:s + 16] = cack.to_bytes(3, "big")
            struct.pack_into(">BBhQ", tp, s + 16, r.randrange(256), r.randrange(33),
                             r.choice((0, 1, 64, -64, r.randrange(-32768, 32768))),
                             r.getrandbits(64))
            struct.pack_into(">I", tp, s + 4, r.getrandbits(32))
        if "NETH" in off:
            n = off["NETH"]
            tp[n + 1] = r.choice((1, 2, 6, 7, 0x0A, 0x0B, 0x19, r.randrange(256)))
            tp[n + 13:n + 16] = (self.safe_psn(v, False) if v else
                                 r.randrange(1 << 24)).to_bytes(3, "big")
        if payload:
            tp[hlen:hlen + payload] = r.randbytes(payload)
        return tp, off

    def qkey(self):
        k = self.rng.getrandbits(32)
        return k if k != GSI_QKEY else k ^ 1

    def is_req(self, op):
        return bool(self.w.ops.get(op, ("", 0))[1] & self.w.bit["REQ"])

    def setfield(self, tp, off, h, fld, v):
        name, o, n, mask = fld
        o += 0 if h == "BTH" else off[h]
        if (h, name) in PSN_FIELDS:
            val = self.safe_psn(v, h == "BTH" and self.is_req(tp[0])) if v else \
                self.rng.randrange(1 << 24)
            tp[o:o + 3] = val.to_bytes(3, "big")
            return
        if mask is not None:
            tp[o] = (tp[o] & ~mask) | self.interesting(1, mask)
            return
        val = self.interesting(n)
        if h == "DETH" and name == "qkey" and val == GSI_QKEY:
            val ^= 1
        tp[o:o + n] = val.to_bytes(n, "big")
        if h == "BTH" and name == "opcode" and v:
            # another opcode over these headers: the PSN must stay safe for
            # what it now claims to be (a request's window is not an ACK's)
            tp[9:12] = self.safe_psn(v, self.is_req(tp[0])).to_bytes(3, "big")

    def frame(self, fam, ip):
        return self.dmac + self.smac + struct.pack(">H", ETH_P_IP if fam == 4 else ETH_P_IPV6) + ip

    def encap(self, ip, outer_src, outer_dst):
        """IPv6-in-IPv6 as a uSID path sends it, or with an SRH (segments
        left 0: ours; more: still on its way, not ours)"""
        r = self.rng
        pick = r.randrange(4)
        if pick == 0:
            nh, ext = 41, b""
        else:
            nseg = r.randrange(1, 7)
            segs = b"".join(ipaddress.ip_address("fc00:0:%x::1" % (i + 1)).packed
                            for i in range(nseg))
            left = 0 if pick < 3 else r.randrange(1, nseg + 1)
            typ = 4 if r.randrange(8) else r.choice((0, 2, 3, 5))
            inner_nh = 41 if r.randrange(8) else r.choice((17, 4, 59))
            ext = struct.pack(">BBBBBBH", inner_nh, 2 * nseg, typ, left, nseg - 1, 0, 0) + segs
            nh = 43
        outer = struct.pack(">IHBB16s16s", 6 << 28 | r.randrange(1 << 28), len(ext) + len(ip),
                            nh, 64, outer_src.packed, outer_dst.packed)
        return outer + ext + ip

    # ---- the model of mrc's receive path -----------------------------------

    def model(self, f, fam_local):
        """what mrc_net.c does with frame F: (outcome, transport bytes, nhlen, ip)"""
        et = struct.unpack(">H", f[12:14])[0]
        p = f[14:]
        outer = 0
        # the DSCP of the outermost IP header: a trimming switch's mark
        dscp = 0 if len(p) < 2 else p[1] >> 2 if et == ETH_P_IP else \
            (p[0] & 0xF) << 2 | p[1] >> 6
        if et == ETH_P_IP:
            if len(p) < 20 or p[0] >> 4 != 4 or p[0] & 0xF != 5 or p[9] != 17 or \
                    struct.unpack(">H", p[6:8])[0] & 0x3FFF:
                return "not_ours", None
            nhlen = 20
            if len(p) < 28 or p[22:24] != b"\x12\xb7" or p[16:20] != fam_local[4]:
                return "not_ours", None
        elif et == ETH_P_IPV6:
            if len(p) < 40:
                return "not_ours", None
            nhlen = 40
            if p[6] == 17:
                if len(p) < 48 or p[42:44] != b"\x12\xb7" or p[24:40] != fam_local[6]:
                    return "not_ours", None
            else:
                if p[6] == 43:
                    if len(p) < 48:
                        return "not_ours", None
                    srh = p[40:48]
                    if srh[2] != 4 or srh[3] or srh[0] != 41:
                        return "not_ours", None
                    outer = 40 + (srh[1] + 1) * 8
                elif p[6] == 41:
                    outer = 40
                else:
                    return "not_ours", None
                i = p[outer:outer + 48]
                if len(i) < 40 or i[0] >> 4 != 6 or i[6] != 17 or len(i) < 48 or \
                        i[42:44] != b"\x12\xb7" or i[24:40] != fam_local[6]:
                    return "not_ours", None
                p = p[outer:]
        else:
            return "not_ours", None
        if nhlen == 20:
            l3 = struct.unpack(">H", p[2:4])[0]
            if self._ipsum_bad(p[:20]):
                return "malformed", None
        else:
            l3 = struct.unpack(">H", p[4:6])[0] + 40
        if l3 < nhlen + 8 or len(p) < nhlen + 8:
            return "malformed", None
        # trimmed: length fields that claim more than arrived, or a bad
        # ICRC under the device's trim DSCP (mrc_wire_parse_trimmed())
        ulen = struct.unpack(">H", p[nhlen + 4:nhlen + 6])[0]
        trim = l3 > len(p)
        if not trim:
            p = p[:l3]
            trim = ulen > len(p) - nhlen
            if not trim and ulen != len(p) - nhlen:
                return "malformed", None
        if not trim and ulen < 8 + 12 + 4:
            return "malformed", None
        if not trim and struct.unpack("<I", p[-4:])[0] != inj.icrc(p, nhlen):
            if dscp != TRIM_DSCP:
                return "icrc", None
            trim = True
        tp = p[nhlen + 8:] if trim else p[nhlen + 8:-4]
        if (self.w.parse_trimmed(tp) if trim else self.w.parse(tp)) != "ok":
            return "malformed", None
        if struct.unpack(">H", tp[2:4])[0] & 0x7FFF != 0x7FFF:
            return "bad_pkey", None
        return "trimmed" if trim else "ok", (tp, p[:nhlen])

    @staticmethod
    def _ipsum_bad(h):
        s = sum(struct.unpack(">10H", h))
        while s >> 16:
            s = (s & 0xFFFF) + (s >> 16)
        return s != 0xFFFF

    def dispatched(self, tp, ip, fam):
        """dispatch(): what the device counts for a packet that passed recv()"""
        qpn = int.from_bytes(tp[5:8], "big")
        mask = self.w.ops[tp[0]][1]
        if qpn == 1:
            return "rx_bad_qkey" if mask & self.w.bit["DETH"] else "malformed"
        v = next((x for x in self.victims.values() if x.qpn == qpn), None)
        if v is None:
            return "unknown_qp"
        if mask & self.w.bit["DETH"]:
            return "malformed"
        src = ip[12:16] if fam == 4 else ip[8:24]
        peer = self.fams[v.fam][0]
        # an IPv4 source reads as v4-mapped next to an IPv6 peer, and never matches
        if len(src) != len(peer.packed) or src != peer.packed:
            return "rx_wrong_source"
        # the victims are RC QPs: UC opcodes are for UC QPs only
        if mask & self.w.bit["UC"]:
            return "malformed"
        return "engine"

    # ---- one packet ------------------------------------------------------------

    def one(self):
        r = self.rng
        cls = r.choices([c for c, _ in CLASSES], [w for _, w in CLASSES])[0]
        fam = r.choice(sorted(self.fams))
        if cls == "ip" and 4 not in self.fams:
            cls = "length"
        if cls == "ip":
            fam = 4
        vs = [v for v in self.victims.values() if v.fam == fam and v.rq is not None]
        v = vs[r.randrange(len(vs))] if vs else None
        if r.randrange(10) == 0 and cls not in ("qp1",):
            v = None                    # a random QPN
        src, dst, other = self.fams[fam]
        op = r.choice(self.ops)
        if cls == "field":
            op, h, fld = self.fieldlist[self.fi % len(self.fieldlist)]
            self.fi += 1
            tp, off = self.transport(v, op, ts=True if h == "TSETH" else None)
            if h in off or h == "BTH":
                self.setfield(tp, off, h, fld, v)
        elif cls == "qp1":
            op = r.choice([o for o in self.ops if self.w.ops[o][1] & self.w.bit["DETH"]])
            tp, off = self.transport(None, op)
        else:
            tp, off = self.transport(v, op)
        if cls == "bad_pkey":
            k = r.randrange(1 << 16)
            struct.pack_into(">H", tp, 2, k if k & 0x7FFF != 0x7FFF else k ^ 0x100)
        elif cls == "opcode":
            if r.randrange(4):
                tp[0] = r.choice(self.unknown)
            else:
                tp[1] = (tp[1] & 0xF0) | r.randrange(1, 16)
        elif cls == "trunc":
            tp = tp[:r.randrange(self.w.bth, len(tp))] if len(tp) > self.w.bth else tp
        elif cls == "extend" and r.randrange(2):
            tp += r.randbytes(r.choice((1, 2, 3, 4, 8, 64, r.randrange(1, 600))))
        elif cls == "random":
            n = r.choice((self.w.bth, r.randrange(self.w.bth, 120), r.randrange(self.w.bth, 1200)))
            qpn = tp[5:8]
            tp = bytearray(r.randbytes(n))
            if r.randrange(2):
                # a known opcode, transport version 0 and the port's P_Key:
                # random headers that get past the parser to the engines
                tp[0] = r.choice(self.ops)
                tp[1] &= 0xF0
                tp[2:4] = b"\xff\xff"
            if v:
                # a victim's: only the PSN stays safe
                tp[5:8] = qpn
                tp[9:12] = self.safe_psn(v, self.is_req(tp[0])).to_bytes(3, "big")
        s = other if cls == "src" else src
        d = dst
        if cls == "other":
            if r.randrange(2):
                d = other if r.randrange(2) else src
        ip = bytearray(inj.roce(bytes(tp), s, d, 0xC000 | r.randrange(1 << 14)))
        nh = 20 if fam == 4 else 40
        if cls == "other" and d == dst:
            struct.pack_into(">H", ip, nh + 2, r.choice((4790, 4792, 0, 65535, r.randrange(65536))))
        if fam == 6:
            # the flow label carries the EV's low half; traffic class ECN bits
            ip[1] = r.randrange(256)
            ip[2:4] = r.randbytes(2)
            ip[0] = 0x60 | r.randrange(16)
        if cls == "bad_icrc":
            i = len(ip) - 4 + r.randrange(4)
            ip[i] ^= 1 << r.randrange(8)
        elif cls == "length":
            lo = 2 if fam == 4 else 4
            where = r.choice(("ip", "udp", "both"))
            delta = r.choice((-1, 1, -4, 4, -len(ip), 1000, r.randrange(-100, 100) or 1))
            if where in ("ip", "both"):
                n = struct.unpack(">H", ip[lo:lo + 2])[0]
                struct.pack_into(">H", ip, lo, (n + delta) & 0xFFFF)
            if where in ("udp", "both"):
                n = struct.unpack(">H", ip[nh + 4:nh + 6])[0]
                struct.pack_into(">H", ip, nh + 4, (n + delta) & 0xFFFF)
            if fam == 4:
                ip[10:12] = b"\0\0"
                ip[10:12] = struct.pack(">H", inj.ip4_csum(ip[:20]))
        elif cls == "ip":
            pick = r.randrange(3)
            if pick == 0:
                ip[10] ^= 0x40
            elif pick == 1:
                ip = ip[:20] + bytes(4) + ip[20:]
                ip[0] = 0x46
                struct.pack_into(">H", ip, 2, len(ip))
            else:
                struct.pack_into(">H", ip, 6, r.choice((0x2000, 0x0001, 0x2010)))
            if pick:
                ip[10:12] = b"\0\0"
                ip[10:12] = struct.pack(">H", inj.ip4_csum(ip[:20]))
        wrapped = fam == 6 and r.randrange(4) == 0
        if wrapped:
            ip = bytearray(self.encap(bytes(ip), src, dst))
        f = self.frame(fam, bytes(ip))
        if cls == "extend" and r.randrange(2):
            f += r.randbytes(r.randrange(1, 64))      # an Ethernet trailer
        return cls, fam, op, wrapped, f

    def run(self):
        local = {f: self.fams[f][1].packed for f in self.fams}
        t0 = time.monotonic()
        self.sniff_drops()
        for i in range(self.a.count):
            t = time.monotonic()
            self.sniff()
            self.t_sniff += time.monotonic() - t
            while True:
                cls, fam, op, wrapped, f = self.one()
                if len(f) <= 14 + self.mtu:
                    break
            outcome, rest = self.model(f, local)
            if outcome == "trimmed" and self.w.ops[rest[0][0]][1] & \
                    (self.w.bit["DETH"] | self.w.bit["UC"]):
                self.expect["trimmed_received"] += 1
                outcome = "trimmed:ud"      # dropped, no NACK for UD or UC
            elif outcome in ("ok", "trimmed"):
                tp, ip = rest
                self.expect["dispatched" if outcome == "ok" else "trimmed_received"] += 1
                what = self.dispatched(tp, ip, fam)
                if what != "engine":
                    self.expect[what] += 1
                outcome += ":" + what
            elif outcome == "icrc":
                self.expect["icrc_errors"] += 1
            elif outcome == "bad_pkey":
                self.expect["rx_bad_pkey"] += 1
            else:
                self.expect[outcome] += 1
            self._count("class", cls + ("+encap" if wrapped else ""))
            self._count("opcode", "0x%02x" % op)
            self._count("family", "ipv%d" % fam)
            self._count("outcome", outcome)
            self.send(f)
        return time.monotonic() - t0

    def send(self, f):
        t = time.monotonic()
        while self.sock:
            try:
                self.sock.send(f)
                break
            except (BlockingIOError, InterruptedError):
                # the socket's send buffer is full of frames the
                # receiver has not taken yet: wait until it drains
                self.waits += 1
                select.select([], [self.sock], [], 1)
            except OSError as e:
                if e.errno != errno.ENOBUFS:
                    die("send of a %d-byte frame: %s" % (len(f), e))
                self.waits += 1
                time.sleep(0.001)
        self.t_send += time.monotonic() - t

    def _count(self, k, v):
        self.count[k][v] = self.count[k].get(v, 0) + 1


class Target:
    """A throwaway QP of the receiving device: its QPN, the responder's
    next expected PSN, and a memory region of its process (rkey, va, len)"""

    def __init__(self, qpn, psn, rkey, va, length):
        self.qpn, self.psn, self.rkey, self.va, self.len = qpn, psn, rkey, va, length


class InWin(Fuzzer):
    """--inwin: forged requests IN the responder's window, from the peer's
    address, with the port's P_Key and a correct ICRC: what only the peer
    may send, and what may end the QP (IBA: a bad rkey NAKs and moves it
    to ERR). Every field a responder trusts to place data or answer is
    drawn towards the edges of what the victim's process registered:
    RETH va/rkey/len, PLETH offset/length, METH RQMSN, IETH's rkey,
    AtomicETH va (aligned or not) and rkey, READ lengths up to 4 GiB,
    payloads up to the link MTU (past the QP's path MTU), pads that do
    not match, packets cut short or made longer (the ICRC recomputed),
    messages of FIRST/MIDDLE/LAST in order, out of order, interleaved or
    with parts missing. Nothing it sends can be counted in advance (the
    QP may be in ERR after any of them): the shell checks the outcome."""

    def __init__(self, a, wire):
        super().__init__(a, wire)
        self.fam = 4 if a.v4 else 6
        bit = wire.bit
        self.reqops = [o for o in self.ops if wire.ops[o][1] & bit["REQ"] and
                       not wire.ops[o][1] & bit["DETH"]]
        # the opcodes of multi-packet messages, by kind: (FIRST, MIDDLE, LASTs)
        n = {wire.ops[o][0]: o for o in self.ops}
        self.msgs = [(n["SEND_FIRST"], n["SEND_MIDDLE"],
                      [n["SEND_LAST"], n["SEND_LAST_IMM"], n["SEND_LAST_INV"]]),
                     (n["WRITE_FIRST"], n["WRITE_MIDDLE"],
                      [n["WRITE_LAST"], n["WRITE_LAST_IMM"]])]
        self.stat = {"sent": 0, "bursts": 0, "opcode": {}, "kind": {}}

    # ---- targeted values ------------------------------------------------------

    def rkey(self, t):
        r = self.rng
        pick = r.randrange(8)
        if pick < 4:
            return t.rkey                       # the real one: get to placement
        if pick == 4:
            return t.rkey ^ (1 << r.randrange(32))
        if pick == 5:                           # another index, same key byte
            return (t.rkey + (r.randrange(1, 4) << 8)) & 0xFFFFFFFF
        return self.interesting(4)

    def va(self, t, n):
        r = self.rng
        pick = r.randrange(10)
        if pick < 4:
            return t.va + r.randrange(max(1, t.len - n + 1))   # inside
        if pick == 4:
            return t.va + t.len - n + r.choice((1, 2, 8, 64, 4096))  # runs past the end
        if pick == 5:
            return (t.va - r.choice((1, 8, 64, 4096))) & (1 << 64) - 1  # starts before
        if pick == 6:
            return t.va + r.choice((t.len, t.len + 1, 1 << 32, 1 << 40, -t.va + (1 << 64) - 1))
        if pick == 7:
            return (t.va + (1 << 63)) & (1 << 64) - 1
        return self.interesting(8)

    def length(self, t, payload):
        r = self.rng
        return r.choice((payload, payload, payload + 1, max(payload - 1, 0), 0, 1, t.len,
                         t.len + 1, self.mtu, 1 << 31, 0xFFFFFFFF, self.interesting(4)))

    # ---- packets ----------------------------------------------------------------

    def maxpay(self, op, ts):
        _, hlen = self.w.layout(self.w.ops[op][1], ts)
        return self.mtu - (20 if self.fam == 4 else 40) - 8 - hlen - 4 - 3

    def request(self, t, op, psn, payload=None):
        """one in-window request of opcode OP at PSN to T, fields drawn"""
        r = self.rng
        mask = self.w.ops[op][1]
        ts = r.randrange(4) == 0
        if payload is None and mask & self.w.bit["PAYLOAD"]:
            top = self.maxpay(op, ts)
            payload = r.choice((0, 1, 3, 4, 8, 64, 255, 256, 512, 1023, 1024, 1025,
                                top, r.randrange(top + 1)))
        tp, off = self.transport(None, op, ts=ts, payload=payload or 0)
        payload = payload or 0
        tp[2:4] = b"\xff\xff"
        tp[5:8] = t.qpn.to_bytes(3, "big")
        tp[9:12] = (psn & PSN_MASK).to_bytes(3, "big")
        if "METH" in off:
            # RQMSN: the receive a SEND claims, and MSN
            struct.pack_into(">HH", tp, off["METH"],
                             r.choice((0, 1, 2, r.randrange(8), 0xFFFF, self.interesting(2))),
                             r.choice((0, 1, r.randrange(8), self.interesting(2))))
        if "RETH" in off:
            n = self.length(t, payload)
            if self.w.ops[op][0] == "READ_REQ":
                # READ lengths: small, a burst of MTUs, up to 4 GiB
                n = r.choice((0, 1, 8, 512, t.len, t.len + 1, 4096, 65536, 1 << 20,
                              1 << 31, 0xFFFFFFFF, self.interesting(4)))
            struct.pack_into(">QII", tp, off["RETH"], self.va(t, min(n, t.len)),
                             self.rkey(t), n)
        if "PLETH" in off:
            # the SEND's offset into its message and the message's length
            o = r.choice((0, 0, payload, self.mtu, 1024, 1 << 16, 1 << 31, self.interesting(4)))
            struct.pack_into(">II", tp, off["PLETH"], o,
                             r.choice((o + payload, payload, 0, o, 1 << 31, 0xFFFFFFFF,
                                       self.interesting(4))) & 0xFFFFFFFF)
        if "ATMETH" in off:
            va = r.choice((t.va + 8 * r.randrange(max(1, t.len // 8)),
                           t.va + r.randrange(1, 8), t.va + t.len - 8, t.va + t.len - 4,
                           t.va + t.len, t.va - 8, self.interesting(8)))
            struct.pack_into(">QI", tp, off["ATMETH"], va & (1 << 64) - 1, self.rkey(t))
        if "IETH" in off:
            struct.pack_into(">I", tp, off["IETH"], self.rkey(t))
        pick = r.randrange(16)
        if pick == 0 and len(tp) > self.w.bth:
            tp = tp[:r.randrange(self.w.bth, len(tp))]          # cut short
        elif pick == 1:
            tp += r.randbytes(r.choice((1, 2, 3, 4, 8, 64)))    # longer
        elif pick == 2:
            tp[1] = (tp[1] & 0xCF) | r.randrange(4) << 4        # a pad that may not match
        return tp

    def psn(self, t):
        """in the window: mostly its next PSN and just after it"""
        r = self.rng
        pick = r.randrange(8)
        if pick < 3:
            return t.psn
        if pick < 6:
            return t.psn + r.randrange(1, 16)
        if pick == 6:
            return t.psn + r.randrange(16, RX_WIN)
        return t.psn - r.choice((1, 2))         # the last ones: duplicates

    def message(self, t):
        """a multi-packet SEND or WRITE: FIRST, MIDDLEs, LAST at consecutive
        PSNs (some from the next PSN on), then dropped, swapped, doubled,
        or another message's parts mixed in"""
        r = self.rng
        first, mid, lasts = r.choice(self.msgs)
        k = r.choice((0, 1, 2, 5))
        psn = t.psn if r.randrange(2) else self.psn(t)
        ops = [first] + [mid] * k + [r.choice(lasts)]
        pay = r.choice((256, 512, 1024, self.mtu // 2))
        tps = []
        for i, op in enumerate(ops):
            last = i == len(ops) - 1
            tps.append(self.request(t, op, psn + i,
                                    payload=r.randrange(pay + 1) if last and r.randrange(2)
                                    else pay))
        pick = r.randrange(6)
        if pick == 0 and len(tps) > 1:
            del tps[r.randrange(len(tps))]
        elif pick == 1 and len(tps) > 1:
            i = r.randrange(len(tps) - 1)
            tps[i], tps[i + 1] = tps[i + 1], tps[i]
        elif pick == 2:
            tps.insert(r.randrange(len(tps) + 1), tps[r.randrange(len(tps))])
        elif pick == 3:
            other = r.choice(self.msgs)
            tps.insert(r.randrange(len(tps) + 1),
                       self.request(t, r.choice((other[0], other[1], other[2][0])),
                                    psn + r.randrange(len(ops)), payload=pay))
        return tps

    def burst(self, t, count):
        src, dst, _ = self.fams[self.fam]
        r = self.rng
        n = 0
        while n < count:
            if r.randrange(5) == 0:
                kind, tps = "message", self.message(t)
            else:
                kind, tps = "single", [self.request(t, r.choice(self.reqops), self.psn(t))]
            for tp in tps:
                ip = inj.roce(bytes(tp), src, dst, 0xC000 | r.randrange(1 << 14))
                if len(ip) > self.mtu:
                    continue
                self.send(self.frame(self.fam, ip))
                n += 1
                self.stat["sent"] += 1
                k = "0x%02x" % tp[0]
                self.stat["opcode"][k] = self.stat["opcode"].get(k, 0) + 1
                self.stat["kind"][kind] = self.stat["kind"].get(kind, 0) + 1
        return n

    def serve(self, ctl):
        """bursts on demand: for each go.N in CTL (a line "QPN PSN RKEY VA
        LEN" per target), --count packets at each target, then done.N;
        until CTL/end"""
        i = 0
        end = time.monotonic() + 3600
        while True:
            go = os.path.join(ctl, "go.%d" % i)
            while not os.path.exists(go):
                if os.path.exists(os.path.join(ctl, "end")):
                    return
                if time.monotonic() > end:
                    die("%s never came" % go)
                time.sleep(0.02)
            with open(go) as f:
                ts = [Target(*(int(x, 0) for x in line.split()))
                      for line in f if line.strip()]
            sent = sum(self.burst(t, self.a.count) for t in ts)
            self.stat["bursts"] += len(ts)
            with open(go + ".t", "w") as f:
                f.write("%d\n" % sent)
            os.rename(go + ".t", os.path.join(ctl, "done.%d" % i))
            i += 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ifname", required=True, help="the netdev to send on (this side's)")
    p.add_argument("--dmac", required=True, help="the receiving plane netdev's MAC address")
    p.add_argument("--v4", help="SRC,DST: the victims' peer's and their own IPv4 address")
    p.add_argument("--v6", help="SRC,DST: the same for IPv6")
    p.add_argument("--other4", default="10.77.0.99", help="an IPv4 address no victim talks to")
    p.add_argument("--other6", default="fd77::99", help="an IPv6 address no victim talks to")
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--mtu", type=int, default=1500, help="IF's MTU: no frame is longer")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--wait", metavar="FILE", help="start once FILE exists")
    p.add_argument("--ready", metavar="FILE", help="create FILE once up")
    p.add_argument("--learn", type=float, default=60, help="seconds to wait for live QPs")
    p.add_argument("--dry-run", action="store_true", help="build the packets, send none")
    p.add_argument("--summary", metavar="FILE", help="write the JSON summary there too")
    p.add_argument("--inwin", metavar="DIR",
                   help="in-window requests at the QPs DIR/go.N names (see InWin)")
    a = p.parse_args()
    if not a.v4 and not a.v6:
        die("--v4 or --v6 needed")
    if a.inwin:
        if a.v4 and a.v6:
            die("--inwin: one family")
        fz = InWin(a, Wire(REPO))
        if a.ready:
            open(a.ready, "w").close()
        fz.serve(a.inwin)
        out = dict(fz.stat, seed=a.seed, send_waits=fz.waits)
        text = json.dumps(out, sort_keys=True)
        if a.summary:
            with open(a.summary, "w") as f:
                f.write(text + "\n")
        print(text)
        return
    fz = Fuzzer(a, Wire(REPO))
    if a.ready:
        open(a.ready, "w").close()
    if a.wait:
        end = time.monotonic() + 600
        while not os.path.exists(a.wait):
            fz.sniff()
            if time.monotonic() > end:
                die("%s never came" % a.wait)
            time.sleep(0.02)
    if a.dry_run:
        # what it would send to a QP per family at made-up PSNs (a check of
        # the fuzzer itself, and of what --seed makes of the stream)
        for fam in fz.fams:
            v = fz.victims.setdefault((fam, 16 + fam), Victim(fam, 16 + fam))
            v.rq, v.sq = 0xFFFFF0, 0x000100
    else:
        fz.learn()
    secs = fz.run()
    out = {"seed": a.seed, "sent": a.count, "seconds": round(secs, 1),
           "send_waits": fz.waits, "sniff_drops": fz.sniff_drops(),
           "seconds_sniff": round(fz.t_sniff, 1), "seconds_send": round(fz.t_send, 1),
           "victims": fz.victim_list(), "expect": fz.expect}
    out.update(fz.count)
    text = json.dumps(out, sort_keys=True)
    if a.summary:
        with open(a.summary + ".t", "w") as f:
            f.write(text + "\n")
        os.rename(a.summary + ".t", a.summary)
    print(text)


if __name__ == "__main__":
    main()
