#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generic netlink fuzzer for the "mrc" family.

Sends random and mutated requests for every command of the family (and for
command numbers it does not have) from the caller's network namespace, with
the caller's capabilities, and prints a JSON summary: messages sent, replies
by errno, refusals that came back without an extack message, and anything
odd (no answer, a change accepted from a caller without CAP_NET_ADMIN, a
malformed request accepted, a dump that never ends).

Plain python3, no third-party modules: the test VM runs the host's python3.
Command and attribute numbers come from include/uapi/linux/mrc.h.

  mrc_nlfuzz.py [--seed S] [--count N] [--uapi PATH] [--timeout SECS]

--count N: messages per command class (each command of the header, and one
class of unknown commands and of headers too short for generic netlink).
Exit status: 0 when the summary has nothing odd and every refusal by mrc
(its policies or handlers) carried an extack message, 1 otherwise, 4 when
the family is not registered.
"""
import argparse
import errno
import json
import os
import random
import re
import socket
import struct
import sys

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NETLINK_GET_STRICT_CHK = 12

NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE = 1, 2, 3
NLMSG_MIN_TYPE = 0x10
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 0x1, 0x2, 0x4
NLM_F_ROOT, NLM_F_MATCH = 0x100, 0x200
NLM_F_DUMP = NLM_F_ROOT | NLM_F_MATCH
NLM_F_ACK_TLVS = 0x200
NLA_F_NESTED, NLA_F_NET_BYTEORDER = 0x8000, 0x4000
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS = 1, 2
NLMSGERR_ATTR_POLICY, NLMSGERR_ATTR_MISS_TYPE = 4, 5

GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME, CTRL_ATTR_MCAST_GRP_ID = 1, 2

CAP_NET_ADMIN = 12

# payload kinds of the attributes, by uAPI name (the spec's types); a name
# not listed is fuzzed as a u32
KINDS = {
    'DEV_NAME': 'str', 'PLANE_DEV_NAME': 'str', 'PATH_DEV_NAME': 'str',
    'EV_DEV_NAME': 'str', 'PATH_PEER': 'in6', 'PATH_REMOTE': 'in6',
    'PATH_USID': 'in6', 'PATH_SEGS': 'segs', 'PATH_LBLEN': 'u8',
    'PATH_NFLEN': 'u8', 'DEV_NODE_GUID': 'u64', 'PLANE_ALLOW': 'prefix',
    'EP_DEV_NAME': 'str', 'EP_PEER': 'in6', 'EP_TIMEOUT_NS': 'u64',
    'CC_DEV_NAME': 'str',
}
# the commands that change something, and ev-get: for a caller without
# CAP_NET_ADMIN, any success of these is a failure of the security model
ADMIN_CMDS = ('DEV_SET', 'PLANE_ADD', 'PLANE_DEL', 'PLANE_SET', 'PATH_ADD',
              'PATH_DEL', 'EV_SET', 'EV_GET', 'EP_PROBE', 'CC_PROFILE_SET',
              'EV_PROFILE_SET', 'EV_FMT_SET')
# how each command is sent when valid: do, dump or both (the ops table)
KIND_OF_CMD = {
    'DEV_GET': ('do', 'dump'), 'DEV_SET': ('do',),
    'PLANE_GET': ('do', 'dump'), 'PLANE_ADD': ('do',), 'PLANE_DEL': ('do',),
    'PLANE_SET': ('do',),
    'PATH_GET': ('dump',), 'PATH_ADD': ('do',), 'PATH_DEL': ('do',),
    'EV_GET': ('dump',), 'EV_SET': ('do',), 'EP_PROBE': ('do',),
    'CC_PROFILE_GET': ('do', 'dump'), 'CC_PROFILE_SET': ('do',),
    'EV_PROFILE_GET': ('do', 'dump'), 'EV_PROFILE_SET': ('do',),
    'EV_FMT_GET': ('do', 'dump'), 'EV_FMT_SET': ('do',),
}
# ops without a policy (the spec gives them no request attributes):
# generic netlink does not parse their attributes, so broken ones pass
NO_POLICY = (('DEV_GET', 'dump'),)


def parse_uapi(path):
    """Enums and defines of mrc.h: commands, attribute sets, constants."""
    text = open(path, encoding='utf-8').read()
    consts = {m.group(1): int(m.group(2)) for m in
              re.finditer(r'#define\s+MRC_(\w+)\s+(\d+)\b', text)}
    cmds, attrs = {}, {}
    for body in re.findall(r'enum\s*\{([^}]*)\}', text):
        val = 0
        for ent in body.split(','):
            ent = re.sub(r'/\*.*?\*/', '', ent, flags=re.S).strip()
            m = re.match(r'(\w+)(?:\s*=\s*(\d+))?$', ent)
            if not m:
                continue
            name = m.group(1)
            if m.group(2):
                val = int(m.group(2))
            if name.startswith('__') or name.endswith('_MAX'):
                val += 1
                continue
            if name.startswith('MRC_CMD_'):
                cmds[name[len('MRC_CMD_'):]] = val
            elif name.startswith('MRC_A_'):
                aset = name[len('MRC_A_'):].split('_')[0]
                attrs.setdefault(aset, {})[name[len('MRC_A_'):]] = val
            val += 1
    if not cmds or not attrs:
        sys.exit('%s: no commands or attributes found' % path)
    return cmds, attrs, consts


def nla(atype, payload):
    """One attribute, padded."""
    n = 4 + len(payload)
    return struct.pack('=HH', n, atype) + payload + b'\0' * (-n & 3)


def nlmsg(mtype, flags, seq, payload):
    return struct.pack('=IHHII', 16 + len(payload), mtype, flags, seq, 0) + payload


def attrs_of(buf):
    """Attributes of buf as (type, payload) pairs, stopping at junk."""
    out, off = [], 0
    while off + 4 <= len(buf):
        n, t = struct.unpack_from('=HH', buf, off)
        if n < 4 or off + n > len(buf):
            break
        out.append((t & 0x3fff, buf[off + 4:off + n]))
        off += (n + 3) & ~3
    return out


def cap_net_admin():
    """Whether this process has CAP_NET_ADMIN (in its user namespace)."""
    with open('/proc/self/status', encoding='utf-8') as f:
        for line in f:
            if line.startswith('CapEff:'):
                return bool(int(line.split()[1], 16) >> CAP_NET_ADMIN & 1)
    return False


class Reply:
    """What the kernel answered to one request."""

    def __init__(self):
        self.data = 0           # data messages
        self.err = None         # errno of NLMSG_ERROR (0: ACK)
        self.done = None        # errno of NLMSG_DONE
        self.msg = None         # extack message
        self.miss = None        # extack missing-attribute type
        self.policy = False     # extack policy attached

    @property
    def ended(self):
        return self.err is not None or self.done is not None

    @property
    def errno(self):
        e = self.err if self.err is not None else self.done
        return 0 if e is None else e


class Genl:
    def __init__(self, timeout):
        self.timeout = timeout
        self.sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                NETLINK_GENERIC)
        for opt in (NETLINK_EXT_ACK, NETLINK_CAP_ACK, NETLINK_GET_STRICT_CHK):
            self.sk.setsockopt(SOL_NETLINK, opt, 1)
        self.sk.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.sk.bind((0, 0))
        self.seq = 1

    def next_seq(self):
        self.seq += 1
        return self.seq

    def recv(self, timeout):
        self.sk.settimeout(timeout)
        try:
            buf = self.sk.recv(1 << 20)
        except socket.timeout:
            return None
        msgs, off = [], 0
        while off + 16 <= len(buf):
            n, t, fl, seq, _ = struct.unpack_from('=IHHII', buf, off)
            if n < 16 or off + n > len(buf):
                break
            msgs.append((t, fl, seq, buf[off + 16:off + n]))
            off += (n + 3) & ~3
        return msgs

    @staticmethod
    def absorb(rep, t, fl, payload):
        if t not in (NLMSG_ERROR, NLMSG_DONE):
            rep.data += 1
            return
        e = -struct.unpack_from('=i', payload)[0] if len(payload) >= 4 else 0
        tlv = b''
        if t == NLMSG_ERROR:
            rep.err = e
            if fl & NLM_F_ACK_TLVS:
                # NETLINK_CAP_ACK: the request comes back as its header
                olen = 16 if fl & 0x100 else struct.unpack_from('=I', payload, 4)[0]
                tlv = payload[4 + ((olen + 3) & ~3):]
        else:
            rep.done = e
            if fl & NLM_F_ACK_TLVS:
                tlv = payload[4:]
        for at, ap in attrs_of(tlv):
            if at == NLMSGERR_ATTR_MSG:
                rep.msg = ap.rstrip(b'\0').decode(errors='replace')
            elif at == NLMSGERR_ATTR_MISS_TYPE and len(ap) >= 4:
                rep.miss = struct.unpack_from('=I', ap)[0]
            elif at == NLMSGERR_ATTR_POLICY:
                rep.policy = True

    def exchange(self, raw, seq, need_end):
        """Send raw (one request, seq). A request that asks for an ACK or a
        dump must end with NLMSG_ERROR or NLMSG_DONE; after any other, a
        probe the kernel acks shows it has taken the request (whatever it
        answered came first). Returns (Reply, answered, ended)."""
        rep = Reply()
        self.sk.send(raw)
        pseq = None
        if not need_end:
            pseq = self.next_seq()
            self.sk.send(nlmsg(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, pseq,
                               struct.pack('=BBH', CTRL_CMD_GETFAMILY, 1, 0) +
                               nla(CTRL_ATTR_FAMILY_NAME, b'nlctrl\0')))
        acked = need_end
        while not acked or (need_end and not rep.ended):
            msgs = self.recv(self.timeout)
            if msgs is None:
                return rep, acked or rep.ended, rep.ended or not need_end
            for t, fl, s, p in msgs:
                if pseq is not None and s == pseq:
                    acked |= t == NLMSG_ERROR
                elif s == seq:
                    self.absorb(rep, t, fl, p)
                    if rep.data > 1000000:
                        return rep, True, False
        return rep, True, True

    def family(self, name):
        seq = self.next_seq()
        self.sk.send(nlmsg(GENL_ID_CTRL, NLM_F_REQUEST, seq,
                           struct.pack('=BBH', CTRL_CMD_GETFAMILY, 1, 0) +
                           nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b'\0')))
        for t, _, s, p in self.recv(self.timeout) or []:
            if s != seq or t != GENL_ID_CTRL:
                continue
            fid, groups = None, {}
            for at, ap in attrs_of(p[4:]):
                if at == CTRL_ATTR_FAMILY_ID:
                    fid = struct.unpack_from('=H', ap)[0]
                elif at == CTRL_ATTR_MCAST_GROUPS:
                    for _, g in attrs_of(ap):
                        ga = dict(attrs_of(g))
                        groups[ga[CTRL_ATTR_MCAST_GRP_NAME].rstrip(b'\0').decode()] = \
                            struct.unpack_from('=I', ga[CTRL_ATTR_MCAST_GRP_ID])[0]
            return fid, groups
        return None, {}

    def dump(self, fid, cmd, payload=b''):
        """A valid dump: the attribute lists of its messages."""
        seq = self.next_seq()
        self.sk.send(nlmsg(fid, NLM_F_REQUEST | NLM_F_DUMP, seq,
                           struct.pack('=BBH', cmd, 1, 0) + payload))
        out = []
        while True:
            msgs = self.recv(self.timeout)
            if msgs is None:
                return out
            for t, _, s, p in msgs:
                if s != seq:
                    continue
                if t in (NLMSG_DONE, NLMSG_ERROR):
                    return out
                out.append(dict(attrs_of(p[4:])))


class Fuzzer:
    def __init__(self, args):
        self.rnd = random.Random(args.seed)
        self.cmds, self.attrs, self.consts = parse_uapi(args.uapi)
        self.nl = Genl(args.timeout)
        self.fid, self.groups = self.nl.family('mrc')
        self.priv = cap_net_admin()
        self.stats = {'sent': 0, 'classes': {}, 'errno': {},
                      'no_extack': {}, 'core_no_extack': {}, 'odd': []}
        if self.fid is not None:
            self.learn()

    # -- what exists in this namespace: valid values for valid requests --
    def learn(self):
        c, a = self.cmds, self.attrs
        self.devs = []
        for d in self.nl.dump(self.fid, c['DEV_GET']):
            idx = d.get(a['DEV']['DEV_INDEX'])
            name = d.get(a['DEV']['DEV_NAME'])
            if idx and name:
                self.devs.append((struct.unpack('=I', idx)[0],
                                  name.rstrip(b'\0').decode()))
        self.planes = [0]
        for p in self.nl.dump(self.fid, c['PLANE_GET']):
            v = p.get(a['PLANE']['PLANE_ID'])
            if v:
                self.planes.append(struct.unpack('=I', v)[0])
        self.peers = []
        for p in self.nl.dump(self.fid, c['PATH_GET']):
            v = p.get(a['PATH']['PATH_PEER'])
            if v:
                self.peers.append(bytes(v))
        self.peers = self.peers or [socket.inet_pton(socket.AF_INET6, '2001:db8::2')]
        self.ifindexes = [i for i, _ in socket.if_nameindex()]

    def rand_in6(self):
        r = self.rnd
        return r.choice([
            lambda: socket.inet_pton(socket.AF_INET6, '2001:db8:%x::%x' %
                                     (r.randrange(16), r.randrange(1, 9))),
            lambda: r.choice(self.peers),
            lambda: bytes(16),
            lambda: socket.inet_pton(socket.AF_INET6, 'ff02::1'),
            lambda: socket.inet_pton(socket.AF_INET6, '::1'),
            lambda: socket.inet_pton(socket.AF_INET6, 'fe80::1'),
            lambda: socket.inet_pton(socket.AF_INET6, '::ffff:10.0.0.1'),
            lambda: bytes(r.randrange(256) for _ in range(16)),
        ])()

    def rand_usid(self):
        """A uSID container: a /32 block, 16-bit uSIDs, mostly well-formed."""
        r = self.rnd
        n = r.randrange(0, 7)
        sids = [r.randrange(1, 0x10000) for _ in range(n)]
        if r.random() < 0.2 and sids:
            sids[r.randrange(len(sids))] = 0
        b = struct.pack('>HH', 0xfc00, r.choice([0, 0, 1])) + \
            b''.join(struct.pack('>H', s) for s in sids)
        return (b + bytes(16))[:16]

    def value(self, name, kind):
        """A plausible value for attribute name, valid or at an edge."""
        r = self.rnd
        if kind == 'str':
            names = [d[1] for d in self.devs] or ['mrc0']
            return r.choice([
                lambda: r.choice(names).encode() + b'\0',
                lambda: b'nosuch\0',
                lambda: r.choice(names).encode(),          # no NUL
                lambda: b'\0',
                lambda: b'x' * r.choice([62, 63, 64, 200]) + b'\0',
            ])()
        if kind == 'in6':
            if name == 'PATH_USID':
                return self.rand_usid()
            return self.rand_in6()
        if kind == 'segs':
            return b''.join(self.rand_in6() for _ in range(r.choice([1, 2, 3, 6, 7])))
        if kind == 'prefix':
            return r.choice([self.rand_in6(), bytes(16)]) + \
                struct.pack('=B', r.choice([0, 48, 64, 96, 128, 129, 255]))
        if kind == 'u8':
            return struct.pack('=B', r.choice([32, 16, 0, 8, 24, 48, 120, 128, 255,
                                                r.randrange(256)]))
        if kind == 'u64':
            return struct.pack('=Q', r.randrange(1 << 64))
        if name.endswith('DEV_INDEX'):
            idx = [d[0] for d in self.devs] or [0]
            v = r.choice(idx + [0, 0xffffffff, r.randrange(1 << 32)])
        elif name.endswith('PLANE') or name.endswith('PLANE_ID'):
            v = r.choice(self.planes + [0, 1, 2, 15, 16, 0xffffffff])
        elif name.endswith('IFINDEX'):
            v = r.choice(self.ifindexes + [0, 0xffffffff])
        elif name == 'DEV_EV_COUNT':
            v = r.choice([3, 4, 8, 16, 256, 257, 0, 0xffffffff])
        elif name == 'EV_STATE':
            v = r.choice([0, 1, 2, 3, 4, 0xffffffff])
        elif name == 'EV_QPN':
            v = r.choice([0, 1, 2, 17, 0xffffff, 0xffffffff])
        else:
            v = r.choice([0, 1, 2, 255, 256, 0xffffffff, r.randrange(1 << 32)])
        return struct.pack('=I', v)

    def aset(self, cmd_name):
        return self.attrs.get(cmd_name.split('_')[0], {})

    def valid(self, cmd_name):
        """A valid request: (flags, [(name, type, payload)])."""
        r = self.rnd
        a = self.aset(cmd_name)
        p = cmd_name.split('_')[0]
        kinds = KIND_OF_CMD.get(cmd_name, ('do',))
        dump = r.choice(kinds) == 'dump'
        dev = r.choice(self.devs) if self.devs else (1, 'mrc0')
        out = []
        if not (dump and cmd_name == 'DEV_GET') or r.random() < 0.5:
            if r.random() < 0.5:
                out.append(('%s_DEV_NAME' % p if p != 'DEV' else 'DEV_NAME',
                            dev[1].encode() + b'\0'))
            else:
                out.append(('%s_DEV_INDEX' % p if p != 'DEV' else 'DEV_INDEX',
                            struct.pack('=I', dev[0])))
        u32 = lambda v: struct.pack('=I', v)   # noqa: E731
        spare = [i for i in self.ifindexes if i > 1] or [1]
        if cmd_name == 'DEV_SET':
            out.append(('DEV_EV_COUNT', u32(r.choice([4, 8, 16, 32, 256]))))
        elif cmd_name == 'PLANE_GET' and not dump:
            out.append(('PLANE_ID', u32(r.choice(self.planes))))
        elif cmd_name == 'PLANE_ADD':
            out.append(('PLANE_IFINDEX', u32(r.choice(spare))))
            if r.random() < 0.7:
                out.append(('PLANE_ID', u32(r.randrange(1, 16))))
        elif cmd_name == 'PLANE_DEL':
            if r.random() < 0.7:
                out.append(('PLANE_ID', u32(r.randrange(1, 16))))
            else:
                out.append(('PLANE_IFINDEX', u32(r.choice(spare))))
        elif cmd_name == 'PLANE_SET':
            out.append(('PLANE_ID', u32(r.choice(self.planes))))
            for _ in range(r.choice([0, 1, 2, 16, 17])):
                out.append(('PLANE_ALLOW', socket.inet_pton(
                    socket.AF_INET6, '2001:db8:%x::' % r.randrange(4)) +
                    struct.pack('=B', r.choice([0, 48, 64, 128]))))
            if r.random() < 0.3:
                out.append(('PLANE_ADMIN', u32(r.choice([0, 1]))))
        elif cmd_name == 'PATH_GET':
            if r.random() < 0.5:
                out.append(('PATH_PEER', r.choice(self.peers)))
        elif cmd_name in ('PATH_ADD', 'PATH_DEL'):
            out.append(('PATH_PEER', r.choice(self.peers)))
            if cmd_name == 'PATH_ADD' or r.random() < 0.7:
                out.append(('PATH_PLANE', u32(r.choice(self.planes))))
            mode = r.choice(['udp', 'usid', 'srh'])
            remote = socket.inet_pton(socket.AF_INET6, '2001:db8:%x::2' % r.randrange(4))
            if mode == 'udp' or r.random() < 0.3:
                out.append(('PATH_REMOTE', remote))
            if mode == 'usid':
                out.append(('PATH_USID', self.rand_usid()))
                if cmd_name == 'PATH_ADD' and r.random() < 0.5:
                    out += [('PATH_LBLEN', b'\x20'), ('PATH_NFLEN', b'\x10')]
            elif mode == 'srh':
                out.append(('PATH_SEGS', b''.join(
                    socket.inet_pton(socket.AF_INET6, 'fc00:%x::%x' % (i, r.randrange(1, 9)))
                    for i in range(r.randrange(1, 7)))))
        elif cmd_name == 'EV_GET':
            out.append(('EV_QPN', u32(r.choice([1, 2, 17, 18]))))
        elif cmd_name == 'EV_SET':
            out += [('EV_QPN', u32(r.choice([1, 17, 18]))),
                    ('EV_INDEX', u32(r.randrange(8))),
                    ('EV_STATE', u32(r.choice([0, 3])))]
        elif cmd_name == 'EP_PROBE':
            # short timeouts: a probe holds one of the device's 256 slots
            out += [('EP_PEER', r.choice(self.peers)),
                    ('EP_REQ_ID', u32(r.randrange(1 << 16))),
                    ('EP_TIMEOUT_NS', struct.pack('=Q', r.choice([1000000, 5000000])))]
            if r.random() < 0.5:
                out.append(('EP_PLANE', u32(r.choice(self.planes))))
        flags = NLM_F_REQUEST | (NLM_F_DUMP if dump else NLM_F_ACK)
        return flags, [(n, a.get(n, 0), v) for n, v in out]

    # -- mutations: one field or attribute at a time --
    def mutate(self, cmd, flags, attrs):
        """Returns (cmd, flags, attribute bytes, version, why, must_refuse)."""
        r = self.rnd
        a = self.aset(self.cmd_name(cmd) or 'DEV_GET')
        names = list(a)
        attrs = list(attrs)
        how = r.choice(['drop', 'dup', 'value', 'retype', 'unknown', 'len',
                        'nested', 'byteorder', 'badlen', 'overrun', 'trail',
                        'flags', 'cmd', 'version', 'add', 'zerotype',
                        'reserved'])
        must = False
        i = r.randrange(len(attrs)) if attrs else None
        if how == 'drop' and attrs:
            attrs.pop(i)
        elif how == 'dup' and attrs:
            attrs.insert(i, attrs[i])
        elif how == 'value' and attrs:
            n, t, _ = attrs[i]
            attrs[i] = (n, t, self.value(n, KINDS.get(n, 'u32')))
        elif how == 'retype' and attrs:
            n, _, v = attrs[i]
            attrs[i] = (n, a.get(r.choice(names), 0) if names else 0, v)
        elif how == 'unknown':
            attrs.append(('?', r.choice([len(names) + 1, len(names) + 2, 0x3fff]),
                          struct.pack('=I', r.randrange(1 << 32))))
        elif how == 'len' and attrs:
            n, t, v = attrs[i]
            v = r.choice([v[:r.randrange(len(v) + 1)] if v else b'',
                          v + bytes(r.randrange(1, 20)), b''])
            attrs[i] = (n, t, v)
        elif how == 'nested' and attrs:
            n, t, v = attrs[i]
            attrs[i] = (n, t | NLA_F_NESTED, nla(r.randrange(1, 20), v))
        elif how == 'byteorder' and attrs:
            n, t, v = attrs[i]
            attrs[i] = (n, t | NLA_F_NET_BYTEORDER, v)
        elif how == 'flags':
            flags = r.choice([NLM_F_REQUEST, NLM_F_REQUEST | NLM_F_ACK,
                              NLM_F_REQUEST | NLM_F_DUMP,
                              NLM_F_REQUEST | NLM_F_ROOT | NLM_F_ACK,
                              NLM_F_ACK, r.randrange(1 << 16) | NLM_F_REQUEST])
        elif how == 'cmd':
            cmd = r.choice(list(self.cmds.values()) + [0, max(self.cmds.values()) + 1, 255])
        elif how == 'zerotype':
            attrs.append(('?', 0, struct.pack('=I', 1)))
        elif how == 'add' and names:
            n = r.choice(names)
            attrs.append((n, a[n], self.value(n, KINDS.get(n, 'u32'))))
        body = b''.join(nla(t, v) for _, t, v in attrs)
        version = 1
        if how == 'version':
            version = r.choice([0, 2, 255])
        elif how == 'reserved':
            # genlmsghdr.reserved: the version's neighbour, 16 bits
            version |= r.randrange(1, 1 << 16) << 8
            must = True
        elif how == 'badlen' and body:
            # an attribute header whose length is below its own size
            off = self.attr_offset(body, r)
            body = body[:off] + struct.pack('=H', r.randrange(0, 4)) + body[off + 2:]
            must = True
        elif how == 'overrun' and body:
            off = self.attr_offset(body, r)
            body = body[:off] + struct.pack('=H', len(body) - off + r.randrange(1, 64)) + \
                body[off + 2:]
            must = True
        elif how == 'trail':
            body += bytes(r.randrange(1, 4))
        return cmd, flags, body, version, how, must

    @staticmethod
    def attr_offset(body, r):
        offs, off = [], 0
        while off + 4 <= len(body):
            offs.append(off)
            n = struct.unpack_from('=H', body, off)[0]
            off += max(4, (n + 3) & ~3)
        return r.choice(offs)

    def random_msg(self, cmd):
        """Random attributes for cmd: types 0..max+3, lengths 0..N, nests."""
        r = self.rnd
        n = max(self.aset(self.cmd_name(cmd) or 'DEV_GET').values(), default=8)
        body = b''
        for _ in range(r.randrange(0, 8)):
            t = r.randrange(0, n + 4)
            ln = r.choice([0, 1, 2, 4, 8, 16, 17, 32, 64, r.randrange(0, 300)])
            v = bytes(r.randrange(256) for _ in range(ln))
            if r.random() < 0.15:
                v = b''.join(nla(r.randrange(0, 8), bytes(r.randrange(256) for _ in
                                                          range(r.randrange(0, 20))))
                             for _ in range(r.randrange(1, 4)))
                t |= NLA_F_NESTED
            body += nla(t, v)
        if body and r.random() < 0.1:
            off = self.attr_offset(body, r)
            body = body[:off] + struct.pack('=H', r.randrange(0, 0x10000)) + body[off + 2:]
        flags = r.choice([NLM_F_REQUEST | NLM_F_ACK, NLM_F_REQUEST | NLM_F_DUMP,
                          NLM_F_REQUEST, NLM_F_REQUEST | NLM_F_DUMP | NLM_F_ACK])
        return flags, body

    def cmd_name(self, cmd):
        for k, v in self.cmds.items():
            if v == cmd:
                return k
        return None

    # -- one request, judged --
    def send(self, cls, cmd, flags, body, version=1, why='', must=False, raw=None):
        seq = self.nl.next_seq()
        if raw is None:
            raw = nlmsg(self.fid, flags, seq,
                        struct.pack('=BBH', cmd, version & 0xff, version >> 8) + body)
        else:
            raw = raw(seq)
        hlen = struct.unpack_from('=I', raw)[0] if len(raw) >= 4 else 0
        well_formed = len(raw) >= 16 and 16 <= hlen <= len(raw)
        ours = well_formed and struct.unpack_from('=H', raw, 4)[0] == self.fid
        full = ours and hlen >= 20
        taken = ours and flags & NLM_F_REQUEST
        need_end = bool(taken and (flags & NLM_F_ACK or
                                   flags & NLM_F_DUMP == NLM_F_DUMP))
        rep, answered, ended = self.nl.exchange(raw, seq, need_end)
        st = self.stats
        st['sent'] += 1
        c = st['classes'].setdefault(cls, {'sent': 0, 'errno': {}})
        c['sent'] += 1
        ename = errno.errorcode.get(rep.errno, str(rep.errno)) if rep.errno else '0'
        c['errno'][ename] = c['errno'].get(ename, 0) + 1
        st['errno'][ename] = st['errno'].get(ename, 0) + 1
        name = self.cmd_name(cmd) if full else None
        dump = flags & NLM_F_DUMP == NLM_F_DUMP
        desc = {'class': cls, 'cmd': name or cmd, 'dump': dump, 'mutation': why,
                'attrs': [t for t, _ in attrs_of(body)][:12]}
        if not answered:
            st['odd'].append(dict(desc, odd='no answer'))
            return
        if not ended:
            st['odd'].append(dict(desc, odd='no end (dump never ended, or no ACK)'))
            return
        if not taken or not rep.errno:
            # taken without an error (a request without NLM_F_ACK that
            # succeeds may have no answer at all): accepted
            if taken and full:
                if name in ADMIN_CMDS and not self.priv:
                    st['odd'].append(dict(desc, odd='accepted without CAP_NET_ADMIN'))
                if must and (name, 'dump' if dump else 'do') not in NO_POLICY:
                    st['odd'].append(dict(desc, odd='malformed request accepted'))
            return
        if rep.msg:
            return
        # who refused: generic netlink itself (a header too short for it, or
        # a command without an op of this kind: nothing of mrc has run), or
        # mrc's policies and handlers, which must always say why
        kind = 'dump' if dump else 'do'
        if not full:
            why = 'a header too short for genetlink'
        elif name is None:
            why = 'an unknown command'
        elif name not in KIND_OF_CMD:
            why = 'a notification (no op)'
        elif kind not in KIND_OF_CMD[name]:
            why = '%s has no %s op' % (name, kind)
        else:
            why = None
        key = '%s: %s %s%s' % (why or name, kind, errno.errorcode.get(rep.errno, rep.errno),
                               ' missing-attr %d' % rep.miss if rep.miss is not None else '')
        bucket = st['core_no_extack' if why else 'no_extack']
        if key not in bucket:
            bucket[key] = dict(desc, key=key, count=0, errno=rep.errno, miss_type=rep.miss)
        bucket[key]['count'] += 1

    def multicast(self):
        """Join each group of the family: "ev" only with CAP_NET_ADMIN."""
        res = {}
        for g, gid in sorted(self.groups.items()):
            sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
            try:
                sk.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, gid)
                res[g] = 0
            except OSError as e:
                res[g] = e.errno
            finally:
                sk.close()
            expect_ok = g != 'ev' or self.priv
            if (res[g] == 0) != expect_ok:
                self.stats['odd'].append({'group': g, 'errno': res[g],
                                          'odd': 'group join %s' %
                                          ('refused' if res[g] else 'allowed')})
        self.stats['multicast'] = res

    def run(self, count):
        r = self.rnd
        known = [k for k in self.cmds if k in KIND_OF_CMD]
        known += [k for k in self.cmds if k not in KIND_OF_CMD]     # notifications
        classes = known + ['unknown-cmd', 'header']
        top = max(self.cmds.values())
        for i in range(count * len(classes)):
            cls = classes[i % len(classes)]
            if cls == 'unknown-cmd':
                cmd = r.choice([0, top + 1, top + 2, r.randrange(top + 1, 256)])
                flags, body = self.random_msg(cmd)
                self.send(cls, cmd, flags, body, why='random')
            elif cls == 'header':
                self.send_header(cls)
            elif r.random() < 0.5 or cls not in KIND_OF_CMD:
                cmd = self.cmds[cls]
                flags, body = self.random_msg(cmd)
                self.send(cls, cmd, flags, body, why='random')
            else:
                flags, attrs = self.valid(cls)
                if r.random() < 0.1:
                    self.send(cls, self.cmds[cls], flags,
                              b''.join(nla(t, v) for _, t, v in attrs), why='valid')
                    continue
                cmd, flags, body, version, why, must = self.mutate(self.cmds[cls], flags, attrs)
                self.send(cls, cmd, flags, body, version, why, must)
            # accepted requests add and remove planes and paths: valid
            # requests follow what exists now
            if i % 97 == 0:
                self.learn()

    def send_header(self, cls):
        """Truncated and inconsistent netlink and genetlink headers."""
        r = self.rnd
        cmd = r.choice(list(self.cmds.values()))
        flags = r.choice([NLM_F_REQUEST | NLM_F_ACK, NLM_F_REQUEST | NLM_F_DUMP])
        kind = r.choice(['short', 'genl-short', 'long', 'tiny', 'lowtype'])

        def build(seq):
            m = nlmsg(self.fid, flags, seq, struct.pack('=BBH', cmd, 1, 0))
            if kind == 'short':          # nlmsg_len below the netlink header
                return struct.pack('=I', r.randrange(0, 16)) + m[4:]
            if kind == 'genl-short':     # genetlink header cut short
                n = r.randrange(16, 20)
                return struct.pack('=I', n) + m[4:n]
            if kind == 'long':           # nlmsg_len beyond what was sent
                return struct.pack('=I', len(m) + r.randrange(1, 64)) + m[4:]
            if kind == 'tiny':           # less than a netlink header at all
                return m[:r.randrange(1, 16)]
            return nlmsg(r.randrange(1, NLMSG_MIN_TYPE), flags, seq, m[16:])
        self.send(cls, cmd, flags, b'', why=kind, raw=build)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=100,
                    help='messages per command class')
    ap.add_argument('--uapi', default=os.path.join(here, '../../include/uapi/linux/mrc.h'))
    ap.add_argument('--timeout', type=float, default=5.0,
                    help='hang guard for one answer, seconds')
    args = ap.parse_args()
    fz = Fuzzer(args)
    if fz.fid is None:
        print(json.dumps({'error': 'the mrc family is not registered'}))
        return 4
    fz.multicast()
    fz.run(args.count)
    st = fz.stats
    st['seed'], st['privileged'], st['devices'] = args.seed, fz.priv, [d[1] for d in fz.devs]
    st['no_extack'] = list(st['no_extack'].values())
    st['core_no_extack'] = list(st['core_no_extack'].values())
    print(json.dumps(st, sort_keys=True))
    return 1 if st['odd'] or st['no_extack'] else 0


if __name__ == '__main__':
    sys.exit(main())
