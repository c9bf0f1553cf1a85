#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Severity follows the gate: one table (report/severity.def), documented
(docs/outputs.md, "Severity"), and what SARIF, Code Quality, JUnit and the
verdict screen say of doctored failing runs is the table's.

  severity.py --th TIMERHARNESS --source SRC

  - the table: every row a regression (the gate fails it) is at least
    GitHub high (security-severity >= 7.0) and GitLab major, or the
    harness error, which is no security finding and not above major; the
    lost CFI block critical in both (> 9.0); one security-severity a rule;
  - docs/outputs.md's table is the table, row for row;
  - tests/data/report/gate.json (it passes the gate) doctored: a kcfi cell
    declared BLOCKED_CFI CRASHED, a cfi-icall one TIMER_LOST, a none cell
    declared NO_EFFECT HANG, a none cell declared REDIRECTED HIJACKED, a
    none cell HARNESS_ERROR; each cell's SARIF rule and its
    security-severity, Code Quality severity, JUnit element and message,
    and the verdict screen's "Failing the gate" line are the table's; the
    run with a harness error is no successful execution; the undoctored
    run has no finding in any of them.
"""
import argparse
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

failures = []
GITLAB = ["info", "minor", "major", "critical", "blocker"]


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


def table(src):
    rows = []
    with open(os.path.join(src, "report", "severity.def")) as f:
        for m in re.finditer(r'^SEV\(([^)]*)\)', f.read(), re.M):
            v, o, w, r, s, g, j = [x.strip() for x in m.group(1).split(",")]
            rows.append(dict(verdict=v, outcome=o, when=w, rule=r, sev=s.strip('"'), gitlab=g,
                             junit=j))
    return rows


def doc_table(src):
    with open(os.path.join(src, "docs", "outputs.md")) as f:
        text = f.read()
    m = re.search(r"<!-- severity table[^>]*-->\n\|[^\n]*\n\|[-|]*\n((?:\|[^\n]*\n)+)", text)
    if not m:
        fail("docs/outputs.md has no severity table")
        return []
    rows = []
    for line in m.group(1).splitlines():
        cells = [c.strip().strip("`") for c in line.strip("|").split("|")]
        v, o, w, r, s, g, j = cells
        rows.append(dict(verdict=v, outcome=o, when=w, rule=r, sev="" if s == "none" else s,
                         gitlab=g, junit=j))
    return rows


def check_table(rows):
    sev_of = {}
    for r in rows:
        where = f"severity.def: {r}"
        if r["rule"] in sev_of and sev_of[r["rule"]] != r["sev"]:
            fail(f"{where}: rule {r['rule']} has two security-severities")
        sev_of[r["rule"]] = r["sev"]
        if r["gitlab"] not in GITLAB:
            fail(f"{where}: {r['gitlab']} is not GitLab's")
        if r["verdict"] == "regression":
            if r["outcome"] == "HARNESS_ERROR":
                if r["sev"] or GITLAB.index(r["gitlab"]) > GITLAB.index("major") \
                        or r["junit"] != "error":
                    fail(f"{where}: a harness error is a failure of the run (JUnit error, no "
                         "security-severity, GitLab at most major)")
            elif not r["sev"] or float(r["sev"]) < 7.0 \
                    or GITLAB.index(r["gitlab"]) < GITLAB.index("major") or r["junit"] != "failure":
                fail(f"{where}: a cell the gate fails is below GitHub high / GitLab major")
            if r["when"] == "cfi_block_lost" and (float(r["sev"] or 0) <= 9.0
                                                   or r["gitlab"] != "critical"):
                fail(f"{where}: a lost CFI block is not critical")
        elif r["verdict"] == "new":
            if r["junit"] != "none":
                fail(f"{where}: a new cell fails JUnit, though the gate passes it")
        else:
            fail(f"{where}: verdict {r['verdict']}")
    if not any(r["when"] == "cfi_block_lost" for r in rows):
        fail("severity.def has no row for a lost CFI block")
    # The last regression row takes any outcome: every regression is ranked.
    reg = [r for r in rows if r["verdict"] == "regression"]
    if not reg or reg[-1]["outcome"] != "any" or reg[-1]["when"] != "any":
        fail("severity.def ranks not every regression (no last 'any, any' row)")
    return sev_of


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=dict(os.environ, NO_COLOR="1"))


def render(th, path, fmt):
    r = run([th, "report", "--results", path, "--format", fmt])
    if r.returncode:
        fail(f"report --format {fmt} of {path}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def find(d, **kw):
    for c in d["cells"]:
        if all(c.get(k) == v for k, v in kw.items()):
            return c
    raise SystemExit(f"severity.py: no cell {kw} in gate.json")


def doctor(c, outcome):
    c.update(outcome=outcome, runs=0 if outcome == "HARNESS_ERROR" else 1,
             counts={} if outcome == "HARNESS_ERROR" else {outcome: 1},
             evidence=f"doctored by tests/severity.py: {outcome}")
    c["verdict"] = "regression"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--th", required=True)
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    rows = table(a.source)
    if len(rows) < 6:
        fail(f"report/severity.def: {len(rows)} rows read")
    sev_of = check_table(rows)
    docs = doc_table(a.source)
    if docs != rows:
        for i in range(max(len(docs), len(rows))):
            d = docs[i] if i < len(docs) else None
            t = rows[i] if i < len(rows) else None
            if d != t:
                fail(f"docs/outputs.md's severity row {i + 1} is {d}, report/severity.def's {t}")

    with open(os.path.join(a.source, "tests", "data", "report", "gate.json")) as f:
        clean = json.load(f)
    d = copy.deepcopy(clean)
    # (cell, the row it must take)
    cases = []
    for sel, outcome, rule in (
            (dict(config="kcfi", expected="BLOCKED_CFI"), "CRASHED", "CFI_BLOCK_LOST"),
            (dict(config="cfi-icall", expected="BLOCKED_CFI"), "TIMER_LOST", "CFI_BLOCK_LOST"),
            (dict(config="none", expected="NO_EFFECT", variant="legacy"), "HANG", "REGRESSION"),
            (dict(config="none", expected="REDIRECTED"), "HIJACKED", "HIJACKED"),
            (dict(config="none", expected="NO_EFFECT", variant="modern"), "HARNESS_ERROR",
             "HARNESS_ERROR")):
        c = find(d, outcome=sel["expected"], **sel)
        doctor(c, outcome)
        cases.append((c, rule))
    by_rule = {r["rule"]: r for r in rows if r["verdict"] == "regression"}
    with tempfile.TemporaryDirectory() as tmp:
        cpath, dpath = os.path.join(tmp, "clean.json"), os.path.join(tmp, "doctored.json")
        for p, doc in ((cpath, clean), (dpath, d)):
            with open(p, "w") as f:
                json.dump(doc, f)
        # The run that passes: no finding anywhere.
        if json.loads(render(a.th, cpath, "sarif"))["runs"][0]["results"]:
            fail("the passing run has SARIF results")
        if json.loads(render(a.th, cpath, "codequality")):
            fail("the passing run has Code Quality issues")
        if "Failing the gate" in render(a.th, cpath, "verdict"):
            fail("the passing run's verdict says something fails the gate")

        sarif = json.loads(render(a.th, dpath, "sarif"))["runs"][0]
        rules = {r["id"]: r for r in sarif["tool"]["driver"]["rules"]}
        for rid, sev in sev_of.items():
            if rid not in rules:
                fail(f"SARIF has no rule {rid} of the table")
            elif rules[rid].get("properties", {}).get("security-severity", "") != sev:
                fail(f"SARIF rule {rid}: security-severity "
                     f"{rules[rid].get('properties', {}).get('security-severity')!r}, the table's "
                     f"{sev!r}")
        if sarif["invocations"][0]["executionSuccessful"]:
            fail("SARIF: a run with a harness error is a successful execution")
        cq = json.loads(render(a.th, dpath, "codequality"))
        junit = ET.fromstring(render(a.th, dpath, "junit"))
        verdict = render(a.th, dpath, "verdict")
        for c, rule in cases:
            row = by_rule[rule]
            key = f"{c['attack']}/{c['variant']}/{c['config']}"
            what = f"{key} on {c['toolchain']} {c['expected']} -> {c['outcome']}"
            res = [r for r in sarif["results"]
                   if r["partialFingerprints"]["timerharnessCell/v2"] == key]
            if len(res) != 1 or res[0]["ruleId"] != rule or res[0]["level"] != "error":
                fail(f"{what}: SARIF results {[(r['ruleId'], r['level']) for r in res]}, want "
                     f"one {rule} error")
            elif rule != "HARNESS_ERROR":
                sev = float(rules[rule]["properties"]["security-severity"])
                if sev < 7.0 or (rule == "CFI_BLOCK_LOST" and sev <= 9.0):
                    fail(f"{what}: GitHub security-severity {sev}")
            elif "security-severity" in rules[rule].get("properties", {}):
                fail(f"{what}: a harness error is a security alert")
            iss = [i for i in cq if re.match(rf"{c['attack']} (\S+/)?{c['variant']}/"
                                             rf"{c['config']} on ", i["description"])]
            if len(iss) != 1 or iss[0]["check_name"] != rule or iss[0]["severity"] != row["gitlab"]:
                fail(f"{what}: Code Quality {[(i['check_name'], i['severity']) for i in iss]}, "
                     f"want {rule} {row['gitlab']}")
            cls = re.compile(rf"timerharness\.{re.escape(c['toolchain'])}\.([\w-]+\.)?"
                             rf"{c['variant']}\.{re.escape(c['config'])}")
            tc = [t for t in junit.iter("testcase") if t.get("name") == c["attack"] and
                  cls.fullmatch(t.get("classname", ""))]
            el = tc[0].find(row["junit"]) if tc else None
            if el is None or f"severity: {rule}" not in el.get("message", ""):
                fail(f"{what}: JUnit has no <{row['junit']}> naming {rule}: "
                     f"{ET.tostring(tc[0]).decode()[:300] if tc else 'no testcase'}")
        gate = re.sub(r"\n\s+", " ", verdict.split("Failing the gate:")[1].split("\nOutcomes")[0]) \
            if "Failing the gate:" in verdict else ""
        for rule, n in (("CFI_BLOCK_LOST", 2), ("HIJACKED", 1), ("REGRESSION", 1),
                        ("HARNESS_ERROR", 1)):
            gh = {"9.5": "critical", "9.3": "critical"}.get(by_rule[rule]["sev"], "high") \
                if by_rule[rule]["sev"] else "not a security finding"
            if not re.search(rf"\b{rule} {n} \({gh}", gate):
                fail(f"the verdict's gate line does not say {rule} {n} ({gh}...): {gate!r}")
        for line in verdict.splitlines():
            if len(line) > 80:
                fail(f"the verdict has a line of {len(line)} columns: {line}")
    print(f"severity: {len(rows)} rows, docs agree, {len(cases)} doctored cells ranked by the "
          "table in SARIF, Code Quality, JUnit and the verdict")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
