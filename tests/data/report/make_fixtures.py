#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerate the report/ test fixtures (python3 make_fixtures.py).

small.json is a hand-made, valid results file (every outcome below is made up
for the tests, not measured). Every other file is a copy of it with one
change, named after that change; see README.md.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def cell(attack, technique, timing, payload, variant, config, toolchain,
         outcome, expected, evidence, verdict="pass", runs=1, counts=None):
    if counts is None:
        counts = {outcome: runs} if runs else {}
    return dict(attack=attack, technique=technique, timing=timing, payload=payload,
                variant=variant, config=config, toolchain=toolchain, outcome=outcome,
                runs=runs, counts=counts, evidence=evidence, expected=expected,
                verdict=verdict)


A_LEG = "MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4"
A_LEG_P = "MEMCPY_INTRA_PENDING_FUNC_DATA_WRITE_CR4"
A_MOD = "MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4"
A_CTL = "MEMCPY_INTRA_BEFORE_ARM_NONE"
A_HEAP = "HEAP_NEIGHBOUR_BEFORE_ARM_FUNC_WRITE_CR4"
A_IDX = "INDEX_INTRA_BEFORE_ARM_FUNC_OTHER_PROTO"
MI, BA, PE = "memcpy-intra", "before-arm", "pending"

small = {
    "schema": "timerharness/results/v1",
    "version": "0.1.0",
    "created": "2024-05-01T12:00:00Z",
    "partial": False,
    "interrupted": None,
    "host": {"hostname": "ci-runner", "kernel": "6.1.0-test", "cpus": 8},
    "toolchains": [
        {"name": "clang-14", "version": "14.0.6", "path": "/usr/bin/clang-14"},
        {"name": "clang-22", "version": "22.1.8", "path": "/usr/bin/clang-22"},
    ],
    "configs": [
        {"name": "none", "flags": "-O2", "description": "nothing else",
         "support": {"clang-14": {"supported": True, "reason": ""},
                     "clang-22": {"supported": True, "reason": ""}}},
        {"name": "cfi-icall", "flags": "-O2 -flto -fvisibility=hidden -fsanitize=cfi-icall",
         "description": "type-based CFI, trap mode",
         "support": {"clang-14": {"supported": True, "reason": ""},
                     "clang-22": {"supported": True, "reason": ""}}},
        {"name": "kcfi", "flags": "-O2 -fsanitize=kcfi", "description": "kernel CFI",
         "support": {"clang-14": {"supported": False, "reason": "probe: clang 14 has no -fsanitize=kcfi"},
                     "clang-22": {"supported": True, "reason": ""}}},
        {"name": "asan", "flags": "-O2 -fsanitize=address", "description": "AddressSanitizer",
         "support": {"clang-14": {"supported": True, "reason": ""},
                     "clang-22": {"supported": True, "reason": ""}}},
        {"name": "randstruct", "flags": "-O2 -frandomize-layout-seed=S",
         "description": "randomized victim layout, 5 seeds",
         "support": {"clang-14": {"supported": False, "reason": "probe: clang 14 ignores randomize_layout"},
                     "clang-22": {"supported": True, "reason": ""}}},
    ],
    "metrics": {"build_seconds": 12.5, "cells_total": 15, "host_note": "fixture"},
    "cells": [
        cell(A_LEG, MI, BA, "func+data:write_cr4", "legacy", "none", "clang-14", "HIJACKED",
             "HIJACKED", "write_cr4(0x407f0) ran: CR4 0x3407f0 -> 0x407f0"),
        cell(A_LEG, MI, BA, "func+data:write_cr4", "legacy", "cfi-icall", "clang-14", "HIJACKED",
             "HIJACKED", "overwrite landed: .function=write_cr4 .data=0x407f0\n"
             "write_cr4(0x407f0) ran | CR4 0x3407f0 -> 0x407f0 `SMEP|SMAP cleared`"),
        cell(A_LEG, MI, BA, "func+data:write_cr4", "legacy", "cfi-icall", "clang-22", "HIJACKED",
             "HIJACKED", "write_cr4(0x407f0) ran under cfi-icall (clang-22)"),
        cell(A_LEG_P, MI, PE, "func+data:write_cr4", "legacy", "cfi-icall", "clang-14", "HIJACKED",
             "HIJACKED", "pending timer rewritten; write_cr4(0x407f0) ran"),
        cell(A_MOD, MI, BA, "func:write_cr4", "modern", "cfi-icall", "clang-14", "BLOCKED_CFI",
             "BLOCKED_CFI", "SIGILL at 0x401234: ud2 of a cfi-icall check site"),
        cell(A_MOD, MI, BA, "func:write_cr4", "modern", "cfi-icall", "clang-22", "BLOCKED_CFI",
             "BLOCKED_CFI", "SIGILL at 0x401250: ud2 of a cfi-icall check site"),
        cell(A_MOD, MI, BA, "func:write_cr4", "modern", "kcfi", "clang-14", "UNSUPPORTED",
             "UNSUPPORTED", "probe: clang 14 has no -fsanitize=kcfi", runs=0),
        cell(A_MOD, MI, BA, "func:write_cr4", "modern", "kcfi", "clang-22", "BLOCKED_CFI",
             "BLOCKED_CFI", "SIGILL at 0x401300: kcfi type check"),
        cell(A_CTL, MI, BA, "none", "transitional", "cfi-icall", "clang-14", "FALSE_POSITIVE",
             "FALSE_POSITIVE", "legitimate callback blocked: SIGILL at 0x401400 (cfi-icall)"),
        cell(A_MOD, MI, BA, "func:write_cr4", "modern", "asan", "clang-14", "REDIRECTED",
             "REDIRECTED", "write_cr4(0x7ffd1000) ran: argument is the timer"),
        cell(A_HEAP, "heap-neighbour", BA, "func:write_cr4", "modern", "asan", "clang-14", "DETECTED",
             "DETECTED", "==1==ERROR: AddressSanitizer: heap-buffer-overflow"),
        cell(A_MOD, MI, BA, "func:write_cr4", "modern", "randstruct", "clang-22", "CRASHED",
             "CRASHED", "seed 1..5: 3 missed the field, 2 SIGSEGV", runs=5,
             counts={"CRASHED": 2, "NO_EFFECT": 3}),
        cell(A_IDX, "index-intra", BA, "func:other-proto", "modern", "cfi-icall", "clang-22",
             "BLOCKED_CFI", None, "SIGILL at 0x401500: ud2 of a cfi-icall check site",
             verdict="new"),
        cell(A_MOD, MI, BA, "func:write_cr4", "modern", "none", "clang-14", "REDIRECTED",
             "REDIRECTED", "write_cr4(0x7ffd1000) ran: argument is the timer"),
        cell(A_MOD, MI, BA, "func:write_cr4", "modern", "none", "clang-22", "CRASHED",
             "REDIRECTED", "SIGSEGV at 0x0", verdict="improvement"),
    ],
}


