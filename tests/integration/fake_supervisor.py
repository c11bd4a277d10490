#!/usr/bin/env python3
"""A stand-in session supervisor for shim-level tests (a test peer, not a
mock of the shim): speaks the TLV wire of common/wire.h on an abstract
socket, logs each request as one JSON line, and denies any request whose
exe or argv contains the deny marker.

usage: fake_supervisor.py --log FILE [--marker M] [--flags F] [--role R]
           [--checked VALUE|none] [--bin PATH] [--no-server] -- CMD ARG...

Runs CMD with LD_PRELOAD=$HOOKSHIM_LIB and the HOOKSHIM_* variables, like
a minimal `hookshim run`, and exits with CMD's status. --no-server sets
the environment but listens to nothing (the supervisor is unreachable).
"""
import argparse
import json
import os
import socket
import struct
import subprocess
import sys
import threading

F_END = 0
NAMES = {'o': 'op', 'p': 'phase', 'n': 'nested', 'i': 'pid', 'c': 'cwd',
         'e': 'exe', 'f': 'path', 'g': 'new_path', 'w': 'operation',
         'u': 'id'}


def identity():
    """p= and t=: this process is the one that listens, as the shim
    checks (common/wire.h)."""
    with open('/proc/self/stat') as f:
        start = f.read().rsplit(')', 1)[1].split()[19]
    return ',p=%d,t=%s' % (os.getpid(), start)


def read_exact(conn, n):
    buf = b''
    while len(buf) < n:
        chunk = conn.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def read_request(conn):
    req = {'argv': []}
    while True:
        tag, length = struct.unpack('<BI', read_exact(conn, 5))
        if tag == F_END:
            return req
        body = read_exact(conn, length).decode('utf-8', 'surrogateescape')
        if tag == ord('a'):
            req['argv'].append(body)
        else:
            req[NAMES.get(chr(tag), chr(tag))] = body


def field(tag, value):
    data = value.encode('utf-8', 'surrogateescape')
    return struct.pack('<BI', ord(tag), len(data)) + data


class Server:
    def __init__(self, name, log, marker):
        self.log = open(log, 'a')
        self.lock = threading.Lock()
        self.marker = marker
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind('\0' + name)
        self.sock.listen(512)

    def serve(self):
        while True:
            conn, _ = self.sock.accept()
            threading.Thread(target=self.handle, args=(conn,),
                             daemon=True).start()

    def handle(self, conn):
        try:
            req = read_request(conn)
            text = ' '.join([req.get('exe', '')] + req['argv'])
            deny = self.marker in text
            with self.lock:
                self.log.write(json.dumps(req) + '\n')
                self.log.flush()
            out = field('v', 'deny' if deny else 'allow')
            if deny:
                out += field('r', 'fake supervisor: denied (%s)'
                             % self.marker)
            conn.sendall(out + struct.pack('<BI', F_END, 0))
        except (EOFError, OSError):
            pass
        finally:
            conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--log', required=True)
    ap.add_argument('--marker', default='HS_DENY')
    ap.add_argument('--flags', default='i=1,x=126,e=13,s=0,n=0')
    ap.add_argument('--role')
    ap.add_argument('--checked', default=None)
    ap.add_argument('--bin', default=os.environ.get('HOOKSHIM_FAKEBIN', ''))
    ap.add_argument('--no-server', action='store_true')
    ap.add_argument('cmd', nargs='+')
    a = ap.parse_args()

    name = 'hookshim-test-%d' % os.getpid()
    if not a.no_server:
        srv = Server(name, a.log, a.marker)
        threading.Thread(target=srv.serve, daemon=True).start()
    env = dict(os.environ)
    for k in list(env):
        if k.startswith('HOOKSHIM_') and k not in ('HOOKSHIM_LIB',):
            del env[k]
    lib = os.environ['HOOKSHIM_LIB']
    env.update({
        'LD_PRELOAD': lib + (':' + env['LD_PRELOAD']
                             if env.get('LD_PRELOAD') else ''),
        'HOOKSHIM_SOCK': name, 'HOOKSHIM_SESSION': 'test-%d' % os.getpid(),
        'HOOKSHIM_ROOT': os.getcwd(), 'HOOKSHIM_LIB': lib,
        'HOOKSHIM_FLAGS': a.flags + identity(), 'HOOKSHIM_BIN': a.bin,
    })
    if a.role:
        env['HOOKSHIM_ROLE'] = a.role
    # what `hookshim run` does: CMD itself is the agent, already checked
    checked = a.checked if a.checked is not None else 'spawn:%d' % os.getpid()
    if checked != 'none':
        env['HOOKSHIM_CHECKED'] = checked
    p = subprocess.Popen(a.cmd, env=env)
    rc = p.wait()
    sys.exit(rc if rc >= 0 else 128 - rc)


if __name__ == '__main__':
    main()
