#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every output checked by the consumer it is for.

  outputs.py results --schema-dir DIR --th TH --data DIR [--runs-only|--fixtures-only] ROOT...
      every results.json under the ROOTs, and every fixture the loader
      accepts, validates against docs/schema/results.schema.json; every
      fixture the loader refuses for a reason a schema can state, does not;
      every fuzz.json under the ROOTs, and each --fuzz FILE, validates
      against fuzz.schema.json; each --fuzz-invalid FILE (a summary the
      loader refuses for a reason a schema can state) does not.
      --runs-only leaves out the fixtures of --data, --fixtures-only the
      ROOTs (make test checks the fixtures with one toolchain only); every
      command takes them.
  outputs.py junit --xsd XSD... [--source SRC] --th TH --data DIR ROOT...
      every junit.xml under the ROOTs, and the JUnit of every fixture,
      validates against each XSD (xmllint --schema), and names the
      expectations and the rerun commands relative to the checkout SRC.
  outputs.py sarif --schema SCHEMA --source SRC --th TH --data DIR [--clean DIR] ROOT...
      every report.sarif (and the SARIF of every fixture) validates against
      the SARIF 2.1.0 schema; its results are exactly what the gate does not
      accept in the results.json beside it (a regressed cell: error; a new
      one of a severe outcome: warning), one per rule and cell over its
      toolchains, fingerprinted without the toolchain, at the line of the
      expectations file whose rule (the first that matches) declares it;
      no location or rerun names the checkout by its absolute path; at most
      5,000 results; and the runs under --clean, which passed the gate, have
      no result at all (code scanning makes an alert of every result).
  outputs.py codequality --th TH --data DIR [--clean DIR] ROOT...
      report --format codequality of every results.json under the ROOTs and
      of every fixture: GitLab's Code Quality shape, one issue per finding
      SARIF holds, unique fingerprints without the toolchain, a path relative
      to the repository; [] for the runs under --clean.
  outputs.py ktap --parser DIR --th TH --data DIR ROOT...
      the KTAP of every results.json under the ROOTs and of every fixture is
      read by the kernel's own KUnit parser (tools/testing/kunit) with no
      parse error, and its counts per toolchain are exactly the results'.