def find(doc, attack, variant, config, toolchain):
    for c in doc["cells"]:
        if (c["attack"], c["variant"], c["config"], c["toolchain"]) == (attack, variant, config, toolchain):
            return c
    raise KeyError(attack)


def save(name, doc):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


def variant(fn):
    d = copy.deepcopy(small)
    fn(d)
    return d


save("small.json", small)

# The CFI-blocked modern cell now says HIJACKED; counts left as they were.
save("doctored_hijacked.json", variant(lambda d: find(d, A_MOD, "modern", "cfi-icall", "clang-14")
                                       .update(outcome="HIJACKED")))


def drop_cell(d):
    d["cells"].remove(find(d, A_MOD, "modern", "cfi-icall", "clang-22"))


def partial(d):
    drop_cell(d)
    d["partial"] = True
    d["interrupted"] = "SIGINT"


save("partial.json", variant(partial))

save("wrong_schema.json", variant(lambda d: d.update(schema="timerharness/results/v0")))
save("unknown_outcome.json", variant(lambda d: d["cells"][3].update(outcome="FOO")))
save("unknown_config.json", variant(lambda d: d["cells"][4].update(config="cfi-icall-typo")))
save("unknown_toolchain.json", variant(lambda d: d["cells"][2].update(toolchain="clang-99")))
save("unknown_variant.json", variant(lambda d: d["cells"][1].update(variant="ancient")))
save("unknown_verdict.json", variant(lambda d: d["cells"][0].update(verdict="fine")))
save("missing_field.json", variant(lambda d: d["cells"][5].pop("evidence")))
save("wrong_type.json", variant(lambda d: d["cells"][6].update(runs="1")))
save("duplicate_cell.json", variant(lambda d: d["cells"].append(copy.deepcopy(d["cells"][0]))))


