#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw uverbs commands at an mrc device, for what libibverbs never sends.

  mrc_uverbs.py resize-efault DEV

creates a CQ of 8 entries, resizes it to 64 with a response buffer the
kernel cannot write (a read-only page), which must fail with EFAULT, then
resizes it again with a good one, and closes the device file. A kernel
that made the new ring live before telling userspace keeps the old one
in the context's mmap table: closing warns in ufile_destroy_ucontext().
Exit status 0 when every command returned what it must.
"""
import ctypes
import errno
import os
import struct
import sys

CMD_GET_CONTEXT, CMD_CREATE_CQ, CMD_RESIZE_CQ = 0, 18, 19
MMINFO = 16			# struct mminfo, the rxe driver response


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


def main():
    if len(sys.argv) != 3 or sys.argv[1] != 'resize-efault':
        sys.exit(__doc__)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                          ctypes.c_int, ctypes.c_int, ctypes.c_long]
    ro = libc.mmap(None, 4096, 1, 0x22, -1, 0)	# PROT_READ, private anon
    if ro in (None, ctypes.c_void_p(-1).value):
        sys.exit('mmap failed')
    fd = os.open(uverbs_node(sys.argv[2]), os.O_RDWR)
    resp = ctypes.create_string_buffer(64)
    addr = ctypes.addressof(resp)

    err = command(fd, CMD_GET_CONTEXT, struct.pack('=Q', addr), 8)
    if err:
        sys.exit(f'get_context: {os.strerror(err)}')
    async_fd = struct.unpack_from('=I', resp, 0)[0]
    err = command(fd, CMD_CREATE_CQ,
                  struct.pack('=QQIIiI', addr, 1, 8, 0, -1, 0), 8 + MMINFO)
    if err:
        sys.exit(f'create_cq: {os.strerror(err)}')
    cq = struct.unpack_from('=I', resp, 0)[0]

    rc = 0
    err = command(fd, CMD_RESIZE_CQ, struct.pack('=QII', ro, cq, 64),
                  8 + MMINFO)
    print(f'resize to 64, response read-only: {os.strerror(err) if err else "taken"}')
    if err != errno.EFAULT:
        rc = 1
    err = command(fd, CMD_RESIZE_CQ, struct.pack('=QII', addr, cq, 32),
                  8 + MMINFO)
    print(f'resize to 32: {os.strerror(err) if err else "ok"}')
    if err:
        rc = 1
    os.close(async_fd)
    os.close(fd)
    return rc


if __name__ == '__main__':
    sys.exit(main())
