#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Check that docs/security.md's table of routes and the security cases agree.

  check_security_docs.py SRCDIR
      docs/security.md against the cases of tests/security/check.sh
      (its --routes: "NAME ROUTE" for every case, from check.rows)
  check_security_docs.py --doc FILE --routes FILE
      the same for an example: FILE's table, and a routes list

The table is the first one under "## The routes": a row per interface,
its first cell the route's number as a link to its section, its last cell
the tests.  A test written bare (`NAME`) is the case security.NAME; one
with a suite (`daemon.NAME`, `unit.NAME`, ...) is another suite's.  Each
of these must hold, else the problem is printed and the exit status is 1:

  - every case is named in a row of its own route (the route check.rows
    gives it);
  - every route of the table names a case in one of its rows, or says why
    it has none: "(no security case: WHY)" in its tests;
  - a bare name is a case; the route cell is a link.
"""

import re
import subprocess
import sys

NO_CASE = re.compile(r"\(no security case: [^)]+\)")
ROUTE = re.compile(r"^\[(\d+[a-z]?)\]\(#[^)]+\)$")
BARE = re.compile(r"^[a-z][a-z0-9_]*$")


def cells(line):
    """The cells of a table row: '|' splits, but not inside `code` or as '\\|'."""
    out, cur, code, i = [], "", False, 0
    while i < len(line):
        ch = line[i]
        if ch == "\\" and line[i + 1:i + 2] == "|":
            cur += "\\|"
            i += 2
            continue
        if ch == "`":
            code = not code
        if ch == "|" and not code:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    return out[1:]


def table(doc):
    """(line number, route, tests cell) of every row of the routes' table."""
    lines = open(doc, encoding="utf-8").read().split("\n")
    try:
        at = lines.index("## The routes")
    except ValueError:
        sys.exit(f"{doc}: no '## The routes' section")
    while at < len(lines) and not lines[at].startswith("| # |"):
        at += 1
    if at == len(lines):
        sys.exit(f"{doc}: no table under '## The routes'")
    rows, at = [], at + 2
    while at < len(lines) and lines[at].startswith("|"):
        c = cells(lines[at])
        rows.append((at + 1, c[0], c[-1] if len(c) > 1 else ""))
        at += 1
    return rows


def main(argv):
    if len(argv) == 2:
        src = argv[1]
        doc = f"{src}/docs/security.md"
        listing = subprocess.run(["bash", f"{src}/tests/security/check.sh", "--routes"],
                                 capture_output=True, text=True)
        if listing.returncode != 0:
            sys.exit(f"tests/security/check.sh --routes failed:\n{listing.stderr}")
        routes_text, routes_name = listing.stdout, "tests/security/check.rows"
    elif len(argv) == 5 and argv[1] == "--doc" and argv[3] == "--routes":
        doc, routes_name = argv[2], argv[4]
        routes_text = open(routes_name, encoding="utf-8").read()
    else:
        sys.exit(__doc__)
    case_route = {}
    for line in routes_text.splitlines():
        if line.strip():
            name, route = line.split()
            case_route[name] = route

    problems = []
    named = {}       # route -> the cases its rows name
    says_why = set()  # routes with "(no security case: ...)"
    for lineno, route_cell, tests in table(doc):
        m = ROUTE.match(route_cell)
        if not m:
            problems.append(f"{doc}:{lineno}: the route '{route_cell}' is not "
                            "[NUMBER](#its-section)")
            continue
        route = m.group(1)
        named.setdefault(route, set())
        if NO_CASE.search(tests):
            says_why.add(route)
        for test in re.findall(r"`([^`]+)`", tests):
            if not BARE.match(test):
                continue
            if test not in case_route:
                problems.append(f"{doc}:{lineno}: route {route} names `{test}`, which "
                                f"is no case of {routes_name} (a suite's test is "
                                "written with its suite: `daemon.NAME`)")
            else:
                named[route].add(test)

    for name, route in sorted(case_route.items()):
        if name not in named.get(route, ()):
            problems.append(f"{doc}: security.{name} (route {route} in {routes_name}) "
                            f"is named in no row of route {route}: add it to that "
                            "row's tests, or give the case its route")
    for route in named:
        if not named[route] and route not in says_why:
            problems.append(f"{doc}: route {route} has no case in {routes_name} and "
                            "does not say why: name one in its tests, or write "
                            "\"(no security case: WHY)\" there")

    for p in problems:
        print(p)
    print(f"{len(case_route)} cases, {len(named)} routes, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