def markup(d):
    find(d, A_LEG, "legacy", "cfi-icall", "clang-14").update(
        evidence="<script>alert(\"x\")</script> & 'q'\nline <b>2</b> # not a directive")
    d["configs"][2]["support"]["clang-14"]["reason"] = "probe: <kcfi> & \"missing\""
    d["configs"][3]["description"] = "AddressSanitizer <asan> & co"
    d["host"]["hostname"] = "ci<runner>&\"x\""


# Markup and quotes in evidence, a probe reason, a description and the host.
save("markup.json", variant(markup))

# Not JSON: an unterminated string on line 3.
with open(os.path.join(HERE, "not_json.json"), "w") as f:
    f.write('{\n  "schema": "timerharness/results/v1",\n  "version": "0.1.0\n}\n')


# ---- the gate: gate.json is a whole plan, judged by gate-expected.tsv ------
#
# `check` judges by a declaration, not by the file: the tests declare the
# plan (these three attacks x every variant x these three configs x the
# file's toolchains) and load gate-expected.tsv. gate.json holds every cell
# of that plan and records the expectations file's SHA-256, so it passes;
# each gate_*.json changes one thing a doctored, shrunken or broken run could.
import hashlib

GATE_ATTACKS = [A_LEG, A_MOD, A_CTL]
GATE_CONFIGS = ["none", "cfi-icall", "kcfi"]
GATE_EXPECTED = """# Expectations of the gate fixtures (gate*.json), for tests/report_test.c.
SELFTEST_HANG\t*\t*\t*\tHANG\tthe runner's own time limit
*_FUNC_DATA_WRITE_CR4\tmodern\t*\t*\tNOT_APPLICABLE\tthe 4.15 timer_list has no .data
*\t*\tkcfi\tclang-14\tUNSUPPORTED\t-fsanitize=kcfi exists from clang 16
*_NONE\ttransitional\tcfi-icall,kcfi\t*\tFALSE_POSITIVE\tthe rc3 shim's legitimate call fails the type check
*_NONE\t*\t*\t*\tNO_EFFECT\tcontrol run
*_FUNC_DATA_WRITE_CR4\t*\t*\t*\tHIJACKED\twrite_cr4 has the 4.14 call site's type
*_FUNC_WRITE_CR4\tmodern\tcfi-icall,kcfi\t*\tBLOCKED_CFI\tthe 4.15 prototype is unique to timer callbacks
*\t*\t*\t*\tREDIRECTED\tthe argument stays the victim's
"""
LENIENT_EXPECTED = "# Everything is fine.\n*\t*\t*\t*\tHIJACKED\tlenient\n"


def write_text(name, text):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text)
    return hashlib.sha256(text.encode()).hexdigest()


GATE_SHA = write_text("gate-expected.tsv", GATE_EXPECTED)
LENIENT_SHA = write_text("lenient-expected.tsv", LENIENT_EXPECTED)


def gate_expect(attack, variant, config, toolchain):
    """What gate-expected.tsv declares (its first matching rule)."""
    if attack == "SELFTEST_HANG":
        return "HANG"
    if attack.endswith("_FUNC_DATA_WRITE_CR4") and variant == "modern":
        return "NOT_APPLICABLE"
    if config == "kcfi" and toolchain == "clang-14":
        return "UNSUPPORTED"
    if attack.endswith("_NONE"):
        return "FALSE_POSITIVE" if variant == "transitional" and config != "none" else "NO_EFFECT"
    if attack.endswith("_FUNC_DATA_WRITE_CR4"):
        return "HIJACKED"
    if attack.endswith("_FUNC_WRITE_CR4") and variant == "modern" and config != "none":
        return "BLOCKED_CFI"
    return "REDIRECTED"


PAYLOADS = {A_LEG: "func+data:write_cr4", A_MOD: "func:write_cr4", A_CTL: "none",
            "SELFTEST_HANG": "selftest"}


# What the classifier (cfi/classify.c) says of each outcome it proves, in
# its own words (cfi/evidence.h): check refuses a cell whose evidence is not
# its outcome's proof. The other outcomes' evidence is free text.
def proof(outcome, config):
    trap = ("SIGILL ud1 at 0x1f2a guarding call_timer_fn's call at 0x1f20 (%s), call target "
            % ("kcfi, listed in .kcfi_traps" if config == "kcfi" else "cfi-icall"))
    return {
        "HIJACKED": "target ran: name=write_cr4 chosen=1 val=0x407f0",
        "REDIRECTED": "target ran: name=ring_force_close chosen=0 data=0x4000 (a live ring)",
        "PRIVILEGED_WRITE": "privileged state changed at exit: current_cred.uid 0x3e8 -> 0x0",
        "BLOCKED_CFI": trap + "write_cr4",
        "FALSE_POSITIVE": "CFI stopped the legitimate callback: " + trap + "prb_retire_rx_blk_timer_expired",
        "DETECTED": "AddressSanitizer: use-after-poison on address 0x602000000010 (WRITE of size 8)",
        "HANG": "no exit after 10.0 s; last: TH-NOTE: run=T waiting",
        "TIMER_LOST": "finished, and call_timer_fn was never entered: the timer never fired (TH-DONE)",
    }.get(outcome)


