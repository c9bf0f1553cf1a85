#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The bench fixtures of tests/bench_report.py: figures beside results.json
(results/bench_figures.h). Invented test data, not measurements. Run from this
directory: python3 make_fixtures.py

  good/bench.json                  timerharness/bench/v1, clang-22, N = 1000 and 100000
  good/bench-configs-clang-22.json timerharness/bench-configs/v1: none, cfi-icall, kcfi
  good/bench-configs-clang-14.json none, cfi-icall; instructions not counted
  bad/<case>.<as>.json             one change each; placed beside results.json as
                                   bench.json (<as> = bench) or bench-configs-x.json
"""
import copy
import json
import os

IMPLS = ["legacy", "transitional", "modern", "heap"]
OPS = ["add", "mod", "del", "expire", "step"]
# Text a report must escape (markup, table bars, emphasis).
HOST = {"hostname": "lab<b>|*_1", "kernel": "6.1.0-test", "cpus": 2}


def bench():
    cells = []
    for n in (1000, 100000):
        for i, impl in enumerate(IMPLS):
            for k, op in enumerate(OPS):
                heap = 10.0 + k + (n // 100000) * 5
                ns = heap if impl == "heap" else round(heap * (0.5 + 0.25 * i + 0.05 * k), 3)
                cells.append({"n": n, "impl": impl, "op": op, "ns_per_op": ns,
                              "ns_min": round(ns * 0.9, 3), "ns_max": round(ns * 1.1, 3),
                              "ratio_to_heap": 1 if impl == "heap" else round(ns / heap, 4),
                              "instructions_per_op": (40.0 + 10 * k + i) if n == 1000 else None,
                              "instructions_whole_phase": impl != "heap" and op == "step"})
    late = {"mean": 1.5, "max": 7}
    return {
        "schema": "timerharness/bench/v1", "version": "0.1.0", "created": "2025-01-02T03:04:05Z",
        "host": HOST, "toolchain": {"name": "clang-22", "version": "22.0.0"}, "config": "none",
        "settings": {"hz": 1000, "spread_bits": 20, "seed": 42, "reps": 5, "order": "array",
                     "step": 1, "quick": False, "clock": "CLOCK_THREAD_CPUTIME_ID",
                     "clock_read_ns": 20.5},
        "instructions": {"tool": "callgrind", "max_n": 100000, "status": "counted"},
        "sizes": [{"n": n, "rounds": 100 if n == 1000 else 5,
                   "lateness_jiffies": {"wheel": late, "wheel_stepped": {"mean": 1.5, "max": 8},
                                        "heap_stepped": {"mean": 0, "max": 0}}}
                  for n in (1000, 100000)],
        "cells": cells,
    }


def configs(toolchain, names, counted):
    cells = []
    extra = {"none": 0.0, "cfi-icall": 6.4, "kcfi": 3.0}
    slow = {"none": 1.0, "cfi-icall": 1.062, "kcfi": 1.021}
    for n in (1000, 100000):
        for c in names:
            for impl in ("legacy", "transitional", "modern", "heap"):
                if impl == "transitional" and c != "none":
                    continue    # type-based CFI: its legitimate calls trap
                for k, op in enumerate(OPS):
                    base = 10.0 + k + (2 if n == 100000 else 0)
                    r = slow[c] if op == "expire" and impl != "heap" else 1.0
                    ins = None
                    if counted and n == 1000:
                        ins = 48.6 + k + (extra[c] if op == "expire" and impl != "heap" else 0)
                    bins = 48.6 + k if counted and n == 1000 else None
                    cells.append({"n": n, "config": c, "impl": impl, "op": op,
                                  "ns_per_op": round(base * r, 4), "ns_min": round(base * r * 0.95, 4),
                                  "ns_max": round(base * r * 1.05, 4), "ratio_to_none": r,
                                  "ratio_min": round(r - 0.01, 4) if c != "none" else 1.0,
                                  "ratio_max": round(r + 0.02, 4) if c != "none" else 1.0,
                                  "instructions_per_op": ins,
                                  "instructions_ratio_to_none": round(ins / bins, 6) if ins else None})
    status = "counted" if counted else "not counted: --no-instructions"
    return {
        "schema": "timerharness/bench-configs/v1", "version": "0.1.0",
        "created": "2025-01-02T04:05:06Z", "host": HOST, "toolchain": toolchain,
        "settings": {"runs": 5, "reps": 3, "clock": "CLOCK_THREAD_CPUTIME_ID",
                     "confirm_llvm_cfi_median": 0.05},
        "configs": [{"name": c, "program": f"/build/{toolchain}/bench/th-bench-{c}",
                     "instructions": status} for c in names],
        "cells": cells,
    }


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        if isinstance(doc, str):
            f.write(doc)
        else:
            json.dump(doc, f, indent=2)
            f.write("\n")


def main():
    b = bench()
    c22 = configs("clang-22", ["none", "cfi-icall", "kcfi"], True)
    write("good/bench.json", b)
    write("good/bench-configs-clang-22.json", c22)
    write("good/bench-configs-clang-14.json", configs("clang-14", ["none", "cfi-icall"], False))

    def bad(name, base, change):
        doc = copy.deepcopy(base)
        change(doc)
        write(f"bad/{name}", doc)
    # Refused by the loader and by the schema (docs/schema).
    bad("unknown_field.bench.json", b, lambda d: d["cells"][2].update(fast=True))
    bad("wrong_schema.bench.json", b, lambda d: d.update(schema="timerharness/bench/v0"))
    bad("unknown_impl.bench.json", b, lambda d: d["cells"][0].update(impl="wheel"))
    bad("missing_field.bench.json", b, lambda d: d["settings"].pop("reps"))
    bad("wrong_type.bench-configs.json", c22, lambda d: d["cells"][0].update(ns_per_op="3.5"))
    bad("negative.bench-configs.json", c22, lambda d: d["cells"][4].update(ratio_to_none=-1))
    bad("no_none.bench-configs.json", c22,
        lambda d: d.update(configs=d["configs"][1:], cells=[x for x in d["cells"] if x["config"] != "none"]))
    # Refused by the loader only (what a schema cannot say).
    bad("undeclared_config.bench-configs.json", c22, lambda d: d["cells"][0].update(config="shadow-stack"))
    bad("cell_twice.bench.json", b, lambda d: d["cells"].append(copy.deepcopy(d["cells"][0])))
    bad("undeclared_size.bench.json", b, lambda d: d["cells"][0].update(n=5000))
    write("bad/not_json.bench.json", '{"schema": "timerharness/bench/v1",\n  "version": \n')


if __name__ == "__main__":
    main()
