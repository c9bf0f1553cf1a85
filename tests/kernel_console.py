#!/usr/bin/env python3
"""Goldens of the real kernel's console classifier (kernel/console.c).

tests/data/kernel/console/NAME.log is a console as `timerharness kernel`
keeps it (its first line: the cell, the config, this boot's token and how
the boot ended); NAME.want is `timerharness kernel classify`'s answer,
"OUTCOME<TAB>evidence". kcfi-*.log and none-*.log are real boots of
Linux 6.1 with the unit (fineibt-*.log: 6.12 booted cfi=fineibt);
hostile-*.log are made from them to try the
classifier: unit lines with another token, a CFI line before the write, a
boot that stopped after the write, garbage, QEMU failing, the wrong cell.
forged-*.log and made-*.log are made by tests/kernel_console_forge.py (its
docstring says each): a forged console is a CFI report that is not the
cell's block (another site, another target, the call went on after it:
CONFIG_CFI_PERMISSIVE) and may never be BLOCKED_CFI; a made console is a
block in a form no boot here gives yet (FineIBT's, IBT's) and must be.
syzkaller's pkg/report goldens are the model.

usage: kernel_console.py TIMERHARNESS DIR [--update]
"""
import os
import re
import subprocess
import sys

HEADER = re.compile(r"^# timerharness kernel: (\S+) on (\S+) \(.*\), token (\w+), "
                    r"(QEMU exited|time limit|QEMU failed) in ")
END = {"QEMU exited": "exited", "time limit": "timeout", "QEMU failed": "failed"}
# A console captured elsewhere than QEMU's serial port, line by line: each
# must be classified as the serial console is (kernel/console.c reads these
# prefixes through).
CAPTURES = {
    "dmesg": lambda l: b"[    1.234567] " + l,
    "dmesg -r": lambda l: b"<6>[    1.234567] " + l,
    "/dev/kmsg": lambda l: b"6,1234,1234567,-;" + l,
    "journalctl -k": lambda l: b"Dec 06 04:00:00 testbox kernel: " + l,
    "CONFIG_PRINTK_CALLER": lambda l: b"[    1.234567][    T1] " + l,
}
# Consoles whose own kernel command line names the boot the header names:
# classified without --cell and --token, they must say the same.
OWN_ARGS = ("kcfi-", "none-", "forged-", "made-")


def classify(th, args, data=None):
    r = subprocess.run([th, "kernel", "classify"] + args, input=data, capture_output=True)
    return r.returncode, r.stdout.decode("ascii", "replace"), r.stderr.decode(errors="replace")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    th, d = sys.argv[1], sys.argv[2]
    update = "--update" in sys.argv[3:]
    logs = sorted(f for f in os.listdir(d) if f.endswith(".log"))
    if not logs:
        sys.exit(f"{d}: no .log goldens")
    failed = 0
    for name in logs:
        path = os.path.join(d, name)
        with open(path, "rb") as f:
            first = f.readline().decode("ascii", "replace")
        m = HEADER.match(first)
        if not m:
            print(f"{path}:1: not a timerharness kernel log header")
            failed += 1
            continue
        attack, _config, token, end = m.groups()
        r = subprocess.run([th, "kernel", "classify", "--cell", attack, "--token", token,
                            "--end", END[end], path], capture_output=True)
        got = r.stdout.decode("ascii", "strict")
        if r.returncode != 0 or got.count("\n") != 1:
            print(f"{path}: classify exited {r.returncode}: {r.stderr.decode(errors='replace')}")
            failed += 1
            continue
        # The evidence is one line of printable ASCII, whatever the console held.
        if any(not (0x20 <= ord(c) < 0x7f or c in "\t\n") for c in got):
            print(f"{path}: evidence holds a control character: {got!r}")
            failed += 1
        want_path = path[:-4] + ".want"
        if update:
            with open(want_path, "w") as f:
                f.write(got)
            continue
        try:
            want = open(want_path).read()
        except OSError as e:
            print(f"{want_path}: {e} (run with --update to create it)")
            failed += 1
            continue
        if got != want:
            print(f"{path}:\n  want {want!r}\n  got  {got!r}")
            failed += 1
            continue
        if name.startswith("hostile-") and got.split("\t")[0] not in ("HARNESS_ERROR", "NO_EFFECT"):
            # What a hostile log may earn: nothing from the attack.
            print(f"{path}: a made-up console earned {got.split(chr(9))[0]}")
            failed += 1
        elif name.startswith("forged-") and got.split("\t")[0] == "BLOCKED_CFI":
            # A CFI report that is not this cell's call stopped is evidence.
            print(f"{path}: a report that is not the cell's block earned BLOCKED_CFI")
            failed += 1
        elif name.startswith("made-") and got.split("\t")[0] != "BLOCKED_CFI":
            print(f"{path}: a block in FineIBT's or IBT's form was not read as one")
            failed += 1
        with open(path, "rb") as f:
            raw = f.read()
        for how, wrap in CAPTURES.items():
            data = b"\n".join(wrap(l) for l in raw.split(b"\n"))
            rc, out, err = classify(th, ["--cell", attack, "--token", token, "--end", END[end], "-"], data)
            if (rc, out) != (0, want):
                print(f"{path}, as {how} gives it: exit {rc} {err}\n  want {want!r}\n  got  {out!r}")
                failed += 1
        if name.startswith(OWN_ARGS):
            rc, out, err = classify(th, ["--end", END[end], path])
            if (rc, out) != (0, want) or f"token {token}:" not in err:
                print(f"{path}, its cell and token from its command line: exit {rc} {err}\n"
                      f"  want {want!r}\n  got  {out!r}")
                failed += 1
    print(f"{len(logs) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
