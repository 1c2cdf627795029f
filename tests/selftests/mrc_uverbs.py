#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw uverbs commands at an mrc device, for what libibverbs never sends.

  mrc_uverbs.py resize-efault DEV
  mrc_uverbs.py flood DEV cq|qp|srq|mr|ah
  mrc_uverbs.py attrs DEV
  mrc_uverbs.py garbage DEV GID_INDEX SEED ROUNDS
  mrc_uverbs.py memcg DEV CGROUP_DIR
  mrc_uverbs.py res-qp DEV
  mrc_uverbs.py mpe DEV_A GID_INDEX_A DEV_B GID_INDEX_B
  mrc_uverbs.py mpe-replay DEV_A GID_INDEX_A DEV_B GID_INDEX_B ROUNDS

resize-efault: creates a CQ of 8 entries, resizes it to 64 with a response
buffer the kernel cannot write (a read-only page), which must fail with
EFAULT, then resizes it again with a good one, and closes the device file.
A kernel that made the new ring live before telling userspace keeps the
old one in the context's mmap table: closing warns in
ufile_destroy_ucontext().

flood: creates objects of one type (CQs of 1 entry, UD QPs of 1 WR, SRQs
of 1 WR, MRs of one page, AHs to a multicast group, which need no
neighbour) until a create fails; the device's count of them (rdma res
show, plus for MRs the DMA MR of each kernel PD, which it does not list;
AHs are not tracked there, so for them the number this process made)
must then be query_device's max_*, and the failed create's errno ENOMEM.
After one is destroyed, one create works again.

attrs: creates with absurd attributes (2^31 WRs or CQEs, 1000 SGEs, 1 GiB
of inline data, an MR of 2^40 bytes) must fail with EINVAL or ENOMEM.

garbage: first an RC QP connected (GID index GID_INDEX of DEV) to
another, whose SQ gets one WQE of opcode 0xff behind a valid producer
index, must go to ERR and complete it with an error status. Then ROUNDS
times, two RC QPs connected to each other and their CQ get random bytes
written over their mapped rings (indices, opcodes, lengths, SGE counts,
keys; half the WQEs with a valid opcode and a small SGE count), then both
SQs are rung: the doorbell succeeds, each QP ends in RTS or ERR and is
destroyed. The caller checks that the kernel reported nothing and that
the device still moves data.

memcg: moves itself into CGROUP_DIR (a cgroup2 directory with the memory
controller), checks that a CQ of 32767 entries (a 2 MiB ring) raises its
memory.current by at least the ring's size, then sets memory.max 6 MiB
above memory.current and creates such CQs until one fails: with ENOMEM,
after at most 3, and the process alive.

res-qp: creates a UD QP and checks that `rdma -dd -j res show qp` reports
its ring sizes as the create response gave them, and a mem_bytes of at
least their sum.

mpe: RDMA ATOMIC WRITE and FLUSH (IBA 1.5's memory placement extensions,
which the rxe ABI carries and libibverbs 44 can post only partly) from an
RC QP of DEV_A to one of DEV_B (in two namespaces: real packets), their
WQEs written into the mapped send ring as rxe's provider writes them.
DEV_A's extended device capabilities claim ATOMIC_WRITE and FLUSH_GLOBAL,
not FLUSH_PERSISTENT, and an MR with IB_ACCESS_FLUSH_PERSISTENT is
refused (EOPNOTSUPP). Then, each on a fresh QP pair, checking the
completion's status and opcode and B's memory: an ATOMIC WRITE of 8 bytes
lands; a WRITE then a FLUSH (global, of the range) and a FLUSH of the
whole MR complete; an ATOMIC WRITE to an MR without remote write access,
a FLUSH to one without IB_ACCESS_FLUSH_GLOBAL and a persistent FLUSH end
in a remote access error and leave B's memory as it was; an ATOMIC WRITE
to a QP without remote write access in a remote invalid request error; a
misaligned one is refused locally (local QP operation error).

mpe-replay: ROUNDS times an ATOMIC WRITE of a slot of B's page and,
once it completed, a WRITE of other bytes to the same slot (mrc places
the packets of different messages in any order: only a completion
orders them), then a FLUSH of the slots. The caller makes the path lose,
duplicate and delay packets, so requests and answers are resent and
copies arrive late. Every WR must complete well, and a second after the
last, every slot must hold its WRITE's bytes: an ATOMIC WRITE run again
for a late or resent copy would have put its own back.