def gate_evidence(outcome, config, toolchain):
    said = "observed %s under %s/%s" % (outcome, config, toolchain)
    p = proof(outcome, config)
    return "%s; %s" % (p, said) if p else said


def gate_cell(attack, variant, config, toolchain, expected=None):
    exp = gate_expect(attack, variant, config, toolchain) if expected is None else expected
    out = exp
    runs = 0 if out in ("UNSUPPORTED", "NOT_APPLICABLE") else 1
    timing = "-" if attack.startswith("SELFTEST") else BA
    technique = "selftest" if attack.startswith("SELFTEST") else MI
    return cell(attack, technique, timing, PAYLOADS[attack], variant, config, toolchain, out, exp,
                gate_evidence(out, config, toolchain), runs=runs)


gate = {
    "schema": "timerharness/results/v1",
    "version": "0.1.0",
    "created": "2024-06-01T12:00:00Z",
    "partial": False,
    "interrupted": None,
    "host": {"hostname": "ci-runner", "kernel": "6.1.0-test", "cpus": 2},
    "expectations": {"path": "attacks/expected.tsv", "sha256": GATE_SHA},
    "selection": {"toolchains": None, "configs": None, "variants": None, "attacks": None,
                  "selftests": False},
    "toolchains": [
        {"name": "clang-14", "version": "14.0.6", "path": "/usr/bin/clang-14"},
        {"name": "clang-22", "version": "22.1.8", "path": "/usr/bin/clang-22"},
    ],
    "configs": [
        {"name": "none", "flags": "-O2", "description": "no hardening",
         "support": {"clang-14": {"supported": True, "reason": ""},
                     "clang-22": {"supported": True, "reason": ""}}},
        {"name": "cfi-icall", "flags": "-O2 -flto -fsanitize=cfi-icall", "description": "type-based CFI",
         "support": {"clang-14": {"supported": True, "reason": "probe cfi: trapped"},
                     "clang-22": {"supported": True, "reason": "probe cfi: trapped"}}},
        {"name": "kcfi", "flags": "-O2 -fsanitize=kcfi", "description": "kernel CFI",
         "support": {"clang-14": {"supported": False, "reason": "not built: clang 14 has no kcfi"},
                     "clang-22": {"supported": True, "reason": "probe kcfi: trapped"}}},
    ],
    "metrics": {"run_seconds": 1.5},
    "cells": [gate_cell(a, v, c, t) for t in ("clang-14", "clang-22")
              for v in ("legacy", "transitional", "modern") for c in GATE_CONFIGS for a in GATE_ATTACKS],
}
save("gate.json", gate)


def gvariant(name, fn):
    d = copy.deepcopy(gate)
    fn(d)
    save(name, d)


def gfind(d, attack, variant, config, toolchain):
    return find(d, attack, variant, config, toolchain)


# A real regression (the CFI-blocked cell HIJACKED) hidden by editing its
# stored expectation: null, the observed outcome, or "could not run".
def hide(expected):
    def fn(d):
        gfind(d, A_MOD, "modern", "cfi-icall", "clang-22").update(
            outcome="HIJACKED", counts={"HIJACKED": 1}, expected=expected, verdict="pass",
            evidence=proof("HIJACKED", "cfi-icall"))
    return fn


gvariant("gate_hide_null.json", hide(None))
gvariant("gate_hide_hijacked.json", hide("HIJACKED"))
gvariant("gate_hide_unsupported.json", hide("UNSUPPORTED"))
gvariant("gate_hide_not_applicable.json", hide("NOT_APPLICABLE"))


# The run was judged by a lenient expectations file (matrix --expect).
def lenient(d):
    d["expectations"] = {"path": "lenient-expected.tsv", "sha256": LENIENT_SHA}
    for c in d["cells"]:
        c["expected"] = "HIJACKED"
    hide("HIJACKED")(d)


