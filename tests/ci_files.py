#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The example CI files (.github/workflows/matrix.yml, .gitlab-ci.yml) say
what works: both parse as YAML; every `$TH <command> ...` they run names a
command and options the program's --help lists; the GitHub job matrix has
SHARDS entries, 1..SHARDS; each file shards, merges, then gates.

  ci_files.py --th TIMERHARNESS --source SRC
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

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
    # The job matrix is made from SHARDS (a list written by hand drifts
    # from it: 4 of N shards merged fail the gate): the plan job's seq,
    # run here as the runner would.
    shards = gh["env"]["SHARDS"]
    listed = gh["jobs"]["shard"]["strategy"]["matrix"]["shard"]
    if listed != "${{ fromJSON(needs.plan.outputs.shards) }}":
        fail(f"matrix.yml: the job matrix is {listed!r}, not the plan job's list")
    plan = [st for st in gh["jobs"]["plan"]["steps"] if st.get("id") == "plan"]
    if not plan:
        fail("matrix.yml: no plan step")
    else:
        out = os.path.join(tempfile.mkdtemp(), "out")
        r = subprocess.run(["bash", "-c", plan[0]["run"]],
                           env=dict(os.environ, SHARDS=str(shards), GITHUB_OUTPUT=out))
        with open(out) as f:
            got = f.read().strip()
        if r.returncode or got != "shards=" + json.dumps(list(range(1, shards + 1))).replace(" ", ""):
            fail(f"matrix.yml: the plan step gives {got!r} for SHARDS={shards}")
    # The gate is failed on last, and a fork's pull request (a read-only
    # token) skips only the uploads that need write access.
    steps = gh["jobs"]["merge"]["steps"]
    last = steps[-1]
    if "steps.gate.outcome" not in str(last.get("if", "")) or "exit 1" not in last.get("run", ""):
        fail("matrix.yml: the merge job does not end by failing on the gate's result")
    for st in steps:
        if st.get("uses", "").startswith(("github/codeql-action/upload-sarif",
                                          "mikepenz/action-junit-report")):
            if "head.repo.full_name == github.repository" not in str(st.get("if", "")):
                fail(f"matrix.yml: {st['uses']} runs on a fork's pull request (no write token)")
    if not any("GITHUB_STEP_SUMMARY" in st.get("run", "") for st in steps):
        fail("matrix.yml: the verdict is not written to the run's summary")
    if failures:
        return 1
    print("ci files: parse; every command and option they use exists; shard, merge, gate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