Exit status 0 when every command returned what it must.
"""
import ctypes
import errno
import json
import mmap
import os
import random
import struct
import subprocess
import sys
import time

CMD_GET_CONTEXT, CMD_QUERY_DEVICE, CMD_ALLOC_PD = 0, 1, 3
CMD_REG_MR, CMD_REREG_MR, CMD_DEREG_MR = 9, 11, 13
CMD_CREATE_AH, CMD_DESTROY_AH = 5, 8
CMD_CREATE_CQ, CMD_RESIZE_CQ, CMD_DESTROY_CQ = 18, 19, 20
CMD_CREATE_QP, CMD_QUERY_QP, CMD_MODIFY_QP, CMD_DESTROY_QP = 24, 25, 26, 27
CMD_POST_SEND = 28
CMD_CREATE_SRQ, CMD_MODIFY_SRQ, CMD_DESTROY_SRQ = 32, 33, 35
MMINFO = 16			# struct mminfo, the rxe driver response
QPT_RC, QPT_UD = 2, 4
QPS_RESET, QPS_INIT, QPS_RTR, QPS_RTS, QPS_ERR = 0, 1, 2, 3, 6
# enum ib_qp_attr_mask
M_STATE, M_ACCESS, M_PKEY, M_PORT, M_QKEY, M_AV, M_MTU = 1, 8, 16, 32, 64, 128, 256
M_TIMEOUT, M_RETRY, M_RNR_RETRY, M_RQ_PSN, M_RD_ATOMIC = 512, 1024, 2048, 4096, 8192
M_MIN_RNR, M_SQ_PSN, M_DEST_RD_ATOMIC, M_DEST_QPN = 1 << 15, 1 << 16, 1 << 17, 1 << 20
# struct rxe_queue_buf: producer_index at 128, consumer_index at 256, slots
Q_PROD, Q_CONS, Q_DATA = 128, 256, 384


class Dev:
    """One open uverbs file of DEV with its context and a PD"""

    def __init__(self, name):
        self.name = name
        self.fd = os.open(uverbs_node(name), os.O_RDWR)
        self.resp = ctypes.create_string_buffer(256)
        self.addr = ctypes.addressof(self.resp)
        if self.cmd(CMD_GET_CONTEXT, b'', 8):
            sys.exit('get_context failed')
        self.async_fd = self.u32(0)
        if self.cmd(CMD_ALLOC_PD, b'', 8):
            sys.exit('alloc_pd failed')
        self.pd = self.u32(0)

    def cmd(self, cmd, body, out_len):
        """A write() command with a response (pointer first): 0 or errno"""
        return command(self.fd, cmd, struct.pack('=Q', self.addr) + body,
                       out_len)

    def u32(self, off):
        return struct.unpack_from('=I', self.resp, off)[0]

    def mminfo(self, off):
        return struct.unpack_from('=QI', self.resp, off)

    def query_device(self):
        if self.cmd(CMD_QUERY_DEVICE, b'', 176):
            sys.exit('query_device failed')
        return {k: self.u32(o) for k, o in
                (('qp', 52), ('cq', 72), ('mr', 80), ('ah', 144),
                 ('srq', 156))}

    def create_cq(self, cqe):
        """(errno, handle, mminfo)"""
        err = self.cmd(CMD_CREATE_CQ, struct.pack('=QIIiI', 1, cqe, 0, -1, 0),
                       8 + MMINFO)
        return (err, None, None) if err else (0, self.u32(0), self.mminfo(8))

    def destroy_cq(self, cq):
        return self.cmd(CMD_DESTROY_CQ, struct.pack('=II', cq, 0), 8)

    def create_qp(self, qpt, cq, swr=1, rwr=1, ssge=1, rsge=1, inline=0,
                  srq=None):
        """(errno, handle, qpn, sq mminfo, rq mminfo)"""
        body = struct.pack('=QIIIIIIIIIBBBB', 1, self.pd, cq, cq,
                           srq or 0, swr, rwr, ssge, rsge, inline, 0, qpt,
                           srq is not None, 0)
        err = self.cmd(CMD_CREATE_QP, body, 32 + 2 * MMINFO)
        if err:
            return err, None, None, None, None
        return (0, self.u32(0), self.u32(4), self.mminfo(48),
                self.mminfo(32))

    def destroy_qp(self, qp):
        return self.cmd(CMD_DESTROY_QP, struct.pack('=II', qp, 0), 4)

    def modify_qp(self, qp, mask, state, dgid=b'', sgid=0, dqpn=0, access=7):
        dest = struct.pack('=16sIHHBBBBBBBB', dgid, 0, 0, 0, sgid, 64, 0, 0,
                           0, 0, 1 if dgid else 0, 1)
        body = dest + bytes(32) + struct.pack(
            '=IIIIIIIHHBBBBBBBBBBBBBBxx', qp, mask, 0x11111111, 0, 0, dqpn,
            access, 0, 0, state, 0, 3, 0, 0, 4, 4, 12, 1, 14, 7, 7, 0, 0)
        return command(self.fd, CMD_MODIFY_QP, body, 0)

    def qp_state(self, qp):
        if self.cmd(CMD_QUERY_QP, struct.pack('=II', qp, M_STATE), 128):
            return None
        return self.resp[108][0]

    def doorbell(self, qp):
        return self.cmd(CMD_POST_SEND, struct.pack('=IIII', qp, 0, 0, 56), 4)

    def create_srq(self, wr, sge=1):
        err = self.cmd(CMD_CREATE_SRQ,
                       struct.pack('=QIIII', 1, self.pd, wr, sge, 0),
                       16 + 24)
        return (err, None) if err else (0, self.u32(0))

    def destroy_srq(self, srq):
        return self.cmd(CMD_DESTROY_SRQ, struct.pack('=II', srq, 0), 4)

    def create_srq_mi(self, wr, sge=1):
        """(errno, handle, ring mminfo)"""
        err, srq = self.create_srq(wr, sge)
        return (err, None, None) if err else (0, srq, self.mminfo(16))

    def resize_srq(self, srq, wr):
        """(errno, mminfo of the new ring): rxe's ABI writes it where the
        command's driver data points"""
        mi = ctypes.create_string_buffer(MMINFO)
        err = command(self.fd, CMD_MODIFY_SRQ,
                      struct.pack('=IIIIQ', srq, 1, wr, 0,
                                  ctypes.addressof(mi)), 0)
        return err, struct.unpack_from('=QI', mi, 0)

    def alloc_pd(self):
        if self.cmd(CMD_ALLOC_PD, b'', 8):
            sys.exit('alloc_pd failed')
        return self.u32(0)

    def rereg_mr(self, mr, flags, addr=0, length=0, pd=0, access=0):
        """(errno, lkey, rkey)"""
        err = self.cmd(CMD_REREG_MR, struct.pack('=IIQQQII', mr, flags, addr,
                                                 length, addr, pd, access), 8)
        return (err, None, None) if err else (0, self.u32(0), self.u32(4))

    def reg_mr(self, addr, length, access=7):
        """(errno, handle); the keys are then self.u32(4), self.u32(8)"""
        err = self.cmd(CMD_REG_MR, struct.pack('=QQQII', addr, length, addr,
                                              self.pd, access), 12)
        return (err, None) if err else (0, self.u32(0))

    def dereg_mr(self, mr):
        return command(self.fd, CMD_DEREG_MR, struct.pack('=I', mr), 0)

    def create_ah(self, dgid, sgid_index):
        """(errno, handle): a global AH on port 1"""
        attr = struct.pack('=16sIBBBBHBBBBBB', dgid, 0, sgid_index, 64, 0, 0,
                           0, 0, 0, 0, 1, 1, 0)
        err = self.cmd(CMD_CREATE_AH,
                       struct.pack('=QII', 1, self.pd, 0) + attr, 4 + 8)
        return (err, None) if err else (0, self.u32(0))

    def destroy_ah(self, ah):
        return command(self.fd, CMD_DESTROY_AH, struct.pack('=I', ah), 0)

    def map(self, mi):
        return mmap.mmap(self.fd, mi[1], mmap.MAP_SHARED,
                         mmap.PROT_READ | mmap.PROT_WRITE, offset=mi[0])

    def close(self):
        os.close(self.async_fd)
        os.close(self.fd)


