#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The tree's layers, checked: every #include points down the data flow.

  layering.py check  [--root DIR]   the rules below; exit 0 or 1 with each failure
  layering.py update [--root DIR]   rewrite tests/layering-allowed.txt to today's
                                    violations (only ever to remove lines: say why
                                    in the commit when one is added)
  layering.py graph  [--root DIR]   the folder-level include graph, one edge a line
  layering.py selftest              the check fails on a small tree with an upward
                                    include, a cycle, a header and a source name
                                    twice, a folder's namesake and another
                                    folder's internal header

The layers, bottom first (a folder includes its own files and those of the
layers below it, never above):

  lib timer_core     helpers; the wheel as the kernel has it
  tasklet_core       the tasklet family (over timer_core's CPUs and WARN)
  binread            ELF and x86 decoding (runner/ and cfi/ both read binaries)
  runner             run a program, observe it from outside; the contract a
                     program run by it relies on (token, state map, what is
                     privileged, CR4's bits)
  results            the data contract: outcomes, the results model and its
                     sections, JSON in and out
  cfi                what a defence does: classify, target sets, probes
  attacks            the victim program, what is attacked, its expectations
  fuzz kernel        the victim searched by fuzzers; booted in a real kernel
  loops              the run loops (matrix, campaigns): fill a model, never render
  report             views and the gate over the model
  bench              figures
  cli                parse and dispatch

Rules: (1) the folder-level graph has no cycle (every edge counted, the
allowed ones too), and no edge upward but those allowed below; (2) each source file's includes resolve to one
file (no two headers of one name picked by -I order); (3) a small function
(2 to 15 lines of body) is defined once: no two files of the tree hold one
of the same parameters and body (comments, blanks and its own name aside),
the copied helper one definition in lib/ (or the layer both use) replaces
(a one-line body is left out: a file's handler that sets its own flag, an
accessor of its own struct, coincide without being copies);
(4) no file includes another folder's *_internal.h (what it needs is in a
public header); (5) no two source files of the tree share a name (.c or .h),
and no .c file is named as a folder it is not in (fuzz/binread.c was): a
namesake misleads tools and people;
(6) every line of tests/layering-allowed.txt is a violation that still
exists, so the list only shrinks. Quote includes only (<...> is the system's). Resolution: the
including file's folder, then the tree's root, then timer_core/include,
then the one source file of that name anywhere.
"""
import argparse
import collections
import os
import re
import sys

LAYERS = [
    ["lib", "timer_core"],
    ["tasklet_core"],
    ["binread"],
    ["runner"],
    ["results"],
    ["cfi"],
    ["attacks"],
    ["fuzz", "kernel"],
    ["loops"],
    ["report"],
    ["bench"],
    ["cli"],
]
RANK = {f: i for i, layer in enumerate(LAYERS) for f in layer}
NOT_SOURCE = {"build", "tests", "docs", "scripts", "out"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
HERE = os.path.dirname(os.path.abspath(__file__))


def sources(root):
    files = set()
    for top in sorted(os.listdir(root)):
        if top in NOT_SOURCE or top.startswith(".") or not os.path.isdir(os.path.join(root, top)):
            continue
        for dp, dn, fn in os.walk(os.path.join(root, top)):
            dn[:] = [d for d in dn if not d.startswith(".")]
            for f in fn:
                if f.endswith((".c", ".h")):
                    files.add(os.path.relpath(os.path.join(dp, f), root))
    return files


def scan(root):
    files = sources(root)
    byname = collections.defaultdict(list)
    for p in files:
        byname[os.path.basename(p)].append(p)
    edges = []        # (file, header), across folders
    problems = []     # (key, text)
    for p in sorted(files):
        with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                h = m.group(1)
                cand = [os.path.normpath(os.path.join(os.path.dirname(p), h)),
                        os.path.normpath(h), os.path.join("timer_core", "include", h)]
                tgt = next((c for c in cand if c in files), None)
                if tgt is None:
                    named = sorted(x for x in byname.get(os.path.basename(h), [])
                                   if x.endswith("/" + h))
                    if len(named) > 1:
                        problems.append((f"ambiguous {p} {h}",
                                         f"{p}:{n}: \"{h}\" is any of {', '.join(named)} (by -I order)"))
                    if not named:
                        continue    # generated (build tree) or not ours
                    tgt = named[0]
                a, b = p.split("/")[0], tgt.split("/")[0]
                if a != b:
                    edges.append((p, tgt, n))
                    if tgt.endswith("_internal.h"):
                        problems.append((f"internal {p} {tgt}",
                                         f"{p}:{n}: includes {tgt}, another folder's internal "
                                         f"header: what it needs goes in a public one"))
    tops = {p.split("/")[0] for p in files}
    for p in sorted(files):
        stem = os.path.splitext(os.path.basename(p))[0]
        if stem in tops and p.split("/")[0] != stem and p.endswith(".c"):
            problems.append((f"namesake {p}", f"{p}: named as the folder {stem}/ it is not in"))
    for name, where in sorted(byname.items()):
        if len(where) > 1:
            kind = "headers" if name.endswith(".h") else "sources"
            problems.append((f"twice {name}", f"two {kind} named {name}: {', '.join(sorted(where))}"))
    return edges, problems


FUNC = re.compile(r"^(?:static\s+)?(?:inline\s+)?(?:__attribute__\(\([^\n]*?\)\)\s*)*"
                  r"(?:const\s+)?[A-Za-z_][\w\s*]*?\b([A-Za-z_]\w*)\(([^;{]*?)\)\s*\n\{\n(.*?)\n\}\n",
                  re.S | re.M)


def _norm(text, name):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return " ".join(re.sub(r"\b%s\b" % re.escape(name), "SELF", text).split())


def same_bodies(root):
    """Small functions defined twice, in two files: (key, text) each."""
    seen = collections.defaultdict(list)
    for p in sorted(f for f in sources(root) if f.endswith(".c")):
        with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
            s = f.read()
        for m in FUNC.finditer(s):
            name, params, body = m.groups()
            if not 2 <= sum(1 for line in body.split("\n") if line.strip()) <= 15:
                continue
            line = s.count("\n", 0, m.start()) + 1
            seen[_norm(params, name) + "|" + _norm(body, name)].append((p, line, name))
    out = []
    for defs in seen.values():
        files = sorted({d[0] for d in defs})
        if len(files) < 2:
            continue    # one file's variants (#if branches, two targets of one body)
        first = min(defs)
        for d in sorted(defs):
            if d[0] == first[0]:
                continue
            out.append((f"same-body {first[0]}:{first[2]} ~ {d[0]}:{d[2]}",
                        f"{d[0]}:{d[1]}: {d[2]}() is {first[2]}() of {first[0]}:{first[1]} again: "
                        "define it once (lib/, or the layer both use)"))
    return out


def violations(root):
    edges, problems = scan(root)
    problems += same_bodies(root)
    out = {}
    for p, tgt, n in edges:
        a, b = p.split("/")[0], tgt.split("/")[0]
        if a not in RANK or b not in RANK:
            key = f"unlayered {p} -> {tgt}"
            out[key] = f"{p}:{n}: {a}/ or {b}/ is in no layer (tests/layering.py LAYERS)"
        elif RANK[b] > RANK[a] or (RANK[b] == RANK[a] and a != b):
            key = f"up {p} -> {tgt}"
            out[key] = f"{p}:{n}: includes {tgt}: {a}/ is below {b}/" if RANK[b] > RANK[a] \
                else f"{p}:{n}: includes {tgt}: {a}/ and {b}/ are one layer, neither includes the other"
    for key, text in problems:
        out[key] = text
    return edges, out


def cycles(edges, allowed):
    g = collections.defaultdict(set)
    for p, tgt, _ in edges:
        if f"up {p} -> {tgt}" in allowed:
            continue
        g[p.split("/")[0]].add(tgt.split("/")[0])
    found, state, stack = [], {}, []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(g[v]):
            if state.get(w) == 1:
                found.append(stack[stack.index(w):] + [w])
            elif not state.get(w):
                visit(w)
        stack.pop()
        state[v] = 2
    for v in sorted(g):
        if not state.get(v):
            visit(v)
    return found


def selftest():
    import tempfile
    tree = {
        "lib/a.h": '#include "cli/b.h"\n',
        "cli/b.h": '#include "lib/a.h"\n',
        "cfi/reach.h": "",
        "report/reach.h": "",
        "report/ok.c": '#include "reach.h"\n#include "cfi/reach.h"\n#include "lib/a.h"\n',
        "cli/c.c": '#include "reach.h"\n',
        "lib/x.c": "static int twice(int a)\n{\n\tint b = a * 2;\n\n\treturn b + 1;\n}\n",
        "report/y.c": "/* a copy */\nstatic int again(int a)\n{\n\tint b = a * 2;  /* x */\n\treturn b + 1;\n}\n",
        "lib/lib_internal.h": "",
        "cli/d.c": '#include "lib/lib_internal.h"\n',
        "cli/x.c": "",
        "report/lib.c": "",
    }
    with tempfile.TemporaryDirectory(prefix="th-layering.") as d:
        for p, text in tree.items():
            os.makedirs(os.path.join(d, os.path.dirname(p)), exist_ok=True)
            with open(os.path.join(d, p), "w") as f:
                f.write(text)
        edges, found = violations(d)
        want = {"up lib/a.h -> cli/b.h", "twice reach.h", "ambiguous cli/c.c reach.h",
                "same-body lib/x.c:twice ~ report/y.c:again", "twice x.c",
                "internal cli/d.c lib/lib_internal.h", "namesake report/lib.c"}
        cyc = cycles(edges, set())
    if set(found) != want or not any(c[0] in ("lib", "cli") for c in cyc):
        print(f"layering.py selftest: found {sorted(found)}, cycles {cyc}; expected {sorted(want)} "
              "and the cycle lib -> cli -> lib")
        return 1
    print("layering.py selftest: the upward include, the name twice (a header's, a source's), "
          "the ambiguous include, a folder's namesake, another folder's internal header, the function defined twice "
          "and the cycle are found")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("check", "update", "graph", "selftest"))
    ap.add_argument("--root", default=os.path.dirname(HERE))
    a = ap.parse_args()
    if a.mode == "selftest":
        return selftest()
    allowed_path = os.path.join(a.root, "tests", "layering-allowed.txt")
    edges, found = violations(a.root)
    if a.mode == "graph":
        count = collections.Counter((p.split("/")[0], t.split("/")[0]) for p, t, _ in edges)
        for (x, y), k in sorted(count.items()):
            print(f"{x} -> {y}\t{k} include(s)")
        return 0
    allowed = []
    with open(allowed_path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                allowed.append(line)
    if a.mode == "update":
        head = [l for l in open(allowed_path, encoding="utf-8") if l.startswith("#")]
        with open(allowed_path, "w", encoding="utf-8") as f:
            f.writelines(head)
            f.writelines(k + "\n" for k in sorted(found))
        print(f"layering.py: {len(found)} violation(s) listed (were {len(allowed)})")
        return 0
    bad = 0
    for key in sorted(set(found) - set(allowed)):
        print(f"new: {found[key]}")
        bad += 1
    for key in sorted(set(allowed) - set(found)):
        print(f"mended, remove its line from tests/layering-allowed.txt: {key}")
        bad += 1
    for c in cycles(edges, set()):
        print("cycle: " + " -> ".join(c))
        bad += 1
    if bad:
        return 1
    print(f"layering.py: the folder graph has no cycle; no new violation, {len(allowed)} listed to mend")
    return 0


if __name__ == "__main__":
    sys.exit(main())
