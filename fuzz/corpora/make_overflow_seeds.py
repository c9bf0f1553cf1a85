#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write the overflow target's seed corpus (fuzz/corpora/overflow/): one small
program per op of the input format (fuzz/overflow_drive.h), none of them a
finding on any variant (the campaigns time their first hijack from these).
Run from this directory: python3 make_overflow_seeds.py"""
import os
import struct

OPS = ["ARM", "RUN", "MOD", "NAME", "MEMCPY", "INDEX", "STRCPY", "NEIGHBOUR", "FREE", "SPRAY"]
# fuzz/overflow_world.h enum th_fz_leak, in order.
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


SEEDS = {
    "control-name": bytes([op["NAME"]]) + payload(b"eth0-rx1\0"),
    "arm-run": bytes([op["ARM"], op["RUN"], 10]),
    "mod-later": bytes([op["MOD"], 40]),
    "memcpy-short": bytes([op["MEMCPY"]]) + payload(b"eth0-rx2"),
    "index-in-bounds": bytes([op["INDEX"], 3]) + payload(b"xy"),
    "strcpy-short": bytes([op["STRCPY"]]) + payload(b"eth0\0"),
    "msg-store-short": bytes([op["NEIGHBOUR"]]) + payload(b"hello, msg_buf\0"),
    "spray-after-arm": bytes([op["ARM"], op["SPRAY"]]) + payload(b"S" * 24),
    "name-holds-ring": bytes([op["NAME"]]) + payload(bytes(8) + b"name", [(0, "RING", 0)]),
    "pending-name": bytes([op["ARM"], op["NAME"]]) + payload(b"eth0-rx3\0"),
    # A pending write that keeps the list as it is: the entry and expiry read
    # back from the ring (a leak) and written again, as the matrix's pending
    # attacks do.
    # Writes that put the timer back as the victim set it up: the attacker's
    # view of the object (its layout, the legitimate callback's address),
    # changing nothing yet. Before the victim arms it, the list is empty.
    "rewrite-function": bytes([op["MEMCPY"]]) + payload(
        b"eth0-rx5".ljust(16, b"\0") + bytes(32), [(40, "RETIRE", 0)]),
    "index-function": bytes([op["INDEX"], 40]) + payload(bytes(8), [(0, "RETIRE", 0)]),
    "pending-keep-list": bytes([op["ARM"], op["MEMCPY"]]) + payload(
        b"eth0-rx4".ljust(16, b"\0") + bytes(24),
        [(16, "RING_VALUE", 2), (24, "RING_VALUE", 3), (32, "RING_VALUE", 4)]),
}

os.makedirs("overflow", exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join("overflow", name), "wb") as f:
        f.write(data)
