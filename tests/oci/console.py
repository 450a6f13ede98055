#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A --console-socket for runc (what runc's contrib/cmd/recvtty does, and
conmon or containerd's shim in real life): listen on SOCKET, take the
pseudo-terminal master that the runtime sends (SCM_RIGHTS), and copy what
the container writes to its terminal into OUT until the terminal closes.

    console.py SOCKET OUT      (ready when SOCKET exists)
"""
import os
import socket
import sys


def main():
    path, out = sys.argv[1], sys.argv[2]
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)
    srv.settimeout(60)
    conn, _ = srv.accept()
    _, fds, _, _ = socket.recv_fds(conn, 1024, 1)
    if not fds:
        print("console.py: no descriptor received", file=sys.stderr)
        return 1
    with open(out, "wb") as f:
        while True:
            try:
                data = os.read(fds[0], 4096)
            except OSError:
                break       # EIO: every slave descriptor is closed
            if not data:
                break
            f.write(data)
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
