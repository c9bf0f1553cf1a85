#!/usr/bin/env python3
"""Make the forged and made consoles of tests/data/kernel/console.

Each is a real Linux 6.1 kCFI boot (kcfi-MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4.log:
the unit wrote native_write_cr4 over the neighbour's .function, call_timer_fn
was about to call it, kCFI stopped it there) with the kernel's lines after
the write changed, as the file's third line says:

  forged-*       what a check outside the project forges to try the
                 classifier: a CFI report at another site, one at
                 call_timer_fn naming another target, a report after which
                 the call went on (CONFIG_CFI_PERMISSIVE's WARNING, the
                 call's return), a report inside another line, one in
                 the redirected target's own code, the
                 legitimate call of a control run
                 (kcfi-MEMCPY_INTRA_BEFORE_ARM_NONE.log) stopped; none may be
                 BLOCKED_CFI (tests/kernel_console.py checks it);
  made-fineibt-* FineIBT's reports (6.2+: the check in the callee's
                 preamble), as measured on 6.12 under QEMU
                 (../shared/KERNEL-FACTS.md): "CFI failure at
                 __cfi_<target>+0xd/0x10 (target: <target>+0x0/...)" and,
                 for a target whose preamble the kernel poisoned, a bare
                 invalid opcode with RIP __cfi_<target>+0xd; until a real
                 6.12 boot replaces them;
  forged-tasklet-* the tasklet's (kernel/unit/tasklet.c, issue 28), made
                 from kcfi-TASKLET_MEMCPY_INTRA_PENDING_*.log: a kCFI report
                 at tasklet_action_common naming another target than the
                 .callback written (not BLOCKED_CFI), and a func(data) call
                 whose argument is not the data the write left (never the
                 attacker's argument: not CRASHED with it, not HIJACKED);
  made-ibt-*     what the CPU's own IBT says on a real machine (no TCG):
                 "Missing ENDBR: <where the call landed>", then BUG()
                 (arch/x86/kernel/cet.c).

Their expected classification is NAME.want beside each, written by
tests/kernel_console.py --update and read like the others. A made console
that is a block (made-*) must be BLOCKED_CFI; its forged twins must not.

usage: kernel_console_forge.py DIR   (writes DIR/forged-*.log, DIR/made-*.log)
"""
import os
import re
import sys

BASE = "kcfi-MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4.log"
CONTROL = "kcfi-MEMCPY_INTRA_BEFORE_ARM_NONE.log"
SAME_CLASS = "kcfi-MEMCPY_INTRA_PENDING_FUNC_SAME_CLASS.log"
SITE = "call_timer_fn+0x47/0xd3"
CR4 = "native_write_cr4+0x0/0x7c"
CR4_612 = "native_write_cr4+0x0/0x90"      # 6.12's size (KERNEL-FACTS.md)


def load(d):
    with open(os.path.join(d, BASE)) as f:
        lines = f.read().split("\n")
    token = re.search(r"token (\w+),", lines[0]).group(1)
    cfi = next(i for i, l in enumerate(lines) if l.startswith("CFI failure at "))
    return lines, token, cfi


def header(lines, config, what, end=None):
    h = lines[0].replace(" on kcfi (", f" on {config} (")
    if end:
        h = re.sub(r"QEMU exited in [0-9.]+ s", end, h)
    # The third line says what was made; it holds none of the words the
    # classifier reads (nothing before the write is read as the attack's).
    return [h, lines[1], f"# made from {BASE}: {what}"]


def oops_dump(lines, cfi):
    """The oops's first register dump: the lines after its first line up to
    the first end-of-trace marker, as show_regs() prints them."""
    out = []
    for l in lines[cfi + 2:]:
        out.append(l)
        if l.startswith("---[ end trace"):
            break
    return out


def unit(token, s):
    return f"timerharness {token}: {s}"


