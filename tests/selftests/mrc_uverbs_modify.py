#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verbs that change an object in place, at an mrc device: rereg_mr, SRQ
resize, and what is refused (creation flags, modify_cq). Built on
mrc_uverbs.py's raw uverbs commands and its RC QP pair across two
namespaces.

  mrc_uverbs_modify.py rereg DEV_A GID_INDEX_A DEV_B GID_INDEX_B
  mrc_uverbs_modify.py srq-resize DEV_A GID_INDEX_A DEV_B GID_INDEX_B
  mrc_uverbs_modify.py create-flags DEV

rereg: ibv_rereg_mr (rdma-core 44's rxe provider cannot send it) of
B's MR, with RDMA WRITEs from an RC QP of DEV_A checking which key and
which memory the responder uses, each case on a fresh QP pair: a new
translation (another page) takes WRITEs with the new rkey there, and the
old rkey then ends in a remote access error, the old page untouched; an
access change that drops remote write makes a WRITE with the new rkey a
remote access error, one that adds it takes the WRITE, the old rkey
refused; a PD change to another PD makes WRITEs remote access errors, and
back to the QP's PD they land again; a rereg of A's own MR leaves a WRITE
from its old lkey a local protection error; a rereg 0, 2 or 8 ms after 8
WRITEs of 64 KiB with the old rkey were posted leaves those before it
completed (their bytes placed), then one remote access error and
flushes. Each rereg must give new keys.

srq-resize: an RC QP of DEV_B on an SRQ of 4 WRs with 3 receive WQEs
posted in its mapped ring: a resize to 1 WR (fewer slots than WQEs
outstanding) is refused with EINVAL, a resize to 64 keeps the three in
the new ring the provider maps (the mminfo rxe's ABI writes where the
command points), two more are posted there, and 5 SENDs from DEV_A land
in the five WQEs' buffers in posting order; then, the SRQ empty, a
resize down to 2 WRs works and one more SEND lands in a WQE posted there.
Then through libibverbs and the rxe provider (ibv_modify_srq): a resize
below the 3 WQEs posted is EINVAL, one to 64 works, and 40 more WQEs
can be posted into the ring the provider mapped anew.

create-flags: through libibverbs and the rxe provider, as applications
ask: a CQ with IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN or completion
timestamps, and a QP with a creation flag (IBV_QP_CREATE_BLOCK_SELF_
MCAST_LB), are refused with EOPNOTSUPP, as on rxe 6.12; an extended CQ
and an extended QP with sq_sig_all and no flags are created. Then
modify_cq (CQ moderation, a raw extended command) is refused with
EOPNOTSUPP.

Exit status 0 when every command returned what it must.
"""
import ctypes
import errno
import mmap
import os
import struct
import sys
import time
from itertools import dropwhile

from mrc_uverbs import (A_LWRITE, A_RREAD, A_RWRITE, Q_CONS, Q_DATA, Q_PROD,
                        WC_FLUSH_ERR, WC_LOC_PROT, WC_OK, WC_RDMA_WRITE,
                        WC_RECV, WC_REM_ACCESS, WC_SEND, WR_RDMA_WRITE,
                        WR_SEND, Dev, MpePair, _elem, mpe_ends, strerr)

REREG_TRANS, REREG_PD, REREG_ACCESS = 1, 2, 4


def rereg(dev_a, gid_a, dev_b, gid_b):
    a, b = mpe_ends(dev_a, gid_a, dev_b, gid_b)
    rw = A_LWRITE | A_RWRITE
    data = [bytes([0x31 + i]) * 64 for i in range(2)]
    rc = 0

    def write(p, i, va, rkey, want):
        """WRITE data[i] to @va with @rkey; its completion must be @want"""
        err = p.post(WR_RDMA_WRITE, 0x100 + i, va, rkey=rkey, length=64,
                     value=data[i], aoff=64 * i)
        got = p.cqes(i + 1)
        got = (got[i][1], got[i][2]) if len(got) > i else None
        return not err and got == (want, WC_RDMA_WRITE), f'{got}'

    def report(what, ok, detail):
        nonlocal rc
        print(f'{"ok" if ok else "FAILED"}: {what}: {detail}')
        rc |= 0 if ok else 1

    def rekey(d, mr, flags, old, **kw):
        err, lkey, rkey = d.rereg_mr(mr, flags, **kw)
        if err or rkey == old or lkey == old:
            return None, f'rereg {strerr(err)}, keys {lkey} {rkey} (old {old})'
        return (lkey, rkey), ''

    # a new translation: the new rkey reaches the new page only
    p = MpePair(a, b, rw, A_RWRITE)
    m2 = mmap.mmap(-1, 4096)
    m2[:] = b'\x5a' * 4096
    addr2 = ctypes.addressof(ctypes.c_char.from_buffer(m2))
    before = bytes(p.buf)
    keys, why = rekey(b[0], p.mr, REREG_TRANS, p.rkey, addr=addr2,
                      length=4096)
    ok1, g1 = write(p, 0, addr2 + 128, keys[1], WC_OK) if keys else (0, '')
    ok2, g2 = write(p, 1, p.addr + 128, p.rkey, WC_REM_ACCESS) if keys \
        else (0, '')
    mem = (bytes(m2[128:192]) == data[0] and bytes(p.buf) == before and
           bytes(m2[:128]) + bytes(m2[192:]) == b'\x5a' * 4032)
    report('new translation: WRITE with the new rkey lands in the new page, '
           'the old rkey is a remote access error',
           keys and ok1 and ok2 and mem,
           f'{why}completions {g1} {g2}, memory as wanted: {mem}')
    p.close()
    del addr2
    m2.close()

    # access: remote write dropped
    p = MpePair(a, b, rw, A_RWRITE)
    ok1, g1 = write(p, 0, p.addr, p.rkey, WC_OK)
    keys, why = rekey(b[0], p.mr, REREG_ACCESS, p.rkey,
                      access=A_LWRITE | A_RREAD)
    ok2, g2 = write(p, 1, p.addr + 64, keys[1], WC_REM_ACCESS) if keys \
        else (0, '')
    mem = bytes(p.buf[:64]) == data[0] and bytes(p.buf[64:128]) != data[1]
    report('access without remote write: WRITE with the new rkey is a '
           'remote access error', ok1 and keys and ok2 and mem,
           f'{why}completions {g1} {g2}, memory as wanted: {mem}')
    p.close()

    # access: remote write added
    p = MpePair(a, b, A_LWRITE, A_RWRITE)
    keys, why = rekey(b[0], p.mr, REREG_ACCESS, p.rkey, access=rw)
    ok1, g1 = write(p, 0, p.addr, keys[1], WC_OK) if keys else (0, '')
    ok2, g2 = write(p, 1, p.addr + 64, p.rkey, WC_REM_ACCESS) if keys \
        else (0, '')
    mem = bytes(p.buf[:64]) == data[0] and bytes(p.buf[64:128]) != data[1]
    report('access with remote write: the new rkey takes a WRITE, the old '
           'one is a remote access error', keys and ok1 and ok2 and mem,
           f'{why}completions {g1} {g2}, memory as wanted: {mem}')
    p.close()

    # PD: another one, then back to the QP's
    pd2 = b[0].alloc_pd()
    p = MpePair(a, b, rw, A_RWRITE)
    keys, why = rekey(b[0], p.mr, REREG_PD, p.rkey, pd=pd2)
    ok1, g1 = write(p, 0, p.addr, keys[1], WC_REM_ACCESS) if keys \
        else (0, '')
    report('PD of the MR not the QP\'s: remote access error', keys and ok1,
           f'{why}completions {g1}')
    p.close()
    p = MpePair(a, b, rw, A_RWRITE)
    keys, why = rekey(b[0], p.mr, REREG_PD, p.rkey, pd=pd2)
    keys2, why2 = rekey(b[0], p.mr, REREG_PD, keys[1], pd=b[0].pd) if keys \
        else (None, '')
    ok1, g1 = write(p, 0, p.addr, keys2[1], WC_OK) if keys2 else (0, '')
    ok2, g2 = write(p, 1, p.addr + 64, keys[1], WC_REM_ACCESS) if keys2 \
        else (0, '')
    mem = bytes(p.buf[:64]) == data[0] and bytes(p.buf[64:128]) != data[1]
    report('PD back to the QP\'s: the WRITE lands, the key of the other PD '
           'is a remote access error', keys2 and ok1 and ok2 and mem,
           f'{why}{why2}completions {g1} {g2}, memory as wanted: {mem}')
    p.close()

    # the requester's own MR: its old lkey is refused locally
    p = MpePair(a, b, rw, A_RWRITE)
    old = p.lkey
    keys, why = rekey(a[0], p.amr, REREG_ACCESS, old, access=A_LWRITE)
    if keys:
        p.lkey = keys[0]
    ok1, g1 = write(p, 0, p.addr, p.rkey, WC_OK) if keys else (0, '')
    p.lkey = old
    ok2, g2 = write(p, 1, p.addr + 64, p.rkey, WC_LOC_PROT) if keys \
        else (0, '')
    report('the old lkey of a reregistered MR: local protection error',
           keys and ok1 and ok2, f'{why}completions {g1} {g2}')
    p.close()

    # a rereg while WRITEs with the old rkey are in flight (64 KiB each,
    # the rereg after 0 to 8 ms): each either completed before it (its
    # bytes placed) or fails, and the rest flush
    size = 1 << 16
    page = bytes([0x77]) * size
    for delay in (0, 0.002, 0.008):
        p = MpePair(a, b, rw, A_RWRITE, size=size)
        err = 0
        for i in range(8):
            err = err or p.post(WR_RDMA_WRITE, 0x200 + i, p.addr, length=size,
                                value=page, ring=i == 7)
        time.sleep(delay)
        keys, why = rekey(b[0], p.mr, REREG_ACCESS, p.rkey, access=rw)
        got = [s for _, s, _ in p.cqes(8)]
        n_ok = len(got) - len(list(dropwhile(lambda s: s == WC_OK, got)))
        rest = got[n_ok:]
        ok = (not err and keys and len(got) == 8 and
              (not rest or (rest[0] == WC_REM_ACCESS and
                            all(s == WC_FLUSH_ERR for s in rest[1:]))) and
              (n_ok == 0 or bytes(p.buf) == page))
        report(f'rereg {delay * 1000:.0f} ms into 8 WRITEs of 64 KiB with '
               f'the old rkey: completed ones first, then a remote access '
               f'error and flushes', ok,
               f'{why}doorbell {strerr(err)}, statuses {got}')
        p.close()
    a[0].close()
    b[0].close()
    return rc


def srq_resize(dev_a, gid_a, dev_b, gid_b):
    a, b = mpe_ends(dev_a, gid_a, dev_b, gid_b)
    err, srq, mi = b[0].create_srq_mi(4)
    if err:
        sys.exit(f'create_srq: {strerr(err)}')
    p = MpePair(a, b, A_LWRITE | A_RWRITE, A_RWRITE, srq=srq)
    ring = [b[0].map(mi)]
    rc = 0

    def post_recv(wr_id, off):
        """a receive WQE of 64 bytes at @off of B's page, as the provider
        writes it"""
        r = ring[0]
        elem, mask = _elem(r), struct.unpack_from('=I', r, 4)[0]
        prod = struct.unpack_from('=I', r, Q_PROD)[0]
        w = bytearray(elem)
        struct.pack_into('=Q', w, 0, wr_id)
        struct.pack_into('=IIII', w, 16, 64, 64, 0, 1)
        struct.pack_into('=QII', w, 40, p.addr + off, 64, p.blkey)
        o = Q_DATA + (prod & mask) * elem
        r[o:o + elem] = bytes(w)
        struct.pack_into('=I', r, Q_PROD, (prod + 1) & mask)

    def resize(wr, want):
        nonlocal rc
        err, nmi = b[0].resize_srq(srq, wr)
        print(f'{"ok" if err == want else "FAILED"}: resize to {wr} WRs: '
              f'{strerr(err)}, want {strerr(want)}')
        if err != want:
            rc = 1
        elif not err:
            ring[0].close()
            ring[0] = b[0].map(nmi)

    def check(what, n):
        """the first @n SENDs' completions on both sides and their bytes"""
        nonlocal rc
        sent = [(s, o) for _, s, o in p.cqes(n)]
        got = p.cqes(n, side=1)
        want = [(0x200 + i, WC_OK, WC_RECV) for i in range(n)]
        mem = all(bytes(p.buf[512 * i:512 * i + 64]) == bytes([0x40 + i]) * 64
                  for i in range(n))
        ok = sent == [(WC_OK, WC_SEND)] * n and got == want and mem
        print(f'{"ok" if ok else "FAILED"}: {what}: sender {sent}, '
              f'receiver {got}, data in the WQEs\' buffers: {mem}')
        rc |= 0 if ok else 1

    def send(i):
        return p.post(WR_SEND, 0x300 + i, 0, length=64,
                      value=bytes([0x40 + i]) * 64, aoff=64 * i)

    for i in range(3):
        post_recv(0x200 + i, 512 * i)
    resize(1, errno.EINVAL)
    resize(64, 0)
    r = ring[0]
    kept = (struct.unpack_from('=I', r, Q_PROD)[0],
            struct.unpack_from('=I', r, Q_CONS)[0])
    print(f'{"ok" if kept == (3, 0) else "FAILED"}: the new ring holds the '
          f'3 WQEs (producer, consumer) {kept}')
    rc |= 0 if kept == (3, 0) else 1
    for i in range(3, 5):
        post_recv(0x200 + i, 512 * i)
    err = 0
    for i in range(5):
        err = err or send(i)
    check('5 SENDs into the WQEs posted before and after the resize', 5)
    resize(2, 0)
    post_recv(0x205, 512 * 5)
    err = err or send(5)
    check('then one more after a resize to 2 WRs', 6)
    if err:
        print(f'FAILED: doorbell {strerr(err)}')
        rc = 1
    p.close()
    ring[0].close()
    b[0].destroy_srq(srq)
    a[0].close()
    b[0].close()
    return rc | srq_provider(dev_b)


def srq_provider(dev):
    """ibv_modify_srq(IBV_SRQ_MAX_WR) as the stock rxe provider sends it
    (it remaps the ring from the mminfo the kernel wrote)"""
    import pyverbs.enums as e
    from pyverbs.device import Context
    from pyverbs.mr import MR
    from pyverbs.pd import PD
    from pyverbs.pyverbs_error import PyverbsRDMAError
    from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr
    from pyverbs.wr import SGE, RecvWR
    ctx = Context(name=dev)
    pd = PD(ctx)
    mr = MR(pd, 4096, e.IBV_ACCESS_LOCAL_WRITE)
    srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=4, max_sge=1)))
    res = []

    def step(what, fn):
        try:
            fn()
            res.append((what, 0))
        except PyverbsRDMAError as ex:
            res.append((what, ex.error_code))

    def post(n):
        for i in range(n):
            srq.post_recv(RecvWR(i, 1, [SGE(mr.buf + 64 * (i % 64), 64,
                                            mr.lkey)]))

    step('post 3', lambda: post(3))
    step('resize to 1', lambda: srq.modify(SrqAttr(max_wr=1),
                                           e.IBV_SRQ_MAX_WR))
    step('resize to 64', lambda: srq.modify(SrqAttr(max_wr=64),
                                            e.IBV_SRQ_MAX_WR))
    max_wr = srq.query().max_wr
    step('post 40 more', lambda: post(40))
    want = [('post 3', 0), ('resize to 1', errno.EINVAL),
            ('resize to 64', 0), ('post 40 more', 0)]
    ok = res == want and max_wr >= 64
    print(f'{"ok" if ok else "FAILED"}: through libibverbs and the rxe '
          f'provider: {res}, max_wr then {max_wr}')
    srq.close()
    mr.close()
    pd.close()
    ctx.close()
    return 0 if ok else 1


