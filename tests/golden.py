#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Byte-exact goldens of every report format (syzkaller's pkg/report
testdata, with its update switch).

  golden.py check  --th TH [--case NAME]...   render, compare, show a diff
  golden.py update --th TH [--case NAME]...   render into tests/golden/report/

Each case of tests/golden/cases.tsv is a results file from tests/data,
copied as results.json into an empty directory with the files named beside
it (so the reports pick up fuzz.json and bench*.json exactly as a run's
out/ does); `TH report --format F` of it, for every format the binary lists
(`report --list-formats`: a new format needs only its golden), must equal
tests/golden/report/<case>/<file>. A format the renderer adds without a
golden, or a golden without its format, is a failure: update says which
files it wrote. Exit 0 when every output is as recorded, 1 otherwise.
"""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
GOLDEN = os.path.join(HERE, "golden")
# format -> the file its golden is kept in; a format the binary lists
# (report --list-formats) and this table does not is kept as report.<name>
FILES = {
    "md": "report.md",
    "html": "report.html",
    "junit": "junit.xml",
    "sarif": "report.sarif",
    "ktap": "report.ktap",
    "matrix": "matrix.txt",
    "verdict": "verdict.txt",
    "codequality": "codequality.json",
}


def load_cases():
    path = os.path.join(GOLDEN, "cases.tsv")
    cases = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 3:
                sys.exit(f"{path}:{n}: expected 3 tab-separated fields, got {len(cols)}")
            name, results, beside = cols
            if name in cases:
                sys.exit(f"{path}:{n}: case {name} again")
            cases[name] = (results, [] if beside == "-" else beside.split(","))
    if not cases:
        sys.exit(f"{path}: no case")
    return cases


def formats(th):
    p = subprocess.run([th, "report", "--list-formats"], capture_output=True, text=True)
    names = p.stdout.split()
    if p.returncode != 0 or not names:
        raise SystemExit(f"golden.py: {th} report --list-formats: exit {p.returncode}, "
                         f"{len(names)} names: {p.stderr.strip()}")
    return {n: FILES.get(n, "report." + n) for n in names}


def render(th, fmts, results, beside, work):
    shutil.copyfile(os.path.join(DATA, results), os.path.join(work, "results.json"))
    for b in beside:
        shutil.copyfile(os.path.join(DATA, b), os.path.join(work, os.path.basename(b)))
    env = dict(os.environ, NO_COLOR="1", LC_ALL="C")
    out = {}
    for fmt, name in fmts.items():
        dest = os.path.join(work, "out." + name)
        p = subprocess.run([th, "report", "--results", os.path.join(work, "results.json"),
                            "--format", fmt, "--out", dest],
                           env=env, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"report --format {fmt}: exit {p.returncode}: {p.stderr.strip()}")
        with open(dest, "rb") as f:
            out[name] = f.read()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("check", "update"))
    ap.add_argument("--th", required=True)
    ap.add_argument("--case", action="append")
    a = ap.parse_args()
    cases = load_cases()
    names = a.case or sorted(cases)
    fmts = formats(a.th)
    bad = 0
    for name in names:
        if name not in cases:
            sys.exit(f"golden.py: no case {name} in tests/golden/cases.tsv")
        results, beside = cases[name]
        gdir = os.path.join(GOLDEN, "report", name)
        with tempfile.TemporaryDirectory(prefix="th-golden.") as work:
            try:
                got = render(a.th, fmts, results, beside, work)
            except RuntimeError as e:
                print(f"{name}: {e}")
                bad += 1
                continue
        if a.mode == "update":
            os.makedirs(gdir, exist_ok=True)
            for f in sorted(set(os.listdir(gdir)) - set(got)):
                os.unlink(os.path.join(gdir, f))
                print(f"{name}/{f}: removed (no format writes it)")
            for f, data in got.items():
                path = os.path.join(gdir, f)
                old = open(path, "rb").read() if os.path.exists(path) else None
                if old != data:
                    with open(path, "wb") as g:
                        g.write(data)
                    print(f"{name}/{f}: {'written' if old is None else 'updated'} ({len(data)} bytes)")
            continue
        have = set(os.listdir(gdir)) if os.path.isdir(gdir) else set()
        for f in sorted(have - set(got)):
            print(f"{name}/{f}: a golden no format writes")
            bad += 1
        for f, data in got.items():
            path = os.path.join(gdir, f)
            if f not in have:
                print(f"{name}/{f}: no golden (tests/golden.py update records it)")
                bad += 1
                continue
            want = open(path, "rb").read()
            if want == data:
                continue
            bad += 1
            print(f"{name}/{f}: differs from tests/golden/report/{name}/{f}")
            diff = difflib.unified_diff(want.decode("utf-8", "replace").splitlines(),
                                        data.decode("utf-8", "replace").splitlines(),
                                        "golden", "rendered", lineterm="", n=1)
            for i, line in enumerate(diff):
                if i == 40:
                    print("  ...")
                    break
                print("  " + line[:200])
    if bad:
        print(f"golden.py: {bad} output(s) not as recorded; if the change is meant, "
              f"run `make golden` and commit the diff with the reason")
        return 1
    if a.mode == "check":
        print(f"golden.py: {len(names)} case(s) x {len(fmts)} formats as recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