def write(d, name, lines):
    with open(os.path.join(d, name), "w") as f:
        f.write("\n".join(lines))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    lines, token, cfi = load(d)
    body, report, after = lines[2:cfi], lines[cfi], lines[cfi + 1:]
    dump = oops_dump(lines, cfi)
    warn = [f"WARNING: CPU: 0 PID: 0 at {SITE}", "Modules linked in:"] + dump

    # ---- forged: none of these is this cell's block ----
    write(d, "forged-cfi-other-site.log",
          header(lines, "kcfi", "the report's site is another function's") + body +
          [report.replace(f"at {SITE}", "at tasklet_action_common+0xa3/0x13b")] + after)
    write(d, "forged-cfi-other-target.log",
          header(lines, "kcfi", "the report at call_timer_fn names another target") + body +
          [report.replace(f"target: {CR4}", "target: some_driver_fn+0x0/0x40")] + after)
    write(d, "forged-cfi-inside-a-line.log",
          header(lines, "kcfi", "the report is text inside another line, as any printer could write it")
          + body + ["th-payload: " + report] + after)
    # CONFIG_CFI_PERMISSIVE: report_cfi_failure() (kernel/cfi.c) __warn()s and
    # the call goes on: on TCG native_write_cr4() of the timer's address
    # then spins in QEMU (no output: the host's time limit); on hardware #GP.
    write(d, "forged-permissive-silent.log",
          header(lines, "kcfi", "a permissive report, its WARNING, then nothing until the time limit",
                 "time limit in 60.00 s") + body + [report] + warn)
    write(d, "forged-permissive-gpf.log",
          header(lines, "kcfi", "a permissive report, its WARNING, then the target's general protection fault")
          + body + [report] + warn +
          ["general protection fault: 0000 [#1]",
           "CPU: 0 PID: 0 Comm: swapper Tainted: G        W          6.1.192 #2",
           f"RIP: 0010:{CR4}",
           "Kernel panic - not syncing: Fatal exception in interrupt",
           "Kernel Offset: disabled", ""])
    write(d, "forged-permissive-returned.log",
          header(lines, "kcfi", "a report after which the unit saw the call return") + body + [report] +
          [unit(token, "RETURN call_timer_fn <- (timer ff110000006fa298)"),
           unit(token, "STATE neighbour ticks=0 released=0"),
           unit(token, "STATE calls=1 returns=1 pending=0"),
           unit(token, "END MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4 0"),
           "timerharness-init: userspace reached, rebooting", ""])

    # A control run whose legitimate call kCFI stops: FALSE_POSITIVE, the
    # report proving it, never the attack's block.
    with open(os.path.join(d, CONTROL)) as f:
        ctl = f.read().split("\n")
    call = next(i for i, l in enumerate(ctl) if ": CALL call_timer_fn -> " in l)
    write(d, "forged-control-stopped.log",
          [ctl[0], ctl[1], f"# made from {CONTROL}: the legitimate call stopped by its check"] +
          ctl[2:call + 1] +
          [f"CFI failure at {SITE} (target: th_neighbour_tick+0x0/0x4; expected type: 0x91b4a83a)"] +
          after)

    # The redirected target's own indirect call stopped by its own check:
    # the target ran (REDIRECTED), the report at its site is not the block.
    with open(os.path.join(d, SAME_CLASS)) as f:
        sc = f.read().split("\n")
    call = next(i for i, l in enumerate(sc) if ": CALL call_timer_fn -> " in l)
    write(d, "forged-cfi-in-target.log",
          [sc[0], sc[1], f"# made from {SAME_CLASS}: the target's own check stops its call"] +
          sc[2:call + 1] +
          ["CFI failure at th_neighbour_release+0x4/0x8 (target: some_driver_fn+0x0/0x40; "
           "expected type: 0x91b4a83a)",
           "invalid opcode: 0000 [#1]",
           "RIP: 0010:th_neighbour_release+0x4/0x8",
           "Kernel panic - not syncing: Fatal exception in interrupt", ""])

    # ---- FineIBT, 6.12's forms ----
    def fine(ls):
        return [l.replace(CR4, CR4_612).replace("6.1.192", "6.12.118")
                .replace("invalid opcode: 0000 [#1]", "Oops: invalid opcode: 0000 [#1] PREEMPT")
                .replace(f"RIP: 0010:{SITE}", "RIP: 0010:__cfi_native_write_cr4+0xd/0x10")
                for l in ls]
    fbody, fafter = fine(body), fine(after)
    freport = ("CFI failure at __cfi_native_write_cr4+0xd/0x10 "
               f"(target: {CR4_612}; expected type: 0x3eff0c81)")
    write(d, "made-fineibt-report.log",
          header(lines, "fineibt", "FineIBT's report at the callee's preamble") + fbody + [freport] + fafter)
    write(d, "made-fineibt-poisoned.log",
          header(lines, "fineibt", "FineIBT at a sealed callee: its poisoned preamble traps, no report line")
          + fbody + fafter)
    write(d, "forged-fineibt-other-target.log",
          header(lines, "fineibt", "FineIBT's report at another function's preamble") + fbody +
          ["CFI failure at __cfi_some_driver_fn+0xd/0x10 "
           "(target: some_driver_fn+0x0/0x40; expected type: 0x3eff0c81)"] +
          [l.replace("__cfi_native_write_cr4", "__cfi_some_driver_fn") for l in fafter])
    write(d, "forged-fineibt-poisoned-other.log",
          header(lines, "fineibt", "a poisoned preamble's trap in another function") + fbody +
          [l.replace("__cfi_native_write_cr4", "__cfi_some_driver_fn") for l in fafter])
    fwarn = [l.replace(f"at {SITE}", "at __cfi_native_write_cr4+0xd/0x10") for l in fine(warn)]
    write(d, "forged-fineibt-permissive.log",
          header(lines, "fineibt", "FineIBT's report, its WARNING, then the target's general protection fault")
          + fbody + [freport] + fwarn +
          ["Oops: general protection fault: 0000 [#1] PREEMPT",
           f"RIP: 0010:{CR4_612}",
           "Kernel panic - not syncing: Fatal exception in interrupt", ""])

    # ---- IBT on a real machine: #CP where the call landed ----
    ibt = ["Missing ENDBR: __cfi_native_write_cr4+0x0/0x10",
           "------------[ cut here ]------------",
           "kernel BUG at arch/x86/kernel/cet.c:102!",
           "Oops: invalid opcode: 0000 [#1] PREEMPT SMP",
           "RIP: 0010:do_kernel_cp_fault+0x8c/0x90",
           "Kernel panic - not syncing: Fatal exception in interrupt", ""]
    write(d, "made-ibt-missing-endbr.log",
          header(lines, "fineibt", "IBT's #CP at the sealed callee's preamble, then BUG()") + fbody + ibt)
    write(d, "forged-ibt-other-landing.log",
          header(lines, "fineibt", "IBT's #CP where another function begins") + fbody +
          [l.replace("__cfi_native_write_cr4+0x0/0x10", "some_driver_fn+0x0/0x40") for l in ibt])


    # ---- the tasklet (issue 28): tasklet_action_common's two calls ----
    for base, name, what, edit in (
            ("kcfi-TASKLET_MEMCPY_INTRA_PENDING_FUNC_WRITE_CR4.log", "forged-tasklet-cfi-other-target.log",
             "the report at tasklet_action_common names another target than the .callback written",
             lambda l: l.replace("(target: native_write_cr4+0x0/0x7c;", "(target: some_driver_fn+0x0/0x40;")
             if l.startswith("CFI failure at ") else l),
            ("kcfi-TASKLET_MEMCPY_INTRA_PENDING_USE_CALLBACK_WRITE_CR4.log",
             "forged-tasklet-arg-not-written.log",
             "func(data) is called with another argument than the data the write left",
             lambda l: l.replace(" arg=0x407f0 func(data)", " arg=0x407f1 func(data)"))):
        with open(os.path.join(d, base)) as f:
            tl = f.read().split("\n")
        write(d, name, [tl[0], tl[1], f"# made from {base}: {what}"] + [edit(l) for l in tl[2:]])


if __name__ == "__main__":
    main()
