#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run a command at a terminal of its own, without anyone at it.

    ptyrun.py [-e] [-s ROWSxCOLS] [-t SECONDS] [-o FILE] -- COMMAND [ARG...]

COMMAND runs in a new session whose controlling terminal is a fresh
pseudo-terminal (its standard input, output and error), with the window
size ROWSxCOLS (default 24x80) and the kernel's default modes.  Nothing
is typed: the master is only read, so a program that reads its terminal
waits as it would for a user who types nothing (and meets the time
limit); with -e, the terminal's end-of-file character (^D) is typed
once as COMMAND starts, as script(1) types it when its own input ends.
What the terminal shows goes to FILE (default: our standard
output), byte for byte (the line discipline's \\r\\n included).

Exit status: COMMAND's, 128+N if it died of signal N, 124 after
SECONDS (default 600) with its whole session killed, 125 if it could
not be run.

Why not script(1): util-linux's script (2.38) copies its own standard
input to the program (at its end, the terminal's EOF character, ^D)
and, when that input is a terminal, sets it raw.  Started in the
background from an interactive shell (a harness run at a terminal, a
tmux pane), its tcsetattr() on a terminal whose foreground it is not
stops it by SIGTTOU (tty_check_change(), drivers/tty/tty_jobctrl.c):
bash says "Stopped (tty output)" and nothing continues it, the hang of
the last attempt.  In the foreground it sets the user's terminal raw and
hands the program what they type; with a pipe that never ends as its
input it never types ^D, and with /dev/null it types ^D at once.  Here
nothing reads our standard input and nothing touches our terminal.
"""
import errno
import fcntl
import os
import select
import signal
import struct
import sys
import termios
import time


def usage(msg):
    sys.stderr.write("ptyrun: %s\n" % msg)
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    sys.exit(125)


def main(argv):
    rows, cols, limit, outpath, eof = 24, 80, 600.0, None, False
    i = 1
    while i < len(argv) and argv[i] != "--":
        if argv[i] == "-e":
            eof = True
            i += 1
        elif argv[i] in ("-s", "-t", "-o") and i + 1 < len(argv):
            opt, val = argv[i], argv[i + 1]
            i += 2
            try:
                if opt == "-s":
                    rows, cols = (int(x) for x in val.split("x"))
                elif opt == "-t":
                    limit = float(val)
                else:
                    outpath = val
            except ValueError:
                usage("bad %s %s" % (opt, val))
        else:
            usage("unknown argument %s" % argv[i])
    cmd = argv[i + 1:]
    if not cmd:
        usage("no command")

    out = open(outpath, "wb") if outpath else sys.stdout.buffer
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ,
                struct.pack("HHHH", rows, cols, 0, 0))
    pid = os.fork()
    if pid == 0:
        try:
            os.close(master)
            # setsid(), TIOCSCTTY, the slave as 0-2 (glibc's login_tty).
            os.login_tty(slave)
            # As a shell would start it: python ignores SIGPIPE and
            # SIGXFSZ, and an ignored signal stays ignored across exec.
            for s in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT):
                signal.signal(s, signal.SIG_DFL)
            os.execvp(cmd[0], cmd)
        except OSError as e:
            os.write(2, ("ptyrun: %s: %s\n" % (cmd[0], e.strerror)).encode())
        os._exit(125)
    os.close(slave)
    if eof:
        os.write(master, termios.tcgetattr(master)[6][termios.VEOF])

    deadline = time.monotonic() + limit
    status = None
    drained_since = None
    while True:
        if status is None:
            wpid, st = os.waitpid(pid, os.WNOHANG)
            if wpid == pid:
                status = st
                drained_since = time.monotonic()
        now = time.monotonic()
        if status is None and now > deadline:
            sys.stderr.write("ptyrun: %s still running after %g s: killed\n"
                             % (cmd[0], limit))
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            os.waitpid(pid, 0)
            out.flush()
            return 124
        # After the program ended: what it wrote is read until EIO (no
        # slave open any more) or half a second of nothing (one of its
        # descendants keeps the slave open).
        if status is not None and now - drained_since > 0.5:
            break
        r, _, _ = select.select([master], [], [], 0.1)
        if not r:
            continue
        try:
            data = os.read(master, 65536)
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            data = b""
        if not data:
            if status is not None:
                break
            time.sleep(0.05)    # EIO before the child opened it: wait
            continue
        out.write(data)
        if status is not None:
            drained_since = time.monotonic()
    out.flush()
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
