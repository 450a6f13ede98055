#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Compare the probe's answers under runc and under sysward, call by call.

    compare.py --calls CALLS --table docs/security.md RUNC.OUT SYSWARD.OUT

CALLS is `sw-oci-probe -l` (every call, in order); each output must have
exactly one line per call, in that order.  A call whose lines differ is
allowed only when docs/security.md's table of deliberate differences
(the rows after the "runc-differences" marker) names it and sysward's
line is the answer that row gives; every other difference fails (exit 1).
Prints each difference and a summary.
"""
import argparse
import re
import sys

MARKER = "<!-- runc-differences:"


def read_table(path):
    """{probe name: (sysward's answer, route)} from the marked table."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith(MARKER))
    except StopIteration:
        sys.exit(f"compare.py: {path}: no line starting with '{MARKER}'")
    body = []
    for line in lines[start + 1:]:
        if not line.startswith("|"):
            if body:
                break
            continue
        body.append(line)
    for line in body[2:]:  # the header and its rule
        cells = [c.strip() for c in line.strip("|").split("|")]
        names = re.findall(r"`([^`]+)`", cells[0])
        answer = re.findall(r"`([^`]+)`", cells[1])
        route = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", cells[3]) if len(cells) > 3 else ""
        if not names or len(answer) != 1:
            sys.exit(f"compare.py: {path}: cannot read the table row: {line}")
        for n in names:
            rows[n] = ("ok" if answer[0] == "ok" else "-1 " + answer[0], route)
    if not rows:
        sys.exit(f"compare.py: {path}: the table after '{MARKER}' is empty")
    return rows


def read_out(path, calls):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l for l in f.read().split("\n") if l]
    got = {}
    order = []
    for l in lines:
        name, _, rest = l.partition(" ")
        if name not in calls or name in got or not rest:
            sys.exit(f"compare.py: {path}: unexpected line: {l!r}")
        got[name] = rest
        order.append(name)
    missing = [c for c in calls if c not in got]
    if missing:
        sys.exit(f"compare.py: {path}: no line for {len(missing)} calls, first {missing[0]}")
    if order != calls:
        sys.exit(f"compare.py: {path}: the calls are not in the probe's order")
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("runc")
    ap.add_argument("sysward")
    opts = ap.parse_args()
    with open(opts.calls, encoding="utf-8") as f:
        calls = [l for l in f.read().split("\n") if l]
    table = read_table(opts.table)
    unknown = sorted(set(table) - set(calls))
    if unknown:
        sys.exit(f"compare.py: {opts.table}: the table names calls the probe does not make: "
                 + ", ".join(unknown))
    runc = read_out(opts.runc, calls)
    sw = read_out(opts.sysward, calls)
    same, deliberate, wrong = 0, [], []
    for c in calls:
        if runc[c] == sw[c]:
            same += 1
        elif c in table and table[c][0] == sw[c]:
            deliberate.append(f"{c}: runc {runc[c]}, sysward {sw[c]} (route {table[c][1]})")
        else:
            wrong.append(f"{c}: runc {runc[c]}, sysward {sw[c]}")
    for d in deliberate:
        print(f"deliberate: {d}")
    for d in wrong:
        print(f"DIFFERENT: {d}")
    print(f"{len(calls)} calls: {same} the same, {len(deliberate)} deliberately "
          f"different (docs/security.md), {len(wrong)} different")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
