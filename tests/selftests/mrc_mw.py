#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A memory window across two namespaces (pyverbs, real packets).

  mrc_mw.py DEV_A GID_INDEX_A DEV_B GID_INDEX_B

An RC QP of DEV_A writes into a type 2 window that B's QP bound to part of
an MR without remote access. DEV_A claims MEM_WINDOW and
MEM_WINDOW_TYPE_2B; the bind completes (BIND_MW), a WRITE through the
window's rkey lands, the MR cannot be deregistered while the window is
bound (EBUSY); a SEND with invalidate of its rkey from a second QP pair
of the same PDs fails at B's second QP and leaves the window valid (it is
bound to B's first QP); after a local invalidation on B's QP, a WRITE
through the rkey ends in a remote access error and B's memory stays as
it was. B's QP is then in ERR (IBA's class C error, as for a bad MR
key); reset and connected again, with a new window bound, a WRITE lands
through its rkey; one with another key byte fails with a remote access
error. Deallocating the bound window lets the MR go.
"""
import errno
import os
import sys
import time


def strerr(err):
    return os.strerror(err) if err else 'ok'


def mw(dev_a, gid_a, dev_b, gid_b):
    from types import SimpleNamespace
    import pyverbs.enums as e
    from pyverbs.addr import AHAttr, GlobalRoute
    from pyverbs.cq import CQ
    from pyverbs.device import Context
    from pyverbs.mr import MR, MW, MWBindInfo
    from pyverbs.pd import PD
    from pyverbs.pyverbs_error import PyverbsRDMAError
    from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
    from pyverbs.wr import SGE, RecvWR, SendWR

    rc = 0

    def check(what, ok, got=''):
        nonlocal rc
        print(f'{"ok" if ok else "FAILED"}: {what}{": " if got else ""}{got}')
        if not ok:
            rc = 1
        return ok

    def new_qp(end):
        cq = CQ(end.ctx, 16)
        cap = QPCap(max_send_wr=8, max_recv_wr=8)
        return cq, QP(end.pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq,
                                         rcq=cq, cap=cap))

    ends = []
    for dev, gi in ((dev_a, gid_a), (dev_b, gid_b)):
        ctx = Context(name=dev)
        end = SimpleNamespace(ctx=ctx, pd=PD(ctx), gi=gi,
                              gid=ctx.query_gid(1, gi))
        end.cq, end.qp = new_qp(end)
        ends.append(end)
    a, b = ends
    attr = a.ctx.query_device()
    want = e.IBV_DEVICE_MEM_WINDOW | e.IBV_DEVICE_MEM_WINDOW_TYPE_2B
    check('device claims MEM_WINDOW and MEM_WINDOW_TYPE_2B, max_mw > 0',
          attr.device_cap_flags & want == want and attr.max_mw > 0,
          f'device_cap_flags {attr.device_cap_flags:#x}, '
          f'max_mw {attr.max_mw}')

    def connect(psn, x=a, y=b):
        for me, peer in ((x, y), (y, x)):
            qa = QPAttr(port_num=1)
            qa.qp_access_flags = (e.IBV_ACCESS_LOCAL_WRITE |
                                  e.IBV_ACCESS_REMOTE_WRITE)
            qa.path_mtu = e.IBV_MTU_1024
            qa.max_dest_rd_atomic = qa.max_rd_atomic = 1
            qa.min_rnr_timer, qa.timeout = 12, 14
            qa.retry_cnt = qa.rnr_retry = 7
            qa.ah_attr = AHAttr(port_num=1, is_global=1,
                                gr=GlobalRoute(dgid=peer.gid,
                                               sgid_index=me.gi))
            qa.dest_qp_num = peer.qp.qp_num
            qa.rq_psn = qa.sq_psn = psn
            me.qp.to_rts(qa)

    def wc(end, secs=20):
        end_t = time.monotonic() + secs
        while time.monotonic() < end_t:
            n, wcs = end.cq.poll()
            if n:
                return wcs[0].status, wcs[0].opcode
            time.sleep(0.01)
        return None

    connect(100)
    a.mr = MR(a.pd, 4096, e.IBV_ACCESS_LOCAL_WRITE)
    b.mr = MR(b.pd, 4096, e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_MW_BIND)
    b.mr.write(bytes(4096), 4096)
    win_off, win_len = 1024, 1024
    access = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE
    windows = [MW(b.pd, e.IBV_MW_TYPE_2)]

    def bind(window):
        wr = SendWR(opcode=e.IBV_WR_BIND_MW)
        wr.set_bind_wr(window, MWBindInfo(b.mr, b.mr.buf + win_off, win_len,
                                          access))
        b.qp.post_send(wr)
        got = wc(b)
        check('B binds a type 2 window to 1 KiB of its MR', got ==
              (e.IBV_WC_SUCCESS, e.IBV_WC_BIND_MW), f'(status, opcode) {got}')
        return wr.rkey

    def write(rkey, off, data):
        a.mr.write(data, len(data))
        wr = SendWR(opcode=e.IBV_WR_RDMA_WRITE, num_sge=1,
                    sg=[SGE(a.mr.buf, len(data), a.mr.lkey)])
        wr.set_wr_rdma(rkey, b.mr.buf + off)
        a.qp.post_send(wr)
        return wc(a)

    def write_lands(what, rkey, off, data):
        got = write(rkey, off, data)
        check(what, got == (e.IBV_WC_SUCCESS, e.IBV_WC_RDMA_WRITE) and
              b.mr.read(len(data), off) == data, f'(status, opcode) {got}')

    rkey = bind(windows[0])
    write_lands('a WRITE through the window rkey lands', rkey, win_off + 16,
                b'window!!' * 8)
    try:
        b.mr.close()
        check('the MR with a window bound is not deregistered', False)
    except PyverbsRDMAError as ex:
        check('the MR with a window bound is not deregistered (EBUSY)',
              ex.error_code == errno.EBUSY, strerr(ex.error_code))

    # a second QP pair, A2 to B2, in the same PDs: B's window is bound to
    # B's first QP, so a SEND with invalidate of its rkey that arrives on
    # B2 must not free it
    a2 = SimpleNamespace(ctx=a.ctx, pd=a.pd, gi=a.gi, gid=a.gid, mr=a.mr)
    b2 = SimpleNamespace(ctx=b.ctx, pd=b.pd, gi=b.gi, gid=b.gid, mr=b.mr)
    for end in (a2, b2):
        end.cq, end.qp = new_qp(end)
    connect(300, a2, b2)
    b2.qp.post_recv(RecvWR(num_sge=1, sg=[SGE(b.mr.buf, 64, b.mr.lkey)]))
    sinv = SendWR(opcode=e.IBV_WR_SEND_WITH_INV, num_sge=1,
                  sg=[SGE(a.mr.buf, 8, a.mr.lkey)])
    sinv.imm_data = rkey
    a2.qp.post_send(sinv)
    wc(a2)
    got = wc(b2)
    check('a SEND with invalidate of the window from another QP: '
          'B2\'s receive fails', got is not None and
          got[0] != e.IBV_WC_SUCCESS, f'(status, opcode) {got}')
    write_lands('the window stays valid: a WRITE through its rkey lands',
                rkey, win_off + 128, b'still!!!' * 8)
    for end in (a2, b2):
        end.qp.close()
        end.cq.close()

    inv = SendWR(opcode=e.IBV_WR_LOCAL_INV)
    inv.imm_data = rkey
    b.qp.post_send(inv)
    got = wc(b)
    check('B invalidates the window (LOCAL_INV)',
          got == (e.IBV_WC_SUCCESS, e.IBV_WC_LOCAL_INV),
          f'(status, opcode) {got}')
    before = b.mr.read(4096, 0)
    got = write(rkey, win_off + 16, b'x' * 64)
    check('a WRITE through the invalidated rkey: remote access error',
          got is not None and got[0] == e.IBV_WC_REM_ACCESS_ERR and
          b.mr.read(4096, 0) == before, f'(status, opcode) {got}')

    # the responder's QP: in ERR as IBA's class C errors want, and usable
    # again once reset and connected
    state = b.qp.query(e.IBV_QP_STATE)[0].qp_state
    print(f'B\'s QP after the refused WRITE: state {state}')
    for end in (a, b):
        ra = QPAttr()
        ra.qp_state = e.IBV_QPS_RESET
        end.qp.modify(ra, e.IBV_QP_STATE)
        while end.cq.poll()[0]:
            pass
    connect(5000)
    # (a new window: pyverbs would name the first by its first key, which
    # its bind replaced, and mrc, as rxe, wants a window's current key)
    windows.append(MW(b.pd, e.IBV_MW_TYPE_2))
    rkey = bind(windows[1])
    write_lands('B\'s QP reset and reconnected: a WRITE through the new '
                'rkey lands', rkey, win_off + 512, b'again!!!' * 8)
    before = b.mr.read(4096, 0)
    got = write(rkey ^ 0x5a, win_off + 512, b'y' * 64)
    check('a WRITE with another key byte: remote access error',
          got is not None and got[0] == e.IBV_WC_REM_ACCESS_ERR and
          b.mr.read(4096, 0) == before, f'(status, opcode) {got}')
    for w in windows:
        w.close()
    try:
        b.mr.close()
        check('dealloc of the bound window lets the MR go', True)
    except PyverbsRDMAError as ex:
        check('dealloc of the bound window lets the MR go', False,
              strerr(ex.error_code))
    for end in (a, b):
        end.ctx.close()
    return rc


def main():
    a = sys.argv[1:]
    if len(a) != 4:
        sys.exit(__doc__)
    return mw(a[0], int(a[1]), a[2], int(a[3]))


if __name__ == '__main__':
    sys.exit(main())
