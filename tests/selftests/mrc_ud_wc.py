#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UD receive completions of mrc devices, as userspace (UCX) reads them.

  mrc_ud_wc.py DEV_A GID_A DEV_B GID_B

A UD QP on DEV_A sends a message to one on DEV_B (GID indexes GID_A and
GID_B, both IPv4 or both IPv6; the devices may sit in other network
namespaces: they are shared). B's completion must have status success,
wc_flags exactly IBV_WC_GRH (no kernel-only flag), the SL the packet's L3
type as ConnectX reports it (2 IPv4, 1 IPv6; UCX's UD transport reads it
there), A's QP number as src_qp and 40 + the message as byte_len; its GRH
area the IPv6 header (version 6, A's GID as source, B's as destination),
or for IPv4 20 bytes of zeros and the IPv4 header (A's and B's addresses);
the message intact. Then B answers with an AH made from that completion
and its GRH area (ibv_create_ah_from_wc), and A must receive the answer
from B's QP.

Exit status 0 when all of it holds; each failure is printed.
"""
import ipaddress
import sys
import time

import pyverbs.enums as e
from pyverbs.addr import AH, AHAttr, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SGE, SendWR

QKEY = 0x11111111
GRH_LEN = 40
MSG = bytes((i * 7 + 3) & 0xff for i in range(256))
FAILS = []


def fail(what):
    FAILS.append(what)
    print('FAIL: ' + what)


class Side:
    def __init__(self, dev, gid_index):
        self.ctx = Context(name=dev)
        self.pd = PD(self.ctx)
        self.cq = CQ(self.ctx, 8)
        self.mr = MR(self.pd, 4096, e.IBV_ACCESS_LOCAL_WRITE)
        cap = QPCap(max_send_wr=4, max_recv_wr=4, max_send_sge=1, max_recv_sge=1)
        init = QPInitAttr(qp_type=e.IBV_QPT_UD, scq=self.cq, rcq=self.cq, cap=cap)
        attr = QPAttr(port_num=1)
        attr.qkey = QKEY
        self.qp = QP(self.pd, init, attr)
        self.gid_index = gid_index
        self.gid = self.ctx.query_gid(port_num=1, index=gid_index)

    def post_recv(self):
        sge = SGE(self.mr.buf + 1024, GRH_LEN + len(MSG) + 64, self.mr.lkey)
        self.qp.post_recv(RecvWR(wr_id=1, num_sge=1, sg=[sge]))

    def send(self, ah, rqpn):
        self.mr.write(MSG, len(MSG), 0)
        wr = SendWR(wr_id=2, opcode=e.IBV_WR_SEND, num_sge=1,
                    sg=[SGE(self.mr.buf, len(MSG), self.mr.lkey)],
                    send_flags=e.IBV_SEND_SIGNALED)
        wr.set_wr_ud(ah, rqpn, QKEY)
        self.qp.post_send(wr)

    def poll(self, wr_id, secs=10):
        end = time.time() + secs
        while time.time() < end:
            n, wcs = self.cq.poll()
            for wc in wcs[:n]:
                if wc.wr_id == wr_id:
                    return wc
                if wc.status != e.IBV_WC_SUCCESS:
                    fail('completion of wr %d: status %d' % (wc.wr_id, wc.status))
            time.sleep(0.01)
        return None


def addr_of(gid):
    """the IP address of a GID (IPv4 for ::ffff:a.b.c.d)"""
    a = ipaddress.IPv6Address(bytes.fromhex(str(gid).replace(':', '')))
    return a.ipv4_mapped or a


def check_recv(b, wc, a, v4):
    if wc is None:
        fail('B received nothing')
        return False
    if wc.status != e.IBV_WC_SUCCESS:
        fail('B\'s receive: status %d' % wc.status)
        return False
    if wc.wc_flags != e.IBV_WC_GRH:
        fail('wc_flags %#x, want IBV_WC_GRH alone (%#x)' % (wc.wc_flags, e.IBV_WC_GRH))
    want_sl = 2 if v4 else 1
    if wc.sl != want_sl:
        fail('sl %d, want %d (the L3 type: %s)' % (wc.sl, want_sl, 'IPv4' if v4 else 'IPv6'))
    if wc.src_qp != a.qp.qp_num:
        fail('src_qp %#x, want A\'s QP %#x' % (wc.src_qp, a.qp.qp_num))
    if wc.byte_len != GRH_LEN + len(MSG):
        fail('byte_len %d, want %d' % (wc.byte_len, GRH_LEN + len(MSG)))
    grh = b.mr.read(GRH_LEN, 1024)
    src, dst = addr_of(a.gid), addr_of(b.gid)
    if v4:
        if grh[:20] != bytes(20):
            fail('IPv4: the GRH area\'s first 20 bytes are not zero: %s' % grh[:20].hex())
        ip = grh[20:]
        if ip[0] != 0x45 or ip[9] != 17:
            fail('IPv4: no IPv4/UDP header at offset 20: %s' % ip.hex())
        if ipaddress.IPv4Address(ip[12:16]) != src or ipaddress.IPv4Address(ip[16:20]) != dst:
            fail('IPv4: header from %s to %s, want %s to %s' % (
                ipaddress.IPv4Address(ip[12:16]), ipaddress.IPv4Address(ip[16:20]), src, dst))
    else:
        if grh[0] >> 4 != 6 or grh[6] != 17:
            fail('IPv6: no IPv6/UDP header in the GRH area: %s' % grh[:8].hex())
        if ipaddress.IPv6Address(grh[8:24]) != src or ipaddress.IPv6Address(grh[24:40]) != dst:
            fail('IPv6: header from %s to %s, want %s to %s' % (
                ipaddress.IPv6Address(grh[8:24]), ipaddress.IPv6Address(grh[24:40]), src, dst))
    got = b.mr.read(len(MSG), 1024 + GRH_LEN)
    if got != MSG:
        fail('the message arrived changed')
    return True


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    a = Side(sys.argv[1], int(sys.argv[2]))
    b = Side(sys.argv[3], int(sys.argv[4]))
    v4 = isinstance(addr_of(a.gid), ipaddress.IPv4Address)
    print('A %s %s qp %#x -> B %s %s qp %#x' % (sys.argv[1], addr_of(a.gid), a.qp.qp_num,
                                                 sys.argv[3], addr_of(b.gid), b.qp.qp_num))
    ah = AH(a.pd, attr=AHAttr(port_num=1, is_global=1,
                              gr=GlobalRoute(dgid=b.gid, sgid_index=a.gid_index, hop_limit=64)))
    b.post_recv()
    a.post_recv()
    a.send(ah, b.qp.qp_num)
    if a.poll(2) is None:
        fail('A\'s send did not complete')
    wc = b.poll(1)
    if not check_recv(b, wc, a, v4):
        return 1
    print('B: wc_flags %#x sl %d src_qp %#x byte_len %d' % (wc.wc_flags, wc.sl, wc.src_qp,
                                                            wc.byte_len))

    # the answer, through an AH from the completion and the GRH area as
    # it arrived (pyverbs takes its address)
    try:
        back = AH(b.pd, wc=wc, port_num=1, grh=b.mr.buf + 1024)
    except Exception as ex:  # pyverbs raises its own error types
        fail('ibv_create_ah_from_wc on B: %s' % ex)
        return 1
    b.send(back, wc.src_qp)
    if b.poll(2) is None:
        fail('B\'s answer did not complete')
    wc2 = a.poll(1)
    if wc2 is None or wc2.status != e.IBV_WC_SUCCESS:
        fail('A did not receive the answer sent with the AH from the completion')
    elif wc2.src_qp != b.qp.qp_num or wc2.sl != (2 if v4 else 1):
        fail('the answer: src_qp %#x sl %d' % (wc2.src_qp, wc2.sl))
    else:
        print('A: the answer from B\'s QP %#x' % wc2.src_qp)
    return 1 if FAILS else 0


if __name__ == '__main__':
    sys.exit(main())