def uverbs_node(dev):
    base = '/sys/class/infiniband_verbs'
    for d in os.listdir(base):
        try:
            with open(f'{base}/{d}/ibdev') as f:
                if f.read().strip() == dev:
                    return f'/dev/infiniband/{d}'
        except OSError:
            pass
    sys.exit(f'no uverbs device for {dev}')


def command(fd, cmd, body, out_len):
    """A legacy write() command: header, then body (response pointer first)"""
    req = struct.pack('=IHH', cmd, (8 + len(body)) // 4, out_len // 4)
    try:
        os.write(fd, req + body)
        return 0
    except OSError as e:
        return e.errno


def strerr(err):
    return os.strerror(err) if err else 'ok'


def roce_v2_gid(dev):
    """(index, gid bytes) of DEV's first RoCE v2 GID"""
    port = f'/sys/class/infiniband/{dev}/ports/1'
    for i in range(256):
        try:
            with open(f'{port}/gid_attrs/types/{i}') as f:
                if f.read().strip() != 'RoCE v2':
                    continue
            with open(f'{port}/gids/{i}') as f:
                gid = bytes.fromhex(f.read().strip().replace(':', ''))
        except OSError:
            continue
        if any(gid):
            return i, gid
    sys.exit(f'{dev} has no RoCE v2 GID')


def mem_available():
    """MemAvailable in MiB"""
    with open('/proc/meminfo') as f:
        for line in f:
            if line.startswith('MemAvailable:'):
                return int(line.split()[1]) // 1024
    return -1


def kernel_pds(dev):
    """DEV's PDs that the kernel allocated (no process owns them)"""
    out = subprocess.run(['rdma', '-j', 'res', 'show', 'pd'], check=True,
                         capture_output=True, text=True).stdout
    return sum(1 for p in json.loads(out)
               if p.get('ifname') == dev and 'pid' not in p)


def res_count(dev, kind):
    """The device's number of KIND objects, as rdma res show counts them"""
    out = subprocess.run(['rdma', '-j', 'res', 'show'], check=True,
                         capture_output=True, text=True).stdout
    for d in json.loads(out):
        if d.get('ifname') == dev:
            return d[kind]
    sys.exit(f'{dev} not in rdma res show')


def resize_efault(dev):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                          ctypes.c_int, ctypes.c_int, ctypes.c_long]
    ro = libc.mmap(None, 4096, 1, 0x22, -1, 0)	# PROT_READ, private anon
    if ro in (None, ctypes.c_void_p(-1).value):
        sys.exit('mmap failed')
    d = Dev(dev)
    err, cq, _ = d.create_cq(8)
    if err:
        sys.exit(f'create_cq: {strerr(err)}')

    rc = 0
    err = command(d.fd, CMD_RESIZE_CQ, struct.pack('=QII', ro, cq, 64),
                  8 + MMINFO)
    print(f'resize to 64, response read-only: {strerr(err)}')
    if err != errno.EFAULT:
        rc = 1
    err = d.cmd(CMD_RESIZE_CQ, struct.pack('=II', cq, 32), 8 + MMINFO)
    print(f'resize to 32: {strerr(err)}')
    if err:
        rc = 1
    d.close()
    return rc


