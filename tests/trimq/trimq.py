#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Configure and read the mrc_trim qdisc (tests/trimq/sch_mrc_trim.ko), and
drive traffic through it.

Stock tc cannot parse the options of a qdisc kind it has no plugin for, so
this speaks rtnetlink itself: plain python3, no third-party modules, runs on
any Debian 12 machine (and in the test VM, which runs the host's python3).

  trimq.py qdisc add|change|replace dev DEV [parent root|MAJ:MIN]
           [handle MAJ:] [OPTION VALUE]...
  trimq.py qdisc del dev DEV [parent root|MAJ:MIN]
  trimq.py qdisc show dev DEV [all]    one JSON object: options, stats, xstats
                                       (all: a list of every qdisc of DEV)
  trimq.py run --dev DEV --rx-netns PATH --rx-dev DEV --dst ADDR GROUP...
  trimq.py batch <SCRIPT    lines "NAME qdisc ..." or "NAME run ...", one
                           JSON object of the results by NAME (one python
                           start for a whole test: ~8 s on a KASAN guest)
  trimq.py watch dev DEV [interval SECONDS]
                           until killed, a line per interval [0.01]: the
                           time (ns), the bytes DEV's root qdisc (of any
                           kind) sent, its backlog in bytes (one process,
                           not one per sample: the bench's queue samples)

Options (defaults in brackets): rate BYTES/S, or with a kbit/mbit/gbit
suffix [0: no limit], limit BYTES [65536], prio_limit BYTES [16384],
trim_len BYTES [256], trim_dscp 0-63 [46], ctrl_dscp 0-63 [48], kmin BYTES
[0], kmax BYTES [0: no marking], fix_len 0|1 [0].

run: plugs the qdisc (rate 1 byte/s after one packet has left), sends each
GROUP "COUNT:SIZE:TCLASS[:gso]" (UDP payload bytes, the traffic class byte:
DSCP << 2 | ECN; gso: the COUNT packets in one UDP_SEGMENT send) in order to
ADDR, numbering the packets from 0 in their first 4 payload bytes, unplugs
it (--rate, default no limit) and prints one JSON
object: what a packet socket on --rx-dev in --rx-netns received for the
port (lengths, DSCP and ECN of the outer header, length fields, the inner
header of an encapsulated packet) and the qdisc's stats before, while
plugged and after. Exit status 0, 1 on a netlink error, 2 on bad usage.
"""
import argparse
import ctypes
import errno
import json
import os
import select
import shlex
import socket
import struct
import sys
import time

NETLINK_ROUTE = 0
SOL_NETLINK = 270
NETLINK_CAP_ACK, NETLINK_EXT_ACK = 10, 11
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 0x1, 0x2, 0x4
NLM_F_ROOT, NLM_F_MATCH = 0x100, 0x200
NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE = 0x100, 0x200, 0x400
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1
NLA_F_NESTED = 0x8000
RTM_NEWQDISC, RTM_DELQDISC, RTM_GETQDISC = 36, 37, 38
TCA_KIND, TCA_OPTIONS, TCA_XSTATS, TCA_STATS2 = 1, 2, 4, 7
TCA_STATS_BASIC, TCA_STATS_QUEUE, TCA_STATS_APP = 1, 3, 4
TC_H_ROOT = 0xFFFFFFFF
KIND = 'mrc_trim'

# the qdisc's options: name -> (attribute, struct format); sch_mrc_trim.c
OPTS = {
    'rate': (1, 'Q'), 'limit': (2, 'I'), 'prio_limit': (3, 'I'),
    'trim_len': (4, 'I'), 'trim_dscp': (5, 'B'), 'ctrl_dscp': (6, 'B'),
    'kmin': (7, 'I'), 'kmax': (8, 'I'), 'fix_len': (9, 'B'),
}
# its xstats, struct tc_mrc_trim_xstats
XSTATS = ('trimmed', 'dropped', 'prio_dropped', 'marked', 'fifo_hiwat',
          'prio_hiwat', 'fifo_backlog', 'prio_backlog', 'fifo_qlen',
          'prio_qlen')
XSTATS_FMT = '=4Q6I'


class NetlinkError(Exception):
    def __init__(self, err, msg):
        super().__init__(f'{os.strerror(err)}' + (f': {msg}' if msg else ''))
        self.errno = err


def nla(atype, payload):
    hdr = struct.pack('=HH', 4 + len(payload), atype)
    return hdr + payload + b'\0' * (-len(payload) % 4)


def nla_parse(buf):
    attrs, off = {}, 0
    while off + 4 <= len(buf):
        alen, atype = struct.unpack_from('=HH', buf, off)
        if alen < 4:
            break
        attrs[atype & 0x3fff] = buf[off + 4:off + alen]
        off += (alen + 3) & ~3
    return attrs


class Rtnl:
    def __init__(self):
        self.sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_ROUTE)
        self.sk.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sk.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.sk.bind((0, 0))
        self.seq = 0

    def request(self, mtype, flags, payload, dump=False):
        """Sends one request; returns the messages of its answer."""
        self.seq += 1
        # a dump ends with NLMSG_DONE, anything else with an ACK
        flags |= NLM_F_ROOT | NLM_F_MATCH if dump else NLM_F_ACK
        msg = struct.pack('=IHHII', 16 + len(payload), mtype,
                          flags | NLM_F_REQUEST, self.seq, 0)
        self.sk.send(msg + payload)
        out = []
        while True:
            buf = self.sk.recv(1 << 20)
            off = 0
            while off + 16 <= len(buf):
                mlen, mt, mflags, seq, _ = struct.unpack_from('=IHHII', buf, off)
                body = buf[off + 16:off + mlen]
                off += (mlen + 3) & ~3
                if seq != self.seq:
                    continue
                if mt == NLMSG_DONE:
                    return out
                if mt == NLMSG_ERROR:
                    err = -struct.unpack_from('=i', body)[0]
                    if not err:
                        return out
                    text = ''
                    if mflags & NLM_F_ACK_TLVS:
                        tlv = nla_parse(body[4 + 16:])
                        text = tlv.get(NLMSGERR_ATTR_MSG, b'').rstrip(b'\0').decode()
                    raise NetlinkError(err, text)
                out.append((mt, body))


def tc_handle(text, root_ok=True):
    if root_ok and text == 'root':
        return TC_H_ROOT
    major, _, minor = text.partition(':')
    return (int(major or '0', 16) << 16) | int(minor or '0', 16)


def parse_rate(text):
    t = text.lower()
    for suffix, mult in (('gbit', 10**9 // 8), ('mbit', 10**6 // 8),
                         ('kbit', 1000 // 8), ('bit', None)):
        if t.endswith(suffix):
            num = float(t[:-len(suffix)])
            return int(num / 8) if mult is None else int(num * mult)
    return int(t, 0)


def encode_opts(pairs):
    out = b''
    for name, value in pairs:
        if name not in OPTS:
            raise ValueError(f'unknown option {name}')
        atype, fmt = OPTS[name]
        val = parse_rate(value) if name == 'rate' else int(value, 0)
        try:
            out += nla(atype, struct.pack('=' + fmt, val))
        except struct.error as e:
            raise ValueError(f'{name} {value}: out of range') from e
    return out


def tcmsg(ifindex, handle, parent):
    return struct.pack('=BxxxiIII', socket.AF_UNSPEC, ifindex, handle, parent, 0)


def qdisc_set(rtnl, cmd, dev, parent=TC_H_ROOT, handle=0, pairs=()):
    flags = {'add': NLM_F_CREATE | NLM_F_EXCL, 'change': 0,
             'replace': NLM_F_CREATE | NLM_F_REPLACE}[cmd]
    payload = tcmsg(socket.if_nametoindex(dev), handle, parent)
    payload += nla(TCA_KIND, KIND.encode() + b'\0')
    opts = encode_opts(pairs)
    if opts or cmd != 'change':
        payload += nla(TCA_OPTIONS | NLA_F_NESTED, opts)
    rtnl.request(RTM_NEWQDISC, flags, payload)


def qdisc_del(rtnl, dev, parent=TC_H_ROOT):
    rtnl.request(RTM_DELQDISC, 0, tcmsg(socket.if_nametoindex(dev), 0, parent))


def qdisc_show(rtnl, dev, kind=KIND):
    """The qdiscs of DEV of KIND (None: all), as dicts."""
    ifindex = socket.if_nametoindex(dev)
    found = []
    for _, body in rtnl.request(RTM_GETQDISC, 0, tcmsg(ifindex, 0, 0), dump=True):
        _, idx, handle, parent, _ = struct.unpack_from('=BxxxiIII', body)
        attrs = nla_parse(body[20:])
        qkind = attrs.get(TCA_KIND, b'').rstrip(b'\0').decode()
        if idx != ifindex or kind not in (None, qkind):
            continue
        q = {'dev': dev, 'kind': qkind, 'handle': f'{handle >> 16:x}:',
             'parent': 'root' if parent == TC_H_ROOT else
             f'{parent >> 16:x}:{parent & 0xffff:x}', 'options': {}}
        opts = nla_parse(attrs.get(TCA_OPTIONS, b'') if qkind == KIND else b'')
        for name, (atype, fmt) in OPTS.items():
            if atype in opts:
                q['options'][name] = struct.unpack_from('=' + fmt, opts[atype])[0]
        st = nla_parse(attrs.get(TCA_STATS2, b''))
        stats = {}
        if TCA_STATS_BASIC in st:
            stats['bytes'], stats['packets'] = struct.unpack_from('=QI', st[TCA_STATS_BASIC])
        if TCA_STATS_QUEUE in st:
            vals = struct.unpack_from('=5I', st[TCA_STATS_QUEUE])
            stats.update(zip(('qlen', 'backlog', 'drops', 'requeues', 'overlimits'), vals))
        q['stats'] = stats
        app = st.get(TCA_STATS_APP) or attrs.get(TCA_XSTATS)
        if qkind == KIND and app and len(app) >= struct.calcsize(XSTATS_FMT):
            q['xstats'] = dict(zip(XSTATS, struct.unpack_from(XSTATS_FMT, app)))
        found.append(q)
    return found


def cmd_qdisc(argv, rtnl):
    """qdisc add|change|replace|del|show: None, or show's dict."""
    if len(argv) < 3 or argv[1] != 'dev':
        raise ValueError('usage: qdisc add|change|replace|del|show dev DEV ...')
    cmd, dev, rest = argv[0], argv[2], argv[3:]
    parent, handle, pairs = TC_H_ROOT, 0, []
    if cmd == 'show' and rest == ['all']:
        return qdisc_show(rtnl, dev, None)
    while rest:
        if len(rest) < 2:
            raise ValueError(f'{rest[0]}: value missing')
        key, val, rest = rest[0], rest[1], rest[2:]
        if key == 'parent':
            parent = tc_handle(val)
        elif key == 'handle':
            handle = tc_handle(val, root_ok=False)
        else:
            pairs.append((key, val))
    if cmd in ('add', 'change', 'replace'):
        qdisc_set(rtnl, cmd, dev, parent, handle, pairs)
    elif cmd == 'del':
        qdisc_del(rtnl, dev, parent)
    elif cmd == 'show':
        qs = qdisc_show(rtnl, dev)
        if not qs:
            raise NetlinkError(errno.ENOENT, f'no {KIND} qdisc on {dev}')
        return qs[0] if len(qs) == 1 else qs
    else:
        raise ValueError(f'unknown command {cmd}')
    return None


# -- traffic

CLONE_NEWNET = 0x40000000
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
SO_RCVBUFFORCE = 33
UDP_SEGMENT = 103


def setns(path):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), f'setns {path}')
    finally:
        os.close(fd)


