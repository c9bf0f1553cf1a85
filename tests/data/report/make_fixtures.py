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
             "BLOCKED_CFI", "probe: clang 14 has no -fsanitize=kcfi", runs=0),
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


def crashed_new(d):
    c = find(d, A_IDX, "modern", "cfi-icall", "clang-22")
    c.update(outcome="CRASHED", counts={"CRASHED": 1}, evidence="SIGSEGV at 0xdead")


# A cell with no expectation that the baseline saw BLOCKED_CFI now crashes.
save("baseline_regression.json", variant(crashed_new))


def kcfi_lost(d):
    c = find(d, A_MOD, "modern", "kcfi", "clang-22")
    c.update(outcome="UNSUPPORTED", runs=0, counts={}, evidence="probe: kcfi not instrumented")
    d["configs"][2]["support"]["clang-22"] = {"supported": False, "reason": "probe: kcfi not instrumented"}


# clang-22 lost kcfi: coverage loss, red only against a baseline.
save("coverage_loss.json", variant(kcfi_lost))


def drop_cell(d):
    d["cells"].remove(find(d, A_MOD, "modern", "cfi-icall", "clang-22"))


save("missing_cell.json", variant(drop_cell))


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
