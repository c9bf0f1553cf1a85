#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cells of a results.json, one line each, for the CMake test scripts:
attack|variant|config|toolchain TAB outcome TAB evidence, in file order.

CMake's string(JSON ... GET) parses the whole document at each call: a loop
over a run's cells that way is quadratic (a randstruct run's 1 MB
results.json took tests/matrix_lockup.cmake and matrix_fsrv.cmake's
same_outcomes about 30 s each). The text is made safe for a CMake list:
a tab or newline in a field is a space, ';' is ',', '[' and ']' are '('
and ')' (an unbalanced bracket joins list items).

usage: cells.py RESULTS.json
"""
import json
import sys

SAFE = str.maketrans({"\t": " ", "\n": " ", "\r": " ", ";": ",", "[": "(", "]": ")"})


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: cells.py RESULTS.json")
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            cells = json.load(f)["cells"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"cells.py: {sys.argv[1]}: no cells to read ({e})")
    for c in cells:
        key = "|".join(str(c.get(k, "")) for k in ("attack", "variant", "config", "toolchain"))
        print("\t".join(str(x).translate(SAFE) for x in (key, c.get("outcome", ""),
                                                           c.get("evidence", ""))))


if __name__ == "__main__":
    main()