def flood(dev, kind):
    d = Dev(dev)
    limit = d.query_device()[kind]
    err, cq, _ = d.create_cq(1) if kind == 'qp' else (0, None, None)
    page = mmap.mmap(-1, 4096)
    page_addr = ctypes.addressof(ctypes.c_char.from_buffer(page))
    sgid, gid = roce_v2_gid(dev) if kind == 'ah' else (0, b'')
    # all-nodes, of the GID's family: multicast needs no neighbour entry
    group = (bytes(10) + b'\xff\xff' + bytes([224, 0, 0, 1])
             if gid[:12] == bytes(10) + b'\xff\xff'
             else b'\xff\x02' + bytes(13) + b'\x01')
    create = {
        'cq': lambda: d.create_cq(1)[:2],
        'qp': lambda: d.create_qp(QPT_UD, cq)[:2],
        'srq': lambda: d.create_srq(1),
        'mr': lambda: d.reg_mr(page_addr, 4096),
        'ah': lambda: d.create_ah(group, sgid),
    }[kind]
    destroy = {'cq': d.destroy_cq, 'qp': d.destroy_qp,
               'srq': d.destroy_srq, 'mr': d.dereg_mr,
               'ah': d.destroy_ah}[kind]
    made, t = [], time.monotonic()
    while len(made) <= limit:
        err, h = create()
        if err:
            break
        made.append(h)
    have = len(made) if kind == 'ah' else res_count(dev, kind)
    if kind == 'mr':
        # each kernel PD has a DMA MR rdma res show does not list (the
        # device sets no IBK_LOCAL_DMA_LKEY): it counts against max_mr
        have += kernel_pds(dev)
    print(f'{kind}: {len(made)} created in {time.monotonic() - t:.0f} s, '
          f'then {strerr(err)}; the device has {have}, max_{kind} {limit}; '
          f'{mem_available()} MiB of memory left available')
    rc = 0
    if err != errno.ENOMEM or have != limit:
        rc = 1
    if made and not destroy(made.pop()):
        err, h = create()
        print(f'after one destroyed, create: {strerr(err)}')
        if err:
            rc = 1
        else:
            made.append(h)
    t = time.monotonic()
    for h in made:
        destroy(h)
    print(f'destroyed in {time.monotonic() - t:.0f} s')
    d.close()
    return rc


def attrs(dev):
    d = Dev(dev)
    _, cq, _ = d.create_cq(1)
    big = 1 << 31
    page = mmap.mmap(-1, 4096)
    page_addr = ctypes.addressof(ctypes.c_char.from_buffer(page))
    cases = (
        ('CQ of 2^31 CQEs', lambda: d.create_cq(big)[0]),
        ('CQ of 2^32-1 CQEs', lambda: d.create_cq(0xffffffff)[0]),
        ('CQ resized to 2^31', lambda: d.cmd(
            CMD_RESIZE_CQ, struct.pack('=II', cq, big), 8 + MMINFO)),
        ('QP of 2^31 send WRs', lambda: d.create_qp(QPT_RC, cq, swr=big)[0]),
        ('QP of 2^31 recv WRs', lambda: d.create_qp(QPT_RC, cq, rwr=big)[0]),
        ('QP of 1000 send SGEs',
         lambda: d.create_qp(QPT_RC, cq, ssge=1000)[0]),
        ('QP of 1000 recv SGEs',
         lambda: d.create_qp(QPT_UD, cq, rsge=1000)[0]),
        ('QP of 1 GiB inline', lambda: d.create_qp(QPT_RC, cq,
                                                   inline=1 << 30)[0]),
        ('QP of 2^32-1 everything', lambda: d.create_qp(
            QPT_RC, cq, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
            0xffffffff)[0]),
        ('SRQ of 2^31 WRs', lambda: d.create_srq(big)[0]),
        ('SRQ of 1000 SGEs', lambda: d.create_srq(1, 1000)[0]),
        ('MR of 2^40 bytes', lambda: d.reg_mr(page_addr, 1 << 40)[0]),
    )
    rc = 0
    for what, f in cases:
        err = f()
        print(f'{what}: {strerr(err)}')
        if err not in (errno.EINVAL, errno.ENOMEM):
            rc = 1
    d.close()
    return rc


def garbage_ring(rng, m, elem, opcodes):
    """Random bytes over ring @m; some slots get a valid opcode"""
    m[:] = rng.randbytes(len(m))
    if opcodes:
        for off in range(Q_DATA, len(m) - elem + 1, elem):
            if rng.random() < 0.5:
                struct.pack_into('=I', m, off + 12, rng.choice(opcodes))
            if rng.random() < 0.5:	# num_sge, 0..3
                struct.pack_into('=I', m, off + 184 + 12, rng.randrange(4))


def connect_pair(d, qps, gid, gid_index):
    """Both RC QPs of @qps to RTS, each connected to the other"""
    for i, qp in enumerate(qps):
        for mask, state in (
                (M_STATE | M_PKEY | M_PORT | M_ACCESS, QPS_INIT),
                (M_STATE | M_AV | M_MTU | M_DEST_QPN | M_RQ_PSN |
                 M_DEST_RD_ATOMIC | M_MIN_RNR, QPS_RTR),
                (M_STATE | M_TIMEOUT | M_RETRY | M_RNR_RETRY |
                 M_SQ_PSN | M_RD_ATOMIC, QPS_RTS)):
            err = d.modify_qp(qp[0], mask, state, gid, gid_index,
                              qps[1 - i][1])
            if err:
                sys.exit(f'modify_qp to {state}: {strerr(err)}')


