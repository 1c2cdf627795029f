#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send forged MRC packets, as any node on a plane could.

    mrc_inject.py [--src ADDR] --dst ADDR --qpn N --psn N [--count N]
                  [--gap SECS] [--psn-every K] OP [OP args]

sends --count packets --gap seconds apart; with --psn-every K, the PSN
moves on by one after every K of them. With --wait FILE it starts at once
but sends only when FILE appears, and takes the QPN and the PSN from it
("QPN PSN", or "QPN PSN RKEY VA" for read and write); --psn and --va are
then offsets. --ready FILE2 is created once it is up. A caller can start
it ahead of a short window (python takes seconds to start on a slow
kernel) and open the window with one write.

OP is one of
    ack [--syn S]                  ACK (AETH syndrome S, default 0: ACK)
    sack [--cack PSN] [--bitmap B] SACK whose cumulative PSN is --cack
                                   (default --psn)
    read --rkey K --va V --len L   READ request
    write --rkey K --va V [--len L] WRITE_ONLY with L bytes of payload
    cmp-swap --rkey K --va V       CMP_SWAP request (compare 0, swap 1)
    ep-req [--req-id N] [--cookie C] [--ts T]
                                   endpoint request 0xD8 (an EV probe; --qpn
                                   defaults to 2, the endpoint QPN)
    ep-resp [--req-id N] [--cookie C] [--ts T]
                                   endpoint response 0xD9 claiming to answer
                                   probe N with cookie C and timestamp T
    cm-dreq [--qkey Q]             UD SEND_ONLY to QP1 (--qpn defaults to 1)
                                   carrying a CM DREQ MAD of random
                                   communication IDs, DETH Q_Key Q (default
                                   the GSI's, 0x80010000): the CM answers
                                   any it receives with a DREP and counts it
                                   in cm_rx_duplicates/dreq

--pkey sets the BTH P_Key (default 0xffff, the port's). --encap SRC,DST
wraps the (IPv6) packet in an outer IPv6 header from SRC to DST, as an SRv6
path's last hop delivers it (IPv6-in-IPv6, no SRH left).

The packet is RoCEv2 (UDP 4791) over IPv4 or IPv6 (the address family of
--dst), with the ICRC mrc computes (drivers/mrc/mrc_net.c: CRC-32 over the
IP, UDP and BTH headers with their variant fields masked, then the rest),
so that only what it claims is wrong. A raw socket with the IP header
included lets --src be any address. Wire layout: Documentation/mrc/
wire-format.rst; the opcodes and header order are drivers/mrc/mrc_wire.h's.
"""
import argparse
import ipaddress
import socket
import struct
import random
import sys
import time
import zlib

UDP_PORT = 4791
OP = {"ack": 0xD1, "sack": 0xDC, "read": 0xCC, "write": 0xCA, "cmp-swap": 0xD3,
      "cm-dreq": 0x64, "ep-req": 0xD8, "ep-resp": 0xD9}
EP_QPN = 2
GSI_QKEY = 0x80010000


def bth(pkey, opcode, qpn, psn, pad=0, ackreq=False, rtx=False):
    return struct.pack(">BBHB3sB3s", opcode, (pad & 3) << 4, pkey, 0,
                       qpn.to_bytes(3, "big"),
                       (0x80 if ackreq else 0) | (0x40 if rtx else 0),
                       psn.to_bytes(3, "big"))


def transport(a):
    """BTH and the headers after it, payload and pad included."""
    if a.op == "ack":
        return bth(a.pkey, OP["ack"], a.qpn, a.psn) + struct.pack(">B3s", a.syn, b"\0\0\0")
    if a.op == "sack":
        cack = a.psn if a.cack is None else a.cack
        seth = bytearray(28)
        struct.pack_into(">3s", seth, 13, (cack & 0xFFFFFF).to_bytes(3, "big"))
        struct.pack_into(">Q", seth, 20, a.bitmap)
        return bth(a.pkey, OP["sack"], a.qpn, a.psn) + bytes(seth) + bytes(8)
    if a.op in ("ep-req", "ep-resp"):
        # ERTH/EETH (32 bytes): op EV probe, port, req_id, word, cookie,
        # timestamp, EV, port status
        eth = struct.pack(">BBHIQQIHH", 1, 0, a.req_id, 0, a.cookie, a.ts,
                          a.sport << 16, 0, 0)
        return bth(a.pkey, OP[a.op], a.qpn, 0) + eth
    if a.op == "cm-dreq":
        # MAD header: base version 1, class CM (7) version 2, method Send;
        # attribute DREQ (0x15); then local and remote comm ID, remote QPN
        mad = struct.pack(">BBBBHHQHHI", 1, 7, 2, 3, 0, 0, random.getrandbits(64),
                          0x15, 0, 0)
        mad += struct.pack(">III", random.getrandbits(32), random.getrandbits(32),
                           0x123456 << 8)
        mad += bytes(256 - len(mad))
        deth = struct.pack(">IB3s", a.qkey, 0, (1).to_bytes(3, "big"))
        return bth(a.pkey, OP["cm-dreq"], a.qpn, a.psn) + deth + mad
    meth = bytes(4)
    if a.op == "cmp-swap":
        atmeth = struct.pack(">QIQQ", a.va, a.rkey, 1, 0)
        return bth(a.pkey, OP["cmp-swap"], a.qpn, a.psn, ackreq=True) + meth + atmeth
    reth = struct.pack(">QII", a.va, a.rkey, a.len)
    if a.op == "read":
        return bth(a.pkey, OP["read"], a.qpn, a.psn, ackreq=True, rtx=a.rtx) + meth + reth
    pay = bytes(a.len)
    pad = -len(pay) % 4
    return bth(a.pkey, OP["write"], a.qpn, a.psn, pad, True) + meth + reth + pay + bytes(pad)


def icrc(pkt, nhlen):
    """The ICRC of IP packet PKT (an IP header of NHLEN bytes, UDP, BTH, the
    rest, the ICRC's 4 bytes last) as mrc computes it: CRC-32 over the IP,
    UDP and BTH headers with their variant fields set to ones, then every
    byte up to the ICRC."""
    m = bytearray(pkt[:nhlen + 8 + 12])
    if nhlen == 20:
        m[1] = 0xFF                           # TOS
        m[8] = 0xFF                           # TTL
        m[10:12] = b"\xff\xff"                # header checksum
    else:
        m[0] |= 0x0F                          # traffic class, low half
        m[1:4] = b"\xff\xff\xff"             # the rest of it, flow label
        m[7] = 0xFF                           # hop limit
    m[nhlen + 6:nhlen + 8] = b"\xff\xff"      # UDP checksum
    m[nhlen + 8 + 4] = 0xFF                   # BTH reserved/FECN/BECN byte
    return zlib.crc32(bytes(m) + bytes(pkt[nhlen + 20:len(pkt) - 4]))


def ip4_csum(hdr):
    return udp_csum(bytes(hdr[:10]) + b"\0\0" + bytes(hdr[12:]))


def roce(tp, src, dst, sport=0xC000):
    """An IP packet carrying transport bytes TP (BTH to payload and pad) to
    UDP 4791, from SRC to DST (ipaddress objects of one family), ICRC
    appended."""
    ulen = 8 + len(tp) + 4
    udp = struct.pack(">HHHH", sport, UDP_PORT, ulen, 0)
    if dst.version == 4:
        ip = bytearray(struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + ulen, 0x4d52, 0x4000, 64,
                                   socket.IPPROTO_UDP, 0, src.packed, dst.packed))
        ip[10:12] = struct.pack(">H", ip4_csum(ip))
        ip = bytes(ip)
    else:
        ip = struct.pack(">IHBB16s16s", 6 << 28, ulen, socket.IPPROTO_UDP, 64,
                         src.packed, dst.packed)
    crc = icrc(ip + udp + tp + bytes(4), len(ip))
    body = tp + struct.pack("<I", crc)
    if dst.version == 6:
        # IPv6 requires a UDP checksum (the ICRC masks it): without one,
        # an IP stack the packet reaches counts a checksum error
        csum = udp_csum(src.packed + dst.packed +
                        struct.pack(">IxxxB", ulen, socket.IPPROTO_UDP) + udp + body)
        udp = udp[:6] + struct.pack(">H", csum)
    return ip + udp + body


def packet(a, src, dst):
    pkt = roce(transport(a), src, dst, a.sport)
    if not a.encap:
        return pkt
    osrc, odst = (ipaddress.ip_address(x) for x in a.encap.split(","))
    return struct.pack(">IHBB16s16s", 6 << 28, len(pkt), 41, 64, osrc.packed,
                       odst.packed) + pkt


def udp_csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(">%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s & 0xFFFF) or 0xFFFF


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--src", help="source address (default: the route's)")
    p.add_argument("--dst", required=True)
    p.add_argument("--qpn", type=lambda x: int(x, 0))
    p.add_argument("--psn", type=lambda x: int(x, 0), default=0)
    p.add_argument("--wait", metavar="FILE", help="send once FILE holds \"QPN PSN\"")
    p.add_argument("--ready", metavar="FILE", help="create FILE once up")
    p.add_argument("--sport", type=int, default=0xC000, help="UDP source port (the EV's high half)")
    p.add_argument("--pkey", type=lambda x: int(x, 0), default=0xFFFF, help="BTH P_Key")
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--encap", metavar="SRC,DST", help="in an outer IPv6 header")
    p.add_argument("--gap", type=float, default=0.0, help="seconds between packets")
    p.add_argument("--psn-every", type=int, default=0, help="PSN + 1 after every K packets")
    p.add_argument("--rtx", action="store_true", help="BTH RTX set (read: a resent request)")
    sub = p.add_subparsers(dest="op", required=True)
    s = sub.add_parser("ack")
    s.add_argument("--syn", type=lambda x: int(x, 0), default=0)
    s = sub.add_parser("sack")
    s.add_argument("--cack", type=lambda x: int(x, 0))
    s.add_argument("--bitmap", type=lambda x: int(x, 0), default=0)
    for op in ("read", "write", "cmp-swap"):
        s = sub.add_parser(op)
        s.add_argument("--rkey", type=lambda x: int(x, 0), default=0)
        s.add_argument("--va", type=lambda x: int(x, 0), default=0)
        s.add_argument("--len", type=int, default=64 if op == "write" else 4096)
    s = sub.add_parser("cm-dreq")
    s.add_argument("--qkey", type=lambda x: int(x, 0), default=GSI_QKEY)
    for op in ("ep-req", "ep-resp"):
        s = sub.add_parser(op)
        s.add_argument("--req-id", type=lambda x: int(x, 0), default=1)
        s.add_argument("--cookie", type=lambda x: int(x, 0), default=0)
        s.add_argument("--ts", type=lambda x: int(x, 0), default=0)
    a = p.parse_args()
    if a.qpn is None:
        a.qpn = {"cm-dreq": 1, "ep-req": EP_QPN, "ep-resp": EP_QPN}.get(a.op, 0)
    fam = socket.AF_INET if ipaddress.ip_address(a.dst).version == 4 else socket.AF_INET6
    if a.encap and fam != socket.AF_INET6:
        sys.exit("mrc_inject: --encap needs IPv6")
    s = socket.socket(fam, socket.SOCK_RAW, socket.IPPROTO_RAW)
    if a.ready:
        open(a.ready, "w").close()
    if a.wait:
        end = time.monotonic() + 600
        while True:
            try:
                with open(a.wait) as f:
                    words = f.read().split()
                if len(words) >= 2:
                    break
            except FileNotFoundError:
                pass
            if time.monotonic() > end:
                sys.exit("mrc_inject: %s never came" % a.wait)
            time.sleep(0.02)
        a.qpn, a.psn = int(words[0], 0), a.psn + int(words[1], 0)
        if len(words) >= 4 and a.op in ("read", "write", "cmp-swap"):
            a.rkey, a.va = int(words[2], 0), a.va + int(words[3], 0)
    a.psn &= 0xFFFFFF
    dst = ipaddress.ip_address(a.dst)
    if a.src:
        src = ipaddress.ip_address(a.src)
    else:
        with socket.socket(fam, socket.SOCK_DGRAM) as u:
            u.connect((a.dst, UDP_PORT))
            src = ipaddress.ip_address(u.getsockname()[0])
    if src.version != dst.version:
        sys.exit("mrc_inject: --src and --dst of different families")
    psn = a.psn
    with s:
        for i in range(a.count):
            a.psn = (psn + (i // a.psn_every if a.psn_every else 0)) & 0xFFFFFF
            s.sendto(packet(a, src, dst),
                     (a.encap.split(",")[1] if a.encap else a.dst, 0))
            if a.gap and i + 1 < a.count:
                time.sleep(a.gap)


if __name__ == "__main__":
    main()
