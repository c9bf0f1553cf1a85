#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""80 columns: every --help and the man page.

  help_widths.py --th TIMERHARNESS --source SRC

  - `timerharness --help`, and `--help` of every parser the program has
    (timerharness --complete-options: each command, `bench --configs`;
    `kernel classify` takes none): no line wider than 80 columns, but one
    that holds a single word a line cannot break (a path the build names,
    alone on its line or as "(default PATH)");
  - the man page cli/gen-man.py makes of them, as man(1) shows it at
    MANWIDTH=80: the same, and it has a section per command;
  - each line the Makefile echoes itself (make demo's last screen holds
    one): a make variable counted as 12 columns (a preset's name).
Exit 0, or 1 with each line named.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

WIDTH = 80
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


def unbreakable(line):
    """A line over the width is allowed only when it is one word that
    cannot be broken: indentation, and a path alone or as (default PATH),
    with a trailing punctuation mark."""
    return re.fullmatch(r"\s*(\(default )?/\S+?\)?[.,;:]?", line) is not None


def hold(what, text):
    n = 0
    for line in text.split("\n"):
        n += 1
        if len(line) > WIDTH and not unbreakable(line):
            fail(f"{what}: a line of {len(line)} columns: {line}")
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--th", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    env = dict(os.environ, NO_COLOR="1")
    lines = hold("timerharness --help",
                 subprocess.run([a.th, "--help"], capture_output=True, text=True).stdout)
    opts = subprocess.run([a.th, "--complete-options"], capture_output=True, text=True).stdout
    parses = []
    for line in opts.splitlines():
        p, o, _ = line.split("\t")
        if o == "--help" and p not in parses:
            parses.append(p)
    if len(parses) < 8:
        fail(f"only {len(parses)} parsers take --help: {parses}")
    for p in parses:
        words = p.split(" ")
        if words[-1].startswith("--"):
            words.append("none")    # bench --configs none
        r = subprocess.run([a.th, *words, "--help"], capture_output=True, text=True, env=env)
        if r.returncode or not r.stdout.strip():
            fail(f"{p} --help: exit {r.returncode}, {len(r.stdout)} bytes")
        lines += hold(f"timerharness {p} --help", r.stdout)
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "timerharness.1")
        g = subprocess.run([sys.executable, os.path.join(a.source, "cli", "gen-man.py"), a.th,
                            "--man", page, "--completion", os.path.join(tmp, "c")],
                           capture_output=True, text=True)
        if g.returncode:
            fail(f"gen-man.py: exit {g.returncode}: {g.stderr.strip()}")
        else:
            r = subprocess.run(["man", "-l", "-P", "cat", page], capture_output=True, text=True,
                               env=dict(env, MANWIDTH=str(WIDTH), LC_ALL="C.UTF-8"))
            if r.returncode or "SYNOPSIS" not in r.stdout:
                fail(f"man -l: exit {r.returncode}: {r.stderr.strip()[:300]}")
            shown = re.sub(r".\x08", "", r.stdout)
            for p in parses:
                if " " not in p and not re.search(rf"^ *{p}$", shown, re.M):
                    fail(f"the man page has no section for {p}")
            lines += hold("man timerharness (MANWIDTH=80)", shown)
    # What the Makefile says itself, between the commands' own lines.
    with open(os.path.join(a.source, "Makefile")) as f:
        for n, line in enumerate(f, 1):
            for text in re.findall(r'echo "([^"]*)"', line):
                shown = re.sub(r"\$\$?\(?\w+\)?", "x" * 12, text)
                lines += 1
                if len(shown) > WIDTH:
                    fail(f"Makefile:{n}: an echoed line of {len(shown)} columns: {text}")
    if failures:
        return 1
    print(f"help widths: {lines} lines of {len(parses) + 1} --help texts and the man page, none "
          f"wider than {WIDTH} columns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