def create_flags(dev):
    import pyverbs.enums as e
    from pyverbs.cq import CQ, CQEX, CqInitAttrEx
    from pyverbs.device import Context
    from pyverbs.pd import PD
    from pyverbs.pyverbs_error import PyverbsRDMAError
    from pyverbs.qp import QP, QPCap, QPInitAttrEx
    ctx = Context(name=dev)
    pd = PD(ctx)
    cq = CQ(ctx, 8)
    rc = 0

    def qp(**kw):
        return QP(ctx, QPInitAttrEx(qp_type=e.IBV_QPT_UD, scq=cq, rcq=cq,
                                    pd=pd, cap=QPCap(1, 1, 1, 1), **kw))

    cases = [
        ('CQ with IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN', errno.EOPNOTSUPP,
         lambda: CQEX(ctx, CqInitAttrEx(
             cqe=8, comp_mask=e.IBV_CQ_INIT_ATTR_MASK_FLAGS,
             flags=e.IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN))),
        ('CQ with completion timestamps', errno.EOPNOTSUPP,
         lambda: CQEX(ctx, CqInitAttrEx(
             cqe=8, wc_flags=e.IBV_WC_EX_WITH_COMPLETION_TIMESTAMP))),
        ('QP with IBV_QP_CREATE_BLOCK_SELF_MCAST_LB', errno.EOPNOTSUPP,
         lambda: qp(comp_mask=e.IBV_QP_INIT_ATTR_PD |
                    e.IBV_QP_INIT_ATTR_CREATE_FLAGS,
                    create_flags=e.IBV_QP_CREATE_BLOCK_SELF_MCAST_LB)),
        ('extended CQ without flags', 0,
         lambda: CQEX(ctx, CqInitAttrEx(cqe=8))),
        ('extended QP with sq_sig_all, no flags', 0,
         lambda: qp(comp_mask=e.IBV_QP_INIT_ATTR_PD, sq_sig_all=1)),
    ]
    for what, want, make in cases:
        try:
            make().close()
            got = 0
        except PyverbsRDMAError as ex:
            got = ex.error_code
        ok = got == want
        print(f'{"ok" if ok else "FAILED"}: {what}: {strerr(got)}, '
              f'want {strerr(want)}')
        rc |= 0 if ok else 1
    cq.close()
    pd.close()
    ctx.close()

    # modify_cq (IB_USER_VERBS_EX_CMD_MODIFY_CQ, which no provider of
    # rdma-core 44 sends for rxe): count 4, period 10 us
    d = Dev(dev)
    _, cqh, _ = d.create_cq(8)
    req = struct.pack('=IHHQHHI', 0x80000000 | 57, 2, 0, 0, 0, 0, 0)
    try:
        os.write(d.fd, req + struct.pack('=IIHHI', cqh, 1, 4, 10, 0))
        got = 0
    except OSError as ex:
        got = ex.errno
    ok = got == errno.EOPNOTSUPP
    print(f'{"ok" if ok else "FAILED"}: modify_cq (CQ moderation): '
          f'{strerr(got)}, want {strerr(errno.EOPNOTSUPP)}')
    rc |= 0 if ok else 1
    d.destroy_cq(cqh)
    d.close()
    return rc


def main():
    a = sys.argv[1:]
    if a[:1] == ['rereg'] and len(a) == 5:
        return rereg(a[1], int(a[2]), a[3], int(a[4]))
    if a[:1] == ['srq-resize'] and len(a) == 5:
        return srq_resize(a[1], int(a[2]), a[3], int(a[4]))
    if a[:1] == ['create-flags'] and len(a) == 2:
        return create_flags(a[1])
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main())
