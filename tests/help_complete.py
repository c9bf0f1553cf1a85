#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Help texts are complete: every option a command's parser accepts (an
option literal passed to th_optval() or th_optname(), or compared with
strcmp(), in its cli/cmd_<command>.c, or in the file its options are parsed
in) is in that command's --help, and every command is in `timerharness
--help`.

  help_complete.py --th TIMERHARNESS --source SRC
"""
import argparse
import re
import subprocess
import sys

# Where each command's options are parsed.
PARSERS = {
    "trace": ["cli/cmd_trace.c"],
    "bench": ["cli/cmd_bench.c", "bench/bench.c"],
    "matrix": ["cli/cmd_matrix.c"],
    "check": ["cli/cmd_check.c"],
    "report": ["cli/cmd_report.c"],
    "merge": ["cli/cmd_merge.c"],
}
# Options that are not for users: the run bench starts under callgrind.
INTERNAL = {"bench": {"--count-child"}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--th", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    bad = []
    top = subprocess.run([a.th, "--help"], stdout=subprocess.PIPE, text=True).stdout
    for cmd, files in PARSERS.items():
        if not re.search(r"^  " + cmd + r" ", top, re.M):
            bad.append(f"`timerharness --help` does not list {cmd}")
        r = subprocess.run([a.th, cmd, "--help"], stdout=subprocess.PIPE, text=True)
        if r.returncode:
            bad.append(f"`timerharness {cmd} --help` exits {r.returncode}")
            continue
        opts = set()
        for f in files:
            with open(f"{a.source}/{f}") as src:
                text = src.read()
            opts |= set(re.findall(r'(?:th_optval\([^;]*?|th_optname\([^,]*, |strcmp\([^,]*, )"(--[a-z][a-z-]*)"', text))
            # A table of valued options (bench's "valued[]").
            for table in re.findall(r"valued\[\] = \{([^}]*)\}", text):
                opts |= set(re.findall(r'"(--[a-z][a-z-]*)"', table))
        opts -= {"--help"} | INTERNAL.get(cmd, set())
        for o in sorted(opts):
            if not re.search(r"(^|[\s\[|])" + re.escape(o) + r"(\b|=)", r.stdout):
                bad.append(f"`timerharness {cmd} --help` does not mention {o}")
        # The top-level summary names each option of matrix and check too.
        if cmd in ("matrix", "check", "report"):
            block = re.search(r"^  " + cmd + r" .*?(?=^  [a-z])", top, re.M | re.S)
            for o in sorted(opts):
                if block and o not in block.group(0):
                    bad.append(f"`timerharness --help` does not mention {cmd} {o}")
    for b in bad:
        print("FAIL: " + b, file=sys.stderr)
    if not bad:
        print("help: every option of every command is in its --help")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