def wait_state(d, qp, want, secs):
    end = time.monotonic() + secs
    while d.qp_state(qp) != want and time.monotonic() < end:
        time.sleep(0.05)
    return d.qp_state(qp)


def bad_opcode(d, gid, gid_index):
    """One WQE with opcode 0xff behind a good producer index: the QP
    must go to ERR and complete it with an error status"""
    _, cq, cq_mi = d.create_cq(16)
    qps = [d.create_qp(QPT_RC, cq, 4, 4)[1:] for _ in range(2)]
    connect_pair(d, qps, gid, gid_index)
    cqm, sq = d.map(cq_mi), d.map(qps[0][2])
    elem = _elem(sq)
    slot = bytearray(random.Random(1).randbytes(elem))
    struct.pack_into('=QIII', slot, 0, 0x1234, 0, 0xff, 2)  # SIGNALED
    sq[Q_DATA:Q_DATA + elem] = bytes(slot)
    struct.pack_into('=I', sq, Q_PROD, 1)
    err = d.doorbell(qps[0][0])
    state = wait_state(d, qps[0][0], QPS_ERR, 20)
    n = struct.unpack_from('=I', cqm, Q_PROD)[0]
    wr_id, status = struct.unpack_from('=QI', cqm, Q_DATA)
    print(f'opcode 0xff: doorbell {strerr(err)}, QP state {state}, '
          f'{n} completion(s), the first wr_id {wr_id:#x} status {status}')
    rc = 0 if state == QPS_ERR and n >= 1 and wr_id == 0x1234 and status \
        else 1
    cqm.close()
    sq.close()
    for qp in qps:
        d.destroy_qp(qp[0])
    d.destroy_cq(cq)
    return rc


def garbage(dev, gid_index, seed, rounds):
    rng = random.Random(seed)
    with open(f'/sys/class/infiniband/{dev}/ports/1/gids/{gid_index}') as f:
        gid = bytes.fromhex(f.read().strip().replace(':', ''))
    d = Dev(dev)
    rc = bad_opcode(d, gid, gid_index)
    # IB_WR_ RDMA_WRITE, _WITH_IMM, SEND, SEND_WITH_IMM, RDMA_READ,
    # ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD, SEND_WITH_INV
    opcodes = [0, 1, 2, 3, 4, 5, 6, 9]
    nerr = 0
    for r in range(rounds):
        err, cq, cq_mi = d.create_cq(rng.choice((1, 16, 256)))
        if err:
            sys.exit(f'create_cq: {strerr(err)}')
        qps = []
        for _ in range(2):
            err, *qp = d.create_qp(QPT_RC, cq, rng.choice((1, 16, 64)), 16,
                                   rng.randrange(1, 5), 2,
                                   rng.choice((0, 64)))
            if err:
                sys.exit(f'create_qp: {strerr(err)}')
            qps.append(qp)
        connect_pair(d, qps, gid, gid_index)
        maps = [d.map(cq_mi)]
        garbage_ring(rng, maps[0], 0, None)
        for _, _, sq_mi, rq_mi in qps:
            sq, rq = d.map(sq_mi), d.map(rq_mi)
            garbage_ring(rng, sq, _elem(sq), opcodes)
            garbage_ring(rng, rq, 0, None)
            maps += [sq, rq]
        for qp in qps:
            err = d.doorbell(qp[0])
            if err:
                print(f'round {r}: doorbell: {strerr(err)}')
                rc = 1
        # a QP ends in ERR, or in RTS when what it took was valid
        time.sleep(0.2)
        for qp in qps:
            s = wait_state(d, qp[0], QPS_ERR, 1)
            nerr += s == QPS_ERR
            if s not in (QPS_RTS, QPS_ERR):
                print(f'round {r}: QP state {s}')
                rc = 1
        for m in maps:
            m.close()
        for qp in qps:
            if d.destroy_qp(qp[0]):
                print(f'round {r}: destroy_qp failed')
                rc = 1
        if d.destroy_cq(cq):
            print(f'round {r}: destroy_cq failed')
            rc = 1
    print(f'{rounds} rounds of garbage rings, seed {seed}: '
          f'{nerr} of {2 * rounds} QPs in ERR')
    d.close()
    return rc


def _elem(m):
    """A ring's slot size, from the header the kernel wrote"""
    return 1 << struct.unpack_from('=I', m, 0)[0]


def read_int(path):
    with open(path) as f:
        v = f.read().strip()
    return v if v == 'max' else int(v)


def memcg(dev, cg):
    with open(f'{cg}/cgroup.procs', 'w') as f:
        f.write(str(os.getpid()))
    d = Dev(dev)
    before = read_int(f'{cg}/memory.current')
    err, cq, mi = d.create_cq(32767)
    if err:
        sys.exit(f'create_cq: {strerr(err)}')
    grew = read_int(f'{cg}/memory.current') - before
    print(f'a CQ of 32767 entries ({mi[1]} bytes of ring): '
          f'memory.current +{grew}')
    # (memory.current moves in the per-CPU charge batches: 64 pages)
    rc = 0 if grew >= mi[1] - (256 << 10) else 1
    with open(f'{cg}/memory.max', 'w') as f:
        f.write(str(read_int(f'{cg}/memory.current') + (6 << 20)))
    made = 0
    while made < 16:
        err = d.create_cq(32767)[0]
        if err:
            break
        made += 1
    print(f'with memory.max 6 MiB above: {made} more created, then '
          f'{strerr(err)}')
    if err != errno.ENOMEM or made > 3:
        rc = 1
    d.close()
    return rc