gvariant("gate_lenient.json", lenient)


# clang-22 lost kcfi (its probe moved away, say): every kcfi cell UNSUPPORTED.
def lost_kcfi(d):
    d["configs"][2]["support"]["clang-22"] = {"supported": False,
                                              "reason": "probe kcfi: th-probe-kcfi not built"}
    for c in d["cells"]:
        if c["config"] == "kcfi" and c["toolchain"] == "clang-22" and c["outcome"] != "NOT_APPLICABLE":
            c.update(outcome="UNSUPPORTED", runs=0, counts={}, verdict="pass",
                     evidence="probe kcfi: th-probe-kcfi not built")


gvariant("gate_lost_kcfi.json", lost_kcfi)


# One cell UNSUPPORTED and one NOT_APPLICABLE where real outcomes are declared.
def could_not_run(d):
    gfind(d, A_MOD, "modern", "kcfi", "clang-22").update(
        outcome="UNSUPPORTED", runs=0, counts={}, evidence="no binary")
    gfind(d, A_LEG, "legacy", "cfi-icall", "clang-14").update(
        outcome="NOT_APPLICABLE", runs=0, counts={}, evidence="said not applicable")


gvariant("gate_could_not_run.json", could_not_run)

# cfi-icall's support flips to no on clang-14 (its cells left as they were).
gvariant("gate_support_flip.json", lambda d: d["configs"][1]["support"].update(
    {"clang-14": {"supported": False, "reason": "probe cfi: no trap"}}))

gvariant("gate_empty.json", lambda d: d.update(cells=[]))
gvariant("gate_shrunk.json", lambda d: d["cells"].remove(gfind(d, A_MOD, "modern", "cfi-icall", "clang-22")))


def slice_none(d):
    d["selection"]["configs"] = ["none"]
    d["cells"] = [c for c in d["cells"] if c["config"] == "none"]


gvariant("gate_slice.json", slice_none)


def slice_short(d):
    slice_none(d)
    d["cells"].remove(gfind(d, A_CTL, "legacy", "none", "clang-22"))


gvariant("gate_slice_short.json", slice_short)


def partial_run(d):
    d["partial"] = True
    d["interrupted"] = "interrupted by SIGINT"
    for c in d["cells"][-3:]:
        d["cells"].remove(c)


gvariant("gate_partial.json", partial_run)


# One cell the harness could not run; one whose runs counted a harness error.
gvariant("gate_harness.json", lambda d: gfind(d, A_MOD, "legacy", "none", "clang-14").update(
    outcome="HARNESS_ERROR", runs=0, counts={}, verdict="regression",
    evidence="attack binary build/clang-14/attacks/th-attack-legacy-none, listed as built, cannot be run"))
gvariant("gate_harness_counted.json", lambda d: gfind(d, A_MOD, "legacy", "none", "clang-14").update(
    outcome="CRASHED", runs=5, counts={"CRASHED": 4, "HARNESS_ERROR": 1}, verdict="improvement",
    evidence="seed 3: could not start it"))

# A cell of an attack the registry does not have; self-test cells nobody asked for.
gvariant("gate_unplanned.json", lambda d: d["cells"].append(
    cell("MEMCPY_INTRA_BEFORE_ARM_FUNC_SAME_CLASS", MI, BA, "func:same-class", "legacy", "none",
         "clang-14", "REDIRECTED", "REDIRECTED", proof("REDIRECTED", "none"))))
gvariant("gate_selftest_unasked.json", lambda d: d["cells"].append(
    gate_cell("SELFTEST_HANG", "legacy", "none", "clang-14")))


def selftests(d):
    d["selection"]["selftests"] = True
    d["cells"] += [gate_cell("SELFTEST_HANG", v, c, t) for t in ("clang-14", "clang-22")
                   for v in ("legacy", "transitional", "modern") for c in GATE_CONFIGS]


gvariant("gate_selftests.json", selftests)
gvariant("gate_no_expectations.json", lambda d: d.pop("expectations"))
gvariant("gate_no_selection.json", lambda d: d.pop("selection"))

# A cell better in the baseline than in gate.json: gate.json regressed.
gvariant("gate_better.json", lambda d: gfind(d, A_MOD, "legacy", "none", "clang-14").update(
    outcome="NO_EFFECT", counts={"NO_EFFECT": 1}, verdict="improvement"))


