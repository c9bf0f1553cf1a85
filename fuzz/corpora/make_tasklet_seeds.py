#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the tasklet campaigns' seed corpus (fuzz/corpora/tasklet/) and their
hand-written regression inputs (fuzz/corpora/tasklet-findings/): programs of
the overflow target's input format (fuzz/overflow_drive.h) against the
tasklet world (fuzz/tasklet/world.c: the generic tasklet neighbour, name[16]
then a struct tasklet_struct: next @16, state @24, count @32, use_callback
@36 (transitional; legacy: padding), func/callback @40, data @48). No seed
is a finding on any generation (the campaigns time their first hijack from
these). Run from this directory: python3 make_tasklet_seeds.py"""
import os
import struct

OPS = ["ARM", "RUN", "MOD", "NAME", "MEMCPY", "INDEX", "STRCPY", "NEIGHBOUR", "FREE", "SPRAY"]
# fuzz/overflow_world.h enum th_fz_leak, in order (RETIRE: the tasklet
# world's legitimate callback, neighbour_tasklet_fn; RING: the neighbour).
LEAKS = ["WRITE_CR4", "COMMIT_CREDS", "USERMODEHELPER", "RETIRE", "FORCE_CLOSE", "SIM_CPU",
         "CRED", "RING", "MSG", "RING2", "WHEEL", "PROCESS_TIMEOUT", "RING_VALUE", "TASK"]
op = {n: i for i, n in enumerate(OPS)}
leak = {n: i for i, n in enumerate(LEAKS)}


def payload(data, relocs=()):
    """relocs: (byte position, a multiple of 8; leak-table name; addend in
    8-byte steps, -31..31)."""
    out = bytes([len(data), len(relocs)])
    for pos, name, addend in relocs:
        assert pos % 8 == 0 and -31 <= addend <= 31
        out += bytes([pos // 8, leak[name], addend & 0xff])
    return out + data


def tasklet_image(name, use_callback, data):
    """name[16], then the tasklet up to its func slot (next, state, count 0;
    use_callback at 36), 8 bytes for the func slot (a relocation), data."""
    return (name.ljust(16, b"\0") + bytes(8) + bytes(8) + bytes(4) + bytes([use_callback]) + bytes(3)
            + bytes(8) + data)


SEEDS = {
    "control-name": bytes([op["NAME"]]) + payload(b"eth0-tl1\0"),
    "arm-run": bytes([op["ARM"], op["RUN"], 10]),
    "hi-schedule": bytes([op["MOD"], 40]),
    "memcpy-short": bytes([op["MEMCPY"]]) + payload(b"eth0-tl2"),
    "msg-store-short": bytes([op["NEIGHBOUR"]]) + payload(b"hello, msg_buf\0"),
    "spray-after-arm": bytes([op["ARM"], op["SPRAY"]]) + payload(b"S" * 24),
    "pending-name": bytes([op["ARM"], op["NAME"]]) + payload(b"eth0-tl3\0"),
    # A write that puts the tasklet back as the victim set it up (the
    # attacker's view of the object: its layout, the legitimate callback's
    # address, the neighbour's own address as tasklet_init()'s data),
    # changing nothing: use_callback 1 (transitional), func/callback the
    # legitimate callback, data the neighbour (legacy's tasklet_init();
    # on modern the 8 bytes past the 32-byte tasklet: owner_uid and closed).
    "rewrite-tasklet": bytes([op["MEMCPY"]]) + payload(
        tasklet_image(b"eth0-tl5", 1, bytes(8)), [(40, "RETIRE", 0), (48, "RING", 0)]),
}

# The downgrade as the fuzzer must find it, written by hand (issue 28): before
# the victim schedules its tasklet, tasklet-memcpy-intra writes 56 bytes:
# use_callback = 0, func = &write_cr4 (a leak), data = 0x407f0
# (CVE-2017-7308's value); and the same bytes with use_callback left 1.
CR4 = struct.pack("<Q", 0x407f0)
FINDINGS = {
    "use-callback-407f0.bin": bytes([op["MEMCPY"]]) + payload(
        tasklet_image(b"eth0-tl", 0, CR4), [(40, "WRITE_CR4", 0)]),
    "func-keep-use-callback-407f0.bin": bytes([op["MEMCPY"]]) + payload(
        tasklet_image(b"eth0-tl", 1, CR4), [(40, "WRITE_CR4", 0)]),
}

for folder, files in (("tasklet", SEEDS), ("tasklet-findings", FINDINGS)):
    os.makedirs(folder, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