def rx_socket(netns, dev):
    """A packet socket on DEV in the namespace at NETNS."""
    own = os.open('/proc/self/ns/net', os.O_RDONLY)
    try:
        setns(netns)
        sk = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(ETH_P_ALL))
        sk.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
        sk.bind((dev, ETH_P_ALL))
    finally:
        setns(f'/proc/self/fd/{own}')
        os.close(own)
    return sk


def ipv4_csum_ok(hdr):
    s = sum(struct.unpack(f'!{len(hdr) // 2}H', hdr))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s == 0xffff


def parse_pkt(data, port):
    """The fields of a received UDP packet to PORT, None for others: of the
    outer IP header, of an encapsulated one (inner_*), of the UDP header."""
    rec, off, nh = {'len': len(data)}, 0, None
    for pre in ('', 'inner_'):
        if len(data) - off < 20:
            return None
        ver = data[off] >> 4
        if ver == 6 and len(data) - off >= 40:
            tclass = ((data[off] & 0xf) << 4) | (data[off + 1] >> 4)
            plen = struct.unpack_from('!H', data, off + 4)[0]
            nh, nxt = data[off + 6], off + 40
            while nh in (0, 43, 60) and nxt + 2 <= len(data):
                nh, nxt = data[nxt], nxt + (data[nxt + 1] + 1) * 8
        elif ver == 4:
            ihl = (data[off] & 0xf) * 4
            tclass = data[off + 1]
            plen = struct.unpack_from('!H', data, off + 2)[0]
            nh, nxt = data[off + 9], off + ihl
            rec[pre + 'csum_ok'] = ipv4_csum_ok(data[off:off + ihl])
        else:
            return None
        rec[pre + 'dscp'], rec[pre + 'ecn'], rec[pre + 'plen'] = tclass >> 2, tclass & 3, plen
        off = nxt
        if nh not in (4, 41):
            break
    if nh != 17 or len(data) - off < 8:
        return None
    dport, ulen = struct.unpack_from('!HH', data, off + 2)
    if dport != port:
        return None
    rec['ulen'] = ulen
    if len(data) - off >= 12:
        rec['seq'] = struct.unpack_from('!I', data, off + 8)[0]
    return rec


