#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Make a hand-made runc bundle for tests/oci/runtime.sh: runc spec's own
config.json with a root file system of static binaries and the changes
named on the command line.  No image is involved.

    rt-bundle.py DIR --rootfs ROOTFS [options] -- ARGS...

Options:
  --annotation KEY=VALUE  add an annotation (repeatable)
  --seccomp FILE          linux.seccomp from FILE (JSON)
  --user UID:GID[:GID,..] process.user (additional gids after the second ':')
  --caps LIST             every capability set of the process ("CAP_A,CAP_B";
                          "" for none); default: runc spec's
  --terminal              process.terminal
  --tmpfs DEST            a tmpfs at DEST (repeatable; /tmp always has one)
  --bind SRC:DEST         a read-write bind mount (repeatable)
  --env NAME=VALUE        add to process.env (PATH=/bin is there)
  --host-netns            no network namespace of its own (the host's: its
                          abstract unix sockets are the host's)
  --mask PATH             add PATH to linux.maskedPaths (repeatable)
  --readonly PATH         add PATH to linux.readonlyPaths (repeatable)
  --no-dev                no tmpfs on /dev: runc makes its device nodes in
                          the root file system's /dev, and keeps a file
                          already there (a /dev/null that is a regular
                          file); the root is then writable (runc 1.1.5
                          cannot remount it read-only: EBUSY)
  --no-proc               no proc mount
  --hook KIND=JSON        add the hook JSON ({"path": ..., "args": [...]})
                          to hooks.KIND (repeatable)
  --sysctl KEY=VALUE      linux.sysctl[KEY] = VALUE (repeatable)
"""
import argparse
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--rootfs", required=True)
    ap.add_argument("--annotation", action="append", default=[])
    ap.add_argument("--seccomp")
    ap.add_argument("--user")
    ap.add_argument("--caps")
    ap.add_argument("--terminal", action="store_true")
    ap.add_argument("--tmpfs", action="append", default=[])
    ap.add_argument("--bind", action="append", default=[])
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--host-netns", action="store_true")
    ap.add_argument("--mask", action="append", default=[])
    ap.add_argument("--readonly", action="append", default=[])
    ap.add_argument("--no-dev", action="store_true")
    ap.add_argument("--no-proc", action="store_true")
    ap.add_argument("--hook", action="append", default=[])
    ap.add_argument("--sysctl", action="append", default=[])
    ap.add_argument("args", nargs="+")
    a = ap.parse_args()

    os.makedirs(a.dir, exist_ok=True)
    cfg = os.path.join(a.dir, "config.json")
    if os.path.lexists(cfg):
        os.unlink(cfg)
    subprocess.run(["runc", "spec"], cwd=a.dir, check=True)
    with open(cfg) as f:
        spec = json.load(f)
    spec["root"] = {"path": os.path.abspath(a.rootfs), "readonly": True}
    p = spec["process"]
    p["terminal"] = a.terminal
    p["args"] = a.args
    p["env"] = ["PATH=/bin"] + a.env
    if a.user:
        parts = a.user.split(":")
        p["user"] = {"uid": int(parts[0]), "gid": int(parts[1])}
        if len(parts) > 2:
            p["user"]["additionalGids"] = [int(g) for g in parts[2].split(",")]
    if a.caps is not None:
        caps = [c for c in a.caps.split(",") if c]
        p["capabilities"] = {k: list(caps) for k in
                             ("bounding", "effective", "inheritable",
                              "permitted", "ambient")}
    for dest in ["/tmp"] + a.tmpfs:
        spec["mounts"].append({"destination": dest, "type": "tmpfs",
                               "source": "tmpfs",
                               "options": ["nosuid", "nodev", "mode=1777"]})
    for b in a.bind:
        src, dest = b.split(":", 1)
        spec["mounts"].append({"destination": dest, "type": "bind",
                               "source": os.path.abspath(src),
                               "options": ["rbind", "rw"]})
    if a.annotation:
        ann = spec.setdefault("annotations", {})
        for kv in a.annotation:
            k, v = kv.split("=", 1)
            ann[k] = v
    if a.no_dev:
        spec["mounts"] = [m for m in spec["mounts"] if m["destination"] != "/dev"]
        spec["root"]["readonly"] = False
    if a.no_proc:
        spec["mounts"] = [m for m in spec["mounts"] if m["destination"] != "/proc"]
    spec["linux"].setdefault("maskedPaths", []).extend(a.mask)
    spec["linux"].setdefault("readonlyPaths", []).extend(a.readonly)
    for h in a.hook:
        kind, text = h.split("=", 1)
        spec.setdefault("hooks", {}).setdefault(kind, []).append(json.loads(text))
    for kv in a.sysctl:
        k, v = kv.split("=", 1)
        spec["linux"].setdefault("sysctl", {})[k] = v
    if a.host_netns:
        spec["linux"]["namespaces"] = [n for n in spec["linux"]["namespaces"]
                                       if n["type"] != "network"]
    if a.seccomp:
        with open(a.seccomp) as f:
            spec["linux"]["seccomp"] = json.load(f)
    with open(cfg, "w") as f:
        json.dump(spec, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
