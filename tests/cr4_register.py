#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CR4 is a register (attacks/victim.h, runner/x86_cr4.h), on real runs of
the matrix: every payload that reaches write_cr4 or write_cr4_direct, or
writes through the timer's list pointers, on every variant, under `none`
and (where this toolchain has it) `kcfi`.

  cr4_register.py --th TIMERHARNESS --build BUILD_DIR --out DIR

- no cell reports CR4 changed to a value the CPU would refuse (a reserved
  bit, PAE clear: Intel SDM Vol. 3A 2.5), and no cell changes CR4 unless
  write_cr4 or write_cr4_direct reported a successful load (no list write,
  no callback's store reaches it);
- write_cr4 on the victim's own argument (the ring's or the timer's
  address) dies at its MOV to CR4: CRASHED, with the #GP(0), the value and
  the reserved bits in the evidence (modern/none func:write_cr4; legacy
  func:write_cr4; func:not-address-taken in write_cr4_direct);
- CVE-2017-7308's write_cr4(0x407f0) is loaded: legacy func+data:write_cr4
  HIJACKED, CR4 0x3407f0 -> 0x407f0 read from the process at exit;
- the gate passes on the slice.
"""
import argparse
import json
import re
import subprocess
import sys

ATTACKS = ("*_FUNC_WRITE_CR4,*_FUNC_DATA_WRITE_CR4,*_FUNC_NOT_ADDRESS_TAKEN,*_FUNC_MID_FUNCTION,"
           "*_FUNC_FOREIGN_CALLBACK,*_LIST_FORGED_TIMER,*_LIST_HLIST_DEL,*_FUNC_DATA_ADDRESS")
# runner/x86_cr4.h: the bits the simulated CPU implements.
IMPLEMENTED = 0x7ff | (1 << 13) | (1 << 14) | (1 << 16) | (1 << 17) | (1 << 18) | \
    (1 << 20) | (1 << 21) | (1 << 22)
PAE = 1 << 5


def loadable(v):
    return v & ~IMPLEMENTED == 0 and v & PAE


def run(cmd, want=0):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != want:
        sys.exit(f"FAIL: {' '.join(cmd)}: exit {r.returncode}, want {want}\n"
                 f"stdout:\n{r.stdout[-3000:]}\nstderr:\n{r.stderr[-3000:]}")
    return r


def fail(what):
    sys.exit("FAIL: " + what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--th", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    run([a.th, "matrix", "--build-root", a.build, "--quiet", "--out", a.out,
         "--config", "none,kcfi", "--attack", ATTACKS])
    run([a.th, "check", "--results", a.out + "/results.json", "--allow-slice"])
    with open(a.out + "/results.json") as f:
        cells = json.load(f)["cells"]
    by = {(c["attack"], c["variant"], c["config"]): c for c in cells}
    changed = re.compile(r"cpu_regs\.cr4 0x([0-9a-f]+) -> 0x([0-9a-f]+)")
    loaded = re.compile(r"name=(write_cr4|write_cr4_direct) chosen=[01] val=0x([0-9a-f]+)")
    seen_change = 0
    for c in cells:
        name = f"{c['attack']} {c['variant']}/{c['config']}"
        ev = c["evidence"]
        if "sim_cpu.cr4" in ev:
            fail(f"{name}: the evidence names sim_cpu.cr4, memory, as CR4: {ev}")
        for m in changed.finditer(ev):
            seen_change += 1
            new = int(m.group(2), 16)
            if not loadable(new):
                fail(f"{name}: CR4 changed to 0x{new:x}, a value MOV to CR4 refuses: {ev}")
            got = [int(v, 16) for _, v in loaded.findall(ev)]
            if new not in got:
                fail(f"{name}: CR4 changed to 0x{new:x} and no write_cr4 reported loading it: {ev}")
        if c["outcome"] == "HIJACKED" and "name=write_cr4" in ev:
            for _, v in loaded.findall(ev):
                if not loadable(int(v, 16)):
                    fail(f"{name}: HIJACKED by a write_cr4 of 0x{v}, which the CPU refuses: {ev}")

    gp = re.compile(r"#GP\(0\) at pc 0x[0-9a-f]+ \((write_cr4|write_cr4_direct)\+0x[0-9a-f]+\): "
                    r"mov %r[a-z0-9]+,%cr4 of 0x([0-9a-f]+), reserved bits 63:32 set")

    def want_gp(attack, variant, config, fn):
        c = by.get((attack, variant, config))
        if c is None:
            fail(f"{attack} {variant}/{config} did not run")
        m = gp.search(c["evidence"])
        if c["outcome"] != "CRASHED" or not m or m.group(1) != fn:
            fail(f"{attack} {variant}/{config}: want CRASHED by #GP(0) in {fn}, got "
                 f"{c['outcome']}: {c['evidence']}")

    want_gp("MEMCPY_INTRA_BEFORE_ARM_FUNC_WRITE_CR4", "modern", "none", "write_cr4")
    want_gp("HEAP_NEIGHBOUR_PENDING_FUNC_WRITE_CR4", "legacy", "none", "write_cr4")
    want_gp("MEMCPY_INTRA_PENDING_LIST_FORGED_TIMER", "modern", "none", "write_cr4")
    want_gp("MEMCPY_INTRA_PENDING_FUNC_NOT_ADDRESS_TAKEN", "legacy", "none", "write_cr4_direct")
    for attack in ("MEMCPY_INTRA_BEFORE_ARM_FUNC_DATA_WRITE_CR4",
                   "RING_BLOCK_OVERFLOW_PENDING_FUNC_DATA_WRITE_CR4"):
        for config in ("none", "kcfi"):
            c = by.get((attack, "legacy", config))
            if c is None or c["outcome"] == "UNSUPPORTED":
                continue
            if c["outcome"] != "HIJACKED" or "name=write_cr4 chosen=1 val=0x407f0" not in c["evidence"]:
                fail(f"{attack} legacy/{config}: want HIJACKED by write_cr4(0x407f0), got "
                     f"{c['outcome']}: {c['evidence']}")
    print(f"ok: {len(cells)} cells; CR4 changes seen in evidence: {seen_change}, each a load "
          "write_cr4 reported, of a value the CPU takes")


if __name__ == "__main__":
    main()
