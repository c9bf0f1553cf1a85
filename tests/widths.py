#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every line the command prints on its verdict screen, in check's summary
and in fuzz's campaign lines fits a terminal's 80 columns.

  widths.py --th TH --build BUILD --toolchain NAME --source SRC --data DIR ROOT...

  BUILD is the build tree (CMAKE_BINARY_DIR), NAME its toolchain
  (TIMERHARNESS_TOOLCHAIN, the preset's name), whatever the directory's name.

  - the verdict screen (report --format verdict) of every results.json under
    the ROOTs (the matrix tests' runs) and of every fixture the loader
    accepts;
  - check's summary of each (--allow-slice --allow-partial; run in the
    results' directory): its "check..." lines and their continuations;
  - what matrix prints on its own (a slice of this build: the verdict, the
    outputs line), and fuzz: a one-second campaign of this build, its
    header, progress (each rewrite, split at carriage returns), campaign
    lines and the last; check of its fuzz.json alone (--fuzz-only) and
    beside the slice's results (the answer naming both files).

Check's finding lines (a regression with its evidence verbatim) are not
summary lines and are not held to it. Exit 0, or 1 with each line named.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

WIDTH = 80
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
failures = []
checked = 0


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


def lines_of(text):
    for line in text.replace("\r", "\n").split("\n"):
        yield ANSI.sub("", line)


def hold(what, text, keep=lambda line, prev: True):
    """Each line of text kept by keep(line, previous kept?) is <= WIDTH."""
    global checked
    prev = False
    for line in lines_of(text):
        k = keep(line, prev)
        prev = k
        if not k:
            continue
        checked += 1
        if len(line) > WIDTH:
            fail(f"{what}: a line of {len(line)} columns: {line}")


def summary(line, prev):
    """check's summary lines: "check ..." and "fuzz ...", and the lines
    that continue them (indented)."""
    return line.startswith(("check", "fuzz ")) or (prev and line.startswith("  "))


def run(cmd, cwd=None):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--th", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--toolchain", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("roots", nargs="*")
    a = ap.parse_args()
    a.th, a.build = os.path.abspath(a.th), os.path.abspath(a.build)
    files = []
    for root in a.roots:
        files += sorted(glob.glob(os.path.join(root, "**", "results.json"), recursive=True))
    files += sorted(glob.glob(os.path.join(a.data, "*.json")))
    verdicts = 0
    for path in files:
        r = run([a.th, "report", "--results", path, "--format", "verdict"])
        if r.returncode:
            continue    # not a results file the loader accepts
        verdicts += 1
        hold(f"{path}: verdict", r.stdout)
        # From the results' directory: the paths it names are short (a path
        # is one word, never broken: these tests' directories are deep).
        c = run([a.th, "check", "--results", "results.json" if path.endswith("/results.json")
                 else path, "--allow-slice", "--allow-partial"],
                cwd=os.path.dirname(path) if path.endswith("/results.json") else a.source)
        hold(f"{path}: check", c.stdout, summary)
    if verdicts < 3:
        fail(f"only {verdicts} results files rendered: nothing much was checked")

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        tc = a.toolchain
        m = run([a.th, "matrix", "--build-root", a.build, "--toolchain", tc, "--config",
                 "none,cfi-icall", "--variant", "modern", "--attack",
                 "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "--out", out])
        if m.returncode:
            fail(f"matrix exited {m.returncode}: {m.stderr[-2000:]}")
        hold("matrix", m.stdout)
        f = run([a.th, "fuzz", "--build-root", a.build, "--toolchain", tc, "--target", "overflow",
                 "--variant", "legacy,modern", "--config", "none", "--time", "1", "--jobs", "2",
                 "--out", out])
        if f.returncode:
            fail(f"fuzz exited {f.returncode}: {f.stderr[-2000:]}")
        hold("fuzz", f.stderr)
        if not re.search(r"(first|no)\s+hijack", f.stderr):  # wrapped at 80 columns
            fail("fuzz printed no campaign line: " + f.stderr[-2000:])
        fz = os.path.join(out, "fuzz.json")
        c = run([a.th, "check", "--fuzz-only", fz, "--allow-slice"], cwd=a.source)
        hold("check --fuzz-only", c.stdout, summary)
        # It ends with the answer, as check of the results does.
        last = re.sub(r"\n  ", " ", c.stdout.rstrip()).split("\n")[-1]
        want = {0: "PASS", 1: "FAIL", 2: "BAD INPUT", 3: "HARNESS ERROR"}.get(c.returncode, "?")
        if not last.startswith(f"check: {want} (exit {c.returncode}): the campaigns of {fz} "
                               "judged by "):
            fail(f"check --fuzz-only (exit {c.returncode}) does not end with its answer: {last!r}")
        # The same judgement as data (docs/schema/check.schema.json).
        j = run([a.th, "check", "--fuzz-only", fz, "--allow-slice", "--json"], cwd=a.source)
        try:
            import jsonschema
            with open(os.path.join(a.source, "docs", "schema", "check.schema.json")) as sf:
                schema = json.load(sf)
            doc = json.loads(j.stdout)
            for e in list(jsonschema.validators.validator_for(schema)(schema).iter_errors(doc))[:3]:
                fail(f"check --fuzz-only --json: {'/'.join(map(str, e.absolute_path))}: {e.message}")
            if j.returncode != c.returncode or doc["exit"] != c.returncode or doc["status"] != want \
                    or doc["results"] is not None or doc["fuzz"]["path"] != fz \
                    or doc["fuzz"]["counts"]["ran"] != 2:
                fail(f"check --fuzz-only --json (exit {j.returncode}) is not check's answer "
                     f"(exit {c.returncode}): {j.stdout[:600]}")
        except ValueError as e:
            fail(f"check --fuzz-only --json printed no JSON ({e}): {j.stdout[:300]!r}")
        c = run([a.th, "check", "--results", os.path.join(out, "results.json"), "--allow-slice"],
                cwd=a.source)
        hold("check beside fuzz.json", c.stdout, summary)
        if "campaigns of" not in c.stdout:
            fail("check beside fuzz.json did not name the campaigns: " + c.stdout[-2000:])
        shutil.rmtree(out, ignore_errors=True)
    print(f"widths: {checked} lines of {verdicts} verdict screens and checks, a matrix, a fuzz "
          f"run and its checks: none wider than {WIDTH} columns")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
