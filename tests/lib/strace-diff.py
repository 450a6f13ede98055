#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Compare sysward's decoded arguments with strace's, call by call.

  strace-diff.py STRACE-OUTPUT SYSWARD-TEXT-LOG [MIN-CALLS]

STRACE-OUTPUT: `strace -f -qq -e signal=none -e trace=CALLS -o FILE PROG`;
SYSWARD-TEXT-LOG: `sysward run --log FILE --log-format text` of the same
program under a policy that logs CALLS.  The calls of each are taken in
order, process by process (pids renamed by the program each first ran,
then in order of appearance), and their
argument lists compared one by one.  What sysward does not read, by
design (docs/security.md, route 15c), is normalised on both sides:
  - an argument strace reads from memory (a structure {..}, an array
    [..], a string that is no path "..", a pointer with a comment
    "0x.. /* 3 vars */") against a pointer of sysward's (NULL or 0x..);
  - addresses that change between runs (ASLR): hex of 5 digits or more
    (a static program's brk area may be as low as 0xaac000).
Everything else must be the same text.  rt_sigreturn is left out (strace
reads the signal frame and shows the mask it restores).  Exits 1 with the
differences, or if fewer than MIN-CALLS (default 1) calls were compared.
"""
import re
import sys

SKIP = {"rt_sigreturn"}
STRACE_LINE = re.compile(r"^(\d+)\s+(\w+)\(")
SYSWARD_LINE = re.compile(r"^\S+ \[pid (\d+)\] \S+ (\w+)\(")
POINTER = re.compile(r"^(NULL|0x[0-9a-f]+)$")
ADDRESS = re.compile(r"0x[0-9a-f]{5,}")


def args_text(line, start):
    """The text between the '(' at start-1 and its ')', and whether it
    was closed (strace's '<unfinished ...>' is not)."""
    depth, i, quote = 0, start, False
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quote = False
        elif ch == '"':
            quote = True
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return line[start:i], True
            depth -= 1
        i += 1
    return line[start:].replace("<unfinished ...>", "").rstrip(" ,"), False


def split_args(text):
    out, depth, cur, quote, i = [], 0, "", False, 0
    while i < len(text):
        ch = text[i]
        if quote:
            cur += ch
            if ch == "\\":
                cur += text[i + 1]
                i += 1
            elif ch == '"':
                quote = False
        elif ch == '"':
            quote = True
            cur += ch
        elif ch in "([{":
            depth += 1
            cur += ch
        elif ch in ")]}":
            depth -= 1
            cur += ch
        elif ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    if cur.strip():
        out.append(cur.strip())
    return out


RESUMED = re.compile(r"^(\d+)\s+<\.\.\. \w+ resumed>\s?")


def joined(path):
    """The lines of path, strace's "<unfinished ...>" joined with its
    "<... resumed>" (another process's call came between)."""
    pending = {}
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.endswith("<unfinished ...>"):
            pid = line.split()[0]
            pending[pid] = line[:-len("<unfinished ...>")].rstrip()
            continue
        m = RESUMED.match(line)
        if m and m.group(1) in pending:
            head = pending.pop(m.group(1))
            rest = line[m.end():]
            if head.endswith(","):
                line = head + " " + rest
            elif head.endswith("(") or rest[:1] in ("", ")", ","):
                line = head + rest
            else:
                line = head + ", " + rest
        yield line


def calls(path, pattern):
    """[(pid index, name, [args])] in order.

    A process's index is its rank by the program its first execve ran
    (none: first), then by first appearance: the children of a pipeline
    make their first calls in either order from run to run, and strace's
    order need not be sysward's."""
    pids, out = {}, []
    for line in joined(path):
        m = pattern.match(line)
        if not m:
            continue
        pid, name = m.group(1), m.group(2)
        if name in SKIP:
            continue
        text, _ = args_text(line, m.end())
        args = split_args(text)
        seen = pids.setdefault(pid, [len(pids), None])
        if name == "execve" and seen[1] is None and args:
            seen[1] = args[0]
        out.append((pid, name, args))
    rank = sorted(pids, key=lambda p: (pids[p][1] or "", pids[p][0]))
    index = {p: i for i, p in enumerate(rank)}
    return [(index[p], n, a) for p, n, a in out]


def read_from_memory(a):
    return a[:1] in ('{', '[', '"') or "/*" in a and a.startswith("0x") \
        or " => " in a


def norm_pair(ours, theirs):
    on = re.match(r"^(\w+=)(.*)$", ours)
    tn = re.match(r"^(\w+=)(.*)$", theirs)
    prefix = ""
    if on and tn and on.group(1) == tn.group(1):
        prefix, ours, theirs = on.group(1), on.group(2), tn.group(2)
    if POINTER.match(ours) and read_from_memory(theirs):
        return prefix + "<memory>", prefix + "<memory>"
    return prefix + ADDRESS.sub("<addr>", ours), prefix + ADDRESS.sub("<addr>", theirs)


def main(argv):
    theirs = calls(argv[1], STRACE_LINE)
    ours = calls(argv[2], SYSWARD_LINE)
    want = int(argv[3]) if len(argv) > 3 else 1
    bad = 0
    # Process by process: two processes' calls interleave differently
    # from run to run.
    ours.sort(key=lambda c: c[0])
    theirs.sort(key=lambda c: c[0])
    if [(p, n) for p, n, _ in ours] != [(p, n) for p, n, _ in theirs]:
        print("strace-diff: the calls differ:\n  sysward: %s\n  strace:  %s" % (
            " ".join("%d:%s" % (p, n) for p, n, _ in ours),
            " ".join("%d:%s" % (p, n) for p, n, _ in theirs)))
        return 1
    names = set()
    for (pid, name, oa), (_, _, ta) in zip(ours, theirs):
        pairs = [norm_pair(o, t) for o, t in zip(oa, ta)]
        if len(oa) != len(ta) or any(o != t for o, t in pairs):
            bad += 1
            print("strace-diff: pid %d %s:\n  sysward: %s(%s)\n  strace:  %s(%s)" % (
                pid, name, name, ", ".join(oa), name, ", ".join(ta)))
        names.add(name)
    print("strace-diff: %d calls of %d syscalls compared, %d differ" % (
        len(ours), len(names), bad))
    if len(ours) < want:
        print("strace-diff: expected at least %d calls" % want)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
