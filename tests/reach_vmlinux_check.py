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
 2. llvm-objdump disassembles the function: the kCFI check before its
    indirect call, `movl $-HASH, %r10d; addl -4(%reg), %r10d; je; ud2`
    (or a cmpl of the word at -4 with HASH), gives the hash it requires;
 3. the functions whose preamble holds that hash are the set.
Then `timerharness reach --all` must list exactly those addresses, count
them, mark none of them privileged unless a privileged name is among them,
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


def check_hash(insns):
    """The hash the kCFI check before the first indirect call compares."""
    for k, (_, ins) in enumerate(insns):
        if not re.match(r"(call|jmp)q?\s+\*%", ins) and "__x86_indirect_thunk_" not in ins:
            continue
        for _, prev in reversed(insns[max(0, k - 8):k]):
            m = re.match(r"movl\s+\$0x" + HEX + r", %r10d$", prev)
            if m:        # movl $-HASH, %r10d; addl -4(%reg), %r10d
                return (-int(m.group(1), 16)) & 0xffffffff
            m = re.match(r"cmpl\s+\$0x" + HEX + r", -0x4\(%", prev)
            if m:
                return int(m.group(1), 16)
        return None
    return None


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
    pre = {}
    for sym, insns in blocks(objdump(a.objdump, vmlinux, names)).items():
        if sym.startswith("__cfi_") and insns:
            m = re.match(r"movl\s+\$0x" + HEX + r", %eax$", insns[-1][1])
            if m:
                pre[insns[-1][0] + 5] = (sym[6:], int(m.group(1), 16))
    fn = blocks(objdump(a.objdump, vmlinux, [a.function])).get(a.function)
    if not fn:
        print(f"FAIL: {a.function} is not in {vmlinux}")
        return 1
    want_hash = check_hash(fn)
    if want_hash is None:
        print(f"FAIL: no kCFI check found before {a.function}'s indirect call")
        return 1
    want = {addr: name for addr, (name, h) in pre.items() if h == want_hash}
    print(f"objdump/nm: {len(pre)} preambles, {len(want)} with {a.function}'s hash "
          f"0x{want_hash:08x}: {', '.join(sorted(want.values()))}")

    t0 = time.monotonic()
    r = subprocess.run([a.th, "reach", "--binary", vmlinux, "--function", a.function, "--all"],
                       capture_output=True, text=True)
    took = time.monotonic() - t0
    print(r.stdout)
    bad = []
    if r.returncode != 0:
        bad.append(f"reach exited {r.returncode}: {r.stderr}")
    if f"kcfi: hash 0x{want_hash:08x} at target-4" not in r.stdout:
        bad.append(f"reach does not name the check's hash 0x{want_hash:08x}")
    got = {int(m.group(1), 16): m.group(2) for m in
           re.finditer(r"^      0x" + HEX + r" +(\S+)", r.stdout, re.M)}
    m = re.search(r"can reach (\d+) of (\d+) functions, (\d+) privileged", r.stdout)
    if set(got) != set(want):
        bad.append("the sets differ: reach only " +
                   str(sorted(got[x] for x in set(got) - set(want))) + ", objdump only " +
                   str(sorted(want[x] for x in set(want) - set(got))))
    if not m or int(m.group(1)) != len(want):
        bad.append(f"the count is not {len(want)}")
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
