#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UC traffic between two mrc devices (two namespaces), data checked.

  mrc_uc.py traffic DEV_A GID_INDEX_A DEV_B GID_INDEX_B N [CLEAR_CMD]
  mrc_uc.py mismatch DEV_A GID_INDEX_A DEV_B GID_INDEX_B

A UC QP on DEV_A connected to one on DEV_B (pyverbs, as rdma-core's tests
connect theirs). A sends N SENDs of 4 KiB (four packets each at path MTU
1024), every other one with immediate data, then a WRITE of 16 KiB and
a WRITE with immediate of 8 KiB into B's MR; every message is made of
its own index, so that B can tell which arrived and that each is whole.

Without CLEAR_CMD the path is clean: every send completes well, every
message arrives, whole, in order, and the WRITEs' bytes are in B's MR.

With CLEAR_CMD the caller made the path lose packets: every send still
completes well (UC waits for nothing), whatever arrives is whole and in
order (a message with a lost packet never completes a receive: its
receive WQE takes the next message), no completion is an error, and both
QPs stay in RTS. Then CLEAR_CMD (a shell command) removes the loss and 8
more SENDs must all arrive, whole: the QP goes on after its losses.

mismatch: A's UC QP is connected to an RC QP of B, and an RC QP of A to
a UC QP of B; A sends 5 SENDs on each. Every packet reaches a QP of the
other type: the UC sends complete at A (nothing waits), B's QPs complete
no receive and stay in RTS. The caller checks that B counted the packets
as malformed (5 UC ones at least, and the RC ones with their resends).
Then A's UC QP posts an RDMA READ, which UC does not have: refused, by
post_send (EINVAL) or by a local QP operation error completion, as rxe.