# Text that would act instead of show: terminal escapes (C0 ESC, C1 CSI), a
# bidi override, a noncharacter XML forbids, a CR, and a newline in a
# toolchain version that would start a KTAP line of its own.
def controls(d):
    d["toolchains"][1]["version"] = "22.1.8\nBail out! injected"
    d["toolchains"][1]["path"] = "/usr/bin/clang-22\x1b[31m"
    d["configs"][2]["support"]["clang-14"]["reason"] = "no kcfi\x1b]0;title\x07"
    d["partial"] = True
    d["interrupted"] = "SIGINT\x1b[2J"
    gfind(d, A_LEG, "legacy", "none", "clang-22").update(
        outcome="CRASHED", counts={"CRASHED": 1}, verdict="improvement",
        evidence="ran\x1b[2J\x9b31m \u202egnp.exe\u202c \ufffe \uffff end\rover\nnext\tcol \x7f")
    # A cell report.md quotes (the CVE-2017-7308 headline).
    gfind(d, A_LEG, "legacy", "cfi-icall", "clang-14").update(
        evidence="target ran: name=write_cr4 chosen=1 \x1b[2J\x9b31m \u202egnp.exe\u202c \ufffe end\rover\nnext")


gvariant("gate_controls.json", controls)


# ---- a real kernel beside the model (docs/results.md, "Platforms") ---------
#
# platform.json is small.json with "platform" on every cell (small.json
# itself is the version before platforms: no "platform" anywhere, its cells
# the model's) and a real kernel's cells: kcfi as the model, none differing
# as declared, and a cell the model has no cell of. Its agreement is what the
# cells give (results/platform.c).
LINUX = "linux-6.1.192"


def with_platform(d):
    for c in d["cells"]:
        c["platform"] = "model"
    d["platforms"] = [{
        "name": LINUX, "source": "Debian linux-source-6.1 6.1.192-3",
        "compiler": "Debian clang version 22.1.8", "qemu": "QEMU emulator version 7.2.15",
        "cpu": "max",
        "configs": [{"name": "kcfi", "kconfig": "CONFIG_CFI_CLANG=y"},
                    {"name": "none", "kconfig": "# CONFIG_CFI_CLANG is not set"}],
        "boot_seconds_median": 1.6}]

    def kcell(attack, payload, config, outcome, expected, evidence):
        c = cell(attack, MI, BA, payload, "modern", config, "clang-22", outcome, expected, evidence)
        c["platform"] = LINUX
        return c
    d["cells"] += [
        kcell(A_MOD, "func:write_cr4", "kcfi", "BLOCKED_CFI", "BLOCKED_CFI",
              "kCFI failure at call_timer_fn+0x4a (target: native_write_cr4+0x0/0x20; expected type: 0x2e7bd3a1)"),
        kcell(A_MOD, "func:write_cr4", "none", "TIMER_LOST", None,
              "pinned CR4 bits changed: 0x100000; the timer's ring closed before expiry"),
        kcell(A_CTL, "none", "kcfi", "NO_EFFECT", None, "timer fired: ring_retire_blk_timer"),
    ]

    def model_outcome(attack, config):
        return find(d, attack, "modern", config, "clang-22")["outcome"]
    d["agreement"] = [
        dict(attack=A_MOD, variant="modern", config="none", toolchain="clang-22", platform=LINUX,
             model_outcome=model_outcome(A_MOD, "none"), kernel_outcome="TIMER_LOST", agrees=False,
             reason="native_write_cr4 pins SMEP/SMAP: the write is undone and the ring closes",
             rule="attacks/expected.tsv:130"),
        dict(attack=A_MOD, variant="modern", config="kcfi", toolchain="clang-22", platform=LINUX,
             model_outcome=model_outcome(A_MOD, "kcfi"), kernel_outcome="BLOCKED_CFI", agrees=True,
             reason=None, rule=None),
    ]


plat = variant(with_platform)
# Output order: the kernel's rows in the order of their cells (config: none
# before kcfi, as declared).
save("platform.json", plat)


def pvariant(name, fn):
    d = copy.deepcopy(plat)
    fn(d)
    save(name, d)


def kernel_cell(d):
    return next(c for c in d["cells"] if c["platform"] == LINUX)


pvariant("platform_unknown.json", lambda d: kernel_cell(d).update(platform="linux-6.9"))
pvariant("platform_bad_name.json", lambda d: kernel_cell(d).update(platform="windows"))
pvariant("platform_missing.json", lambda d: d["cells"][0].pop("platform"))
pvariant("platform_config.json", lambda d: kernel_cell(d).update(config="cfi-icall"))
