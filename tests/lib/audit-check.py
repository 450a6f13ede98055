#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Hold an audit log to what a program did (docs/security.md, route 15).

  audit-check.py json|text LOG CALLS MARKER
      CALLS: the program's output, with "call: SYSCALL HEX" lines
      (tests/security/adv_audit.c).  Every line of LOG must be one whole
      record (JSON: an object; text: the record prefix, every quoted
      string well-formed: an argument or the path member), and the records whose path starts with MARKER
      must be exactly those calls, with the exact bytes recovered by the
      documented rule.
  audit-check.py session LOG KEY=HEX...
      syswardd's session-start record: the member KEY (argv.N for an
      element of argv) must recover to the bytes HEX.

The recovery rules are the documented ones (sysward.1, "AUDIT LOG"), and
this file is their one reading in the tests:
  JSON: a string member "k" is exact unless the same object has "k_hex"
        (an array "k": the array "k_hex", null where exact), which holds
        the exact bytes in hex.
  text: inside double quotes, \\\\ \\" \\n \\t \\r and \\xNN; every other
        byte is printable ASCII and stands for itself.
"""
import collections
import json
import re
import sys

TEXT_PREFIX = re.compile(rb"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \[pid \d+\] ")
# A quoted string: a member (path="...") or an argument the decoder
# wrote in place of its pointer (openat(AT_FDCWD, "...", ...)).
TEXT_STR = re.compile(rb'(?: path=|[(]|, )"((?:[^"\\]|\\.)*)"')
TEXT_ESC = re.compile(rb'\\(x[0-9a-f]{2}|[\\"ntr])')
TEXT_PLAIN = {b"\\": b"\\", b'"': b'"', b"n": b"\n", b"t": b"\t", b"r": b"\r"}


class Bad(Exception):
    pass


def json_member(obj, key):
    """The exact bytes of obj[key] (a string), by the documented rule."""
    if key + "_hex" in obj:
        return bytes.fromhex(obj[key + "_hex"])
    return obj[key].encode("utf-8")


def json_element(obj, key, i):
    hexes = obj.get(key + "_hex")
    if hexes is not None and hexes[i] is not None:
        return bytes.fromhex(hexes[i])
    return obj[key][i].encode("utf-8")


def text_unquote(s):
    out, pos = bytearray(), 0
    for m in TEXT_ESC.finditer(s):
        plain = s[pos:m.start()]
        if b"\\" in plain or any(c < 0x20 or c > 0x7e for c in plain):
            raise Bad("raw or unknown escape in %r" % s)
        out += plain
        e = m.group(1)
        out += bytes([int(e[1:], 16)]) if e[:1] == b"x" else TEXT_PLAIN[e]
        pos = m.end()
    plain = s[pos:]
    if b"\\" in plain or any(c < 0x20 or c > 0x7e for c in plain):
        raise Bad("raw or unknown escape in %r" % s)
    return bytes(out + plain)


def json_records(raw):
    for n, line in enumerate(raw.split(b"\n")[:-1], 1):
        try:
            rec = json.loads(line.decode("utf-8", "strict"))
        except ValueError as e:
            raise Bad("line %d is not JSON (%s): %r" % (n, e, line))
        if not isinstance(rec, dict):
            raise Bad("line %d is not an object: %r" % (n, line))
        yield n, rec


def json_paths(rec):
    """The distinct path strings of a decision record."""
    found = set()
    if "path" in rec:
        found.add(json_member(rec, "path"))
    strings = rec.get("strings") or {}
    for k, v in strings.items():
        if not k.endswith("_hex") and v is not None:
            found.add(json_member(strings, k))
    return found


def text_records(raw):
    for n, line in enumerate(raw.split(b"\n")[:-1], 1):
        if not TEXT_PREFIX.match(line):
            raise Bad("line %d is not a record: %r" % (n, line))
        rest = TEXT_STR.sub(b"", line)
        if b'"' in rest:
            raise Bad("line %d has a stray quote: %r" % (n, line))
        if any(c < 0x20 or c > 0x7e for c in line):
            raise Bad("line %d has a raw byte outside printable ASCII: %r"
                      % (n, line))
        yield n, line


def text_paths(line):
    return {text_unquote(m.group(1)) for m in TEXT_STR.finditer(line)}


def syscall_of(fmt, rec):
    if fmt == "json":
        return rec.get("syscall", "")
    m = re.search(rb"\] \S+ (\w+)\(", rec)
    return m.group(1).decode() if m else ""


def check_calls(fmt, log, calls, marker):
    raw = open(log, "rb").read()
    if raw and not raw.endswith(b"\n"):
        raise Bad("the log does not end with a newline")
    want = collections.Counter()
    for line in open(calls, "rb"):
        m = re.match(rb"call: (\w+) ([0-9a-f]*)$", line.rstrip(b"\n"))
        if m:
            want[(m.group(1).decode(), bytes.fromhex(m.group(2).decode()))] += 1
    if not want:
        raise Bad("the program reported no call")
    got = collections.Counter()
    records = json_records(raw) if fmt == "json" else text_records(raw)
    nrec = 0
    for n, rec in records:
        nrec += 1
        paths = json_paths(rec) if fmt == "json" else text_paths(rec)
        paths = {p for p in paths if p.startswith(marker)}
        if len(paths) > 1:
            raise Bad("line %d: path and string differ: %r" % (n, paths))
        for p in paths:
            got[(syscall_of(fmt, rec), p)] += 1
    if got != want:
        raise Bad("records %r\n  calls %r" % (sorted(got.items()),
                                               sorted(want.items())))
    print("audit-check: %s: %d lines, each one record; %d calls, each "
          "logged once with its exact bytes" % (fmt, nrec, sum(want.values())))


def check_session(log, pairs):
    raw = open(log, "rb").read()
    starts = [r for _, r in json_records(raw)
              if r.get("event") == "session-start"]
    if len(starts) != 1:
        raise Bad("%d session-start records" % len(starts))
    rec = starts[0]
    for pair in pairs:
        key, hexed = pair.split("=", 1)
        want = bytes.fromhex(hexed)
        if key.startswith("argv."):
            got = json_element(rec, "argv", int(key[5:]))
        else:
            got = json_member(rec, key)
        if got != want:
            raise Bad("%s: %r, not %r" % (key, got, want))
    print("audit-check: session-start: %s recovered exactly"
          % ", ".join(p.split("=")[0] for p in pairs))


def main(argv):
    try:
        if len(argv) == 5 and argv[1] in ("json", "text"):
            check_calls(argv[1], argv[2], argv[3], argv[4].encode())
        elif len(argv) >= 3 and argv[1] == "session":
            check_session(argv[2], argv[3:])
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except Bad as e:
        print("audit-check: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
