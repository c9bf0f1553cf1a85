#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The bench's figures beside results.json in the reports
(results/bench_figures.c, report/render_bench.c), one case a run:

  bench_report.py section --th TH --data DIR --results FILE --work DIR
      with the fixtures of DIR/good beside the results, report.md's and
      report.html's "What the wheel and the defences cost" is exactly
      DIR/section.md / DIR/section.html, figures recomputed here from the
      fixtures are in it, and the rest of each report is byte-identical to
      the report without them
  bench_report.py absent ...      without the files: no section
  bench_report.py bad ...         every fixture of DIR/bad beside the results:
      report exits 2 naming the file and the place, nothing written
  bench_report.py twice ...       two per-config files of one toolchain: exit 2
  bench_report.py matrix ... --build B --toolchain T
      a one-cell matrix with an invalid bench.json beside it warns and leaves
      the section out (exit 0); with valid files it shows them
  bench_report.py schema --schema-dir D --data DIR ROOT...
      every bench JSON `timerharness bench` wrote under ROOT (by its
      "schema") validates against docs/schema, both kinds present; the good
      fixtures validate; the bad ones a schema can refuse, it refuses
  bench_report.py real --th TH --results FILE --work DIR ROOT...
      the files `bench --quick` and `bench --configs` wrote under ROOT, beside
      the results, give a section with their own figures
Exit 0 when everything holds, 1 with each failure named.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

failures = []

# bad/<case>.<as>.json: what report must say (after "<file>: ").
BAD = {
    "unknown_field": r'cells\[2\]: unknown field "fast"',
    "wrong_schema": r'schema is not "timerharness/bench/v1"',
    "unknown_impl": r'cells\[0\]: unknown impl "wheel"',
    "missing_field": r'settings: missing field "reps"',
    "wrong_type": r'cells\[0\]: "ns_per_op" must be a non-negative number',
    "negative": r'cells\[4\]: "ratio_to_none" must be a non-negative number or null',
    "no_none": r'configs: no config "none" \(the baseline of every ratio\)',
    "undeclared_config": r'cells\[0\]: config "shadow-stack" is not one of configs',
    "cell_twice": r'cells\[40\]: n 1000 legacy add twice',
    "undeclared_size": r'cells\[0\]: n 5000 is not one of sizes',
    "not_json": r"not JSON: line 3 column [0-9]+: .+",
}
# What a JSON Schema can state: these the schema refuses too.
SCHEMA_REFUSES = ["unknown_field", "wrong_schema", "unknown_impl", "missing_field", "wrong_type",
                  "negative", "no_none"]
HEAD = {"md": "## What the wheel and the defences cost\n",
        "html": '<h2 id="cost">What the wheel and the defences cost</h2>\n'}


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


def fresh(work, results):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    shutil.copy(results, os.path.join(work, "results.json"))
    return os.path.join(work, "results.json")