def cmd_run(argv, rtnl):
    """run: the packets received and the qdisc's stats, as a dict."""
    ap = argparse.ArgumentParser(prog='trimq.py run', exit_on_error=False)
    ap.add_argument('--dev', required=True, help='the qdisc\'s device (this namespace)')
    ap.add_argument('--rx-netns', required=True)
    ap.add_argument('--rx-dev', required=True)
    ap.add_argument('--dst', required=True)
    ap.add_argument('--port', type=int, default=7471)
    ap.add_argument('--parent', default='root', help='the qdisc\'s parent')
    ap.add_argument('--rate', default='0', help='rate after unplugging')
    ap.add_argument('--idle', type=float, default=1.0,
                    help='stop after this long without a packet')
    ap.add_argument('groups', nargs='+', metavar='COUNT:SIZE:TCLASS')
    a = ap.parse_args(argv)
    groups = []
    for g in a.groups:
        f = g.split(':')
        if len(f) not in (3, 4) or f[3:] not in ([], ['gso']):
            raise ValueError(f'bad group {g}: COUNT:SIZE:TCLASS[:gso]')
        groups.append((int(f[0], 0), max(int(f[1], 0), 4), int(f[2], 0), len(f) == 4))
    parent = tc_handle(a.parent)

    rx = rx_socket(a.rx_netns, a.rx_dev)
    v6 = ':' in a.dst
    tx = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET, socket.SOCK_DGRAM)
    tx.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    stats = lambda: qdisc_show(rtnl, a.dev)[0]  # noqa: E731

    def tos(tclass):
        if v6:
            tx.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, tclass)
        else:
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, tclass)

    # the plug: after a rate change the next packet leaves at once and the
    # one after it waits its length in seconds
    qdisc_set(rtnl, 'change', a.dev, parent, pairs=[('rate', '1')])
    tos(0)
    tx.sendto(b'\xff' * 4, (a.dst, a.port + 1))
    before = stats()
    seq, sent, refused = 0, 0, 0
    for count, size, tclass, gso in groups:
        tos(tclass)
        if gso:
            # one send of COUNT segments: a GSO packet at the qdisc
            buf = b''.join(struct.pack('!I', seq + i) + b'\xa5' * (size - 4)
                           for i in range(count))
            tx.setsockopt(socket.IPPROTO_UDP, UDP_SEGMENT, size)
            tx.sendto(buf, (a.dst, a.port))
            tx.setsockopt(socket.IPPROTO_UDP, UDP_SEGMENT, 0)
            sent += count
            seq += count
            continue
        for _ in range(count):
            try:
                tx.sendto(struct.pack('!I', seq) + b'\xa5' * (size - 4), (a.dst, a.port))
                sent += 1
            except OSError as e:
                if e.errno != errno.ENOBUFS:
                    raise
                refused += 1
            seq += 1
    plugged = stats()
    plugged_all = qdisc_show(rtnl, a.dev, None)
    qdisc_set(rtnl, 'change', a.dev, parent, pairs=[('rate', a.rate)])

    got, last = [], time.monotonic()
    while time.monotonic() - last < a.idle and len(got) < seq:
        r, _, _ = select.select([rx], [], [], a.idle)
        if not r:
            break
        data, addr = rx.recvfrom(65536)
        if addr[2] == PACKET_OUTGOING:
            continue
        rec = parse_pkt(data, a.port)
        if rec:
            got.append(rec)
            last = time.monotonic()
    rx.close()
    tx.close()
    return {'sent': sent, 'refused': refused, 'rx': got, 'before': before,
            'plugged': plugged, 'plugged_all': plugged_all, 'after': stats()}