def res_qp(dev):
    d = Dev(dev)
    _, cq, _ = d.create_cq(1)
    err, qp, qpn, sq_mi, rq_mi = d.create_qp(QPT_UD, cq, 100, 50, 2, 2)
    if err:
        sys.exit(f'create_qp: {strerr(err)}')
    # (not link DEV/1: a QP in RESET has no port yet)
    out = subprocess.run(['rdma', '-dd', '-j', 'res', 'show', 'qp', 'link',
                          dev, 'lqpn', str(qpn)], check=True,
                         capture_output=True, text=True).stdout
    print(out.strip())
    # (iproute2's JSON names driver attributes drv_NAME)
    q = json.loads(out)[0]
    rc = 0
    try:
        if (q['drv_sq_ring_bytes'] != sq_mi[1] or
                q['drv_rq_ring_bytes'] != rq_mi[1] or
                q['drv_mem_bytes'] < sq_mi[1] + rq_mi[1]):
            rc = 1
    except KeyError as e:
        print(f'no {e} in the QP\'s attributes')
        rc = 1
    d.close()
    return rc


# IB_ACCESS_*, IB_WR_*, IB_WC_* (status and opcode), IB_FLUSH_*
A_LWRITE, A_RWRITE, A_RREAD, A_FLUSH_G, A_FLUSH_P = 1, 2, 4, 1 << 8, 1 << 9
WR_RDMA_WRITE, WR_FLUSH, WR_ATOMIC_WRITE, SEND_SIGNALED = 0, 14, 15, 2
WR_SEND = 2
WC_OK, WC_LOC_QP_OP, WC_REM_INV_REQ, WC_REM_ACCESS = 0, 2, 9, 10
WC_LOC_PROT, WC_FLUSH_ERR = 4, 5
WC_SEND, WC_RDMA_WRITE, WC_FLUSH, WC_ATOMIC_WRITE, WC_RECV = 0, 1, 8, 9, 128
FLUSH_GLOBAL, FLUSH_PERSISTENT, FLUSH_RANGE, FLUSH_MR = 1, 2, 0, 1


