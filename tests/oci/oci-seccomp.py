#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Turn a Docker or Podman seccomp profile into the linux.seccomp section
that engine hands runc, as tests/oci/run.sh needs it for runc's side of the
differential test.

    oci-seccomp.py --engine moby|podman --cap CAP,... [--arch amd64]
                   [--kernel MAJOR.MINOR] PROFILE > seccomp.json

The rules are the engines' own, read in their code (not from memory):
  moby:   github.com/moby/profiles/seccomp, setupSeccomp() in
          seccomp_linux.go (vendored by moby/moby); kernel_linux.go for
          minKernel ("%d.%d" of the release, compared as a pair).
  podman: github.com/containers/common, pkg/seccomp/seccomp_linux.go
          setupSeccomp() and getErrno().
Both: archMap gives architectures only through the entry of the native
architecture (then its subArchitectures), the first that matches;
includes/excludes are decided against the bounding set (--cap) and the
native architecture's libseccomp name ("amd64"); rules that fail are
dropped, the others are copied with names, action, errnoRet and args
only.  They differ where this script says so below.
"""
import argparse
import errno
import json
import os
import sys

# libseccomp's name of this machine's architecture -> its SCMP_ARCH_*
# (both engines' nativeToSeccomp tables; only amd64 is used here).
NATIVE_TO_SCMP = {"amd64": "SCMP_ARCH_X86_64"}


def fail(msg):
    print(f"oci-seccomp.py: {msg}", file=sys.stderr)
    sys.exit(2)


def errno_value(name_or_number, default):
    """Podman's getErrno(): a decimal number or an errno name, else the
    numeric key."""
    if name_or_number in (None, ""):
        return default
    try:
        return int(name_or_number, 10)
    except ValueError:
        pass
    v = getattr(errno, name_or_number, None)
    if not isinstance(v, int):
        fail(f"unknown errno {name_or_number}")
    return v


def kernel_at_least(release, wanted):
    major, minor = (int(x) for x in release.split(".")[:2])
    w_major, w_minor = (int(x) for x in wanted.split(".")[:2])
    return (major, minor) >= (w_major, w_minor)


def convert(profile, engine, caps, arch, release):
    if not profile.get("defaultAction") and not profile.get("syscalls"):
        return None  # "assume seccomp disabled", in both engines
    if profile.get("architectures") and profile.get("archMap"):
        fail("both 'architectures' and 'archMap'")
    out = {"defaultAction": profile["defaultAction"]}
    # Moby copies the LinuxSeccomp fields as they are; Podman copies
    # architectures, flags and the listener fields one by one.
    arches = list(profile.get("architectures") or [])
    scmp = NATIVE_TO_SCMP.get(arch)
    for entry in profile.get("archMap") or []:
        if scmp and entry.get("architecture") == scmp:
            arches.append(entry["architecture"])
            arches.extend(entry.get("subArchitectures") or [])
            break
    if arches:
        out["architectures"] = arches
    for key in ("flags", "listenerPath", "listenerMetadata"):
        if profile.get(key):
            out[key] = profile[key]
    if engine == "podman":
        ret = errno_value(profile.get("defaultErrno"), profile.get("defaultErrnoRet"))
    else:
        ret = profile.get("defaultErrnoRet")  # Moby has no defaultErrno
    if ret is not None:
        out["defaultErrnoRet"] = ret

    syscalls = []
    for call in profile.get("syscalls") or []:
        if call.get("name") and call.get("names"):
            fail("both 'name' and 'names' in a rule")
        exc = call.get("excludes") or {}
        inc = call.get("includes") or {}
        if arch in (exc.get("arches") or []):
            continue
        if any(c in caps for c in exc.get("caps") or []):
            continue
        # Podman's setupSeccomp() has no minKernel: only Moby reads it.
        if engine == "moby" and exc.get("minKernel") and \
                kernel_at_least(release, exc["minKernel"]):
            continue
        if inc.get("arches") and arch not in inc["arches"]:
            continue
        if any(c not in caps for c in inc.get("caps") or []):
            continue
        if engine == "moby" and inc.get("minKernel") and \
                not kernel_at_least(release, inc["minKernel"]):
            continue
        names = [call["name"]] if call.get("name") else list(call.get("names") or [])
        rule = {"names": names, "action": call["action"]}
        if engine == "podman":
            ret = errno_value(call.get("errno"), call.get("errnoRet"))
        else:
            ret = call.get("errnoRet")
        if ret is not None:
            rule["errnoRet"] = ret
        args = []
        for a in call.get("args") or []:
            args.append({"index": a["index"], "value": a.get("value", 0),
                         "valueTwo": a.get("valueTwo", 0), "op": a["op"]})
        if args:
            rule["args"] = args
        syscalls.append(rule)
    out["syscalls"] = syscalls
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", choices=("moby", "podman"), required=True)
    ap.add_argument("--cap", default="", help="the bounding set, comma-separated CAP_* names")
    ap.add_argument("--arch", default="amd64")
    ap.add_argument("--kernel", default=os.uname().release)
    ap.add_argument("profile")
    opts = ap.parse_args()
    with open(opts.profile, encoding="utf-8") as f:
        profile = json.load(f)
    caps = [c for c in opts.cap.split(",") if c]
    json.dump(convert(profile, opts.engine, caps, opts.arch, opts.kernel),
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