def cmd_watch(argv, rtnl):
    """watch dev DEV [interval SECONDS]: samples until killed."""
    if len(argv) not in (2, 4) or argv[0] != 'dev' or \
            (len(argv) == 4 and argv[2] != 'interval'):
        raise ValueError('usage: watch dev DEV [interval SECONDS]')
    interval = float(argv[3]) if len(argv) == 4 else 0.01
    if not 0 < interval <= 60:
        raise ValueError(f'interval {argv[3]}: not in (0, 60]')
    while True:
        root = [q for q in qdisc_show(rtnl, argv[1], None) if q['parent'] == 'root']
        st = root[0]['stats'] if root else {}
        print(time.time_ns(), st.get('bytes', 0), st.get('backlog', 0), flush=True)
        time.sleep(interval)


COMMANDS = {'qdisc': cmd_qdisc, 'run': cmd_run}


def cmd_batch(rtnl):
    """batch: runs "NAME COMMAND ARGS..." lines from stdin, prints one JSON
    object: for each NAME, rc (0, 1 netlink error, 2 usage), out, err."""
    res = {}
    for line in sys.stdin:
        argv = shlex.split(line, comments=True)
        if not argv:
            continue
        name, cmd = argv[0], argv[1] if len(argv) > 1 else ''
        try:
            if cmd not in COMMANDS:
                raise ValueError(f'unknown command {cmd!r}')
            res[name] = {'rc': 0, 'out': COMMANDS[cmd](argv[2:], rtnl)}
        except (ValueError, argparse.ArgumentError) as e:
            res[name] = {'rc': 2, 'err': str(e)}
        except NetlinkError as e:
            res[name] = {'rc': 1, 'err': str(e)}
    print(json.dumps(res))
    return 0


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ('qdisc', 'run', 'batch', 'watch'):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        rtnl = Rtnl()
        if sys.argv[1] == 'batch':
            return cmd_batch(rtnl)
        if sys.argv[1] == 'watch':
            return cmd_watch(sys.argv[2:], rtnl)
        out = COMMANDS[sys.argv[1]](sys.argv[2:], rtnl)
        if out is not None:
            print(json.dumps(out))
        return 0
    except (ValueError, argparse.ArgumentError) as e:
        print(f'trimq.py: {e}', file=sys.stderr)
        return 2
    except NetlinkError as e:
        print(f'trimq.py: {e}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
