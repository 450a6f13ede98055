#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""policy/schema.json agrees with the parser on what editors will see.

Every example validates against the schema; documents the parser rejects
for a structural reason are rejected by the schema too; and the schema's
enumerations are exactly the names the parser accepts.
Usage: check_schema.py SOURCE_DIR
"""
import glob
import json
import os
import re
import sys

import jsonschema

top = sys.argv[1]
schema = json.load(open(os.path.join(top, "policy/schema.json")))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


for f in sorted(glob.glob(os.path.join(top, "policy/examples/*.json"))):
    errs = list(v.iter_errors(json.load(open(f))))
    if errs:
        fail(f"{f}: {errs[0].message}")

A = {"defaultAction": "SCMP_ACT_ALLOW"}


def rules(*r):
    return dict(A, syscalls=list(r))


bad = {
    "missing defaultAction": {},
    "supervisor default": {"defaultAction": "SYSWARD_ACT_LOG"},
    "unknown top key": dict(A, sycalls=[]),
    "defaultErrnoRet without ERRNO": dict(A, defaultErrnoRet=1),
    "defaultErrno without ERRNO": dict(A, defaultErrno="EPERM"),
    "errno and errnoRet with ALLOW": rules({"names": ["read"], "action": "SCMP_ACT_ALLOW", "errno": 1, "errnoRet": 1}),
    "architectures and archMap": dict(A, architectures=[], archMap=[]),
    "unknown rule key": rules({"nmaes": ["read"], "action": "SCMP_ACT_ALLOW"}),
    "no names": rules({"action": "SCMP_ACT_ALLOW"}),
    "name and names": rules({"name": "read", "names": ["read"], "action": "SCMP_ACT_ALLOW"}),
    "SCMP_ACT_TRACE": rules({"names": ["read"], "action": "SCMP_ACT_TRACE"}),
    "return with ERRNO": rules({"names": ["read"], "action": "SCMP_ACT_ERRNO", "return": 1}),
    "errnoRet with ALLOW": rules({"names": ["read"], "action": "SCMP_ACT_ALLOW", "errnoRet": 1}),
    "return and errno": rules({"names": ["read"], "action": "SYSWARD_ACT_SKIP", "errno": 1, "return": 1}),
    "rewrite without REWRITE": rules({"names": ["read"], "action": "SCMP_ACT_ALLOW", "rewrite": {"syscall": "write"}}),
    "REWRITE without rewrite": rules({"names": ["read"], "action": "SYSWARD_ACT_REWRITE"}),
    "empty rewrite": rules({"names": ["read"], "action": "SYSWARD_ACT_REWRITE", "rewrite": {}}),
    "bad op": rules({"names": ["read"], "action": "SCMP_ACT_ERRNO",
                     "args": [{"index": 0, "value": 1, "op": "SCMP_CMP_FOO"}]}),
    "index 6": rules({"names": ["read"], "action": "SCMP_ACT_ERRNO",
                      "args": [{"index": 6, "value": 1, "op": "SCMP_CMP_EQ"}]}),
    "two patterns": rules({"names": ["openat"], "action": "SCMP_ACT_ERRNO",
                           "paths": [{"index": 1, "exact": "/a", "glob": "*"}]}),
    "empty pattern": rules({"names": ["openat"], "action": "SCMP_ACT_ERRNO",
                            "paths": [{"index": 1, "prefix": ""}]}),
    "bad when": rules({"names": ["write"], "action": "SYSWARD_ACT_SKIP", "when": "every 3"}),
    "when first 0": rules({"names": ["write"], "action": "SYSWARD_ACT_SKIP", "when": {"first": 0}}),
    "bad arch": dict(A, architectures=["SCMP_ARCH_I386"]),
    "bad gate arch": rules({"names": ["read"], "action": "SCMP_ACT_ALLOW", "includes": {"arches": ["x86_64"]}}),
    "errno 4096": rules({"names": ["read"], "action": "SCMP_ACT_ERRNO", "errnoRet": 4096}),
    "allowIoUring not a boolean": dict(A, allowIoUring=1),
    "relative fs path": dict(A, filesystem={"paths": [{"path": "etc", "access": "ro"}]}),
    "unknown fs variable": dict(A, filesystem={"paths": [{"path": "${PWD}", "access": "rw"}]}),
    "unknown access word": dict(A, filesystem={"paths": [{"path": "/", "access": "rx"}]}),
    "empty access": dict(A, filesystem={"paths": [{"path": "/", "access": []}]}),
    "fs entry without access": dict(A, filesystem={"paths": [{"path": "/"}]}),
    "port out of range": dict(A, network={"tcp": {"connect": [70000]}}),
    "unknown network key": dict(A, network={"udp": {}}),
}
for what, doc in bad.items():
    if v.is_valid(doc):
        fail(f"schema accepts a policy the parser rejects: {what}")

good = {
    "only default": A,
    "Docker-style": {"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 1,
                     "archMap": [{"architecture": "SCMP_ARCH_RISCV64", "subArchitectures": None}],
                     "syscalls": [{"names": ["clone"], "action": "SCMP_ACT_ALLOW", "args": None,
                                   "includes": {}, "excludes": {"caps": ["CAP_SYS_ADMIN"]}}]},
    "sysward actions": rules(
        {"names": ["write"], "action": "SYSWARD_ACT_SKIP", "errno": "EIO", "when": {"first": 3, "step": 2}},
        {"name": "openat", "action": "SYSWARD_ACT_REWRITE", "rewrite": {"args": [{"index": 2, "and": "~O_CREAT"}]}},
        {"names": ["getpid"], "action": "SYSWARD_ACT_REWRITE", "rewrite": {"syscall": "getppid"}},
        {"names": ["getuid"], "action": "SYSWARD_ACT_EMULATE", "return": 0},
        {"names": ["connect"], "action": "SYSWARD_ACT_LOG"},
        {"names": ["openat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "log": True,
         "paths": [{"index": 1, "prefix": "/etc/", "not": False}]},
        {"names": ["socket"], "action": "SCMP_ACT_ERRNO",
         "args": [{"index": 0, "value": "AF_INET|AF_INET6", "op": "SCMP_CMP_MASKED_EQ", "valueTwo": 0}]}),
    "Podman-style": {"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38, "defaultErrno": "ENOSYS",
                     "syscalls": [{"names": ["bdflush"], "action": "SCMP_ACT_ERRNO", "args": [], "comment": "",
                                   "includes": {}, "excludes": {}, "errnoRet": 1, "errno": "EPERM"},
                                  {"names": ["socket"], "action": "SCMP_ACT_ERRNO", "errno": "22"}]},
    "io_uring opt-in": {"defaultAction": "SCMP_ACT_ERRNO", "allowIoUring": True,
                        "syscalls": [{"names": ["io_uring_setup", "io_uring_enter"],
                                      "action": "SCMP_ACT_ALLOW"}]},
    "file system and network": dict(
        A, filesystem={"paths": [{"path": "/", "access": "ro"},
                                 {"path": "${CWD}", "access": "rw"},
                                 {"path": "${CWD}/.git", "access": "ro"},
                                 {"path": "${HOME}/.ssh", "access": "none", "optional": True},
                                 {"path": "${TMPDIR}", "access": ["read", "write", "create", "remove"]}],
                       "strict": True},
        network={"tcp": {"bind": "any", "connect": [443, "8000-8080"]}, "strict": False}),
    "when strings": rules(*[{"names": ["write"], "action": "SYSWARD_ACT_SKIP", "when": w}
                            for w in ["3", "3+", "2+2", "2..5", "2..10+4"]]),
}
for what, doc in good.items():
    errs = list(v.iter_errors(doc))
    if errs:
        fail(f"schema rejects a valid policy ({what}): {errs[0].message}")

# The enumerations match the parser's tables.
src = "".join(open(f).read() for f in sorted(glob.glob(os.path.join(top, "policy/src/*.c"))))
c_actions = set(re.findall(r'\{ "((?:SCMP|SYSWARD)_ACT_[A-Z_]+)", SW_ACT_', src))
s_actions = set(schema["$defs"]["rule"]["properties"]["action"]["enum"])
if c_actions != s_actions:
    fail(f"rule actions differ: parser {sorted(c_actions)} schema {sorted(s_actions)}")
c_ops = set(re.findall(r'"(SCMP_CMP_[A-Z_]+)",', src))
s_ops = set(schema["$defs"]["rule"]["properties"]["args"]["oneOf"][1]["items"]["properties"]["op"]["enum"])
if not c_ops or c_ops != s_ops:
    fail(f"operators differ: parser {sorted(c_ops)} schema {sorted(s_ops)}")
sc = open(os.path.join(top, "policy/src/syscalls.c")).read()
c_arches = {"SCMP_ARCH_" + a for a in re.findall(r"^\s*A(?:_MISSING)?\(([A-Z0-9_]+),", sc, re.M)}
s_arches = set(schema["properties"]["architectures"]["items"]["enum"])
if c_arches != s_arches:
    fail(f"architectures differ: parser {sorted(c_arches)} schema {sorted(s_arches)}")

fa = open(os.path.join(top, "policy/src/fsaccess.c")).read()
c_words = set(re.findall(r'^\s*\{ "([a-z-]+)", [^\n]*W_(?:SET|GROUP|RIGHT)', fa, re.M))
c_words |= set(re.findall(r'^\s*\{ "([a-z-]+)", SW_FS_MAKE_REG \| SW_FS_MAKE_DIR', fa, re.M))
s_words = set(schema["$defs"]["fsPath"]["properties"]["access"]["oneOf"][0]["enum"])
if not c_words or c_words != s_words:
    fail(f"access words differ: parser {sorted(c_words)} schema {sorted(s_words)}")

if failures:
    print(f"{failures} failure(s)")
    sys.exit(1)
print(f"schema OK: {len(glob.glob(os.path.join(top, 'policy/examples/*.json')))} examples, "
      f"{len(bad)} invalid and {len(good)} valid documents, enums match the parser")