Files a test wrote as a sentinel (starting "sentinel": never an output) are
skipped.
Exit 0 when everything holds, 1 with each failure named otherwise.
"""
import argparse
import fnmatch
import glob
import io
import json
import os
import re
import subprocess
import sys
import tempfile

OUTCOMES = ["HIJACKED", "PRIVILEGED_WRITE", "REDIRECTED", "CRASHED", "HANG", "TIMER_LOST",
            "FALSE_POSITIVE", "BLOCKED_CFI", "DETECTED", "NO_EFFECT", "UNSUPPORTED",
            "NOT_APPLICABLE", "HARNESS_ERROR"]
REAL = OUTCOMES[:OUTCOMES.index("UNSUPPORTED")]
SENTINEL = b"sentinel"
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


def found(roots, name):
    out = []
    for root in roots:
        for path in sorted(glob.glob(os.path.join(root, "**", name), recursive=True)):
            with open(path, "rb") as f:
                if f.read(len(SENTINEL)) == SENTINEL:
                    continue
            out.append(path)
    return out


def loads(th, path):
    """Does the program's own loader accept the file?"""
    r = subprocess.run([th, "report", "--results", path, "--format", "ktap"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return r.returncode == 0


def render(th, path, fmt):
    r = subprocess.run([th, "report", "--results", path, "--format", fmt],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode:
        fail(f"{path}: report --format {fmt} exited {r.returncode}: {r.stderr.decode()}")
        return None
    return r.stdout


RUNS_ONLY = False       # --runs-only: no fixture of --data
FIXTURES_ONLY = False   # --fixtures-only: no ROOT, so no run's file


def fixtures(data, th):
    """The fixtures the loader accepts."""
    if RUNS_ONLY:
        return []
    return [p for p in sorted(glob.glob(os.path.join(data, "*.json"))) if loads(th, p)]


# ---- the outcome a renderer shows (results/verdict.c) ----
def observed(cell):
    worst = None
    counts = cell.get("counts", {})
    if counts.get("HARNESS_ERROR") or cell["outcome"] == "HARNESS_ERROR":
        return "HARNESS_ERROR"
    for o in OUTCOMES:
        if counts.get(o):
            worst = o
            break
    if worst and OUTCOMES.index(worst) < OUTCOMES.index(cell["outcome"]):
        return worst
    return cell["outcome"]


def regressed(cell):
    """Outside the declaration: more severe than the expected outcome, or
    than every member of a probabilistic cell's expected_set, or a run's
    outcome inside the set's span that the set does not name."""
    o, e = observed(cell), cell.get("expected")
    if cell.get("verdict") == "regression" or o == "HARNESS_ERROR":
        return True
    if o not in REAL:
        return e in REAL
    if e not in REAL:
        return False
    members = cell.get("expected_set") or [e]
    best = max(OUTCOMES.index(m) for m in members)
    seen = {o} | {k for k, n in cell.get("counts", {}).items() if n and k in REAL}
    return any(s not in members and OUTCOMES.index(s) <= best for s in seen)


def shown_verdict(cell):
    return "regression" if regressed(cell) else cell["verdict"]


# ---- results.json against its JSON Schema ----
SCHEMA_BASE = "https://timerharness.invalid/schema/"


def schema_store(schema_dir):
    """Every published schema by its $id, as a plain validator given the
    files registers them: each must have an $id of SCHEMA_BASE + its file
    name, and every $ref outside the file must name one of them."""
    store = {}
    for path in sorted(glob.glob(os.path.join(schema_dir, "*.schema.json"))):
        with open(path) as f:
            doc = json.load(f)
        want = SCHEMA_BASE + os.path.basename(path)
        if doc.get("$id") != want:
            fail(f"{path}: $id is {doc.get('$id')!r}, want {want!r} (a validator resolves $ref by it)")
        store[want] = doc

    def refs(node):
        if isinstance(node, dict):
            r = node.get("$ref")
            if isinstance(r, str) and not r.startswith("#"):
                yield r
            for v in node.values():
                yield from refs(v)
        elif isinstance(node, list):
            for v in node:
                yield from refs(v)
    for sid, doc in store.items():
        for r in refs(doc):
            if SCHEMA_BASE + r.split("#")[0] not in store:
                fail(f"{sid}: $ref {r!r} names no published schema")
    return store


def validator(schema_dir):
    import jsonschema
    store = schema_store(schema_dir)
    schema = store[SCHEMA_BASE + "results.schema.json"]
    # Resolved by $id alone, never by where the files lie.
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, resolver=resolver)


def cmd_results(a):
    import jsonschema
    v = validator(a.schema_dir)
    # Every published schema is itself a valid schema of its draft.
    for path in sorted(glob.glob(os.path.join(a.schema_dir, "*.schema.json"))):
        with open(path) as f:
            doc = json.load(f)
        try:
            jsonschema.validators.validator_for(doc).check_schema(doc)
        except jsonschema.exceptions.SchemaError as e:
            fail(f"{path}: not a valid JSON Schema: {e.message[:300]}")
    files = [] if a.fixtures_only else found(a.roots, "results.json")
    if not files and not a.fixtures_only:
        fail("no results.json under " + ", ".join(a.roots) + ": nothing was checked")
    fx = [] if a.runs_only else fixtures(a.data, a.th)
    if not fx and not a.runs_only:
        fail(f"no fixture of {a.data} the loader accepts: nothing was checked")
    for path in files + fx:
        with open(path) as f:
            doc = json.load(f)
        errs = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errs[:3]:
            fail(f"{path}: {'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
    # What the loader refuses and a schema can state, the schema refuses too.
    for name in a.invalid:
        path = os.path.join(a.data, name)
        with open(path) as f:
            try:
                doc = json.load(f)
            except ValueError:
                continue    # not JSON: no schema is asked
        if v.is_valid(doc):
            fail(f"{path}: the loader refuses it, the schema accepts it")
        if loads(a.th, path):
            fail(f"{path}: expected the loader to refuse it")
    # Campaign summaries (fuzz.json) against theirs, wherever a test wrote one.
    with open(os.path.join(a.schema_dir, "fuzz.schema.json")) as f:
        fz = json.load(f)
    fv = jsonschema.validators.validator_for(fz)(fz)
    fuzz = ([] if a.fixtures_only else found(a.roots, "fuzz.json")) + a.fuzz
    for path in fuzz:
        with open(path) as f:
            doc = json.load(f)
        for e in list(fv.iter_errors(doc))[:3]:
            fail(f"{path}: {'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
    for path in a.fuzz_invalid:
        with open(path) as f:
            if fv.is_valid(json.load(f)):
                fail(f"{path}: the loader refuses it, the fuzz schema accepts it")
    ncheck = check_json(a, files + fx)
    print(f"results: {len(files)} results.json, {len(fuzz)} fuzz.json and the fixtures "
          f"validate against their schemas; check --json of {ncheck} of them against "
          f"check.schema.json, agreeing with check's lines")


CHECK_COUNT = re.compile(r"^check: (\d+) cells.*?: (\d+) pass, (\d+) regression"
                         r"(?:, (\d+) improvement)?", re.M)


def free_strings(node):
    """The properties of an object schema whose value only has to be a string
    (or null): no keyword but type and description. A tree: name -> True,
    or name -> the same for an object property."""
    tree = {}
    for name, sub in (node.get("properties") or {}).items():
        if set(sub) <= {"type", "description"} and \
                sub.get("type") in ("string", ["string", "null"], ["null", "string"]):
            tree[name] = True
        elif sub.get("type") == "object" and "properties" in sub:
            tree[name] = free_strings(sub)
    return tree


def shape(value, free):
    """@value hashable, its free strings (free_strings()) blanked."""
    if not isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    out = []
    for k in sorted(value):
        v, sub = value[k], free.get(k)
        if sub is True and isinstance(v, str):
            v = ""
        elif isinstance(sub, dict) and isinstance(v, dict):
            v = shape(v, sub)
        elif not isinstance(v, (str, int, float, bool, type(None))):
            v = json.dumps(v, sort_keys=True)
        out.append((k, type(v).__name__, v))
    return tuple(out)


def findings_by_shape(schema, doc):
    """check --json's findings, one of each shape: two findings that differ
    only in the text of free strings (free_strings(): the message, the cell's
    attack, ...) are valid or invalid together, and `items` is the array's
    only constraint (else all are kept), so validating one of each is
    validating all. A gate fixture's check --json lists every cell of the
    plan it lacks (about 14,700 "missing" findings, 7.5 MB); validated whole,
    the fixtures' 29 took 28 s of /usr/bin/python3's jsonschema."""
    arr = schema["properties"]["findings"]
    ref = arr.get("items", {}).get("$ref", "")
    if set(arr) - {"type", "items", "description"} or not ref.startswith("#/$defs/"):
        return doc["findings"]
    free = free_strings(schema["$defs"][ref[len("#/$defs/"):]])
    seen, keep = set(), []
    for f in doc["findings"]:
        key = shape(f, free)
        if key not in seen:
            seen.add(key)
            keep.append(f)
    return keep


def check_json(a, paths):
    """check --json of each file: valid against check.schema.json, the same
    exit status as check, and the same judgement as its lines: the counts of
    its summary line, one finding per finding line of each kind."""
    import jsonschema
    store = schema_store(a.schema_dir)
    schema = store[SCHEMA_BASE + "check.schema.json"]
    v = jsonschema.validators.validator_for(schema)(schema)
    n = 0
    for path in paths:
        cwd, arg = (os.path.dirname(path), "results.json") if path.endswith("/results.json") \
            else (None, path)
        base = [a.th, "check", "--results", arg, "--allow-slice", "--allow-partial", "--fuzz", "none"]
        t = subprocess.run(base, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        j = subprocess.run(base + ["--json"], cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        n += 1
        if j.returncode != t.returncode:
            fail(f"{path}: check --json exited {j.returncode}, check {t.returncode}")
        try:
            doc = json.loads(j.stdout)
        except ValueError as e:
            fail(f"{path}: check --json printed no JSON document ({e}): {j.stdout[:300]!r}")
            continue
        shapes = dict(doc, findings=findings_by_shape(schema, doc)) \
            if isinstance(doc, dict) and isinstance(doc.get("findings"), list) else doc
        for e in list(v.iter_errors(shapes))[:3]:
            fail(f"{path}: check --json (one finding of each shape): "
                 f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
        if doc.get("exit") != j.returncode:
            fail(f"{path}: check --json says exit {doc.get('exit')}, exited {j.returncode}")
        want = {0: "PASS", 1: "FAIL", 2: "BAD INPUT", 3: "HARNESS ERROR"}.get(j.returncode)
        if doc.get("status") != want:
            fail(f"{path}: check --json says {doc.get('status')}, its exit is {j.returncode}")
        if j.returncode != 2 and \
                not re.search(r"check: " + re.escape(want) + r" \(exit", t.stdout):
            fail(f"{path}: check's lines end with no {want} answer: {t.stdout[-300:]!r}")
        # Each finding line of the text is a finding of the same kind.
        lines = [ln for ln in t.stdout.splitlines() if not ln.startswith(("check", "  "))]
        kinds = {}
        for ln in lines:
            k = ln.split(": ", 1)[0]
            kinds[k] = kinds.get(k, 0) + 1
        got = {}
        for f in doc.get("findings", []):
            if f.get("kind") in ("improvement", "declared difference"):
                continue    # listed by the text with --verbose only
            got[f["kind"]] = got.get(f["kind"], 0) + 1
        if kinds != got:
            fail(f"{path}: check's finding lines {kinds}, check --json's findings {got}")
        m = CHECK_COUNT.search(re.sub(r"\n  ", " ", t.stdout))
        counts = (doc.get("results") or {}).get("counts")
        if m and counts:
            for i, key in ((1, "cells"), (2, "pass"), (3, "regression"), (4, "improvement")):
                if int(m.group(i) or 0) != counts[key]:
                    fail(f"{path}: check counts {m.group(0)!r}, check --json {key} {counts[key]}")
            imp = sum(1 for f in doc["findings"] if f["kind"] == "improvement")
            if imp != counts["improvement"]:
                fail(f"{path}: check --json counts {counts['improvement']} improvements, lists {imp}")
        elif j.returncode != 2:
            fail(f"{path}: no counts to compare: {t.stdout[-300:]!r} / {counts}")
    return n


# ---- JUnit against Jenkins' and Ant's XSDs ----
def cmd_junit(a):
    docs = [(p, None) for p in found(a.roots, "junit.xml")]
    if not docs and not FIXTURES_ONLY:
        fail("no junit.xml under " + ", ".join(a.roots))
    with tempfile.TemporaryDirectory() as tmp:
        for p in fixtures(a.data, a.th):
            out = os.path.join(tmp, os.path.basename(p) + ".xml")
            xml = render(a.th, p, "junit")
            if xml is not None:
                with open(out, "wb") as f:
                    f.write(xml)
                docs.append((out, p))
        prefix = (os.path.abspath(a.source) + "/").encode() if a.source else None
        for path, src in docs:
            # Paths as the repository has them, not as this machine does.
            with open(path, "rb") as f:
                xml = f.read()
            for m in ([b'name="expectations" value="' + prefix, b"rerun: " + prefix]
                      if prefix else []):
                if m in xml:
                    fail(f"{src or path}: names the checkout by its absolute path ({m.decode()}...)")
            for xsd in a.xsd:
                r = subprocess.run(["xmllint", "--noout", "--schema", xsd, path],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                if r.returncode:
                    fail(f"{src or path}: not valid against {os.path.basename(xsd)}:\n"
                         + r.stdout.decode()[-2000:])
    print(f"junit: {len(docs)} files validate against " +
          " and ".join(os.path.basename(x) for x in a.xsd))


# ---- SARIF: schema, declaring lines, levels ----
def rules_of(path):
    """The rules of an expectations file: (line, platform globs, [globs x4]).
    A rule is under the last "@platform GLOB" line before it ("model" before
    any); the rows of "@differs" sections are no rules."""
    rules = []
    platform, differs = "model", False
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("@"):
                word, _, arg = line.partition(" ") if " " in line else line.partition("\t")
                if word == "@platform":
                    platform, differs = arg.strip(), False
                elif word == "@differs":
                    differs = True
                continue
            if not differs:
                rules.append((n, platform, line.split("\t")[:4]))
    return rules


def matches(globs, value):
    return any(fnmatch.fnmatchcase(value, g) for g in globs.split(","))


def first_rule(rules, cell, platform="model"):
    for n, plat, cols in rules:
        if matches(plat, platform) and all(matches(col, v) for v, col in zip(cell, cols)):
            return n
    return None


GITHUB_MAX_RESULTS = 5000   # docs.github.com: "Only the top 5,000 results will be included"


def severity_rows():
    """The severity table, report/severity.def: (verdict, outcome, when,
    rule) a row, "any" a wildcard."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report", "severity.def")
    with open(path) as f:
        return [tuple(x.strip() for x in m.group(1).split(",")[:4])
                for m in re.finditer(r"^SEV\(([^)]*)\)", f.read(), re.M)]


SEVERITY = severity_rows()


def severity_rule(c):
    """The rule the table ranks a cell under (the first row it matches), or
    None: a pass, an improvement, a new cell of no row's outcome. A lost CFI
    block: declared BLOCKED_CFI (or in its declared set), observed not."""
    v, o = shown_verdict(c), observed(c)
    declared = c.get("expected_set") or [c.get("expected")]
    lost = "BLOCKED_CFI" in declared and o != "BLOCKED_CFI"
    for verdict, outcome, when, rule in SEVERITY:
        if verdict == v and outcome in ("any", o) and (when == "any" or lost):
            return rule
    return None


def sarif_findings(doc):
    """What the log must hold, from results.json: one finding per rule and
    (platform, attack, variant, config) over the toolchains, for every cell
    the gate does not accept: regressed, or new with a severe outcome; its
    rule the severity table's."""
    out = {}
    for c in doc["cells"]:
        rule = severity_rule(c)
        if rule is None:
            continue
        key = (rule, c.get("platform", "model"), c["attack"], c["variant"], c["config"])
        out.setdefault(key, set()).add(c["toolchain"])
    return out


def cmd_sarif(a):
    import jsonschema
    with open(a.schema) as f:
        schema = json.load(f)
    v = jsonschema.Draft4Validator(schema)
    logs = [(p, False) for p in found(a.roots, "report.sarif")]
    clean = set(found(a.clean, "report.sarif")) if a.clean else set()
    if (not logs and not FIXTURES_ONLY) or (a.clean and not clean):
        fail("no report.sarif to check (or none under --clean)")
    texts = {p: open(p, "rb").read() for p, _ in logs}
    sources = {p: os.path.join(os.path.dirname(p), "results.json") for p in texts}
    for p in fixtures(a.data, a.th):
        s = render(a.th, p, "sarif")
        if s is not None:
            texts[p] = s
            sources[p] = p
    src_prefix = os.path.abspath(a.source) + "/"
    cache = {}
    nres = 0
    for path, text in texts.items():
        doc = json.loads(text)
        for e in list(v.iter_errors(doc))[:3]:
            fail(f"{path}: SARIF schema: {'/'.join(map(str, e.absolute_path))}: {e.message}")
        # The checkout's absolute path is in no location and no rerun command.
        for m in (b'"uri": "file://' + src_prefix.encode(), b'"rerun": "' + src_prefix.encode()):
            if m in text:
                fail(f"{path}: names the checkout by its absolute path ({m.decode()}...)")
        want = None
        if os.path.exists(sources[path]):
            with open(sources[path]) as f:
                want = sarif_findings(json.load(f))
        for run in doc["runs"]:
            rules = run["tool"]["driver"]["rules"]
            for r in rules:
                props = r.get("properties", {})
                if "security" in props.get("tags", []) and "security-severity" not in props:
                    fail(f"{path}: rule {r['id']} is tagged security without a security-severity")
                if not r.get("help", {}).get("text"):
                    fail(f"{path}: rule {r['id']} has no help.text (code scanning requires it)")
            results = run["results"]
            if len(results) > GITHUB_MAX_RESULTS:
                fail(f"{path}: {len(results)} results; code scanning keeps {GITHUB_MAX_RESULTS}")
            if path in clean and results:
                fail(f"{path}: a run that passed the gate has {len(results)} result(s), "
                     f"the first {results[0]['message']['text'][:200]}")
            seen, got = set(), {}
            for res in results:
                nres += 1
                p = res["properties"]
                key = f"{p['attack']} {p['variant']}/{p['config']}"
                if not p.get("cells") or not p.get("toolchains"):
                    fail(f"{path}: {key}: no cells or toolchains in its properties")
                    continue
                fp = res["partialFingerprints"]
                ident = (p.get("platform", "model"), p["attack"], p["variant"], p["config"])
                if fp.get("primaryLocationLineHash") in seen:
                    fail(f"{path}: {key}: primaryLocationLineHash shared with another result")
                seen.add(fp.get("primaryLocationLineHash"))
                if any(tc in fp.get("timerharnessCell/v2", "") for tc in p["toolchains"]):
                    fail(f"{path}: {key}: the toolchain is part of the fingerprint")
                verdicts = [c["verdict"] for c in p["cells"]]
                if [c["toolchain"] for c in p["cells"]] != p["toolchains"]:
                    fail(f"{path}: {key}: cells {p['cells']} do not match toolchains {p['toolchains']}")
                if not set(verdicts) <= {"regression", "new"}:
                    fail(f"{path}: {key}: a cell the gate accepts is a result ({verdicts})")
                level = "error" if "regression" in verdicts else "warning"
                if res["level"] != level:
                    fail(f"{path}: {key}: level {res['level']}, verdicts {verdicts} want {level}")
                if res.get("baselineState") != "new":
                    fail(f"{path}: {key}: baselineState {res.get('baselineState')}, want new")
                got[(res["ruleId"],) + ident] = set(p["toolchains"])
                phys = res["locations"][0]["physicalLocation"]
                uri = phys["artifactLocation"]["uri"]
                line = phys.get("region", {}).get("startLine")
                first = p["cells"][0]
                if line != first.get("expectedLine"):
                    fail(f"{path}: {key}: region line {line}, its first cell's {first.get('expectedLine')}")
                file = (uri[len("file://"):] if uri.startswith("file://") else
                        os.path.join(a.source, uri))
                for c in p["cells"]:
                    if c.get("expectedLine") is None:
                        continue
                    if file not in cache:
                        cache[file] = rules_of(file)
                    decl = first_rule(cache[file], [p["attack"], p["variant"], p["config"],
                                                     c["toolchain"]], p.get("platform", "model"))
                    if decl != c["expectedLine"]:
                        fail(f"{path}: {key} on {c['toolchain']} points at {uri}:"
                             f"{c['expectedLine']}, declared on line {decl}")
            omitted = run["properties"].get("findingsOmitted", 0)
            if want is not None and not omitted and got != want:
                extra = sorted(set(got) - set(want))[:3]
                lost = sorted(set(want) - set(got))[:3]
                fail(f"{path}: results differ from what results.json holds: extra {extra}, "
                     f"missing {lost}")
    print(f"sarif: {len(texts)} logs, {nres} results: schema-valid, only regressions and new "
          f"findings, one per cell over its toolchains, each at its declaring line; "
          f"{len(clean)} clean run(s) without a result")


# ---- KTAP through the kernel's KUnit parser ----
def cmd_ktap(a):
    sys.path.insert(0, a.parser)
    import kunit_parser
    import kunit_printer
    kunit_printer.stdout._print = False   # its report, not ours
    kunit_parser.stdout = kunit_printer.stdout
    files = found(a.roots, "results.json") + fixtures(a.data, a.th)
    if not files:
        fail("no results to render as KTAP")
    for path in files:
        ktap = render(a.th, path, "ktap")
        if ktap is None:
            continue
        with open(path) as f:
            doc = json.load(f)
        test = kunit_parser.parse_run_tests(io.StringIO(ktap.decode()))
        if test.counts.errors:
            fail(f"{path}: the KUnit parser found {test.counts.errors} error(s) in its KTAP")
        # A test per toolchain of the model (every toolchain no cell of a
        # real kernel alone names), then one per real kernel and toolchain
        # its cells name ("linux-6.1.192/clang-22").
        cells_of = {}
        for c in doc["cells"]:
            plat = c.get("platform", "model")
            name = c["toolchain"] if plat == "model" else plat + "/" + c["toolchain"]
            cells_of.setdefault(name, []).append(c)
        kernel_only = {c["toolchain"] for c in doc["cells"]} - \
            {c["toolchain"] for c in doc["cells"] if c.get("platform", "model") == "model"}
        names = sorted([t["name"] for t in doc["toolchains"] if t["name"] not in kernel_only] +
                       [n for n in cells_of if "/" in n])
        got = {t.name: t for t in test.subtests}
        if sorted(got) != names:
            fail(f"{path}: KTAP tests {sorted(got)}, toolchains {names}")
            continue
        for tc in names:
            cells = cells_of.get(tc, [])
            # A toolchain without cells is one skipped test itself (KTAP's
            # "ok N name # SKIP"), as KUnit counts a test without subtests.
            want = dict(passed=0, failed=0, skipped=0 if cells else 1)
            for c in cells:
                if regressed(c):
                    want["failed"] += 1
                elif observed(c) in ("UNSUPPORTED", "NOT_APPLICABLE"):
                    want["skipped"] += 1
                else:
                    want["passed"] += 1
            t = got[tc]
            have = dict(passed=t.counts.passed, failed=t.counts.failed, skipped=t.counts.skipped)
            if have != want or t.counts.crashed or len(t.subtests) != len(cells):
                fail(f"{path}: {tc}: KUnit counts {have} (crashed {t.counts.crashed}, "
                     f"{len(t.subtests)} subtests), the results say {want} of {len(cells)}")
    print(f"ktap: {len(files)} results read by the KUnit parser with exact counts")


# ---- GitLab's Code Quality report ----
CQ_SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def cmd_codequality(a):
    """report --format codequality, for every results.json under the roots
    and every fixture: the shape GitLab's Code Quality report has
    (docs.gitlab.com, "Code Quality report format"), one issue per finding
    SARIF would hold (sarif_findings), a unique fingerprint without the
    toolchain, the declaring line; [] for a run under --clean (it passed)."""
    clean = set(found(a.clean, "results.json"))
    sources = found(a.roots, "results.json") + fixtures(a.data, a.th)
    if not sources or (a.clean and not clean):
        fail("no results.json to render (or none under --clean)")
    issues = 0
    for src in sources:
        text = render(a.th, src, "codequality")
        if text is None:
            continue
        doc = json.loads(text)
        with open(src) as f:
            res = json.load(f)
        want = sarif_findings(res)
        if not isinstance(doc, list):
            fail(f"{src}: codequality: not a JSON array")
            continue
        if src in clean and doc:
            fail(f"{src}: a run that passed the gate has {len(doc)} Code Quality issue(s)")
        if len(doc) != len(want):
            fail(f"{src}: {len(doc)} Code Quality issues, SARIF's findings are {len(want)}")
        fps = set()
        for i in doc:
            issues += 1
            where = f"{src}: issue {i.get('check_name')}: "
            for k in ("description", "check_name", "fingerprint", "severity"):
                if not isinstance(i.get(k), str) or not i[k]:
                    fail(where + f"no {k}")
            if i.get("severity") not in CQ_SEVERITIES:
                fail(where + f"severity {i.get('severity')!r} is not GitLab's")
            if i.get("fingerprint") in fps:
                fail(where + "fingerprint shared with another issue")
            fps.add(i.get("fingerprint"))
            loc = i.get("location", {})
            path, begin = loc.get("path"), loc.get("lines", {}).get("begin")
            if not isinstance(path, str) or path.startswith("/") or not path:
                fail(where + f"location.path {path!r} is not relative to the repository")
            if not isinstance(begin, int) or begin < 1:
                fail(where + f"location.lines.begin {begin!r}")
            for tc in {c["toolchain"] for c in res["cells"]}:
                if tc in i.get("fingerprint", ""):
                    fail(where + "the toolchain is in the fingerprint")
            if i.get("check_name") not in {k[0] for k in want}:
                fail(where + "no SARIF finding has this rule")
    print(f"codequality: {len(sources)} results rendered, {issues} issues checked")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("results", "junit", "sarif", "ktap", "codequality"):
        p = sub.add_parser(name)
        p.add_argument("--th", required=True)
        p.add_argument("--data", required=True)
        p.add_argument("roots", nargs="*")
        only = p.add_mutually_exclusive_group()
        only.add_argument("--runs-only", action="store_true")
        only.add_argument("--fixtures-only", action="store_true")
    sub.choices["results"].add_argument("--schema-dir", required=True)
    sub.choices["results"].add_argument("--invalid", action="append", default=[])
    sub.choices["results"].add_argument("--fuzz", action="append", default=[])
    sub.choices["results"].add_argument("--fuzz-invalid", action="append", default=[])
    sub.choices["junit"].add_argument("--xsd", action="append", required=True)
    sub.choices["junit"].add_argument("--source")
    sub.choices["sarif"].add_argument("--schema", required=True)
    sub.choices["sarif"].add_argument("--source", required=True)
    sub.choices["sarif"].add_argument("--clean", action="append", default=[])
    sub.choices["ktap"].add_argument("--parser", required=True)
    sub.choices["codequality"].add_argument("--clean", action="append", default=[])
    a = ap.parse_args()
    global RUNS_ONLY, FIXTURES_ONLY
    RUNS_ONLY, FIXTURES_ONLY = a.runs_only, a.fixtures_only
    if FIXTURES_ONLY and a.roots:
        ap.error("--fixtures-only takes no ROOT")
    globals()["cmd_" + a.cmd](a)
    if failures:
        print(f"{len(failures)} failure(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
