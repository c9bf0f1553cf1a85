#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The example CI files (.github/workflows/matrix.yml, .gitlab-ci.yml) say
what works: both parse as YAML; every `$TH <command> ...` they run names a
command and options the program's --help lists; the GitHub job matrix has
SHARDS entries, 1..SHARDS; each file shards, merges, then gates.

  ci_files.py --th TIMERHARNESS --source SRC
"""
import argparse
import re
import shlex
import subprocess
import sys

import yaml

failures = []


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


def commands(node):
    """Every shell line of a CI file (run: and script: values)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("run", "script", "before_script") and isinstance(v, (str, list)):
                for line in ([v] if isinstance(v, str) else v):
                    yield from (l for l in str(line).split("\n") if l.strip())
            else:
                yield from commands(v)
    elif isinstance(node, list):
        for v in node:
            yield from commands(v)


def check_file(path, th, helps):
    with open(path) as f:
        doc = yaml.safe_load(f)
    used = []
    for line in commands(doc):
        for m in re.finditer(r"\$TH ([a-z]+)((?: [^|&;]+)?)", line):
            cmd, rest = m.group(1), m.group(2)
            used.append(cmd)
            if cmd not in helps:
                r = subprocess.run([th, cmd, "--help"], stdout=subprocess.PIPE, text=True)
                helps[cmd] = r.stdout if r.returncode == 0 else None
            if helps[cmd] is None:
                fail(f"{path}: `timerharness {cmd}` is not a command")
                continue
            for word in shlex.split(rest.replace("${{", "{").replace("}}", "}")):
                if word.startswith("--") and not re.search(r"(^|[\s\[])" + re.escape(word) + r"\b",
                                                           helps[cmd]):
                    fail(f"{path}: `timerharness {cmd} {word}`: not an option of {cmd}")
    order = [c for c in used if c in ("matrix", "merge", "check")]
    if order != ["matrix", "merge", "check"]:
        fail(f"{path}: runs {order}, want matrix (per shard), merge, check")
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--th", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    helps = {}
    gh = check_file(a.source + "/.github/workflows/matrix.yml", a.th, helps)
    check_file(a.source + "/.gitlab-ci.yml", a.th, helps)
    shards = gh["env"]["SHARDS"]
    listed = gh["jobs"]["shard"]["strategy"]["matrix"]["shard"]
    if listed != list(range(1, shards + 1)):
        fail(f"matrix.yml: the job matrix lists shards {listed}, SHARDS is {shards}")
    if failures:
        return 1
    print("ci files: parse; every command and option they use exists; shard, merge, gate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
