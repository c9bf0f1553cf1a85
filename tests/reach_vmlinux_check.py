#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`timerharness reach` on a kCFI vmlinux, checked with LLVM's own tools.

    reach_vmlinux_check.py --th TIMERHARNESS --objdump LLVM-OBJDUMP --nm LLVM-NM
                           [--vmlinux FILE] [--function call_timer_fn] [--limit S]

FILE (or $TH_VMLINUX; neither: SKIP, exit 77) is a Linux vmlinux built with
CONFIG_CFI_CLANG. Independently of the binary reader:
 1. llvm-nm lists the __cfi_<f> preambles; llvm-objdump disassembles them
    (--disassemble-symbols, in batches): each ends in `movl $HASH, %eax`
    right before f, so f's address is that instruction's + 5;
 2. llvm-objdump disassembles the function: the kCFI check before each
    indirect call, `movl $-HASH, %r10d; addl -4(%reg), %r10d; je; ud2`
    (-15 with 6.12's call padding; or a cmpl of the word with HASH), gives
    the hash it requires (tasklet_action_common: two calls, two hashes);
 3. the functions whose preamble holds that hash are that call's set.
Then `timerharness reach --all` must list, call by call, exactly those
addresses, count them, mark none of them privileged unless a privileged name is among them,
and, for each member whose body is `movq OFF(%rdi), %rdi` then a call or
jmp to a function G, say "G(rdi = *(arg0 + OFF))" of it (process_timeout
and wake_up_process in 6.1). Fails also when reach takes more than --limit
seconds (default 30).
"""
import argparse
import os
import re
import subprocess
import sys
import time

HEX = r"([0-9a-f]+)"


def objdump(tool, vmlinux, names):
    """Disassembly of the named symbols, in batches (an argument has a
    128 KiB limit)."""
    out = []
    for i in range(0, len(names), 2000):
        r = subprocess.run([tool, "-d", "--no-show-raw-insn", vmlinux,
                            "--disassemble-symbols=" + ",".join(names[i:i + 2000])],
                           capture_output=True, text=True, check=True)
        out.append(r.stdout)
    return "".join(out)


def blocks(text):
    """{symbol: [(address, instruction text)]} of an objdump listing."""
    res, cur = {}, None
    for line in text.splitlines():
        m = re.match(HEX + r" <(.+)>:$", line)
        if m:
            cur = res.setdefault(m.group(2), [])
            continue
        m = re.match(r"\s*" + HEX + r":\s+(.*)$", line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2).split("#")[0].strip()))
    return res


def check_hashes(insns):
    """The hash the kCFI check before each indirect call compares, in
    address order (None where no check precedes it)."""
    hashes = []
    for k, (_, ins) in enumerate(insns):
        if not re.match(r"(call|jmp)q?\s+\*%", ins) and "__x86_indirect_thunk_" not in ins:
            continue
        h = None
        for _, prev in reversed(insns[max(0, k - 8):k]):
            m = re.match(r"movl\s+\$0x" + HEX + r", %r10d$", prev)
            if m:        # movl $-HASH, %r10d; addl -4(%reg), %r10d (-15 with call padding)
                h = (-int(m.group(1), 16)) & 0xffffffff
                break
            m = re.match(r"cmpl\s+\$0x" + HEX + r", -0x[0-9a-f]+\(%", prev)
            if m:
                h = int(m.group(1), 16)
                break
        hashes.append(h)
    return hashes


def check_hash(insns):
    """The hash the kCFI check before the first indirect call compares."""
    hashes = check_hashes(insns)
    return hashes[0] if hashes else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--th", required=True)
    ap.add_argument("--objdump", required=True)
    ap.add_argument("--nm", required=True)
    ap.add_argument("--vmlinux", default="")
    ap.add_argument("--kernel-build", default="",
                    help="the vmlinux `make kernel` builds (kernel/build), used when it exists "
                         "and neither --vmlinux nor $TH_VMLINUX names one")
    ap.add_argument("--function", default="call_timer_fn")
    ap.add_argument("--limit", type=float, default=30.0)
    a = ap.parse_args()
    vmlinux = a.vmlinux or os.environ.get("TH_VMLINUX", "")
    if not vmlinux and a.kernel_build and os.path.isfile(a.kernel_build):
        vmlinux = a.kernel_build
    if not vmlinux:
        print("SKIP: no vmlinux: make kernel builds one (" + (a.kernel_build or "build/kernel/6.1/kcfi/vmlinux") +
              "); or configure with -DTIMERHARNESS_VMLINUX=FILE or set TH_VMLINUX "
              "(a Linux vmlinux built with clang and CONFIG_CFI_CLANG)")
        return 77
    if not os.path.isfile(vmlinux):
        print(f"FAIL: {vmlinux}: no such file")
        return 1

    nm = subprocess.run([a.nm, "--defined-only", vmlinux], capture_output=True, text=True,
                        check=True).stdout
    names = sorted({line.split()[2] for line in nm.splitlines()
                    if len(line.split()) == 3 and line.split()[2].startswith("__cfi_")})
    if not names:
        print(f"FAIL: {vmlinux}: no __cfi_ preambles (not a CONFIG_CFI_CLANG kernel)")
        return 1
    # f's address from nm: the preamble's movl is right before f, or
    # followed by the call padding's nops (6.12: the hash at f - 15).
    addr = {}
    for line in nm.splitlines():
        p = line.split()
        if len(p) == 3:
            addr.setdefault(p[2], int(p[0], 16))
    pre = {}
    for sym, insns in blocks(objdump(a.objdump, vmlinux, names)).items():
        if not sym.startswith("__cfi_") or sym[6:] not in addr:
            continue
        for _, ins in reversed(insns):
            m = re.match(r"movl\s+\$0x" + HEX + r", %eax$", ins)
            if m:
                pre[addr[sym[6:]]] = (sym[6:], int(m.group(1), 16))
                break
    fn = blocks(objdump(a.objdump, vmlinux, [a.function])).get(a.function)
    if not fn:
        print(f"FAIL: {a.function} is not in {vmlinux}")
        return 1
    hashes = check_hashes(fn)
    if not hashes or None in hashes:
        print(f"FAIL: no kCFI check found before one of {a.function}'s indirect calls")
        return 1
    wants = [{addr: name for addr, (name, h) in pre.items() if h == wh} for wh in hashes]
    for wh, want in zip(hashes, wants):
        print(f"objdump/nm: {len(pre)} preambles, {len(want)} with {a.function}'s hash "
              f"0x{wh:08x}: {', '.join(sorted(want.values()))}")

    t0 = time.monotonic()
    r = subprocess.run([a.th, "reach", "--binary", vmlinux, "--function", a.function, "--all"],
                       capture_output=True, text=True)
    took = time.monotonic() - t0
    print(r.stdout)
    bad = []
    if r.returncode != 0:
        bad.append(f"reach exited {r.returncode}: {r.stderr}")
    # One block per call site, in address order, as objdump's calls.
    sites = re.split(r"^  0x[0-9a-f]+ ", r.stdout, flags=re.M)[1:]
    if len(sites) != len(hashes):
        bad.append(f"reach lists {len(sites)} call sites, objdump {len(hashes)} checked calls")
    want, got = {}, {}
    for k, (wh, w, site) in enumerate(zip(hashes, wants, sites)):
        if not re.search(rf"kcfi: hash 0x{wh:08x} at target-\d+", site):
            bad.append(f"reach does not name call {k}'s hash 0x{wh:08x}")
        g = {int(m.group(1), 16): m.group(2) for m in
             re.finditer(r"^      0x" + HEX + r" +(\S+)", site, re.M)}
        m = re.search(r"can reach (\d+) of (\d+) functions, (\d+) privileged", site)
        if set(g) != set(w):
            bad.append(f"call {k}: the sets differ: reach only " +
                       str(sorted(g[x] for x in set(g) - set(w))) + ", objdump only " +
                       str(sorted(w[x] for x in set(w) - set(g))))
        if not m or int(m.group(1)) != len(w):
            bad.append(f"call {k}: the count is not {len(w)}")
        want.update(w)
        got.update(g)
    # A container use the disassembly shows directly: movq OFF(%rdi), %rdi;
    # then a call or jmp to G.
    uses = 0
    bodies = blocks(objdump(a.objdump, vmlinux, sorted(set(want.values()))))
    for name in sorted(set(want.values())):
        insns = bodies.get(name, [])
        if len(insns) < 2:
            continue
        m1 = re.match(r"movq\s+0x" + HEX + r"\(%rdi\), %rdi$", insns[0][1])
        m2 = re.match(r"(?:call|jmp)q?\s+0x[0-9a-f]+ <([^+>]+)>$", insns[1][1])
        if not (m1 and m2):
            continue
        claim = f"{m2.group(1)}(rdi = *(arg0 + {int(m1.group(1), 16)}))"
        uses += 1
        if not re.search(r"^      " + re.escape(name) + r": (.*; )?" + re.escape(claim),
                         r.stdout, re.M):
            bad.append(f"{name}: reach does not say {claim}")
    print(f"objdump: {uses} member(s) pass a word of their container straight on; reach took "
          f"{took:.2f} s")
    if took > a.limit:
        bad.append(f"reach took {took:.2f} s, more than {a.limit} s")
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