class MpePair:
    """An RC QP on A connected to one on B, a CQ each, and on B one page
    registered with @mr_access, the QP granting @qp_access"""

    def __init__(self, a, b, mr_access, qp_access, depth=8, srq=None,
                 size=4096):
        self.a, self.b = a, b
        self.cq, self.cqm, self.qp = [], [], []
        for d in (a[0], b[0]):
            _, cq, cq_mi = d.create_cq(2 * depth)
            err, qp, qpn, sq_mi, _ = d.create_qp(
                QPT_RC, cq, depth, 1, srq=srq if d is b[0] else None)
            if err:
                sys.exit(f'create_qp: {strerr(err)}')
            self.cq.append(cq)
            self.cqm.append(d.map(cq_mi))
            self.qp.append((qp, qpn, sq_mi))
        for i, (d, gid_index, _) in enumerate((a, b)):
            peer = (a, b)[1 - i]
            for mask, state in (
                    (M_STATE | M_PKEY | M_PORT | M_ACCESS, QPS_INIT),
                    (M_STATE | M_AV | M_MTU | M_DEST_QPN | M_RQ_PSN |
                     M_DEST_RD_ATOMIC | M_MIN_RNR, QPS_RTR),
                    (M_STATE | M_TIMEOUT | M_RETRY | M_RNR_RETRY |
                     M_SQ_PSN | M_RD_ATOMIC, QPS_RTS)):
                err = d.modify_qp(self.qp[i][0], mask, state, peer[2],
                                  gid_index, self.qp[1 - i][1],
                                  qp_access if i else 7)
                if err:
                    sys.exit(f'modify_qp to {state}: {strerr(err)}')
        self.sq = a[0].map(self.qp[0][2])
        self.elem = _elem(self.sq)
        self.posted = 0
        self.buf = mmap.mmap(-1, size)
        self.addr = ctypes.addressof(ctypes.c_char.from_buffer(self.buf))
        self.buf[:] = bytes(range(256)) * (size // 256)
        err, self.mr = b[0].reg_mr(self.addr, size, mr_access)
        if err:
            sys.exit(f'reg_mr({mr_access:#x}): {strerr(err)}')
        self.rkey = b[0].u32(8)
        self.blkey = b[0].u32(4)
        # A's data: what a WRITE sends
        self.abuf = mmap.mmap(-1, size)
        self.aaddr = ctypes.addressof(ctypes.c_char.from_buffer(self.abuf))
        err, self.amr = a[0].reg_mr(self.aaddr, size, A_LWRITE)
        if err:
            sys.exit(f'reg_mr: {strerr(err)}')
        self.lkey = a[0].u32(4)

    def post(self, opcode, wr_id, va, rkey=None, length=0, value=b'',
             ftype=0, level=0, ring=True, aoff=0):
        """One WQE as rxe's provider writes it, then (@ring) the
        doorbell; a WRITE sends @value from A's page at @aoff"""
        rkey = self.rkey if rkey is None else rkey
        w = bytearray(self.elem)
        struct.pack_into('=QIII', w, 0, wr_id, 0, opcode, SEND_SIGNALED)
        if opcode == WR_FLUSH:
            struct.pack_into('=QIIBB', w, 24, va, 0, rkey, ftype, level)
        else:
            struct.pack_into('=QI', w, 24, va, rkey)
        struct.pack_into('=Q', w, 152, va)		# iova
        struct.pack_into('=II', w, 184, length, length)	# dma length, resid
        if opcode in (WR_RDMA_WRITE, WR_SEND):	# @value from A's MR
            self.abuf[aoff:aoff + len(value)] = value
            struct.pack_into('=I', w, 196, 1)
            struct.pack_into('=QII', w, 208, self.aaddr + aoff, len(value),
                             self.lkey)
        else:
            w[208:208 + len(value)] = value
        off = Q_DATA + self.posted * self.elem
        self.sq[off:off + self.elem] = bytes(w)
        self.posted += 1
        struct.pack_into('=I', self.sq, Q_PROD, self.posted)
        return self.a[0].doorbell(self.qp[0][0]) if ring else 0

    def cqes(self, n, secs=20, side=0):
        """The first @n completions of A's (@side 1: B's) CQ: (wr_id,
        status, opcode)"""
        m = self.cqm[side]
        end = time.monotonic() + secs
        while (struct.unpack_from('=I', m, Q_PROD)[0] < n and
               time.monotonic() < end):
            time.sleep(0.02)
        elem = _elem(m)
        return [struct.unpack_from('=QII', m, Q_DATA + i * elem)
                for i in range(min(n, struct.unpack_from('=I', m, Q_PROD)[0]))]

    def close(self):
        self.b[0].dereg_mr(self.mr)
        self.a[0].dereg_mr(self.amr)
        for m in self.cqm + [self.sq]:
            m.close()
        for i, d in enumerate((self.a[0], self.b[0])):
            d.destroy_qp(self.qp[i][0])
            d.destroy_cq(self.cq[i])
        self.buf.close()
        self.abuf.close()


def mpe_case(a, b, what, mr_access, qp_access, posts, want, check_mem):
    """@posts on a fresh pair; A's completions must be @want,
    (status, opcode) each, and check_mem(original, now) true"""
    p = MpePair(a, b, mr_access, qp_access)
    before = bytes(p.buf)
    err = 0
    for i, (op, kw) in enumerate(posts):
        kw = dict(kw)
        va = p.addr + kw.pop('off', 0)
        err = err or p.post(op, 0x100 + i, va, **kw)
    got = [(s, o) for _, s, o in p.cqes(len(want))]
    now = bytes(p.buf)
    ok = not err and got == want and check_mem(before, now)
    print(f'{"ok" if ok else "FAILED"}: {what}: doorbell {strerr(err)}, '
          f'completions (status, opcode) {got}, want {want}')
    p.close()
    return ok


def mpe_ends(dev_a, gid_a, dev_b, gid_b):
    """(Dev, GID index, GID) of each side"""
    ends = []
    for dev, gi in ((dev_a, gid_a), (dev_b, gid_b)):
        with open(f'/sys/class/infiniband/{dev}/ports/1/gids/{gi}') as f:
            gid = bytes.fromhex(f.read().strip().replace(':', ''))
        ends.append((Dev(dev), gi, gid))
    return ends


def mpe(dev_a, gid_a, dev_b, gid_b):
    from pyverbs.device import Context
    a, b = mpe_ends(dev_a, gid_a, dev_b, gid_b)
    rc = 0
    caps = Context(name=dev_a).query_device_ex().device_cap_flags_ex
    flush_g, flush_p, atomic_w = 1 << 38, 1 << 39, 1 << 40
    print(f'device_cap_flags_ex {caps:#x}')
    if not caps & flush_g or not caps & atomic_w or caps & flush_p:
        print('FAILED: want ATOMIC_WRITE and FLUSH_GLOBAL, not '
              'FLUSH_PERSISTENT')
        rc = 1
    m = mmap.mmap(-1, 4096)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
    err, mr = b[0].reg_mr(addr, 4096, A_LWRITE | A_FLUSH_P)
    print(f'MR with IB_ACCESS_FLUSH_PERSISTENT: {strerr(err)}')
    if err != errno.EOPNOTSUPP:
        rc = 1
        if not err:
            b[0].dereg_mr(mr)
    del addr
    m.close()

    val = bytes.fromhex('8877665544332211')
    data = b'mrc!' * 16

    def lands(off, v):
        return lambda old, new: (new[off:off + len(v)] == v and
                                 new[:off] == old[:off] and
                                 new[off + len(v):] == old[off + len(v):])

    def same(old, new):
        return old == new

    rw = A_LWRITE | A_RWRITE
    cases = [
        ('ATOMIC_WRITE of 8 bytes lands', rw, A_RWRITE,
         [(WR_ATOMIC_WRITE, {'off': 64, 'length': 8, 'value': val})],
         [(WC_OK, WC_ATOMIC_WRITE)], lands(64, val)),
        ('WRITE then FLUSH of its range, then FLUSH of the MR',
         rw | A_FLUSH_G, A_RWRITE | A_FLUSH_G,
         [(WR_RDMA_WRITE, {'off': 256, 'length': 64, 'value': data}),
          (WR_FLUSH, {'off': 256, 'length': 64, 'ftype': FLUSH_GLOBAL,
                      'level': FLUSH_RANGE}),
          (WR_FLUSH, {'off': 4000, 'length': 0, 'ftype': FLUSH_GLOBAL,
                      'level': FLUSH_MR})],
         [(WC_OK, WC_RDMA_WRITE), (WC_OK, WC_FLUSH), (WC_OK, WC_FLUSH)],
         lands(256, data)),
        ('ATOMIC_WRITE to an MR without remote write: remote access error',
         A_LWRITE | A_RREAD, A_RWRITE,
         [(WR_ATOMIC_WRITE, {'off': 64, 'length': 8, 'value': val})],
         [(WC_REM_ACCESS, WC_ATOMIC_WRITE)], same),
        ('FLUSH to an MR without FLUSH_GLOBAL: remote access error',
         rw, A_RWRITE | A_FLUSH_G,
         [(WR_FLUSH, {'off': 0, 'length': 64, 'ftype': FLUSH_GLOBAL})],
         [(WC_REM_ACCESS, WC_FLUSH)], same),
        ('persistent FLUSH: remote access error', rw | A_FLUSH_G,
         A_RWRITE | A_FLUSH_G | A_FLUSH_P,
         [(WR_FLUSH, {'off': 0, 'length': 64, 'ftype': FLUSH_PERSISTENT})],
         [(WC_REM_ACCESS, WC_FLUSH)], same),
        ('ATOMIC_WRITE to a QP without remote write: invalid request',
         rw, A_RREAD,
         [(WR_ATOMIC_WRITE, {'off': 64, 'length': 8, 'value': val})],
         [(WC_REM_INV_REQ, WC_ATOMIC_WRITE)], same),
        ('misaligned ATOMIC_WRITE: refused locally', rw, A_RWRITE,
         [(WR_ATOMIC_WRITE, {'off': 68, 'length': 8, 'value': val})],
         [(WC_LOC_QP_OP, WC_ATOMIC_WRITE)], same),
    ]
    for what, mr_access, qp_access, posts, want, check in cases:
        if not mpe_case(a, b, what, mr_access, qp_access, posts, want, check):
            rc = 1
    a[0].close()
    b[0].close()
    return rc


def mpe_replay(dev_a, gid_a, dev_b, gid_b, rounds):
    a, b = mpe_ends(dev_a, gid_a, dev_b, gid_b)
    p = MpePair(a, b, A_LWRITE | A_RWRITE | A_FLUSH_G, A_RWRITE | A_FLUSH_G,
                depth=2 * rounds + 8)
    want, err = [], 0
    for i in range(rounds):
        aw = struct.pack('>Q', 0xa000000000000000 + i)
        wr = struct.pack('>Q', 0xb000000000000000 + i)
        err = err or p.post(WR_ATOMIC_WRITE, 2 * i, p.addr + 8 * i,
                            length=8, value=aw)
        want.append((WC_OK, WC_ATOMIC_WRITE))
        p.cqes(len(want), 60)
        err = err or p.post(WR_RDMA_WRITE, 2 * i + 1, p.addr + 8 * i,
                            length=8, value=wr, aoff=8 * i)
        want.append((WC_OK, WC_RDMA_WRITE))
        p.cqes(len(want), 60)
    err = err or p.post(WR_FLUSH, 2 * rounds, p.addr, length=8 * rounds,
                        ftype=FLUSH_GLOBAL)
    want.append((WC_OK, WC_FLUSH))
    got = [(s, o) for _, s, o in p.cqes(len(want), 60)]
    time.sleep(1)
    bad = [i for i in range(rounds) if bytes(p.buf[8 * i:8 * i + 8]) !=
           struct.pack('>Q', 0xb000000000000000 + i)]
    ok = not err and got == want and not bad
    print(f'{"ok" if ok else "FAILED"}: {rounds} x (ATOMIC_WRITE, WRITE) '
          f'of one slot, then a FLUSH: doorbell {strerr(err)}, '
          f'{len(got)} of {len(want)} completions as wanted: '
          f'{got == want}; slots not holding the WRITE: {bad}')
    if got != want:
        print(f'completions: {got}')
    p.close()
    a[0].close()
    b[0].close()
    return 0 if ok else 1


def main():
    a = sys.argv[1:]
    if a[:1] == ['resize-efault'] and len(a) == 2:
        return resize_efault(a[1])
    if a[:1] == ['flood'] and len(a) == 3 and a[2] in ('cq', 'qp', 'srq',
                                                        'mr', 'ah'):
        return flood(a[1], a[2])
    if a[:1] == ['attrs'] and len(a) == 2:
        return attrs(a[1])
    if a[:1] == ['garbage'] and len(a) == 5:
        return garbage(a[1], int(a[2]), int(a[3]), int(a[4]))
    if a[:1] == ['memcg'] and len(a) == 3:
        return memcg(a[1], a[2])
    if a[:1] == ['res-qp'] and len(a) == 2:
        return res_qp(a[1])
    if a[:1] == ['mpe'] and len(a) == 5:
        return mpe(a[1], int(a[2]), a[3], int(a[4]))
    if a[:1] == ['mpe-replay'] and len(a) == 6:
        return mpe_replay(a[1], int(a[2]), a[3], int(a[4]), int(a[5]))
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main())
