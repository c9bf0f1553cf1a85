#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The fuzz.json fixtures of tests/fuzz_campaign.cmake (schema timerharness/fuzz/v1,
results/fuzz_summary.h), the build they name (build/<toolchain>/fuzz-manifest.tsv,
as fuzz/overflow.cmake writes it) and the reproducers they record
(fuzz/<run>/...). Run from this directory: python3 make_fixtures.py

good.json is a whole run on a build of clang-22 and clang-14 (the plan of
fuzz/campaigns.tsv on both); demo.json the slice `make demo` runs. Every other
file is one of them doctored, or broken: tests/fuzz_campaign.cmake says what
check must answer for each (exit status and message)."""
import copy
import glob
import hashlib
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)

VARIANTS = ["legacy", "transitional", "modern"]
# fuzz/campaigns.tsv's campaign row (fuzz/overflow.cmake's TH_FUZZ_OVERFLOW_CONFIGS).
CONFIGS = ["none", "cfi-icall", "cfi-icall-generalized", "kcfi", "fsanitize-function", "asan",
           "bounds", "fortify", "defence-in-depth"]
TOOLCHAINS = ["clang-22", "clang-14"]
KCFI_14 = "clang 14 < 16 required by kcfi"
RUN = "fuzz/20250101T000000Z-1"
BUDGET = 10.0

# ---- the build --------------------------------------------------------------
shutil.rmtree("build", ignore_errors=True)
for tc in TOOLCHAINS:
    os.makedirs(f"build/{tc}")
    with open(f"build/{tc}/fuzz-manifest.tsv", "w") as f:
        f.write("# timerharness fuzz manifest: target toolchain variant config path status reason engine\n")
        for c in CONFIGS:
            for v in VARIANTS:
                bad = tc == "clang-14" and c == "kcfi"
                f.write(f"overflow\t{tc}\t{v}\t{c}\t/nonexistent/{tc}/th-fuzz-overflow-{v}-{c}\t"
                        f"{'unsupported' if bad else 'built'}\t{KCFI_14 if bad else '-'}\tlibfuzzer\n")

# ---- reproducers --------------------------------------------------------------
shutil.rmtree("fuzz", ignore_errors=True)


def reproducer(run, tc, v, c, sig, data=None, target="overflow"):
    """The file the writer keeps, and its path and hash as fuzz.json records them
    (another family's target's folder is named <target>-<variant>-<config>)."""
    name = sig.replace(":", "-")
    folder = f"{v}-{c}" if target == "overflow" else f"{target}-{v}-{c}"
    rel = f"{run}/{tc}/{folder}/findings/{name}.bin"
    data = data if data is not None else f"{tc} {v} {c} {sig}\n".encode()
    if run == RUN:
        os.makedirs(os.path.dirname(rel), exist_ok=True)
        with open(rel, "wb") as f:
            f.write(data)
    return rel, hashlib.sha256(data).hexdigest()


CHAINS = {
    "WRITE_CR4_VIA_RING_TIMER":
        "legacy: memcpy-intra 56 B at ring+0 (name) [ring+40 (function) = &write_cr4; bytes ..]; "
        "victim arms the timer; run the wheel | ran: write_cr4(0x407f0), the argument is the "
        "attacker's own bytes | through the ring's own retire_blk_timer (.function at ring+40 (function))",
    "CRED_VIA_LIST":
        "modern: arm (mod_timer = 0); index-intra 14 B at ring+16 (entry.next) [ring+16 (entry.next) = "
        "current_cred+4] | privileged state changed: uid 1000 -> 0 | through the wheel's list code "
        "(__hlist_del/hlist_add) writing through planted entry pointers",
    "WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE":
        "legacy: arm (mod_timer = 0); memcpy-intra 56 B at ring+0 (name) [ring+16 (entry.next) = "
        "current_cred+4, ring+40 (function) = &write_cr4; bytes ..] | ran: write_cr4(0x407f0), the "
        "argument is the attacker's own bytes | privileged state changed: uid 1000 -> 0 | ...",
    "WRITE_CR4_407F0_VIA_NEIGHBOUR_TASKLET":
        "transitional: tasklet-memcpy-intra 56 B at neighbour+0 (name) [neighbour+40 "
        "(tasklet.func/callback) = &write_cr4; bytes ..]; victim schedules its tasklet; run the "
        "tasklet softirq | ran: write_cr4(0x407f0), the argument is the attacker's own bytes",
    "WRITE_CR4_VIA_NEIGHBOUR_TASKLET":
        "modern: tasklet-memcpy-intra 48 B at neighbour+0 (name) [neighbour+40 (tasklet.callback) = "
        "&write_cr4; bytes ..] | ran: write_cr4(0x407f1)",
    "FORCE_CLOSE_VIA_NEIGHBOUR_TASKLET":
        "modern: tasklet-memcpy-intra 48 B at neighbour+0 (name) [neighbour+40 (tasklet.callback) = "
        "&tasklet_force_close; bytes ..] | ran: tasklet_force_close(0x...), an argument the attacker "
        "did not write",
    "WRITE_CR4_VIA_FORGED_TIMER":
        "legacy: memcpy-intra 34 B at ring+0 (name) [entry.next = ring-24] | ran: write_cr4(0x407f0) "
        "| through a forged timer_list",
}


# legacy/cfi-icall's finding: the hijack, and the list's write the require
# rule asks for, in one chain.
CR4_THEN_LIST = "WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE"


def finding(tc, v, c, sig, first_seconds=0.5, first_executions=50, run=RUN, target="overflow"):
    outcome, chain_id = sig.split(":")
    rel, h = reproducer(run, tc, v, c, sig, target=target)
    return {"sig": sig, "outcome": outcome, "chain_id": chain_id, "first_seconds": first_seconds,
            "first_executions": first_executions, "reproducer": rel, "sha256": h,
            "replayed": outcome, "reproduced": True, "chain": CHAINS[chain_id]}


def campaign(tc, v, c, findings=(), status="ran", reason="", seconds=10.2, executions=500000,
             target="overflow", **kw):
    """A campaign as the writer makes it: outcomes sum to executions, first_hijack
    exactly when HIJACKED runs were counted, each finding counted under its outcome.
    500000 executions in 9.7 CPU seconds: about 52k a CPU second, the rate of a real
    campaign of the target (check refuses one below 1000)."""
    findings = list(findings)
    # Another family's campaign names it (a file without "api" is the timer's).
    fam = {} if target == "overflow" else {"api": target}
    if status != "ran":
        d = {"target": target, **fam, "variant": v, "config": c, "toolchain": tc, "engine": "libfuzzer",
             "status": status, "reason": reason, "options": "", "seconds": 0.0, "cpu_seconds": 0.0,
             "executions": 0, "exec_per_second": 0.0, "restarts": 0,
             "coverage": {"edges": 0, "features": 0, "corpus": 0}, "first_hijack": None,
             "goal_reached": None, "outcomes": {}, "rechecked": 0, "disagreements": 0,
             "findings": findings}
        d.update(kw)
        return d
    outcomes = {}
    for f in findings:
        outcomes[f["outcome"]] = outcomes.get(f["outcome"], 0) + 10
    blocks = 90 if "cfi" in c else 0
    if blocks:
        outcomes["BLOCKED_CFI"] = blocks
    outcomes["NO_EFFECT"] = executions - sum(outcomes.values())
    d = {"target": target, **fam, "variant": v, "config": c, "toolchain": tc, "engine": "libfuzzer",
         "status": "ran", "reason": "", "options": "", "seconds": seconds, "cpu_seconds": seconds - 0.5,
         "executions": executions, "exec_per_second": executions / seconds, "restarts": 1 + len(findings),
         "coverage": {"edges": 200, "features": 800, "corpus": 100},
         "first_hijack": {"seconds": 0.5, "executions": 50} if "HIJACKED" in outcomes else None,
         "goal_reached": None, "outcomes": outcomes, "rechecked": len(findings), "disagreements": 0,
         "findings": findings}
    d.update(kw)
    return d


def plan_campaigns(toolchains=TOOLCHAINS, configs=CONFIGS):
    """Every campaign of the plan, with the findings each must have: the 4.14 hijack
    on legacy under none and cfi-icall, with the list's write into the cred under
    cfi-icall (fuzz/expected.tsv's require rule), a declared privileged write on
    modern/cfi-icall."""
    out = []
    for tc in toolchains:
        for c in configs:
            for v in VARIANTS:
                if tc == "clang-14" and c == "kcfi":
                    out.append(campaign(tc, v, c, status="unsupported", reason=KCFI_14))
                elif v == "legacy" and c == "cfi-icall":
                    out.append(campaign(tc, v, c, [finding(tc, v, c, "HIJACKED:" + CR4_THEN_LIST)]))
                elif v == "legacy" and c == "none":
                    out.append(campaign(tc, v, c, [finding(tc, v, c, "HIJACKED:WRITE_CR4_VIA_RING_TIMER")]))
                elif v == "modern" and c == "cfi-icall" and tc == "clang-22":
                    out.append(campaign(tc, v, c, [finding(tc, v, c, "PRIVILEGED_WRITE:CRED_VIA_LIST", 2.0, 200)]))
                else:
                    out.append(campaign(tc, v, c))
    return out


TOP = {"schema": "timerharness/fuzz/v1", "version": "0.1.0", "created": "2025-01-01T00:00:00Z",
       "partial": False, "interrupted": None, "host": {"hostname": "h", "kernel": "6.1", "cpus": 2},
       "budget_seconds": BUDGET, "goal": "write_cr4(0x407f0)",
       "selection": {"targets": None, "variants": None, "configs": None, "toolchains": None},
       "run": RUN, "campaigns": []}


def doc(cs, **kw):
    d = copy.deepcopy(TOP)
    d["campaigns"] = copy.deepcopy(cs)
    d.update(kw)
    return d


def write(name, d, raw=None):
    """One campaign a line: the files stay readable and their diffs small."""
    with open(name, "w") as f:
        if raw is not None:
            f.write(raw)
            return
        f.write("{\n")
        keys = list(d)
        for i, k in enumerate(keys):
            end = ",\n" if i + 1 < len(keys) else "\n"
            if k == "campaigns" and isinstance(d[k], list):
                f.write('  "campaigns": [\n')
                for j, c in enumerate(d[k]):
                    f.write("    " + json.dumps(c) + (",\n" if j + 1 < len(d[k]) else "\n"))
                f.write("  ]" + end)
            else:
                f.write(f"  {json.dumps(k)}: {json.dumps(d[k])}" + end)
        f.write("}\n")


def find(d, v, c, tc="clang-22"):
    for x in d["campaigns"]:
        if (x["variant"], x["config"], x["toolchain"]) == (v, c, tc):
            return x
    raise KeyError((v, c, tc))


for old in glob.glob("*.json"):
    os.remove(old)

good = doc(plan_campaigns())
write("good.json", good)

# The slice make demo runs: the newest toolchain, the type-based CFI configs and none.
DEMO_CONFIGS = ["none", "cfi-icall", "cfi-icall-generalized", "kcfi"]
demo = doc(plan_campaigns(["clang-22"], DEMO_CONFIGS),
           selection={"targets": None, "variants": None, "configs": ",".join(DEMO_CONFIGS),
                      "toolchains": "clang-22"})
write("demo.json", demo)
# The same slice, planned by its run (fuzz --slice): passes without
# --fuzz-allow-slice; one of its campaigns gone is missing all the same;
# "planned" is a boolean.
d = copy.deepcopy(demo); d["selection"]["planned"] = True; write("demo_planned.json", d)
d = copy.deepcopy(d); d["campaigns"] = [c for c in d["campaigns"]
                                        if (c["variant"], c["config"]) != ("legacy", "kcfi")]
write("demo_planned_short.json", d)
d = copy.deepcopy(demo); d["selection"]["planned"] = "yes"; write("planned_not_bool.json", d)

# ---- regressions and harness errors (exit 1, 3) --------------------------------
d = copy.deepcopy(demo)
find(d, "modern", "cfi-icall")["findings"] = [
    finding("clang-22", "modern", "cfi-icall", "HIJACKED:WRITE_CR4_VIA_FORGED_TIMER")]
x = find(d, "modern", "cfi-icall")
x.update(campaign("clang-22", "modern", "cfi-icall", x["findings"]))
write("modern_hijack.json", d)
# ... and hidden by deleting its campaign: the plan misses it.
d["campaigns"].remove(find(d, "modern", "cfi-icall"))
write("regression_hidden.json", d)

d = copy.deepcopy(demo)
x = find(d, "legacy", "cfi-icall")
x.update(campaign("clang-22", "legacy", "cfi-icall"))
write("legacy_no_hijack.json", d)

# 10 of the 12 campaigns of the slice deleted; all but 2 of the whole run's.
d = copy.deepcopy(demo)
d["campaigns"] = [find(d, "legacy", "none"), find(d, "legacy", "cfi-icall")]
write("ten_deleted.json", d)
d = copy.deepcopy(good)
d["campaigns"] = [find(d, "legacy", "none"), find(d, "legacy", "cfi-icall")]
write("whole_run_shrunk.json", d)
# A slice that says it is the whole run.
write("selection_erased.json", doc(demo["campaigns"]))

write("partial.json", doc(demo["campaigns"], partial=True, interrupted="SIGINT"))

# Required campaigns recorded unsupported: legacy/none; the three modern CFI ones.
d = copy.deepcopy(good)
x = find(d, "legacy", "none")
x.clear()
x.update(campaign("clang-22", "legacy", "none", status="unsupported",
                  reason="clang: error: unsupported argument 'none'"))
write("unsupported_legacy_none.json", d)
d = copy.deepcopy(good)
for c in ("cfi-icall", "cfi-icall-generalized", "kcfi"):
    x = find(d, "modern", c)
    x.clear()
    x.update(campaign("clang-22", "modern", c, status="unsupported", reason="not today"))
write("unsupported_modern.json", d)

# Campaigns that "ran" 0 executions; one with a made-up required finding.
d = copy.deepcopy(good)
for c in ("cfi-icall-generalized", "kcfi"):
    x = find(d, "modern", c)
    x.update(executions=0, exec_per_second=0.0, outcomes={}, first_hijack=None)
write("zero_executions.json", d)
d = copy.deepcopy(good)
x = find(d, "legacy", "cfi-icall")
x.update(executions=0, exec_per_second=0.0, outcomes={}, first_hijack=None)
x["findings"][0].update(first_executions=0, reproduced=False)
write("zero_executions_finding.json", d)
d = copy.deepcopy(good)
x = find(d, "legacy", "cfi-icall")
x.update(executions=0, exec_per_second=0.0, outcomes={}, first_hijack=None)
write("zero_executions_reported_finding.json", d)

# A search cut short in a whole summary.
d = copy.deepcopy(good)
x = find(d, "modern", "kcfi")
x.update(seconds=2.0, exec_per_second=250000.0, cpu_seconds=1.5)
write("budget_short.json", d)

# A regression inside a failed campaign; inside one with a HARNESS_ERROR run.
d = copy.deepcopy(good)
x = find(d, "modern", "kcfi")
x["findings"] = [finding("clang-22", "modern", "kcfi", "HIJACKED:WRITE_CR4_VIA_FORGED_TIMER")]
x.update(campaign("clang-22", "modern", "kcfi", x["findings"]))
x.update(status="failed", reason="the engine could not be started")
write("failed_regression.json", d)
d = copy.deepcopy(good)
x = find(d, "modern", "kcfi")
x["findings"] = [finding("clang-22", "modern", "kcfi", "HIJACKED:WRITE_CR4_VIA_FORGED_TIMER")]
x.update(campaign("clang-22", "modern", "kcfi", x["findings"]))
x["outcomes"]["HARNESS_ERROR"] = 1
x["outcomes"]["NO_EFFECT"] -= 1
write("harness_error_regression.json", d)
d = copy.deepcopy(good)
x = find(d, "legacy", "cfi-icall")
x["outcomes"]["HARNESS_ERROR"] = 1
x["outcomes"]["NO_EFFECT"] -= 1
write("harness_error.json", d)
d = copy.deepcopy(good)
x = find(d, "modern", "kcfi")
x.update(status="failed", reason="the engine could not be started")
write("failed.json", d)

# ---- doctored or foreign: exit 2 ------------------------------------------------
# An unknown config; an unbuilt toolchain; a campaign the build cannot build
# that says it ran; one outside the run's own selection.
d = copy.deepcopy(good)
d["campaigns"].append(campaign("clang-22", "legacy", "nope"))
write("unknown_config.json", d)
d = copy.deepcopy(good)
d["campaigns"].append(campaign("clang-99", "legacy", "cfi-icall"))
write("unbuilt_toolchain.json", d)
d = copy.deepcopy(good)
x = find(d, "modern", "kcfi", "clang-14")
x.update(campaign("clang-14", "modern", "kcfi"))
write("ran_unbuildable.json", d)
d = copy.deepcopy(demo)
d["campaigns"].append(campaign("clang-22", "legacy", "asan"))
write("outside_selection.json", d)

# A finding inside an unsupported campaign (a regression, were it judged).
d = copy.deepcopy(good)
x = find(d, "modern", "kcfi", "clang-14")
x["findings"] = [finding("clang-14", "modern", "kcfi", "HIJACKED:WRITE_CR4_VIA_FORGED_TIMER")]
write("unsupported_finding.json", d)

# Every field the writer makes, held to it.
d = copy.deepcopy(good)
f = find(d, "modern", "cfi-icall")["findings"][0]
f["replayed"] = "HIJACKED"
write("replayed_mismatch.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "cfi-icall")["first_hijack"] = {"seconds": 0.5, "executions": 5000000}
write("first_hijack_beyond.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "cfi-icall")["findings"][0]["first_executions"] = 5000000
write("finding_beyond.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "cfi-icall")["findings"][0]["first_seconds"] = 99.0
write("finding_too_late.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "cfi-icall")["first_hijack"] = None
write("hijacks_without_first.json", d)
d = copy.deepcopy(good)
find(d, "modern", "cfi-icall")["first_hijack"] = {"seconds": 0.5, "executions": 50}
write("first_without_hijacks.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "cfi-icall")["rechecked"] = 0
write("findings_beyond_rechecked.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "fortify")["restarts"] = 0
write("ran_not_started.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "fortify")["exec_per_second"] = 1e6
write("rate_mismatch.json", d)
d = copy.deepcopy(good)
x = find(d, "modern", "fortify")
x["outcomes"] = {"NO_EFFECT": 500000}
x["findings"] = [finding("clang-22", "modern", "fortify", "PRIVILEGED_WRITE:CRED_VIA_LIST")]
x["rechecked"] = 1
write("reported_not_counted.json", d)

# A regression hidden by deleting the finding (its runs still counted).
d = copy.deepcopy(good)
x = find(d, "modern", "kcfi")
x.update(campaign("clang-22", "modern", "kcfi", [finding("clang-22", "modern", "kcfi",
                                                          "HIJACKED:WRITE_CR4_VIA_FORGED_TIMER")]))
x["findings"] = []
write("finding_removed.json", d)

# Reproducers: gone (the run dir reset), replaced, elsewhere, a link.
d = copy.deepcopy(good)
d["run"] = "fuzz/20250101T000000Z-2"
for x in d["campaigns"]:
    for f in x["findings"]:
        f["reproducer"] = f["reproducer"].replace(RUN, d["run"])
write("reproducer_missing.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "cfi-icall")["findings"][0]["sha256"] = "0" * 64
write("reproducer_mismatch.json", d)
d = copy.deepcopy(good)
find(d, "legacy", "cfi-icall")["findings"][0]["reproducer"] = \
    find(d, "legacy", "none")["findings"][0]["reproducer"]
write("reproducer_elsewhere.json", d)
d = copy.deepcopy(good)
d["run"] = "fuzz/20250101T000000Z-3"
shutil.copytree(RUN, d["run"], symlinks=True)
for x in d["campaigns"]:
    for f in x["findings"]:
        f["reproducer"] = f["reproducer"].replace(RUN, d["run"])
f = find(d, "legacy", "cfi-icall", "clang-14")["findings"][0]
target = find(d, "legacy", "none", "clang-14")["findings"][0]
os.remove(f["reproducer"])
os.symlink(os.path.relpath(target["reproducer"], os.path.dirname(f["reproducer"])), f["reproducer"])
f["sha256"] = target["sha256"]
write("reproducer_symlink.json", d)

# ---- bad input the loader refuses (exit 2) ------------------------------------
write("not_json.json", None, "{ this is not json\n")
write("empty.json", None, "")
write("wrong_schema.json", dict(good, schema="timerharness/results/v1"))
d = copy.deepcopy(good); d["campaigns"][0]["surprise"] = 1; write("unknown_field.json", d)
d = copy.deepcopy(good); d["campaigns"][0]["executions"] = 5; write("counts_mismatch.json", d)
d = copy.deepcopy(good)
d["campaigns"][0]["outcomes"] = {"HIJACKED": 2**63 - 1, "NO_EFFECT": 2**63 - 1, "CRASHED": 1002}
write("counts_overflow.json", d)
d = copy.deepcopy(good); find(d, "legacy", "cfi-icall")["findings"][0]["outcome"] = "BLOCKED_CFI"
write("finding_not_a_finding.json", d)
d = copy.deepcopy(good); find(d, "legacy", "cfi-icall")["findings"][0]["sig"] = "HIJACKED:SOMETHING_ELSE"
write("sig_mismatch.json", d)
d = copy.deepcopy(good); d["campaigns"].append(copy.deepcopy(find(d, "legacy", "cfi-icall")))
write("duplicate_campaign.json", d)
d = copy.deepcopy(good); find(d, "legacy", "cfi-icall")["findings"][0]["reproducer"] = "/etc/passwd"
write("absolute_reproducer.json", d)
d = copy.deepcopy(good); d["campaigns"][0]["variant"] = "ancient"; write("unknown_variant.json", d)
d = copy.deepcopy(good); d["campaigns"][0]["outcomes"]["PWNED"] = 0; write("unknown_outcome.json", d)
d = copy.deepcopy(good); del find(d, "legacy", "cfi-icall")["findings"][0]["sha256"]
write("no_sha256.json", d)
d = copy.deepcopy(good); del d["run"]; write("no_run.json", d)
d = copy.deepcopy(good); d["run"] = "../../etc"; write("bad_run.json", d)
d = copy.deepcopy(good); del d["selection"]; write("no_selection.json", d)
write("no_campaign_ran.json", doc([campaign("clang-14", "modern", "kcfi", status="unsupported",
                                            reason=KCFI_14)]))
# A plan that leaves out what the build builds, for fuzz.plan.build.
with open("plan_short.tsv", "w") as f:
    f.write("# fewer configs than the build: fuzz.plan.build must say so\n"
            "campaign\toverflow\tlegacy,transitional,modern\tnone,cfi-icall\t*\tthe two\n")

# ---- chains of several steps (issue 15, item 5) ---------------------------------
# Each step is judged by its own rule at its own outcome; a target that ran
# never hides behind another step's rule (fuzz/overflow_oracle.h, gate.md).
STEP_CHAIN = ("legacy: ... | ran: ring_force_close(0x5600), an argument the attacker did not write; "
              "then write_cr4(0x407f0), the argument is the attacker's own bytes | ...")


def step_finding(v, c, sig, tc="clang-22"):
    outcome, chain_id = sig.split(":", 1)
    rel, h = reproducer(RUN, tc, v, c, sig)
    return {"sig": sig, "outcome": outcome, "chain_id": chain_id, "first_seconds": 0.5,
            "first_executions": 50, "reproducer": rel, "sha256": h, "replayed": outcome,
            "reproduced": True, "chain": STEP_CHAIN}


def with_findings(d, v, c, findings):
    x = find(d, v, c)
    x.update(campaign("clang-22", v, c, findings))


d = copy.deepcopy(demo)
with_findings(d, "legacy", "cfi-icall", find(d, "legacy", "cfi-icall")["findings"] + [step_finding(
    "legacy", "cfi-icall",
    "HIJACKED:FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_WRITE_CR4_407F0_VIA_FORGED_TIMER_HIJACKED")])
with_findings(d, "modern", "cfi-icall", find(d, "modern", "cfi-icall")["findings"] + [
    step_finding("modern", "cfi-icall", "REDIRECTED:FORCE_CLOSE_VIA_RING_TIMER"),
    step_finding("modern", "cfi-icall",
                 "PRIVILEGED_WRITE:FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE")])
write("steps_declared.json", d)
# write_cr4 ran on 4.15 under CFI: a bypass, behind a declared data-only step.
d = copy.deepcopy(demo)
with_findings(d, "modern", "cfi-icall", [step_finding(
    "modern", "cfi-icall",
    "PRIVILEGED_WRITE:WRITE_CR4_VIA_RING_TIMER_PRIVILEGED_WRITE_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE")])
write("steps_hidden.json", d)
# commit_creds hijacked on 4.15 without CFI (declared at most
# REDIRECTED: it acts on the interrupted task, never the attacker's), beside a
# declared hijack through another subsystem's callback (process_timeout).
d = copy.deepcopy(demo)
with_findings(d, "modern", "none", [step_finding(
    "modern", "none",
    "HIJACKED:COMMIT_CREDS_VIA_RING_TIMER_HIJACKED_THEN_PROCESS_TIMEOUT_VIA_RING_TIMER_HIJACKED")])
write("steps_too_severe.json", d)
# More steps than the oracle names: declared by no rule.
d = copy.deepcopy(demo)
with_findings(d, "legacy", "cfi-icall", find(d, "legacy", "cfi-icall")["findings"] + [step_finding(
    "legacy", "cfi-icall", "HIJACKED:WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_MORE")])
write("steps_more.json", d)
# The requirement (the list's write into the cred on 4.14 under cfi-icall)
# is a step's own: a chain more severe than it, HIJACKED, without that step
# does not meet it.
d = copy.deepcopy(demo)
with_findings(d, "legacy", "cfi-icall", [step_finding(
    "legacy", "cfi-icall",
    "HIJACKED:WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_PROCESS_TIMEOUT_VIA_RING_TIMER_HIJACKED")])
write("steps_require.json", d)

# ---- the tasklet family's campaigns (target tasklet, issue 28) -------------------
# Their own build (build-tasklet/clang-22: the overflow target's builds and the
# tasklet's, none, cfi-icall and kcfi, as fuzz/overflow.cmake writes them); a
# slice of the plan, its run's own (fuzz --slice --target tasklet): the nine
# campaigns, judged by fuzz/tasklet/expected.tsv.
TASKLET_CONFIGS = ["none", "cfi-icall", "kcfi"]
shutil.rmtree("build-tasklet", ignore_errors=True)
os.makedirs("build-tasklet/clang-22")
with open("build-tasklet/clang-22/fuzz-manifest.tsv", "w") as f:
    f.write("# timerharness fuzz manifest: target toolchain variant config path status reason engine\n")
    for target, configs in (("overflow", CONFIGS), ("tasklet", TASKLET_CONFIGS)):
        for c in configs:
            for v in VARIANTS:
                f.write(f"{target}\tclang-22\t{v}\t{c}\t/nonexistent/clang-22/th-fuzz-{target}-{v}-{c}\t"
                        "built\t-\tlibfuzzer\n")


def tasklet_campaigns(modern_hijack=False):
    """The downgrade on transitional under cfi-icall (write_cr4(0x407f0) through
    func(data)), tasklet_force_close redirected on modern under kcfi; with
    modern_hijack, write_cr4 HIJACKED through modern's own call under
    cfi-icall, which no rule declares."""
    out = []
    for c in TASKLET_CONFIGS:
        for v in VARIANTS:
            fs = []
            if (v, c) == ("transitional", "cfi-icall"):
                fs = ["HIJACKED:WRITE_CR4_407F0_VIA_NEIGHBOUR_TASKLET"]
            elif (v, c) == ("modern", "kcfi"):
                fs = ["REDIRECTED:FORCE_CLOSE_VIA_NEIGHBOUR_TASKLET"]
            elif (v, c) == ("modern", "cfi-icall") and modern_hijack:
                fs = ["HIJACKED:WRITE_CR4_VIA_NEIGHBOUR_TASKLET"]
            out.append(campaign("clang-22", v, c, [finding("clang-22", v, c, sig, target="tasklet")
                                                   for sig in fs], target="tasklet"))
    return out


TASKLET_SELECTION = {"targets": "tasklet", "variants": None, "configs": None, "toolchains": "clang-22",
                     "planned": True}
write("tasklet_declared.json", doc(tasklet_campaigns(), selection=TASKLET_SELECTION))
write("tasklet_modern_hijack.json", doc(tasklet_campaigns(True), selection=TASKLET_SELECTION))
# A tasklet campaign without its family: read as the timer's, which target
# tasklet is not (bad input).
d = doc(tasklet_campaigns(), selection=TASKLET_SELECTION)
del d["campaigns"][0]["api"]
write("tasklet_no_api.json", d)
