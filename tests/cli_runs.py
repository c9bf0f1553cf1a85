#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The command on real runs, one case per CTest test:

  cli_runs.py CASE --th TIMERHARNESS --build BUILD_DIR --toolchain NAME --out DIR
              [--source SRC]

  BUILD_DIR is the build tree (CMAKE_BINARY_DIR), NAME its toolchain
  (TIMERHARNESS_TOOLCHAIN, the preset's name): passed in, never guessed from
  the build directory's name, which can be any.

  shards    a slice run 3 ways (--shard I/3): the shards partition its cells,
            merge joins them into results.json and every report, with the
            outcome of every cell of the unsharded run; two of the three are
            still a slice; and merge refuses what does not belong together
            (overlapping shards, sharded with whole, another toolchain
            version, other config flags, other expectations, another schema).
  rerun     each cell's rerun command, run as written, runs that cell alone
            and observes the same outcome.
  slice     a slice goes to out/slice by default and says so; a slice into a
            directory holding a full run's results is refused unless --replace.
  color     on a terminal matrix colours its verdict, unless NO_COLOR is set.
  version   --version prints the CMake project's version.
  install   `cmake --install` of the build tree gives a command that runs the
            installed binaries and judges by the installed expectations; a
            copy of the command without them refuses clearly.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

SLICE = ["--config", "none,cfi-icall,kcfi,asan", "--variant", "legacy,modern"]


def run(cmd, cwd=None, env=None, want=0):
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if want is not None and r.returncode != want:
        sys.exit(f"FAIL: {' '.join(cmd)}: exit {r.returncode}, want {want}\n"
                 f"stdout:\n{r.stdout[-3000:]}\nstderr:\n{r.stderr[-3000:]}")
    return r


def expect(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)


def load(path):
    with open(path) as f:
        return json.load(f)


def key(c):
    return (c["attack"], c["variant"], c["config"], c["toolchain"])


def matrix(a, out, *extra):
    return run([a.th, "matrix", "--build-root", a.build, "--quiet", "--out", out, *extra])


def case_shards(a):
    whole = os.path.join(a.out, "whole")
    matrix(a, whole, *SLICE)
    w = load(os.path.join(whole, "results.json"))
    parts = []
    for i in (1, 2, 3):
        d = os.path.join(a.out, f"s{i}")
        matrix(a, d, *SLICE, "--shard", f"{i}/3")
        parts.append(os.path.join(d, "results.json"))
    keys = [set(key(c) for c in load(p)["cells"]) for p in parts]
    expect(all(keys), "a shard of the slice holds no cell")
    expect(not (keys[0] & keys[1] or keys[0] & keys[2] or keys[1] & keys[2]),
           "two shards hold the same cell")
    expect(set().union(*keys) == set(key(c) for c in w["cells"]),
           "the shards together are not the unsharded run's cells")
    for p, i in zip(parts, (1, 2, 3)):
        expect(load(p)["shard"] == {"count": 3, "indexes": [i]}, f"{p} does not record shard {i}/3")

    merged = os.path.join(a.out, "merged")
    r = run([a.th, "merge", *parts, "--out", merged])
    for f in ("results.json", "report.md", "report.html", "junit.xml", "report.sarif"):
        expect(os.path.getsize(os.path.join(merged, f)) > 0, f"merge wrote no {f}")
    m = load(os.path.join(merged, "results.json"))
    expect("shard" not in m, "every shard merged, yet the result says it is a shard")
    expect(m["selection"] == w["selection"], "the merge's selection is not the run's")
    got = {key(c): c["outcome"] for c in m["cells"]}
    want = {key(c): c["outcome"] for c in w["cells"]}
    diff = [k for k in want if got.get(k) != want[k]]
    expect(len(got) == len(want) and not diff,
           f"{len(diff)} cells differ from the unsharded run, e.g. {diff[:3]}")
    expect(m["metrics"]["cells_total"] == w["metrics"]["cells_total"], "cells_total differs")
    # Every shard read every binary: the reach section once, as unsharded.
    strip = lambda rs: sorted((json.dumps({k: v for k, v in e.items() if k != "binary"},
                                          sort_keys=True) for e in rs))
    expect("reach" in w and strip(m.get("reach", [])) == strip(w["reach"]),
           "the merge's reach section is not the unsharded run's")
    run([a.th, "check", "--results", os.path.join(merged, "results.json"), "--allow-slice"])
    print(f"shards: 3 shards of {len(want)} cells ({', '.join(str(len(k)) for k in keys)}) "
          f"merged: every outcome as unsharded")

    # Two of three: a slice of the slice, and check lists what it lacks.
    two = os.path.join(a.out, "two")
    run([a.th, "merge", *parts[:2], "--out", two, "--quiet"])
    t = load(os.path.join(two, "results.json"))
    expect(t["shard"] == {"count": 3, "indexes": [1, 2]}, "2 of 3 shards merged: shard not recorded")
    r = run([a.th, "check", "--results", os.path.join(two, "results.json"), "--allow-slice"])
    expect("shards 1,2 of 3" in r.stdout, "check does not say which shards it judged")
    r = run([a.th, "check", "--results", os.path.join(two, "results.json")], want=1)
    n = int(re.search(r", ([0-9]+) missing", r.stdout).group(1))
    expect(n >= len(keys[2]), "check does not count the missing shard's cells")

    # What does not belong together is refused, with nothing written.
    def refused(files, regex, name):
        out = os.path.join(a.out, "refused-" + name)
        r = run([a.th, "merge", *files, "--out", out], want=2)
        expect(re.search(regex, r.stderr), f"merge ({name}): stderr does not match {regex!r}:\n"
               + r.stderr)
        expect(not os.path.exists(os.path.join(out, "results.json")), f"merge ({name}) wrote")

    def doctored(name, edit):
        doc = load(parts[1])
        edit(doc)
        p = os.path.join(a.out, name + ".json")
        with open(p, "w") as f:
            json.dump(doc, f)
        return p

    refused([parts[0], parts[0]], r"shard 1/3 is in .* and in .*: their cells overlap", "overlap")
    refused([parts[0], os.path.join(whole, "results.json")], r"merge shards with shards", "mixed")
    v = doctored("version", lambda d: d["toolchains"][0].update(version="0.0.1"))
    refused([parts[0], v], r"toolchain \S+ is 0\.0\.1 in .* and \S+ in an earlier file", "version")
    f = doctored("flags", lambda d: d["configs"][1].update(flags="-O0"))
    refused([parts[0], f], r"config \S+: its flags differ between", "flags")
    s = doctored("schema", lambda d: d.update(schema="timerharness/results/v2"))
    refused([parts[0], s], r"schema is \"timerharness/results/v2\"", "schema")
    e = doctored("expect", lambda d: d["expectations"].update(sha256="0" * 64))
    refused([parts[0], e], r"judged its cells by other expectations", "expectations")
    print("shards: overlapping, mixed, other version, flags, schema and expectations refused")


def case_rerun(a):
    out = os.path.join(a.out, "run")
    matrix(a, out, "--config", "none,cfi-icall,kcfi", "--variant", "legacy,modern",
           "--attack", "HEAP_NEIGHBOUR_PENDING_*")
    cells = load(os.path.join(out, "results.json"))["cells"]
    picked = {}
    for c in cells:
        picked.setdefault(c["outcome"], c)
    expect(len(picked) >= 3, f"too few outcomes to rerun: {sorted(picked)}")
    for o, c in sorted(picked.items()):
        cwd = os.path.join(a.out, "cwd-" + o)
        os.makedirs(cwd, exist_ok=True)
        r = run(["sh", "-c", c["rerun"]], cwd=cwd)
        again = load(os.path.join(cwd, "out", "slice", "results.json"))["cells"]
        expect(len(again) == 1 and key(again[0]) == key(c),
               f"{c['rerun']} ran {[key(x) for x in again]}, not {key(c)} alone")
        expect(again[0]["outcome"] == o, f"{c['rerun']}: {again[0]['outcome']}, first run {o}")
        expect(again[0]["rerun"] == c["rerun"], "the rerun's own rerun command differs")
    print(f"rerun: {len(picked)} cells ({', '.join(sorted(picked))}) rerun alone, same outcomes")


def case_slice(a):
    cwd = os.path.join(a.out, "cwd")
    os.makedirs(os.path.join(cwd, "out"), exist_ok=True)
    full = os.path.join(cwd, "out", "results.json")
    shutil.copy(os.path.join(a.source, "tests", "data", "report", "gate.json"), full)
    before = open(full, "rb").read()
    cut = ["--config", "none", "--variant", "legacy", "--attack", "MEMCPY_INTRA_BEFORE_ARM_NONE"]
    r = run([a.th, "matrix", "--build-root", a.build, *cut], cwd=cwd)
    expect("a slice of the plan, written apart from a full run's results" in r.stdout and
           "outputs in out/slice/:" in r.stdout, "the default slice directory is not said:\n"
           + r.stdout)
    expect(open(full, "rb").read() == before, "a slice replaced the full run's results.json")
    expect(len(load(os.path.join(cwd, "out", "slice", "results.json"))["cells"]) == 1,
           "the slice's results are not in out/slice")
    # Named explicitly, a directory holding a full run is refused...
    r = run([a.th, "matrix", "--build-root", a.build, "--out", "out", *cut], cwd=cwd, want=2)
    expect("holds the results of a full run (54 cells); this run is a slice" in r.stderr,
           "refusal not said:\n" + r.stderr)
    expect(open(full, "rb").read() == before, "a refused slice replaced results.json")
    # ... unless --replace.
    run([a.th, "matrix", "--build-root", a.build, "--out", "out", "--replace", *cut], cwd=cwd)
    expect(len(load(full)["cells"]) == 1, "--replace did not replace")
    print("slice: written to out/slice by default; a full run's results kept unless --replace")


def case_color(a):
    cut = ["--build-root", a.build, "--config", "none,cfi-icall", "--variant", "legacy",
           "--attack", "RING_BLOCK_OVERFLOW_PENDING_FUNC_DATA_WRITE_CR4"]

    def on_tty(extra_env):
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        env.update(extra_env)
        out = os.path.join(a.out, "tty" + ("-nc" if extra_env else ""))
        cmd = " ".join([a.th, "matrix", "--out", out, *cut])
        # script(1) gives the command a terminal.
        return run(["script", "-qec", cmd, "/dev/null"], env=env).stdout

    colored = on_tty({})
    plain = on_tty({"NO_COLOR": "1"})
    expect("\x1b[1;31mHIJACKED" in colored, "no colour on a terminal:\n" + colored)
    expect("HIJACKED" in plain and "\x1b[1;31m" not in plain and "\x1b[3" not in plain,
           "NO_COLOR=1 still colours:\n" + plain)
    print("color: the verdict is coloured on a terminal, never with NO_COLOR")


def case_version(a):
    r = run([a.th, "--version"])
    expect(r.stdout == f"timerharness {a.project_version}\n", "--version printed " + r.stdout)
    print("version: " + r.stdout.strip())


def case_install(a):
    prefix = os.path.join(a.out, "prefix")
    shutil.rmtree(prefix, ignore_errors=True)
    run(["cmake", "--install", a.build, "--prefix", prefix])
    th = os.path.join(prefix, "bin", "timerharness")
    expect(os.path.exists(os.path.join(prefix, "lib", "timerharness", a.toolchain,
                                       "th-manifest.tsv")),
           "no installed manifest for " + a.toolchain)
    out = os.path.join(a.out, "out")
    cut = ["--config", "none,cfi-icall", "--variant", "legacy,modern",
           "--attack", "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4"]
    r = run([th, "matrix", "--quiet", "--out", out, *cut])
    res = load(os.path.join(out, "results.json"))
    expect(res["expectations"]["path"] == os.path.join(prefix, "share", "timerharness",
                                                         "expected.tsv"),
           "the installed command judged by " + res["expectations"]["path"])
    expect(len(res["cells"]) == 4 and all(c["outcome"] != "HARNESS_ERROR" for c in res["cells"]),
           "the installed command's cells: " + str([c["outcome"] for c in res["cells"]]))
    for c in res["cells"]:
        expect(c["rerun"].startswith(th + " matrix "), "rerun does not name the installed command")
    run([th, "check", "--results", os.path.join(out, "results.json"), "--allow-slice"])
    # The real kernel's plan is installed beside the expectations, and the
    # installed check judges by it.
    kdir = os.path.join(prefix, "share", "timerharness", "kernel")
    for f in ("cells.tsv", "configs/kcfi.config", "configs/none.config"):
        expect(os.path.exists(os.path.join(kdir, f)), "no installed kernel plan: " + f)
    r = run([th, "check", "--help"])
    expect("(default " + kdir + ")" in r.stdout,
           "the installed check does not judge by the installed kernel plan:\n" + r.stdout)
    # The man page, from the installed command's help: every command and
    # every option its help names; the completion, from its parsers: every
    # option each parser takes (tests/completion.py drives it in full); no
    # build path.
    page = os.path.join(prefix, "share", "man", "man1", "timerharness.1")
    comp = os.path.join(prefix, "share", "bash-completion", "completions", "timerharness")
    expect(os.path.exists(page) and os.path.exists(comp), "no installed man page or completion")
    with open(page) as f:
        roff = f.read()
    r = run(["man", "-l", "-P", "cat", page], env=dict(os.environ, MANWIDTH="100", LC_ALL="C.UTF-8"))
    shown = r.stdout
    top = run([th, "--help"]).stdout
    cmds = re.findall(r"^  ([a-z]+) ", top.split("commands:")[1], re.M)
    expect(len(cmds) >= 8, "the top-level help lists " + str(cmds))
    for c in cmds:
        expect(f".SS {c}\n" in roff, f"the man page has no section for {c}")
        for o in set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", run([th, c, "--help"]).stdout)):
            expect(o in shown, f"the man page does not show {c}'s {o}")
    for line in run([th, "--complete-options"]).stdout.splitlines():
        c, o, _ = line.split("\t")
        if " " in c or o == "-":
            continue
        b = run(["bash", "-c", f'source "$1"; COMP_WORDS=(timerharness {c} {o}); COMP_CWORD=2; '
                 f'_timerharness; printf "%s\\n" "${{COMPREPLY[@]}}"', "_", comp])
        expect(o in b.stdout.split(), f"completing 'timerharness {c} {o}' offers {b.stdout!r}")
    # The installed command names its installed files; only `fuzz` still
    # runs the campaigns' binaries of the build tree (they are not
    # installed): its --build-root and --seeds name the checkout.
    fuzz_sec = roff.split(".SS fuzz\n")[1].split(".SS ")[0] if ".SS fuzz\n" in roff else ""
    # (A default too long for its option's line stands on the next one.)
    prev = ""
    for line in roff.splitlines():
        plain = line.replace("\\-", "-").replace(prefix, "<prefix>")
        if a.source in plain and not (line in fuzz_sec and re.search(r"build-root|seeds", prev + plain)):
            expect(False, "the installed man page names the checkout: " + plain)
        prev = plain
    # The command alone, without what it runs: a clear refusal.
    bare = os.path.join(a.out, "bare", "bin")
    os.makedirs(bare, exist_ok=True)
    shutil.copy(th, bare)
    r = run([os.path.join(bare, "timerharness"), "matrix", "--quiet", "--out", out + "2", *cut],
            want=2)
    expect(re.search(r"/bare/share/timerharness/expected.tsv is missing: .*cmake --install",
                     r.stderr), "the bare command's refusal does not say what to do:\n" + r.stderr)
    # With the expectations given, the missing binaries are named next.
    r = run([os.path.join(bare, "timerharness"), "matrix", "--quiet", "--out", out + "2",
             "--expect", os.path.join(a.source, "attacks", "expected.tsv"), *cut], want=2)
    expect(re.search(r"no build under .*/bare/lib/timerharness .*cmake --install", r.stderr),
           "the bare command's refusal does not say what to do:\n" + r.stderr)
    print("install: the installed command runs its installed binaries; alone it refuses")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--th", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--toolchain", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--source", default=".")
    ap.add_argument("--project-version", default="")
    a = ap.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    globals()["case_" + a.case](a)


if __name__ == "__main__":
    main()