Exit status 0 when all of that holds.
"""
import errno
import socket
import struct
import subprocess
import sys
import time

import pyverbs.enums as e
from pyverbs.addr import AHAttr, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SendWR, SGE

MSG = 4096
DEPTH = 512
WRITE_LEN = 16384
WIMM_LEN = 8192


class End:
    def __init__(self, dev, gid_index, nbuf, qp_type=e.IBV_QPT_UC, ctx=None):
        self.ctx = ctx or Context(name=dev)
        self.gid_index = gid_index
        self.gid = self.ctx.query_gid(1, gid_index)
        self.pd = PD(self.ctx)
        self.cq = CQ(self.ctx, 2 * DEPTH)
        cap = QPCap(max_send_wr=DEPTH, max_recv_wr=DEPTH, max_send_sge=1,
                    max_recv_sge=1)
        self.qp_type = qp_type
        self.qp = QP(self.pd, QPInitAttr(qp_type=qp_type, scq=self.cq,
                                         rcq=self.cq, cap=cap,
                                         sq_sig_all=1))
        self.mr = MR(self.pd, nbuf * MSG + WRITE_LEN + WIMM_LEN,
                     e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE)
        self.nbuf = nbuf

    def connect(self, peer):
        attr = QPAttr()
        attr.qp_access_flags = e.IBV_ACCESS_LOCAL_WRITE | \
            e.IBV_ACCESS_REMOTE_WRITE
        attr.path_mtu = e.IBV_MTU_1024
        attr.dest_qp_num = peer.qp.qp_num
        attr.rq_psn = 0x7ff0		# wraps nothing, but not 0
        attr.sq_psn = 0x7ff0
        gr = GlobalRoute(dgid=peer.gid, sgid_index=self.gid_index)
        attr.ah_attr = AHAttr(port_num=1, is_global=1, gr=gr)
        if self.qp_type == e.IBV_QPT_RC:
            attr.timeout, attr.retry_cnt, attr.rnr_retry = 14, 7, 7
            attr.min_rnr_timer = 12
            attr.max_rd_atomic = attr.max_dest_rd_atomic = 1
        self.qp.to_rts(attr)

    def state(self):
        attr, _ = self.qp.query(e.IBV_QP_STATE)
        return attr.qp_state

    def post_recvs(self, first, n):
        for i in range(first, first + n):
            slot = i % self.nbuf
            sge = SGE(self.mr.buf + slot * MSG, MSG, self.mr.lkey)
            self.qp.post_recv(RecvWR(wr_id=i, num_sge=1, sg=[sge]))

    def poll(self, want, secs):
        wcs, end = [], time.monotonic() + secs
        while len(wcs) < want and time.monotonic() < end:
            n, got = self.cq.poll(want - len(wcs))
            wcs.extend(got)
            if not n:
                time.sleep(0.005)
        return wcs


def payload(idx, length):
    """@length bytes that name message @idx in every 8 of them"""
    return struct.pack('>II', 0x55430000 | (idx & 0xffff), idx) * (length // 8)


def send(a, idx, imm):
    slot = idx % a.nbuf
    a.mr.write(payload(idx, MSG), MSG, slot * MSG)
    sge = SGE(a.mr.buf + slot * MSG, MSG, a.mr.lkey)
    wr = SendWR(wr_id=idx, opcode=e.IBV_WR_SEND_WITH_IMM if imm else
                e.IBV_WR_SEND, num_sge=1, sg=[sge])
    if imm:
        wr.imm_data = socket.htonl(idx)
    a.qp.post_send(wr)


def write(a, b, idx, off, length, imm):
    a.mr.write(payload(idx, length), length, off)
    sge = SGE(a.mr.buf + off, length, a.mr.lkey)
    wr = SendWR(wr_id=idx, opcode=e.IBV_WR_RDMA_WRITE_WITH_IMM if imm else
                e.IBV_WR_RDMA_WRITE, num_sge=1, sg=[sge])
    wr.set_wr_rdma(b.mr.rkey, b.mr.buf + off)
    if imm:
        wr.imm_data = socket.htonl(idx)
    a.qp.post_send(wr)


def check_recvs(b, wcs, sent_imm):
    """The receive completions @wcs: (indexes in order, problems)"""
    got, bad, last = [], [], -1
    for i, wc in enumerate(wcs):
        if wc.status != e.IBV_WC_SUCCESS:
            bad.append(f'completion {i}: status {wc.status}')
            continue
        slot = wc.wr_id % b.nbuf
        if wc.opcode == e.IBV_WC_RECV_RDMA_WITH_IMM:
            got.append(('wimm', socket.ntohl(wc.imm_data)))
            continue
        data = b.mr.read(MSG, slot * MSG)
        idx = struct.unpack_from('>I', data, 4)[0]
        if wc.byte_len != MSG or data != payload(idx, MSG):
            bad.append(f'completion {i}: message not whole (len '
                       f'{wc.byte_len}, index {idx})')
        if idx <= last:
            bad.append(f'completion {i}: message {idx} after {last}')
        last = idx
        has_imm = bool(wc.wc_flags & e.IBV_WC_WITH_IMM)
        if has_imm != (idx in sent_imm) or \
           (has_imm and socket.ntohl(wc.imm_data) != idx):
            bad.append(f'completion {i}: immediate data wrong')
        got.append(('send', idx))
    return got, bad


def mismatch(dev_a, gid_a, dev_b, gid_b):
    auc = End(dev_a, gid_a, 16)
    arc = End(dev_a, gid_a, 16, e.IBV_QPT_RC, auc.ctx)
    brc = End(dev_b, gid_b, 16, e.IBV_QPT_RC)
    buc = End(dev_b, gid_b, 16, e.IBV_QPT_UC, brc.ctx)
    auc.connect(brc)
    brc.connect(auc)
    arc.connect(buc)
    buc.connect(arc)
    brc.post_recvs(0, 8)
    buc.post_recvs(0, 8)
    for i in range(5):
        send(auc, i, 0)
        send(arc, 100 + i, 0)
    time.sleep(2)
    a_uc = auc.poll(8, 5)
    b_rc, b_uc = brc.poll(8, 1), buc.poll(8, 1)
    states = [brc.state(), buc.state()]
    ok = (len(a_uc) == 5 and
          all(wc.status == e.IBV_WC_SUCCESS for wc in a_uc) and
          not b_rc and not b_uc and states == [e.IBV_QPS_RTS] * 2)
    print(f'{"ok" if ok else "FAILED"}: UC into an RC QP and RC into a UC '
          f'QP: {len(a_uc)} of 5 UC sends completed at A '
          f'({[wc.status for wc in a_uc]}), receives completed at B: RC '
          f'QP {len(b_rc)}, UC QP {len(b_uc)} (want none), B\'s QPs in '
          f'{states} (RTS: {e.IBV_QPS_RTS})')
    sge = SGE(auc.mr.buf, 64, auc.mr.lkey)
    wr = SendWR(wr_id=77, opcode=e.IBV_WR_RDMA_READ, num_sge=1, sg=[sge])
    wr.set_wr_rdma(buc.mr.rkey, buc.mr.buf)
    try:
        auc.qp.post_send(wr)
        wcs = auc.poll(1, 5)
        refused = len(wcs) == 1 and wcs[0].status == e.IBV_WC_LOC_QP_OP_ERR
        how = f'completion status {[wc.status for wc in wcs]}'
    except PyverbsRDMAError as ex:
        refused = ex.error_code == errno.EINVAL
        how = f'post_send: {ex}'
    print(f'{"ok" if refused else "FAILED"}: an RDMA READ on a UC QP is '
          f'refused: {how} (local QP operation error: '
          f'{e.IBV_WC_LOC_QP_OP_ERR})')
    return 0 if ok and refused else 1


def main():
    if sys.argv[1:2] == ['mismatch'] and len(sys.argv) == 6:
        return mismatch(sys.argv[2], int(sys.argv[3]), sys.argv[4],
                        int(sys.argv[5]))
    if sys.argv[1:2] != ['traffic'] or len(sys.argv) not in (7, 8) or \
       not 0 < int(sys.argv[6]) <= DEPTH - 24:
        sys.exit(__doc__)
    dev_a, gid_a, dev_b, gid_b = sys.argv[2], int(sys.argv[3]), \
        sys.argv[4], int(sys.argv[5])
    n = int(sys.argv[6])
    clear = sys.argv[7] if len(sys.argv) == 8 else None
    nbuf = min(n + 16, DEPTH - 8)
    a, b = End(dev_a, gid_a, nbuf), End(dev_b, gid_b, nbuf)
    a.connect(b)
    b.connect(a)
    ok = True
    b.post_recvs(0, min(n + 1, DEPTH - 8))
    sent_imm, wcs_a = set(), []
    for i in range(n):
        send(a, i, i % 2)
        if i % 2:
            sent_imm.add(i)
        if i % 64 == 63:	# keep within the SQ
            wcs_a.extend(a.poll(64, 30))
    woff = nbuf * MSG
    write(a, b, n, woff, WRITE_LEN, False)
    write(a, b, n + 1, woff + WRITE_LEN, WIMM_LEN, True)
    # the sends complete by themselves; B's completions share the CQ
    time.sleep(2)
    wcs_a.extend(a.poll(n + 2 - len(wcs_a), 10))
    wcs_b = b.poll(2 * DEPTH, 1)
    bad_a = [wc.status for wc in wcs_a if wc.status != e.IBV_WC_SUCCESS]
    got, bad = check_recvs(b, wcs_b, sent_imm)
    sends = [i for k, i in got if k == 'send']
    wimm = [i for k, i in got if k == 'wimm']
    wdata = b.mr.read(WRITE_LEN, woff) == payload(n, WRITE_LEN)
    widata = b.mr.read(WIMM_LEN, woff + WRITE_LEN) == payload(n + 1, WIMM_LEN)
    print(f'A: {len(wcs_a)} of {n + 2} send completions, '
          f'errors {bad_a}; B: {len(sends)} of {n} SENDs arrived, '
          f'WRITE with immediate {wimm}, WRITE bytes in place {wdata}, '
          f'WRITE with immediate bytes in place {widata}; states A '
          f'{a.state()} B {b.state()}')
    for x in bad[:10]:
        print(f'  {x}')
    ok &= not bad and not bad_a and len(wcs_a) == n + 2
    ok &= a.state() == e.IBV_QPS_RTS and b.state() == e.IBV_QPS_RTS
    if clear is None:
        ok &= sends == list(range(n)) and wimm == [n + 1] and wdata and widata
        print(f'{"ok" if ok else "FAILED"}: clean path: every UC message '
              f'arrived whole, in order')
        return 0 if ok else 1
    ok &= 0 < len(sends)
    print(f'{"ok" if ok else "FAILED"}: lossy path: what arrived is whole '
          f'and in order, no error, both QPs in RTS')
    subprocess.run(clear, shell=True, check=False)
    # receives left from the lossy part take the next messages first
    posted = min(n + 1, DEPTH - 8)
    left = posted - len(sends) - len(wimm)
    b.post_recvs(posted, 8)
    base = 1 << 20
    for i in range(base, base + 8):
        send(a, i, 0)
    time.sleep(1)
    later = b.poll(16, 10)
    got2, bad2 = check_recvs(b, later, set())
    sends2 = [i for k, i in got2 if k == 'send']
    ok2 = sends2 == list(range(base, base + 8)) and not bad2 and \
        b.state() == e.IBV_QPS_RTS
    print(f'{"ok" if ok2 else "FAILED"}: after the loss: {len(sends2)} of 8 '
          f'later SENDs arrived whole, in order ({left} receives were '
          f'left); problems {bad2[:5]}')
    return 0 if ok and ok2 else 1


if __name__ == '__main__':
    sys.exit(main())