def report(th, results, fmt):
    r = subprocess.run([th, "report", "--results", results, "--format", fmt],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def split(text, fmt):
    """(report without the section, the section); the section ends where the
    next section of the same level starts."""
    start = text.find(HEAD[fmt])
    if start < 0:
        return text, None
    nxt = re.compile(r"^## " if fmt == "md" else r"^<h2[ >]", re.M)
    m = nxt.search(text, start + len(HEAD[fmt]))
    end = m.start() if m else len(text)
    return text[:start] + text[end:], text[start:end]


def good_files(data, work):
    for p in glob.glob(os.path.join(data, "good", "*.json")):
        shutil.copy(p, work)


def case_section(a):
    res = fresh(a.work, a.results)
    without = {f: report(a.th, res, f) for f in ("md", "html")}
    good_files(a.data, a.work)
    for fmt in ("md", "html"):
        rc, out, err = report(a.th, res, fmt)
        if rc or without[fmt][0]:
            fail(f"{fmt}: exit {rc}/{without[fmt][0]}: {err}{without[fmt][2]}")
            continue
        rest, sec = split(out, fmt)
        if sec is None:
            fail(f"{fmt}: no section with the bench's files beside the results")
            continue
        if rest != without[fmt][1]:
            fail(f"{fmt}: the rest of the report changed with the bench's files beside it")
        with open(os.path.join(a.data, "section." + fmt)) as f:
            want = f.read()
        if sec != want:
            got = os.path.join(a.work, "section." + fmt)
            with open(got, "w") as f:
                f.write(sec)
            fail(f"{fmt}: the section differs from {a.data}/section.{fmt} (got: {got})")
        # Figures recomputed from the fixtures, not from the golden file.
        with open(os.path.join(a.data, "good", "bench-configs-clang-22.json")) as f:
            cfg = json.load(f)
        cells = {(c["n"], c["config"], c["impl"], c["op"]): c for c in cfg["cells"]}
        c = cells[(100000, "cfi-icall", "modern", "expire")]
        want = "%.1f (%+.1f%%, runs %+.1f%% .. %+.1f%%)" % (
            c["ns_per_op"], 100 * (c["ratio_to_none"] - 1), 100 * (c["ratio_min"] - 1),
            100 * (c["ratio_max"] - 1))
        i, b = cells[(1000, "kcfi", "legacy", "expire")], cells[(1000, "none", "legacy", "expire")]
        wanti = "%.1f (%+.1f)" % (i["instructions_per_op"], i["instructions_per_op"] - b["instructions_per_op"])
        with open(os.path.join(a.data, "good", "bench.json")) as f:
            bj = json.load(f)
        m = [x for x in bj["cells"] if (x["n"], x["impl"], x["op"]) == (1000, "modern", "mod")][0]
        wantb = "%.2fx (%.1f ns, %.1f instr)" % (m["ratio_to_heap"], m["ns_per_op"], m["instructions_per_op"])
        for w in (want, wanti, wantb, "not counted: --no-instructions"):
            if w not in sec:
                fail(f"{fmt}: no '{w}' in the section")
        # Text from the files is shown, never acts.
        raw = "lab<b>|*_1"
        esc = "lab&lt;b&gt;|*_1" if fmt == "html" else r"lab\<b\>\|\*\_1"
        if raw in sec or esc not in sec:
            fail(f"{fmt}: the host name is not escaped as {esc}")


def case_absent(a):
    res = fresh(a.work, a.results)
    for fmt in ("md", "html"):
        rc, out, err = report(a.th, res, fmt)
        if rc or split(out, fmt)[1] is not None or "bench.json" in out:
            fail(f"{fmt}: exit {rc}, a bench section without the bench's files: {err}")


def case_bad(a):
    n = 0
    for path in sorted(glob.glob(os.path.join(a.data, "bad", "*.json"))):
        name, kind = os.path.basename(path).split(".")[:2]
        res = fresh(a.work, a.results)
        good_files(a.data, a.work)
        dest = os.path.join(a.work, "bench.json" if kind == "bench" else "bench-configs-clang-22.json")
        shutil.copy(path, dest)
        out = os.path.join(a.work, "report.md")
        with open(out, "w") as f:
            f.write("sentinel\n")
        r = subprocess.run([a.th, "report", "--results", res, "--format", "md", "--out", out],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = r.stderr.decode()
        want = "^timerharness report: " + re.escape(dest) + ": " + BAD[name] + "\n$"
        if r.returncode != 2 or not re.search(want, err):
            fail(f"{name}: exit {r.returncode}, stderr {err!r}; want 2 and {want!r}")
        with open(out) as f:
            if f.read() != "sentinel\n":
                fail(f"{name}: the report was written over")
        n += 1
    if n != len(BAD):
        fail(f"{n} bad fixtures, {len(BAD)} expected")


def case_twice(a):
    res = fresh(a.work, a.results)
    good_files(a.data, a.work)
    shutil.copy(os.path.join(a.data, "good", "bench-configs-clang-22.json"),
                os.path.join(a.work, "bench-configs-again.json"))
    rc, out, err = report(a.th, res, "md")
    if rc != 2 or not re.search(r"bench-configs-clang-22\.json: toolchain: clang-22's configs are "
                                r"already in .*bench-configs-again\.json", err):
        fail(f"two files of clang-22's configs: exit {rc}, stderr {err!r}")


def matrix(a, out):
    return subprocess.run([a.th, "matrix", "--build-root", a.build, "--out", out, "--quiet",
                           "--timeout", "5", "--toolchain", a.toolchain, "--config", "none",
                           "--variant", "modern", "--attack", "MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def case_matrix(a):
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    shutil.copy(os.path.join(a.data, "bad", "unknown_field.bench.json"), os.path.join(a.work, "bench.json"))
    r = matrix(a, a.work)
    err = r.stderr.decode()
    want = (re.escape(os.path.join(a.work, "bench.json")) + r': cells\[2\]: unknown field "fast": '
            r"the bench's figures are left out of the reports")
    if r.returncode or not re.search(want, err):
        fail(f"invalid bench.json: matrix exit {r.returncode}, stderr {err!r}")
    for name, fmt in (("report.md", "md"), ("report.html", "html")):
        with open(os.path.join(a.work, name)) as f:
            if split(f.read(), fmt)[1] is not None:
                fail(f"invalid bench.json: {name} has the section")
    os.remove(os.path.join(a.work, "bench.json"))
    good_files(a.data, a.work)
    r = matrix(a, a.work)
    if r.returncode or r.stderr.decode().count("left out"):
        fail(f"valid files: matrix exit {r.returncode}, stderr {r.stderr.decode()!r}")
    for name, fmt in (("report.md", "md"), ("report.html", "html")):
        with open(os.path.join(a.work, name)) as f:
            sec = split(f.read(), fmt)[1]
        if sec is None or "clang-14" not in sec or "cfi-icall" not in sec:
            fail(f"valid files: {name} has no section of them")


def produced(roots):
    """The bench's own JSON files under roots, by their schema."""
    out = {"timerharness/bench/v1": [], "timerharness/bench-configs/v1": []}
    for root in roots:
        for p in sorted(glob.glob(os.path.join(root, "**", "*.json"), recursive=True)):
            try:
                with open(p) as f:
                    doc = json.load(f)
            except ValueError:
                continue
            if isinstance(doc, dict) and doc.get("schema") in out:
                out[doc["schema"]].append(p)
    return out


def validators(schema_dir):
    import jsonschema
    vs = {}
    for name, schema in (("bench.schema.json", "timerharness/bench/v1"),
                         ("bench-configs.schema.json", "timerharness/bench-configs/v1")):
        with open(os.path.join(schema_dir, name)) as f:
            doc = json.load(f)
        cls = jsonschema.validators.validator_for(doc)
        cls.check_schema(doc)
        vs[schema] = cls(doc)
    return vs


def case_schema(a):
    vs = validators(a.schema_dir)
    files = produced(a.roots)
    for schema, paths in files.items():
        if not paths:
            fail(f"no {schema} file under {', '.join(a.roots)}: nothing was checked")
    fixtures = [(p, json.load(open(p))) for p in sorted(glob.glob(os.path.join(a.data, "good", "*.json")))]
    for path, doc in [(p, json.load(open(p))) for ps in files.values() for p in ps] + fixtures:
        for e in list(vs[doc["schema"]].iter_errors(doc))[:3]:
            fail(f"{path}: {'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
    for name in SCHEMA_REFUSES:
        path = glob.glob(os.path.join(a.data, "bad", name + ".*.json"))[0]
        with open(path) as f:
            doc = json.load(f)
        kind = "timerharness/bench/v1" if ".bench.json" in path else "timerharness/bench-configs/v1"
        if vs[kind].is_valid(doc):
            fail(f"{path}: the loader refuses it, the schema accepts it")
    print(f"schema: {sum(map(len, files.values()))} files the bench wrote and "
          f"{len(fixtures)} fixtures validate; {len(SCHEMA_REFUSES)} bad fixtures refused")


def case_real(a):
    files = produced(a.roots)
    quick = [p for p in files["timerharness/bench/v1"] if os.path.basename(p) == "quick.json"]
    cfgs = files["timerharness/bench-configs/v1"]
    if not quick or not cfgs:
        fail(f"no quick.json or bench-configs file under {a.roots}")
        return
    res = fresh(a.work, a.results)
    shutil.copy(quick[0], os.path.join(a.work, "bench.json"))
    shutil.copy(cfgs[0], os.path.join(a.work, "bench-configs-run.json"))
    rc, out, err = report(a.th, res, "md")
    sec = split(out, "md")[1] if not rc else None
    if sec is None:
        fail(f"exit {rc}, no section from the bench's own files: {err}")
        return
    with open(cfgs[0]) as f:
        cfg = json.load(f)
    for c in cfg["cells"]:
        if c["impl"] == "modern" and c["op"] == "expire":
            if not re.search(r"\| `%s` \| modern \|.* %.1f[ |]" % (re.escape(c["config"]), c["ns_per_op"]), sec):
                fail(f"{c['config']} modern expire N={c['n']}: {c['ns_per_op']:.1f} ns not shown")
    with open(quick[0]) as f:
        bj = json.load(f)
    for c in bj["cells"]:
        if c["impl"] == "modern" and c["ns_per_op"] is not None:
            want = "%.2fx (%.1f ns" % (c["ratio_to_heap"], c["ns_per_op"])
            if want not in sec:
                fail(f"bench.json modern {c['op']} N={c['n']}: '{want}' not shown")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["section", "absent", "bad", "twice", "matrix", "schema", "real"])
    ap.add_argument("--th")
    ap.add_argument("--data")
    ap.add_argument("--results")
    ap.add_argument("--work")
    ap.add_argument("--build")
    ap.add_argument("--toolchain")
    ap.add_argument("--schema-dir")
    ap.add_argument("roots", nargs="*")
    a = ap.parse_intermixed_args()
    globals()["case_" + a.case](a)
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        return 1
    print(f"{a.case}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
