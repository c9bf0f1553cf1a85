#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The fuzz.json fixtures of tests/fuzz.cmake (schema timerharness/fuzz/v1,
report/fuzz_summary.h). Run from this directory: python3 make_fixtures.py"""
import copy
import json

FINDING = {
    "sig": "HIJACKED:WRITE_CR4_VIA_RING_TIMER", "outcome": "HIJACKED",
    "chain_id": "WRITE_CR4_VIA_RING_TIMER", "first_seconds": 0.5, "first_executions": 50,
    "reproducer": "fuzz/clang-22/legacy-cfi-icall/findings/HIJACKED-WRITE_CR4_VIA_RING_TIMER.bin",
    "replayed": "HIJACKED", "reproduced": True,
    "chain": "legacy: memcpy-intra 56 B at ring+0 (name) [ring+40 (function) = &write_cr4; bytes ..]; "
             "victim arms the timer; run the wheel | ran: write_cr4(0x407f0), the argument is the "
             "attacker's own bytes | through the ring's own retire_blk_timer (.function at ring+40 (function))",
}
BASE = {
    "target": "overflow", "variant": "legacy", "config": "cfi-icall", "toolchain": "clang-22",
    "engine": "libfuzzer", "status": "ran", "reason": "", "options": "",
    "seconds": 10.0, "cpu_seconds": 9.5, "executions": 1000, "exec_per_second": 100.0, "restarts": 2,
    "coverage": {"edges": 200, "features": 800, "corpus": 100},
    "first_hijack": {"seconds": 0.5, "executions": 50}, "goal_reached": None,
    "outcomes": {"HIJACKED": 10, "BLOCKED_CFI": 90, "NO_EFFECT": 900},
    "rechecked": 1, "disagreements": 0, "findings": [FINDING],
}
TOP = {"schema": "timerharness/fuzz/v1", "version": "0.1.0", "created": "2025-01-01T00:00:00Z",
       "partial": False, "interrupted": None, "host": {"hostname": "h", "kernel": "6.1", "cpus": 2},
       "budget_seconds": 10.0, "goal": "write_cr4(0x407f0)", "campaigns": []}


def camp(**kw):
    c = copy.deepcopy(BASE)
    c.update(kw)
    return c


def doc(cs, **kw):
    d = copy.deepcopy(TOP)
    d["campaigns"] = cs
    d.update(kw)
    return d


def write(name, d, raw=None):
    with open(name, "w") as f:
        f.write(raw if raw is not None else json.dumps(d, indent=2) + "\n")


legacy_none = camp(config="none", outcomes={"HIJACKED": 10, "NO_EFFECT": 990})
legacy_none["findings"][0]["reproducer"] = \
    "fuzz/clang-22/legacy-none/findings/HIJACKED-WRITE_CR4_VIA_RING_TIMER.bin"
modern = camp(variant="modern", first_hijack=None,
              outcomes={"PRIVILEGED_WRITE": 3, "BLOCKED_CFI": 97, "NO_EFFECT": 900},
              findings=[{"sig": "PRIVILEGED_WRITE:CRED_VIA_LIST", "outcome": "PRIVILEGED_WRITE",
                         "chain_id": "CRED_VIA_LIST", "first_seconds": 2.0, "first_executions": 200,
                         "reproducer": "fuzz/clang-22/modern-cfi-icall/findings/PRIVILEGED_WRITE-CRED_VIA_LIST.bin",
                         "replayed": "PRIVILEGED_WRITE", "reproduced": True,
                         "chain": "modern: arm (mod_timer = 0); index-intra 14 B at ring+16 (entry.next) "
                                  "[ring+16 (entry.next) = current_cred+4] | privileged state changed: uid "
                                  "1000 -> 0 | through the wheel's list code (__hlist_del/hlist_add) writing "
                                  "through planted entry pointers"}])
unsupported = camp(variant="modern", config="kcfi", toolchain="clang-14", status="unsupported",
                   reason="clang 14 < 16 required by kcfi", seconds=0.0, cpu_seconds=0.0, executions=0,
                   exec_per_second=0.0, restarts=0, coverage={"edges": 0, "features": 0, "corpus": 0},
                   first_hijack=None, outcomes={}, rechecked=0, findings=[])
good = doc([legacy_none, BASE, modern, unsupported])
write("good.json", good)

# Regressions and harness errors.
bad_modern = camp(variant="modern", findings=[dict(
    FINDING, sig="HIJACKED:WRITE_CR4_VIA_FORGED_TIMER", chain_id="WRITE_CR4_VIA_FORGED_TIMER",
    reproducer="fuzz/clang-22/modern-cfi-icall/findings/HIJACKED-WRITE_CR4_VIA_FORGED_TIMER.bin")])
write("modern_hijack.json", doc([legacy_none, BASE, bad_modern]))
write("legacy_no_hijack.json", doc([legacy_none, camp(first_hijack=None, findings=[],
                                                         outcomes={"BLOCKED_CFI": 100, "NO_EFFECT": 900})]))
write("slice.json", doc([BASE]))
write("partial.json", doc([legacy_none, BASE], partial=True, interrupted="SIGINT"))
write("harness_error.json", doc([legacy_none, camp(outcomes={"HIJACKED": 10, "HARNESS_ERROR": 1,
                                                             "NO_EFFECT": 989})]))
write("no_campaign_ran.json", doc([unsupported]))

# Bad input.
write("not_json.json", None, "{ this is not json\n")
write("empty.json", None, "")
write("wrong_schema.json", dict(good, schema="timerharness/results/v1"))
d = copy.deepcopy(good); d["campaigns"][0]["surprise"] = 1; write("unknown_field.json", d)
d = copy.deepcopy(good); d["campaigns"][0]["executions"] = 5; write("counts_mismatch.json", d)
d = copy.deepcopy(good); d["campaigns"][1]["findings"][0]["outcome"] = "BLOCKED_CFI"
write("finding_not_a_finding.json", d)
d = copy.deepcopy(good); d["campaigns"][1]["findings"][0]["sig"] = "HIJACKED:SOMETHING_ELSE"
write("sig_mismatch.json", d)
d = copy.deepcopy(good); d["campaigns"].append(copy.deepcopy(BASE)); write("duplicate_campaign.json", d)
d = copy.deepcopy(good); d["campaigns"][1]["findings"][0]["reproducer"] = "/etc/passwd"
write("absolute_reproducer.json", d)
d = copy.deepcopy(good); d["campaigns"][0]["variant"] = "ancient"; write("unknown_variant.json", d)
d = copy.deepcopy(good); d["campaigns"][0]["outcomes"]["PWNED"] = 0; write("unknown_outcome.json", d)

# Chains of several steps (issue 15, item 5): each step judged by its own rule
# at its own outcome; a target that ran never hides behind another step's.


def finding(variant, config, outcome, chain_id):
    return dict(FINDING, sig=f"{outcome}:{chain_id}", outcome=outcome, chain_id=chain_id,
                replayed=outcome,
                reproducer=f"fuzz/clang-22/{variant}-{config}/findings/{outcome}-{chain_id}.bin")


steps_legacy = camp(findings=[FINDING, finding(
    "legacy", "cfi-icall", "HIJACKED",
    "FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_WRITE_CR4_407F0_VIA_FORGED_TIMER_HIJACKED")])
steps_modern = camp(variant="modern", first_hijack=None,
                    outcomes={"PRIVILEGED_WRITE": 3, "REDIRECTED": 5, "BLOCKED_CFI": 92, "NO_EFFECT": 900},
                    findings=[finding("modern", "cfi-icall", "REDIRECTED", "FORCE_CLOSE_VIA_RING_TIMER"),
                              finding("modern", "cfi-icall", "PRIVILEGED_WRITE",
                                      "FORCE_CLOSE_VIA_RING_TIMER_REDIRECTED_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE")])
write("steps_declared.json", doc([legacy_none, steps_legacy, steps_modern]))
# write_cr4 ran on 4.15 under CFI: a bypass, behind a declared data-only step.
write("steps_hidden.json", doc([legacy_none, BASE, camp(
    variant="modern", first_hijack=None, outcomes={"PRIVILEGED_WRITE": 3, "BLOCKED_CFI": 97, "NO_EFFECT": 900},
    findings=[finding("modern", "cfi-icall", "PRIVILEGED_WRITE",
                      "WRITE_CR4_VIA_RING_TIMER_PRIVILEGED_WRITE_THEN_CRED_VIA_LIST_PRIVILEGED_WRITE")])]))
# commit_creds_stub hijacked on 4.15 without CFI (declared at most
# PRIVILEGED_WRITE), beside a declared foreign-callback hijack.
write("steps_too_severe.json", doc([legacy_none, BASE, camp(
    variant="modern", config="none", first_hijack=None, outcomes={"HIJACKED": 1, "NO_EFFECT": 999},
    findings=[finding("modern", "none", "HIJACKED",
                      "COMMIT_CREDS_VIA_RING_TIMER_HIJACKED_THEN_WRITE_CR4_407F0_VIA_FOREIGN_CALLBACK_HIJACKED")])]))
# More steps than the oracle names: declared by no rule.
write("steps_more.json", doc([legacy_none, camp(findings=[FINDING, finding(
    "legacy", "cfi-icall", "HIJACKED", "WRITE_CR4_VIA_RING_TIMER_HIJACKED_THEN_MORE")])]))
# The required 4.14 hijack is a step's own: a write_cr4 only redirected
# through the ring's timer does not meet it, though the chain is HIJACKED.
write("steps_require.json", doc([legacy_none, camp(findings=[finding(
    "legacy", "cfi-icall", "HIJACKED",
    "WRITE_CR4_VIA_RING_TIMER_REDIRECTED_THEN_WRITE_CR4_407F0_VIA_FOREIGN_CALLBACK_HIJACKED")])]))
